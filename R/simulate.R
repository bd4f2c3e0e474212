# The papers' toy distributions, with their ground-truth curves.

#' Gaussian mixture distributions to sample and evaluate
#'
#' A mixture \eqn{\sum_\ell w_\ell N(\mu_\ell, \Sigma_\ell)} in
#' \eqn{R^d}, with a sampler and a log-density, for [prd_truth()] and the
#' toy experiments of Sykes et al. (2024, section 5.1.2). Components are
#' isotropic (\eqn{\Sigma_\ell = \mathrm{sd}_\ell^2 I}) unless `cov` is
#' given. The log-density uses the log-sum-exp of the components' log
#' densities, so it is finite far into the tails (no underflow).
#'
#' @param means Component means: a K x d matrix (one row per component), or
#'   a numeric vector for a single component in `length(means)` dimensions.
#' @param sd Standard deviations of isotropic components: one positive
#'   number or one per component (default 1). Ignored if `cov` is given.
#' @param cov `NULL` (isotropic, see `sd`), one d x d positive definite
#'   covariance shared by all components, or a list of K of them.
#' @param weights Non-negative component weights with a positive sum
#'   (normalised; default equal). Zero weights are allowed (a dropped or
#'   invented mode).
#' @return An object of class `prd_gaussian_mixture`: a list with `means`,
#'   `weights`, `sd` or `cov`, `d`, and the functions `sample(n)` (an n x d
#'   matrix of independent draws, R's RNG; n x d at most 1e8 values) and
#'   `log_density(x)` (natural log-density at each row of the n x d matrix
#'   `x`; `-Inf` where the density underflows, e.g. 1e200 away from every
#'   mode; `NA` at a row with a missing value, NA or NaN). Weights are normalised through their maximum, so any finite
#'   weights work (even 1e308).
#' @section Errors: non-finite `means`; `sd`, `weights` or `cov` of the
#'   wrong length or size, negative, or not positive definite; `sample(n)`
#'   for n x d above 1e8 values (800 MB).
#' @references Sykes, B., Simon, L., Rabin, J. and Fadili, J. (2024),
#'   section 5.1.2 (Gaussian mixture models).
#' @seealso [prd_truth()], [sim_gaussian_mixtures()].
#' @examples
#' mix <- gaussian_mixture(rbind(c(0, 0), c(3, 3)), sd = c(1, 0.5),
#'                         weights = c(0.7, 0.3))
#' set.seed(1)
#' x <- mix$sample(5)
#' mix$log_density(x)
#' @export
gaussian_mixture <- function(means, sd = 1, cov = NULL, weights = NULL) {
  if (is.numeric(means) && is.null(dim(means))) means <- matrix(means, nrow = 1L)
  if (!is.matrix(means) || !is.numeric(means) || length(means) < 1L ||
      !all(is.finite(means))) {
    prd_abort("{.arg means} must be a finite numeric K x d matrix (or vector).")
  }
  storage.mode(means) <- "double"
  K <- nrow(means)
  d <- ncol(means)
  if (is.null(weights)) weights <- rep(1, K)
  weights <- normalise_weights(check_weights(weights, len = K))
  chols <- NULL
  if (is.null(cov)) {
    if (!is.numeric(sd) || !(length(sd) %in% c(1L, K)) || !all(is.finite(sd)) ||
        any(sd <= 0)) {
      prd_abort(c(
        if (K == 1L) "{.arg sd} must be one positive number." else
          "{.arg sd} must be one positive number or {K} (one per component).",
        "x" = if (is.numeric(sd) && length(sd)) "It is {.val {sd}}." else
          "It is {.obj_type_friendly {sd}}."
      ))
    }
    sd <- rep_len(as.double(sd), K)
  } else {
    if (is.matrix(cov)) cov <- rep(list(cov), K)
    if (!is.list(cov) || length(cov) != K) {
      prd_abort("{.arg cov} must be a {d} x {d} matrix or a list of {K}.")
    }
    chols <- lapply(cov, check_covariance, d = d)
    sd <- NULL
  }
  keep <- which(weights > 0)
  sample_fn <- function(n) {
    n <- check_count(n, "n", min = 0, max = .Machine$integer.max)
    check_draw_size(n, d)
    comp <- if (K == 1L) rep(1L, n) else
      sample.int(K, n, replace = TRUE, prob = weights)
    out <- matrix(0, n, d)
    for (l in unique(comp)) {
      idx <- which(comp == l)
      z <- matrix(stats::rnorm(length(idx) * d), length(idx), d)
      z <- if (is.null(chols)) z * sd[l] else z %*% chols[[l]]
      out[idx, ] <- z + rep(means[l, ], each = length(idx))
    }
    out
  }
  log_density_fn <- function(x) {
    if (is.numeric(x) && is.null(dim(x))) {
      x <- if (d == 1L) matrix(x, ncol = 1L) else matrix(x, nrow = 1L)
    }
    x <- if (is.numeric(x) || is.data.frame(x)) as.matrix(x)
    if (!is.numeric(x)) {
      prd_abort("{.arg x} must be a numeric matrix with {d} column{?s}.")
    }
    if (ncol(x) != d) {
      prd_abort("{.arg x} must have {d} column{?s}, not {ncol(x)}.")
    }
    n <- nrow(x)
    if (n == 0L) return(numeric(0))
    comps <- vapply(keep, function(l) {
      if (is.null(chols)) {
        # standardise before squaring: no 0 / 0 or overflow for tiny sd
        q <- rowSums(((x - rep(means[l, ], each = n)) / sd[l])^2)
        logdet <- 2 * d * log(sd[l])
      } else {
        z <- backsolve(chols[[l]], t(x) - means[l, ], transpose = TRUE)
        q <- colSums(z^2)
        logdet <- 2 * sum(log(diag(chols[[l]])))
      }
      log(weights[l]) - 0.5 * (d * log(2 * pi) + logdet + q)
    }, numeric(n))
    if (!is.matrix(comps)) comps <- matrix(comps, nrow = n)
    out <- log_sum_exp(comps)
    # a row with a missing value (NA or NaN) has a missing density
    out[is.na(out)] <- NA_real_
    out
  }
  structure(list(means = means, weights = weights, sd = sd,
                 cov = if (is.null(chols)) NULL else cov, d = d,
                 sample = sample_fn, log_density = log_density_fn),
            class = "prd_gaussian_mixture")
}

#' @export
print.prd_gaussian_mixture <- function(x, ...) {
  cat(sprintf("<prd_gaussian_mixture: %d component%s in %d dimension%s>\n",
              nrow(x$means), if (nrow(x$means) == 1L) "" else "s",
              x$d, if (x$d == 1L) "" else "s"))
  invisible(x)
}

#' Shifted Gaussians (Sykes et al. 2024, section 5.1.1)
#'
#' Real samples from \eqn{P = N(0, I_d)} and generated samples from
#' \eqn{Q = N(\mu 1_d, I_d)}, with the exact ground truth
#' ([prd_truth_gaussian()], Mahalanobis distance \eqn{\delta = |\mu|
#' \sqrt d} for a scalar shift). Sykes et al. use d = 64, n = 10,000 and
#' \eqn{\mu \sqrt d \in \{1, 5/3, 7/3, 3\}}, i.e. \eqn{\mu \approx} 0.12,
#' 0.21, 0.29, 0.38 (their Figure 2 and Table 1).
#'
#' @param n Number of real samples (rows).
#' @param d Dimension (default 64).
#' @param shift The shift \eqn{\mu} of every coordinate of Q's mean (one
#'   number, default \eqn{1/\sqrt d}), or Q's whole mean vector (length d).
#' @param n_generated Number of generated samples (default `n`).
#' @inheritParams prd_curve
#' @return A list with `real` (n x d matrix), `generated`
#'   (`n_generated` x d matrix) and `truth` (the exact `prd_curve`,
#'   `method = "truth"`).
#' @section Errors: `n`, `d` (and `n_generated`) must be whole numbers
#'   (n >= 2), with n x d and `n_generated` x d at most 1e8 values (800 MB
#'   per matrix); `shift` one finite number or d of them; `angles` a whole
#'   number >= 3. A shift too large for the closed form's arithmetic (1e300)
#'   gives the limit curve of [prd_truth_gaussian()], not `NaN`.
#' @references Sykes, B., Simon, L., Rabin, J. and Fadili, J. (2024),
#'   section 5.1.1, Figure 2 and Table 1.
#' @seealso [prd_truth_gaussian()], [prd_curve()], [prd_iou()].
#' @examples
#' set.seed(1)
#' sim <- sim_shifted_gaussians(n = 500, d = 16, shift = 2 / sqrt(16))
#' est <- prd_curve(sim$real, sim$generated, method = "knn")
#' prd_iou(est, sim$truth)
#' @export
sim_shifted_gaussians <- function(n = 1000, d = 64, shift = 1 / sqrt(d),
                                  n_generated = n, angles = 1001) {
  sizes <- check_sim_sizes(n, d, n_generated)
  n <- sizes$n
  d <- sizes$d
  n_generated <- sizes$n_generated
  angles <- check_angles(angles)
  if (!is.numeric(shift) || !(length(shift) %in% c(1L, d)) ||
      !all(is.finite(shift))) {
    prd_abort("{.arg shift} must be one finite number or {d} (a mean vector).")
  }
  mu <- rep_len(as.double(shift), d)
  real <- matrix(stats::rnorm(n * d), n, d)
  generated <- matrix(stats::rnorm(n_generated * d), n_generated, d) +
    rep(mu, each = n_generated)
  list(real = real, generated = generated,
       truth = prd_truth_gaussian(rep(0, d), mu, angles = angles))
}

#' Gaussian mixtures with mode dropping, invention and re-weighting
#'
#' The toy experiment of Sykes et al. (2024, section 5.1.2, Figure 3):
#' \eqn{P = \sum_\ell p_\ell N(\mu_\ell 1_d, \mathrm{sd}^2 I_d)} (real) and
#' \eqn{Q = \sum_\ell q_\ell N(\mu_\ell 1_d, \mathrm{sd}^2 I_d)}
#' (generated) with the same modes and different weights. With the
#' defaults (theirs), mode \eqn{\mu = 5} is invented (only in Q), mode
#' \eqn{\mu = 0} dropped (only in P) and modes \eqn{-5, 3} re-weighted.
#'
#' Ground truth: when the centres are \eqn{\mu_\ell 1_d} (`means` a
#' vector), the likelihood ratio depends on the projection
#' \eqn{u = \langle z, 1_d\rangle/\sqrt d} only, whose distributions are
#' one-dimensional mixtures with means \eqn{\mu_\ell \sqrt d}; the curve
#' \eqn{\alpha_\lambda = \int \min(\lambda p(u), q(u))\,du} is then
#' computed by quadrature (step sd/200 over windows of \eqn{\pm} 12 sd
#' around the modes, merged where they overlap; error below 1e-6), for any
#' sd and any spread of the modes. For general centres (`means` a
#' matrix) it is estimated by [prd_truth()] with `truth_n` draws.
#' Gaussians have full support, so \eqn{\alpha_\infty = \beta_0 = 1}: the
#' transitions to 1 happen at extreme \eqn{\lambda} (Sykes et al., Figure
#' 3b).
#'
#' @param n Number of real samples.
#' @param d Dimension (default 64).
#' @param means Mode centres: a vector of K numbers \eqn{\mu_\ell} (mode
#'   \eqn{\ell} centred at \eqn{\mu_\ell 1_d}; default `c(0, -5, 3, 5)`),
#'   or a K x d matrix of centres.
#' @param weights_real,weights_generated Weights \eqn{p_\ell} and
#'   \eqn{q_\ell} of the K modes in P and Q (normalised; defaults
#'   `c(0.2, 0.2, 0.6, 0)` and `c(0, 0.5, 0.1, 0.4)`, Sykes et al.).
#' @param sd Common standard deviation of every coordinate (default 1).
#' @param n_generated Number of generated samples (default `n`).
#' @param truth_n Monte Carlo draws for the truth when `means` is a matrix.
#' @inheritParams prd_curve
#' @return A list with `real`, `generated` (matrices), `truth` (a
#'   `prd_curve`, `method = "truth"`) and `mixtures` (the two
#'   [gaussian_mixture()] objects, `real` and `generated`).
#' @section Errors: `n`, `d`, `n_generated` must be whole numbers (n >= 2),
#'   with n x d and `n_generated` x d at most 1e8 values (800 MB per
#'   matrix); `means` a vector or a matrix with d columns; `weights_real` and
#'   `weights_generated` one non-negative weight per component, with
#'   positive sums; `sd` a positive number.
#' @references Sykes, B., Simon, L., Rabin, J. and Fadili, J. (2024),
#'   section 5.1.2, Figure 3 and Appendix D.2 (Figure 16).
#' @seealso [gaussian_mixture()], [prd_truth()].
#' @examples
#' set.seed(1)
#' sim <- sim_gaussian_mixtures(n = 500, d = 8)
#' summary(sim$truth)[, c("auc", "median_precision", "median_recall")]
#' @export
sim_gaussian_mixtures <- function(n = 1000, d = 64, means = c(0, -5, 3, 5),
                                  weights_real = c(0.2, 0.2, 0.6, 0),
                                  weights_generated = c(0, 0.5, 0.1, 0.4),
                                  sd = 1, n_generated = n, truth_n = 1e5,
                                  angles = 1001) {
  sizes <- check_sim_sizes(n, d, n_generated)
  n <- sizes$n
  d <- sizes$d
  n_generated <- sizes$n_generated
  angles <- check_angles(angles)
  sd <- check_positive(sd, len = 1)
  collinear <- is.numeric(means) && is.null(dim(means))
  centres <- if (collinear) outer(as.double(means), rep(1, d)) else means
  if (!is.matrix(centres) || !is.numeric(centres) || nrow(centres) < 1L ||
      ncol(centres) != d) {
    prd_abort("{.arg means} must be a numeric vector or a matrix with {d} columns.")
  }
  weights_real <- check_weights(weights_real, len = nrow(centres))
  weights_generated <- check_weights(weights_generated, len = nrow(centres))
  mix_p <- gaussian_mixture(centres, sd = sd, weights = weights_real)
  mix_q <- gaussian_mixture(centres, sd = sd, weights = weights_generated)
  real <- mix_p$sample(n)
  generated <- mix_q$sample(n_generated)
  truth <- if (collinear) {
    truth_collinear(as.double(means), d, sd, mix_p$weights, mix_q$weights,
                    angles)
  } else {
    prd_truth(mix_p, mix_q, n = truth_n, angles = angles)
  }
  list(real = real, generated = generated, truth = truth,
       mixtures = list(real = mix_p, generated = mix_q))
}

#' Exact curve of two one-dimensional Gaussian mixtures with common sd,
#' alpha_lambda = int min(lambda p, q), by quadrature in log space.
#'
#' The integrand lives within 12 sd of the modes (beyond, each mode's mass
#' is below 2 pnorm(-12) = 3.6e-33), so the grid covers those windows only
#' (merged where they overlap), with step sd / 200, in standardised units:
#' the grid has at most 4801 points per mode whatever the spread of the
#' modes relative to sd (a tiny sd or modes 1e300 apart are fine). The
#' factor sd cancels between the densities and the step.
#' @noRd
truth_collinear <- function(mu, d, sd, wp, wq, angles) {
  # position of mode j minus that of mode i, in sd units: modes are at
  # mu * sqrt(d) on the projection; overflow gives +-Inf (far), never NaN
  sdist <- function(i, j) ((mu[j] - mu[i]) * sqrt(d)) / sd
  used <- which(wp > 0 | wq > 0)
  o <- used[order(mu[used])]
  gap <- if (length(o) > 1L) sdist(o[-length(o)], o[-1L]) else numeric(0)
  # a new window starts where the gap exceeds 24 sd
  group <- cumsum(c(TRUE, gap > 24))
  lp <- numeric(0)
  lq <- numeric(0)
  for (g in unique(group)) {
    members <- o[group == g]
    anchor <- members[1L]
    span <- sdist(anchor, members[length(members)])  # < 24 per mode
    z <- seq(-2400, ceiling(span * 200) + 2400) / 200
    logmix <- function(w) {
      keep <- which(w > 0)
      comps <- vapply(keep, function(l)
        log(w[l]) + stats::dnorm(z - sdist(anchor, l), log = TRUE),
        numeric(length(z)))
      if (!is.matrix(comps)) comps <- matrix(comps, ncol = 1L)
      log_sum_exp(comps)
    }
    lp <- c(lp, logmix(wp))
    lq <- c(lq, logmix(wq))
  }
  lambda <- lambda_grid(angles)
  # step sd / 200 times densities in 1 / sd units: weights exp(.) / 200
  env <- discrete_envelope(exp(lp) / 200, exp(lq) / 200, lambda,
                           key = log_ratio_key(lp, lq), t = log(lambda))
  alpha <- pmin(env$alpha, pmin(lambda, 1))
  beta <- pmin(env$beta, pmin(1, 1 / lambda))
  new_prd_curve(lambda, alpha, beta, max_precision = 1, max_recall = 1,
                method = "truth",
                info = curve_info(source = "prd_truth", angles = angles,
                                  details = list(quadrature = TRUE)))
}

#' log(q / p) from log-densities, with -Inf / +Inf where one is zero (NaN
#' where both are, dropped by discrete_envelope()).
#' @noRd
log_ratio_key <- function(lp, lq) {
  key <- lq - lp
  key[lp == -Inf & lq > -Inf] <- Inf
  key[lq == -Inf & lp > -Inf] <- -Inf
  key
}

#' Concentric spheres (Khayatkhoei and AbdAlmageed 2023)
#'
#' Real samples uniform on the unit sphere \eqn{S^{d-1}} and generated
#' samples uniform on the concentric sphere of radius `radius` (or, with
#' `support = "ball"`, in the ball of that radius): the setting in which
#' Khayatkhoei and AbdAlmageed (2023, section 2, Figure 1) show the
#' emergent asymmetry of k-NN precision and recall in high dimensions.
#'
#' The truth is exact: unless the two distributions are equal (`support =
#' "sphere"`, `radius = 1`: the square through (1, 1)), they are mutually
#' singular (different spheres are disjoint; a sphere has volume 0 under a
#' distribution with a density), so \eqn{\alpha_\lambda = \beta_\lambda =
#' 0} for every \eqn{\lambda}: the PR set is the origin. Every estimate is
#' then an overestimate, and its [prd_iou()] with the truth is 0.
#'
#' @param n Number of real samples.
#' @param d Dimension (default 64).
#' @param radius Radius of the generated sphere or ball (positive; default
#'   1.1).
#' @param n_generated Number of generated samples (default `n`).
#' @param support `"sphere"` (default) or `"ball"`.
#' @inheritParams prd_curve
#' @return A list with `real`, `generated` (matrices) and `truth` (a
#'   `prd_curve`, `method = "truth"`).
#' @section Errors: `n`, `d`, `n_generated` must be whole numbers (n >= 2),
#'   with n x d and `n_generated` x d at most 1e8 values (800 MB per
#'   matrix); `radius` a positive number; `support` one of `"sphere"`,
#'   `"ball"`.
#' @references Khayatkhoei, M. and AbdAlmageed, W. (2023). Emergent
#'   asymmetry of precision and recall for measuring fidelity and diversity
#'   of generative models in high dimensions. ICML. Section 2 and
#'   Propositions 3.1, 3.2.
#' @examples
#' set.seed(1)
#' sim <- sim_spheres(n = 300, d = 32, radius = 1.05)
#' summary(prd_curve(sim$real, sim$generated, method = "knn"))$auc
#' summary(sim$truth)$auc
#' @export
sim_spheres <- function(n = 1000, d = 64, radius = 1.1, n_generated = n,
                        support = c("sphere", "ball"), angles = 1001) {
  sizes <- check_sim_sizes(n, d, n_generated, d_min = 2)
  n <- sizes$n
  d <- sizes$d
  n_generated <- sizes$n_generated
  radius <- check_positive(radius, len = 1)
  support <- check_choice(support, c("sphere", "ball"))
  angles <- check_angles(angles)
  on_sphere <- function(m) {
    z <- matrix(stats::rnorm(m * d), m, d)
    z / sqrt(rowSums(z^2))
  }
  real <- on_sphere(n)
  generated <- on_sphere(n_generated) * radius
  if (support == "ball") {
    generated <- generated * stats::runif(n_generated)^(1 / d)
  }
  same <- support == "sphere" && radius == 1
  truth <- prd_discrete(if (same) 1 else c(1, 0), if (same) 1 else c(0, 1),
                        angles = angles)
  truth$method <- "truth"
  list(real = real, generated = generated, truth = truth)
}

# ---- helpers shared by the simulators and plug-in curves ------------------

#' Most values (rows x columns) drawn into one matrix by the simulators,
#' `gaussian_mixture()$sample()` and `prd_kde_plugin()`, and most draws per
#' distribution in `prd_truth()`: 1e8 doubles, 800 MB.
#' @noRd
max_draws <- 1e8

#' The sizes of a simulator's two sets: `n` and `n_generated` whole numbers
#' of at least 2 rows, `d` of at least `d_min` columns, each set within
#' `max_draws`; errors name the argument and the simulator's call.
#' @return list(n, d, n_generated), as checked
#' @noRd
check_sim_sizes <- function(n, d, n_generated, d_min = 1,
                            call = rlang::caller_env()) {
  big <- .Machine$integer.max
  n <- check_count(n, min = 2, max = big, call = call)
  d <- check_count(d, min = d_min, max = big, call = call)
  n_generated <- check_count(n_generated, min = 2, max = big, call = call)
  check_draw_size(n, d, call = call)
  check_draw_size(n_generated, d, call = call)
  list(n = n, d = d, n_generated = n_generated)
}

#' Refuse a draw of n rows of d values beyond `max_draws`, naming `arg`.
#' @noRd
check_draw_size <- function(n, d, arg = rlang::caller_arg(n),
                            call = rlang::caller_env()) {
  if (as.double(n) * d > max_draws) {
    prd_abort(c(
      "{.arg {arg}} is too large: {fmt_count(n)} row{cli::qty(n)}{?s} x {fmt_count(d)} column{cli::qty(d)}{?s} = {fmt_count(as.double(n) * d)} values, above the limit of 1e8 values (800 MB) per matrix.",
      "i" = "Draw in batches of at most {fmt_count(floor(max_draws / d))} rows."
    ), call = call)
  }
  invisible(TRUE)
}

#' Weights divided by their sum, through their maximum first so that a sum
#' beyond the largest double (weights of 1e308) cannot turn them into 0.
#' @noRd
normalise_weights <- function(w) {
  w <- w / max(w)
  w / sum(w)
}

#' Row-wise log(sum(exp(.))) of a matrix of log-terms; -Inf where every
#' term is -Inf (not NaN).
#' @noRd
log_sum_exp <- function(comps) {
  m <- comps[, 1L]
  for (j in seq_len(ncol(comps))[-1L]) m <- pmax(m, comps[, j])
  out <- m + log(rowSums(exp(comps - m)))
  out[!is.na(m) & m == -Inf] <- -Inf
  out
}

#' A count for a message: 12,345,678 (no scientific notation).
#' @noRd
fmt_count <- function(x) format(x, big.mark = ",", scientific = FALSE)
