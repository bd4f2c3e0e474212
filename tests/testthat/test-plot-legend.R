# The figures' legends at their documented sizes (prd_figure_size()):
# rendered to a PNG device, the legend's measured width must fit the
# image; the default family and the exact curve differ in line type; a
# user's colour scale makes no second legend.

skip_if_sanitizing()

legend_figures <- function() {
  set.seed(41)
  real <- matrix(rnorm(120 * 2), ncol = 2)
  gen <- matrix(rnorm(120 * 2, mean = 0.6), ncol = 2)
  truth <- prd_truth_gaussian(c(0, 0), c(0.6, 0.6), angles = 21)
  # the README's first figure: the default, knn, coverage and the truth
  # (tightest on 120 rows warns that its halves are small)
  readme <- suppressWarnings(
    prd_curve(real, gen, method = c("tightest", "knn", "coverage"), angles = 21),
    classes = "prdcurve_warning")
  many <- prd_curve(real, gen, method = c("knn", "kde", "ipr", "coverage",
                                          "linear", "quadratic"),
                    angles = 21)
  long <- stats::setNames(
    lapply(1:5, function(i) matrix(rnorm(120 * 2, mean = 0.2 * i), ncol = 2)),
    paste0("generator_with_a_long_name_", 1:5))
  models <- prd_curve(real, long, method = "knn", angles = 21)
  panels <- prd_curve(real, long[1:3], method = c("knn", "kde", "ipr",
                                                  "coverage"),
                      angles = 21)
  metrics <- manifold_metrics(real, long[1:3], k = c(2, 3, 5, 8, 13, 21),
                              metrics = c("precision", "recall"))
  cmp_cv <- prd_curve(real, long[1:3], method = c("knn", "kde", "ipr",
                                                  "coverage", "linear"),
                      angles = 21, replicates = 4)
  list(readme = rbind(readme, truth), many = rbind(many, truth),
       models = models, panels = rbind(panels, truth),
       metrics = metrics, compare = prd_compare(cmp_cv))
}

# the legend of a figure drawn on a PNG device of its documented size:
# its width and the fixed heights around the panels, in inches
legend_fit <- function(p, file) {
  size <- prd_figure_size(p)
  grDevices::png(file, width = size$width, height = size$height,
                 units = "in", res = 100)
  on.exit(grDevices::dev.off())
  g <- ggplot2::ggplotGrob(p)
  boxes <- g$grobs[grepl("guide-box", g$layout$name)]
  boxes <- boxes[!vapply(boxes, inherits, NA, "zeroGrob")]
  width <- vapply(boxes, function(b) {
    grid::convertWidth(grid::grobWidth(b), "in", valueOnly = TRUE)
  }, numeric(1))
  fixed <- grid::convertHeight(g$heights[!grid::unitType(g$heights) %in% "null"],
                               "in", valueOnly = TRUE)
  # where the legend is drawn: the box's viewport on the device (inches
  # from the left and bottom edges)
  grid::grid.newpage()
  grid::grid.draw(g)
  grid::seekViewport("guide-box")
  lo <- grid::deviceLoc(grid::unit(0, "npc"), grid::unit(0, "npc"), valueOnly = TRUE)
  hi <- grid::deviceLoc(grid::unit(1, "npc"), grid::unit(1, "npc"), valueOnly = TRUE)
  grid::upViewport(0)
  # the legends inside the box (a stray one would be a second)
  inner <- if (length(boxes)) {
    sum(vapply(boxes[[1]]$grobs, inherits, NA, "gtable"))
  } else 0L
  list(n = length(boxes), legends = inner, width = width, fixed_height = sum(fixed),
       left = lo$x, right = hi$x, bottom = lo$y, top = hi$y, size = size)
}

test_that("every figure's legend fits its documented size, wrapped into rows", {
  skip_if_not_installed("ggplot2")
  figs <- legend_figures()
  dir <- tempfile("legend")
  dir.create(dir)
  for (nm in names(figs)) {
    p <- ggplot2::autoplot(figs[[nm]])
    fit <- legend_fit(p, file.path(dir, paste0(nm, ".png")))
    expect_identical(fit$n, 1L, label = nm)
    expect_identical(fit$legends, 1L, label = nm)
    # inside the image: the box drawn within the device's edges
    expect_lte(fit$width, fit$size$width - 10 / 72)
    expect_gte(fit$left, 0)
    expect_lte(fit$right, fit$size$width)
    expect_gte(fit$bottom, 0)
    expect_lte(fit$top, fit$size$height)
    expect_equal(fit$right - fit$left, fit$width, tolerance = 1e-6)
    # room left for the panels: at least 1.2 in of the height
    expect_lte(fit$fixed_height, fit$size$height - 1.2)
    expect_true(file.size(file.path(dir, paste0(nm, ".png"))) > 5000)
  }
  # the single panel is 3.3 in wide, one legend row 3.6 in tall; the
  # README's figure (4 entries) takes two rows, 0.2 in more; five long
  # names, which would take more than two rows, go to its right
  pm <- ggplot2::autoplot(figs$models)
  expect_identical(pm$theme$legend.position, "right")
  expect_gt(prd_figure_size(pm)$width, 3.3)
  expect_identical(unlist(prd_figure_size(ggplot2::autoplot(figs$readme))[1:2]),
                   c(width = 3.3, height = 3.8))
  expect_identical(prd_figure_size(ggplot2::autoplot(figs$panels))$width, 6.9)
  # a legend that fits one row stays one row: two methods
  two <- ggplot2::autoplot(prd_curve(matrix(rnorm(80), 40), matrix(rnorm(80), 40),
                                     method = c("knn", "ipr"), angles = 11))
  expect_identical(unlist(prd_figure_size(two)[1:2]), c(width = 3.3, height = 3.6))
})

test_that("legend_rows() wraps exactly when the measured row is too wide", {
  rows <- prdcurve:::legend_rows
  w <- function(x, size) prdcurve:::text_width_in(x, size)
  pt <- 1 / 72
  entry <- 2 * 4.5 * pt + 1.6 * 14.454 * pt
  labels <- c("tightest", "knn", "coverage", "truth")
  one_row <- w("method", 9) + sum(entry + w(labels, 7.2)) + 4.5 * pt + 0.35 + 0.05
  expect_identical(rows(labels, "method", one_row + 0.01), 1L)
  expect_identical(rows(labels, "method", one_row - 0.01), 2L)
  # two rows by row: columns (tightest, coverage) and (knn, truth)
  two_rows <- w("method", 9) + 2 * entry + max(w(c("tightest", "coverage"), 7.2)) +
    max(w(c("knn", "truth"), 7.2)) + 4.5 * pt + 0.35 + 0.05
  expect_identical(rows(labels, "method", two_rows + 0.001), 2L)
  # (three rows are two columns too: the next layout is one column)
  expect_identical(rows(labels, "method", two_rows - 0.001), 4L)
  expect_identical(rows("knn", "method", 0.1), 1L)
  expect_identical(rows(labels, "method", 0.01), 4L)
  # the measured widths grow with the text (monotone, about 0.5 em a letter)
  expect_gt(w("coverage", 7.2), w("knn", 7.2))
  expect_equal(w("mmmm", 10) / w("mm", 10), 2, tolerance = 1e-6)
})

test_that("a legend's title goes above its entries where that takes no more lines", {
  lay <- prdcurve:::legend_layout
  # three models beside "model" wrap into two rows at 3.3 in, the title
  # between them; under it they fit one row: as tall, the title on top
  three <- c("other_half", "digits_0_2", "noisy")
  expect_identical(prdcurve:::legend_rows(three, "model", 3.3), 2L)
  expect_identical(lay(three, "model", 3.3), list(rows = 1L, top = TRUE, lines = 1L))
  # the README's four entries take two rows either way: the title stays
  # at their left (above, the figure would be 0.2 in taller)
  four <- c("tightest", "knn", "coverage", "truth")
  expect_identical(lay(four, "method", 3.3), list(rows = 2L, top = FALSE, lines = 1L))
  # one row beside the title: unchanged
  expect_identical(lay(c("knn", "ipr"), "method", 3.3), list(rows = 1L, top = FALSE, lines = 0L))
  skip_if_not_installed("ggplot2")
  set.seed(3)
  x <- matrix(rnorm(200), 100)
  gens <- stats::setNames(lapply(1:3, function(i) matrix(rnorm(200, 0.2 * i), 100)), three)
  p <- ggplot2::autoplot(prd_curve(x, gens, method = "knn", angles = 11))
  expect_identical(unlist(prd_figure_size(p)[1:2]), c(width = 3.3, height = 3.8))
  # (ggplot2 3.5 keeps its guides in another structure)
  skip_if_not(utils::packageVersion("ggplot2") < "3.5.0")
  expect_identical(p$guides$colour$title.position, "top")
  expect_identical(p$guides$colour$nrow, 1L)
})

test_that("the default family and the true curve differ in colour and line type", {
  skip_if_not_installed("ggplot2")
  figs <- legend_figures()
  p <- ggplot2::autoplot(figs$readme)
  d <- do.call(rbind, lapply(ggplot2::ggplot_build(p)$data, function(l) {
    if (all(c("colour", "linetype") %in% names(l)) && nrow(l) > 1L)
      unique(l[c("colour", "linetype")])
  }))
  b <- ggplot2::ggplot_build(p)
  sc <- b$plot$scales$get_scales("linetype")
  lt <- stats::setNames(sc$map(sc$get_breaks()), sc$get_breaks())
  expect_identical(unname(lt["truth"]), "dashed")
  expect_identical(unname(lt["tightest"]), "solid")
  # no estimated curve is drawn as the true one (grey and dashed); the
  # true curve's key is "truth", its `method`
  expect_identical(unique(as.character(figs$readme$method[
    figs$readme$method == "truth"])), "truth")
  col <- b$plot$scales$get_scales("colour")
  cl <- stats::setNames(col$map(col$get_breaks()), col$get_breaks())
  styles <- paste(cl, lt[names(cl)])
  expect_false(any(duplicated(styles)))
  expect_identical(toupper(unname(cl[c("tightest", "truth")])),
                   c("#000000", "#6E6E6E"))
  # with the other families too: the extra colours are neither black nor
  # the truth's grey
  many <- ggplot2::ggplot_build(ggplot2::autoplot(figs$many))
  col <- many$plot$scales$get_scales("colour")
  cl <- stats::setNames(col$map(col$get_breaks()), col$get_breaks())
  expect_identical(names(cl)[toupper(cl) %in% c("BLACK", "#000000", "#6E6E6E")],
                   "truth")
})

test_that("a user's colour scale recolours the one legend, no '.colour' legend", {
  skip_if_not_installed("ggplot2")
  figs <- legend_figures()
  dir <- tempfile("legend-user")
  dir.create(dir)
  for (nm in c("readme", "models", "panels", "compare")) {
    p <- suppressMessages(ggplot2::autoplot(figs[[nm]]) +
                            ggplot2::scale_colour_brewer(palette = "Dark2"))
    fit <- legend_fit(p, file.path(dir, paste0(nm, ".png")))
    expect_identical(fit$n, 1L, label = nm)
    # one legend inside the box, titled as the package's
    expect_identical(fit$legends, 1L)
    expect_lte(fit$right, fit$size$width)
    title <- p$labels$colour
    expect_false(identical(title, ".colour"))
    # (the forest plot's groups differ by colour and point shape)
    expect_identical(title, if (nm == "compare") p$labels$shape else
      p$labels$linetype)
  }
})
