# Three sanity checks of Raisa, van Breugel and van der Schaar (ICML 2025,
# arXiv:2505.22450) at small size, on improved precision with their settings
# (k = 3, closed balls, data standardized by the real set): the verdicts
# must be those of their Table 3 (D1b, "purpose"). The full suite, with
# their sizes and repeats, is bench/sanity.R.

# Their shape criteria, on the mean values `y` over the settings `x`.
bell_shape <- function(x, y, mid) {
  m <- y[which.min(abs(x - mid))]
  l <- y[which.min(x)]
  r <- y[which.max(x)]
  (m - l >= 0.2) && (m - r >= 0.2) && (max(y) - m <= 0.1) &&
    (l - min(y) <= 0.1 || r - min(y) <= 0.1)
}
horizontal_line <- function(y) max(y) - min(y) <= 0.05

# Mean of improved precision over `repeats` draws of (real, generated
# sets), one value per generated set.
mean_precision <- function(draw, repeats) {
  vals <- replicate(repeats, {
    d <- draw()
    m <- manifold_metrics(d$real, d$gens, metrics = "precision", k = 3,
                          closed = TRUE, standardize = "real")
    m$value[match(names(d$gens), m$model)]
  })
  rowMeans(matrix(vals, ncol = repeats))
}

test_that("improved precision passes the mean-difference bell and fails with an outlier, as published", {
  set.seed(2505)
  n <- 300
  mu <- seq(-6, 6, length.out = 13)
  named <- function(g) stats::setNames(g, paste0("m", seq_along(g)))
  plain <- mean_precision(function() {
    list(real = matrix(rnorm(n)),
         gens = named(lapply(mu, function(m) matrix(rnorm(n, m)))))
  }, repeats = 2)
  # a bell: about 1 at the identical setting, about 0 at both extremes
  expect_gt(plain[mu == 0], 0.9)
  expect_lt(max(plain[c(1, 13)]), 0.05)
  expect_true(bell_shape(mu, plain, 0))

  # the outlier at the largest mean, in the real set: its k-NN ball
  # swallows the generated set at that mean (their "real_outlier")
  outlier <- mean_precision(function() {
    list(real = rbind(matrix(rnorm(n)), 6),
         gens = named(lapply(mu, function(m) matrix(rnorm(n, m)))))
  }, repeats = 2)
  expect_gt(outlier[13], 0.9)
  expect_false(bell_shape(mu, outlier, 0))
  # the identical setting still scores about 1
  expect_gt(outlier[mu == 0], 0.9)
})

test_that("improved precision is not flat with one disjoint dimension among many, as published", {
  withr::local_options(prdcurve.check_inputs = FALSE) # 1,001 columns
  set.seed(2506)
  n <- 300
  extra <- c(1, 10, 100, 1000)
  vals <- vapply(extra, function(e) {
    real <- matrix(rnorm(n * (e + 1)), n)
    syn <- matrix(rnorm(n * (e + 1)), n)
    syn[, 1] <- syn[, 1] + 6
    manifold_metrics(real, syn, metrics = "precision", k = 3, closed = TRUE,
                     standardize = "real")$value
  }, numeric(1))
  # the supports are disjoint at every setting, but the shift of 6 weighs
  # less and less among distances of about sqrt(2 d): precision grows with
  # the number of identical dimensions (0.07-0.10 up to d = 101, 0.20 at
  # d = 1,001 with this seed)
  expect_gt(vals[4] - max(vals[2:3]), 0.08)
  expect_false(horizontal_line(vals))
})
