#include "prdcurve.h"

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
  SEXP S = PROTECT(Rf_allocMatrix(REALSXP, d, d));
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
  double *o = REAL(out);
  o[0] = o[1] = o[2] = 0;
  for (int j = 0; j < c; j++)
    for (int k = 0; k < 3; k++) o[k] += col[3 * (size_t) j + k];
  UNPROTECT(1);
  return out;
}

/* .Call(ffi_cov_combine, A, B, a, b, c): a A + b B + c I of two d x d
 * matrices in one pass (the covariance a fitted family factors: R's a * A
 * + b * B then diag<- took three temporaries and two more passes). Each
 * element is formed as R forms it, (a A_ij + b B_ij) + c on the diagonal. */
SEXP ffi_cov_combine(SEXP A, SEXP B, SEXP a, SEXP b, SEXP c) {
  if (!Rf_isReal(A) || !Rf_isMatrix(A) || !Rf_isReal(B) ||
      !Rf_isMatrix(B) || !Rf_isReal(a) || !Rf_isReal(b) || !Rf_isReal(c) ||
      Rf_length(a) != 1 || Rf_length(b) != 1 || Rf_length(c) != 1)
    Rf_error("ffi_cov_combine: bad argument types");
  int d = Rf_nrows(A);
  if (Rf_ncols(A) != d || Rf_nrows(B) != d || Rf_ncols(B) != d)
    Rf_error("ffi_cov_combine: `A` and `B` must be d x d");
  double wa = REAL_RO(a)[0], wb = REAL_RO(b)[0], wc = REAL_RO(c)[0];
  SEXP M = PROTECT(Rf_allocMatrix(REALSXP, d, d));
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

/* .Call(ffi_centre_t, x, centre, rows): t(x[rows, ] - centre), the d x m
 * matrix of the rows (1-based) centred on `centre` and stored one row per
 * column, so that a row's values are contiguous (ffi_fold_apply()); in
 * blocks of 64 rows and 64 columns, the row blocks shared among the
 * engine's threads. The same doubles as t(ffi_centre(x, centre, rows)). */
SEXP ffi_centre_t(SEXP x, SEXP centre, SEXP rows) {
  prd_check_centre_rows(x, centre, rows, "ffi_centre_t");
  int n = Rf_nrows(x), d = Rf_ncols(x), m = Rf_length(rows);
  const int *r = INTEGER_RO(rows);
  SEXP out = PROTECT(Rf_allocMatrix(REALSXP, d, m));
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

/* .Call(ffi_fold_apply, Et, fold, D): for each fold v (column v of the d x
 * K matrix D), sum over the columns e_i of Et (d x m, one row per column,
 * ffi_centre_t()) with fold[i] = v of e_i (e_i' D[, v]): the product C_v'
 * C_v D[, v] of each fold's rows C_v, in one pass over Et (a row is read
 * once, its dot product and its update in cache). The rows are shared
 * among the engine's threads, each summing into its own d x K block; the
 * blocks are then added in thread order (the same values for a given
 * thread count). */
SEXP ffi_fold_apply(SEXP Et, SEXP fold, SEXP D) {
  if (!Rf_isReal(Et) || !Rf_isMatrix(Et) || !Rf_isInteger(fold) ||
      !Rf_isReal(D) || !Rf_isMatrix(D))
    Rf_error("ffi_fold_apply: bad argument types");
  int d = Rf_nrows(Et), m = Rf_ncols(Et), K = Rf_ncols(D);
  if (Rf_nrows(D) != d || Rf_length(fold) != m)
    Rf_error("ffi_fold_apply: `D` must have nrow(Et) rows, `fold` ncol(Et) values");
  const int *f = INTEGER_RO(fold);
  for (int i = 0; i < m; i++)
    if (f[i] == NA_INTEGER || f[i] < 1 || f[i] > K)
      Rf_error("ffi_fold_apply: fold %d out of range", i + 1);
  const double *E = REAL_RO(Et), *Dm = REAL_RO(D);
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
  SEXP out = PROTECT(Rf_allocMatrix(REALSXP, d, K));
  double *o = REAL(out);
  for (size_t j = 0; j < blk; j++) {
    double s = 0;
    for (int t = 0; t < use; t++) s += acc[(size_t) t * blk + j];
    o[j] = s;
  }
  UNPROTECT(1);
  return out;
}
