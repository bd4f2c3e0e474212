# The encoding of the categorical columns of data-frame inputs (factors,
# ordered factors, logicals, characters): every such column is a feature
# unless excluded, read as one indicator column per category.
#
# Encoding. A categorical column `sex` with categories "F" and "M" becomes
# the columns `sex=F` and `sex=M`, holding `category_weight` (1/2) in the
# row's category and 0 elsewhere. The categories are the values that occur
# in any of the sets compared (the union over the real set and every
# generated set), as character strings, sorted in the C locale (radix
# order): the encoding of a set does not depend on the order of its
# factor levels, on levels declared but unused, or on which categories the
# set itself holds, so every set of a call gets the same columns. Ordered
# factors are encoded the same way (their order is not used: a change of
# category is a change of category, as synthpop's propensity model reads
# it with treatment contrasts); logicals have the categories "FALSE" and
# "TRUE".
#
# The weight. Two rows in different categories of one column are at
# Euclidean distance 2^(-1/2) = 0.71 on that column's two indicators. 1/2
# is a power of two and not a whole number: the indicators lie on a grid
# (multiples of 2^-1), so the `marginal` family reads each category as an
# atom and ties between rows stay exact ties under `standardize = "real"`
# (scale_grid()), and they are not taken for label or id columns (whole
# numbers; warn_label_columns(), inspect_samples()). The indicators are
# not rescaled by `standardize = "real"`: the weight is the same in every
# call (standardize_sets()).
#
# A category that occurs in one set only is an atom the other set never
# hits (its indicator is 0 in every row of that set): the supports differ
# and the true PR curve is below 1 by at least its mass; warned about with
# class `prdcurve_warning_category_levels` (warn_category_levels()).

#' The weight of an indicator column: the value in the row's category
#' @noRd
category_weight <- 0.5

#' Separator of the encoded columns' names: `sex=F`
#' @noRd
category_sep <- "="

#' Is a data-frame column categorical (encoded by encode_categories())?
#' @noRd
is_category <- function(col) {
  is.null(dim(col)) && (is.factor(col) || is.logical(col) || is.character(col))
}

#' A column of dates or times (Date, POSIXct/POSIXlt, difftime): a feature,
#' read as a number of days (time_days())
#' @noRd
is_time <- function(col) is.null(dim(col)) && inherits(col, c("Date", "POSIXt", "difftime"))

#' A date or time column as a number of days: since 1970-01-01 (UTC) for
#' dates and times, a difference in days, whatever its units (one unit
#' in every set, as a model may write seconds where the real set holds days)
#' @noRd
time_days <- function(col) {
  if (inherits(col, "difftime")) return(as.numeric(col, units = "days"))
  if (inherits(col, "POSIXt")) return(as.numeric(as.POSIXct(col)) / 86400)
  as.numeric(col)
}

#' The date and time columns of a data frame as numbers of days
#' (time_days()); anything else as it is
#' @noRd
times_as_days <- function(df) {
  if (!is.data.frame(df)) return(df)
  for (j in which(vapply(df, is_time, logical(1)))) df[[j]] <- time_days(df[[j]])
  df
}

#' The message (class prdcurve_message_time_columns) that the date and time
#' columns of the data frame `df` among the features of `x` (its
#' as_samples() matrix) are read as numbers of days
#' @noRd
tell_times <- function(df, x) {
  if (!is.data.frame(df)) return(invisible())
  when <- intersect(names(df)[vapply(df, is_time, logical(1))],
                    feature_names(x))
  if (!length(when)) return(invisible())
  prd_inform(c(
    "i" = "Reading the date and time column{?s} {.field {when}} as days (since 1970-01-01; a time difference in days).",
    " " = "To leave {cli::qty(length(when))}{?it/them} out: {.code features = {if (length(when) == 1L) paste0('-', when) else paste0('c(', paste0('-', when, collapse = ', '), ')')}}."
  ), "time_columns")
}

#' The category of a missing value (NA) in a categorical column: a
#' category of its own, as synthpop reads it (its syn() and utility
#' measures model a missing category as a level), written `sex=<NA>`. A
#' column without any other value in any set is not encoded (the input
#' check names it).
#' @noRd
category_missing <- "<NA>"

#' A missing value (NA or NaN) of a numeric column is read as synthpop's
#' utility measures read it: an indicator column `income=<NA>` beside the
#' column (weight category_weight in the rows whose value is missing, 0
#' elsewhere; a category of missingness, so the sets count as records
#' with categories), and the missing value itself set to a fill, the
#' median of the real set's values in that column (of every set's, where
#' the real set has none; synthpop sets 0, which changes no propensity
#' score: the indicator's coefficient absorbs it). A fill in the bulk of
#' the column keeps the rows with a missing value from lying far out in
#' one coordinate, so distances read them by the indicator. In a column
#' missing in every row of every set there is no fill (the input check
#' names the column). Infinite values stay errors.
#'
#' synthpop's missing codes of a numeric column (its `cont.na`, such as
#' income -8 in SD2011; `codes`, a named list of numbers, from the synds
#' objects of synds_sets()) are read alike: an indicator column per code
#' that occurs in some set (`income=-8`, after `income=<NA>`), and the
#' value set to the fill, the median of the values that are neither
#' missing nor a code (synthpop's utility.gen() adds `income_cna_1` and
#' sets the value 0; so here where every value is a code or missing).
#' @return the fill of each numeric column with a missing value or a code
#'   in some set, named by column (NA: no value in any set), with
#'   attribute "special": for each of them, its indicators' categories
#'   (category_missing where a value is missing in some set, then the
#'   codes that occur, as character strings), and "codes": those codes
#'   as numbers
#' @noRd
missing_fills <- function(dfs, codes = list()) {
  dfs <- Filter(is.data.frame, dfs)
  num <- function(col) is.numeric(col) && is.null(dim(col))
  coded <- function(col, nm) {
    cs <- codes[[nm]]
    if (is.null(cs)) return(rep(FALSE, length(col)))
    !is.na(col) & col %in% cs
  }
  # (the codes that occur in some set, per column)
  seen <- list()
  nas <- character()
  for (df in dfs) {
    for (nm in names(df)) {
      col <- df[[nm]]
      if (!num(col)) next
      if (anyNA(col)) nas <- c(nas, nm)
      cs <- codes[[nm]]
      if (any(cs %in% col)) seen[[nm]] <- c(seen[[nm]], cs[cs %in% col])
    }
  }
  cols <- unique(c(nas, names(seen)))
  # (those codes in the order given)
  used <- lapply(stats::setNames(cols, cols), function(nm) {
    cs <- as.double(codes[[nm]])
    unique(cs[cs %in% seen[[nm]]])
  })
  fill <- vapply(cols, function(nm) {
    values <- function(df) {
      col <- df[[nm]]
      if (num(col)) as.double(col[!is.na(col) & !coded(col, nm)])
    }
    v <- if (length(dfs)) values(dfs[[1]])
    if (!length(v)) v <- unlist(lapply(dfs, values))
    if (length(v)) stats::median(v) else if (length(used[[nm]])) 0 else NA_real_
  }, numeric(1))
  fill <- stats::setNames(fill, cols)
  attr(fill, "special") <- lapply(stats::setNames(cols, cols), function(nm) {
    c(if (nm %in% nas) category_missing, code_labels(used[[nm]]))
  })
  attr(fill, "codes") <- used
  fill
}

#' The category of a missing code in the encoded column names: the number
#' as R prints it (`income=-8`)
#' @noRd
code_labels <- function(codes) {
  vapply(codes, function(x) format(x, digits = 15), character(1))
}

#' The values of a categorical column as character strings, a missing
#' value as category_missing
#' @noRd
category_values <- function(col) {
  v <- as.character(col)
  v[is.na(v)] <- category_missing
  v
}

#' The categories of every categorical column of the data frames in
#' `dfs` (a list; other elements are skipped): for each column name, the
#' values that occur in any of them (a missing value as category_missing),
#' sorted in the C locale; none for a column that is missing in every row
#' of every set.
#' Shared by every set of one call, so that they are encoded alike.
#' Attribute "skip": the columns left out of the default features, those
#' that look like identifiers in some set (id_like_category()) and model
#' labels (a categorical column named `model` or `models`, as
#' check_model_column(), or one value in each set: set_label_columns(),
#' whose values are attribute "set_labels"); attribute "garbled": those of
#' them that are
#' identifiers in a later set only, categories in the first (the real set:
#' a model that writes a new value in every row), which
#' warn_garbled_categories() reports; attribute "fill": the numeric
#' columns with a missing value or a missing code (`codes`, synthpop's
#' cont.na) in some set and their fills (missing_fills(); the first data
#' frame is the real set).
#' @return a named list of character vectors (possibly empty)
#' @noRd
category_levels <- function(dfs, codes = list()) {
  out <- list()
  skip <- character()
  first_ids <- character()
  later_ids <- character()
  first_cats <- character()
  # each categorical column's one value in each set (NA: not one value,
  # or too few rows to tell), for set_label_columns(); each model of a
  # grouped data frame is a set of its own
  single <- list()
  # (v: the distinct values of a column of n rows)
  one_value <- function(v, n) {
    if (length(v) == 1L && v != category_missing && n >= small_set_rows) v else
      NA_character_
  }
  for (i in seq_along(dfs)) {
    df <- dfs[[i]]
    if (!is.data.frame(df)) next
    models <- if (inherits(df, "grouped_df")) attr(df, "groups")$.rows
    for (nm in names(df)) {
      col <- df[[nm]]
      if (!is_category(col)) next
      v <- unique(category_values(col))
      single[[nm]] <- c(single[[nm]], if (is.null(models)) one_value(v, length(col)) else
        vapply(models, function(r) {
          one_value(unique(category_values(col[r])), length(r))
        }, ""))
      if (i == 1L) first_cats <- c(first_cats, nm)
      if (tolower(nm) %in% c("model", "models")) {
        skip <- c(skip, nm)
      } else if (id_like_category(length(v), length(col), col)) {
        skip <- c(skip, nm)
        if (i == 1L) first_ids <- c(first_ids, nm) else later_ids <- c(later_ids, nm)
      }
      out[[nm]] <- c(out[[nm]], v)
    }
  }
  out <- lapply(out, function(v) {
    v <- sort(unique(v), method = "radix")
    if (identical(v, category_missing)) character() else v
  })
  labels <- set_label_columns(single)
  attr(out, "skip") <- unique(c(skip, names(labels)))
  attr(out, "set_labels") <- labels
  attr(out, "garbled") <- setdiff(intersect(unique(later_ids), first_cats),
                                  first_ids)
  attr(out, "fill") <- missing_fills(dfs, codes)
  out
}

#' The categorical columns that label the sets: in two or more sets, one
#' value in each (of at least small_set_rows rows) and not the same value
#' in all, as a column `label` of "real" in the real set and "synthetic" in
#' a generated one. As a feature such a column tells the sets apart on its
#' own (the curve reads 0 whatever the model), so it is left out of the
#' default features, as a column `model` is. `single`: per column, its one
#' value in each set that has it (NA where it has several, only missing
#' values, or fewer rows).
#' @return the columns' values in each set, a named list (possibly empty)
#' @noRd
set_label_columns <- function(single) {
  Filter(function(v) length(v) >= 2L && !anyNA(v) && length(unique(v)) >= 2L,
         single)
}

#' The warning (prdcurve_warning_garbled_categories) of categorical
#' columns of the real set that a generated set fills with a value of its
#' own in most rows (category_levels()' "garbled"): as identifiers they
#' leave every set's features, so the curve cannot see that the model
#' breaks them.
#' @noRd
warn_garbled_categories <- function(levels, real_arg = "real") {
  cols <- attr(levels, "garbled")
  if (!length(cols)) return(invisible())
  prd_warn(c(
    "{cli::qty(length(cols))}Column{?s} {.field {cols}} {?is a category/are categories} of {.arg {real_arg}} but {?has/have} more distinct values than half the rows in a generated set, as an identifier has.",
    "x" = "{cli::qty(length(cols))}{?It is/They are} left out of every set's features: the curve does not see that the model writes new values there.",
    "i" = "{cli::qty(length(cols))}Check the model's output for {?this column/these columns}; to compare {?it/them}, map its values to the real categories, or name an identifier with {.arg id}."
  ), "garbled_categories")
}

#' A character or factor column of at least `small_set_rows` rows with
#' more distinct values than half its rows is an identifier (names, keys),
#' not a category: a category with fewer than two rows on average cannot
#' be compared between sets, and its indicators would be as many columns
#' as rows. Such columns are left out of the default features (named in
#' the message of class `prdcurve_message_dropped_columns`); selecting
#' one with `features` is an input error (name it with `id`).
#' @noRd
id_like_category <- function(n_distinct, n, col) {
  !is.logical(col) && n >= small_set_rows && n_distinct > n / 2
}

#' Encode the columns of a data frame (already restricted to the feature
#' columns) as a double matrix: numeric columns as they are, categorical
#' ones as indicator columns of their categories in `levels` (a named list
#' from category_levels(); a column without an entry uses its own values),
#' a numeric column with a fill in `levels` (missing_fills()) as its
#' values, a missing one or a missing code the fill, and the indicators
#' of its missing values and codes (`<column>=<NA>`, `<column>=-8`).
#' A missing value is the category category_missing; in a column with no
#' other value in any set (levels empty), NA (the input check then names
#' the column). A value absent from `levels` cannot occur (the levels are
#' the union over every set).
#' @return the matrix, with attribute "encoding": a data frame with one
#'   row per column, `variable` (the data frame's column) and `category`
#'   (NA for numeric columns' values).
#' @noRd
encode_categories <- function(df, levels = NULL) {
  n <- nrow(df)
  parts <- vector("list", length(df))
  variable <- category <- vector("list", length(df))
  # (the numeric columns' fills: every set of the call gets the indicator,
  # also one without NA)
  fills <- attr(levels, "fill")
  for (j in seq_along(df)) {
    nm <- names(df)[j]
    col <- df[[j]]
    if (!is_category(col)) {
      v <- as.double(col)
      fill <- if (nm %in% names(fills)) fills[[nm]] else NA_real_
      if (!is.na(fill)) {
        # an indicator per special value (missing, then each code), the
        # value itself the fill (missing_fills())
        special <- attr(fills, "special")[[nm]]
        codes <- attr(fills, "codes")[[nm]]
        hit <- lapply(special, function(s) {
          if (identical(s, category_missing)) is.na(v) else
            !is.na(v) & v == codes[match(s, code_labels(codes))]
        })
        v[Reduce(`|`, hit, is.na(v))] <- fill
        parts[[j]] <- matrix(c(v, unlist(hit) * category_weight), n,
                             1L + length(special),
          dimnames = list(NULL, c(nm, paste0(nm, category_sep, special))))
        variable[[j]] <- rep(nm, 1L + length(special))
        category[[j]] <- c(NA_character_, special)
        next
      }
      parts[[j]] <- matrix(v, n, 1L, dimnames = list(NULL, nm))
      variable[[j]] <- nm
      category[[j]] <- NA_character_
      next
    }
    v <- category_values(col)
    lv <- levels[[nm]]
    if (is.null(lv)) {
      lv <- setdiff(sort(unique(v), method = "radix"), category_missing)
      if (length(lv) && anyNA(col)) lv <- sort(c(lv, category_missing), method = "radix")
    }
    if (!length(lv)) {
      # no value in any set: one column of NA, which the input check
      # reports by the column's name
      parts[[j]] <- matrix(NA_real_, n, 1L, dimnames = list(NULL, nm))
      variable[[j]] <- nm
      category[[j]] <- NA_character_
      next
    }
    code <- match(v, lv)
    m <- matrix(0, n, length(lv),
                dimnames = list(NULL, paste0(nm, category_sep, lv)))
    hit <- which(!is.na(code))
    m[cbind(hit, code[hit])] <- category_weight
    parts[[j]] <- m
    variable[[j]] <- rep(nm, length(lv))
    category[[j]] <- lv
  }
  x <- if (length(parts)) do.call(cbind, parts) else matrix(numeric(), n, 0L)
  attr(x, "encoding") <- data.frame(variable = unlist(variable),
                                    category = unlist(category),
                                    stringsAsFactors = FALSE)
  x
}

#' The indicator columns of an encoded matrix (logical, one per column);
#' all FALSE without an encoding
#' @noRd
category_columns <- function(x) {
  enc <- attr(x, "encoding")
  if (is.null(enc) || nrow(enc) != ncol(x)) return(rep(FALSE, ncol(x)))
  !is.na(enc$category)
}

#' Warn about categories that occur in one set only: atoms the other set
#' never hits (the true PR curve is then below 1 by at least their mass),
#' unless the other set missed them by chance. One line per generated set
#' with such categories: the categories, the share of the set's rows in
#' them and how many are rare enough to be missing by chance (fewer than
#' category_chance_rows rows expected in the other set under one law: the
#' chance of none, exp(-expected), above exp(-5) = 0.7%).
#' @return the lines of the warning, invisibly
#' @noRd
warn_category_levels <- function(real, gens, generated_arg = "generated") {
  ind <- category_columns(real)
  if (!any(ind)) return(invisible(character()))
  enc <- attr(real, "encoding")
  cols <- which(ind)
  hits <- function(m) m[, cols, drop = FALSE] != 0
  h_real <- hits(real)
  n_real <- colSums(h_real)
  labs <- model_args(gens, generated_arg)
  show <- function(k) {
    s <- paste0(enc$variable[cols[k]], " = ", encodeString(enc$category[cols[k]], quote = "\""))
    if (length(s) > 4L) s <- c(s[1:3], paste("and", length(s) - 3L, "more"))
    paste(s, collapse = ", ")
  }
  # the categories k of a set (its hits h, counts n) the other set of
  # `other` rows lacks: their share of the set's rows, the rare ones
  side <- function(where, rows, k, h, n, other) {
    k <- k[order(-n[k])] # the most frequent first
    share <- mean(rowSums(h[, k, drop = FALSE]) > 0)
    rare <- sum(n[k] * other / nrow(h) < category_chance_rows)
    many <- length(k) > 1L
    paste0(where, show(k), " (", if (many) paste0(length(k), " categories, "),
           signif(100 * share, 2), "% of ", rows,
           if (rare == length(k)) {
             paste0("; ", if (many) "each" else "it is", " rare enough to be missing by chance")
           } else if (rare) {
             paste0("; ", rare, " of them rare enough to be missing by chance")
           }, ")")
  }
  lines <- character()
  for (i in seq_along(gens)) {
    h_gen <- hits(gens[[i]])
    n_gen <- colSums(h_gen)
    only_r <- which(n_real > 0 & n_gen == 0)
    only_g <- which(n_gen > 0 & n_real == 0)
    part <- c(if (length(only_r)) side("only in the real set: ", "the real rows",
                                       only_r, h_real, n_real, nrow(h_gen)),
              if (length(only_g)) side("only in this set: ", "this set's rows",
                                       only_g, h_gen, n_gen, nrow(h_real)))
    if (length(part)) lines <- c(lines, paste0(labs[i], ": ", paste(part, collapse = "; ")))
  }
  if (!length(lines)) return(invisible(character()))
  prd_warn(c(
    "Categories that occur in one set only.",
    stats::setNames(lines, rep("x", length(lines))),
    "i" = "A category one set has and the other never hits makes the supports differ: the true PR curve is then below 1 by at least its share of rows.",
    "i" = if (any(grepl("by chance", lines, fixed = TRUE))) "A rare category (fewer than {category_chance_rows} rows expected in the other set, were the laws the same) can be missing by chance: then the supports may well be the same."
  ), "category_levels")
  invisible(lines)
}

#' Fewer rows than this expected in the other set, were the two laws the
#' same, and a category's absence there is chance (the chance of no row,
#' exp(-5) = 0.7%, for 5 expected): warn_category_levels()
#' @noRd
category_chance_rows <- 5

#' The messages that missing values (NA) are read as categories: of
#' categorical columns as a category of their own (class
#' prdcurve_message_missing_categories; category_missing), as synthpop
#' models them; of numeric columns as an indicator beside the values, a
#' missing value set to the fill (class prdcurve_message_missing_values;
#' missing_fills()), and so of synthpop's missing codes (class
#' prdcurve_message_missing_codes). The encoding is the same for every set, so the real
#' set's names every such column.
#' @noRd
tell_missing_categories <- function(x) {
  enc <- attr(x, "encoding")
  if (is.null(enc)) return(invisible())
  miss <- unique(enc$variable[enc$category %in% category_missing])
  numeric_vars <- enc$variable[is.na(enc$category)]
  nums <- intersect(miss, numeric_vars)
  # (the indicators of a numeric column's missing codes, missing_fills())
  coded <- enc$variable %in% numeric_vars & !is.na(enc$category) &
    enc$category != category_missing
  cats <- setdiff(miss, nums)
  first <- function(v) {
    paste0(v[1], category_sep, category_missing, if (length(v) > 1L) ", ..." else "")
  }
  # (the advice a bullet of its own: the command line drops R's syntax;
  # once, after the last message)
  advice <- c("i" = "To compare only complete rows, pass {.code na.omit()} of each set.")
  if (length(cats)) {
    prd_inform(c(
      "Reading the missing values (NA) of {.field {cats}} as a category of {?its/their} own ({.field {first(cats)}}).",
      if (!length(nums)) advice
    ), "missing_categories")
  }
  if (length(nums)) {
    prd_inform(c(
      "Reading the missing values (NA) of the numbers in {.field {nums}} as an indicator column beside each ({.field {first(nums)}}), as synthpop does; a missing value itself is set to the median of the real set's values.",
      if (!any(coded)) advice
    ), "missing_values")
  }
  if (any(coded)) {
    codes <- paste0(enc$variable[coded], category_sep, enc$category[coded])
    prd_inform(c(
      "Reading synthpop's missing codes of {.field {unique(enc$variable[coded])}} ({.field {codes}}) as an indicator column each beside the column, as synthpop's utility measures do; the value itself is set to the median of the real set's other values.",
      "i" = "The codes are the {.field cont.na} of the synthpop objects passed as generated sets."
    ), "missing_codes")
  }
  invisible()
}

#' The names of the feature columns of `x` (a checked sample set): of a
#' data frame's encoded set its columns as selected, a categorical column
#' once by its name; else the matrix's column names (NULL without)
#' @noRd
feature_names <- function(x) {
  enc <- attr(x, "encoding")
  if (!is.null(enc) && nrow(enc) == ncol(x)) unique(enc$variable) else
    colnames(x)
}

#' The curves of `out` (one prd_curve() call) with the names of their
#' feature columns `nm` (prepare_samples()' `features`) in each curve's
#' details
#' @noRd
with_feature_names <- function(out, nm) {
  info <- attr(out, "curves")
  for (i in seq_len(nrow(info))) info$details[[i]]["features"] <- list(nm)
  attr(out, "curves") <- info
  out
}
