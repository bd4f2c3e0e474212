# prd_truth() (Monte Carlo ground truth), gaussian_mixture() and
# prd_scores() (SPEC.md section 5).

gauss_pair <- function(mu) {
  d <- length(mu)
  list(lp = function(x) -rowSums(x^2) / 2,
       lq = function(x) -rowSums((x - rep(mu, each = nrow(x)))^2) / 2,
       sp = function(n) matrix(rnorm(n * d), n, d),
       sq = function(n) matrix(rnorm(n * d), n, d) + rep(mu, each = n))
}

test_that("prd_truth agrees with the closed form within its standard error", {
  set.seed(42)
  mu <- c(1, 0.5, -0.5)  # delta = sqrt(1.5)
  g <- gauss_pair(mu)
  # normalising constants omitted: they cancel in the ratio
  mc <- prd_truth(g$lp, g$lq, g$sp, g$sq, n = 20000, angles = 41)
  ex <- prd_truth_gaussian(rep(0, 3), mu, angles = 41)
  se <- curve_detail(mc, "std_error")
  expect_equal(mc$lambda, ex$lambda)
  expect_equal(unique(mc$method), "truth")
  # lambda in [0.2, 5]: there a, b are far from 0 and 1 so the binomial SE
  # is accurate; 4 SE bounds a false alarm at ~6e-5 per point
  mid <- which(mc$lambda >= 0.2 & mc$lambda <= 5)
  expect_gt(length(mid), 10)
  z <- (mc$precision[mid] - ex$precision[mid]) / se$precision[mid]
  expect_true(all(abs(z) < 4))
  zr <- (mc$recall[mid] - ex$recall[mid]) / se$recall[mid]
  expect_true(all(abs(zr) < 4))
  # SE of alpha at lambda = 1 is about sqrt(2 * 0.27 * 0.73 / 20000) = 0.0044
  i1 <- which.min(abs(mc$lambda - 1))
  expect_equal(se$precision[i1], sqrt(2 * 0.27 * 0.73 / 20000), tolerance = 0.05)
  # Gaussians have full support: alpha_inf = beta_0 = 1 exactly
  expect_equal(mc$precision[43], 1)
  expect_equal(mc$recall[1], 1)
})

test_that("prd_truth takes gaussian_mixture objects and is reproducible", {
  p <- gaussian_mixture(rbind(c(0, 0), c(6, 0)), weights = c(0.5, 0.5))
  q <- gaussian_mixture(rbind(c(0, 0), c(6, 0)), weights = c(1, 0))
  set.seed(9)
  a <- prd_truth(p, q, n = 5000, angles = 21)
  set.seed(9)
  b <- prd_truth(p$log_density, q$log_density, p$sample, q$sample,
                 n = 5000, angles = 21)
  expect_identical(a$precision, b$precision)
  # mode dropping: Q is one of P's two modes (6 sd apart, overlap ~1e-3),
  # so alpha_1 = P and Q's common mass ~ 0.5 and beta_0 = 1 (full support)
  i1 <- which.min(abs(a$lambda - 1))
  expect_equal(a$precision[i1], 0.5, tolerance = 0.03)
  expect_equal(a$recall[1], 1)
  expect_error(prd_truth(p, "q"), "log_density_generated")
  expect_error(prd_truth(p$log_density, q$log_density, function(n) 1:3,
                         q$sample, n = 100), "sample_real")
  expect_error(prd_truth(function(x) rep(NaN, nrow(x)), q, p$sample, n = 100),
               "log_density_real")
})

test_that("gaussian_mixture evaluates log-densities exactly", {
  mu <- rbind(c(0, 1), c(2, -1))
  s <- matrix(c(2, 0.5, 0.5, 1), 2)
  mix <- gaussian_mixture(mu, cov = list(diag(2), s), weights = c(1, 3))
  x <- rbind(c(0, 0), c(1, 1), c(-3, 5))
  dens <- function(z, m, v) {
    r <- z - m
    exp(-0.5 * sum(r * solve(v, r))) / (2 * pi * sqrt(det(v)))
  }
  expected <- apply(x, 1, function(z)
    log(0.25 * dens(z, mu[1, ], diag(2)) + 0.75 * dens(z, mu[2, ], s)))
  expect_equal(mix$log_density(x), expected, tolerance = 1e-12)
  # isotropic: the sum of dnorm()s; far in the tail the log-sum-exp stays
  # finite where exp() of it underflows
  iso <- gaussian_mixture(c(0, 0, 0), sd = 2)
  z <- rbind(c(1, 2, 3), c(300, 0, 0))
  expect_equal(iso$log_density(z),
               rowSums(matrix(dnorm(z, sd = 2, log = TRUE), 2)), tolerance = 1e-12)
  expect_true(is.finite(iso$log_density(z)[2]))
  # the sampler draws the components with their weights
  set.seed(1)
  two <- gaussian_mixture(rbind(-10, 10), weights = c(0.3, 0.7))
  draws <- two$sample(10000)
  expect_equal(dim(draws), c(10000L, 1L))
  # binomial SE of the share: sqrt(0.21 / 10000) = 0.0046; 4 SE
  expect_equal(mean(draws < 0), 0.3, tolerance = 4 * 0.0046 / 0.3)
  expect_error(gaussian_mixture(rbind(0, 1), weights = c(1, -1)), "weights")
  expect_error(gaussian_mixture(c(0, 0), cov = matrix(c(1, 2, 2, 1), 2)),
               "positive definite")
})

test_that("prd_scores is the exact envelope of the threshold rules", {
  sr <- c(3, 1, 2, 2, 0.5)
  sg <- c(0, 2, -1, 1)
  cv <- prd_scores(sr, sg, angles = 31)
  lam <- cv$lambda[2:32]
  # brute force: rules "real if score >= t" and "> t" over all t, plus the
  # trivial ones; fpr = share of real called generated, fnr = share of
  # generated called real
  ts <- c(-Inf, sort(unique(c(sr, sg))), Inf)
  err <- rbind(t(sapply(ts, function(t) c(mean(sr < t), mean(sg >= t)))),
               t(sapply(ts, function(t) c(mean(sr <= t), mean(sg > t)))))
  brute <- sapply(lam, function(l) min(l * err[, 1] + err[, 2]))
  expect_equal(cv$precision[2:32], pmin(brute, 1), tolerance = 1e-12)
  # extremes: alpha_inf = min fnr with fpr = 0 (t = 0.5: generated 2, 1
  # pass, 2/4); beta_0 = min fpr with fnr = 0 (t > 2: real 1, 0.5, 2, 2 fail)
  expect_equal(cv$precision[33], 0.5)
  expect_equal(cv$recall[1], 0.8)
  # only the order matters
  cv2 <- prd_scores(exp(sr), exp(sg), angles = 31)
  expect_equal(cv2$precision, cv$precision)
  expect_equal(unique(prd_scores(sr, sg, label = "glm")$method), "glm")
  expect_warning(old <- prd_scores(sr, sg, method = "glm"),
                 class = "lifecycle_warning_deprecated")
  expect_equal(unique(old$method), "glm")
  expect_error(prd_scores(c(1, NA), sg), "score_real")
  expect_error(prd_scores(sr, "a"), "score_generated")
})

test_that("prd_scores with the log-likelihood ratio approaches the truth", {
  set.seed(5)
  n <- 20000
  x <- rnorm(n)
  y <- rnorm(n, 1.5)
  llr <- function(z) dnorm(z, log = TRUE) - dnorm(z, 1.5, log = TRUE)
  est <- prd_scores(llr(x), llr(y), angles = 101)
  ex <- prd_truth_gaussian(0, 1.5, angles = 101)
  # the envelope's error is of the order of the empirical rates' sampling
  # error, sqrt(0.25 / n) = 0.0035 per rate; 0.02 is ~4 SE of lambda fpr + fnr
  # at lambda <= 1 (and of beta above)
  lo <- ex$lambda <= 1
  expect_lt(max(abs(est$precision - ex$precision)[lo]), 0.02)
  expect_lt(max(abs(est$recall - ex$recall)[!lo]), 0.02)
  expect_gt(prd_iou(est, ex), 0.98)
})

test_that("prd_truth() rejects +Inf log-densities and draws outside the support", {
  f_inf <- function(x) ifelse(x[, 1] > 0, Inf, 0)
  expect_error(prd_truth(f_inf, f_inf, function(n) rnorm(n),
                         function(n) rnorm(n), n = 100, angles = 11),
               "log_density_real")
  zero_left <- function(x) ifelse(x[, 1] < 0, -Inf, 0)
  expect_error(prd_truth(zero_left, function(x) rep(0, nrow(x)),
                         function(n) rnorm(n), function(n) rnorm(n),
                         n = 100, angles = 11),
               "real sampler drew")
})

test_that("gaussian_mixture() normalises any finite weights safely", {
  mix <- gaussian_mixture(rbind(0, 1), weights = c(1e308, 1e308))
  expect_identical(mix$weights, c(0.5, 0.5))
  mix <- gaussian_mixture(rbind(0, 1, 2), weights = c(1e308, 0, 5e-324))
  expect_identical(mix$weights, c(1, 0, 0))
  mix <- gaussian_mixture(rbind(0, 1), weights = c(5e-324, 1.5e-323))
  expect_equal(mix$weights, c(0.25, 0.75), tolerance = 0.1)  # subnormals
  expect_equal(sum(mix$weights), 1)
})

test_that("log-densities underflow to -Inf, never NaN", {
  one <- gaussian_mixture(0)
  expect_identical(one$log_density(matrix(1e200)), -Inf)
  expect_equal(one$log_density(c(-1e308, 0, 1e308)),
               c(-Inf, dnorm(0, log = TRUE), -Inf), tolerance = 1e-15)
  two <- gaussian_mixture(rbind(c(0, 0), c(5, 5)), cov = diag(2))
  expect_identical(two$log_density(rbind(c(1e200, 0), c(0, -1e300))),
                   c(-Inf, -Inf))
  # a tiny sd: the log-density at the mode is -log(sqrt(2 pi) sd), finite
  tiny <- gaussian_mixture(3, sd = 1e-300)
  expect_equal(tiny$log_density(3), -0.5 * log(2 * pi) - log(1e-300),
               tolerance = 1e-14)
  expect_identical(tiny$log_density(4), -Inf)
  expect_identical(one$log_density(matrix(numeric(0), 0, 1)), numeric(0))
  expect_error(one$log_density(matrix("a")), "`x`",
               class = "prdcurve_error_input")
})

test_that("prd_truth() bounds its number of draws", {
  p <- gaussian_mixture(0)
  expect_error(prd_truth(p, p, n = 2147483647), "`n`", class = "rlang_error")
  expect_error(prd_truth(p, p, n = 1:3), "`n`", class = "prdcurve_error_input")
})
