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
  # max_params (synthpop's max.params) moves the bound to the parameter:
  # 1 + 4 + 6 = 11 parameters on 4 numeric columns at maxorder = 1
  four_r <- wide_r[, 1:4]
  four_g <- wide_g[, 1:4]
  err <- expect_error(pmse_stats(four_r, four_g, max_params = 10),
                      "would have 11 parameters, more than 10",
                      class = "prdcurve_error_input")
  expect_match(conditionMessage(err), "raise `max_params`", fixed = TRUE)
  at <- pmse_stats(four_r, four_g, max_params = 11)
  expect_identical(unname(attr(at, "parameters")), 11L)
  expect_identical(at$value, pmse_stats(four_r, four_g)$value)
  expect_identical(
    embedding_metrics(four_r, four_g, metrics = "pmse", max_params = 11)$value,
    at$value[1])
  expect_error(embedding_metrics(four_r, four_g, metrics = "pmse",
                                 max_params = 10),
               "more than 10", class = "prdcurve_error_input")
  # the 30 columns' 466 parameters, allowed
  big <- suppressWarnings(pmse_stats(wide_r, wide_g, maxorder = 1,
                                     max_params = 466))
  expect_identical(unname(attr(big, "parameters")), 200L)
  # main effects alone past max_params: refused before the products are
  # listed (2,048 columns: 2.1 million products, minutes before the error)
  emb_r <- matrix(rnorm(50 * 2048), 50)
  # (50 rows: fewer than columns, warned of)
  wide_call <- function(...) {
    suppressWarnings(pmse_stats(emb_r, emb_r + 1, ...),
                     classes = "prdcurve_warning_transposed")
  }
  err <- expect_error(wide_call(maxorder = 1),
                      "would have at least 2049 parameters, more than 400",
                      class = "prdcurve_error_input")
  expect_match(conditionMessage(err), "`maxorder` = 1", fixed = TRUE)
  expect_error(wide_call(maxorder = 0),
               "would have 2049 parameters, more than 400",
               class = "prdcurve_error_input")
  for (bad in list(0, 2.5, NA, "400", c(1, 2))) {
    expect_error(pmse_stats(four_r, four_g, max_params = bad), "max_params",
                 class = "prdcurve_error_input")
  }
})

test_that("pMSE and S_pMSE equal synthpop::utility.gen() on SD2011", {
  skip_if_sanitizing()
  skip_if_not_installed("synthpop")
  env <- new.env()
  utils::data("SD2011", package = "synthpop", envir = env)
  sd2011 <- env$SD2011
  vars <- c("sex", "age", "placesize", "region", "nofriend")
  d <- sd2011[seq_len(1500), vars] # (1,500 of its 5,000 rows: the same agreement, a third of the time)
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

test_that("categories enter by treatment contrasts: parameters by hand, saturated closed forms", {
  # g (3 levels) and h (2 levels), maxorder = 1: 1 + 2 + 1 + 2 * 1 = 6
  # parameters, one per cell of g x h: the model is saturated, and each
  # row's propensity is its cell's share of generated rows
  cells <- expand.grid(g = c("a", "b", "c"), h = c("x", "y"),
                       stringsAsFactors = FALSE)
  real <- cells[c(1:6, 1, 2), ]
  gen <- cells[c(1:6, 3, 4, 5, 6, 6, 6), ]
  w <- expect_warning(r <- pmse_stats(real, gen, maxorder = 1),
                      class = "prdcurve_warning_small_sample")
  # (every indicator of every category: 1 + 5 + 3 * 2 = 12)
  expect_match(conditionMessage(w), "has 6 parameters for 8 rows", fixed = TRUE)
  expect_identical(unname(attr(r, "parameters")), 6L)
  nr <- c(2, 2, 1, 1, 1, 1)
  ng <- c(1, 1, 2, 2, 2, 4)
  N <- 20
  cc <- 12 / 20
  pmse <- sum((nr + ng) * (ng / (nr + ng) - cc)^2) / N
  expect_equal(pmse, 1 / 30)
  expect_equal(r$value, c(pmse, pmse / (5 * (1 - cc)^2 * cc / N)),
               tolerance = 1e-7)
  # embedding_metrics() fits the same model, standardized or not
  em <- suppressWarnings(embedding_metrics(real, gen, metrics = c("pmse", "s_pmse"),
                                           maxorder = 1, standardize = "real"))
  expect_equal(em$value, r$value, tolerance = 1e-10)
  # two factors of 20 levels: 1 + 19 + 19 + 19 * 19 = 400 parameters, the
  # most allowed (their indicators and products read 441), saturated
  set.seed(31)
  lv <- sprintf("c%02d", 1:20)
  cells <- expand.grid(g = lv, h = lv, stringsAsFactors = FALSE)
  real <- rbind(cells, cells[sample(400, 150), ])
  gen <- rbind(cells, cells[sample(400, 250), ])
  w <- expect_warning(r <- pmse_stats(real, gen, maxorder = 1),
                      class = "prdcurve_warning_small_sample")
  expect_match(conditionMessage(w), "has 400 parameters for 550 rows", fixed = TRUE)
  expect_identical(unname(attr(r, "parameters")), 400L)
  key <- function(d) factor(paste(d$g, d$h), paste(cells$g, cells$h))
  nr <- as.vector(table(key(real)))
  ng <- as.vector(table(key(gen)))
  N <- 1200
  cc <- 650 / N
  pmse <- sum((nr + ng) * (ng / (nr + ng) - cc)^2) / N
  expect_equal(r$value, c(pmse, pmse / (399 * (1 - cc)^2 * cc / N)),
               tolerance = 1e-9)
  # a 21st level of g seen with one level of h (the reference): one more
  # parameter, 401, refused
  real2 <- rbind(real, data.frame(g = "c21", h = "c01"))
  expect_error(suppressWarnings(pmse_stats(real2, gen, maxorder = 1)),
               "401 parameters", class = "prdcurve_error_input")
})

test_that("6 columns of SD2011 with missing categories: utility.gen()'s parameters and pMSE", {
  skip_if_sanitizing()
  skip_if_not_installed("synthpop")
  env <- new.env()
  utils::data("SD2011", package = "synthpop", envir = env)
  # 4 factors with a missing category (edu, marital, socprof) or not, a
  # number and sex: 307 coefficients in synthpop's glm(t ~ .^2), 216 not
  # aliased. (Its indicators of every category made 351 columns, on which
  # glm.fit() separated the sets: pMSE 0.250.)
  d <- env$SD2011[1:1000, c("sex", "age", "edu", "marital", "ls", "socprof")]
  so <- synthpop::syn(d, seed = 3, print.flag = FALSE)
  # (utility.gen() writes its large-model notice whatever print.flag)
  utils::capture.output(u <- synthpop::utility.gen(so, d, method = "logit",
                                                   maxorder = 1, print.flag = FALSE))
  r <- suppressMessages(suppressWarnings(pmse_stats(d, so$syn, maxorder = 1)))
  expect_equal(r$value, c(u$pMSE, u$S_pMSE), tolerance = 1e-8)
  expect_equal(r$value[1], 0.02159287, tolerance = 1e-6)
  expect_identical(unname(attr(r, "parameters")), sum(!is.na(u$fit$coefficients)))
  expect_identical(unname(attr(r, "parameters")), 216L)
  # the model's columns: glm()'s treatment contrasts and their products
  sets <- suppressMessages(suppressWarnings(prepare_samples(d, so$syn, check_scale = FALSE)))
  model <- pmse_terms(rbind(sets$real, sets$generated[[1]]),
                      attr(sets$real, "encoding"), 1L)
  expect_identical(length(model$terms) + 1L, length(u$fit$coefficients))
  expect_identical(length(model$terms) + 1L, 307L)
  # embedding_metrics() fits the same model
  em <- suppressMessages(suppressWarnings(
    embedding_metrics(d, so$syn, metrics = c("pmse", "s_pmse"), maxorder = 1)))
  expect_equal(em$value, r$value, tolerance = 1e-10)
})

test_that("SD2011 with missing numbers: utility.gen()'s indicators, pMSE and parameters", {
  skip_if_sanitizing()
  skip_if_not_installed("synthpop")
  env <- new.env()
  utils::data("SD2011", package = "synthpop", envir = env)
  # income (139 of 1,000 missing) and height (8): synthpop adds an
  # indicator of each and sets the value 0, here the real median (the
  # indicator's coefficient absorbs the difference); edu has a missing
  # category
  d <- env$SD2011[1:1000, c("sex", "age", "income", "height", "edu")]
  so <- synthpop::syn(d, seed = 3, print.flag = FALSE)
  for (mo in 0:1) {
    utils::capture.output(u <- synthpop::utility.gen(so, d, method = "logit",
                                                     maxorder = mo, print.flag = FALSE))
    r <- suppressMessages(suppressWarnings(pmse_stats(d, so$syn, maxorder = mo)))
    expect_equal(r$value, c(u$pMSE, u$S_pMSE), tolerance = 1e-8)
    expect_identical(unname(attr(r, "parameters")), sum(!is.na(u$fit$coefficients)))
  }
  expect_equal(r$value[1], 0.003905196, tolerance = 1e-6)
  expect_identical(unname(attr(r, "parameters")), 43L)
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
  # a distance metric among them: real and generated both warned, in one
  expect_identical(scale_warnings(embedding_metrics(real, gen,
                                                    metrics = c("pmse", "fd"),
                                                    maxorder = 0)), 1L)
})

test_that("a propensity model of fewer than 10 rows per parameter warns, with its counts", {
  set.seed(5)
  mk <- function(n) data.frame(a = rnorm(n), b = rnorm(n), c = rnorm(n),
                               g = sample(c("u", "v", "w"), n, TRUE))
  # 3 numeric columns and a 3-level category (2 treatment contrasts) with
  # their pairwise products (maxorder = 1): 1 + 5 + (3 + 3 * 2) = 15
  # parameters, fewer than 3 rows each (40 < 3 * 14)
  w <- expect_warning(pmse_stats(mk(60), mk(40), maxorder = 1),
                      class = "prdcurve_warning_small_sample")
  expect_match(conditionMessage(w), "has 15 parameters for 40 rows", fixed = TRUE)
  expect_no_warning(pmse_stats(mk(60), mk(54), maxorder = 1),
                    class = "prdcurve_warning_small_sample")
  # main effects (6 parameters) on 100 rows a set: none
  expect_no_warning(pmse_stats(mk(100), mk(100), maxorder = 0),
                    class = "prdcurve_warning_small_sample")
})

test_that("a propensity fit whose deviance passes the intercept-only model's warns", {
  set.seed(6)
  real <- data.frame(a = rnorm(300), g = sample(c("u", "v"), 300, TRUE))
  gen <- data.frame(a = rnorm(300, 0.3), g = sample(c("u", "v"), 300, TRUE))
  # a maximum-likelihood fit: below the null deviance, no warning
  D <- cbind(1, c(real$a, gen$a))
  fit <- pmse_glm(D, rep(0:1, each = 300))
  expect_lt(fit$deviance, fit$null.deviance - 10)
  expect_no_warning(warn_pmse_fit(fit))
  expect_no_warning(suppressMessages(pmse_stats(real, gen)),
                    class = "prdcurve_warning_convergence")
  # sets told apart (fitted probabilities 0 and 1): the deviance near 0,
  # no warning, pMSE its maximum 1/4
  far <- data.frame(a = real$a + 50, g = real$g)
  expect_no_warning(s <- suppressMessages(pmse_stats(real, far, maxorder = 0)),
                    class = "prdcurve_warning_convergence")
  expect_equal(s$value[1], 0.25, tolerance = 1e-6)
  # a diverged fit: above the null deviance
  bad <- fit
  bad$deviance <- fit$null.deviance + 3
  w <- expect_warning(warn_pmse_fit(bad), class = "prdcurve_warning_convergence")
  expect_match(conditionMessage(w), sprintf("its deviance (%s) is above the intercept-only model's (%s)",
                                            format(bad$deviance, digits = 4),
                                            format(fit$null.deviance, digits = 4)),
               fixed = TRUE)
  bad$deviance <- NaN
  expect_warning(warn_pmse_fit(bad), class = "prdcurve_warning_convergence")
})
