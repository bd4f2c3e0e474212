# Repeated splits (R/curve-repeats.R): prd_curve(repeats = S) is the mean,
# at each lambda, of the curves of S random splits, each estimated as on
# one; 5 by default on sets of fewer than 1,000 rows.

# S single-split curves as repeats = S draws them: S - 1 seeds first, the
# first split on the stream, each other repeat from its seed
single_splits <- function(seed, S, ...) {
  set.seed(seed)
  seeds <- sample.int(.Machine$integer.max, S - 1L)
  c(list(prd_curve(..., repeats = 1)), lapply(seeds, function(s) {
    set.seed(s)
    prd_curve(..., repeats = 1)
  }))
}

test_that("repeats = S is the mean of S single-split curves, each on its own stream", {
  set.seed(3)
  x <- matrix(rnorm(200 * 3), ncol = 3)
  y <- matrix(rnorm(200 * 3, mean = 0.3), ncol = 3)
  set.seed(1)
  cv <- prd_curve(x, y, method = c("knn", "coverage"), repeats = 3)
  one <- single_splits(1, 3, x, y, method = c("knn", "coverage"))
  mean_of <- function(col) Reduce(`+`, lapply(one, `[[`, col)) / 3
  expect_equal(cv$precision, mean_of("precision"), tolerance = 1e-14)
  expect_equal(cv$recall, mean_of("recall"), tolerance = 1e-14)
  # (not one split's curve: the three differ)
  expect_gt(max(abs(one[[1]]$precision - one[[2]]$precision)), 0.01)
  expect_identical(vapply(prd_curve_info(cv)$details, `[[`, 1L, "repeats"),
                   c(3L, 3L))
  # a second model of another size leaves the first's curves as they are
  # (one k: by default it follows the smallest set)
  set.seed(1)
  two <- prd_curve(x, list(a = y, b = y[1:150, ]), method = "knn", k = 5,
                   repeats = 3)
  set.seed(1)
  a <- prd_curve(x, list(a = y), method = "knn", k = 5, repeats = 3)
  expect_identical(two$precision[two$model == "a"], a$precision)
  # each split scaled by its own real fit rows with standardize = "real"
  x[, 2] <- 100 * x[, 2]
  y[, 2] <- 100 * y[, 2]
  set.seed(2)
  cv <- prd_curve(x, y, method = "knn", repeats = 3, standardize = "real")
  one <- single_splits(2, 3, x, y, method = "knn", standardize = "real")
  expect_equal(cv$precision, mean_of("precision"), tolerance = 1e-10)
})

test_that("the default averages 5 splits below 1,000 rows a set, one from 1,000 or without a random split", {
  set.seed(4)
  reps <- function(cv) unique(vapply(prd_curve_info(cv)$details, `[[`, 1L, "repeats"))
  x <- matrix(rnorm(999 * 2), ncol = 2)
  y <- matrix(rnorm(300 * 2), ncol = 2)
  expect_identical(reps(prd_curve(x, y, method = "knn")), 5L)
  # one set of 1,000 rows: one split (the validity suite's sizes)
  x1 <- rbind(x, 0)
  expect_identical(reps(prd_curve(x1, y, method = "knn")), 1L)
  expect_identical(reps(prd_curve(x, y, method = "knn", split = 0)), 1L)
  rows <- list(real = 1:400, generated = 1:100)
  expect_identical(reps(prd_curve(x, y, method = "knn", split = rows)), 1L)
  # more than one split needs a split drawn at random
  expect_error(prd_curve(x, y, method = "knn", split = 0, repeats = 2),
               "split = 0", class = "prdcurve_error_split")
  expect_error(prd_curve(x, y, method = "knn", split = rows, repeats = 2),
               "no repeat can draw again", class = "prdcurve_error_split")
  expect_error(prd_curve(x, y, method = "knn", repeats = 0), "repeats",
               class = "prdcurve_error_input")
  expect_error(prd_curve(x, y, method = "knn", repeats = 1.5), "repeats",
               class = "prdcurve_error_input")
})

test_that("five splits narrow the spread of the AUC across seeds on the same data", {
  set.seed(5)
  x <- matrix(rnorm(150 * 4), ncol = 4)
  y <- matrix(rnorm(150 * 4, mean = 0.4), ncol = 4)
  auc <- function(s, repeats) {
    set.seed(s)
    summary(prd_curve(x, y, method = "knn", repeats = repeats))$auc
  }
  one <- vapply(1:20, auc, 1, repeats = 1)
  five <- vapply(1:20, auc, 1, repeats = 5)
  # the split's noise averaged: here 0.022 against 0.045 (sqrt(1/5) if
  # the split were all of it), the mean the same within that noise
  expect_lt(stats::sd(five), 0.6 * stats::sd(one))
  expect_lt(abs(mean(five) - mean(one)), 2 * stats::sd(one) / sqrt(20))
})

test_that("a warning of the splits is given once, not once a split", {
  set.seed(6)
  x <- matrix(rnorm(60 * 2), ncol = 2)
  y <- matrix(rnorm(60 * 2, mean = 0.5), ncol = 2)
  seen <- character()
  withCallingHandlers(
    prd_curve(x, y, repeats = 4),
    warning = function(w) {
      seen <<- c(seen, class(w)[1])
      invokeRestart("muffleWarning")
    })
  expect_identical(sum(seen == "prdcurve_warning_small_sample"), 1L)
})

test_that("replicates average as many splits in each half-sample", {
  set.seed(7)
  x <- matrix(rnorm(300 * 3), ncol = 3)
  gens <- list(a = matrix(rnorm(300 * 3, mean = 0.3), ncol = 3),
               b = matrix(rnorm(300 * 3, mean = 0.5), ncol = 3))
  spread <- function(repeats) {
    set.seed(8)
    cv <- prd_curve(x, gens, method = "knn", replicates = 20, repeats = repeats)
    s <- summary(cv)
    list(cv = cv, width = mean(s$auc_upper - s$auc_lower))
  }
  one <- spread(1)
  five <- spread(5)
  # the halves' split noise averaged too: narrower intervals (0.094
  # against 0.167 wide)
  expect_lt(five$width, 0.9 * one$width)
  # and the models stay paired
  cmp <- prd_compare(five$cv, baseline = "a")
  expect_true(all(is.finite(cmp$lower[cmp$statistic == "auc"])))
})

test_that("the details of several splits are every split's choice and the means of their numbers", {
  set.seed(4)
  x <- matrix(rnorm(400 * 2), ncol = 2)
  y <- matrix(rnorm(400 * 2, mean = 0.05), ncol = 2)
  set.seed(6)
  cv <- suppressWarnings(prd_curve(x, y, angles = 51, repeats = 3))
  one <- suppressWarnings(single_splits(6, 3, x, y, angles = 51))
  det <- prd_curve_info(cv)$details[[1]]
  each <- lapply(one, function(o) prd_curve_info(o)$details[[1]])
  # the first split reads the ceiling, the other two do not: the curve is
  # their mean, so it is not "at the ceiling"
  expect_identical(det$choices, c("ceiling", "bands", "bands"))
  expect_identical(det$choice, "mixed")
  expect_identical(vapply(each, `[[`, "", "choice"), det$choices)
  expect_match(tibble::tbl_sum(cv)[[2]],
               "3 splits averaged; at the ceiling in 1 of 3 splits", fixed = TRUE)
  expect_length(prdcurve:::cli_ceiling_note(cv), 0L)
  # every split's bands and choices, in order, with the split's number
  expect_identical(det$bands$split, rep(1:3, each = tightest_bands))
  for (s in 1:3) {
    b <- det$bands[det$bands$split == s, -1]
    expect_identical(b$first, each[[s]]$bands$first)
    expect_identical(b$read, each[[s]]$bands$read)
    expect_identical(det$chosen$second[det$chosen$split == s],
                     each[[s]]$chosen$second)
  }
  # the families' AUCs and gaps: the means over the splits
  mean_of <- function(f) Reduce(`+`, lapply(each, `[[`, f)) / 3
  expect_equal(det$family_auc, mean_of("family_auc"), tolerance = 1e-14)
  expect_equal(det$half_gap, mean_of("half_gap"), tolerance = 1e-14)
  expect_gt(diff(range(vapply(each, function(e) e$family_auc[["knn"]], 1))), 0.005)
  # kde bandwidths (per split, from its fit rows) and knn's hubness too
  set.seed(2)
  kd <- prd_curve(x, y, method = c("kde", "knn"), k = 5, repeats = 3)
  ok <- single_splits(2, 3, x, y, method = c("kde", "knn"), k = 5)
  inf <- prd_curve_info(kd)
  bw <- vapply(ok, function(o) prd_curve_info(o)$bandwidth_real[1], 1)
  expect_equal(inf$bandwidth_real[1], mean(bw), tolerance = 1e-14)
  expect_gt(diff(range(bw)), 0)
  hub <- vapply(ok, function(o) prd_curve_info(o)$details[[2]]$hubness, 1)
  expect_equal(inf$details[[2]]$hubness, mean(hub), tolerance = 1e-14)
  # the simple classifiers' AUCs of the disagreement check, of every split
  simple <- vapply(ok, function(o) prd_curve_info(o)$details[[2]]$simple_auc,
                   numeric(3))
  expect_equal(inf$details[[2]]$simple_auc, rowMeans(simple), tolerance = 1e-14)
  expect_gt(max(apply(simple, 1, function(v) diff(range(v)))), 0.005)
  # integers the splits share stay as they are
  expect_identical(inf$details[[2]]$repeats, 3L)
})

test_that("interactive sessions show a bar over the splits, once, not inside the replicates", {
  # (cli draws a bar at most every few tenths of a second and after 2 s;
  # its own test helper draws every update)
  with_ticks <- asNamespace("cli")$cli_with_ticks
  skip_if(is.null(with_ticks))
  rlang::local_interactive(TRUE)
  withr::local_options(cli.dynamic = FALSE)
  set.seed(7)
  x <- matrix(rnorm(200 * 3), ncol = 3)
  y <- matrix(rnorm(200 * 3, mean = 0.3), ncol = 3)
  shown <- function(...) capture_messages(with_ticks(prd_curve(x, y, ...)))
  done <- function(msg) sum(grepl("Averaging 3 splits .*100%", msg))
  expect_identical(done(shown(method = "knn", repeats = 3)), 1L)
  expect_false(any(grepl("Averaging", shown(method = "knn", repeats = 1))))
  # with replicates: the whole sample's splits, then the replicates' bar
  msg <- shown(method = "knn", repeats = 3, replicates = 2)
  expect_identical(done(msg), 1L)
  expect_true(any(grepl("Half-sample replicates .*100%", msg)))
  withr::local_options(prdcurve.progress = FALSE)
  expect_false(any(grepl("Averaging", shown(method = "knn", repeats = 3))))
})
