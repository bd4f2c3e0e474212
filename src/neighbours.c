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
SEXP ffi_engine(SEXP real, SEXP gen, SEXP spec) {
  int np = 0;
  if (!is_real_matrix(real) || !is_real_matrix(gen))
    Rf_error("`real` and `generated` must be double matrices");
  int nX = Rf_nrows(real), nY = Rf_nrows(gen), d = Rf_ncols(real);
  if (Rf_ncols(gen) != d) Rf_error("column counts differ");
  if (TYPEOF(spec) != VECSXP) Rf_error("`spec` must be a named list");

  SEXP fit = list_get(spec, "fit"), eval = list_get(spec, "eval");
  if (TYPEOF(fit) != VECSXP || Rf_length(fit) != 2)
    Rf_error("`spec$fit` must be a list of two index vectors");
  int self = Rf_isNull(eval), external = is_real_matrix(eval);
  if (!self && !external && (TYPEOF(eval) != VECSXP || Rf_length(eval) != 2))
    Rf_error("`spec$eval` must be NULL, a list of two index vectors or a matrix");
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
  } else {
    ex = index0(VECTOR_ELT(eval, 0), nX, &nEx);
    ey = index0(VECTOR_ELT(eval, 1), nY, &nEy);
  }
  int nF = nFx + nFy, nE = nEx + nEy;
  const int *self_pos = self_rows(list_get(spec, "self_rows"), self, external,
                                  nE, nF);

  SEXP ks_ = list_get(spec, "ks");
  int nk = Rf_length(ks_);
  if (TYPEOF(ks_) != INTSXP || nk < 1) Rf_error("`spec$ks` must be integer");
  const int *ks = INTEGER(ks_);
  for (int kk = 0; kk < nk; kk++)
    if (ks[kk] == NA_INTEGER || ks[kk] < 1 || (kk > 0 && ks[kk] <= ks[kk - 1]))
      Rf_error("`spec$ks` must be increasing positive integers");
  int kmax = ks[nk - 1];
  int closed = flag(list_get(spec, "closed"), "closed");
  int show = flag(list_get(spec, "progress"), "progress");

  /* requested estimators */
  SEXP est_ = list_get(spec, "estimators");
  if (TYPEOF(est_) != STRSXP) Rf_error("`spec$estimators` must be character");
  int req[N_EST];
  memset(req, 0, sizeof(req));
  for (R_xlen_t m = 0; m < Rf_xlength(est_); m++) {
    int e = 0;
    const char *nm = CHAR(STRING_ELT(est_, m));
    while (e < N_EST && strcmp(estimators[e].name, nm) != 0) e++;
    if (e == N_EST) Rf_error("unknown estimator \"%s\"", nm);
    req[e] = 1;
  }

  /* own radii given: both (computed by no sweep), or one of them (the
   * other NULL: computed by the symmetric sweep; several models share the
   * real set's) */
  SEXP own = list_get(spec, "own");
  int own_part[2] = {0, 0};
  if (!Rf_isNull(own)) {
    if (TYPEOF(own) != VECSXP || Rf_length(own) != 2)
      Rf_error("`spec$own` must be NULL or two radius matrices of the fit sets");
    for (int p = 0; p < 2; p++) {
      SEXP o = VECTOR_ELT(own, p);
      if (Rf_isNull(o)) continue;
      if (!is_real_matrix(o) || Rf_nrows(o) != (p == 0 ? nFx : nFy) ||
          Rf_ncols(o) != nk)
        Rf_error("`spec$own` must be NULL or two radius matrices of the fit sets");
      own_part[p] = 1;
    }
  }
  int own_given = own_part[0] && own_part[1];
  /* spec$cross = TRUE (no split only): only the outputs of the rows of one
   * set against the other fit set are wanted (ipr_b, coverage_b, ppr_b of
   * the rows of real; ipr_a, coverage_a, ppr_a of the rows of generated;
   * the others are NA), all decided against the own radii and fixed
   * radii: X_f x Y_f is computed once (prd_cross()). */
  SEXP cross_ = list_get(spec, "cross");
  int cross = Rf_isNull(cross_) ? 0 : flag(cross_, "cross");
  if (cross && !self) Rf_error("`spec$cross` needs `spec$eval` = NULL");
  SEXP sym_ = list_get(spec, "symmetric");
  int symmetric = Rf_isNull(sym_) ? 1 : flag(sym_, "symmetric");
  SEXP cap_ = list_get(spec, "own_buffer");
  int own_cap = (TYPEOF(cap_) == INTSXP && Rf_length(cap_) == 1 &&
                 INTEGER(cap_)[0] != NA_INTEGER) ? INTEGER(cap_)[0] : 0;
  /* spec$vector = FALSE: the generic row passes instead of the AVX2
   * compactions; spec$block_products = FALSE: the cross sweep's products
   * per tile, not per column block (tests: the same results) */
  SEXP vec_ = list_get(spec, "vector"), blk_ = list_get(spec, "block_products");
  SEXP bsum_ = list_get(spec, "blas_sum");
  prd_knobs.vector = Rf_isNull(vec_) ? 1 : flag(vec_, "vector");
  prd_knobs.block_products = Rf_isNull(blk_) ? 1 : flag(blk_, "block_products");
  prd_knobs.blas_sum = Rf_isNull(bsum_) ? 1 : flag(bsum_, "blas_sum");
  nb_plan plan;
  nb_plan_make(req, self, cross, symmetric, own_part, nFx, nFy, &plan);
  const int *on = plan.on;
  int e_qx = est_index("query_x"), e_qy = est_index("query_y");
  int sym_radii = plan.sym_radii, own_sym = plan.own_sym;

  /* every radius is taken in a set that holds k points besides z */
  int sx = self || self_pos ? 1 : 0, nd_fit = plan.nd_fit, nd_eval = plan.nd_eval;
  if (((nd_fit & NEED_ROWN) &&
       ((nFx > 0 && nFx - 1 < kmax) || (nFy > 0 && nFy - 1 < kmax))) ||
      ((nd_eval & NEED_RX) && nFx - sx < kmax) ||
      ((nd_eval & NEED_RY) && nFy - sx < kmax) ||
      ((nd_eval & NEED_RALL) && nF - sx < kmax))
    Rf_error("k = %d is too large for the fit set sizes", kmax);

  /* fixed radius pairs */
  SEXP radii = list_get(spec, "radii");
  /* a pair (x, y), or for per-k estimators one pair per k (x1, y1, x2,
   * ...): rk2 holds the squared pair of every k */
  double rad[N_EST][2];
  double *rk2[N_EST];
  for (int e = 0; e < N_EST; e++) {
    rad[e][0] = rad[e][1] = NA_REAL;
    rk2[e] = NULL;
    if (!on[e] || estimators[e].radius == NULL) continue;
    SEXP r = list_get(radii, estimators[e].radius);
    int len = Rf_length(r);
    if (TYPEOF(r) != REALSXP ||
        (len != 2 && !(estimators[e].per_k && len == 2 * nk)))
      Rf_error("`spec$radii$%s` must be two radii%s", estimators[e].radius,
               estimators[e].per_k ? " or two per k" : "");
    for (int p = 0; p < len; p++) {
      double v = REAL(r)[p];
      if (!(v >= 0) || !R_FINITE(v * v))
        Rf_error("%s radii must be non-negative, finite and of finite square",
                 estimators[e].radius);
    }
    rad[e][0] = REAL(r)[0];
    rad[e][1] = REAL(r)[1];
    rk2[e] = (double *) R_alloc(2 * (size_t) nk, sizeof(double));
    for (int kk = 0; kk < nk; kk++)
      for (int p = 0; p < 2; p++) {
        double v = REAL(r)[len == 2 ? p : 2 * kk + p];
        rk2[e][2 * kk + p] = v * v;
      }
  }

  /* outputs: every name of the table, NULL unless computed */
  int n_names = 0;
  for (int e = 0; e < N_EST; e++) n_names += n_outputs(&estimators[e]);
  const char **names = (const char **) R_alloc(n_names + 1, sizeof(char *));
  for (int e = 0, m = 0; e < N_EST; e++)
    for (int p = 0; p < n_outputs(&estimators[e]); p++)
      names[m++] = estimators[e].out[p];
  names[n_names] = "";
  SEXP out = PROTECT(Rf_mkNamed(VECSXP, names)); np++;

  int threads = prd_threads_get();
  nb_out base[N_EST];
  memset(base, 0, sizeof(base));
  for (int e = 0, slot = 0; e < N_EST; slot += n_outputs(&estimators[e]), e++) {
    const nb_estimator *est = &estimators[e];
    int ncol = est->per_k ? nk : 1;
    base[e].r[0] = rad[e][0];
    base[e].r[1] = rad[e][1];
    base[e].rk2 = rk2[e];
    if (e == EST_OWN && req[e] && own_given) {
      SET_VECTOR_ELT(out, slot, VECTOR_ELT(own, 0));
      SET_VECTOR_ELT(out, slot + 1, VECTOR_ELT(own, 1));
    }
    if (!on[e]) continue;
    for (int p = 0; p < n_outputs(est); p++) {
      int nrow = est->rows == ROWS_FIT ? (p == 0 ? nFx : nFy) :
                 est->rows == ROWS_HITS ? nF : nE;
      SEXP m = Rf_allocMatrix(est->type, nrow, ncol);
      SET_VECTOR_ELT(out, slot + p, m);
      base[e].p[p] = est->type == INTSXP ? (void *) INTEGER(m) : (void *) REAL(m);
      base[e].nrow[p] = (size_t) nrow;
    }
  }

  nb_sweep w;
  memset(&w, 0, sizeof(w));
  w.c.nFx = nFx;
  w.c.nF = nF;
  w.c.ks = ks;
  w.c.nk = nk;
  w.c.closed = closed;
  w.nEx = nEx;
  w.kmax = kmax;
  w.heap = (double *) R_alloc((size_t) threads * kmax, sizeof(double));
  w.kbuf = (double *) R_alloc((size_t) threads * 3 * nk, sizeof(double));
  w.outs = (nb_out *) R_alloc((size_t) threads * N_EST, sizeof(nb_out));
  for (int t = 0; t < threads; t++)
    memcpy(w.outs + (size_t) t * N_EST, base, sizeof(base));
  if (own_given) {
    w.c.own_x = REAL_RO(VECTOR_ELT(own, 0));
    w.c.own_y = REAL_RO(VECTOR_ELT(own, 1));
  } else if (on[EST_OWN]) {
    w.c.own_x = (const double *) base[EST_OWN].p[0];
    w.c.own_y = (const double *) base[EST_OWN].p[1];
  }

  /* the rows: fit rows of real then of generated, evaluation rows likewise
   * (or the external queries), all centred on the real set's mean for the
   * BLAS products (products.c: the rounding and why decisions stay exact) */
  /* read-only pointers: REAL() of an ALTREP wrapper (R wraps a large
   * matrix when it changes only its attributes) duplicates a shared
   * payload to make it writable, 160 MB and half a second at 10,000 x
   * 2,048 per call */
  const double *X = REAL_RO(real), *Y = REAL_RO(gen);
  /* spec$prep (engine_prep(), with real rows): the centre and the sets'
   * centred norm statistics, found once for the calls on these sets */
  SEXP prep = list_get(spec, "prep");
  if (!Rf_isNull(prep) && nX == 0) prep = R_NilValue;
  if (!Rf_isNull(prep) &&
      (TYPEOF(prep) != VECSXP || Rf_length(prep) != 3 ||
       TYPEOF(VECTOR_ELT(prep, 0)) != REALSXP ||
       Rf_length(VECTOR_ELT(prep, 0)) != d ||
       TYPEOF(VECTOR_ELT(prep, 1)) != REALSXP ||
       TYPEOF(VECTOR_ELT(prep, 2)) != REALSXP))
    Rf_error("`spec$prep` must be NULL or engine_prep() of the sets");
  double *centre = NULL;
  if (!Rf_isNull(prep)) {
    centre = (double *) R_alloc(d > 0 ? d : 1, sizeof(double));
    memcpy(centre, REAL(VECTOR_ELT(prep, 0)), (size_t) d * sizeof(double));
  } else if (nX > 0 || nY > 0) {
    const double *C = nX > 0 ? X : Y;
    int nC = nX > 0 ? nX : nY;
    centre = (double *) R_alloc(d > 0 ? d : 1, sizeof(double));
    prd_col_means(C, nC, d, NULL, nC, 0, centre);
  }
  /* the precision of the products: single where sgemm exists, unless the
   * rounding window would be wide for these data (prd_prec_choose()) */
  SEXP single_ = list_get(spec, "single");
  int want_single = Rf_isNull(single_) ? 1 : flag(single_, "single");
  prd_prec prec = {0, 1.0};
#ifdef PRD_HAVE_SGEMM
  if (want_single && centre) {
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
      centred_norms(nX > 0 ? X : Y, nX > 0 ? nX : nY, d, centre, &mx, &sum_c);
    }
    if (nX > 0 && nY > 0 && py) {
      if (py[0] > mx) mx = py[0];
    } else if (nX > 0) {
      centred_norms(Y, nY, d, centre, &mx, &sum_o);
    }
    if (external)
      centred_norms(REAL_RO(eval), Rf_nrows(eval), d, centre, &mx, &sum_o);
    prec = prd_prec_choose(1, d, mx, sum_c / (nX > 0 ? nX : nY));
  }
#else
  (void) want_single;
#endif
  int *fit_idx = (int *) R_alloc(nF > 0 ? nF : 1, sizeof(int));
  for (int i = 0; i < nFx; i++) fit_idx[i] = fx[i];
  for (int i = 0; i < nFy; i++) fit_idx[nFx + i] = fy[i];
  prd_rows fit_rows = {{X, Y}, {nX, nY}, fit_idx, nF, nFx};

  /* the plan's sweeps (nb_plan_make()) */
  int pre_sweep = plan.pre_sweep, main_sweep = plan.main_sweep;
  const int *sr_own = plan.sr_own;
  int sr_xy = plan.sr_xy, sr_yx = plan.sr_yx;
  for (int k = 0; k < SW_N; k++) sweep_count[k] += plan.run[k] != 0;
  prd_progress prog = {R_NilValue, 0.0, 0.0, 1};
  if (own_sym || pre_sweep || main_sweep || cross || sym_radii) {
    double total = (double) (own_sym || pre_sweep ? nF : 0) +
                   (double) (main_sweep ? nE : 0) + (double) (cross ? nF : 0);
    if (sym_radii)
      total = (double) (sr_own[0] ? nFx : 0) + (double) (sr_own[1] ? nFy : 0) +
              (double) (sr_xy || sr_yx ? nF : 0);
    prog.bar = PROTECT(prd_progress_new(total, show)); np++;
  }
  if (own_sym) {
    prd_rows xr = {{X, NULL}, {nX, 0}, fx, nFx, nFx};
    prd_rows yr = {{Y, NULL}, {nY, 0}, fy, nFy, nFy};
    for (int p = 0; p < 2; p++) {
      size_t len = (size_t) (p == 0 ? nFx : nFy) * nk;
      if (own_part[p])
        memcpy(base[EST_OWN].p[p], REAL_RO(VECTOR_ELT(own, p)),
               len * sizeof(double));
      else
        prd_own_radii(p == 0 ? &xr : &yr, d, centre, &prec, ks, nk, threads,
                      own_cap, &prog, (double *) base[EST_OWN].p[p]);
    }
  }
  if (sym_radii) {
    prd_rows xr = {{X, NULL}, {nX, 0}, fx, nFx, nFx};
    prd_rows yr = {{Y, NULL}, {nY, 0}, fy, nFy, nFy};
    /* own radii of each set: into the "own" outputs when asked, given
     * ones as they are */
    const double *own_r[2] = {NULL, NULL};
    for (int p = 0; p < 2; p++) {
      if (!on[EST_OWN] && !on[p == 0 ? e_qx : e_qy]) continue;
      size_t len = (size_t) (p == 0 ? nFx : nFy) * nk;
      double *dst = on[EST_OWN] ? (double *) base[EST_OWN].p[p] :
        (double *) R_alloc(len > 0 ? len : 1, sizeof(double));
      own_r[p] = dst;
      if (own_part[p]) {
        const double *given = REAL_RO(VECTOR_ELT(own, p));
        if (on[EST_OWN]) memcpy(dst, given, len * sizeof(double));
        else own_r[p] = given;
      } else if (sr_own[p]) {
        prd_own_radii(p == 0 ? &xr : &yr, d, centre, &prec, ks, nk, threads,
                      own_cap, &prog, dst);
      }
    }
    double *xy = sr_xy ?
      (double *) R_alloc((size_t) nFx * nk, sizeof(double)) : NULL;
    double *yx = sr_yx ?
      (double *) R_alloc((size_t) nFy * nk, sizeof(double)) : NULL;
    if (sr_xy || sr_yx)
      prd_cross_radii(&xr, &yr, d, centre, &prec, ks, nk, threads, own_cap,
                      &prog, xy, yx);
    /* evaluation rows = fit rows: those of X_f, then those of Y_f */
    for (int q = 0; q < 2; q++) {
      int e = q == 0 ? e_qx : e_qy;
      if (!on[e]) continue;
      const double *from_x = q == 0 ? own_r[0] : xy;
      const double *from_y = q == 0 ? yx : own_r[1];
      double *o = (double *) base[e].p[0];
      for (int kk = 0; kk < nk; kk++) {
        for (int i = 0; i < nFx; i++)
          o[(size_t) i + (size_t) kk * nE] =
            from_x[(size_t) i + (size_t) kk * nFx];
        for (int i = 0; i < nFy; i++)
          o[(size_t) nFx + i + (size_t) kk * nE] =
            from_y[(size_t) i + (size_t) kk * nFy];
      }
    }
  }
  if (cross) {
    int e_ipr = 0, e_cov = 0, e_ppr = 0;
    while (strcmp(estimators[e_ipr].name, "ipr")) e_ipr++;
    while (strcmp(estimators[e_cov].name, "coverage")) e_cov++;
    while (strcmp(estimators[e_ppr].name, "ppr")) e_ppr++;
    prd_cross_spec cs;
    memset(&cs, 0, sizeof(cs));
    cs.nk = nk;
    cs.closed = closed;
    cs.ipr = on[e_ipr];
    cs.cov = on[e_cov];
    cs.ppr = on[e_ppr];
    cs.own_a = w.c.own_x;
    cs.own_b = w.c.own_y;
    cs.ld_a = nFx;
    cs.ld_b = nFy;
    cs.R_a = rad[e_ppr][0];
    cs.R_b = rad[e_ppr][1];
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
    SEXP parts = R_NilValue;
    if (cs.ppr && nFx > 0 && !Rf_isNull(parts_) &&
        flag(parts_, "ppr_parts")) {
      int nblk = (nFx + PRD_PPR_BLOCK - 1) / PRD_PPR_BLOCK;
      parts = PROTECT(Rf_allocMatrix(REALSXP, nFy, nblk)); np++;
      Rf_setAttrib(out, Rf_install("ppr_parts"), parts);
      cs.ppr_parts = REAL(parts);
    }
    prd_rows xr = {{X, NULL}, {nX, 0}, fx, nFx, nFx};
    prd_rows yr = {{Y, NULL}, {nY, 0}, fy, nFy, nFy};
    prd_cross(&xr, &yr, d, centre, &prec, &cs, threads, &prog);
    /* outputs: a = of X_f, b = of Y_f; rows of real get the b side
     * (Y_f), rows of generated the a side (X_f); the rest NA */
    int ests[2] = {e_ipr, e_cov};
    int *from_x[2] = {cs.ipr_a, cs.cov_a}, *from_y[2] = {cs.ipr_b, cs.cov_b};
    for (int q = 0; q < 2; q++) {
      int e = ests[q];
      if (!on[e]) continue;
      int *oa = (int *) base[e].p[0], *ob = (int *) base[e].p[1];
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
      double *oa = (double *) base[e_ppr].p[0], *ob = (double *) base[e_ppr].p[1];
      for (int i = 0; i < nFx; i++) { oa[i] = NA_REAL; ob[i] = cs.ppr_a[i]; }
      for (int i = 0; i < nFy; i++) { oa[nFx + i] = cs.ppr_b[i]; ob[nFx + i] = NA_REAL; }
    }
  }
  if (pre_sweep || main_sweep) {
    prd_ref ref;
    prd_ref_init(&ref, &fit_rows, d, 0, centre, &prec, PRD_SCR_REF_A);

    if (pre_sweep) {
      w.self = 1;
      w.n_act = 0;
      w.needs = 0;
      for (int e = 0; e < N_EST; e++) {
        if (!on[e] || estimators[e].rows != ROWS_FIT) continue;
        if (e == EST_OWN && own_sym) continue;
        w.act[w.n_act++] = e;
        w.needs |= estimators[e].needs;
      }
      prd_query q = {fit_rows, centre};
      prd_tiles(&ref, &q, nb_visit, &w, threads, &prog);
    }
    if (main_sweep) {
      w.self = self;
      w.self_pos = self_pos;
      w.n_act = 0;
      w.needs = 0;
      int scatter = self && on[EST_OWN] && !own_given && !own_sym;
      for (int e = 0; e < N_EST; e++) {
        if (!on[e] || (estimators[e].rows == ROWS_FIT && !self)) continue;
        if (e == EST_OWN && own_sym) continue;
        w.act[w.n_act++] = e;
        w.needs |= estimators[e].needs;
        if ((scatter && (estimators[e].needs & NEED_OWN)) ||
            estimators[e].rows == ROWS_HITS) {
          /* per-thread integer accumulators, summed after the sweep: the
           * counts do not depend on the number of threads (the own balls
           * that ipr scatters need each row's own radii) */
          if (estimators[e].needs & NEED_OWN) w.needs |= NEED_ROWN;
          for (int t = 0; t < threads; t++) {
            nb_out *o = w.outs + (size_t) t * N_EST + e;
            o->scatter = 1;
            for (int p = 0; p < 2; p++) {
              size_t len = o->nrow[p] * (estimators[e].per_k ? nk : 1);
              o->p[p] = R_alloc(len > 0 ? len : 1, sizeof(int));
              memset(o->p[p], 0, len * sizeof(int));
            }
          }
        }
      }
      prd_query q = {fit_rows, centre};
      if (external) {
        int *qi = (int *) R_alloc(nE > 0 ? nE : 1, sizeof(int));
        for (int i = 0; i < nE; i++) qi[i] = i;
        prd_rows er = {{REAL_RO(eval), NULL}, {nE, 0}, qi, nE, nE};
        q.rows = er;
      } else if (!self) {
        int *qi = (int *) R_alloc(nE > 0 ? nE : 1, sizeof(int));
        for (int i = 0; i < nEx; i++) qi[i] = ex[i];
        for (int i = 0; i < nEy; i++) qi[nEx + i] = ey[i];
        prd_rows er = {{X, Y}, {nX, nY}, qi, nE, nEx};
        q.rows = er;
      }
      prd_tiles(&ref, &q, nb_visit, &w, threads, &prog);
      for (int a = 0; a < w.n_act; a++) {
        int e = w.act[a];
        if (!w.outs[e].scatter) continue;
        for (int p = 0; p < 2; p++) {
          size_t len = base[e].nrow[p] * (estimators[e].per_k ? nk : 1);
          int *dst = (int *) base[e].p[p];
          for (size_t c = 0; c < len; c++) {
            int v = 0;
            for (int t = 0; t < threads; t++)
              v += ((int *) w.outs[(size_t) t * N_EST + e].p[p])[c];
            dst[c] = v;
          }
        }
      }
    }
  }
  prd_progress_done(prog.bar);
  SEXP n_exact = PROTECT(Rf_ScalarReal(prog.exact)); np++;
  Rf_setAttrib(out, Rf_install("exact"), n_exact);
  SEXP team = PROTECT(Rf_ScalarInteger(prog.team)); np++;
  Rf_setAttrib(out, Rf_install("threads"), team);
  SEXP precision =
    PROTECT(Rf_mkString(prec.single ? "single" : "double")); np++;
  Rf_setAttrib(out, Rf_install("precision"), precision);
  /* spec$keep_scratch = FALSE: the scratch slots go with the call */
  SEXP keep_ = list_get(spec, "keep_scratch");
  if (!Rf_isNull(keep_) && !flag(keep_, "keep_scratch")) prd_scratch_release();
  else prd_scratch_trim((size_t) 1 << 30); /* keep at most 1 GiB a slot */
  UNPROTECT(np);
  return out;
}
