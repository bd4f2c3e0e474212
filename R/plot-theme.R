# The look and size of every figure of the package: its ggplot2 theme, the
# margin around the curves' [0, 1] axes (autoplot() and plot() alike) and
# the sizes at which a figure is laid out for a paper (prd_figure_size()).

#' The theme of every figure of the package (9 pt text, see ?prd_plot)
#' @noRd
prd_theme <- function() {
  ggplot2::theme_bw(base_size = prd_figure_text_size) +
    ggplot2::theme(panel.grid.minor = ggplot2::element_blank(),
                   strip.background = ggplot2::element_blank(),
                   strip.text = ggplot2::element_text(face = "bold"),
                   legend.position = "bottom",
                   legend.margin = ggplot2::margin(0, 0, 0, 0),
                   panel.spacing = ggplot2::unit(0.8, "lines"),
                   plot.margin = ggplot2::margin(4, 6, 4, 4))
}

prd_figure_text_size <- 9

#' The margin around [0, 1] of the curves' axes (autoplot()'s expansion,
#' plot()'s frame plot_frame): a curve on precision or recall 1 or 0 is
#' drawn inside the panel's box, not under it
#' @noRd
plot_margin <- 0.02
plot_frame <- c(-plot_margin, 1 + plot_margin)

#' Size of a figure for a paper
#'
#' The width and height (inches, at 300 dpi) at which a figure drawn by
#' this package is laid out: 9 pt text, square curve panels, no blank
#' margins. Pass them to [ggplot2::ggsave()] (see the section Size for a
#' paper of [autoplot()][prd_plot]).
#'
#' @param plot A figure made by [autoplot()][prd_plot] on a result of this
#'   package, or `NULL` (default) for a single curve panel.
#' @return A list with `width`, `height` (inches), `units` (`"in"`) and
#'   `dpi` (300). The single panel is 3.3 x 3.6 in (0.2 in taller for each
#'   further row of a wrapped legend); two panels a row 4.9 in, other
#'   figures 6.9 in wide, with
#'   0.13 in more per row of panels for each further line of a model name
#'   too long for its panel's strip (broken after `_`, `-`, `.` or a
#'   space).
#' @section Errors: `prdcurve_error_input` when `plot` is neither `NULL`
#'   nor a figure made by [autoplot()][prd_plot] on a result of this
#'   package (a curve itself, or a figure drawn elsewhere).
#' @examples
#' prd_figure_size()
#' @export
prd_figure_size <- function(plot = NULL) {
  if (is.null(plot)) return(curve_figure_size(1L, 1L, strips = FALSE))
  size <- attr(plot, "prd_figure_size")
  if (is.null(size)) {
    # (a curve or a table, or a figure drawn elsewhere, has no size of its
    # own: the single panel's would be a wrong size, not an answer)
    hint <- if (inherits(plot, c("prd_curve", "prd_metrics", "prd_comparison")))
      "Draw it first: {.code prd_figure_size(autoplot(x))}." else
      "Only figures made by {.fn autoplot} on a result of this package carry their size."
    prd_abort(c(
      "{.arg plot} must be a figure made by {.fn autoplot} on a result of this package.",
      "x" = "It is {.obj_type_friendly {plot}}{if (inherits(plot, 'ggplot')) ' without a size of its own' else ''}.",
      "i" = hint
    ), "input")
  }
  size
}

#' Layout sizes (inches): a curve panel is square, 3.3 in wide alone;
#' several are at most 2.15 in each, three a row filling the 6.9 in text
#' width, two 4.9 in (at 6.9 in they sat in 2 in of blank margins).
#' @noRd
curve_figure_size <- function(ncol, nrow, strips) {
  gap <- 0.15
  side <- panel_side(ncol)
  width <- if (ncol == 1L) 3.3 else min(6.9, ncol * side + (ncol - 1) * gap + 0.45)
  height <- nrow * side + (nrow - 1) * gap + 0.85 + if (strips) 0.2 * nrow else 0
  figure_size(width, height)
}

#' The side (inches) of a square curve panel in a figure of `ncol` columns
#' @noRd
panel_side <- function(ncol) {
  if (ncol == 1L) 2.75 else min(2.15, (6.9 - 0.45 - (ncol - 1) * 0.15) / ncol)
}

#' The height (inches) of a further line of a facet strip's label
#' @noRd
strip_line_height <- 0.13

figure_size <- function(width, height) {
  list(width = round(width, 2), height = round(height, 2), units = "in",
       dpi = 300)
}

set_figure_size <- function(p, size) {
  attr(p, "prd_figure_size") <- size
  p
}

#' Facet strip labels that fit a panel `width` inches wide (7.2 pt bold,
#' theme_bw(9)'s strips; measured as text_width_in() does, with a bold
#' face's slack): a wider label broken after "_", "-", "." or " " into
#' lines that fit, and a part that fits no line cut in the middle with
#' "...". Returns the labels (named by the originals) with attribute
#' "lines", the most lines of any.
#' @noRd
strip_labels <- function(labels, width) {
  fits <- function(s) text_width_in(s, prd_figure_text_size * 0.8, slack = 1.3) <= width
  cut <- function(full) cut_middle(full, fits)
  out <- vapply(labels, function(lab) {
    if (fits(lab)) return(lab)
    # the pieces, each ending at a separator, joined greedily into lines
    pieces <- regmatches(lab, gregexpr("[^_. -]*([_. -]|$)", lab))[[1]]
    pieces <- pieces[nzchar(pieces)]
    lines <- character()
    cur <- ""
    for (pc in pieces) {
      if (nzchar(cur) && !fits(paste0(cur, pc))) {
        lines <- c(lines, cur)
        cur <- pc
      } else {
        cur <- paste0(cur, pc)
      }
    }
    lines <- vapply(c(lines, cur), cut, "")
    paste(lines, collapse = "\n")
  }, "")
  names(out) <- labels
  attr(out, "lines") <- max(1L, lengths(strsplit(out, "\n", fixed = TRUE)))
  out
}

#' `full` cut in the middle with "..." (ASCII: pdf()'s fonts have no
#' ellipsis) until `fits` (a function of the text) accepts it, keeping at
#' least `keep_min` characters
#' @noRd
cut_middle <- function(full, fits, keep_min = 6L) {
  n <- nchar(full)
  keep <- n
  s <- full
  while (!fits(s) && keep > keep_min) {
    keep <- keep - 1L
    s <- paste0(substr(full, 1L, ceiling(keep / 2)), "...",
                substring(full, n - floor(keep / 2) + 1L))
  }
  s
}
