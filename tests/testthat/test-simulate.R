# The papers' toy distributions and their ground truths.

test_that("sim_shifted_gaussians draws the two Gaussians with the exact truth", {
  set.seed(1)
  sim <- sim_shifted_gaussians(n = 2000, d = 4, shift = 0.5, n_generated = 1500)
  expect_equal(dim(sim$real), c(2000L, 4L))
  expect_equal(dim(sim$generated), c(1500L, 4L))
  # delta = 0.5 * sqrt(4) = 1
  expect_equal(curve_detail(sim$truth, "delta"), 1)
  # column means: SE 1 / sqrt(n) = 0.022 / 0.026; 4 SE
  expect_true(all(abs(colMeans(sim$real)) < 4 / sqrt(2000)))
  expect_true(all(abs(colMeans(sim$generated) - 0.5) < 4 / sqrt(1500)))
  expect_equal(sim$truth$precision,
               prd_truth_gaussian(rep(0, 4), rep(0.5, 4))$precision)
})

test_that("the mixture truth is the discrete curve of the weights when modes are apart", {
  set.seed(2)
  sim <- sim_gaussian_mixtures(n = 200, d = 64, angles = 51)
  p <- c(0.2, 0.2, 0.6, 0)
  q <- c(0, 0.5, 0.1, 0.4)
  dis <- prd_discrete(p, q, angles = 51)
  # modes mu * 1_64 are at least 2 * 8 = 16 sd apart: the overlap is below
  # 1e-12 at every finite lambda of the grid
  fin <- 2:52
  expect_equal(sim$truth$precision[fin], dis$precision[fin], tolerance = 1e-9)
  expect_equal(sim$truth$recall[fin], dis$recall[fin], tolerance = 1e-9)
  # full support: the end rows are 1 (dis has 0.6 and 0.8 there)
  expect_equal(sim$truth$precision[53], 1)
  expect_equal(sim$truth$recall[1], 1)
  expect_equal(dim(sim$real), c(200L, 64L))
  expect_s3_class(sim$mixtures$real, "prd_gaussian_mixture")
})

test_that("the mixture quadrature reproduces the Gaussian closed form", {
  set.seed(3)
  # one mode each, at 0 and 0.5 * 1_4: delta = 0.5 * sqrt(4) / 1 = 1
  sim <- sim_gaussian_mixtures(n = 10, d = 4, means = c(0, 0.5),
                               weights_real = c(1, 0),
                               weights_generated = c(0, 1), angles = 41)
  ex <- prd_truth_gaussian(rep(0, 4), rep(0.5, 4), angles = 41)
  # trapezoid rule, step sd / 200 on a smooth integrand with one kink
  expect_equal(sim$truth$precision, ex$precision, tolerance = 1e-6)
  expect_equal(sim$truth$recall, ex$recall, tolerance = 1e-6)
  # general centres (a matrix): Monte Carlo truth, within 4 SE of the same
  sim2 <- sim_gaussian_mixtures(n = 10, d = 4, means = rbind(0, rep(0.5, 4)),
                                weights_real = c(1, 0),
                                weights_generated = c(0, 1),
                                truth_n = 20000, angles = 41)
  se <- curve_detail(sim2$truth, "std_error")$precision
  mid <- which(ex$lambda >= 0.2 & ex$lambda <= 5)
  expect_true(all(abs(sim2$truth$precision - ex$precision)[mid] < 4 * se[mid]))
})

test_that("sim_spheres draws on the spheres; the truth is singular", {
  set.seed(4)
  sim <- sim_spheres(n = 100, d = 8, radius = 1.2, n_generated = 50)
  expect_equal(sqrt(rowSums(sim$real^2)), rep(1, 100), tolerance = 1e-12)
  expect_equal(sqrt(rowSums(sim$generated^2)), rep(1.2, 50), tolerance = 1e-12)
  expect_equal(sim$truth$precision, rep(0, 1003))
  expect_equal(sim$truth$recall, rep(0, 1003))
  ball <- sim_spheres(n = 100, d = 8, radius = 1, support = "ball")
  expect_true(all(rowSums(ball$generated^2) <= 1))
  expect_equal(max(ball$truth$precision), 0)
  same <- sim_spheres(n = 100, d = 8, radius = 1, angles = 11)
  expect_equal(same$truth$precision[7], 1)  # lambda = 1: the square's corner
  expect_equal(same$truth$recall[7], 1)
  expect_error(sim_spheres(radius = 0), "radius")
  expect_error(sim_spheres(support = "cube"), class = "prdcurve_error")
})

test_that("a huge shift gives the disjoint limit of the truth, not NaN", {
  set.seed(5)
  sim <- sim_shifted_gaussians(n = 5, d = 2, shift = 1e300, angles = 11)
  expect_equal(curve_detail(sim$truth, "delta"), 1e300 * sqrt(2))
  expect_identical(sim$truth$precision, c(0, rep(0, 11), 1))
  expect_identical(sim$truth$recall, c(1, rep(0, 11), 0))
  expect_true(all(is.finite(sim$generated)))
})

test_that("a tiny sd gives the mixture truth of separated modes", {
  # sd = 1e-300: every pair of modes is ~1e300 sd apart, so the truth is
  # the discrete curve of the weights at every finite lambda; the
  # quadrature grid has 4801 points per mode whatever the ratio
  set.seed(6)
  sim <- sim_gaussian_mixtures(n = 4, d = 2, sd = 1e-300, angles = 21)
  dis <- prd_discrete(c(0.2, 0.2, 0.6, 0), c(0, 0.5, 0.1, 0.4), angles = 21)
  fin <- 2:22
  expect_equal(sim$truth$precision[fin], dis$precision[fin], tolerance = 1e-12)
  expect_equal(sim$truth$recall[fin], dis$recall[fin], tolerance = 1e-12)
  expect_equal(sim$truth$precision[23], 1)
  # modes 1e300 apart, and the same modes with overlapping windows:
  # one mode each at 0 and 0.5 * 1_4 (delta = 1) matches the closed form
  far <- sim_gaussian_mixtures(n = 4, d = 2, means = c(-1e300, 1e300),
                               weights_real = c(1, 0),
                               weights_generated = c(0, 1), angles = 21)
  expect_identical(far$truth$precision, c(0, rep(0, 21), 1))
  near <- sim_gaussian_mixtures(n = 4, d = 4, means = c(0, 0.5), sd = 1e-200,
                                weights_real = c(1, 0),
                                weights_generated = c(0, 1), angles = 21)
  # 0.5 * sqrt(4) / 1e-200 = 1e200 sd apart
  expect_identical(near$truth$precision, c(0, rep(0, 21), 1))
  ex <- prd_truth_gaussian(rep(0, 4), rep(0.5e-3, 4), cov = 1e-6, angles = 21)
  same <- sim_gaussian_mixtures(n = 4, d = 4, means = c(0, 0.5e-3),
                                sd = 1e-3, weights_real = c(1, 0),
                                weights_generated = c(0, 1), angles = 21)
  expect_equal(same$truth$precision, ex$precision, tolerance = 1e-6)
})

test_that("simulators refuse sizes beyond 1e8 values per matrix", {
  t0 <- proc.time()[["elapsed"]]
  expect_error(sim_gaussian_mixtures(n = 2147483647), "`n`",
               class = "prdcurve_error_input")
  expect_error(sim_gaussian_mixtures(n = 10, n_generated = 2e6, d = 64),
               "`n_generated`", class = "prdcurve_error_input")
  expect_error(sim_shifted_gaussians(n = 1e7, d = 11), "`n`",
               class = "prdcurve_error_input")
  expect_error(sim_spheres(n = 2147483647), "`n`",
               class = "prdcurve_error_input")
  # each size names its argument and the simulator it was given to
  e <- expect_error(sim_spheres(d = 1), "`d`", class = "prdcurve_error_input")
  expect_identical(e$call[[1]], quote(sim_spheres))
  e <- expect_error(sim_shifted_gaussians(n_generated = 1.5), "`n_generated`",
                    class = "prdcurve_error_input")
  expect_identical(e$call[[1]], quote(sim_shifted_gaussians))
  e <- expect_error(sim_gaussian_mixtures(n = 1e7, d = 11), "`n`",
                    class = "prdcurve_error_input")
  expect_identical(e$call[[1]], quote(sim_gaussian_mixtures))
  expect_equal(dim(sim_spheres(n = 2, d = 2, n_generated = 3)$generated),
               c(3L, 2L))
  mix <- gaussian_mixture(c(0, 0))
  expect_error(mix$sample(5e7 + 1), "`n`", class = "prdcurve_error_input")
  expect_equal(dim(mix$sample(0)), c(0L, 2L))
  # refused at once, nothing drawn
  expect_lt(proc.time()[["elapsed"]] - t0, 5)
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

test_that("gaussian_mixture() normalises any finite weights safely", {
  mix <- gaussian_mixture(rbind(0, 1), weights = c(1e308, 1e308))
  expect_identical(mix$weights, c(0.5, 0.5))
  mix <- gaussian_mixture(rbind(0, 1, 2), weights = c(1e308, 0, 5e-324))
  expect_identical(mix$weights, c(1, 0, 0))
  mix <- gaussian_mixture(rbind(0, 1), weights = c(5e-324, 1.5e-323))
  expect_equal(mix$weights, c(0.25, 0.75), tolerance = 0.1)  # subnormals
  expect_equal(sum(mix$weights), 1)
})

test_that("gaussian_mixture()'s sd error says what it was given", {
  e <- expect_error(gaussian_mixture(matrix(0, 1, 2), sd = integer(0)),
                    class = "prdcurve_error_input")
  # (it read "It is ." for an empty vector, and "or 1 (one per component)")
  expect_match(conditionMessage(e), "`sd` must be one positive number.", fixed = TRUE)
  expect_match(conditionMessage(e), "It is an empty integer vector.", fixed = TRUE)
  e <- expect_error(gaussian_mixture(matrix(0, 2, 2), sd = c(1, 2, 3)),
                    class = "prdcurve_error_input")
  expect_match(conditionMessage(e), "one positive number or 2 (one per component)", fixed = TRUE)
  expect_match(conditionMessage(e), "It is 1, 2, and 3.", fixed = TRUE)
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
