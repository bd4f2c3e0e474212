#' Get or set the number of threads
#'
#' The distance engine runs its per-row reductions in parallel with OpenMP;
#' `prd_threads()` gets or sets how many threads it uses. Results do not
#' depend on the number of threads.
#'
#' @details
#' As data.table's `getDTthreads()`, the number of threads in force is, in
#' this order:
#'
#' 1. the number set by `prd_threads(n)`, if any (still at most the number
#'    of cores and `OMP_THREAD_LIMIT`);
#' 2. otherwise the number of logical cores, lowered to each of these that
#'    is set: the environment variable `OMP_NUM_THREADS` (its first
#'    number), then `OMP_THREAD_LIMIT`, then 2 when `_R_CHECK_LIMIT_CORES_`
#'    is set and not `"false"` (as in `R CMD check --as-cran`: CRAN's limit
#'    of two cores).
#'
#' A forked child (`parallel::mclapply()`, future's `multicore`) runs one
#' thread, as data.table's fork guard does: the OpenMP thread pool does not
#' survive `fork()`, and a child per core with a thread per core would
#' oversubscribe the machine. `prd_threads(n)` in the child sets its count
#' again. Workers of `future` plans that start new R processes run as many
#' threads as `parallelly::availableCores()` gives them (one per
#' `multisession` worker; a Slurm job's cores), or
#' `options(prdcurve.worker_threads = n)`; during the engine's work there,
#' OpenBLAS runs as many threads too.
#'
#' The environment variables are read at every call, so [Sys.setenv()]
#' takes effect at once. The global OpenMP setting is never changed: each
#' parallel region asks for its own number of threads. The BLAS used for
#' the distance products has its own threads (for OpenBLAS,
#' `OPENBLAS_NUM_THREADS`).
#'
#' On a machine whose cores are busy with other work, threads that wait
#' for each other should sleep rather than spin: set
#' `OMP_WAIT_POLICY=passive` in the environment before R starts (in
#' `~/.Renviron`, or on the command line before `Rscript` or
#' `prdcurve`; OpenMP reads it once, when it is first loaded, so
#' [Sys.setenv()] in a session is too late). On 2 cores with another
#' process busy on one, the four neighbour curves at 20,000 per set and
#' d = 64 took 1.9 to 2.3 s with it and 2.9 to 3.6 s without, the 11
#' metrics of [manifold_metrics()] 3.4 to 4.0 s against 5.0 to 6.0 s; on
#' an idle machine the times were the same.
#'
#' @param n `NULL` (the default) to query; otherwise a whole number >= 1 to
#'   set, or 0 to go back to the default (step 2 above).
#' @return The number of threads in force before the call (invisibly when
#'   setting).
#' @section Errors: `n` that is not a single whole number >= 0.
#' @examples
#' old <- prd_threads(1)
#' prd_threads()
#' prd_threads(old)
#' @export
prd_threads <- function(n = NULL) {
  if (is.null(n)) {
    return(thread_info()[["threads"]])
  }
  check_count(n, "n", min = 0)
  invisible(with_engine_errors(.Call(ffi_threads, as.integer(n)))[["threads"]])
}

#' The engine's thread settings: an integer vector c(threads = the number
#' in force, max = the most that can run (cores, OMP_THREAD_LIMIT),
#' default = the number without prd_threads(n), set = the number set by
#' prd_threads(n), 0 if none).
#' @noRd
thread_info <- function() .Call(ffi_threads, NULL)
