# Tests of R/plot-metrics.R.

skip_if_sanitizing()

test_that("autoplot() of a metric table: a point and an interval per model", {
  skip_if_not_installed("ggplot2")
  fd <- figure_data()
  b <- ggplot2::ggplot_build(ggplot2::autoplot(fd$m))
  seg <- b$data[[1]]
  pts <- b$data[[2]]
  expect_equal(nrow(pts), nrow(fd$m))
  expect_setequal(round(pts$x, 10), round(fd$m$value, 10))
  expect_setequal(round(seg$x, 10), round(fd$m$lower, 10))
  expect_equal(nrow(b$layout$layout), 3)
  expect_identical(max(b$layout$layout$COL), 3L)
  # four panels: 2 x 2, not 3 + 1 under an empty slot
  expect_identical(vapply(1:7, metric_panel_columns, 1L),
                   c(1L, 2L, 3L, 2L, 3L, 3L, 3L))
  # k = 3 and k = 5: two colours
  expect_length(unique(pts$colour), 2)
  # without replicates: points only
  m0 <- manifold_metrics(fd$real, fd$models, metrics = "precision")
  b0 <- ggplot2::ggplot_build(ggplot2::autoplot(m0))
  expect_length(b0$data, 1)
  expect_equal(sort(b0$data[[1]]$x), sort(m0$value))
})

test_that("the legend names the k of p_precision and p_recall ppr_k", {
  skip_if_not_installed("ggplot2")
  m <- new_prd_metrics(tibble::tibble(
    model = c("a", "b", "a", "b"),
    metric = c("recall", "recall", "p_recall", "p_recall"),
    k = c(5L, 5L, 4L, 4L), value = c(0.6, 0.7, 0.9, 1)))
  p <- ggplot2::autoplot(m)
  b <- ggplot2::ggplot_build(p)
  expect_setequal(b$plot$scales$get_scales("colour")$get_labels(),
                  c("k = 5", "ppr_k = 4"))
  # the legend's title does not repeat its entries' "k"
  expect_identical(b$plot$scales$get_scales("colour")$name, "neighbours")
  # each panel holds one k: its points on their models' rows (they sat
  # 0.11 off, as if two groups shared the panel)
  expect_setequal(b$data[[1]]$y, c(1, 2))
  # two k in one panel: offset about the row, in the legend's order
  m2 <- new_prd_metrics(tibble::tibble(
    model = "a", metric = c("recall", "recall", "p_recall"),
    k = c(5L, 9L, 4L), value = c(0.6, 0.65, 0.9)))
  d2 <- ggplot2::ggplot_build(ggplot2::autoplot(m2))$data[[1]]
  expect_equal(sort(d2$y), c(1 - 0.11, 1, 1 + 0.11))
  expect_identical(prdcurve:::group_label(rep(NA, 4), m$k, m$metric),
                   c("k = 5", "k = 5", "ppr_k = 4", "ppr_k = 4"))
  # one k for every metric: a single group
  expect_identical(prdcurve:::group_label(rep(NA, 2), c(5L, 5L),
                                          c("recall", "precision")),
                   c("estimate", "estimate"))
  # a curve's method keeps its k, whatever its statistic
  expect_identical(prdcurve:::group_label(c("knn", "knn"), c(3L, 5L),
                                          c("auc", "auc")),
                   c("knn (k = 3)", "knn (k = 5)"))
  # the embedding metrics beside them have no k: "no neighbours", not
  # "k = NA"; a fitted family (k NA) beside knn: its name
  expect_identical(prdcurve:::group_label(rep(NA, 4), c(5L, 4L, NA, NA),
                                          c("recall", "p_recall", "fd", "kid")),
                   c("k = 5", "ppr_k = 4", "no neighbours", "no neighbours"))
  expect_identical(prdcurve:::group_label(c("knn", "knn", "quadratic"),
                                          c(3L, 5L, NA), rep("auc", 3)),
                   c("knn (k = 3)", "knn (k = 5)", "quadratic"))
})

test_that("axes = \"bounds\" spans each metric's range", {
  skip_if_not_installed("ggplot2")
  m <- new_prd_metrics(tibble::tibble(
    model = c("good", "noisy", "good", "noisy"),
    metric = c("p_precision", "p_precision", "density", "density"),
    k = c(4L, 4L, 5L, 5L), value = c(0.9695, 0.9715, 0.98, 0.99)))
  ranges <- function(p) {
    b <- ggplot2::ggplot_build(p)
    lapply(b$layout$panel_scales_x, function(s) s$range$range)
  }
  # the data: each panel spans its values only
  r <- ranges(ggplot2::autoplot(m))
  expect_equal(r[[1]], c(0.9695, 0.9715))
  # the bounds: p_precision on [0, 1], density from 0
  r <- ranges(ggplot2::autoplot(m, axes = "bounds"))
  expect_equal(r[[1]], c(0, 1))
  expect_equal(r[[2]], c(0, 0.99))
  expect_error(ggplot2::autoplot(m, axes = "all"), class = "rlang_error")
})

test_that("a metric panel whose values nearly agree gets a readable axis", {
  skip_if_not_installed("ggplot2")
  # values 1 - 8e-9 and 1 (p_recall of two models in 256 dimensions): a
  # panel of width 8e-9 would label every tick "1"; it is widened to
  # 1e-3, inside [0, 1]
  m <- new_prd_metrics(tibble::tibble(
    model = c("good", "noisy", "good", "noisy"),
    metric = c("p_recall", "p_recall", "recall", "recall"),
    k = c(4L, 4L, 5L, 5L), value = c(1 - 8e-9, 1, 0.634, 0.9997)))
  b <- ggplot2::ggplot_build(ggplot2::autoplot(m))
  r <- lapply(b$layout$panel_scales_x, function(s) s$range$range)
  expect_equal(r[[1]], c(0.999, 1))
  expect_equal(r[[2]], c(0.634, 0.9997))
  labs <- b$layout$panel_params[[1]]$x$get_labels()
  expect_gt(length(unique(labs[!is.na(labs)])), 2)
  # about four ticks of at most four decimals (five-decimal labels at the
  # ends of neighbouring panels ran together)
  labs <- labs[!is.na(labs)]
  expect_lte(length(labs), 4)
  expect_lte(max(nchar(sub("^[^.]*\\.?", "", labs))), 4)
  # one model without intervals: a lone point's panel reaches 0 (and 1
  # for a share), not a window of 1e-3 around it (ticks 0.9595 to 0.9605)
  one <- new_prd_metrics(tibble::tibble(
    model = "m", metric = c("precision", "fd", "density"), k = 5L,
    value = c(0.96, 12.5, 1.08)))
  r1 <- lapply(ggplot2::ggplot_build(ggplot2::autoplot(one))$layout$panel_scales_x,
               function(s) s$range$range)
  expect_equal(r1, list(c(0, 1), c(0, 15.625), c(0, 1.35)))
  # a difference panel stays centred (no [0, 1] window)
  expect_equal(panel_min_span(tibble::tibble(panel = factor("d"), estimate = 0,
                                             lower = 0, upper = 0),
                              bounded = FALSE)$x, c(-5e-4, 5e-4))
})

test_that("an empty table has nothing to draw: a classed error", {
  skip_if_not_installed("ggplot2")
  m <- new_prd_metrics(tibble::tibble(
    model = c("a", "b"), metric = "recall", k = 5L, value = c(0.6, 0.7)))
  e <- expect_error(ggplot2::autoplot(m[0, ]), class = "prdcurve_error_input")
  expect_match(conditionMessage(e), "no rows to draw", fixed = TRUE)
  set.seed(1)
  R <- matrix(rnorm(600), 100)
  mm <- manifold_metrics(R, list(a = matrix(rnorm(600, 0.3), 100),
                                 b = matrix(rnorm(600), 100)),
                         metrics = "recall", replicates = 4)
  cmp <- prd_compare(mm, baseline = "a")
  expect_error(ggplot2::autoplot(cmp[0, ]), class = "prdcurve_error_input")
  # its legend titled as the table's own figure's (was "k" over "k = 5")
  pc <- ggplot2::ggplot_build(ggplot2::autoplot(prd_compare(
    manifold_metrics(R, list(a = matrix(rnorm(600, 0.3), 100),
                             b = matrix(rnorm(600), 100)),
                     metrics = "recall", k = c(3, 5), replicates = 4),
    baseline = "a")))
  expect_identical(pc$plot$scales$get_scales("colour")$name, "neighbours")
  expect_setequal(pc$plot$scales$get_scales("colour")$get_labels(),
                  c("k = 3", "k = 5"))
})
