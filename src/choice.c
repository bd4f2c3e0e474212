/* The criterion of the fitted families' choices (R/family-choice.R):
 * the weighted logistic regression of the set (0 real, 1 generated) on
 * (1, z) by Newton's method, and the held-out logistic loss of each row
 * under it. Each step and sum is R's: elementwise in double in the
 * order of R's arithmetic, the sums in long double as sum(), so the
 * values equal those of the same expressions in R. */
#include "prdcurve.h"
#include <math.h>

static void check_args(SEXP z, SEXP y, SEXP w, const char *who) {
  if (!Rf_isReal(z) || !Rf_isReal(y) || !Rf_isReal(w) ||
      Rf_xlength(y) != Rf_xlength(z) || Rf_xlength(w) != Rf_xlength(z))
    Rf_error("%s: z, y and w must be double vectors of one length", who);
}

/* the coefficients (a, b) of a + b z: at most 25 Newton steps from (0,
 * 0), stopping when a step moves them by less than 1e-10 (1 + their
 * largest) or when the Hessian's determinant is not above 1e-12 sum(w)^2
 * (the sets separate) */
static void affine_fit(const double *z, const double *y, const double *w,
                       R_xlen_t n, double *beta) {
  long double swl = 0;
  for (R_xlen_t i = 0; i < n; i++) swl += w[i];
  double sw = (double) swl, b1 = 0, b2 = 0;
  for (int it = 0; it < 25; it++) {
    long double h11 = 0, h12 = 0, h22 = 0, g1 = 0, g2 = 0;
    for (R_xlen_t i = 0; i < n; i++) {
      double eta = b1 + b2 * z[i];
      double p = 1 / (1 + exp(-eta));
      double r = w[i] * (y[i] - p);
      double v = w[i] * p * (1 - p);
      double vz = v * z[i];
      h11 += v;
      h12 += vz;
      h22 += vz * z[i];
      g1 += r;
      g2 += r * z[i];
    }
    double H11 = (double) h11, H12 = (double) h12, H22 = (double) h22,
      G1 = (double) g1, G2 = (double) g2;
    double det = H11 * H22 - H12 * H12;
    if (!R_FINITE(det) || det <= 1e-12 * sw * sw) break;
    double s1 = (H22 * G1 - H12 * G2) / det, s2 = (H11 * G2 - H12 * G1) / det;
    b1 = b1 + s1;
    b2 = b2 + s2;
    double ms = fmax(fabs(s1), fabs(s2)), mb = fmax(fabs(b1), fabs(b2));
    if (ms < 1e-10 * (1 + mb)) break;
  }
  beta[0] = b1;
  beta[1] = b2;
}

/* .Call(ffi_logistic_affine, z, y, w): the coefficients (a, b) */
SEXP ffi_logistic_affine(SEXP z, SEXP y, SEXP w) {
  check_args(z, y, w, "ffi_logistic_affine");
  SEXP out = PROTECT(Rf_allocVector(REALSXP, 2));
  affine_fit(REAL_RO(z), REAL_RO(y), REAL_RO(w), Rf_xlength(z), REAL(out));
  UNPROTECT(1);
  return out;
}

/* softplus(v) = max(v, 0) + log1p(exp(-|v|)), as pmax(v, 0) + ... */
static inline double softplus(double v) {
  double m = v < 0 ? 0 : v;
  return m + log1p(exp(-fabs(v)));
}

/* .Call(ffi_ratio_loss, z, y, w): each row's weighted logistic loss
 * under the fitted a + b z, w softplus(-eta) / 2 for a generated row (y =
 * 1), w softplus(eta) / 2 for a real one */
SEXP ffi_ratio_loss(SEXP z, SEXP y, SEXP w) {
  check_args(z, y, w, "ffi_ratio_loss");
  R_xlen_t n = Rf_xlength(z);
  const double *zv = REAL_RO(z), *yv = REAL_RO(y), *wv = REAL_RO(w);
  double beta[2];
  affine_fit(zv, yv, wv, n, beta);
  SEXP out = PROTECT(Rf_allocVector(REALSXP, n));
  double *o = REAL(out);
  for (R_xlen_t i = 0; i < n; i++) {
    double eta = beta[0] + beta[1] * zv[i];
    o[i] = wv[i] * (yv[i] == 1 ? softplus(-eta) : softplus(eta)) / 2;
  }
  UNPROTECT(1);
  return out;
}
