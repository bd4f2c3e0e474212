#' Plot precision-recall curves
#'
#' `autoplot()` draws the curves of a `prd_curve` with ggplot2: recall on
#' the x axis, precision on the y axis, both on \[0, 1\] with an equal
#' aspect ratio. Colour and line type are the method (a solid, dotted,
#' dashed, dot-dash ... line per method, so the figure reads in
#' greyscale and identical curves do not hide each other; knn is dotted
#' beside the default's solid line), with one panel
#' per model when there are several (or colour and line type are the model
#' when there is one method and several models). True curves
#' ([prd_truth_gaussian()], [prd_truth()]) are dashed grey (the legend's
#' key `truth`, their `method`), in every panel; a true curve given a
#' `model` (`truth$model <- "a"` before `rbind()` with the estimates) is
#' drawn in that model's panel only, and dashed in the model's colour
#' when colour is the model. The default family,
#' `"tightest"`, is solid black, and no other curve is black or grey. The legend is at the bottom, one legend for colour and
#' line type (titled `method` or `model`, also under a colour scale added
#' by the user); when its entries, measured, do not fit the figure's width
#' they wrap into rows, and a single panel whose legend would take more
#' than two rows (many models, long names) has it in one column at its
#' right, in a wider figure. Model names too wide for a panel's strip
#' break into lines (after `_`, `-`, `.` or a space). In `plot()`, each
#' panel's legend goes where it covers the fewest curve points. Curves computed with `replicates` get a band: at each angle
#' \eqn{\theta} of the \eqn{\lambda} grid, the interval of \eqn{\rho(\theta)
#' = \sqrt{\alpha^2 + \beta^2}} from the complementary half-sample
#' replicates (see the section Intervals of [prd_curve()]), drawn along the
#' ray. The band's fill is taken from the line's colour after scaling
#' (`after_scale()`), so a colour scale added by the user
#' (`+ scale_colour_brewer()`, `+ scale_colour_grey()`) recolours lines and
#' bands alike. A curve that is 0 at every \eqn{\lambda} (the classifier
#' told every evaluation row apart: sets with disjoint supports, or a
#' column in other units) is the single point (0, 0), which a line does
#' not show: it is drawn as a point in its colour at the origin, and a
#' panel in which every curve is 0 says "AUC 0: the sets were told apart
#' completely". `plot()` draws the same with base graphics, in the same
#' colours, line types and panels.
#'
#' `autoplot` is exported by this package, so `library(prdcurve);
#' autoplot(cv)` works without attaching ggplot2 (it calls
#' `ggplot2::autoplot()`, whose methods this package registers; ggplot2
#' stays a suggested package and is needed only to draw).
#'
#' @section Size for a paper: Every figure of the package is laid out for
#'   a given size: [prd_figure_size()] gives it in inches (at 300 dpi) for
#'   a figure, e.g.
#'   `s <- prd_figure_size(p); ggplot2::ggsave("fig.png", p, width = s$width, height = s$height, dpi = s$dpi)`.
#'   A single curve panel is 3.3 x 3.6 in, one column of a two-column
#'   paper, 0.2 in taller for each further row of its legend (a legend
#'   wider than the figure wraps: four methods and the truth take two
#'   rows, 3.3 x 3.8 in; a legend at the right widens it, up to 6.9 in);
#'   several panels (up to 3 a row: 2.15 in square panels, 2.05 in
#'   three a row) and the figures of [prd_compare()] and metric tables
#'   fill a 6.9 in text width, but two panels a row take 4.9 in. Text is set at 9 pt (ggplot2's
#'   `theme_bw(base_size = 9)`), so it stays 9 pt in print at that size.
#'   The command line ([prd_cli()]) saves its figures at this size.
#'
#' @param object,x A `prd_curve` (several curves bound with [rbind()] also
#'   work).
#' @param conf_level Confidence level of the bands (default 0.9).
#' @param bands Draw the bands of curves with replicates (default `TRUE`).
#' @param main,xlab,ylab Title and axis labels of `plot()`.
#'   `plot()` draws square panels on \[0, 1\] and, with `bands`, the same
#'   bands as `autoplot()`.
#' @param col Colours of `plot()`, one per method (or per model with one
#'   method; default: the colours of `autoplot()`).
#' @param ... Unused by `autoplot()`; passed to [graphics::lines()] by
#'   `plot()`.
#' @return `autoplot()`: a ggplot object (its size for a paper in
#'   [prd_figure_size()]). `plot()`: `x`, invisibly.
#' @section Errors: `autoplot()` needs the ggplot2 package
#'   (`rlang_error` from [rlang::check_installed()]); `prdcurve_error_curve`
#'   for an invalid curve; `prdcurve_error_input` for an object no loaded
#'   package has an `autoplot()` method for.
#' @seealso [autoplot.prd_comparison()] (the figure of [prd_compare()]),
#'   [autoplot.prd_metrics()] (metric tables).
#' @examples
#' truth <- prd_truth_gaussian(c(0, 0), c(1, 0))
#' plot(truth)
#' if (requireNamespace("ggplot2", quietly = TRUE)) {
#'   set.seed(1)
#'   real <- matrix(rnorm(300 * 2), ncol = 2)
#'   gen <- matrix(rnorm(300 * 2, mean = c(1, 0)), ncol = 2, byrow = TRUE)
#'   cv <- prd_curve(real, gen, method = c("knn", "coverage"),
#'                   replicates = 10)
#'   p <- autoplot(rbind(cv, truth))
#'   prd_figure_size(p)
#' }
#' @name prd_plot
NULL

#' @rdname prd_plot
#' @export
autoplot <- function(object, ...) {
  rlang::check_installed("ggplot2", reason = "to draw figures.")
  gg <- asNamespace("ggplot2")
  caller <- parent.frame()
  # methods registered on ggplot2's generic, or defined where it is called
  has_method <- any(vapply(class(object), function(cl) {
    !is.null(utils::getS3method("autoplot", cl, optional = TRUE, envir = gg)) ||
      exists(paste0("autoplot.", cl), envir = caller, mode = "function")
  }, logical(1)))
  if (!has_method) {
    prd_abort(c(
      "{.arg object} must be a result this package draws: a {.cls prd_curve}, a {.fn prd_compare} result or a metrics table.",
      "x" = "It is {.obj_type_friendly {object}}, for which no {.fn autoplot} method is loaded."
    ), "input")
  }
  ggplot2::autoplot(object, ...)
}

#' @rdname prd_plot
#' @exportS3Method ggplot2::autoplot
autoplot.prd_curve <- function(object, conf_level = 0.9, bands = TRUE, ...) {
  rlang::check_installed("ggplot2", reason = "to plot PR curves.")
  check_curve(object, "object")
  conf_level <- check_level(conf_level)
  bands <- check_flag(bands)
  lay <- plot_layout(object, conf_level, bands)
  est <- lay$lines[!lay$lines$.reference, , drop = FALSE]
  ref <- lay$lines[lay$lines$.reference, , drop = FALSE]
  # the legend's keys (R/plot-legend.R): the true curves last, in order
  key <- legend_keys(lay, exact = nrow(ref) > 0L)
  pal <- key$palette
  lty <- key$linetypes
  est$.colour <- key$as_key(est$.colour)
  ref$.colour <- key$as_key(rep("truth", nrow(ref)))
  if (!is.null(lay$bands)) lay$bands$.colour <- key$as_key(lay$bands$.colour)
  lay$zero$.colour <- key$as_key(lay$zero$.colour)
  p <- ggplot2::ggplot(mapping = ggplot2::aes(x = .data$recall,
                                              y = .data$precision)) +
    key$blank
  if (!is.null(lay$bands) && nrow(lay$bands)) {
    # the fill is the line colour after scaling: a user's colour scale
    # recolours the bands too
    p <- p + ggplot2::geom_polygon(
      data = lay$bands,
      ggplot2::aes(group = .data$.curve, colour = .data$.colour,
                   fill = ggplot2::after_scale(colour)),
      alpha = 0.2, linetype = "blank", show.legend = FALSE
    )
  }
  if (nrow(est)) {
    p <- p + ggplot2::geom_path(
      data = est, ggplot2::aes(group = .data$.curve, colour = .data$.colour,
                               linetype = .data$.colour),
      linewidth = 0.6
    )
  }
  if (nrow(ref)) {
    # (the true curves of models coloured by model: dashed in the model's
    # colour, the key "truth" saying what a dashed line is)
    own <- !is.na(ref$.ref_colour)
    if (any(!own)) {
      p <- p + ggplot2::geom_path(
        data = ref[!own, , drop = FALSE],
        ggplot2::aes(group = .data$.curve, colour = .data$.colour,
                     linetype = .data$.colour),
        linewidth = 0.45
      )
    }
    if (any(own)) {
      ro <- ref[own, , drop = FALSE]
      ro$.colour <- key$as_key(ro$.ref_colour)
      p <- p + ggplot2::geom_path(
        data = ro, ggplot2::aes(group = .data$.curve, colour = .data$.colour),
        linetype = "dashed", linewidth = 0.45, show.legend = FALSE
      )
    }
  }
  if (nrow(lay$zero)) {
    p <- p + ggplot2::geom_point(
      data = lay$zero, ggplot2::aes(colour = .data$.colour), size = 2,
      show.legend = FALSE
    )
  }
  if (!is.null(lay$notes)) {
    p <- p + ggplot2::geom_text(
      data = lay$notes, ggplot2::aes(label = .data$.label),
      size = prd_figure_text_size / ggplot2::.pt, colour = "grey30"
    )
  }
  leg <- legend_layout(names(pal), lay$colour_name,
                       curve_figure_size(min(3L, lay$n_panels), 1L,
                                         strips = lay$facet)$width)
  rows <- leg$rows
  # a single panel whose legend would take more than two rows under it
  # (many models, long names): the legend in one column at its right, in
  # a wider figure
  right <- lay$n_panels == 1L && rows > 2L
  if (right) {
    rows <- length(pal)
    leg$top <- FALSE
  }
  p <- p +
    curve_legend(pal, lty, lay$colour_name, rows, leg$top) +
    ggplot2::scale_x_continuous(limits = c(0, 1), breaks = c(0, 0.5, 1),
                                labels = c("0", "0.5", "1"),
                                expand = ggplot2::expansion(add = plot_margin)) +
    ggplot2::scale_y_continuous(limits = c(0, 1), breaks = c(0, 0.5, 1),
                                labels = c("0", "0.5", "1"),
                                expand = ggplot2::expansion(add = plot_margin)) +
    ggplot2::coord_equal() +
    ggplot2::labs(x = "recall", y = "precision") +
    prd_theme() +
    ggplot2::theme(legend.key.width = ggplot2::unit(1.6, "lines"))
  # what the bands are, under the figure
  caption <- !is.null(lay$bands) && nrow(lay$bands) > 0L
  if (caption) {
    p <- p + ggplot2::labs(caption = sprintf(
      "Shaded: %s%% intervals (half-sample replicates)", format(100 * conf_level))) +
      ggplot2::theme(plot.caption = ggplot2::element_text(colour = "grey30"))
  }
  n_panels <- lay$n_panels
  ncol <- min(3L, n_panels)
  strip_lines <- 1L
  if (lay$facet) {
    # (long model names broken into lines that fit the panel's width)
    strips <- strip_labels(levels(lay$lines$.panel), panel_side(ncol))
    strip_lines <- attr(strips, "lines")
    p <- p + ggplot2::facet_wrap(ggplot2::vars(.data$.panel), ncol = ncol,
                                 labeller = ggplot2::as_labeller(strips))
  }
  size <- curve_figure_size(ncol, ceiling(n_panels / ncol), strips = lay$facet)
  if (right) {
    p <- p + ggplot2::theme(legend.position = "right")
    size <- right_legend_size(names(pal), lay$colour_name)
    size$height <- round(size$height + legend_row_height * caption, 2)
    return(set_figure_size(p, size))
  }
  size$height <- round(size$height + legend_row_height * (leg$lines + caption) +
                         strip_line_height * (strip_lines - 1L) *
                         ceiling(n_panels / ncol), 2)
  set_figure_size(p, size)
}

#' @rdname prd_plot
#' @export
plot.prd_curve <- function(x, main = NULL, xlab = "recall",
                           ylab = "precision", col = NULL, conf_level = 0.9,
                           bands = TRUE, ...) {
  conf_level <- check_level(conf_level)
  bands <- check_flag(bands)
  lay <- plot_layout(x, conf_level = conf_level, bands = bands)
  lines <- lay$lines
  pal <- lay$palette
  if (!is.null(col)) pal[] <- rep_len(col, length(pal))
  panels <- if (lay$facet) levels(lines$.panel) else NA_character_
  # square panels on [0, 1] (asp = 1 would widen the x range on a wide
  # device); a user's layout (par(mfrow)) is kept for one panel
  old <- graphics::par(pty = "s")
  on.exit(graphics::par(old), add = TRUE)
  if (length(panels) > 1L) {
    nc <- min(3L, length(panels))
    old_mf <- graphics::par(mfrow = c(ceiling(length(panels) / nc), nc))
    on.exit(graphics::par(old_mf), add = TRUE, after = FALSE)
  }
  dots <- list(...)
  for (pn in panels) {
    rows <- if (is.na(pn)) lines else lines[as.character(lines$.panel) == pn, ]
    curves <- split(rows, factor(rows$.curve, levels = unique(rows$.curve)))
    labels <- vapply(curves, function(cv) as.character(cv$.colour[1]), "")
    refs <- vapply(curves, function(cv) cv$.reference[1], logical(1))
    cols <- unname(pal[labels])
    # the true curves grey, or in their model's colour (as autoplot())
    own <- vapply(curves, function(cv) cv$.ref_colour[1], "")
    cols[refs] <- ifelse(is.na(own[refs]), truth_colour, pal[own[refs]])
    ltys <- unname(lay$linetypes[labels])
    ltys[refs] <- "dashed"
    # [0, 1] and 0.02 each side, as autoplot()'s expansion: a curve on
    # precision or recall 1 (Q = P) is drawn inside the box, not under it
    graphics::plot(NA, xlim = plot_frame, ylim = plot_frame,
                   xlab = xlab, ylab = ylab, xaxs = "i", yaxs = "i")
    # (a long model name made smaller, or cut in the middle, to fit)
    fit_title(if (is.na(pn)) main else paste(c(main, pn), collapse = ": "))
    # the bands of curves with replicates, under the lines, in their
    # colours
    bt <- lay$bands
    if (!is.null(bt) && nrow(bt)) {
      if (!is.na(pn)) bt <- bt[as.character(bt$.panel) == pn, , drop = FALSE]
      for (b in split(bt, factor(bt$.curve, levels = unique(bt$.curve)))) {
        graphics::polygon(b$recall, b$precision, border = NA,
                          col = grDevices::adjustcolor(
                            unname(pal[as.character(b$.colour[1])]),
                            alpha.f = 0.2))
      }
    }
    for (i in seq_along(curves)) {
      args <- utils::modifyList(list(x = curves[[i]]$recall,
                                     y = curves[[i]]$precision, col = cols[i],
                                     lwd = if (refs[i]) 1.5 else 2,
                                     lty = ltys[i]), dots)
      do.call(graphics::lines, args)
    }
    # curves at 0 everywhere: a note when the panel has nothing else to
    # show (see plot_layout()), and a point at the origin (below)
    if (!is.null(lay$notes) &&
        any(is.na(pn) | as.character(lay$notes$.panel) %in% pn)) {
      graphics::text(0.5, 0.5, zero_curve_note, col = "grey30", cex = 0.85)
    }
    leg <- ifelse(refs, vapply(curves, function(cv) as.character(cv$.label[1]), ""),
                  labels)
    # (on a pale box, where it covers the fewest points of the curves: the
    # lower left is under a good model's curve, but a poor one passes there)
    largs <- list(legend = leg, col = cols, lwd = 2, lty = ltys, bty = "o",
                  box.col = NA, cex = 0.85,
                  bg = grDevices::adjustcolor("white", alpha.f = 0.8),
                  inset = 0.01, seg.len = 2.5)
    do.call(graphics::legend, c(list(legend_spot(curves, largs)), largs))
    # (the points at the origin over the legend's box)
    zp <- lay$zero
    if (!is.na(pn)) zp <- zp[as.character(zp$.panel) == pn, , drop = FALSE]
    if (nrow(zp)) {
      graphics::points(zp$recall, zp$precision, pch = 19, xpd = TRUE,
                       col = unname(pal[as.character(zp$.colour)]))
    }
  }
  invisible(x)
}

#' Colours of the methods, in the order they are drawn (Okabe and Ito's
#' colour-blind-safe palette).
#' @noRd
method_palette <- c(knn = "#0072B2", kde = "#D55E00", ipr = "#009E73",
                    coverage = "#CC79A7", tightest = "#000000")
#' Further colours: dark or mid-tone only (no yellow, no pale blue), each
#' readable on white; lines differ by line type as well.
#' @noRd
extra_palette <- c("#000000", "#E69F00", "#882255", "#44AA99", "#332288",
                   "#999933", "#666666", "#AA4499")
#' Colours of models (one method, several models): ten distinct ones
#' once the default's black is left out (a sweep of nine checkpoints drew
#' two pairs alike when there were seven), then again with other line
#' types
#' @noRd
model_palette <- c("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#000000",
                   "#E69F00", "#332288", "#44AA99", "#882255", "#999933",
                   "#661100")
#' Line types in the order of the colours (methods first); knn dotted in
#' every figure (the default's solid black and knn's dark blue read alike
#' in greyscale)
#' @noRd
method_linetypes <- c(knn = "13", kde = "22", ipr = "42", coverage = "4212",
                      tightest = "solid")
extra_linetypes <- c("solid", "22", "42", "4212", "12", "1242", "82", "8222")
#' Line types of models (one method, several models): the plain dashes,
#' which the models' true curves take, last
#' @noRd
model_linetypes <- c("solid", "4212", "13", "1242", "8222", "22", "42", "82")

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
  others <- if (colour_name == "model") model_palette else extra_palette
  # black is the default family's, grey the true curves'
  others <- setdiff(others, c(method_palette[known], "#000000", truth_colour))
  pal <- c(method_palette[known],
           stats::setNames(rep_len(others,
                                   max(0L, length(setdiff(levels_col, known)))),
                           setdiff(levels_col, known)))
  pal <- pal[levels_col]
  lty <- if (identical(colour_name, "method") && !several_k) {
    # (one line type per method in every figure; a method drawn alone solid)
    used <- method_linetypes[known]
    if (length(levels_col) == 1L) used[] <- "solid"
    # the other methods: line types no named method (nor the truth) takes
    free <- setdiff(extra_linetypes[-1], c(used, "44"))
    c(used,
      stats::setNames(rep_len(free, max(0L, length(setdiff(levels_col, known)))),
                      setdiff(levels_col, known)))[levels_col]
  } else {
    # (by model: no plain dashes first, which a model's true curve takes)
    types <- if (colour_name == "model") model_linetypes else extra_linetypes
    stats::setNames(rep_len(types, length(levels_col)), levels_col)
  }
  panels <- if (facet) models else NA_character_
  lines <- list()
  band_rows <- list()
  for (i in seq_along(groups)) {
    rows <- groups[[i]]$rows
    label <- curve_label(groups[[i]]$key)
    # a true curve of a model (its `model` key) only in that model's
    # panel; one without a model, or of no estimated model, in every panel
    own <- facet && !is.na(model_of[i]) && model_of[i] %in% panels
    targets <- if (facet && !own) panels else
      if (facet) model_of[i] else NA_character_
    # with one panel coloured by model, a model's true curve in its colour
    ref_colour <- if (is_ref[i] && colour_name == "model" &&
                        isTRUE(model_of[i] %in% levels_col)) model_of[i] else
      NA_character_
    for (pn in targets) {
      lines[[length(lines) + 1L]] <- tibble::tibble(
        recall = rows$recall, precision = rows$precision,
        .curve = paste(label, pn), .colour = colour[i], .panel = pn,
        .reference = is_ref[i], .label = label, .ref_colour = ref_colour)
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
  # a curve that is 0 everywhere (every evaluation row told apart: disjoint
  # sets) is the single point (0, 0), which a line does not show: a point
  # marks it, and a panel whose curves are all 0 says so
  zero_curve <- vapply(split(lines, factor(lines$.curve,
                                            levels = unique(lines$.curve))),
                       function(cv) isTRUE(max(cv$precision, cv$recall) <= 0),
                       logical(1))
  is_zero <- lines$.curve %in% names(zero_curve)[zero_curve]
  zero <- lines[is_zero & !lines$.reference, , drop = FALSE]
  zero <- zero[!duplicated(zero$.curve), c(".curve", ".colour", ".panel"),
               drop = FALSE]
  zero$recall <- rep(0, nrow(zero))
  zero$precision <- rep(0, nrow(zero))
  # the note only where nothing else is drawn (no line under the text)
  panel_key <- as.character(lines$.panel)
  panel_key[is.na(panel_key)] <- ""
  all_zero <- vapply(split(is_zero, factor(panel_key,
                                           levels = unique(panel_key))),
                     all, logical(1))
  notes <- if (any(all_zero)) {
    pn <- names(all_zero)[all_zero]
    tibble::tibble(recall = 0.5, precision = 0.5,
                   .panel = replace(pn, pn == "", NA_character_),
                   .label = zero_curve_note)
  }
  if (facet) {
    zero$.panel <- factor(as.character(zero$.panel), levels = models)
    if (!is.null(notes)) notes$.panel <- factor(notes$.panel, levels = models)
  }
  list(lines = lines, bands = band_tbl, zero = zero, notes = notes,
       palette = pal, linetypes = lty, facet = facet,
       colour_name = colour_name,
       n_panels = if (facet) length(models) else 1L)
}

#' The note in a panel whose estimated curves are all 0
#' @noRd
zero_curve_note <- "AUC 0: the sets were\ntold apart completely"

#' Band along the rays: at each angle of the curve's grid, rho +- t sqrt(v)
#' with v the complementary half-sample variance of the replicates' rho
#' (pair_variance()), as a closed polygon.
#' @noRd
ray_band <- function(rows, reps, divisor, conf_level) {
  e <- ray_ends(ray_limits(rows, reps, divisor, conf_level))
  list(recall = c(e$recall_upper, rev(e$recall_lower)),
       precision = c(e$precision_upper, rev(e$precision_lower)))
}

#' The two ends of each ray's interval (ray_limits()) as points, each
#' coordinate at most 1: on the square's edges rho sin(theta) can exceed
#' 1 by a rounding, and the figures' scales (limits 0 to 1) would drop
#' such a point, joining its neighbours across the square.
#' @noRd
ray_ends <- function(r) {
  cs <- cos(r$theta)
  sn <- sin(r$theta)
  list(precision_lower = pmin(r$lo * sn, 1), recall_lower = pmin(r$lo * cs, 1),
       precision_upper = pmin(r$hi * sn, 1), recall_upper = pmin(r$hi * cs, 1))
}

#' The band's ends on each ray of a curve's grid (rows ordered by lambda):
#' theta = atan(lambda) and rho's interval [lo, hi], inside the unit
#' square.
#' @noRd
ray_limits <- function(rows, reps, divisor, conf_level) {
  theta <- atan(rows$lambda)
  rho <- sqrt(rows$precision^2 + rows$recall^2)
  rr <- split(reps, reps$replicate)
  mat <- vapply(rr, function(rc) {
    rc <- rc[order(rc$lambda), , drop = FALSE]
    sqrt(rc$precision^2 + rc$recall^2)
  }, numeric(length(rho)))
  mat <- matrix(mat, nrow = length(rho))
  pv <- pair_variance(mat, as.integer(names(rr)), divisor)
  half <- stats::qt((1 + conf_level) / 2, df = max(pv$df, 1L)) * pv$se
  lo <- pmax(rho - half, 0)
  hi <- pmin(rho + half, sqrt(2))
  # keep the band inside the unit square
  hi <- pmin(hi, 1 / pmax(cos(theta), sin(theta)))
  list(theta = theta, lo = lo, hi = hi)
}

#' The bands of curves with replicates, as data
#'
#' The points that draw the bands of [autoplot.prd_curve()] and
#' `plot()`: for every row of a curve computed with `replicates`, the
#' interval of \eqn{\rho(\theta) = \sqrt{\alpha^2 + \beta^2}}{rho(theta)
#' = sqrt(alpha^2 + beta^2)} on the ray of angle \eqn{\theta =
#' \arctan\lambda}{theta = atan(lambda)} (the complementary
#' half-sample interval; see the section Intervals of [prd_curve()]),
#' given by its two ends on that ray, in the unit square. Redraw a band
#' as the polygon through the upper ends in the order of `lambda` and
#' back through the lower ends.
#'
#' @param x A [prd_curve()] result.
#' @param conf_level Confidence level (default 0.9, as the figures).
#' @return A tibble: the columns of `x` (rows of each curve ordered by
#'   `lambda`) and `precision_lower`, `recall_lower` (the lower end on
#'   the ray), `precision_upper`, `recall_upper` (the upper end; the
#'   order of `precision` and `recall`); `NA`
#'   for curves without replicates.
#' @section Errors: `prdcurve_error_curve` for an invalid curve,
#'   `prdcurve_error_input` for a bad `conf_level`.
#' @examples
#' set.seed(1)
#' real <- matrix(rnorm(300 * 2), ncol = 2)
#' gen <- matrix(rnorm(300 * 2, mean = 0.5), ncol = 2)
#' b <- prd_curve_bands(prd_curve(real, gen, method = "knn", replicates = 10))
#' # the ends on the ray of lambda = 1 (the grid's tan() holds it to rounding)
#' b[abs(b$lambda - 1) < 1e-9, c("lambda", "precision", "precision_lower", "precision_upper")]
#' @export
prd_curve_bands <- function(x, conf_level = 0.9) {
  check_curve(x, "x")
  conf_level <- check_level(conf_level)
  out <- lapply(split_curves(x), function(g) {
    rows <- g$rows
    inf <- info_of(x, key_value(g$key, "model", NA_character_),
                   as.character(rows$method[1]),
                   key_value(g$key, "k", NA_integer_))
    r <- list(theta = rep(NA_real_, nrow(rows)), lo = NA_real_,
              hi = NA_real_)
    if (!is.null(inf) && !is.null(inf$replicates[[1]])) {
      r <- ray_limits(rows, inf$replicates[[1]], inf$divisor, conf_level)
    }
    vctrs::vec_cbind(rows, tibble::as_tibble(ray_ends(r)))
  })
  tibble::as_tibble(vctrs::vec_rbind(!!!out))
}

#' @importFrom rlang .data
NULL

utils::globalVariables("colour")

