/* Neighbourhood quantities of the evaluation points against the fit sets,
 * all from one streamed sweep of the tile engine (SPEC.md sections 0, 2,
 * 3, 4). Each per-row quantity is one row of the estimator table below:
 * its name, its outputs and their shape, what it needs (k-NN radii of the
 * row in X_f, Y_f, X_f u Y_f or its own set, the own radii of every fit
 * row, a fixed radius pair) and its visit function. The engine computes
 * the needed radii once per row and calls the visit functions of the
 * requested estimators; R learns the table from ffi_estimators().
 *
 * Radii are squared distances throughout (fixed radius pairs are passed as
 * distances and squared here). Evaluation points are rows of the two
 * sample sets, the fit rows themselves (no split: self-excluded by index),
 * or rows of an external query matrix.
 *
 * Adding a ball-count estimator: write its visit function with the
 * primitives of rowops.c (prd_count, prd_count_each, prd_scatter,
 * prd_log_tau_sum) and add its row to `estimators` (N_EST in
 * estimators.h counts the rows). */
#include "estimators.h"
#include <math.h>

static const char *need_names[] = {"radius_x", "radius_y", "radius_all",
                                   "radius_own", "own_radii"};
#define N_NEEDS 5

/* ---- the visit functions ------------------------------------------------ */

/* own-set radii r_k(x; X_f), r_k(y; Y_f) of the fit rows */
static void visit_own(const nb_call *c, const prd_ref *ref, prd_row *row,
                      const nb_radii *q, nb_out *o) {
  (void) ref; (void) row;
  for (int kk = 0; kk < c->nk; kk++) {
    if (q->isx) OUT_D(o, 0, q->i, kk) = q->rx[kk];
    else OUT_D(o, 1, q->i - c->nFx, kk) = q->ry[kk];
  }
}

/* radii of the evaluation points in X_f, Y_f, X_f u Y_f */
static void visit_query_x(const nb_call *c, const prd_ref *ref, prd_row *row,
                          const nb_radii *q, nb_out *o) {
  (void) ref; (void) row;
  for (int kk = 0; kk < c->nk; kk++) OUT_D(o, 0, q->i, kk) = q->rx[kk];
}

static void visit_query_y(const nb_call *c, const prd_ref *ref, prd_row *row,
                          const nb_radii *q, nb_out *o) {
  (void) ref; (void) row;
  for (int kk = 0; kk < c->nk; kk++) OUT_D(o, 0, q->i, kk) = q->ry[kk];
}

static void visit_query_all(const nb_call *c, const prd_ref *ref,
                            prd_row *row, const nb_radii *q, nb_out *o) {
  (void) ref; (void) row;
  for (int kk = 0; kk < c->nk; kk++) OUT_D(o, 0, q->i, kk) = q->rall[kk];
}

/* knn: counts of X_f and Y_f within r_k(z; X_f u Y_f), from the
 * candidates of those radii */
static void visit_knn(const nb_call *c, const prd_ref *ref, prd_row *row,
                      const nb_radii *q, nb_out *o) {
  for (int kk = 0; kk < c->nk; kk++) {
    OUT_I(o, 0, q->i, kk) = prd_count_cand(ref, row, 0, c->nFx, q->self,
                                           q->rall[kk], c->closed);
    OUT_I(o, 1, q->i, kk) = prd_count_cand(ref, row, c->nFx, c->nF, q->self,
                                           q->rall[kk], c->closed);
  }
}

/* coverage: X_f within r_k(z; Y_f), Y_f within r_k(z; X_f) */
static void visit_coverage(const nb_call *c, const prd_ref *ref,
                           prd_row *row, const nb_radii *q, nb_out *o) {
  for (int kk = 0; kk < c->nk; kk++) {
    OUT_I(o, 0, q->i, kk) = prd_count(ref, row, 0, c->nFx, q->ry[kk], c->closed);
    OUT_I(o, 1, q->i, kk) = prd_count(ref, row, c->nFx, c->nF, q->rx[kk], c->closed);
  }
}

/* ipr: fit points whose own ball holds z. Without a split the own radii of
 * the other rows are computed in the same sweep: this row's own ball is
 * known, and every point inside it gets +1 (scatter). */
static void visit_ipr(const nb_call *c, const prd_ref *ref, prd_row *row,
                      const nb_radii *q, nb_out *o) {
  int nFx = c->nFx, nF = c->nF;
  for (int kk = 0; kk < c->nk; kk++) {
    if (o->scatter) {
      int part = q->isx ? 0 : 1;
      double r = q->isx ? q->rx[kk] : q->ry[kk];
      prd_scatter(ref, row, 0, nF, r, c->closed, &OUT_I(o, part, 0, kk));
    } else {
      OUT_I(o, 0, q->i, kk) = prd_count_each(
          ref, row, 0, nFx, c->own_x + (size_t) kk * nFx, c->closed);
      OUT_I(o, 1, q->i, kk) = prd_count_each(
          ref, row, nFx, nF, c->own_y + (size_t) kk * (nF - nFx), c->closed);
    }
  }
}

/* kde: counts within the fixed radii sigma_X, sigma_Y (a pair per k: the
 * bandwidths estimated at each k, or the same pair) */
static void visit_kde(const nb_call *c, const prd_ref *ref, prd_row *row,
                      const nb_radii *q, nb_out *o) {
  for (int kk = 0; kk < c->nk; kk++) {
    OUT_I(o, 0, q->i, kk) = prd_count(ref, row, 0, c->nFx, o->rk2[2 * kk],
                                      c->closed);
    OUT_I(o, 1, q->i, kk) = prd_count(ref, row, c->nFx, c->nF,
                                      o->rk2[2 * kk + 1], c->closed);
  }
}

/* ppr: sums of log(1 - tau) over X_f, Y_f (Park & Kim 2023) */
static void visit_ppr(const nb_call *c, const prd_ref *ref, prd_row *row,
                      const nb_radii *q, nb_out *o) {
  OUT_D(o, 0, q->i, 0) = prd_log_tau_sum(ref, row, 0, c->nFx, o->r[0]);
  OUT_D(o, 1, q->i, 0) = prd_log_tau_sum(ref, row, c->nFx, c->nF, o->r[1]);
}


/* hub: the k-occurrences of the fit rows, +1 for each fit row within
 * r_k(z; X_f u Y_f) of the evaluation point z, z itself left out
 * (hubness: Radovanovic, Nanopoulos and Ivanovic 2010) */
static void visit_hub(const nb_call *c, const prd_ref *ref, prd_row *row,
                      const nb_radii *q, nb_out *o) {
  for (int kk = 0; kk < c->nk; kk++) {
    int *acc = &OUT_I(o, 0, 0, kk);
    prd_scatter_cand(ref, row, 0, c->nF, q->self, q->rall[kk], c->closed,
                     acc);
    if (q->self >= 0) acc[q->self] -= 1;
  }
}

/* ---- the estimator table ------------------------------------------------ */


/* (its size must equal N_EST of estimators.h: the declaration there
 * makes a mismatch a compile error) */
const nb_estimator estimators[] = {
  /* name        outputs                       rows       per_k type
   *   needs                  radius  visit            alt */
  {"own",       {"own_x", "own_y"},           ROWS_FIT,  1, REALSXP,
     NEED_ROWN,             NULL,   visit_own,       ALT_NONE},
  {"query_x",   {"query_x", NULL},            ROWS_EVAL, 1, REALSXP,
     NEED_RX,               NULL,   visit_query_x,   ALT_QUERY_X},
  {"query_y",   {"query_y", NULL},            ROWS_EVAL, 1, REALSXP,
     NEED_RY,               NULL,   visit_query_y,   ALT_QUERY_Y},
  {"query_all", {"query_all", NULL},          ROWS_EVAL, 1, REALSXP,
     NEED_RALL,             NULL,   visit_query_all, ALT_NONE},
  {"knn",       {"knn_a", "knn_b"},           ROWS_EVAL, 1, INTSXP,
     NEED_RALL,             NULL,   visit_knn,       ALT_NONE},
  {"coverage",  {"coverage_a", "coverage_b"}, ROWS_EVAL, 1, INTSXP,
     NEED_RX | NEED_RY,     NULL,   visit_coverage,  ALT_CROSS_COV},
  {"ipr",       {"ipr_a", "ipr_b"},           ROWS_EVAL, 1, INTSXP,
     NEED_OWN,              NULL,   visit_ipr,       ALT_CROSS_IPR},
  {"kde",       {"kde_a", "kde_b"},           ROWS_EVAL, 1, INTSXP,
     0,                     "kde",  visit_kde,       ALT_NONE},
  {"ppr",       {"ppr_a", "ppr_b"},           ROWS_EVAL, 0, REALSXP,
     0,                     "ppr",  visit_ppr,       ALT_CROSS_PPR},
  {"hub",       {"hub", NULL},                ROWS_HITS, 1, INTSXP,
     NEED_RALL,             NULL,   visit_hub,       ALT_NONE}
};


/* the row of the table named `name` */
int est_index(const char *name) {
  int e = 0;
  while (e < N_EST && strcmp(estimators[e].name, name)) e++;
  return e;
}

/* the row of the table whose part in the other sweeps is `alt` */
int est_alt(int alt) {
  int e = 0;
  while (e < N_EST && estimators[e].alt != alt) e++;
  return e;
}

/* ffi_estimators(): the table for R, as a list of columns. */
SEXP ffi_estimators(void) {
  int np = 0;
  const char *cols[] = {"name", "outputs", "rows", "columns", "type",
                        "needs", "radius", ""};
  SEXP out = PROTECT(Rf_mkNamed(VECSXP, cols)); np++;
  SEXP name = PROTECT(Rf_allocVector(STRSXP, N_EST)); np++;
  SEXP outs = PROTECT(Rf_allocVector(VECSXP, N_EST)); np++;
  SEXP rows = PROTECT(Rf_allocVector(STRSXP, N_EST)); np++;
  SEXP columns = PROTECT(Rf_allocVector(STRSXP, N_EST)); np++;
  SEXP type = PROTECT(Rf_allocVector(STRSXP, N_EST)); np++;
  SEXP needs = PROTECT(Rf_allocVector(VECSXP, N_EST)); np++;
  SEXP radius = PROTECT(Rf_allocVector(STRSXP, N_EST)); np++;
  for (int e = 0; e < N_EST; e++) {
    const nb_estimator *est = &estimators[e];
    SET_STRING_ELT(name, e, Rf_mkChar(est->name));
    SEXP o = Rf_allocVector(STRSXP, n_outputs(est));
    SET_VECTOR_ELT(outs, e, o);
    for (int p = 0; p < n_outputs(est); p++)
      SET_STRING_ELT(o, p, Rf_mkChar(est->out[p]));
    SET_STRING_ELT(rows, e, Rf_mkChar(est->rows == ROWS_FIT ? "fit" :
                                      est->rows == ROWS_HITS ? "hits" :
                                      "evaluation"));
    SET_STRING_ELT(columns, e, Rf_mkChar(est->per_k ? "k" : "one"));
    SET_STRING_ELT(type, e, Rf_mkChar(est->type == INTSXP ? "integer" : "double"));
    int nn = 0;
    for (int b = 0; b < N_NEEDS; b++) nn += (est->needs >> b) & 1;
    SEXP nd = Rf_allocVector(STRSXP, nn);
    SET_VECTOR_ELT(needs, e, nd);
    for (int b = 0, m = 0; b < N_NEEDS; b++)
      if ((est->needs >> b) & 1) SET_STRING_ELT(nd, m++, Rf_mkChar(need_names[b]));
    SET_STRING_ELT(radius, e, est->radius ? Rf_mkChar(est->radius) : NA_STRING);
  }
  SET_VECTOR_ELT(out, 0, name);
  SET_VECTOR_ELT(out, 1, outs);
  SET_VECTOR_ELT(out, 2, rows);
  SET_VECTOR_ELT(out, 3, columns);
  SET_VECTOR_ELT(out, 4, type);
  SET_VECTOR_ELT(out, 5, needs);
  SET_VECTOR_ELT(out, 6, radius);
  /* the block of X_f's rows over which Y_f's ppr sums are formed
   * (prd_cross()): the futures' tasks start at its multiples */
  Rf_setAttrib(out, Rf_install("ppr_block"),
               PROTECT(Rf_ScalarInteger(PRD_PPR_BLOCK))); np++;
  UNPROTECT(np);
  return out;
}
