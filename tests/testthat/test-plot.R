# autoplot() and plot() of prd_curve objects: what is drawn, not images.

curves <- function() {
  set.seed(31)
  real <- matrix(rnorm(60 * 2), ncol = 2)
  generated <- matrix(rnorm(60 * 2, mean = 0.8), ncol = 2)
  prd_curve(real, generated, method = c("knn", "coverage", "ipr"), split = 0,
            angles = 21)
}

test_that("autoplot draws recall on x and precision on y, a colour per method", {
  skip_if_not_installed("ggplot2")
  cv <- curves()
  p <- ggplot2::autoplot(cv)
  expect_s3_class(p, "ggplot")
  b <- ggplot2::ggplot_build(p)
  d <- b$data[[1]]
  expect_equal(nrow(d), nrow(cv))
  # one group and one colour per method
  expect_equal(length(unique(d$group)), 3)
  expect_equal(length(unique(d$colour)), 3)
  expect_equal(as.vector(table(d$group)), rep(23, 3))
  # the rows of each method, drawn in lambda order
  ord <- as.data.frame(cv)
  ord <- ord[order(ord$method, ord$lambda), ]
  expect_equal(d$x, ord$recall)
  expect_equal(d$y, ord$precision)
  # colours follow the method (groups are the sorted method names)
  cols <- tapply(d$colour, d$group, unique)
  expect_equal(length(unique(cols)), 3)
  # equal aspect ratio, both axes on [0, 1]
  expect_s3_class(p$coordinates, "CoordFixed")
  expect_equal(p$coordinates$ratio, 1)
  expect_equal(b$layout$panel_scales_x[[1]]$get_limits(), c(0, 1))
  expect_equal(b$layout$panel_scales_y[[1]]$get_limits(), c(0, 1))
  pp <- b$layout$panel_params[[1]]
  expect_equal(diff(pp$x.range), diff(pp$y.range))
  expect_true(pp$x.range[1] <= 0 && pp$x.range[2] >= 1)
  # ggplot2 >= 4.0 resolves labels with get_labs()
  labs <- if (exists("get_labs", asNamespace("ggplot2"))) {
    getExportedValue("ggplot2", "get_labs")(p)
  } else {
    p$labels
  }
  expect_equal(labs$x, "recall")
  expect_equal(labs$y, "precision")
})

test_that("autoplot handles curves bound together and other curve types", {
  skip_if_not_installed("ggplot2")
  both <- rbind(prd_truth_gaussian(0, 1, angles = 11), prd_discrete(1, 1, angles = 11))
  d <- ggplot2::ggplot_build(ggplot2::autoplot(both))$data[[1]]
  expect_equal(length(unique(d$colour)), 2)
  expect_equal(nrow(d), 26)
  # the square: its corner (1, 1) is drawn
  sq <- d[d$group == 1, ]  # "discrete" sorts first
  expect_true(any(abs(sq$x - 1) < 1e-12 & abs(sq$y - 1) < 1e-12))
})

test_that("plot() returns its input invisibly on an equal-aspect [0, 1] frame", {
  cv <- curves()
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off(), add = TRUE)
  expect_invisible(res <- plot(cv))
  expect_identical(res, cv)
  usr <- graphics::par("usr")
  pin <- graphics::par("pin")
  # asp = 1: one unit of recall and of precision have the same length
  expect_equal((usr[2] - usr[1]) / pin[1], (usr[4] - usr[3]) / pin[2],
               tolerance = 1e-6)
  expect_true(usr[1] <= 0 && usr[2] >= 1 && usr[3] <= 0 && usr[4] >= 1)
  expect_invisible(plot(prd_truth_gaussian(0, 1), lty = 2))
})
