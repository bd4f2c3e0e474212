/* The lower envelope alpha_lambda = min_f lambda * fpr(f) + fnr(f) over the
 * threshold classifiers 1[s <= t], 1[s < t] of a score s (low = "real"),
 * the trivial classifiers and extra (fpr, fnr) points (Sykes et al., eq. 9;
 * SPEC.md section 2). Exact: the family's error pairs are swept in sorted
 * order, their lower convex hull taken, and the hull evaluated at every
 * lambda of an increasing grid in one pass: O((n + L) log n). */
#include "prdcurve.h"
#include <math.h>
#include <stdlib.h>

typedef struct { double x, y; } pt;

static int cmp_pt(const void *a, const void *b) {
  const pt *p = (const pt *) a, *q = (const pt *) b;
  if (p->x < q->x) return -1;
  if (p->x > q->x) return 1;
  if (p->y < q->y) return -1;
  if (p->y > q->y) return 1;
  return 0;
}

static double cross(pt o, pt a, pt b) {
  return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

/* s_real, s_gen: scores (may be +Inf); extra: n x 2 matrix of (fpr, fnr)
 * error rates of further classifiers; lambda: increasing, finite, > 0.
 * Returns list(alpha = <per lambda>, alpha_inf, beta_0, fpr, fnr) where
 * fpr/fnr are the hull's vertices. */
SEXP ffi_envelope(SEXP s_real, SEXP s_gen, SEXP extra, SEXP lambda) {
  if (!Rf_isReal(s_real) || !Rf_isReal(s_gen) || !Rf_isReal(lambda) ||
      !Rf_isReal(extra) || !Rf_isMatrix(extra) || Rf_ncols(extra) != 2)
    Rf_error("ffi_envelope: bad argument types");
  int nx = Rf_length(s_real), ny = Rf_length(s_gen), ne = Rf_nrows(extra);
  int nl = Rf_length(lambda);
  if (nx < 1 || ny < 1) Rf_error("ffi_envelope: empty evaluation set");
  double *sx = (double *) R_alloc(nx, sizeof(double));
  double *sy = (double *) R_alloc(ny, sizeof(double));
  const double *rx = REAL_RO(s_real), *ry = REAL_RO(s_gen);
  for (int i = 0; i < nx; i++) sx[i] = rx[i];
  for (int i = 0; i < ny; i++) sy[i] = ry[i];
  for (int i = 0; i < nx; i++) if (ISNAN(sx[i])) Rf_error("ffi_envelope: NaN score");
  for (int i = 0; i < ny; i++) if (ISNAN(sy[i])) Rf_error("ffi_envelope: NaN score");
  R_rsort(sx, nx);
  R_rsort(sy, ny);

  /* the cut classifiers: "1[s < v_1]" (everything generated), then
   * "1[s <= v]" for every distinct score v in increasing order */
  int np = 0, cap = nx + ny + 1 + ne;
  pt *p = (pt *) R_alloc(cap, sizeof(pt));
  int cx = nx, cy = 0, i = 0, j = 0;
  p[np++] = (pt){1.0, 0.0};
  while (i < nx || j < ny) {
    double v = (j >= ny || (i < nx && sx[i] <= sy[j])) ? sx[i] : sy[j];
    while (i < nx && sx[i] == v) { cx--; i++; }
    while (j < ny && sy[j] == v) { cy++; j++; }
    p[np++] = (pt){(double) cx / nx, (double) cy / ny};
  }
  for (int e = 0; e < ne; e++)
    p[np++] = (pt){REAL_RO(extra)[e], REAL_RO(extra)[e + ne]};

  double alpha_inf = 1.0, beta_0 = 1.0;
  for (int e = 0; e < np; e++) {
    if (p[e].x == 0.0 && p[e].y < alpha_inf) alpha_inf = p[e].y;
    if (p[e].y == 0.0 && p[e].x < beta_0) beta_0 = p[e].x;
  }

  qsort(p, np, sizeof(pt), cmp_pt);
  pt *h = (pt *) R_alloc(np, sizeof(pt));
  int nh = 0;
  for (int e = 0; e < np; e++) {
    if (nh > 0 && h[nh - 1].x == p[e].x) continue; /* keep min y per x */
    while (nh >= 2 && cross(h[nh - 2], h[nh - 1], p[e]) <= 0) nh--;
    h[nh++] = p[e];
  }

  const char *names[] = {"alpha", "alpha_inf", "beta_0", "fpr", "fnr", ""};
  SEXP out = PROTECT(Rf_mkNamed(VECSXP, names));
  SEXP al = Rf_allocVector(REALSXP, nl);
  SET_VECTOR_ELT(out, 0, al);
  SET_VECTOR_ELT(out, 1, Rf_ScalarReal(alpha_inf));
  SET_VECTOR_ELT(out, 2, Rf_ScalarReal(beta_0));
  SEXP hx = Rf_allocVector(REALSXP, nh);
  SET_VECTOR_ELT(out, 3, hx);
  SEXP hy = Rf_allocVector(REALSXP, nh);
  SET_VECTOR_ELT(out, 4, hy);
  for (int e = 0; e < nh; e++) {
    REAL(hx)[e] = h[e].x;
    REAL(hy)[e] = h[e].y;
  }
  const double *lam = REAL_RO(lambda);
  int ptr = nh - 1;
  for (int l = 0; l < nl; l++) {
    double lm = lam[l];
    if (!(lm > 0) || !R_FINITE(lm) || (l > 0 && lm < lam[l - 1]))
      Rf_error("ffi_envelope: lambda must be positive, finite, increasing");
    while (ptr > 0 && lm * h[ptr - 1].x + h[ptr - 1].y <= lm * h[ptr].x + h[ptr].y)
      ptr--;
    double a = lm * h[ptr].x + h[ptr].y;
    REAL(al)[l] = a;
  }
  UNPROTECT(1);
  return out;
}
