# broom-style tidiers (generics::tidy, generics::glance).

#' @importFrom generics tidy glance
#' @export
generics::tidy

#' @export
generics::glance

#' Tidy and glance at PR curves and metrics
#'
#' `tidy()` turns a [prd_curve()] result (through [summary.prd_curve()])
#' or a [manifold_metrics()] / [entropy_metrics()] / [embedding_metrics()]
#' result into one long
#' tibble with broom's column names, one row per model, method, `k` and
#' statistic, with the interval when the result has replicates. `glance()`
#' gives a one-row overview.
#'
#' @param x A `prd_curve` or a `prd_metrics` result.
#' @param conf.level Confidence level of the intervals (broom's name;
#'   default 0.9 for curves, and for metric tables the level they were
#'   computed at). `conf_level` is accepted as well.
#' @param conf_level The same as `conf.level` (the package's own spelling).
#' @param ... For curves, passed to [summary.prd_curve()] (`beta`,
#'   `epsilon`).
#' @return `tidy()`: a tibble with columns `model`, `method` (`NA` for
#'   metrics), `k`, `term` (the statistic or metric, e.g. `"auc"`,
#'   `"precision"`), `estimate`, `conf.low`, `conf.high` (`NA` without
#'   replicates). There is no `statistic` column: broom keeps that name for
#'   a test statistic, and these are estimates. `glance()`: a one-row
#'   tibble with `n_models`, `n_methods` (curves) or `n_metrics`,
#'   `n_curves` (curves), `k` (the values, as text), `split`, `replicates`
#'   and `conf.level` (for metric tables the level their intervals were
#'   computed at; for curves, which keep their replicates rather than
#'   intervals, the `conf.level` passed to `glance()`, default 0.9, the
#'   default of `tidy()` and [summary.prd_curve()]; `NA` without
#'   replicates).
#' @section Errors: `prdcurve_error_input` for a bad `conf.level`, and
#'   for an `x` that no loaded package tidies (the default methods,
#'   `tidy(1)`: a classed error naming `x`, not "no applicable method");
#'   `prdcurve_error_curve` when `x` is not a valid curve.
#' @examples
#' set.seed(1)
#' real <- matrix(rnorm(200 * 4), ncol = 4)
#' generated <- matrix(rnorm(200 * 4, mean = 0.5), ncol = 4)
#' cv <- prd_curve(real, generated, method = "knn", replicates = 10)
#' tidy(cv)
#' glance(cv)
#' @name prd_tidy
NULL

#' The level of tidy(): conf.level, else conf_level, else the default.
#' @noRd
tidy_level <- function(conf.level, conf_level, default,
                       call = rlang::caller_env()) {
  if (!is.null(conf.level)) return(check_level(conf.level, "conf.level", call = call))
  if (!is.null(conf_level)) return(check_level(conf_level, "conf_level", call = call))
  check_level(default, "conf.level", call = call)
}

#' @rdname prd_tidy
#' @method tidy prd_curve
#' @export
tidy.prd_curve <- function(x, conf.level = NULL, ..., conf_level = NULL) {
  check_curve(x, "x")
  conf_level <- tidy_level(conf.level, conf_level, 0.9)
  s <- summary(x, conf_level = conf_level, ...)
  n <- nrow(s)
  col <- function(nm, na) if (nm %in% names(s)) s[[nm]] else rep(na, n)
  bound <- function(st, side, i) {
    v <- s[[paste0(st, "_", side)]]
    if (is.null(v)) NA_real_ else v[i]
  }
  vctrs::vec_rbind(!!!lapply(seq_len(n), function(i) {
    tibble::tibble(
      model = as.character(col("model", NA_character_))[i],
      method = as.character(col("method", NA_character_))[i],
      k = as.integer(col("k", NA_integer_))[i],
      term = curve_statistic_names,
      estimate = vapply(curve_statistic_names, function(st) s[[st]][i], 0,
                        USE.NAMES = FALSE),
      conf.low = vapply(curve_statistic_names, bound, 0, side = "lower",
                        i = i, USE.NAMES = FALSE),
      conf.high = vapply(curve_statistic_names, bound, 0, side = "upper",
                         i = i, USE.NAMES = FALSE)
    )
  }))
}

#' @rdname prd_tidy
#' @method glance prd_curve
#' @export
glance.prd_curve <- function(x, conf.level = 0.9, ...) {
  check_curve(x, "x")
  conf.level <- check_level(conf.level)
  info <- prd_curve_info(x)
  reps <- vapply(info$replicates, function(r) {
    if (is.null(r)) 0L else length(unique(r$replicate))
  }, integer(1))
  keys <- curve_keys(x)
  tibble::tibble(
    n_models = length(unique(stats::na.omit(keys$model))),
    n_methods = length(unique(keys$method)),
    n_curves = nrow(keys),
    k = paste(sort(unique(stats::na.omit(keys$k))), collapse = ", "),
    split = paste(unique(stats::na.omit(info$split)), collapse = ", "),
    replicates = if (length(reps)) max(reps) else 0L,
    # curves keep their replicates, not a level: the level tidy() and
    # summary() use (0.9 unless told otherwise)
    conf.level = if (any(reps > 0)) conf.level else NA_real_
  )
}

#' @rdname prd_tidy
#' @method tidy prd_metrics
#' @export
tidy.prd_metrics <- function(x, conf.level = NULL, ..., conf_level = NULL) {
  check_metrics(x, "x")
  level <- attr(x, "conf_level")
  conf_level <- tidy_level(conf.level, conf_level,
                           if (is.null(level)) 0.9 else level)
  reps <- attr(x, "replicates")
  ci <- if (is.null(reps)) {
    list(lower = rep(NA_real_, nrow(x)), upper = rep(NA_real_, nrow(x)))
  } else {
    metric_intervals(x, reps, attr(x, "divisor"), conf_level)
  }
  tibble::tibble(model = x$model, method = NA_character_, k = x$k,
                 term = x$metric, estimate = x$value, conf.low = ci$lower,
                 conf.high = ci$upper)
}

#' @rdname prd_tidy
#' @method glance prd_metrics
#' @export
glance.prd_metrics <- function(x, ...) {
  check_metrics(x, "x")
  reps <- attr(x, "replicates")
  sp <- attr(x, "split")
  level <- attr(x, "conf_level")
  tibble::tibble(
    n_models = length(unique(x$model)),
    n_metrics = length(unique(x$metric)),
    k = paste(sort(unique(x$k)), collapse = ", "),
    split = if (is.null(sp)) NA_character_ else as.character(sp),
    replicates = if (is.null(reps)) 0L else length(unique(reps$replicate)),
    conf.level = if (is.null(reps) || is.null(level)) NA_real_ else level
  )
}

#' A metrics table of this package (columns model, metric, k, value).
#' @noRd
check_metrics <- function(x, arg = rlang::caller_arg(x),
                          call = rlang::caller_env()) {
  if (!inherits(x, "prd_metrics") || !is.data.frame(x) ||
      !all(c("model", "metric", "k", "value") %in% names(x))) {
    prd_abort(c(
      "{.arg {arg}} must be a metrics table of {.fn manifold_metrics}, {.fn entropy_metrics} or {.fn embedding_metrics}.",
      "x" = "It is {.obj_type_friendly {x}}{if (is.data.frame(x)) paste0(' with columns ', paste(names(x), collapse = ', ')) else ''}."
    ), "input", call = call)
  }
  invisible(x)
}

#' @rdname prd_tidy
#' @method tidy default
#' @export
tidy.default <- function(x, ...) {
  tidy_unknown(x, "tidy", ...)
}

#' @rdname prd_tidy
#' @method glance default
#' @export
glance.default <- function(x, ...) {
  tidy_unknown(x, "glance", ...)
}

#' The error of tidy() and glance() on an object no loaded package has a
#' method for (an unclassed "no applicable method" otherwise).
#' @noRd
tidy_unknown <- function(x, fn, ..., call = rlang::caller_env()) {
  # broom's default method, when broom is loaded (the last package loaded
  # registers its default method): its behaviour is kept
  if (isNamespaceLoaded("broom")) {
    f <- get0(paste0(fn, ".default"), envir = asNamespace("broom"),
              inherits = FALSE)
    if (is.function(f)) return(f(x, ...))
  }
  prd_abort(c(
    "{.arg x} must be a result {.fn {fn}} has a method for: a {.cls prd_curve} or a metrics table of this package.",
    "x" = "It is {.obj_type_friendly {x}}."
  ), "input", call = call)
}
