#' Summaries of a precision-recall curve
#'
#' Scalar summaries of each method's curve (Sykes et al. 2024, section
#' 4.4), computed from the curve's rows in polar form: the point at
#' \eqn{\lambda} lies on the ray \eqn{\alpha = \lambda\beta} at angle
#' \eqn{\theta = \arctan\lambda}, with squared radius
#' \eqn{\rho^2 = \alpha^2 + \beta^2}.
#'
#' * `auc`: area of the PR set, \eqn{\int_0^{\pi/2} \rho(\theta)^2/2\,
#'   d\theta} (1 for P = Q), by the trapezoid rule on the curve's angle
#'   grid: the error is about 1e-6 at the default 1001 angles, while coarse
#'   grids overestimate (1.008 for P = Q with 11 angles).
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
#' @param object A [prd_curve()] result (any curve of this package).
#' @param beta The weight b of the F-scores (default 8).
#' @param epsilon The level \eqn{\epsilon} of `precision_at_recall` and
#'   `recall_at_precision` (default 0.05).
#' @param ... Unused.
#' @return A tibble with one row per method and the columns `method`,
#'   `auc`, `max_precision`, `max_recall`, `f_beta_precision`,
#'   `f_beta_recall`, `median_lambda`, `median_precision`, `median_recall`,
#'   `precision_at_recall`, `recall_at_precision`.
#' @section Errors: `beta` and `epsilon` must be single positive finite
#'   numbers.
#' @references Sykes, B., Simon, L., Rabin, J. and Fadili, J. (2024),
#'   section 4.4 (AuC, \eqn{F_b}, PR median, \eqn{\alpha@\epsilon}).
#'   Sajjadi, M. S. M. et al. (2018), section 4 (F_8, F_1/8).
#' @examples
#' summary(prd_truth_gaussian(c(0, 0), c(1, 0)))
#' @export
summary.prd_curve <- function(object, beta = 8, epsilon = 0.05, ...) {
  beta <- check_positive(beta, len = 1)
  epsilon <- check_positive(epsilon, len = 1)
  rows <- lapply(split_methods(object), function(cv) {
    pol <- curve_polar(cv)
    area <- cumulative_area(pol$theta, pol$rho2)
    total <- area[length(area)]
    th_med <- stats::approx(area, pol$theta, xout = total / 2,
                            ties = "ordered")$y
    a <- cv$precision
    b <- cv$recall
    b2 <- beta^2
    fp <- ifelse(a > 0 & b > 0, (1 + b2) * a * b / (b2 * b + a), 0)
    fr <- ifelse(a > 0 & b > 0, (1 + b2) * a * b / (b2 * a + b), 0)
    tibble::tibble(
      method = cv$method[1],
      auc = total,
      max_precision = a[pol$theta == max(pol$theta)][1],
      max_recall = b[pol$theta == min(pol$theta)][1],
      f_beta_precision = max(fp),
      f_beta_recall = max(fr),
      median_lambda = tan(th_med),
      median_precision = stats::approx(pol$theta, a, xout = th_med)$y,
      median_recall = stats::approx(pol$theta, b, xout = th_med)$y,
      precision_at_recall = frontier_at(b, a, epsilon),
      recall_at_precision = frontier_at(a, b, epsilon)
    )
  })
  do.call(rbind, rows)
}

#' One curve per method, in increasing lambda order.
#' @noRd
split_methods <- function(curve) {
  curve <- as.data.frame(curve)
  meth <- unique(curve$method)
  lapply(meth, function(m) {
    cv <- curve[curve$method == m, , drop = FALSE]
    cv[order(cv$lambda), , drop = FALSE]
  })
}

curve_polar <- function(cv) {
  list(theta = atan(cv$lambda), rho2 = cv$precision^2 + cv$recall^2)
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
#' @param curve1,curve2 `prd_curve` objects. `curve2` has either one method
#'   (compared with every method of `curve1`) or the same methods as
#'   `curve1` (compared method by method).
#' @return A named numeric vector, one IoU in \[0, 1\] per method of
#'   `curve1`.
#' @section Errors: inputs that are not curves (data frames with columns
#'   `method`, `lambda`, `precision`, `recall` and at least 2 rows); a
#'   `curve2` whose methods neither are one nor match those of `curve1`.
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
  c1 <- split_methods(curve1)
  c2 <- split_methods(curve2)
  m1 <- vapply(c1, function(cv) cv$method[1], "")
  m2 <- vapply(c2, function(cv) cv$method[1], "")
  if (length(c2) != 1L && !setequal(m1, m2)) {
    cli::cli_abort(c(
      "{.arg curve2} must have one method or the same methods as {.arg curve1}.",
      "x" = "{.arg curve1} has {.val {m1}}, {.arg curve2} has {.val {m2}}."
    ))
  }
  out <- vapply(seq_along(c1), function(i) {
    other <- if (length(c2) == 1L) c2[[1]] else c2[[match(m1[i], m2)]]
    iou_polar(curve_polar(c1[[i]]), curve_polar(other))
  }, numeric(1))
  stats::setNames(out, m1)
}

iou_polar <- function(p1, p2) {
  th <- sort(unique(c(p1$theta, p2$theta)))
  r1 <- stats::approx(p1$theta, p1$rho2, xout = th, ties = mean, rule = 2)$y
  r2 <- stats::approx(p2$theta, p2$rho2, xout = th, ties = mean, rule = 2)$y
  lo <- cumulative_area(th, pmin(r1, r2))
  hi <- cumulative_area(th, pmax(r1, r2))
  lo[length(lo)] / hi[length(hi)]
}
