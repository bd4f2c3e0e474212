# Tests of R/embedding-stats.R.

test_that("ct projects on 64 principal components of the training rows", {
  set.seed(9)
  train <- matrix(rnorm(120 * 70), ncol = 70)
  held <- matrix(rnorm(80 * 70), ncol = 70)
  gen <- matrix(rnorm(90 * 70), ncol = 70)
  set.seed(13)
  v <- ct_value(train, held, gen)$value
  p <- stats::prcomp(train, rank. = 64)
  proj <- function(z) scale(z, p$center, FALSE) %*% p$rotation
  set.seed(13)
  # (k-means' starts over the same rows: the training rows' canonical order)
  w <- ct_value(proj(train), proj(held), proj(gen),
                order = canonical_order(train))$value
  expect_equal(v, w, tolerance = 1e-8)
})

test_that("the unbiased sums' divisors do not overflow past 46,340 rows", {
  # n m = 2.5e9 rows: integer counts gave NA
  expect_equal(mmd_unbiased(1, 1, 1, 5e4, 5e4),
               1 / (5e4 * (5e4 - 1)) * 2 - 2 / 2.5e9)
  q <- list(n = as.double(50000L), m = as.double(50000L),
            sxx = list(dist = 2), syy = list(dist = 2), sxy = list(dist = 4))
  expect_true(is.finite(embedding_registry$energy$value(q)))
})
