#' Plot precision-recall curves
#'
#' `autoplot()` draws the curves of a `prd_curve` with ggplot2: recall on
#' the x axis, precision on the y axis, both on \[0, 1\] with an equal
#' aspect ratio. Colour is the method, with one panel per model when there
#' are several (or colour is the model when there is one method and
#' several models). Exact curves ([prd_truth_gaussian()], [prd_truth()])
#' are dashed black, in every panel. Curves computed with `replicates` get
#' a band: at each angle \eqn{\theta} of the \eqn{\lambda} grid, the
#' interval of \eqn{\rho(\theta) = \sqrt{\alpha^2 + \beta^2}} from the
#' complementary half-sample replicates (see the section Intervals of [prd_curve()]),
#' drawn along the ray. `plot()` draws the same with base graphics, in the
#' same colours and order.
#'
#' @param object,x A `prd_curve` (several curves bound with [rbind()] also
#'   work).
#' @param conf_level Confidence level of the bands (default 0.9).
#' @param bands Draw the bands of curves with replicates (default `TRUE`).
#' @param main,xlab,ylab Title and axis labels of `plot()`.
#' @param col Colours of `plot()`, one per curve (default: the colours of
#'   `autoplot()`).
#' @param ... Unused by `autoplot()`; passed to [graphics::lines()] by
#'   `plot()`.
#' @return `autoplot()`: a ggplot object. `plot()`: `x`, invisibly.
#' @section Errors: `autoplot()` needs the ggplot2 package
#'   (`rlang_error` from [rlang::check_installed()]); `prdcurve_error_curve`
#'   for an invalid curve.
#' @examples
#' truth <- prd_truth_gaussian(c(0, 0), c(1, 0))
#' plot(truth)
#' if (requireNamespace("ggplot2", quietly = TRUE)) {
#'   set.seed(1)
#'   real <- matrix(rnorm(300 * 2), ncol = 2)
#'   gen <- matrix(rnorm(300 * 2, mean = c(1, 0)), ncol = 2, byrow = TRUE)
#'   cv <- prd_curve(real, gen, method = c("knn", "coverage"),
#'                   replicates = 10)
#'   ggplot2::autoplot(rbind(cv, truth))
#' }
#' @name prd_plot
NULL

#' @rdname prd_plot
#' @exportS3Method ggplot2::autoplot
autoplot.prd_curve <- function(object, conf_level = 0.9, bands = TRUE, ...) {
  rlang::check_installed("ggplot2", reason = "to plot PR curves.")
  conf_level <- check_level(conf_level)
  bands <- check_flag(bands)
  lay <- plot_layout(object, conf_level, bands)
  est <- lay$lines[!lay$lines$.reference, , drop = FALSE]
  ref <- lay$lines[lay$lines$.reference, , drop = FALSE]
  p <- ggplot2::ggplot(mapping = ggplot2::aes(x = .data$recall,
                                              y = .data$precision))
  if (!is.null(lay$bands) && nrow(lay$bands)) {
    p <- p + ggplot2::geom_polygon(
      data = lay$bands,
      ggplot2::aes(group = .data$.curve, fill = .data$.colour),
      alpha = 0.25, colour = NA, show.legend = FALSE
    )
  }
  if (nrow(est)) {
    p <- p + ggplot2::geom_path(
      data = est, ggplot2::aes(group = .data$.curve, colour = .data$.colour),
      linewidth = 0.7
    )
  }
  if (nrow(ref)) {
    p <- p + ggplot2::geom_path(
      data = ref, ggplot2::aes(group = .data$.curve, linetype = "exact"),
      colour = "black", linewidth = 0.5
    ) + ggplot2::scale_linetype_manual(values = c(exact = "dashed"),
                                       name = NULL)
  }
  pal <- lay$palette
  p <- p +
    ggplot2::scale_colour_manual(values = pal, breaks = names(pal),
                                 name = lay$colour_name) +
    ggplot2::scale_fill_manual(values = pal, breaks = names(pal),
                               guide = "none") +
    ggplot2::scale_x_continuous(limits = c(0, 1), breaks = c(0, 0.5, 1),
                                labels = c("0", "0.5", "1"),
                                expand = ggplot2::expansion(add = 0.02)) +
    ggplot2::scale_y_continuous(limits = c(0, 1), breaks = c(0, 0.5, 1),
                                labels = c("0", "0.5", "1"),
                                expand = ggplot2::expansion(add = 0.02)) +
    ggplot2::coord_equal() +
    ggplot2::labs(x = "recall", y = "precision") +
    ggplot2::theme_bw(base_size = 11) +
    ggplot2::theme(panel.grid.minor = ggplot2::element_blank(),
                   strip.background = ggplot2::element_blank(),
                   strip.text = ggplot2::element_text(face = "bold"),
                   legend.position = "bottom",
                   panel.spacing = ggplot2::unit(1, "lines"))
  if (lay$facet) {
    p <- p + ggplot2::facet_wrap(ggplot2::vars(.data$.panel))
  }
  p
}

#' @rdname prd_plot
#' @export
plot.prd_curve <- function(x, main = NULL, xlab = "recall",
                           ylab = "precision", col = NULL, ...) {
  lay <- plot_layout(x, conf_level = 0.9, bands = FALSE)
  curves <- split(lay$lines, factor(lay$lines$.curve,
                                    levels = unique(lay$lines$.curve)))
  labels <- vapply(curves, function(cv) cv$.colour[1], "")
  refs <- vapply(curves, function(cv) cv$.reference[1], logical(1))
  cols <- unname(lay$palette[labels])
  cols[refs] <- "black"
  if (!is.null(col)) cols <- rep_len(col, length(curves))
  graphics::plot(NA, xlim = c(0, 1), ylim = c(0, 1), asp = 1, main = main,
                 xlab = xlab, ylab = ylab, xaxs = "i", yaxs = "i")
  dots <- list(...)
  for (i in seq_along(curves)) {
    args <- utils::modifyList(list(x = curves[[i]]$recall,
                                   y = curves[[i]]$precision, col = cols[i],
                                   lwd = if (refs[i]) 1.5 else 2,
                                   lty = if (refs[i]) 2 else 1), dots)
    do.call(graphics::lines, args)
  }
  legend_labels <- ifelse(refs, vapply(curves, function(cv) cv$.label[1], ""),
                          paste0(ifelse(lay$facet, paste0(
                            vapply(curves, function(cv) cv$.panel[1], ""),
                            ": "), ""), labels))
  graphics::legend("bottomleft", legend = legend_labels, col = cols,
                   lwd = 2, lty = ifelse(refs, 2, 1), bty = "n")
  invisible(x)
}

#' Colours of the methods, in the order they are drawn (Okabe and Ito's
#' colour-blind-safe palette).
#' @noRd
method_palette <- c(knn = "#0072B2", kde = "#D55E00", ipr = "#009E73",
                    coverage = "#CC79A7")
extra_palette <- c("#E69F00", "#56B4E9", "#F0E442", "#000000", "#999999",
                   "#882255", "#44AA99", "#332288")

#' Data of a PR plot: lines (one group per curve, with colour label, panel
#' and whether it is a reference curve), bands and the palette.
#' @noRd
plot_layout <- function(x, conf_level, bands) {
  check_curve(x, "x")
  groups <- split_curves(x)
  info <- attr(x, "curves")
  is_ref <- vapply(groups, function(g) {
    inf <- info_of(x, key_value(g$key, "model", NA_character_),
                   as.character(g$rows$method[1]),
                   key_value(g$key, "k", NA_integer_))
    src <- if (is.null(inf)) NA_character_ else inf$source
    identical(as.character(g$rows$method[1]), "truth") ||
      isTRUE(src %in% c("prd_truth", "prd_truth_gaussian"))
  }, logical(1))
  model_of <- vapply(groups, function(g) {
    as.character(key_value(g$key, "model", NA_character_))
  }, "")
  method_of <- vapply(groups, function(g) as.character(g$rows$method[1]), "")
  k_of <- vapply(groups, function(g) {
    as.character(key_value(g$key, "k", NA_integer_))
  }, "")
  models <- unique(stats::na.omit(model_of[!is_ref]))
  methods <- unique(method_of[!is_ref])
  several_k <- length(unique(stats::na.omit(k_of[!is_ref]))) > 1L
  facet <- length(models) > 1L && length(methods) > 1L
  colour <- if (length(models) > 1L && length(methods) == 1L) {
    model_of
  } else {
    method_of
  }
  if (several_k) colour <- ifelse(is.na(k_of), colour,
                                  paste0(colour, " (k = ", k_of, ")"))
  colour_name <- if (length(models) > 1L && length(methods) == 1L) "model" else
    "method"
  levels_col <- unique(colour[!is_ref])
  known <- intersect(names(method_palette), levels_col)
  pal <- c(method_palette[known],
           stats::setNames(rep_len(extra_palette,
                                   max(0L, length(setdiff(levels_col, known)))),
                           setdiff(levels_col, known)))
  pal <- pal[levels_col]
  panels <- if (facet) models else NA_character_
  lines <- list()
  band_rows <- list()
  for (i in seq_along(groups)) {
    rows <- groups[[i]]$rows
    label <- curve_label(groups[[i]]$key)
    targets <- if (facet && (is_ref[i] || is.na(model_of[i]))) panels else
      if (facet) model_of[i] else NA_character_
    for (pn in targets) {
      lines[[length(lines) + 1L]] <- tibble::tibble(
        recall = rows$recall, precision = rows$precision,
        .curve = paste(label, pn), .colour = colour[i], .panel = pn,
        .reference = is_ref[i], .label = label)
    }
    if (bands && !is_ref[i]) {
      inf <- info_of(x, model_of[i], method_of[i],
                     key_value(groups[[i]]$key, "k", NA_integer_))
      if (!is.null(inf) && !is.null(inf$replicates[[1]])) {
        b <- ray_band(rows, inf$replicates[[1]], inf$divisor, conf_level)
        band_rows[[length(band_rows) + 1L]] <- tibble::tibble(
          recall = b$recall, precision = b$precision,
          .curve = paste(label, targets[1]), .colour = colour[i],
          .panel = targets[1])
      }
    }
  }
  lines <- vctrs::vec_rbind(!!!lines)
  if (facet) {
    lines$.panel <- factor(lines$.panel, levels = models)
  }
  band_tbl <- if (length(band_rows)) vctrs::vec_rbind(!!!band_rows)
  if (facet && !is.null(band_tbl)) {
    band_tbl$.panel <- factor(band_tbl$.panel, levels = models)
  }
  list(lines = lines, bands = band_tbl, palette = pal, facet = facet,
       colour_name = colour_name)
}

#' Band along the rays: at each angle of the curve's grid, rho +- t sqrt(v)
#' with v the complementary half-sample variance of the replicates' rho
#' (pair_variance()), as a closed polygon.
#' @noRd
ray_band <- function(rows, reps, divisor, conf_level) {
  theta <- atan(rows$lambda)
  rho <- sqrt(rows$precision^2 + rows$recall^2)
  rr <- split(reps, reps$replicate)
  mat <- vapply(rr, function(rc) {
    rc <- rc[order(rc$lambda), , drop = FALSE]
    sqrt(rc$precision^2 + rc$recall^2)
  }, numeric(length(rho)))
  mat <- matrix(mat, nrow = length(rho))
  pv <- pair_variance(mat, as.integer(names(rr)), divisor)
  half <- stats::qt((1 + conf_level) / 2, df = max(pv$df, 1L)) * sqrt(pv$v)
  lo <- pmax(rho - half, 0)
  hi <- pmin(rho + half, sqrt(2))
  # keep the band inside the unit square
  hi <- pmin(hi, 1 / pmax(cos(theta), sin(theta)))
  list(recall = c(hi * cos(theta), rev(lo * cos(theta))),
       precision = c(hi * sin(theta), rev(lo * sin(theta))))
}

#' @importFrom rlang .data
NULL
