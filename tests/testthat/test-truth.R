# prd_truth_gaussian(): the closed form of SPEC.md section 5, and the
# estimators of prd_curve() against it.

test_that("delta = 0 gives the square", {
  tr <- prd_truth_gaussian(c(1, 2, 3), c(1, 2, 3), angles = 101)
  lam <- prdcurve:::lambda_grid(101)
  expect_equal(curve_detail(tr, "delta"), 0)
  expect_equal(tr$lambda, c(0, lam, Inf))
  expect_equal(tr$precision, c(0, pmin(lam, 1), 1), tolerance = 1e-15)
  expect_equal(tr$recall, c(1, pmin(1, 1 / lam), 0), tolerance = 1e-15)
  expect_equal(unique(tr$method), "truth")
})

test_that("alpha at lambda = 1 is 2 pnorm(-delta / 2)", {
  # t = log(1) / delta + delta / 2 = delta / 2:
  # alpha_1 = 1 - pnorm(delta / 2) + pnorm(-delta / 2) = 2 pnorm(-delta / 2)
  for (delta in c(0.3, 1, 2.5, 6)) {
    tr <- prd_truth_gaussian(0, delta, angles = 11)
    # angles = 11: grid index 6 is lambda = tan(pi / 4) = 1; row 1 is lambda 0
    expect_equal(tr$lambda[7], 1, tolerance = 1e-15)
    expect_equal(tr$precision[7], 2 * pnorm(-delta / 2), tolerance = 1e-12)
    expect_equal(tr$recall[7], 2 * pnorm(-delta / 2), tolerance = 1e-12)
    expect_equal(curve_detail(tr, "delta"), delta)
  }
})

test_that("the closed form equals the integral of min(lambda p, q)", {
  # alpha_lambda = (lambda P ^ Q)(R) for P = N(0, 1), Q = N(delta, 1)
  tr <- prd_truth_gaussian(0, 1.7, angles = 21)
  for (i in c(2, 5, 11, 16, 21)) {
    l <- tr$lambda[i + 1]
    num <- integrate(function(x) pmin(l * dnorm(x), dnorm(x, 1.7)),
                     -Inf, Inf, rel.tol = 1e-10)$value
    expect_equal(tr$precision[i + 1], num, tolerance = 1e-8)
    expect_equal(tr$recall[i + 1], num / l, tolerance = 1e-8)
  }
  expect_equal(tr$precision[c(1, 23)], c(0, 1))
  expect_equal(tr$recall[c(1, 23)], c(1, 0))
})

test_that("cov gives the Mahalanobis distance", {
  expect_equal(curve_detail(prd_truth_gaussian(c(0, 0), c(3, 4)), "delta"), 5)
  expect_equal(curve_detail(prd_truth_gaussian(c(0, 0), c(3, 4), cov = 4),
                            "delta"), 2.5)
  expect_equal(curve_detail(prd_truth_gaussian(c(0, 0), c(1, 2),
                                               cov = diag(c(1, 4))),
                            "delta"), sqrt(2), tolerance = 1e-14)
  s <- matrix(c(2, 0.7, 0.3, 0.7, 1, 0.2, 0.3, 0.2, 3), 3)
  mu <- c(1, -2, 0.5)
  expect_equal(curve_detail(prd_truth_gaussian(rep(0, 3), mu, cov = s),
                            "delta"),
               sqrt(mahalanobis(mu, rep(0, 3), s)), tolerance = 1e-12)
  # the curve only depends on delta
  a <- prd_truth_gaussian(c(0, 0), c(3, 4), cov = 4, angles = 51)
  b <- prd_truth_gaussian(0, 2.5, angles = 51)
  expect_equal(a$precision, b$precision, tolerance = 1e-14)
  expect_error(prd_truth_gaussian(c(0, 0), c(1, 1), cov = matrix(c(1, 2, 2, 1), 2)),
               "cov")
  expect_error(prd_truth_gaussian(c(0, 0), c(1, 1), cov = -1), "cov")
  expect_error(prd_truth_gaussian(c(0, 0), 1), "mean_real")
  # what each mean is, and a covariance given where a mean goes
  e <- expect_error(prd_truth_gaussian(c(0, 0), 1), class = "prdcurve_error_input")
  expect_match(conditionMessage(e), "`mean_real` is 2 values, `mean_generated` 1 value.", fixed = TRUE)
  e <- expect_error(prd_truth_gaussian(rep(0, 3), diag(3)), class = "prdcurve_error_input")
  expect_match(conditionMessage(e), "`mean_generated` a 3 x 3 matrix", fixed = TRUE)
  expect_match(conditionMessage(e), "share one covariance", fixed = TRUE)
  e <- expect_error(prd_truth_gaussian(c(0, NA), c(1, 1)), class = "prdcurve_error_input")
  expect_match(conditionMessage(e), "2 values, 1 not finite", fixed = TRUE)
})

test_that("the Gaussian curve is symmetric", {
  tr <- prd_truth_gaussian(c(0, 0), c(1, 0.5), angles = 1001)
  rt <- prd_truth_gaussian(c(1, 0.5), c(0, 0), angles = 1001)
  expect_equal(tr$precision, rt$precision, tolerance = 1e-15)
  # same delta both ways, so precision at lambda = recall at 1 / lambda
  expect_equal(tr$precision, rev(tr$recall), tolerance = 1e-9)
  expect_true(all(diff(tr$precision) >= 0) && all(diff(tr$recall) <= 0))
  g <- 2:1002
  expect_equal(tr$precision[g], tr$lambda[g] * tr$recall[g], tolerance = 1e-13)
})

test_that("the estimators approach the truth for shifted Gaussians, d = 64", {
  # P = N(0, I_64), Q = N(mu, I_64), |mu| = 1 (delta = 1), 3000 per set,
  # split 0.5 (Sykes et al. 2024, section 5.1).
  # Thresholds: over 12 seeds the IoUs with the truth ranged over
  # knn 0.774-0.834, coverage 0.830-0.893, kde 0.775-0.833, and over 10
  # seeds ipr 0.736-0.788; with this seed they are 0.834, 0.890, 0.828,
  # 0.773. The thresholds are the smallest observed
  # value minus ~0.05. For scale: the square (P = Q) has IoU 0.679 with this
  # truth, and the curves have IoU at most 0.34 with the delta = 2 truth.
  set.seed(1)
  d <- 64
  n <- 3000
  mu <- c(1, rep(0, d - 1))
  real <- matrix(rnorm(n * d), ncol = d)
  generated <- sweep(matrix(rnorm(n * d), ncol = d), 2, mu, "+")
  cv <- prd_curve(real, generated,
                  method = c("knn", "coverage", "kde", "ipr"),
                  split = 0.5, angles = 201)
  truth <- prd_truth_gaussian(rep(0, d), mu, angles = 201)
  iou <- prd_iou(cv, truth)
  expect_named(iou, c("knn", "coverage", "kde", "ipr"))
  expect_gte(iou[["knn"]], 0.72)
  expect_gte(iou[["coverage"]], 0.78)
  expect_gte(iou[["kde"]], 0.72)
  expect_gte(iou[["ipr"]], 0.68)
  # the IoU does discriminate: a farther truth fits much worse
  far <- prd_iou(cv, prd_truth_gaussian(0, 2, angles = 201))
  expect_true(all(far < 0.45))
  # coverage is closer to the truth than to the square (12 of 12 seeds,
  # margin >= 0.03)
  expect_gt(iou[["coverage"]],
            prd_iou(cv, prd_discrete(1, 1, angles = 201))[["coverage"]])
})

test_that("a huge delta gives the disjoint limit, never NaN", {
  # delta -> Inf: t = log(lambda) / delta + delta / 2 -> Inf and
  # t - delta -> -Inf, so alpha = beta = 0 at every finite lambda > 0; the
  # end rows stay alpha_inf = beta_0 = 1 (full support)
  limit_p <- c(0, rep(0, 11), 1)
  limit_r <- c(1, rep(0, 11), 0)
  for (tr in list(prd_truth_gaussian(0, 1e200, angles = 11),
                  prd_truth_gaussian(c(0, 0), c(1e300, -1e300), angles = 11),
                  prd_truth_gaussian(-1e308, 1e308, angles = 11),
                  prd_truth_gaussian(0, 1, cov = 1e-320, angles = 11),
                  prd_truth_gaussian(0, 1, cov = matrix(1e-320), angles = 11),
                  prd_truth_gaussian(0, 1e3, angles = 11))) {
    expect_identical(tr$precision, limit_p)
    expect_identical(tr$recall, limit_r)
  }
  # delta is computed without overflow of the squares; beyond the largest
  # double it is Inf
  expect_equal(curve_detail(prd_truth_gaussian(0, 1e200), "delta"), 1e200)
  expect_equal(curve_detail(prd_truth_gaussian(c(0, 0), c(3e200, 4e200)), "delta"),
               5e200)
  expect_equal(curve_detail(prd_truth_gaussian(0, 1, cov = 1e-320), "delta"),
               1 / sqrt(1e-320), tolerance = 1e-12)
  expect_equal(curve_detail(prd_truth_gaussian(-1e308, 1e308), "delta"), Inf)
  expect_equal(summary(prd_truth_gaussian(0, 1e200))$auc, 0)
  # a large but representable delta still follows the closed form:
  # alpha_1 = 2 pnorm(-delta / 2), 2 pnorm(-15) = 7.34e-51 for delta = 30
  tr <- prd_truth_gaussian(0, 30, angles = 11)
  expect_equal(tr$precision[7], 2 * pnorm(-15), tolerance = 1e-10)
  expect_equal(2 * pnorm(-15), 7.3434e-51, tolerance = 1e-4)
})

test_that("a tiny delta gives the square, and a tiny variance is exact", {
  lam <- prdcurve:::lambda_grid(11)
  tr <- prd_truth_gaussian(0, 1e-200, angles = 11)
  expect_equal(curve_detail(tr, "delta"), 1e-200)
  expect_equal(tr$precision, c(0, pmin(lam, 1), 1), tolerance = 1e-15)
  expect_equal(tr$recall, c(1, pmin(1, 1 / lam), 0), tolerance = 1e-15)
  # delta = 1e-150 / sqrt(1e-300) = 1: the curve of delta = 1
  a <- prd_truth_gaussian(0, 1e-150, cov = 1e-300, angles = 21)
  b <- prd_truth_gaussian(0, 1, angles = 21)
  expect_equal(curve_detail(a, "delta"), 1, tolerance = 1e-14)
  expect_equal(a$precision, b$precision, tolerance = 1e-13)
})

test_that("a 1 x 1 covariance matrix is a variance, without warnings", {
  expect_no_warning(a <- prd_truth_gaussian(0, 1, cov = matrix(4), angles = 21))
  b <- prd_truth_gaussian(0, 1, cov = 4, angles = 21)
  expect_identical(curve_detail(a, "delta"), 0.5)
  expect_identical(a$precision, b$precision)
  expect_identical(a$recall, b$recall)
  expect_error(prd_truth_gaussian(0, 1, cov = "a"), "cov",
               class = "prdcurve_error_input")
})

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

test_that("prd_truth() bounds its number of draws", {
  p <- gaussian_mixture(0)
  expect_error(prd_truth(p, p, n = 2147483647), "`n`", class = "rlang_error")
  expect_error(prd_truth(p, p, n = 1:3), "`n`", class = "prdcurve_error_input")
})
