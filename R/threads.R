#' Get or set the number of threads
#'
#' The distance engine runs its per-row reductions in parallel with OpenMP.
#' By default it uses every core (bounded by `OMP_THREAD_LIMIT`; at most
#' two when the environment variable `_R_CHECK_LIMIT_CORES_` is set, as in
#' `R CMD check --as-cran`). Results do not depend on the number of
#' threads. The BLAS used for the distance products has its own threads
#' (for OpenBLAS, `OPENBLAS_NUM_THREADS`).
#'
#' @param n `NULL` (the default) to query; otherwise a whole number >= 1 to
#'   set, or 0 to go back to all cores.
#' @return The number of threads in use before the call (invisibly when
#'   setting).
#' @section Errors: `n` that is not a single whole number >= 0.
#' @examples
#' old <- prd_threads(1)
#' prd_threads()
#' prd_threads(old)
#' @export
prd_threads <- function(n = NULL) {
  if (is.null(n)) {
    return(.Call(ffi_threads, NULL)[[1]])
  }
  check_count(n, "n", min = 0)
  invisible(.Call(ffi_threads, as.integer(n))[[1]])
}

# Under R CMD check with _R_CHECK_LIMIT_CORES_ set (CRAN's policy of at most
# two cores), start with at most two threads.
.onLoad <- function(libname, pkgname) {
  limit <- Sys.getenv("_R_CHECK_LIMIT_CORES_", "")
  if (nzchar(limit) && !identical(tolower(limit), "false")) {
    .Call(ffi_threads, min(2L, .Call(ffi_threads, NULL)[[1]]))
  }
  invisible()
}
