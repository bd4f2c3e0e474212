# Tests of R/validate-args.R.

test_that("options(prdcurve.precision) is validated", {
  quiet_traps({
    real <- matrix(rnorm(40), 20)
    withr::local_options(prdcurve.precision = "half")
    expect_error(prd_curve(real, real, method = "knn", k = 2),
                 class = "prdcurve_error_input")
    withr::local_options(prdcurve.precision = c("double", "single"))
    expect_error(manifold_metrics(real, real, k = 2),
                 class = "prdcurve_error_input")
    withr::local_options(prdcurve.precision = 1)
    expect_error(entropy_metrics(real, real, k = 2),
                 class = "prdcurve_error_input")
  })
})

set.seed(11)
x <- matrix(rnorm(20 * 2), ncol = 2)
y <- matrix(rnorm(18 * 2, mean = 0.5), ncol = 2)

test_that("k must be whole numbers that fit the set sizes", {
  quiet_traps({
    # split 0.5 of 18 generated rows: 9 fit rows, so k <= 8
    expect_error(prd_curve(x, y, k = 9), class = "prdcurve_error_k_too_large")
    expect_snapshot(error = TRUE, prd_curve(x, y, k = 9))
    expect_equal(curve_attr(prd_curve(x, y, k = 8, angles = 5), "k"), 8)
    expect_error(prd_curve(x, y, k = 18, split = 0),
                 class = "prdcurve_error_k_too_large")
    expect_equal(curve_attr(prd_curve(x, y, k = 17, split = 0, angles = 5), "k"),
                 17)
    for (bad in list(0, -1, 2.5, NA, "a", numeric())) {
      expect_error(prd_curve(x, y, k = bad), class = "prdcurve_error_input")
    }
    # several k: one curve each
    cv <- prd_curve(x, y, k = c(3, 2), angles = 5, method = "knn")
    expect_equal(unique(cv$k), c(2L, 3L))
  })
})

test_that("whole numbers beyond the integer range are errors, not NA", {
  quiet_traps({
    expect_error(manifold_metrics(x, y, k_prime = 3e9),
                 class = "prdcurve_error_input")
    expect_error(prd_curve(x, y, angles = 2147483648),
                 class = "prdcurve_error_input")
    expect_identical(prdcurve:::check_count(3e9, max = 1e10), 3e9)
    expect_identical(prdcurve:::check_count(7), 7L)
  })
})

test_that("method, angles, bandwidth and closed are checked", {
  quiet_traps({
    expect_error(prd_curve(x, y, method = "foo"), class = "prdcurve_error_input")
    expect_snapshot(error = TRUE, prd_curve(x, y, method = c("knn", "foo")))
    expect_error(prd_curve(x, y, method = 1), class = "prdcurve_error_input")
    expect_error(prd_curve(x, y, method = character()),
                 class = "prdcurve_error_input")
    for (bad in list(2, 2.5, NA, "a", 1e7)) {
      expect_error(prd_curve(x, y, angles = bad), class = "prdcurve_error_input")
    }
    for (bad in list(0, -1, NA, c(1, 2, 3), "a", Inf, 1e300)) {
      expect_error(prd_curve(x, y, method = "kde", bandwidth = bad),
                   class = "prdcurve_error_input")
    }
    expect_snapshot(error = TRUE,
                    prd_curve(x, y, method = "kde", bandwidth = 1e300))
    for (bad in list(NA, 1, "yes", c(TRUE, FALSE))) {
      expect_error(prd_curve(x, y, closed = bad), class = "prdcurve_error_input")
    }
    expect_error(manifold_metrics(x, y, ppr_scale = 1e300),
                 class = "prdcurve_error_input")
  })
})

test_that("an unknown name gets the nearest known one as a hint, when one is near", {
  expect_identical(prdcurve:::nearest_choices(c("knnn", "Mixtur", "zzzzzz"),
                                              c("knn", "kde", "mixture")),
                   c("knn", "mixture"))
  expect_identical(prdcurve:::nearest_choices("ab", c("xyz")), character())
  x <- matrix(rnorm(200), 100)
  err <- expect_error(prd_curve(x, x + 1, method = "knnn"),
                      class = "prdcurve_error_input")
  expect_match(conditionMessage(err), "Did you mean \"knn\"?", fixed = TRUE)
  err <- expect_error(prd_curve(x, x + 1, families = c("knn", "smooth marginal")),
                      class = "prdcurve_error_input")
  expect_match(conditionMessage(err), "Did you mean \"smooth_marginal\"?",
               fixed = TRUE)
  # the command line's own parser too
  err <- expect_error(prdcurve:::cli_names("knn,mixtur", c("knn", "mixture"),
                                           "families"),
                      class = "prdcurve_error_input")
  expect_match(conditionMessage(err), "Did you mean \"mixture\"?", fixed = TRUE)
  # nothing near: no hint
  err <- expect_error(prd_curve(x, x + 1, method = "neural"),
                      class = "prdcurve_error_input")
  expect_no_match(conditionMessage(err), "Did you mean")
})
