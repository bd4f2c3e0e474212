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
#' Any magnitude is safe: \eqn{\delta} is computed without overflow of the
#' squares, and as \eqn{\delta \to \infty} (means 1e200 apart, a variance
#' of 1e-320) the curve tends to \eqn{\alpha_\lambda = \beta_\lambda = 0}
#' at every finite \eqn{\lambda > 0}: \eqn{t \to \infty} and
#' \eqn{t - \delta \to -\infty}, the two distributions become disjoint
#' and the PR set shrinks to the origin. The end rows stay
#' \eqn{\alpha_\infty = \beta_0 = 1} (Gaussians have full support, so
#' these limits are 1 for every finite \eqn{\delta}). A \eqn{\delta}
#' beyond the largest double is returned as `Inf`.
#'
#' @param mean_real,mean_generated Mean vectors of P and Q (length d).
#' @param cov Common covariance: `NULL` for the identity, a single variance
#'   (times the identity) or a d x d positive definite matrix.
#' @param angles Number of \eqn{\lambda} values on the grid of
#'   [prd_curve()].
#' @return A `prd_curve` with `method = "truth"`; the Mahalanobis
#'   distance between the means is `prd_curve_info(x)$details[[1]]$delta`.
#' @section Errors: the means must be finite numeric vectors of the same
#'   length; `cov` a positive variance or a symmetric positive definite
#'   d x d matrix; `angles` a whole number >= 3.
#' @references Simon, L., Webster, R. and Rabin, J. (2019), Theorem 4.
#'   Sykes, B. et al. (2024), section 5.1 (shifted Gaussians).
#' @examples
#' truth <- prd_truth_gaussian(rep(0, 64), c(1, rep(0, 63)))
#' summary(truth)
#' @export
prd_truth_gaussian <- function(mean_real, mean_generated, cov = NULL,
                               angles = 1001) {
  check_mean_pair(mean_real, mean_generated)
  angles <- check_angles(angles)
  delta <- mahalanobis_delta(as.double(mean_real), as.double(mean_generated),
                             cov)
  lambda <- lambda_grid(angles)
  if (delta == 0) {
    alpha <- pmin(lambda, 1)
    beta <- pmin(1, 1 / lambda)
  } else {
    # t and t - delta are formed separately, so a huge or infinite delta
    # gives alpha = beta = 0 (disjoint in the limit), never Inf - Inf
    u <- log(lambda) / delta
    t <- u + delta / 2
    t_minus_delta <- u - delta / 2
    a <- stats::pnorm(t, lower.tail = FALSE)
    b <- stats::pnorm(t_minus_delta)
    alpha <- pmin(lambda * a + b, pmin(lambda, 1))
    beta <- pmin(a + b / lambda, pmin(1, 1 / lambda))
  }
  new_prd_curve(lambda, pmin(alpha, 1), pmin(beta, 1), max_precision = 1,
                max_recall = 1, method = "truth",
                info = curve_info(source = "prd_truth_gaussian",
                                  angles = angles,
                                  details = list(delta = delta)))
}

#' Mahalanobis distance of two mean vectors under `cov` (NULL, a positive
#' variance or a d x d matrix), without overflow or underflow of the
#' squares: the means are scaled by a power of two first (exact), and a
#' result beyond the double range is Inf (or 0), not NaN.
#' @noRd
mahalanobis_delta <- function(mean_real, mean_generated, cov,
                              call = rlang::caller_env()) {
  d <- length(mean_real)
  m <- max(abs(mean_real), abs(mean_generated))
  if (m == 0) {
    diff <- rep(0, d)
    s <- 1
  } else {
    s <- 2^floor(log2(m))
    diff <- mean_generated / s - mean_real / s   # |diff| <= 4, exact scaling
  }
  if (is.null(cov)) {
    return(scaled_product(safe_norm(diff), s))
  }
  if (is.matrix(cov)) {
    ch <- check_covariance(cov, d, call = call)
    z <- backsolve(ch, diff, transpose = TRUE)
    # finite inputs give NaN only through an overflow: delta is beyond range
    nz <- if (anyNA(z)) Inf else safe_norm(z)
    return(scaled_product(nz, s))
  }
  if (is.numeric(cov) && length(cov) == 1L && is.finite(cov) && cov > 0) {
    return(scaled_product(safe_norm(diff), s, 1 / sqrt(cov)))
  }
  prd_abort(
    "{.arg cov} must be NULL, one positive variance or a {d} x {d} matrix.",
    call = call
  )
}

#' Euclidean norm of a finite vector, scaled by its largest entry so the
#' squares neither overflow nor underflow.
#' @noRd
safe_norm <- function(x) {
  m <- max(abs(x))
  if (m == 0 || !is.finite(m)) return(m)
  m * sqrt(sum((x / m)^2))
}

#' x * a * b for non-negative x and positive a, b, through logarithms when
#' the direct product overflows or underflows (0 stays 0).
#' @noRd
scaled_product <- function(x, a, b = 1) {
  if (x == 0) return(0)
  out <- x * a * b
  if (is.finite(out) && out > 0) return(out)
  exp(log(x) + log(a) + log(b))
}

#' Ground-truth PR curve by Monte Carlo, for any pair of distributions
#'
#' The true PR curve of P (real) and Q (generated) is given by the
#' likelihood-ratio classifier (Simon, Webster and Rabin 2019, Theorem 4):
#' \deqn{\alpha_\lambda = \lambda P(q/p > \lambda) + Q(q/p \le \lambda),
#' \qquad \beta_\lambda = \alpha_\lambda / \lambda.}
#' `prd_truth()` estimates both probabilities with `n` independent draws
#' from each distribution, as Sykes et al. (2024, section 5.1) do for their
#' toy experiments (with \eqn{n^{GT}} = 100,000). All computations use the
#' log-density ratio, so densities far below the smallest double are fine.
#' The end rows are \eqn{\alpha_\infty = Q(p > 0)} and
#' \eqn{\beta_0 = P(q > 0)}.
#'
#' The estimate of \eqn{\alpha_\lambda} is unbiased with variance
#' \eqn{\lambda^2 a(1 - a)/n_P + b(1 - b)/n_Q}, where \eqn{a = P(q/p >
#' \lambda)} and \eqn{b = Q(q/p \le \lambda)}; the estimated standard errors
#' are returned in `prd_curve_info(x)$details[[1]]$std_error`. For two Gaussians with a common
#' covariance the exact closed form [prd_truth_gaussian()] is faster and
#' exact; [sim_gaussian_mixtures()] uses an exact one-dimensional
#' quadrature for the mixtures of Sykes et al. (2024, section 5.1.2).
#'
#' @param log_density_real,log_density_generated Functions taking an
#'   n x d matrix of points and returning the n log-densities (natural
#'   log; normalising constants may be omitted only if they are the same
#'   for both). Or [gaussian_mixture()] objects, whose `log_density` and
#'   `sample` are then used (and `sample_real`, `sample_generated` may be
#'   omitted).
#' @param sample_real,sample_generated Functions taking a count n and
#'   returning n independent draws as an n x d matrix (a vector is taken as
#'   one-dimensional).
#' @param n Number of Monte Carlo draws from each distribution: one number
#'   or two (real, generated), each between 10 and 1e8. Default 100,000.
#' @inheritParams prd_curve
#' @return A `prd_curve` with `method = "truth"`. Its [prd_curve_info()]
#'   row gives the numbers of draws (`n_eval_real`, `n_eval_generated`),
#'   `angles`, and in `details[[1]]$std_error` a tibble with `lambda` and
#'   the standard errors of `precision` and `recall`. Its ends, the
#'   `max_precision` and `max_recall` of [summary()], are the curve at
#'   \eqn{\lambda = \infty} and 0: for laws of full support (Gaussians,
#'   their mixtures) both are 1, though the curve may stay far below over
#'   every other \eqn{\lambda}. A model that drops classes of mass 0.25 of
#'   a Gaussian mixture has recall 0.75 from about \eqn{\lambda = 1} down
#'   to the smallest \eqn{\lambda} of the grid, and 1 only at its end;
#'   estimates, which see no far tails, read about 0.75 there. Compare
#'   curves, or their area, not these ends.
#' @section Errors: arguments that are not functions (or mixtures); `n`
#'   not one or two whole numbers between 10 and 1e8; a
#'   sampler that does not return `n` rows, or samplers of different
#'   dimensions; log-densities that are not `n` numbers or are `NaN`, or
#'   both `-Inf` at a draw.
#' @references Simon, L., Webster, R. and Rabin, J. (2019). Revisiting
#'   precision and recall definition for generative model evaluation. ICML.
#'   Theorem 4. Sykes, B., Simon, L., Rabin, J. and Fadili, J. (2024),
#'   section 5.1 (Monte Carlo ground truth).
#' @seealso [prd_truth_gaussian()], [gaussian_mixture()],
#'   [sim_gaussian_mixtures()].
#' @examples
#' # P = N(0, 1), Q = N(1, 1) in one dimension: compare with the closed form
#' set.seed(1)
#' mc <- prd_truth(function(x) dnorm(x[, 1], log = TRUE),
#'                 function(x) dnorm(x[, 1], 1, log = TRUE),
#'                 function(n) rnorm(n), function(n) rnorm(n, 1),
#'                 n = 20000, angles = 11)
#' exact <- prd_truth_gaussian(0, 1, angles = 11)
#' cbind(mc = mc$precision, exact = exact$precision)
#'
#' # Gaussian mixtures: mode dropping and re-weighting
#' p <- gaussian_mixture(rbind(c(0, 0), c(4, 0)), weights = c(0.5, 0.5))
#' q <- gaussian_mixture(rbind(c(0, 0), c(4, 0)), weights = c(1, 0))
#' summary(prd_truth(p, q, n = 20000))
#' @export
prd_truth <- function(log_density_real, log_density_generated,
                      sample_real = NULL, sample_generated = NULL,
                      n = 1e5, angles = 1001) {
  if (inherits(log_density_real, "prd_gaussian_mixture")) {
    if (is.null(sample_real)) sample_real <- log_density_real$sample
    log_density_real <- log_density_real$log_density
  }
  if (inherits(log_density_generated, "prd_gaussian_mixture")) {
    if (is.null(sample_generated)) sample_generated <- log_density_generated$sample
    log_density_generated <- log_density_generated$log_density
  }
  hint <- "Or give {.fn gaussian_mixture} objects as the log-densities."
  check_function(log_density_real, hint = hint)
  check_function(log_density_generated, hint = hint)
  check_function(sample_real, hint = hint)
  check_function(sample_generated, hint = hint)
  if (!is.numeric(n) || !(length(n) %in% 1:2)) {
    prd_abort("{.arg n} must be one or two whole numbers between 10 and 1e8.")
  }
  n <- rep_len(n, 2)
  n <- c(check_count(n[1], "n", min = 10, max = max_draws),
         check_count(n[2], "n", min = 10, max = max_draws))
  angles <- check_angles(angles)
  x <- check_draws(call_user(sample_real, n[1], "sample_real"), n[1],
                   "sample_real")
  y <- check_draws(call_user(sample_generated, n[2], "sample_generated"),
                   n[2], "sample_generated")
  check_same_columns(x, y, "sample_real", "sample_generated")
  lr_x <- log_ratio(log_density_real, log_density_generated, x, "real")
  lr_y <- log_ratio(log_density_real, log_density_generated, y, "generated")
  ratio_curve(lr_x, lr_y, lambda_grid(angles), "truth", tr = log,
              info = curve_info(source = "prd_truth", angles = angles,
                                sizes = c(eval_real = n[1],
                                          eval_generated = n[2])))
}

#' log q(z) - log p(z) at the draws of one distribution, checked.
#' @noRd
log_ratio <- function(ld_real, ld_gen, z, which, call = rlang::caller_env()) {
  lp <- call_user(ld_real, z, "log_density_real", call = call)
  lq <- call_user(ld_gen, z, "log_density_generated", call = call)
  check_log_densities(lp, lq, nrow(z), which, call = call)
  r <- lq - lp
  r[lp == -Inf] <- Inf
  r[lq == -Inf] <- -Inf
  r
}

#' PR curve from any classifier's scores (Simon et al. 2019)
#'
#' Simon, Webster and Rabin (2019, section 5, Algorithm 1) estimate the PR
#' curve by training any binary classifier to tell real from generated
#' samples, then thresholding its scores on *held-out* samples: for every
#' threshold t, the rule "real if score \eqn{\ge t}" has error rates fpr (real
#' held-out samples called generated) and fnr (generated samples called
#' real), and \eqn{\hat\alpha_\lambda = \min_t \lambda\,\mathrm{fpr} +
#' \mathrm{fnr}}, \eqn{\hat\beta_\lambda = \hat\alpha_\lambda / \lambda}.
#' The minimum over all thresholds (both \eqn{\ge} and \eqn{>}) and the two
#' trivial classifiers is computed exactly by the same lower-envelope code
#' as [prd_curve()], with \eqn{-}`score` in the role of its score b / a.
#'
#' The scores must come from samples the classifier was **not** trained
#' on; otherwise the curve is biased low (an overfitted classifier
#' separates anything). Split each set, train on one part, score the other:
#' ```
#' train_real <- sample(nrow(real), nrow(real) / 2)
#' train_gen <- sample(nrow(generated), nrow(generated) / 2)
#' df <- data.frame(rbind(real[train_real, ], generated[train_gen, ]),
#'                  is_real = rep(1:0, c(length(train_real), length(train_gen))))
#' fit <- glm(is_real ~ ., family = binomial, data = df)
#' score <- function(z) predict(fit, newdata = data.frame(z))  # log-odds
#' prd_scores(score(real[-train_real, ]), score(generated[-train_gen, ]))
#' ```
#' Any model works the same way (a random forest's vote share, a neural
#' network's logit, ...): only the order of the scores matters, so any
#' increasing transform of the score gives the same curve. With the true
#' log-likelihood ratio \eqn{\log p - \log q} as score the curve is the
#' ground truth (up to sampling error); any other classifier gives a curve
#' below it in expectation (Simon et al. 2019, Theorem 5).
#'
#' @param score_real Scores of the held-out real samples (numeric vector;
#'   higher = "more real"; `-Inf` and `Inf` allowed, `NA` not).
#' @param score_generated Scores of the held-out generated samples.
#' @param label The label of the curve (column `method`: the classifier
#'   plays the role of the estimator family), default `"scores"`; useful to
#'   bind curves of several classifiers with [prd_bind()].
#' @param method `r lifecycle::badge("deprecated")` Use `label`.
#' @inheritParams prd_curve
#' @return A `prd_curve` with the columns `method`, `lambda`, `precision`,
#'   `recall`; the numbers of scores are in [prd_curve_info()].
#' @section Errors: scores that are not numeric, empty, or contain `NA` or
#'   `NaN`.
#' @references Simon, L., Webster, R. and Rabin, J. (2019). Revisiting
#'   precision and recall definition for generative model evaluation. ICML.
#'   Section 5, Algorithm 1, Theorems 4 and 5.
#' @seealso [prd_curve()], [prd_truth()].
#' @examples
#' # The log-likelihood ratio of N(0, 1) (real) against N(1, 1) is
#' # 0.5 - x: its curve approaches the exact one
#' set.seed(1)
#' x <- rnorm(5000)
#' y <- rnorm(5000, 1)
#' est <- prd_scores(0.5 - x, 0.5 - y)
#' prd_iou(est, prd_truth_gaussian(0, 1))
#' @export
prd_scores <- function(score_real, score_generated, label = "scores",
                       angles = 1001, method = deprecated()) {
  if (lifecycle::is_present(method)) {
    lifecycle::deprecate_warn("0.2.0", "prd_scores(method)",
                              "prd_scores(label)")
    label <- method
  }
  score_real <- check_scores(score_real)
  score_generated <- check_scores(score_generated)
  label <- check_string(label)
  angles <- check_angles(angles)
  lambda <- lambda_grid(angles)
  env <- curve_from_scores(-as.double(score_real),
                           -as.double(score_generated), lambda)
  new_prd_curve(lambda, env$precision, env$recall, env$max_precision,
                env$max_recall, method = label,
                info = curve_info(source = "prd_scores", angles = angles,
                                  sizes = c(eval_real = length(score_real),
                                            eval_generated = length(score_generated))))
}
