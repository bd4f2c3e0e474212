# R/state.R: a running call's state lives in run_state, not in options;
# the package reads only the options inst/ARCHITECTURE.md lists.

test_that("the package reads only its documented options", {
  ns <- asNamespace("prdcurve")
  fns <- Filter(is.function, mget(ls(ns, all.names = TRUE), envir = ns))
  code <- unlist(lapply(fns, function(f) deparse(body(f))))
  used <- unique(unlist(regmatches(code, gregexpr(
    "getOption\\(\"prdcurve\\.[a-z_]+", code))))
  used <- sort(sub("getOption(\"", "", used, fixed = TRUE))
  expect_identical(used, sort(paste0("prdcurve.", c(
    "precision", "keep_scratch", "future", "worker_threads", "progress",
    "check_inputs", "memory_limit"))))
})

test_that("local_run_state() sets a value for one frame and restores it", {
  expect_null(prdcurve:::run_state$cli)
  expect_false(prdcurve:::run_state$in_replicates)
  f <- function() {
    prdcurve:::local_run_state(cli = "array", in_replicates = TRUE)
    c(prdcurve:::run_state$cli, prdcurve:::run_state$in_replicates)
  }
  expect_identical(f(), c("array", "TRUE"))
  expect_null(prdcurve:::run_state$cli)
  expect_false(prdcurve:::run_state$in_replicates)
  # a name the state does not hold is a bug, not a new value
  expect_error(prdcurve:::local_run_state(colour = 1))
})
