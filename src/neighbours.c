/* Neighbourhood quantities of the evaluation points against the fit sets,
 * all from one streamed sweep of the tile engine (SPEC.md section 0, 2, 3):
 *   - own-set k-NN radii of fit points (self excluded by row index),
 *   - k-NN radii of evaluation points in X_f, Y_f and X_f u Y_f,
 *   - ball counts with per-query radii (knn, coverage), fixed radii (kde)
 *     and per-reference radii (ipr),
 *   - sums of log(1 - tau(|z - u|)) over fit points u, tau(r) = max(0,
 *     1 - r / R) (probabilistic precision and recall, Park & Kim 2023).
 * Radii are squared distances throughout (fixed radii are passed as
 * distances and squared here). Evaluation points are rows of the two
 * sample sets, the fit rows themselves (no split: self-excluded by index),
 * or rows of an external query matrix. */
#include "prdcurve.h"
#include <math.h>
#include <string.h>

enum {
  W_OWN = 1,      /* own-set radii of fit points */
  W_QX = 2,       /* radii of evaluation points in X_f */
  W_QY = 4,       /* ... in Y_f */
  W_QALL = 8,     /* ... in X_f u Y_f */
  W_KNN = 16,
  W_COV = 32,
  W_IPR = 64,
  W_KDE = 128,
  W_PPR = 256     /* sums of log(1 - tau), Park & Kim (2023) */
};

typedef struct {
  int nFx, nF, nEx, nE;
  const int *ks;
  int nk, kmax, closed, what;
  int self;        /* query row i is fit row i */
  int role_own;    /* this sweep computes own-set radii */
  int role_eval;   /* this sweep computes evaluation quantities */
  int scatter;     /* ipr by scattering own balls (self mode, one sweep) */
  double kx2, ky2; /* kde radii, squared */
  double px, py;   /* ppr radii (distances) */
  double *heap;    /* threads x kmax */
  double *kbuf;    /* threads x 3 nk */
  double *own_x, *own_y;         /* nFx x nk, (nF - nFx) x nk */
  double *q_x, *q_y, *q_all;     /* nE x nk */
  int *knn_a, *knn_b, *cov_a, *cov_b, *ipr_a, *ipr_b, *kde_a, *kde_b;
  double *ppr_a, *ppr_b;         /* nE */
  int *scat;       /* threads x 2 x nE x nk */
} nb_task;

/* sum over reference rows [lo, hi) of log(1 - max(0, 1 - |z - u| / r));
 * r = 0 is the limit r -> 0: tau = 1 at distance 0, else 0. */
static double log_tau_sum(const prd_ref *ref, prd_row *row, int lo, int hi,
                          double r) {
  double r2 = r * r, s = 0.0;
  if (r == 0.0) {
    for (int j = lo; j < hi; j++) {
      double v = row->d2[j];
      if (!row->exact[j] && v <= prd_tol(ref, row, 0.0))
        v = prd_exact(ref, row, j);
      if (v == 0.0) return R_NegInf;
    }
    return 0.0;
  }
  for (int j = lo; j < hi; j++) {
    double v = row->d2[j];
    if (v >= r2) continue;
    if (!row->exact[j] && v <= prd_tol(ref, row, 0.0))
      v = prd_exact(ref, row, j);
    s += log1p(-(1.0 - sqrt(v) / r));
  }
  return s;
}

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
  int need_qx = (w & (W_QX | W_COV)) || (t->role_own && isx);
  int need_qy = (w & (W_QY | W_COV)) || (t->role_own && !isx);
  int need_qa = (w & (W_QALL | W_KNN));
  if (need_qx) prd_kth(ref, row, 0, nFx, s, t->ks, nk, heap, qx);
  if (need_qy) prd_kth(ref, row, nFx, nF, s, t->ks, nk, heap, qy);
  if (need_qa) prd_kth(ref, row, 0, nF, s, t->ks, nk, heap, qa);

  for (int kk = 0; kk < nk; kk++) {
    size_t o = i + (size_t) kk * nE;
    if (w & W_QX) t->q_x[o] = qx[kk];
    if (w & W_QY) t->q_y[o] = qy[kk];
    if (w & W_QALL) t->q_all[o] = qa[kk];
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
    t->kde_a[i] = prd_count(ref, row, 0, nFx, t->kx2, t->closed);
    t->kde_b[i] = prd_count(ref, row, nFx, nF, t->ky2, t->closed);
  }
  if (w & W_PPR) {
    t->ppr_a[i] = log_tau_sum(ref, row, 0, nFx, t->px);
    t->ppr_b[i] = log_tau_sum(ref, row, nFx, nF, t->py);
  }
}

static int *index0(SEXP v, int n_max, int *len) {
  if (TYPEOF(v) != INTSXP) Rf_error("row indices must be integer vectors");
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

static int is_real_matrix(SEXP x) { return Rf_isReal(x) && Rf_isMatrix(x); }

SEXP ffi_neighbours(SEXP real, SEXP gen, SEXP fit, SEXP eval, SEXP ks_,
                    SEXP what_, SEXP own, SEXP fixed, SEXP closed_,
                    SEXP progress_) {
  if (!is_real_matrix(real) || !is_real_matrix(gen))
    Rf_error("`real` and `generated` must be double matrices");
  int nX = Rf_nrows(real), nY = Rf_nrows(gen), d = Rf_ncols(real);
  if (Rf_ncols(gen) != d) Rf_error("column counts differ");
  if (TYPEOF(fit) != VECSXP || Rf_length(fit) != 2)
    Rf_error("`fit` must be a list of two index vectors");
  int self = Rf_isNull(eval), external = is_real_matrix(eval);
  if (!self && !external && (TYPEOF(eval) != VECSXP || Rf_length(eval) != 2))
    Rf_error("`eval` must be NULL, a list of two index vectors or a matrix");
  if (external && Rf_ncols(eval) != d) Rf_error("query column count differs");
  int nFx, nFy, nEx = 0, nEy = 0;
  int *fx = index0(VECTOR_ELT(fit, 0), nX, &nFx);
  int *fy = index0(VECTOR_ELT(fit, 1), nY, &nFy);
  int *ex = fx, *ey = fy;
  if (self) {
    nEx = nFx;
    nEy = nFy;
  } else if (external) {
    nEx = Rf_nrows(eval);
    nEy = 0;
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
  if (TYPEOF(fixed) != REALSXP || Rf_length(fixed) != 4)
    Rf_error("`fixed` must be a double vector of length 4");
  int own_given = !Rf_isNull(own);
  if (own_given) {
    if (TYPEOF(own) != VECSXP || Rf_length(own) != 2 ||
        !is_real_matrix(VECTOR_ELT(own, 0)) ||
        !is_real_matrix(VECTOR_ELT(own, 1)) ||
        Rf_nrows(VECTOR_ELT(own, 0)) != nFx ||
        Rf_nrows(VECTOR_ELT(own, 1)) != nFy ||
        Rf_ncols(VECTOR_ELT(own, 0)) != nk || Rf_ncols(VECTOR_ELT(own, 1)) != nk)
      Rf_error("`own` must be NULL or two radius matrices of the fit sets");
  }
  int need_own = (what & W_OWN) || ((what & W_IPR) && !own_given);
  /* every radius is taken in a set that holds k points besides z */
  int sx = self ? 1 : 0;
  if ((need_own && ((nFx > 0 && nFx - 1 < kmax) || (nFy > 0 && nFy - 1 < kmax))) ||
      ((what & (W_QX | W_COV)) && nFx - sx < kmax) ||
      ((what & (W_QY | W_COV)) && nFy - sx < kmax) ||
      ((what & (W_QALL | W_KNN)) && nF - sx < kmax))
    Rf_error("k = %d is too large for the fit set sizes", kmax);

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
  double fmax = 0.0;
  for (int i = 0; i < nF; i++) if (fnorm[i] > fmax) fmax = fnorm[i];
  prd_ref ref = {F, nF, d, fnorm, fmax};

  int threads = prd_threads_get();
  nb_task t;
  memset(&t, 0, sizeof(t));
  t.nFx = nFx; t.nF = nF; t.nEx = nEx; t.nE = nE;
  t.ks = ks; t.nk = nk; t.kmax = kmax; t.closed = closed; t.what = what;
  t.heap = (double *) R_alloc((size_t) threads * kmax, sizeof(double));
  t.kbuf = (double *) R_alloc((size_t) threads * 3 * nk, sizeof(double));
  t.kx2 = REAL(fixed)[0] * REAL(fixed)[0];
  t.ky2 = REAL(fixed)[1] * REAL(fixed)[1];
  t.px = REAL(fixed)[2];
  t.py = REAL(fixed)[3];
  if ((what & W_KDE) && (!R_FINITE(t.kx2) || !R_FINITE(t.ky2)))
    Rf_error("kde radii must be finite");
  if ((what & W_PPR) && !(t.px >= 0 && t.py >= 0 && R_FINITE(t.px) && R_FINITE(t.py)))
    Rf_error("ppr radii must be non-negative and finite");

  const char *names[] = {"own_x", "own_y", "query_x", "query_y", "query_all",
                         "knn_a", "knn_b", "coverage_a", "coverage_b",
                         "ipr_a", "ipr_b", "kde_a", "kde_b", "ppr_a", "ppr_b",
                         ""};
  SEXP out = PROTECT(Rf_mkNamed(VECSXP, names));
  if (own_given) {
    t.own_x = REAL(VECTOR_ELT(own, 0));
    t.own_y = REAL(VECTOR_ELT(own, 1));
  } else if (need_own) {
    SET_VECTOR_ELT(out, 0, Rf_allocMatrix(REALSXP, nFx, nk));
    SET_VECTOR_ELT(out, 1, Rf_allocMatrix(REALSXP, nFy, nk));
    t.own_x = REAL(VECTOR_ELT(out, 0));
    t.own_y = REAL(VECTOR_ELT(out, 1));
  }
  int qflags[3] = {W_QX, W_QY, W_QALL};
  double **qdst[3] = {&t.q_x, &t.q_y, &t.q_all};
  for (int e = 0; e < 3; e++) {
    if (what & qflags[e]) {
      SET_VECTOR_ELT(out, 2 + e, Rf_allocMatrix(REALSXP, nE, nk));
      *qdst[e] = REAL(VECTOR_ELT(out, 2 + e));
    }
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
  if (what & W_PPR) {
    SET_VECTOR_ELT(out, 13, Rf_allocVector(REALSXP, nE));
    SET_VECTOR_ELT(out, 14, Rf_allocVector(REALSXP, nE));
    t.ppr_a = REAL(VECTOR_ELT(out, 13));
    t.ppr_b = REAL(VECTOR_ELT(out, 14));
  }

  /* The sweeps. With a split, fit x fit (own radii) and eval x fit are
   * disjoint pairs: a radii-only sweep over the fit rows, then the
   * evaluation sweep. Without a split they are the same pairs: one sweep
   * does everything, ipr by scattering each point's own ball. */
  int eval_work = what & ~W_OWN;
  int pre_sweep = need_own && !self;
  double total = (double) (pre_sweep ? nF : 0) +
                 (double) (eval_work || (need_own && self) ? nE : 0);
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
  if (eval_work || (need_own && self)) {
    t.self = self;
    t.role_own = need_own && self;
    t.role_eval = 1;
    t.scatter = self && (what & W_IPR) && t.role_own;
    if (t.scatter) {
      size_t len = (size_t) threads * 2 * nE * nk;
      t.scat = (int *) R_alloc(len, sizeof(int));
      memset(t.scat, 0, len * sizeof(int));
    }
    prd_query q = {{X, Y}, {nX, nY}, qidx_fit, nE, nFx};
    if (external) {
      int *qi = (int *) R_alloc(nE > 0 ? nE : 1, sizeof(int));
      for (int i = 0; i < nE; i++) qi[i] = i;
      q.src[0] = REAL(eval);
      q.ld[0] = nE;
      q.idx = qi;
      q.n0 = nE;
    } else if (!self) {
      int *qi = (int *) R_alloc(nE > 0 ? nE : 1, sizeof(int));
      for (int i = 0; i < nEx; i++) qi[i] = ex[i];
      for (int i = 0; i < nEy; i++) qi[nEx + i] = ey[i];
      q.idx = qi;
      q.n0 = nEx;
    }
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
