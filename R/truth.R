#' Exact PR curve of two Gaussians with a common covariance
#'
#' The ground-truth curve for \eqn{P = N(\mu_P, \Sigma)} (real) and
#' \eqn{Q = N(\mu_Q, \Sigma)} (generated), given by the likelihood-ratio
#' classifier (Simon et al. 2019, Theorem 4; Sykes et al. 2024, section
#' 5.1): with \eqn{\delta} the Mahalanobis distance between the means and
#' \eqn{t = \log(\lambda)/\delta + \delta/2},
#' \deqn{\alpha_\lambda = \lambda (1 - \Phi(t)) + \Phi(t - \delta),}
#' and \eqn{\alpha_\lambda = \min(\lambda, 1)} when \eqn{\delta = 0}.
#'
#' @param mean_real,mean_generated Mean vectors of P and Q (length d).
#' @param cov Common covariance: `NULL` for the identity, a single variance
#'   (times the identity) or a d x d positive definite matrix.
#' @param angles Number of \eqn{\lambda} values on the grid of
#'   [prd_curve()].
#' @return A `prd_curve` with `method = "truth"` and attribute `delta`.
#' @references Simon, L., Webster, R. and Rabin, J. (2019), Theorem 4.
#'   Sykes, B. et al. (2024), section 5.1 (shifted Gaussians).
#' @examples
#' truth <- prd_truth_gaussian(rep(0, 64), c(1, rep(0, 63)))
#' summary(truth)
#' @export
prd_truth_gaussian <- function(mean_real, mean_generated, cov = NULL,
                               angles = 1001) {
  if (!is.numeric(mean_real) || !is.numeric(mean_generated) ||
      length(mean_real) != length(mean_generated) ||
      length(mean_real) < 1L || !all(is.finite(c(mean_real, mean_generated)))) {
    cli::cli_abort(
      "{.arg mean_real} and {.arg mean_generated} must be finite numeric vectors of the same length."
    )
  }
  angles <- check_angles(angles)
  diff <- mean_generated - mean_real
  if (is.null(cov)) {
    delta <- sqrt(sum(diff^2))
  } else if (is.numeric(cov) && length(cov) == 1L && is.finite(cov) &&
             cov > 0) {
    delta <- sqrt(sum(diff^2) / cov)
  } else if (is.matrix(cov) && all(dim(cov) == length(diff)) &&
             all(is.finite(cov))) {
    ch <- tryCatch(chol(cov), error = function(e) NULL)
    if (is.null(ch)) {
      cli::cli_abort("{.arg cov} must be positive definite.")
    }
    delta <- sqrt(sum(backsolve(ch, diff, transpose = TRUE)^2))
  } else {
    cli::cli_abort(
      "{.arg cov} must be NULL, one positive variance or a {length(diff)} x {length(diff)} matrix."
    )
  }
  lambda <- lambda_grid(angles)
  if (delta == 0) {
    alpha <- pmin(lambda, 1)
    beta <- pmin(1, 1 / lambda)
  } else {
    t <- log(lambda) / delta + delta / 2
    alpha <- lambda * stats::pnorm(t, lower.tail = FALSE) +
      stats::pnorm(t - delta)
    beta <- stats::pnorm(t, lower.tail = FALSE) + stats::pnorm(t - delta) / lambda
  }
  cv <- tibble::tibble(method = "truth", lambda = c(0, lambda, Inf),
                       precision = c(0, alpha, 1), recall = c(1, beta, 0))
  new_prd_curve(cv, delta = delta, angles = angles)
}
