/* Private declarations of the estimator table and the planner, shared
 * by estimators.c, plan.c and neighbours.c (the engine entry). */
#ifndef PRD_ESTIMATORS_H
#define PRD_ESTIMATORS_H
#include "prdcurve.h"
#include <string.h>

/* ---- what an estimator needs -------------------------------------------- */

enum {
  NEED_RX = 1,   /* the row's k-NN radii in X_f */
  NEED_RY = 2,   /* ... in Y_f */
  NEED_RALL = 4, /* ... in X_f u Y_f */
  NEED_ROWN = 8, /* a fit row's k-NN radii in its own fit set, self excluded */
  NEED_OWN = 16  /* the own radii of every fit row */
};

/* ROWS_HITS: one output, a row per fit row (X_f's, then Y_f's), counted
 * by the evaluation rows' visits (per-thread accumulators) */
enum { ROWS_EVAL = 0, ROWS_FIT = 1, ROWS_HITS = 2 };

/* The call, as every visit function sees it. */
typedef struct {
  int nFx, nF;          /* fit rows: X_f is [0, nFx), Y_f is [nFx, nF) */
  const int *ks;        /* increasing neighbour counts */
  int nk;
  int closed;
  const double *own_x;  /* own radii of the fit rows, nFx x nk and */
  const double *own_y;  /* (nF - nFx) x nk; NULL while being computed */
} nb_call;

/* One row: its position (in the outputs' rows), its set, its radii. */
typedef struct {
  int i;
  int isx;              /* a row of real (or an external query) */
  int self;             /* its own fit position (left out), or -1 */
  const double *rx, *ry, *rall; /* squared radii, one per k, when needed */
} nb_radii;

/* An estimator's outputs (a, b) in this call. With `scatter`, p[] are the
 * calling thread's accumulators, summed by the engine after the sweep. */
typedef struct {
  void *p[2];
  size_t nrow[2];       /* leading dimension of each output */
  double r[2];          /* its fixed radius pair (distances) */
  const double *rk2;    /* per-k estimators: squared radius pair per k,
                           rk2[2 kk + part] */
  int scatter;
} nb_out;

/* An estimator's part in the sweeps other than the full one (plan.c):
 * ALT_QUERY_X, ALT_QUERY_Y: radii in X_f, Y_f of the fit rows, served
 * without a split by the symmetric and cross-radii sweeps; ALT_CROSS_*:
 * served in cross mode by the cross-decide sweep (prd_cross()), in that
 * slot of prd_cross_spec; ALT_CROSS_IPR and ALT_CROSS_COV decide against
 * the own radii there. ALT_NONE: the full sweeps only. */
enum { ALT_NONE = 0, ALT_QUERY_X, ALT_QUERY_Y, ALT_CROSS_IPR, ALT_CROSS_COV,
       ALT_CROSS_PPR, N_ALT };

typedef void (*nb_visit_fn)(const nb_call *c, const prd_ref *ref,
                            prd_row *row, const nb_radii *q, nb_out *o);

typedef struct {
  const char *name;
  const char *out[2];  /* output names; out[1] NULL: one output */
  int rows;            /* ROWS_EVAL: a row per evaluation point; ROWS_FIT:
                          per fit row (out[0] of X_f, out[1] of Y_f) */
  int per_k;           /* a column per k (1) or one column (0) */
  SEXPTYPE type;       /* INTSXP or REALSXP */
  int needs;           /* NEED_* */
  const char *radius;  /* its fixed radius pair in spec$radii, or NULL */
  nb_visit_fn visit;
  int alt;             /* ALT_*: its part in the other sweeps */
} nb_estimator;

#define OUT_I(o, part, row, kk)                                             \
  (((int *) (o)->p[part])[(size_t) (row) + (size_t) (kk) * (o)->nrow[part]])
#define OUT_D(o, part, row, kk)                                             \
  (((double *) (o)->p[part])[(size_t) (row) + (size_t) (kk) * (o)->nrow[part]])


/* rows of the estimator table (estimators.c); EST_OWN is the row
 * NEED_OWN refers to */
#define N_EST 10
#define EST_OWN 0
extern const nb_estimator estimators[N_EST];

static inline int n_outputs(const nb_estimator *e) { return e->out[1] ? 2 : 1; }

/* the row of the table named `name` (N_EST: none) */
int est_index(const char *name);
/* the row of the table whose part in the other sweeps is `alt` (N_EST:
 * none) */
int est_alt(int alt);
static inline int alt_is_cross(int alt) {
  return alt == ALT_CROSS_IPR || alt == ALT_CROSS_COV || alt == ALT_CROSS_PPR;
}

/* the planner (plan.c) */
enum { SW_SYM_X, SW_SYM_Y, SW_CROSS_RADII, SW_CROSS_DECIDE, SW_FULL_FIT,
       SW_FULL, SW_N };

/* one sweep of the plan: its kind and, for the symmetric sweeps, the fit
 * set (0 real, 1 generated) */
typedef struct {
  int kind;
  int set;
} nb_record;

typedef struct {
  int on[N_EST];        /* estimators computed */
  int sym_radii;        /* radii only without a split: symmetric + cross */
  int own_sym;          /* own radii from symmetric sweeps (or given) */
  int pre_sweep, main_sweep;
  int sr_own[2], sr_xy, sr_yx;
  int nd_fit, nd_eval;  /* radii needed by fit-row and evaluation work */
  int run[SW_N];        /* the sweeps, a flag per kind */
  nb_record rec[SW_N];  /* the same sweeps as records, in the order they
                           run (the runner's loop) */
  int n_rec;
} nb_plan;

void nb_plan_make(const int *req, int self, int cross, int symmetric,
                  const int *own_part, int nFx, int nFy, nb_plan *pl);
extern double sweep_count[SW_N];

#endif
