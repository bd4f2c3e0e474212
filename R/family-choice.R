# Helpers of the fitted families that choose a setting within their fit
# rows (the mixture family, R/family-mixture.R; the smoothed marginal
# family, R/family-smooth.R): the fit rows in an order that does not
# depend on the rows' positions, the criterion (the held-out logistic loss
# of a recalibrated log-likelihood ratio) and the choice among candidates.

#' The rows `rows` of X in the lexicographic order of their values (first
#' column, then the second on ties, ...), so that what a family draws
#' from its fit rows by position (inner folds, k-means++ seeds) does not
#' depend on the order of the rows: rows with equal values are
#' interchangeable.
#' @noRd
canonical_rows <- function(X, rows) {
  keys <- lapply(seq_len(ncol(X)), function(j) X[rows, j])
  rows[do.call(order, c(keys, list(method = "radix")))]
}

#' The held-out logistic loss of the log ratios s (log q - log p) of the
#' held-out rows, per row, the real rows `iv` first, after the best affine
#' recalibration a s + b (a logistic regression of the set on s, each
#' set's rows weighted so that the two sets count alike): -log(1 - pi) for
#' a real row, -log(pi) for a generated one, pi = 1 / (1 + e^-(a s + b)),
#' scaled so that the mean is the average of the two sets' mean losses. The
#' recalibration makes the loss judge the ranking the curve reads, not the
#' scale: with a few thousand rows in hundreds of dimensions every fitted
#' ratio is overconfident (its raw loss is above that of s = 0), and an
#' affine map of s leaves the curve unchanged.
#' @noRd
ratio_logistic_loss <- function(s, iv) {
  nv <- length(s)
  ng <- nv - length(iv)
  y <- rep(1, nv)
  y[iv] <- 0
  w <- rep(nv / ng, nv)
  w[iv] <- nv / length(iv)
  if (!ng || !all(is.finite(s))) return(rep(Inf, nv))
  # (centred and scaled s: the two coefficients on one scale)
  sc <- stats::sd(s)
  z <- if (sc > 0) (s - mean(s)) / sc else s - mean(s)
  # (src/choice.c: logistic_affine()'s fit, then -log(pi) =
  # softplus(-eta) for a generated row, -log(1 - pi) = softplus(eta) for a
  # real one, softplus(v) = max(v, 0) + log1p(exp(-|v|)))
  .Call(ffi_ratio_loss, as.double(z), y, w)
}

#' The weighted maximum-likelihood logistic regression of y (0/1) on (1, z):
#' the coefficients (a, b) of a + b z, by Newton's method on the two
#' parameters (the weighted MLE of glm(y ~ z, weights = w, family =
#' quasibinomial()), without its set-up on each call: ratio_logistic_loss()
#' fits one per candidate). Stops when a step moves the coefficients by
#' less than 1e-10, after 25 steps as glm.fit(), or when the sets separate
#' (the coefficients grow without bound: the loss is then near 0 at the
#' step reached, as glm.fit()'s).
#' @noRd
logistic_affine <- function(z, y, w) {
  # (src/choice.c: R's arithmetic and sum() in C, without the vectors of
  # each step)
  .Call(ffi_logistic_affine, as.double(z), as.double(y), as.double(w))
}

#' The choice among the columns of `lls` (a row per held-out row, a
#' column per candidate, higher better: held-out log-likelihoods, or
#' negated losses): the candidate with the fewest `params` among those
#' whose mean is within `se_mult` standard errors (of the paired per-row
#' differences) of the best mean; se_mult = 1 is the one-standard-error
#' rule, 0 the best mean (ties to the fewest `params`). Candidates with a
#' non-finite mean are never chosen (the first is when every one is).
#' @noRd
choose_within_se <- function(lls, params, se_mult = 1) {
  mean_ll <- colMeans(lls)
  ok <- is.finite(mean_ll)
  if (!any(ok)) return(1L)
  best <- which(ok)[which.max(mean_ll[ok])]
  nv <- nrow(lls)
  near <- vapply(seq_along(mean_ll), function(j) {
    if (!ok[j]) return(FALSE)
    dif <- lls[, j] - lls[, best]
    se <- if (nv > 1L) stats::sd(dif) / sqrt(nv) else 0
    mean(dif) >= -se_mult * se
  }, logical(1))
  cands <- which(near)
  cands[order(params[cands], -mean_ll[cands])][1]
}

#' At least 4 fit rows per set (nx, ny) for a family that chooses within
#' them, else prdcurve_error_split naming the family `what` and the set
#' @noRd
check_choice_rows <- function(nx, ny, what, call) {
  if (min(nx, ny) < 4L) {
    short <- if (nx <= ny) "real" else "generated"
    prd_abort(c(
      paste0("The ", what, " needs at least 4 fit rows per set (two inner folds of 2)."),
      "x" = "{.arg {short}} has {min(nx, ny)} fit row{?s}.",
      "i" = "Give more rows, a smaller {.arg split}, or another {.arg method}."
    ), "split", call = call)
  }
}

#' The fit rows of a family that chooses within them (two inner folds):
#' at least 4 per set (prdcurve_error_split naming the family `what`),
#' the sets as doubles, and the rows in the order of their values, so that
#' the fit is the same whatever the order of the rows under a fixed seed.
#' @noRd
choice_fit_rows <- function(real, generated, fx, fy, what, call) {
  fx <- as.integer(fx)
  fy <- as.integer(fy)
  check_choice_rows(length(fx), length(fy), what, call)
  if (!is.double(real)) storage.mode(real) <- "double"
  if (!is.double(generated)) storage.mode(generated) <- "double"
  list(real = real, generated = generated,
       fx = canonical_rows(real, fx), fy = canonical_rows(generated, fy))
}
