# The registry of manifold_metrics(): each metric one row declaring the engine
# quantities it needs, its value from them, its bounds and its doc line.

manifold_metric <- function(name, needs, value, doc, per_k = TRUE,
                            lower = 0, upper = 1, over = NA_character_) {
  list(name = name, needs = needs, value = value, doc = doc, per_k = per_k,
       lower = lower, upper = upper, over = over)
}

share <- function(m, thr) colMeans(m >= thr)

manifold_registry <- local({
  r <- list(
    manifold_metric("precision", "ipr", function(q) share(q$ipr_gen, 1),
      "share of generated samples inside some real k-NN ball (Kynkaanniemi et al. 2019)",
      over = "generated"),
    manifold_metric("recall", "ipr", function(q) share(q$ipr_real, 1),
      "share of real samples inside some generated k-NN ball (Kynkaanniemi et al. 2019)",
      over = "real"),
    manifold_metric("density", "ipr",
      function(q) colSums(q$ipr_gen) / (q$k * q$n_ey),
      "mean number of real k-NN balls holding a generated sample, over k (Naeem et al. 2020); unbounded above",
      upper = Inf),
    manifold_metric("coverage", "coverage", function(q) share(q$cov_real, 1),
      "share of real samples whose own k-NN ball holds a generated sample (Naeem et al. 2020)",
      over = "real"),
    manifold_metric("c_precision", "coverage", function(q) share(q$cov_gen, 1),
      "share of generated samples whose own k-NN ball holds a real sample (Khayatkhoei and AbdAlmageed 2023)",
      over = "generated"),
    manifold_metric("sym_precision", c("ipr", "coverage"),
      function(q) pmin(share(q$ipr_gen, 1), share(q$cov_gen, 1)),
      "min(precision, c_precision) (Khayatkhoei and AbdAlmageed 2023, eq. 5)",
      over = "generated"),
    manifold_metric("sym_recall", c("ipr", "coverage"),
      function(q) pmin(share(q$ipr_real, 1), share(q$cov_real, 1)),
      "min(recall, coverage) (Khayatkhoei and AbdAlmageed 2023, eq. 6)",
      over = "real"),
    manifold_metric("prc_precision", "coverage",
      function(q) share(q$cov_gen, q$k_prime),
      "share of generated samples with at least k_prime real samples in their own k-NN ball (Cheema and Urner 2023)",
      over = "generated"),
    manifold_metric("prc_recall", "coverage",
      function(q) share(q$cov_real, q$k_prime),
      "share of real samples with at least k_prime generated samples in their own k-NN ball (Cheema and Urner 2023)",
      over = "real"),
    manifold_metric("p_precision", "ppr", function(q) mean(q$p_gen),
      "mean over generated samples of 1 - prod(1 - tau) over the real balls of radius R (Park and Kim 2023); one value, at ppr_k",
      per_k = FALSE, over = "generated"),
    manifold_metric("p_recall", "ppr", function(q) mean(q$p_real),
      "mean over real samples of 1 - prod(1 - tau) over the generated balls (Park and Kim 2023); one value, at ppr_k",
      per_k = FALSE, over = "real")
  )
  stats::setNames(r, vapply(r, `[[`, "", "name"))
})

#' The metrics of manifold_metrics(), in output order (the registry's).
#' @noRd
manifold_metric_names <- function() names(manifold_registry)

#' Bounds of a metric for interval clamping: c(lower, upper) (NULL: not a
#' manifold metric)
#' @noRd
manifold_bounds <- function(m) {
  r <- manifold_registry[[m]]
  # (the embedding metrics' bounds: embedding_metrics())
  if (is.null(r)) r <- embedding_registry[[m]]
  if (is.null(r)) NULL else c(r$lower, r$upper)
}

#' The set a share metric (or a mean of terms in [0, 1]) counts over
#' ("real", "generated"), NA for the others (and for names not in the
#' registry): its intervals also hold the Wilson interval
#' (metric_intervals())
#' @noRd
manifold_over <- function(m) {
  r <- manifold_registry[[m]]
  if (is.null(r) || is.null(r$over)) NA_character_ else r$over
}

#' The docs of `metrics`, from the registry (roxygen inline code)
#' @noRd
manifold_metrics_doc <- function() {
  paste0("* `\"", names(manifold_registry), "\"`: ",
         vapply(manifold_registry, `[[`, "", "doc"), collapse = "\n")
}
