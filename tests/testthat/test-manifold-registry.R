# Tests of R/manifold-registry.R.

test_that("recipe (inst/ARCHITECTURE.md): a ball-count metric is one registry row", {
  # the recipe's example: the share of generated samples inside at least
  # two real k-NN balls, from the engine's "ipr" counts
  env <- environment(manifold_metrics)
  old <- get("manifold_registry", env)
  row <- manifold_metric("two_balls", "ipr", function(q) share(q$ipr_gen, 2),
                         "share of generated samples in two real balls")
  unlockBinding("manifold_registry", env)
  assign("manifold_registry", c(old, list(two_balls = row)), envir = env)
  on.exit({
    assign("manifold_registry", old, envir = env)
    lockBinding("manifold_registry", env)
  }, add = TRUE)
  set.seed(7)
  x <- matrix(rnorm(90 * 3), ncol = 3)
  y <- matrix(rnorm(80 * 3, 0.4), ncol = 3)
  m <- manifold_metrics(x, y, k = c(2, 4), metrics = c("two_balls", "precision"))
  # brute force: real own radii, then the balls holding each generated row
  dxx <- sq_dist(x, x)
  dyx <- sq_dist(y, x)
  want <- vapply(c(2, 4), function(k) {
    r2 <- vapply(seq_len(nrow(x)), function(i) kth_skip(dxx[i, ], k, i), 0)
    mean(rowSums(sweep(dyx, 2, r2, `<=`)) >= 2)
  }, 0)
  expect_identical(m$value[m$metric == "two_balls"], want)
  expect_identical(m$k[m$metric == "two_balls"], c(2L, 4L))
  # it is a metric like the others: listed, requested from the engine in
  # the same plan, bounded (intervals) by its row
  expect_true("two_balls" %in% manifold_metric_names())
  expect_identical(manifold_bounds("two_balls"), c(0, 1))
  engine_sweeps(reset = TRUE)
  manifold_metrics(x, y, k = 2, metrics = c("two_balls", "coverage"))
  n <- engine_sweeps(reset = TRUE)
  expect_identical(n[n > 0], c("symmetric:real" = 1, "symmetric:generated" = 1,
                               "cross-decide" = 1))
})

test_that("the default metrics, their bounds and their docs come from the registry", {
  expect_identical(eval(formals(manifold_metrics)$metrics),
                   names(manifold_registry))
  expect_identical(names(manifold_registry),
                   c("precision", "recall", "density", "coverage",
                     "c_precision", "sym_precision", "sym_recall",
                     "prc_precision", "prc_recall", "p_precision",
                     "p_recall"))
  expect_identical(manifold_bounds("density"), c(0, Inf))
  expect_null(manifold_bounds("pce"))
  doc <- manifold_metrics_doc()
  for (m in names(manifold_registry)) {
    expect_match(doc, paste0("`\"", m, "\"`: "), fixed = TRUE)
  }
  # every need is an estimator of the engine's table
  needs <- unique(unlist(lapply(manifold_registry, `[[`, "needs")))
  expect_true(all(needs %in% engine_estimators()$name))
})
