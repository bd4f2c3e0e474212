# The id column of the sample sets (`id`): a generated set without it (a
# synthesiser writes no identifiers) has no ids (NA); ids that
# repeat within a set are warned of, since per-sample results are keyed
# by them.

#' The id selection for a generated set `g`: the real set's id column
#' `id_name` by name where `g` has it, `id` itself where `g` is no data
#' frame (as_samples() refuses `id` for a matrix), else no id (NA ids),
#' said with a message (prdcurve_message_id_absent) naming the sets
#' @noRd
id_for_set <- function(id, id_name, g, lab) {
  if (is.null(id_name) || !is.data.frame(g)) return(id)
  # (by the name the real set's selection found: its column numbers may
  # be other columns here)
  if (id_name %in% names(g)) return(rlang::quo(tidyselect::all_of(!!id_name)))
  prd_inform(c(
    "i" = "{.arg {lab}} has no {.arg id} column {.field {id_name}}: its rows have no id ({.code NA} in per-sample results, whose column {.field row} numbers them)."
  ), "id_absent")
  rlang::quo(NULL)
}

#' The name of the column `id` selects in the real set `real` (a data
#' frame), or NULL (no id, a matrix, or a selection that fails: the
#' real set's own check reports it)
#' @noRd
id_column_name <- function(id, real) {
  if (rlang::quo_is_null(id) || !is.data.frame(real)) return(NULL)
  pos <- tryCatch(tidyselect::eval_select(id, real, allow_rename = FALSE),
                  error = function(e) NULL)
  if (length(pos) != 1L) NULL else names(pos)
}

#' A warning (prdcurve_warning_id_duplicated) when the ids `ids` of the
#' set `arg` (its id column `id_col`) repeat: per-sample results could
#' not be told apart
#' @noRd
warn_duplicated_ids <- function(ids, id_col, arg) {
  if (is.null(ids) || !anyDuplicated(ids)) return(invisible())
  dup <- unique(ids[duplicated(ids)])
  example <- ids[ids %in% dup[1]]
  prd_warn(c(
    "The {.arg id} column {.field {id_col}} of {.arg {arg}} repeats {length(dup)} value{?s}, e.g. {.val {as.character(dup[1])}} in {length(example)} rows.",
    "i" = "Per-sample results ({.fn manifold_samples}, {.fn entropy_samples}) are keyed by it and could not be told apart.",
    "i" = "Give a column whose values are unique, or number the rows: {.code dplyr::mutate({arg}, {id_col} = dplyr::row_number())}."
  ), "id_duplicated")
}

#' The sets `xs` (a list of matrices with attribute "ids") with ids of one
#' type: where an id column (integers) meets row names (text) or another
#' id type, every set's ids as text, so that per-sample results bind
#' @noRd
same_id_type <- function(xs) {
  types <- unique(unlist(lapply(xs, function(x) {
    ids <- attr(x, "ids")
    if (!is.null(ids)) class(ids)[1]
  })))
  if (length(types) < 2L) return(xs)
  lapply(xs, function(x) {
    if (!is.null(attr(x, "ids"))) attr(x, "ids") <- as.character(attr(x, "ids"))
    x
  })
}
