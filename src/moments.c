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
