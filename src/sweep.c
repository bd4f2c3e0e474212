/* The one tile loop of the engine (prd_sweep()): every sweep runs here,
 * its work done by a result handler (engine.h); progress and interrupts
 * between tiles. */
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

/* rows per tile when the products are formed per column block */
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 256
#endif

static int tile_rows(int n_ref, int n_query, int d) {
  /* The distance tile holds rows x n_ref values: near 8 Mi values (32 MiB
   * of floats, 64 MiB of doubles) where the products need long tiles (d >
   * 256: the reference block is read once per tile), 2 Mi below, where
   * the passes over the tile cost more than the products and a smaller
   * tile stays in cache (1,024 rows instead of 512 at d = 2,048 measured
   * no better, bench/results.md). */
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
static void tiles_interrupt(prd_progress *prog) {
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
static void tile_done(prd_progress *prog, int team, double ticks) {
  if (team > prog->team) prog->team = team;
  prog->ticks += ticks;
  tiles_interrupt(prog);
  if (!Rf_isNull(prog->bar) && CLI_SHOULD_TICK)
    cli_progress_set(prog->bar, prog->ticks);
}

void prd_sweep(const prd_sweep_spec *sw, const prd_handler *h, void *ctx,
               int threads, prd_progress *prog) {
  const prd_ref *C = sw->cols, *R = sw->rows;
  int nc = C->n, d = C->d;
  int nr = sw->symmetric ? nc : R ? R->n : sw->qry->rows.n;
  if (nr <= 0 || nc <= 0) return;
  int nt = threads < 1 ? 1 : threads;
  const prd_prec *prec = &C->prec;
  /* Products per column block: a handler whose `prep` alone reads the
   * products has each block's formed by the thread that visits it, into
   * a buffer of its own (BLOCK_ROWS x col_block values, in the L2 cache),
   * instead of the whole tile before the parallel region (8 MB at 20,000
   * columns, written to memory, zeroed first by the BLAS for beta = 0,
   * and read back by the visits). Not in single precision above K_BLOCK
   * coordinates: each block's sgemm would pack its two 256-row operands
   * at full depth for one 256 x 256 block (no gain measured at 10,000 x
   * 2,048, bench/results.md). With several
   * threads only where the BLAS can be made serial for the while. */
  int blk = h->block_products && prd_knobs.block_products && h->prep &&
            !sw->symmetric && !(prec->single && d > K_BLOCK) &&
            h->col_block > 0;
  if (blk && nt > 1) {
    int ctl = prd_blas_serial_begin();
    prd_blas_serial_end(ctl);
    blk = ctl > 0;
  }
  int m = blk ? (nr < BLOCK_ROWS ? nr : BLOCK_ROWS) : tile_rows(nc, nr, d);
  /* before the loop's own buffers: begin() may run sweeps of its own */
  if (h->begin) h->begin(ctx, m, nc, nt);
  /* query rows: gathered per tile, translated, column-major (leading
   * dimension mm), with their squared norms */
  double *qt = NULL, *qn = NULL;
  float *qtf = NULL;
  if (!sw->symmetric && !R) {
    size_t qlen = (size_t) m * (d > 0 ? d : 1);
    if (prec->single) qtf = (float *) R_alloc(qlen, sizeof(float));
    else qt = (double *) R_alloc(qlen, sizeof(double));
    qn = (double *) R_alloc(m, sizeof(double));
  }
  prd_tile tile;
  prd_tile *bt = NULL;
  if (blk) {
    size_t blen = (size_t) m * h->col_block;
    size_t esz = prec->single ? sizeof(float) : sizeof(double);
    char *mem = R_alloc((size_t) nt * blen + 16, esz);
    bt = (prd_tile *) R_alloc(nt, sizeof(prd_tile));
    for (int t = 0; t < nt; t++)
      tile_block_init(&bt[t], prec, mem + (size_t) t * blen * esz);
    tile_block_init(&tile, prec, mem);
  } else {
    tile_alloc(&tile, prec, d, nc, m);
  }
  double *n_exact = (double *) R_alloc(nt, sizeof(double));
  for (int i0 = 0; i0 < nr; i0 += m) {
    int mm = nr - i0 < m ? nr - i0 : m;
    prd_span s = {&tile, nc, mm, i0, 0, NULL, C->norm2, nc, 0};
    const void *B = block_at(C, 0), *A;
    int lda;
    if (sw->symmetric) {
      /* the rows [i0, i0 + mm) against the columns [i0, n) */
      s.nb = nc - i0;
      s.col0 = i0;
      s.cn = C->norm2 + i0;
      s.qn = s.cn;
      s.tld = s.nb;
      B = block_at(C, i0);
      A = B;
      lda = nc;
    } else if (R) {
      s.qn = R->norm2 + i0;
      A = block_at(R, i0);
      lda = R->n;
    } else {
      gather(&sw->qry->rows, i0, mm, d, sw->qry->centre, prec->scale, qt,
             qtf, qn, NULL, 0, nt);
      s.qn = qn;
      A = prec->single ? (const void *) qtf : (const void *) qt;
      lda = mm;
    }
    /* the tile (nb x mm) = -2 B A': column i holds row i0 + i's products
     * with every column */
    int blas_old = 0;
    if (blk) {
      if (nt > 1) blas_old = prd_blas_serial_begin();
    } else {
      tile_products(prec, s.nb, mm, d, B, nc, A, lda, &tile, nt);
    }
    int c_from = sw->symmetric ? mm : 0;
    int cb = h->col_block > 0 ? h->col_block : 1;
    int nblk = h->columns ? (s.nb - c_from + cb - 1) / cb : 0;
    int use = prd_threads_for((int64_t) mm * s.nb, nt);
    int team = 1;
    for (int t = 0; t < nt; t++) n_exact[t] = 0.0;
#ifdef _OPENMP
#pragma omp parallel num_threads(use)
#endif
    {
      int tid = 0;
#ifdef _OPENMP
      tid = omp_get_thread_num();
#pragma omp master
      team = omp_get_num_threads();
#endif
      if (h->prep) {
        int np = (s.nb + cb - 1) / cb;
#ifdef _OPENMP
#pragma omp for schedule(dynamic, 1)
#endif
        for (int k = 0; k < np; k++) {
          int c0 = k * cb;
          int c1 = s.nb - c0 < cb ? s.nb : c0 + cb;
          if (blk) {
            prd_span sk = s;
            sk.t = &bt[tid];
            sk.tld = c1 - c0;
            sk.tc0 = c0;
            block_products(prec, c1 - c0, mm, d, block_at(C, c0), nc, A,
                           lda, &bt[tid]);
            n_exact[tid] += h->prep(ctx, &sk, c0, c1, tid);
          } else {
            n_exact[tid] += h->prep(ctx, &s, c0, c1, tid);
          }
        }
        /* (a barrier: the rows see every column block's work) */
      }
      if (h->rows) {
#ifdef _OPENMP
#pragma omp for schedule(dynamic, 1)
#endif
        for (int i = 0; i < mm; i++) n_exact[tid] += h->rows(ctx, &s, i, tid);
      }
      /* (the loop above ends with a barrier: the columns see every row's
       * work of this tile) */
#ifdef _OPENMP
#pragma omp for schedule(static, 1)
#endif
      for (int k = 0; k < nblk; k++) {
        int c0 = c_from + k * cb;
        int c1 = s.nb - c0 < cb ? s.nb : c0 + cb;
        n_exact[tid] += h->columns(ctx, &s, c0, c1, tid);
      }
    }
    (void) use;
    if (blk && nt > 1) prd_blas_serial_end(blas_old);
    for (int t = 0; t < nt; t++) prog->exact += n_exact[t];
    tile_done(prog, team, (double) mm * sw->tick_num / sw->tick_den);
  }
  if (h->end) h->end(ctx);
}
