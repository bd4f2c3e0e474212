/* One-pass scans of a sample matrix outside the distance engine: the
 * input check (finite values, largest magnitude) and the per-row scores
 * of the simple classifiers that check a neighbour family (distance to a
 * centre, projection on a direction; the engine's squared norms about its
 * centre use the same loop). Each reads the n x d column-major
 * matrix once, without the n x d temporaries the same in R allocates
 * (in R the two took 0.54 s and 0.71 s of a 5.9 s four-curve call at
 * 10,000 x 2,048, bench/results.md). */
#include "prdcurve.h"
#include <math.h>

/* .Call(ffi_scan, x): c(all finite (1/0), largest |x| over the finite
 * values) */
SEXP ffi_scan(SEXP x) {
  if (!Rf_isReal(x)) Rf_error("ffi_scan: `x` must be a double matrix");
  R_xlen_t n = XLENGTH(x);
  const double *v = REAL_RO(x);
  int finite = 1;
  double mx = 0.0;
  for (R_xlen_t i = 0; i < n; i++) {
    double a = fabs(v[i]);
    if (!R_FINITE(a)) {
      finite = 0;
      continue;
    }
    if (a > mx) mx = a;
  }
  SEXP out = PROTECT(Rf_allocVector(REALSXP, 2));
  REAL(out)[0] = finite;
  REAL(out)[1] = mx;
  UNPROTECT(1);
  return out;
}

/* For m rows of the n x d column-major X (rows: 1-based positions, or
 * NULL for rows 1..m), dist[i] = sum_l (x_il - c_l)^2 and, unless w is
 * NULL, proj[i] = sum_l (x_il - c_l) w_l, each summed over l in order.
 * Also the engine's squared norms about its centre (neighbours.c). */
void prd_row_scores(const double *X, int n, int d, const int *rows, int m,
                    const double *c, const double *w, double *dist,
                    double *proj) {
  for (int i = 0; i < m; i++) dist[i] = 0.0;
  if (w)
    for (int i = 0; i < m; i++) proj[i] = 0.0;
  for (int l = 0; l < d; l++) {
    const double *col = X + (size_t) l * n;
    double cl = c[l];
    if (w) {
      double wl = w[l];
      for (int i = 0; i < m; i++) {
        double v = col[rows ? rows[i] - 1 : i] - cl;
        dist[i] += v * v;
        proj[i] += v * wl;
      }
    } else if (rows) {
      for (int i = 0; i < m; i++) {
        double v = col[rows[i] - 1] - cl;
        dist[i] += v * v;
      }
    } else {
      for (int i = 0; i < m; i++) {
        double v = col[i] - cl;
        dist[i] += v * v;
      }
    }
  }
}

/* .Call(ffi_row_scores, x, rows, centre, w): prd_row_scores() of the rows
 * `rows` of x (1-based). Returns list(dist, proj). */
SEXP ffi_row_scores(SEXP x, SEXP rows, SEXP centre, SEXP w) {
  if (!Rf_isReal(x) || !Rf_isMatrix(x) || !Rf_isInteger(rows) ||
      !Rf_isReal(centre) || !Rf_isReal(w))
    Rf_error("ffi_row_scores: bad argument types");
  int n = Rf_nrows(x), d = Rf_ncols(x), m = Rf_length(rows);
  if (Rf_length(centre) != d || Rf_length(w) != d)
    Rf_error("ffi_row_scores: `centre` and `w` must have ncol(x) values");
  const int *r = INTEGER_RO(rows);
  for (int i = 0; i < m; i++)
    if (r[i] == NA_INTEGER || r[i] < 1 || r[i] > n)
      Rf_error("ffi_row_scores: row %d out of range", i + 1);
  SEXP dist = PROTECT(Rf_allocVector(REALSXP, m));
  SEXP proj = PROTECT(Rf_allocVector(REALSXP, m));
  prd_row_scores(REAL_RO(x), n, d, r, m, REAL_RO(centre), REAL_RO(w),
                 REAL(dist), REAL(proj));
  SEXP out = PROTECT(Rf_allocVector(VECSXP, 2));
  SET_VECTOR_ELT(out, 0, dist);
  SET_VECTOR_ELT(out, 1, proj);
  SEXP nm = PROTECT(Rf_allocVector(STRSXP, 2));
  SET_STRING_ELT(nm, 0, Rf_mkChar("dist"));
  SET_STRING_ELT(nm, 1, Rf_mkChar("proj"));
  Rf_setAttrib(out, R_NamesSymbol, nm);
  UNPROTECT(4);
  return out;
}
