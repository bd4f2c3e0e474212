# Tests of R/metrics-class.R.

gauss <- function(n, d, shift = 0) {
  x <- matrix(stats::rnorm(n * d), n, d)
  x[, 1] <- x[, 1] + shift
  x
}

test_that("a share at 0 or 1 in every half-sample gets the Wilson interval, not [0, 0]", {
  z <- stats::qnorm(0.95)
  # Wilson (1927) at p = 1 and p = 0 over n rows: [1 / (1 + z^2 / n), 1]
  # and [0, (z^2 / n) / (1 + z^2 / n)]; in between, the closed form
  expect_equal(prdcurve:::wilson_interval(1, 150, 0.9),
               c(lower = 1 / (1 + z^2 / 150), upper = 1))
  expect_equal(prdcurve:::wilson_interval(0, 150, 0.9),
               c(lower = 0, upper = (z^2 / 150) / (1 + z^2 / 150)))
  expect_equal(unname(prdcurve:::wilson_interval(0.3, 50, 0.9)),
               ((0.3 + z^2 / 100) + c(-1, 1) * z *
                  sqrt(0.3 * 0.7 / 50 + z^2 / (4 * 50^2))) / (1 + z^2 / 50))
  # sets far apart: precision and recall are 0 in every half-sample; the
  # intervals are Wilson's over the evaluation rows (split 0.5: 40
  # generated, 75 real), at the table's level and at tidy()'s
  set.seed(23)
  real <- gauss(150, 3)
  far <- gauss(80, 3, shift = 50)
  m0 <- manifold_metrics(real, far, metrics = c("precision", "recall"), k = 3,
                         replicates = 6, conf_level = 0.8, split = 0.5)
  expect_identical(m0$value, c(0, 0))
  expect_true(all(attr(m0, "replicates")$value == 0))
  expect_identical(unname(attr(m0, "eval_sizes")[1, ]), c(75L, 40L))
  z8 <- stats::qnorm(0.9)
  expect_identical(m0$lower, c(0, 0))
  expect_equal(m0$upper, c((z8^2 / 40) / (1 + z8^2 / 40),
                           (z8^2 / 75) / (1 + z8^2 / 75)))
  expect_equal(tidy(m0, conf.level = 0.9)$conf.high,
               c((z^2 / 40) / (1 + z^2 / 40), (z^2 / 75) / (1 + z^2 / 75)))
  # the sets the Wilson part counts over; density is no share: its
  # interval stays [0, 0]
  expect_identical(vapply(manifold_metric_names(), prdcurve:::manifold_over, ""),
                   c(precision = "generated", recall = "real", density = NA,
                     coverage = "real", c_precision = "generated",
                     sym_precision = "generated", sym_recall = "real",
                     prc_precision = "generated", prc_recall = "real",
                     p_precision = "generated", p_recall = "real"))
  md <- manifold_metrics(real, far, metrics = "density", k = 3, replicates = 4)
  expect_identical(c(md$lower, md$upper), c(0, 0))
})

test_that("Newcombe's interval of a difference of shares", {
  nc <- prdcurve:::newcombe_interval
  # Newcombe (1998), Table II, method 10 at 95%, to the 4 decimals printed
  expect_equal(round(unname(nc(56 / 70, 70, 48 / 80, 80, 0.95)), 4),
               c(0.0524, 0.3339))
  expect_equal(round(unname(nc(9 / 10, 10, 3 / 10, 10, 0.95)), 4),
               c(0.1705, 0.8090))
  expect_equal(round(unname(nc(0, 10, 0, 20, 0.95)), 4), c(-0.1611, 0.2775))
  # by hand at 90%: 7/8 - 2/5, Wilson limits in Newcombe's form
  # (2x + z^2 -+ z sqrt(z^2 + 4 x (n - x) / n)) / (2 (n + z^2))
  z <- stats::qnorm(0.95)
  wil <- function(x, n) {
    (2 * x + z^2 + c(-1, 1) * z * sqrt(z^2 + 4 * x * (n - x) / n)) /
      (2 * (n + z^2))
  }
  w1 <- wil(7, 8)
  w2 <- wil(2, 5)
  d <- 7 / 8 - 2 / 5
  expect_equal(unname(nc(7 / 8, 8, 2 / 5, 5, 0.9)),
               c(d - sqrt((7 / 8 - w1[1])^2 + (w2[2] - 2 / 5)^2),
                 d + sqrt((w1[2] - 7 / 8)^2 + (2 / 5 - w2[1])^2)),
               tolerance = 1e-12)
  # at the bound: a share within half an evaluation row of 0 or 1
  at <- prdcurve:::at_share_bound
  expect_true(at(c(0.99, 1), 100))
  expect_true(at(c(0.5, 1 - 8e-9), 100))
  expect_true(at(c(0.5, 0), 100))
  expect_false(at(c(0.99, 0.98, NA), 100))
  # a copy: the same values everywhere, one of them off its bounds
  same <- function(density_a, density_b) {
    x <- structure(list(), class = "prd_metrics", eval_sizes = matrix(
      100L, 2, 2, dimnames = list(c("a", "b"), c("eval_real", "eval_generated"))))
    st <- c("recall", "density")
    est <- tibble::tibble(model = rep(c("a", "b"), each = 2),
                          method = NA_character_, k = 3L, statistic = rep(st, 2),
                          estimate = c(1, density_a, 1, density_b))
    reps <- tibble::tibble(model = rep(c("a", "b"), each = 4),
                           method = NA_character_, k = 3L,
                           statistic = rep(rep(st, each = 2), 2),
                           replicate = rep(1:2, 4),
                           value = c(1, 1, density_a, density_a,
                                     1, 1, density_b, density_b))
    prdcurve:::same_models(est, reps, "a", "b", x)
  }
  expect_true(same(0.2, 0.2))
  expect_false(same(0.2, 0.3))
  # a recall of 1 and a density of 0 everywhere: no value tells them apart
  expect_false(same(0, 0))
})
