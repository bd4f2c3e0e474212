# Half-sample replicates and the intervals built from them (the delete-d
# jackknife with d = n / 2; Shao and Wu 1989). Every estimator is recomputed
# on R random half-samples drawn without replacement: half of the real rows,
# shared by every model of the call (so model comparisons are paired), and
# half of each generated set. For a half-sample fraction f, the variance of
# the full-sample estimate is estimated by f / (1 - f) times the variance
# of the replicate estimates, and intervals are estimate +- z * sqrt(v).

#' Run `fun(real_sub, gens_sub)` on R half-samples (R's RNG, so set.seed()
#' reproduces them; a cli progress bar in interactive sessions).
#' @return list(results = list of R results, fraction = f)
#' @noRd
run_replicates <- function(real, gens, R, k, fun) {
  half <- function(n) sort(sample.int(n, floor(n / 2)))
  sizes <- c(nrow(real), vapply(gens, nrow, integer(1)))
  fraction <- mean(floor(sizes / 2) / sizes)
  bar <- if (show_progress()) {
    cli::cli_progress_bar("Half-sample replicates", total = R,
                          .envir = environment())
  }
  results <- vector("list", R)
  for (r in seq_len(R)) {
    rx <- half(nrow(real))
    sub_real <- real[rx, , drop = FALSE]
    sub_gens <- lapply(gens, function(g) g[half(nrow(g)), , drop = FALSE])
    results[[r]] <- fun(sub_real, sub_gens)
    if (!is.null(bar)) cli::cli_progress_update(id = bar)
  }
  if (!is.null(bar)) cli::cli_progress_done(id = bar)
  list(results = results, fraction = fraction)
}

#' Store the replicate curves in the settings table of each curve
#' @noRd
attach_curve_replicates <- function(out, reps) {
  info <- attr(out, "curves")
  long <- vctrs::vec_rbind(!!!lapply(seq_along(reps$results), function(r) {
    cv <- reps$results[[r]]
    tibble::tibble(replicate = r, model = cv$model, method = cv$method,
                   k = cv$k, lambda = cv$lambda, precision = cv$precision,
                   recall = cv$recall)
  }))
  for (i in seq_len(nrow(info))) {
    hit <- long$model == info$model[i] & long$method == info$method[i] &
      long$k == info$k[i]
    info$replicates[[i]] <- long[hit, c("replicate", "lambda", "precision",
                                        "recall")]
    info$fraction[i] <- reps$fraction
  }
  attr(out, "curves") <- info
  out
}

#' Normal interval from replicate values: est +- z sqrt(f / (1 - f) var).
#' @noRd
replicate_interval <- function(estimate, values, fraction, conf_level,
                               lower_bound = -Inf, upper_bound = Inf) {
  v <- fraction / (1 - fraction) * stats::var(values)
  half <- stats::qnorm((1 + conf_level) / 2) * sqrt(v)
  c(lower = max(lower_bound, estimate - half),
    upper = min(upper_bound, estimate + half))
}

#' Paired differences between models, with intervals
#'
#' Compares every model of a multi-model result with a baseline model,
#' statistic by statistic: the difference of the two estimates and its
#' interval from the half-sample replicates of both (paired: each
#' replicate uses the same half of the real set for every model, so the
#' real set's sampling noise, shared by both estimates, cancels in the
#' difference). The interval is \eqn{\hat\Delta \pm z_{(1+c)/2}
#' \sqrt{\hat v}}, with \eqn{\hat v = \frac{f}{1-f}\mathrm{Var}^*(\Delta^*)}
#' over the replicate differences \eqn{\Delta^*} (delete-d jackknife, Shao
#' and Wu 1989; see the section Intervals of [prd_curve()]). An interval
#' that excludes 0 says the two models differ at level `conf_level` in
#' that statistic, for this real set; measured calibration is in the
#' "Comparing models" vignette.
#'
#' @param x A [prd_curve()], [manifold_metrics()] or [entropy_metrics()]
#'   result with at least two models and `replicates > 0`.
#' @param baseline The model to compare with (default: the first).
#' @param conf_level Confidence level of the intervals (default 0.9).
#' @param ... For curves, passed to [summary.prd_curve()] (`beta`,
#'   `epsilon`).
#' @return A tibble with one row per other model, method (curves only),
#'   `k` and statistic: `model`, `baseline`, `method`, `k`, `statistic`,
#'   `estimate` (the model's value minus the baseline's), `lower`, `upper`.
#'   For curves the statistics are the columns of [summary.prd_curve()];
#'   for metric tables, the metrics.
#' @section Errors: `prdcurve_error_replicates` when `x` has no
#'   replicates; `prdcurve_error_model` when it has one model or
#'   `baseline` is not one of them; `prdcurve_error_input` for a bad
#'   `conf_level`.
#' @references Shao, J. and Wu, C. F. J. (1989). A general theory for
#'   jackknife variance estimation. Annals of Statistics 17(3),
#'   1176-1197. \doi{10.1214/aos/1176347263}.
#' @examples
#' set.seed(1)
#' real <- matrix(rnorm(300 * 4), ncol = 4)
#' models <- list(same = matrix(rnorm(300 * 4), ncol = 4),
#'                shifted = matrix(rnorm(300 * 4, mean = 0.5), ncol = 4))
#' cv <- prd_curve(real, models, method = "knn", replicates = 20)
#' cmp <- prd_compare(cv, baseline = "same")
#' cmp[cmp$statistic %in% c("auc", "max_precision", "max_recall"), ]
#' @export
prd_compare <- function(x, baseline = NULL, conf_level = 0.9, ...) {
  conf_level <- check_level(conf_level)
  long <- replicate_statistics(x, ...)
  est <- long$estimates
  reps <- long$replicates
  models <- unique(est$model)
  if (length(models) < 2L) {
    prd_abort("{.arg x} must hold at least two models to compare.", "model")
  }
  if (is.null(baseline)) baseline <- models[1]
  baseline <- check_string(baseline)
  if (!baseline %in% models) {
    prd_abort(c("{.arg baseline} must be one of the models of {.arg x}.",
                "x" = "Models: {.val {models}}."), "model")
  }
  keys <- c("method", "k", "statistic")
  base_est <- est[est$model == baseline, , drop = FALSE]
  base_rep <- reps[reps$model == baseline, , drop = FALSE]
  rows <- list()
  for (m in setdiff(models, baseline)) {
    e <- est[est$model == m, , drop = FALSE]
    for (i in seq_len(nrow(e))) {
      match_key <- function(tab) {
        tab$statistic == e$statistic[i] &
          vctrs::vec_equal(tab$method, e$method[i], na_equal = TRUE) &
          vctrs::vec_equal(tab$k, e$k[i], na_equal = TRUE)
      }
      b <- base_est[match_key(base_est), , drop = FALSE]
      if (!nrow(b)) next
      rm <- reps[reps$model == m, , drop = FALSE]
      rm <- rm[match_key(rm), , drop = FALSE]
      rb <- base_rep[match_key(base_rep), , drop = FALSE]
      rb <- rb[match(rm$replicate, rb$replicate), , drop = FALSE]
      diff <- e$estimate[i] - b$estimate[1]
      ok <- is.finite(rm$value - rb$value)
      ci <- if (sum(ok) >= 2L) {
        replicate_interval(diff, (rm$value - rb$value)[ok], long$fraction,
                           conf_level)
      } else {
        c(lower = NA_real_, upper = NA_real_)
      }
      rows[[length(rows) + 1L]] <- tibble::tibble(
        model = m, baseline = baseline, method = e$method[i], k = e$k[i],
        statistic = e$statistic[i], estimate = diff,
        lower = ci[["lower"]], upper = ci[["upper"]]
      )
    }
  }
  vctrs::vec_rbind(!!!rows)
}

#' Estimates and replicate values of every statistic, long:
#' list(estimates = (model, method, k, statistic, estimate),
#'      replicates = (model, method, k, statistic, replicate, value),
#'      fraction)
#' @noRd
replicate_statistics <- function(x, ..., call = rlang::caller_env()) {
  if (inherits(x, "prd_curve")) {
    s <- summary(x, ...)
    stats <- curve_statistic_names
    est <- long_stats(s, stats)
    info <- prd_curve_info(x)
    has <- !vapply(info$replicates, is.null, logical(1))
    if (!any(has)) {
      prd_abort(c("{.arg x} has no replicates.",
                  "i" = "Compute it with {.code replicates = 50} or more."),
                "replicates", call = call)
    }
    reps <- list()
    for (i in which(has)) {
      rc <- info$replicates[[i]]
      for (r in unique(rc$replicate)) {
        cv <- rc[rc$replicate == r, , drop = FALSE]
        v <- curve_stats(cv$lambda, cv$precision, cv$recall, ...)
        reps[[length(reps) + 1L]] <- tibble::tibble(
          model = info$model[i], method = info$method[i], k = info$k[i],
          statistic = names(v), replicate = r, value = unname(v))
      }
    }
    return(list(estimates = est, replicates = vctrs::vec_rbind(!!!reps),
                fraction = info$fraction[which(has)[1]]))
  }
  if (inherits(x, "prd_metrics")) {
    reps <- attr(x, "replicates")
    if (is.null(reps)) {
      prd_abort(c("{.arg x} has no replicates.",
                  "i" = "Compute it with {.code replicates = 50} or more."),
                "replicates", call = call)
    }
    est <- tibble::tibble(model = x$model, method = NA_character_, k = x$k,
                          statistic = x$metric, estimate = x$value)
    rp <- tibble::tibble(model = reps$model, method = NA_character_,
                         k = reps$k, statistic = reps$metric,
                         replicate = reps$replicate, value = reps$value)
    return(list(estimates = est, replicates = rp,
                fraction = attr(x, "fraction")))
  }
  prd_abort("{.arg x} must be a {.cls prd_curve} or a metrics table of this package.",
            "input", call = call)
}

long_stats <- function(s, stats) {
  n <- nrow(s)
  col <- function(nm, na) if (nm %in% names(s)) s[[nm]] else rep(na, n)
  vctrs::vec_rbind(!!!lapply(stats, function(st) {
    tibble::tibble(model = as.character(col("model", NA_character_)),
                   method = as.character(col("method", NA_character_)),
                   k = as.integer(col("k", NA_integer_)),
                   statistic = st, estimate = s[[st]])
  }))
}
