# Tests of R/family-choice.R.

test_that("the bandwidth is the least recalibrated logistic loss", {
  # the loss against glm(): the two sets weighted alike
  set.seed(63)
  s <- c(rnorm(50), rnorm(70, 1))
  iv <- 1:50
  loss <- ratio_logistic_loss(s * 3 + 2, iv)
  y <- rep(0:1, c(50, 70))
  w <- ifelse(y == 1, 1 / 70, 1 / 50)
  g <- suppressWarnings(glm(y ~ s, weights = w, family = quasibinomial()))
  p <- fitted(g)
  expect_equal(mean(loss), (mean(-log(1 - p[iv])) + mean(-log(p[-iv]))) / 2,
               tolerance = 1e-6)
})
