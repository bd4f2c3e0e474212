# The registry of the embedding metrics (R/embedding-registry.R): the
# recipe of inst/ARCHITECTURE.md.

test_that("recipe (inst/ARCHITECTURE.md): an embedding metric is one registry row", {
  # the recipe's example: the distance between the two sets' means, from
  # the moments the registry's "moments" need forms once per set
  env <- environment(embedding_metrics)
  old <- get("embedding_registry", env)
  row <- embedding_metric("mean_gap", "moments",
                          function(q) sqrt(sum((q$mx$mean - q$my$mean)^2)),
                          "distance between the means", lower = 0,
                          power = 1, aliases = "mean_distance")
  unlockBinding("embedding_registry", env)
  assign("embedding_registry", c(old, list(mean_gap = row)), envir = env)
  on.exit({
    assign("embedding_registry", old, envir = env)
    lockBinding("embedding_registry", env)
  })
  set.seed(12)
  x <- matrix(rnorm(60 * 4), ncol = 4)
  y <- matrix(rnorm(50 * 4, 0.5), ncol = 4)
  m <- embedding_metrics(x, y, metrics = c("mean_gap", "fd"))
  expect_identical(m$metric, c("mean_gap", "fd"))
  expect_equal(m$value[1], sqrt(sum((colMeans(x) - colMeans(y))^2)),
               tolerance = 1e-12)
  expect_true("mean_gap" %in% embedding_metric_names())
  # the name users know it by points to it
  expect_error(embedding_metrics(x, y, metrics = "Mean-Distance"),
               'Did you mean "mean_gap"?', fixed = TRUE)
  # its declared power brings it back from the common scale of far values
  expect_equal(embedding_metrics(x * 2^200, y * 2^200,
                                 metrics = "mean_gap")$value,
               m$value[1] * 2^200, tolerance = 1e-12)
  # with intervals, as every metric
  set.seed(1)
  r <- embedding_metrics(x, y, metrics = "mean_gap", replicates = 4)
  expect_true(all(c("lower", "upper") %in% names(r)))
  expect_lte(r$lower, r$value)
})
