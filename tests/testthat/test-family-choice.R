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

test_that("the recalibration is glm()'s weighted logistic regression", {
  # logistic_affine() against glm() on overlapping sets, coefficients to
  # 1e-8; separated sets stop with a loss near 0, as glm.fit()'s
  set.seed(64)
  z <- c(rnorm(300), rnorm(200, 0.7))
  y <- rep(0:1, c(300, 200))
  w <- ifelse(y == 1, 500 / 200, 500 / 300)
  g <- suppressWarnings(glm(y ~ z, weights = w, family = quasibinomial()))
  expect_equal(logistic_affine(z, y, w), unname(coef(g)), tolerance = 1e-8)
  sep <- c(rnorm(30) - 5, rnorm(30) + 5)
  loss <- ratio_logistic_loss(sep, 1:30)
  expect_lt(mean(loss), 1e-6)
  expect_true(all(is.finite(loss)))
})
