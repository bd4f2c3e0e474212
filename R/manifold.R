#' Scalar manifold metrics: precision, recall, density, coverage and kin
#'
#' Computes the scalar precision and recall metrics of the literature that
#' estimate the supports of P (real) and Q (generated) by unions of k-NN
#' balls (Sykes et al. 2024, section 4.1), all from one pass of the tiled
#' distance engine, for one or several neighbour counts `k`.
#'
#' Write \eqn{X_f, Y_f} for the fit parts of `real` and `generated`,
#' \eqn{X_e, Y_e} for the evaluation parts (both are the whole sets when
#' `split = 0`, the literature's setting), and \eqn{r_k(z; S)} for the
#' distance from z to its k-th nearest neighbour in S, z itself left out
#' (by row index) when z is a row of S. \eqn{B(z, r)} is the ball of
#' radius r around z, closed (\eqn{\le}) or open (\eqn{<}) by `closed`.
#'
#' * `precision` (improved precision, Kynkaanniemi et al. 2019; Sykes et
#'   al. eq. 16): share of \eqn{y \in Y_e} inside some ball
#'   \eqn{B(x, r_k(x; X_f))}, \eqn{x \in X_f}. `recall`: the same with the
#'   roles of the sets swapped (share of \eqn{x \in X_e} inside some
#'   \eqn{B(y, r_k(y; Y_f))}).
#' * `density` (Naeem et al. 2020): \eqn{\frac{1}{k |Y_e|} \sum_{y \in
#'   Y_e} \#\{x \in X_f : y \in B(x, r_k(x; X_f))\}}; it is not bounded by
#'   1.
#' * `coverage` (Naeem et al. 2020): share of \eqn{x \in X_e} whose ball
#'   \eqn{B(x, r_k(x; X_f))} holds some \eqn{y \in Y_f}.
#' * `c_precision` ("cPrecision", Khayatkhoei and AbdAlmageed 2023, eq. 5;
#'   Sykes et al. eq. 17): share of \eqn{y \in Y_e} whose ball
#'   \eqn{B(y, r_k(y; Y_f))} holds some \eqn{x \in X_f}. Coverage is their
#'   cRecall (eq. 6).
#' * `sym_precision` = min(`precision`, `c_precision`) and `sym_recall` =
#'   min(`recall`, `coverage`) (Khayatkhoei and AbdAlmageed 2023, section
#'   4; "EAS" in Sykes et al. eq. 18).
#' * `prc_precision` (precision cover, Cheema and Urner 2023, in the form
#'   of Sykes et al. eq. 19): share of \eqn{y \in Y_e} whose ball
#'   \eqn{B(y, r_k(y; Y_f))} holds at least `k_prime` points of \eqn{X_f};
#'   `prc_recall`: share of \eqn{x \in X_e} whose ball \eqn{B(x, r_k(x;
#'   X_f))} holds at least `k_prime` points of \eqn{Y_f}. With `k_prime = 1`
#'   they equal `c_precision` and `coverage`. *Mapping to Cheema and
#'   Urner's own parameters:* their neighbourhood is the \eqn{C k}-nearest
#'   neighbour ball and their count threshold is their k, so their
#'   \eqn{(k, C)} is `k = C * k, k_prime = k` here.
#' * `p_precision` (probabilistic precision, Park and Kim 2023; Sykes et
#'   al. eq. 20): with \eqn{R_X} = `ppr_scale` times the mean of
#'   \eqn{r_{k'}(x; X_f)} over \eqn{x \in X_f} (\eqn{k'} = `ppr_k`) and the
#'   tent kernel \eqn{\tau(u) = \max(0, 1 - u / R_X)}, the mean over
#'   \eqn{y \in Y_e} of \eqn{1 - \prod_{x \in X_f} (1 - \tau(\|y - x\|))};
#'   `p_recall` swaps the roles (radius \eqn{R_Y} from \eqn{Y_f}). The
#'   product is computed as \eqn{\exp \sum \log(1 - \tau)} with `log1p()`,
#'   never as a raw product. These two do not depend on `k`.
#'
#' Without a split, the literature's scalar metrics are error rates of the
#' two extreme classifiers of [prd_curve()]'s families: `precision` and
#' `recall` for `method = "ipr"`, `c_precision` and `coverage` for
#' `"coverage"` (Sykes et al. 2024, section 4.2). The curve's maximal
#' precision and recall are never above them.
#'
#' @section Conventions of the peer implementations:
#' Distances are Euclidean and radii leave the point itself out (SPEC
#' conventions of this package). Radii are compared as squared distances,
#' so exact ties (frequent on integer data) are decided exactly.
#'
#' * The `prdc` Python package of Naeem et al. (2020) (precision, recall,
#'   density, coverage) takes the radius as the (k + 1)-th smallest distance
#'   of a point to its own set, the zero distance to itself included, i.e.
#'   the k-th neighbour leaving the point out (as here), and tests ball
#'   membership with the strict inequality \eqn{<}: use `closed = FALSE`
#'   to reproduce its numbers. It works with non-squared distances in the
#'   input precision, so on exactly tied distances floating-point rounding
#'   can still differ.
#' * The improved precision and recall of Kynkaanniemi et al. (2019) and
#'   this package's default use closed balls (\eqn{\le}, `closed = TRUE`),
#'   so a ball always contains its own centre.
#' * `c_precision` and `sym_precision`, `sym_recall` (Khayatkhoei and
#'   AbdAlmageed 2023, eqs. 5-6): the ball around a generated point has the
#'   radius of its k-th neighbour among the generated fit points (itself
#'   left out), and precision counts a generated point when some real
#'   point lies in that ball; the ball rule is `closed`.
#' * `prc_precision`, `prc_recall` (Cheema and Urner 2023, as Sykes et al.
#'   2024, eq. 19): Cheema and Urner's (k, C) are this function's
#'   `k = C * k` (the ball holds C k neighbours) and `k_prime = k` (the
#'   count threshold); `k_prime = 1` gives `c_precision` and `coverage`.
#' * `p_precision`, `p_recall` (Park and Kim 2023): a fixed radius
#'   R = `ppr_scale` times the mean `ppr_k`-th neighbour distance of each
#'   fit set (defaults 1.2 and 4, as in their code) and the continuous
#'   weight \eqn{\tau}, so the ball rule does not matter. When every fit
#'   point has `ppr_k` exact copies, R = 0 and \eqn{\tau} is 1 at distance
#'   0 only (the limit R -> 0).
#'
#' @section Computation:
#' One sweep of the tiled distance engine gives every requested metric for
#' every value of `k` (the k-NN radii for all `k` come from the same
#' bounded heaps), where the peer implementations recompute everything per
#' `k`. `p_precision`/`p_recall` need the mean own-set radius before the
#' kernel sums, so requesting them adds one radii-only sweep.
#'
#' @param real Real samples (from P): a numeric matrix or data frame, one
#'   row per sample (n x d). Integer matrices are accepted.
#' @param generated Generated samples (from Q), m x d, same columns.
#' @param k Number of neighbours: one or more whole numbers, each with
#'   1 <= k <= (smaller fit set size) - 1. Default 5 (Naeem et al. 2020;
#'   Kynkaanniemi et al. 2019 use 3). Several values are computed in the
#'   same pass and returned sorted.
#' @param metrics Names of the metrics to compute (default: all), any of
#'   `"precision"`, `"recall"`, `"density"`, `"coverage"`, `"c_precision"`,
#'   `"sym_precision"`, `"sym_recall"`, `"prc_precision"`, `"prc_recall"`,
#'   `"p_precision"`, `"p_recall"`.
#' @param split Fraction in \[0, 1) of each set held out for evaluation
#'   (default 0, no split: fit = evaluation = the whole set, the
#'   literature's setting; drawn with R's RNG, so [set.seed()] reproduces
#'   it), or explicit evaluation rows `list(real = <int>, generated =
#'   <int>)`. Balls and radii come from the fit parts, shares and means are
#'   taken over the evaluation parts.
#' @param closed `TRUE` (default): closed balls, \eqn{\|u - z\| \le r};
#'   `FALSE`: open balls, \eqn{<} (the `prdc` convention).
#' @param k_prime Count threshold of `prc_precision`/`prc_recall`, a whole
#'   number >= 1 (default 1).
#' @param ppr_scale Positive number a of `p_precision`/`p_recall`: the
#'   kernel radius is a times the mean `ppr_k`-NN distance of the fit set
#'   (default 1.2).
#' @param ppr_k Neighbour count of that mean distance, a whole number with
#'   1 <= `ppr_k` <= (smaller fit set size) - 1 (default 4).
#' @param per_sample `FALSE` (default) returns the metrics only; `TRUE`
#'   also returns per-sample indicators for auditing (see Value).
#' @return With `per_sample = FALSE`, a tibble with one row per metric and
#'   `k`: `metric` (character), `k` (integer; for `p_precision` and
#'   `p_recall` it is `ppr_k`, one row each) and `value` (double; in \[0,
#'   1\] except `density`). Attributes: `sizes` (fit and evaluation sizes
#'   of both sets), `split`, `closed`, `k_prime`, and `ppr_radius` (the
#'   kernel radii \eqn{R_X, R_Y} as distances) when `p_*` are requested.
#'
#'   With `per_sample = TRUE`, a list of three tibbles, one row per
#'   evaluated sample and value of `k` (with a split, only the evaluation
#'   rows appear; `row` says which):
#'   * `metrics`: the tibble above.
#'   * `generated`: `row` (index into `generated`), `k`, `n_real_balls`
#'     (number of real k-NN balls containing it; `density` is their sum
#'     over \eqn{k |Y_e|}), `in_real_manifold` (`n_real_balls >= 1`;
#'     `precision` is its mean), `n_real_in_ball` (number of real fit
#'     points in its own k-NN ball among the generated; `prc_precision` is
#'     the mean of `n_real_in_ball >= k_prime`), `covered_c`
#'     (`n_real_in_ball >= 1`; `c_precision` is its mean) and, when `p_*`
#'     are requested, `p_in_real` (\eqn{1 - \prod (1 - \tau)}, whose mean
#'     is `p_precision`). Generated samples with `in_real_manifold` or
#'     `covered_c` `FALSE` are the ones that drag precision down.
#'   * `real`: `row` (index into `real`), `k`, `n_generated_balls`,
#'     `in_generated_manifold` (`recall`), `n_generated_in_ball`,
#'     `covered` (`coverage`) and, when requested, `p_in_generated`
#'     (`p_recall`).
#' @section Errors: `real` and `generated` must be numeric with no NA, NaN
#'   or Inf, at least 2 rows, not all rows equal, and the same number of
#'   columns; `metrics` must be known names; `k` and `ppr_k` must fit the
#'   fit set sizes; `k_prime` must be a whole number >= 1; `ppr_scale` a
#'   positive number; `split` in \[0, 1) or valid distinct row numbers;
#'   `closed` and `per_sample` `TRUE` or `FALSE`.
#' @references
#' Kynkaanniemi, T., Karras, T., Laine, S., Lehtinen, J. and Aila, T.
#' (2019). Improved precision and recall metric for assessing generative
#' models. NeurIPS.
#'
#' Naeem, M. F., Oh, S. J., Uh, Y., Choi, Y. and Yoo, J. (2020). Reliable
#' fidelity and diversity metrics for generative models. ICML.
#'
#' Khayatkhoei, M. and AbdAlmageed, W. (2023). Emergent asymmetry of
#' precision and recall for measuring fidelity and diversity of generative
#' models in high dimensions. ICML. Section 4, eqs. 5-6.
#'
#' Cheema, F. and Urner, R. (2023). Precision recall cover: a method for
#' assessing generative models. AISTATS.
#'
#' Park, D. and Kim, S. (2023). Probabilistic precision and recall
#' towards reliable evaluation of generative models. ICCV.
#'
#' Sykes, B., Simon, L., Rabin, J. and Fadili, J. (2024). A new
#' perspective on precision and recall for generative models.
#' arXiv:2405.01611. Section 4.1, eqs. 16-20.
#' @seealso [prd_curve()] for the whole precision-recall curve, whose
#'   extreme points these metrics bound.
#' @examples
#' set.seed(1)
#' real <- matrix(rnorm(300 * 8), ncol = 8)
#' generated <- matrix(rnorm(300 * 8, mean = 0.3), ncol = 8)
#' manifold_metrics(real, generated, k = c(3, 5))
#'
#' # the generated samples outside the real manifold
#' audit <- manifold_metrics(real, generated, metrics = "precision",
#'                           per_sample = TRUE)
#' head(audit$generated[!audit$generated$in_real_manifold, ])
#' @export
manifold_metrics <- function(real, generated, k = 5,
                             metrics = c("precision", "recall", "density",
                                         "coverage", "c_precision",
                                         "sym_precision", "sym_recall",
                                         "prc_precision", "prc_recall",
                                         "p_precision", "p_recall"),
                             split = 0, closed = TRUE, k_prime = 1,
                             ppr_scale = 1.2, ppr_k = 4,
                             per_sample = FALSE) {
  real <- as_samples(real)
  generated <- as_samples(generated)
  check_same_columns(real, generated)
  metrics <- check_methods(metrics, manifold_metric_names, arg = "metrics")
  closed <- check_flag(closed)
  per_sample <- check_flag(per_sample)
  k_prime <- check_count(k_prime, min = 1)
  ppr_scale <- check_positive(ppr_scale, len = 1L)
  ppr_k <- check_count(ppr_k, min = 1)
  s <- resolve_split(split, nrow(real), nrow(generated))
  sizes <- split_sizes(s)
  limit <- min(sizes[["fit_real"]], sizes[["fit_generated"]]) - 1L
  k <- check_k(k, limit, what = "the fit sets")
  want_ppr <- any(c("p_precision", "p_recall") %in% metrics)
  if (want_ppr) check_k(ppr_k, limit, arg = "ppr_k", what = "the fit sets")

  uses <- function(m) any(m %in% metrics)
  what <- c(
    if (per_sample || uses(c("precision", "recall", "density",
                             "sym_precision", "sym_recall"))) "ipr",
    if (per_sample || uses(c("coverage", "c_precision", "sym_precision",
                             "sym_recall", "prc_precision",
                             "prc_recall"))) "coverage",
    if (want_ppr) "ppr"
  )
  ks <- sort(unique(c(k, if (want_ppr) ppr_k)))
  nb <- engine_neighbours(real, generated, s, ks, what,
                          ppr_k = ppr_k, ppr_scale = ppr_scale,
                          closed = closed)

  n_ex <- sizes[["eval_real"]]
  n_ey <- sizes[["eval_generated"]]
  ix <- seq_len(n_ex)
  iy <- n_ex + seq_len(n_ey)
  col <- match(k, ks)
  # counts of the evaluation points, one column per k
  cnt <- function(part, rows) nb[[part]][rows, col, drop = FALSE]
  ipr_gen <- if ("ipr" %in% what) cnt("ipr_a", iy)
  ipr_real <- if ("ipr" %in% what) cnt("ipr_b", ix)
  cov_gen <- if ("coverage" %in% what) cnt("coverage_a", iy)
  cov_real <- if ("coverage" %in% what) cnt("coverage_b", ix)
  share <- function(m, thr) colMeans(m >= thr)
  per_k <- list(
    precision = function() share(ipr_gen, 1),
    recall = function() share(ipr_real, 1),
    density = function() colSums(ipr_gen) / (k * n_ey),
    coverage = function() share(cov_real, 1),
    c_precision = function() share(cov_gen, 1),
    sym_precision = function() pmin(share(ipr_gen, 1), share(cov_gen, 1)),
    sym_recall = function() pmin(share(ipr_real, 1), share(cov_real, 1)),
    prc_precision = function() share(cov_gen, k_prime),
    prc_recall = function() share(cov_real, k_prime)
  )
  # 1 - prod(1 - tau) from the engine's sums of log1p(-tau)
  p_gen <- if (want_ppr) -expm1(nb$ppr_a[iy])
  p_real <- if (want_ppr) -expm1(nb$ppr_b[ix])
  rows <- lapply(metrics, function(m) {
    if (m == "p_precision") return(list(m, ppr_k, mean(p_gen)))
    if (m == "p_recall") return(list(m, ppr_k, mean(p_real)))
    list(rep(m, length(k)), k, as.double(per_k[[m]]()))
  })
  out <- tibble::new_tibble(
    list(metric = unlist(lapply(rows, `[[`, 1)),
         k = as.integer(unlist(lapply(rows, `[[`, 2))),
         value = as.double(unlist(lapply(rows, `[[`, 3)))),
    sizes = sizes, split = s$split, closed = closed, k_prime = k_prime
  )
  if (want_ppr) {
    attr(out, "ppr_radius") <- c(real = nb$ppr_radius[1],
                                 generated = nb$ppr_radius[2])
  }
  if (!per_sample) return(out)

  ev <- if (is.null(s$eval)) s$fit else s$eval
  long <- function(rows_idx, m) {
    list(row = rep(rows_idx, times = length(k)),
         k = rep(k, each = length(rows_idx)), m = as.vector(m))
  }
  g <- long(ev[[2]], ipr_gen)
  gen <- tibble::tibble(
    row = g$row, k = g$k, n_real_balls = g$m,
    in_real_manifold = g$m >= 1L, n_real_in_ball = as.vector(cov_gen),
    covered_c = as.vector(cov_gen) >= 1L
  )
  r <- long(ev[[1]], ipr_real)
  rl <- tibble::tibble(
    row = r$row, k = r$k, n_generated_balls = r$m,
    in_generated_manifold = r$m >= 1L,
    n_generated_in_ball = as.vector(cov_real),
    covered = as.vector(cov_real) >= 1L
  )
  if (want_ppr) {
    gen$p_in_real <- rep(p_gen, times = length(k))
    rl$p_in_generated <- rep(p_real, times = length(k))
  }
  list(metrics = out, generated = gen, real = rl)
}

#' The metrics of manifold_metrics(), in output order.
#' @noRd
manifold_metric_names <- c("precision", "recall", "density", "coverage",
                           "c_precision", "sym_precision", "sym_recall",
                           "prc_precision", "prc_recall", "p_precision",
                           "p_recall")
