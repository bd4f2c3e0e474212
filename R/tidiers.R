# broom-style tidiers (generics::tidy, generics::glance).

#' @importFrom generics tidy glance
#' @export
generics::tidy

#' @export
generics::glance

#' Tidy and glance at PR curves and metrics
#'
#' `tidy()` turns a [prd_curve()] result (through [summary.prd_curve()])
#' or a [manifold_metrics()] / [entropy_metrics()] result into one long
#' tibble, one row per model, method, `k` and statistic, with the interval
#' when the result has replicates. `glance()` gives a one-row overview.
#'
#' @param x A `prd_curve` or a `prd_metrics` result.
#' @param conf_level Confidence level of the intervals (default 0.9; for
#'   metric tables, the level they were computed at).
#' @param ... For curves, passed to [summary.prd_curve()] (`beta`,
#'   `epsilon`).
#' @return `tidy()`: a tibble with columns `model`, `method` (`NA` for
#'   metrics), `k`, `statistic`, `estimate`, `lower`, `upper` (`NA`
#'   without replicates). `glance()`: a one-row tibble with `n_models`,
#'   `n_methods` (curves) or `n_metrics`, `n_curves` (curves), `k`
#'   (the values, as text), `split`, `replicates` and `conf_level`.
#' @section Errors: `prdcurve_error_input` for a bad `conf_level`.
#' @examples
#' set.seed(1)
#' real <- matrix(rnorm(200 * 4), ncol = 4)
#' generated <- matrix(rnorm(200 * 4, mean = 0.5), ncol = 4)
#' cv <- prd_curve(real, generated, method = "knn", replicates = 10)
#' tidy(cv)
#' glance(cv)
#' @name prd_tidy
NULL

#' @rdname prd_tidy
#' @method tidy prd_curve
#' @export
tidy.prd_curve <- function(x, conf_level = 0.9, ...) {
  conf_level <- check_level(conf_level)
  s <- summary(x, conf_level = conf_level, ...)
  n <- nrow(s)
  col <- function(nm, na) if (nm %in% names(s)) s[[nm]] else rep(na, n)
  vctrs::vec_rbind(!!!lapply(seq_len(n), function(i) {
    tibble::tibble(
      model = as.character(col("model", NA_character_))[i],
      method = as.character(col("method", NA_character_))[i],
      k = as.integer(col("k", NA_integer_))[i],
      statistic = curve_statistic_names,
      estimate = vapply(curve_statistic_names, function(st) s[[st]][i], 0,
                        USE.NAMES = FALSE),
      lower = vapply(curve_statistic_names, function(st) {
        v <- s[[paste0(st, "_lower")]]
        if (is.null(v)) NA_real_ else v[i]
      }, 0, USE.NAMES = FALSE),
      upper = vapply(curve_statistic_names, function(st) {
        v <- s[[paste0(st, "_upper")]]
        if (is.null(v)) NA_real_ else v[i]
      }, 0, USE.NAMES = FALSE)
    )
  }))
}

#' @rdname prd_tidy
#' @method glance prd_curve
#' @export
glance.prd_curve <- function(x, ...) {
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
    conf_level = if (any(reps > 0)) 0.9 else NA_real_
  )
}

#' @rdname prd_tidy
#' @method tidy prd_metrics
#' @export
tidy.prd_metrics <- function(x, conf_level = attr(x, "conf_level"), ...) {
  conf_level <- check_level(if (is.null(conf_level)) 0.9 else conf_level)
  reps <- attr(x, "replicates")
  ci <- if (is.null(reps)) {
    list(lower = rep(NA_real_, nrow(x)), upper = rep(NA_real_, nrow(x)))
  } else {
    metric_intervals(x, reps, attr(x, "divisor"), conf_level)
  }
  lower <- ci$lower
  upper <- ci$upper
  tibble::tibble(model = x$model, method = NA_character_, k = x$k,
                 statistic = x$metric, estimate = x$value, lower = lower,
                 upper = upper)
}

#' @rdname prd_tidy
#' @method glance prd_metrics
#' @export
glance.prd_metrics <- function(x, ...) {
  reps <- attr(x, "replicates")
  sp <- attr(x, "split")
  tibble::tibble(
    n_models = length(unique(x$model)),
    n_metrics = length(unique(x$metric)),
    k = paste(sort(unique(x$k)), collapse = ", "),
    split = if (is.null(sp)) NA_character_ else as.character(sp),
    replicates = if (is.null(reps)) 0L else length(unique(reps$replicate)),
    conf_level = if (is.null(reps)) NA_real_ else attr(x, "conf_level")
  )
}
