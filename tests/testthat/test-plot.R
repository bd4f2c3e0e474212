# autoplot() and plot() of prd_curve objects: what is drawn, not images.

curves <- function() {
  set.seed(31)
  real <- matrix(rnorm(60 * 2), ncol = 2)
  generated <- matrix(rnorm(60 * 2, mean = 0.8), ncol = 2)
  prd_curve(real, generated, method = c("knn", "coverage", "ipr"), split = 0,
            angles = 21)
}

layer_of <- function(p, geom) {
  i <- which(vapply(p$layers, function(l) inherits(l$geom, geom), logical(1)))
  ggplot2::ggplot_build(p)$data[i]
}

test_that("autoplot draws recall on x and precision on y, a colour per method", {
  skip_if_not_installed("ggplot2")
  cv <- curves()
  p <- ggplot2::autoplot(cv)
  expect_s3_class(p, "ggplot")
  b <- ggplot2::ggplot_build(p)
  d <- b$data[[1]]
  expect_equal(nrow(d), nrow(cv))
  # one group and one colour per method, each drawn in lambda order
  expect_equal(length(unique(d$group)), 3)
  expect_equal(length(unique(d$colour)), 3)
  for (m in c("knn", "coverage", "ipr")) {
    rows <- cv[cv$method == m, ]
    rows <- rows[order(rows$lambda), ]
    col <- unname(prdcurve:::method_palette[m])
    expect_equal(d$x[d$colour == col], rows$recall)
    expect_equal(d$y[d$colour == col], rows$precision)
  }
  # equal aspect ratio, both axes on [0, 1]
  expect_s3_class(p$coordinates, "CoordFixed")
  expect_equal(p$coordinates$ratio, 1)
  expect_equal(b$layout$panel_scales_x[[1]]$get_limits(), c(0, 1))
  expect_equal(b$layout$panel_scales_y[[1]]$get_limits(), c(0, 1))
  pp <- b$layout$panel_params[[1]]
  expect_equal(diff(pp$x.range), diff(pp$y.range))
  expect_true(pp$x.range[1] <= 0 && pp$x.range[2] >= 1)
  labs <- if (exists("get_labs", asNamespace("ggplot2"))) {
    getExportedValue("ggplot2", "get_labs")(p)
  } else {
    p$labels
  }
  expect_equal(labs$x, "recall")
  expect_equal(labs$y, "precision")
})

test_that("exact curves are dashed black; other curve types get colours", {
  skip_if_not_installed("ggplot2")
  both <- rbind(prd_truth_gaussian(0, 1, angles = 11),
                prd_discrete(1, 1, angles = 11))
  p <- ggplot2::autoplot(both)
  d <- ggplot2::ggplot_build(p)$data
  expect_length(d, 2)
  est <- d[[1]]
  ref <- d[[2]]
  expect_equal(nrow(est), 13)
  expect_equal(nrow(ref), 13)
  expect_equal(unique(ref$colour), "black")
  expect_equal(unique(ref$linetype), "dashed")
  # the square: its corner (1, 1) is drawn
  expect_true(any(abs(est$x - 1) < 1e-12 & abs(est$y - 1) < 1e-12))
})

test_that("several models: one panel per model, the truth in every panel", {
  skip_if_not_installed("ggplot2")
  set.seed(32)
  real <- matrix(rnorm(80 * 2), ncol = 2)
  models <- list(near = matrix(rnorm(80 * 2, 0.2), ncol = 2),
                 far = matrix(rnorm(80 * 2, 1), ncol = 2))
  cv <- prd_curve(real, models, method = c("knn", "coverage"), angles = 21)
  truth <- prd_truth_gaussian(c(0, 0), c(1, 1), angles = 21)
  p <- ggplot2::autoplot(rbind(cv, truth))
  b <- ggplot2::ggplot_build(p)
  expect_equal(nrow(b$layout$layout), 2)
  expect_equal(as.character(b$layout$layout$.panel), c("near", "far"))
  ref <- b$data[[2]]
  expect_setequal(unique(ref$PANEL), factor(1:2))
  # one method, several models: colour is the model, no panels
  p1 <- ggplot2::autoplot(prd_curve(real, models, method = "knn", angles = 21))
  b1 <- ggplot2::ggplot_build(p1)
  expect_equal(nrow(b1$layout$layout), 1)
  expect_equal(length(unique(b1$data[[1]]$colour)), 2)
})

test_that("replicates draw a band along the rays around the curve", {
  skip_if_not_installed("ggplot2")
  set.seed(33)
  real <- matrix(rnorm(120 * 2), ncol = 2)
  gen <- matrix(rnorm(120 * 2, 0.7), ncol = 2)
  cv <- prd_curve(real, gen, method = "knn", angles = 41, replicates = 8)
  p <- ggplot2::autoplot(cv)
  band <- layer_of(p, "GeomPolygon")[[1]]
  expect_equal(nrow(band), 2 * 43)
  # the band contains the curve along each ray
  rows <- cv[order(cv$lambda), ]
  theta <- atan(rows$lambda)
  rho <- sqrt(rows$precision^2 + rows$recall^2)
  hi <- sqrt(band$x[1:43]^2 + band$y[1:43]^2)
  lo <- rev(sqrt(band$x[44:86]^2 + band$y[44:86]^2))
  expect_true(all(lo <= rho + 1e-12 & rho <= hi + 1e-12))
  expect_true(any(hi - lo > 0.01))
  expect_length(layer_of(ggplot2::autoplot(cv, bands = FALSE),
                         "GeomPolygon"), 0)
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
  expect_invisible(plot(prd_truth_gaussian(0, 1), lty = 2, main = "truth",
                        col = "red"))
})

test_that("plot() uses the colours of autoplot() in the same order", {
  cv <- curves()
  lay <- prdcurve:::plot_layout(cv, 0.9, FALSE)
  expect_equal(unname(lay$palette),
               unname(prdcurve:::method_palette[c("knn", "coverage", "ipr")]))
})
