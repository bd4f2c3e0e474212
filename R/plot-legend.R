# The legends of the figures: laid out to fit the figure's documented
# width (prd_figure_size()). A legend at the bottom is one row of
# "title  key label  key label ..."; when its measured width exceeds the
# figure's, its entries wrap into as many rows as needed (by row, in the
# order of the breaks), and the figure grows by a row's height for each.

#' Width in inches of strings set at `size` points in the figures' sans
#' font. Measured with the PDF device's Helvetica metrics (no file is
#' opened), times `slack`: bitmap devices set "sans" in wider faces
#' (DejaVu Sans, Liberation Sans: up to 18% wider, measured on png()).
#' @noRd
text_width_in <- function(text, size, slack = 1.2) {
  if (!length(text)) return(numeric())
  old <- grDevices::dev.cur()
  grDevices::pdf(NULL)
  on.exit({
    grDevices::dev.off()
    if (old > 1L) grDevices::dev.set(old)
  }, add = TRUE)
  graphics::par(ps = size)
  graphics::strwidth(text, units = "inches", family = "sans") * slack
}

#' The number of rows a bottom legend needs to fit `width` inches.
#'
#' ggplot2's bottom legend (theme_bw(9), `legend.key.width` of
#' `key_lines` lines, measured on png()): the title (9 pt), then per
#' column a gap, the key, a gap and the widest label of the column
#' (7.2 pt); gaps are half the base size (4.5 pt). The legend is centred
#' under the panels, not the figure: it fits when its width is at most
#' `width` less the difference between what lies left of the panels (the
#' y axis: its title and labels) and right of them, `offset` inches.
#' @param labels the legend's labels, in order; `title` its title (`NULL`
#'   for none).
#' @return A whole number of rows, 1 to `length(labels)`.
#' @noRd
legend_rows <- function(labels, title, width, offset = curve_axis_offset,
                        key_lines = 1.6) {
  n <- length(labels)
  if (n <= 1L) return(1L)
  pt <- 1 / 72
  gap <- 0.5 * prd_figure_text_size * pt
  key <- key_lines * 14.454 * pt
  label_w <- text_width_in(labels, 0.8 * prd_figure_text_size)
  title_w <- if (is.null(title) || !nzchar(title)) 0 else
    text_width_in(title, prd_figure_text_size)
  # (a little slack for the rounding of the measured widths)
  avail <- width - offset - 0.05
  for (rows in seq_len(n)) {
    cols <- ceiling(n / rows)
    # by row: entry i is in column (i - 1) %% cols
    col_w <- vapply(seq_len(cols), function(j) {
      max(label_w[seq(j, n, by = cols)])
    }, numeric(1))
    need <- title_w + sum(2 * gap + key + col_w) + gap
    if (need <= avail) return(as.integer(rows))
  }
  as.integer(n)
}

#' The layout of a bottom legend: its title at the left of its rows
#' (legend_rows()), or above them where that takes no more lines: the
#' entries then have the whole width, and three that wrap into two rows
#' beside the title (which stood between them) fit one row under it.
#' Returns list(rows, top: the title above, lines: the lines of text
#' beyond one, rows - 1 + top).
#' @noRd
legend_layout <- function(labels, title, width, offset = curve_axis_offset) {
  rows <- legend_rows(labels, title, width, offset = offset)
  if (rows > 1L) {
    under <- legend_rows(labels, NULL, width, offset = offset)
    if (under < rows) return(list(rows = under, top = TRUE, lines = under))
  }
  list(rows = rows, top = FALSE, lines = rows - 1L)
}

#' The guides of a legend of `rows` rows shared by the aesthetics given
#' (one legend: the same title, breaks and layout on each), its title
#' above the entries with `top`.
#' @noRd
legend_guides <- function(rows, aesthetics, top = FALSE) {
  guide <- if (top) {
    ggplot2::guide_legend(nrow = rows, byrow = TRUE, title.position = "top")
  } else {
    ggplot2::guide_legend(nrow = rows, byrow = TRUE)
  }
  do.call(ggplot2::guides, stats::setNames(rep(list(guide), length(aesthetics)),
                                            aesthetics))
}

#' The size of a single curve panel with its legend in one column at its
#' right (autoplot() of many models): the panel's 3.3 in, plus the widest
#' label or the title, the key and gaps; at most 6.9 in wide; as tall as
#' the panel without a legend under it, or as the legend's rows.
#' @noRd
right_legend_size <- function(labels, title) {
  pt <- 1 / 72
  key <- 1.6 * 14.454 * pt
  wide <- max(text_width_in(labels, 0.8 * prd_figure_text_size) + key +
                prd_figure_text_size * pt,
              text_width_in(title, prd_figure_text_size))
  base <- curve_figure_size(1L, 1L, strips = FALSE)
  figure_size(min(6.9, base$width + wide + 0.15),
              max(base$height - 0.3, 0.4 + legend_row_height * length(labels)))
}

#' Height in inches that each legend row beyond the first adds to a figure
#' (a key of 1.2 lines at 9 pt and its spacing).
#' @noRd
legend_row_height <- 0.2

#' What lies left of a curve panel less what lies right of it, inches (the
#' y axis's title, its labels 0, 0.5, 1 and the margins; measured on png()
#' at 3.3 in: the panel spans 0.457 to 3.172 in).
#' @noRd
curve_axis_offset <- 0.35

#' The same for the figures of intervals, whose y axis labels are the
#' models: the widest label at 7.2 pt, its tick and the margins.
#' @noRd
interval_axis_offset <- function(rows) {
  max(text_width_in(as.character(rows), 0.8 * prd_figure_text_size)) + 0.2
}

#' The keys of a curve figure's legend: the palette and line types of
#' plot_layout() with the true curves' ("truth", dashed grey) last;
#' `as_key()` turns labels into a factor of the keys in that order; `blank`
#' is a first layer that trains every key in order (a scale that drops
#' unused levels, as a user's scale_colour_brewer() does, would otherwise
#' sort the keys of later layers in among them, and its legend would not
#' merge with the line types').
#' @noRd
legend_keys <- function(lay, exact) {
  pal <- lay$palette
  lty <- lay$linetypes
  if (exact) {
    # (the key of the `method` the truths carry; grey, so that it is not
    # read as the default family's solid black line at a figure's size)
    pal <- c(pal, truth = truth_colour)
    lty <- c(lty, truth = "dashed")
  }
  as_key <- function(v) factor(as.character(v), levels = names(pal))
  keys <- tibble::tibble(recall = 0, precision = 0, .colour = as_key(names(pal)))
  list(palette = pal, linetypes = lty, as_key = as_key,
       blank = ggplot2::geom_blank(
         data = keys,
         ggplot2::aes(colour = .data$.colour, linetype = .data$.colour)))
}

#' The colour of the true curves (prd_truth(), prd_truth_gaussian()): a
#' mid grey, apart from every estimate's colour (tightest's is black)
#' @noRd
truth_colour <- "#6E6E6E"

#' One legend for colour and line type, `rows` rows (its title above them
#' with `top`, legend_layout()): the same title and
#' breaks, the title also in labs() (which a user's colour scale without a
#' name takes, rather than the column's name ".colour").
#' @noRd
curve_legend <- function(pal, lty, name, rows, top = FALSE) {
  list(ggplot2::labs(colour = name, linetype = name),
       legend_guides(rows, c("colour", "linetype"), top),
       ggplot2::scale_colour_manual(values = pal, breaks = names(pal),
                                    name = name),
       ggplot2::scale_linetype_manual(values = lty, breaks = names(pal),
                                      name = name))
}

#' The corner or side of a base-graphics panel where a legend (the
#' arguments `args` of graphics::legend()) covers the fewest points of the
#' curves (`curves`: a list of data frames with recall and precision, each
#' segment sampled at 10 points); ties go to the first of `spots`, the lower
#' left (under a good model's curve). Reads the open device's coordinates.
#' @noRd
legend_spot <- function(curves, args,
                        spots = c("bottomleft", "left", "bottomright",
                                  "bottom", "topleft", "center")) {
  t <- seq(0, 1, length.out = 10L)
  pts <- lapply(curves, function(cv) {
    x <- cv$recall
    y <- cv$precision
    n <- length(x)
    if (n < 2L) return(cbind(x, y))
    i <- rep(seq_len(n - 1L), each = length(t))
    w <- rep(t, n - 1L)
    cbind(x[i] + w * (x[i + 1L] - x[i]), y[i] + w * (y[i + 1L] - y[i]))
  })
  pts <- do.call(rbind, pts)
  covered <- vapply(spots, function(s) {
    r <- do.call(graphics::legend, c(list(s), args, list(plot = FALSE)))$rect
    sum(pts[, 1] >= r$left & pts[, 1] <= r$left + r$w &
          pts[, 2] <= r$top & pts[, 2] >= r$top - r$h, na.rm = TRUE)
  }, numeric(1))
  spots[which.min(covered)]
}

#' A base-graphics panel title that fits the figure region: set
#' at par("cex.main"), smaller (down to 0.6 of it) where wider, and cut in
#' the middle (cut_middle()) where even that is too wide.
#' @noRd
fit_title <- function(text) {
  if (is.null(text) || !nzchar(text)) return(invisible())
  cex <- graphics::par("cex.main")
  # (centred over the plot region, clipped to the figure region's width)
  plt <- graphics::par("plt")
  mid <- (plt[1] + plt[2]) / 2
  room <- 0.96 * 2 * min(mid, 1 - mid) * graphics::par("fin")[1]
  wide <- function(s, cx) {
    graphics::strwidth(s, units = "inches", cex = cx, font = 2)
  }
  w <- wide(text, cex)
  if (w > room) cex <- max(0.6 * cex, 0.98 * cex * room / w)
  text <- cut_middle(text, function(s) wide(s, cex) <= room, keep_min = 8L)
  graphics::title(main = text, cex.main = cex)
  invisible(text)
}
