/* Thread count used by the engine's visitor loops. The global OpenMP
 * setting is left alone: each parallel region asks for num_threads(). */
#include "prdcurve.h"
#ifdef _OPENMP
#include <omp.h>
#endif

static int prd_nthreads = 0; /* 0 = not set: all cores */

static int max_threads(void) {
#ifdef _OPENMP
  int n = omp_get_num_procs();
  int lim = omp_get_thread_limit();
  if (lim > 0 && lim < n) n = lim;
  return n > 0 ? n : 1;
#else
  return 1;
#endif
}

int prd_threads_get(void) {
  int n = prd_nthreads > 0 ? prd_nthreads : max_threads();
  int mx = max_threads();
  return n > mx ? mx : n;
}

int prd_threads_for(int64_t work) {
  return work < 32768 ? 1 : prd_threads_get();
}

/* n = NULL: query; n >= 1: set. Returns list(old, max). */
SEXP ffi_threads(SEXP n) {
  SEXP out = PROTECT(Rf_allocVector(INTSXP, 2));
  INTEGER(out)[0] = prd_threads_get();
  INTEGER(out)[1] = max_threads();
  if (!Rf_isNull(n)) {
    int v = Rf_asInteger(n);
    if (v == NA_INTEGER || v < 0) Rf_error("`n` must be a non-negative integer");
    prd_nthreads = v;
  }
  UNPROTECT(1);
  return out;
}
