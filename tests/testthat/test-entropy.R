# knn_entropy(), knn_cross_entropy() and entropy_metrics() (SPEC.md
# section 4): brute-force equality, exact invariances, closed forms with
# tolerances measured by simulation, and the zero-distance warning.
#
# Statistical tolerances: for each setting the estimator was run on 100
# (or 20, marked) independent replicates of the same size with k = 5; the
# test asserts |estimate - (truth + bias)| <= 4 sd, with the measured mean
# bias and standard deviation written next to each case.

# Brute force of SPEC.md section 4 from full distance matrices.
brute_terms <- function(x, ref, k, self) {
  d2 <- sq_dist(x, ref)
  n_ref <- nrow(ref) - self
  r2 <- vapply(seq_len(nrow(x)), function(i)
    kth_skip(d2[i, ], k, if (self) i else NA), 0)
  d <- ncol(x)
  log(n_ref) - digamma(k) + (d / 2) * log(pi) - lgamma(d / 2 + 1) +
    (d / 2) * log(r2)
}
brute_h <- function(x, k) mean(brute_terms(x, x, k, TRUE))
brute_ce <- function(x, y, k) mean(brute_terms(x, y, k, FALSE))

gauss <- function(n, d, sd = 1) matrix(stats::rnorm(n * d, sd = sd), ncol = d)

test_that("the estimators equal the brute force, every k from one call", {
  quiet_traps({
    set.seed(401)
    x <- gauss(40, 3)
    y <- gauss(35, 3, sd = 1.5) + 0.3
    ks <- c(1, 4, 7)
    expect_equal(unname(knn_entropy(x, ks)),
                 vapply(ks, function(k) brute_h(x, k), 0), tolerance = 1e-12)
    expect_equal(unname(knn_cross_entropy(x, y, ks)),
                 vapply(ks, function(k) brute_ce(x, y, k), 0), tolerance = 1e-12)
    expect_equal(unname(knn_cross_entropy(y, x, ks)),
                 vapply(ks, function(k) brute_ce(y, x, k), 0), tolerance = 1e-12)
    expect_named(knn_entropy(x, c(7, 1, 4, 4)), c("k=1", "k=4", "k=7"))

    m <- entropy_metrics(x, y, k = ks, subsample = FALSE)
    smp <- entropy_samples(x, y, k = ks, subsample = FALSE)
    res <- list(generated = smp[smp$set == "generated", ],
                real = smp[smp$set == "real", ])
    expect_named(m, c("model", "metric", "k", "value"))
    expect_equal(m$metric, rep(c("pce", "rce", "re"), each = 3))
    expect_equal(m$k, rep(c(1L, 4L, 7L), 3))
    for (k in ks) {
      v <- m$value[m$k == k]
      expect_equal(v, c(brute_ce(y, x, k) - brute_h(x, k),
                        brute_ce(x, y, k) - brute_h(x, k),
                        brute_h(y, k) - brute_h(x, k)), tolerance = 1e-12)
      # per-sample contributions: exact definitions, and their means
      g <- res$generated[res$generated$k == k, ]
      r <- res$real[res$real$k == k, ]
      expect_equal(g$row, seq_len(35))
      expect_equal(r$row, seq_len(40))
      expect_equal(g$pce, brute_terms(y, x, k, FALSE) - brute_h(x, k),
                   tolerance = 1e-12)
      expect_equal(g$re, brute_terms(y, y, k, TRUE) - brute_h(x, k),
                   tolerance = 1e-12)
      expect_equal(r$rce,
                   brute_terms(x, y, k, FALSE) - brute_terms(x, x, k, TRUE),
                   tolerance = 1e-12)
      expect_equal(c(mean(g$pce), mean(r$rce), mean(g$re)), v, tolerance = 1e-12)
    }
    est <- attr(m, "estimates")
    expect_equal(est$h_real, vapply(ks, function(k) brute_h(x, k), 0),
                 tolerance = 1e-12)
    expect_equal(est$ce_generated_real,
                 vapply(ks, function(k) brute_ce(y, x, k), 0), tolerance = 1e-12)
    # one k at a time gives the same numbers as the vector
    expect_equal(entropy_metrics(x, y, k = 4, subsample = FALSE)$value, m$value[m$k == 4],
                 tolerance = 1e-14)
    # data frames and integer matrices are accepted like the double matrix
    expect_equal(entropy_metrics(as.data.frame(x), as.data.frame(y), k = 4, subsample = FALSE)$value,
                 m$value[m$k == 4], tolerance = 1e-14)
  })
})

test_that("integer data with tied distances match the brute force", {
  quiet_traps({
    set.seed(402)
    x <- matrix(sample(0:6, 60 * 4, replace = TRUE), ncol = 4)
    y <- matrix(sample(0:7, 50 * 4, replace = TRUE), ncol = 4)
    expect_equal(unname(knn_entropy(x, c(2, 5))),
                 c(brute_h(x * 1, 2), brute_h(x * 1, 5)), tolerance = 1e-12)
    v <- entropy_metrics(x, y, k = 5, subsample = FALSE)$value
    expect_equal(v, c(brute_ce(y, x, 5) - brute_h(x, 5),
                      brute_ce(x, y, 5) - brute_h(x, 5),
                      brute_h(y, 5) - brute_h(x, 5)), tolerance = 1e-12)
  })
})

test_that("log V_d and d log D stay finite in thousands of dimensions", {
  # unit-ball volumes 2, pi, 4 pi / 3, and V_3000 (which underflows to 0)
  lv <- prdcurve:::log_unit_ball(c(1, 2, 3, 3000))
  expect_equal(exp(lv[1:3]), c(2, pi, 4 * pi / 3), tolerance = 1e-14)
  expect_equal(lv[4], 1500 * log(pi) - lgamma(1501), tolerance = 1e-14)
  expect_true(is.finite(lv[4]) && lv[4] < -7000)
  expect_true(is.nan(pi^1500 / gamma(1501)))  # the naive formula fails
  # scaling by c shifts the entropy by exactly d log c, even where D^d and
  # c^d underflow (1e-3^3000 = 0 in double precision)
  set.seed(403)
  d <- 3000
  x <- gauss(30, d)
  # 30 samples of dimension 3000 on purpose: no "samples in rows?" warning
  withr::local_options(prdcurve.check_inputs = FALSE)
  h <- knn_entropy(x, c(1, 5))
  h_small <- knn_entropy(x * 1e-3, c(1, 5))
  expect_true(all(is.finite(c(h, h_small))))
  expect_equal(unname(h_small - h), rep(d * log(1e-3), 2), tolerance = 1e-10)
  # translation invariance
  expect_equal(knn_entropy(x + 5, 5), knn_entropy(x, 5), tolerance = 1e-10)
  expect_equal(unname(h[2]), brute_h(x, 5), tolerance = 1e-12)
})

test_that("knn_entropy recovers the entropy of N(0, I_d), d = 1, 2, 10", {
  # H = (d / 2) log(2 pi e). Measured over 100 replicates, k = 5:
  #   d = 1,  n = 1000: bias -0.002, sd 0.029 -> tolerance 0.12
  #   d = 2,  n = 1000: bias -0.018, sd 0.036 -> tolerance 0.15
  #   d = 10, n = 2000: bias +0.104, sd 0.061 -> tolerance 0.25
  cases <- list(c(d = 1, n = 1000, bias = -0.002, tol = 0.12),
                c(d = 2, n = 1000, bias = -0.018, tol = 0.15),
                c(d = 10, n = 2000, bias = 0.104, tol = 0.25))
  set.seed(404)
  for (cs in cases) {
    h <- knn_entropy(gauss(cs[["n"]], cs[["d"]]), k = 5)
    truth <- cs[["d"]] / 2 * log(2 * pi * exp(1))
    expect_lte(abs(h - truth - cs[["bias"]]), cs[["tol"]])
  }
})

test_that("knn_entropy recovers log(volume) of uniform samples on a box", {
  # Boundary balls stick out of the box: the estimate is biased upwards,
  # more so in higher dimension. Measured over 100 replicates, k = 5:
  #   [0, 2],            n = 1000: bias +0.003, sd 0.021 -> tolerance 0.085
  #   [0,2]x[0,1]x[0,3], n = 2000: bias +0.138, sd 0.017 -> tolerance 0.07
  set.seed(405)
  h1 <- knn_entropy(matrix(2 * stats::runif(1000), ncol = 1), k = 5)
  expect_lte(abs(h1 - log(2) - 0.003), 0.085)
  box <- sweep(matrix(stats::runif(2000 * 3), ncol = 3), 2, c(2, 1, 3), "*")
  h3 <- knn_entropy(box, k = 5)
  expect_lte(abs(h3 - log(6) - 0.138), 0.07)
  # the boundary bias is real: 0.138 is more than 8 sd away from 0
  expect_gt(h3 - log(6), 0.138 - 0.07)
})

test_that("cross-entropy of two samples of one distribution is its entropy", {
  # N(0, I_2), n = 1000 each: bias -0.019, sd 0.035 (100 replicates)
  set.seed(406)
  ce <- knn_cross_entropy(gauss(1000, 2), gauss(1000, 2), k = 5)
  expect_lte(abs(ce - log(2 * pi * exp(1)) + 0.019), 0.14)
})

test_that("cross-entropy is strongly biased far outside the reference bulk", {
  # P = N(0, 2.5 I_10), Q = N(0, I_10), n = 1000 each, k = 5:
  # CE(P, Q) = 5 log(2 pi) + 5 * 2.5 = 21.69; the estimate averages 18.40
  # (bias -3.29, sd 0.069 over 100 replicates). The documented bias is
  # asserted so that a change in it is noticed.
  set.seed(407)
  ce <- knn_cross_entropy(gauss(1000, 10, sd = sqrt(2.5)), gauss(1000, 10),
                          k = 5)
  truth <- 5 * log(2 * pi) + 12.5
  expect_lte(abs(ce - (truth - 3.29)), 0.28)
  expect_gt(truth - ce, 2.9)
})

test_that("PCE, RCE and RE on the Gaussian setting of Fox et al. (Table 1)", {
  # R = N(0, I_10), G = N(0, s2 I_10), n = 1000 each, k = 5. Closed forms:
  # PCE = 5 (s2 - 1), RCE = KL(R || G) = 5 (1 / s2 - 1 + log s2),
  # RE = 5 log s2. Measured over 20 replicates (mean bias, sd):
  #   s2 = 0.25: PCE +0.66 (0.075), RCE -8.37 (0.024), RE 0.00 (0.095)
  #   s2 = 1:    PCE +0.02 (0.073), RCE +0.01 (0.047), RE +0.01 (0.110)
  #   s2 = 2.5:  PCE -3.46 (0.113), RCE +0.61 (0.105), RE -0.02 (0.107)
  set.seed(408)
  real <- gauss(1000, 10)
  val <- list()
  for (s2 in c(0.25, 1, 2.5)) {
    m <- entropy_metrics(real, gauss(1000, 10, sd = sqrt(s2)), k = 5)
    val[[format(s2)]] <- stats::setNames(m$value, m$metric)
  }
  # identical distributions: all three are 0 (4 sd + bias)
  expect_lte(abs(val[["1"]][["pce"]] - 0.02), 0.3)
  expect_lte(abs(val[["1"]][["rce"]] - 0.01), 0.19)
  expect_lte(abs(val[["1"]][["re"]] - 0.01), 0.44)
  # RE is nearly unbiased here and matches 5 log s2
  expect_lte(abs(val[["0.25"]][["re"]] - 5 * log(0.25)), 0.38)
  expect_lte(abs(val[["2.5"]][["re"]] - 5 * log(2.5) + 0.02), 0.43)
  # orderings: RE increases with s2, PCE is lowest for s2 <= 1
  re <- vapply(val, `[[`, 0, "re")
  pce <- vapply(val, `[[`, 0, "pce")
  expect_true(all(diff(re) > 3))
  expect_true(all(diff(pce) > 2))
  expect_lt(pce[["0.25"]], 0)
  # PCE at s2 = 2.5 is far below its truth 7.5 (the cross-entropy bias)
  expect_lte(abs(pce[["2.5"]] - (7.5 - 3.46)), 0.45)
  # RCE at s2 = 0.25 collapses to about 0 although KL(R || G) = 8.07
  expect_lte(abs(val[["0.25"]][["rce"]] - (8.07 - 8.37)), 0.1)
})

test_that("zero k-NN distances give -Inf and a warning with the count", {
  quiet_traps({
    set.seed(409)
    x <- gauss(20, 2)
    x[2:3, ] <- x[rep(1, 2), ]  # three copies of row 1
    expect_warning(h <- knn_entropy(x, k = 1:3), "3 of 20 rows")
    expect_equal(unname(h[1:2]), c(-Inf, -Inf))
    expect_true(is.finite(h[3]))
    expect_no_warning(knn_entropy(x, k = 3))

    real <- gauss(30, 2)
    generated <- gauss(30, 2) # (one size: no subsample leaves row 7 out)
    generated[4, ] <- real[7, ]  # one memorised row
    expect_warning(m <- entropy_metrics(real, generated, k = 1:2),
                   "1 of 30 generated samples",
                   class = "prdcurve_warning_zero_radius")
    v <- m$value
    expect_equal(v[m$k == 1 & m$metric == "pce"], -Inf)
    expect_equal(v[m$k == 1 & m$metric == "rce"], -Inf)
    expect_true(all(is.finite(v[m$k == 2])))
    smp <- suppressWarnings(entropy_samples(real, generated, k = 1:2))
    g1 <- smp[smp$set == "generated" & smp$k == 1, ]
    expect_equal(g1$pce[4], -Inf)
    expect_true(all(is.finite(g1$pce[-4])))
    expect_warning(knn_cross_entropy(generated, real, k = 1), "1 of 30 rows")
  })
})

test_that("invalid arguments are rejected with the argument's name", {
  quiet_traps({
    set.seed(410)
    x <- gauss(10, 2)
    y <- gauss(12, 3)
    expect_error(knn_entropy(x, k = 10), "k", class = "prdcurve_error")
    expect_error(knn_entropy(x, k = 0), "k", class = "prdcurve_error")
    expect_error(knn_entropy(x[, 1]), "x", class = "prdcurve_error")
    expect_error(knn_cross_entropy(x, y), "same number of columns",
                 class = "prdcurve_error")
    expect_error(knn_cross_entropy(x, gauss(5, 2), k = 6), "too large",
                 class = "prdcurve_error")
    expect_error(entropy_metrics(x, y), "same number of columns",
                 class = "prdcurve_error")
    expect_error(entropy_metrics(x, gauss(5, 2), k = 5), "too large",
                 class = "prdcurve_error")
    expect_error(suppressWarnings(entropy_metrics(x, gauss(8, 2),
                                                 per_sample = "yes")),
                 "per_sample", class = "prdcurve_error")
    x[3, 1] <- NA
    expect_error(entropy_metrics(x, gauss(8, 2)), "real", class = "prdcurve_error")
  })
})

test_that("a fully collapsed generator gives RE = -Inf with a warning", {
  quiet_traps({
    set.seed(61)
    real <- matrix(rnorm(40 * 3), ncol = 3)
    generated <- matrix(0.5, 20, 3)
    expect_warning(res <- entropy_metrics(real, generated, k = 2),
                   "zero k-th neighbour distance",
                   class = "prdcurve_warning_zero_radius")
    expect_equal(res$value[res$metric == "re"], -Inf)
    # distances from the collapsed point to the real rows are positive
    expect_true(is.finite(res$value[res$metric == "pce"]))
    # the advice asks for a larger k only where one is allowed: k <= 19
    # here (20 generated rows less the row itself), none above 5 for 6 rows
    w <- expect_warning(entropy_metrics(real, generated, k = 2),
                        class = "prdcurve_warning_zero_radius")
    expect_match(conditionMessage(w), "Use a larger `k` (at most 19 here)",
                 fixed = TRUE)
    w <- expect_warning(knn_entropy(matrix(1, 6, 2), k = 5),
                        class = "prdcurve_warning_zero_radius")
    expect_match(conditionMessage(w), "`k` is at its largest (5) here: remove the duplicates.",
                 fixed = TRUE)
    expect_no_match(conditionMessage(w), "larger")
  })
})

test_that("the cross-entropy allows k = n_Y (no point is left out)", {
  set.seed(62)
  x <- matrix(rnorm(30 * 2), ncol = 2)
  y <- matrix(rnorm(8 * 2), ncol = 2)
  d2 <- sq_dist(x, y)
  r2 <- apply(d2, 1, max)  # the 8th neighbour of 8 is the farthest
  expected <- mean(log(8) - digamma(8) + log(pi) + log(r2))
  expect_equal(unname(knn_cross_entropy(x, y, k = 8)), expected,
               tolerance = 1e-12)
  expect_error(knn_cross_entropy(x, y, k = 9), "`k`")
})

test_that("without a split the entropies equal those of the full sweep", {
  quiet_traps({
    # no split: the radii come from X x X, Y x Y (symmetric tiles) and X x Y
    # once; the symmetric = FALSE knob computes the full sweep
    set.seed(63)
    lat <- function(n, d) matrix(sample(0:5, n * d, TRUE), ncol = d)
    sets <- list(
      gauss = list(gauss(300, 5), list(a = gauss(220, 5, 1.3),
                                       b = gauss(260, 5) + 0.4)),
      ties = list(lat(250, 3) + 1e6, lat(200, 3) + 1e6)
    )
    for (st in sets) {
      run <- function(sym, f, ...) {
        prdcurve:::local_engine_knobs(symmetric = sym)
        set.seed(7)
        suppressWarnings(f(st[[1]], st[[2]], ...))
      }
      ks <- c(1, 3, 10)
      full <- run(FALSE, entropy_metrics, k = ks)
      # (k = 1 on the lattice: zero radii, -Inf terms)
      expect_true(all(is.finite(full$value[full$k == 10])))
      expect_identical(run(TRUE, entropy_metrics, k = ks), full)
      expect_identical(run(TRUE, entropy_metrics, k = ks, replicates = 4),
                       run(FALSE, entropy_metrics, k = ks, replicates = 4))
      expect_identical(run(TRUE, entropy_samples, k = 3),
                       run(FALSE, entropy_samples, k = 3))
    }
  })
})
