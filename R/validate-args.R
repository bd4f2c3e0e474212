# Checks of the non-sample arguments: scalars (counts, flags, choices,
# methods, k, angles, levels), the arguments of the truth and plug-in
# functions, and what user-supplied samplers and densities return.

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
                         call = rlang::caller_env(), aliases = NULL) {
  if (!is.character(x) || !length(x) || anyNA(x)) {
    prd_abort(c(
      "{.arg {arg}} must be {if (multiple) 'one or more of' else 'one of'} {.val {choices}}.",
      "x" = "It is {describe(x)}."
    ), "input", call = call)
  }
  if (!multiple && identical(x, choices)) return(choices[1])
  bad <- setdiff(x, choices)
  if (length(bad) || (!multiple && length(x) != 1L)) {
    near <- nearest_choices(bad, choices, aliases)
    prd_abort(c(
      "{.arg {arg}} must be {if (multiple) 'one or more of' else 'one of'} {.val {choices}}.",
      "x" = if (length(bad)) "Unknown: {.val {bad}}." else "It has {length(x)} values.",
      "i" = if (length(near)) "Did you mean {.val {near}}?"
    ), "input", call = call)
  }
  unique(x)
}

#' The choices nearest the unknown values `bad` (the one at the least edit
#' distance, ignoring case, when it is at most a third of the value's
#' length, and at least 1: "knnn" -> "knn", "Mixtur" -> "mixture"),
#' without the values that have none. `aliases`: a character vector of
#' choices named by the names users know them by (embedding_metric_aliases():
#' "fid" -> "fd"); an unknown value that is an alias (ignoring case, "-" and
#' " " read as "_") gives its choices.
#' @noRd
nearest_choices <- function(bad, choices, aliases = NULL) {
  if (!length(bad) || !length(choices)) return(character())
  key <- gsub("[- ]", "_", tolower(bad))
  hit <- key %in% names(aliases)
  named <- unname(aliases[names(aliases) %in% key[hit]])
  bad <- bad[!hit]
  if (!length(bad)) return(unique(named))
  d <- utils::adist(tolower(bad), tolower(choices))
  best <- apply(d, 1L, which.min)
  ok <- d[cbind(seq_along(bad), best)] <= pmax(1, nchar(bad) %/% 3)
  unique(c(named, choices[best[ok]]))
}

check_methods <- function(method, choices, arg = "method",
                          call = rlang::caller_env(), aliases = NULL) {
  check_choice(method, choices, multiple = TRUE, arg = arg, call = call,
               aliases = aliases)
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
    # a default the user never set is named as the default
    the <- if (arg_defaulted(arg, call)) "The default " else ""
    prd_abort(c(
      "{the}{.arg {arg}} = {format_number(max(k))} is too large for {what}.",
      "i" = "{.arg {arg}} must be at most {format_number(limit)} here."
    ), "k_too_large", call = call)
  }
  k_norm(k)
}

#' TRUE when the user's call (the exported function whose frame `call` is,
#' or that called it) left `arg` at its default: read from the call as
#' written, so a default the function has since filled in still counts.
#' @noRd
arg_defaulted <- function(arg, call) {
  frame <- user_frame(call)
  if (!is.environment(frame)) return(FALSE)
  j <- which(vapply(sys.frames(), identical, logical(1), frame))
  if (!length(j)) return(FALSE)
  j <- j[length(j)]
  fn <- sys.function(j)
  if (!arg %in% names(formals(fn))) return(FALSE)
  mc <- tryCatch(match.call(fn, sys.call(j), expand.dots = FALSE),
                 error = function(e) NULL)
  !is.null(mc) && !arg %in% names(mc)
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
    what <- function(m) {
      if (is.matrix(m)) return(paste0("a ", nrow(m), " x ", ncol(m), " matrix"))
      if (!is.numeric(m)) return(cli::format_inline("{.obj_type_friendly {m}}"))
      bad <- sum(!is.finite(m))
      paste0(length(m), " value", if (length(m) != 1L) "s",
             if (bad) paste0(", ", bad, " not finite"))
    }
    # (a covariance given where a mean goes: the two Gaussians of
    # prd_truth_gaussian() share one)
    square <- is.matrix(mean_generated) && nrow(mean_generated) > 1L &&
      nrow(mean_generated) == ncol(mean_generated)
    prd_abort(c(
      "{.arg mean_real} and {.arg mean_generated} must be finite numeric vectors of the same length.",
      "x" = "{.arg mean_real} is {what(mean_real)}, {.arg mean_generated} {what(mean_generated)}.",
      "i" = if (square) "The two Gaussians share one covariance ({.arg cov}); for two covariances use {.fn prd_truth} (Monte Carlo) with their log-densities and samplers."
    ), "input", call = call)
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

#' That `x` and `y` have the same length (a classed error naming both).
#' @noRd
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
