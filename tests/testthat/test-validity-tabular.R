# Tests of R/validity-tabular.R.

test_that("the tabular truths: the categories' joint law, and the mixed closed form", {
  sc <- validity_scenarios(16, which = c("category_drift", "category_dropped",
                                         "category_mean"),
                           truth_n = 2e5, angles = 101)
  expect_identical(vapply(sc, `[[`, "", "name"), "tabular")
  expect_length(validity_scenarios(256, which = "category_drift"), 0L)
  models <- sc[[1]]$models
  # the drift of the categories' issue: true AUC 0.793, by the cells
  expect_equal(models$category_drift$truth_auc, 0.7929523, tolerance = 1e-6)
  tr <- models$category_dropped$truth
  expect_equal(summary(tr)$max_recall, 0.9) # region e (0.1) never produced
  expect_equal(summary(tr)$max_precision, 1)
  # x1 ~ N(1, 1) where sex = M: alpha = min(lambda, 1) / 2 + the shift
  # curve of delta = 1 / 2 (SPEC.md section 5), against the Monte Carlo truth
  tr <- models$category_mean$truth
  inner <- tr$lambda > 0 & is.finite(tr$lambda)
  lam <- tr$lambda[inner]
  exact <- 0.5 * pmin(lam, 1) + 0.5 * shift_alpha(lam, 1)
  expect_equal(tr$precision[inner], exact, tolerance = 0.01)
  # the samplers: the categories' law and x1's
  set.seed(6)
  x <- models$category_drift$sample(40000)
  expect_equal(mean(x$sex == "F"), 0.7, tolerance = 0.02)
  expect_equal(as.vector(prop.table(table(x$region))), rep(0.2, 5),
               tolerance = 0.05)
  expect_equal(stats::sd(x$x1), 1, tolerance = 0.02)
  y <- models$category_mean$sample(40000)
  expect_equal(mean(y$x1[y$sex == "M"]), 1, tolerance = 0.03)
  expect_equal(abs(mean(y$x1[y$sex == "F"])), 0, tolerance = 0.03)
  expect_identical(levels(sc[[1]]$real(10)$region), letters[1:5])
})
