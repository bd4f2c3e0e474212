#ifndef PRDCURVE_H
#define PRDCURVE_H

#define R_NO_REMAP
#ifndef USE_FC_LEN_T
#define USE_FC_LEN_T
#endif
#include <R.h>
#include <Rinternals.h>
#include <R_ext/BLAS.h>
#ifndef FCONE
#define FCONE
#endif
#include <stdint.h>

/* sgemm is not part of what R guarantees of its BLAS (only the double
 * routines are); `configure` defines PRD_HAVE_SGEMM when BLAS_LIBS links
 * it. Declared as R_ext/BLAS.h declares dgemm, with the hidden lengths of
 * the two character arguments. */
#ifdef PRD_HAVE_SGEMM
void F77_NAME(sgemm)(const char *transa, const char *transb, const int *m,
                     const int *n, const int *k, const float *alpha,
                     const float *a, const int *lda, const float *b,
                     const int *ldb, const float *beta, float *c,
                     const int *ldc FCLEN FCLEN);
#endif
/* and ssyrk, where `configure` defines PRD_HAVE_SSYRK: the fold moments'
 * products in single precision from PRD_MOMENTS_SINGLE_D columns
 * (src/moments.c, ffi_cell_moments()) */
#ifdef PRD_HAVE_SSYRK
void F77_NAME(ssyrk)(const char *uplo, const char *trans, const int *n,
                     const int *k, const float *alpha, const float *a,
                     const int *lda, const float *beta, float *c,
                     const int *ldc FCLEN FCLEN);
#endif
#define PRD_MOMENTS_SINGLE_D 256

/* ---- threads.c -------------------------------------------------------- */

/* The thread count in force: prd_threads(n) if set, else the default
 * (OMP_NUM_THREADS, OMP_THREAD_LIMIT, _R_CHECK_LIMIT_CORES_, all cores). */
int prd_threads_get(void);
/* Threads for a parallel region doing `work` pair visits (1 when small),
 * at most `cap`. */
int prd_threads_for(int64_t work, int cap);
int prd_threads_over(int64_t work, int parts);

/* switches of the engine's paths, set by ffi_engine() per call (tests:
 * every path gives the same results) */
typedef struct {
  int vector;         /* AVX2 compactions where the CPU has AVX2 */
  int block_products; /* products per column block where a handler can */
  int blas_sum;       /* coordinate blocks added by OpenBLAS's sgemm */
} prd_knobs_t;
extern prd_knobs_t prd_knobs;

/* ---- the blocked distance engine (products.c, sweep.c, rowops.c ...) -- */

/* Rows of up to two column-major source matrices, selected by 0-based row
 * index: positions 0..n0-1 are rows idx[p] of src[0], positions n0..n-1
 * rows idx[p] of src[1]. */
typedef struct {
  const double *src[2];
  int ld[2];      /* number of rows of each source matrix */
  const int *idx; /* 0-based row indices into the sources, length n */
  int n;
  int n0;
  /* optional: the same n rows as given, row-major (n x rm_d), contiguous
   * for the exact recomputations (prd_ref_init()); NULL: read the sources
   * with their stride. rm_panel: in panels of four rows instead (panel P
   * holds rows 4P..4P+3, coordinate l of row 4P + j at P 4 rm_d + 4 l + j;
   * zero rows up to a multiple of 8) */
  const double *rm;
  int rm_d, rm_panel;
} prd_rows;

/* Precision of the tile products of one engine call (products.c): double
 * (dgemm), or single (sgemm) on float copies of the translated rows
 * multiplied by `scale`, a power of two making every squared norm of the
 * call at most 1 (no float overflow; underflow bounded in products.c). */
typedef struct {
  int single;
  double scale;
} prd_prec;

/* Reference set: the rows every query is compared with. `data` holds them
 * translated by the engine's centre (column-major, n x d, leading
 * dimension n) in double, or `fdata` in single precision (times
 * prec.scale; the other one is NULL), `norm2` their squared norms (always
 * double, from the translated rows); `orig` the same rows as given,
 * untranslated, for the exact recomputation. */
typedef struct {
  const double *data;
  const float *fdata;
  prd_prec prec;
  int n;
  int d;
  const double *norm2;
  double norm2_max;   /* largest squared norm: bounds the rounding error */
  double tol_rel;     /* rounding bound per unit of squared norm, see products.c */
  double tol_abs;     /* and its absolute part (float underflow; 0 in double) */
  prd_rows orig;
} prd_ref;

/* Query rows, and the centre (length d) subtracted from them and from the
 * reference rows before the BLAS product (NULL: none). */
typedef struct {
  prd_rows rows;
  const double *centre;
} prd_query;

/* One query row as a visitor sees it: approximate squared distances to
 * every reference row (d2, length ref->n, owned by the calling thread),
 * and what the exact recomputation needs. Visitors read d2 only through
 * the primitives below. */
typedef struct {
  int i;               /* query position, 0-based in 0..n-1 */
  int tid;             /* thread id in 0..threads-1 */
  double *d2;
  double q_norm2;       /* squared norm of the translated query row */
  const double *q0;     /* the query row as given: q0[l * q0_stride] */
  size_t q0_stride;
  unsigned char *exact; /* per-thread flags: d2[j] already recomputed */
  int *touched;         /* per-thread list of flagged indices */
  double *approx;       /* per-thread: d2[j] before its recomputation */
  int n_touched;
  double n_exact;       /* exact recomputations done for this row */
  int *cand;            /* per-thread scratch: candidate indices (prd_kth) */
  double *cval;         /* and their values */
  /* the candidates of the radii over the whole reference set (every value
   * within the window of such a radius, or below it, but the row's self),
   * left by nb_visit() for prd_count_cand() and prd_scatter_cand(); NULL
   * until then */
  const int *acand;
  int n_acand;
} prd_row;

typedef void (*prd_visitor)(void *ctx, const prd_ref *ref, prd_row *row);

/* Progress of one engine call: a cli bar (R_NilValue: none), rows done,
 * exact recomputations and the largest thread team used. */
typedef struct {
  SEXP bar;
  double ticks;
  double exact;
  int team;
} prd_progress;

/* Gather the rows of `rows` translated by `centre` (NULL: none) into a
 * column-major block (in the precision `prec`, in scratch slot `slot`)
 * and its squared norms; fills *ref. Its copy of the rows as given (ref's
 * orig.rm, d >= 16) is row-major, or with rm_panel in panels of four. */
void prd_ref_init(prd_ref *ref, const prd_rows *rows, int d, int rm_panel,
                  const double *centre, const prd_prec *prec, int slot);

/* Scratch kept between engine calls (scratch.c): the reference blocks, the
 * tile and the own-radius candidates each have a slot, grown on demand, and
 * so do the fitted families' temporary tables (PRD_SCR_FIT: the smoothed
 * marginal family's products, smooth.c); slot -1 or under 1 MiB:
 * R_alloc(). Main thread only. */
enum { PRD_SCR_REF_A, PRD_SCR_REF_B, PRD_SCR_TILE, PRD_SCR_OWN, PRD_SCR_OWN_B,
       PRD_SCR_ROW_A, PRD_SCR_ROW_B, PRD_SCR_EXACT, PRD_SCR_FIT, PRD_SCR_N };
void *prd_scratch(int slot, size_t bytes);
void prd_scratch_release(void);
/* frees the slots larger than `limit` bytes */
void prd_scratch_trim(size_t limit);
/* Transparent huge pages asked for a fresh buffer of `bytes` (a hint,
 * before its first write), and a matrix of R allocated so: the large
 * results of the fitted families' and readers' passes (scratch.c) */
void prd_advise_huge(void *p, size_t bytes);
SEXP prd_alloc_matrix(SEXPTYPE type, int nrow, int ncol);
SEXP ffi_scratch(SEXP release);
SEXP ffi_memory_hold(SEXP on);
void prd_memory_release(void);

/* The precision of an engine call's products: single when `want` and
 * sgemm is available and the rounding window stays narrow for these data
 * (products.c); max_norm2: the largest squared norm of the translated rows
 * the call uses, mean_norm2: their mean over the real rows. */
prd_prec prd_prec_choose(int want, int d, double max_norm2,
                         double mean_norm2);

/* Stream all query rows against the reference in tiles (the tile loop
 * prd_sweep() with the visit handler, visit.c): one product per tile
 * (outside any parallel region), then the visitor on each row in an
 * OpenMP loop of at most `threads` threads. Checks for user interrupts and
 * ticks the progress bar between tiles. All scratch memory comes from
 * R_alloc, so an interrupt leaks nothing. */
void prd_tiles(const prd_ref *ref, const prd_query *qry, prd_visitor visit,
               void *ctx, int threads, prd_progress *prog);

/* k-NN radii (squared, exact; one column of `out`, n x nk, per k of the
 * increasing ks) of every row of `rows` in `rows` itself, self excluded
 * by index, from symmetric tiles: each unordered pair's product once.
 * cap_min: candidates kept per row (0: the default), see reservoir.c. */
void prd_own_radii(const prd_rows *rows, int d, const double *centre,
                   const prd_prec *prec, const int *ks, int nk, int threads,
                   int cap_min, prd_progress *prog, double *out);

/* k-NN radii (squared, exact, as prd_own_radii()) of the rows of A in B
 * (out_a, nA x nk) and of the rows of B in A (out_b, nB x nk; either NULL:
 * not wanted), from one product per pair of A x B; no self-exclusion. */
void prd_cross_radii(const prd_rows *A, const prd_rows *B, int d,
                     const double *centre, const prd_prec *prec,
                     const int *ks, int nk, int threads, int cap_min,
                     prd_progress *prog, double *out_a, double *out_b);

/* The cross pairs of A (X_f) and B (Y_f), each computed once, against
 * radii known beforehand: own radii (squared, nA x nk with leading
 * dimension ld_a, and nB x nk) and ppr radii R_a, R_b (distances) of the
 * balls of A and B. Outputs (zeroed by the caller), A's rows:
 * ipr_a = #B whose own ball holds the row, cov_a = #B in the row's own
 * ball, ppr_a = sum over B of log(1 - tau) with radius R_b; B's rows
 * likewise. ipr, cov, ppr: which to compute.
 *
 * The order of the sums (each a product of dist^2 / R^2, engine.h's
 * prd_lprod, and its log): a row of A multiplies over B in blocks of 256
 * of B's rows, each in order, then the blocks' products in block order; a
 * row of B over A in blocks of PRD_PPR_BLOCK rows (A's rows [0, 1024),
 * [1024, 2048), ...), each block's partial sum from 0 in order, then the
 * partial sums in block order onto ppr_b. So a block of A that starts at a
 * multiple of PRD_PPR_BLOCK gives the same partial sums on its own (the
 * futures' tasks): ppr_parts (nB x ceil(nA / PRD_PPR_BLOCK), or NULL)
 * receives them. */
#define PRD_PPR_BLOCK 1024
typedef struct {
  int nk, closed, ipr, cov, ppr;
  const double *own_a, *own_b;
  int ld_a, ld_b;
  double R_a, R_b;
  int *ipr_a, *ipr_b, *cov_a, *cov_b;
  double *ppr_a, *ppr_b, *ppr_parts;
} prd_cross_spec;
void prd_cross(const prd_rows *A, const prd_rows *B, int d,
               const double *centre, const prd_prec *prec,
               const prd_cross_spec *cs, int threads, prd_progress *prog);

/* Per-row primitives (SPEC.md section 0). Every comparison of a squared
 * distance with a threshold is exact: pairs whose approximate distance is
 * within the rounding bound of the threshold are recomputed directly from
 * the rows as given. closed: <=, otherwise <. Ranges are [lo, hi) of
 * reference rows. */

/* Reference row `skip` is the query itself: distance 0, never counted as a
 * neighbour by prd_kth. */
void prd_row_self(prd_row *row, int skip);

/* k-th smallest squared distances (for each k of the increasing vector ks,
 * kmax = ks[nk-1]) skipping index `skip` (-1: none); heap is scratch of
 * length kmax. Near-ties are recomputed exactly, so the radii are the
 * exact squared distances. Returns the number of candidates it left at
 * row->cand + lo, for prd_kth_union(). */
int prd_kth(const prd_ref *ref, prd_row *row, int lo, int hi, int skip,
            const int *ks, int nk, double *heap, double *out);

/* The same radii over the union of two ranges [lo1, ..), [lo2, ..), from
 * the candidates prd_kth() left there (nc1, nc2 of them), without a pass
 * over the row; prd_kth() of the two ranges must be the row's last. */
int prd_kth_union(const prd_ref *ref, prd_row *row, int lo1, int nc1,
                  int lo2, int nc2, const int *ks, int nk, double *out);
/* (its candidates: how many it returns, at row->cand + min(lo1, lo2)) */

/* Number of reference rows within squared radius t of the query. */
int prd_count(const prd_ref *ref, prd_row *row, int lo, int hi, double t,
              int closed);

/* Number of reference rows j with the query in *their* ball: squared
 * distance within t[j - lo]. */
int prd_count_each(const prd_ref *ref, prd_row *row, int lo, int hi,
                   const double *t, int closed);

/* acc[j] += 1 for every reference row j within squared radius t. */
void prd_scatter(const prd_ref *ref, prd_row *row, int lo, int hi, double t,
                 int closed, int *acc);

/* prd_count() and prd_scatter() over [lo, hi) at a radius t of the
 * candidates row->acand (a radius over the whole set, for any k up to the
 * selection's largest), with the row's self `skip` (-1: none): the same
 * decisions from the candidates alone, every other value lying above the
 * window of t. */
int prd_count_cand(const prd_ref *ref, prd_row *row, int lo, int hi,
                   int skip, double t, int closed);
void prd_scatter_cand(const prd_ref *ref, prd_row *row, int lo, int hi,
                      int skip, double t, int closed, int *acc);

/* Sum of log(1 - tau(|q - u|)), tau(r) = max(0, 1 - r / radius). */
double prd_log_tau_sum(const prd_ref *ref, prd_row *row, int lo, int hi,
                       double radius);

/* A cli progress bar over `total` query rows (R_NilValue when !show). */
SEXP prd_progress_new(double total, int show);
void prd_progress_done(SEXP bar);

/* ---- envelope.c ------------------------------------------------------- */
SEXP ffi_envelope(SEXP s_real, SEXP s_gen, SEXP extra, SEXP lambda);
/* scan.c: one-pass scans of a sample matrix (input check, the simple
 * classifiers' scores) */
SEXP ffi_scan(SEXP x);
SEXP ffi_row_scores(SEXP x, SEXP rows, SEXP centre, SEXP w);
SEXP ffi_centre(SEXP x, SEXP centre, SEXP rows);
SEXP ffi_scale_shift(SEXP x, SEXP rows, SEXP scale, SEXP offset);
SEXP ffi_row_sq_norms(SEXP x);
SEXP ffi_standardize(SEXP x, SEXP centre, SEXP scale, SEXP mult,
                     SEXP offset);
SEXP ffi_col_grid(SEXP x, SEXP max_bits);
SEXP prd_named_pair(SEXP a, const char *na, SEXP b, const char *nb);
SEXP ffi_col_means(SEXP x, SEXP rows);
SEXP ffi_col_ss(SEXP x, SEXP centre, SEXP rows);
SEXP ffi_bin_index(SEXP x, SEXP breaks, SEXP rows, SEXP atoms);
SEXP ffi_index_counts(SEXP index, SEXP B, SEXP rows, SEXP cell, SEXP ncell);
SEXP ffi_index_scores(SEXP index, SEXP B, SEXP rows, SEXP cell, SEXP table);
SEXP ffi_bin_edges(SEXP x, SEXP y, SEXP rx, SEXP ry, SEXP bins, SEXP atoms);
SEXP ffi_index_sums(SEXP index, SEXP rows, SEXP table);
SEXP ffi_logistic_affine(SEXP z, SEXP y, SEXP w);
SEXP ffi_ratio_loss(SEXP z, SEXP y, SEXP w);
SEXP ffi_smooth_parts(SEXP cp, SEXP cq, SEXP np, SEXP nq, SEXP K, SEXP a,
                      SEXP keep);
SEXP ffi_smooth_shrink(SEXP t, SEXP noise, SEXP pi, SEXP pooled);
SEXP ffi_smooth_choice_sums(SEXP cp, SEXP cq, SEXP nx, SEXP ny, SEXP kernels,
                            SEXP a, SEXP index, SEXP rx, SEXP ry, SEXP keep);
SEXP ffi_smooth_fold_tables(SEXP sp, SEXP sq, SEXP cp, SEXP cq, SEXP np,
                            SEXP nq, SEXP K, SEXP a, SEXP pooled, SEXP keep);
/* the bin index's row sums (marginal.c) for src/smooth.c: the rows r[0..m)
 * of the index ix (d x ., 1-based) summed over the columns in order at
 * the table T (nbin x d), on the calling thread; the index checked */
void prd_index_sums(const unsigned char *ix, int d, int nbin, const int *r,
                    int m, const double *T, double *o);
int prd_check_index(SEXP index, SEXP B, SEXP rows, const char *fn);
SEXP ffi_row_dot(SEXP A, SEXP B);
SEXP ffi_tile_kernels(SEXP G, SEXP row_u, SEXP col_u, SEXP row_n2,
                      SEXP col_n2, SEXP par, SEXP want, SEXP mode);
SEXP ffi_fold_cov(SEXP M, SEXP Mv, SEXP n, SEXP m);
SEXP ffi_frob3(SEXP A, SEXP B);
SEXP ffi_centre_t(SEXP x, SEXP centre, SEXP rows);
SEXP ffi_cov_factor(SEXP A, SEXP B, SEXP a, SEXP b, SEXP c);
SEXP ffi_whiten(SEXP R, SEXP B);
SEXP ffi_cell_moments(SEXP x, SEXP centre, SEXP rows, SEXP cell, SEXP ncell,
                      SEXP M0, SEXP single);
SEXP ffi_centred_product(SEXP x, SEXP centre, SEXP V, SEXP rows);
SEXP ffi_chol_quad(SEXP X, SEXP rows, SEXP c, SEXP Rx, SEXP mx, SEXP Ry,
                   SEXP my);
SEXP ffi_cov_norms(SEXP Mx, SEXP Mx2, SEXP nx, SEXP mx, SEXP My, SEXP My2,
                   SEXP ny, SEXP my);
void prd_check_rows(const int *r, int m, int n, const char *fn);
void prd_centre_cols(const double *X, int n, const int *r, int i0, int mb,
                     const double *c, int l0, int l1, double *dst);
void prd_check_centre_rows(SEXP x, SEXP centre, SEXP rows, const char *fn);
SEXP ffi_fold_sigma(SEXP Mt, SEXP Et, SEXP fold, SEXP D);
SEXP ffi_chol_solve(SEXP R, SEXP V);
/* mixture.c */
SEXP ffi_mixture_dist2(SEXP X, SEXP C, SEXP XX);
SEXP ffi_mixture_estep(SEXP X, SEXP means, SEXP var, SEXP logw, SEXP opts);
SEXP ffi_mixture_estep_lowrank(SEXP X, SEXP means, SEXP basis, SEXP var,
                               SEXP spikes, SEXP logw, SEXP colscale,
                               SEXP XX, SEXP opts);
SEXP ffi_row_keys(SEXP x);
void prd_row_scores(const double *X, int n, int d, const int *rows, int m,
                    const double *c, const double *w, double *dist,
                    double *proj);
void prd_col_means(const double *X, int n, int d, const int *rows, int m,
                   int ld, double *out);

/* ---- neighbours.c ----------------------------------------------------- */
SEXP ffi_engine(SEXP real, SEXP gen, SEXP spec);
SEXP ffi_engine_prep(SEXP x, SEXP centre, SEXP norms);
SEXP ffi_estimators(void);
SEXP ffi_engine_plan(SEXP est, SEXP self, SEXP cross, SEXP own);
SEXP ffi_engine_sweeps(SEXP reset);
/* forked children run one thread (threads.c) */
void prd_fork_guard(void);
SEXP ffi_sgemm(void);

/* ---- products.c, scratch.c -------------------------------------------- */
SEXP ffi_blas_threads(SEXP n);
SEXP ffi_blas_adds(void);

/* ---- threads.c -------------------------------------------------------- */
SEXP ffi_threads(SEXP n);

#endif
