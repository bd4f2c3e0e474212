# Every user-facing check lives here (DESIGN.md rule 2): coercion of the two
# sample sets and of the shared arguments, with cli errors that name the
# argument and what was wrong. C code re-checks only types and dimensions.

#' Coerce a sample set to a double matrix, or fail clearly
#'
#' Accepts a numeric or integer matrix or a data frame of numeric columns,
#' one row per sample. Rejects missing or infinite values, non-numeric
#' columns, fewer than `min_rows` rows and sets whose rows are all equal.
#' @noRd
as_samples <- function(x, arg = rlang::caller_arg(x),
                       call = rlang::caller_env(), min_rows = 2L,
                       allow_constant = FALSE) {
  force(arg)  # caller_arg() must see `x` before it is modified below
  if (is.data.frame(x)) {
    ok <- vapply(x, function(col) is.numeric(col) && is.null(dim(col)),
                 logical(1))
    if (!all(ok)) {
      bad <- names(x)[!ok]
      cli::cli_abort(c(
        "{.arg {arg}} must have numeric columns only.",
        "x" = "Column{?s} {.val {bad}} {?is/are} not numeric."
      ), call = call)
    }
    x <- as.matrix(x)
    if (ncol(x) == 0L) storage.mode(x) <- "double"
  }
  if (!is.matrix(x)) {
    what <- if (is.numeric(x) && is.null(dim(x))) {
      "a numeric vector (use {.code matrix(x, ncol = 1)} for one-dimensional samples)"
    } else {
      "{.obj_type_friendly {x}}"
    }
    cli::cli_abort(c(
      "{.arg {arg}} must be a numeric matrix or data frame with one row per sample.",
      "x" = paste("It is", what, ".")
    ), call = call)
  }
  if (!(is.double(x) || is.integer(x))) {
    cli::cli_abort(c(
      "{.arg {arg}} must be numeric.",
      "x" = "It is a {typeof(x)} matrix."
    ), call = call)
  }
  if (ncol(x) < 1L) {
    cli::cli_abort("{.arg {arg}} must have at least one column.", call = call)
  }
  if (nrow(x) < min_rows) {
    cli::cli_abort(c(
      "{.arg {arg}} must have at least {min_rows} rows (samples).",
      "x" = "It has {nrow(x)}."
    ), call = call)
  }
  if (!is.double(x)) storage.mode(x) <- "double"
  # sum() is a cheap first test; rows are located only when it fails
  if (!is.finite(sum(x))) {
    rows <- which(rowSums(!is.finite(x)) > 0)
    if (length(rows)) {
      cli::cli_abort(c(
        "{.arg {arg}} must not contain missing or infinite values.",
        "x" = "{length(rows)} row{?s} {?has/have} NA, NaN or Inf, e.g. row{?s} {.val {utils::head(rows, 5)}}."
      ), call = call)
    }
  }
  # squared distances must neither overflow nor underflow
  big <- max(abs(x))
  if (big > 1e100 || (big > 0 && big < 1e-100)) {
    cli::cli_abort(c(
      "{.arg {arg}} has values of magnitude {format(big, digits = 3)}: squared distances would {if (big > 1) 'overflow' else 'underflow'}.",
      "i" = "Every estimator is invariant to a common scale: divide {.arg real} and {.arg generated} by the same constant."
    ), call = call)
  }
  if (!allow_constant && all_rows_equal(x)) {
    cli::cli_abort(c(
      "{.arg {arg}} has zero variance: all {nrow(x)} rows are identical.",
      "i" = "Distances to it carry no information; check the feature extraction."
    ), call = call)
  }
  x
}

# TRUE when every row equals the first; stops at the first varying column.
all_rows_equal <- function(x) {
  for (j in seq_len(ncol(x))) {
    if (any(x[, j] != x[1L, j])) return(FALSE)
  }
  TRUE
}

check_same_columns <- function(real, generated, arg_1 = "real",
                               arg_2 = "generated",
                               call = rlang::caller_env()) {
  if (ncol(real) != ncol(generated)) {
    cli::cli_abort(c(
      "{.arg {arg_1}} and {.arg {arg_2}} must have the same number of columns (features).",
      "x" = "{.arg {arg_1}} has {ncol(real)}, {.arg {arg_2}} has {ncol(generated)}."
    ), call = call)
  }
  invisible(TRUE)
}

check_same_length <- function(x, y, arg_1 = rlang::caller_arg(x),
                              arg_2 = rlang::caller_arg(y),
                              call = rlang::caller_env()) {
  if (length(x) != length(y)) {
    cli::cli_abort(c(
      "{.arg {arg_1}} and {.arg {arg_2}} must have the same length.",
      "x" = "{.arg {arg_1}} has {length(x)}, {.arg {arg_2}} has {length(y)}."
    ), call = call)
  }
  invisible(TRUE)
}

is_whole <- function(x) {
  is.numeric(x) && all(is.finite(x)) && all(abs(x - round(x)) < 1e-8)
}

check_count <- function(x, arg = rlang::caller_arg(x), min = 1, max = Inf,
                        call = rlang::caller_env()) {
  if (!is_whole(x) || length(x) != 1L || x < min || x > max) {
    cli::cli_abort(c(
      "{.arg {arg}} must be a single whole number{if (is.finite(max)) paste0(' between ', min, ' and ', format(max, big.mark = ',', scientific = FALSE)) else paste0(' >= ', min)}.",
      "x" = "It is {if (length(x)) format(x) else 'empty'}."
    ), call = call)
  }
  as.integer(x)
}

check_flag <- function(x, arg = rlang::caller_arg(x),
                       call = rlang::caller_env()) {
  if (!is.logical(x) || length(x) != 1L || is.na(x)) {
    cli::cli_abort("{.arg {arg}} must be {.code TRUE} or {.code FALSE}.",
                   call = call)
  }
  x
}

#' Validate a vector of neighbour counts against the sizes of the sets the
#' radii are taken in: 1 <= k <= (set size) - 1 (SPEC.md section 0).
#' @noRd
check_k <- function(k, limit, arg = "k", what = "the fit sets",
                    call = rlang::caller_env()) {
  if (!is_whole(k) || length(k) < 1L || any(k < 1)) {
    cli::cli_abort(c(
      "{.arg {arg}} must be whole numbers >= 1.",
      "x" = "It is {if (length(k)) format(k) else 'empty'}."
    ), call = call)
  }
  if (any(k > limit)) {
    cli::cli_abort(c(
      "{.arg {arg}} = {format(max(k), scientific = FALSE)} is too large for {what}.",
      "i" = "{.arg {arg}} must be at most {limit} here."
    ), call = call)
  }
  sort(unique(as.integer(round(k))))
}

check_methods <- function(method, choices, arg = "method",
                          call = rlang::caller_env()) {
  if (!is.character(method) || length(method) < 1L || anyNA(method)) {
    cli::cli_abort("{.arg {arg}} must be a character vector, some of {.val {choices}}.",
                   call = call)
  }
  bad <- setdiff(method, choices)
  if (length(bad)) {
    cli::cli_abort(c(
      "{.arg {arg}} must be one or more of {.val {choices}}.",
      "x" = "Unknown: {.val {bad}}."
    ), call = call)
  }
  unique(method)
}

check_angles <- function(angles, call = rlang::caller_env()) {
  check_count(angles, "angles", min = 3, max = 1e6, call = call)
}

check_positive <- function(x, arg = rlang::caller_arg(x), len = 1:2,
                           call = rlang::caller_env()) {
  if (!is.numeric(x) || !(length(x) %in% len) || !all(is.finite(x)) ||
      any(x <= 0)) {
    cli::cli_abort(c(
      "{.arg {arg}} must be {if (length(len) > 1) 'one or two positive finite numbers' else 'a single positive finite number'}.",
      "x" = "It is {.val {format(x)}}."
    ), call = call)
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
      cli::cli_abort(c(
        "{.arg split} as a list must have exactly the elements {.field real} and {.field generated}.",
        "i" = "Each holds the evaluation rows (1-based) of that set."
      ), call = call)
    }
    ev <- list()
    for (nm in c("real", "generated")) {
      n <- if (nm == "real") n_real else n_generated
      idx <- split[[nm]]
      lab <- paste0("split$", nm)
      if (!is_whole(idx) || length(idx) < 1L) {
        cli::cli_abort("{.arg {lab}} must be a non-empty vector of row numbers.",
                       call = call)
      }
      if (any(idx < 1 | idx > n)) {
        cli::cli_abort(c(
          "{.arg {lab}} must hold row numbers between 1 and {n}.",
          "x" = "Out of range: {.val {utils::head(idx[idx < 1 | idx > n], 5)}}."
        ), call = call)
      }
      if (anyDuplicated(idx)) {
        cli::cli_abort("{.arg {lab}} must not repeat rows.", call = call)
      }
      if (n - length(idx) < 2L) {
        cli::cli_abort(c(
          "{.arg {lab}} leaves fewer than 2 rows of {.arg {nm}} to fit on.",
          "x" = "{length(idx)} of {n} rows are for evaluation."
        ), call = call)
      }
      ev[[nm]] <- sort(as.integer(idx))
    }
    fit <- list(setdiff(seq_len(n_real), ev$real),
                setdiff(seq_len(n_generated), ev$generated))
    return(list(fit = fit, eval = list(ev$real, ev$generated), split = "rows"))
  }
  if (!is.numeric(split) || length(split) != 1L || !is.finite(split) ||
      split < 0 || split >= 1) {
    cli::cli_abort(c(
      "{.arg split} must be a fraction in [0, 1) or a list of evaluation rows.",
      "x" = "It is {.val {format(split)}}."
    ), call = call)
  }
  if (split == 0) {
    return(list(fit = list(seq_len(n_real), seq_len(n_generated)),
                eval = NULL, split = 0))
  }
  part <- function(n, nm) {
    n_fit <- round((1 - split) * n)
    n_eval <- n - n_fit
    if (n_eval < 1L || n_fit < 2L) {
      cli::cli_abort(c(
        "{.arg split} = {split} leaves {n_fit} fit and {n_eval} evaluation rows of {.arg {nm}}.",
        "i" = "Each part needs at least 1 evaluation and 2 fit rows."
      ), call = call)
    }
    perm <- sample.int(n)
    list(fit = sort(perm[seq_len(n_fit)]), eval = sort(perm[-seq_len(n_fit)]))
  }
  px <- part(n_real, "real")
  py <- part(n_generated, "generated")
  list(fit = list(px$fit, py$fit), eval = list(px$eval, py$eval),
       split = split)
}

split_sizes <- function(s) {
  ev <- if (is.null(s$eval)) s$fit else s$eval
  c(fit_real = length(s$fit[[1]]), fit_generated = length(s$fit[[2]]),
    eval_real = length(ev[[1]]), eval_generated = length(ev[[2]]))
}

# ---- checks of the non-sample arguments of the curve constructors --------

check_string <- function(x, arg = rlang::caller_arg(x),
                         call = rlang::caller_env()) {
  if (!is.character(x) || length(x) != 1L || is.na(x)) {
    cli::cli_abort("{.arg {arg}} must be a single string.", call = call)
  }
  x
}

check_function <- function(f, arg = rlang::caller_arg(f), hint = NULL,
                           call = rlang::caller_env()) {
  if (!is.function(f)) {
    cli::cli_abort(c("{.arg {arg}} must be a function.", "i" = hint),
                   call = call)
  }
  f
}

#' Non-negative finite weights with a positive sum (discrete distributions,
#' mixture weights), optionally of a given length.
#' @noRd
check_weights <- function(x, arg = rlang::caller_arg(x), len = NULL,
                          call = rlang::caller_env()) {
  if (!is.numeric(x) || length(x) < 1L || !all(is.finite(x)) ||
      any(x < 0) || sum(x) <= 0 || (!is.null(len) && length(x) != len)) {
    cli::cli_abort(c(
      "{.arg {arg}} must be {if (is.null(len)) '' else paste(len, '')}non-negative finite weights with a positive sum.",
      "x" = "It is {.val {format(x)}}."
    ), call = call)
  }
  as.double(x)
}

#' Classifier scores: a non-empty numeric vector without NA/NaN (+-Inf
#' allowed: they are valid extreme scores).
#' @noRd
check_scores <- function(x, arg = rlang::caller_arg(x),
                         call = rlang::caller_env()) {
  if (!is.numeric(x) || length(x) < 1L || anyNA(x) || !is.null(dim(x))) {
    cli::cli_abort(c(
      "{.arg {arg}} must be a non-empty numeric vector without NA or NaN.",
      "x" = "It is {.obj_type_friendly {x}}{if (is.numeric(x) && anyNA(x)) ' with NA/NaN' else ''}."
    ), call = call)
  }
  as.double(x)
}

check_mean_pair <- function(mean_real, mean_generated,
                            call = rlang::caller_env()) {
  ok <- function(m) is.numeric(m) && length(m) >= 1L && all(is.finite(m))
  if (!ok(mean_real) || !ok(mean_generated) ||
      length(mean_real) != length(mean_generated)) {
    cli::cli_abort(
      "{.arg mean_real} and {.arg mean_generated} must be finite numeric vectors of the same length.",
      call = call
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
    cli::cli_abort(
      "{.arg {arg}} must be a symmetric finite {d} x {d} matrix.",
      call = call
    )
  }
  ch <- tryCatch(chol(m), error = function(e) NULL)
  if (is.null(ch)) {
    cli::cli_abort("{.arg {arg}} must be positive definite.", call = call)
  }
  ch
}

check_curve <- function(x, arg = rlang::caller_arg(x),
                        call = rlang::caller_env()) {
  if (!is.data.frame(x) ||
      !all(c("method", "lambda", "precision", "recall") %in% names(x)) ||
      nrow(x) < 2L) {
    cli::cli_abort(
      "{.arg {arg}} must be a {.cls prd_curve} (columns {.field method}, {.field lambda}, {.field precision}, {.field recall}).",
      call = call
    )
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
    cli::cli_abort(c(
      "{.arg {arg}}({n}) must return a numeric matrix with {n} rows.",
      "x" = "It returned {.obj_type_friendly {x}}{if (is.matrix(x)) paste0(' with ', nrow(x), ' rows') else ''}."
    ), call = call)
  }
  if (!all(is.finite(x))) {
    cli::cli_abort("{.arg {arg}} returned missing or infinite values.",
                   call = call)
  }
  x
}

#' The log-densities of P and Q at n draws of the `which` distribution.
#' @noRd
check_log_densities <- function(lp, lq, n, which, call = rlang::caller_env()) {
  for (nm in c("log_density_real", "log_density_generated")) {
    v <- if (nm == "log_density_real") lp else lq
    if (!is.numeric(v) || length(v) != n || anyNA(v)) {
      cli::cli_abort(c(
        "{.arg {nm}} must return one log-density (a number, not NA/NaN) per row.",
        "x" = "At {n} draws of the {which} distribution it returned {length(v)} value{?s}{if (is.numeric(v) && anyNA(v)) ' with NA/NaN' else ''}."
      ), call = call)
    }
  }
  for (nm in c("log_density_real", "log_density_generated")) {
    v <- if (nm == "log_density_real") lp else lq
    if (any(v == Inf)) {
      cli::cli_abort(c(
        "{.arg {nm}} must return finite log-densities or {.code -Inf}.",
        "x" = "It returned {.code Inf} at {sum(v == Inf)} draw{?s} of the {which} distribution."
      ), call = call)
    }
  }
  own <- if (which == "real") lp else lq
  if (any(own == -Inf)) {
    cli::cli_abort(c(
      "The {which} sampler drew {sum(own == -Inf)} point{?s} where its own log-density is {.code -Inf}.",
      "i" = "A sampler must draw where its own density is positive."
    ), call = call)
  }
  both <- lp == -Inf & lq == -Inf
  if (any(both)) {
    cli::cli_abort(c(
      "Both log-densities are -Inf at {sum(both)} draw{?s} of the {which} distribution.",
      "i" = "A sampler must draw where its own density is positive."
    ), call = call)
  }
  invisible(TRUE)
}
