#' Precision-recall curve between real and generated samples
#'
#' Estimates the precision-recall (PR) curve of Sykes, Simon, Rabin and
#' Fadili (2024, section 2): for \eqn{\lambda \in [0, \infty]},
#' \eqn{\alpha_\lambda = (\lambda P \wedge Q)(\Omega)} (precision) and
#' \eqn{\beta_\lambda = \alpha_\lambda / \lambda} (recall), through its dual
#' form \eqn{\alpha_\lambda = \min_f \lambda\,\mathrm{fpr}(f) +
#' \mathrm{fnr}(f)} (their eq. 9) over a family of classifiers \eqn{f}
#' trained on a *fit* part of each set and evaluated on the *evaluation*
#' part (their section 4.2).
#'
#' Each method gives every evaluation point z two evidences, a(z) for P and
#' b(z) for Q, counted in the fit sets \eqn{X_f} (real) and \eqn{Y_f}
#' (generated), and the score s = b / a (with b / 0 = Inf and 0 / 0 = 1):
#'
#' * `"knn"`: counts of \eqn{X_f} and \eqn{Y_f} points among the
#'   \eqn{X_f \cup Y_f} points within the k-th neighbour distance of z
#'   (Sykes et al. 2024, section 2.4.1).
#' * `"kde"`: Parzen window counts, \eqn{\#\{x : \|x - z\| \le \sigma_X\}}
#'   and likewise for \eqn{Y_f} with \eqn{\sigma_Y}. The bandwidths default
#'   to the mean k-th neighbour distance within each fit set (section
#'   2.4.2).
#' * `"ipr"`: adaptive bandwidth, the number of fit points whose own k-NN
#'   ball contains z (improved precision and recall, Kynkaanniemi et al.
#'   2019; section 2.4.3).
#' * `"coverage"`: \eqn{\#\{x : \|x - z\| \le r_k(z; Y_f)\}} and
#'   \eqn{\#\{y : \|y - z\| \le r_k(z; X_f)\}} (coverage of Naeem et al.
#'   2020 and Khayatkhoei and AbdAlmageed 2023; section 2.4.4).
#'
#' The family is every threshold rule \eqn{1[s \le t]}, \eqn{1[s < t]}, the
#' two trivial classifiers and the two literature extremes \eqn{1[a \ge 1]}
#' and \eqn{1[b = 0]}; its lower envelope is computed exactly (convex hull
#' of the error pairs), not by trying every rule at every \eqn{\lambda}.
#' Distances are Euclidean; k-NN radii leave the point itself out (by row
#' index); ball membership is \eqn{\le} (`closed = TRUE`) or \eqn{<}.
#'
#' All requested methods come from one streamed sweep of the tiled distance
#' engine (no n x n matrix). Without a split (`split = 0`) the `"kde"`
#' method with estimated bandwidths needs a first sweep for the bandwidths.
#'
#' @param real Real samples (from P): a numeric matrix or data frame, one
#'   row per sample (n x d). Integer matrices are accepted.
#' @param generated Generated samples (from Q), m x d, same columns.
#' @param method One or more of `"knn"`, `"kde"`, `"ipr"`, `"coverage"`
#'   (default: all four).
#' @param k Number of neighbours, a whole number with
#'   1 <= k <= (smaller fit set size) - 1. Default
#'   `round(sqrt(min(n_fit_real, n_fit_generated)))`, which satisfies
#'   k -> Inf, k / n -> 0 (Sykes et al., Theorem 5).
#' @param split Fraction in \[0, 1) of each set held out for evaluation
#'   (default 0.5; the rest is the fit part; drawn with R's RNG, so
#'   [set.seed()] reproduces it). `0` is the literature's no-split setting
#'   (fit = evaluation = the whole set). Or explicit evaluation rows
#'   `list(real = <int>, generated = <int>)` for reproducible cross-fitting.
#' @param angles Number of \eqn{\lambda} values: \eqn{\lambda_i = \tan
#'   \theta_i}, \eqn{\theta_i} equally spaced in
#'   \[1e-10, \eqn{\pi}/2 - 1e-10\] (Sajjadi et al. 2018). Default 1001.
#' @param bandwidth For `"kde"`: `NULL` (estimated, see above), one
#'   positive distance for both sets, or two (real, generated). Same units
#'   as the features.
#' @param closed `TRUE` (default): balls are closed, \eqn{\|u - z\| \le r};
#'   `FALSE`: open, \eqn{<} (the convention of the `prdc` Python package).
#' @return A `prd_curve`: a tibble with one row per method and
#'   \eqn{\lambda}, columns `method` (character), `lambda` (0, the grid,
#'   then Inf), `precision` (\eqn{\hat\alpha_\lambda}) and `recall`
#'   (\eqn{\hat\beta_\lambda}), both in \[0, 1\]. The row \eqn{\lambda = 0}
#'   has precision 0 and the maximal recall \eqn{\hat\beta_0}; the row
#'   \eqn{\lambda = \infty} has the maximal precision
#'   \eqn{\hat\alpha_\infty} and recall 0. Attributes: `k`, `sizes` (fit
#'   and evaluation sizes), `split`, `bandwidth` (kde, as distances),
#'   `closed`, `angles`. Use [summary.prd_curve()], [prd_iou()],
#'   `autoplot()` and `plot()` on it.
#' @section Extreme points:
#' \eqn{\hat\beta_0} is the smallest fpr among the rules with fnr = 0, so a
#' single generated evaluation point that looks "real" (score 0: no
#' generated fit point in its ball, some real one) forces every such rule
#' to call all real points generated, and \eqn{\hat\beta_0 = 1};
#' symmetrically for \eqn{\hat\alpha_\infty}. With `"kde"` and `"ipr"`
#' this happens on small or clustered generated sets (on `digits` with one
#' generated class: maximal recall 1 against a true 0.2, while the rest of
#' the curve follows the truth); `"knn"` and `"coverage"` are far less
#' affected. Compare curves by area or [prd_iou()] rather than by the
#' extremes alone.
#' @section Errors: `real` and `generated` must be numeric with no NA, NaN
#'   or Inf, at least 2 rows, not all rows equal, and the same number of
#'   columns; `k` must fit the set sizes; `split` must be in \[0, 1) or
#'   valid distinct row numbers leaving at least 2 fit rows.
#' @references Sykes, B., Simon, L., Rabin, J. and Fadili, J. (2024). A new
#'   perspective on precision and recall for generative models.
#'   arXiv:2405.01611. Sections 2, 4.2, eq. 9.
#' @seealso [summary.prd_curve()], [prd_iou()], [prd_truth_gaussian()],
#'   [prd_discrete()], [prd_threads()].
#' @examples
#' set.seed(1)
#' real <- matrix(rnorm(400 * 8), ncol = 8)
#' generated <- matrix(rnorm(400 * 8, mean = 0.5), ncol = 8)
#' curve <- prd_curve(real, generated, method = c("knn", "coverage"))
#' curve
#' summary(curve)
#' @export
prd_curve <- function(real, generated,
                      method = c("knn", "kde", "ipr", "coverage"),
                      k = NULL, split = 0.5, angles = 1001,
                      bandwidth = NULL, closed = TRUE) {
  real <- as_samples(real)
  generated <- as_samples(generated)
  check_same_columns(real, generated)
  method <- check_methods(method, c("knn", "kde", "ipr", "coverage"))
  angles <- check_angles(angles)
  closed <- check_flag(closed)
  if (!is.null(bandwidth)) {
    bandwidth <- check_positive(bandwidth)
    if (!"kde" %in% method) {
      cli::cli_warn("{.arg bandwidth} is used by the {.val kde} method only; it is ignored here.")
    }
  }
  s <- resolve_split(split, nrow(real), nrow(generated))
  sizes <- split_sizes(s)
  limit <- min(sizes[["fit_real"]], sizes[["fit_generated"]]) - 1L
  if (is.null(k)) k <- max(1L, min(limit, round(sqrt(limit + 1))))
  k <- check_k(k, limit, what = "the fit sets")
  if (length(k) != 1L) cli::cli_abort("{.arg k} must be a single number.")

  nb <- engine_neighbours(real, generated, s, k, method,
                          bandwidth = bandwidth, bandwidth_k = k,
                          closed = closed)
  lambda <- lambda_grid(angles)
  ne <- sizes[["eval_real"]]
  curves <- lapply(method, function(m) {
    a <- nb[[paste0(m, "_a")]][, 1]
    b <- nb[[paste0(m, "_b")]][, 1]
    ix <- seq_len(ne)
    curve_from_evidence(a[ix], b[ix], a[-ix], b[-ix], lambda, m)
  })
  bw <- if ("kde" %in% method) {
    c(real = nb$kde_radius[1], generated = nb$kde_radius[2])
  } else {
    NULL
  }
  new_prd_curve(do.call(rbind, curves), k = k, sizes = sizes,
                split = s$split, bandwidth = bw, closed = closed,
                angles = angles)
}

#' The lambda grid of Sajjadi et al. (2018): tan of equally spaced angles
#' in [eps, pi/2 - eps], eps = 1e-10.
#' @noRd
lambda_grid <- function(angles) {
  eps <- 1e-10
  tan(seq(eps, pi / 2 - eps, length.out = angles))
}

#' Score s = b / a with b / 0 = Inf (b > 0) and 0 / 0 = 1 (SPEC.md 2).
#' @noRd
evidence_score <- function(a, b) {
  s <- b / a
  s[a == 0 & b == 0] <- 1
  s
}

#' Curve from the evidences of the evaluation points: threshold rules on
#' s = b / a plus the extremes 1[a >= 1] and 1[b = 0].
#' @noRd
curve_from_evidence <- function(a_real, b_real, a_gen, b_gen, lambda,
                                method) {
  extremes <- rbind(
    c(mean(a_real == 0), mean(a_gen >= 1)),  # 1[a >= 1]
    c(mean(b_real > 0), mean(b_gen == 0))    # 1[b = 0]
  )
  curve_from_scores(evidence_score(a_real, b_real),
                    evidence_score(a_gen, b_gen), lambda, method,
                    extra = extremes)
}

#' Curve from scores (low = "real") through the shared envelope code.
#' @noRd
curve_from_scores <- function(s_real, s_gen, lambda, method,
                              extra = matrix(numeric(), ncol = 2)) {
  env <- engine_envelope(s_real, s_gen, extra, lambda)
  alpha <- pmin(env$alpha, 1)
  beta <- pmin(alpha / lambda, 1)
  tibble::tibble(
    method = method,
    lambda = c(0, lambda, Inf),
    precision = c(0, alpha, env$alpha_inf),
    recall = c(env$beta_0, beta, 0)
  )
}

new_prd_curve <- function(x, ...) {
  attrs <- list(...)
  x <- tibble::new_tibble(x, class = "prd_curve")
  for (nm in names(attrs)) attr(x, nm) <- attrs[[nm]]
  x
}

#' @export
#' @importFrom tibble tbl_sum
tbl_sum.prd_curve <- function(x, ...) {
  meth <- unique(x$method)
  info <- c()
  k <- attr(x, "k")
  if (!is.null(k)) info <- c(info, paste0("k = ", paste(k, collapse = ", ")))
  sz <- attr(x, "sizes")
  if (!is.null(sz) && all(c("eval_real", "eval_generated") %in% names(sz))) {
    info <- c(info, sprintf("evaluation %d real / %d generated",
                            sz[["eval_real"]], sz[["eval_generated"]]))
  }
  c("A prd_curve" = paste0(paste(meth, collapse = ", "), " x ",
                           length(unique(x$lambda)), " lambdas",
                           if (length(info)) paste0(" (", paste(info, collapse = "; "), ")")))
}
