# The logit family (R/family-logit.R): synthpop's propensity model, fitted
# on the fit rows; its scores against glm() on the same rows.

logit_sets <- function(n, m, seed) {
  set.seed(seed)
  real <- data.frame(a = rnorm(n), b = rexp(n),
                     g = factor(sample(c("x", "y", "z"), n, TRUE)))
  gen <- data.frame(a = rnorm(m, 0.3), b = rexp(m, 1.3),
                    g = factor(sample(c("x", "y", "z"), m, TRUE, c(0.5, 0.3, 0.2))))
  list(real = real, gen = gen)
}

test_that("fit_logit() equals glm() on the fit rows, main effects and interactions", {
  s <- logit_sets(120, 100, 1)
  sets <- prepare_samples(s$real, s$gen)
  X <- sets$real
  Y <- sets$generated[[1]]
  fx <- seq(1, 120, by = 2)
  fy <- seq(2, 100, by = 2)
  df <- rbind(s$real[fx, ], s$gen[fy, ])
  df$t <- rep(c(0, 1), c(length(fx), length(fy)))
  ctl <- glm.control(epsilon = 1e-8, maxit = 200)
  for (mo in 0:1) {
    f <- fit_logit(X, Y, fx, fy, maxorder = mo)
    form <- if (mo == 0) t ~ . else t ~ .^2
    g <- glm(form, data = df, family = binomial(), control = ctl)
    # scores of the real evaluation rows and of the generated ones
    ex <- setdiff(seq_len(120), fx)
    ey <- setdiff(seq_len(100), fy)
    expect_equal(f$score(X, ex), unname(predict(g, s$real[ex, ])),
                 tolerance = 1e-8)
    expect_equal(f$score(Y, ey), unname(predict(g, s$gen[ey, ])),
                 tolerance = 1e-8)
    # the fit rows: glm's linear predictor
    expect_equal(c(f$score(X, fx), f$score(Y, fy)),
                 unname(g$linear.predictors), tolerance = 1e-8)
    # the model's rank: 1 + 2 + 2 (main), + 1 (a:b) + 2 + 2 (with g)
    expect_identical(f$settings$parameters, sum(!is.na(coef(g))))
    expect_identical(f$settings$parameters, if (mo == 0) 5L else 10L)
    expect_identical(f$settings$converged, 1)
    expect_identical(f$settings$ridge, 0)
    expect_true(all(vapply(f$settings, function(v) is.numeric(v) && length(v) == 1L,
                           logical(1))))
  }
})

test_that("logit_terms() lists the products of distinct columns up to maxorder + 1", {
  expect_identical(logit_terms(3, 0), list(1L, 2L, 3L))
  expect_identical(logit_terms(3, 1), list(1L, 2L, 3L, 1:2, c(1L, 3L), 2:3))
  expect_length(logit_terms(4, 2), 4 + 6 + 4)
  # maxorder at least the number of columns: every product, once
  expect_length(logit_terms(2, 5), 3)
  B <- logit_design(matrix(c(1, 2, 3, 4, 5, 6), 2), logit_terms(3, 1))
  expect_identical(B, matrix(c(1, 1, 1, 2, 3, 4, 5, 6, 3, 8, 5, 12, 15, 24), 2))
  # too many parameters: an input error naming maxorder
  expect_error(logit_fit_terms(matrix(rnorm(50 * 30), 50), 1),
               "maxorder", class = "prdcurve_error_input")
})

test_that("separated sets fall back to the ridge fit and still rank the rows", {
  set.seed(3)
  X <- matrix(rnorm(60, -3), 30)
  Y <- matrix(rnorm(60, 3), 30)
  f <- fit_logit(X, Y, 1:15, 1:15, maxorder = 0)
  expect_identical(f$settings$converged, 0)
  expect_identical(f$settings$ridge, 1e-4)
  # every generated evaluation row scores above every real one
  expect_gt(min(f$score(Y, 16:30)), max(f$score(X, 16:30)))
})

test_that("the logit scores read a category drift: their curve is the discrete truth", {
  # only categories differ: the logit's main effects are the log ratio of
  # the cells, so its curve is prd_discrete() of the cells (up to sampling)
  p <- as.vector(outer(c(0.5, 0.5), c(0.4, 0.3, 0.1, 0.1, 0.1)))
  q <- as.vector(outer(c(0.7, 0.3), rep(0.2, 5)))
  set.seed(46)
  n <- 3000
  draw <- function(ps, pr) {
    data.frame(age = stats::rnorm(n, 45, 15),
               sex = factor(sample(c("F", "M"), n, TRUE, ps)),
               region = factor(sample(letters[1:5], n, TRUE, pr)))
  }
  sets <- prepare_samples(draw(c(0.5, 0.5), c(0.4, 0.3, 0.1, 0.1, 0.1)),
                          draw(c(0.7, 0.3), rep(0.2, 5)))
  X <- sets$real
  Y <- sets$generated[[1]]
  f <- fit_logit(X, Y, 1:1500, 1:1500, maxorder = 0)
  sr <- f$score(X, 1501:3000)
  sg <- f$score(Y, 1501:3000)
  # the population log ratio of each evaluation row's cell
  cell <- function(m) {
    (m[, "sex=M"] > 0) + 2 * (max.col(m[, paste0("region=", letters[1:5])]) - 1) + 1
  }
  lr <- log(q / p)
  # the fitted scores order the cells as the true log ratio does
  expect_gt(cor(sr, lr[cell(X[1501:3000, ])], method = "spearman"), 0.95)
  expect_gt(cor(sg, lr[cell(Y[1501:3000, ])], method = "spearman"), 0.95)
  # and the envelope of those scores reads what the true log ratios read
  # on the same evaluation rows (measured: 0.747 and 0.757; the truth of
  # the laws is 0.793, these 1,500 rows a set have cell shares whose
  # discrete curve is 0.756)
  lambda <- lambda_grid(1001)
  cv <- curve_from_scores(sr, sg, lambda)
  oracle <- curve_from_scores(lr[cell(X[1501:3000, ])], lr[cell(Y[1501:3000, ])],
                              lambda)
  expect_equal(curve_auc(lambda, cv$precision, cv$recall),
               curve_auc(lambda, oracle$precision, oracle$recall),
               tolerance = 0.02)
  expect_equal(curve_auc(lambda, oracle$precision, oracle$recall),
               summary(prd_discrete(tabulate(cell(X[1501:3000, ]), 10),
                                    tabulate(cell(Y[1501:3000, ]), 10)))$auc,
               tolerance = 0.005)
})

test_that("the Newton start from normal equations leaves glm.fit() one or two steps to its own fit", {
  set.seed(31)
  n <- 1500
  lv <- sprintf("c%02d", 1:40)
  df <- data.frame(g = factor(sample(lv, 2 * n, TRUE, 1 / (1:40)), lv),
                   x = rnorm(2 * n), z = rnorm(2 * n))
  y <- rep(c(0, 1), each = n)
  df$x[y == 1] <- df$x[y == 1] + 0.3
  # every category's indicator beside the intercept: aliased columns
  B <- cbind(1, stats::model.matrix(~ g - 1, df), df$x, df$z, df$x * df$z)
  start <- logit_newton_start(B, y)
  expect_length(start, ncol(B))
  ctl <- list(epsilon = logit_epsilon, maxit = logit_maxit)
  cold <- suppressWarnings(stats::glm.fit(B, y, family = stats::binomial(), control = ctl))
  warm <- suppressWarnings(stats::glm.fit(B, y, start = start, family = stats::binomial(),
                                          control = ctl))
  expect_true(warm$converged)
  expect_lte(warm$iter, 2L)
  expect_gt(cold$iter, warm$iter)
  expect_identical(warm$rank, cold$rank)
  expect_equal(warm$linear.predictors, cold$linear.predictors, tolerance = 1e-9)
  expect_equal(logit_fit(B, y)$beta, ifelse(is.na(cold$coefficients), 0, cold$coefficients),
               tolerance = 1e-8)
  # separated sets: the same fallback, the ridge fit
  sep <- cbind(1, c(rnorm(50, -5), rnorm(50, 5)))
  f <- logit_fit(sep, rep(0:1, each = 50))
  expect_false(f$converged)
  expect_identical(f$ridge, 1e-4)
  # a design whose Gram matrix has no Cholesky factor in a step: no start
  expect_null(logit_newton_start(cbind(1, c(1, 1, 1, 1e200)), c(0, 1, 0, 1)))
})
