#' Summaries of a precision-recall curve
#'
#' Scalar summaries of each method's curve (Sykes et al. 2024, section
#' 4.4), computed from the curve's rows in polar form: the point at
#' \eqn{\lambda} lies on the ray \eqn{\alpha = \lambda\beta} at angle
#' \eqn{\theta = \arctan\lambda}, with squared radius
#' \eqn{\rho^2 = \alpha^2 + \beta^2}.
#'
#' * `auc`: area of the PR set, \eqn{\int_0^{\pi/2} \rho(\theta)^2/2\,
#'   d\theta} (1 for P = Q), as the area of the polygon through the
#'   curve's points and the origin (a fan of triangles, one per pair of
#'   neighbouring angles). Every triangle lies in the unit square, so the
#'   area never exceeds 1, and it is exact for P = Q whenever the grid
#'   holds \eqn{\lambda = 1} (every odd `angles`). On a smooth curve the
#'   difference from the integral is below 1e-6 at the default 1001
#'   angles. (The trapezoid rule on \eqn{\rho^2}, used before version
#'   0.4, overestimated on coarse grids: 1.008 for P = Q with 11 angles.)
#' * `max_precision` \eqn{\alpha_\infty} and `max_recall` \eqn{\beta_0}.
#' * `f_beta_precision` \eqn{\max_\lambda (1 + b^2)\alpha\beta / (b^2\beta
#'   + \alpha)} and `f_beta_recall` \eqn{\max_\lambda (1 + b^2)\alpha\beta /
#'   (b^2\alpha + \beta)}, b = `beta` = 8. Sajjadi et al. (2018) call the
#'   second \eqn{F_8} (recall) and the first \eqn{F_{1/8}} (precision).
#' * The PR median: `median_lambda` \eqn{\bar\lambda = \tan\bar\theta}
#'   where the ray \eqn{\bar\theta} halves the area, and the curve's
#'   `median_precision`, `median_recall` there.
#' * `precision_at_recall` \eqn{\alpha@\epsilon}: the curve's precision at
#'   recall \eqn{\epsilon} (0 if \eqn{\beta_0 < \epsilon}), and
#'   `recall_at_precision` \eqn{\beta@\epsilon}, \eqn{\epsilon} =
#'   `epsilon` = 0.05 (linear interpolation between grid points).
#'
#' With replicates ([prd_curve()] with `replicates > 0`), every statistic
#' gets an interval: columns `<statistic>_lower` and `<statistic>_upper`
#' next to it, from the complementary half-sample replicates (random
#' groups; see the section Intervals of [prd_curve()]), clamped to the
#' statistic's range. `max_precision` is a share of the generated
#' evaluation rows (those the classifier, at its extreme threshold, cannot
#' tell from real ones) and `max_recall` one of the real evaluation rows;
#' where one sits at 0 or 1 (to within half a row, in its estimate or in
#' some half-sample) its halves sit there too and their spread is 0 or
#' nearly, so its interval also holds the Wilson score interval of the
#' share (Wilson 1927), as the shares of [manifold_metrics()] do.
#' `median_lambda`'s interval is taken on the scale of the median ray's
#' angle \eqn{\bar\theta = \arctan\bar\lambda}{atan(median_lambda)} in
#' \eqn{[0, \pi/2]}{[0, pi/2]} and
#' mapped back: where a half's curve has (nearly) no area its median ray
#' is arbitrary, up to \eqn{\bar\lambda}{median_lambda} near \eqn{10^{16}}, and the
#' interval then reaches `Inf` (undetermined) instead of such a number; an
#' estimate above \eqn{10^{12}} (a curve with no area, e.g. 0 everywhere)
#' is printed as "undetermined".
#' [prd_compare()]'s differences of `median_lambda` are on the
#' \eqn{\lambda} scale; where a half-sample of either model has such a
#' median ray (\eqn{\bar\lambda > 10^{12}}) their interval is
#' (`-Inf`, `Inf`): compare models by `auc`. The intervals cover the
#' estimator's own mean at these sample sizes, not the true curve, and
#' those of the extremes can be too narrow (the section Intervals of
#' [prd_curve()] has the measured coverage); the printed summary ends with
#' a note that says so.
#'
#' @param object A [prd_curve()] result (any curve of this package, or
#'   several bound with [rbind()] or `dplyr::bind_rows()`).
#' @param beta The weight b of the F-scores (default 8).
#' @param epsilon The level \eqn{\epsilon} of `precision_at_recall` and
#'   `recall_at_precision` (default 0.05).
#' @param conf_level Confidence level of the intervals (default 0.9); used
#'   only when the curves have replicates.
#' @param ... Unused.
#' @return A tibble with one row per curve: the curve's identifying
#'   columns (every column but `lambda`, `precision` and `recall`, so
#'   `model`, `method`, `k` and any column added by the user, such as an
#'   `.id` of `dplyr::bind_rows()`), then `auc`, `max_precision`,
#'   `max_recall`, `f_beta_precision`, `f_beta_recall`, `median_lambda`,
#'   `median_precision`, `median_recall`, `precision_at_recall`,
#'   `recall_at_precision`, each followed by its `_lower` and `_upper`
#'   columns when the curves have replicates. The tibble has class
#'   `prd_curve_summary`, printed compactly (see Details).
#' @section Errors: `prdcurve_error_input` when `beta` or `epsilon` is not
#'   a single positive finite number (`beta` at most 1e150) or `conf_level`
#'   is not in (0, 1); `prdcurve_error_curve` for an invalid curve.
#' @references Sykes, B., Simon, L., Rabin, J. and Fadili, J. (2024),
#'   section 4.4 (AuC, \eqn{F_b}, PR median, \eqn{\alpha@\epsilon}).
#'   Sajjadi, M. S. M. et al. (2018), section 4 (F_8, F_1/8).
#' @examples
#' summary(prd_truth_gaussian(c(0, 0), c(1, 0)))
#' @export
summary.prd_curve <- function(object, beta = 8, epsilon = 0.05,
                              conf_level = 0.9, ...) {
  beta <- check_positive(beta, len = 1, max = 1e150)
  epsilon <- check_positive(epsilon, len = 1)
  conf_level <- check_level(conf_level)
  check_curve(object, "object")
  groups <- split_curves(object)
  rows <- lapply(groups, function(g) {
    cv <- g$rows
    st <- curve_stats(cv$lambda, cv$precision, cv$recall, beta, epsilon)
    out <- g$key
    inf <- info_of(object, key_value(g$key, "model", NA_character_),
                   as.character(cv$method[1]),
                   key_value(g$key, "k", NA_integer_))
    reps <- if (!is.null(inf)) inf$replicates[[1]]
    rep_ids <- if (!is.null(reps)) sort(unique(reps$replicate))
    rep_stats <- if (!is.null(reps)) {
      vapply(split(reps, reps$replicate), function(rc) {
        curve_stats(rc$lambda, rc$precision, rc$recall, beta, epsilon)
      }, numeric(length(st)))
    }
    n_eval <- if (!is.null(inf)) {
      c(real = inf$n_eval_real, generated = inf$n_eval_generated)
    }
    for (nm in names(st)) {
      out[[nm]] <- st[[nm]]
      if (!is.null(reps)) {
        ci <- curve_interval(nm, st[[nm]], rep_stats[nm, ], rep_ids,
                             inf$divisor, conf_level, n_eval)
        out[[paste0(nm, "_lower")]] <- ci[["lower"]]
        out[[paste0(nm, "_upper")]] <- ci[["upper"]]
      }
    }
    out
  })
  out <- tibble::as_tibble(vctrs::vec_rbind(!!!rows))
  out <- tibble::new_tibble(out, nrow = nrow(out), class = "prd_curve_summary")
  attr(out, "conf_level") <- conf_level
  out
}

#' @rdname summary.prd_curve
#' @param x A `summary()` of a curve or of a metrics table.
#' @param digits Decimals of the printed numbers (default 3).
#' @details `print()` and `format()` show the summary compactly: one
#'   column per curve (labelled by its model, method and `k`), one line
#'   per statistic, each value followed by its interval in brackets when
#'   there are replicates. The object itself stays a tibble (use
#'   [tibble::as_tibble()] or `$` for the columns).
#' @export
format.prd_curve_summary <- function(x, digits = 3, ...) {
  if (!any(curve_statistic_names %in% names(x))) {
    return(format(tibble::as_tibble(x), ...))
  }
  df <- as.data.frame(x)
  keys <- setdiff(names(df), c(curve_statistic_names,
                               paste0(curve_statistic_names, "_lower"),
                               paste0(curve_statistic_names, "_upper")))
  labels <- if (length(keys) && nrow(df)) {
    vapply(seq_len(nrow(df)), function(i) {
      curve_label(tibble::as_tibble(df[i, keys, drop = FALSE]))
    }, "")
  } else if (length(attr(x, "row_labels")) == nrow(df)) {
    # the keys were not selected: their names, kept (R/table-labels.R)
    attr(x, "row_labels")
  } else {
    paste0("curve ", seq_len(nrow(df)))
  }
  stats <- intersect(curve_statistic_names, names(df))
  cells <- vapply(seq_len(nrow(df)), function(i) {
    estimate_text(vapply(stats, function(st) df[[st]][i], 0),
                  vapply(stats, function(st) col_or_na(df, paste0(st, "_lower"), i), 0),
                  vapply(stats, function(st) col_or_na(df, paste0(st, "_upper"), i), 0),
                  digits)
  }, character(length(stats)))
  cells <- matrix(cells, nrow = length(stats),
                  dimnames = list(stats, make.unique(labels)))
  # a curve with (nearly) no area has an arbitrary median ray, up to
  # tan(pi / 2) = 1.6e16: printed as such, not as a 17-digit number
  if ("median_lambda" %in% stats) {
    arb <- which(df$median_lambda > median_lambda_undetermined)
    cells["median_lambda", arb] <- "undetermined"
  }
  cells
}

col_or_na <- function(df, nm, i) if (nm %in% names(df)) df[[nm]][i] else NA_real_

#' "0.912 [0.884, 0.940]" (or "0.912" without an interval): `digits`
#' decimals for every number, so columns line up.
#' @noRd
estimate_text <- function(estimate, lower, upper, digits = 3) {
  f <- function(v) {
    out <- formatC(v, format = "f", digits = digits)
    out[is.na(v)] <- "NA"
    out
  }
  est <- vapply(estimate, f, "")
  ci <- !is.na(lower) & !is.na(upper)
  out <- est
  out[ci] <- paste0(est[ci], " [", vapply(lower[ci], f, ""), ", ",
                    vapply(upper[ci], f, ""), "]")
  unname(out)
}

#' @rdname summary.prd_curve
#' @export
print.prd_curve_summary <- function(x, digits = 3, ...) {
  if (!any(curve_statistic_names %in% names(x))) {
    print(tibble::as_tibble(x), ...)
    return(invisible(x))
  }
  level <- attr(x, "conf_level")
  has_ci <- any(grepl("_lower$", names(x)))
  cat("Summary of ", nrow(x), " PR curve", if (nrow(x) != 1L) "s",
      if (has_ci) paste0(" (", format(100 * level), "% intervals from half-sample replicates)"),
      "\n", sep = "")
  if (nrow(x)) {
    print(noquote(format(x, digits = digits)), right = TRUE)
    # (the rows are the statistics only in print: x["auc", ] is no row)
    cat(cli::col_grey("# A tibble: one row per curve, printed as columns (`$auc` is a column)\n"))
  }
  if (has_ci) {
    extremes <- any(c("max_precision_lower", "max_recall_lower") %in% names(x))
    cat(curve_interval_note(extremes = extremes), sep = "\n")
  }
  invisible(x)
}

#' What the printed intervals of a curve summary cover, wrapped to the
#' console width: the estimator's own mean, not the true curve; with
#' `extremes`, that those of the extremes are rough (?prd_curve, section
#' Intervals).
#' @noRd
curve_interval_note <- function(extremes = TRUE, width = getOption("width", 80)) {
  strwrap(paste0("The intervals cover this estimator's mean at these sample sizes, ",
                 "not the true curve (a family's curve estimates an upper bound of it)",
                 if (extremes) "; those of max_precision and max_recall are rough",
                 ". See ?prd_curve, section Intervals."),
           width = max(40, min(width, 80)) - 1)
}

#' Summary of a metrics table
#'
#' One compact view of a [manifold_metrics()] or [entropy_metrics()]
#' result: one line per metric and `k`, one column per model, each value
#' followed by its interval when the table has replicates (recomputed at
#' `conf_level`).
#'
#' @param object A `prd_metrics` table.
#' @param conf_level Confidence level of the intervals (default: the
#'   level the table was computed at).
#' @param ... Unused.
#' @return A tibble of class `prd_metrics_summary` with columns `model`,
#'   `metric`, `k`, `value`, `lower`, `upper` (`NA` without replicates),
#'   printed as the compact table described above.
#' @section Errors: `prdcurve_error_input` for a bad `conf_level` or an
#'   `object` that is not a metrics table.
#' @examples
#' set.seed(1)
#' real <- matrix(rnorm(200 * 4), ncol = 4)
#' models <- list(a = matrix(rnorm(200 * 4), ncol = 4),
#'                b = matrix(rnorm(200 * 4, mean = 0.5), ncol = 4))
#' summary(manifold_metrics(real, models, metrics = c("precision", "recall"),
#'                          replicates = 10))
#' @export
summary.prd_metrics <- function(object, conf_level = NULL, ...) {
  check_metrics(object, "object")
  level <- attr(object, "conf_level")
  conf_level <- if (is.null(conf_level)) (if (is.null(level)) 0.9 else level) else
    check_level(conf_level)
  td <- tidy(object, conf.level = conf_level)
  out <- tibble::tibble(model = td$model, metric = td$term, k = td$k,
                        value = td$estimate, lower = td$conf.low,
                        upper = td$conf.high)
  out <- tibble::new_tibble(out, nrow = nrow(out), class = "prd_metrics_summary")
  attr(out, "conf_level") <- if (is.null(attr(object, "replicates"))) NULL else conf_level
  out
}

#' @rdname summary.prd_metrics
#' @param x A `prd_metrics_summary`.
#' @param digits Decimals of the printed numbers (default 3).
#' @export
format.prd_metrics_summary <- function(x, digits = 3, ...) {
  if (!all(c("model", "metric", "k", "value") %in% names(x))) {
    return(format(tibble::as_tibble(x), ...))
  }
  rows <- unique(paste0(x$metric, ifelse(is.na(x$k), "", paste0(" (k = ", x$k, ")"))))
  row_of <- paste0(x$metric, ifelse(is.na(x$k), "", paste0(" (k = ", x$k, ")")))
  models <- unique(x$model)
  cells <- matrix("", length(rows), length(models),
                  dimnames = list(rows, models))
  txt <- estimate_text(x$value, x$lower, x$upper, digits)
  cells[cbind(match(row_of, rows), match(x$model, models))] <- txt
  cells
}

#' @rdname summary.prd_metrics
#' @export
print.prd_metrics_summary <- function(x, digits = 3, ...) {
  if (!all(c("model", "metric", "k", "value") %in% names(x))) {
    print(tibble::as_tibble(x), ...)
    return(invisible(x))
  }
  level <- attr(x, "conf_level")
  cat("Metrics of ", length(unique(x$model)), " model",
      if (length(unique(x$model)) != 1L) "s",
      if (!is.null(level)) paste0(" (", format(100 * level), "% intervals from half-sample replicates)"),
      "\n", sep = "")
  if (nrow(x)) {
    print(noquote(format(x, digits = digits)), right = TRUE)
    cat(cli::col_grey("# A tibble, one row per model, metric and k (`$value` is a column)\n"))
  }
  invisible(x)
}

#' The set whose evaluation rows a curve statistic is a share of: at
#' lambda -> Inf the precision alpha is the share of the generated
#' evaluation rows the classifier cannot tell from real ones, at lambda ->
#' 0 the recall beta that of the real rows; NA for the other statistics
#' @noRd
curve_share_over <- function(statistic) {
  switch(statistic, max_precision = "generated", max_recall = "real",
         NA_character_)
}

#' The interval of one curve statistic from its replicate values: the
#' half-sample interval, clamped to [0, 1] (median_lambda: that of its
#' angle atan(median_lambda) in [0, pi/2], mapped back by tan()); for
#' max_precision and max_recall, shares of n_eval[[set]] evaluation rows,
#' at their bound (0 or 1 in the estimate or in some half) also the Wilson
#' score interval, as for the shares of manifold_metrics()
#' (metric_intervals()): the halves sit at the bound too, and their
#' spread, 0 or nearly, says nothing of the estimate's.
#' @noRd
curve_interval <- function(statistic, estimate, values, ids, divisor,
                           conf_level, n_eval = NULL) {
  if (statistic == "median_lambda") {
    # on the scale of the median ray's angle, theta = atan(lambda) in
    # [0, pi/2]: a half whose curve has (nearly) no area has an arbitrary
    # median ray, up to lambda = tan(pi/2) = 1.6e16, which on the lambda
    # scale alone made intervals such as [0, 1.3e16]
    ci <- replicate_interval(atan(estimate), atan(values), ids, divisor,
                             conf_level, lower_bound = 0, upper_bound = pi / 2)
    if (anyNA(ci)) return(ci)
    top <- ci[["upper"]] >= pi / 2 - 1e-9
    return(c(lower = tan(ci[["lower"]]),
             upper = if (top) Inf else tan(ci[["upper"]])))
  }
  ci <- replicate_interval(estimate, values, ids, divisor, conf_level,
                           lower_bound = 0, upper_bound = 1)
  over <- curve_share_over(statistic)
  if (is.na(over) || anyNA(ci) || is.null(n_eval)) return(ci)
  n <- as.numeric(n_eval[[over]])
  if (is.na(n) || n < 1 || !at_share_bound(c(estimate, values), n)) return(ci)
  w <- wilson_interval(estimate, n, conf_level)
  c(lower = min(ci[["lower"]], w[["lower"]]),
    upper = max(ci[["upper"]], w[["upper"]]))
}

#' The statistics of summary.prd_curve(), in output order.
#' @noRd
curve_statistic_names <- c("auc", "max_precision", "max_recall",
                           "f_beta_precision", "f_beta_recall",
                           "median_lambda", "median_precision",
                           "median_recall", "precision_at_recall",
                           "recall_at_precision")

#' The area of one curve (the `auc` of curve_stats(), alone): its rows in
#' the order of lambda.
#' @noRd
curve_auc <- function(lambda, precision, recall) {
  o <- order(lambda)
  area <- fan_area(recall[o], precision[o])
  area[length(area)]
}

#' The summary statistics of one curve (rows in any order).
#' @noRd
curve_stats <- function(lambda, precision, recall, beta = 8, epsilon = 0.05) {
  o <- order(lambda)
  lambda <- lambda[o]
  a <- precision[o]
  b <- recall[o]
  theta <- atan(lambda)
  area <- fan_area(b, a)
  total <- area[length(area)]
  th_med <- stats::approx(area, theta, xout = total / 2, ties = "ordered")$y
  b2 <- beta^2
  pos <- a > 0 & b > 0
  fp <- rep(0, length(a))
  fr <- rep(0, length(a))
  # (1 + b2) a b / (b2 b + a), divided through by b2 when b2 >= 1 so that
  # it stays finite for huge and tiny beta
  ap <- a[pos]
  bp <- b[pos]
  if (b2 >= 1) {
    fp[pos] <- ap * bp * (1 / b2 + 1) / (bp + ap / b2)
    fr[pos] <- ap * bp * (1 / b2 + 1) / (ap + bp / b2)
  } else {
    fp[pos] <- (1 + b2) * ap * bp / (b2 * bp + ap)
    fr[pos] <- (1 + b2) * ap * bp / (b2 * ap + bp)
  }
  c(auc = total,
    max_precision = a[theta == max(theta)][1],
    max_recall = b[theta == min(theta)][1],
    f_beta_precision = max(fp),
    f_beta_recall = max(fr),
    median_lambda = tan(th_med),
    median_precision = stats::approx(theta, a, xout = th_med)$y,
    median_recall = stats::approx(theta, b, xout = th_med)$y,
    precision_at_recall = frontier_at(b, a, epsilon),
    recall_at_precision = frontier_at(a, b, epsilon))
}

#' The curves of a prd_curve object: one group per combination of the
#' identifying columns (every column but lambda, precision, recall), in
#' order of first appearance; rows ordered by lambda.
#' @noRd
split_curves <- function(x) {
  df <- as.data.frame(x)
  key_cols <- setdiff(names(df), c("lambda", "precision", "recall"))
  id <- if (length(key_cols)) vctrs::vec_group_id(df[key_cols]) else
    structure(rep(1L, nrow(df)), n = 1L)
  lapply(seq_len(attr(id, "n")), function(g) {
    rows <- df[id == g, , drop = FALSE]
    rows <- rows[order(rows$lambda), , drop = FALSE]
    list(key = tibble::as_tibble(rows[1L, key_cols, drop = FALSE]),
         rows = rows)
  })
}

key_value <- function(key, nm, na) if (nm %in% names(key)) key[[nm]] else na

#' Curve label: the identifying columns joined by "/" (k as "k=5")
#' @noRd
curve_label <- function(key) {
  vals <- vapply(key, function(v) as.character(v), "")
  keep <- !is.na(vals)
  if ("k" %in% names(vals) && sum(keep) > 1L && keep[["k"]]) {
    vals[["k"]] <- paste0("k=", vals[["k"]])
  }
  paste(vals[keep], collapse = "/")
}

#' The curves as plain data frames, in increasing lambda order.
#' @noRd
split_methods <- function(curve) lapply(split_curves(curve), `[[`, "rows")

curve_polar <- function(cv) {
  list(theta = atan(cv$lambda), rho2 = cv$precision^2 + cv$recall^2)
}

#' Cumulative area of the polygon origin - (x_1, y_1) - ... - (x_n, y_n),
#' points in increasing angle: the triangles (0, p_i, p_{i+1}) (half the
#' cross product). Each lies in the unit square when the points do, so the
#' total is at most 1.
#' @noRd
fan_area <- function(x, y) {
  n <- length(x)
  if (n < 2L) return(0)
  c(0, cumsum(pmax(x[-n] * y[-1] - y[-n] * x[-1], 0) / 2))
}

cumulative_area <- function(theta, rho2) {
  n <- length(theta)
  c(0, cumsum(diff(theta) * (rho2[-1] + rho2[-n]) / 4))
}

#' The value of `y` where the monotone frontier reaches `x = eps`
#' (0 when x never reaches eps).
#' @noRd
frontier_at <- function(x, y, eps) {
  if (max(x) < eps) return(0)
  if (min(x) >= eps) return(max(y))
  o <- order(x, y)
  stats::approx(x[o], y[o], xout = eps, ties = max)$y
}

#' Intersection over union of two PR curves
#'
#' The Jaccard index of the two PR sets, which are star-shaped from the
#' origin: \eqn{\int \min(\rho_1^2, \rho_2^2)\,d\theta / \int
#' \max(\rho_1^2, \rho_2^2)\,d\theta} over \eqn{\theta \in [0, \pi/2]}
#' (Sykes et al. 2024, section 4.4). Curves on different \eqn{\lambda} grids
#' are interpolated (linearly in \eqn{\theta}) on the union of their grids.
#'
#' @param curve1,curve2 `prd_curve` objects. `curve2` has one curve
#'   without a `model` (compared with every curve of `curve1`), the same
#'   curves as `curve1`,
#'   identified by their `model`, `method` and `k` columns (compared curve
#'   by curve), or one curve per model of `curve1`, identified by `model`
#'   (each model's true curve, compared with each of its estimates).
#' @return A named numeric vector, one IoU in \[0, 1\] per curve of
#'   `curve1`, named by the columns that tell the curves of `curve1` apart
#'   (the method for a single model and `k`; otherwise
#'   `"model/method/k=.."`). Two curves that are both the origin (empty PR
#'   sets) have IoU 1.
#' @section Errors: `prdcurve_error_curve` for inputs that are not valid
#'   curves (columns `method`, `lambda`, `precision`, `recall`, at least 2
#'   rows, precision and recall in \[0, 1\]) or a `curve2` whose curves
#'   neither are one nor match those of `curve1` nor its models.
#' @references Sykes, B., Simon, L., Rabin, J. and Fadili, J. (2024),
#'   sections 4.4 and 5.1 (IoU of an estimated curve with the ground
#'   truth).
#' @examples
#' truth <- prd_truth_gaussian(c(0, 0), c(1, 0))
#' square <- prd_discrete(1, 1)
#' prd_iou(truth, square)
#' @export
prd_iou <- function(curve1, curve2) {
  check_curve(curve1, "curve1")
  check_curve(curve2, "curve2")
  c1 <- split_curves(curve1)
  c2 <- split_curves(curve2)
  l1 <- distinct_labels(c1)
  l2 <- distinct_labels(c2)
  model_of <- function(cs) {
    vapply(cs, function(g) as.character(key_value(g$key, "model", NA_character_)), "")
  }
  m1 <- model_of(c1)
  m2 <- model_of(c2)
  # curves of curve2 that each carry a model of their own (each model's
  # true curve) are matched by model; a single one is that model's alone
  by_model <- !setequal(l1, l2) && !anyNA(m2) && !anyDuplicated(m2) &&
    !all(is.na(m1))
  if (!setequal(l1, l2) && (if (by_model) !all(m1 %in% m2) else length(c2) != 1L)) {
    prd_abort(c(
      "{.arg curve2} must have one curve, the same curves as {.arg curve1}, or one curve per model of {.arg curve1} (matched by {.field model}).",
      "x" = "{.arg curve1} has {.val {l1}}, {.arg curve2} has {.val {l2}}."
    ), "curve")
  }
  out <- vapply(seq_along(c1), function(i) {
    other <- if (by_model) c2[[match(m1[i], m2)]] else
      if (length(c2) == 1L) c2[[1]] else c2[[match(l1[i], l2)]]
    iou_polar(curve_polar(c1[[i]]$rows), curve_polar(other$rows))
  }, numeric(1))
  stats::setNames(out, l1)
}

#' Labels of curves from the key columns that vary between them (the
#' method alone when nothing else varies).
#' @noRd
distinct_labels <- function(groups) {
  keys <- vctrs::vec_rbind(!!!lapply(groups, `[[`, "key"))
  vary <- vapply(keys, function(v) length(unique(v)) > 1L, logical(1))
  if ("method" %in% names(keys)) vary[["method"]] <- TRUE
  keys <- keys[vary]
  vapply(seq_len(nrow(keys)), function(i) curve_label(keys[i, ]), "")
}

iou_polar <- function(p1, p2) {
  th <- sort(unique(c(p1$theta, p2$theta)))
  r1 <- stats::approx(p1$theta, p1$rho2, xout = th, ties = mean, rule = 2)$y
  r2 <- stats::approx(p2$theta, p2$rho2, xout = th, ties = mean, rule = 2)$y
  lo <- cumulative_area(th, pmin(r1, r2))
  hi <- cumulative_area(th, pmax(r1, r2))
  # two empty PR sets (the origin) are identical: IoU 1
  if (hi[length(hi)] == 0) return(1)
  lo[length(lo)] / hi[length(hi)]
}
