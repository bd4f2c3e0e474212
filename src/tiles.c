/* The one blocked distance engine: every estimator of prdcurve is a
 * reduction over the squared Euclidean distances between query rows and a
 * reference set. Distances are produced tile by tile (one dgemm per tile of
 * query rows against the whole reference set), so memory is
 * O(tile rows x reference rows), never O(n^2); a visitor consumes each row
 * of a tile through the primitives of this file, which decide every
 * comparison exactly. Rows are independent: per-row results do not depend
 * on the number of threads.
 *
 * Rounding. The BLAS product works on rows translated by a centre c (the
 * real set's mean, chosen by the caller): distances are translation
 * invariant, and the translated rows have small norms, so the expansion
 * |q|^2 + |r|^2 - 2<q, r> keeps its accuracy when the data sit far from
 * the origin. With a = q - c, b = r - c (exact), the stored rows are
 * a~ = fl(a), b~ = fl(b), each coordinate rounded once: |a~_l - a_l| <=
 * u |a_l|, u = 2^-53. Then, with D = |a - b| the true distance:
 *   | |a~ - b~| - D | <= u (|a| + |b|), hence
 *   | |a~ - b~|^2 - D^2 | <= u D^2 + 2 u (1 + u) (|a|^2 + |b|^2),
 * and the expansion computed in floating point from a~, b~ (any summation
 * order, FMA or not) is within 2 gamma_{d+2} (|a~|^2 + |b~|^2) of
 * |a~ - b~|^2, gamma_n = n u / (1 - n u). The sum of both is below
 *   tol = 1e-9 t + tol_rel (|a~|^2 + max |b~|^2),
 *   tol_rel = max(1e-12, 4 (d + 3) u)
 * for a comparison with threshold t (D^2 near t; the factor 2 over the
 * bound covers the rounding of the norms themselves). A pair whose
 * approximate squared distance is within tol of t is recomputed exactly
 * as sum((q - r)^2) from the rows *as given* (never the translated ones:
 * translating integer data by a non-integer mean would break exact ties),
 * in the same order as a direct computation, so every decision equals the
 * one from exact distances. */
#include "prdcurve.h"
#include <float.h>
#include <math.h>
#include <string.h>
#include <cli/progress.h>
#ifdef _OPENMP
#include <omp.h>
#endif

static void row_norms(const double *x, int n, int d, double *out) {
  for (int i = 0; i < n; i++) out[i] = 0.0;
  for (int l = 0; l < d; l++) {
    const double *col = x + (size_t) l * n;
    for (int i = 0; i < n; i++) out[i] += col[i] * col[i];
  }
}

/* the row at position p of `rows`, as given, and its stride */
static inline const double *rows_at(const prd_rows *rows, int p,
                                    size_t *stride) {
  int s = p < rows->n0 ? 0 : 1;
  *stride = (size_t) rows->ld[s];
  return rows->src[s] + rows->idx[p];
}

/* Gather rows translated by centre (NULL: none), column-major n x d. */
static void gather(const prd_rows *rows, int lo, int n, int d,
                   const double *centre, double *out) {
  for (int l = 0; l < d; l++) {
    double c = centre ? centre[l] : 0.0;
    double *col = out + (size_t) l * n;
    for (int i = 0; i < n; i++) {
      size_t st;
      const double *r = rows_at(rows, lo + i, &st);
      col[i] = r[(size_t) l * st] - c;
    }
  }
}

void prd_ref_init(prd_ref *ref, const prd_rows *rows, int d,
                  const double *centre) {
  int n = rows->n;
  double *F = (double *) R_alloc((size_t) (n > 0 ? n : 1) * (d > 0 ? d : 1),
                                 sizeof(double));
  double *nrm = (double *) R_alloc(n > 0 ? n : 1, sizeof(double));
  gather(rows, 0, n, d, centre, F);
  row_norms(F, n, d, nrm);
  double mx = 0.0;
  for (int i = 0; i < n; i++) if (nrm[i] > mx) mx = nrm[i];
  double u = DBL_EPSILON / 2.0, rel = 4.0 * ((double) d + 3.0) * u;
  ref->data = F;
  ref->n = n;
  ref->d = d;
  ref->norm2 = nrm;
  ref->norm2_max = mx;
  ref->tol_rel = rel > 1e-12 ? rel : 1e-12;
  ref->orig = *rows;
}

/* ---- exact comparisons --------------------------------------------- */

static inline double prd_tol(const prd_ref *ref, const prd_row *row,
                             double t) {
  return 1e-9 * t + ref->tol_rel * (row->q_norm2 + ref->norm2_max);
}

/* Exact squared distance between the query and reference row j, from the
 * rows as given; stored in d2[j] and flagged. */
static double prd_exact(const prd_ref *ref, prd_row *row, int j) {
  size_t rs;
  const double *r = rows_at(&ref->orig, j, &rs);
  const double *q = row->q0;
  size_t qs = row->q0_stride;
  double s = 0.0;
  for (int l = 0; l < ref->d; l++) {
    double u = q[(size_t) l * qs] - r[(size_t) l * rs];
    s += u * u;
  }
  if (!row->exact[j]) {
    row->approx[j] = row->d2[j];
    row->exact[j] = 1;
    row->touched[row->n_touched++] = j;
  }
  row->d2[j] = s;
  row->n_exact += 1.0;
  return s;
}

static inline int within(const prd_ref *ref, prd_row *row, int j, double t,
                         double tol, int closed) {
  double v = row->d2[j];
  if (v < t - tol) return 1;
  if (v > t + tol) return 0;
  if (!row->exact[j]) v = prd_exact(ref, row, j);
  return closed ? (v <= t) : (v < t);
}

void prd_row_self(prd_row *row, int skip) {
  row->d2[skip] = 0.0;
  row->approx[skip] = 0.0;
  if (!row->exact[skip]) {
    row->exact[skip] = 1;
    row->touched[row->n_touched++] = skip;
  }
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
    else if (v <= above) c += within(ref, row, j, t, tol, closed);
  }
  return c;
}

int prd_count_each(const prd_ref *ref, prd_row *row, int lo, int hi,
                   const double *t, int closed) {
  int c = 0;
  for (int j = lo; j < hi; j++) {
    double tj = t[j - lo];
    c += within(ref, row, j, tj, prd_tol(ref, row, tj), closed);
  }
  return c;
}

void prd_scatter(const prd_ref *ref, prd_row *row, int lo, int hi, double t,
                 int closed, int *acc) {
  double tol = prd_tol(ref, row, t);
  for (int j = lo; j < hi; j++) acc[j] += within(ref, row, j, t, tol, closed);
}

/* r = 0 is the limit r -> 0: tau = 1 at distance 0, else 0. Terms are
 * decided exactly (inside the ball or not, zero distance or not). A term's
 * value uses the exact distance when the approximate one is within the
 * rounding bound of R^2 or of 0, else the approximate one, even if the
 * pair was recomputed for another purpose: so the sum does not depend on
 * which other quantities (radii for which k) the call computes. */
double prd_log_tau_sum(const prd_ref *ref, prd_row *row, int lo, int hi,
                       double radius) {
  double r2 = radius * radius, s = 0.0;
  double tol0 = prd_tol(ref, row, 0.0);
  if (radius == 0.0) {
    for (int j = lo; j < hi; j++) {
      double a = row->exact[j] ? row->approx[j] : row->d2[j];
      if (a > tol0) continue;
      double v = row->exact[j] ? row->d2[j] : prd_exact(ref, row, j);
      if (v == 0.0) return R_NegInf;
    }
    return 0.0;
  }
  double tol = prd_tol(ref, row, r2);
  for (int j = lo; j < hi; j++) {
    double a = row->exact[j] ? row->approx[j] : row->d2[j];
    if (a > r2 + tol) continue;
    double v = a;
    if (a >= r2 - tol || a <= tol0) {
      v = row->exact[j] ? row->d2[j] : prd_exact(ref, row, j);
      if (v >= r2) continue;
    }
    s += log1p(-(1.0 - sqrt(v) / radius));
  }
  return s;
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

void prd_tiles(const prd_ref *ref, const prd_query *qry, prd_visitor visit,
               void *ctx, int threads, prd_progress *prog) {
  int nr = ref->n, d = ref->d, nq = qry->rows.n;
  if (nq <= 0 || nr <= 0) return;
  int m = tile_rows(nr, nq);
  int nt = threads < 1 ? 1 : threads;
  double *qt = (double *) R_alloc((size_t) m * (d > 0 ? d : 1), sizeof(double));
  double *qn = (double *) R_alloc(m, sizeof(double));
  double *g = (double *) R_alloc((size_t) m * nr, sizeof(double));
  unsigned char *exact = (unsigned char *) R_alloc((size_t) nt * nr, 1);
  int *touched = (int *) R_alloc((size_t) nt * nr, sizeof(int));
  double *approx = (double *) R_alloc((size_t) nt * nr, sizeof(double));
  double *n_exact = (double *) R_alloc(nt, sizeof(double));
  memset(exact, 0, (size_t) nt * nr);

  for (int i0 = 0; i0 < nq; i0 += m) {
    int mm = nq - i0 < m ? nq - i0 : m;
    /* the tile's query rows, translated (column-major, leading dim. mm) */
    gather(&qry->rows, i0, mm, d, qry->centre, qt);
    row_norms(qt, mm, d, qn);
    /* g (nr x mm) = -2 * ref %*% t(qt): column i holds query i's products */
    const char *tn = "N", *tt = "T";
    double alpha = -2.0, beta = 0.0;
    F77_CALL(dgemm)(tn, tt, &nr, &mm, &d, &alpha, ref->data, &nr, qt, &mm,
                    &beta, g, &nr FCONE FCONE);
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
        row.d2 = g + (size_t) i * nr;
        row.q_norm2 = qn[i];
        row.q0 = rows_at(&qry->rows, i0 + i, &row.q0_stride);
        row.exact = exact + (size_t) tid * nr;
        row.touched = touched + (size_t) tid * nr;
        row.approx = approx + (size_t) tid * nr;
        row.n_touched = 0;
        row.n_exact = 0.0;
        const double *rn = ref->norm2;
        double *d2 = row.d2;
        for (int j = 0; j < nr; j++) {
          double v = qn[i] + rn[j] + d2[j];
          d2[j] = v > 0.0 ? v : 0.0;
        }
        visit(ctx, ref, &row);
        for (int t = 0; t < row.n_touched; t++) row.exact[row.touched[t]] = 0;
        n_exact[tid] += row.n_exact;
      }
    }
    (void) use;
    for (int t = 0; t < nt; t++) prog->exact += n_exact[t];
    if (team > prog->team) prog->team = team;
    prog->ticks += mm;
    if (!R_ToplevelExec(check_interrupt_fn, NULL)) {
      /* scratch memory is R_alloc'ed and goes with the jump; close the
       * bar, then raise the interrupt again as an interrupt condition */
      prd_progress_done(prog->bar);
      SEXP nsname = PROTECT(Rf_mkString("rlang"));
      SEXP ns = PROTECT(R_FindNamespace(nsname));
      SEXP call = PROTECT(Rf_lang1(Rf_install("interrupt")));
      Rf_eval(call, ns);
      UNPROTECT(3);
      Rf_error("prdcurve: computation interrupted by the user.");
    }
    if (!Rf_isNull(prog->bar) && CLI_SHOULD_TICK)
      cli_progress_set(prog->bar, prog->ticks);
  }
}
