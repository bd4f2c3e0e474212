/* The one blocked distance engine: every estimator of prdcurve is a
 * reduction over the squared Euclidean distances between query rows and a
 * reference set. Distances are produced tile by tile (one dgemm per tile of
 * query rows against the whole reference set), so memory is
 * O(tile rows x reference rows), never O(n^2); a visitor consumes each row
 * of a tile. Rows are independent: per-row results do not depend on the
 * number of threads. */
#include "prdcurve.h"
#include <math.h>
#include <string.h>
#include <cli/progress.h>
#ifdef _OPENMP
#include <omp.h>
#endif

void prd_row_norms(const double *x, int n, int d, double *out) {
  for (int i = 0; i < n; i++) out[i] = 0.0;
  for (int l = 0; l < d; l++) {
    const double *col = x + (size_t) l * n;
    for (int i = 0; i < n; i++) out[i] += col[i] * col[i];
  }
}

double prd_exact(const prd_ref *ref, prd_row *row, int j) {
  const double *r = ref->data + j;
  size_t rs = (size_t) ref->n;
  double s = 0.0;
  for (int l = 0; l < ref->d; l++) {
    double u = row->q[(size_t) l * row->q_stride] - r[l * rs];
    s += u * u;
  }
  row->d2[j] = s;
  if (!row->exact[j]) {
    row->exact[j] = 1;
    row->touched[row->n_touched++] = j;
  }
  return s;
}

/* ---- bounded max-heap selection of the k smallest values ------------- */

static inline void sift_down(double *h, int n, int i) {
  double v = h[i];
  for (;;) {
    int c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && h[c + 1] > h[c]) c++;
    if (h[c] <= v) break;
    h[i] = h[c];
    i = c;
  }
  h[i] = v;
}

static void select_smallest(const double *v, int lo, int hi, int skip,
                            int kmax, double *h) {
  int n = 0, j = lo;
  for (; j < hi && n < kmax; j++) {
    if (j == skip) continue;
    h[n++] = v[j];
  }
  for (int i = n / 2 - 1; i >= 0; i--) sift_down(h, n, i);
  for (; j < hi; j++) {
    if (v[j] < h[0] && j != skip) {
      h[0] = v[j];
      sift_down(h, n, 0);
    }
  }
  /* heap sort in place: ascending order */
  for (int m = n - 1; m > 0; m--) {
    double t = h[0];
    h[0] = h[m];
    h[m] = t;
    sift_down(h, m, 0);
  }
}

void prd_kth(const prd_ref *ref, prd_row *row, int lo, int hi, int skip,
             const int *ks, int nk, double *heap, double *out) {
  int kmax = ks[nk - 1];
  for (int pass = 0; pass < 4; pass++) {
    select_smallest(row->d2, lo, hi, skip, kmax, heap);
    int redo = 0;
    for (int kk = 0; kk < nk; kk++) {
      double t = heap[ks[kk] - 1];
      out[kk] = t;
      double tol = prd_tol(ref, row, t);
      for (int j = lo; j < hi; j++) {
        double v = row->d2[j];
        if (v < t - tol || v > t + tol || row->exact[j]) continue;
        prd_exact(ref, row, j);
        redo = 1;
      }
    }
    if (!redo) return;
  }
  /* values near the radii are exact now: a last selection settles them */
  select_smallest(row->d2, lo, hi, skip, kmax, heap);
  for (int kk = 0; kk < nk; kk++) out[kk] = heap[ks[kk] - 1];
}

int prd_count(const prd_ref *ref, prd_row *row, int lo, int hi, double t,
              int closed) {
  double tol = prd_tol(ref, row, t), below = t - tol, above = t + tol;
  const double *d2 = row->d2;
  int c = 0;
  for (int j = lo; j < hi; j++) {
    double v = d2[j];
    if (v < below) c++;
    else if (v <= above) c += prd_within(ref, row, j, t, closed);
  }
  return c;
}

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

static int tile_rows(int n_ref, int n_query) {
  /* The distance tile holds rows x n_ref doubles; keep it near 64 MiB. */
  double budget = 8388608.0;
  int m = (int) (budget / (n_ref > 0 ? n_ref : 1));
  if (m > 512) m = 512;
  if (m < 16) m = 16;
  if (m > n_query) m = n_query;
  return m > 0 ? m : 1;
}

int prd_tiles(const prd_ref *ref, const prd_query *qry, prd_visitor visit,
              void *ctx, int threads, SEXP bar, double *ticks) {
  int nr = ref->n, d = ref->d, nq = qry->n;
  if (nq <= 0 || nr <= 0) return 1;
  int m = tile_rows(nr, nq);
  double *qt = (double *) R_alloc((size_t) m * d, sizeof(double));
  double *qn = (double *) R_alloc(m, sizeof(double));
  double *g = (double *) R_alloc((size_t) m * nr, sizeof(double));
  int nt = threads < 1 ? 1 : threads;
  unsigned char *exact = (unsigned char *) R_alloc((size_t) nt * nr, 1);
  int *touched = (int *) R_alloc((size_t) nt * nr, sizeof(int));
  memset(exact, 0, (size_t) nt * nr);

  for (int i0 = 0; i0 < nq; i0 += m) {
    int mm = nq - i0 < m ? nq - i0 : m;
    /* gather the tile's query rows (column-major, leading dimension mm) */
    for (int l = 0; l < d; l++) {
      for (int i = 0; i < mm; i++) {
        int p = i0 + i, s = p < qry->n0 ? 0 : 1;
        qt[i + (size_t) l * mm] =
            qry->src[s][qry->idx[p] + (size_t) l * qry->ld[s]];
      }
    }
    prd_row_norms(qt, mm, d, qn);
    /* g (nr x mm) = -2 * ref %*% t(qt): column i holds query i's products */
    const char *tn = "N", *tt = "T";
    double alpha = -2.0, beta = 0.0;
    F77_CALL(dgemm)(tn, tt, &nr, &mm, &d, &alpha, ref->data, &nr, qt, &mm,
                    &beta, g, &nr FCONE FCONE);
    int use = prd_threads_for((int64_t) mm * nr);
    if (use > nt) use = nt;
#ifdef _OPENMP
#pragma omp parallel for num_threads(use) schedule(dynamic, 1)
#endif
    for (int i = 0; i < mm; i++) {
      int tid = 0;
#ifdef _OPENMP
      tid = omp_get_thread_num();
#endif
      prd_row row;
      row.i = i0 + i;
      row.d2 = g + (size_t) i * nr;
      row.q = qt + i;
      row.q_stride = mm;
      row.q_norm2 = qn[i];
      row.tid = tid;
      row.exact = exact + (size_t) tid * nr;
      row.touched = touched + (size_t) tid * nr;
      row.n_touched = 0;
      const double *rn = ref->norm2;
      double *d2 = row.d2;
      for (int j = 0; j < nr; j++) {
        double v = qn[i] + rn[j] + d2[j];
        d2[j] = v > 0.0 ? v : 0.0;
      }
      visit(ctx, ref, &row);
      for (int t = 0; t < row.n_touched; t++) row.exact[row.touched[t]] = 0;
    }
    *ticks += mm;
    if (!R_ToplevelExec(check_interrupt_fn, NULL)) {
      /* scratch memory is R_alloc'ed and goes with the jump; close the
       * bar, then raise the interrupt again as an interrupt condition */
      prd_progress_done(bar);
      SEXP nsname = PROTECT(Rf_mkString("rlang"));
      SEXP ns = PROTECT(R_FindNamespace(nsname));
      SEXP call = PROTECT(Rf_lang1(Rf_install("interrupt")));
      Rf_eval(call, ns);
      UNPROTECT(3);
      Rf_error("prdcurve: computation interrupted by the user.");
    }
    if (!Rf_isNull(bar) && CLI_SHOULD_TICK) cli_progress_set(bar, *ticks);
  }
  return nt;
}
