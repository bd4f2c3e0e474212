/* Scratch slots: the engine's largest buffers, kept between calls; and
 * the C library's freed memory kept for the length of a call. */
#include "engine.h"
#include <limits.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

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
#if defined(__linux__) && defined(MADV_HUGEPAGE) && !defined(PRD_NO_HUGEPAGE)
  if (bytes >= ((size_t) 4 << 20)) {
    void *p = NULL;
    size_t al = (size_t) 2 << 20;
    if (posix_memalign(&p, al, (bytes + al - 1) / al * al) != 0) return NULL;
    prd_advise_huge(p, (bytes + al - 1) / al * al);
    return p;
  }
#endif
  return malloc(bytes);
}

/* Ask for transparent huge pages on a large fresh buffer before it is
 * first written (Linux, where THP is in "madvise" mode): one page fault
 * per 2 MiB of its aligned interior instead of per 4 KiB. Results that R
 * allocates fresh at every call, and frees, are the engine-free part of
 * the faults: a 2,048 x 2,048 matrix of doubles (32 MiB, which glibc maps
 * afresh each time) took 107 ms to allocate and fill here, 20 ms so; the
 * fold fits at d = 2,048 form several a fold. A hint only; errors are
 * ignored, and below 4 MiB nothing is asked. */
void prd_advise_huge(void *p, size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE) && !defined(PRD_NO_HUGEPAGE)
  const uintptr_t huge = (uintptr_t) 2 << 20;
  if (!p || bytes < 2 * huge) return;
  uintptr_t a = ((uintptr_t) p + huge - 1) & ~(huge - 1);
  uintptr_t b = ((uintptr_t) p + bytes) & ~(huge - 1);
  if (b > a) (void) madvise((void *) a, (size_t) (b - a), MADV_HUGEPAGE);
#else
  (void) p;
  (void) bytes;
#endif
}

/* Rf_allocMatrix() of a numeric (REALSXP) or raw matrix, its data marked
 * for huge pages before any write (prd_advise_huge()) */
SEXP prd_alloc_matrix(SEXPTYPE type, int nrow, int ncol) {
  SEXP x = Rf_allocMatrix(type, nrow, ncol);
  size_t size = type == RAWSXP ? 1 : sizeof(double);
  void *p = type == RAWSXP ? (void *) RAW(x) : (void *) REAL(x);
  prd_advise_huge(p, (size_t) nrow * (size_t) ncol * size);
  return x;
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

/* .Call(ffi_memory_hold, on): with glibc, while a call runs (on = TRUE),
 * large blocks come from the heap and freed memory stays with the process
 * (M_MMAP_THRESHOLD 1 GiB, M_TRIM_THRESHOLD INT_MAX), so that R's d x d
 * results, formed and freed several times a fold (32 MiB each at d =
 * 2,048), reuse memory already faulted in instead of mapping fresh pages
 * each time (scratch_alloc()'s faults); on = FALSE gives the free memory
 * back (malloc_trim()) and sets the two thresholds to the values glibc's
 * own adjustment reaches once a large block has been freed (32 MiB and
 * 64 MiB: after mallopt() it adjusts no more). Returns whether memory is
 * held; elsewhere than glibc nothing is done (FALSE). */
#if defined(__GLIBC__) && defined(M_MMAP_THRESHOLD) && defined(M_TRIM_THRESHOLD)
#define PRD_HAVE_MALLOPT 1
#endif
static int mem_held = 0;

void prd_memory_release(void) {
#ifdef PRD_HAVE_MALLOPT
  if (mem_held) {
    (void) mallopt(M_TRIM_THRESHOLD, 64 << 20);
    (void) mallopt(M_MMAP_THRESHOLD, 32 << 20);
    (void) malloc_trim(0);
  }
#endif
  mem_held = 0;
}

SEXP ffi_memory_hold(SEXP on) {
  if (Rf_asLogical(on) != TRUE) {
    prd_memory_release();
  } else if (!mem_held) {
#ifdef PRD_HAVE_MALLOPT
    int a = mallopt(M_MMAP_THRESHOLD, 1 << 30);
    int b = mallopt(M_TRIM_THRESHOLD, INT_MAX);
    /* (either set: release() sets both back) */
    if (a == 1 || b == 1) mem_held = 1;
#endif
  }
  return Rf_ScalarLogical(mem_held);
}
