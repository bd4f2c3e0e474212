# Figures of metric tables and comparisons (autoplot() of prd_metrics and
# prd_comparison): one panel per statistic, intervals as segments.

#' Plot paired differences and metric tables
#'
#' `autoplot()` of a [prd_compare()] result is a forest plot: one panel
#' per statistic, one line per model (other than the baseline), the paired
#' difference model minus baseline as a point with its interval, and a
#' vertical line at 0 (no difference). With several methods or values of
#' `k`, each gets its colour and line type, offset vertically. An interval
#' that does not cross the line says the model differs from the baseline
#' at the comparison's level.
#'
#' `autoplot()` of a [manifold_metrics()] or [entropy_metrics()] table
#' draws each metric in its panel: one line per model, the value as a
#' point and, when the table has replicates, its interval; several `k`
#' get a colour and line type each.
#'
#' Both are set for a paper at the size [prd_figure_size()] gives (6.9 in
#' wide, 9 pt text; see the section Size for a paper of
#' [autoplot.prd_curve()]).
#'
#' @param object A [prd_compare()] result (class `prd_comparison`) or a
#'   metrics table (class `prd_metrics`).
#' @param statistics The statistics (comparisons) or metrics (tables) to
#'   draw, in panel order. Default for comparisons of curves: `"auc"`,
#'   `"max_precision"`, `"max_recall"`, `"f_beta_precision"`,
#'   `"f_beta_recall"`; otherwise every one in `object`.
#' @param axes Metric tables: `"data"` (default), each panel's axis spans
#'   its values, so that close models stay apart; `"bounds"`, it spans
#'   the metric's range as well (\[0, 1\] for the shares, from 0 for
#'   `density`), so that a panel's width does not exaggerate a small
#'   difference. A panel of a single value without an interval (one
#'   model, no replicates) spans from 0 to the metric's upper bound (1
#'   for the shares) or 1.25 times the value.
#' @param x The same, for `plot()`.
#' @param ... Unused by `autoplot()`; passed to it by `plot()`.
#' @return `autoplot()`: a ggplot object. `plot()` draws that figure on
#'   the current device (these figures have no base-graphics version) and
#'   returns `x` invisibly.
#' @section Errors: `prdcurve_error_input` when `object` has no rows or
#'   `statistics` names none of the statistics of `object`; ggplot2 is
#'   needed (`rlang_error`).
#' @examples
#' if (requireNamespace("ggplot2", quietly = TRUE)) {
#'   set.seed(1)
#'   real <- matrix(rnorm(300 * 4), ncol = 4)
#'   models <- list(same = matrix(rnorm(300 * 4), ncol = 4),
#'                  shifted = matrix(rnorm(300 * 4, mean = 0.3), ncol = 4))
#'   m <- manifold_metrics(real, models, metrics = c("precision", "recall"),
#'                         replicates = 10)
#'   autoplot(m)
#'   autoplot(prd_compare(m))
#' }
#' @name autoplot.prd_comparison
#' @exportS3Method ggplot2::autoplot
autoplot.prd_comparison <- function(object, statistics = NULL, ...) {
  rlang::check_installed("ggplot2", reason = "to draw figures.")
  check_rows_to_draw(object)
  default <- if (all(is.na(object$method))) unique(object$statistic) else
    intersect(c("auc", "max_precision", "max_recall", "f_beta_precision",
                "f_beta_recall"), object$statistic)
  stats <- interval_statistics(statistics, object$statistic, default)
  d <- object[object$statistic %in% stats, , drop = FALSE]
  interval_plot(
    panel = factor(d$statistic, levels = stats), row = d$model,
    group = group_label(d$method, d$k, d$statistic), estimate = d$estimate,
    lower = d$lower, upper = d$upper, zero = TRUE,
    xlab = paste0("difference from ", d$baseline[1], " (model - baseline)"),
    group_name = group_name(d$method, d$k)
  )
}

#' @rdname autoplot.prd_comparison
#' @exportS3Method ggplot2::autoplot
autoplot.prd_metrics <- function(object, statistics = NULL,
                                 axes = c("data", "bounds"), ...) {
  rlang::check_installed("ggplot2", reason = "to draw figures.")
  check_metrics(object, "object")
  check_rows_to_draw(object)
  axes <- rlang::arg_match(axes)
  stats <- interval_statistics(statistics, object$metric,
                               unique(object$metric))
  d <- object[object$metric %in% stats, , drop = FALSE]
  has <- all(c("lower", "upper") %in% names(d))
  panel <- factor(d$metric, levels = stats)
  span_to <- NULL
  if (axes == "bounds") {
    # each panel reaches its metric's finite bounds ([0, 1] for the
    # shares; density from 0)
    span_to <- vctrs::vec_rbind(!!!lapply(stats, function(m) {
      b <- manifold_bounds(m)
      b <- b[is.finite(b)]
      tibble::tibble(panel = factor(rep(m, length(b)), levels = stats),
                     x = as.numeric(b))
    }))
  }
  interval_plot(
    panel = panel, row = d$model,
    group = group_label(rep(NA_character_, nrow(d)), d$k, d$metric),
    estimate = d$value,
    lower = if (has) d$lower else rep(NA_real_, nrow(d)),
    upper = if (has) d$upper else rep(NA_real_, nrow(d)),
    zero = FALSE, xlab = "value", group_name = "neighbours", span_to = span_to
  )
}

#' An empty table (a subset of none) has nothing to draw: a classed error
#' rather than ggplot2's own
#' @noRd
check_rows_to_draw <- function(object, call = rlang::caller_env()) {
  if (!nrow(object)) {
    prd_abort(c("{.arg object} has no rows to draw.",
                "i" = "Subset it to some models or statistics, or draw the table it came from."),
              "input", call = call)
  }
}

interval_statistics <- function(statistics, present, default,
                                call = rlang::caller_env()) {
  if (is.null(statistics)) return(default)
  if (!is.character(statistics) || !any(statistics %in% present)) {
    prd_abort(c("{.arg statistics} must name statistics of {.arg object}.",
                "i" = "It has {.val {unique(present)}}."), "input",
              call = call)
  }
  intersect(statistics, present)
}

#' The legend's group of each row: the method, with its k when the rows
#' hold several; a metric's k alone ("no neighbours" where it has none,
#' the embedding metrics). The k of p_precision and p_recall is their
#' ppr_k, and is named so.
#' @noRd
group_label <- function(method, k, metric = NULL) {
  m <- !is.na(method)
  k_name <- rep("k = ", length(k))
  if (!is.null(metric)) {
    k_name[!m & metric %in% c("p_precision", "p_recall")] <- "ppr_k = "
  }
  several_k <- nrow(unique(data.frame(k_name, k)[!is.na(k), , drop = FALSE])) > 1L
  lab <- ifelse(m, as.character(method), "")
  if (several_k) {
    # (a family or metric without neighbours, NA k: its name, or "no
    # neighbours" for the embedding metrics)
    lab <- ifelse(m, ifelse(is.na(k), lab, paste0(lab, " (k = ", k, ")")),
                  ifelse(is.na(k), "no neighbours", paste0(k_name, k)))
  }
  lab[lab == ""] <- "estimate"
  lab
}

#' The legend's title: "method" for the curves' families, "neighbours"
#' for metrics (its entries "k = 5", "ppr_k = 4", "no neighbours"), as
#' the metrics table's own figure has it
#' @noRd
group_name <- function(method, k) {
  if (all(is.na(method))) "neighbours" else "method"
}

#' Invisible points that widen a panel whose values (estimates and interval
#' ends) span less than 1e-3 times their size (at least 1e-3): a recall of
#' 1 beside one of 0.99999999 would otherwise get an axis whose labels all
#' read "1". The window is kept inside [0, 1] when every value is and the
#' panel is no difference (`bounded`). A panel of one value without an
#' interval (one model, no replicates) reaches 0 instead, and the
#' metric's upper bound where it has one (1 for the shares), else 1.25
#' times the value: a window of 1e-3 around a lone point read as a
#' precision the value does not have.
#' @noRd
panel_min_span <- function(d, bounded = TRUE) {
  out <- lapply(split(d, d$panel, drop = TRUE), function(z) {
    v <- c(z$estimate, z$lower, z$upper)
    v <- v[is.finite(v)]
    if (!length(v)) return(NULL)
    lo <- min(v)
    hi <- max(v)
    need <- 1e-3 * max(1, abs(lo), abs(hi))
    if (hi - lo >= need) return(NULL)
    lone <- nrow(z) == 1L && !is.finite(z$lower) && !is.finite(z$upper)
    if (lone && (lo > 0 || hi < 0)) {
      # (a metric's finite upper bound: 1 for the shares, 100 for authpct)
      b <- if (bounded) manifold_bounds(as.character(z$panel[1]))
      top <- if (length(b) == 2L && is.finite(b[2]) && hi <= b[2]) b[2] else
        1.25 * hi
      x <- if (lo > 0) c(0, top) else c(1.25 * lo, 0)
      return(tibble::tibble(panel = z$panel[1], x = x))
    }
    a <- (lo + hi) / 2 - need / 2
    b <- a + need
    if (bounded && lo >= 0 && hi <= 1) {
      if (b > 1) { a <- a - (b - 1); b <- 1 }
      if (a < 0) { b <- b - a; a <- 0 }
    }
    tibble::tibble(panel = z$panel[1], x = c(a, b))
  })
  out <- out[!vapply(out, is.null, logical(1))]
  if (!length(out)) return(tibble::tibble(panel = d$panel[0], x = numeric()))
  vctrs::vec_rbind(!!!out)
}

#' Points with intervals, one panel per statistic, one line per row label,
#' groups offset vertically with a colour and a point shape each (the
#' intervals solid: a method's dotted curve line made its interval read
#' as faint).
#' @noRd
interval_plot <- function(panel, row, group, estimate, lower, upper, zero,
                          xlab, group_name, span_to = NULL) {
  rows <- unique(row)
  groups <- unique(group)
  ng <- length(groups)
  # each panel's groups offset about their row, in the legend's order (a
  # panel of one group draws it on the row: k = 5 and ppr_k = 4 in panels
  # of their own sat 0.11 off their model's tick)
  gi <- match(group, groups)
  off <- numeric(length(gi))
  for (pn in unique(as.character(panel))) {
    sel <- as.character(panel) == pn
    here <- sort(unique(gi[sel]))
    nh <- length(here)
    if (nh > 1L) {
      off[sel] <- ((seq_len(nh) - (nh + 1) / 2) * min(0.22, 0.7 / nh))[match(gi[sel], here)]
    }
  }
  d <- tibble::tibble(
    panel = panel, estimate = estimate, lower = lower, upper = upper,
    group = factor(group, levels = groups),
    y = match(row, rev(rows)) + off
  )
  known <- intersect(names(method_palette), groups)
  pal <- c(method_palette[known],
           stats::setNames(rep_len(c(unname(method_palette), extra_palette),
                                   length(setdiff(groups, known))),
                           setdiff(groups, known)))[groups]
  ci <- d[is.finite(d$lower) & is.finite(d$upper), , drop = FALSE]
  p <- ggplot2::ggplot(d, ggplot2::aes(x = .data$estimate, y = .data$y,
                                       colour = .data$group))

  if (zero) {
    p <- p + ggplot2::geom_vline(xintercept = 0, colour = "grey40",
                                 linewidth = 0.4)
  }
  if (nrow(ci)) {
    p <- p + ggplot2::geom_segment(
      data = ci, ggplot2::aes(x = .data$lower, xend = .data$upper,
                              yend = .data$y),
      linewidth = 0.6)
  }
  p <- p + ggplot2::geom_point(ggplot2::aes(shape = .data$group), size = 1.8)
  # (last, so that the layers above keep their places)
  span <- panel_min_span(d, bounded = !zero)
  # values each panel's axis must reach (a metric's bounds)
  if (!is.null(span_to) && nrow(span_to)) span <- vctrs::vec_rbind(span, span_to)
  if (nrow(span)) {
    p <- p + ggplot2::geom_blank(data = span, ggplot2::aes(x = .data$x),
                                 inherit.aes = FALSE)
  }
  # one legend, fitted to the figure's width; a user's colour scale takes
  # its title from labs()
  leg <- legend_layout(groups, group_name, 6.9,
                       offset = interval_axis_offset(rows))
  p <- p +
    ggplot2::labs(colour = group_name, shape = group_name) +
    legend_guides(leg$rows, c("colour", "shape"), leg$top) +
    ggplot2::scale_colour_manual(values = pal, name = group_name,
                                 drop = FALSE) +
    ggplot2::scale_shape_manual(values = rep_len(c(16, 17, 15, 18, 1, 2), ng),
                                name = group_name, drop = FALSE) +
    ggplot2::scale_y_continuous(breaks = seq_along(rows), labels = rev(rows),
                                expand = ggplot2::expansion(add = 0.5)) +
    # about four ticks: a panel spanning 1e-3 otherwise gets five-decimal
    # labels, and those at the ends of neighbouring panels run together
    ggplot2::scale_x_continuous(n.breaks = 4) +
    ggplot2::facet_wrap(ggplot2::vars(.data$panel), scales = "free_x",
                        ncol = metric_panel_columns(nlevels(panel))) +
    ggplot2::labs(x = xlab, y = NULL) +
    prd_theme() +
    ggplot2::theme(panel.grid.major.y = ggplot2::element_blank(),
                   panel.spacing.x = ggplot2::unit(1.4, "lines"),
                   legend.key.width = ggplot2::unit(1.6, "lines"),
                   # (half of a tick label at a panel's right end: "0.005"
                   # was cut at the figure's edge in a 6 pt margin)
                   plot.margin = ggplot2::margin(4, 13, 4, 4))
  if (ng == 1L) p <- p + ggplot2::theme(legend.position = "none")
  n_panels <- nlevels(panel)
  nrow_f <- ceiling(n_panels / metric_panel_columns(n_panels))
  panel_h <- max(0.9, 0.3 + 0.28 * length(rows) * max(1, ng * 0.6))
  height <- nrow_f * (panel_h + 0.2) + 0.5 +
    if (ng > 1L) 0.3 + legend_row_height * leg$lines else 0
  set_figure_size(p, figure_size(6.9, height))
}

#' @rdname autoplot.prd_comparison
#' @export
plot.prd_comparison <- function(x, ...) {
  print(autoplot.prd_comparison(x, ...))
  invisible(x)
}

#' @rdname autoplot.prd_comparison
#' @export
plot.prd_metrics <- function(x, ...) {
  print(autoplot.prd_metrics(x, ...))
  invisible(x)
}

#' Columns of the metric panels: three a row, but two for four panels (2 x
#' 2, not 3 + 1 with an empty slot, over which the axis title floated)
#' @noRd
metric_panel_columns <- function(n) if (n == 4L) 2L else min(3L, n)
