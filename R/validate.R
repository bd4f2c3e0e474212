# The checks of the sample sets (coercion, column selection, id columns,
# several generated sets, scaling, input warnings) and of the arguments
# shared by several functions. Errors and warnings are classed
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
#' warning unless `allow_constant`.
#' @return the matrix, with attribute `ids` (the id column or row names,
#'   NULL when there are none).
#' @noRd
as_samples <- function(x, arg = rlang::caller_arg(x),
                       call = rlang::caller_env(), min_rows = 2L,
                       allow_constant = FALSE, features = NULL, id = NULL,
                       inspect = TRUE, check_scale = TRUE,
                       levels = NULL) {
  force(arg)  # caller_arg() must see `x` before it is modified below
  ids <- NULL
  features <- as_selection(features)
  id <- as_selection(id)
  if (is.data.frame(x)) {
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
    prd_abort("{.arg {arg}} must have at least one column (feature).",
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
    prd_abort(c(
      "{.arg {arg}} must not contain missing or infinite values.",
      "x" = "{length(rows)} row{?s} {?has/have} NA, NaN or Inf, e.g. row{?s} {.val {utils::head(rows, 5)}}.",
      "i" = "Rows are counted from 1 (from 0 in NumPy: {.val {utils::head(rows, 5) - 1L}})."
    ), "input", call = call)
  }
  # squared distances must neither overflow nor underflow
  big <- scan[[2]]
  if (big > 1e100 || (big > 0 && big < 1e-100)) {
    prd_abort(c(
      "{.arg {arg}} has values of magnitude {format_number(big, digits = 3)}: squared distances would {if (big > 1) 'overflow' else 'underflow'}.",
      "i" = "Every estimator is invariant to a common scale: divide {.arg real} and {.arg generated} by the same constant."
    ), "input", call = call)
  }
  if (inspect && inputs_checked()) {
    inspect_samples(x, arg, allow_constant, check_scale = check_scale)
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
      "i" = "{cli::qty(length(dropped))}{?It is/They are} not {?a feature/features} of {.arg {arg}} (neither numeric nor categorical, a model label, or an identifier: more distinct values than half the rows); use {.arg features} to choose the feature columns, {.arg id} for an id column."
    ), "dropped_columns")
  }
  if (rlang::quo_is_null(features)) {
    cols <- setdiff(names(df)[numeric & !skip], excluded)
    tell_dropped(setdiff(names(df)[!numeric | skip], excluded))
  } else {
    pos <- tryCatch(tidyselect::eval_select(features, df, allow_rename = FALSE),
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
  x <- if (length(cols) && any(vapply(df, is_category, logical(1)))) {
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
  probe <- as.data.frame(x[seq_len(min(1L, nrow(x))), , drop = FALSE])
  if (is.null(colnames(x))) names(probe) <- paste0("V", seq_len(ncol(x)))
  pos <- tryCatch(tidyselect::eval_select(features, probe, allow_rename = FALSE),
                  error = function(e) {
                    prd_abort("{.arg features} must select columns of {.arg {arg}}.",
                              "input", parent = e, call = call)
                  })
  unname(pos)
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
inspect_samples <- function(x, arg, allow_constant = FALSE, check_scale = TRUE) {
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
    idlike <- cand[vapply(cand, function(j) is_id_like(x[, j]), logical(1))]
    if (length(idlike)) {
      nm <- if (is.null(colnames(x))) paste0("column ", idlike) else
        colnames(x)[idlike]
      prd_warn(c(
        "{.arg {arg}} has {length(idlike)} column{?s} that look{?s/} like {?an identifier/identifiers}: {.field {nm}}.",
        "i" = "Its values are distinct whole numbers or an arithmetic sequence; such a column is used as a feature and changes every distance.",
        "i" = "Drop it, or name it with {.arg id} (data frames)."
      ), "id_column")
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
      prd_warn(c(
        "The columns of {.arg {arg}} have very different scales: the largest standard deviation is {format_number(max(s) / stats::median(s), digits = 3)} times the median one.",
        "i" = "Euclidean distances are then dominated by the largest columns; consider {.code standardize = \"real\"} ({.code --standardize} on the command line)."
      ), "scale")
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
  # (no scale warning when the sets are to be standardized)
  # the categories of every set, so that all are encoded alike (R/encode.R)
  levels <- category_levels(c(list(real), if (is.data.frame(generated))
    list(generated) else if (is.list(generated)) generated))
  real <- as_samples(real, arg = real_arg, call = call, features = features,
                     id = id, allow_constant = allow_constant,
                     check_scale = standardize == "none", levels = levels)
  sets <- split_models(generated, generated_arg, call)
  gen <- lapply(names(sets), function(nm) {
    lab <- if (length(sets) == 1L && nm == "generated") generated_arg else
      paste0(generated_arg, "$", nm)
    g <- as_samples(sets[[nm]], arg = lab, call = call, features = features,
                    id = id, allow_constant = TRUE,
                    check_scale = standardize == "none", levels = levels)
    check_same_columns(real, g, real_arg, lab, call = call)
    g
  })
  names(gen) <- names(sets)
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
       grid_lines = grid_lines)
}

#' Centre and scale every column of every set of prepare_samples()'s list
#' by the mean and standard deviation of the real set's rows `rows` (NULL:
#' all of them). prd_curve() passes the real fit rows of its split: the
#' evaluation rows of both sets then take no part in the scale, so two
#' samples of one law stay two samples of one law after the scaling (with
#' the scale from every real row, the real rows that set it are not
#' distributed as the generated ones, which a strong classifier can see).
#' @noRd
standardize_sets <- function(sets, rows = NULL, keep = NULL) {
  x <- sets$real
  # the indicators of categories keep their weight (R/encode.R); `keep`
  # carries them to the half-samples, whose rows lost the attribute
  if (is.null(keep)) keep <- category_columns(x)
  if (!is.double(x)) storage.mode(x) <- "double"
  rows <- if (is.null(rows)) seq_len(nrow(x)) else as.integer(rows)
  n <- length(rows)
  # the moments of the rows read in place: the means (colMeans()'s
  # doubles), then the standard deviations from the centred rows (two
  # passes, as sd(): mean(x^2) - mean(x)^2 lost every digit of a column
  # far from 0, e.g. sd 1 read as 1.04 at a mean of 1e8), without copies
  # of the rows (colSums(C * C)'s doubles)
  mu <- .Call(ffi_col_means, x, rows)
  sdv <- rep(0, ncol(x))
  if (n > 1L) sdv <- sqrt(.Call(ffi_col_ss, x, mu, rows) / (n - 1))
  gens <- lapply(sets$generated, function(m) {
    if (!is.double(m)) storage.mode(m) <- "double"
    m
  })
  mu[keep] <- 0
  sdv[keep] <- 1
  grid <- scale_grid(c(list(x), unname(gens)), mu, sdv)
  grid$keep <- keep
  sdv[!(sdv > 0)] <- 1
  scale_set <- function(m) {
    ids <- attr(m, "ids")
    # (x - mu) / sd in one pass (sweep() built two n x d arrays of the
    # statistics besides its two results); a column on a grid, (x - m) *
    # s - c, each step exact
    out <- .Call(ffi_standardize, m, grid$centre, as.double(sdv), grid$mult,
                 grid$offset)
    dimnames(out) <- dimnames(m)
    attr(out, "ids") <- ids
    # (the marginal family restores the columns on a grid: marginal_atoms())
    attr(out, "grid") <- grid
    out
  }
  sets$real <- scale_set(x) # (x: the real set as doubles, converted once)
  sets$generated <- lapply(gens, scale_set)
  sets$grid <- grid
  sets
}

#' The columns standardize_sets() scales on a grid, so that equal
#' differences stay equal (ties of discrete data stay ties). A column
#' whose values, in the sets that are on a grid there, are multiples of
#' one power of two u (whole numbers, counts, pixel intensities, codes; u
#' = 1 for those) and lie within `max_bits` bits of steps u of a grid
#' point m near the mean (|x - m| < 2^max_bits u) is scaled as (x - m) s'
#' - c (the values of a set not on a grid there, a continuous model's
#' against whole numbers, the same way, each rounded): s' is 1 / sd
#' rounded to p = 52 - k significant bits (|x - m| < 2^k u), c the mean's
#' offset (mu - m) s' rounded to the grid of the results. Then (x - m) s'
#' has at most 52 bits and each difference (x_a - x_b) s' at most 53, so
#' every step is exact and the scaled values differ by exactly (x_a - x_b)
#' s': two pairs of rows with the same differences column by column have
#' the same scaled differences, hence the same distances ((x - mu) / sd
#' rounds each value on its own, so such ties were decided by the last
#' bits of the rounding). The scale moves by at most 2^-30 of itself, the
#' centre by at most half a step of the results' grid. Columns not on
#' such a grid (continuous data, float32 embeddings over many binades) and
#' columns constant in the rows that set the scale (sd 0) keep (x - mu) /
#' sd.
#' @return list(centre = m or mu, mult = s' or 0 (not on a grid), offset
#'   = c or 0), d values each.
#' @noRd
scale_grid <- function(mats, mu, sdv, max_bits = 22L) {
  d <- length(mu)
  out <- list(centre = as.double(mu), mult = numeric(d), offset = numeric(d))
  g <- lapply(mats, function(m) {
    # a set's column on a grid of its own (e not NA): finite, within
    # 2^max_bits steps (a column of zeros, e = INT_MAX, is on every grid)
    r <- .Call(ffi_col_grid, m, as.integer(max_bits))
    r$on <- !is.na(r$e)
    r$e[!r$on] <- .Machine$integer.max
    r$lo[!r$on] <- Inf
    r$hi[!r$on] <- -Inf
    r
  })
  # the finest grid of the sets on one; the other sets' values (a
  # continuous model against whole numbers) are scaled the same way, with
  # the rounding of each value
  e <- do.call(pmin, lapply(g, `[[`, "e"))
  lo <- do.call(pmin, lapply(g, `[[`, "lo"))
  hi <- do.call(pmax, lapply(g, `[[`, "hi"))
  ok <- e < .Machine$integer.max & e > -900L & e < 900L &
    is.finite(sdv) & sdv > 0
  for (l in which(ok)) {
    u <- 2^e[l]
    m <- round(mu[l] / u) * u
    steps <- max(hi[l] - m, m - lo[l]) / u
    if (!(steps < 2^max_bits)) next
    k <- if (steps < 1) 0 else floor(log2(steps)) + 1 # steps < 2^k
    p <- 52 - k
    s <- 1 / sdv[l]
    E <- floor(log2(s)) # 2^E <= s < 2^(E + 1), exactly
    if (2^E > s) E <- E - 1
    if (2^(E + 1) <= s) E <- E + 1
    q <- 2^(E - p + 1)
    sp <- round(s / q) * q
    step <- u * q # the grid of (x - m) s'
    if (!(step > 2^-1000) || !is.finite(sp)) next
    out$centre[l] <- m
    out$mult[l] <- sp
    out$offset[l] <- round((mu[l] - m) * sp / step) * step
  }
  out
}

#' The values before standardize_sets()'s scaling of the columns it
#' scaled on a grid (exact: (z + c) / s' + m undoes each exact step);
#' the other columns as they are
#' @noRd
unscale_grid <- function(z, grid) {
  for (l in which(grid$mult != 0)) {
    z[, l] <- (z[, l] + grid$offset[l]) / grid$mult[l] + grid$centre[l]
  }
  z
}

#' The real rows that set the scale of `standardize = "real"` for the
#' splits of resolve_model_splits(), in prd_curve(): the real fit rows of a
#' split (one real partition, shared by every model), NULL (every real
#' row) without one or with `splits` NULL.
#' @noRd
scale_rows <- function(splits) {
  s1 <- splits[[1]]
  if (is.null(s1$eval)) NULL else s1$fit[[1]]
}

#' Standardize prepare_samples()'s sets: by the real fit rows of `splits`
#' (prd_curve(), once its split is drawn: the evaluation rows of both sets
#' then take no part in the scale, which a strong classifier would see),
#' or by every real row with `splits` NULL (the metrics functions: their
#' balls are built on the real fit rows, and a scale from fewer rows moves
#' those further from the generated rows: at P = Q on a sphere surface in
#' d = 128, split 0.5, density read 0.953 with the fit rows' scale, 0.975
#' with every real row's, 0.993 unscaled; bench/results.md). With
#' `standardize = "none"` the sets are returned as they are.
#' @noRd
standardize_split <- function(sets, splits = NULL) {
  if (!identical(sets$standardize, "real")) return(sets)
  standardize_sets(sets, scale_rows(splits))
}

#' A half-sample of the replicates scaled as the estimate is (with
#' `standardize = "real"`): by the moments of the half's own real rows
#' `rows` (its fit rows; NULL: every real row of the half), so each half
#' replicates the estimator, scaling included. The half's rows were
#' scaled by the full sample's moments already; the scalings are affine
#' per column, so scaling them again equals scaling the raw rows by the
#' half's moments (to rounding); the columns the full sample scaled on a
#' grid (`grid`: standardize_sets()'s sets$grid) are first restored to
#' their values as given, exactly, and scaled on the half's own grid.
#' `how`: prepare_samples()'s `standardize` (with "none" the half is
#' returned as it is).
#' @return list(real, gens)
#' @noRd
standardize_half <- function(real, gens, how, rows = NULL, grid = NULL) {
  if (!identical(how, "real")) return(list(real = real, gens = gens))
  if (!is.null(grid) && any(grid$mult != 0)) {
    # the columns scaled on a grid from their values as given, so that the
    # half's own scaling keeps their ties too
    real <- unscale_grid(real, grid)
    gens <- lapply(gens, unscale_grid, grid = grid)
  }
  h <- standardize_sets(list(real = real, generated = gens), rows,
                        keep = grid$keep)
  list(real = h$real, gens = h$generated)
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
    nms <- names(generated)
    if (is.null(nms)) nms <- rep("", length(generated))
    nms[!nzchar(nms)] <- paste0("model_", which(!nzchar(nms)))
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

check_same_columns <- function(real, generated, arg_1 = "real",
                               arg_2 = "generated",
                               call = rlang::caller_env()) {
  if (ncol(real) != ncol(generated)) {
    # named columns: say which ones one set has and the other lacks (an
    # id column of whole numbers is numeric, and so kept as a feature)
    only_1 <- setdiff(colnames(real), colnames(generated))
    only_2 <- setdiff(colnames(generated), colnames(real))
    named <- !is.null(colnames(real)) && !is.null(colnames(generated))
    prd_abort(c(
      "{.arg {arg_1}} and {.arg {arg_2}} must have the same number of columns (features).",
      "x" = "{.arg {arg_1}} has {ncol(real)}, {.arg {arg_2}} has {ncol(generated)}.",
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

check_same_length <- function(x, y, arg_1 = rlang::caller_arg(x),
                              arg_2 = rlang::caller_arg(y),
                              call = rlang::caller_env()) {
  if (length(x) != length(y)) {
    prd_abort(c(
      "{.arg {arg_1}} and {.arg {arg_2}} must have the same length.",
      "x" = "{.arg {arg_1}} has {length(x)}, {.arg {arg_2}} has {length(y)}."
    ), "input", call = call)
  }
  invisible(TRUE)
}

# ---- scalar arguments (rlang's type predicates, classed errors) -------------

is_whole <- function(x) {
  is.numeric(x) && all(is.finite(x)) && all(abs(x - round(x)) < 1e-8)
}

describe <- function(x) {
  if (!length(x)) return("empty")
  if (is.numeric(x) || is.logical(x)) {
    if (is.logical(x)) return(paste(utils::head(x, 5), collapse = ", "))
    return(paste(format_number(utils::head(x, 5), digits = 4),
                 collapse = ", "))
  }
  cli::format_inline("{.obj_type_friendly {x}}")
}

#' A single whole number in [min, max]; returned as an integer when it fits
#' (max defaults to .Machine$integer.max), else as a double.
#' @noRd
check_count <- function(x, arg = rlang::caller_arg(x), min = 1,
                        max = .Machine$integer.max,
                        call = rlang::caller_env()) {
  if (!is_whole(x) || length(x) != 1L || x < min || x > max) {
    range <- if (is.finite(max)) {
      paste0(" between ", format(min, big.mark = ",", scientific = FALSE),
             " and ", format(max, big.mark = ",", scientific = FALSE))
    } else {
      paste0(" >= ", min)
    }
    prd_abort(c(
      "{.arg {arg}} must be a single whole number{range}.",
      "x" = "It is {describe(x)}."
    ), "input", call = call)
  }
  if (abs(x) <= .Machine$integer.max) as.integer(round(x)) else round(x)
}

check_flag <- function(x, arg = rlang::caller_arg(x),
                       call = rlang::caller_env()) {
  if (!rlang::is_bool(x)) {
    prd_abort(c("{.arg {arg}} must be {.code TRUE} or {.code FALSE}.",
                "x" = "It is {describe(x)}."), "input", call = call)
  }
  x
}

#' The precision of the engine's distance products, from
#' `options(prdcurve.precision)`: "single" (the default; the engine uses
#' double where sgemm is missing or the data need it) or "double".
#' @noRd
engine_precision <- function(call = rlang::caller_env()) {
  check_choice(getOption("prdcurve.precision", "single"),
               c("single", "double"), arg = "options(prdcurve.precision)",
               call = call)
}

#' One or several of `choices`, with a classed error naming the argument.
#' @noRd
check_choice <- function(x, choices, multiple = FALSE, arg = rlang::caller_arg(x),
                         call = rlang::caller_env()) {
  if (!is.character(x) || !length(x) || anyNA(x)) {
    prd_abort(c(
      "{.arg {arg}} must be {if (multiple) 'one or more of' else 'one of'} {.val {choices}}.",
      "x" = "It is {describe(x)}."
    ), "input", call = call)
  }
  if (!multiple && identical(x, choices)) return(choices[1])
  bad <- setdiff(x, choices)
  if (length(bad) || (!multiple && length(x) != 1L)) {
    prd_abort(c(
      "{.arg {arg}} must be {if (multiple) 'one or more of' else 'one of'} {.val {choices}}.",
      "x" = if (length(bad)) "Unknown: {.val {bad}}." else "It has {length(x)} values."
    ), "input", call = call)
  }
  unique(x)
}

check_methods <- function(method, choices, arg = "method",
                          call = rlang::caller_env()) {
  check_choice(method, choices, multiple = TRUE, arg = arg, call = call)
}

#' Validate a vector of neighbour counts against the sizes of the sets the
#' radii are taken in: 1 <= k <= (set size) - 1 (SPEC.md section 0).
#' @noRd
check_k <- function(k, limit, arg = "k", what = "the fit sets",
                    call = rlang::caller_env()) {
  if (!is_whole(k) || length(k) < 1L || any(k < 1)) {
    prd_abort(c(
      "{.arg {arg}} must be whole numbers >= 1.",
      "x" = "It is {describe(k)}."
    ), "input", call = call)
  }
  if (any(k > limit)) {
    prd_abort(c(
      "{.arg {arg}} = {format_number(max(k))} is too large for {what}.",
      "i" = "{.arg {arg}} must be at most {format_number(limit)} here."
    ), "k_too_large", call = call)
  }
  k_norm(k)
}

#' The one normal form of neighbour counts: sorted unique integers. Every
#' k vector the engine sees is in it: check_k() returns it, and the unions
#' of k values (the metrics' k with ppr_k, the derived k of kde and ppr
#' radii) are formed by it. `...`: whole numbers (validated by check_k()).
#' @noRd
k_norm <- function(...) sort(unique(as.integer(round(c(...)))))

check_angles <- function(angles, call = rlang::caller_env()) {
  check_count(angles, "angles", min = 3, max = 1e6, call = call)
}

#' Positive finite numbers (one, or one or two); `max` bounds them (e.g.
#' bandwidths whose squares must stay finite).
#' @noRd
check_positive <- function(x, arg = rlang::caller_arg(x), len = 1:2,
                           max = Inf, call = rlang::caller_env()) {
  if (!is.numeric(x) || !(length(x) %in% len) || !all(is.finite(x)) ||
      any(x <= 0) || any(x > max)) {
    prd_abort(c(
      "{.arg {arg}} must be {if (length(len) > 1) 'one or two positive finite numbers' else 'a single positive finite number'}{if (is.finite(max)) paste0(' at most ', format_number(max)) else ''}.",
      "x" = "It is {describe(x)}."
    ), "input", call = call)
  }
  as.double(x)
}

#' A confidence level in (0, 1).
#' @noRd
check_level <- function(x, arg = rlang::caller_arg(x),
                        call = rlang::caller_env()) {
  if (!is.numeric(x) || length(x) != 1L || !is.finite(x) || x <= 0 || x >= 1) {
    prd_abort(c("{.arg {arg}} must be a single number in (0, 1).",
                "x" = "It is {describe(x)}."), "input", call = call)
  }
  as.double(x)
}

#' Resolve `split` into fit and evaluation rows (SPEC.md section 0)
#'
#' A fraction s in [0, 1): each set is permuted with R's RNG and its first
#' round(s * n) rows (at least one) are evaluated, the rest fit. s = 0: no
#' split. A list `list(real = <int>, generated = <int>)` gives the evaluation
#' rows explicitly. Returns list(fit = list(x, y), eval = list(x, y) or NULL,
#' split = s or "rows").
#' @noRd
resolve_split <- function(split, n_real, n_generated,
                          call = rlang::caller_env()) {
  if (is.list(split)) {
    if (!identical(sort(names(split)), c("generated", "real"))) {
      prd_abort(c(
        "{.arg split} as a list must have exactly the elements {.field real} and {.field generated}.",
        "i" = "Each holds the evaluation rows (1-based) of that set."
      ), "split", call = call)
    }
    ev <- list()
    for (nm in c("real", "generated")) {
      n <- if (nm == "real") n_real else n_generated
      idx <- split[[nm]]
      lab <- paste0("split$", nm)
      if (!is_whole(idx) || length(idx) < 1L) {
        prd_abort("{.arg {lab}} must be a non-empty vector of row numbers.",
                  "split", call = call)
      }
      if (any(idx < 1 | idx > n)) {
        prd_abort(c(
          "{.arg {lab}} must hold row numbers between 1 and {n}.",
          "x" = "Out of range: {.val {utils::head(idx[idx < 1 | idx > n], 5)}}."
        ), "split", call = call)
      }
      if (anyDuplicated(idx)) {
        prd_abort("{.arg {lab}} must not repeat rows.", "split", call = call)
      }
      if (n - length(idx) < 2L) {
        prd_abort(c(
          "{.arg {lab}} leaves fewer than 2 rows of {.arg {nm}} to fit on.",
          "x" = "{length(idx)} of {n} rows are for evaluation."
        ), "split", call = call)
      }
      ev[[nm]] <- sort(as.integer(idx))
    }
    fit <- list(setdiff(seq_len(n_real), ev$real),
                setdiff(seq_len(n_generated), ev$generated))
    return(new_split(fit, list(ev$real, ev$generated), "rows"))
  }
  check_split_fraction(split, call)
  if (split == 0) {
    return(new_split(list(seq_len(n_real), seq_len(n_generated)), NULL, 0))
  }
  px <- split_part(split, n_real, "real", call)
  py <- split_part(split, n_generated, "generated", call)
  new_split(list(px$fit, py$fit), list(px$eval, py$eval), split)
}

#' The resolved split, the one form every function and the engine use:
#' `fit` (fit rows of real and generated), `eval` (their evaluation rows;
#' NULL: the fit rows themselves, self excluded), `split` (as given: 0, a
#' fraction, or "rows") and `kind` ("none", "fraction" or "rows").
#' @noRd
new_split <- function(fit, eval, split) {
  kind <- if (is.null(eval)) "none" else
    if (identical(split, "rows")) "rows" else "fraction"
  structure(list(fit = fit, eval = eval, split = split, kind = kind),
            class = "prdcurve_split")
}

#' A split given as rows, for a half-sample of the replicates (a subset
#' whose attribute "prdcurve_rows" holds its rows in the full set): the
#' user's evaluation rows that fall in the half, as positions in it; the
#' rest of the half is fitted on. A half without any of a set's evaluation
#' rows, or with fewer than 2 rows to fit on, is an error (prdcurve_error_split).
#' @noRd
split_rows_in_half <- function(split, real, g, call = rlang::caller_env()) {
  map <- function(rows, x, nm) {
    from <- attr(x, "prdcurve_rows")
    if (is.null(from)) return(rows)
    pos <- which(from %in% rows)
    if (!length(pos) || length(from) - length(pos) < 2L) {
      prd_abort(c(
        "A half-sample of the replicates holds {length(pos)} of the {length(rows)} evaluation row{?s} of {.arg split${nm}} and {length(from) - length(pos)} row{?s} to fit on.",
        "i" = "Each half keeps the evaluation rows that fall in it, so each half needs at least 1 of them and 2 other rows.",
        "i" = "Give more evaluation rows, or use {.code replicates = 0}."
      ), "split", call = call)
    }
    pos
  }
  list(real = map(split$real, real, "real"),
       generated = map(split$generated, g, "generated"))
}

check_split_fraction <- function(split, call = rlang::caller_env()) {
  if (!is.numeric(split) || length(split) != 1L || !is.finite(split) ||
      split < 0 || split >= 1) {
    prd_abort(c(
      "{.arg split} must be a fraction in [0, 1) or a list of evaluation rows.",
      "x" = "It is {describe(split)}."
    ), "split", call = call)
  }
  invisible(split)
}

#' One set's random partition into fit and evaluation rows: the first
#' round(split * n) rows of a permutation (R's RNG) are evaluated.
#' @noRd
split_part <- function(split, n, nm, call = rlang::caller_env()) {
  n_fit <- round((1 - split) * n)
  n_eval <- n - n_fit
  if (n_eval < 1L || n_fit < 2L) {
    prd_abort(c(
      "{.arg split} = {split} leaves {n_fit} fit and {n_eval} evaluation rows of {.arg {nm}}.",
      "i" = "Each part needs at least 1 evaluation and 2 fit rows."
    ), "split", call = call)
  }
  perm <- sample.int(n)
  list(fit = sort(perm[seq_len(n_fit)]), eval = sort(perm[-seq_len(n_fit)]))
}

split_sizes <- function(s) {
  ev <- if (is.null(s$eval)) s$fit else s$eval
  c(fit_real = length(s$fit[[1]]), fit_generated = length(s$fit[[2]]),
    eval_real = length(ev[[1]]), eval_generated = length(ev[[2]]))
}

#' The fitted families' folds: `folds` NULL (default) gives 10, or fewer
#' where the sets are small (2 evaluation rows a fold), and one fit on the
#' fit rows (1) when fewer than 2 folds fit with a split; a given K must
#' give each fold 2 evaluation rows (all rows without a split), also in the
#' half-samples of the replicates; K = 1 needs a split. Checked before any
#' work.
#' @noRd
resolve_folds <- function(folds, splits, replicates,
                          call = rlang::caller_env()) {
  rows <- min(vapply(splits, function(s) {
    z <- split_sizes(s)
    min(z[["eval_real"]], z[["eval_generated"]])
  }, numeric(1)))
  no_split <- any(vapply(splits, function(s) is.null(s$eval), logical(1)))
  where <- "evaluation rows"
  if (replicates > 0L) {
    rows <- floor(rows / 2)
    where <- "evaluation rows in a half-sample of the replicates"
  }
  if (is.null(folds)) {
    K <- min(10L, as.integer(rows %/% 2))
    # without a split 2 folds at least (cross_folds() says when too few)
    return(if (K >= 2L) K else if (no_split) 2L else 1L)
  }
  if (folds == 1L && no_split) {
    prd_abort(c(
      "{.arg folds} = 1 fits the fitted families on the fit rows alone, and {.code split = 0} leaves none.",
      "i" = "Use {.arg folds} of 2 or more, or a split."
    ), "split", call = call)
  }
  if (rows < 2 * folds) {
    prd_abort(c(
      "{.arg folds} = {folds} needs at least {2 * folds} evaluation rows per set (2 a fold).",
      "x" = "A set has {rows} {where}.",
      "i" = "Use fewer {.arg folds}, more rows or a larger {.arg split}."
    ), "split", call = call)
  }
  folds
}

#' The number of replicates: 0 (none) or a whole number >= 2.
#' @noRd
check_replicates <- function(x, arg = rlang::caller_arg(x),
                             call = rlang::caller_env()) {
  force(arg)  # before `x` is replaced below
  x <- check_count(x, arg = arg, min = 0, max = 1e5, call = call)
  if (x == 1L) {
    prd_abort(c("{.arg {arg}} must be 0 (no intervals) or at least 2.",
                "x" = "It is 1."), "replicates", call = call)
  }
  x
}

# ---- checks of the non-sample arguments of the curve constructors --------

check_string <- function(x, arg = rlang::caller_arg(x),
                         call = rlang::caller_env()) {
  if (!rlang::is_string(x)) {
    prd_abort(c("{.arg {arg}} must be a single string.",
                "x" = "It is {describe(x)}."), "input", call = call)
  }
  x
}

check_function <- function(f, arg = rlang::caller_arg(f), hint = NULL,
                           call = rlang::caller_env()) {
  if (!is.function(f)) {
    prd_abort(c("{.arg {arg}} must be a function.", "i" = hint),
              "input", call = call)
  }
  f
}

#' Non-negative finite weights with a positive sum (discrete distributions,
#' mixture weights), optionally of a given length.
#' @noRd
check_weights <- function(x, arg = rlang::caller_arg(x), len = NULL,
                          call = rlang::caller_env()) {
  if (!is.numeric(x) || length(x) < 1L || !all(is.finite(x)) ||
      any(x < 0) || all(x == 0) || (!is.null(len) && length(x) != len)) {
    prd_abort(c(
      "{.arg {arg}} must be {if (is.null(len)) '' else paste(len, '')}non-negative finite weights with a positive sum.",
      "x" = "It is {describe(x)}."
    ), "input", call = call)
  }
  as.double(x)
}

#' Classifier scores: a non-empty numeric vector without NA/NaN (+-Inf
#' allowed: they are valid extreme scores).
#' @noRd
check_scores <- function(x, arg = rlang::caller_arg(x),
                         call = rlang::caller_env()) {
  if (!is.numeric(x) || length(x) < 1L || anyNA(x) || !is.null(dim(x))) {
    prd_abort(c(
      "{.arg {arg}} must be a non-empty numeric vector without NA or NaN.",
      "x" = "It is {.obj_type_friendly {x}}{if (is.numeric(x) && anyNA(x)) ' with NA/NaN' else ''}."
    ), "input", call = call)
  }
  as.double(x)
}

check_mean_pair <- function(mean_real, mean_generated,
                            call = rlang::caller_env()) {
  ok <- function(m) is.numeric(m) && length(m) >= 1L && all(is.finite(m))
  if (!ok(mean_real) || !ok(mean_generated) ||
      length(mean_real) != length(mean_generated)) {
    prd_abort(
      "{.arg mean_real} and {.arg mean_generated} must be finite numeric vectors of the same length.",
      "input", call = call
    )
  }
  invisible(TRUE)
}

#' A symmetric positive definite d x d covariance; returns its upper
#' Cholesky factor.
#' @noRd
check_covariance <- function(m, d, arg = "cov", call = rlang::caller_env()) {
  if (!is.matrix(m) || !is.numeric(m) || any(dim(m) != d) ||
      !all(is.finite(m)) || !isSymmetric(unname(m))) {
    prd_abort(
      "{.arg {arg}} must be a symmetric finite {d} x {d} matrix.",
      "input", call = call
    )
  }
  ch <- tryCatch(chol(m), error = function(e) NULL)
  if (is.null(ch)) {
    prd_abort("{.arg {arg}} must be positive definite.", "input", call = call)
  }
  ch
}

#' A PR curve: a data frame with a character `method`, numeric `lambda`,
#' `precision` and `recall`, at least 2 rows, finite precision and recall in
#' [0, 1] and lambda in [0, Inf].
#' @noRd
check_curve <- function(x, arg = rlang::caller_arg(x),
                        call = rlang::caller_env()) {
  cols <- c("method", "lambda", "precision", "recall")
  if (!is.data.frame(x) || !all(cols %in% names(x)) || nrow(x) < 2L) {
    prd_abort(
      "{.arg {arg}} must be a {.cls prd_curve} (columns {.field method}, {.field lambda}, {.field precision}, {.field recall}, at least 2 rows).",
      "curve", call = call
    )
  }
  if (!(is.character(x$method) || is.factor(x$method)) ||
      !is.numeric(x$lambda) || !is.numeric(x$precision) ||
      !is.numeric(x$recall)) {
    prd_abort(
      "{.arg {arg}} must have a character {.field method} and numeric {.field lambda}, {.field precision}, {.field recall}.",
      "curve", call = call
    )
  }
  bad <- function(v) anyNA(v) | any(v < 0 | v > 1)
  if (bad(x$precision) || bad(x$recall) || anyNA(x$lambda) ||
      any(x$lambda < 0)) {
    prd_abort(c(
      "{.arg {arg}} is not a valid PR curve.",
      "x" = "{.field precision} and {.field recall} must lie in [0, 1] and {.field lambda} in [0, Inf]."
    ), "curve", call = call)
  }
  invisible(x)
}

# ---- checks of what user-supplied samplers and densities return ----------

#' The n x d matrix a sampler returned (a vector is one column).
#' @noRd
check_draws <- function(x, n, arg, call = rlang::caller_env()) {
  if (is.numeric(x) && is.null(dim(x))) x <- matrix(x, ncol = 1L)
  if (is.data.frame(x)) x <- as.matrix(x)
  if (!is.matrix(x) || !is.numeric(x) || nrow(x) != n) {
    prd_abort(c(
      "{.arg {arg}}({n}) must return a numeric matrix with {n} rows.",
      "x" = "It returned {.obj_type_friendly {x}}{if (is.matrix(x)) paste0(' with ', nrow(x), ' rows') else ''}."
    ), "sampler", call = call)
  }
  if (!all(is.finite(x))) {
    prd_abort("{.arg {arg}} returned missing or infinite values.",
              "sampler", call = call)
  }
  x
}

#' The log-densities of P and Q at n draws of the `which` distribution.
#' @noRd
check_log_densities <- function(lp, lq, n, which, call = rlang::caller_env()) {
  for (nm in c("log_density_real", "log_density_generated")) {
    v <- if (nm == "log_density_real") lp else lq
    if (!is.numeric(v) || length(v) != n || anyNA(v)) {
      prd_abort(c(
        "{.arg {nm}} must return one log-density (a number, not NA/NaN) per row.",
        "x" = "At {n} draws of the {which} distribution it returned {length(v)} value{?s}{if (is.numeric(v) && anyNA(v)) ' with NA/NaN' else ''}."
      ), "sampler", call = call)
    }
  }
  for (nm in c("log_density_real", "log_density_generated")) {
    v <- if (nm == "log_density_real") lp else lq
    if (any(v == Inf)) {
      prd_abort(c(
        "{.arg {nm}} must return finite log-densities or {.code -Inf}.",
        "x" = "It returned {.code Inf} at {sum(v == Inf)} draw{?s} of the {which} distribution."
      ), "sampler", call = call)
    }
  }
  own <- if (which == "real") lp else lq
  if (any(own == -Inf)) {
    prd_abort(c(
      "The {which} sampler drew {sum(own == -Inf)} point{?s} where its own log-density is {.code -Inf}.",
      "i" = "A sampler must draw where its own density is positive."
    ), "sampler", call = call)
  }
  both <- lp == -Inf & lq == -Inf
  if (any(both)) {
    prd_abort(c(
      "Both log-densities are -Inf at {sum(both)} draw{?s} of the {which} distribution.",
      "i" = "A sampler must draw where its own density is positive."
    ), "sampler", call = call)
  }
  invisible(TRUE)
}

# ---- traps: legal input that silently gives a wrong answer ------------------

#' Two fixed projections of the rows (no random numbers are drawn, so the
#' user's RNG stream is untouched): an n x 2 matrix, in one pass over `x`
#' (src/scan.c). Equal rows have equal keys, and rows with equal keys are
#' compared exactly.
#' @noRd
row_keys <- function(x) {
  if (!is.double(x)) storage.mode(x) <- "double"
  .Call(ffi_row_keys, x)
}

#' For each row of `y`, whether it equals some row of `x` (exactly).
#' Candidates come from equal projections (to a relative 1e-12), then the
#' rows themselves are compared.
#' @noRd
rows_in <- function(y, x, ky = row_keys(y)[, 1], kx = row_keys(x)[, 1]) {
  o <- order(kx)
  ks <- kx[o]
  tol <- 1e-12 * pmax(abs(ky), 1e-300)
  lo <- findInterval(ky - tol, ks, left.open = TRUE) + 1L
  hi <- findInterval(ky + tol, ks)
  hit <- logical(nrow(y))
  some <- which(hi >= lo)
  if (!length(some)) return(hit)
  # the first candidate of every row at once, then the others one by one
  first <- o[lo[some]]
  hit[some] <- rowSums(y[some, , drop = FALSE] != x[first, , drop = FALSE]) == 0
  for (i in some[!hit[some] & hi[some] > lo[some]]) {
    cand <- o[(lo[i] + 1L):min(hi[i], lo[i] + 7L)]
    hit[i] <- any(colSums(t(x[cand, , drop = FALSE]) == y[i, ]) == ncol(x))
  }
  hit
}

#' The number of copies of each row in its own set (itself included): 1
#' for a row without duplicates. Rows are grouped by two fixed projections
#' (to 12 significant digits), which equal rows share; O(n d), also for a
#' collapsed set of many identical rows.
#' @noRd
row_multiplicity <- function(x, keys = row_keys(x)) {
  k <- signif(keys, 12)
  g <- vctrs::vec_group_id(data.frame(k1 = k[, 1], k2 = k[, 2]))
  tabulate(g)[g]
}

#' Each model's name as an argument in messages: `arg` for a single set
#' given alone, else arg$name
#' @noRd
model_args <- function(gens, arg = "generated") {
  if (length(gens) == 1L && names(gens) == "generated") return(arg)
  paste0(arg, "$", names(gens))
}

#' Warn when generated rows are exact copies of real rows (memorisation):
#' they count as perfect samples. manifold_samples() flags them one by one.
#' @noRd
warn_copies <- function(real, gens, arg = "generated", keys = NULL) {
  counts <- vapply(seq_along(gens), function(i) {
    if (is.null(keys)) return(sum(rows_in(gens[[i]], real)))
    sum(rows_in(gens[[i]], real, keys[[i + 1L]][, 1], keys[[1L]][, 1]))
  }, integer(1))
  names(counts) <- names(gens)
  if (!any(counts > 0L)) return(invisible(counts))
  labs <- model_args(gens, arg)
  sizes <- vapply(gens, nrow, integer(1))
  lines <- paste0(labs, ": ", counts, " of ", sizes, " rows (",
                  formatC(100 * counts / sizes, format = "f", digits = 1), "%)")[counts > 0L]
  prd_warn(c(
    "Generated rows that are exact copies of real rows (memorised training data?).",
    stats::setNames(lines, rep("x", length(lines))),
    "i" = "A copy is a perfect sample to every estimator: precision, recall and the curve overstate the model.",
    "i" = "{.fn manifold_samples} flags each (column {.field copy}); remove them, or report their share (authenticity, Alaa et al. 2022)."
  ), "copies")
  invisible(counts)
}

#' Warn about label-like columns: few distinct whole values while other
#' columns are continuous (a class label used as a feature). Sets whose
#' every column is whole (pixel intensities, counts) are not flagged.
#' @noRd
warn_label_columns <- function(real, gens, real_arg = "real",
                               generated_arg = "generated") {
  d <- ncol(real)
  if (d < 2L || nrow(real) < 10L) return(invisible(character()))
  h <- real[seq_len(min(nrow(real), 64L)), , drop = FALSE]
  # (the indicators of categories, R/encode.R, are categories by design)
  whole <- colSums(h != round(h)) == 0 & !category_columns(real)
  if (!any(whole) || all(whole) || sum(whole) > d / 2) {
    return(invisible(character()))
  }
  cand <- which(whole)
  # (a constant column, an all-zero unit, is no label: it carries no
  # class; the grid check reports it when the other set varies there)
  few <- vapply(cand, function(j) {
    v <- real[, j]
    levels <- length(unique(v))
    all(v == round(v)) && levels >= 2L && levels <= label_levels &&
      levels < nrow(real) / 2
  }, logical(1))
  cols <- cand[few]
  if (!length(cols)) return(invisible(character()))
  nm <- if (is.null(colnames(real))) paste0("column ", cols) else colnames(real)[cols]
  levels <- vapply(cols, function(j) length(unique(real[, j])), integer(1))
  # "label (10 distinct values)", one per column
  desc <- paste0(nm, " (", levels, " distinct value",
                 ifelse(levels == 1L, "", "s"), ")")
  # on the command line, its option (prd_cli() sets prdcurve.cli; to
  # "array" for a real set read from an array, whose columns V1, ... the
  # option selects by number only)
  opt <- getOption("prdcurve.cli")
  cli <- isTRUE(opt) || identical(opt, "array")
  drop <- if (is.null(colnames(real))) paste0("-", cols) else
    if (identical(opt, "array") && all(grepl("^V[0-9]+$", nm)))
      paste0("-", sub("^V", "", nm)) else
        paste0("-", ifelse(make.names(nm) == nm, nm, paste0("`", nm, "`")))
  drop <- if (length(drop) > 1L) paste0("c(", paste(drop, collapse = ", "), ")") else drop
  fix <- if (!cli) paste0("features = ", drop) else
    if (grepl("^-[[:alnum:]._]+$", drop)) paste0("--features=", drop) else
      paste0("--features='", drop, "'")
  arg_name <- if (cli) "--features" else "features"
  prd_warn(c(
    "{.arg {real_arg}} has {length(cols)} column{?s} of few whole values among continuous features: {desc}.",
    "i" = "A class label or category used as a feature changes every distance (and can reverse the ranking of models).",
    "i" = "Drop {cli::qty(length(cols))}{?it/them} from every set with {.code {fix}}, or choose the feature columns with {.arg {arg_name}}."
  ), "label_column")
  invisible(nm)
}

#' Warn about columns that lie on a grid (whole numbers, or multiples of
#' one power of two, within 2^marginal_grid_bits steps of 0:
#' coarse_grid()) in one set and not in the other (but for rounding:
#' near_grid()): rounded real data against a model's
#' continuous output, or storage precision (float16 against float32).
#' The values on the grid are atoms the other law never hits, so the true
#' PR curve is 0; the `marginal` family reads that (marginal_atoms()),
#' the neighbour families and the scalar metrics do not.
#' @return the lines of the warning, one per model with such columns, named
#'   by the models
#' @noRd
grid_column_lines <- function(real, gens, generated_arg = "generated") {
  # 1 on a grid, 0 not, NA constant (on every grid)
  grids <- function(m) {
    g <- coarse_grid(m)
    list(code = ifelse(is.na(g$e), 0L, ifelse(g$constant, NA_integer_, 1L)),
         e = g$e)
  }
  # a column of `m` whose values all lie on the grid 2^e but for rounding
  # (a round trip through a scaling) is not off it
  rounded <- function(m, cols, e) {
    vapply(seq_along(cols), function(i) {
      all(near_grid(as.double(m[, cols[i]]), e[cols[i]]))
    }, logical(1))
  }
  gr <- grids(real)
  r <- gr$code
  names_of <- function(cols) {
    nm <- if (is.null(colnames(real))) paste("column", cols) else
      colnames(real)[cols]
    if (length(nm) > 4L) nm <- c(nm[1:3], paste("and", length(nm) - 3L, "more"))
    paste(nm, collapse = ", ")
  }
  labs <- model_args(gens, generated_arg)
  lines <- character()
  for (i in seq_along(gens)) {
    gg <- grids(gens[[i]])
    g <- gg$code
    only_r <- which(r == 1L & g == 0L)
    only_g <- which(g == 1L & r == 0L)
    # constant in one set, continuous in the other (unless every column of
    # the constant set is: a collapsed set, warned about as such)
    const_r <- if (!all(is.na(r))) which(is.na(r) & g == 0L)
    const_g <- if (!all(is.na(g))) which(is.na(g) & r == 0L)
    only_r <- only_r[!rounded(gens[[i]], only_r, gr$e)]
    const_r <- const_r[!rounded(gens[[i]], const_r, gr$e)]
    only_g <- only_g[!rounded(real, only_g, gg$e)]
    const_g <- const_g[!rounded(real, const_g, gg$e)]
    part <- c(if (length(only_r)) paste0("on a grid in the real set only: ",
                                         names_of(only_r)),
              if (length(only_g)) paste0("on a grid in this set only: ",
                                         names_of(only_g)),
              if (length(const_r)) paste0("constant in the real set only: ",
                                          names_of(const_r)),
              if (length(const_g)) paste0("constant in this set only: ",
                                          names_of(const_g)))
    if (length(part)) {
      nm <- if (is.null(names(gens))) labs[i] else names(gens)[i]
      lines[[nm]] <- paste0(labs[i], ": ", paste(part, collapse = "; "))
    }
  }
  lines
}

#' The warning of grid_column_lines()'s lines (none: no warning), with the
#' `extra` lines (prd_curve(): what tied models read with the atoms
#' ignored, atoms_tie_lines()) after them.
#' @return the lines, invisibly
#' @noRd
warn_grid_columns <- function(lines, extra = character()) {
  if (!length(lines)) return(invisible(character()))
  prd_warn(c(
    "Columns whose values lie on a grid (whole numbers, or multiples of one power of two), or are constant, in one set and are continuous in the other.",
    stats::setNames(unname(lines), rep("x", length(lines))),
    "i" = "Such values are atoms the other set never hits: the supports differ and the true PR curve is 0. The {.val marginal} family (in the default {.val tightest}) reads this; the neighbour families and the scalar metrics do not.",
    extra,
    "i" = "If the model should produce such values, round its output to the grid; if the grid is storage precision (float16 against float32 or float64), give both sets the same type."
  ), "grid_columns")
  invisible(lines)
}

#' Most distinct whole values a label-like column may have
#' @noRd
label_levels <- 20L

#' Fewest rows a set should have for a meaningful curve or metric
#' @noRd
small_set_rows <- 10L

#' Warnings that need `k` and the split: sets too small, k close to the
#' set size, duplicated rows that make k-th neighbour radii 0; and the
#' memory check (an error) before the engine allocates its buffers.
#' `k`: the neighbour counts (validated later by check_k(); skipped here
#' when not whole numbers); `n_curves`: angles x curves stored per model
#' (0 for metrics).
#' @noRd
check_sample_traps <- function(sets, k, split = 0, angles = 0L,
                               n_curves = 0L, replicates = 0L,
                               call = rlang::caller_env()) {
  n_real <- nrow(sets$real)
  n_gen <- vapply(sets$generated, nrow, integer(1))
  labs <- if (length(n_gen) == 1L && names(n_gen) == "generated") "generated" else
    paste0("generated$", names(n_gen))
  k_ok <- is_whole(k) && length(k) >= 1L && all(k >= 1)
  # k larger than a set is refused by check_k() with its own class
  if (k_ok && max(k) < min(n_real, n_gen)) {
    check_memory(n_real, n_gen, k, angles, n_curves, replicates, call)
  }
  if (!inputs_checked()) return(invisible())
  sizes <- c(real = n_real, stats::setNames(n_gen, labs))
  small <- sizes[sizes < small_set_rows]
  if (length(small)) {
    lines <- paste0("`", names(small), "` has ", small, " row",
                    ifelse(small == 1, "", "s"), ".")
    prd_warn(c(
      "Too few rows for a meaningful estimate.",
      stats::setNames(lines, rep("x", length(lines))),
      "i" = "With so few samples every share is 0 or 1 by chance (a 3-row set can score AUC 1). Use hundreds of rows per set, or read the result with {.arg replicates} intervals."
    ), "small_sample")
  }
  if (!k_ok) return(invisible())
  frac <- if (is.numeric(split) && length(split) == 1L && is.finite(split) &&
              split > 0 && split < 1) 1 - split else 1
  fit <- floor(frac * sizes)
  kmax <- max(k)
  if (!length(small) && kmax > max(1, min(fit) / 4) && kmax < min(fit)) {
    prd_warn(c(
      "{.arg k} = {kmax} is close to the size of the smallest fit set ({min(fit)} rows).",
      "i" = "Each k-NN ball then holds a large part of its set, and precision, recall and the curve tend to 1 whatever the model.",
      "i" = "Use {.arg k} well below the set size (at most {max(1, floor(min(fit) / 10))} here; the literature uses 3 to 5 on thousands of rows)."
    ), "k_large")
  }
  kmin <- min(k)
  all_sets <- c(list(real = sets$real), stats::setNames(sets$generated, labs))
  dup <- vapply(seq_along(all_sets), function(i) {
    # (the keys prepare_samples() computed, in the same order of sets)
    keys <- sets$keys[[i]]
    if (is.null(keys) || nrow(keys) != nrow(all_sets[[i]])) {
      keys <- row_keys(all_sets[[i]])
    }
    m <- row_multiplicity(all_sets[[i]], keys)
    c(share = mean(m > kmin), need = max(m))
  }, numeric(2))
  colnames(dup) <- names(all_sets)
  bad <- dup["share", ] >= 0.1
  if (any(bad)) {
    pct <- formatC(100 * dup["share", bad], format = "f", digits = 0)
    prd_warn(c(
      "Duplicated rows: {pct}% of the rows of {.arg {names(all_sets)[bad]}} have at least {.arg k} = {kmin} exact cop{?y/ies} in their own set.",
      "i" = "Their k-th neighbour distance is 0, so their balls hold only their copies: recall or precision fall towards 0 (and entropies to -Inf).",
      "i" = "Use {.arg k} of at least {max(dup['need', bad])} (more than the copies of any row), or remove the duplicates with {.fn unique}."
    ), "duplicates")
  }
  invisible()
}

#' Refuse calls whose buffers would not fit. The engine streams the
#' distances in tiles: its k-NN heaps are per thread (k doubles each, and
#' the radii of every k), its outputs a few doubles per row and k; so the
#' memory grows with k only through those (measured: 3,000 rows per set,
#' k = 10 and k = 2,500 peak within 25 MB of each other). A curve stores
#' 6 columns of 8 bytes per angle, for the estimate and for each of the
#' `replicates` half-samples. Limit: option prdcurve.memory_limit, in
#' bytes (default 4 GiB).
#' @return The estimate in bytes, invisibly.
#' @noRd
check_memory <- function(n_real, n_gen, k, angles, n_curves, replicates,
                         call = rlang::caller_env()) {
  limit <- getOption("prdcurve.memory_limit", 4 * 1024^3)
  if (!is.numeric(limit) || length(limit) != 1L || is.na(limit)) return(invisible())
  n <- n_real + max(n_gen)
  threads <- max(1L, prd_threads())
  neighbours <- 8 * (4 * as.double(threads) * max(k) + 8 * as.double(n) * length(k))
  reps <- max(0, replicates)
  curves <- 8 * 6 * as.double(angles) * n_curves * length(n_gen) * (1 + reps)
  need <- neighbours + curves
  if (need > limit) {
    gib <- function(b) {
      if (b >= 1024^3) paste0(formatC(b / 1024^3, format = "f", digits = 1), " GiB") else
        paste0(formatC(b / 1024^2, format = "f", digits = 1), " MiB")
    }
    why <- if (neighbours > curves) {
      paste0("The neighbour searches keep ", format_number(max(k)),
             " candidates on each of ", threads, " thread", if (threads > 1) "s",
             " and ", format_number(length(k)), " radi", if (length(k) > 1) "i" else "us",
             " for each of ", format_number(n), " rows.")
    } else {
      paste0(format_number(angles), " angles x ", n_curves, " curve",
             if (n_curves > 1) "s", " per model are stored",
             if (reps > 0) paste0(", for the estimate and each of ",
                                  format_number(reps), " replicates"), ".")
    }
    fix <- c(if (neighbours > curves) "a smaller {.arg k}",
             if (angles > 0) "fewer {.arg angles}",
             if (reps > 0) "fewer {.arg replicates}")
    fix <- paste(fix, collapse = " or ")
    prd_abort(c(
      "This call would need about {gib(need)} of memory, over the limit of {gib(limit)}.",
      "x" = why,
      "i" = paste0("Use ", fix, ", or raise the limit with {.code options(prdcurve.memory_limit = <bytes>)}.")
    ), "memory", call = call)
  }
  invisible(need)
}

#' Entropy estimators depend on the sample sizes: bring every set to the
#' smallest size (random rows, R's RNG), or warn when asked not to.
#' @noRd
equalize_sizes <- function(sets, subsample, split, fn = "entropy_metrics",
                           call = rlang::caller_env()) {
  sizes <- c(nrow(sets$real), vapply(sets$generated, nrow, integer(1)))
  if (length(unique(sizes)) == 1L) return(sets)
  m <- min(sizes)
  if (!subsample || is.list(split)) {
    if (inputs_checked()) {
      prd_warn(c(
        "The sets have different sizes ({.val {sizes}} rows): the k-NN entropy estimators depend on the size, and a model from the same distribution as the data can get values far from 0.",
        "i" = if (is.list(split)) "Explicit {.arg split} rows are kept as given; subsample the sets to a common size before the call." else
          "Use {.code subsample = TRUE} (the default) to draw {m} rows of every set."
      ), "unequal_sizes")
    }
    return(sets)
  }
  take <- function(x) {
    if (nrow(x) == m) return(x)
    rows <- sort(sample.int(nrow(x), m))
    ids <- attr(x, "ids")
    out <- x[rows, , drop = FALSE]
    attr(out, "ids") <- if (!is.null(ids)) ids[rows]
    attr(out, "rows") <- rows
    out
  }
  prd_inform(c(
    "Subsampled every set to {m} rows (sizes {.val {sizes}}): the entropy estimators depend on the sample size.",
    "i" = "{.code subsample = FALSE} keeps every row; {.fn set.seed} reproduces the draw."
  ), "subsampled")
  sets$real <- take(sets$real)
  sets$generated <- lapply(sets$generated, take)
  sets$keys <- NULL  # (the row keys were of the full sets)
  sets
}

#' Each generated row's distance to its nearest real row, and whether it is
#' a copy: an exact copy, or nearer to a real row than `copy_ratio` times
#' the median distance of a real row to its nearest other real row (the
#' spirit of the authenticity test of Alaa et al. 2022 and the copying
#' test of Meehan et al. 2020). Two radii-only sweeps of the engine.
#' @noRd
copy_flags <- function(real, generated, copy_ratio = 0.1) {
  n_r <- nrow(real)
  n_g <- nrow(generated)
  s <- list(fit = list(integer(), seq_len(n_r)),
            eval = list(seq_len(n_g), integer()))
  to_real <- engine_neighbours(generated, real, s, 1L, "query_y")$query_y[, 1]
  own <- engine_neighbours(real, real[0, , drop = FALSE],
                           list(fit = list(seq_len(n_r), integer()), eval = NULL),
                           1L, "own")$own_x[, 1]
  scale <- stats::median(sqrt(own))
  d <- sqrt(pmax(to_real, 0))
  list(distance = d, copy = d == 0 | d <= copy_ratio * scale)
}

#' A failed parallel worker (future's FutureError: a killed or crashed
#' worker) re-raised as a classed error that says how to recover: the plan
#' keeps the dead worker until it is reset.
#' @noRd
with_future_errors <- function(expr, call = rlang::caller_env()) {
  tryCatch(expr, FutureError = function(e) {
    prd_abort(c(
      "A parallel worker of the current {.code future::plan()} failed (killed, out of memory or crashed).",
      "i" = "Later calls fail the same way until the plan is reset: run {.code future::plan(future::sequential)}, or re-create your plan (e.g. {.code future::plan(future::multisession, workers = 2)}), then call again.",
      "i" = "{.code options(prdcurve.future = FALSE)} computes in this session instead."
    ), "future", parent = e, call = call)
  })
}

#' Call a user's sampler or density; its errors come back classed
#' (prdcurve_error_sampler) naming the argument, the original as parent.
#' @noRd
call_user <- function(f, x, arg, call = rlang::caller_env()) {
  withCallingHandlers(f(x), error = function(e) {
    if (inherits(e, "prdcurve_error")) return()
    prd_abort(c("{.arg {arg}} failed when called by {.fn prd_truth}.",
                "i" = "It is called with {if (is.matrix(x)) paste0('a ', nrow(x), ' x ', ncol(x), ' matrix of draws') else paste0('n = ', x)}."),
              "sampler", parent = e, call = call)
  })
}

#' prd_compare(): models with different numbers of generated rows differ
#' partly because of their sizes (every estimator depends on n).
#' @noRd
warn_model_sizes <- function(x, models) {
  if (!inputs_checked()) return(invisible())
  sizes <- if (inherits(x, "prd_curve")) {
    info <- prd_curve_info(x)
    info <- info[!is.na(info$model), , drop = FALSE]
    tot <- info$n_fit_generated + ifelse(info$split %in% "0", 0L,
                                         info$n_eval_generated)
    tapply(tot, info$model, max)
  } else {
    attr(x, "model_sizes")
  }
  sizes <- sizes[names(sizes) %in% models]
  if (length(sizes) < 2L || anyNA(sizes) || length(unique(sizes)) == 1L) {
    return(invisible())
  }
  shown <- paste0(names(sizes), ": ", sizes)
  prd_warn(c(
    "The models have different numbers of generated rows ({shown}).",
    "i" = "Every estimator depends on the sample size, so part of each difference comes from the sizes, not the models.",
    "i" = "Draw the same number of rows from every model before computing, e.g. {.code lapply(models, function(g) g[sample(nrow(g), {min(sizes)}), ])} ({.fn entropy_metrics} does it with {.code subsample = TRUE})."
  ), "unequal_sizes")
  invisible()
}
