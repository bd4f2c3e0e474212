#include "engine.h"
#include <string.h>
#include <math.h>
#include <R_ext/Lapack.h>

/* Covariances of a fold's fit rows from its moments about a set's centre
 * (R/crossfit.R): M the rows' C'C (d x d, symmetric), n their count, m
 * their mean about the centre. Columns shared among the engine's threads;
 * each value is summed in one fixed order, the same whatever their count. */

/* .Call(ffi_fold_cov, M, Mv, n, m): list(S = (M - Mv) / n - m m',
 * Mm = (M - Mv) m), M and Mv symmetric (so that column j of M - Mv gives
 * element j of Mm); Mv NULL: M alone. */
SEXP ffi_fold_cov(SEXP M, SEXP Mv, SEXP n, SEXP m) {
  int none = Rf_isNull(Mv);
  if (!Rf_isReal(M) || !Rf_isMatrix(M) ||
      !(none || (Rf_isReal(Mv) && Rf_isMatrix(Mv))) || !Rf_isReal(m) ||
      !Rf_isReal(n) || Rf_length(n) != 1)
    Rf_error("ffi_fold_cov: bad argument types");
  int d = Rf_nrows(M);
  if (Rf_ncols(M) != d ||
      (!none && (Rf_nrows(Mv) != d || Rf_ncols(Mv) != d)) ||
      Rf_length(m) != d)
    Rf_error("ffi_fold_cov: `M`, `Mv` must be d x d and `m` of length d");
  double nn = REAL_RO(n)[0];
  SEXP S = PROTECT(prd_alloc_matrix(REALSXP, d, d));
  SEXP Mm = PROTECT(Rf_allocVector(REALSXP, d));
  const double *a = REAL_RO(M), *b = none ? NULL : REAL_RO(Mv),
               *mu = REAL_RO(m);
  double *s = REAL(S), *mm = REAL(Mm);
  int use = prd_threads_for((int64_t) d * d, prd_threads_get());
#ifdef _OPENMP
#pragma omp parallel for num_threads(use) schedule(static)
#endif
  for (int j = 0; j < d; j++) {
    size_t off = (size_t) j * d;
    double acc = 0, mj = mu[j];
    for (int i = 0; i < d; i++) {
      double v = b ? a[off + i] - b[off + i] : a[off + i];
      acc += v * mu[i];
      s[off + i] = v / nn - mu[i] * mj;
    }
    mm[j] = acc;
  }
  (void) use;
  SEXP out = prd_named_pair(S, "S", Mm, "Mm");
  UNPROTECT(2);
  return out;
}

/* o[k] = the sum over the c columns j, in order, of col[3 j + k], k < 3
 * (ffi_frob3() and ffi_cov_norms(): the same sums) */
static void sum_columns3(const double *col, int c, double *o) {
  o[0] = o[1] = o[2] = 0;
  for (int j = 0; j < c; j++)
    for (int k = 0; k < 3; k++) o[k] += col[3 * (size_t) j + k];
}

/* .Call(ffi_frob3, A, B): c(sum(A^2), sum(B^2), sum(A * B)) of two
 * matrices of one shape, without their squares' copies (column sums, then
 * the columns in order). */
SEXP ffi_frob3(SEXP A, SEXP B) {
  if (!Rf_isReal(A) || !Rf_isReal(B) || Rf_length(A) != Rf_length(B) ||
      !Rf_isMatrix(A))
    Rf_error("ffi_frob3: `A` and `B` must be double matrices of one shape");
  int r = Rf_nrows(A), c = Rf_ncols(A);
  const double *a = REAL_RO(A), *b = REAL_RO(B);
  double *col = (double *) R_alloc((size_t) 3 * (c > 0 ? c : 1), sizeof(double));
  int use = prd_threads_for((int64_t) r * c, prd_threads_get());
#ifdef _OPENMP
#pragma omp parallel for num_threads(use) schedule(static)
#endif
  for (int j = 0; j < c; j++) {
    size_t off = (size_t) j * r;
    double xx = 0, yy = 0, xy = 0;
    for (int i = 0; i < r; i++) {
      double u = a[off + i], v = b[off + i];
      xx += u * u;
      yy += v * v;
      xy += u * v;
    }
    col[3 * (size_t) j] = xx;
    col[3 * (size_t) j + 1] = yy;
    col[3 * (size_t) j + 2] = xy;
  }
  (void) use;
  SEXP out = PROTECT(Rf_allocVector(REALSXP, 3));
  sum_columns3(col, c, REAL(out));
  UNPROTECT(1);
  return out;
}

/* a A + b B + c I of two d x d matrices (the covariance a fitted family
 * factors) in one pass, as R forms each element: (a A_ij + b B_ij) + c on
 * the diagonal (R's a * A + b * B then diag<- took three temporaries and
 * two more passes); columns shared among the engine's threads */
static SEXP cov_combine(SEXP A, SEXP B, SEXP a, SEXP b, SEXP c,
                        const char *fn) {
  if (!Rf_isReal(A) || !Rf_isMatrix(A) || !Rf_isReal(B) ||
      !Rf_isMatrix(B) || !Rf_isReal(a) || !Rf_isReal(b) || !Rf_isReal(c) ||
      Rf_length(a) != 1 || Rf_length(b) != 1 || Rf_length(c) != 1)
    Rf_error("%s: bad argument types", fn);
  int d = Rf_nrows(A);
  if (Rf_ncols(A) != d || Rf_nrows(B) != d || Rf_ncols(B) != d)
    Rf_error("%s: `A` and `B` must be d x d", fn);
  double wa = REAL_RO(a)[0], wb = REAL_RO(b)[0], wc = REAL_RO(c)[0];
  SEXP M = PROTECT(prd_alloc_matrix(REALSXP, d, d));
  const double *x = REAL_RO(A), *y = REAL_RO(B);
  double *m = REAL(M);
  int use = prd_threads_for((int64_t) d * d, prd_threads_get());
#ifdef _OPENMP
#pragma omp parallel for num_threads(use) schedule(static)
#endif
  for (int j = 0; j < d; j++) {
    size_t off = (size_t) j * d;
    for (int i = 0; i < d; i++) {
      double v = wa * x[off + i];
      double w = wb * y[off + i];
      m[off + i] = v + w;
    }
    m[off + j] = m[off + j] + wc;
  }
  (void) use;
  UNPROTECT(1);
  return M;
}

/* .Call(ffi_cov_factor, A, B, a, b, c): the upper Cholesky factor of a A +
 * b B + c I, formed in place (LAPACK's dpotrf, its strict lower triangle
 * zero): chol() of that matrix without chol()'s copy of it; NULL when the
 * matrix is not positive definite or the factor not finite. */
SEXP ffi_cov_factor(SEXP A, SEXP B, SEXP a, SEXP b, SEXP c) {
  SEXP M = PROTECT(cov_combine(A, B, a, b, c, "ffi_cov_factor"));
  int d = Rf_nrows(M), info = 0;
  double *m = REAL(M);
  for (int j = 0; j < d; j++)
    for (int i = j + 1; i < d; i++) m[(size_t) j * d + i] = 0.0;
  const char *up = "U";
  if (d > 0) F77_CALL(dpotrf)(up, &d, m, &d, &info FCONE);
  /* (not every LAPACK stops at a value that is not finite) */
  for (int j = 0; j < d && info == 0; j++)
    if (!R_FINITE(m[(size_t) j * d + j])) info = j + 1;
  UNPROTECT(1);
  return info == 0 ? M : R_NilValue;
}

/* .Call(ffi_whiten, R, B): R^-T B R^-1 for an upper Cholesky factor R
 * (d x d, its strict lower triangle ignored) and a symmetric d x d B (its
 * upper triangle read): LAPACK's dsygst (itype 1), the reduction of the
 * generalised problem B v = l R'R v to a standard one, in about d^3
 * flops and one copy of B; the lower triangle is filled from the upper,
 * so the result is the full symmetric matrix. The spectral family's
 * whitened covariance (R/family-spectral.R). */
SEXP ffi_whiten(SEXP R, SEXP B) {
  if (!Rf_isReal(R) || !Rf_isMatrix(R) || !Rf_isReal(B) || !Rf_isMatrix(B))
    Rf_error("ffi_whiten: bad argument types");
  int d = Rf_nrows(R), info = 0, one = 1;
  if (Rf_ncols(R) != d || Rf_nrows(B) != d || Rf_ncols(B) != d)
    Rf_error("ffi_whiten: `R` and `B` must be d x d");
  SEXP M = PROTECT(Rf_duplicate(B));
  double *m = REAL(M);
  const char *up = "U";
  if (d > 0)
    F77_CALL(dsygst)(&one, up, &d, m, &d, REAL_RO(R), &d, &info FCONE);
  if (info != 0) Rf_error("ffi_whiten: dsygst failed (info %d)", info);
  for (int j = 0; j < d; j++)
    for (int i = j + 1; i < d; i++)
      m[(size_t) j * d + i] = m[(size_t) i * d + j];
  UNPROTECT(1);
  return M;
}

/* .Call(ffi_centre_t, x, centre, rows): t(x[rows, ] - centre), the d x m
 * matrix of the rows (1-based) centred on `centre` and stored one row per
 * column, so that a row's values are contiguous (ffi_fold_sigma()); in
 * blocks of 64 rows and 64 columns, the row blocks shared among the
 * engine's threads. The same doubles as t(ffi_centre(x, centre, rows)). */
SEXP ffi_centre_t(SEXP x, SEXP centre, SEXP rows) {
  prd_check_centre_rows(x, centre, rows, "ffi_centre_t");
  int n = Rf_nrows(x), d = Rf_ncols(x), m = Rf_length(rows);
  const int *r = INTEGER_RO(rows);
  SEXP out = PROTECT(prd_alloc_matrix(REALSXP, d, m));
  const double *X = REAL_RO(x), *c = REAL_RO(centre);
  double *o = REAL(out);
  int nb = (m + 63) / 64;
  int use = prd_threads_over((int64_t) m * d, nb);
#ifdef _OPENMP
#pragma omp parallel for num_threads(use) schedule(static)
#endif
  for (int b = 0; b < nb; b++) {
    int i0 = 64 * b, i1 = i0 + 64 < m ? i0 + 64 : m;
    for (int l0 = 0; l0 < d; l0 += 64) {
      int l1 = l0 + 64 < d ? l0 + 64 : d;
      for (int l = l0; l < l1; l++) {
        const double *col = X + (size_t) l * n;
        double cl = c[l];
        for (int i = i0; i < i1; i++)
          o[(size_t) i * d + l] = col[r[i] - 1] - cl;
      }
    }
  }
  (void) use;
  UNPROTECT(1);
  return out;
}

/* The arguments of ffi_fold_sigma() checked: Et d x m, fold m values in
 * 1..K, D d x K */
static void fold_args(SEXP Et, SEXP fold, SEXP D, const char *fn) {
  if (!Rf_isReal(Et) || !Rf_isMatrix(Et) || !Rf_isInteger(fold) ||
      !Rf_isReal(D) || !Rf_isMatrix(D))
    Rf_error("%s: bad argument types", fn);
  int d = Rf_nrows(Et), m = Rf_ncols(Et), K = Rf_ncols(D);
  if (Rf_nrows(D) != d || Rf_length(fold) != m)
    Rf_error("%s: `D` must have nrow(Et) rows, `fold` ncol(Et) values", fn);
  const int *f = INTEGER_RO(fold);
  for (int i = 0; i < m; i++)
    if (f[i] == NA_INTEGER || f[i] < 1 || f[i] > K)
      Rf_error("%s: fold %d out of range", fn, i + 1);
}

/* sum over the columns e_i of Et (d x m) with fold[i] = v of e_i (e_i'
 * D[, v]), for each fold v: into out (d x K) as out - that sum (sub) or
 * that sum. The rows are shared among the engine's threads, each summing
 * into its own d x K block; the blocks are then added in thread order
 * (the same values for a given thread count). */
static void fold_apply_into(const double *E, const int *f, const double *Dm,
                            int d, int m, int K, double *out, int sub) {
  int use = prd_threads_over((int64_t) m * d, m);
  size_t blk = (size_t) d * K;
  double *acc = (double *) R_alloc((size_t) use * (blk > 0 ? blk : 1),
                                   sizeof(double));
  for (size_t j = 0; j < (size_t) use * blk; j++) acc[j] = 0;
#ifdef _OPENMP
#pragma omp parallel for num_threads(use) schedule(static)
#endif
  for (int t = 0; t < use; t++) {
    int i0 = (int) ((int64_t) m * t / use), i1 = (int) ((int64_t) m * (t + 1) / use);
    double *o = acc + (size_t) t * blk;
    for (int i = i0; i < i1; i++) {
      const double *e = E + (size_t) i * d;
      const double *v = Dm + (size_t) (f[i] - 1) * d;
      double *ov = o + (size_t) (f[i] - 1) * d;
      double s = 0;
      for (int l = 0; l < d; l++) s += e[l] * v[l];
      for (int l = 0; l < d; l++) ov[l] += s * e[l];
    }
  }
  for (size_t j = 0; j < blk; j++) {
    double s = 0;
    for (int t = 0; t < use; t++) s += acc[(size_t) t * blk + j];
    out[j] = sub ? out[j] - s : s;
  }
}

/* the kernels' team: prd_blocked_team() (engine.h, defined below) */
typedef void (*team_fn)(void *ctx, int me, int team);
static void team_run(int use, int old, team_fn fn, void *ctx);

typedef struct {
  const double *a, *b;
  double *o;
  int d, K;
} sigma_ctx;

/* a thread's panel of rows of Mt D: whole multiples of 8 rows */
static void sigma_panel(void *p, int me, int team) {
  sigma_ctx *c = (sigma_ctx *) p;
  int d = c->d;
  int r0 = (int) ((int64_t) ((d + 7) / 8) * me / team) * 8;
  int r1 = (int) ((int64_t) ((d + 7) / 8) * (me + 1) / team) * 8;
  if (r1 > d) r1 = d;
  int nr = r1 - r0;
  const char *nn = "N";
  double one = 1.0, zero = 0.0;
  if (nr > 0)
    F77_CALL(dgemm)(nn, nn, &nr, &c->K, &d, &one, c->a + r0, &d, c->b, &d,
                    &zero, c->o + r0, &d FCONE FCONE);
}

/* .Call(ffi_fold_sigma, Mt, Et, fold, D): Mt D less, for each fold v
 * (column v of the d x K matrix D), the sum over the columns e_i of Et
 * (d x m, one row per column, ffi_centre_t()) with fold[i] = v of e_i
 * (e_i' D[, v]), the product C_v' C_v D[, v] of the fold's rows C_v, in
 * one pass over Et (fold_apply_into()); Mt d x d: a step of the folds'
 * conjugate gradients (fold_discriminants()) for one set. The product Mt D (memory bound: Mt
 * read once for K columns) is cut into panels of rows, one per engine
 * thread, each calling the BLAS's dgemm with the BLAS at one thread
 * (prd_blocked_team()), so that Mt is read at every core's bandwidth and no
 * BLAS thread spins beside the engine's. */
SEXP ffi_fold_sigma(SEXP Mt, SEXP Et, SEXP fold, SEXP D) {
  fold_args(Et, fold, D, "ffi_fold_sigma");
  int d = Rf_nrows(Et), m = Rf_ncols(Et), K = Rf_ncols(D);
  if (!Rf_isReal(Mt) || !Rf_isMatrix(Mt) || Rf_nrows(Mt) != d ||
      Rf_ncols(Mt) != d)
    Rf_error("ffi_fold_sigma: `Mt` must be a d x d double matrix");
  SEXP out = PROTECT(Rf_allocMatrix(REALSXP, d, K));
  double *o = REAL(out);
  const double *a = REAL_RO(Mt), *b = REAL_RO(D);
  if (d > 0 && K > 0) {
    int old = 0;
    int use = prd_blocked_team((int64_t) d * d * K, (d + 31) / 32, &old);
    sigma_ctx ctx = {a, b, o, d, K};
    team_run(use, old, sigma_panel, &ctx);
  }
  fold_apply_into(REAL_RO(Et), INTEGER_RO(fold), b, d, m, K, o, 1);
  UNPROTECT(1);
  return out;
}

/* a thread's columns of V (c->o, in place): two triangular solves by R
 * (c->a) */
static void solve_columns(void *p, int me, int team) {
  sigma_ctx *c = (sigma_ctx *) p;
  int d = c->d;
  int c0 = (int) ((int64_t) c->K * me / team);
  int c1 = (int) ((int64_t) c->K * (me + 1) / team);
  int nc = c1 - c0;
  const char *left = "L", *up = "U", *tr = "T", *nn = "N";
  double one = 1.0;
  if (nc > 0) {
    double *oc = c->o + (size_t) c0 * d;
    F77_CALL(dtrsm)(left, up, tr, nn, &d, &nc, &one, c->a, &d, oc, &d
                    FCONE FCONE FCONE FCONE);
    F77_CALL(dtrsm)(left, up, nn, nn, &d, &nc, &one, c->a, &d, oc, &d
                    FCONE FCONE FCONE FCONE);
  }
}

/* .Call(ffi_chol_solve, R, V): (R'R)^-1 V for the upper triangular d x d
 * R (a Cholesky factor) and V d x K: backsolve(R, backsolve(R, V,
 * transpose = TRUE)) with V's columns cut among the engine's threads, each
 * calling the BLAS's dtrsm twice on its own columns with the BLAS at one
 * thread (prd_blocked_team()): the preconditioner of fold_discriminants(). */
SEXP ffi_chol_solve(SEXP R, SEXP V) {
  if (!Rf_isReal(R) || !Rf_isMatrix(R) || !Rf_isReal(V) || !Rf_isMatrix(V) ||
      Rf_ncols(R) != Rf_nrows(R) || Rf_nrows(V) != Rf_nrows(R))
    Rf_error("ffi_chol_solve: `R` must be d x d and `V` have d rows");
  int d = Rf_nrows(R), K = Rf_ncols(V);
  SEXP out = PROTECT(Rf_duplicate(V));
  if (d > 0 && K > 0) {
    int old = 0;
    int use = prd_blocked_team((int64_t) d * d * K, K, &old);
    sigma_ctx ctx = {REAL_RO(R), NULL, REAL(out), d, K};
    team_run(use, old, solve_columns, &ctx);
  }
  UNPROTECT(1);
  return out;
}

/* Rows a block of the blocked moments below: about 8 MB of centred rows
 * (never fewer than 256 rows), so that no m x d copy of the rows is made
 * and the BLAS's products still run on deep blocks. */
static int centred_block_rows(int m, int d) {
  int64_t b = ((int64_t) 1 << 20) / (d > 0 ? d : 1);
  if (b < 256) b = 256;
  if (b > m) b = m;
  return (int) (b > 0 ? b : 1);
}

/* q[i] = |row i|^2 of the rows a0..a1 - 1 of the mb x d column-major
 * buf, summed over the columns in order (the same values as
 * prd_row_scores() about 0). One thread. */
static void row_sumsq(const double *buf, int mb, int d, int a0, int a1,
                      double *q) {
  for (int i = a0; i < a1; i++) q[i] = 0.0;
  for (int l = 0; l < d; l++) {
    const double *src = buf + (size_t) l * mb;
    for (int i = a0; i < a1; i++) q[i] += src[i] * src[i];
  }
}

/* The threads of a blocked product over nblk blocks of `work` flops in
 * all: the engine's count, each thread calling the BLAS on its own blocks
 * with the BLAS set to one thread (*old: its count before, for
 * prd_blas_serial_end()), as the engine's tiles do (products.c): the
 * BLAS's own threads, left spinning between its calls, would otherwise
 * compete for the cores with the engine's threads in the steps between
 * (on 2 cores, a third of the fitted families' time). One thread when the
 * BLAS offers no such control. */
int prd_blocked_team(int64_t work, int nblk, int *old) {
  int use = prd_threads_over(work, nblk);
  *old = 0;
  if (use > 1) {
    *old = prd_blas_serial_begin();
    if (*old == 0) use = 1;
  }
  return use;
}

/* fn(ctx, me, team) on each thread of a team of `use` (prd_blocked_team()),
 * then the BLAS's thread count as it was (`old`). An `omp for` or a
 * barrier inside fn binds to this team. */
static void team_run(int use, int old, team_fn fn, void *ctx) {
#ifdef _OPENMP
#pragma omp parallel num_threads(use)
  fn(ctx, omp_get_thread_num(), omp_get_num_threads());
#else
  (void) use;
  fn(ctx, 0, 1);
#endif
  prd_blas_serial_end(old);
}

/* the lower triangle of the d x d matrix m from its upper one, in tiles
 * of 64 x 64 (a column of the lower triangle reads a row of the upper),
 * the tiles' columns shared among the engine's threads */
static void mirror_upper(double *m, int d) {
  int nt = (d + 63) / 64;
  int use = prd_threads_over((int64_t) d * d / 2, nt);
#ifdef _OPENMP
#pragma omp parallel for num_threads(use) schedule(dynamic, 1)
#endif
  for (int tj = 0; tj < nt; tj++) {
    int j0 = 64 * tj, j1 = j0 + 64 < d ? j0 + 64 : d;
    for (int i0 = j0; i0 < d; i0 += 64) {
      int i1 = i0 + 64 < d ? i0 + 64 : d;
      for (int j = j0; j < j1; j++)
        for (int i = i0 > j + 1 ? i0 : j + 1; i < i1; i++)
          m[(size_t) j * d + i] = m[(size_t) i * d + j];
    }
  }
  (void) use;
}

typedef struct {
  const double *X, *c;
  const int *r, *ce;
  double *buf, *mm, *qq, *sp, *qp;
  int n, d, m, B;
  /* the single-precision products (cells_part()): the block's columns as
   * floats, each column's power-of-two scale, each thread's panel */
  float *fbuf, *facc;
  double *unit;
} cells_ctx;

/* Thread t's panel of columns of C'C in a team of `team`: the columns
 * panel_edge(t) .. panel_edge(t + 1) - 1, edges at d sqrt(t / team) (equal
 * areas of the upper triangle) */
static int panel_edge(int d, int t, int team) {
  return t >= team ? d : (int) floor(d * sqrt((double) t / team));
}

/* Where thread t's float panel starts (the rows 0 .. c1 - 1 of its columns
 * c0 .. c1 - 1, one after the other); t = team: the floats of them all */
static size_t panel_offset(int d, int t, int team) {
  size_t at = 0;
  for (int u = 0; u < t; u++) {
    size_t c0 = (size_t) panel_edge(d, u, team);
    size_t c1 = (size_t) panel_edge(d, u + 1, team);
    at += c1 * (c1 - c0);
  }
  return at;
}

/* The columns l0..l1 - 1 of the mb x d block buf as floats: column l
 * times 2^-e (e the exponent of its largest |value|, frexp(): every float
 * below 1 in magnitude, no overflow, and a column's relative precision
 * whatever its scale), unit[l] = 2^e, so that buf_il buf_im = fbuf_il
 * fbuf_im unit[l] unit[m] up to the floats' rounding. */
static void single_cols(const double *buf, int mb, int l0, int l1,
                        float *fbuf, double *unit) {
  for (int l = l0; l < l1; l++) {
    const double *src = buf + (size_t) l * mb;
    float *dst = fbuf + (size_t) l * mb;
    double mx = 0.0;
    for (int i = 0; i < mb; i++) {
      double v = fabs(src[i]);
      if (v > mx) mx = v;
    }
    int e = 0;
    if (mx > 0.0) (void) frexp(mx, &e);
    double down = ldexp(1.0, -e);
    unit[l] = ldexp(1.0, e);
    for (int i = 0; i < mb; i++) dst[i] = (float) (src[i] * down);
  }
}

/* a thread's part of ffi_cell_moments(): every block of rows in turn, its
 * columns centred and its cells' sums by all the team, its rows' q, then
 * the thread's panel of columns of C'C */
static void cells_part(void *p, int me, int team) {
  cells_ctx *a = (cells_ctx *) p;
  const double *X = a->X, *c = a->c;
  const int *r = a->r, *ce = a->ce;
  double *buf = a->buf, *mm = a->mm, *qq = a->qq, *sp = a->sp, *qp = a->qp;
  int n = a->n, d = a->d, m = a->m, B = a->B;
  int c0 = panel_edge(d, me, team), c1 = panel_edge(d, me + 1, team);
  int w = c1 - c0;
  const char *up = "U", *tr = "T", *nn = "N";
  double one = 1.0;
  for (int i0 = 0; i0 < m; i0 += B) {
    int mb = m - i0 < B ? m - i0 : B;
    /* each thread centres its share of the columns, then (after the
     * barrier) sums its share of the rows' q over the columns in order */
    prd_centre_cols(X, n, r, i0, mb, c, (int) ((int64_t) d * me / team),
                    (int) ((int64_t) d * (me + 1) / team), buf);
    if (a->fbuf)
      single_cols(buf, mb, (int) ((int64_t) d * me / team),
                  (int) ((int64_t) d * (me + 1) / team), a->fbuf, a->unit);
#ifdef _OPENMP
#pragma omp barrier
#endif
    row_sumsq(buf, mb, d, (int) ((int64_t) mb * me / team),
              (int) ((int64_t) mb * (me + 1) / team), qq + i0);
#ifdef _OPENMP
#pragma omp barrier
#endif
#ifdef _OPENMP
#pragma omp for schedule(static) nowait
#endif
    for (int l = 0; l < d; l++) {
      const double *src = buf + (size_t) l * mb;
      for (int i = 0; i < mb; i++) {
        size_t at = (size_t) (ce[i0 + i] - 1) * d + l;
        sp[at] += src[i];
        qp[at] += qq[i0 + i] * src[i];
      }
    }
    if (w > 0 && a->fbuf) {
#ifdef PRD_HAVE_SSYRK
      /* in single precision: the panel's products into the thread's own
       * float panel (beta = 0), then added to M in double, each entry
       * times the power-of-two units of its two columns (exact) */
      float *acc = a->facc + panel_offset(d, me, team);
      const float *fp = a->fbuf + (size_t) c0 * mb;
      float onef = 1.0f, zerof = 0.0f;
      F77_CALL(ssyrk)(up, tr, &w, &mb, &onef, fp, &mb, &zerof, acc + c0, &c1
                      FCONE FCONE);
      if (c0 > 0)
        F77_CALL(sgemm)(tr, nn, &c0, &w, &mb, &onef, a->fbuf, &mb, fp, &mb,
                        &zerof, acc, &c1 FCONE FCONE);
      const double *u = a->unit;
      for (int j = c0; j < c1; j++) {
        const float *src = acc + (size_t) (j - c0) * c1;
        double *dst = mm + (size_t) j * d, uj = u[j];
        for (int i = 0; i <= j; i++) dst[i] += (double) src[i] * (u[i] * uj);
      }
#endif
    } else if (w > 0) {
      const double *panel = buf + (size_t) c0 * mb;
      F77_CALL(dsyrk)(up, tr, &w, &mb, &one, panel, &mb, &one,
                      mm + (size_t) c0 * d + c0, &d FCONE FCONE);
      if (c0 > 0)
        F77_CALL(dgemm)(tr, nn, &c0, &w, &mb, &one, buf, &mb, panel, &mb,
                        &one, mm + (size_t) c0 * d, &d FCONE FCONE);
    }
#ifdef _OPENMP
#pragma omp barrier
#endif
  }
}

/* .Call(ffi_cell_moments, x, centre, rows, cell, ncell, M0, single): the
 * moments about `centre` of the rows `rows` (1-based) of x, C = x[rows, ]
 * - centre, row i in cell cell[i] of 1..ncell (R/crossfit.R,
 * fold_moments()): list(M = M0 + C'C (d x d; M0 NULL: C'C), s = the d x
 * ncell sums of each cell's rows of C, qv = the d x ncell sums of q_i c_i,
 * q = the |c_i|^2, single = whether M's products were in single
 * precision). In blocks of rows centred into one buffer (no m x d
 * copy of the rows), each block's C'C added to the upper triangle of M
 * (mirrored at the end) by the engine's threads (prd_blocked_team()), each
 * thread its own panel of columns (dsyrk on the panel's diagonal block,
 * dgemm above it; the panels' edges at d sqrt(t / T), equal areas); the
 * sums of s and qv column by column in row order, q of each row over the
 * columns in order. Each value is the same for a given thread count.
 * `single` (TRUE, FALSE; NA: from PRD_MOMENTS_SINGLE_D columns, where the
 * products are most of a fitted family's cost) forms each block's C'C in
 * single precision (ssyrk, sgemm) from its columns scaled by powers of
 * two (single_cols()) and adds it to M in double: an entry of a block of
 * b rows errs by at most about gamma_{b+2}(2^-24) sum_i |c_il c_im| (b =
 * 512 at d = 2,048: the BLAS's float sums), in practice 1e-7 of
 * sqrt(M_ll M_mm), far below the sampling noise of a covariance (1 /
 * sqrt(n)), at 0.66 of the double products' time at 10,000 x 2,048 (the
 * centring, sums and the additions in double stay); s, qv and q are the
 * double path's. Without ssyrk in the BLAS (configure), always double. */
SEXP ffi_cell_moments(SEXP x, SEXP centre, SEXP rows, SEXP cell, SEXP ncell,
                      SEXP M0, SEXP single) {
  prd_check_centre_rows(x, centre, rows, "ffi_cell_moments");
  if (!Rf_isInteger(cell) || Rf_length(cell) != Rf_length(rows) ||
      !Rf_isInteger(ncell) || Rf_length(ncell) != 1 ||
      !(Rf_isNull(M0) || (Rf_isReal(M0) && Rf_isMatrix(M0))) ||
      !Rf_isLogical(single) || Rf_length(single) != 1)
    Rf_error("ffi_cell_moments: bad argument types");
  int n = Rf_nrows(x), d = Rf_ncols(x), m = Rf_length(rows);
  int K = INTEGER_RO(ncell)[0];
  if (K < 1) Rf_error("ffi_cell_moments: `ncell` must be positive");
  if (!Rf_isNull(M0) && (Rf_nrows(M0) != d || Rf_ncols(M0) != d))
    Rf_error("ffi_cell_moments: `M0` must be d x d");
  const int *r = INTEGER_RO(rows), *ce = INTEGER_RO(cell);
  for (int i = 0; i < m; i++)
    if (ce[i] == NA_INTEGER || ce[i] < 1 || ce[i] > K)
      Rf_error("ffi_cell_moments: cell %d out of range", i + 1);
  SEXP M = PROTECT(prd_alloc_matrix(REALSXP, d, d));
  SEXP s = PROTECT(Rf_allocMatrix(REALSXP, d, K));
  SEXP qv = PROTECT(Rf_allocMatrix(REALSXP, d, K));
  SEXP q = PROTECT(Rf_allocVector(REALSXP, m));
  double *mm = REAL(M), *qq = REAL(q), *sp = REAL(s), *qp = REAL(qv);
  size_t dd = (size_t) d * d, dk = (size_t) d * K;
  if (Rf_isNull(M0))
    for (size_t j = 0; j < dd; j++) mm[j] = 0.0;
  else
    memcpy(mm, REAL_RO(M0), dd * sizeof(double));
  for (size_t j = 0; j < dk; j++) sp[j] = qp[j] = 0.0;
  int sg = LOGICAL_RO(single)[0];
  if (sg == NA_LOGICAL) sg = d >= PRD_MOMENTS_SINGLE_D;
#ifndef PRD_HAVE_SSYRK
  sg = 0;
#endif
  int B = centred_block_rows(m, d);
  double *buf = (double *) R_alloc((size_t) B * (d > 0 ? d : 1),
                                   sizeof(double));
  int old = 0;
  int use = prd_blocked_team((int64_t) m * d * (d > 0 ? d : 1), d, &old);
  cells_ctx ctx = {REAL_RO(x), REAL_RO(centre), r, ce, buf, mm, qq, sp, qp,
                   n, d, m, B, NULL, NULL, NULL};
  if (sg && d > 0 && m > 0) {
    /* the threads' float panels, for any team OpenMP grants up to `use` */
    size_t nf = 1;
    for (int t = 1; t <= use; t++) {
      size_t f = panel_offset(d, t, t);
      if (f > nf) nf = f;
    }
    ctx.facc = (float *) R_alloc(nf, sizeof(float));
    ctx.fbuf = (float *) R_alloc((size_t) B * d, sizeof(float));
    ctx.unit = (double *) R_alloc((size_t) d, sizeof(double));
  }
  team_run(use, old, cells_part, &ctx);
  mirror_upper(mm, d);
  const char *nm[] = {"M", "s", "qv", "q", "single", ""};
  SEXP out = PROTECT(Rf_mkNamed(VECSXP, nm));
  SET_VECTOR_ELT(out, 0, M);
  SET_VECTOR_ELT(out, 1, s);
  SET_VECTOR_ELT(out, 2, qv);
  SET_VECTOR_ELT(out, 3, q);
  SET_VECTOR_ELT(out, 4, Rf_ScalarLogical(ctx.fbuf != NULL));
  UNPROTECT(5);
  return out;
}

typedef struct {
  const double *X, *c, *v;
  const int *r;
  double *work, *pp, *qq;
  int n, m, d, p, B, nblk;
} product_ctx;

/* a thread's blocks of rows of ffi_centred_product(): centred into its
 * own buffer, their rows of P by one dgemm each */
static void product_part(void *ptr, int me, int team) {
  product_ctx *a = (product_ctx *) ptr;
  int m = a->m, d = a->d, p = a->p, B = a->B;
  double *buf = a->work + (size_t) me * B * (d > 0 ? d : 1);
  const char *nn = "N";
  double one = 1.0, zero = 0.0;
  for (int b = me; b < a->nblk; b += team) {
    int i0 = b * B, mb = m - i0 < B ? m - i0 : B;
    prd_centre_cols(a->X, a->n, a->r, i0, mb, a->c, 0, d, buf);
    row_sumsq(buf, mb, d, 0, mb, a->qq + i0);
    if (d > 0 && p > 0)
      F77_CALL(dgemm)(nn, nn, &mb, &p, &d, &one, buf, &mb, a->v, &d, &zero,
                      a->pp + i0, &m FCONE FCONE);
  }
}

/* .Call(ffi_centred_product, x, centre, V, rows): list(P = C V, q = the
 * |c_i|^2) of the rows `rows` of x (1-based; NULL: every row) centred on
 * `centre`, C = x[rows, ] - centre (m x d), V d x p: in blocks of rows
 * centred into a buffer (no m x d copy), each block's product by the
 * BLAS's dgemm into its rows of P; q as prd_row_scores() sums it. The
 * blocks are shared among the engine's threads (prd_blocked_team()); each
 * row's values do not depend on their count. */
SEXP ffi_centred_product(SEXP x, SEXP centre, SEXP V, SEXP rows) {
  if (!Rf_isReal(x) || !Rf_isMatrix(x) || !Rf_isReal(centre) ||
      !Rf_isReal(V) || !Rf_isMatrix(V) ||
      !(Rf_isNull(rows) || Rf_isInteger(rows)))
    Rf_error("ffi_centred_product: bad argument types");
  int n = Rf_nrows(x), d = Rf_ncols(x), p = Rf_ncols(V);
  if (Rf_length(centre) != d || Rf_nrows(V) != d)
    Rf_error("ffi_centred_product: `centre` and the rows of `V` must be ncol(x)");
  const int *r = Rf_isNull(rows) ? NULL : INTEGER_RO(rows);
  int m = r ? Rf_length(rows) : n;
  if (r) prd_check_rows(r, m, n, "ffi_centred_product");
  SEXP P = PROTECT(prd_alloc_matrix(REALSXP, m, p));
  SEXP q = PROTECT(Rf_allocVector(REALSXP, m));
  double *pp = REAL(P), *qq = REAL(q);
  if (d == 0 || p == 0)
    for (size_t j = 0; j < (size_t) m * p; j++) pp[j] = 0.0;
  int B = centred_block_rows(m, d);
  int nblk = m > 0 ? (m + B - 1) / B : 0;
  int old = 0;
  int use = prd_blocked_team((int64_t) m * d * (p > 0 ? p : 1), nblk, &old);
  double *work = (double *) R_alloc((size_t) use * B * (d > 0 ? d : 1),
                                    sizeof(double));
  product_ctx ctx = {REAL_RO(x), REAL_RO(centre), REAL_RO(V), r, work, pp, qq,
                     n, m, d, p, B, nblk};
  team_run(use, old, product_part, &ctx);
  SEXP out = prd_named_pair(P, "P", q, "q");
  UNPROTECT(2);
  return out;
}

/* Rows a block of ffi_chol_quad(): fixed, so that a row's value does not
 * depend on the threads (dtrsm's results depend on how many right-hand
 * sides it is given) */
#define QUAD_BLOCK 512

typedef struct {
  const double *X, *c, *Rx, *Ry, *mx, *my;
  const int *r;
  double *work, *qx, *qy;
  int n, d, m, nblk;
} quad_ctx;

/* one factor's quadratic forms of a block: buf (d x mb) holds the rows
 * (z - c) - mk as columns; |R^-T column|^2, the squares summed in long
 * double in order (as colSums()) */
static void quad_block(const quad_ctx *a, const double *R, const double *mk,
                       int i0, int mb, double *buf, double *q) {
  int d = a->d;
  for (int i = 0; i < mb; i++) {
    size_t row = (size_t) (a->r ? a->r[i0 + i] - 1 : i0 + i);
    double *col = buf + (size_t) i * d;
    for (int l = 0; l < d; l++)
      col[l] = (a->X[row + (size_t) l * a->n] - a->c[l]) - mk[l];
  }
  const char *left = "L", *up = "U", *tr = "T", *nn = "N";
  double one = 1.0;
  F77_CALL(dtrsm)(left, up, tr, nn, &d, &mb, &one, R, &d, buf, &d
                  FCONE FCONE FCONE FCONE);
  for (int i = 0; i < mb; i++) {
    const double *col = buf + (size_t) i * d;
    long double s = 0.0;
    for (int l = 0; l < d; l++) s += col[l] * col[l];
    q[i0 + i] = (double) s;
  }
}

/* a thread's blocks of ffi_chol_quad() */
static void quad_part(void *ptr, int me, int team) {
  quad_ctx *a = (quad_ctx *) ptr;
  double *buf = a->work + (size_t) me * QUAD_BLOCK * a->d;
  for (int b = me; b < a->nblk; b += team) {
    int i0 = b * QUAD_BLOCK;
    int mb = a->m - i0 < QUAD_BLOCK ? a->m - i0 : QUAD_BLOCK;
    quad_block(a, a->Rx, a->mx, i0, mb, buf, a->qx);
    quad_block(a, a->Ry, a->my, i0, mb, buf, a->qy);
  }
}

/* .Call(ffi_chol_quad, X, rows, c, Rx, mx, Ry, my): for each row z of X
 * in `rows` (1-based; NULL: every row), the quadratic forms |R_k^-T ((z -
 * c) - m_k)|^2 of the upper triangular d x d Cholesky factors Rx, Ry
 * (the quadratic discriminant's two covariances, quadratic_solve_score()).
 * Blocks of QUAD_BLOCK rows, each one dtrsm per factor, shared among the
 * engine's threads (prd_blocked_team()); each value as
 * colSums(backsolve(R, t(z - c) - m_k, transpose = TRUE)^2) of its block.
 * Returns list(x, y). */
SEXP ffi_chol_quad(SEXP X, SEXP rows, SEXP c, SEXP Rx, SEXP mx, SEXP Ry,
                   SEXP my) {
  if (!Rf_isReal(X) || !Rf_isMatrix(X) || !Rf_isReal(c) || !Rf_isReal(Rx) ||
      !Rf_isMatrix(Rx) || !Rf_isReal(Ry) || !Rf_isMatrix(Ry) ||
      !Rf_isReal(mx) || !Rf_isReal(my) ||
      !(Rf_isNull(rows) || Rf_isInteger(rows)))
    Rf_error("ffi_chol_quad: bad argument types");
  int n = Rf_nrows(X), d = Rf_ncols(X);
  if (Rf_length(c) != d || Rf_length(mx) != d || Rf_length(my) != d ||
      Rf_nrows(Rx) != d || Rf_ncols(Rx) != d || Rf_nrows(Ry) != d ||
      Rf_ncols(Ry) != d)
    Rf_error("ffi_chol_quad: the factors must be d x d, the centres d");
  const int *r = Rf_isNull(rows) ? NULL : INTEGER_RO(rows);
  int m = r ? Rf_length(rows) : n;
  if (r) prd_check_rows(r, m, n, "ffi_chol_quad");
  SEXP qx = PROTECT(Rf_allocVector(REALSXP, m));
  SEXP qy = PROTECT(Rf_allocVector(REALSXP, m));
  int nblk = m > 0 ? (m + QUAD_BLOCK - 1) / QUAD_BLOCK : 0;
  if (d == 0) {
    for (int i = 0; i < m; i++) REAL(qx)[i] = REAL(qy)[i] = 0.0;
    nblk = 0;
  }
  if (nblk > 0) {
    int old = 0;
    int use = prd_blocked_team((int64_t) m * d * d, nblk, &old);
    double *work = (double *) R_alloc((size_t) use * QUAD_BLOCK * d,
                                      sizeof(double));
    prd_advise_huge(work, (size_t) use * QUAD_BLOCK * d * sizeof(double));
    quad_ctx ctx = {REAL_RO(X), REAL_RO(c), REAL_RO(Rx), REAL_RO(Ry),
                    REAL_RO(mx), REAL_RO(my), r, work, REAL(qx), REAL(qy),
                    n, d, m, nblk};
    team_run(use, old, quad_part, &ctx);
  }
  SEXP out = prd_named_pair(qx, "x", qy, "y");
  UNPROTECT(2);
  return out;
}

/* .Call(ffi_cov_norms, Mx, Mx2, nx, mx, My, My2, ny, my): the squared
 * Frobenius norms and inner product c(xx, yy, xy) of the covariances S_X
 * = M_X / n_X - m_X m_X' and S_Y (M = M1 + M2, M2 NULL: M1) and M_X m_X,
 * M_Y m_Y, without the d x d covariances: the same values, bit for bit,
 * as ffi_fold_cov() of each then ffi_frob3() of the two (each element
 * formed in the same order, the sums column by column, then the columns
 * in order). Returns list(f3, Mmx, Mmy). */
SEXP ffi_cov_norms(SEXP Mx, SEXP Mx2, SEXP nx, SEXP mx, SEXP My, SEXP My2,
                   SEXP ny, SEXP my) {
  SEXP A[4] = {Mx, Mx2, My, My2};
  for (int k = 0; k < 4; k++)
    if (!((k % 2 == 1 && Rf_isNull(A[k])) ||
          (Rf_isReal(A[k]) && Rf_isMatrix(A[k]))))
      Rf_error("ffi_cov_norms: bad argument types");
  if (!Rf_isReal(nx) || !Rf_isReal(ny) || Rf_length(nx) != 1 ||
      Rf_length(ny) != 1 || !Rf_isReal(mx) || !Rf_isReal(my))
    Rf_error("ffi_cov_norms: bad argument types");
  int d = Rf_nrows(Mx);
  for (int k = 0; k < 4; k++)
    if (!Rf_isNull(A[k]) && (Rf_nrows(A[k]) != d || Rf_ncols(A[k]) != d))
      Rf_error("ffi_cov_norms: the moments must be d x d");
  if (Rf_length(mx) != d || Rf_length(my) != d)
    Rf_error("ffi_cov_norms: the means must have d values");
  const double *a1 = REAL_RO(Mx), *a2 = Rf_isNull(Mx2) ? NULL : REAL_RO(Mx2),
               *b1 = REAL_RO(My), *b2 = Rf_isNull(My2) ? NULL : REAL_RO(My2),
               *ux = REAL_RO(mx), *uy = REAL_RO(my);
  double n1 = REAL_RO(nx)[0], n2 = REAL_RO(ny)[0];
  SEXP f3 = PROTECT(Rf_allocVector(REALSXP, 3));
  SEXP Mmx = PROTECT(Rf_allocVector(REALSXP, d));
  SEXP Mmy = PROTECT(Rf_allocVector(REALSXP, d));
  double *ox = REAL(Mmx), *oy = REAL(Mmy);
  double *col = (double *) R_alloc((size_t) 3 * (d > 0 ? d : 1), sizeof(double));
  int use = prd_threads_for((int64_t) d * d, prd_threads_get());
#ifdef _OPENMP
#pragma omp parallel for num_threads(use) schedule(static)
#endif
  for (int j = 0; j < d; j++) {
    size_t off = (size_t) j * d;
    double accx = 0, accy = 0, xx = 0, yy = 0, xy = 0;
    double mjx = ux[j], mjy = uy[j];
    for (int i = 0; i < d; i++) {
      double v = a2 ? a1[off + i] + a2[off + i] : a1[off + i];
      double w = b2 ? b1[off + i] + b2[off + i] : b1[off + i];
      accx += v * ux[i];
      accy += w * uy[i];
      double u = v / n1 - ux[i] * mjx, t = w / n2 - uy[i] * mjy;
      xx += u * u;
      yy += t * t;
      xy += u * t;
    }
    ox[j] = accx;
    oy[j] = accy;
    col[3 * (size_t) j] = xx;
    col[3 * (size_t) j + 1] = yy;
    col[3 * (size_t) j + 2] = xy;
  }
  (void) use;
  sum_columns3(col, d, REAL(f3));
  const char *nm[] = {"f3", "Mmx", "Mmy", ""};
  SEXP out = PROTECT(Rf_mkNamed(VECSXP, nm));
  SET_VECTOR_ELT(out, 0, f3);
  SET_VECTOR_ELT(out, 1, Mmx);
  SET_VECTOR_ELT(out, 2, Mmy);
  UNPROTECT(4);
  return out;
}
