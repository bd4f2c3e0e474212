# Information-theoretic metrics (SPEC.md section 4): Kozachenko-Leonenko
# entropy, the Leonenko-Pronzato-Savani cross-entropy estimator, and the
# PCE / RCE / RE metrics of Fox, Swarup and Adiga (2025). The tile engine
# returns squared k-NN radii from one sweep; the per-sample terms are O(n)
# vector arithmetic done here.

#' Log of the volume of the unit ball in R^d, pi^(d/2) / Gamma(d/2 + 1),
#' through lgamma (finite for d in the thousands, where the volume itself
#' underflows).
#' @noRd
log_unit_ball <- function(d) (d / 2) * log(pi) - lgamma(d / 2 + 1)

#' Per-sample terms log(n_ref) - digamma(k) + log V_d + d log D_k of the
#' estimators, from squared radii r2 (a column per k): d log D = (d / 2)
#' log(D^2), never D^d. A zero radius gives -Inf.
#' @noRd
kl_terms <- function(r2, ks, n_ref, d) {
  const <- log(n_ref) - digamma(ks) + log_unit_ball(d)
  out <- (d / 2) * log(r2)
  out + rep(const, each = nrow(r2))
}

#' a - b for estimates that may be -Inf: a difference of two infinite
#' terms of the same sign is NA (not NaN), every other value is IEEE's
#' (finite - (-Inf) = Inf, -Inf - finite = -Inf).
#' @noRd
inf_diff <- function(a, b) {
  out <- a - b
  out[is.infinite(a) & is.infinite(b) & sign(a) == sign(b)] <- NA_real_
  out
}

#' The "i" line of the zero-radius warning of entropy_metrics(): which
#' metrics are not finite, and their values.
#' @noRd
entropy_outcome <- function(values) {
  bad <- values[!is.finite(values$value), , drop = FALSE]
  if (!nrow(bad)) {
    return(c("i" = "Every metric is still finite (the -Inf terms cancel or are not used)."))
  }
  shown <- ifelse(is.na(bad$value), "NA", ifelse(bad$value > 0, "Inf", "-Inf"))
  c("i" = paste0("Returned: ", paste0(toupper(bad$metric), " (k = ", bad$k,
                                     ") = ", shown, collapse = ", "),
                 ". A metric is NA when both of its terms are -Inf."))
}

#' Warn when k-NN radii are zero (their terms are -Inf), saying how many
#' samples. `parts` is a list of list(r2 = squared radii (a column per k),
#' what = "rows of `x`", where = "within `x`"); one warning lists every part
#' with zero radii; `limit`: the largest k allowed (asked for only below).
#' @noRd
warn_zero_radius <- function(parts, ks, limit, outcome = NULL,
                             call = rlang::caller_env()) {
  lines <- character()
  for (p in parts) {
    zero <- p$r2 == 0
    n0 <- sum(rowSums(zero) > 0)
    if (n0 == 0L) next
    k0 <- paste(ks[colSums(zero) > 0], collapse = ", ")
    lines <- c(lines, "x" = paste0(n0, " of ", nrow(p$r2), " ", p$what, " ",
                                  if (n0 == 1L) "has" else "have",
                                  " a zero k-th neighbour distance ", p$where,
                                  " (k = ", k0,
                                  if (!is.null(p$term)) paste0("; ", p$term),
                                  ")."))
  }
  if (!length(lines)) return(invisible(FALSE))
  prd_warn(c(
    if (is.null(outcome)) {
      "Zero k-nearest-neighbour distances: the log-density terms of these samples are {.code -Inf}, and so is every estimate that averages them."
    } else {
      "Zero k-nearest-neighbour distances: the log-density terms of these samples are {.code -Inf}."
    },
    lines,
    outcome,
    "i" = paste("A zero distance needs at least k rows identical to the sample (duplicated or memorised rows).",
      if (max(ks) < limit) "Use a larger {.arg k} (at most {limit} here) or remove the duplicates." else "{.arg k} is at its largest ({limit}) here: remove the duplicates.")
  ), "zero_radius")
  invisible(TRUE)
}

#' Kozachenko-Leonenko k-nearest-neighbour entropy
#'
#' Estimates the differential entropy \eqn{H(P) = -E_P[\log f_P(X)]} (in
#' nats) of the distribution of the rows of `x` by the estimator of
#' Kozachenko and Leonenko (1987) in the form of Leonenko, Pronzato and
#' Savani (2008), as used by Fox, Swarup and Adiga (2025, eq. 3):
#' \deqn{\hat H_k(X) = \frac{1}{n}\sum_{i=1}^{n} \left[\log(n - 1) -
#' \psi(k) + \log V_d + d \log D_k(X_i)\right],}
#' where \eqn{D_k(X_i)} is the Euclidean distance from \eqn{X_i} to its
#' k-th nearest neighbour among the other rows (itself excluded by row
#' index), \eqn{\psi} is the digamma function and
#' \eqn{V_d = \pi^{d/2} / \Gamma(d/2 + 1)} the volume of the unit ball.
#' \eqn{\log V_d} is computed with [lgamma()] and \eqn{d \log D} as
#' \eqn{(d/2) \log D^2}, so any dimension d (thousands) is safe.
#'
#' The estimator is consistent for any fixed k as n grows. At finite n it
#' is biased where the density is far from constant over a k-NN ball: at
#' the boundary of a bounded support (upwards: for 2,000 uniform points on
#' the box \[0, 2\] x \[0, 1\] x \[0, 3\], +0.14 nats with k = 5,
#' standard deviation 0.017 over 100 replicates) and in higher dimension
#' (for 2,000 points of N(0, I_10), +0.10 nats, standard deviation 0.06;
#' in dimensions 1 and 2 the bias is below 0.02 nats for 1,000 points).
#'
#' All values of `k` come from one sweep of the tiled distance engine (no
#' n x n matrix is formed).
#'
#' @param x Samples: a numeric matrix or data frame, one row per sample
#'   (n x d, n >= 2). Integer matrices are accepted.
#' @param k Number of neighbours: one or more whole numbers with
#'   1 <= k <= n - 1. Default 5 (the value of Fox et al. 2025).
#' @return A named numeric vector, one estimate (nats) per distinct value
#'   of `k` in increasing order, named `"k=5"` etc.
#' @section Errors and warnings: `x` must be numeric with no NA, NaN or
#'   Inf, with at least 2 rows; `k` must be whole numbers in
#'   \[1, n - 1\]. A sample with k or more exact duplicates has a zero
#'   k-NN distance: its term is `-Inf` and so is the estimate; a warning
#'   says how many samples.
#' @references Kozachenko, L. F. and Leonenko, N. N. (1987). Sample
#'   estimate of the entropy of a random vector. Problems of Information
#'   Transmission 23(2), 95-101.
#'
#'   Leonenko, N., Pronzato, L. and Savani, V. (2008). A class of Renyi
#'   information estimators for multidimensional densities. Annals of
#'   Statistics 36(5), 2153-2182.
#'
#'   Fox, A., Swarup, S. and Adiga, A. (2025). A unifying
#'   information-theoretic perspective on evaluating generative models.
#'   AAAI. Section 3.2, eq. 3.
#' @seealso [knn_cross_entropy()], [entropy_metrics()].
#' @examples
#' set.seed(2)
#' x <- matrix(rnorm(2000 * 2), ncol = 2)
#' knn_entropy(x, k = c(1, 5))
#' log(2 * pi * exp(1))  # the true entropy of N(0, I_2)
#' @export
knn_entropy <- function(x, k = 5) {
  x <- as_samples(x, allow_constant = TRUE)
  n <- nrow(x)
  k <- check_k(k, n - 1L, what = paste0("x (", n, " rows)"))
  s <- new_split(list(seq_len(n), integer()))
  nb <- engine_neighbours(x, x[0, , drop = FALSE], s, k, "own")
  warn_zero_radius(list(list(r2 = nb$own_x, what = "rows of `x`",
                              where = "within `x`")), k, n - 1L)
  out <- colMeans(kl_terms(nb$own_x, k, n - 1, ncol(x)))
  names(out) <- paste0("k=", k)
  out
}

#' k-nearest-neighbour cross-entropy
#'
#' Estimates the cross-entropy \eqn{CE(P, Q) = E_P[-\log f_Q(X)]} (in
#' nats) of the distribution Q of the rows of `y` relative to the
#' distribution P of the rows of `x`, by the estimator of Leonenko,
#' Pronzato and Savani (2008), as used by Fox, Swarup and Adiga (2025,
#' eq. 4):
#' \deqn{\widehat{CE}_k(X, Y) = \frac{1}{n_X}\sum_{i=1}^{n_X}
#' \left[\log n_Y - \psi(k) + \log V_d + d \log D_{k,Y}(X_i)\right],}
#' where \eqn{D_{k,Y}(X_i)} is the Euclidean distance from \eqn{X_i} to its
#' k-th nearest neighbour among the rows of `y`. Only the \eqn{n_X \times
#' n_Y} distances from `x` to `y` are computed (one sweep of the tiled
#' engine, every `k` at once).
#'
#' @section Bias far from the bulk of Q: The estimator treats \eqn{f_Q} as
#'   constant over the ball of radius \eqn{D_{k,Y}(X_i)}. Where P puts mass
#'   in the tails of Q, that ball is large and \eqn{-\log f_Q} grows much
#'   faster than \eqn{d \log D}: the estimate is then far too low. For
#'   P = N(0, 2.5 I_10) (wider) and Q = N(0, I_10), 2,000 samples each and
#'   k = 5, the true value is 21.69 nats and the estimate 18.47 on average
#'   (bias -3.22 nats, standard deviation 0.06 over 20 replicates; -3.29
#'   with 1,000 samples each). For P = N(0, I_10) and Q = N(0, 0.25 I_10)
#'   (Q narrower) the truth is 22.26 and the estimate 14.24 (bias -8.02).
#'   The bias shrinks only slowly with the sample size. The PCE and RCE of
#'   [entropy_metrics()] inherit it.
#'
#' @param x Samples from P: a numeric matrix or data frame, one row per
#'   sample (n_X x d, n_X >= 2).
#' @param y Samples from Q, n_Y x d, same columns.
#' @param k Number of neighbours: one or more whole numbers with
#'   1 <= k <= n_Y - 1. Default 5.
#' @return A named numeric vector, one estimate (nats) per distinct value
#'   of `k` in increasing order, named `"k=5"` etc.
#' @section Errors and warnings: `x` and `y` must be numeric with no NA,
#'   NaN or Inf, at least 2 rows each, and the same number of columns; `k`
#'   must be whole numbers in \[1, n_Y\] (no point is left out). A row
#'   of `x` with k or more exact copies in `y` has a zero distance: its term
#'   is `-Inf` and so is the estimate; a warning says how many rows.
#' @references Leonenko, N., Pronzato, L. and Savani, V. (2008). A class
#'   of Renyi information estimators for multidimensional densities. Annals
#'   of Statistics 36(5), 2153-2182.
#'
#'   Fox, A., Swarup, S. and Adiga, A. (2025). A unifying
#'   information-theoretic perspective on evaluating generative models.
#'   AAAI. Section 3.2, eq. 4.
#' @seealso [knn_entropy()], [entropy_metrics()].
#' @examples
#' set.seed(1)
#' x <- matrix(rnorm(1000 * 2), ncol = 2)
#' y <- matrix(rnorm(1000 * 2, sd = 2), ncol = 2)
#' knn_cross_entropy(x, y)
#' log(8 * pi) + 2 / 8  # the truth, log(8 pi) + E|x|^2 / 8
#' @export
knn_cross_entropy <- function(x, y, k = 5) {
  x <- as_samples(x, allow_constant = TRUE)
  y <- as_samples(y, allow_constant = TRUE)
  check_same_columns(x, y, "x", "y")
  nx <- nrow(x)
  ny <- nrow(y)
  # no self-exclusion: the k-th neighbour in y exists for k <= n_y
  k <- check_k(k, ny, what = paste0("y (", ny, " rows)"))
  s <- new_split(list(integer(), seq_len(ny)), list(seq_len(nx), integer()))
  nb <- engine_neighbours(x, y, s, k, "query_y")
  warn_zero_radius(list(list(r2 = nb$query_y, what = "rows of `x`",
                              where = "to `y`")), k, ny)
  out <- colMeans(kl_terms(nb$query_y, k, ny, ncol(x)))
  names(out) <- paste0("k=", k)
  out
}

#' Precision cross-entropy, recall cross-entropy and recall entropy
#'
#' The information-theoretic precision and recall of Fox, Swarup and Adiga
#' (2025, section 5), each relative to the entropy of the real
#' distribution R so that all three are 0 when the generated distribution
#' G equals R:
#' * `pce`, **PCE** (precision cross-entropy, their eq. 23, 26)
#'   \eqn{= CE(G, R) - H(R)}: how improbable generated samples are under
#'   the real density. Lower is higher fidelity; high values flag mode
#'   invention.
#' * `rce`, **RCE** (recall cross-entropy, eq. 24, 27) \eqn{= CE(R, G) - H(R) =
#'   KL(R \| G)}{= CE(R, G) - H(R) = KL(R || G)}: how improbable real
#'   samples are under the generated density. Lower is better; it rises
#'   with mode dropping.
#' * `re`, **RE** (recall entropy, eq. 25, 28) \eqn{= H(G) - H(R)}: intra-class
#'   diversity. It falls with mode shrinkage (generated samples packed
#'   more tightly than real ones); low RE with low PCE is the signature of
#'   mode shrinkage.
#'
#' Entropies and cross-entropies are the k-NN estimators of
#' [knn_entropy()] and [knn_cross_entropy()] (Leonenko, Pronzato and
#' Savani 2008): with \eqn{\hat H_k} using \eqn{\log(n - 1)} and
#' self-excluded radii, and \eqn{\widehat{CE}_k} using \eqn{\log n} of the
#' reference set. All four estimators, for every value of `k`, come from
#' one pass of the tiled distance engine over the pooled samples; without
#' a split, each pair of samples is computed once.
#'
#' @section Per-sample contributions: Each estimator is a mean of one term
#'   per sample, \eqn{t(z) = \log n_S - \psi(k) + \log V_d + d \log
#'   D_{k,S}(z)}, an estimate of \eqn{-\log f_S(z)} (S the set the
#'   distance is taken in; \eqn{n_S - 1} when z belongs to S). With
#'   [entropy_samples()] every sample gets its contribution, defined so
#'   that the mean of each column is the metric:
#'   * generated row j: `pce` \eqn{= t_R(y_j) - \hat H(R)} (how much more
#'     surprising \eqn{y_j} is under the real density than a typical real
#'     sample; the most "unrealistic" generated samples have the largest
#'     values, and strongly negative values, closer to real rows than real
#'     rows are to each other, may point to memorisation) and `re`
#'     \eqn{= t_G(y_j) - \hat H(R)};
#'   * real row i: `rce` \eqn{= t_G(x_i) - t_R(x_i)}, the pointwise log
#'     density ratio \eqn{\log \hat f_R(x_i) / \hat f_G(x_i)} (eq. 24
#'     sample by sample); large values mark real samples, and so real
#'     modes, that the generated set misses, independently of how dense
#'     the real data are there.
#'
#'   Sorting these lists the samples that contribute most (Fox et al.
#'   2025, section 5.3, and their appendix on memorisation).
#'
#' @section Difference from the authors' code: The authors' released code
#'   returns the raw estimates \eqn{\widehat{CE}(G, R)},
#'   \eqn{\widehat{CE}(R, G)} and, as "recall entropy", \eqn{\hat H(R)} of
#'   the *real* set, without subtracting the baseline. This function
#'   follows the paper (eq. 26-28). The raw estimates are kept in the
#'   attribute `"estimates"` of the result (columns `model`, `k`,
#'   `h_real`, `h_generated`, `ce_generated_real`, `ce_real_generated`) so their
#'   numbers can be compared.
#'
#' @section Bias: The k-NN cross-entropy is strongly biased downwards for
#'   samples far outside the bulk of the reference set (see
#'   [knn_cross_entropy()]). On the Gaussian setting of Fox et al. (2025,
#'   Table 1: R = N(0, I_10), G = N(0, \eqn{\sigma^2} I_10), 2,000 samples
#'   each, k = 5; mean over 20 replicates, standard deviations 0.02 to
#'   0.09), truth versus estimate, in nats:
#'
#'   | \eqn{\sigma^2} | PCE truth | PCE est. | RCE truth | RCE est. | RE truth | RE est. |
#'   |---|---|---|---|---|---|---|
#'   | 0.25 | -3.75 | -3.11 | 8.07 | -0.04 | -6.93 | -6.92 |
#'   | 1 | 0 | -0.02 | 0 | -0.02 | 0 | -0.01 |
#'   | 2.5 | 7.50 | 4.19 | 1.58 | 2.12 | 4.58 | 4.56 |
#'
#'   RE is nearly unbiased here (the biases of the two entropies cancel)
#'   and PCE orders the three generators correctly (lowest for
#'   \eqn{\sigma^2 < 1}), but PCE understates a generator wider than the
#'   data (4.19 for 7.50), and RCE all but misses a generator narrower
#'   than the data: KL(R || G) = 8.07 is estimated as about 0, because
#'   the real samples outside the narrow generated bulk are exactly where
#'   the k-NN cross-entropy fails. Read RCE together with RE, and compare
#'   values across models on the same data rather than to their truth.
#'
#' @section Split: With `split > 0` the entropies and cross-entropies are
#'   averages over the evaluation rows of distances to the fit rows (no
#'   point is its own neighbour, and \eqn{\log n_S} uses the fit size).
#'   Default 0, the setting of Fox et al. (2025), as for
#'   [manifold_metrics()].
#' @section Intervals: With `replicates = R > 0` every metric gets `lower`
#'   and `upper` from complementary half-samples, as in [manifold_metrics()] (see the
#'   section Intervals of [prd_curve()]).
#'
#' @param real Real samples (from R): a numeric matrix or data frame, one
#'   row per sample (n_R x d). Integer matrices are accepted.
#' @param generated Generated samples (from G), n_G x d, same columns: one
#'   sample set, a named list of sample sets (one per model), a data
#'   frame grouped by a model column, or a synthpop object (as in
#'   [prd_curve()]).
#' @param metrics Any of `"pce"`, `"rce"`, `"re"` (default: all three).
#'   The upper-case names of earlier versions are accepted with a
#'   deprecation warning.
#' @param k Number of neighbours: one or more whole numbers with
#'   1 <= k <= min(n_R, n_G) - 1 (fit sizes with a split). Default 5 (Fox
#'   et al. 2025). Several values are served by one pass.
#' @param split Fraction in \[0, 1) of each set held out for evaluation, or
#'   explicit evaluation rows (see [manifold_metrics()]); default 0.
#' @inheritParams manifold_metrics
#' @param per_sample `r lifecycle::badge("deprecated")` Use
#'   [entropy_samples()].
#' @param subsample When the sets differ in size, draw the size of the
#'   smallest from every set (random rows, R's RNG; a message of class
#'   `prdcurve_message_subsampled` says so). Default `TRUE`: the k-NN
#'   estimators depend on the sample sizes (through \eqn{\log n} and the
#'   k-NN radii), so that a model from the same distribution as the data
#'   with 3,000 real and 2,000 generated rows gets values far from 0 with
#'   intervals that exclude 0. `FALSE` keeps every row, with a warning of
#'   class `prdcurve_warning_unequal_sizes` (as do explicit `split` rows,
#'   which are never subsampled).
#' @return A tibble of class `prd_metrics` with columns `model`, `metric`
#'   (`"pce"`, `"rce"`, `"re"`), `k` (integer) and `value` (nats), one row
#'   per model, metric and value of `k`, plus `lower` and `upper` with
#'   replicates, and the attribute `"estimates"` described above.
#' @section Errors and warnings: classed conditions inheriting from
#'   `prdcurve_error`: `prdcurve_error_input` (samples that are not
#'   numeric, have NA, NaN or Inf or fewer than 2 rows, unknown `metrics`),
#'   `prdcurve_error_columns`, `prdcurve_error_k_too_large`,
#'   `prdcurve_error_split`, `prdcurve_error_replicates`. A generator whose
#'   rows are all equal is accepted (total mode collapse gives RE = `-Inf`).
#'   A zero k-NN distance (a sample with k or more exact copies in the set
#'   the distance is taken in, e.g. memorised training rows when k = 1)
#'   makes its term `-Inf`, and an estimate averaging it is `-Inf`. Each
#'   metric is a difference of two estimates: it is `Inf` or `-Inf` when
#'   one of them is `-Inf`, and `NA` (never `NaN`) when both are (the same
#'   rule holds for the columns of [entropy_samples()]). A warning of class
#'   `prdcurve_warning_zero_radius` says how many samples, for each
#'   estimator concerned, and lists every metric that is not finite with
#'   its returned value. No jitter is added: remove the duplicated rows or
#'   use a larger `k`.
#' @references Fox, A., Swarup, S. and Adiga, A. (2025). A unifying
#'   information-theoretic perspective on evaluating generative models.
#'   AAAI. Sections 3.2 (eq. 3-4), 5.2 (eq. 23-25), 5.3 (eq. 26-28),
#'   Table 1.
#'
#'   Leonenko, N., Pronzato, L. and Savani, V. (2008). A class of Renyi
#'   information estimators for multidimensional densities. Annals of
#'   Statistics 36(5), 2153-2182.
#' @seealso [entropy_samples()], [knn_entropy()], [knn_cross_entropy()],
#'   [prd_curve()], [prd_compare()].
#' @examples
#' set.seed(1)
#' real <- matrix(rnorm(1000 * 10), ncol = 10)
#' generated <- matrix(rnorm(1000 * 10, sd = sqrt(2.5)), ncol = 10)
#' entropy_metrics(real, generated, k = c(5, 10))
#' @export
entropy_metrics <- function(real, generated, metrics = c("pce", "rce", "re"),
                            k = 5, split = 0, replicates = 0,
                            conf_level = 0.9, features = NULL, id = NULL,
                            standardize = c("none", "real"),
                            per_sample = deprecated(), subsample = TRUE) {
  if (is.numeric(metrics)) {
    # the old argument order was (real, generated, k, per_sample)
    if (!missing(k) && isTRUE(k)) per_sample <- TRUE
    old <- legacy_k_first("entropy_metrics", metrics, k, TRUE,
                          entropy_metric_names)
    k <- old$k
    metrics <- old$metrics
  }
  metrics <- entropy_metric_arg(metrics)
  if (lifecycle::is_present(per_sample)) {
    lifecycle::deprecate_warn("0.2.0", "entropy_metrics(per_sample)",
                              "entropy_samples()")
    per_sample <- check_flag(per_sample)
  } else {
    per_sample <- FALSE
  }
  sets <- prepare_samples(real, generated, rlang::enquo(features),
                          rlang::enquo(id), standardize,
                          allow_constant = FALSE)
  # the scale from every real row (standardize_split()), before subsampling
  sets <- standardize_split(sets)
  subsample <- check_flag(subsample)
  sets <- equalize_sizes(sets, subsample, split)
  check_sample_traps(sets, k, split, self_limit = FALSE)
  replicates <- check_replicates(replicates)
  conf_level <- check_level(conf_level)
  run <- function(real, gens, warn = TRUE, what = NULL) {
    sp <- resolve_model_splits(split, real, gens, canonical = TRUE)
    lapply(names(gens), function(m) {
      s <- sp[[m]]
      res <- entropy_core(real, gens[[m]], s, k, warn = warn, what = what)
      res$model <- m
      res$split <- split_asked(s)
      res
    })
  }
  first <- run(sets$real, sets$generated)
  pick <- function(res) {
    v <- res$values[res$values$metric %in% metrics, , drop = FALSE]
    v <- v[order(match(v$metric, metrics), v$k), , drop = FALSE]
    tibble::tibble(model = res$model, v)
  }
  values <- vctrs::vec_rbind(!!!lapply(first, pick))
  out <- new_prd_metrics(
    values, split = first[[1]]$split,
    model_sizes = vapply(sets$generated, nrow, integer(1)),
    estimates = vctrs::vec_rbind(!!!lapply(first, function(r) {
      tibble::tibble(model = r$model, r$estimates)
    }))
  )
  if (replicates > 0L) {
    reps <- run_replicates(sets$real, sets$generated, replicates,
                           function(real, gens) {
                             h <- standardize_half(real, gens, sets$standardize,
                                                   grid = sets$grid)
                             vctrs::vec_rbind(!!!lapply(
                               run(h$real, h$gens, warn = FALSE,
                                   what = "the half-samples of the replicates"),
                               pick))
                           })
    out <- attach_metric_replicates(out, reps, conf_level)
  }
  if (!per_sample) return(out)
  r1 <- first[[1]]
  old <- out
  old$metric <- toupper(old$metric)
  list(metrics = old,
       generated = r1$samples$generated, real = r1$samples$real)
}

#' Per-sample contributions to PCE, RCE and RE
#'
#' Each sample's term of the estimators of [entropy_metrics()], as one tidy
#' tibble (augment-style), defined so that the mean of each column over its
#' rows is the metric (see the section Per-sample contributions of
#' [entropy_metrics()]): `pce` and `re` for generated rows, `rce` for real
#' rows (`NA` elsewhere). Sorting lists the samples that contribute most:
#' the generated samples with the largest `pce` are the least realistic
#' ones, and strongly negative values may point to memorisation; the real
#' samples with the largest `rce` mark the modes the generator misses.
#'
#' When the sets differ in size, `subsample = TRUE` (the default, as in
#' [entropy_metrics()]) draws the size of the smallest from every set
#' (message of class `prdcurve_message_subsampled`): after the same
#' [set.seed()] the draw is that of [entropy_metrics()], and the means of
#' the columns are its values. The rows left out of the draw have no
#' contribution (no row in the result).
#'
#' @inheritParams entropy_metrics
#' @return A tibble with columns `model`, `set` (`"real"` or
#'   `"generated"`), `row` (row number in that set as given, also when
#'   subsampled), `id` (when the input
#'   has an `id` column or row names), `k`, `pce`, `re`, `rce` (nats). Real
#'   rows are repeated for every model.
#' @section Errors and warnings: as [entropy_metrics()].
#' @references Fox, A., Swarup, S. and Adiga, A. (2025). A unifying
#'   information-theoretic perspective on evaluating generative models.
#'   AAAI. Section 5.3 and the appendix on memorisation.
#' @examples
#' set.seed(1)
#' real <- matrix(rnorm(500 * 4), ncol = 4)
#' generated <- matrix(rnorm(500 * 4, sd = 1.5), ncol = 4)
#' s <- entropy_samples(real, generated)
#' gen <- s[s$set == "generated", ]
#' head(gen[order(-gen$pce), ])
#' @export
entropy_samples <- function(real, generated, k = 5, split = 0,
                            features = NULL, id = NULL,
                            standardize = c("none", "real"),
                            subsample = TRUE) {
  sets <- standardize_split(prepare_samples(real, generated,
                                            rlang::enquo(features),
                                            rlang::enquo(id), standardize))
  # the draw of entropy_metrics() (after the same set.seed()): means agree
  sets <- equalize_sizes(sets, check_flag(subsample), split)
  # one real split shared by every model (paired), as entropy_metrics()
  sp <- resolve_model_splits(split, sets$real, sets$generated, canonical = TRUE)
  vctrs::vec_rbind(!!!lapply(names(sets$generated), function(m) {
    g <- sets$generated[[m]]
    s <- sp[[m]]
    res <- entropy_core(sets$real, g, s, k)
    part <- function(tab, which, ids, rows) {
      id_col <- if (!is.null(ids)) list(id = ids[tab$row])
      n <- nrow(tab)
      gen <- which == "generated"
      # rows of the set as given (not of its subsample)
      row <- if (is.null(rows)) tab$row else rows[tab$row]
      tibble::tibble(model = m, set = which, row = row, !!!id_col,
                     k = tab$k,
                     pce = if (gen) tab$pce else rep(NA_real_, n),
                     re = if (gen) tab$re else rep(NA_real_, n),
                     rce = if (!gen) tab$rce else rep(NA_real_, n))
    }
    vctrs::vec_rbind(part(res$samples$real, "real", attr(sets$real, "ids"),
                          attr(sets$real, "rows")),
                     part(res$samples$generated, "generated", attr(g, "ids"),
                          attr(g, "rows")))
  }))
}

entropy_metric_names <- c("pce", "rce", "re")

#' `metrics` of entropy_metrics(), accepting the old upper-case names
#' @noRd
entropy_metric_arg <- function(metrics, call = rlang::caller_env()) {
  if (is.character(metrics) && !anyNA(metrics) &&
      any(metrics %in% c("PCE", "RCE", "RE"))) {
    lifecycle::deprecate_warn(
      "0.2.0", I("Upper-case metric names in `entropy_metrics()`"),
      I("lower-case names \"pce\", \"rce\", \"re\"")
    )
    metrics <- tolower(metrics)
  }
  check_methods(metrics, entropy_metric_names, arg = "metrics", call = call)
}

#' PCE, RCE, RE of one model, with the raw estimates and per-sample terms
#' @noRd
entropy_core <- function(real, generated, s, k, warn = TRUE, what = NULL,
                         call = rlang::caller_env()) {
  sizes <- split_sizes(s)
  self <- !split_has_eval(s)
  n_xf <- sizes[["fit_real"]]
  n_yf <- sizes[["fit_generated"]]
  limit <- min(n_xf, n_yf) - as.integer(self)
  k <- check_k(k, limit, what = if (is.null(what)) {
    paste0("the smaller ", if (self) "sample set" else "fit set",
           " (", min(n_xf, n_yf), " rows)")
  } else what, call = call)
  d <- ncol(real)
  nb <- engine_neighbours(real, generated, s, k, c("query_x", "query_y"))
  n_ex <- sizes[["eval_real"]]
  n_ey <- sizes[["eval_generated"]]
  ix <- seq_len(n_ex)
  iy <- n_ex + seq_len(n_ey)
  r2_rr <- nb$query_x[ix, , drop = FALSE]  # real to real (self excluded)
  r2_rg <- nb$query_y[ix, , drop = FALSE]  # real to generated
  r2_gr <- nb$query_x[iy, , drop = FALSE]  # generated to real
  r2_gg <- nb$query_y[iy, , drop = FALSE]  # generated to generated
  t_rr <- kl_terms(r2_rr, k, n_xf - self, d)  # -log f_R(x_i)
  t_gg <- kl_terms(r2_gg, k, n_yf - self, d)  # -log f_G(y_j)
  t_rg <- kl_terms(r2_rg, k, n_yf, d)         # -log f_G(x_i)
  t_gr <- kl_terms(r2_gr, k, n_xf, d)         # -log f_R(y_j)
  h_r <- colMeans(t_rr)
  h_g <- colMeans(t_gg)
  ce_rg <- colMeans(t_rg)
  ce_gr <- colMeans(t_gr)
  nk <- length(k)
  values <- tibble::tibble(
    metric = rep(entropy_metric_names, times = nk),
    k = rep(k, each = 3L),
    value = as.vector(rbind(inf_diff(ce_gr, h_r), inf_diff(ce_rg, h_r),
                            inf_diff(h_g, h_r)))
  )
  if (warn) {
    warn_zero_radius(list(
      list(r2 = r2_rr, what = "real samples", where = "within `real`",
           term = "H(R), in all three metrics"),
      list(r2 = r2_gg, what = "generated samples",
           where = "within `generated`", term = "RE"),
      list(r2 = r2_gr, what = "generated samples", where = "to `real`",
           term = "PCE"),
      list(r2 = r2_rg, what = "real samples", where = "to `generated`",
           term = "RCE")
    ), k, limit, outcome = entropy_outcome(values), call = call)
  }
  estimates <- tibble::tibble(
    k = k, h_real = unname(h_r), h_generated = unname(h_g),
    ce_generated_real = unname(ce_gr), ce_real_generated = unname(ce_rg)
  )
  ev <- split_scored(s)
  base_g <- rep(h_r, each = n_ey)
  generated_tbl <- tibble::tibble(
    row = rep(ev[[2]], times = nk),
    k = rep(k, each = n_ey),
    pce = inf_diff(as.vector(t_gr), base_g),
    re = inf_diff(as.vector(t_gg), base_g)
  )
  real_tbl <- tibble::tibble(
    row = rep(ev[[1]], times = nk),
    k = rep(k, each = n_ex),
    rce = inf_diff(as.vector(t_rg), as.vector(t_rr))
  )
  list(values = values, estimates = estimates,
       samples = list(generated = generated_tbl, real = real_tbl))
}
