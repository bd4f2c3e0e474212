#' Exact PR curve of two discrete distributions
#'
#' For weights \eqn{p} (real) and \eqn{q} (generated) on the same finite
#' set, normalised to sum to one, \eqn{\alpha_\lambda = \sum_i \min(\lambda
#' p_i, q_i)} and \eqn{\beta_\lambda = \sum_i \min(p_i, q_i / \lambda)}
#' (Sajjadi et al. 2018, Theorem 2; Sykes et al. 2024, eq. 2). The end rows
#' are \eqn{\beta_0 = \sum_{q_i > 0} p_i} and \eqn{\alpha_\infty =
#' \sum_{p_i > 0} q_i}.
#'
#' With class proportions as weights this is the true curve of the
#' class-subset experiment (a rectangle with maximal precision
#' \eqn{\alpha_\infty} and maximal recall \eqn{\beta_0}; see
#' [prd_class_subset()]).
#'
#' @param p,q Non-negative finite weights of the same length, each with a
#'   positive sum (counts or probabilities).
#' @param angles Number of \eqn{\lambda} values on the grid of
#'   [prd_curve()].
#' @return A `prd_curve` with `method = "discrete"`.
#' @references Sajjadi, M. S. M., Bachem, O., Lucic, M., Bousquet, O. and
#'   Gelly, S. (2018). Assessing generative models via precision and
#'   recall. NeurIPS. Theorem 2.
#' @examples
#' # P uniform on classes 0-4, Q on classes 0-2: max precision 1, recall 3/5
#' summary(prd_discrete(c(1, 1, 1, 1, 1), c(1, 1, 1, 0, 0)))
#' @export
prd_discrete <- function(p, q, angles = 1001) {
  for (nm in c("p", "q")) {
    v <- if (nm == "p") p else q
    if (!is.numeric(v) || length(v) < 1L || !all(is.finite(v)) ||
        any(v < 0) || sum(v) <= 0) {
      cli::cli_abort(
        "{.arg {nm}} must be non-negative finite weights with a positive sum."
      )
    }
  }
  if (length(p) != length(q)) {
    cli::cli_abort(c(
      "{.arg p} and {.arg q} must have the same length.",
      "x" = "{.arg p} has {length(p)}, {.arg q} has {length(q)}."
    ))
  }
  angles <- check_angles(angles)
  p <- p / sum(p)
  q <- q / sum(q)
  lambda <- lambda_grid(angles)
  alpha <- vapply(lambda, function(l) sum(pmin(l * p, q)), numeric(1))
  beta <- vapply(lambda, function(l) sum(pmin(p, q / l)), numeric(1))
  cv <- tibble::tibble(method = "discrete", lambda = c(0, lambda, Inf),
                       precision = c(0, alpha, sum(q[p > 0])),
                       recall = c(sum(p[q > 0]), beta, 0))
  new_prd_curve(cv, angles = angles)
}
