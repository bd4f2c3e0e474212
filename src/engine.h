/* Private declarations of the distance engine, shared by its files
 * (products.c, scratch.c, rowops.c, sweep.c, visit.c, reservoir.c,
 * decide.c): the tile, the one tile loop and its handlers' protocol, the
 * rounding window, the inline row accessors and the functions one file
 * uses from another. The public interface is prdcurve.h. */
#ifndef PRD_ENGINE_H
#define PRD_ENGINE_H

#if defined(__GNUC__) && !defined(__clang__) && !defined(__INTEL_COMPILER)
#pragma GCC optimize("tree-vectorize")
#endif
#include "prdcurve.h"
#include <float.h>
#include <math.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#if defined(__linux__)
#include <sys/mman.h>
#endif

/* The same passes, where the platform dispatches at load time (GCC,
 * x86-64, glibc's ifunc; __GLIBC__ comes with the headers above), also
 * in an AVX2 version picked on machines that have it: 4 doubles per
 * instruction instead of SSE2's 2. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && \
    defined(__linux__) && defined(__GLIBC__) && !defined(PRD_NO_CLONES)
#define PRD_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define PRD_CLONES
#endif

/* GCC's vector extensions (also clang's): 4 doubles per operation, one
 * AVX2 instruction in the PRD_CLONES versions */
#if defined(__GNUC__)
typedef double prd_v4d __attribute__((vector_size(32)));
typedef long long prd_v4l __attribute__((vector_size(32)));
#define PRD_VEC 1
#endif

/* reference rows per sgemm call when the engine sums several coordinate
 * blocks itself (tile_part(); not when OpenBLAS adds them, whose calls
 * cover the whole tile): the chunk's sum and block, 1,024 x 256 query
 * rows x 8 bytes, stay in a 2 MiB L2 cache (512 and 2,048 measured no
 * better) */
#define R_CHUNK 1024
/* coordinates per sgemm block (see the rounding notes in products.c) */
#define K_BLOCK 256

/* the row at position p of `rows`, as given, and its stride */
static inline const double *rows_at(const prd_rows *rows, int p,
                                    size_t *stride) {
  if (rows->rm) {
    if (rows->rm_panel) {
      *stride = 4;
      return rows->rm + (size_t) (p >> 2) * 4 * rows->rm_d + (p & 3);
    }
    *stride = 1;
    return rows->rm + (size_t) p * rows->rm_d;
  }
  int s = p < rows->n0 ? 0 : 1;
  *stride = (size_t) rows->ld[s];
  return rows->src[s] + rows->idx[p];
}

/* the block of translated rows from row i0 on, in the ref's precision */
static inline const void *block_at(const prd_ref *ref, int i0) {
  if (ref->prec.single) return (const void *) (ref->fdata + i0);
  return (const void *) (ref->data + i0);
}

/* The products of one tile: the products -2 <b_j, a_i> of reference row j
 * and query row i at c = j + i nb: `back * gs[c]` when `in_gs`, else
 * `g[c]`. In double precision g holds them (dgemm). In single precision
 * they are in the float tile gs alone: one sgemm per block of K_BLOCK
 * coordinates, the blocks summed in float (products.c's header bounds the
 * rounding; no double tile, which at d = 64 was three quarters of the
 * memory traffic). */
typedef struct {
  double *g;
  float *gs;
  /* single precision above K_BLOCK coordinates: each block's sgemm goes
   * to gb (per part of the tile's query columns starting at c0: gb + c0
   * gb_ld, leading dimension up to gb_ld) and is added to gs in float */
  float *gb;
  int gb_ld;
  /* the blocks added by the BLAS itself, sgemm with beta = 1 (no gb) */
  int accumulate;
  int in_gs;
  double back;
} prd_tile;

/* The rounding window of a comparison of an approximate squared distance
 * with a threshold t (products.c's header derives it): a pair within it
 * of t is recomputed exactly. The engine's only window: every decision,
 * candidate bound and selection takes it from prd_window(t, w0), w0 its
 * part independent of t, prd_window0() of the row's squared norm qn, the
 * largest squared norm nmax of the rows it is compared with, and the
 * reference's tol_rel and tol_abs (prd_ref). PRD_WINDOW_REL is its part
 * relative to t (for the vectorised count and the cross sweep's bound). */
#define PRD_WINDOW_REL 1e-9
static inline double prd_window0(double tol_rel, double qn, double nmax,
                                 double tol_abs) {
  return tol_rel * (qn + nmax) + tol_abs;
}
static inline double prd_window(double t, double w0) {
  return PRD_WINDOW_REL * t + w0;
}

/* exact squared distance between row a of A and row b of B, as given, in
 * the order of prd_exact() (the same value as the full-row engine's) */
static inline double pair_exact(const prd_rows *A, int a, const prd_rows *B,
                                int b, int d) {
  size_t qs, rs;
  const double *q = rows_at(A, a, &qs);
  const double *r = rows_at(B, b, &rs);
  double s = 0.0;
  for (int l = 0; l < d; l++) {
    double u = q[(size_t) l * qs] - r[(size_t) l * rs];
    s += u * u;
  }
  return s;
}

/* ---- ppr's sums of log(1 - tau) --------------------------------------- *
 *
 * Inside a ball of radius R, 1 - tau = dist / R, so the sum of log(1 -
 * tau) over a row's pairs is half the log of the product of ex / R^2 (ex
 * the exact squared distance, below R^2): the factors are multiplied,
 * with the binary exponent kept apart, and one log is taken at the end
 * instead of a log per pair (p_precision and p_recall need the pairs of
 * about a quarter of all pairs at d = 64). Every factor is in [0, 1]; a
 * factor or product below 2^-256 moves its exponent into e, so the
 * mantissa m stays in (2^-512, 1] (0 for a pair at distance 0: log 0 =
 * -Inf, the term of tau = 1). R^2 is finite (ffi_engine() refuses radii
 * whose square is not). */
typedef struct {
  double m;
  int e;
} prd_lprod;
static inline void lprod_mul(prd_lprod *a, double x) {
  int k;
  if (x < 0x1p-256) {
    x = frexp(x, &k);
    a->e += k;
  }
  a->m *= x;
  if (a->m < 0x1p-256) {
    a->m = frexp(a->m, &k);
    a->e += k;
  }
}
/* the sum of log(1 - tau) of the product */
static inline double lprod_log(const prd_lprod *a) {
  return 0.5 * (log(a->m) + (double) a->e * M_LN2);
}

/* ---- the tile loop (sweep.c) and its result handlers ----------------- *
 *
 * Every sweep of the engine is prd_sweep(): tiles of rows against the
 * columns (a reference set), one product per tile (tile_products()),
 * then, in one parallel region per tile, the handler's `prep` hook on
 * blocks of `col_block` columns (one thread per block), its `rows` hook on
 * every row of the tile (one thread per row, dynamic) and its `columns`
 * hook on blocks of `col_block` columns (one thread per block, each block
 * reading the tile's rows in order). Each hook owns what it writes for
 * its row or its block, so results do not depend on the thread count.
 * `begin` runs once before the first tile (buffers for at most m rows x
 * nb columns per tile and nt threads), `end` once after the last; both on
 * the main thread, outside the tile's lifetime (they may run sweeps of
 * their own). Handlers: visit.c (a visitor per row, prd_tiles()),
 * reservoir.c (candidate buffers for k-th radii), decide.c (ball counts
 * and ppr sums against known radii). */

/* one tile as the hooks see it */
typedef struct {
  const prd_tile *t; /* the products, leading dimension nb */
  int nb, mm;        /* columns and rows of the tile */
  int i0;            /* position of its first row among the sweep's rows */
  int col0;          /* position of its first column among the columns */
  const double *qn;  /* squared norms of its rows (mm) */
  const double *cn;  /* squared norms of its columns (nb) */
  /* the products' leading dimension and the column of their first one:
   * nb and 0 for a tile, the block's width and first column when the
   * products are formed per column block (prd_handler.block_products) */
  int tld, tc0;
} prd_span;

typedef struct {
  void (*begin)(void *h, int m, int nb, int nt);
  /* row i of the tile, by thread tid; returns exact recomputations */
  double (*rows)(void *h, const prd_span *s, int i, int tid);
  /* columns [c0, c1) of the tile, by thread tid; the same */
  double (*columns)(void *h, const prd_span *s, int c0, int c1, int tid);
  void (*end)(void *h);
  int col_block;     /* columns per call of `columns` (and of `prep`) */
  /* before the rows: columns [c0, c1) of the tile, by thread tid (NULL:
   * none); returns exact recomputations */
  double (*prep)(void *h, const prd_span *s, int c0, int c1, int tid);
  /* 1: only `prep` reads the products, and they may be formed per column
   * block by the thread that visits it (prd_sweep() decides) */
  int block_products;
} prd_handler;

/* What a sweep runs over. The rows are `rows` (gathered already: tiles
 * are blocks of it) or, when it is NULL, the query rows `qry`, gathered
 * tile by tile. symmetric: the rows are the columns and each pair is
 * visited once: the tile of rows [i0, i0 + mm) has the columns [i0, n),
 * its `rows` hook sees all of them and its `columns` hook the later rows
 * [i0 + mm, n). Progress: tick_num / tick_den per row. */
typedef struct {
  const prd_ref *cols;
  const prd_ref *rows;
  const prd_query *qry;
  int symmetric;
  double tick_num, tick_den;
} prd_sweep_spec;

void prd_sweep(const prd_sweep_spec *sw, const prd_handler *h, void *ctx,
               int threads, prd_progress *prog);

/* products.c */
void tile_alloc(prd_tile *t, const prd_prec *prec, int d, int nb, int na);
void tile_row(const prd_tile *t, int nb, int i, int j0, int n, double qn,
              const double *rn, double *out);
void tile_products(const prd_prec *prec, int nb, int na, int d,
                   const void *B, int ldb, const void *A, int lda,
                   prd_tile *t, int threads);
void tile_block_init(prd_tile *t, const prd_prec *prec, void *mem);
void block_products(const prd_prec *prec, int nb, int na, int d,
                    const void *B, int ldb, const void *A, int lda,
                    prd_tile *t);
int prd_blas_serial_begin(void);
void prd_blas_serial_end(int old);
/* moments.c: the threads for `work` split into `nblk` blocks, each calling
 * the BLAS, with the BLAS set to one thread when more than one thread
 * runs (*old: its count before, for prd_blas_serial_end(); 0 when
 * unchanged) */
int prd_blocked_team(int64_t work, int nblk, int *old);
void gather(const prd_rows *rows, int lo, int n, int d,
            const double *centre, double scale, double *out, float *outf,
            double *norm2, double *rm, int rm_panel, int threads);
/* rowops.c */
int prd_compact_le(const double *v, int lo, int hi, double t, int *out);
int prd_compact_reach(const double *v, int n, double t, const double *ub,
                      int *out);
double quickselect(double *v, int *jx, int n, int k);
double qselect(double *a, int n, int k);
void select_ks(double *a, int n, const int *ks, int nk, double *out);

#endif
