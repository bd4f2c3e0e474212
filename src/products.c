/* The one blocked distance engine: every estimator of prdcurve is a
 * reduction over the squared Euclidean distances between query rows and a
 * reference set. Distances are produced tile by tile (one dgemm, or sgemm
 * below, per tile of query rows against the whole reference set), so
 * memory is O(tile rows x reference rows), never O(n^2); the one tile
 * loop (prd_sweep(), sweep.c) hands each tile to a result handler, which
 * decides every comparison exactly (rowops.c, reservoir.c, decide.c).
 * Per-row results do not depend on the number of threads.
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
 * (the engine's one window function: prd_window(), engine.h)
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
 *    coordinates (one sgemm per block), and the nblk = ceil(d / K_BLOCK)
 *    block sums are added one after the other in float, by the engine
 *    itself (tile_part()). For any summation order, blocking or FMA
 *    inside a block of k coordinates a term meets at most k roundings
 *    there (its product and k - 1 additions), and at most nblk - 1 more
 *    in the sum of the blocks, so |fl32(x.y) - x.y| <= gamma_{k + nblk -
 *    1}(u_s) sum |x_l y_l| + 2 d eta (gamma_n(u) = n u / (1 - n u); eta
 *    for underflow in the products, sums of floats being exact where
 *    they underflow; this assumes the classical product, as every BLAS
 *    does);
 *  - together, since (1 + u_s)^2 (1 + gamma_k) - 1 <= gamma_{k+2} and
 *    2 |a^||b^| <= |a^|^2 + |b^|^2, the float part of v errs by at most
 *      gamma_{kb+nblk+1}(u_s) (|a^|^2 + |b^|^2) + 16 d eta / sigma^2,
 *    kb = min(d, K_BLOCK), in the units of the rows;
 *  - the double side: the rounding of a^, b^ as above (u D^2 + 2u(1 +
 *    u)(|a|^2 + |b|^2), D^2 <= 2(|a|^2 + |b|^2)), the norms (gamma_d(u)
 *    each) and the two additions forming v: at most gamma_{2d+8}(u)
 *    (|a|^2 + |b|^2).
 * The window is twice the sum (the factor 2 covers the (1 + O(u_s))
 * factors between |a|, |a^| and the computed norms):
 *   tol = 1e-9 t + tol_rel (|a^|^2 + max |b^|^2) + tol_abs,
 *   tol_rel = 2 (gamma_{kb+nblk+1}(u_s) + gamma_{2d+8}(u))
 *   (gamma_{kb+2nblk+1}(u_s) when OpenBLAS adds the blocks, below),
 *   tol_abs = 16 d eta / sigma^2 = d 2^-146 / sigma^2
 * (tol_rel about 3.1e-5 for d = 256 and 3.2e-5 for d = 2,048, against
 * 9e-13 in double for d = 2,048).
 * The recomputation is unchanged: in double, from the rows as given.
 * Blocks of K_BLOCK = 256 coordinates keep the window nearly independent
 * of d (one sgemm of depth d would give gamma_{d+2}(u_s): 2.4e-4 at d =
 * 2,048, and 13.0 recomputations per row instead of 5.2, bench/results.md)
 * and cost little: sgemm runs near its peak at depth 256, and adding a
 * block to the tile is one pass over a chunk in cache. Summing the blocks
 * in double would narrow the window by 3% at d = 2,048 (gamma_{kb+2}) but
 * needs a double tile beside the float one: three times the memory
 * traffic of the sum, and 9% of a four-curve call there. A sgemm with
 * beta = 1 adds the blocks without the pass, but in an order the BLAS
 * chooses: the reference BLAS adds each term to C in turn (a chain of d
 * roundings), OpenBLAS adds a pass of at least 128 coordinates summed in
 * registers (tol_rel_for(): the window 3% wider at d = 2,048). So with
 * OpenBLAS the blocks are added by its sgemm (the separate sum was 0.13x
 * of the products' time at 10,000 x 2,048, bench/blocked-products.R),
 * with any other BLAS by the engine.
 * Where the window is wide relative to the data (prd_prec_choose()), the
 * call runs in double. */
/* GCC 12 at R's default -O2 vectorises no loop here (its "very cheap"
 * cost model rejects them all; measured with -fopt-info-vec): the passes
 * over the distance rows below (tile_row(), prd_count(), the sample and
 * filter passes of the selection) are written for the vectoriser, and
 * this file asks for it with the "cheap" model. Other compilers: no-op. */
#if (defined(__unix__) || defined(__APPLE__)) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* dladdr() in glibc's dlfcn.h (blas_accumulates()) */
#endif
#include "engine.h"

/* Gather rows lo.. lo + n - 1 translated by centre (NULL: none),
 * column-major n x d: in double into out and/or, times `scale` and
 * rounded to float, into outf (either may be NULL), with their squared
 * norms, always from the double translated values, into norm2; and, when
 * rm is not NULL, the rows as given, row-major (n x d; with rm_panel in
 * panels of four rows, prd_rows). In blocks of 256
 * rows (the reads down a column and the writes of a block stay in cache),
 * the blocks shared among `threads` threads (each row's norm is summed by
 * one thread in the order of l: the same value whatever the count). */
/* columns ahead whose values of the row are prefetched: each column of a
 * block of rows is a new page of the column-major input, which the
 * hardware's prefetcher does not cross (at 10,000 x 2,048 the gathers'
 * samples fell from 5.1% to 3.7% of a four-curve call) */
#define GATHER_AHEAD 16
void gather(const prd_rows *rows, int lo, int n, int d,
                   const double *centre, double scale, double *out,
                   float *outf, double *norm2, double *rm, int rm_panel,
                   int threads) {
  int nblk = (n + 255) / 256;
  int use = prd_threads_for((int64_t) n * d / 4, threads < 1 ? 1 : threads);
#ifdef _OPENMP
#pragma omp parallel for num_threads(use) schedule(static)
#endif
  for (int b = 0; b < nblk; b++) {
    int i0 = b * 256, i1 = n - i0 < 256 ? n : i0 + 256;
    /* the block's rows and their stride, looked up once: one stride when
     * every row comes from one source (else st = 0 and each row's own) */
    const double *rp[256];
    size_t rs[256], st = 0;
    for (int i = i0; i < i1; i++) {
      rp[i - i0] = rows_at(rows, lo + i, &rs[i - i0]);
      st = i == i0 ? rs[0] : (rs[i - i0] == st ? st : 0);
    }
    for (int i = i0; i < i1; i++) norm2[i] = 0.0;
    for (int l = 0; l < d; l++) {
      double c = centre ? centre[l] : 0.0;
      double *col = out ? out + (size_t) l * n : NULL;
      float *colf = outf ? outf + (size_t) l * n : NULL;
      int ahead = l + GATHER_AHEAD < d;
      size_t off = (size_t) l * st, offa = (size_t) (l + GATHER_AHEAD) * st;
      for (int i = i0; i < i1; i++) {
        const double *r = rp[i - i0];
        size_t o = st ? off : (size_t) l * rs[i - i0];
#if defined(__GNUC__) || defined(__clang__)
        if (ahead)
          __builtin_prefetch(r + (st ? offa :
                                  (size_t) (l + GATHER_AHEAD) * rs[i - i0]));
#endif
        double x = r[o], v = x - c;
        if (col) col[i] = v;
        if (colf) colf[i] = (float) (scale * v);
        if (rm) {
          if (rm_panel) rm[(size_t) (i >> 2) * 4 * d + 4 * (size_t) l + (i & 3)] = x;
          else rm[(size_t) i * d + l] = x;
        }
        norm2[i] += v * v;
      }
    }
  }
  (void) use;
}

/* ---- the precision of the products ---------------------------------- */

#define U_DOUBLE (DBL_EPSILON / 2.0) /* 2^-53 */
#define U_SINGLE (FLT_EPSILON / 2.0) /* 2^-24 */
/* single precision: the products are summed in float over blocks of at
 * most K_BLOCK coordinates, and the blocks in float, in order */

/* gamma_n = n u / (1 - n u) */
static double gamma_n(double n, double u) { return n * u / (1.0 - n * u); }

/* The window's relative part (see the top of this file). blas_adds: the
 * coordinate blocks added to the tile by OpenBLAS's sgemm (beta = 1,
 * tile_part()). It sums each term in registers over a pass of Q >= 128
 * coordinates (every kernel's GEMM_Q) and adds the pass to the tile once,
 * so a term meets at most Q roundings in its pass and one per later
 * addition, of which a block of kb <= 256 coordinates makes at most two:
 * at most kb + 2 nblk - 1 in all, against kb + nblk - 1 in the engine's
 * own sum (3% wider at d = 2,048). */
static double tol_rel_for(int single, int d, int blas_adds) {
  if (single) {
    double kb = d < K_BLOCK ? d : K_BLOCK;
    double nblk = ceil((double) d / K_BLOCK);
    double later = blas_adds ? 2.0 * nblk : nblk;
    return 2.0 * (gamma_n(kb + later + 1.0, U_SINGLE) +
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
  if (tol_rel_for(1, d, 0) * max_norm2 > SINGLE_MAX_WINDOW * mean_norm2)
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


static int blas_accumulates(void);

/* main thread only: 1 when the float products' coordinate blocks are
 * added to the tile by the BLAS (tile_part()), in single precision above
 * K_BLOCK coordinates with OpenBLAS, unless options(prdcurve.blas_sum =
 * FALSE) */
static int blas_adds_blocks(const prd_prec *prec, int d) {
  return prec->single && d > K_BLOCK && prd_knobs.blas_sum &&
    blas_accumulates();
}

/* scratch for the tiles of nb x na products in the precision prec: in
 * double the tile g; in single the float tile gs and, above K_BLOCK
 * coordinates, the buffer gb of the coordinate blocks' products
 * (R_CHUNK x na floats) unless the BLAS adds the blocks itself
 * (accumulate; see tile_part()). Main thread only. */
void tile_alloc(prd_tile *t, const prd_prec *prec, int d, int nb, int na) {
  size_t len = (size_t) (nb > 0 ? nb : 1) * (na > 0 ? na : 1);
  int chunk = nb < R_CHUNK ? (nb > 0 ? nb : 1) : R_CHUNK;
  size_t blen = prec->single && d > K_BLOCK ?
    (size_t) chunk * (na > 0 ? na : 1) : 0;
  t->g = NULL;
  t->gs = NULL;
  t->gb = NULL;
  t->gb_ld = chunk;
  t->in_gs = 0;
  t->back = 1.0;
  t->accumulate = 0;
  if (!prec->single) {
    t->g = (double *) prd_scratch(PRD_SCR_TILE, len * sizeof(double));
    return;
  }
  if (blas_adds_blocks(prec, d)) {
    t->accumulate = 1;
    blen = 0;
  }
  float *p = (float *) prd_scratch(PRD_SCR_TILE, (len + blen) * sizeof(float));
  t->gs = p;
  if (blen) t->gb = p + len;
}


/* Squared distances of query row i (squared norm qn) to the reference rows
 * j0.. j0 + n - 1 (squared norms rn[0..n)) into out[0..n), clamped at 0;
 * nb is the tile's leading dimension. One vectorisable pass per case. */
PRD_CLONES
void tile_row(const prd_tile *t, int nb, int i, int j0, int n,
                     double qn, const double *rn, double *out) {
  size_t c0 = (size_t) i * nb + j0;
  const double *g = t->g ? t->g + c0 : NULL;
  const float *gs = t->gs ? t->gs + c0 : NULL;
  double back = t->back;
  if (t->in_gs) {
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
#if (defined(__unix__) || defined(__APPLE__)) && !defined(PRD_NO_BLAS_SERIAL)
#include <dlfcn.h>
#define PRD_HAVE_DLSYM 1
#endif

typedef void (*blas_set_fn)(int);
typedef int (*blas_get_fn)(void);
static blas_set_fn blas_set = NULL;
static blas_get_fn blas_get = NULL;
static int blas_looked = 0;

/* main thread only: find OpenBLAS's controls, once */
static void blas_lookup(void) {
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
}

/* main thread only: 1 when the BLAS is OpenBLAS, whose sgemm sums each
 * term of C += alpha A B' in registers over a pass of at most GEMM_Q
 * coordinates (at least 128 in every kernel) and adds the pass's sum to
 * C once (Goto's algorithm: C is never a running sum of single terms).
 * Then one sgemm per coordinate block with beta = 1 adds the blocks as
 * the engine's own float sum does, with the window of the header (see
 * tile_part()); any other BLAS gets the engine's sum. */
static int blas_accumulates(void) {
  static int found = -1;
  if (found >= 0) return found;
  blas_lookup();
  found = 0;
#if defined(PRD_HAVE_DLSYM) && defined(PRD_HAVE_SGEMM) && defined(RTLD_NOLOAD)
  /* and the sgemm the engine calls is OpenBLAS's: its library, or one it
   * depends on (Debian's libblas.so.3 of OpenBLAS wraps libopenblas.so.0),
   * has OpenBLAS's controls; not a BLAS linked beside an OpenBLAS that
   * some other library loaded */
  void *mm = NULL;
  void (*fn)(void) = (void (*)(void)) F77_NAME(sgemm);
  memcpy(&mm, &fn, sizeof mm);
  Dl_info b;
  if (blas_set && dladdr(mm, &b) && b.dli_fname) {
    void *h = dlopen(b.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
    if (h) {
      if (dlsym(h, "openblas_set_num_threads")) found = 1;
      dlclose(h);
    }
  }
#endif
  return found;
}

/* main thread only: the BLAS's thread count before, after setting it to
 * one; 0 when the BLAS offers no such control */
static int blas_serial_begin(void) {
  blas_lookup();
  if (!blas_set) return 0;
  int old = blas_get();
  if (old < 1) return 0;
  if (old != 1) blas_set(1);
  return old;
}

static void blas_serial_end(int old) {
  if (blas_set && old > 1) blas_set(old);
}

/* .Call(ffi_blas_adds): TRUE when the float products' coordinate blocks
 * are added by the BLAS's sgemm (OpenBLAS, blas_accumulates()) */
SEXP ffi_blas_adds(void) { return Rf_ScalarLogical(blas_accumulates()); }

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
    const float *Bf = (const float *) B, *Af = (const float *) A + c0;
    float *gs = t->gs + off;
    if (d <= K_BLOCK) {
      F77_CALL(sgemm)(tn, tt, &nb, &na, &d, &alpha, Bf, &ldb, Af, &lda,
                      &beta, gs, &nb FCONE FCONE);
      return;
    }
    /* several blocks: the first block's sgemm writes the tile. With
     * t->accumulate (OpenBLAS, blas_accumulates()) every other block's
     * sgemm adds to the tile (beta = 1); else it writes the buffer gb,
     * which is added to the tile in float (the order of the sums is the
     * engine's own: the window of products.c's header holds for any
     * BLAS), R_CHUNK reference rows at a time, so that the chunk's
     * products stay in cache while its blocks are summed. */
    float *gb = t->accumulate ? NULL : t->gb + (size_t) c0 * t->gb_ld;
    float one = 1.0f;
    int kb0 = K_BLOCK;
    /* with beta = 1 no sum pass needs the chunk in cache: one sgemm per
     * block over the whole tile (1.06x one sgemm of depth d in chunks
     * of R_CHUNK rows, 1.02x without, bench/blocked-products.R) */
    int chunk = gb ? R_CHUNK : (nb > 0 ? nb : 1);
    for (int j0 = 0; j0 < nb; j0 += chunk) {
      int jb = nb - j0 < chunk ? nb - j0 : chunk;
      F77_CALL(sgemm)(tn, tt, &jb, &na, &kb0, &alpha,
                      Bf + j0, &ldb, Af, &lda, &beta, gs + j0, &nb
                      FCONE FCONE);
      for (int l0 = K_BLOCK; l0 < d; l0 += K_BLOCK) {
        int kb = d - l0 < K_BLOCK ? d - l0 : K_BLOCK;
        if (!gb) {
          F77_CALL(sgemm)(tn, tt, &jb, &na, &kb, &alpha,
                          Bf + j0 + (size_t) l0 * ldb, &ldb,
                          Af + (size_t) l0 * lda, &lda, &one, gs + j0, &nb
                          FCONE FCONE);
          continue;
        }
        F77_CALL(sgemm)(tn, tt, &jb, &na, &kb, &alpha,
                        Bf + j0 + (size_t) l0 * ldb, &ldb,
                        Af + (size_t) l0 * lda, &lda, &beta, gb, &jb
                        FCONE FCONE);
        for (int c = 0; c < na; c++) {
          float *gc = gs + (size_t) c * nb + j0;
          const float *bc = gb + (size_t) c * jb;
          for (int j = 0; j < jb; j++) gc[j] += bc[j];
        }
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

/* For a sweep whose products are formed per column block inside its
 * parallel region (prd_sweep(), prd_handler.block_products): the BLAS's
 * thread count before, after setting it to one (0 when it has no such
 * control: not OpenBLAS), and its restoration. */
int prd_blas_serial_begin(void) { return blas_serial_begin(); }
void prd_blas_serial_end(int old) { blas_serial_end(old); }

/* A tile of one column block's products in mem (nb x na values of the
 * precision prec, the caller's): with d <= K_BLOCK in single precision
 * one sgemm into floats, in double one dgemm */
void tile_block_init(prd_tile *t, const prd_prec *prec, void *mem) {
  t->g = prec->single ? NULL : (double *) mem;
  t->gs = prec->single ? (float *) mem : NULL;
  t->gb = NULL;
  t->gb_ld = 0;
  t->accumulate = 0;
  t->in_gs = prec->single;
  t->back = prec->single ? 1.0 / (prec->scale * prec->scale) : 1.0;
}

/* The products of a block of nb columns (B, leading dimension ldb) with
 * na query rows (A, lda) into t (tile_block_init(); leading dimension
 * nb), by the calling thread: one product, no split among threads (the
 * caller runs one thread per block, the BLAS serial) */
void block_products(const prd_prec *prec, int nb, int na, int d,
                    const void *B, int ldb, const void *A, int lda,
                    prd_tile *t) {
  tile_part(prec, nb, na, d, B, ldb, A, lda, 0, t);
}

/* The one product of the engine: the tile t (nb x na, leading dimension
 * nb) of -2 B A', B and A column-major blocks of translated rows (leading
 * dimensions ldb, lda) in the precision prec: dgemm into g, or one sgemm
 * per block of K_BLOCK coordinates (see prd_tile), the products scaled
 * back by 1 / scale^2 (a power of two: exact). Called outside any
 * parallel region; with OpenBLAS, split among up to `threads` threads
 * (above), else one call whose threads are the BLAS's. */
void tile_products(const prd_prec *prec, int nb, int na, int d,
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
  t->in_gs = prec->single;
  t->back = prec->single ? 1.0 / (prec->scale * prec->scale) : 1.0;
}

void prd_ref_init(prd_ref *ref, const prd_rows *rows, int d, int rm_panel,
                  const double *centre, const prd_prec *prec, int slot) {
  int n = rows->n;
  size_t len = (size_t) (n > 0 ? n : 1) * (d > 0 ? d : 1);
  double *nrm = (double *) R_alloc(n > 0 ? n : 1, sizeof(double));
  int threads = prd_threads_get();
  /* The exact recomputations read a reference row as given: in the
   * column-major sources a stride of a whole column per coordinate, a
   * cache miss each (10% of a four-curve call at d = 2,048, about 4 per
   * row in single precision). For d >= 16 the rows are also copied
   * row-major, in the slot that goes with the reference's; with rm_panel
   * in panels of four rows (prd_rows), zero rows up to a multiple of 8:
   * the layout of decide.c's exact distances in high dimension, which
   * then read the one copy. */
  double *rm = NULL;
  if (d >= 16 && n > 0 && (slot == PRD_SCR_REF_A || slot == PRD_SCR_REF_B)) {
    size_t nr = rm_panel ? (size_t) (n + 7) / 8 * 8 : (size_t) n;
    rm = (double *) prd_scratch(
      slot == PRD_SCR_REF_A ? PRD_SCR_ROW_A : PRD_SCR_ROW_B,
      nr * d * sizeof(double));
    if (rm_panel)
      for (size_t i = (size_t) n; i < nr; i++)
        for (int l = 0; l < d; l++)
          rm[(i >> 2) * 4 * d + 4 * (size_t) l + (i & 3)] = 0.0;
  } else {
    rm_panel = 0;
  }
  ref->prec = *prec;
  ref->data = NULL;
  ref->fdata = NULL;
  if (prec->single) {
    float *Ff = (float *) prd_scratch(slot, len * sizeof(float));
    gather(rows, 0, n, d, centre, prec->scale, NULL, Ff, nrm, rm, rm_panel,
           threads);
    ref->fdata = Ff;
  } else {
    double *F = (double *) prd_scratch(slot, len * sizeof(double));
    gather(rows, 0, n, d, centre, 1.0, F, NULL, nrm, rm, rm_panel, threads);
    ref->data = F;
  }
  double mx = 0.0;
  for (int i = 0; i < n; i++) if (nrm[i] > mx) mx = nrm[i];
  ref->n = n;
  ref->d = d;
  ref->norm2 = nrm;
  ref->norm2_max = mx;
  ref->tol_rel = tol_rel_for(prec->single, d, blas_adds_blocks(prec, d));
  /* 16 d eta, eta = 2^-150 the float underflow unit, in the units of the
   * rows (scaled back by 1 / scale^2) */
  ref->tol_abs = prec->single ?
    (double) d * ldexp(1.0, -146) / (prec->scale * prec->scale) : 0.0;
  ref->orig = *rows;
  if (rm) {
    ref->orig.rm = rm;
    ref->orig.rm_d = d;
    ref->orig.rm_panel = rm_panel;
  }
}

