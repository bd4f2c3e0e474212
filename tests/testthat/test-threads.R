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
  # 0 goes back to all cores, which is at least the capped value of 2
  expect_equal(prd_threads(0), 1)
  expect_gte(prd_threads(), two)
  expect_error(prd_threads(-1), "`n`", class = "prdcurve_error")
  expect_error(prd_threads(1.5), "`n`", class = "prdcurve_error")
  expect_error(prd_threads("a"), "`n`", class = "prdcurve_error")
  expect_error(prd_threads(c(1, 2)), "`n`", class = "prdcurve_error")
  expect_error(prd_threads(NA), "`n`", class = "prdcurve_error")
})

test_that("results are identical for 1 and 2 threads", {
  old <- prd_threads()
  on.exit(prd_threads(old), add = TRUE)
  set.seed(21)
  # 600 x 600 rows: tiles of >= 32768 pairs, so the visitors run in parallel
  real <- matrix(rnorm(600 * 10), ncol = 10)
  generated <- matrix(rnorm(600 * 10, mean = 0.3), ncol = 10)
  ties_r <- matrix(sample(0:3, 600 * 10, replace = TRUE), ncol = 10)
  ties_g <- matrix(sample(0:3, 600 * 10, replace = TRUE), ncol = 10)
  run <- function(n, r, g, sp) {
    prd_threads(n)
    set.seed(4)
    prd_curve(r, g, split = sp, angles = 101)
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
})
