/* The one blocked distance engine: every estimator of prdcurve is a
 * reduction over the squared Euclidean distances between query rows and a
 * reference set. Distances are produced tile by tile (one dgemm, or sgemm
 * below, per tile of query rows against the whole reference set), so
 * memory is O(tile rows x reference rows), never O(n^2); a visitor
 * consumes each row of a tile through the primitives of this file, which
 * decide every comparison exactly. Rows are independent: per-row results
 * do not depend on the number of threads.
 *
 * Rounding. The BLAS product works on rows translated by a centre c (the
 * real set's mean, chosen by the caller): distances are translation
 * invariant, and the translated rows have small norms, so the expansion
 * |q|^2 + |r|^2 - 2<q, r> keeps its accuracy when the data sit far from
 * the origin. With a = q - c, b = r - c (exact), the stored rows are
 * a~ = fl(a), b~ = fl(b), each coordinate rounded once: |a~_l - a_l| <=
 * u |a_l|, u = 2^-53. Then, with D = |a - b| the true distance:
 *   | |a~ - b~| - D | <= u (|a| + |b|), hence
 *   | |a~ - b~|^2 - D^2 | <= u D^2 + 2 u (1 + u) (|a|^2 + |b|^2),
 * and the expansion computed in floating point from a~, b~ (any summation
 * order, FMA or not) is within 2 gamma_{d+2} (|a~|^2 + |b~|^2) of
 * |a~ - b~|^2, gamma_n = n u / (1 - n u). The sum of both is below
 *   tol = 1e-9 t + tol_rel (|a~|^2 + max |b~|^2),
 *   tol_rel = max(1e-12, 4 (d + 3) u)
 * for a comparison with threshold t (D^2 near t; the factor 2 over the
 * bound covers the rounding of the norms themselves). A pair whose
 * approximate squared distance is within tol of t is recomputed exactly
 * as sum((q - r)^2) from the rows *as given* (never the translated ones:
 * translating integer data by a non-integer mean would break exact ties),
 * in the same order as a direct computation, so every decision equals the
 * one from exact distances.
 *
 * float32 tiles. With prec.single (sgemm available, prd_prec_choose()),
 * the products are computed in single precision from float copies of the
 * translated rows; the norms stay in double, from the double translated
 * rows a^ = fl(a), b^ = fl(b), and v = |a^|^2 + |b^|^2 - 2 p is formed in
 * double, p the float product. The copies are taken after a scaling by
 * sigma, a power of two with sigma^2 max|a^|^2 < 1 over every row of the
 * call (exact, and no float overflow: every product and partial sum is at
 * most 1 in magnitude). Let u_s = 2^-24 and eta = 2^-150 (half the
 * smallest float subnormal), in scaled units:
 *  - input: a~_l = fl32(sigma a^_l) = sigma a^_l (1 + e_l) + h_l,
 *    |e_l| <= u_s, |h_l| <= eta, so, with |x|_1 <= sqrt(d) |x| and
 *    |sigma a^| <= 1,
 *      |a~.b~ - sigma^2 a^.b^| <= (2 u_s + u_s^2) sigma^2 |a^||b^|
 *                                 + 2 (1 + u_s) sqrt(d) eta + d eta^2;
 *  - the product, in float: sgemm sums over blocks of at most K_BLOCK
 *    coordinates (one sgemm per block; the blocks are added in double),
 *    so for any summation order, blocking or FMA inside a block of k
 *    coordinates, |fl32(x.y) - x.y| <= gamma_k(u_s) sum |x_l y_l| +
 *    2 k eta (gamma_n(u) = n u / (1 - n u); eta for underflow in the
 *    products; this assumes the classical product, as every BLAS does);
 *  - together, since (1 + u_s)^2 (1 + gamma_k) - 1 <= gamma_{k+2} and
 *    2 |a^||b^| <= |a^|^2 + |b^|^2, the float part of v errs by at most
 *      gamma_{kb+2}(u_s) (|a^|^2 + |b^|^2) + 16 d eta / sigma^2,
 *    kb = min(d, K_BLOCK), in the units of the rows;
 *  - the double side: the rounding of a^, b^ as above (u D^2 + 2u(1 +
 *    u)(|a|^2 + |b|^2), D^2 <= 2(|a|^2 + |b|^2)), the norms (gamma_d(u)
 *    each), the sum of the blocks (gamma_{d/kb}(u)) and the two additions
 *    forming v: at most gamma_{2d+8}(u) (|a|^2 + |b|^2).
 * The window is twice the sum (the factor 2 covers the (1 + O(u_s))
 * factors between |a|, |a^| and the computed norms):
 *   tol = 1e-9 t + tol_rel (|a^|^2 + max |b^|^2) + tol_abs,
 *   tol_rel = 2 (gamma_{kb+2}(u_s) + gamma_{2d+8}(u)),
 *   tol_abs = 16 d eta / sigma^2 = d 2^-146 / sigma^2
 * (about 3.1e-5 for d >= 256, against 9e-13 in double for d = 2,048).
 * The recomputation is unchanged: in double, from the rows as given.
 * Blocks of K_BLOCK = 256 coordinates make the window independent of d
 * (one sgemm of depth d would give gamma_{d+2}(u_s): 2.4e-4 at d = 2,048,
 * and 13.0 recomputations per row instead of 5.2, bench/results.md) and
 * cost little: sgemm runs near its peak at depth 256, and adding a block
 * to the tile is one pass over it.
 * Where the window is wide relative to the data (prd_prec_choose()), the
 * call runs in double. */
/* GCC 12 at R's default -O2 vectorises no loop here (its "very cheap"
 * cost model rejects them all; measured with -fopt-info-vec): the passes
 * over the distance rows below (tile_row(), prd_count(), the sample and
 * filter passes of the selection) are written for the vectoriser, and
 * this file asks for it with the "cheap" model. Other compilers: no-op. */
#if defined(__GNUC__) && !defined(__clang__) && !defined(__INTEL_COMPILER)
#pragma GCC optimize("tree-vectorize")
#endif
#include "prdcurve.h"
#include <float.h>
#include <math.h>
#include <string.h>
#include <cli/progress.h>
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
    defined(__linux__) && defined(__GLIBC__)
#define PRD_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define PRD_CLONES
#endif

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

/* Gather rows lo.. lo + n - 1 translated by centre (NULL: none),
 * column-major n x d: in double into out and/or, times `scale` and
 * rounded to float, into outf (either may be NULL), with their squared
 * norms, always from the double translated values, into norm2; and, when
 * rm is not NULL, the rows as given, row-major (n x d). In blocks of 256
 * rows (the reads down a column and the writes of a block stay in cache),
 * the blocks shared among `threads` threads (each row's norm is summed by
 * one thread in the order of l: the same value whatever the count). */
static void gather(const prd_rows *rows, int lo, int n, int d,
                   const double *centre, double scale, double *out,
                   float *outf, double *norm2, double *rm, int threads) {
  int nblk = (n + 255) / 256;
  int use = prd_threads_for((int64_t) n * d / 4, threads < 1 ? 1 : threads);
#ifdef _OPENMP
#pragma omp parallel for num_threads(use) schedule(static)
#endif
  for (int b = 0; b < nblk; b++) {
    int i0 = b * 256, i1 = n - i0 < 256 ? n : i0 + 256;
    for (int i = i0; i < i1; i++) norm2[i] = 0.0;
    for (int l = 0; l < d; l++) {
      double c = centre ? centre[l] : 0.0;
      double *col = out ? out + (size_t) l * n : NULL;
      float *colf = outf ? outf + (size_t) l * n : NULL;
      for (int i = i0; i < i1; i++) {
        size_t st;
        const double *r = rows_at(rows, lo + i, &st);
        double x = r[(size_t) l * st], v = x - c;
        if (col) col[i] = v;
        if (colf) colf[i] = (float) (scale * v);
        if (rm) rm[(size_t) i * d + l] = x;
        norm2[i] += v * v;
      }
    }
  }
  (void) use;
}

/* ---- the precision of the products ---------------------------------- */

/* reference rows per sgemm call when several coordinate blocks are summed
 * (tile_part()): 2,048 x 256 query rows x 12 bytes stay in the L3 cache */
#define R_CHUNK 2048

#define U_DOUBLE (DBL_EPSILON / 2.0) /* 2^-53 */
#define U_SINGLE (FLT_EPSILON / 2.0) /* 2^-24 */
/* single precision: the products are summed in float over blocks of at
 * most K_BLOCK coordinates, the blocks in double */
#define K_BLOCK 256

/* gamma_n = n u / (1 - n u) */
static double gamma_n(double n, double u) { return n * u / (1.0 - n * u); }

/* The window's relative part (see the top of this file). */
static double tol_rel_for(int single, int d) {
  if (single) {
    double kb = d < K_BLOCK ? d : K_BLOCK;
    return 2.0 * (gamma_n(kb + 2.0, U_SINGLE) +
                  gamma_n(2.0 * d + 8.0, U_DOUBLE));
  }
  double rel = 4.0 * ((double) d + 3.0) * U_DOUBLE;
  return rel > 1e-12 ? rel : 1e-12;
}

/* Single precision stops paying when its window holds too many pairs:
 * the window is about tol_rel * 2 max|a|^2 wide, the squared distances
 * spread over about 2 mean|a|^2 (the real set's total variance). Above
 * this ratio of the two the call runs in double (bench/results.md,
 * "float32 tiles": measured recomputations). */
#define SINGLE_MAX_WINDOW 1e-3

prd_prec prd_prec_choose(int want, int d, double max_norm2,
                         double mean_norm2) {
  prd_prec p = {0, 1.0};
#ifdef PRD_HAVE_SGEMM
  if (!want || d < 1) return p; /* d >= 1: tile_products() sets g */
  if (!R_FINITE(max_norm2) || !(max_norm2 > 0.0)) return p;
  if (tol_rel_for(1, d) * max_norm2 > SINGLE_MAX_WINDOW * mean_norm2)
    return p;
  int e;
  frexp(max_norm2, &e); /* max_norm2 = f 2^e, f in [1/2, 1) */
  if (e < -900 || e > 900) return p;
  p.single = 1;
  p.scale = ldexp(1.0, -(int) ceil(e / 2.0)); /* scale^2 max_norm2 < 1 */
#else
  (void) want; (void) d; (void) max_norm2; (void) mean_norm2;
#endif
  return p;
}

/* the block of translated rows from row i0 on, in the ref's precision */
static const void *block_at(const prd_ref *ref, int i0) {
  if (ref->prec.single) return (const void *) (ref->fdata + i0);
  return (const void *) (ref->data + i0);
}

/* ---- scratch kept between engine calls ------------------------------ *
 *
 * A first touch of fresh memory costs a page fault, and on the reference
 * machine (a virtual machine) one costs about 13 microseconds per 4 KiB
 * page, 3 ms per MiB: the reference block, the tile and the candidate
 * buffers of one call at 10,000 per set and d = 2,048 (some 140 MiB)
 * took about 0.45 s of faults per engine call, and R_alloc()'s memory is
 * fresh at every call. The four largest buffers therefore live in slots
 * kept from one engine call to the next (grown when a call needs more;
 * only the main thread allocates them): prd_scratch_release() frees them,
 * at the end of every call under options(prdcurve.keep_scratch = FALSE)
 * and when the package is unloaded. Buffers under 1 MiB use R_alloc(). */
static void *scr_p[PRD_SCR_N];
static size_t scr_n[PRD_SCR_N];

/* A slot's memory: on Linux aligned to 2 MiB and marked for transparent
 * huge pages (where the kernel offers them on request, as here: faults
 * then cost 40% less per byte, measured with a C loop touching 256 MiB),
 * else plain malloc(). */
static void *scratch_alloc(size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (bytes >= ((size_t) 4 << 20)) {
    void *p = NULL;
    size_t al = (size_t) 2 << 20;
    if (posix_memalign(&p, al, (bytes + al - 1) / al * al) != 0) return NULL;
    madvise(p, (bytes + al - 1) / al * al, MADV_HUGEPAGE);
    return p;
  }
#endif
  return malloc(bytes);
}

void *prd_scratch(int slot, size_t bytes) {
  if (bytes < 1) bytes = 1;
  if (slot < 0 || slot >= PRD_SCR_N || bytes < ((size_t) 1 << 20))
    return (void *) R_alloc(bytes, 1);
  if (scr_n[slot] >= bytes) return scr_p[slot];
  free(scr_p[slot]);
  scr_p[slot] = NULL;
  scr_n[slot] = 0;
  /* twice the request: a later call on more rows (the evaluation sweep
   * after the own radii of half as many) then finds the slot large
   * enough, and only pages that are touched cost a fault */
  size_t cap = 2 * bytes;
  void *p = scratch_alloc(cap);
  if (!p) {
    cap = bytes;
    p = scratch_alloc(cap);
  }
  if (!p)
    Rf_error("prdcurve: cannot allocate %.0f MiB of scratch",
             (double) bytes / 1048576.0);
  scr_p[slot] = p;
  scr_n[slot] = cap;
  return p;
}

void prd_scratch_trim(size_t limit) {
  for (int s = 0; s < PRD_SCR_N; s++) {
    if (scr_n[s] <= limit) continue;
    free(scr_p[s]);
    scr_p[s] = NULL;
    scr_n[s] = 0;
  }
}

void prd_scratch_release(void) {
  for (int s = 0; s < PRD_SCR_N; s++) {
    free(scr_p[s]);
    scr_p[s] = NULL;
    scr_n[s] = 0;
  }
}

/* bytes held in the slots (tests) */
SEXP ffi_scratch(SEXP release) {
  double b = 0.0;
  for (int s = 0; s < PRD_SCR_N; s++) b += (double) scr_n[s];
  if (Rf_asLogical(release) == TRUE) prd_scratch_release();
  return Rf_ScalarReal(b);
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

/* scratch for the tiles of nb x na products in the precision prec */
static void tile_alloc(prd_tile *t, const prd_prec *prec, int d, size_t len) {
  if (len < 1) len = 1;
  t->g = NULL;
  t->gs = NULL;
  t->in_g = t->last_in_gs = 0;
  t->back = 1.0;
  /* one slot: the double tile first (8-byte aligned), the float after */
  int dbl = !prec->single || d > K_BLOCK, flt = prec->single;
  char *p = (char *) prd_scratch(PRD_SCR_TILE,
                                 len * ((dbl ? sizeof(double) : 0) +
                                        (flt ? sizeof(float) : 0)));
  if (dbl) t->g = (double *) p;
  if (flt) t->gs = (float *) (p + (dbl ? len * sizeof(double) : 0));
}

/* the product at c (see prd_tile) */
static inline double tile_at(const prd_tile *t, size_t c) {
  double p = t->in_g ? t->g[c] : 0.0;
  if (t->last_in_gs) p += t->back * (double) t->gs[c];
  return p;
}

/* Squared distances of query row i (squared norm qn) to the reference rows
 * j0.. j0 + n - 1 (squared norms rn[0..n)) into out[0..n), clamped at 0;
 * nb is the tile's leading dimension. One vectorisable pass per case. */
PRD_CLONES
static void tile_row(const prd_tile *t, int nb, int i, int j0, int n,
                     double qn, const double *rn, double *out) {
  size_t c0 = (size_t) i * nb + j0;
  const double *g = t->g ? t->g + c0 : NULL;
  const float *gs = t->gs ? t->gs + c0 : NULL;
  double back = t->back;
  if (t->in_g && t->last_in_gs) {
    for (int j = 0; j < n; j++) {
      double v = qn + rn[j] + (g[j] + back * (double) gs[j]);
      out[j] = v > 0.0 ? v : 0.0;
    }
  } else if (t->last_in_gs) {
    for (int j = 0; j < n; j++) {
      double v = qn + rn[j] + back * (double) gs[j];
      out[j] = v > 0.0 ? v : 0.0;
    }
  } else {
    for (int j = 0; j < n; j++) {
      double v = qn + rn[j] + g[j];
      out[j] = v > 0.0 ? v : 0.0;
    }
  }
}

/* ---- the BLAS's own threads ----------------------------------------- *
 *
 * A threaded BLAS runs its own thread pool next to the engine's OpenMP
 * team. On two cores the two pools took turns badly: OpenBLAS's threads
 * spin (sched_yield) for a while after each product, during the OpenMP
 * selection that follows, and libgomp's threads spin during the products
 * (13% of a four-curve call at d = 64 went to sched_yield). When the BLAS
 * is OpenBLAS (found by its symbols at run time; no link-time dependency),
 * the engine therefore sets it to one thread for the duration of each tile
 * product and splits the product itself among its OpenMP team, one block
 * of query rows per thread; the BLAS's thread count is restored right
 * after (so an interrupt between tiles leaves it as it was). Any other
 * BLAS is called as before, from the main thread. The products are the
 * same sums either way up to rounding, which the exact decisions absorb:
 * results do not change. */
#if defined(__unix__) || defined(__APPLE__)
#include <dlfcn.h>
#define PRD_HAVE_DLSYM 1
#endif

typedef void (*blas_set_fn)(int);
typedef int (*blas_get_fn)(void);
static blas_set_fn blas_set = NULL;
static blas_get_fn blas_get = NULL;
static int blas_looked = 0;

/* main thread only: the BLAS's thread count before, after setting it to
 * one; 0 when the BLAS offers no such control */
static int blas_serial_begin(void) {
#ifdef PRD_HAVE_DLSYM
  if (!blas_looked) {
    blas_looked = 1;
    void *s = dlsym(RTLD_DEFAULT, "openblas_set_num_threads");
    void *g = dlsym(RTLD_DEFAULT, "openblas_get_num_threads");
    if (s && g) {
      blas_set = (blas_set_fn) s;
      blas_get = (blas_get_fn) g;
    }
  }
#endif
  if (!blas_set) return 0;
  int old = blas_get();
  if (old < 1) return 0;
  if (old != 1) blas_set(1);
  return old;
}

static void blas_serial_end(int old) {
  if (blas_set && old > 1) blas_set(old);
}

/* .Call(ffi_blas_threads, n): the BLAS's thread count (NA when the
 * engine cannot control it: not OpenBLAS); n an integer sets it first and
 * the count before is returned (tests: the engine restores it). */
SEXP ffi_blas_threads(SEXP n) {
  int old = blas_serial_begin();
  if (old == 0) return Rf_ScalarInteger(NA_INTEGER);
  blas_serial_end(old);
  if (!Rf_isNull(n)) {
    int v = Rf_asInteger(n);
    if (v == NA_INTEGER || v < 1) Rf_error("`n` must be a positive count");
    blas_set(v);
  }
  return Rf_ScalarInteger(old);
}

/* the products of query columns [c0, c0 + na) of the tile (see
 * tile_products()); the tile's flags are set by the caller */
static void tile_part(const prd_prec *prec, int nb, int na, int d,
                      const void *B, int ldb, const void *A, int lda,
                      int c0, prd_tile *t) {
  if (na <= 0) return;
  const char *tn = "N", *tt = "T";
  size_t off = (size_t) c0 * nb;
#ifdef PRD_HAVE_SGEMM
  if (prec->single) {
    float alpha = -2.0f, beta = 0.0f;
    double back = 1.0 / (prec->scale * prec->scale);
    const float *Bf = (const float *) B, *Af = (const float *) A + c0;
    double *g = t->g ? t->g + off : NULL;
    float *gs = t->gs + off;
    if (d <= K_BLOCK) {
      F77_CALL(sgemm)(tn, tt, &nb, &na, &d, &alpha, Bf, &ldb, Af, &lda,
                      &beta, gs, &nb FCONE FCONE);
      return;
    }
    /* several blocks: R_CHUNK reference rows at a time, so that the
     * chunk's float and double products stay in cache while its blocks
     * are summed (over the whole tile, each block's pass went to memory:
     * 20 bytes a pair; 6% of a four-curve call at 10,000 x 2,048) */
    for (int j0 = 0; j0 < nb; j0 += R_CHUNK) {
      int jb = nb - j0 < R_CHUNK ? nb - j0 : R_CHUNK;
      for (int l0 = 0; l0 < d; l0 += K_BLOCK) {
        int kb = d - l0 < K_BLOCK ? d - l0 : K_BLOCK;
        /* the previous block, still in gs, goes to g first */
        if (l0 >= K_BLOCK) {
          for (int c = 0; c < na; c++) {
            double *gc = g + (size_t) c * nb + j0;
            const float *sc = gs + (size_t) c * nb + j0;
            if (l0 == K_BLOCK) {
              for (int j = 0; j < jb; j++) gc[j] = back * (double) sc[j];
            } else {
              for (int j = 0; j < jb; j++) gc[j] += back * (double) sc[j];
            }
          }
        }
        F77_CALL(sgemm)(tn, tt, &jb, &na, &kb, &alpha,
                        Bf + j0 + (size_t) l0 * ldb, &ldb,
                        Af + (size_t) l0 * lda, &lda, &beta, gs + j0, &nb
                        FCONE FCONE);
      }
    }
    return;
  }
#endif
  double alpha = -2.0, beta = 0.0;
  F77_CALL(dgemm)(tn, tt, &nb, &na, &d, &alpha, (const double *) B, &ldb,
                  (const double *) A + c0, &lda, &beta, t->g + off,
                  &nb FCONE FCONE);
}

/* The one product of the engine: the tile t (nb x na, leading dimension
 * nb) of -2 B A', B and A column-major blocks of translated rows (leading
 * dimensions ldb, lda) in the precision prec: dgemm into g, or one sgemm
 * per block of K_BLOCK coordinates (see prd_tile), the products scaled
 * back by 1 / scale^2 (a power of two: exact). Called outside any
 * parallel region; with OpenBLAS, split among up to `threads` threads
 * (above), else one call whose threads are the BLAS's. */
static void tile_products(const prd_prec *prec, int nb, int na, int d,
                          const void *B, int ldb, const void *A, int lda,
                          prd_tile *t, int threads) {
  int use = 1, old = 0;
  if (threads > 1) {
    use = prd_threads_for((int64_t) nb * na * (1 + d / 32), threads);
    if (use > na) use = na;
    if (use > 1) {
      old = blas_serial_begin();
      if (old == 0) use = 1;
    }
  }
  if (use <= 1) {
    tile_part(prec, nb, na, d, B, ldb, A, lda, 0, t);
  } else {
#ifdef _OPENMP
#pragma omp parallel num_threads(use)
    {
      int me = omp_get_thread_num(), team = omp_get_num_threads();
      int c0 = (int) ((int64_t) na * me / team);
      int c1 = (int) ((int64_t) na * (me + 1) / team);
      tile_part(prec, nb, c1 - c0, d, B, ldb, A, lda, c0, t);
    }
#else
    tile_part(prec, nb, na, d, B, ldb, A, lda, 0, t);
#endif
    blas_serial_end(old);
  }
  t->in_g = !prec->single || d > K_BLOCK;
  t->last_in_gs = prec->single;
  t->back = prec->single ? 1.0 / (prec->scale * prec->scale) : 1.0;
}

void prd_ref_init(prd_ref *ref, const prd_rows *rows, int d,
                  const double *centre, const prd_prec *prec, int slot) {
  int n = rows->n;
  size_t len = (size_t) (n > 0 ? n : 1) * (d > 0 ? d : 1);
  double *nrm = (double *) R_alloc(n > 0 ? n : 1, sizeof(double));
  int threads = prd_threads_get();
  /* The exact recomputations read a reference row as given: in the
   * column-major sources a stride of a whole column per coordinate, a
   * cache miss each (10% of a four-curve call at d = 2,048, about 4 per
   * row in single precision). For d >= 16 the rows are also copied
   * row-major, in the slot that goes with the reference's. */
  double *rm = NULL;
  if (d >= 16 && n > 0 && (slot == PRD_SCR_REF_A || slot == PRD_SCR_REF_B))
    rm = (double *) prd_scratch(
      slot == PRD_SCR_REF_A ? PRD_SCR_ROW_A : PRD_SCR_ROW_B,
      (size_t) n * d * sizeof(double));
  ref->prec = *prec;
  ref->data = NULL;
  ref->fdata = NULL;
  if (prec->single) {
    float *Ff = (float *) prd_scratch(slot, len * sizeof(float));
    gather(rows, 0, n, d, centre, prec->scale, NULL, Ff, nrm, rm, threads);
    ref->fdata = Ff;
  } else {
    double *F = (double *) prd_scratch(slot, len * sizeof(double));
    gather(rows, 0, n, d, centre, 1.0, F, NULL, nrm, rm, threads);
    ref->data = F;
  }
  double mx = 0.0;
  for (int i = 0; i < n; i++) if (nrm[i] > mx) mx = nrm[i];
  ref->n = n;
  ref->d = d;
  ref->norm2 = nrm;
  ref->norm2_max = mx;
  ref->tol_rel = tol_rel_for(prec->single, d);
  /* 16 d eta, eta = 2^-150 the float underflow unit, in the units of the
   * rows (scaled back by 1 / scale^2) */
  ref->tol_abs = prec->single ?
    (double) d * ldexp(1.0, -146) / (prec->scale * prec->scale) : 0.0;
  ref->orig = *rows;
  if (rm) {
    ref->orig.rm = rm;
    ref->orig.rm_d = d;
  }
}

/* ---- exact comparisons --------------------------------------------- */

static inline double prd_tol(const prd_ref *ref, const prd_row *row,
                             double t) {
  return 1e-9 * t + ref->tol_rel * (row->q_norm2 + ref->norm2_max) +
         ref->tol_abs;
}

/* Exact squared distance between the query and reference row j, from the
 * rows as given; stored in d2[j] and flagged. */
static double prd_exact(const prd_ref *ref, prd_row *row, int j) {
  size_t rs;
  const double *r = rows_at(&ref->orig, j, &rs);
  const double *q = row->q0;
  size_t qs = row->q0_stride;
  double s = 0.0;
  for (int l = 0; l < ref->d; l++) {
    double u = q[(size_t) l * qs] - r[(size_t) l * rs];
    s += u * u;
  }
  if (!row->exact[j]) {
    row->approx[j] = row->d2[j];
    row->exact[j] = 1;
    row->touched[row->n_touched++] = j;
  }
  row->d2[j] = s;
  row->n_exact += 1.0;
  return s;
}

static inline int within(const prd_ref *ref, prd_row *row, int j, double t,
                         double tol, int closed) {
  double v = row->d2[j];
  if (v < t - tol) return 1;
  if (v > t + tol) return 0;
  if (!row->exact[j]) v = prd_exact(ref, row, j);
  return closed ? (v <= t) : (v < t);
}

void prd_row_self(prd_row *row, int skip) {
  row->d2[skip] = 0.0;
  row->approx[skip] = 0.0;
  if (!row->exact[skip]) {
    row->exact[skip] = 1;
    row->touched[row->n_touched++] = skip;
  }
}

/* ---- bounded max-heap selection of the k smallest values ------------- */

static inline void sift_down(double *h, int n, int i) {
  double v = h[i];
  for (;;) {
    int c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && h[c + 1] > h[c]) c++;
    if (h[c] <= v) break;
    h[i] = h[c];
    i = c;
  }
  h[i] = v;
}

/* The kmax smallest values of v[lo..hi) but `skip`, as a max-heap in h
 * (h[0] the largest of them); returns how many (< kmax if the range is
 * short). */
static int select_heap(const double *v, int lo, int hi, int skip, int kmax,
                       double *h) {
  int n = 0, j = lo;
  for (; j < hi && n < kmax; j++) {
    if (j == skip) continue;
    h[n++] = v[j];
  }
  for (int i = n / 2 - 1; i >= 0; i--) sift_down(h, n, i);
  /* blocks of 8 values are first tested together (vectorisable): most
   * blocks hold nothing below the heap's top */
  double top = n > 0 ? h[0] : R_NegInf;
  for (; j + 8 <= hi; j += 8) {
    double any = 0.0; /* a double sum: vectorises (see prd_count()) */
    for (int u = 0; u < 8; u++) any += v[j + u] < top ? 1.0 : 0.0;
    if (any == 0.0) continue;
    for (int u = 0; u < 8; u++) {
      if (v[j + u] < h[0] && j + u != skip) {
        h[0] = v[j + u];
        sift_down(h, n, 0);
      }
    }
    top = h[0];
  }
  for (; j < hi; j++) {
    if (n > 0 && v[j] < h[0] && j != skip) {
      h[0] = v[j];
      sift_down(h, n, 0);
    }
  }
  return n;
}

/* Two passes over the row: the kmax smallest values (bounded heap) give
 * T, their largest; then every value within T + tol(T) is a candidate
 * (typically kmax and a few). Windows, exact recomputations and the
 * selections after them run on the candidates only: values outside lie
 * above T + tol(T), so above every radius (a recomputation moves a value
 * by less than half the window, so the radii stay at most T + tol(T) / 2)
 * and never in a selection's k smallest. The radii are those a selection
 * over the whole row would give. */
static double quickselect(double *v, int *jx, int n, int k);

/* the k-th smallest (0-based k) of a[0..n), by quickselect (a reordered) */
static double qselect(double *a, int n, int k) {
  return quickselect(a, NULL, n, k);
}

/* the ks-th smallest of a[0..n) (ks increasing, 1-based) into out */
static void select_ks(double *a, int n, const int *ks, int nk, double *out) {
  for (int kk = 0; kk < nk; kk++) out[kk] = qselect(a, n, ks[kk] - 1);
}

/* The exact radii from the candidates cand[0..nc): recompute the values
 * within the window of each radius, select again, until nothing moves. */
static void kth_select(const prd_ref *ref, prd_row *row, const int *cand,
                       int nc, const int *ks, int nk, double *out) {
  double *d2 = row->d2, *cv = row->cval;
  for (int pass = 0; pass < 5; pass++) {
    for (int c = 0; c < nc; c++) cv[c] = d2[cand[c]];
    select_ks(cv, nc, ks, nk, out);
    if (pass == 4) break;
    int redo = 0;
    for (int kk = 0; kk < nk; kk++) {
      double t = out[kk];
      double tol = prd_tol(ref, row, t);
      for (int c = 0; c < nc; c++) {
        int j = cand[c];
        double v = d2[j];
        if (v < t - tol || v > t + tol || row->exact[j]) continue;
        prd_exact(ref, row, j);
        redo = 1;
      }
    }
    if (!redo) break;
  }
}

/* The candidates of a row range whose values are at most tau, in index
 * order, `skip` left out (branch-free: the index is written, kept when
 * the value is in); returns their count. */
PRD_CLONES
static int kth_filter(const double *d2, int lo, int hi, int skip, double tau,
                      int *cand) {
  int nc = 0;
  for (int j = lo; j < hi; j++) {
    cand[nc] = j;
    nc += (d2[j] <= tau) & (j != skip);
  }
  return nc;
}

/* Sampled threshold: on long ranges (n >= 8 kmax), tau = an order
 * statistic of a strided sample of the range, chosen so that about twice
 * kmax values lie below it; one filter pass keeps the values <= tau. When
 * at least kmax are kept, their kmax-th smallest is the range's T, and
 * when T + tol(T) <= tau every value within the window is among them: the
 * same candidates, in the same order, as the heap's two passes. Otherwise
 * (a sample far off, many ties) the heap decides. On 10,000 values and
 * kmax = 100 this took the selection from a fifth of a four-curve call at
 * d = 64 to a twentieth. */
int prd_kth(const prd_ref *ref, prd_row *row, int lo, int hi, int skip,
            const int *ks, int nk, double *heap, double *out) {
  int kmax = ks[nk - 1], n = hi - lo, nc = -1;
  double *d2 = row->d2, *cv = row->cval;
  int *cand = row->cand + lo;
  if (n >= 8 * kmax && n >= 256) {
    /* about 2 sqrt(n) samples: the selections cost S + 2 kmax + 4 n / S */
    int S = (int) (2.0 * sqrt((double) n));
    if (S > 1024) S = 1024;
    int stride = n / S;
    for (int u = 0; u < S; u++) cv[u] = d2[lo + (size_t) u * stride];
    int q = (int) ceil(2.0 * kmax * S / n) + 4;
    if (q > S) q = S;
    double tau = qselect(cv, S, q - 1);
    int m = kth_filter(d2, lo, hi, skip, tau, cand);
    if (m >= kmax) {
      for (int c = 0; c < m; c++) cv[c] = d2[cand[c]];
      double T = qselect(cv, m, kmax - 1), bound = T + prd_tol(ref, row, T);
      if (bound <= tau) {
        nc = 0;
        for (int c = 0; c < m; c++) {
          int j = cand[c];
          cand[nc] = j;
          nc += d2[j] <= bound;
        }
      }
    }
  }
  if (nc < 0) {
    select_heap(d2, lo, hi, skip, kmax, heap);
    double T = heap[0], bound = T + prd_tol(ref, row, T);
    nc = kth_filter(d2, lo, hi, skip, bound, cand);
  }
  kth_select(ref, row, cand, nc, ks, nk, out);
  return nc;
}

/* The radii over [lo1, hi1) u [lo2, hi2) (adjacent or not) from the
 * candidates prd_kth() left for each range (nc1 at row->cand + lo1, nc2 at
 * row->cand + lo2), without a pass over the row. The kmax smallest values
 * of the union are among the kmax smallest of each range; a value left out
 * of a range's candidates lies above that range's T + tol(T), so its exact
 * value is above the range's exact kmax-th radius and never among the
 * union's kmax smallest, nor within the window of a radius the selection
 * over the whole union would compute: the radii are those of prd_kth()
 * over the union. */
void prd_kth_union(const prd_ref *ref, prd_row *row, int lo1, int nc1,
                   int lo2, int nc2, const int *ks, int nk, double *out) {
  int kmax = ks[nk - 1];
  int *c1 = row->cand + lo1, *c2 = row->cand + lo2, *cand, nc = nc1 + nc2;
  /* one list at the lower range's place (the higher range's candidates
   * move down; a range holds at least its candidates, so nothing of the
   * other list is overwritten) */
  if (lo1 <= lo2) {
    cand = c1;
    memmove(c1 + nc1, c2, (size_t) nc2 * sizeof(int));
  } else {
    cand = c2;
    memmove(c2 + nc2, c1, (size_t) nc1 * sizeof(int));
  }
  double *d2 = row->d2, *cv = row->cval;
  for (int c = 0; c < nc; c++) cv[c] = d2[cand[c]];
  double T = qselect(cv, nc, kmax - 1), bound = T + prd_tol(ref, row, T);
  int m = 0;
  for (int c = 0; c < nc; c++) {
    int j = cand[c];
    cand[m] = j;
    m += d2[j] <= bound;
  }
  kth_select(ref, row, cand, m, ks, nk, out);
}

/* ---- the counting passes -------------------------------------------- *
 *
 * Each counts, over d2[0..n), the values surely below a threshold
 * (v < t - tol) and those up to the top of its window (v <= t + tol):
 * when the two agree no value is in the window and the count is final.
 * Written with GCC's vector extensions (also clang's): a compare of 4
 * doubles gives 4 lanes of -1 or 0, summed in 4 integer accumulators;
 * with AVX2 one instruction each (PRD_CLONES). A plain sum over the
 * compares vectorises the compare only: GCC keeps the order of floating
 * point sums, and an integer sum over a double compare does not vectorise
 * at all (a chain of scalar additions took 16% of a four-curve call). */
#if defined(__GNUC__)
typedef double prd_v4d __attribute__((vector_size(32)));
typedef long long prd_v4l __attribute__((vector_size(32)));
#define PRD_VEC 1
#endif

/* a fixed threshold window [below, above] */
PRD_CLONES
static void count_window(const double *d2, int n, double below, double above,
                         int64_t *in, int64_t *upto) {
  int64_t a = 0, b = 0;
  int j = 0;
#ifdef PRD_VEC
  prd_v4l va = {0, 0, 0, 0}, vb = {0, 0, 0, 0};
  prd_v4d lo = {below, below, below, below}, hi = {above, above, above, above};
  for (; j + 4 <= n; j += 4) {
    prd_v4d x;
    memcpy(&x, d2 + j, sizeof x);
    va += (x < lo);
    vb += (x <= hi);
  }
  a = -(va[0] + va[1] + va[2] + va[3]);
  b = -(vb[0] + vb[1] + vb[2] + vb[3]);
#endif
  for (; j < n; j++) {
    a += d2[j] < below;
    b += d2[j] <= above;
  }
  *in = a;
  *upto = b;
}

/* a threshold per value: t[j] with the window 1e-9 t[j] + tol0 */
PRD_CLONES
static void count_window_each(const double *d2, const double *t, int n,
                              double tol0, int64_t *in, int64_t *upto) {
  int64_t a = 0, b = 0;
  int j = 0;
#ifdef PRD_VEC
  prd_v4l va = {0, 0, 0, 0}, vb = {0, 0, 0, 0};
  prd_v4d rel = {1e-9, 1e-9, 1e-9, 1e-9}, t0 = {tol0, tol0, tol0, tol0};
  for (; j + 4 <= n; j += 4) {
    prd_v4d x, tj;
    memcpy(&x, d2 + j, sizeof x);
    memcpy(&tj, t + j, sizeof tj);
    prd_v4d tol = rel * tj + t0;
    va += (x < tj - tol);
    vb += (x <= tj + tol);
  }
  a = -(va[0] + va[1] + va[2] + va[3]);
  b = -(vb[0] + vb[1] + vb[2] + vb[3]);
#endif
  for (; j < n; j++) {
    double tol = 1e-9 * t[j] + tol0;
    a += d2[j] < t[j] - tol;
    b += d2[j] <= t[j] + tol;
  }
  *in = a;
  *upto = b;
}

int prd_count(const prd_ref *ref, prd_row *row, int lo, int hi, double t,
              int closed) {
  double tol = prd_tol(ref, row, t), below = t - tol, above = t + tol;
  const double *d2 = row->d2;
  int64_t in, upto;
  count_window(d2 + lo, hi - lo, below, above, &in, &upto);
  int c = (int) in;
  if (upto == in) return c;
  for (int j = lo; j < hi; j++) {
    double v = d2[j];
    if (v >= below && v <= above) c += within(ref, row, j, t, tol, closed);
  }
  return c;
}

int prd_count_each(const prd_ref *ref, prd_row *row, int lo, int hi,
                   const double *t, int closed) {
  const double *d2 = row->d2;
  int64_t in, upto;
  count_window_each(d2 + lo, t, hi - lo, prd_tol(ref, row, 0.0), &in, &upto);
  if (upto == in) return (int) in;
  int c = 0;
  for (int j = lo; j < hi; j++) {
    double tj = t[j - lo];
    c += within(ref, row, j, tj, prd_tol(ref, row, tj), closed);
  }
  return c;
}

void prd_scatter(const prd_ref *ref, prd_row *row, int lo, int hi, double t,
                 int closed, int *acc) {
  double tol = prd_tol(ref, row, t);
  for (int j = lo; j < hi; j++) acc[j] += within(ref, row, j, t, tol, closed);
}

/* r = 0 is the limit r -> 0: tau = 1 at distance 0, else 0. Terms are
 * decided exactly (inside the ball or not, zero distance or not), and
 * every term's value comes from the exact distance (the pairs in a ball
 * are recomputed): so the sum does not depend on the precision of the
 * products, nor on which other quantities (radii for which k) the call
 * computes. */
double prd_log_tau_sum(const prd_ref *ref, prd_row *row, int lo, int hi,
                       double radius) {
  double r2 = radius * radius, s = 0.0;
  double tol0 = prd_tol(ref, row, 0.0);
  if (radius == 0.0) {
    for (int j = lo; j < hi; j++) {
      double a = row->exact[j] ? row->approx[j] : row->d2[j];
      if (a > tol0) continue;
      double v = row->exact[j] ? row->d2[j] : prd_exact(ref, row, j);
      if (v == 0.0) return R_NegInf;
    }
    return 0.0;
  }
  double tol = prd_tol(ref, row, r2);
  for (int j = lo; j < hi; j++) {
    double a = row->exact[j] ? row->approx[j] : row->d2[j];
    if (a > r2 + tol) continue;
    double v = row->exact[j] ? row->d2[j] : prd_exact(ref, row, j);
    if (v >= r2) continue;
    s += log1p(-(1.0 - sqrt(v) / radius));
  }
  return s;
}

/* ---- user interrupts and progress ---------------------------------- */

static void check_interrupt_fn(void *dummy) {
  (void) dummy;
  R_CheckUserInterrupt();
}

SEXP prd_progress_new(double total, int show) {
  if (!show) return R_NilValue;
  SEXP bar = PROTECT(cli_progress_bar(total, R_NilValue));
  cli_progress_set_name(bar, "prdcurve distances");
  UNPROTECT(1);
  return bar;
}

void prd_progress_done(SEXP bar) {
  if (!Rf_isNull(bar)) cli_progress_done(bar);
}

/* ---- the tile loop ---------------------------------------------------- */

static int tile_rows(int n_ref, int n_query, int d) {
  /* The distance tile holds rows x n_ref values: near 64 MiB of doubles
   * where the products need long tiles (d > 256: the reference block is
   * read once per tile), 16 MiB below, where the passes over the tile
   * cost more than the products and a smaller tile stays in cache. */
  double budget = d > K_BLOCK ? 8388608.0 : 2097152.0;
  int m = (int) (budget / (n_ref > 0 ? n_ref : 1));
  if (m > 512) m = 512;
  if (m < 16) m = 16;
  if (m > n_query) m = n_query;
  return m > 0 ? m : 1;
}

/* Between tiles, on the main thread: raise a pending user interrupt as an
 * R interrupt condition (scratch memory is R_alloc'ed and goes with the
 * jump; the bar is closed first). */
static void tiles_interrupt(prd_progress *prog) {
  if (R_ToplevelExec(check_interrupt_fn, NULL)) return;
  prd_progress_done(prog->bar);
  SEXP nsname = PROTECT(Rf_mkString("rlang"));
  SEXP ns = PROTECT(R_FindNamespace(nsname));
  SEXP call = PROTECT(Rf_lang1(Rf_install("interrupt")));
  Rf_eval(call, ns);
  UNPROTECT(3);
  Rf_error("prdcurve: computation interrupted by the user.");
}

/* After a tile: record the thread team, advance the progress by `ticks`
 * rows, honour a user interrupt and update the bar */
static void tile_done(prd_progress *prog, int team, double ticks) {
  if (team > prog->team) prog->team = team;
  prog->ticks += ticks;
  tiles_interrupt(prog);
  if (!Rf_isNull(prog->bar) && CLI_SHOULD_TICK)
    cli_progress_set(prog->bar, prog->ticks);
}

void prd_tiles(const prd_ref *ref, const prd_query *qry, prd_visitor visit,
               void *ctx, int threads, prd_progress *prog) {
  int nr = ref->n, d = ref->d, nq = qry->rows.n;
  if (nq <= 0 || nr <= 0) return;
  int m = tile_rows(nr, nq, d);
  int nt = threads < 1 ? 1 : threads;
  const prd_prec *prec = &ref->prec;
  size_t qlen = (size_t) m * (d > 0 ? d : 1);
  double *qt = prec->single ? NULL :
    (double *) R_alloc(qlen, sizeof(double));
  float *qtf = prec->single ? (float *) R_alloc(qlen, sizeof(float)) : NULL;
  double *qn = (double *) R_alloc(m, sizeof(double));
  prd_tile tile;
  tile_alloc(&tile, prec, d, (size_t) m * nr);
  /* each thread's distance row: filled from the tile, then cache-resident
   * for the visitor's passes (in double precision the tile's own column) */
  double *rowbuf = prec->single ?
    (double *) R_alloc((size_t) nt * nr, sizeof(double)) : NULL;
  unsigned char *exact = (unsigned char *) R_alloc((size_t) nt * nr, 1);
  int *touched = (int *) R_alloc((size_t) nt * nr, sizeof(int));
  double *approx = (double *) R_alloc((size_t) nt * nr, sizeof(double));
  int *cand = (int *) R_alloc((size_t) nt * nr, sizeof(int));
  double *cval = (double *) R_alloc((size_t) nt * nr, sizeof(double));
  /* each thread's query row as given, contiguous: the exact
   * recomputations read it once per pair */
  double *q0 = (double *) R_alloc((size_t) nt * (d > 0 ? d : 1),
                                  sizeof(double));
  double *n_exact = (double *) R_alloc(nt, sizeof(double));
  memset(exact, 0, (size_t) nt * nr);

  for (int i0 = 0; i0 < nq; i0 += m) {
    int mm = nq - i0 < m ? nq - i0 : m;
    /* the tile's query rows, translated (column-major, leading dim. mm) */
    gather(&qry->rows, i0, mm, d, qry->centre, prec->scale, qt, qtf, qn,
           NULL, nt);
    /* g (nr x mm) = -2 * ref %*% t(qt): column i holds query i's products */
    tile_products(prec, nr, mm, d, block_at(ref, 0), nr,
                  prec->single ? (const void *) qtf : (const void *) qt, mm,
                  &tile, nt);
    int use = prd_threads_for((int64_t) mm * nr, nt);
    int team = 1;
    for (int t = 0; t < nt; t++) n_exact[t] = 0.0;
#ifdef _OPENMP
#pragma omp parallel num_threads(use)
#endif
    {
#ifdef _OPENMP
#pragma omp master
      team = omp_get_num_threads();
#pragma omp for schedule(dynamic, 1)
#endif
      for (int i = 0; i < mm; i++) {
        int tid = 0;
#ifdef _OPENMP
        tid = omp_get_thread_num();
#endif
        prd_row row;
        row.i = i0 + i;
        row.tid = tid;
        row.d2 = rowbuf ? rowbuf + (size_t) tid * nr :
                          tile.g + (size_t) i * nr;
        row.q_norm2 = qn[i];
        size_t qs;
        const double *qr = rows_at(&qry->rows, i0 + i, &qs);
        double *qc = q0 + (size_t) tid * d;
        for (int l = 0; l < d; l++) qc[l] = qr[(size_t) l * qs];
        row.q0 = qc;
        row.q0_stride = 1;
        row.exact = exact + (size_t) tid * nr;
        row.touched = touched + (size_t) tid * nr;
        row.cand = cand + (size_t) tid * nr;
        row.cval = cval + (size_t) tid * nr;
        row.approx = approx + (size_t) tid * nr;
        row.n_touched = 0;
        row.n_exact = 0.0;
        tile_row(&tile, nr, i, 0, nr, qn[i], ref->norm2, row.d2);
        visit(ctx, ref, &row);
        for (int t = 0; t < row.n_touched; t++) row.exact[row.touched[t]] = 0;
        n_exact[tid] += row.n_exact;
      }
    }
    (void) use;
    for (int t = 0; t < nt; t++) prog->exact += n_exact[t];
    tile_done(prog, team, mm);
  }
}

/* ---- own-set radii: each unordered pair once ------------------------ *
 *
 * The k-NN radii of every row of a set in the set itself (self excluded
 * by index) need only the k smallest distances of each row, not the whole
 * row at once, so the products can be symmetric: the tile of rows
 * [i0, i0 + m) is multiplied with the rows [i0, n) only (one dgemm, the
 * upper triangle in blocks; n^2 d / 2 multiply-adds in all, not n^2 d).
 * A tile's products feed the tile's own rows (each scans its row segment,
 * one thread per row) and then the later rows (each scans its column of
 * the tile, one thread per row): every row's state is owned by one thread
 * at a time, and the result is the exact k-th distance, independent of the
 * order in which the values arrive and of the thread count.
 *
 * Per-row state: a buffer of candidates (approximate squared distance,
 * index) holding every value seen so far that is at most
 * bound = T + tol(T), T the kmax-th smallest value seen (the rounding
 * window of prd_tol()). A full buffer is compacted: T by quickselect, and
 * the values above the new bound are dropped. Values dropped, or never
 * admitted, exceed kmax smaller ones and lie above every window the
 * final selection can use (T only decreases), so the buffer finally holds
 * all the values prd_kth() would look at: the same exact recomputation
 * and selection then give the same radii. A row whose buffer is still
 * more than half full after a compaction (many near-ties) stops
 * collecting and is done again by the full-row engine, prd_tiles(). */

/* the full-row engine on some rows of a set: their k-NN radii in the
 * reference (the set itself when `self`: the row's own index skipped) */
typedef struct {
  const int *map;     /* query position -> row of the set */
  int self;
  const int *ks;
  int nk;
  double *heap;       /* threads x (kmax + nk) */
  double *out;        /* n x nk */
  int n;
} own_full_ctx;

static void own_full_visit(void *ctx, const prd_ref *ref, prd_row *row) {
  own_full_ctx *c = (own_full_ctx *) ctx;
  int kmax = c->ks[c->nk - 1], s = c->map[row->i];
  int skip = c->self ? s : -1;
  double *heap = c->heap + (size_t) row->tid * (kmax + c->nk);
  double *rr = heap + kmax;
  if (c->self) prd_row_self(row, s);
  prd_kth(ref, row, 0, ref->n, skip, c->ks, c->nk, heap, rr);
  for (int kk = 0; kk < c->nk; kk++)
    c->out[(size_t) s + (size_t) kk * c->n] = rr[kk];
}

/* the k-th smallest of v[0..n) (0-based k), by quickselect (v reordered,
 * jx alongside unless NULL) */
static double quickselect(double *v, int *jx, int n, int k) {
  int lo = 0, hi = n - 1;
  while (lo < hi) {
    double p = v[lo + (hi - lo) / 2];
    int a = lo, b = hi;
    while (a <= b) {
      while (v[a] < p) a++;
      while (v[b] > p) b--;
      if (a <= b) {
        double t = v[a]; v[a] = v[b]; v[b] = t;
        if (jx) { int u = jx[a]; jx[a] = jx[b]; jx[b] = u; }
        a++; b--;
      }
    }
    if (k <= b) hi = b;
    else if (k >= a) lo = a;
    else break;
  }
  return v[k];
}

/* Candidate buffers of the n rows of one set, whose values are squared
 * distances to the rows of a reference set (the set itself, or the other
 * set): nrm the rows' squared norms, nmax the reference's largest, so
 * that own_tol() is prd_tol() of those pairs. */
typedef struct {
  double *v;      /* n x cap candidate values */
  int *jx;        /* n x cap candidate indices */
  int *cnt;
  double *bound;
  unsigned char *over;
  const double *nrm;
  double nmax, tol_rel, tol_abs;
  int n, cap, kmax;
  const double *seed; /* each row's first bound (own_seed()), or NULL */
} own_buf;

/* Buffers for the rows of `me` (n_vals values each, from the rows of the
 * reference `ot`), in scratch slot `slot`: cap_min candidates per row (0:
 * the default), at least kmax + 2, and at most n_vals + 1 (a buffer that
 * can hold every value is never compacted). */
static void own_buf_init(own_buf *b, const prd_ref *me, const prd_ref *ot,
                         int n_vals, int kmax, int cap_min, int slot) {
  int n = me->n;
  b->n = n;
  b->kmax = kmax;
  b->cap = cap_min > 0 ? cap_min : 4 * kmax + 256;
  if (b->cap < kmax + 2) b->cap = kmax + 2;
  if (b->cap > n_vals + 1) b->cap = n_vals + 1;
  size_t nc = (size_t) n * b->cap;
  char *p = (char *) prd_scratch(slot, nc * (sizeof(double) + sizeof(int)));
  b->v = (double *) p;
  b->jx = (int *) (p + nc * sizeof(double));
  b->cnt = (int *) R_alloc(n, sizeof(int));
  b->bound = (double *) R_alloc(n, sizeof(double));
  b->over = (unsigned char *) R_alloc(n, 1);
  b->nrm = me->norm2;
  b->nmax = ot->norm2_max;
  b->tol_rel = ot->tol_rel;
  b->tol_abs = ot->tol_abs;
  b->seed = NULL;
  for (int i = 0; i < n; i++) {
    b->cnt[i] = 0;
    b->bound[i] = R_PosInf;
    b->over[i] = 0;
  }
}

static inline double own_tol(const own_buf *b, int i, double t) {
  return 1e-9 * t + b->tol_rel * (b->nrm[i] + b->nmax) + b->tol_abs;
}

static void own_compact(own_buf *b, int i) {
  double *v = b->v + (size_t) i * b->cap;
  int *jx = b->jx + (size_t) i * b->cap, n = b->cnt[i];
  double t = quickselect(v, jx, n, b->kmax - 1);
  double bd = t + own_tol(b, i, t);
  int m = 0;
  for (int c = 0; c < n; c++) {
    if (v[c] <= bd) {
      v[m] = v[c];
      jx[m] = jx[c];
      m++;
    }
  }
  b->cnt[i] = m;
  b->bound[i] = bd;
  if (m > b->cap / 2) {
    b->over[i] = 1;
    b->bound[i] = -1.0; /* admit nothing more */
  }
}

static inline void own_push(own_buf *b, int i, double x, int j) {
  int c = b->cnt[i];
  b->v[(size_t) i * b->cap + c] = x;
  b->jx[(size_t) i * b->cap + c] = j;
  b->cnt[i] = c + 1;
  if (c + 1 == b->cap) own_compact(b, i);
}

/* Row i of a tile (squared norm qn) to buffer row r: the values of tile
 * columns [0, n) (reference rows with squared norms cn, indices idx0..),
 * column `skip` left out (-1: none), through the per-thread row buffer
 * buf. The bound stays in a register: b->bound[] of neighbouring rows is
 * written by the other threads (a shared cache line). */
static void own_feed_row(own_buf *b, const prd_tile *t, int nb, int i,
                         int n, double qn, const double *cn, int r, int skip,
                         int idx0, double *buf) {
  tile_row(t, nb, i, 0, n, qn, cn, buf);
  double bd = b->bound[r];
  for (int j = 0; j < n; j++) {
    double v = buf[j];
    if (v <= bd && j != skip) {
      own_push(b, r, v, idx0 + j);
      bd = b->bound[r];
    }
  }
}

/* Columns [c0, c1) of a tile (leading dimension nb; tile rows 0..mm-1,
 * squared norms qn) to the buffer rows row0 + c: values qn[i] + cn[c] +
 * product, index idx0 + i. Read tile row by tile row, FEED_COLS columns
 * at a time (contiguous, where a column is strided by a whole row), the
 * rows' bounds in registers: each buffer row still gets its values in the
 * order of i, and a block of columns is fed by one thread. */
#define FEED_COLS 128
static void own_feed_cols(own_buf *b, const prd_tile *t, int nb, int mm,
                          const double *qn, const double *cn, int c0, int c1,
                          int row0, int idx0) {
  double bd[FEED_COLS], v[FEED_COLS];
  int nj = c1 - c0;
  for (int u = 0; u < nj; u++) bd[u] = b->bound[row0 + c0 + u];
  for (int i = 0; i < mm; i++) {
    tile_row(t, nb, i, c0, nj, qn[i], cn + c0, v);
    for (int u = 0; u < nj; u++) {
      if (v[u] <= bd[u]) {
        int r = row0 + c0 + u;
        own_push(b, r, v[u], idx0 + i);
        bd[u] = b->bound[r];
      }
    }
  }
}

/* One tile's products (nb x mm: tile rows i0.. i0 + mm - 1 with squared
 * norms qn, columns the rows col0.. of the reference, squared norms cn)
 * to candidate buffers, in one parallel region: each tile row pushes its
 * segment into bs (NULL: none; `self`: the column of the row itself, i,
 * left out), one thread per row; then the columns [c_from, nb) push into
 * bc (NULL: none), FEED_COLS at a time, one thread per block. rowbuf:
 * threads x nb doubles. Returns the thread team that ran. */
static int feed_tile(own_buf *bs, own_buf *bc, const prd_tile *t, int nb,
                     int mm, int i0, int col0, const double *qn,
                     const double *cn, int self, int c_from, double *rowbuf,
                     int nt) {
  int team = 1;
  int use = prd_threads_for((int64_t) mm * nb, nt);
#ifdef _OPENMP
#pragma omp parallel num_threads(use)
#endif
  {
    int tid = 0;
#ifdef _OPENMP
    tid = omp_get_thread_num();
#pragma omp master
    team = omp_get_num_threads();
#endif
    if (bs) {
#ifdef _OPENMP
#pragma omp for schedule(dynamic, 1)
#endif
      for (int i = 0; i < mm; i++)
        own_feed_row(bs, t, nb, i, nb, qn[i], cn, i0 + i, self ? i : -1,
                     col0, rowbuf + (size_t) tid * nb);
    }
    if (bc) {
      int nblk = (nb - c_from + FEED_COLS - 1) / FEED_COLS;
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
      for (int k = 0; k < nblk; k++) {
        int c0 = c_from + k * FEED_COLS;
        int c1 = nb - c0 < FEED_COLS ? nb : c0 + FEED_COLS;
        own_feed_cols(bc, t, nb, mm, qn, cn, c0, c1, col0, i0);
      }
    }
  }
  (void) use;
  return team;
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

/* prd_kth() on the candidates of row i of `me` (candidate indices are
 * rows of `ot`): recompute exactly every value within the window of a
 * radius, select again, until nothing changes. Returns the exact
 * recomputations, or -1 when a seeded bound turned out too low: it must
 * lie above the window of the row's kmax-th value, or values the
 * selection needs may never have been admitted (the row then goes to the
 * full-row engine). */
static double own_final(const prd_rows *me, const prd_rows *ot, int d,
                        own_buf *b, int i, const int *ks, int nk,
                        double *heap, unsigned char *ex, double *out) {
  double *v = b->v + (size_t) i * b->cap;
  const int *jx = b->jx + (size_t) i * b->cap;
  int n = b->cnt[i], kmax = ks[nk - 1];
  double n_exact = 0.0;
  double *cv = heap + kmax, *r = cv + b->cap;
  if (b->seed) {
    if (n < kmax) return -1.0;
    memcpy(cv, v, (size_t) n * sizeof(double));
    double T = qselect(cv, n, kmax - 1);
    if (T + own_tol(b, i, T) > b->seed[i]) return -1.0;
  }
  memset(ex, 0, (size_t) n);
  for (int pass = 0; pass < 5; pass++) {
    memcpy(cv, v, (size_t) n * sizeof(double));
    select_ks(cv, n, ks, nk, r);
    if (pass == 4) break;
    int redo = 0;
    for (int kk = 0; kk < nk; kk++) {
      double t = r[kk], tol = own_tol(b, i, t);
      for (int c = 0; c < n; c++) {
        if (ex[c] || v[c] < t - tol || v[c] > t + tol) continue;
        v[c] = pair_exact(me, i, ot, jx[c], d);
        ex[c] = 1;
        n_exact += 1.0;
        redo = 1;
      }
    }
    if (!redo) break;
  }
  for (int kk = 0; kk < nk; kk++)
    out[(size_t) i + (size_t) kk * b->n] = r[kk];
  return n_exact;
}

/* The exact radii of every row of `me` whose buffer held (out: n x nk),
 * from its candidates; exact recomputations added to prog->exact. Rows
 * whose seeded bound was too low are marked as overflowing. */
static void own_finish(const prd_rows *me, const prd_rows *ot, int d,
                       own_buf *b, const int *ks, int nk, int nt,
                       prd_progress *prog, double *out) {
  int n = b->n, kmax = ks[nk - 1];
  size_t hl = (size_t) kmax + b->cap + nk;
  double *heap = (double *) R_alloc((size_t) nt * hl, sizeof(double));
  unsigned char *ex = (unsigned char *) R_alloc((size_t) nt * b->cap, 1);
  double *n_exact = (double *) R_alloc(nt, sizeof(double));
  for (int t = 0; t < nt; t++) n_exact[t] = 0.0;
  int use = prd_threads_for((int64_t) n * kmax, nt);
#ifdef _OPENMP
#pragma omp parallel for num_threads(use) schedule(dynamic, 64)
#endif
  for (int i = 0; i < n; i++) {
    int tid = 0;
#ifdef _OPENMP
    tid = omp_get_thread_num();
#endif
    if (b->over[i]) continue;
    double e = own_final(me, ot, d, b, i, ks, nk, heap + (size_t) tid * hl,
                         ex + (size_t) tid * b->cap, out);
    if (e < 0.0) b->over[i] = 1;
    else n_exact[tid] += e;
  }
  (void) use;
  for (int t = 0; t < nt; t++) prog->exact += n_exact[t];
}

/* Rows of `rows` whose buffer overflowed (too many near-ties) or whose
 * seed was too low: their radii in `ref` (the set itself when `self`) by
 * the full-row engine. Their progress ticks are taken back: the bar
 * counts rows once. */
static void own_overflow(const prd_ref *ref, const prd_rows *rows,
                         const double *centre, const own_buf *b, int self,
                         const int *ks, int nk, int nt, prd_progress *prog,
                         double *out) {
  int n = rows->n, n_over = 0, kmax = ks[nk - 1];
  for (int i = 0; i < n; i++) n_over += b->over[i];
  if (n_over == 0) return;
  int *map = (int *) R_alloc(n_over, sizeof(int));
  int *qidx = (int *) R_alloc(n_over, sizeof(int));
  /* query rows: the same sources, the overflowing rows' indices; a query
   * position is below n0 when its row is */
  int q0 = 0;
  for (int i = 0, c = 0; i < n; i++) {
    if (!b->over[i]) continue;
    map[c] = i;
    qidx[c] = rows->idx[i];
    if (i < rows->n0) q0++;
    c++;
  }
  prd_rows qr = {{rows->src[0], rows->src[1]}, {rows->ld[0], rows->ld[1]},
                 qidx, n_over, q0};
  prd_query q = {qr, centre};
  own_full_ctx c = {map, self, ks, nk,
                    (double *) R_alloc((size_t) nt * (kmax + nk),
                                       sizeof(double)),
                    out, n};
  prd_tiles(ref, &q, own_full_visit, &c, nt, prog);
  prog->ticks -= n_over;
}

/* First bounds of the candidate buffers. With bound +inf a row admits
 * every value until its buffer first fills (4 kmax + 256 of them, each a
 * store to a cold line: most of the symmetric sweep's time at d = 64).
 * Instead each row of `me` starts from the q-th smallest of its distances
 * to a strided sample of S = 2 sqrt(n) rows of `ot` (itself left out when
 * `self`), q chosen so that about 2 kmax + 4 n / S values lie below it;
 * the sample's products cost S / n of the sweep's. A bound too low is
 * caught in own_final() and the row goes to the full-row engine: exact
 * either way. */
typedef struct {
  int stride, S, q, self;
  double *seed;
} own_seed_ctx;

static void own_seed_visit(void *ctx, const prd_ref *ref, prd_row *row) {
  own_seed_ctx *c = (own_seed_ctx *) ctx;
  (void) ref;
  int r = row->i, m = 0;
  double *v = row->cval;
  for (int j = 0; j < c->S; j++)
    if (!c->self || (int64_t) j * c->stride != r) v[m++] = row->d2[j];
  c->seed[r] = qselect(v, m, (c->q < m ? c->q : m) - 1);
}

/* Seeds b's rows (the rows `me`) from a sample of the rows `ot`, unless
 * the buffers' size is forced (tests) or the sets are short */
static void own_seed(own_buf *b, const prd_rows *me, const prd_rows *ot,
                     int self, int d, const double *centre,
                     const prd_prec *prec, int kmax, int cap_min, int threads,
                     prd_progress *prog) {
  int n = ot->n;
  /* above d = 512 the pushes are cheap next to the products and the
   * seed's gather of every row costs more than it saves (four curves at
   * 10,000 x 2,048: 0.1 s more per own-radius call; equal at d = 512,
   * 0.06 s less per call at 20,000 x 256) */
  if (cap_min > 0 || n < 8 * kmax || n < 256 || d > 512) return;
  int S = (int) (2.0 * sqrt((double) n));
  if (S > 1024) S = 1024;
  int stride = n / S;
  int *idx = (int *) R_alloc(S, sizeof(int));
  int n0 = 0;
  for (int j = 0; j < S; j++) {
    idx[j] = ot->idx[j * stride];
    n0 += j * stride < ot->n0;
  }
  prd_rows sub = {{ot->src[0], ot->src[1]}, {ot->ld[0], ot->ld[1]},
                  idx, S, n0};
  prd_ref sref;
  prd_ref_init(&sref, &sub, d, centre, prec, -1);
  double *seed = (double *) R_alloc(me->n, sizeof(double));
  int q = (int) ceil(2.0 * kmax * S / n) + 4;
  own_seed_ctx c = {stride, S, q, self, seed};
  prd_query qry = {*me, centre};
  double ticks = prog->ticks;
  prd_tiles(&sref, &qry, own_seed_visit, &c, threads, prog);
  prog->ticks = ticks;
  for (int i = 0; i < me->n; i++) b->bound[i] = seed[i];
  b->seed = seed;
}

void prd_own_radii(const prd_rows *rows, int d, const double *centre,
                   const prd_prec *prec, const int *ks, int nk, int threads,
                   int cap_min, prd_progress *prog, double *out) {
  int n = rows->n, kmax = ks[nk - 1];
  if (n <= 0) return;
  prd_ref ref;
  prd_ref_init(&ref, rows, d, centre, prec, PRD_SCR_REF_A);
  int nt = threads < 1 ? 1 : threads;
  own_buf b;
  own_buf_init(&b, &ref, &ref, n - 1, kmax, cap_min, PRD_SCR_OWN);
  own_seed(&b, rows, rows, 1, d, centre, prec, kmax, cap_min, nt, prog);

  int m = tile_rows(n, n, d);
  prd_tile tile;
  tile_alloc(&tile, prec, d, (size_t) m * n);
  double *rowbuf = (double *) R_alloc((size_t) nt * n, sizeof(double));
  const double *rn = ref.norm2;
  for (int i0 = 0; i0 < n; i0 += m) {
    int mm = n - i0 < m ? n - i0 : m, nc = n - i0;
    /* the tile (nc x mm) = -2 F[i0:n, ] F[i0:i0+mm, ]' : column i holds
     * row i0 + i's products with the rows i0.. n-1 */
    const void *Fi = block_at(&ref, i0);
    tile_products(prec, nc, mm, d, Fi, n, Fi, n, &tile, nt);
    /* the tile's rows: their segments; later rows: their columns */
    int team = feed_tile(&b, &b, &tile, nc, mm, i0, i0, rn + i0, rn + i0, 1,
                         mm, rowbuf, nt);
    tile_done(prog, team, mm);
  }

  /* exact radii from the candidates; rows with too many near-ties (or a
   * seed too low): the full-row engine */
  own_finish(&ref.orig, &ref.orig, d, &b, ks, nk, nt, prog, out);
  own_overflow(&ref, rows, centre, &b, 1, ks, nk, nt, prog, out);
}

/* ---- cross-set sweep: X_f x Y_f once, both sides fed ---------------- *
 *
 * Without a split, the scalar metrics need of the pairs (x, y) only
 * decisions against radii already known (own radii, fixed radii): no
 * selection in the other set. So each cross pair is computed once: a tile
 * of rows of A against all of B (one dgemm), then A's rows scan their
 * segments (one thread per row) and B's rows scan their column of the
 * tile (one thread per row, the tile's rows in order): every output is
 * owned by one thread and summed in a fixed order, so results do not
 * depend on the thread count. Decisions are exact as in prd_count(): a
 * pair within the rounding window of a threshold is recomputed from the
 * rows as given. */

/* One pair seen from one side: `me` owns the outputs (radii rm, counts
 * in_other for "me in the other's ball", other_in for "the other in my
 * ball", sum over the other's balls of radius R). Returns exact
 * recomputations. */
typedef struct {
  const double *r_me, *r_ot;  /* own radii (squared), column kk at kk * ld */
  size_t ld_me, ld_ot;
  int *in_ot, *ot_in;         /* counts, column kk at kk * ld_me */
  double *psum;
  double R, R2;               /* ppr radius of the other set's balls */
  double tol_rel, tol_abs, nmax_ot;
  const double *nrm_me;
} cross_side;

static double cross_visit(const cross_side *s, int me, int ot, double v,
                          const prd_rows *M, const prd_rows *O, int d,
                          int nk, int closed, int ipr, int cov, int ppr,
                          double *exc, int load) {
  /* exc: the pair's slot in the tile's cache of exact distances (-1: not
   * computed); the first side stores, the second loads */
  double ex = load ? *exc : -1.0, n_ex = 0.0;
  double tb = s->tol_rel * (s->nrm_me[me] + s->nmax_ot) + s->tol_abs;
#define CROSS_DECIDE(t, res)                                               \
  do {                                                                     \
    double t_ = (t), tol_ = 1e-9 * t_ + tb;                                \
    if (v < t_ - tol_) res = 1;                                            \
    else if (v > t_ + tol_) res = 0;                                       \
    else {                                                                 \
      if (ex < 0.0) { ex = pair_exact(M, me, O, ot, d); n_ex += 1.0; }     \
      res = closed ? (ex <= t_) : (ex < t_);                               \
    }                                                                      \
  } while (0)
  for (int kk = 0; kk < nk; kk++) {
    int res;
    if (ipr) {
      CROSS_DECIDE(s->r_ot[(size_t) ot + (size_t) kk * s->ld_ot], res);
      s->in_ot[(size_t) me + (size_t) kk * s->ld_me] += res;
    }
    if (cov) {
      CROSS_DECIDE(s->r_me[(size_t) me + (size_t) kk * s->ld_me], res);
      s->ot_in[(size_t) me + (size_t) kk * s->ld_me] += res;
    }
  }
#undef CROSS_DECIDE
  if (ppr) {
    /* as prd_log_tau_sum(): membership decided exactly, every term's
     * value from the exact distance */
    double r2 = s->R2, tol = 1e-9 * r2 + tb, tol0 = tb;
    if (s->R == 0.0) {
      if (v <= tol0) {
        if (ex < 0.0) { ex = pair_exact(M, me, O, ot, d); n_ex += 1.0; }
        if (ex == 0.0) s->psum[me] = R_NegInf;
      }
    } else if (v <= r2 + tol) {
      if (ex < 0.0) { ex = pair_exact(M, me, O, ot, d); n_ex += 1.0; }
      if (ex < r2) s->psum[me] += log1p(-(1.0 - sqrt(ex) / s->R));
    }
  }
  if (!load) *exc = ex;
  return n_ex;
}

#define CROSS_BLOCK 256

void prd_cross(const prd_rows *A, const prd_rows *B, int d,
               const double *centre, const prd_prec *prec,
               const prd_cross_spec *cs, int threads, prd_progress *prog) {
  int nA = A->n, nB = B->n, nk = cs->nk;
  if (nA <= 0 || nB <= 0 || !(cs->ipr || cs->cov || cs->ppr)) return;
  prd_ref ra, rb;
  prd_ref_init(&ra, A, d, centre, prec, PRD_SCR_REF_A);
  prd_ref_init(&rb, B, d, centre, prec, PRD_SCR_REF_B);
  int nt = threads < 1 ? 1 : threads;
  cross_side sa = {cs->own_a, cs->own_b, (size_t) cs->ld_a, (size_t) cs->ld_b,
                   cs->ipr_a, cs->cov_a, cs->ppr_a, cs->R_b, cs->R_b * cs->R_b,
                   ra.tol_rel > rb.tol_rel ? ra.tol_rel : rb.tol_rel,
                   ra.tol_abs > rb.tol_abs ? ra.tol_abs : rb.tol_abs,
                   rb.norm2_max, ra.norm2};
  cross_side sb = {cs->own_b, cs->own_a, (size_t) cs->ld_b, (size_t) cs->ld_a,
                   cs->ipr_b, cs->cov_b, cs->ppr_b, cs->R_a, cs->R_a * cs->R_a,
                   sa.tol_rel, sa.tol_abs, ra.norm2_max, rb.norm2};
  /* A pair can change an output only when its distance is within a
   * window of one of its thresholds: the own radii of its two rows (every
   * k) and the two ppr radii. u_a[a], u_b[b] bound those of each row, so
   * a pair above max(u_a[a], u_b[b]) is decided "outside" for every
   * output without a visit (the visit would decide the same: every
   * threshold's window lies below the bound), and the visits, in the same
   * order as without the bound, leave every count and sum as they were. */
  double TB = (ra.tol_rel > rb.tol_rel ? ra.tol_rel : rb.tol_rel) *
                (ra.norm2_max + rb.norm2_max) +
              (ra.tol_abs > rb.tol_abs ? ra.tol_abs : rb.tol_abs);
  double P = 0.0;
  if (cs->ppr) {
    double pa = cs->R_a * cs->R_a, pb = cs->R_b * cs->R_b;
    P = pa > pb ? pa : pb;
  }
  double *u_a = (double *) R_alloc(nA, sizeof(double));
  double *u_b = (double *) R_alloc(nB, sizeof(double));
  for (int side = 0; side < 2; side++) {
    int n = side == 0 ? nA : nB;
    const double *own = side == 0 ? cs->own_a : cs->own_b;
    size_t ld = (size_t) (side == 0 ? cs->ld_a : cs->ld_b);
    double *u = side == 0 ? u_a : u_b;
    for (int i = 0; i < n; i++) {
      double t = P;
      if (cs->ipr || cs->cov)
        for (int kk = 0; kk < nk; kk++) {
          double r = own[(size_t) i + (size_t) kk * ld];
          if (r > t) t = r;
        }
      /* 1e-9 t + TB is the widest window; the factor over it covers the
       * rounding of the bound itself */
      u[i] = (t * (1.0 + 1e-9) + TB) * (1.0 + 1e-12) + DBL_MIN;
    }
  }
  int m = tile_rows(nB, nA, d);
  prd_tile tile;
  tile_alloc(&tile, prec, d, (size_t) m * nB);
  double *n_exact = (double *) R_alloc(nt, sizeof(double));
  int ipr = cs->ipr, cov = cs->cov, ppr = cs->ppr, closed = cs->closed;
  /* exact distances of the tile's pairs under the bound (written by A's
   * pass, read by B's; a pair's exact distance is the same from either
   * side: sum((x - y)^2) = sum((y - x)^2)) */
  double *exc = (double *) prd_scratch(PRD_SCR_EXACT,
                                       (size_t) m * nB * sizeof(double));
  double *vbuf = (double *) R_alloc((size_t) nt * (nB > CROSS_BLOCK ?
                                                   nB : CROSS_BLOCK),
                                    sizeof(double));
  for (int i0 = 0; i0 < nA; i0 += m) {
    int mm = nA - i0 < m ? nA - i0 : m;
    /* the tile (nB x mm) = -2 B A[i0:i0+mm, ]' */
    tile_products(prec, nB, mm, d, block_at(&rb, 0), nB, block_at(&ra, i0),
                  nA, &tile, nt);
    int team = 1;
    int use = prd_threads_for((int64_t) mm * nB, nt);
    for (int t = 0; t < nt; t++) n_exact[t] = 0.0;
#ifdef _OPENMP
#pragma omp parallel num_threads(use)
#endif
    {
      int tid = 0;
#ifdef _OPENMP
      tid = omp_get_thread_num();
#pragma omp master
      team = omp_get_num_threads();
#endif
      double *vb = vbuf + (size_t) tid * (nB > CROSS_BLOCK ? nB : CROSS_BLOCK);
#ifdef _OPENMP
#pragma omp for schedule(dynamic, 1)
#endif
      for (int i = 0; i < mm; i++) {
        int a = i0 + i;
        double ne = 0.0, ua = u_a[a];
        /* the row's distances (as the visit forms them), then the visits
         * of the pairs under the bound, in order */
        tile_row(&tile, nB, i, 0, nB, ra.norm2[a], rb.norm2, vb);
        double *ec = exc + (size_t) i * nB;
        for (int b = 0; b < nB; b++) {
          double v = vb[b];
          if (v > ua && v > u_b[b]) continue;
          ne += cross_visit(&sa, a, b, v, &ra.orig, &rb.orig, d, nk, closed,
                            ipr, cov, ppr, ec + b, 0);
        }
        n_exact[tid] += ne;
      }
      /* B's rows: a block of CROSS_BLOCK columns per thread, the tile's
       * rows in order (each row of B sees A's rows in increasing order,
       * so its sums are formed in the same order) */
#ifdef _OPENMP
#pragma omp for schedule(static, 1)
#endif
      for (int b0 = 0; b0 < nB; b0 += CROSS_BLOCK) {
        int nb = nB - b0 < CROSS_BLOCK ? nB - b0 : CROSS_BLOCK;
        double ne = 0.0;
        for (int i = 0; i < mm; i++) {
          int a = i0 + i;
          double ua = u_a[a];
          tile_row(&tile, nB, i, b0, nb, ra.norm2[a], rb.norm2 + b0, vb);
          for (int j = 0; j < nb; j++) {
            double v = vb[j];
            int b = b0 + j;
            if (v > ua && v > u_b[b]) continue;
            /* the same pairs pass the bound as in A's pass (the same v):
             * their exact distances, where A's visit computed them, are
             * in the cache */
            ne += cross_visit(&sb, b, a, v, &rb.orig, &ra.orig, d, nk,
                              closed, ipr, cov, ppr,
                              exc + (size_t) i * nB + b, 1);
          }
        }
        n_exact[tid] += ne;
      }
    }
    (void) use;
    for (int t = 0; t < nt; t++) prog->exact += n_exact[t];
    tile_done(prog, team, (double) mm * (nA + nB) / nA);
  }
}

/* ---- cross-set radii: X_f x Y_f once, both sides' radii -------------- *
 *
 * Without a split, the entropies need of the pairs (x, y) the k-NN radii
 * r_k(x; B) of A's rows and r_k(y; A) of B's rows: selections, which need
 * a row's k smallest values only, not its whole row at once. So each
 * cross pair is computed once, as in prd_cross(): a tile of rows of A
 * against all of B (one product), A's rows pushing their segments into
 * their candidate buffers (one thread per row), then B's rows pushing
 * their column of the tile (one thread per row): every row's buffer is
 * owned by one thread at a time. The buffers, their windows (the row's
 * squared norm plus the largest of the other set's: prd_tol() of these
 * pairs), the exact recomputation and the final selection are those of
 * prd_own_radii() without self-exclusion, so the radii are the exact k-th
 * distances, the same as the full-row engine's, whatever the thread
 * count; rows with too many near-ties go to the full-row engine against
 * the other set. */

void prd_cross_radii(const prd_rows *A, const prd_rows *B, int d,
                     const double *centre, const prd_prec *prec,
                     const int *ks, int nk, int threads, int cap_min,
                     prd_progress *prog, double *out_a, double *out_b) {
  int nA = A->n, nB = B->n, kmax = ks[nk - 1];
  int do_a = out_a != NULL && nA > 0, do_b = out_b != NULL && nB > 0;
  if ((do_a && nB < kmax) || (do_b && nA < kmax))
    Rf_error("k = %d is too large for the set sizes", kmax);
  if (!do_a && !do_b) return;
  prd_ref ra, rb;
  prd_ref_init(&ra, A, d, centre, prec, PRD_SCR_REF_A);
  prd_ref_init(&rb, B, d, centre, prec, PRD_SCR_REF_B);
  int nt = threads < 1 ? 1 : threads;
  own_buf ba, bb;
  if (do_a) {
    own_buf_init(&ba, &ra, &rb, nB, kmax, cap_min, PRD_SCR_OWN);
    own_seed(&ba, A, B, 0, d, centre, prec, kmax, cap_min, nt, prog);
  }
  if (do_b) {
    own_buf_init(&bb, &rb, &ra, nA, kmax, cap_min, PRD_SCR_OWN_B);
    own_seed(&bb, B, A, 0, d, centre, prec, kmax, cap_min, nt, prog);
  }

  int m = tile_rows(nB, nA, d);
  prd_tile tile;
  tile_alloc(&tile, prec, d, (size_t) m * nB);
  double *rowbuf = (double *) R_alloc((size_t) nt * nB, sizeof(double));
  for (int i0 = 0; i0 < nA; i0 += m) {
    int mm = nA - i0 < m ? nA - i0 : m;
    /* the tile (nB x mm) = -2 B A[i0:i0+mm, ]' : column i holds row i0 + i
     * of A's products with every row of B */
    tile_products(prec, nB, mm, d, block_at(&rb, 0), nB, block_at(&ra, i0),
                  nA, &tile, nt);
    /* A's rows: their segments; B's rows: their columns of the tile */
    int team = feed_tile(do_a ? &ba : NULL, do_b ? &bb : NULL, &tile, nB, mm,
                         i0, 0, ra.norm2 + i0, rb.norm2, 0, 0, rowbuf, nt);
    tile_done(prog, team, (double) mm * (nA + nB) / nA);
  }

  /* exact radii from the candidates; rows with too many near-ties: the
   * full-row engine against the other set */
  if (do_a) {
    own_finish(&ra.orig, &rb.orig, d, &ba, ks, nk, nt, prog, out_a);
    own_overflow(&rb, A, centre, &ba, 0, ks, nk, nt, prog, out_a);
  }
  if (do_b) {
    own_finish(&rb.orig, &ra.orig, d, &bb, ks, nk, nt, prog, out_b);
    own_overflow(&ra, B, centre, &bb, 0, ks, nk, nt, prog, out_b);
  }
}
