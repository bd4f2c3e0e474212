/* Kernel sums over one tile of pairs of rows (R/embedding-stats.R,
 * pair_sums(); SPEC.md section 8): from the tile's inner products of the
 * centred rows and each row's centred squared norm and offset term, the
 * sums of the powers u, u^2, u^3 of u = x . y / d, the Gaussian kernel and
 * the distance, and each tile row's nearest tile column. KID's kernel
 * (u + 1)^3 = 1 + 3u + 3u^2 + u^3 is not summed as such: its constant
 * cancels in the unbiased MMD^2 (at small scales it would swamp the rest)
 * and its cube overflows at large ones, while each power scales exactly
 * with the features (kid_value(), R/embedding-stats.R). One pass over the
 * tile in column order; sums in long double, as R's sum(). */
#include "prdcurve.h"
#include <math.h>

/* .Call(ffi_tile_kernels, G, row_u, col_u, row_n2, col_n2, par, want,
 * mode)
 * G: k x l inner products (b_i - c) . (a_j - c); row_u / col_u:
 * c . (row - c) of the k rows / l columns; row_n2 / col_n2: their
 * centred squared norms; par = c(c . c, d, sigma); want: logical
 * (poly, rbf, dist, nearest); mode 0: every pair, 1: a square tile of
 * one set's own rows (pairs i != j), 2: a tile above the diagonal (each
 * pair counted twice).
 * Returns list(sums = c(u, u^2, u^3, rbf, dist), d2 = each row's smallest
 * squared distance, j = its first column at that value, 1-based); d2 and
 * j are empty without `nearest`. */
SEXP ffi_tile_kernels(SEXP G, SEXP row_u, SEXP col_u, SEXP row_n2,
                      SEXP col_n2, SEXP par, SEXP want, SEXP mode) {
  int k = Rf_nrows(G), l = Rf_ncols(G);
  const double *g = REAL(G), *ru = REAL(row_u), *cu = REAL(col_u);
  const double *rn = REAL(row_n2), *cn = REAL(col_n2), *p = REAL(par);
  const int *w = LOGICAL(want);
  int md = Rf_asInteger(mode);
  double cc = p[0], inv_d = 1.0 / p[1];
  double inv_2s2 = -1.0 / (2.0 * p[2] * p[2]);
  int poly = w[0], rbf = w[1], dist = w[2], near = w[3];
  int need_d2 = rbf || dist || near;
  SEXP out = PROTECT(Rf_allocVector(VECSXP, 3));
  SEXP sums = PROTECT(Rf_allocVector(REALSXP, 5));
  SEXP best = PROTECT(Rf_allocVector(REALSXP, near ? k : 0));
  SEXP best_j = PROTECT(Rf_allocVector(INTSXP, near ? k : 0));
  double *bv = REAL(best);
  int *bj = INTEGER(best_j);
  for (int i = 0; i < (near ? k : 0); i++) {
    bv[i] = R_PosInf;
    bj[i] = 0;
  }
  long double s_p1 = 0.0L, s_p2 = 0.0L, s_p3 = 0.0L;
  long double s_rbf = 0.0L, s_dist = 0.0L;
  for (int j = 0; j < l; j++) {
    const double *gj = g + (size_t) j * k;
    for (int i = 0; i < k; i++) {
      if (md == 1 && i == j) continue; /* a row and itself: no pair */
      double gij = gj[i];
      if (poly) {
        double u = (((gij + ru[i]) + cu[j]) + cc) * inv_d, u2 = u * u;
        s_p1 += u;
        s_p2 += u2;
        s_p3 += u2 * u;
      }
      if (need_d2) {
        double d2 = rn[i] + cn[j] - 2.0 * gij;
        if (d2 < 0.0) d2 = 0.0;
        /* (a bandwidth whose square underflows makes inv_2s2 -Inf: a pair
         * at distance 0 still counts 1, not exp(0 * -Inf)) */
        if (rbf) s_rbf += d2 > 0.0 ? exp(d2 * inv_2s2) : 1.0;
        if (dist) s_dist += sqrt(d2);
        if (near && d2 < bv[i]) {
          bv[i] = d2;
          bj[i] = j + 1;
        }
      }
    }
  }
  double f = md == 2 ? 2.0 : 1.0;
  REAL(sums)[0] = f * (double) s_p1;
  REAL(sums)[1] = f * (double) s_p2;
  REAL(sums)[2] = f * (double) s_p3;
  REAL(sums)[3] = f * (double) s_rbf;
  REAL(sums)[4] = f * (double) s_dist;
  SET_VECTOR_ELT(out, 0, sums);
  SET_VECTOR_ELT(out, 1, best);
  SET_VECTOR_ELT(out, 2, best_j);
  UNPROTECT(4);
  return out;
}
