/* The engine's entry point: ffi_engine() parses the spec, asks the
 * planner (plan.c) for the sweeps, runs them and returns the outputs;
 * nb_visit() runs the visit functions of the estimator table
 * (estimators.c) on each row of a full sweep. */
#include "estimators.h"
#include <math.h>

/* ---- one sweep ------------------------------------------------------------ */

typedef struct {
  nb_call c;
  int nEx;             /* evaluation rows of real (the rest: generated) */
  int self;            /* query row i is fit row i */
  const int *self_pos; /* or (evaluation rows that are fit rows): query row
                          i is fit row self_pos[i]; NULL: none */
  int needs;           /* radii to compute for every row */
  int act[N_EST];      /* estimators visited in this sweep */
  int n_act;
  nb_out *outs;        /* threads x N_EST */
  int kmax;
  double *heap;        /* threads x kmax */
  double *kbuf;        /* threads x 3 nk */
} nb_sweep;

static void nb_visit(void *ctx, const prd_ref *ref, prd_row *row) {
  nb_sweep *w = (nb_sweep *) ctx;
  int i = row->i, nFx = w->c.nFx, nF = w->c.nF, nk = w->c.nk;
  int isx = w->self ? (i < nFx) : (i < w->nEx);
  int s = w->self ? i : (w->self_pos ? w->self_pos[i] : -1);
  double *heap = w->heap + (size_t) row->tid * w->kmax;
  double *rx = w->kbuf + (size_t) row->tid * 3 * nk, *ry = rx + nk,
         *ra = ry + nk;
  if (s >= 0) prd_row_self(row, s);
  int nd = w->needs, ncx = -1, ncy = -1;
  if ((nd & NEED_RX) || ((nd & NEED_ROWN) && isx))
    ncx = prd_kth(ref, row, 0, nFx, s, w->c.ks, nk, heap, rx);
  if ((nd & NEED_RY) || ((nd & NEED_ROWN) && !isx))
    ncy = prd_kth(ref, row, nFx, nF, s, w->c.ks, nk, heap, ry);
  /* radii in X_f u Y_f: from the two sets' candidates when both were
   * just selected (no pass over the row), else from the whole row */
  if (nd & NEED_RALL) {
    /* their candidates, for the counts at these radii (prd_count_cand()) */
    if (ncx >= 0 && ncy >= 0)
      row->n_acand = prd_kth_union(ref, row, 0, ncx, nFx, ncy, w->c.ks, nk, ra);
    else
      row->n_acand = prd_kth(ref, row, 0, nF, s, w->c.ks, nk, heap, ra);
    row->acand = row->cand;
  }
  nb_radii q = {i, isx, s, rx, ry, ra};
  nb_out *o = w->outs + (size_t) row->tid * N_EST;
  for (int a = 0; a < w->n_act; a++) {
    int e = w->act[a];
    estimators[e].visit(&w->c, ref, row, &q, o + e);
  }
}


/* ---- the entry point ------------------------------------------------------ */

static SEXP list_get(SEXP list, const char *name) {
  if (TYPEOF(list) != VECSXP) return R_NilValue;
  SEXP nms = Rf_getAttrib(list, R_NamesSymbol);
  if (TYPEOF(nms) != STRSXP) return R_NilValue;
  for (R_xlen_t i = 0; i < Rf_xlength(list); i++)
    if (strcmp(CHAR(STRING_ELT(nms, i)), name) == 0) return VECTOR_ELT(list, i);
  return R_NilValue;
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

static int flag(SEXP x, const char *what) {
  if (TYPEOF(x) != LGLSXP || Rf_length(x) != 1 || LOGICAL(x)[0] == NA_LOGICAL)
    Rf_error("`spec$%s` must be TRUE or FALSE", what);
  return LOGICAL(x)[0];
}

/* ffi_sgemm(): whether the BLAS has sgemm (configure), i.e. whether the
 * engine can compute its products in single precision. */
SEXP ffi_sgemm(void) {
#ifdef PRD_HAVE_SGEMM
  return Rf_ScalarLogical(1);
#else
  return Rf_ScalarLogical(0);
#endif
}

/* The largest squared norm of the rows of M (n x d) translated by centre,
 * folded into *mx, and their sum added to *sum. */
static void centred_norms(const double *M, int n, int d, const double *centre,
                          double *mx, double *sum) {
  if (n <= 0) return;
  double *nr = (double *) R_alloc(n, sizeof(double));
  prd_row_scores(M, n, d, NULL, n, centre, NULL, nr, NULL);
  for (int i = 0; i < n; i++) {
    if (nr[i] > *mx) *mx = nr[i];
    *sum += nr[i];
  }
}

/* .Call(ffi_engine_prep, x, centre, norms): what every engine call on a
 * set finds first, found once for the calls on the same sets
 * (engine_prep()): list(centre, stats), the centre given, or (NULL) the
 * column means of x (the real set, rows > 0), and when norms is TRUE
 * stats = (largest, sum) of the squared norms of x's rows about it (else
 * NA), by the same passes as ffi_engine(): the same bits. */
SEXP ffi_engine_prep(SEXP x, SEXP centre, SEXP norms) {
  if (!is_real_matrix(x))
    Rf_error("ffi_engine_prep: `x` must be a double matrix");
  int n = Rf_nrows(x), d = Rf_ncols(x);
  if (Rf_isNull(centre) ? n < 1 :
      TYPEOF(centre) != REALSXP || Rf_length(centre) != d)
    Rf_error("ffi_engine_prep: `centre` must be NULL (x with rows) or ncol(x) values");
  int with_norms = Rf_asLogical(norms) == TRUE;
  const char *names[] = {"centre", "stats", ""};
  SEXP out = PROTECT(Rf_mkNamed(VECSXP, names));
  SEXP c = centre;
  if (Rf_isNull(c)) {
    c = Rf_allocVector(REALSXP, d);
    SET_VECTOR_ELT(out, 0, c);
    prd_col_means(REAL_RO(x), n, d, NULL, n, 0, REAL(c));
  } else {
    SET_VECTOR_ELT(out, 0, c);
  }
  SEXP st = Rf_allocVector(REALSXP, 2);
  SET_VECTOR_ELT(out, 1, st);
  double mx = 0.0, sum = 0.0;
  if (with_norms) centred_norms(REAL_RO(x), n, d, REAL_RO(c), &mx, &sum);
  REAL(st)[0] = with_norms ? mx : NA_REAL;
  REAL(st)[1] = with_norms ? sum : NA_REAL;
  UNPROTECT(1);
  return out;
}

/* spec$self_rows: NULL, or with evaluation rows given as two index
 * vectors that are fit rows themselves, the position of each in the fit
 * rows (1-based: X_f's rows 1..nFx, then Y_f's): that fit row is the
 * query itself, left out as without a split (a block of the no-split
 * sweep, R/engine-futures.R). 0-based positions, or NULL. */
static const int *self_rows(SEXP v, int self, int external, int nE, int nF) {
  if (Rf_isNull(v)) return NULL;
  if (self || external || TYPEOF(v) != INTSXP || Rf_length(v) != nE)
    Rf_error("`spec$self_rows` must be NULL or the fit positions of the evaluation rows");
  int len;
  return index0(v, nF, &len);
}

/* .Call(ffi_engine, real, generated, spec), spec a named list:
 *   fit        list of two integer vectors: fit rows of real, generated
 *   eval       NULL (the fit rows, self-excluded by index), a list of two
 *              integer vectors, or a double matrix of external queries
 *   self_rows  NULL, or the fit positions of evaluation rows that are fit
 *              rows (self-excluded as without a split; self_rows())
 *   ks         increasing positive integers
 *   estimators names of rows of the estimator table
 *   own        NULL or own radii of the fit rows: list of two double
 *              matrices (nFx x nk, nFy x nk), as the "own" outputs
 *   radii      named list of fixed radius pairs (distances, double(2)),
 *              one per estimator that needs one, named as its `radius`
 *   closed, progress  TRUE or FALSE
 *   single     TRUE: products in single precision where available and
 *              narrow enough (products.c), FALSE: double (NULL: TRUE)
 * Returns a list with every output name of the table (NULL when not
 * computed), with attributes "exact" (exact recomputations), "threads"
 * (the largest thread team used) and "precision" ("single" or "double",
 * the precision of the products). */
/* The state of one engine call: the rows, the request, the plan, the
 * outputs and the sweeps' shared parts. */
typedef struct {
  const double *X, *Y;
  int nX, nY, d;
  int *fx, *fy, *ex, *ey;
  int nFx, nFy, nEx, nEy, nF, nE;
  int self, external;
  SEXP eval;
  const int *self_pos;
  const int *ks;
  int nk, kmax, closed, show;
  int req[N_EST];
  SEXP own;             /* given own radii (spec$own) */
  int own_part[2], own_given, cross, symmetric, own_cap;
  nb_plan plan;
  double rad[N_EST][2]; /* fixed radius pairs (distances) */
  double *rk2[N_EST];   /* ... squared, a pair per k */
  nb_out base[N_EST];   /* the outputs' memory */
  int threads;
  nb_sweep w;
  double *centre;
  prd_prec prec;
  prd_rows fit_rows;
  prd_progress prog;
  const double *own_r[2]; /* without a split: each fit set's own radii */
  double *xy, *yx;        /* ... and its radii in the other fit set */
} nb_engine;

/* the rows and neighbour counts of spec */
static void engine_rows(SEXP real, SEXP gen, SEXP spec, nb_engine *g) {
  if (!is_real_matrix(real) || !is_real_matrix(gen))
    Rf_error("`real` and `generated` must be double matrices");
  g->nX = Rf_nrows(real);
  g->nY = Rf_nrows(gen);
  g->d = Rf_ncols(real);
  if (Rf_ncols(gen) != g->d) Rf_error("column counts differ");
  if (TYPEOF(spec) != VECSXP) Rf_error("`spec` must be a named list");
  SEXP fit = list_get(spec, "fit"), eval = list_get(spec, "eval");
  if (TYPEOF(fit) != VECSXP || Rf_length(fit) != 2)
    Rf_error("`spec$fit` must be a list of two index vectors");
  g->self = Rf_isNull(eval);
  g->external = is_real_matrix(eval);
  g->eval = eval;
  if (!g->self && !g->external &&
      (TYPEOF(eval) != VECSXP || Rf_length(eval) != 2))
    Rf_error("`spec$eval` must be NULL, a list of two index vectors or a matrix");
  if (g->external && Rf_ncols(eval) != g->d)
    Rf_error("query column count differs");
  g->fx = index0(VECTOR_ELT(fit, 0), g->nX, &g->nFx);
  g->fy = index0(VECTOR_ELT(fit, 1), g->nY, &g->nFy);
  g->ex = g->fx;
  g->ey = g->fy;
  if (g->self) {
    g->nEx = g->nFx;
    g->nEy = g->nFy;
  } else if (g->external) {
    g->nEx = Rf_nrows(eval);
  } else {
    g->ex = index0(VECTOR_ELT(eval, 0), g->nX, &g->nEx);
    g->ey = index0(VECTOR_ELT(eval, 1), g->nY, &g->nEy);
  }
  g->nF = g->nFx + g->nFy;
  g->nE = g->nEx + g->nEy;
  g->self_pos = self_rows(list_get(spec, "self_rows"), g->self, g->external,
                          g->nE, g->nF);
  SEXP ks_ = list_get(spec, "ks");
  g->nk = Rf_length(ks_);
  if (TYPEOF(ks_) != INTSXP || g->nk < 1) Rf_error("`spec$ks` must be integer");
  g->ks = INTEGER(ks_);
  for (int kk = 0; kk < g->nk; kk++)
    if (g->ks[kk] == NA_INTEGER || g->ks[kk] < 1 ||
        (kk > 0 && g->ks[kk] <= g->ks[kk - 1]))
      Rf_error("`spec$ks` must be increasing positive integers");
  g->kmax = g->ks[g->nk - 1];
  g->closed = flag(list_get(spec, "closed"), "closed");
  g->show = flag(list_get(spec, "progress"), "progress");
}

/* the estimators asked for, the own radii given, the modes and knobs of
 * spec; then the plan (nb_plan_make()) and the check of k against it */
static void engine_request(SEXP spec, nb_engine *g) {
  SEXP est_ = list_get(spec, "estimators");
  if (TYPEOF(est_) != STRSXP) Rf_error("`spec$estimators` must be character");
  memset(g->req, 0, sizeof(g->req));
  for (R_xlen_t m = 0; m < Rf_xlength(est_); m++) {
    const char *nm = CHAR(STRING_ELT(est_, m));
    int e = est_index(nm);
    if (e == N_EST) Rf_error("unknown estimator \"%s\"", nm);
    g->req[e] = 1;
  }
  /* own radii given: both (computed by no sweep), or one of them (the
   * other NULL: computed by the symmetric sweep; several models share the
   * real set's) */
  SEXP own = list_get(spec, "own");
  g->own = own;
  if (!Rf_isNull(own)) {
    if (TYPEOF(own) != VECSXP || Rf_length(own) != 2)
      Rf_error("`spec$own` must be NULL or two radius matrices of the fit sets");
    for (int p = 0; p < 2; p++) {
      SEXP o = VECTOR_ELT(own, p);
      if (Rf_isNull(o)) continue;
      if (!is_real_matrix(o) || Rf_nrows(o) != (p == 0 ? g->nFx : g->nFy) ||
          Rf_ncols(o) != g->nk)
        Rf_error("`spec$own` must be NULL or two radius matrices of the fit sets");
      g->own_part[p] = 1;
    }
  }
  g->own_given = g->own_part[0] && g->own_part[1];
  /* spec$cross = TRUE (no split only): only the outputs of the rows of one
   * set against the other fit set are wanted (the estimators' ALT_CROSS_*
   * outputs: the b side of the rows of real, the a side of the rows of
   * generated; the others are NA), decided against the own radii and
   * fixed radii: X_f x Y_f is computed once (prd_cross()). */
  SEXP cross_ = list_get(spec, "cross");
  g->cross = Rf_isNull(cross_) ? 0 : flag(cross_, "cross");
  if (g->cross && !g->self) Rf_error("`spec$cross` needs `spec$eval` = NULL");
  SEXP sym_ = list_get(spec, "symmetric");
  g->symmetric = Rf_isNull(sym_) ? 1 : flag(sym_, "symmetric");
  SEXP cap_ = list_get(spec, "own_buffer");
  g->own_cap = (TYPEOF(cap_) == INTSXP && Rf_length(cap_) == 1 &&
                INTEGER(cap_)[0] != NA_INTEGER) ? INTEGER(cap_)[0] : 0;
  /* spec$vector = FALSE: the generic row passes instead of the AVX2
   * compactions; spec$block_products = FALSE: the cross sweep's products
   * per tile, not per column block (tests: the same results) */
  SEXP vec_ = list_get(spec, "vector"), blk_ = list_get(spec, "block_products");
  SEXP bsum_ = list_get(spec, "blas_sum");
  prd_knobs.vector = Rf_isNull(vec_) ? 1 : flag(vec_, "vector");
  prd_knobs.block_products = Rf_isNull(blk_) ? 1 : flag(blk_, "block_products");
  prd_knobs.blas_sum = Rf_isNull(bsum_) ? 1 : flag(bsum_, "blas_sum");
  nb_plan_make(g->req, g->self, g->cross, g->symmetric, g->own_part, g->nFx,
               g->nFy, &g->plan);
  /* every radius is taken in a set that holds k points besides z */
  int sx = g->self || g->self_pos ? 1 : 0, kmax = g->kmax;
  int nd_fit = g->plan.nd_fit, nd_eval = g->plan.nd_eval;
  if (((nd_fit & NEED_ROWN) &&
       ((g->nFx > 0 && g->nFx - 1 < kmax) || (g->nFy > 0 && g->nFy - 1 < kmax))) ||
      ((nd_eval & NEED_RX) && g->nFx - sx < kmax) ||
      ((nd_eval & NEED_RY) && g->nFy - sx < kmax) ||
      ((nd_eval & NEED_RALL) && g->nF - sx < kmax))
    Rf_error("k = %d is too large for the fit set sizes", kmax);
}

/* the fixed radius pairs of the estimators that take one: a pair (x, y),
 * or for per-k estimators one pair per k (x1, y1, x2, ...); rk2 holds
 * the squared pair of every k */
static void engine_fixed_radii(SEXP spec, nb_engine *g) {
  SEXP radii = list_get(spec, "radii");
  int nk = g->nk;
  for (int e = 0; e < N_EST; e++) {
    const nb_estimator *est = &estimators[e];
    g->rad[e][0] = g->rad[e][1] = NA_REAL;
    g->rk2[e] = NULL;
    if (!g->plan.on[e] || est->radius == NULL) continue;
    SEXP r = list_get(radii, est->radius);
    int len = Rf_length(r);
    if (TYPEOF(r) != REALSXP || (len != 2 && !(est->per_k && len == 2 * nk)))
      Rf_error("`spec$radii$%s` must be two radii%s", est->radius,
               est->per_k ? " or two per k" : "");
    for (int p = 0; p < len; p++) {
      double v = REAL(r)[p];
      if (!(v >= 0) || !R_FINITE(v * v))
        Rf_error("%s radii must be non-negative, finite and of finite square",
                 est->radius);
    }
    g->rad[e][0] = REAL(r)[0];
    g->rad[e][1] = REAL(r)[1];
    g->rk2[e] = (double *) R_alloc(2 * (size_t) nk, sizeof(double));
    for (int kk = 0; kk < nk; kk++)
      for (int p = 0; p < 2; p++) {
        double v = REAL(r)[len == 2 ? p : 2 * kk + p];
        g->rk2[e][2 * kk + p] = v * v;
      }
  }
}

/* the outputs: every name of the table, NULL unless computed (the given
 * own radii as they are); the sweeps' per-thread copies of them */
static SEXP engine_outputs(nb_engine *g) {
  int n_names = 0;
  for (int e = 0; e < N_EST; e++) n_names += n_outputs(&estimators[e]);
  const char **names = (const char **) R_alloc(n_names + 1, sizeof(char *));
  for (int e = 0, m = 0; e < N_EST; e++)
    for (int p = 0; p < n_outputs(&estimators[e]); p++)
      names[m++] = estimators[e].out[p];
  names[n_names] = "";
  SEXP out = PROTECT(Rf_mkNamed(VECSXP, names));
  nb_out *base = g->base;
  memset(base, 0, sizeof(g->base));
  for (int e = 0, slot = 0; e < N_EST; slot += n_outputs(&estimators[e]), e++) {
    const nb_estimator *est = &estimators[e];
    int ncol = est->per_k ? g->nk : 1;
    base[e].r[0] = g->rad[e][0];
    base[e].r[1] = g->rad[e][1];
    base[e].rk2 = g->rk2[e];
    if (e == EST_OWN && g->req[e] && g->own_given) {
      SET_VECTOR_ELT(out, slot, VECTOR_ELT(g->own, 0));
      SET_VECTOR_ELT(out, slot + 1, VECTOR_ELT(g->own, 1));
    }
    if (!g->plan.on[e]) continue;
    for (int p = 0; p < n_outputs(est); p++) {
      int nrow = est->rows == ROWS_FIT ? (p == 0 ? g->nFx : g->nFy) :
                 est->rows == ROWS_HITS ? g->nF : g->nE;
      SEXP m = Rf_allocMatrix(est->type, nrow, ncol);
      SET_VECTOR_ELT(out, slot + p, m);
      base[e].p[p] = est->type == INTSXP ? (void *) INTEGER(m) : (void *) REAL(m);
      base[e].nrow[p] = (size_t) nrow;
    }
  }
  g->threads = prd_threads_get();
  int threads = g->threads;
  nb_sweep *w = &g->w;
  memset(w, 0, sizeof(*w));
  w->c.nFx = g->nFx;
  w->c.nF = g->nF;
  w->c.ks = g->ks;
  w->c.nk = g->nk;
  w->c.closed = g->closed;
  w->nEx = g->nEx;
  w->kmax = g->kmax;
  w->heap = (double *) R_alloc((size_t) threads * g->kmax, sizeof(double));
  w->kbuf = (double *) R_alloc((size_t) threads * 3 * g->nk, sizeof(double));
  w->outs = (nb_out *) R_alloc((size_t) threads * N_EST, sizeof(nb_out));
  for (int t = 0; t < threads; t++)
    memcpy(w->outs + (size_t) t * N_EST, base, sizeof(g->base));
  if (g->own_given) {
    w->c.own_x = REAL_RO(VECTOR_ELT(g->own, 0));
    w->c.own_y = REAL_RO(VECTOR_ELT(g->own, 1));
  } else if (g->plan.on[EST_OWN]) {
    w->c.own_x = (const double *) base[EST_OWN].p[0];
    w->c.own_y = (const double *) base[EST_OWN].p[1];
  }
  UNPROTECT(1);
  return out;
}

/* the centre of the rows for the BLAS products (products.c: the rounding
 * and why decisions stay exact), from spec$prep (engine_prep(), with real
 * rows: the centre and the sets' centred norm statistics, found once for
 * the calls on these sets) or the real set's column means; the precision
 * of the products: single where sgemm exists, unless the rounding window
 * would be wide for these data (prd_prec_choose()) */
static void engine_centre(SEXP spec, nb_engine *g) {
  SEXP prep = list_get(spec, "prep");
  int d = g->d, nX = g->nX, nY = g->nY;
  const double *X = g->X, *Y = g->Y;
  if (!Rf_isNull(prep) && nX == 0) prep = R_NilValue;
  if (!Rf_isNull(prep) &&
      (TYPEOF(prep) != VECSXP || Rf_length(prep) != 3 ||
       TYPEOF(VECTOR_ELT(prep, 0)) != REALSXP ||
       Rf_length(VECTOR_ELT(prep, 0)) != d ||
       TYPEOF(VECTOR_ELT(prep, 1)) != REALSXP ||
       TYPEOF(VECTOR_ELT(prep, 2)) != REALSXP))
    Rf_error("`spec$prep` must be NULL or engine_prep() of the sets");
  g->centre = NULL;
  if (!Rf_isNull(prep)) {
    g->centre = (double *) R_alloc(d > 0 ? d : 1, sizeof(double));
    memcpy(g->centre, REAL(VECTOR_ELT(prep, 0)), (size_t) d * sizeof(double));
  } else if (nX > 0 || nY > 0) {
    const double *C = nX > 0 ? X : Y;
    int nC = nX > 0 ? nX : nY;
    g->centre = (double *) R_alloc(d > 0 ? d : 1, sizeof(double));
    prd_col_means(C, nC, d, NULL, nC, 0, g->centre);
  }
  SEXP single_ = list_get(spec, "single");
  int want_single = Rf_isNull(single_) ? 1 : flag(single_, "single");
  prd_prec prec = {0, 1.0};
#ifdef PRD_HAVE_SGEMM
  if (want_single && g->centre) {
    double mx = 0.0, sum_c = 0.0, sum_o = 0.0;
    /* given statistics: (largest, sum) of each set's centred squared
     * norms, NA when not found (then found here) */
    const double *px = NULL, *py = NULL;
    if (!Rf_isNull(prep)) {
      px = REAL(VECTOR_ELT(prep, 1));
      py = REAL(VECTOR_ELT(prep, 2));
      if (Rf_length(VECTOR_ELT(prep, 1)) != 2 || ISNAN(px[0])) px = NULL;
      if (Rf_length(VECTOR_ELT(prep, 2)) != 2 || ISNAN(py[0])) py = NULL;
    }
    if (px) {
      mx = px[0];
      sum_c = px[1];
    } else {
      centred_norms(nX > 0 ? X : Y, nX > 0 ? nX : nY, d, g->centre, &mx,
                    &sum_c);
    }
    if (nX > 0 && nY > 0 && py) {
      if (py[0] > mx) mx = py[0];
    } else if (nX > 0) {
      centred_norms(Y, nY, d, g->centre, &mx, &sum_o);
    }
    if (g->external)
      centred_norms(REAL_RO(g->eval), Rf_nrows(g->eval), d, g->centre, &mx,
                    &sum_o);
    prec = prd_prec_choose(1, d, mx, sum_c / (nX > 0 ? nX : nY));
  }
#else
  (void) want_single;
#endif
  g->prec = prec;
  int *fit_idx = (int *) R_alloc(g->nF > 0 ? g->nF : 1, sizeof(int));
  for (int i = 0; i < g->nFx; i++) fit_idx[i] = g->fx[i];
  for (int i = 0; i < g->nFy; i++) fit_idx[g->nFx + i] = g->fy[i];
  prd_rows fr = {{X, Y}, {nX, nY}, fit_idx, g->nF, g->nFx};
  g->fit_rows = fr;
}

/* the work of the plan's sweeps, for the progress bar */
static double engine_work(const nb_engine *g) {
  const nb_plan *pl = &g->plan;
  double total = 0.0;
  for (int r = 0; r < pl->n_rec; r++) {
    switch (pl->rec[r].kind) {
    case SW_SYM_X: total += pl->sym_radii ? g->nFx : 0; break;
    case SW_SYM_Y: total += pl->sym_radii ? g->nFy : 0; break;
    case SW_CROSS_RADII: case SW_CROSS_DECIDE: total += g->nF; break;
    case SW_FULL: total += g->nE; break;
    default: break;
    }
  }
  /* the own radii's symmetric sweeps and the fit sweep: the fit rows once */
  if ((pl->own_sym && !pl->sym_radii) || pl->pre_sweep) total += g->nF;
  return total;
}

/* the rows of a fit set alone (the symmetric and cross sweeps) */
static prd_rows set_rows(const nb_engine *g, int p) {
  prd_rows r = {{p == 0 ? g->X : g->Y, NULL}, {p == 0 ? g->nX : g->nY, 0},
                p == 0 ? g->fx : g->fy, p == 0 ? g->nFx : g->nFy,
                p == 0 ? g->nFx : g->nFy};
  return r;
}

/* before the sweeps: where each fit set's own radii go (the "own" outputs,
 * or without a split a buffer of the call), the given ones copied in */
static void engine_stage_own(nb_engine *g) {
  const nb_plan *pl = &g->plan;
  int e_qx = est_alt(ALT_QUERY_X), e_qy = est_alt(ALT_QUERY_Y);
  for (int p = 0; p < 2; p++) {
    size_t len = (size_t) (p == 0 ? g->nFx : g->nFy) * g->nk;
    const double *given = g->own_part[p] ? REAL_RO(VECTOR_ELT(g->own, p)) : NULL;
    double *own_out = pl->on[EST_OWN] ? (double *) g->base[EST_OWN].p[p] : NULL;
    g->own_r[p] = NULL;
    if (pl->own_sym && !pl->sym_radii) {
      if (given) memcpy(own_out, given, len * sizeof(double));
      g->own_r[p] = own_out;
    } else if (pl->sym_radii) {
      int q = p == 0 ? e_qx : e_qy;
      if (!pl->on[EST_OWN] && !(q < N_EST && pl->on[q])) continue;
      double *dst = own_out ? own_out :
        (double *) R_alloc(len > 0 ? len : 1, sizeof(double));
      g->own_r[p] = dst;
      if (given) {
        if (own_out) memcpy(dst, given, len * sizeof(double));
        else g->own_r[p] = given;
      }
    }
  }
}

/* a symmetric sweep: the own radii of fit set p (its tiles against
 * themselves, each pair once) */
static void run_symmetric(nb_engine *g, int p) {
  prd_rows r = set_rows(g, p);
  prd_own_radii(&r, g->d, g->centre, &g->prec, g->ks, g->nk, g->threads,
                g->own_cap, &g->prog, (double *) g->own_r[p]);
}

/* the cross-radii sweep: X_f x Y_f once, the radii of each fit set's rows
 * in the other fit set */
static void run_cross_radii(nb_engine *g) {
  const nb_plan *pl = &g->plan;
  prd_rows xr = set_rows(g, 0), yr = set_rows(g, 1);
  g->xy = pl->sr_xy ?
    (double *) R_alloc((size_t) g->nFx * g->nk, sizeof(double)) : NULL;
  g->yx = pl->sr_yx ?
    (double *) R_alloc((size_t) g->nFy * g->nk, sizeof(double)) : NULL;
  prd_cross_radii(&xr, &yr, g->d, g->centre, &g->prec, g->ks, g->nk,
                  g->threads, g->own_cap, &g->prog, g->xy, g->yx);
}

/* without a split, after the sweeps: the radii estimators' outputs
 * (evaluation rows = fit rows, those of X_f, then those of Y_f) from the
 * own radii and the cross radii */
static void fill_query_radii(nb_engine *g) {
  int nk = g->nk, nFx = g->nFx, nFy = g->nFy, nE = g->nE;
  for (int q = 0; q < 2; q++) {
    int e = est_alt(q == 0 ? ALT_QUERY_X : ALT_QUERY_Y);
    if (e == N_EST || !g->plan.on[e]) continue;
    const double *from_x = q == 0 ? g->own_r[0] : g->xy;
    const double *from_y = q == 0 ? g->yx : g->own_r[1];
    double *o = (double *) g->base[e].p[0];
    for (int kk = 0; kk < nk; kk++) {
      for (int i = 0; i < nFx; i++)
        o[(size_t) i + (size_t) kk * nE] = from_x[(size_t) i + (size_t) kk * nFx];
      for (int i = 0; i < nFy; i++)
        o[(size_t) nFx + i + (size_t) kk * nE] =
          from_y[(size_t) i + (size_t) kk * nFy];
    }
  }
}

/* the cross-decide sweep: X_f x Y_f once, the rows of each fit set
 * decided against the other's own and fixed radii (prd_cross()); its
 * outputs: a = of X_f, b = of Y_f; the rows of real get the b side (Y_f),
 * the rows of generated the a side (X_f); the rest NA */
static void run_cross_decide(SEXP spec, SEXP out, nb_engine *g) {
  const int *on = g->plan.on;
  int nk = g->nk, nFx = g->nFx, nFy = g->nFy, nE = g->nE;
  int e_ipr = est_alt(ALT_CROSS_IPR), e_cov = est_alt(ALT_CROSS_COV),
      e_ppr = est_alt(ALT_CROSS_PPR);
  prd_cross_spec cs;
  memset(&cs, 0, sizeof(cs));
  cs.nk = nk;
  cs.closed = g->closed;
  cs.ipr = on[e_ipr];
  cs.cov = on[e_cov];
  cs.ppr = on[e_ppr];
  cs.own_a = g->w.c.own_x;
  cs.own_b = g->w.c.own_y;
  cs.ld_a = nFx;
  cs.ld_b = nFy;
  cs.R_a = g->rad[e_ppr][0];
  cs.R_b = g->rad[e_ppr][1];
  size_t la = (size_t) nFx * nk + 1, lb = (size_t) nFy * nk + 1;
  int *ib[4];
  for (int p = 0; p < 4; p++) {
    size_t len = p % 2 == 0 ? la : lb;
    ib[p] = (int *) R_alloc(len, sizeof(int));
    memset(ib[p], 0, len * sizeof(int));
  }
  cs.ipr_a = ib[0]; cs.ipr_b = ib[1]; cs.cov_a = ib[2]; cs.cov_b = ib[3];
  cs.ppr_a = (double *) R_alloc(nFx + 1, sizeof(double));
  cs.ppr_b = (double *) R_alloc(nFy + 1, sizeof(double));
  for (int i = 0; i < nFx; i++) cs.ppr_a[i] = 0.0;
  for (int i = 0; i < nFy; i++) cs.ppr_b[i] = 0.0;
  /* spec$ppr_parts = TRUE: the partial sums of Y_f's rows per block of
   * X_f as well (attribute "ppr_parts"; the futures' tasks) */
  SEXP parts_ = list_get(spec, "ppr_parts");
  if (cs.ppr && nFx > 0 && !Rf_isNull(parts_) && flag(parts_, "ppr_parts")) {
    int nblk = (nFx + PRD_PPR_BLOCK - 1) / PRD_PPR_BLOCK;
    SEXP parts = PROTECT(Rf_allocMatrix(REALSXP, nFy, nblk));
    Rf_setAttrib(out, Rf_install("ppr_parts"), parts); /* then kept by out */
    UNPROTECT(1);
    cs.ppr_parts = REAL(parts);
  }
  prd_rows xr = set_rows(g, 0), yr = set_rows(g, 1);
  prd_cross(&xr, &yr, g->d, g->centre, &g->prec, &cs, g->threads, &g->prog);
  int ests[2] = {e_ipr, e_cov};
  int *from_x[2] = {cs.ipr_a, cs.cov_a}, *from_y[2] = {cs.ipr_b, cs.cov_b};
  for (int q = 0; q < 2; q++) {
    int e = ests[q];
    if (!on[e]) continue;
    int *oa = (int *) g->base[e].p[0], *ob = (int *) g->base[e].p[1];
    for (int kk = 0; kk < nk; kk++) {
      for (int i = 0; i < nFx; i++) {
        oa[(size_t) i + (size_t) kk * nE] = NA_INTEGER;
        ob[(size_t) i + (size_t) kk * nE] = from_x[q][(size_t) i + (size_t) kk * nFx];
      }
      for (int i = 0; i < nFy; i++) {
        oa[(size_t) nFx + i + (size_t) kk * nE] = from_y[q][(size_t) i + (size_t) kk * nFy];
        ob[(size_t) nFx + i + (size_t) kk * nE] = NA_INTEGER;
      }
    }
  }
  if (on[e_ppr]) {
    double *oa = (double *) g->base[e_ppr].p[0], *ob = (double *) g->base[e_ppr].p[1];
    for (int i = 0; i < nFx; i++) { oa[i] = NA_REAL; ob[i] = cs.ppr_a[i]; }
    for (int i = 0; i < nFy; i++) { oa[nFx + i] = cs.ppr_b[i]; ob[nFx + i] = NA_REAL; }
  }
}

/* a full sweep: the fit rows against the fit rows for the fit-row
 * estimators (fit = 1, with a split), or the evaluation rows against the
 * fit rows (the visit functions of the table, nb_visit()) */
static void run_full(nb_engine *g, const prd_ref *ref, int fit) {
  const int *on = g->plan.on;
  nb_sweep *w = &g->w;
  int own_sym = g->plan.own_sym, threads = g->threads, nk = g->nk;
  w->self = fit ? 1 : g->self;
  w->self_pos = fit ? NULL : g->self_pos;
  w->n_act = 0;
  w->needs = 0;
  int scatter = !fit && g->self && on[EST_OWN] && !g->own_given && !own_sym;
  for (int e = 0; e < N_EST; e++) {
    const nb_estimator *est = &estimators[e];
    if (!on[e] || (e == EST_OWN && own_sym)) continue;
    if (fit ? est->rows != ROWS_FIT : (est->rows == ROWS_FIT && !g->self))
      continue;
    w->act[w->n_act++] = e;
    w->needs |= est->needs;
    if (fit || !((scatter && (est->needs & NEED_OWN)) || est->rows == ROWS_HITS))
      continue;
    /* per-thread integer accumulators, summed after the sweep: the counts
     * do not depend on the number of threads (the own balls that ipr
     * scatters need each row's own radii) */
    if (est->needs & NEED_OWN) w->needs |= NEED_ROWN;
    for (int t = 0; t < threads; t++) {
      nb_out *o = w->outs + (size_t) t * N_EST + e;
      o->scatter = 1;
      for (int p = 0; p < 2; p++) {
        size_t len = o->nrow[p] * (est->per_k ? nk : 1);
        o->p[p] = R_alloc(len > 0 ? len : 1, sizeof(int));
        memset(o->p[p], 0, len * sizeof(int));
      }
    }
  }
  prd_query q = {g->fit_rows, g->centre};
  if (!fit && (g->external || !g->self)) {
    int nE = g->nE;
    int *qi = (int *) R_alloc(nE > 0 ? nE : 1, sizeof(int));
    if (g->external) {
      for (int i = 0; i < nE; i++) qi[i] = i;
      prd_rows er = {{REAL_RO(g->eval), NULL}, {nE, 0}, qi, nE, nE};
      q.rows = er;
    } else {
      for (int i = 0; i < g->nEx; i++) qi[i] = g->ex[i];
      for (int i = 0; i < g->nEy; i++) qi[g->nEx + i] = g->ey[i];
      prd_rows er = {{g->X, g->Y}, {g->nX, g->nY}, qi, nE, g->nEx};
      q.rows = er;
    }
  }
  prd_tiles(ref, &q, nb_visit, w, threads, &g->prog);
  for (int a = 0; a < w->n_act && !fit; a++) {
    int e = w->act[a];
    if (!w->outs[e].scatter) continue;
    for (int p = 0; p < 2; p++) {
      size_t len = g->base[e].nrow[p] * (estimators[e].per_k ? nk : 1);
      int *dst = (int *) g->base[e].p[p];
      for (size_t c = 0; c < len; c++) {
        int v = 0;
        for (int t = 0; t < threads; t++)
          v += ((int *) w->outs[(size_t) t * N_EST + e].p[p])[c];
        dst[c] = v;
      }
    }
  }
}

SEXP ffi_engine(SEXP real, SEXP gen, SEXP spec) {
  int np = 0;
  nb_engine g;
  memset(&g, 0, sizeof(g));
  engine_rows(real, gen, spec, &g);
  engine_request(spec, &g);
  engine_fixed_radii(spec, &g);
  SEXP out = PROTECT(engine_outputs(&g)); np++;
  /* read-only pointers: REAL() of an ALTREP wrapper (R wraps a large
   * matrix when it changes only its attributes) duplicates a shared
   * payload to make it writable, 160 MB and half a second at 10,000 x
   * 2,048 per call */
  g.X = REAL_RO(real);
  g.Y = REAL_RO(gen);
  engine_centre(spec, &g);
  const nb_plan *pl = &g.plan;
  for (int k = 0; k < SW_N; k++) sweep_count[k] += pl->run[k] != 0;
  prd_progress prog = {R_NilValue, 0.0, 0.0, 1};
  g.prog = prog;
  if (pl->n_rec > 0) {
    g.prog.bar = PROTECT(prd_progress_new(engine_work(&g), g.show)); np++;
  }
  engine_stage_own(&g);
  /* the plan's records, in order: the one runner loop */
  prd_ref ref;
  int ref_ready = 0;
  for (int r = 0; r < pl->n_rec; r++) {
    int kind = pl->rec[r].kind;
    if (kind == SW_SYM_X || kind == SW_SYM_Y) {
      run_symmetric(&g, pl->rec[r].set);
    } else if (kind == SW_CROSS_RADII) {
      run_cross_radii(&g);
    } else if (kind == SW_CROSS_DECIDE) {
      run_cross_decide(spec, out, &g);
    } else {
      if (!ref_ready) {
        prd_ref_init(&ref, &g.fit_rows, g.d, 0, g.centre, &g.prec,
                     PRD_SCR_REF_A);
        ref_ready = 1;
      }
      run_full(&g, &ref, kind == SW_FULL_FIT);
    }
  }
  if (pl->sym_radii) fill_query_radii(&g);
  prd_progress_done(g.prog.bar);
  SEXP n_exact = PROTECT(Rf_ScalarReal(g.prog.exact)); np++;
  Rf_setAttrib(out, Rf_install("exact"), n_exact);
  SEXP team = PROTECT(Rf_ScalarInteger(g.prog.team)); np++;
  Rf_setAttrib(out, Rf_install("threads"), team);
  SEXP precision =
    PROTECT(Rf_mkString(g.prec.single ? "single" : "double")); np++;
  Rf_setAttrib(out, Rf_install("precision"), precision);
  /* spec$keep_scratch = FALSE: the scratch slots go with the call */
  SEXP keep_ = list_get(spec, "keep_scratch");
  if (!Rf_isNull(keep_) && !flag(keep_, "keep_scratch")) prd_scratch_release();
  else prd_scratch_trim((size_t) 1 << 30); /* keep at most 1 GiB a slot */
  UNPROTECT(np);
  return out;
}
