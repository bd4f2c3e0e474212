# prd_threads(): get/set semantics, and results that do not depend on the
# number of threads.

test_that("prd_threads() gets, sets and returns the old value", {
  old <- prd_threads()
  on.exit(prd_threads(old), add = TRUE)
  expect_true(is.numeric(old) && length(old) == 1L && old >= 1)
  expect_equal(prd_threads(1), old)
  expect_equal(prd_threads(), 1)
  expect_invisible(prd_threads(2))
  # the count is capped by the cores available (at least 1, at most 2 here)
  two <- prd_threads()
  expect_true(two %in% c(1, 2))
  expect_equal(prd_threads(1), two)
  # 0 goes back to the default (see "the default honours ..." below)
  expect_equal(prd_threads(0), 1)
  info <- prdcurve:::thread_info()
  expect_identical(prd_threads(), info[["default"]])
  expect_identical(info[["set"]], 0L)
  expect_lte(info[["default"]], info[["max"]])
  expect_error(prd_threads(-1), "`n`", class = "prdcurve_error")
  expect_error(prd_threads(1.5), "`n`", class = "prdcurve_error")
  expect_error(prd_threads("a"), "`n`", class = "prdcurve_error")
  expect_error(prd_threads(c(1, 2)), "`n`", class = "prdcurve_error")
  expect_error(prd_threads(NA), "`n`", class = "prdcurve_error")
})

test_that("results are identical for 1 and 2 threads", {
  # an identity test run on one thread proves nothing: force 2, or skip
  # when fewer can run (one core, OMP_THREAD_LIMIT=1, no OpenMP)
  old <- prd_threads(2)
  on.exit(prd_threads(old), add = TRUE)
  if (prd_threads() < 2) {
    skip(paste0("fewer than 2 threads can run here (at most ",
                prdcurve:::thread_info()[["max"]], ")"))
  }
  set.seed(21)
  # 600 x 600 rows: tiles of >= 32768 pairs, so the visitors run in parallel
  real <- matrix(rnorm(600 * 10), ncol = 10)
  generated <- matrix(rnorm(600 * 10, mean = 0.3), ncol = 10)
  ties_r <- matrix(sample(0:3, 600 * 10, replace = TRUE), ncol = 10)
  ties_g <- matrix(sample(0:3, 600 * 10, replace = TRUE), ncol = 10)
  run <- function(n, r, g, sp) {
    prd_threads(n)
    set.seed(4)
    prd_curve(r, g, split = sp, angles = 101, method = c("knn", "kde", "ipr", "coverage"))
  }
  for (sp in list(0, 0.5)) {
    one <- run(1, real, generated, sp)
    two <- run(2, real, generated, sp)
    expect_identical(one, two)
    expect_equal(sort(unique(one$method)), c("coverage", "ipr", "kde", "knn"))
    # integer data: exact distance ties must be resolved the same way
    expect_identical(run(1, ties_r, ties_g, sp), run(2, ties_r, ties_g, sp))
  }
  # explicit kde bandwidths and open balls take other code paths
  run2 <- function(n) {
    prd_threads(n)
    prd_curve(ties_r, ties_g, method = c("kde", "ipr"), split = 0, k = 7,
              bandwidth = c(2, 3), closed = FALSE, angles = 101)
  }
  expect_identical(run2(1), run2(2))
  # and two threads did run
  prd_threads(2)
  s <- list(fit = list(1:600, 1:600), eval = NULL)
  nb <- prdcurve:::engine_neighbours(real, generated, s, 5, "knn")
  expect_identical(attr(nb, "threads"), 2L)
  prd_threads(1)
  nb <- prdcurve:::engine_neighbours(real, generated, s, 5, "knn")
  expect_identical(attr(nb, "threads"), 1L)
})

test_that("the engine splits OpenBLAS's products itself and restores its thread count", {
  before <- prdcurve:::engine_blas_threads()
  skip_if(is.na(before), "the BLAS is not OpenBLAS: the engine leaves its threads alone")
  on.exit(prdcurve:::engine_blas_threads(before), add = TRUE)
  old <- prd_threads(2)
  on.exit(prd_threads(old), add = TRUE)
  skip_if(prd_threads() < 2, "fewer than 2 threads can run here")
  set.seed(8)
  real <- matrix(rnorm(800 * 300), ncol = 300)
  generated <- matrix(rnorm(800 * 300, mean = 0.2), ncol = 300)
  s <- list(fit = list(1:400, 1:400), eval = list(401:800, 401:800))
  run <- function(blas, threads) {
    prdcurve:::engine_blas_threads(blas)
    prd_threads(threads)
    nb <- prdcurve:::engine_neighbours(real, generated, s, c(3, 10),
                                       c("knn", "coverage", "ipr", "own"))
    # the BLAS's own setting is back after the call
    expect_identical(prdcurve:::engine_blas_threads(), as.integer(blas))
    nb
  }
  # products split between 2 engine threads (BLAS at one thread during
  # them) against one engine thread calling a 3-thread BLAS
  a <- run(3, 2)
  b <- run(3, 1)
  c <- run(1, 1)
  expect_identical(attr(a, "threads"), 2L)
  for (nm in c("knn_a", "knn_b", "coverage_a", "coverage_b", "ipr_a", "ipr_b",
               "own_x", "own_y")) {
    expect_identical(a[[nm]], b[[nm]])
    expect_identical(a[[nm]], c[[nm]])
  }
})

# prd_threads() in a fresh R process with the given environment variables
# (all others of the list unset).
threads_in_child <- function(env = character(), code = "cat(prd_threads())") {
  lib <- dirname(system.file(package = "prdcurve"))
  vars <- c("OMP_NUM_THREADS", "OMP_THREAD_LIMIT", "_R_CHECK_LIMIT_CORES_")
  args <- c(rbind("-u", vars), env,
            paste0("R_LIBS=", paste(c(lib, .libPaths()),
                                    collapse = .Platform$path.sep)),
            file.path(R.home("bin"), "Rscript"), "-e",
            shQuote(paste0("library(prdcurve); ", code)))
  out <- system2("env", args, stdout = TRUE, stderr = FALSE)
  as.integer(strsplit(out, " ")[[1]])
}

test_that("the default honours OMP_NUM_THREADS, OMP_THREAD_LIMIT, _R_CHECK_LIMIT_CORES_", {
  skip_on_os("windows")
  # nothing set ("false" is no limit): every core
  both <- threads_in_child("_R_CHECK_LIMIT_CORES_=false",
                           "cat(prdcurve:::thread_info()[['max']], prd_threads())")
  cores <- both[1]
  expect_identical(both[2], cores)
  # OMP_NUM_THREADS: the default, but prd_threads(n) overrides it
  expect_identical(
    threads_in_child("OMP_NUM_THREADS=1",
                     "cat(prd_threads(), {prd_threads(2); prd_threads()})"),
    c(1L, min(2L, cores)))
  # OMP_THREAD_LIMIT caps even a count set with prd_threads(n)
  expect_identical(
    threads_in_child("OMP_THREAD_LIMIT=1",
                     "cat(prd_threads(), {prd_threads(2); prd_threads()})"),
    c(1L, 1L))
  # R CMD check's limit: at most 2 (the smallest of those set wins),
  # overridden by prd_threads(n)
  expect_identical(
    threads_in_child(c("OMP_NUM_THREADS=3", "_R_CHECK_LIMIT_CORES_=TRUE"),
                     "cat(prd_threads(), {prd_threads(3); prd_threads()})"),
    c(min(2L, cores), min(3L, cores)))
})
