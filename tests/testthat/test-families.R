# The family registry (R/families.R) and its recipe in inst/ARCHITECTURE.md.

# A toy fitted family: the squared distance to the real fit rows' mean less
# that to the generated fit rows' mean (high = "generated").
toy_fit <- function(real, generated, fx, fy, n_score, parts, call) {
  mx <- colMeans(real[fx, , drop = FALSE])
  my <- colMeans(generated[fy, , drop = FALSE])
  list(score = function(Z, rows = NULL) {
    if (!is.null(rows)) Z <- Z[rows, , drop = FALSE]
    rowSums(sweep(Z, 2, mx)^2) - rowSums(sweep(Z, 2, my)^2)
  }, settings = list(gap = sqrt(sum((mx - my)^2))))
}

local_toy_family <- function(env = parent.frame(), ...) {
  register_family("toy", "fitted", fit = toy_fit,
                  reason = "A toy classifier.", summary = "a toy", ...)
  withr::defer(unregister_family("toy"), envir = env)
}

test_that("recipe (inst/ARCHITECTURE.md): a family added by its entry is fitted fold by fold and listed", {
  local_toy_family()
  expect_true("toy" %in% curve_methods())
  expect_true("toy" %in% fitted_methods())
  expect_false("toy" %in% tightest_default())
  expect_match(family_table(), "`\"toy\"`", fixed = TRUE)
  # and in ?prd_curve's `method` and `folds`, by kind
  expect_match(family_methods_doc(), "fitted families .*`\"toy\"`")
  expect_match(family_names_doc("fitted"), " and `\"toy\"`$")
  set.seed(3)
  x <- matrix(rnorm(90 * 3), ncol = 3)
  y <- matrix(rnorm(80 * 3, 0.7), ncol = 3)
  s <- new_split(list(1:40, 1:30), list(41:90, 31:80), 0.5)
  # brute force: K = 3 folds of the evaluation rows, as fitted_scores()
  # draws them, each fitted on the fit rows and the other folds
  set.seed(11)
  fr <- cross_folds(50, 3)
  fg <- cross_folds(50, 3)
  want_r <- want_g <- numeric(50)
  for (v in 1:3) {
    ex <- (41:90)[fr[[v]]]
    ey <- (31:80)[fg[[v]]]
    fx <- sort(c(1:40, (41:90)[-fr[[v]]]))
    fy <- sort(c(1:30, (31:80)[-fg[[v]]]))
    f <- toy_fit(x, y, fx, fy)
    want_r[fr[[v]]] <- f$score(x, ex)
    want_g[fg[[v]]] <- f$score(y, ey)
  }
  set.seed(11)
  got <- fitted_scores(x, y, s, c("linear", "toy"), folds = 3)
  expect_equal(got$scores$toy$real, want_r, tolerance = 1e-12)
  expect_equal(got$scores$toy$gen, want_g, tolerance = 1e-12)
  expect_gt(got$details$toy$gap, 0.5)
  # one fit on the fit rows without folds
  f <- toy_fit(x, y, 1:40, 1:30)
  got1 <- fitted_scores(x, y, s, "toy", folds = 1)
  expect_equal(got1$scores$toy$real, f$score(x, 41:90), tolerance = 1e-12)
  expect_equal(got1$scores$toy$gen, f$score(y, 31:80), tolerance = 1e-12)
  # the curve through prd_curve(): the envelope of those scores
  set.seed(5)
  cv <- prd_curve(x, y, method = "toy", split = list(real = 41:90, generated = 31:80),
                  folds = 1, angles = 21)
  env <- curve_from_scores(f$score(x, 41:90), f$score(y, 31:80), lambda_grid(21))
  inner <- cv$lambda > 0 & is.finite(cv$lambda)
  expect_equal(cv$precision[inner], env$precision, tolerance = 1e-12)
  expect_equal(summary(cv)$max_precision, env$max_precision, tolerance = 1e-12)
  # and in "tightest" when asked for
  set.seed(5)
  tt <- suppressWarnings(prd_curve(x, y, families = c("toy", "linear"),
                                   angles = 21))
  expect_identical(prd_curve_info(tt)$details[[1]]$families, c("toy", "linear"))
})

test_that("no registered fitted family scores a constant or leaves rows out", {
  set.seed(4)
  x <- matrix(rnorm(200 * 4), ncol = 4)
  # (the first column's spread doubled: the spectral family keeps only a
  # change beyond the noise of 100 fit rows)
  y <- matrix(rnorm(200 * 4, 0.6), ncol = 4) * rep(c(2.6, 1.3, 1.3, 1.3), each = 200)
  s <- new_split(list(1:100, 1:100), list(101:200, 101:200), 0.5)
  for (folds in list(NULL, 5L)) {
    got <- fitted_scores(x, y, s, fitted_methods(), folds = folds)
    expect_identical(names(got$scores), fitted_methods())
    for (f in fitted_methods()) {
      sc <- c(got$scores[[f]]$real, got$scores[[f]]$gen)
      expect_length(sc, 200L)
      expect_false(anyNA(sc))
      # a constant score would read as two equal sets (AUC 1); each family
      # separates a mean shift with a scale change: the generated rows
      # score higher on average
      expect_gt(mean(got$scores[[f]]$gen) - mean(got$scores[[f]]$real),
                0.1 * sd(sc))
    }
  }
  # every fitted family and the default list come from the registry
  expect_setequal(tightest_default(),
                  setdiff(family_names(default = TRUE), "tightest"))
  expect_setequal(curve_methods(),
                  c(fitted_methods(), neighbour_methods(), "tightest"))
})

test_that("an unknown family is a classed error, never zeros", {
  set.seed(2)
  x <- matrix(rnorm(60 * 2), ncol = 2)
  y <- matrix(rnorm(60 * 2), ncol = 2)
  s <- new_split(list(1:30, 1:30), list(31:60, 31:60), 0.5)
  expect_error(fitted_scores(x, y, s, c("linear", "foo"), folds = 10),
               class = "prdcurve_error_argument")
  expect_error(prd_curve(x, y, method = "foo"), class = "prdcurve_error")
  expect_error(prd_curve(x, y, families = c("linear", "foo")),
               class = "prdcurve_error")
  # a family whose score gives the wrong number of values
  register_family("bad", "fitted", reason = "-", summary = "-",
                  fit = function(real, generated, fx, fy, n_score, parts, call) {
                    list(score = function(Z, rows = NULL) 0, settings = list())
                  })
  withr::defer(unregister_family("bad"))
  expect_error(fitted_scores(x, y, s, "bad", folds = 3),
               class = "prdcurve_error_internal")
})

test_that("the reasons of the disagreement warning come from the entries", {
  expect_match(family_reason("linear", 10), "dispersion")
  expect_match(family_reason("knn", 8), "few points")
  expect_match(family_reason("knn", 256, hubness = 7.25), "skewness .* 7.2")
  # a kde curve of a given bandwidth: the bandwidth, not the neighbourhoods
  expect_match(family_reason("kde", 8, fixed = TRUE), "the given {.arg bandwidth}",
               fixed = TRUE)
  expect_identical(family_reason("knn", 8, fixed = TRUE), family_reason("knn", 8))
  expect_error(family_reason("nope", 3), class = "prdcurve_error_argument")
})

test_that("the logit family is registered, and in the default with categorical columns", {
  expect_true("logit" %in% fitted_methods())
  expect_false("logit" %in% tightest_default())
  expect_identical(logit_family_order(27), 1L)
  expect_identical(logit_family_order(28), 0L)
  # its scores through the registry are fit_logit()'s
  set.seed(6)
  x <- matrix(rnorm(100 * 3), ncol = 3)
  y <- matrix(rnorm(100 * 3, 0.5), ncol = 3)
  s <- new_split(list(1:50, 1:50), list(51:100, 51:100), 0.5)
  got <- fitted_scores(x, y, s, "logit", folds = 1)
  f <- fit_logit(x, y, 1:50, 1:50, maxorder = 1)
  expect_equal(got$scores$logit$real, f$score(x, 51:100), tolerance = 1e-12)
  expect_equal(got$scores$logit$gen, f$score(y, 51:100), tolerance = 1e-12)
  # the default families: with a factor column, logit joins them
  df_r <- data.frame(a = rnorm(300), g = factor(sample(c("u", "v"), 300, TRUE)))
  df_g <- data.frame(a = rnorm(300), g = factor(sample(c("u", "v"), 300, TRUE,
                                                      prob = c(0.8, 0.2))))
  set.seed(1)
  cv <- suppressWarnings(prd_curve(df_r, df_g, angles = 21))
  expect_true("logit" %in% prd_curve_info(cv)$details[[1]]$families)
  set.seed(1)
  cv2 <- suppressWarnings(prd_curve(df_r["a"], df_g["a"], angles = 21))
  expect_false("logit" %in% prd_curve_info(cv2)$details[[1]]$families)
})

test_that("the mixture and smoothed marginal families run through the registry", {
  expect_true(all(c("mixture", "smooth_marginal") %in% fitted_methods()))
  expect_false("mixture" %in% tightest_default())
  expect_true("smooth_marginal" %in% tightest_default())
  set.seed(9)
  x <- matrix(rnorm(160 * 2), ncol = 2)
  y <- rbind(matrix(rnorm(80 * 2, 3), ncol = 2), matrix(rnorm(80 * 2, -3), ncol = 2))
  s <- new_split(list(1:80, 1:80), list(81:160, 81:160), 0.5)
  set.seed(1)
  got <- fitted_scores(x, y, s, "mixture", folds = 1)
  # (path "cells": one fold, the fit rows' fit scores the evaluation rows)
  set.seed(1)
  cl <- family_entry("mixture")$cells(
    x, y, list(list(1:80, 81:160), list(1:80, 81:160)))
  expect_equal(got$scores$mixture, cl[c("real", "gen")], tolerance = 1e-12)
  set.seed(1)
  fit <- fit_mixture(x, y, 1:80, 1:80)
  expect_equal(got$scores$mixture$real, fit$score(x, 81:160), tolerance = 1e-12)
  expect_equal(got$scores$mixture$gen, fit$score(y, 81:160), tolerance = 1e-12)
  # the smoothed marginal family scores every fold at once (path "cells")
  set.seed(1)
  got <- fitted_scores(x, y, s, "smooth_marginal", folds = 1)
  set.seed(1)
  fit <- family_entry("smooth_marginal")$cells(
    x, y, list(list(1:80, 81:160), list(1:80, 81:160)))
  expect_equal(got$scores$smooth_marginal$real, fit$real, tolerance = 1e-12)
  expect_equal(got$scores$smooth_marginal$gen, fit$gen, tolerance = 1e-12)
  expect_gt(mean(fit$gen > median(fit$real)), 0.6)
  # two far modes against one: the mixture's curve is near the truth (the
  # supports barely overlap: AUC near 0)
  set.seed(2)
  cv <- prd_curve(x, y, method = "mixture", angles = 51, folds = 1)
  expect_lt(summary(cv)$auc, 0.15)
})

test_that("recipe (inst/ARCHITECTURE.md): every curve family is wired from its name to a curve", {
  set.seed(8)
  x <- matrix(rnorm(120 * 2), ncol = 2)
  y <- matrix(rnorm(110 * 2, 0.5), ncol = 2)
  for (m in curve_methods()) {
    # ("tightest" warns that its halves of 27 rows are few)
    cv <- withCallingHandlers(
      prd_curve(x, y, method = m, k = if (!m %in% fitted_methods()) 4,
                angles = 21, split = 0.5),
      prdcurve_warning_small_sample = function(w) invokeRestart("muffleWarning"))
    expect_identical(unique(cv$method), m)
    expect_gte(nrow(cv), 21L)
    # a PRD curve: alpha(lambda) nondecreasing, beta = alpha / lambda
    # nonincreasing, both in [0, 1]
    expect_true(all(diff(cv$precision) >= -1e-12))
    expect_true(all(diff(cv$recall) <= 1e-12))
    expect_true(all(cv$precision >= 0 & cv$precision <= 1))
    expect_true(all(cv$recall >= 0 & cv$recall <= 1))
  }
  # each neighbour family's engine estimator gives (a, b) counts per
  # evaluation row
  table <- engine_estimators()
  for (m in family_names("neighbour")) {
    e <- family_entry(m)$estimator
    row <- table[table$name == e, ]
    expect_identical(nrow(row), 1L)
    expect_identical(row$outputs[[1]], paste0(e, c("_a", "_b")))
    expect_identical(row$rows, "evaluation")
  }
})

test_that("?prd_curve's method lists every registered family, from the registry", {
  doc <- family_methods_doc()
  for (m in curve_methods()) {
    expect_match(doc, paste0("`\"", m, "\"`"), fixed = TRUE)
  }
  expect_match(doc, "One or more of `\"tightest\"` (default", fixed = TRUE)
  expect_match(doc, "`method = c(\"knn\", \"kde\", \"ipr\", \"coverage\")`",
               fixed = TRUE)
  expect_identical(family_names_doc("neighbour"),
                   "`\"knn\"`, `\"kde\"`, `\"ipr\"` and `\"coverage\"`")
  # the help page as built (a source tree): every family in `method`, the
  # fitted ones in `folds`
  rd <- test_path("..", "..", "man", "prd_curve.Rd")
  skip_if_not(file.exists(rd))
  txt <- paste(readLines(rd), collapse = " ")
  item <- function(arg, nxt) {
    regmatches(txt, regexpr(paste0("\\\\item\\{", arg, "\\}\\{.*?\\}\\s*\\\\item\\{",
                                   nxt, "\\}"), txt, perl = TRUE))
  }
  method <- item("method", "k")
  expect_length(method, 1L)
  for (m in curve_methods()) {
    expect_match(method, paste0("\\code{\"", m, "\"}"), fixed = TRUE)
  }
  folds <- item("folds", "atoms")
  for (m in fitted_methods()) {
    expect_match(folds, paste0("\\code{\"", m, "\"}"), fixed = TRUE)
  }
})

test_that("the span families are the ones whose fits read inner products and d alone", {
  # (per-coordinate, eigenvalue-edge, mixture and logistic families read
  # the coordinates or d / n themselves: never on the rows' span)
  span <- vapply(prdcurve:::family_names(), function(f) {
    prdcurve:::family_entry(f)$span
  }, logical(1))
  expect_identical(names(span)[span], c("linear", "quadratic", "stacked"))
})
