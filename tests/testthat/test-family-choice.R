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
  r_loss <- function(s, iv) {
    nv <- length(s)
    ng <- nv - length(iv)
    y <- rep(1, nv)
    y[iv] <- 0
    w <- rep(nv / ng, nv)
    w[iv] <- nv / length(iv)
    sc <- stats::sd(s)
    z <- if (sc > 0) (s - mean(s)) / sc else s - mean(s)
    beta <- r_affine(z, y, w)
    eta <- beta[1] + beta[2] * z
    softplus <- function(v) pmax(v, 0) + log1p(exp(-abs(v)))
    w * ifelse(y == 1, softplus(-eta), softplus(eta)) / 2
  }
  set.seed(65)
  cases <- list(
    list(s = c(rnorm(3000), rnorm(2000, 0.3)), iv = 1:3000),
    list(s = c(rnorm(40) - 5, rnorm(25) + 5), iv = 1:40), # separated
    list(s = rep(1.5, 20), iv = 1:12), # constant: no scale
    list(s = c(rt(700, 2), rt(900, 2) * 1.3), iv = sample(1600, 700)))
  for (cs in cases) {
    expect_identical(ratio_logistic_loss(cs$s, cs$iv), r_loss(cs$s, cs$iv))
  }
  z <- rnorm(500)
  y <- as.double(z + rnorm(500) > 0)
  w <- ifelse(y == 1, 2, 0.5)
  expect_identical(logistic_affine(z, y, w), r_affine(z, y, w))
})
