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

test_that("the C fit and loss equal R's vectorised steps bit for bit", {
  # (the R code of ratio_logistic_loss() before src/choice.c; the
  # families' choices in the validity tables were made with it)
  r_affine <- function(z, y, w) {
    beta <- c(0, 0)
    sw <- sum(w)
    for (it in 1:25) {
      eta <- beta[1] + beta[2] * z
      p <- 1 / (1 + exp(-eta))
      r <- w * (y - p)
      v <- w * p * (1 - p)
      h11 <- sum(v)
      h12 <- sum(v * z)
      h22 <- sum(v * z * z)
      g1 <- sum(r)
      g2 <- sum(r * z)
      det <- h11 * h22 - h12 * h12
      if (!is.finite(det) || det <= 1e-12 * sw * sw) break
      step <- c(h22 * g1 - h12 * g2, h11 * g2 - h12 * g1) / det
      beta <- beta + step
      if (max(abs(step)) < 1e-10 * (1 + max(abs(beta)))) break
    }
    beta
  }
  # the loss of the rows given z and the sets' labels and weights (those
  # ratio_logistic_loss() forms from s and iv, as before)
  r_loss <- function(z, y, w) {
    beta <- r_affine(z, y, w)
    eta <- beta[1] + beta[2] * z
    softplus <- function(v) pmax(v, 0) + log1p(exp(-abs(v)))
    w * ifelse(y == 1, softplus(-eta), softplus(eta)) / 2
  }
  set.seed(65)
  cases <- list(
    list(z = c(rnorm(3000), rnorm(2000, 0.3)), y = rep(0:1, c(3000, 2000))),
    list(z = c(rnorm(40) - 5, rnorm(25) + 5), y = rep(0:1, c(40, 25))), # separated
    list(z = double(20), y = rep(0:1, c(12, 8))), # constant: no scale
    list(z = c(rt(700, 2), rt(900, 2) * 1.3), y = rep(0:1, c(700, 900))))
  for (cs in cases) {
    y <- as.double(cs$y)
    w <- ifelse(y == 1, length(y) / sum(y), length(y) / sum(1 - y))
    expect_identical(.Call(ffi_ratio_loss, cs$z, y, w), r_loss(cs$z, y, w))
  }
  # ratio_logistic_loss() standardises s and weighs the sets alike
  s <- cases[[1]]$z * 3 + 2
  y <- as.double(cases[[1]]$y)
  expect_identical(ratio_logistic_loss(s, 1:3000),
                   r_loss((s - mean(s)) / stats::sd(s), y,
                          ifelse(y == 1, 5000 / 2000, 5000 / 3000)))
  z <- rnorm(500)
  y <- as.double(z + rnorm(500) > 0)
  w <- ifelse(y == 1, 2, 0.5)
  expect_identical(logistic_affine(z, y, w), r_affine(z, y, w))
})
