# pmse_stats() (R/pmse.R): synthpop's pMSE and S_pMSE of the logit model,
# against a hand computation with glm(), closed forms at the extremes, and
# synthpop::utility.gen() itself.

test_that("pMSE and S_pMSE are the hand computation with glm()", {
  set.seed(21)
  n <- 150
  m <- 100
  real <- data.frame(a = rnorm(n), g = sample(c("u", "v", "w"), n, TRUE),
                     ok = sample(c(TRUE, FALSE), n, TRUE))
  gen <- data.frame(a = rnorm(m, 0.4), g = sample(c("u", "v", "w"), m, TRUE, 3:1),
                    ok = sample(c(TRUE, FALSE), m, TRUE))
  df <- rbind(gen, real)
  df$g <- factor(df$g)
  df$t <- rep(c(1, 0), c(m, n))
  N <- n + m
  cc <- m / N
  for (mo in 0:1) {
    form <- if (mo == 0) t ~ . else t ~ .^2
    fit <- glm(form, data = df, family = binomial(),
               control = glm.control(epsilon = 1e-8, maxit = 200))
    p <- fitted(fit)
    pmse <- sum((p - cc)^2) / N
    k <- sum(!is.na(coef(fit)))
    s_pmse <- pmse / ((k - 1) * (1 - cc)^2 * cc / N)
    r <- pmse_stats(real, gen, maxorder = mo)
    expect_s3_class(r, "prd_metrics")
    expect_identical(r$metric, c("pmse", "s_pmse"))
    expect_identical(r$model, c("generated", "generated"))
    expect_equal(r$value, c(pmse, s_pmse), tolerance = 1e-10)
    expect_identical(unname(attr(r, "parameters")), k)
    # main effects 1 + 1 + 2 + 1; with the products 5 + 2 + 1 + 2
    expect_identical(k, if (mo == 0) 5L else 10L)
  }
})

test_that("the extremes: identical sets read 0, separated sets c (1 - c)", {
  set.seed(22)
  real <- data.frame(a = rnorm(80), g = rep(c("x", "y"), 40))
  expect_warning(r <- pmse_stats(real, real[80:1, ], maxorder = 1),
                 class = "prdcurve_warning_copies")
  # every propensity score is c = 1/2: pMSE 0 (to rounding)
  expect_lt(r$value[1], 1e-20)
  # the sets far apart: every score 0 or 1 (to glm's convergence)
  gen <- data.frame(a = rnorm(40, 100), g = rep(c("x", "y"), 20))
  r <- suppressWarnings(pmse_stats(real, gen, maxorder = 0))
  cc <- 40 / 120
  expect_equal(r$value[1], cc * (1 - cc), tolerance = 1e-6)
  expect_equal(r$value[2], cc * (1 - cc) / ((3 - 1) * (1 - cc)^2 * cc / 120),
               tolerance = 1e-6)
  # no column varies: only the intercept, pMSE 0 and S_pMSE undefined
  one <- data.frame(a = rep(1, 30), g = "x")
  r <- suppressWarnings(pmse_stats(one, one[1:20, ], maxorder = 1))
  expect_lt(r$value[1], 1e-20)
  expect_identical(r$value[2], NA_real_)
  expect_identical(unname(attr(r, "parameters")), 1L)
})

test_that("several models, level orders and row orders", {
  set.seed(23)
  real <- data.frame(a = rnorm(100), g = factor(sample(c("p", "q"), 100, TRUE)))
  g1 <- data.frame(a = rnorm(90, 0.2), g = factor(sample(c("p", "q"), 90, TRUE)))
  g2 <- data.frame(a = rnorm(110), g = factor(sample(c("q", "p"), 110, TRUE, 2:1)))
  r <- pmse_stats(real, list(one = g1, two = g2), maxorder = 1)
  expect_identical(r$model, c("one", "one", "two", "two"))
  expect_equal(r$value[1:2], pmse_stats(real, g1)$value, tolerance = 1e-12)
  expect_equal(r$value[3:4], pmse_stats(real, g2)$value, tolerance = 1e-12)
  # the level order and the row order change nothing
  g1b <- g1[90:1, ]
  g1b$g <- factor(g1b$g, levels = c("q", "p"))
  expect_equal(pmse_stats(real, g1b)$value, r$value[1:2], tolerance = 1e-10)
  expect_error(pmse_stats(real, g1, maxorder = -1), "maxorder",
               class = "prdcurve_error_input")
  expect_error(pmse_stats(real, g1, maxorder = 1.5), "maxorder",
               class = "prdcurve_error_input")
  # more than 400 parameters: an input error
  wide_r <- as.data.frame(matrix(rnorm(100 * 30), 100))
  wide_g <- as.data.frame(matrix(rnorm(100 * 30), 100))
  expect_error(pmse_stats(wide_r, wide_g, maxorder = 1), "400",
               class = "prdcurve_error_input")
})

test_that("pMSE and S_pMSE equal synthpop::utility.gen() on SD2011", {
  skip_if_not_installed("synthpop")
  env <- new.env()
  utils::data("SD2011", package = "synthpop", envir = env)
  sd2011 <- env$SD2011
  vars <- c("sex", "age", "placesize", "region", "nofriend")
  d <- sd2011[vars]
  for (how in c("cart", "parametric")) {
    so <- synthpop::syn(d, method = how, seed = 46, print.flag = FALSE)
    for (mo in 0:1) {
      u <- synthpop::utility.gen(so, d, method = "logit", maxorder = mo,
                                 print.flag = FALSE)
      r <- suppressWarnings(pmse_stats(d, so$syn, maxorder = mo))
      expect_equal(r$value[1], u$pMSE, tolerance = 1e-8)
      expect_equal(r$value[2], u$S_pMSE, tolerance = 1e-8)
      expect_identical(unname(attr(r, "parameters")) - 1L, as.integer(u$df))
    }
  }
})

test_that("pMSE, a logit model, gives no scale warning; the distance metrics do", {
  set.seed(12)
  n <- 120
  # (an income 10,000 times as spread as three unit columns)
  real <- data.frame(matrix(rnorm(3 * n), n), income = rlnorm(n, 10, 0.5))
  gen <- data.frame(matrix(rnorm(3 * n), n), income = rlnorm(n, 10, 0.6))
  scale_warnings <- function(expr) {
    sum(warning_classes(expr) == "prdcurve_warning_scale")
  }
  expect_identical(scale_warnings(pmse_stats(real, gen, maxorder = 0)), 0L)
  expect_identical(scale_warnings(embedding_metrics(real, gen,
                                                    metrics = c("pmse", "s_pmse"),
                                                    maxorder = 0)), 0L)
  # the same values as pmse_stats()
  a <- pmse_stats(real, gen, maxorder = 0)
  b <- embedding_metrics(real, gen, metrics = c("pmse", "s_pmse"), maxorder = 0)
  expect_equal(b$value, a$value, tolerance = 1e-12)
  # a distance metric among them: real and generated both warned
  expect_identical(scale_warnings(embedding_metrics(real, gen,
                                                    metrics = c("pmse", "fd"),
                                                    maxorder = 0)), 2L)
})

test_that("a propensity model of fewer than 10 rows per parameter warns, with its counts", {
  set.seed(5)
  mk <- function(n) data.frame(a = rnorm(n), b = rnorm(n), c = rnorm(n),
                               g = sample(c("u", "v", "w"), n, TRUE))
  # 3 numeric columns and a 3-level category with their pairwise products
  # (maxorder = 1): 19 parameters, fewer than 3 rows each
  w <- expect_warning(pmse_stats(mk(60), mk(40), maxorder = 1),
                      class = "prdcurve_warning_small_sample")
  expect_match(conditionMessage(w), "has 19 parameters for 40 rows", fixed = TRUE)
  expect_no_warning(pmse_stats(mk(60), mk(54), maxorder = 1),
                    class = "prdcurve_warning_small_sample")
  # main effects (6 parameters) on 100 rows a set: none
  expect_no_warning(pmse_stats(mk(100), mk(100), maxorder = 0),
                    class = "prdcurve_warning_small_sample")
})
