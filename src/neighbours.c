/* Neighbourhood quantities of the evaluation points against the fit sets,
 * all from one streamed sweep of the tile engine (SPEC.md section 0, 2, 3):
 *   - own-set k-NN radii of fit points (self excluded by row index),
 *   - k-NN radii of evaluation points in X_f, Y_f and X_f u Y_f,
 *   - ball counts with per-query radii (knn, coverage), fixed radii (kde)
 *     and per-reference radii (ipr).
 * Radii are squared distances throughout. */
#include "prdcurve.h"
#include <math.h>
#include <string.h>

enum {
  W_OWN = 1,    /* own-set radii of fit points */
  W_QUERY = 2,  /* radii of evaluation points in X_f, Y_f, X_f u Y_f */
  W_KNN = 4,
  W_COV = 8,
  W_IPR = 16,
  W_KDE = 32
};

typedef struct {
  int nFx, nF, nEx, nE;
  const int *ks;
  int nk, kmax, closed, what;
  int self;        /* query row i is fit row i */
  int role_own;    /* this sweep computes own-set radii */
  int role_eval;   /* this sweep computes evaluation quantities */
  int scatter;     /* ipr by scattering own balls (self mode, one sweep) */
  double sx2, sy2;
  double *heap;    /* threads x kmax */
  double *kbuf;    /* threads x 3 nk */
  double *own_x, *own_y;         /* nFx x nk, (nF - nFx) x nk */
  double *q_x, *q_y, *q_all;     /* nE x nk */
  int *knn_a, *knn_b, *cov_a, *cov_b, *ipr_a, *ipr_b, *kde_a, *kde_b;
  int *scat;       /* threads x 2 x nE x nk */
} nb_task;

static void nb_visit(void *ctx, const prd_ref *ref, prd_row *row) {
  nb_task *t = (nb_task *) ctx;
  int i = row->i, nFx = t->nFx, nF = t->nF, nk = t->nk, nE = t->nE;
  int isx = t->self ? (i < nFx) : (i < t->nEx);
  int s = t->self ? i : -1;
  double *heap = t->heap + (size_t) row->tid * t->kmax;
  double *qx = t->kbuf + (size_t) row->tid * 3 * nk, *qy = qx + nk,
         *qa = qy + nk;
  if (s >= 0) {
    row->d2[s] = 0.0;
    row->exact[s] = 1;
    row->touched[row->n_touched++] = s;
  }

  if (!t->role_eval) { /* own-set radii only */
    if (isx) {
      prd_kth(ref, row, 0, nFx, s, t->ks, nk, heap, qx);
      for (int kk = 0; kk < nk; kk++) t->own_x[i + (size_t) kk * nFx] = qx[kk];
    } else {
      prd_kth(ref, row, nFx, nF, s, t->ks, nk, heap, qy);
      for (int kk = 0; kk < nk; kk++)
        t->own_y[(i - nFx) + (size_t) kk * (nF - nFx)] = qy[kk];
    }
    return;
  }

  int w = t->what;
  int need_qx = (w & (W_QUERY | W_COV)) || (t->role_own && isx);
  int need_qy = (w & (W_QUERY | W_COV)) || (t->role_own && !isx);
  int need_qa = (w & (W_QUERY | W_KNN));
  if (need_qx) prd_kth(ref, row, 0, nFx, s, t->ks, nk, heap, qx);
  if (need_qy) prd_kth(ref, row, nFx, nF, s, t->ks, nk, heap, qy);
  if (need_qa) prd_kth(ref, row, 0, nF, s, t->ks, nk, heap, qa);

  for (int kk = 0; kk < nk; kk++) {
    size_t o = i + (size_t) kk * nE;
    if (w & W_QUERY) {
      t->q_x[o] = qx[kk];
      t->q_y[o] = qy[kk];
      t->q_all[o] = qa[kk];
    }
    if (t->role_own) {
      if (isx) t->own_x[i + (size_t) kk * nFx] = qx[kk];
      else t->own_y[(i - nFx) + (size_t) kk * (nF - nFx)] = qy[kk];
    }
    if (w & W_KNN) {
      t->knn_a[o] = prd_count(ref, row, 0, nFx, qa[kk], t->closed);
      t->knn_b[o] = prd_count(ref, row, nFx, nF, qa[kk], t->closed);
    }
    if (w & W_COV) {
      t->cov_a[o] = prd_count(ref, row, 0, nFx, qy[kk], t->closed);
      t->cov_b[o] = prd_count(ref, row, nFx, nF, qx[kk], t->closed);
    }
    if (w & W_IPR) {
      if (t->scatter) {
        /* this row's own ball contains the evaluation points j */
        double r = isx ? qx[kk] : qy[kk];
        int *acc = t->scat + ((size_t) row->tid * 2 + (isx ? 0 : 1)) *
                                 (size_t) nE * nk + (size_t) kk * nE;
        for (int j = 0; j < nF; j++)
          acc[j] += prd_within(ref, row, j, r, t->closed);
      } else {
        const double *rx = t->own_x + (size_t) kk * nFx;
        const double *ry = t->own_y + (size_t) kk * (nF - nFx);
        int a = 0, b = 0;
        for (int j = 0; j < nFx; j++)
          a += prd_within(ref, row, j, rx[j], t->closed);
        for (int j = nFx; j < nF; j++)
          b += prd_within(ref, row, j, ry[j - nFx], t->closed);
        t->ipr_a[o] = a;
        t->ipr_b[o] = b;
      }
    }
  }
  if (w & W_KDE) {
    t->kde_a[i] = prd_count(ref, row, 0, nFx, t->sx2, t->closed);
    t->kde_b[i] = prd_count(ref, row, nFx, nF, t->sy2, t->closed);
  }
}

static int *index0(SEXP v, int n_max, int *len) {
  int n = Rf_length(v);
  const int *p = INTEGER(v);
  int *out = (int *) R_alloc(n > 0 ? n : 1, sizeof(int));
  for (int i = 0; i < n; i++) {
    if (p[i] == NA_INTEGER || p[i] < 1 || p[i] > n_max)
      Rf_error("row index out of range");
    out[i] = p[i] - 1;
  }
  *len = n;
  return out;
}

static double mean_sqrt(const double *r2, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) s += sqrt(r2[i]);
  return n > 0 ? s / n : NA_REAL;
}

SEXP ffi_neighbours(SEXP real, SEXP gen, SEXP fit, SEXP eval, SEXP ks_,
                    SEXP what_, SEXP sigma2, SEXP closed_, SEXP progress_) {
  if (!Rf_isReal(real) || !Rf_isMatrix(real) || !Rf_isReal(gen) ||
      !Rf_isMatrix(gen))
    Rf_error("`real` and `generated` must be double matrices");
  int nX = Rf_nrows(real), nY = Rf_nrows(gen), d = Rf_ncols(real);
  if (Rf_ncols(gen) != d) Rf_error("column counts differ");
  if (TYPEOF(fit) != VECSXP || Rf_length(fit) != 2)
    Rf_error("`fit` must be a list of two index vectors");
  int self = Rf_isNull(eval);
  if (!self && (TYPEOF(eval) != VECSXP || Rf_length(eval) != 2))
    Rf_error("`eval` must be NULL or a list of two index vectors");
  int nFx, nFy, nEx = 0, nEy = 0;
  int *fx = index0(VECTOR_ELT(fit, 0), nX, &nFx);
  int *fy = index0(VECTOR_ELT(fit, 1), nY, &nFy);
  int *ex = fx, *ey = fy;
  if (self) {
    nEx = nFx;
    nEy = nFy;
  } else {
    ex = index0(VECTOR_ELT(eval, 0), nX, &nEx);
    ey = index0(VECTOR_ELT(eval, 1), nY, &nEy);
  }
  int nF = nFx + nFy, nE = nEx + nEy;
  int nk = Rf_length(ks_);
  if (TYPEOF(ks_) != INTSXP || nk < 1) Rf_error("`ks` must be integer");
  const int *ks = INTEGER(ks_);
  for (int kk = 0; kk < nk; kk++)
    if (ks[kk] < 1 || (kk > 0 && ks[kk] <= ks[kk - 1]))
      Rf_error("`ks` must be increasing positive integers");
  int kmax = ks[nk - 1];
  int what = Rf_asInteger(what_);
  int closed = Rf_asLogical(closed_) == 1;
  int show = Rf_asLogical(progress_) == 1;
  if (TYPEOF(sigma2) != REALSXP || Rf_length(sigma2) != 2)
    Rf_error("`sigma2` must be a double vector of length 2");
  /* every radius is taken in a set that must hold k points besides z */
  int need_fit_k = what & (W_OWN | W_IPR | W_QUERY | W_COV | W_KNN |
                           ((what & W_KDE) && ISNAN(REAL(sigma2)[0])));
  if (need_fit_k) {
    int mx = nFx - (self ? 1 : 0), my = nFy - (self ? 1 : 0);
    int bad = 0;
    if ((what & (W_OWN | W_IPR | W_KDE)) && (nFx > 0 && nFx - 1 < kmax)) bad = 1;
    if ((what & (W_OWN | W_IPR | W_KDE)) && (nFy > 0 && nFy - 1 < kmax)) bad = 1;
    if ((what & (W_COV | W_QUERY)) && (mx < kmax || my < kmax)) bad = 1;
    if ((what & W_KNN) && nF - (self ? 1 : 0) < kmax) bad = 1;
    if (bad) Rf_error("k = %d is too large for the fit set sizes", kmax);
  }

  /* gather the fit set once: rows of real, then rows of generated */
  double *F = (double *) R_alloc((size_t) (nF > 0 ? nF : 1) * d, sizeof(double));
  const double *X = REAL(real), *Y = REAL(gen);
  for (int l = 0; l < d; l++) {
    double *col = F + (size_t) l * nF;
    const double *xc = X + (size_t) l * nX, *yc = Y + (size_t) l * nY;
    for (int i = 0; i < nFx; i++) col[i] = xc[fx[i]];
    for (int i = 0; i < nFy; i++) col[nFx + i] = yc[fy[i]];
  }
  double *fnorm = (double *) R_alloc(nF > 0 ? nF : 1, sizeof(double));
  prd_row_norms(F, nF, d, fnorm);
  prd_ref ref = {F, nF, d, fnorm};

  int threads = prd_threads_get();
  nb_task t;
  memset(&t, 0, sizeof(t));
  t.nFx = nFx; t.nF = nF; t.nEx = nEx; t.nE = nE;
  t.ks = ks; t.nk = nk; t.kmax = kmax; t.closed = closed; t.what = what;
  t.heap = (double *) R_alloc((size_t) threads * kmax, sizeof(double));
  t.kbuf = (double *) R_alloc((size_t) threads * 3 * nk, sizeof(double));

  const char *names[] = {"own_x", "own_y", "query_x", "query_y", "query_all",
                         "knn_a", "knn_b", "coverage_a", "coverage_b",
                         "ipr_a", "ipr_b", "kde_a", "kde_b", "sigma2", ""};
  SEXP out = PROTECT(Rf_mkNamed(VECSXP, names));
  int need_own = (what & (W_OWN | W_IPR)) ||
                 ((what & W_KDE) && ISNAN(REAL(sigma2)[0]));
  if (need_own) {
    SET_VECTOR_ELT(out, 0, Rf_allocMatrix(REALSXP, nFx, nk));
    SET_VECTOR_ELT(out, 1, Rf_allocMatrix(REALSXP, nFy, nk));
    t.own_x = REAL(VECTOR_ELT(out, 0));
    t.own_y = REAL(VECTOR_ELT(out, 1));
  }
  if (what & W_QUERY) {
    for (int e = 2; e <= 4; e++)
      SET_VECTOR_ELT(out, e, Rf_allocMatrix(REALSXP, nE, nk));
    t.q_x = REAL(VECTOR_ELT(out, 2));
    t.q_y = REAL(VECTOR_ELT(out, 3));
    t.q_all = REAL(VECTOR_ELT(out, 4));
  }
  int *slots[8];
  for (int e = 0; e < 8; e++) {
    int flag = e < 2 ? W_KNN : e < 4 ? W_COV : e < 6 ? W_IPR : W_KDE;
    slots[e] = NULL;
    if (what & flag) {
      SEXP m = Rf_allocMatrix(INTSXP, nE, flag == W_KDE ? 1 : nk);
      SET_VECTOR_ELT(out, 5 + e, m);
      slots[e] = INTEGER(m);
    }
  }
  t.knn_a = slots[0]; t.knn_b = slots[1]; t.cov_a = slots[2];
  t.cov_b = slots[3]; t.ipr_a = slots[4]; t.ipr_b = slots[5];
  t.kde_a = slots[6]; t.kde_b = slots[7];

  /* The sweeps. With a split, fit x fit (own radii) and eval x fit are
   * disjoint pairs. Without a split they are the same pairs: one sweep does
   * everything, ipr by scattering each point's own ball, unless kde needs
   * bandwidths from the own radii first (then a radii-only sweep runs). */
  int sigma_known = !ISNAN(REAL(sigma2)[0]);
  int kde_first = (what & W_KDE) && !sigma_known;
  int pre_sweep = need_own && (!self || kde_first);
  double total = (double) (pre_sweep ? nF : 0) + (double) nE;
  SEXP bar = PROTECT(prd_progress_new(total, show));
  double ticks = 0.0;

  int *qidx_fit = (int *) R_alloc(nF > 0 ? nF : 1, sizeof(int));
  for (int i = 0; i < nFx; i++) qidx_fit[i] = fx[i];
  for (int i = 0; i < nFy; i++) qidx_fit[nFx + i] = fy[i];

  if (pre_sweep) {
    t.self = 1; t.role_own = 1; t.role_eval = 0;
    prd_query q = {{X, Y}, {nX, nY}, qidx_fit, nF, nFx};
    prd_tiles(&ref, &q, nb_visit, &t, threads, bar, &ticks);
  }
  if (what & W_KDE) {
    if (sigma_known) {
      t.sx2 = REAL(sigma2)[0];
      t.sy2 = REAL(sigma2)[1];
    } else {
      double sx = mean_sqrt(t.own_x, nFx), sy = mean_sqrt(t.own_y, nFy);
      t.sx2 = sx * sx;
      t.sy2 = sy * sy;
    }
  }
  SEXP sg = Rf_allocVector(REALSXP, 2);
  SET_VECTOR_ELT(out, 13, sg);
  REAL(sg)[0] = (what & W_KDE) ? t.sx2 : NA_REAL;
  REAL(sg)[1] = (what & W_KDE) ? t.sy2 : NA_REAL;

  int eval_work = what & (W_QUERY | W_KNN | W_COV | W_IPR | W_KDE);
  if (eval_work || (need_own && !pre_sweep)) {
    t.self = self;
    t.role_own = need_own && !pre_sweep;
    t.role_eval = 1;
    t.scatter = self && (what & W_IPR) && t.role_own;
    if (t.scatter) {
      size_t len = (size_t) threads * 2 * nE * nk;
      t.scat = (int *) R_alloc(len, sizeof(int));
      memset(t.scat, 0, len * sizeof(int));
    }
    int *qidx = qidx_fit, nqx = nFx;
    if (!self) {
      qidx = (int *) R_alloc(nE > 0 ? nE : 1, sizeof(int));
      for (int i = 0; i < nEx; i++) qidx[i] = ex[i];
      for (int i = 0; i < nEy; i++) qidx[nEx + i] = ey[i];
      nqx = nEx;
    }
    prd_query q = {{X, Y}, {nX, nY}, qidx, nE, nqx};
    prd_tiles(&ref, &q, nb_visit, &t, threads, bar, &ticks);
    if (t.scatter) {
      for (size_t c = 0; c < (size_t) nE * nk; c++) {
        int a = 0, b = 0;
        for (int th = 0; th < threads; th++) {
          a += t.scat[((size_t) th * 2) * nE * nk + c];
          b += t.scat[((size_t) th * 2 + 1) * nE * nk + c];
        }
        t.ipr_a[c] = a;
        t.ipr_b[c] = b;
      }
    }
  }
  prd_progress_done(bar);
  UNPROTECT(2);
  return out;
}
