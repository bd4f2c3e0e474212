# The result class of the scalar-metric functions (manifold_metrics(),
# entropy_metrics()): one long shape, a tibble with columns model, metric,
# k, value (and lower, upper with replicates).

#' Build a scalar-metric result
#' @param values a tibble with columns model, metric, k, value.
#' @param ... attributes (sizes, split, ...).
#' @noRd
new_prd_metrics <- function(values, ...) {
  out <- tibble::new_tibble(values[c("model", "metric", "k", "value")],
                            nrow = nrow(values), class = "prd_metrics")
  attrs <- list(...)
  for (nm in names(attrs)) attr(out, nm) <- attrs[[nm]]
  out
}

#' Add replicate values (attribute) and the lower, upper columns
#' @param bounded metrics whose intervals are clamped to [0, 1].
#' @noRd
attach_metric_replicates <- function(out, reps, bounded = character(),
                                     conf_level = 0.9) {
  long <- vctrs::vec_rbind(!!!lapply(seq_along(reps$results), function(r) {
    tibble::tibble(replicate = r, reps$results[[r]])
  }))
  lower <- upper <- rep(NA_real_, nrow(out))
  for (i in seq_len(nrow(out))) {
    hit <- long$model == out$model[i] & long$metric == out$metric[i] &
      long$k == out$k[i]
    vals <- long$value[hit]
    vals <- vals[is.finite(vals)]
    if (length(vals) >= 2L && is.finite(out$value[i])) {
      b <- out$metric[i] %in% bounded
      ci <- replicate_interval(out$value[i], vals, reps$fraction, conf_level,
                               lower_bound = if (b || out$metric[i] == "density") 0 else -Inf,
                               upper_bound = if (b) 1 else Inf)
      lower[i] <- ci[["lower"]]
      upper[i] <- ci[["upper"]]
    }
  }
  out$lower <- lower
  out$upper <- upper
  attr(out, "replicates") <- long[c("replicate", "model", "metric", "k",
                                    "value")]
  attr(out, "fraction") <- reps$fraction
  attr(out, "conf_level") <- conf_level
  out
}

#' @export
tbl_sum.prd_metrics <- function(x, ...) {
  n_rep <- attr(x, "replicates")
  info <- c()
  sp <- attr(x, "split")
  if (!is.null(sp)) info <- c(info, if (identical(sp, 0)) "no split" else
    paste0("split ", sp))
  if (!is.null(n_rep)) {
    info <- c(info, paste0(length(unique(n_rep$replicate)),
                           " half-sample replicates, ",
                           format(100 * attr(x, "conf_level")), "% intervals"))
  }
  c("Metrics" = paste0(length(unique(x$model)), " model",
                       if (length(unique(x$model)) != 1L) "s", ", ",
                       length(unique(x$metric)), " metric",
                       if (length(unique(x$metric)) != 1L) "s",
                       if (length(info)) paste0(" (", paste(info, collapse = "; "), ")")))
}
