#' Plot precision-recall curves
#'
#' `autoplot()` draws every method's curve of a `prd_curve` with ggplot2:
#' recall on the x axis, precision on the y axis, both on \[0, 1\] with an
#' equal aspect ratio, one colour per method. `plot()` does the same with
#' base graphics.
#'
#' @param object,x A `prd_curve` (several curves bound with [rbind()] also
#'   work).
#' @param ... Passed on to [graphics::lines()] for `plot()`; unused by
#'   `autoplot()`.
#' @return `autoplot()`: a ggplot object. `plot()`: `x`, invisibly.
#' @section Errors: `autoplot()` needs the ggplot2 package.
#' @examples
#' truth <- prd_truth_gaussian(c(0, 0), c(1, 0))
#' plot(truth)
#' if (requireNamespace("ggplot2", quietly = TRUE)) {
#'   ggplot2::autoplot(truth)
#' }
#' @name prd_plot
NULL

#' @rdname prd_plot
#' @exportS3Method ggplot2::autoplot
autoplot.prd_curve <- function(object, ...) {
  rlang::check_installed("ggplot2", reason = "to plot PR curves.")
  df <- as.data.frame(object)
  df <- df[order(df$method, df$lambda), , drop = FALSE]
  ggplot2::ggplot(df, ggplot2::aes(x = .data$recall, y = .data$precision,
                                   colour = .data$method)) +
    ggplot2::geom_path(linewidth = 0.8) +
    ggplot2::scale_x_continuous(limits = c(0, 1), expand = c(0, 0.01)) +
    ggplot2::scale_y_continuous(limits = c(0, 1), expand = c(0, 0.01)) +
    ggplot2::coord_equal() +
    ggplot2::labs(x = "recall", y = "precision", colour = "method")
}

#' @rdname prd_plot
#' @export
plot.prd_curve <- function(x, ...) {
  cvs <- split_methods(x)
  cols <- grDevices::hcl.colors(max(2L, length(cvs)), "Dark 3")
  graphics::plot(NA, xlim = c(0, 1), ylim = c(0, 1), asp = 1,
                 xlab = "recall", ylab = "precision", xaxs = "i", yaxs = "i")
  for (i in seq_along(cvs)) {
    graphics::lines(cvs[[i]]$recall, cvs[[i]]$precision, col = cols[i],
                    lwd = 2, ...)
  }
  graphics::legend("bottomleft", legend = vapply(cvs, function(cv)
    cv$method[1], ""), col = cols[seq_along(cvs)], lwd = 2, bty = "n")
  invisible(x)
}

#' @importFrom rlang .data
NULL
