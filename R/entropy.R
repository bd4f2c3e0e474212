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

#' Warn when k-NN radii are zero (their terms are -Inf), saying how many
#' samples. `parts` is a list of list(r2 = squared radii (a column per k),
#' what = "rows of `x`", where = "within `x`"); one warning lists every part
#' with zero radii. Generic check, kept here because it concerns the log
#' terms of the entropy estimators only.
#' @noRd
warn_zero_radius <- function(parts, ks, call = rlang::caller_env()) {
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
  cli::cli_warn(c(
    "Zero k-nearest-neighbour distances: the log-density terms of these samples are {.code -Inf}, and so is every estimate that averages them.",
    lines,
    "i" = "A zero distance needs at least k rows identical to the sample (duplicated or memorised rows). Use a larger {.arg k} or remove the duplicates."
  ), call = call)
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
  s <- list(fit = list(seq_len(n), integer()), eval = NULL)
  nb <- engine_neighbours(x, x[0, , drop = FALSE], s, k, "own")
  warn_zero_radius(list(list(r2 = nb$own_x, what = "rows of `x`",
                              where = "within `x`")), k)
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
  s <- list(fit = list(integer(), seq_len(ny)),
            eval = list(seq_len(nx), integer()))
  nb <- engine_neighbours(x, y, s, k, "query_y")
  warn_zero_radius(list(list(r2 = nb$query_y, what = "rows of `x`",
                              where = "to `y`")), k)
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
#' * **PCE** (precision cross-entropy, their eq. 23, 26)
#'   \eqn{= CE(G, R) - H(R)}: how improbable generated samples are under
#'   the real density. Lower is higher fidelity; high values flag mode
#'   invention.
#' * **RCE** (recall cross-entropy, eq. 24, 27) \eqn{= CE(R, G) - H(R) =
#'   KL(R \| G)}{= CE(R, G) - H(R) = KL(R || G)}: how improbable real
#'   samples are under the generated density. Lower is better; it rises
#'   with mode dropping.
#' * **RE** (recall entropy, eq. 25, 28) \eqn{= H(G) - H(R)}: intra-class
#'   diversity. It falls with mode shrinkage (generated samples packed
#'   more tightly than real ones); low RE with low PCE is the signature of
#'   mode shrinkage.
#'
#' Entropies and cross-entropies are the k-NN estimators of
#' [knn_entropy()] and [knn_cross_entropy()] (Leonenko, Pronzato and
#' Savani 2008): with \eqn{\hat H_k} using \eqn{\log(n - 1)} and
#' self-excluded radii, and \eqn{\widehat{CE}_k} using \eqn{\log n} of the
#' reference set. All four estimators, for every value of `k`, come from
#' one sweep of the tiled distance engine over the pooled samples.
#'
#' @section Per-sample contributions: Each estimator is a mean of one term
#'   per sample, \eqn{t(z) = \log n_S - \psi(k) + \log V_d + d \log
#'   D_{k,S}(z)}, an estimate of \eqn{-\log f_S(z)} (S the set the
#'   distance is taken in; \eqn{n_S - 1} when z belongs to S). With
#'   `per_sample = TRUE` every sample gets its contribution, defined so
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
#'   attribute `"estimates"` of the result (columns `k`, `H_real`,
#'   `H_generated`, `CE_generated_real`, `CE_real_generated`) so their
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
#' @param real Real samples (from R): a numeric matrix or data frame, one
#'   row per sample (n_R x d). Integer matrices are accepted.
#' @param generated Generated samples (from G), n_G x d, same columns.
#' @param k Number of neighbours: one or more whole numbers with
#'   1 <= k <= min(n_R, n_G) - 1. Default 5 (Fox et al. 2025). Several
#'   values are served by one pass.
#' @param per_sample `FALSE` (default) or `TRUE` to also return each
#'   sample's contribution (see below).
#' @return With `per_sample = FALSE`, a tibble with columns `metric`
#'   (`"PCE"`, `"RCE"`, `"RE"`), `k` (integer) and `value` (nats), one row
#'   per metric and value of `k`, with the attribute `"estimates"`
#'   described above. With `per_sample = TRUE`, a list of
#'   * `metrics`: that tibble;
#'   * `generated`: a tibble with columns `row` (row of `generated`), `k`,
#'     `pce`, `re`, one row per generated sample and value of `k`;
#'   * `real`: a tibble with columns `row` (row of `real`), `k`, `rce`.
#' @section Errors and warnings: `real` and `generated` must be numeric
#'   with no NA, NaN or Inf, at least 2 rows, and the same number of
#'   columns, and the rows of `real` must not all be equal (a generator
#'   whose rows are all equal is accepted: total mode collapse gives
#'   RE = `-Inf` with a warning); `k` must be whole numbers in
#'   \[1, min(n_R, n_G) - 1\]. A zero k-NN distance (a sample with k or
#'   more exact copies in the set the distance is taken in, e.g. memorised
#'   training rows when k = 1) makes its term `-Inf`; the value is returned
#'   as computed (`-Inf`, `Inf` or `NaN`) and a warning says how many
#'   samples, for each estimator concerned.
#' @references Fox, A., Swarup, S. and Adiga, A. (2025). A unifying
#'   information-theoretic perspective on evaluating generative models.
#'   AAAI. Sections 3.2 (eq. 3-4), 5.2 (eq. 23-25), 5.3 (eq. 26-28),
#'   Table 1.
#'
#'   Leonenko, N., Pronzato, L. and Savani, V. (2008). A class of Renyi
#'   information estimators for multidimensional densities. Annals of
#'   Statistics 36(5), 2153-2182.
#' @seealso [knn_entropy()], [knn_cross_entropy()], [prd_curve()].
#' @examples
#' set.seed(1)
#' real <- matrix(rnorm(1000 * 10), ncol = 10)
#' generated <- matrix(rnorm(1000 * 10, sd = sqrt(2.5)), ncol = 10)
#' entropy_metrics(real, generated, k = c(5, 10))
#'
#' # the generated samples that contribute most to PCE
#' res <- entropy_metrics(real, generated, per_sample = TRUE)
#' head(res$generated[order(-res$generated$pce), ])
#' @export
entropy_metrics <- function(real, generated, k = 5, per_sample = FALSE) {
  real <- as_samples(real)
  # a fully collapsed generator is a valid input: RE = -Inf, with a warning
  generated <- as_samples(generated, allow_constant = TRUE)
  check_same_columns(real, generated)
  per_sample <- check_flag(per_sample)
  n_r <- nrow(real)
  n_g <- nrow(generated)
  d <- ncol(real)
  k <- check_k(k, min(n_r, n_g) - 1L,
               what = paste0("the smaller sample set (", min(n_r, n_g),
                             " rows)"))
  s <- list(fit = list(seq_len(n_r), seq_len(n_g)), eval = NULL)
  nb <- engine_neighbours(real, generated, s, k,
                          c("own", "query_x", "query_y"))
  r2_rg <- nb$query_y[seq_len(n_r), , drop = FALSE]       # x_i to G
  r2_gr <- nb$query_x[n_r + seq_len(n_g), , drop = FALSE] # y_j to R
  warn_zero_radius(list(
    list(r2 = nb$own_x, what = "real samples", where = "within `real`",
         term = "H(R), in all three metrics"),
    list(r2 = nb$own_y, what = "generated samples",
         where = "within `generated`", term = "RE"),
    list(r2 = r2_gr, what = "generated samples", where = "to `real`",
         term = "PCE"),
    list(r2 = r2_rg, what = "real samples", where = "to `generated`",
         term = "RCE")
  ), k)

  t_rr <- kl_terms(nb$own_x, k, n_r - 1, d)  # -log f_R(x_i), n_r x nk
  t_gg <- kl_terms(nb$own_y, k, n_g - 1, d)  # -log f_G(y_j)
  t_rg <- kl_terms(r2_rg, k, n_g, d)         # -log f_G(x_i)
  t_gr <- kl_terms(r2_gr, k, n_r, d)         # -log f_R(y_j)
  h_r <- colMeans(t_rr)
  h_g <- colMeans(t_gg)
  ce_rg <- colMeans(t_rg)
  ce_gr <- colMeans(t_gr)

  nk <- length(k)
  metrics <- tibble::tibble(
    metric = rep(c("PCE", "RCE", "RE"), times = nk),
    k = rep(k, each = 3L),
    value = as.vector(rbind(ce_gr - h_r, ce_rg - h_r, h_g - h_r))
  )
  attr(metrics, "estimates") <- tibble::tibble(
    k = k, H_real = unname(h_r), H_generated = unname(h_g),
    CE_generated_real = unname(ce_gr), CE_real_generated = unname(ce_rg)
  )
  if (!per_sample) return(metrics)

  base <- rep(h_r, each = n_g)
  generated_tbl <- tibble::tibble(
    row = rep(seq_len(n_g), times = nk),
    k = rep(k, each = n_g),
    pce = as.vector(t_gr) - base,
    re = as.vector(t_gg) - base
  )
  real_tbl <- tibble::tibble(
    row = rep(seq_len(n_r), times = nk),
    k = rep(k, each = n_r),
    rce = as.vector(t_rg) - as.vector(t_rr)
  )
  list(metrics = metrics, generated = generated_tbl, real = real_tbl)
}
