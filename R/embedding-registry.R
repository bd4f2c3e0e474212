# The registry of the embedding metrics (embedding_metrics(), R/embedding.R;
# SPEC.md section 8): one entry per metric, from which the default
# `metrics`, the work embedding_core() does and the docs of `metrics` follow.
#
# Each entry says what the metric needs ("moments": both sets' means and
# covariances; "poly", "rbf", "dist": pair sums of that kernel over X x X,
# Y x Y and X x Y; "nearest": each generated row's nearest real row and the
# real rows' own nearest-neighbour radii; "held_out"; "propensity": the
# logit propensity model of pmse_one()), its value from the
# context `q` of embedding_core(), its bounds (interval clamping), a
# line of documentation and its `power`: value() sees the sets times 2^-q$e
# (embedding_scale()), and the features times s change the metric by
# s^power (FD 2, energy 1, Vendi 0), by which its value is brought back to
# the units as given; NA: value() does so itself (KID, a polynomial in s).
# `aliases`: the names users know it by (FID, memorisation), which an
# unknown name's error turns into "Did you mean" (embedding_metric_aliases()).

embedding_metric <- function(name, needs, value, doc, lower = -Inf,
                             upper = Inf, power = 0, aliases = character()) {
  list(name = name, needs = needs, value = value, doc = doc, lower = lower,
       upper = upper, power = power, aliases = aliases)
}

embedding_registry <- local({
  mmd_of <- function(q, kernel) {
    mmd_unbiased(q$sxx[[kernel]], q$syy[[kernel]], q$sxy[[kernel]], q$n, q$m)
  }
  r <- list(
    embedding_metric("fd", "moments",
      function(q) fd_value(q$mx, q$my, q$root_x),
      "Frechet distance of the Gaussian fits (Heusel et al. 2017)",
      lower = 0, power = 2, aliases = c("fid", "frechet")),
    embedding_metric("fd_inf", "moments",
      function(q) fd_infinity(q$mx, q$y, q$root_x),
      "FD extrapolated to infinitely many generated rows (Chong and Forsyth 2020)",
      power = 2, aliases = c("fid_inf", "fid_infinity")),
    embedding_metric("kid", "poly",
      function(q) {
        b <- if (is.null(q$opts$subsets)) {
          poly_mmds(q$sxx, q$syy, q$sxy, q$n, q$m)
        } else {
          kid_subsets(q$real, q$y, q$opts$subsets, q$opts$subset_size)
        }
        kid_value(b, q$e, q$opts$big)
      },
      "unbiased MMD^2 with the cubic polynomial kernel (Binkowski et al. 2018)",
      power = NA, aliases = "kernel_inception"),
    embedding_metric("mmd_rbf", "rbf", function(q) mmd_of(q, "rbf"),
      "unbiased MMD^2 with a Gaussian kernel of width `bandwidth` (CMMD, Jayasumana et al. 2024)",
      aliases = c("cmmd", "mmd")),
    embedding_metric("vendi", character(), function(q) vendi_value(q$y),
      "Vendi score of the generated set, q = 1, linear kernel on unit rows (Friedman and Dieng 2023)",
      lower = 1),
    embedding_metric("vendi_class", "classes",
      function(q) mean(q$vendi_classes$vendi),
      "mean over the classes of the generated rows of each class's Vendi score (needs `classes`; dgm-eval)",
      lower = 1),
    embedding_metric("authpct", "nearest",
      function(q) {
        a <- authentic_rows(q$real, q$y, q$near$nearest, q$own2)
        100 * mean(a)
      },
      "percentage of generated rows whose nearest real row has a nearer real neighbour (Alaa et al. 2022)",
      lower = 0, upper = 100,
      aliases = c("authenticity", "memorisation", "memorization")),
    embedding_metric("ct", "held_out", function(q) q$ct,
      "data-copying statistic C_T against `held_out` (Meehan et al. 2020); below 0: copying",
      aliases = c("c_t", "data_copying", "memorisation", "memorization")),
    embedding_metric("sw_approx", "moments",
      function(q) sw_value(q$mx, q$my),
      "sliced Wasserstein approximation from the moments (Nadjahi et al. 2021)",
      lower = 0, power = 1),
    embedding_metric("energy", "dist", function(q) {
      2 * q$sxy[["dist"]] / (q$n * q$m) -
        q$sxx[["dist"]] / (q$n * (q$n - 1)) -
        q$syy[["dist"]] / (q$m * (q$m - 1))
    }, "energy distance with U-statistics (Szekely and Rizzo 2013)",
    power = 1),
    embedding_metric("pmse", "propensity", function(q) q$propensity$pmse,
      "propensity-score mean squared error of synthpop's logit model with interactions up to `maxorder` (Woo et al. 2009; only when asked)",
      lower = 0, upper = 0.25),
    embedding_metric("s_pmse", "propensity", function(q) q$propensity$s_pmse,
      "pMSE over its null expectation (k - 1)(1 - c)^2 c / N (Snoke et al. 2018; only when asked)",
      lower = 0)
  )
  stats::setNames(r, vapply(r, `[[`, "", "name"))
})

#' The metrics of embedding_metrics(), in output order (the registry's)
#' @noRd
embedding_metric_names <- function() names(embedding_registry)

#' The registry's aliases: a character vector of metric names named by
#' the alias (an alias of two metrics appears twice)
#' @noRd
embedding_metric_aliases <- function() {
  al <- lapply(embedding_registry, `[[`, "aliases")
  stats::setNames(rep(names(al), lengths(al)), unlist(al, use.names = FALSE))
}

#' The default metrics of embedding_metrics(): all but those that need an
#' argument not given (`ct`: held_out, `vendi_class`: classes) and the
#' propensity scores (a logistic regression on the columns, for tables
#' rather than embeddings of hundreds of dimensions)
#' @noRd
embedding_default_metrics <- function(held_out = NULL, classes = NULL) {
  out <- setdiff(embedding_metric_names(), c("pmse", "s_pmse"))
  if (is.null(held_out)) out <- setdiff(out, "ct")
  if (is.null(classes)) out <- setdiff(out, "vendi_class")
  out
}

#' The docs of `metrics`, from the registry (roxygen inline code)
#' @noRd
embedding_metrics_doc <- function() {
  paste0("* `\"", names(embedding_registry), "\"`: ",
         vapply(embedding_registry, `[[`, "", "doc"), collapse = "\n")
}
