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

/* ---- threads.c -------------------------------------------------------- */
int prd_threads_get(void);
int prd_threads_for(int64_t work);

/* ---- tiles.c: the one blocked distance engine ------------------------- */

/* Reference set: the rows every query is compared with (column-major,
 * n x d, leading dimension n), and their squared norms. */
typedef struct {
  const double *data;
  int n;
  int d;
  const double *norm2;
  double norm2_max;   /* largest squared norm: bounds the rounding error */
} prd_ref;

/* Query rows are gathered from up to two column-major source matrices
 * (rows src0[0..n0), then src1[0..n1)), by 0-based row index. */
typedef struct {
  const double *src[2];
  int ld[2];      /* number of rows of each source matrix */
  const int *idx; /* 0-based row indices into the sources, length n */
  int n;
  int n0;         /* the first n0 indices refer to src[0], the rest to src[1] */
} prd_query;

/* One query row as a visitor sees it: squared distances to every reference
 * row (d2, length ref->n, owned by the calling thread and writable), the
 * query's coordinates (q[l * q_stride]) and squared norm. */
typedef struct {
  int i;               /* query position, 0-based in 0..n-1 */
  double *d2;
  const double *q;
  int q_stride;
  double q_norm2;
  int tid;             /* thread id in 0..threads-1 */
  unsigned char *exact; /* per-thread flags: d2[j] already recomputed */
  int *touched;         /* per-thread list of flagged indices */
  int n_touched;
} prd_row;

typedef void (*prd_visitor)(void *ctx, const prd_ref *ref, prd_row *row);

/* Stream all query rows against the reference in tiles: one dgemm per tile
 * (called outside any parallel region), then the visitor on each row in an
 * OpenMP loop. Checks for user interrupts and ticks a cli progress bar
 * between tiles (bar may be R_NilValue). Returns the number of threads
 * used. All scratch memory comes from R_alloc, so an interrupt leaks
 * nothing. */
int prd_tiles(const prd_ref *ref, const prd_query *qry, prd_visitor visit,
              void *ctx, int threads, SEXP bar, double *ticks);

/* Squared norms of the rows of a column-major n x d matrix. */
void prd_row_norms(const double *x, int n, int d, double *out);

/* Exact (direct) squared distance between the query of `row` and reference
 * row j; stores it in row->d2[j] and flags it. */
double prd_exact(const prd_ref *ref, prd_row *row, int j);

/* Rounding of |q|^2 + |r|^2 - 2<q, r> is below this for every pair of a
 * row: comparisons with threshold t closer than it are redone exactly. */
static inline double prd_tol(const prd_ref *ref, const prd_row *row,
                             double t) {
  return 1e-9 * t + 1e-12 * (row->q_norm2 + ref->norm2_max);
}

/* Compare d2[j] with threshold t; pairs within prd_tol() of t are
 * recomputed exactly first. closed: <=, otherwise <. */
static inline int prd_within(const prd_ref *ref, prd_row *row, int j,
                             double t, int closed) {
  double v = row->d2[j];
  double tol = prd_tol(ref, row, t);
  if (v < t - tol) return 1;
  if (v > t + tol) return 0;
  if (!row->exact[j]) v = prd_exact(ref, row, j);
  return closed ? (v <= t) : (v < t);
}

/* k-th smallest squared distances (for each k of the sorted vector ks,
 * kmax = ks[nk-1]) among d2[lo..hi) skipping index `skip` (-1: none);
 * heap is scratch of length kmax. Near-ties are recomputed exactly so the
 * result equals the one from exact distances. */
void prd_kth(const prd_ref *ref, prd_row *row, int lo, int hi, int skip,
             const int *ks, int nk, double *heap, double *out);

int prd_count(const prd_ref *ref, prd_row *row, int lo, int hi, double t,
              int closed);

/* A cli progress bar over `total` query rows (R_NilValue when !show). */
SEXP prd_progress_new(double total, int show);
void prd_progress_done(SEXP bar);

/* ---- envelope.c ------------------------------------------------------- */
SEXP ffi_envelope(SEXP s_real, SEXP s_gen, SEXP extra, SEXP lambda);

/* ---- neighbours.c ----------------------------------------------------- */
SEXP ffi_neighbours(SEXP real, SEXP gen, SEXP fit, SEXP eval, SEXP ks,
                    SEXP what, SEXP own, SEXP fixed, SEXP closed,
                    SEXP progress);

/* ---- threads.c -------------------------------------------------------- */
SEXP ffi_threads(SEXP n);

#endif
