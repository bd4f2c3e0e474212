/* Thread count used by the engine's visitor loops. The global OpenMP
 * setting is left alone: each parallel region asks for num_threads().
 *
 * As data.table's getDTthreads(): the count set by prd_threads(n) if any,
 * otherwise the number of cores lowered by each of OMP_NUM_THREADS,
 * OMP_THREAD_LIMIT and _R_CHECK_LIMIT_CORES_ (2 when set and not "false")
 * that is set. A count set explicitly is still capped by the cores and by
 * OMP_THREAD_LIMIT. Environment variables are read at every call, so
 * Sys.setenv() takes effect at once. */
#include "prdcurve.h"
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#ifdef _OPENMP
#include <omp.h>
#endif

static int prd_nthreads = 0; /* 0 = not set: the default */

/* The fork guard (as data.table's): a forked child (parallel::mclapply(),
 * future's multicore) runs one thread. GNU OpenMP's thread pool does not
 * survive fork(): a child that starts a parallel region after its parent
 * has used one can hang; and a child per core, each with a thread per
 * core, would oversubscribe the machine anyway. prd_threads(n) in the
 * child sets its count again. */
#if defined(__unix__) || defined(__APPLE__)
#include <pthread.h>
#define PRD_HAVE_ATFORK 1
#endif

static void prd_after_fork_child(void) { prd_nthreads = 1; }

void prd_fork_guard(void) {
#ifdef PRD_HAVE_ATFORK
  static int done = 0;
  if (!done) {
    pthread_atfork(NULL, NULL, prd_after_fork_child);
    done = 1;
  }
#endif
}

/* Leading whole number >= 1 of an environment variable; 0 when unset,
 * empty or not a number. OMP_NUM_THREADS may be a list ("4,2"): its first
 * element is the outer level's count. */
static int env_count(const char *name) {
  const char *v = getenv(name);
  if (v == NULL) return 0;
  while (isspace((unsigned char) *v)) v++;
  char *end;
  long n = strtol(v, &end, 10);
  if (end == v || n < 1) return 0;
  return n > INT_MAX ? INT_MAX : (int) n;
}

static int check_limit_cores(void) {
  const char *v = getenv("_R_CHECK_LIMIT_CORES_");
  if (v == NULL || *v == '\0') return 0;
  const char *f = "false";
  for (int i = 0; i < 6; i++) {
    if (tolower((unsigned char) v[i]) != f[i]) return 1;
    if (v[i] == '\0') return 0;
  }
  return 1;
}

static int n_cores(void) {
#ifdef _OPENMP
  int n = omp_get_num_procs();
  return n > 0 ? n : 1;
#else
  return 1;
#endif
}

/* The most threads that can run: cores, capped by the thread limit. */
static int max_threads(void) {
  int n = n_cores();
#ifdef _OPENMP
  int lim = omp_get_thread_limit();
  if (lim > 0 && lim < n) n = lim;
  int env = env_count("OMP_THREAD_LIMIT");
  if (env > 0 && env < n) n = env;
#endif
  return n;
}

static int default_threads(void) {
  int n = max_threads();
  int env = env_count("OMP_NUM_THREADS");
  if (env > 0 && env < n) n = env;
  if (check_limit_cores() && n > 2) n = 2;
  return n;
}

int prd_threads_get(void) {
  if (prd_nthreads <= 0) return default_threads();
  int mx = max_threads();
  return prd_nthreads > mx ? mx : prd_nthreads;
}

int prd_threads_for(int64_t work, int cap) {
  if (work < 32768) return 1;
  return cap < 1 ? 1 : cap;
}

/* The threads for `work` split into `parts` independent parts (columns,
 * row blocks): prd_threads_for() with the count in force, at most one a
 * part, at least 1. */
int prd_threads_over(int64_t work, int parts) {
  int use = prd_threads_for(work, prd_threads_get());
  if (use > parts) use = parts > 0 ? parts : 1;
  return use;
}

/* n = NULL: query; n >= 1: set; n = 0: back to the default. Returns the
 * integer vector c(threads = the count in force before the call,
 * max = the most that can run, default = the count without a setting,
 * set = the count set by prd_threads(n), 0 if none). */
SEXP ffi_threads(SEXP n) {
  const char *names[] = {"threads", "max", "default", "set", ""};
  SEXP out = PROTECT(Rf_mkNamed(INTSXP, names));
  INTEGER(out)[0] = prd_threads_get();
  INTEGER(out)[1] = max_threads();
  INTEGER(out)[2] = default_threads();
  INTEGER(out)[3] = prd_nthreads;
  if (!Rf_isNull(n)) {
    int v = Rf_asInteger(n);
    if (v == NA_INTEGER || v < 0) Rf_error("`n` must be a non-negative integer");
    prd_nthreads = v;
  }
  UNPROTECT(1);
  return out;
}
