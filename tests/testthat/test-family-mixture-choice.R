test_that("a choice that does not beat a constant score by 2 standard errors takes the fewest parameters", {
  pairs <- data.frame(i = c(1L, NA, NA), j = c(2L, NA, NA), t = c(NA, 3L, 4L),
                      params = c(40, 10, 300))
  # per-row losses of 200 held-out rows: the constant score's `null`, and
  # the candidates' null - gain[c] + noise (each column's noise of mean 0)
  set.seed(8)
  null <- rep(log(2), 200)
  noise <- matrix(rnorm(200 * 3, sd = 0.05), 200)
  noise <- noise - rep(colMeans(noise), each = 200)
  loss_with <- function(gain) null - rep(gain, each = 200) + noise
  # one standard error of the gain of column c
  se <- function(c) sd(noise[, c]) / sqrt(200)
  # candidate 3 (the most parameters) chosen: kept 2.1 se below the
  # constant score, replaced by candidate 2 (the fewest) at 1.9
  expect_identical(mixture_simpler(pairs, loss_with(c(0, 0, 2.1 * se(3))),
                                   null, 3L), 3L)
  expect_identical(mixture_simpler(pairs, loss_with(c(0, 0, 1.9 * se(3))),
                                   null, 3L), 2L)
  # the scale of the standard error: se_mult = 1 keeps it at 1.9
  expect_identical(mixture_simpler(pairs, loss_with(c(0, 0, 1.9 * se(3))),
                                   null, 3L, se_mult = 1), 3L)
  # a worse-than-constant choice (a negative gain) too; -Inf: always kept
  expect_identical(mixture_simpler(pairs, loss_with(c(-0.1, 0, 0)), null, 1L), 2L)
  expect_identical(mixture_simpler(pairs, loss_with(c(-0.1, 0, 0)), null, 1L,
                                   se_mult = -Inf), 1L)
  # Q = P: the fit takes one spherical component a set, tied (then stepped
  # up to 2), from 16 classes it would otherwise split
  set.seed(9)
  centres <- matrix(rnorm(16 * 8, sd = 3), 16)
  draw <- function(n) centres[sample(16, n, TRUE), ] + matrix(rnorm(n * 8), n)
  x <- draw(1200)
  y <- draw(1200)
  f <- fit_mixture(x, y, 1:1200, 1:1200)
  expect_equal(unname(f$settings$components), c(2, 2))
  expect_equal(unname(f$settings$covariance), c(1, 1))
  # the same sets with y's classes 1 to 4 dropped: more components
  y2 <- centres[sample(5:16, 1200, TRUE), ] + matrix(rnorm(1200 * 8), 1200)
  f2 <- fit_mixture(x, y2, 1:1200, 1:1200)
  expect_gt(min(f2$settings$components), 2)
})
