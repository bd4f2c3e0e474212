# Tests of R/plot-theme.R: the figures' sizes for a paper (their theme and
# the curves' axis margin are tested with the figures, test-plot.R).

skip_if_sanitizing()

test_that("prd_figure_size() gives the documented sizes and survives +", {
  skip_if_not_installed("ggplot2")
  expect_equal(prd_figure_size()[c("width", "height", "units", "dpi")],
               list(width = 3.3, height = 3.6, units = "in", dpi = 300))
  fd <- figure_data()
  p <- ggplot2::autoplot(fd$cv) + ggplot2::labs(title = "three models")
  s <- prd_figure_size(p)
  expect_equal(s$width, 6.9)
  # (its curves have replicates: a caption line under the legend)
  expect_equal(s$height, 3.3)
  # two panels a row: as wide as they need (2.15 in each, 0.15 between,
  # 0.45 of axis), not the 6.9 in of three
  two <- ggplot2::autoplot(prd_curve(fd$real, fd$models[1:2],
                                     method = c("knn", "coverage"), angles = 41))
  expect_equal(prd_figure_size(two)[c("width", "height")],
               list(width = 4.9, height = 3.2))
  expect_equal(prd_figure_size(ggplot2::autoplot(curves())), prd_figure_size())
  # a curve itself, or a figure drawn elsewhere, has no size: an error (was
  # the single panel's size, whatever the figure)
  e <- expect_error(prd_figure_size(fd$cv), class = "prdcurve_error_input")
  expect_match(conditionMessage(e), "prd_figure_size(autoplot(x))", fixed = TRUE)
  e <- expect_error(prd_figure_size(ggplot2::ggplot()),
                    class = "prdcurve_error_input")
  expect_match(conditionMessage(e), "without a size of its own", fixed = TRUE)
})
