# The checks of the sample sets (coercion, column selection, id columns,
# several generated sets, scaling, input warnings) and of the arguments
# shared by several functions; the pairing of two sets' columns is
# R/validate-columns.R. Errors and warnings are classed
# (R/conditions.R) and name the argument and what was wrong. The few checks
# that need a function's own context stay next to it; the C engine re-checks only types and dimensions,
# and its errors are re-raised with a class in R/engine.R.

# ---- sample sets ------------------------------------------------------------

#' Coerce a sample set to a double matrix, or fail clearly
#'
#' Accepts a numeric or integer matrix or a data frame, one row per sample.
#' For data frames, `features` (a tidyselect selection, default all numeric
#' and categorical columns) picks the feature columns; categorical ones
#' (factors, logicals, characters) become indicator columns of the
#' categories `levels` (encode_categories(), R/encode.R); `id` (one column)
#' and grouping columns are never features; unselected other columns
#' (dates, lists) are dropped with a message. Rejects missing or infinite
#' values, other selected columns and fewer than `min_rows` rows. Sets whose rows are all equal are
#' accepted (a collapsed generator is measured, not refused) with a
#' warning unless `allow_constant`. `numpy`: the rows of a NumPy array
#' (.npy, .npz) read by the command line, whose errors also count them from
#' 0.
#' @return the matrix, with attribute `ids` (the id column or row names,
#'   NULL when there are none).
#' @noRd
as_samples <- function(x, arg = rlang::caller_arg(x),
                       call = rlang::caller_env(), min_rows = 2L,
                       allow_constant = FALSE, features = NULL, id = NULL,
                       inspect = TRUE, check_scale = TRUE,
                       levels = NULL, numpy = FALSE) {
  force(arg)  # caller_arg() must see `x` before it is modified below
  ids <- NULL
  from_df <- is.data.frame(x)
  has <- colnames(x) # (the columns `features` chooses from)
  features <- as_selection(features)
  id <- as_selection(id)
  if (is.data.frame(x)) {
    # dates and times are numbers of days (tell_times() says so), never
    # identifiers (a date a row is a date, not an id)
    times <- names(x)[vapply(x, is_time, logical(1))]
    x <- times_as_days(x)
    sel <- select_columns(x, features, id, arg, call, levels)
    ids <- sel$ids
    x <- sel$x
  } else if (is.matrix(x)) {
    if (!rlang::quo_is_null(id)) {
      prd_abort(c(
        "{.arg id} needs a data frame, but {.arg {arg}} is a matrix.",
        "i" = "Row names of a matrix are carried to per-sample results as ids."
      ), "input", call = call)
    }
    if (!rlang::quo_is_null(features)) {
      cols <- select_matrix_columns(x, features, arg, call)
      x <- x[, cols, drop = FALSE]
    }
    ids <- rownames(x)
  }
  if (!is.matrix(x)) {
    what <- if (is.numeric(x) && is.null(dim(x))) {
      "a numeric vector (use {.code matrix(x, ncol = 1)} for one-dimensional samples)"
    } else {
      "{.obj_type_friendly {x}}"
    }
    # a file name where the data belong: say how to read it
    file_hint <- if (is.character(x) && length(x) == 1L && !is.na(x)) {
      c("i" = "To use the file {.file {x}}, read it first: {.code prd_read({deparse(x)})}.")
    }
    prd_abort(c(
      "{.arg {arg}} must be a numeric matrix or data frame with one row per sample.",
      "x" = paste0("It is ", what, "."),
      file_hint
    ), "input", call = call)
  }
  if (!(is.double(x) || is.integer(x) || is.logical(x) && ncol(x) == 0L)) {
    prd_abort(c(
      "{.arg {arg}} must be numeric.",
      "x" = "It is a {typeof(x)} matrix."
    ), "input", call = call)
  }
  if (ncol(x) < 1L) {
    prd_abort(if (length(has) && !rlang::quo_is_null(features)) c(
      "{.arg features} selects no feature column of {.arg {arg}}.",
      "i" = "{.arg {arg}} has the {cli::qty(length(has))}column{?s} {.field {cli::cli_vec(has, list('vec-trunc' = 10))}}: select among them, or leave {.arg features} out to use every numeric and categorical column."
    ) else "{.arg {arg}} must have at least one column (feature).",
    "input", call = call)
  }
  if (nrow(x) < min_rows) {
    prd_abort(c(
      "{.arg {arg}} must have at least {min_rows} rows (samples).",
      "x" = "It has {nrow(x)}."
    ), "input", call = call)
  }
  if (!is.double(x)) storage.mode(x) <- "double"
  # one pass: every value finite? the largest magnitude (rows are located
  # only when the first test fails)
  scan <- .Call(ffi_scan, x)
  if (scan[[1]] == 0) {
    rows <- which(rowSums(!is.finite(x)) > 0)
    # the columns by their data frame's names (a category's indicators by
    # the category's column, R/encode.R)
    bad <- which(colSums(!is.finite(x)) > 0)
    enc <- attr(x, "encoding")
    cols <- unique(if (!is.null(enc)) enc$variable[bad] else
      if (!is.null(colnames(x))) colnames(x)[bad] else as.character(bad))
    prd_abort(c(
      "{.arg {arg}} must not contain missing or infinite values.",
      "x" = "{length(rows)} row{?s} {?has/have} NA, NaN or Inf, e.g. row{?s} {.val {utils::head(rows, 5)}}, in {cli::qty(length(cols))}{?column/columns} {.field {cli::cli_vec(cols, list('vec-trunc' = 5))}}.",
      "i" = if (numpy) "Rows are counted from 1 (from 0 in NumPy: {.val {utils::head(rows, 5) - 1L}}).",
      "i" = if (from_df) "Leave out those rows or columns ({.arg features}). (A missing value of a column with a value in some set is read as a category, or beside numbers as an indicator column; an infinite one is not.)",
      # (a line of its own: the command line drops R's advice, not the above)
      "i" = if (from_df) "In R: {.code na.omit()} of each set drops the rows."
    ), "input", call = call)
  }
  # squared distances must neither overflow nor underflow
  big <- scan[[2]]
  if (big > 1e100 || (big > 0 && big < 1e-100)) {
    prd_abort(c(
      "{.arg {arg}} has values of magnitude {format_number(big, digits = 3)}: squared distances would {if (big > 1) 'overflow' else 'underflow'}.",
      "i" = "The curves and the manifold metrics do not change under a common scale (the embedding and entropy metrics change by their laws): divide {.arg real} and {.arg generated} by the same constant."
    ), "input", call = call)
  }
  if (inspect && inputs_checked()) {
    inspect_samples(x, arg, allow_constant, check_scale = check_scale,
                    not_ids = if (from_df) times)
  }
  # (setting an attribute copies a matrix the caller still holds: 0.1 s
  # at 10,000 x 2,048; only when there is something to set)
  if (!is.null(ids) || !is.null(attr(x, "ids"))) attr(x, "ids") <- ids
  x
}

#' `features`/`id` as a quosure (NULL, a quosure, or a plain value)
#' @noRd
as_selection <- function(x) {
  if (rlang::is_quosure(x)) x else rlang::new_quosure(x, rlang::empty_env())
}

#' The feature columns of a data frame, as a matrix, and its ids
#' @noRd
select_columns <- function(df, features, id, arg, call, levels = NULL) {
  groups <- if (inherits(df, "grouped_df")) {
    names(attr(df, "groups"))[-length(attr(df, "groups"))]
  } else {
    character()
  }
  id_col <- NULL
  ids <- NULL
  if (!rlang::quo_is_null(id)) {
    pos <- tryCatch(tidyselect::eval_select(id, df, allow_rename = FALSE),
                    error = function(e) {
                      prd_abort("{.arg id} must select a column of {.arg {arg}}.",
                                "input", parent = e, call = call)
                    })
    if (length(pos) != 1L) {
      prd_abort(c("{.arg id} must select exactly one column of {.arg {arg}}.",
                  "x" = "It selects {length(pos)}."), "input", call = call)
    }
    id_col <- names(pos)
    ids <- df[[id_col]]
    if (inputs_checked()) warn_duplicated_ids(ids, id_col, arg)
  } else if (.row_names_info(df) > 0L) {
    ids <- rownames(df)
  }
  excluded <- c(groups, id_col)
  # numeric and categorical columns are features (R/encode.R)
  numeric <- vapply(df, function(col) {
    is.numeric(col) && is.null(dim(col)) || is_category(col)
  }, logical(1))
  if (is.null(levels)) levels <- category_levels(list(df))
  # identifiers (a category per row or nearly) and model labels are not
  # features (category_levels())
  skip <- names(df) %in% attr(levels, "skip")
  # the columns neither numeric nor categorical left out of the default
  # features
  tell_dropped <- function(dropped) {
    if (!length(dropped)) return(invisible())
    prd_inform(c(
      "Ignoring the column{?s} {.field {dropped}}.",
      "i" = "{cli::qty(length(dropped))}{?It is/They are} not {?a feature/features} of {.arg {arg}} (neither numeric nor categorical, a model label, or an identifier: more distinct values than half the rows); use {.arg features} to choose the feature columns, {.arg id} for an id column.",
      set_label_line(dropped, attr(levels, "set_labels"))
    ), "dropped_columns")
  }
  if (rlang::quo_is_null(features)) {
    cols <- setdiff(names(df)[numeric & !skip], excluded)
    tell_dropped(setdiff(names(df)[!numeric | skip], excluded))
  } else {
    pos <- tryCatch(eval_features(features, df),
                    error = function(e) {
                      prd_abort("{.arg features} must select columns of {.arg {arg}}.",
                                "input", parent = e, call = call)
                    })
    cols <- setdiff(names(pos), excluded)
    bad <- cols[!numeric[cols] | skip[match(cols, names(df))]]
    # exclusions only (`features = -label`) narrow the default features,
    # the numeric and categorical ones (only_exclusions(), as select_features())
    if (length(bad) && only_exclusions(rlang::quo_get_expr(features))) {
      cols <- setdiff(cols, bad)
      tell_dropped(bad)
      bad <- character()
    }
    if (length(bad)) {
      prd_abort(c(
        "The feature columns of {.arg {arg}} must be numeric or categorical (factor, logical, character).",
        "x" = "Column{?s} {.field {bad}} {?is/are} neither, or a model label, or an identifier (more distinct values than half the rows).",
        "i" = "Name an identifier column with {.arg id}."
      ), "input", call = call)
    }
  }
  df <- df[cols]
  # (a numeric column with a missing value in some set: its values and an
  # indicator, R/encode.R)
  x <- if (length(cols) && any(vapply(df, is_category, logical(1)) |
                                 cols %in% names(attr(levels, "fill")))) {
    encode_categories(df, levels)
  } else if (length(cols)) {
    m <- as.matrix(as.data.frame(df))
    rownames(m) <- NULL
    m
  } else {
    matrix(numeric(), nrow(df), 0L)
  }
  list(x = x, ids = ids)
}

#' Feature columns of a matrix selected with tidyselect (by name or position)
#' @noRd
select_matrix_columns <- function(x, features, arg, call) {
  pos <- tryCatch(eval_features(features, column_probe(x)),
                  error = function(e) {
                    prd_abort("{.arg features} must select columns of {.arg {arg}}.",
                              "input", parent = e, call = call)
                  })
  unname(pos)
}

#' A matrix's columns as a data frame of no rows, to select with
#' tidyselect (V1, V2, ... where they have no names); a data frame as it is
#' @noRd
column_probe <- function(x) {
  if (!is.matrix(x)) return(x)
  probe <- as.data.frame(x[0L, , drop = FALSE])
  if (is.null(colnames(x)) && ncol(x)) names(probe) <- paste0("V", seq_len(ncol(x)))
  probe
}

inputs_checked <- function() isTRUE(getOption("prdcurve.check_inputs", TRUE))

#' Classed warnings for input that is legal but probably a mistake
#'
#' An id-like column (whole numbers, all distinct, or an arithmetic
#' sequence), fewer rows than columns, very different column scales (the
#' largest standard deviation more than `scale_factor` times the median of
#' the non-zero ones), and all rows equal (a collapsed set: measured, not
#' refused). Silenced with `options(prdcurve.check_inputs = FALSE)`. No
#' scale warning with `check_scale = FALSE` (the sets are standardized).
#' @noRd
inspect_samples <- function(x, arg, allow_constant = FALSE, check_scale = TRUE,
                            not_ids = NULL) {
  n <- nrow(x)
  d <- ncol(x)
  if (n < d) {
    prd_warn(c(
      "{.arg {arg}} has fewer rows ({n}) than columns ({d}): are the samples in rows?",
      "i" = "Each row must be one sample (feature vector); use {.code t()} if they are in columns."
    ), "transposed")
  }
  if (all_rows_equal(x)) {
    if (!allow_constant) {
      prd_warn(c(
        "All {n} rows of {.arg {arg}} are identical (a collapsed set).",
        "i" = "Its distances are all 0; the metrics measure the collapse (e.g. recall near 0)."
      ), "collapsed")
    }
    return(invisible())
  }
  if (n >= 10L) {
    # only columns whole-numbered in their first rows can be ids
    h <- x[seq_len(min(n, 32L)), , drop = FALSE]
    cand <- which(colSums(h != round(h)) == 0)
    # (dates and times: `not_ids`)
    if (length(not_ids)) cand <- cand[!colnames(x)[cand] %in% not_ids]
    idlike <- cand[vapply(cand, function(j) is_id_like(x[, j]), logical(1))]
    if (length(idlike)) {
      nm <- if (is.null(colnames(x))) paste0("column ", idlike) else
        colnames(x)[idlike]
      hint <- paste0("id = \"", nm[1], "\"")
      prd_warn(c(
        "{.arg {arg}} has {length(idlike)} column{?s} that look{?s/} like {?an identifier/identifiers}: {.field {nm}}.",
        "i" = "Its values are distinct whole numbers or an arithmetic sequence; such a column is used as a feature and changes every distance.",
        "i" = if (is.null(colnames(x))) "Drop it." else
          "Drop it, or (a data frame) pass {.code {hint}}: an identifier is never a feature."
      ), "id_column", columns = unname(idlike))
    }
  }
  if (check_scale && n >= 3L && d >= 2L) {
    # the first rows suffice to see scales (and use no random numbers);
    # 256 of them estimate a standard deviation within about 10%, far
    # finer than the factor 100 the check looks for (1,000 rows cost
    # 0.15 s of fresh temporaries at 2,048 columns)
    xs <- x[seq_len(min(n, 256L)), , drop = FALSE]
    mu <- colMeans(xs)
    # (not sweep(): its aperm() copies took 0.2 s at 2,048 columns)
    s <- sqrt(colMeans((xs - rep(mu, each = nrow(xs)))^2))
    s <- s[s > 0]
    if (length(s) >= 2L && max(s) > scale_factor * stats::median(s)) {
      warn_scales(arg, max(s) / stats::median(s))
    }
  }
  invisible()
}

#' The factor above which the largest column standard deviation is
#' reported (relative to the median of the non-zero ones).
#' @noRd
scale_factor <- 100

is_id_like <- function(v) {
  h <- v[seq_len(min(length(v), 32L))]
  # beyond 2^52 every double is whole: such magnitudes are not ids
  if (any(h != round(h)) || max(abs(v)) > 2^52 || any(v != round(v))) {
    return(FALSE)
  }
  dv <- diff(v)
  (dv[1] != 0 && all(dv == dv[1])) || !anyDuplicated(v)
}

# TRUE when every row equals the first; stops at the first varying column.
all_rows_equal <- function(x) {
  for (j in seq_len(ncol(x))) {
    if (any(x[, j] != x[1L, j])) return(FALSE)
  }
  TRUE
}

#' The real set and one or more generated sets, validated together
#'
#' `generated` is one sample set, a named list of them, or a data frame
#' grouped by a model column (dplyr::group_by()); grouping columns are not
#' features. `standardize` is checked and recorded, not applied: the caller
#' scales the sets with standardize_split() (prd_curve() once its split is
#' drawn, by the real fit rows; the metrics functions by every real row).
#' @return list(real = matrix, generated = named list of matrices, keys,
#'   standardize = "none" or "real": standardize_split() scales the sets
#'   and standardize_half() each half-sample of the replicates by its own
#'   rows); each matrix carries its ids in attribute "ids".
#' @noRd
prepare_samples <- function(real, generated, features = NULL, id = NULL,
                            standardize = "none", allow_constant = FALSE,
                            check_scale = TRUE,
                            real_arg = "real",
                            generated_arg = "generated",
                            defer_grid = FALSE,
                            call = rlang::caller_env()) {
  standardize <- check_choice(standardize, c("none", "real"),
                              arg = "standardize", call = call)
  features <- as_selection(features)
  id <- as_selection(id)
  if (inherits(real, "grouped_df")) {
    prd_abort("{.arg {real_arg}} must be one sample set, not a grouped data frame.",
              "input", call = call)
  }
  # the grouping columns of a grouped `generated` label its models: no
  # features of the real set either (its `source` column of "real" when
  # both sets were filtered from one table)
  if (inherits(generated, "grouped_df") && is.data.frame(real)) {
    gv <- intersect(setdiff(names(attr(generated, "groups")), ".rows"),
                    names(real))
    if (length(gv)) real <- real[setdiff(names(real), gv)]
  }
  # column numbers count in the real set (the others may lack its id)
  features <- positions_by_name(features, real)
  id <- positions_by_name(id, real)
  # (no scale warning when the sets are to be standardized, or when what
  # is computed does not depend on the columns' scales: `check_scale`)
  check_scale <- check_scale && standardize == "none"
  # synthpop objects: their data frames and missing codes (R/synds.R; only
  # then is `generated` bound anew: a list holding the caller's matrix
  # would keep it referenced, and a later change of it would copy it, 89
  # MiB more at the peak of 10,000 x 1,024)
  codes <- list()
  if (has_synds(generated)) {
    syn <- synds_sets(generated, generated_arg, call)
    generated <- syn$generated
    codes <- syn$codes
  }
  # the categories of every set, so that all are encoded alike (R/encode.R)
  levels <- category_levels(c(list(real), if (is.data.frame(generated))
    list(generated) else if (is.list(generated)) generated), codes)
  if (inputs_checked()) warn_garbled_categories(levels, real_arg)
  # an exclusion must exclude a column of some set (R/validate-columns.R)
  every <- c(list(real), if (is.data.frame(generated) || is.matrix(generated))
    list(generated) else if (is.list(generated)) generated)
  every <- Filter(function(s) is.data.frame(s) || is.matrix(s), every)
  check_exclusions(lapply(every, function(s) {
    exclusion_misses(features, column_probe(s))
  }), call = call)
  real_df <- real
  # the scale warnings of every set, as one (warn_scales())
  scales <- list(set = character(), ratio = numeric())
  collect <- function(w) {
    scales$set <<- c(scales$set, w$set)
    scales$ratio <<- c(scales$ratio, w$ratio)
    invokeRestart("muffleWarning")
  }
  real <- withCallingHandlers(
    as_samples(real, arg = real_arg, call = call, features = features,
               id = id, allow_constant = allow_constant,
               check_scale = check_scale, levels = levels),
    prdcurve_warning_scale = collect)
  if (rlang::quo_is_null(features)) tell_categories(real)
  tell_times(real_df, real)
  tell_missing_categories(real)
  sets <- split_models(generated, generated_arg, call)
  id_name <- id_column_name(id, real_df)
  gen <- lapply(names(sets), function(nm) {
    lab <- if (length(sets) == 1L && nm == "generated") generated_arg else
      paste0(generated_arg, "$", nm)
    id <- id_for_set(id, id_name, sets[[nm]], lab)
    if (rlang::quo_is_null(features)) {
      check_column_types(real_df, sets[[nm]], real_arg, lab, id, call)
    }
    g <- withCallingHandlers(
      as_samples(match_columns(sets[[nm]], real_df), arg = lab, call = call,
                 features = features, id = id, allow_constant = TRUE,
                 check_scale = check_scale, levels = levels),
      prdcurve_warning_scale = collect)
    check_same_columns(real, g, real_arg, lab, call = call)
    g
  })
  names(gen) <- names(sets)
  if (length(scales$set)) warn_scales(scales$set, scales$ratio)
  ids <- same_id_type(c(list(real), gen))
  real <- ids[[1]]
  gen[] <- ids[-1]
  keys <- NULL
  # (prd_curve() reads them also without the input checks: the models
  # whose exact reading may tie at 0, R/atoms.R)
  grid_lines <- if (inputs_checked() || defer_grid) {
    grid_column_lines(real, gen, generated_arg)
  } else character()
  if (inputs_checked()) {
    warn_label_columns(real, gen, real_arg, generated_arg)
    # prd_curve() may warn after its curves, with what the models read
    # with the atoms ignored when the exact reading ties them
    if (!defer_grid) warn_grid_columns(grid_lines)
    warn_category_levels(real, gen, generated_arg)
    # the row keys of every set, once: the copy check here and the
    # duplicate check (check_sample_traps()) both group rows by them
    keys <- lapply(c(list(real = real), gen), row_keys)
    warn_copies(real, gen, generated_arg, keys)
  }
  list(real = real, generated = gen, keys = keys, standardize = standardize,
       grid_lines = grid_lines, features = feature_names(real))
}

#' The message (class prdcurve_message_categorical_columns) that the
#' default features of a data frame took its categorical columns beside
#' numeric ones, as indicators of their categories (R/encode.R): right
#' for tabular records, but a class label beside embedding columns
#' changes every curve (a label of three classes moved the AUC of 8
#' Gaussian columns from 0.97 to 0.82), and leaving it out is one argument.
#' Nothing when every feature is categorical, or `features` chose them.
#' @noRd
tell_categories <- function(x) {
  enc <- attr(x, "encoding")
  if (is.null(enc) || all(!is.na(enc$category))) return(invisible())
  # (not a numeric column's indicator of its missing values)
  cats <- setdiff(unique(enc$variable[!is.na(enc$category)]),
                  enc$variable[is.na(enc$category)])
  if (!length(cats)) return(invisible())
  fix <- features_drop(cats, match(cats, unique(enc$variable)))
  prd_inform(c(
    "i" = "Using the categorical column{?s} {.field {cats}} as {?a feature/features} (indicators of {?its/their} categories).",
    " " = "To leave {cli::qty(length(cats))}{?it/them} out: {.code {fix$code}}."
  ), "categorical_columns")
}

#' The line of the message of ignored columns that says which of
#' `dropped` label the sets (`labels`: set_label_columns()' values)
#' @noRd
set_label_line <- function(dropped, labels) {
  nm <- intersect(dropped, names(labels))
  if (!length(nm)) return(NULL)
  desc <- vapply(nm, function(n) {
    v <- unique(labels[[n]])
    if (length(v) > 4L) v <- c(v[1:3], "...")
    paste0(n, " (", paste(encodeString(v, quote = "\""), collapse = ", "), ")")
  }, "")
  # (the values as text: braces doubled for cli)
  desc <- gsub("}", "}}", gsub("{", "{{", desc, fixed = TRUE), fixed = TRUE)
  c("i" = paste0(paste(desc, collapse = " and "),
                 if (length(nm) == 1L) " takes" else " take",
                 " one value in each set: a label of the sets, which alone would tell them apart (every curve would read 0)."))
}

#' Split `generated` into a named list of sample sets
#' @noRd
split_models <- function(generated, arg = "generated",
                         call = rlang::caller_env()) {
  if (inherits(generated, "grouped_df")) {
    groups <- attr(generated, "groups")
    keys <- groups[-ncol(groups)]
    labels <- do.call(paste, c(lapply(keys, as.character), sep = "/"))
    rows <- groups[[ncol(groups)]]
    df <- as.data.frame(generated)
    out <- lapply(rows, function(r) {
      part <- df[r, setdiff(names(df), names(keys)), drop = FALSE]
      rownames(part) <- NULL
      part
    })
    names(out) <- labels
    return(out)
  }
  if (is.list(generated) && !is.data.frame(generated)) {
    if (length(generated) < 1L) {
      prd_abort("{.arg {arg}} must hold at least one sample set.", "input",
                call = call)
    }
    nms <- model_names(generated)
    if (anyDuplicated(nms)) {
      prd_abort(c("The sample sets in {.arg {arg}} must have distinct names.",
                  "x" = "Repeated: {.val {unique(nms[duplicated(nms)])}}."),
                "model", call = call)
    }
    names(generated) <- nms
    return(generated)
  }
  if (is.data.frame(generated)) check_model_column(generated, arg, call)
  list(generated = generated)
}

#' The names of a list of sample sets, `model_<i>` where the i-th has none
#' @noRd
model_names <- function(sets) {
  nms <- names(sets)
  if (is.null(nms)) nms <- rep("", length(sets))
  nms[!nzchar(nms)] <- paste0("model_", which(!nzchar(nms)))
  nms
}

#' An ungrouped data frame with a non-numeric `model` column of several
#' values would pool every model into one generated set: refuse it.
#' @noRd
check_model_column <- function(df, arg, call) {
  nm <- names(df)[tolower(names(df)) %in% c("model", "models")]
  for (col in nm) {
    v <- df[[col]]
    if (!is.numeric(v) && length(unique(v)) > 1L) {
      vals <- utils::head(unique(as.character(v)), 5)
      prd_abort(c(
        "{.arg {arg}} has a {.field {col}} column with {length(unique(v))} values ({.val {vals}}) but is not grouped: every model would be pooled into one generated set.",
        "i" = "Group it, {.code dplyr::group_by({arg}, {col})}, or pass a named list of sample sets, {.code split({arg}, {arg}${col})}.",
        "i" = "To pool them on purpose, drop the column first."
      ), "model", call = call)
    }
  }
  invisible(TRUE)
}
