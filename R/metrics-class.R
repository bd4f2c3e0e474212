# The result class of the scalar-metric functions (manifold_metrics(),
# entropy_metrics()): one long shape, a tibble with columns model, metric,
# k, value (and lower, upper with replicates).

#' Build a scalar-metric result (the one constructor of the class)
#' @param values a tibble with columns model, metric, k, value (and lower,
#'   upper, kept where present: tables bound by prd_bind() or the command
#'   line).
#' @param ... attributes (sizes, split, ...).
#' @noRd
new_prd_metrics <- function(values, ...) {
  cols <- intersect(c("model", "metric", "k", "value", "lower", "upper"),
                    names(values))
  out <- tibble::new_tibble(as.list(values)[cols],
                            nrow = nrow(values), class = "prd_metrics")
  attrs <- list(...)
  for (nm in names(attrs)) attr(out, nm) <- attrs[[nm]]
  out
}

#' Add replicate values (attribute) and the lower, upper columns
#' @noRd
attach_metric_replicates <- function(out, reps, conf_level = 0.9) {
  long <- vctrs::vec_rbind(!!!lapply(seq_along(reps$results), function(r) {
    tibble::tibble(replicate = r, reps$results[[r]])
  }))
  long <- long[c("replicate", "model", "metric", "k", "value")]
  ci <- metric_intervals(out, long, reps$divisor, conf_level)
  out$lower <- ci$lower
  out$upper <- ci$upper
  attr(out, "replicates") <- long
  attr(out, "divisor") <- reps$divisor
  attr(out, "conf_level") <- conf_level
  # the fingerprints of the real set and of its draws, per model (shared
  # by the models of one call; prd_bind() binds those of several calls)
  models <- unique(out$model)
  attr(out, "real_set") <- stats::setNames(rep(reps$real_set, length(models)), models)
  attr(out, "real_draws") <- stats::setNames(rep(reps$real_draws, length(models)),
                                             models)
  out
}

#' Intervals of every row of a metrics table from its replicate values,
#' clamped to the metric's range: [0, 1] for the manifold metrics but
#' density ([0, Inf)), none for the entropy metrics. A share of n
#' evaluation rows (precision, recall, coverage, ...: the registry's
#' `over`) also holds the Wilson score interval of the share (Wilson
#' 1927): at 0 or 1 every half-sample gives the same value and the
#' half-sample interval alone has width 0 (it covered its own mean in 8%
#' of the draws there, bench/results.md).
#' @noRd
metric_intervals <- function(x, reps, divisor, conf_level) {
  lower <- upper <- rep(NA_real_, nrow(x))
  sizes <- attr(x, "eval_sizes")
  for (i in seq_len(nrow(x))) {
    hit <- reps$model == x$model[i] & reps$metric == x$metric[i] &
      vctrs::vec_equal(reps$k, x$k[i], na_equal = TRUE)
    if (!any(hit)) next
    b <- manifold_bounds(x$metric[i])
    if (is.null(b)) b <- c(-Inf, Inf)
    ci <- replicate_interval(
      x$value[i], reps$value[hit], reps$replicate[hit], divisor, conf_level,
      lower_bound = b[1], upper_bound = b[2])
    over <- manifold_over(x$metric[i])
    if (!is.na(over) && !is.null(sizes) && !anyNA(ci) &&
        x$model[i] %in% rownames(sizes)) {
      w <- wilson_interval(x$value[i], sizes[x$model[i], paste0("eval_", over)],
                           conf_level)
      ci <- c(lower = min(ci[["lower"]], w[["lower"]]),
              upper = max(ci[["upper"]], w[["upper"]]))
    }
    lower[i] <- ci[["lower"]]
    upper[i] <- ci[["upper"]]
  }
  list(lower = lower, upper = upper)
}

#' The Wilson score interval of a share p of n rows at level conf_level
#' (Wilson 1927, JASA 22: 209-212, doi:10.1080/01621459.1927.10502953):
#' centre (p + z^2 / 2n) / (1 + z^2 / n), half-width
#' z / (1 + z^2 / n) sqrt(p (1 - p) / n + z^2 / 4n^2), inside [0, 1].
#' @noRd
wilson_interval <- function(p, n, conf_level) {
  if (!is.finite(p) || !is.finite(n) || n < 1) {
    return(c(lower = NA_real_, upper = NA_real_))
  }
  z <- stats::qnorm((1 + conf_level) / 2)
  a <- z^2 / n
  centre <- (p + a / 2) / (1 + a)
  half <- z / (1 + a) * sqrt(p * (1 - p) / n + a / (4 * n))
  c(lower = max(0, centre - half), upper = min(1, centre + half))
}

#' Newcombe's hybrid score interval of a difference p1 - p2 of two shares
#' of n1 and n2 rows (Newcombe 1998, Statistics in Medicine 17: 873-890,
#' doi:10.1002/(SICI)1097-0258(19980430)17:8<873::AID-SIM779>3.0.CO;2-I,
#' method 10), from the Wilson intervals (l1, u1) and (l2, u2) of the two:
#' lower = d - sqrt((p1 - l1)^2 + (u2 - p2)^2),
#' upper = d + sqrt((u1 - p1)^2 + (p2 - l2)^2), d = p1 - p2. It treats
#' the shares as independent: for two shares of the same rows (a recall of
#' two models over the real set), which are positively correlated, it is
#' conservative.
#' @noRd
newcombe_interval <- function(p1, n1, p2, n2, conf_level) {
  w1 <- wilson_interval(p1, n1, conf_level)
  w2 <- wilson_interval(p2, n2, conf_level)
  d <- p1 - p2
  c(lower = d - sqrt((p1 - w1[["lower"]])^2 + (w2[["upper"]] - p2)^2),
    upper = d + sqrt((w1[["upper"]] - p1)^2 + (p2 - w2[["lower"]])^2))
}

#' @export
tbl_sum.prd_metrics <- function(x, ...) {
  n_rep <- attr(x, "replicates")
  info <- c()
  sp <- attr(x, "split")
  if (!is.null(sp)) info <- c(info, if (identical(sp, 0)) "no split" else
    paste0("split ", sp))
  if (!is.null(n_rep) && nrow(n_rep)) {
    # per model (tables bound with prd_bind() may hold different counts)
    per <- range(vapply(split(n_rep$replicate, n_rep$model), function(r) {
      length(unique(r))
    }, integer(1)))
    info <- c(info, paste0(if (per[1] == per[2]) per[1] else
                             paste0(per[1], "-", per[2]),
                           " complementary half-samples, ",
                           format(100 * attr(x, "conf_level")), "% intervals"))
  }
  # without the model column (not selected), the models' names kept
  # with the rows (R/table-labels.R), listed
  col <- function(nm) if (nm %in% names(x)) x[[nm]]
  models <- unique(if ("model" %in% names(x)) x$model else attr(x, "row_labels"))
  named <- if (!"model" %in% names(x) && length(models)) {
    paste0(" (", paste(models, collapse = ", "), ")")
  }
  metrics <- unique(col("metric"))
  c("Metrics" = paste0(length(models), " model",
                       if (length(models) != 1L) "s", named,
                       if (length(metrics)) paste0(", ", length(metrics), " metric",
                                                   if (length(metrics) != 1L) "s"),
                       if (length(info)) paste0(" (", paste(info, collapse = "; "), ")")))
}

#' The 0.1.0 argument order of the metric functions had `k` third: a
#' number where `metrics` now stands is taken as `k` (with a classed
#' deprecation warning); a character vector in the `k` position is then
#' the metrics.
#' @noRd
legacy_k_first <- function(fn, metrics, k, k_missing, all_metrics) {
  prd_warn(c(
    "The third argument of {.fn {fn}} is now {.arg metrics}; a number there is taken as {.arg k}.",
    "i" = "Name it: {.code {fn}(real, generated, k = {metrics[1]})}."
  ), "deprecated")
  if (!k_missing && is.character(k)) {
    list(k = metrics, metrics = k)
  } else {
    list(k = metrics, metrics = all_metrics)
  }
}
