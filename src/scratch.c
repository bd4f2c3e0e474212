/* Scratch slots: the engine's largest buffers, kept between calls. */
#include "engine.h"

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
