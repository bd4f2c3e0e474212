/* Private declarations of the distance engine, shared by its files
 * (products.c, scratch.c, rowops.c, sweep.c, radii.c, cross.c): the
 * tile, the inline row accessors and the functions one file uses from
 * another. The public interface is prdcurve.h. */
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

/* reference rows per sgemm call when several coordinate blocks are summed
 * (tile_part()): 2,048 x 256 query rows x 12 bytes stay in the L3 cache */
#define R_CHUNK 2048
/* coordinates per sgemm block (see the rounding notes in products.c) */
#define K_BLOCK 256

/* the row at position p of `rows`, as given, and its stride */
static inline const double *rows_at(const prd_rows *rows, int p,
                                    size_t *stride) {
  if (rows->rm) {
    *stride = 1;
    return rows->rm + (size_t) p * rows->rm_d;
  }
  int s = p < rows->n0 ? 0 : 1;
  *stride = (size_t) rows->ld[s];
  return rows->src[s] + rows->idx[p];
}

/* the block of translated rows from row i0 on, in the ref's precision */
static const void *block_at(const prd_ref *ref, int i0) {
  if (ref->prec.single) return (const void *) (ref->fdata + i0);
  return (const void *) (ref->data + i0);
}

/* The products of one tile: the products -2 <b_j, a_i> of reference row j
 * and query row i at c = j + i nb, as the sum of `g[c]` (when `in_g`) and
 * `back * gs[c]` (when `last_in_gs`). In double precision g holds them all
 * (dgemm). In single precision each block of K_BLOCK coordinates is one
 * sgemm into the float scratch gs; every block but the last is added to g
 * in double, and the last stays in gs: the pass that forms the distances
 * adds it (one pass over the tile fewer, and with d <= K_BLOCK no double
 * tile at all, which at d = 64 was three quarters of the memory traffic). */
typedef struct {
  double *g;
  float *gs;
  int in_g, last_in_gs;
  double back;
} prd_tile;

/* the product at c (see prd_tile) */
static inline double tile_at(const prd_tile *t, size_t c) {
  double p = t->in_g ? t->g[c] : 0.0;
  if (t->last_in_gs) p += t->back * (double) t->gs[c];
  return p;
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

/* products.c */
void tile_alloc(prd_tile *t, const prd_prec *prec, int d, size_t len);
void tile_row(const prd_tile *t, int nb, int i, int j0, int n, double qn,
              const double *rn, double *out);
void tile_products(const prd_prec *prec, int nb, int na, int d,
                   const void *B, int ldb, const void *A, int lda,
                   prd_tile *t, int threads);
void gather(const prd_rows *rows, int lo, int n, int d,
            const double *centre, double scale, double *out, float *outf,
            double *norm2, double *rm, int threads);
/* rowops.c */
double quickselect(double *v, int *jx, int n, int k);
double qselect(double *a, int n, int k);
void select_ks(double *a, int n, const int *ks, int nk, double *out);
/* sweep.c */
int tile_rows(int n_ref, int n_query, int d);
void tiles_interrupt(prd_progress *prog);
void tile_done(prd_progress *prog, int team, double ticks);

#endif
