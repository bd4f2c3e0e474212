# autoplot() and plot() of prd_curve objects: what is drawn, not images.

skip_if_sanitizing()

# the data of the layers that draw (not the blank layer that orders the
# legend's keys)
drawn_data <- function(p, b = ggplot2::ggplot_build(p)) {
  keep <- !vapply(p$layers, function(l) inherits(l$geom, "GeomBlank"), TRUE)
  b$data[keep]
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
  d <- drawn_data(p, b)[[1]]
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

test_that("true curves are dashed grey; other curve types get colours", {
  skip_if_not_installed("ggplot2")
  both <- rbind(prd_truth_gaussian(0, 1, angles = 11),
                prd_discrete(1, 1, angles = 11))
  p <- ggplot2::autoplot(both)
  d <- drawn_data(p)
  expect_length(d, 2)
  est <- d[[1]]
  ref <- d[[2]]
  expect_equal(nrow(est), 13)
  expect_equal(nrow(ref), 13)
  expect_equal(unique(ref$colour), "#6E6E6E")
  expect_equal(unique(ref$linetype), "dashed")
  expect_false(any(est$colour %in% c("#6E6E6E", "black", "#000000")))
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
  ref <- drawn_data(p, b)[[2]]
  expect_setequal(unique(ref$PANEL), factor(1:2))
  # one method, several models: colour is the model, no panels
  p1 <- ggplot2::autoplot(prd_curve(real, models, method = "knn", angles = 21))
  b1 <- ggplot2::ggplot_build(p1)
  expect_equal(nrow(b1$layout$layout), 1)
  expect_equal(length(unique(drawn_data(p1, b1)[[1]]$colour)), 2)
})

test_that("a model's true curve is drawn with that model only", {
  skip_if_not_installed("ggplot2")
  set.seed(34)
  real <- matrix(rnorm(80 * 2), ncol = 2)
  models <- list(near = matrix(rnorm(80 * 2, 0.2), ncol = 2),
                 far = matrix(rnorm(80 * 2, 1), ncol = 2),
                 wide = matrix(rnorm(80 * 2, 0, 1.5), ncol = 2))
  tn <- prd_truth_gaussian(c(0, 0), c(0.2, 0.2), angles = 21)
  tn$model <- "near"
  tf <- prd_truth_gaussian(c(0, 0), c(1, 1), angles = 21)
  tf$model <- "far"
  cv <- prd_curve(real, models, method = c("knn", "coverage"), angles = 21)
  p <- ggplot2::autoplot(rbind(cv, tn, tf))
  b <- ggplot2::ggplot_build(p)
  panel <- stats::setNames(as.integer(b$layout$layout$PANEL),
                           as.character(b$layout$layout$.panel))
  ref <- drawn_data(p, b)[[2]]
  # (they were drawn in every panel: "wide" showed both)
  expect_identical(sort(unique(as.integer(ref$PANEL))),
                   unname(sort(panel[c("near", "far")])))
  expect_identical(nrow(ref), 2L * 23L)
  near_ref <- ref[as.integer(ref$PANEL) == panel[["near"]], ]
  expect_equal(near_ref$y, tn$precision[order(tn$lambda)], tolerance = 1e-12)
  # one panel coloured by model: each truth dashed in its model's colour
  cv1 <- prd_curve(real, models[1:2], method = "knn", angles = 21)
  p1 <- ggplot2::autoplot(rbind(cv1, tn, tf))
  d1 <- drawn_data(p1)
  est <- d1[[1]]
  own <- d1[[2]]
  expect_identical(unique(own$linetype), "dashed")
  col_of <- function(d) tapply(d$colour, d$group, unique)
  expect_setequal(col_of(own), unique(est$colour))
  expect_false(any(est$linetype == "dashed"))
  # a true curve without a model stays grey, in every panel
  p2 <- ggplot2::autoplot(rbind(cv, prd_truth_gaussian(c(0, 0), c(1, 1),
                                                       angles = 21)))
  ref2 <- drawn_data(p2)[[2]]
  expect_identical(unique(ref2$colour), "#6E6E6E")
  expect_identical(length(unique(ref2$PANEL)), 3L)
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
  # the caption says what the bands are, and the figure is a line taller
  expect_identical(p$labels$caption,
                   "Shaded: 90% intervals (half-sample replicates)")
  expect_identical(ggplot2::autoplot(cv, conf_level = 0.95)$labels$caption,
                   "Shaded: 95% intervals (half-sample replicates)")
  flat <- ggplot2::autoplot(cv, bands = FALSE)
  expect_null(flat$labels$caption)
  expect_equal(prd_figure_size(p)$height - prd_figure_size(flat)$height,
               legend_row_height)
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

# ---- issue 18: figures for a paper ------------------------------------------

#' Width and height in pixels from a PNG's IHDR chunk
png_dim <- function(path) {
  con <- file(path, "rb")
  on.exit(close(con))
  raw <- readBin(con, "raw", 24L)
  to_int <- function(b) sum(as.integer(b) * 256^(3:0))
  c(width = to_int(raw[17:20]), height = to_int(raw[21:24]))
}

#' Share of non-white pixels and the share of the width and height their
#' bounding box covers (blank margins show as a small box)
ink <- function(path) {
  img <- png::readPNG(path)
  lum <- if (length(dim(img)) == 3L) {
    0.299 * img[, , 1] + 0.587 * img[, , 2] + 0.114 * img[, , 3]
  } else {
    img
  }
  dark <- lum < 0.97
  rows <- which(rowSums(dark) > 0)
  cols <- which(colSums(dark) > 0)
  c(share = mean(dark),
    width = (max(cols) - min(cols) + 1) / ncol(dark),
    height = (max(rows) - min(rows) + 1) / nrow(dark))
}

save_figure <- function(p, path) {
  s <- prd_figure_size(p)
  ggplot2::ggsave(path, p, width = s$width, height = s$height, units = s$units,
                  dpi = s$dpi)
  s
}

expect_paper_png <- function(path, size, label = path) {
  expect_equal(unname(png_dim(path)),
               round(c(size$width, size$height) * size$dpi))
  if (requireNamespace("png", quietly = TRUE)) {
    k <- ink(path)
    # something is drawn, and the drawing fills the canvas (no blank 60%)
    expect_gt(k[["share"]], 0.01)
    expect_lt(k[["share"]], 0.6)
    expect_gt(k[["width"]], 0.9, label = paste(label, "width"))
    expect_gt(k[["height"]], 0.85, label = paste(label, "height"))
  }
}

test_that("autoplot is exported and draws what ggplot2::autoplot draws", {
  skip_if_not_installed("ggplot2")
  expect_true("autoplot" %in% getNamespaceExports("prdcurve"))
  cv <- curves()
  p <- prdcurve::autoplot(cv)
  expect_s3_class(p, "ggplot")
  expect_equal(drawn_data(p)[[1]][c("x", "y", "colour")],
               drawn_data(ggplot2::autoplot(cv))[[1]][c("x", "y", "colour")])
})

test_that("ten models of one method get ten colours, and colour and line type pairs stay distinct beyond", {
  skip_if_not_installed("ggplot2")
  set.seed(36)
  x <- matrix(rnorm(400), ncol = 2)
  gens <- lapply(1:12, function(i) matrix(rnorm(100, i / 10), ncol = 2))
  names(gens) <- paste0("ckpt_", 1:12)
  cv <- prd_curve(x, gens, method = "knn", angles = 11)
  d <- unique(drawn_data(ggplot2::autoplot(cv))[[1]][c("group", "colour", "linetype")])
  expect_identical(nrow(d), 12L)
  expect_identical(length(unique(d$colour)), 10L)
  expect_identical(nrow(unique(d[c("colour", "linetype")])), 12L)
  expect_false(any(d$colour == "#000000"))
})

test_that("the palette reads on white and in greyscale: no yellow, a line type per method", {
  skip_if_not_installed("ggplot2")
  pal <- c(prdcurve:::method_palette, prdcurve:::extra_palette,
           prdcurve:::model_palette)
  expect_false(any(toupper(pal) %in% c("#F0E442", "#56B4E9")))
  lum <- apply(grDevices::col2rgb(pal) / 255, 2, function(v) sum(c(0.299, 0.587, 0.114) * v))
  # every line colour is at most a mid grey (white is 1)
  expect_lt(max(lum), 0.7)
  cv <- curves()
  d <- drawn_data(ggplot2::autoplot(cv))[[1]]
  lt <- tapply(d$linetype, d$colour, unique)
  expect_length(unique(unlist(lt)), 3)
  # knn dotted with or without the default beside it (one line type per
  # method in every figure; the default's solid black and knn's dark blue
  # read alike in greyscale); every method its own line type, the truth's
  # not taken
  expect_equal(unname(lt[prdcurve:::method_palette[["knn"]]]), "13")
  # a method drawn alone: solid
  one <- drawn_data(ggplot2::autoplot(cv[cv$method == "knn", ]))[[1]]
  expect_identical(unique(one$linetype), "solid")
  set.seed(35)
  x <- matrix(rnorm(600 * 2), ncol = 2)
  many <- prd_curve(x[1:300, ], x[301:600, ] + 0.4, angles = 21,
                    method = c("tightest", "knn", "coverage", "quadratic",
                               "linear"))
  bm <- ggplot2::ggplot_build(ggplot2::autoplot(
    rbind(many, prd_truth_gaussian(c(0, 0), c(0.4, 0.4), angles = 21))))
  sc <- bm$plot$scales$get_scales("linetype")
  lt2 <- stats::setNames(sc$map(sc$get_breaks()), sc$get_breaks())
  expect_identical(unname(lt2[c("tightest", "knn", "truth")]),
                   c("solid", "13", "dashed"))
  expect_false(anyDuplicated(lt2) > 0)
  expect_false(any(lt2[setdiff(names(lt2), "truth")] %in% c("dashed", "44")))
  # one method, several models: a line type per model too
  fd <- figure_data()
  lines <- layer_of(ggplot2::autoplot(fd$cv1), "GeomPath")[[1]]
  expect_length(unique(lines$linetype), 3)
  expect_length(unique(lines$colour), 3)
})

test_that("bands take the colour of their line, from the user's scale too", {
  skip_if_not_installed("ggplot2")
  fd <- figure_data()
  p <- ggplot2::autoplot(fd$cv1)
  fills <- function(p) {
    i <- which(vapply(p$layers, function(l) inherits(l$geom, "GeomPolygon"), TRUE))
    g <- ggplot2::layer_grob(p, i)[[1]]
    kids <- if (inherits(g, "gTree")) g$children else list(g)
    unique(unlist(lapply(kids, function(k) k$gp$fill)))
  }
  base <- fills(p)
  expect_length(base, 3)
  expect_true(all(substr(toupper(base), 1, 7) %in% prdcurve:::model_palette[1:3]))
  user <- suppressMessages(p + ggplot2::scale_colour_manual(values = c(a = "#FF0000", b = "#00FF00",
                                                      c = "#0000FF")))
  got <- substr(toupper(fills(user)), 1, 7)
  expect_setequal(got, c("#FF0000", "#00FF00", "#0000FF"))
})

test_that("plot() draws several models x methods, one panel per model", {
  fd <- figure_data()
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off(), add = TRUE)
  grDevices::dev.control("enable")
  expect_invisible(plot(fd$cv))
  rec <- grDevices::recordPlot()
  calls <- vapply(rec[[1]], function(x) {
    nm <- x[[2]][[1]]
    if (is.list(nm)) nm$name else as.character(nm)[1]
  }, "")
  expect_equal(sum(calls == "C_plot_new"), 3)
  expect_equal(graphics::par("mfrow"), c(1, 1))
})

test_that("autoplot() of prd_compare() is a forest plot of the differences", {
  skip_if_not_installed("ggplot2")
  fd <- figure_data()
  cmp <- prd_compare(fd$cv)
  expect_s3_class(cmp, "prd_comparison")
  p <- ggplot2::autoplot(cmp)
  b <- ggplot2::ggplot_build(p)
  vline <- b$data[[1]]
  expect_equal(unique(vline$xintercept), 0)
  seg <- b$data[[2]]
  pts <- b$data[[3]]
  shown <- cmp[cmp$statistic %in% c("auc", "max_precision", "max_recall",
                                    "f_beta_precision", "f_beta_recall"), ]
  expect_equal(nrow(pts), nrow(shown))
  expect_setequal(round(pts$x, 10), round(shown$estimate, 10))
  expect_setequal(round(seg$x, 10), round(shown$lower, 10))
  expect_setequal(round(seg$xend, 10), round(shown$upper, 10))
  # solid intervals (knn's dotted curve line made its own read as faint);
  # the methods differ by colour and point shape
  expect_identical(unique(seg$linetype), 1)
  expect_gt(length(unique(pts$shape)), 1L)
  expect_null(b$plot$scales$get_scales("linetype"))
  expect_equal(nrow(b$layout$layout), 5)
  expect_error(ggplot2::autoplot(cmp, statistics = "nope"),
               class = "prdcurve_error_input")
  one <- ggplot2::ggplot_build(ggplot2::autoplot(cmp, statistics = "auc"))
  expect_equal(nrow(one$layout$layout), 1)
})

test_that("base plot() draws the bands of replicates on square [0, 1] panels", {
  set.seed(1)
  r <- matrix(rnorm(600), ncol = 2)
  g <- matrix(rnorm(600, 0.5), ncol = 2)
  cv <- prd_curve(r, list(a = g, b = g[1:250, ] + 0.3),
                  method = c("knn", "kde"), replicates = 4)
  drawn <- function(...) {
    grDevices::pdf(NULL, width = 9, height = 3)
    on.exit(grDevices::dev.off())
    grDevices::dev.control("enable")
    plot(cv, ...)
    dl <- grDevices::recordPlot()[[1]]
    calls <- vapply(dl, function(e) {
      f <- e[[2]][[1]]
      if (is.list(f) && !is.null(f$name)) f$name else NA_character_
    }, "")
    list(polygons = sum(calls == "C_polygon", na.rm = TRUE),
         usr = graphics::par("usr"))
  }
  with_bands <- drawn()
  # one band per model and method (2 x 2), none without replicates' bands
  expect_identical(with_bands$polygons, 4L)
  expect_identical(drawn(bands = FALSE)$polygons, 0L)
  # a wide device: the x range stays [0, 1] and its margin of 0.02 (a
  # curve on 1, Q = P, inside the box), as autoplot()'s
  expect_equal(with_bands$usr, c(-0.02, 1.02, -0.02, 1.02))
  gb <- ggplot2::ggplot_build(ggplot2::autoplot(cv))
  expect_equal(gb$layout$panel_params[[1]]$x.range, c(-0.02, 1.02))
  expect_equal(gb$layout$panel_params[[1]]$y.range, c(-0.02, 1.02))
  # one panel keeps the user's layout, and every par() is restored
  grDevices::pdf(NULL, width = 9, height = 3)
  on.exit(grDevices::dev.off(), add = TRUE)
  graphics::par(mfrow = c(1, 2))
  plot(cv[cv$model == "a" & cv$method == "knn", ])
  expect_identical(graphics::par("mfg")[1:2], c(1L, 1L))
  plot(cv[cv$model == "b" & cv$method == "knn", ])
  expect_identical(graphics::par("mfg")[1:2], c(1L, 2L))
  expect_identical(graphics::par("mfrow"), c(1L, 2L))
  expect_identical(graphics::par("pty"), "m")
})

test_that("prd_curve_bands() gives the ends of the figure's bands on each ray", {
  set.seed(2)
  r <- matrix(rnorm(400), ncol = 2)
  g <- matrix(rnorm(400, 0.5), ncol = 2)
  cv <- prd_curve(r, g, method = c("knn", "kde"), replicates = 6)
  b <- prd_curve_bands(cv)
  expect_identical(names(b), c(names(cv), "precision_lower", "recall_lower",
                               "precision_upper", "recall_upper"))
  expect_identical(nrow(b), nrow(cv))
  # on the ray of angle atan(lambda): precision = lambda x recall
  mid <- b$lambda > 0 & is.finite(b$lambda)
  expect_equal(b$precision_lower[mid], b$lambda[mid] * b$recall_lower[mid])
  expect_equal(b$precision_upper[mid], b$lambda[mid] * b$recall_upper[mid])
  # the ends hold the curve between them, inside the unit square
  rho <- sqrt(b$precision^2 + b$recall^2)
  expect_true(all(sqrt(b$precision_lower^2 + b$recall_lower^2) <= rho + 1e-12))
  expect_true(all(sqrt(b$precision_upper^2 + b$recall_upper^2) >= rho - 1e-12))
  expect_true(all(pmax(b$precision_upper, b$recall_upper) <= 1))
  # the polygon autoplot() fills: upper ends in lambda order, then the
  # lower ends back
  lay <- prdcurve:::plot_layout(cv, conf_level = 0.9, bands = TRUE)
  knn <- b[b$method == "knn", ]
  poly <- lay$bands[grepl("knn", lay$bands$.curve), ]
  expect_equal(poly$recall, c(knn$recall_upper, rev(knn$recall_lower)))
  expect_equal(poly$precision, c(knn$precision_upper, rev(knn$precision_lower)))
  # other levels widen it; without replicates the columns are NA
  wide <- prd_curve_bands(cv, conf_level = 0.99)
  expect_true(all(wide$recall_upper^2 + wide$precision_upper^2 >=
                    b$recall_upper^2 + b$precision_upper^2 - 1e-12))
  plain <- prd_curve_bands(prd_curve(r, g, method = "knn"))
  expect_true(all(is.na(plain$recall_lower)))
  expect_error(prd_curve_bands(cv, conf_level = 2), class = "prdcurve_error_input")
})

test_that("a band along the square's edges stays whole in the figure", {
  # a curve on the top and right edges (two samples of one distribution
  # in high dimension read by knn) whose replicates agree: each band end
  # is the curve's point, rho (cos(theta), sin(theta)) with rho from the
  # point, which rounds above 1 on about one ray in ten; the figures'
  # scales (limits 0 to 1) dropped those points and joined the rest
  # across the square
  lambda <- c(0, 1e-10, seq(0.01, 0.999, length.out = 300), 1,
              seq(1.001, 50, length.out = 300), Inf)
  rows <- data.frame(lambda = lambda, precision = pmin(1, lambda),
                     recall = pmin(1, 1 / lambda))
  rho <- sqrt(rows$precision^2 + rows$recall^2)
  theta <- atan(lambda)
  expect_gt(sum(rho * sin(theta) > 1 | rho * cos(theta) > 1), 10)
  reps <- do.call(rbind, lapply(1:4, function(i) cbind(replicate = i, rows)))
  band <- prdcurve:::ray_band(rows, reps, divisor = 1, conf_level = 0.9)
  expect_length(band$recall, 2L * nrow(rows))
  expect_true(all(c(band$recall, band$precision) >= 0))
  expect_true(all(c(band$recall, band$precision) <= 1))
  # the bands as data hold the same ends
  set.seed(1)
  cv <- prd_curve(matrix(rnorm(600), ncol = 2), matrix(rnorm(600), ncol = 2),
                  method = "knn", replicates = 4)
  b <- prd_curve_bands(cv)
  ends <- c(b$recall_lower, b$precision_lower, b$recall_upper, b$precision_upper)
  expect_true(all(ends >= 0 & ends <= 1))
})

test_that("plot() of a metrics table or a comparison draws autoplot()'s figure", {
  skip_if_not_installed("ggplot2")
  m <- new_prd_metrics(tibble::tibble(
    model = c("a", "b", "a", "b"),
    metric = c("recall", "recall", "precision", "precision"),
    k = 5L, value = c(0.6, 0.7, 0.9, 1)))
  # printed on the current device (here none): ggplot2 keeps it as its
  # last plot
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off(), add = TRUE)
  ggplot2::set_last_plot(NULL)
  expect_identical(plot(m), m)
  drawn <- ggplot2::last_plot()
  expect_s3_class(drawn, "ggplot")
  expect_identical(ggplot2::ggplot_build(drawn)$data[[1]]$x,
                   ggplot2::ggplot_build(ggplot2::autoplot(m))$data[[1]]$x)
  set.seed(1)
  real <- matrix(rnorm(200 * 2), ncol = 2)
  models <- list(same = matrix(rnorm(200 * 2), ncol = 2),
                 shifted = matrix(rnorm(200 * 2, mean = 1), ncol = 2))
  cmp <- prd_compare(manifold_metrics(real, models, metrics = "recall",
                                      k = 3, replicates = 4))
  expect_identical(plot(cmp), cmp)
  drawn <- ggplot2::last_plot()
  expect_equal(ggplot2::ggplot_build(drawn)$data,
               ggplot2::ggplot_build(ggplot2::autoplot(cmp))$data)
  expect_true(any(vapply(ggplot2::ggplot_build(drawn)$data, function(l)
    isTRUE(all.equal(sort(l$x), sort(cmp$estimate))), logical(1))))
})

test_that("every figure is written to a PNG of the documented size, filled", {
  skip_if_not_installed("ggplot2")
  skip_if_not_installed("png")
  fd <- figure_data()
  truth <- prd_truth_gaussian(c(0, 0), c(0.5, 0.5), angles = 41)
  dir <- withr::local_tempdir()
  figs <- list(
    single = ggplot2::autoplot(curves()),
    truth = ggplot2::autoplot(rbind(prd_truth_gaussian(0, 1, angles = 41),
                                    prd_discrete(1, 1, angles = 41))),
    models = ggplot2::autoplot(fd$cv1),
    panels = ggplot2::autoplot(rbind(fd$cv, truth)),
    compare = ggplot2::autoplot(prd_compare(fd$cv)),
    compare_metrics = ggplot2::autoplot(prd_compare(fd$m)),
    metrics = ggplot2::autoplot(fd$m)
  )
  for (nm in names(figs)) {
    path <- file.path(dir, paste0(nm, ".png"))
    size <- save_figure(figs[[nm]], path)
    expect_paper_png(path, size, nm)
  }
  # base graphics, at the size of the faceted figure
  s <- prd_figure_size(figs$panels)
  path <- file.path(dir, "base.png")
  grDevices::png(path, width = s$width, height = s$height, units = "in",
                 res = s$dpi)
  plot(fd$cv)
  grDevices::dev.off()
  expect_equal(unname(png_dim(path)), round(c(s$width, s$height) * s$dpi))
  expect_gt(ink(path)[["share"]], 0.01)
})

test_that("a curve at 0 everywhere is marked at the origin, and an empty panel says why", {
  skip_if_not_installed("ggplot2")
  set.seed(32)
  real <- matrix(rnorm(60 * 2), ncol = 2)
  far <- matrix(rnorm(60 * 2, mean = 50), ncol = 2)
  near <- matrix(rnorm(60 * 2, mean = 0.5), ncol = 2)
  cv <- prd_curve(real, list(far = far, near = near),
                  method = c("knn", "kde"), split = 0, angles = 21)
  s <- summary(cv)
  expect_equal(s$auc[s$model == "far"], c(0, 0))
  expect_true(all(s$auc[s$model == "near"] > 0.3))
  p <- ggplot2::autoplot(cv)
  pts <- layer_of(p, "GeomPoint")[[1]]
  # one point per curve at 0, both at (0, 0), in the "far" panel (PANEL 1)
  expect_equal(nrow(pts), 2L)
  expect_equal(c(pts$x, pts$y), rep(0, 4))
  expect_equal(as.integer(pts$PANEL), c(1L, 1L))
  expect_setequal(pts$colour,
                  unname(prdcurve:::method_palette[c("knn", "kde")]))
  txt <- layer_of(p, "GeomText")[[1]]
  expect_equal(nrow(txt), 1L)
  expect_equal(as.integer(txt$PANEL), 1L)
  expect_match(txt$label, "AUC 0")
  # the lines of the "near" panel are drawn as before, and no note there
  lay <- prdcurve:::plot_layout(cv, 0.9, FALSE)
  expect_identical(as.character(lay$notes$.panel), "far")
  # one panel: a point for each zero curve; the note only where no other
  # line (here the true curve) would run under it
  one <- prd_curve(real, far, method = c("knn", "kde"), split = 0,
                   angles = 21)
  lay1 <- prdcurve:::plot_layout(rbind(one, prd_truth_gaussian(0, 1)), 0.9,
                                 FALSE)
  expect_equal(nrow(lay1$zero), 2L)
  expect_null(lay1$notes)
  expect_equal(nrow(prdcurve:::plot_layout(one, 0.9, FALSE)$notes), 1L)
  # a curve with some area gets neither
  lay2 <- prdcurve:::plot_layout(prd_curve(real, near, method = "knn",
                                           split = 0, angles = 21), 0.9, FALSE)
  expect_equal(nrow(lay2$zero), 0L)
  expect_null(lay2$notes)
  # plot() draws the same: base graphics, one call per point and note
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off(), add = TRUE)
  expect_invisible(plot(cv))
})

test_that("base plot(): the legend goes where it covers the fewest curve points, a long title fits its panel", {
  grDevices::pdf(NULL, width = 7, height = 3)
  on.exit(grDevices::dev.off(), add = TRUE)
  graphics::par(pty = "s", mfrow = c(1, 3))
  graphics::plot(NA, xlim = c(0, 1), ylim = c(0, 1))
  args <- list(legend = c("knn", "coverage", "tightest"), lwd = 2, cex = 0.85,
               inset = 0.01, seg.len = 2.5)
  good <- list(data.frame(recall = c(0, 0.98, 0.98), precision = c(1, 1, 0)))
  low <- list(data.frame(recall = seq(0, 1, 0.05),
                         precision = 0.3 * exp(-3 * seq(0, 1, 0.05))))
  expect_identical(legend_spot(good, args), "bottomleft")
  spot <- legend_spot(low, args)
  expect_false(spot %in% c("bottomleft", "bottom", "bottomright"))
  r <- do.call(graphics::legend, c(list(spot), args, list(plot = FALSE)))$rect
  expect_gt(r$top - r$h, 0.3)
  # a title wider than the panel: smaller, and cut in the middle when
  # even the smallest size does not fit
  short <- "good"
  expect_identical(fit_title(short), short)
  long <- strrep("a_rather_long_model_name_", 6)
  cut <- fit_title(long)
  expect_match(cut, "...", fixed = TRUE)
  expect_true(startsWith(long, sub("\\.\\.\\..*", "", cut)))
  expect_true(endsWith(long, sub(".*\\.\\.\\.", "", cut)))
  expect_lt(nchar(cut), nchar(long))
  plt <- graphics::par("plt")
  room <- 2 * min(mean(plt[1:2]), 1 - mean(plt[1:2])) * graphics::par("fin")[1]
  expect_lte(graphics::strwidth(cut, units = "inches", font = 2,
                                cex = 0.6 * graphics::par("cex.main")), room)
})

test_that("autoplot(): a model name too wide for its strip is broken into lines, and the figure grows by them", {
  labs <- strip_labels(c("good", "a_rather_long_model_name_shift_0.2",
                         strrep("x", 80)), panel_side(3L))
  expect_identical(labs[["good"]], "good")
  expect_identical(labs[["a_rather_long_model_name_shift_0.2"]],
                   "a_rather_long_model_name_shift_\n0.2")
  # no separator: cut in the middle
  expect_match(labs[[strrep("x", 80)]], "^x+\\.\\.\\.x+$")
  expect_identical(attr(labs, "lines"), 2L)
  set.seed(2)
  x <- matrix(rnorm(400), 200)
  short <- prd_curve(x, list(a = x + 0.2, b = x + 0.4, c = x + 1),
                     method = c("knn", "ipr"), angles = 11)
  long <- prd_curve(x, list(a_rather_long_model_name_shift_0.2 = x + 0.2,
                            b = x + 0.4, c = x + 1),
                    method = c("knn", "ipr"), angles = 11)
  p <- ggplot2::autoplot(long)
  strips <- ggplot2::ggplot_build(p)$layout$layout$.panel
  lab <- p$facet$params$labeller(data.frame(.panel = as.character(strips)))
  expect_identical(lab[[1]][1], "a_rather_long_model_name_shift_\n0.2")
  expect_equal(prd_figure_size(p)$height -
                 prd_figure_size(ggplot2::autoplot(short))$height, 0.13)
})

test_that("autoplot(): a single panel whose legend would take more than two rows gets it in a column at its right", {
  set.seed(3)
  x <- matrix(rnorm(400), 200)
  gens <- stats::setNames(lapply(1:8, function(i) x + i / 10),
                          paste0("a_rather_long_model_name_shift_", 1:8))
  p <- ggplot2::autoplot(prd_curve(x, gens, method = "knn", angles = 11))
  expect_identical(p$theme$legend.position, "right")
  sz <- prd_figure_size(p)
  expect_gt(sz$width, 3.3 + max(text_width_in(names(gens), 7.2)))
  expect_lte(sz$width, 6.9)
  # one column: as many rows as models
  expect_identical(as.integer(p$guides$colour$nrow), 8L)
  # a short legend stays under the panel
  q <- ggplot2::autoplot(prd_curve(x, gens[1:2], method = "knn", angles = 11))
  expect_false(identical(q$theme$legend.position, "right"))
  expect_identical(prd_figure_size(q)$width, 3.3)
})
