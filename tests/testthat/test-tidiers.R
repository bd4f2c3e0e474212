# Tests of R/tidiers.R.

test_that("tidy() and glance() use broom's names and the real level", {
  set.seed(183)
  real <- matrix(rnorm(80 * 2), ncol = 2)
  m <- manifold_metrics(real, matrix(rnorm(160, 0.5), ncol = 2),
                        metrics = "precision", replicates = 4,
                        conf_level = 0.8)
  td <- tidy(m)
  expect_named(td, c("model", "method", "k", "term", "estimate", "conf.low",
                     "conf.high"))
  expect_false("statistic" %in% names(td))
  expect_equal(td$conf.low, m$lower)
  expect_equal(glance(m)$conf.level, 0.8)
  expect_equal(tidy(m, conf.level = 0.5)$conf.low,
               tidy(m, conf_level = 0.5)$conf.low)
  expect_error(tidy(m, conf.level = 1), class = "prdcurve_error_input")
  cv <- prd_curve(real, matrix(rnorm(160, 0.5), ncol = 2), method = "knn",
                  k = 3, angles = 21, replicates = 4)
  expect_equal(glance(cv)$conf.level, 0.9)
  expect_equal(glance(cv, conf.level = 0.8)$conf.level, 0.8)
  expect_equal(tidy(cv, conf.level = 0.8)$conf.low[1],
               summary(cv, conf_level = 0.8)$auc_lower)
  expect_true(is.na(glance(prd_discrete(1, 1))$conf.level))
})

set.seed(41)
real <- matrix(rnorm(80 * 3), ncol = 3)
gen_a <- matrix(rnorm(70 * 3, mean = 0.3), ncol = 3)
gen_b <- matrix(rnorm(60 * 3, mean = 1), ncol = 3)

test_that("tidy() and glance() give the documented long and one-row shapes", {
  set.seed(4)
  cv <- prd_curve(real, list(a = gen_a, b = gen_b), method = "knn",
                  angles = 21, replicates = 4)
  td <- tidy(cv)
  expect_named(td, c("model", "method", "k", "term", "estimate",
                     "conf.low", "conf.high"))
  expect_equal(nrow(td), 2 * 10)
  s <- summary(cv)
  expect_equal(td$estimate[td$model == "b" & td$term == "auc"],
               s$auc[s$model == "b"])
  expect_equal(td$conf.low[td$model == "b" & td$term == "auc"],
               s$auc_lower[s$model == "b"])
  gl <- glance(cv)
  expect_equal(nrow(gl), 1)
  expect_equal(gl$n_models, 2)
  expect_equal(gl$replicates, 4)
  m <- manifold_metrics(real, gen_a, metrics = c("precision", "recall"))
  tm <- tidy(m)
  expect_equal(tm$estimate, m$value)
  expect_true(all(is.na(tm$conf.low)))
  expect_equal(glance(m)$n_metrics, 2)
})
