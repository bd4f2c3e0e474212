# The row labels of the result tables (a curve summary, a metrics table)
# under subsetting. Selecting columns (`s[c("auc", "max_recall")]`,
# `dplyr::select(m, value)`) may drop the key columns that name each row's
# model (and method, k); the table then keeps those names in its attribute
# "row_labels", subset with its rows, and prints them. The selected
# columns are returned as asked (dplyr's select() requires it): the names
# ride along, they are not added back as columns.

#' The labels of a table's rows: its attribute "row_labels" when its keys
#' were dropped, else from its key columns (a summary: model/method/k as
#' in its printed header; a metrics table: the model). NULL when neither.
#' @noRd
table_row_labels <- function(x) {
  keys <- intersect(c("model", "method", "k"), names(x))
  if (inherits(x, "prd_metrics")) keys <- intersect("model", names(x))
  if (length(keys)) {
    df <- as.data.frame(unclass(x)[keys], stringsAsFactors = FALSE)
    if (!nrow(df)) return(character())
    return(vapply(seq_len(nrow(df)), function(i) {
      curve_label(tibble::as_tibble(df[i, , drop = FALSE]))
    }, ""))
  }
  labels <- attr(x, "row_labels")
  if (length(labels) == nrow(x)) labels
}

#' Keep the row labels of `x` on `out`, its subset (rows `i` when given).
#' @noRd
keep_row_labels <- function(out, x, i = NULL) {
  if (!is.data.frame(out)) return(out)
  # the keys selected: they name the rows
  keyed <- if (inherits(x, "prd_metrics")) "model" %in% names(out) else
    any(c("model", "method", "k") %in% names(out))
  labels <- if (!keyed) table_row_labels(x)
  if (is.null(labels)) {
    attr(out, "row_labels") <- NULL
    return(out)
  }
  if (!is.null(i)) {
    labels <- labels[vctrs::vec_as_location(i, length(labels),
                                            names = NULL)]
  }
  attr(out, "row_labels") <- if (length(labels) == nrow(out)) labels
  out
}

#' @export
`[.prd_curve_summary` <- function(x, i, j, drop = FALSE) {
  # x[j] selects columns; x[i, ], x[i, j] rows too
  n_args <- nargs() - as.integer(!missing(drop))
  rows <- n_args > 2L && !missing(i)
  out <- NextMethod()
  keep_row_labels(out, x, if (rows) i)
}

#' @export
`[.prd_metrics` <- function(x, i, j, drop = FALSE) {
  # x[j] selects columns; x[i, ], x[i, j] rows too
  n_args <- nargs() - as.integer(!missing(drop))
  rows <- n_args > 2L && !missing(i)
  out <- NextMethod()
  keep_row_labels(out, x, if (rows) i)
}
