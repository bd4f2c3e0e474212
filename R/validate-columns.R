# The checks that pair a generated set's columns with the real set's: one
# column numeric in one data frame and categorical in the other, a data
# frame's columns matched by name, and the same number of columns in the
# same order (their names matched by position, with a warning where they
# differ). Errors are classed prdcurve_error_columns (R/conditions.R).

#' A column of one name numeric in one data frame and categorical in the
#' other (a model that writes its numbers as text): its categories would
#' be hundreds of indicator columns, and the sets' widths differ (the
#' error said only that); a classed error naming the columns. For the
#' default features (a selection of features is checked as it encodes),
#' the `id` column left out.
#' @noRd
check_column_types <- function(real, g, real_arg, arg, id, call) {
  if (!is.data.frame(real) || !is.data.frame(g)) return(invisible())
  id_col <- if (!rlang::quo_is_null(id)) {
    tryCatch(names(tidyselect::eval_select(id, real)),
             error = function(e) character())
  }
  nm <- setdiff(intersect(names(real), names(g)), id_col)
  kind <- function(df) {
    vapply(nm, function(j) {
      col <- df[[j]]
      if (is_category(col)) "categorical" else
        if (is.numeric(col) && is.null(dim(col))) "numeric" else "other"
    }, "")
  }
  a <- kind(real)
  b <- kind(g)
  bad <- nm[a != b & a != "other" & b != "other"]
  if (!length(bad)) return(invisible())
  desc <- paste0(bad, " (", a[bad], " in ", real_arg, ", ", b[bad], " in ",
                 arg, ")")
  prd_abort(c(
    "{cli::qty(length(bad))}Column{?s} {.field {bad}} {?is/are} numeric in one set and categorical in the other.",
    "x" = "{cli::cli_vec(desc, list('vec-trunc' = 5))}.",
    "i" = "Give the column one type in every set (e.g. {.code as.numeric()} of the text), or leave it out with {.arg features}."
  ), "columns", call = call)
}

#' A generated data frame's columns in the real data frame's order, by
#' name (as rbind() of data frames matches them): each column the real set
#' also has goes to that column's position; the others fill the real
#' set's remaining positions in their own order (matched by position, as
#' check_same_columns() then warns, naming the pairs), and any left over
#' come last. So one renamed column (a, B, c against a, b, c) is paired
#' with the column it replaces, not shifted past the others. Matrices are
#' left as they are (the same names in another order are an error there,
#' check_same_columns()).
#' @noRd
match_columns <- function(g, real) {
  if (!is.data.frame(g) || !is.data.frame(real)) return(g)
  nm <- names(g)
  rn <- names(real)
  own <- setdiff(nm, rn)
  ord <- character()
  for (r in rn) {
    if (r %in% nm) {
      ord <- c(ord, r)
    } else if (length(own)) {
      ord <- c(ord, own[1L])
      own <- own[-1L]
    }
  }
  ord <- c(ord, own)
  if (identical(ord, nm)) g else g[ord]
}

#' The same number of feature columns in `real` and `generated` (named
#' by their arguments `arg_1`, `arg_2`), in the same order: an error naming
#' the columns only one set has and the categorical columns counted as
#' indicators, an error for the same names in another order, and a
#' warning (prdcurve_warning_column_names) where names differ by position.
#' @noRd
check_same_columns <- function(real, generated, arg_1 = "real",
                               arg_2 = "generated",
                               call = rlang::caller_env()) {
  if (ncol(real) != ncol(generated)) {
    # named columns: say which ones one set has and the other lacks (an
    # id column of whole numbers is numeric, and so kept as a feature)
    # (a column without a name, as cbind(x, v) makes, by its number)
    shown <- function(nm) {
      if (is.null(nm)) return(NULL)
      bad <- is.na(nm) | !nzchar(nm)
      nm[bad] <- paste0("column ", which(bad), " (no name)")
      nm
    }
    only_1 <- setdiff(shown(colnames(real)), shown(colnames(generated)))
    only_2 <- setdiff(shown(colnames(generated)), shown(colnames(real)))
    named <- !is.null(colnames(real)) && !is.null(colnames(generated))
    # a set's categorical columns count their categories' indicators
    # (R/encode.R): name them and their columns as given
    coded <- function(m, arg) {
      enc <- attr(m, "encoding")
      if (is.null(enc) || !"category" %in% names(enc)) return(NULL)
      cat_vars <- unique(enc$variable[!is.na(enc$category)])
      if (!length(cat_vars)) return(NULL)
      given <- length(unique(enc$variable))
      cli::format_inline("{.arg {arg}}'s {ncol(m)} columns are its {given} column{?s}, with the categories of {.field {cli::cli_vec(cat_vars, list('vec-trunc' = 5))}} as indicator columns (one per category).")
    }
    codes <- c(coded(real, arg_1), coded(generated, arg_2))
    why <- stats::setNames(paste0("{codes[", seq_along(codes), "]}"),
                           rep("i", length(codes)))
    prd_abort(c(
      "{.arg {arg_1}} and {.arg {arg_2}} must have the same number of columns (features).",
      "x" = "{.arg {arg_1}} has {ncol(real)}, {.arg {arg_2}} has {ncol(generated)}.",
      why,
      "i" = if (named && length(only_1)) "Only {.arg {arg_1}} has {.field {cli::cli_vec(only_1, list('vec-trunc' = 5))}}.",
      "i" = if (named && length(only_2)) "Only {.arg {arg_2}} has {.field {cli::cli_vec(only_2, list('vec-trunc' = 5))}}.",
      "i" = if (named && length(c(only_1, only_2))) "Drop the columns that are not features, choose the features with {.arg features}, or name an identifier column with {.arg id}."
    ), "columns", call = call)
  }
  n1 <- colnames(real)
  n2 <- colnames(generated)
  if (!is.null(n1) && !is.null(n2) && !identical(n1, n2) && setequal(n1, n2)) {
    # the same named features in another order would pair the wrong columns
    prd_abort(c(
      "{.arg {arg_1}} and {.arg {arg_2}} must have their feature columns in the same order.",
      "x" = "They have the same names in another order, e.g. {.field {utils::head(n1[n1 != n2], 3)}}.",
      "i" = "Reorder one, e.g. {.code {arg_2}[colnames({arg_1})]}."
    ), "columns", call = call)
  }
  if (!is.null(n1) && !is.null(n2) && !identical(n1, n2) && inputs_checked()) {
    differ <- which(n1 != n2)
    pairs <- paste0(n1[differ], " ~ ", n2[differ])
    prd_warn(c(
      "The feature columns of {.arg {arg_1}} and {.arg {arg_2}} have different names; they are matched by position.",
      "x" = "{length(differ)} of {length(n1)} column{?s} differ{?s/}: {.field {utils::head(pairs, 4)}}{if (length(pairs) > 4) ', ...' else ''}.",
      "i" = "Check that they are the same features in the same order; select them with {.arg features} or rename one set ({.code colnames({arg_2}) <- colnames({arg_1})})."
    ), "column_names")
  }
  invisible(TRUE)
}

# ---- exclusions across sets --------------------------------------------------

#' The terms of an exclusions-only selection (only_exclusions(), R/read.R):
#' `-x`, `!x` and the terms of `c()` and parentheses, each as the
#' expression it excludes
#' @noRd
exclusion_terms <- function(e) {
  f <- e[[1]]
  if (identical(f, quote(`(`))) return(exclusion_terms(e[[2]]))
  if (identical(f, quote(`-`)) || identical(f, quote(`!`))) return(list(e[[2]]))
  unlist(lapply(as.list(e)[-1], exclusion_terms), recursive = FALSE)
}

#' The columns of `df` that `features` (a quosure) selects, by position.
#' An exclusion (`-label`, `c(-id, -label)`) narrows every set's columns:
#' a column that one set lacks (the label and id columns of a real table,
#' which a synthesiser's output has not) is excluded where it is and
#' ignored elsewhere; check_exclusions() refuses a term that excludes no
#' column of any set (a misspelt name). Any other selection must select
#' columns of every set.
#' @noRd
eval_features <- function(features, df, error_call = rlang::caller_env()) {
  tidyselect::eval_select(features, df, allow_rename = FALSE,
                          strict = !only_exclusions(rlang::quo_get_expr(features)),
                          error_call = error_call)
}

#' The terms of an exclusions-only `features` that exclude no column of
#' `df`, named by their text, each with tidyselect's message
#' @noRd
exclusion_misses <- function(features, df) {
  if (!only_exclusions(rlang::quo_get_expr(features))) return(character())
  env <- rlang::quo_get_env(features)
  out <- character()
  for (t in exclusion_terms(rlang::quo_get_expr(features))) {
    e <- tryCatch({
      tidyselect::eval_select(rlang::new_quosure(t, env), df,
                              allow_rename = FALSE)
      NULL
    }, error = function(e) e)
    if (!is.null(e)) {
      msg <- strsplit(cli::ansi_strip(conditionMessage(e)), "\n")[[1]]
      out[[rlang::expr_deparse(t, width = Inf)[1]]] <- sub("^\\S+ ", "", msg[length(msg)])
    }
  }
  out
}

#' Refuse an exclusion that excludes no column of any set: a misspelt
#' name would otherwise leave the column it meant in the features
#' @param misses a list of exclusion_misses() of each set; `sets` what
#'   the sets are called ("file" on the command line and for prd_read()).
#' @noRd
check_exclusions <- function(misses, arg = "features", sets = "set",
                             call = rlang::caller_env()) {
  if (!length(misses)) return(invisible())
  nowhere <- Reduce(intersect, lapply(misses, names))
  if (!length(nowhere)) return(invisible())
  why <- misses[[1]][nowhere]
  prd_abort(c(
    "{.arg {arg}} excludes {cli::qty(length(nowhere))}{?a column/columns} that no {sets} has: {.code {nowhere}}.",
    stats::setNames(paste0("{why[", seq_along(why), "]}"), rep("x", length(why))),
    "i" = if (length(misses) > 1L) "Check the spelling; an exclusion may name a column that only some {sets}s have (a real table's label column)." else "Check the spelling."
  ), "input", call = call)
}

#' A selection by column numbers alone (`features = 2:10`, `id = 1`, `-1`,
#' `all_of(cols)` of numbers) in the real data frame `real`, turned
#' into the names it selects there, so that every set reads the same
#' columns where the sets' columns differ (a real table with an id column
#' beside a model's without it); any other selection, and a matrix's, as
#' it is (a selection the real set refuses too: its own check reports it).
#' @return a quosure
#' @noRd
positions_by_name <- function(sel, real) {
  if (rlang::quo_is_null(sel) || !is.data.frame(real)) return(sel)
  env <- rlang::quo_get_env(sel)
  numbers <- function(e) {
    if (is.numeric(e)) return(TRUE)
    if (is.symbol(e)) {
      nm <- as.character(e)
      return(!nm %in% names(real) && nzchar(nm) &&
               exists(nm, envir = env) && is.numeric(get(nm, envir = env)))
    }
    is.call(e) && is.symbol(e[[1L]]) &&
      as.character(e[[1L]]) %in% c(":", "c", "-", "(", "all_of", "any_of") &&
      all(vapply(as.list(e)[-1L], numbers, logical(1)))
  }
  if (!numbers(rlang::quo_get_expr(sel))) return(sel)
  pos <- tryCatch(tidyselect::eval_select(sel, real, allow_rename = FALSE),
                  error = function(e) NULL)
  if (is.null(pos)) return(sel)
  rlang::quo(tidyselect::all_of(!!names(pos)))
}
