#include "estimators.h"

/* ---- the planner ---------------------------------------------------------- *
 *
 * The estimators asked for and the shape of the call (evaluation rows =
 * fit rows or not; cross mode; own radii given) decide the sweeps; the
 * engine runs exactly these. Sweep kinds:
 *   symmetric:real, symmetric:generated  own radii from symmetric tiles of
 *                         a fit set against itself (prd_own_radii())
 *   cross-radii           X_f x Y_f once, k-NN radii of both sides
 *                         (prd_cross_radii())
 *   cross-decide          X_f x Y_f once, counts and sums of both sides
 *                         against known radii (prd_cross())
 *   full:fit              fit rows x fit rows, radii only (with a split)
 *   full                  evaluation rows x fit rows (prd_tiles()) */

static const char *sweep_names[SW_N] = {
  "symmetric:real", "symmetric:generated", "cross-radii", "cross-decide",
  "full:fit", "full"};


/* req: requested estimators; self: evaluation rows are the fit rows;
 * own_part: own radii given for X_f, Y_f; nFx, nFy: fit sizes (a sweep
 * over an empty set is not run). Rf_error() for a cross request of an
 * estimator without a cross sweep. */
void nb_plan_make(const int *req, int self, int cross, int symmetric,
                         const int *own_part, int nFx, int nFy,
                         nb_plan *pl) {
  memset(pl, 0, sizeof(*pl));
  int own_given = own_part[0] && own_part[1];
  int own_partial = (own_part[0] || own_part[1]) && !own_given;
  int needs_own = 0;
  if (cross) {
    for (int e = 0; e < N_EST; e++) {
      int alt = estimators[e].alt;
      if (req[e] && e != EST_OWN && !alt_is_cross(alt))
        Rf_error("estimator \"%s\" has no cross-set sweep", estimators[e].name);
      if (req[e] && (alt == ALT_CROSS_IPR || alt == ALT_CROSS_COV))
        needs_own = 1;
    }
  }
  for (int e = 0; e < N_EST; e++)
    if (req[e] && (estimators[e].needs & NEED_OWN)) needs_own = 1;
  int *on = pl->on;
  for (int e = 0; e < N_EST; e++) on[e] = req[e];
  if (own_given) on[EST_OWN] = 0;
  else if (needs_own) on[EST_OWN] = 1;

  int eval_any = 0;
  for (int e = 0; e < N_EST; e++)
    if (on[e] && estimators[e].rows != ROWS_FIT) eval_any = 1;
  /* Without a split, radii only (entropies: query_x, query_y, and own):
   * query_x of X_f's rows and query_y of Y_f's rows are own radii
   * (symmetric tiles), query_y of X_f's rows and query_x of Y_f's rows
   * radii in the other set, from X_f x Y_f computed once: every unordered
   * pair once, (nFx + nFy)^2 / 2 products instead of the full sweep's
   * (nFx + nFy)^2, the same exact radii. symmetric = FALSE: the full
   * sweep, for tests. */
  int e_qx = est_alt(ALT_QUERY_X), e_qy = est_alt(ALT_QUERY_Y);
  int sym_radii = self && symmetric && !cross && (on[e_qx] || on[e_qy]);
  for (int e = 0; e < N_EST; e++)
    if (on[e] && e != EST_OWN && e != e_qx && e != e_qy) sym_radii = 0;
  /* Own radii in a sweep of their own (with a split, in cross mode, or
   * when nothing else is asked for) come from symmetric tiles of each fit
   * set against itself, each pair once (symmetric = FALSE: the full
   * sweep) */
  int own_sym = on[EST_OWN] && !sym_radii &&
                (cross || own_partial || (symmetric && (!self || !eval_any)));
  pl->sym_radii = sym_radii;
  pl->own_sym = own_sym;
  int fit_work = 0, eval_work = 0;
  for (int e = 0; e < N_EST; e++) {
    if (!on[e]) continue;
    if (e == EST_OWN && own_sym) {
      pl->nd_fit |= estimators[e].needs;
      continue;
    }
    if (estimators[e].rows == ROWS_FIT) {
      fit_work = 1;
      pl->nd_fit |= estimators[e].needs;
    } else {
      eval_work = 1;
      pl->nd_eval |= estimators[e].needs;
    }
  }
  /* With a split, fit x fit (own radii) and eval x fit are disjoint
   * pairs: a radii-only sweep over the fit rows, then the evaluation
   * sweep. Without a split they are the same pairs: one sweep does
   * everything, NEED_OWN estimators by scattering each point's own ball. */
  pl->pre_sweep = fit_work && !self;
  pl->main_sweep = eval_work || (fit_work && self);
  if (cross || sym_radii) pl->pre_sweep = pl->main_sweep = 0;
  if (sym_radii) {
    pl->sr_own[0] = (on[EST_OWN] || on[e_qx]) && !own_part[0] && nFx > 0;
    pl->sr_own[1] = (on[EST_OWN] || on[e_qy]) && !own_part[1] && nFy > 0;
    pl->sr_xy = on[e_qy] && nFx > 0;
    pl->sr_yx = on[e_qx] && nFy > 0;
  }
  int *run = pl->run;
  if (own_sym) {
    run[SW_SYM_X] = !own_part[0] && nFx > 0;
    run[SW_SYM_Y] = !own_part[1] && nFy > 0;
  }
  if (sym_radii) {
    run[SW_SYM_X] = pl->sr_own[0];
    run[SW_SYM_Y] = pl->sr_own[1];
    run[SW_CROSS_RADII] = pl->sr_xy || pl->sr_yx;
  }
  int decide = 0;
  for (int e = 0; e < N_EST; e++)
    if (on[e] && alt_is_cross(estimators[e].alt)) decide = 1;
  run[SW_CROSS_DECIDE] = cross && nFx > 0 && nFy > 0 && decide;
  run[SW_FULL_FIT] = pl->pre_sweep;
  run[SW_FULL] = pl->main_sweep;
  /* the records, in the order the kinds are listed */
  for (int k = 0; k < SW_N; k++) {
    if (!run[k]) continue;
    pl->rec[pl->n_rec].kind = k;
    pl->rec[pl->n_rec].set = k == SW_SYM_Y ? 1 : 0;
    pl->n_rec++;
  }
}

/* sweeps run since the counter was last reset (tests) */
double sweep_count[SW_N];

/* .Call(ffi_engine_plan, estimators, self, cross, own): the planner's
 * sweeps, in order, for a call asking for `estimators` (character) with
 * evaluation rows = fit rows (self) or not, in cross mode or not, and own
 * radii given for no fit set (0), X_f only (1) or both (2); fit sets not
 * empty. */
SEXP ffi_engine_plan(SEXP est, SEXP self, SEXP cross, SEXP own) {
  if (TYPEOF(est) != STRSXP) Rf_error("`estimators` must be character");
  int req[N_EST];
  memset(req, 0, sizeof(req));
  for (R_xlen_t m = 0; m < Rf_xlength(est); m++) {
    int e = est_index(CHAR(STRING_ELT(est, m)));
    if (e == N_EST)
      Rf_error("unknown estimator \"%s\"", CHAR(STRING_ELT(est, m)));
    req[e] = 1;
  }
  int o = Rf_asInteger(own);
  int own_part[2] = {o >= 1, o >= 2};
  nb_plan pl;
  nb_plan_make(req, Rf_asLogical(self) == 1, Rf_asLogical(cross) == 1, 1,
               own_part, 10, 10, &pl);
  SEXP out = PROTECT(Rf_allocVector(STRSXP, pl.n_rec));
  for (int r = 0; r < pl.n_rec; r++)
    SET_STRING_ELT(out, r, Rf_mkChar(sweep_names[pl.rec[r].kind]));
  UNPROTECT(1);
  return out;
}

/* .Call(ffi_engine_sweeps, reset): the sweeps the engine ran since the
 * last reset, a count per kind; reset = TRUE starts again at zero */
SEXP ffi_engine_sweeps(SEXP reset) {
  int np = 0;
  SEXP out = PROTECT(Rf_allocVector(REALSXP, SW_N)); np++;
  SEXP nms = PROTECT(Rf_allocVector(STRSXP, SW_N)); np++;
  for (int k = 0; k < SW_N; k++) {
    REAL(out)[k] = sweep_count[k];
    SET_STRING_ELT(nms, k, Rf_mkChar(sweep_names[k]));
  }
  Rf_setAttrib(out, R_NamesSymbol, nms);
  if (Rf_asLogical(reset) == 1)
    for (int k = 0; k < SW_N; k++) sweep_count[k] = 0.0;
  UNPROTECT(np);
  return out;
}

