/* The full sweep (prd_tiles()): query rows in tiles against the whole
 * reference set, a visitor per row; progress and interrupts. */
#include "engine.h"
#include <cli/progress.h>

/* ---- user interrupts and progress ---------------------------------- */

static void check_interrupt_fn(void *dummy) {
  (void) dummy;
  R_CheckUserInterrupt();
}

SEXP prd_progress_new(double total, int show) {
  if (!show) return R_NilValue;
  SEXP bar = PROTECT(cli_progress_bar(total, R_NilValue));
  cli_progress_set_name(bar, "prdcurve distances");
  UNPROTECT(1);
  return bar;
}

void prd_progress_done(SEXP bar) {
  if (!Rf_isNull(bar)) cli_progress_done(bar);
}

/* ---- the tile loop ---------------------------------------------------- */

int tile_rows(int n_ref, int n_query, int d) {
  /* The distance tile holds rows x n_ref values: near 64 MiB of doubles
   * where the products need long tiles (d > 256: the reference block is
   * read once per tile), 16 MiB below, where the passes over the tile
   * cost more than the products and a smaller tile stays in cache. */
  double budget = d > K_BLOCK ? 8388608.0 : 2097152.0;
  int m = (int) (budget / (n_ref > 0 ? n_ref : 1));
  if (m > 512) m = 512;
  if (m < 16) m = 16;
  if (m > n_query) m = n_query;
  return m > 0 ? m : 1;
}

/* Between tiles, on the main thread: raise a pending user interrupt as an
 * R interrupt condition (scratch memory is R_alloc'ed and goes with the
 * jump; the bar is closed first). */
void tiles_interrupt(prd_progress *prog) {
  if (R_ToplevelExec(check_interrupt_fn, NULL)) return;
  prd_progress_done(prog->bar);
  SEXP nsname = PROTECT(Rf_mkString("rlang"));
  SEXP ns = PROTECT(R_FindNamespace(nsname));
  SEXP call = PROTECT(Rf_lang1(Rf_install("interrupt")));
  Rf_eval(call, ns);
  UNPROTECT(3);
  Rf_error("prdcurve: computation interrupted by the user.");
}

/* After a tile: record the thread team, advance the progress by `ticks`
 * rows, honour a user interrupt and update the bar */
void tile_done(prd_progress *prog, int team, double ticks) {
  if (team > prog->team) prog->team = team;
  prog->ticks += ticks;
  tiles_interrupt(prog);
  if (!Rf_isNull(prog->bar) && CLI_SHOULD_TICK)
    cli_progress_set(prog->bar, prog->ticks);
}

void prd_tiles(const prd_ref *ref, const prd_query *qry, prd_visitor visit,
               void *ctx, int threads, prd_progress *prog) {
  int nr = ref->n, d = ref->d, nq = qry->rows.n;
  if (nq <= 0 || nr <= 0) return;
  int m = tile_rows(nr, nq, d);
  int nt = threads < 1 ? 1 : threads;
  const prd_prec *prec = &ref->prec;
  size_t qlen = (size_t) m * (d > 0 ? d : 1);
  double *qt = prec->single ? NULL :
    (double *) R_alloc(qlen, sizeof(double));
  float *qtf = prec->single ? (float *) R_alloc(qlen, sizeof(float)) : NULL;
  double *qn = (double *) R_alloc(m, sizeof(double));
  prd_tile tile;
  tile_alloc(&tile, prec, d, (size_t) m * nr);
  /* each thread's distance row: filled from the tile, then cache-resident
   * for the visitor's passes (in double precision the tile's own column) */
  double *rowbuf = prec->single ?
    (double *) R_alloc((size_t) nt * nr, sizeof(double)) : NULL;
  unsigned char *exact = (unsigned char *) R_alloc((size_t) nt * nr, 1);
  int *touched = (int *) R_alloc((size_t) nt * nr, sizeof(int));
  double *approx = (double *) R_alloc((size_t) nt * nr, sizeof(double));
  int *cand = (int *) R_alloc((size_t) nt * nr, sizeof(int));
  double *cval = (double *) R_alloc((size_t) nt * nr, sizeof(double));
  /* each thread's query row as given, contiguous: the exact
   * recomputations read it once per pair */
  double *q0 = (double *) R_alloc((size_t) nt * (d > 0 ? d : 1),
                                  sizeof(double));
  double *n_exact = (double *) R_alloc(nt, sizeof(double));
  memset(exact, 0, (size_t) nt * nr);

  for (int i0 = 0; i0 < nq; i0 += m) {
    int mm = nq - i0 < m ? nq - i0 : m;
    /* the tile's query rows, translated (column-major, leading dim. mm) */
    gather(&qry->rows, i0, mm, d, qry->centre, prec->scale, qt, qtf, qn,
           NULL, nt);
    /* g (nr x mm) = -2 * ref %*% t(qt): column i holds query i's products */
    tile_products(prec, nr, mm, d, block_at(ref, 0), nr,
                  prec->single ? (const void *) qtf : (const void *) qt, mm,
                  &tile, nt);
    int use = prd_threads_for((int64_t) mm * nr, nt);
    int team = 1;
    for (int t = 0; t < nt; t++) n_exact[t] = 0.0;
#ifdef _OPENMP
#pragma omp parallel num_threads(use)
#endif
    {
#ifdef _OPENMP
#pragma omp master
      team = omp_get_num_threads();
#pragma omp for schedule(dynamic, 1)
#endif
      for (int i = 0; i < mm; i++) {
        int tid = 0;
#ifdef _OPENMP
        tid = omp_get_thread_num();
#endif
        prd_row row;
        row.i = i0 + i;
        row.tid = tid;
        row.d2 = rowbuf ? rowbuf + (size_t) tid * nr :
                          tile.g + (size_t) i * nr;
        row.q_norm2 = qn[i];
        size_t qs;
        const double *qr = rows_at(&qry->rows, i0 + i, &qs);
        double *qc = q0 + (size_t) tid * d;
        for (int l = 0; l < d; l++) qc[l] = qr[(size_t) l * qs];
        row.q0 = qc;
        row.q0_stride = 1;
        row.exact = exact + (size_t) tid * nr;
        row.touched = touched + (size_t) tid * nr;
        row.cand = cand + (size_t) tid * nr;
        row.cval = cval + (size_t) tid * nr;
        row.approx = approx + (size_t) tid * nr;
        row.n_touched = 0;
        row.n_exact = 0.0;
        tile_row(&tile, nr, i, 0, nr, qn[i], ref->norm2, row.d2);
        visit(ctx, ref, &row);
        for (int t = 0; t < row.n_touched; t++) row.exact[row.touched[t]] = 0;
        n_exact[tid] += row.n_exact;
      }
    }
    (void) use;
    for (int t = 0; t < nt; t++) prog->exact += n_exact[t];
    tile_done(prog, team, mm);
  }
}

