#' Companion metrics of embeddings: FD, KID, Vendi, authenticity, copying
#'
#' The scalar metrics that a generative model's evaluation table reports
#' beside precision and recall, computed on feature embeddings (Inception,
#' DINOv2, CLIP, ...) of real and generated samples: the Frechet distance
#' and its extrapolation to infinitely many samples, the kernel distances
#' KID and an RBF MMD, the Vendi diversity score, the share of authentic
#' generated samples, the data-copying test, a sliced Wasserstein
#' approximation and the energy distance. Each is a reduction over the
#' sets' moments or over sums over pairs of rows: none forms an n x n or
#' n x m matrix (pair sums run over blocks of rows), and the real set's
#' share of the work (its moments, its pairs, its nearest-neighbour radii)
#' is done once for several models. The sets are used as given (no
#' standardisation unless `standardize = "real"`), and every value is that
#' of the features as given, whatever their scale: features far from 1
#' (beyond \eqn{2^{\pm 64}}) are multiplied by a common power of two
#' (exact) before any sum, and each metric is brought back by its law (FD and
#' `fd_inf` scale as \eqn{s^2}, `sw_approx` and `energy` as s, KID as the
#' polynomial \eqn{3 s^2 A_1 + 3 s^4 A_2 + s^6 A_3} of the unbiased
#' MMD^2 \eqn{A_p} of the kernels \eqn{(x \cdot y / d)^p}, the others not
#' at all, `mmd_rbf` with `bandwidth` in the same units).
#'
#' Write X (n x d) for `real`, Y (m x d) for a generated set,
#' \eqn{\hat\mu}, \eqn{\hat\Sigma} for a set's mean and unbiased covariance
#' (divisor n - 1).
#'
#' * `fd` (Heusel et al. 2017, eq. 6; FID on Inception features, FD_DINOv2
#'   in Stein et al. 2023): \eqn{\|\hat\mu_X - \hat\mu_Y\|^2 + tr
#'   \hat\Sigma_X + tr \hat\Sigma_Y - 2 \sum_i \sqrt{\lambda_i}}, the
#'   \eqn{\lambda_i} the eigenvalues of the symmetric \eqn{\hat\Sigma_X^{1/2}
#'   \hat\Sigma_Y \hat\Sigma_X^{1/2}} (those of \eqn{\hat\Sigma_X
#'   \hat\Sigma_Y}), from two symmetric eigendecompositions (no complex
#'   matrix square root), rounding negatives clipped at 0. Equal to
#'   dgm-eval's `compute_FD_with_reps()`. FD is biased upward, by a
#'   term that falls as 1/n: for two samples of N(0, I) in d = 64, whose
#'   FD is 0, the estimate is 2.19 on average at n = m = 1,000 and 0.56 at
#'   4,000 (20 and 10 draws; sd 0.06 and 0.03), and for the Gaussians of
#'   `bench/embedding.R` (d = 16, FD 4.64) the bias is 0.39 at 500 rows
#'   and 0.10 at 2,000.
#' * `fd_inf` (Chong and Forsyth 2020, section 3): FD extrapolated to
#'   infinitely many generated rows, as dgm-eval's `compute_FD_infinity()`:
#'   \eqn{FD_N} on N generated rows drawn without replacement (R's RNG) at
#'   15 sizes equally spaced from min(5000, max(m %/% 10, 2)) to m, the real
#'   set whole; the intercept of the least-squares line \eqn{FD_N = a + b /
#'   N}. It can be negative.
#' * `kid` (Binkowski et al. 2018, section 3): the unbiased MMD^2 with the
#'   kernel \eqn{k(x, y) = (x \cdot y / d + 1)^3}: \eqn{\sum_{i \ne j}
#'   k(x_i, x_j) / (n(n-1)) + \sum_{i \ne j} k(y_i, y_j) / (m(m-1)) - 2
#'   \sum_{i,j} k(x_i, y_j) / (nm)} over all pairs (equal to dgm-eval's
#'   `compute_polynomial_mmd()` when n = m), summed as \eqn{3 A_1 + 3 A_2 +
#'   A_3} above (the kernel's constant 1 cancels, and summed with the rest
#'   it would swamp the KID of small features: 0 at scale 1e-30). With
#'   `subsets`, dgm-eval's
#'   reported KID instead: the mean over `subsets` draws of this estimate
#'   on min(`subset_size`, n, m) rows of each set. It can be negative.
#' * `mmd_rbf` (the CMMD of Jayasumana et al. 2024, eq. 3, which uses CLIP
#'   features and \eqn{\sigma = 10}): the same unbiased form with
#'   \eqn{k(x, y) = \exp(-\|x - y\|^2 / (2\sigma^2))}, \eqn{\sigma} =
#'   `bandwidth`; by default the median distance between the pairs of the
#'   first min(n, 1000) real rows (the median heuristic), found once on the
#'   whole real set and kept for the replicates (attribute `bandwidth`).
#'   Jayasumana et al. scale it by 1000.
#' * `vendi` (Friedman and Dieng 2023, definition 3.1, q = 1, the linear
#'   kernel on rows scaled to unit norm, as dgm-eval's
#'   `compute_vendi_score()`): \eqn{\exp(-\sum_i \lambda_i \log
#'   \lambda_i)} over the positive eigenvalues of \eqn{\tilde Y \tilde Y^T /
#'   m}, from the d x d matrix \eqn{\tilde Y^T \tilde Y / m} when d < m. In
#'   \[1, m\]: the effective number of distinct samples of the generated
#'   set. The real set's value is attribute `vendi_real`.
#' * `vendi_class` (needs `classes`): the mean over the classes of the
#'   generated rows of each class's Vendi score, as dgm-eval reports it
#'   ("mean vendi per class", `compute_per_class_vendi_scores()`); each
#'   class's score is attribute `vendi_classes`. It sees a model that
#'   covers every class but collapses within each.
#' * `authpct` (Alaa et al. 2022, section 3.3, as dgm-eval's
#'   `compute_authpct()`): 100 times the share of generated rows y whose
#'   nearest real row \eqn{x_j} has a real neighbour nearer than y:
#'   \eqn{r_1(x_j; X) < \|y - x_j\|}, the radii from the package's k-NN
#'   engine (exact near ties), \eqn{x_j} the first real row at the
#'   smallest distance. A low value flags memorised training rows.
#' * `ct` (Meehan, Chaudhuri and Dasgupta 2020, eq. 4; needs `held_out`):
#'   the data-copying statistic \eqn{C_T}, with `real` the training rows T,
#'   `held_out` the held-out real rows \eqn{P_n} and each generated set
#'   \eqn{Q_m}. As in dgm-eval's `compute_CTscore()`: the rows are projected
#'   on the first 64 principal components of T when d > 64, T is split into
#'   3 cells by k-means (`stats::kmeans()` with Lloyd's algorithm, 10
#'   random starts, at most 300 iterations, as scikit-learn's `KMeans`
#'   but for its k-means++ starts; R's RNG; the rows of
#'   \eqn{P_n} and \eqn{Q_m} go to the cell of their nearest centre), in
#'   each cell the Mann-Whitney U of the distances of \eqn{Q_m}'s rows to
#'   their nearest training row of the cell against \eqn{P_n}'s is
#'   Z-scored with mean \eqn{nm/2 - 0.5} and standard deviation
#'   \eqn{\sqrt{nm(n+m+1)/12}}, and \eqn{C_T} is the mean of the cells' Z
#'   weighted by their share of \eqn{P_n}, over the cells holding more than
#'   20 generated rows. Below 0 (about -3 and lower) the model copies its
#'   training rows; above 0 it underfits. The cells are attribute
#'   `ct_cells`. k-means' cells can differ from scikit-learn's on the same
#'   data, so `ct` is equal to dgm-eval's only up to the cells.
#' * `sw_approx` (Nadjahi et al. 2021, corollary 1, as dgm-eval's
#'   `sw_approx()`): \eqn{\sqrt{\|\hat\mu_X - \hat\mu_Y\|^2 / d +
#'   (\sqrt{m_2(X)} - \sqrt{m_2(Y)})^2}}, \eqn{m_2} the mean squared norm
#'   of a set's rows about its mean, over d.
#' * `energy` (Szekely and Rizzo 2013, eq. 2.2): \eqn{2 E\|X - Y\| -
#'   E\|X - X'\| - E\|Y - Y'\|}, each expectation the mean over all pairs
#'   (i != j within a set: U-statistics). It can be slightly negative.
#' * `pmse` and `s_pmse` (Woo et al. 2009, eq. 1; Snoke et al. 2018,
#'   section 3.1; only when named in `metrics`): the propensity-score mean
#'   squared error of synthpop's `utility.gen(method = "logit", maxorder)`
#'   and its ratio to the null expectation \eqn{(k - 1)(1 - c)^2 c / N},
#'   as [pmse_stats()] (its details there): a logistic regression of the
#'   set label on the columns and their products up to `maxorder` + 1,
#'   for tables (categorical columns of data frames enter as indicators)
#'   rather than embeddings (more than 400 parameters is an error).
#'
#' @section Intervals: With `replicates = R > 0` every metric gets a
#'   `lower` and `upper` column from ceiling(R / 2) pairs of complementary
#'   half-samples, as [manifold_metrics()] (the real split shared by all
#'   models, so [prd_compare()] gives paired differences; the random-groups
#'   variance, Wolter 2007). Each half recomputes the metric on half the
#'   rows; for `ct` the held-out set is halved too (`fd_inf` and `ct`
#'   draw subsamples and k-means starts with R's RNG, so two copies of one
#'   model differ in them). The interval is centred on the estimate, so it
#'   targets the estimator's own mean at this sample size: for `fd`,
#'   biased upward (above), it covers the true FD less often. Measured
#'   (`bench/embedding.R`, Gaussians with a closed-form FD of 4.64, d =
#'   16, 200 draws, 20 pairs): the 90% interval held FD's own mean in
#'   90.5% of the draws at 500 rows per set and 87.0% at 2,000, and the
#'   true FD in 66% and 84% (the bias, 0.39 and 0.10, against a standard
#'   deviation of 0.28 and 0.16). On heavy-tailed columns FD is mostly
#'   noise: on the numeric columns age, income (sd 1,227, maximum 16,000),
#'   nofriend and bmi of synthpop's SD2011 (3,682 complete rows), two
#'   random halves of the real rows read FD 204 to 48,800 over 20 splits
#'   (median 6,090), and a half of a CART synthesis against a half of the
#'   real rows 1,110 to 51,600 (median 6,920); read a model's FD beside
#'   that of two halves of the real set.
#'
#' @inheritParams manifold_metrics
#' @param metrics Names of the metrics to compute (default: all, in this
#'   order, but `pmse` and `s_pmse`; `ct` only when `held_out` is given,
#'   `vendi_class` only when `classes` is):
#'
#'   `r embedding_metrics_doc()`
#' @param held_out Held-out real samples (from P, not used for training
#'   the models), the same columns as `real`: needed by `ct`, where `real`
#'   is the training set. Default `NULL`.
#' @param subsets `NULL` (default): `kid` over all pairs of rows. A whole
#'   number: dgm-eval's KID, the mean over that many random subsets (100 in
#'   dgm-eval) of `subset_size` rows of each set.
#' @param subset_size Rows per set in each subset of `subsets` (default
#'   1000, as dgm-eval; at most the smaller set's size).
#' @param classes Class labels of the generated rows, for `vendi_class`:
#'   a vector with one label per row (one model), or a list of such
#'   vectors named as the models (of one type, or compared as text when
#'   their types differ). Default `NULL`.
#' @param maxorder The highest order of interactions of the propensity
#'   model of `pmse` and `s_pmse`: 0 (main effects) or a whole number up to
#'   10 (products of up to `maxorder` + 1 columns). Default 1, synthpop's.
#' @param max_params The most parameters of that propensity model, as in
#'   [pmse_stats()]: default 400, synthpop's `max.params`.
#' @param bandwidth The kernel width \eqn{\sigma} of `mmd_rbf` (a distance,
#'   in the units of the features), or `NULL` (default) for the median
#'   heuristic described above.
#' @return A tibble of class `prd_metrics`, one row per model and metric:
#'   `model`, `metric`, `k` (`NA`: these metrics have no neighbour count)
#'   and `value` (double; `authpct` in percent), plus `lower` and `upper`
#'   with replicates. Attributes: `sizes` (rows of real and of each model),
#'   `vendi_real`, `vendi_classes` (model, class, rows, vendi; with
#'   `vendi_class`), `bandwidth` (of `mmd_rbf`), `ct_cells` (per model, with
#'   `ct`), and the replicates for [prd_compare()] with the fingerprints of
#'   the real set and of its rows drawn (`real_set`, `real_draws`: tables
#'   of separate calls bound with [prd_bind()] pair by them).
#' @section Errors: classed conditions inheriting from `prdcurve_error`:
#'   `prdcurve_error_input` (samples that are not numeric, with NA, NaN or
#'   Inf, fewer than 2 rows; unknown `metrics`; `ct` without `held_out`,
#'   `vendi_class` without `classes` or with labels that do not match the
#'   rows;
#'   bad `subsets`, `subset_size`, `bandwidth`, `maxorder`, `max_params`; a
#'   propensity model of more than `max_params` parameters; a `kid` beyond the double range,
#'   about 1.8e308, as on features of magnitude 1e52, since it grows as the
#'   sixth power of their scale), `prdcurve_error_columns`
#'   (sets with different columns), `prdcurve_error_replicates` (also a
#'   set of fewer than 4 rows: its halves need 2), `prdcurve_error_internal`
#'   (a failure on values that neither overflow nor underflow: a bug). A warning of class
#'   `prdcurve_warning_unused_argument` for `maxorder` or `max_params`
#'   given without `pmse` or `s_pmse`. Input
#'   warnings as in [prd_curve()], among them
#'   `prdcurve_warning_small_sample` when a set has fewer than 10 rows:
#'   the metrics need 2, but are noise on so few, FD above all (biased
#'   upward by a term of order \eqn{d^2 / n}: 5.7 on two sets of 10 rows
#'   of one N(0, I_8), whose FD is 0), and FD needs more rows than columns
#'   for a covariance of full rank (`prdcurve_warning_transposed` below, and
#'   `prdcurve_warning_small_sample` naming the sets where FD, `fd_inf` or
#'   `sw_approx` is asked: two N(0, I_512) samples read FD 407 at 300 rows a
#'   set, 132 at 1,000, 13 at 10,000).
#' @references
#' Heusel, M., Ramsauer, H., Unterthiner, T., Nessler, B. and Hochreiter,
#' S. (2017). GANs trained by a two time-scale update rule converge to a
#' local Nash equilibrium. NeurIPS. arXiv:1706.08500.
#'
#' Chong, M. J. and Forsyth, D. (2020). Effectively unbiased FID and
#' Inception Score and where to find them. CVPR.
#' \doi{10.1109/CVPR42600.2020.00611}.
#'
#' Binkowski, M., Sutherland, D. J., Arbel, M. and Gretton, A. (2018).
#' Demystifying MMD GANs. ICLR. arXiv:1801.01401.
#'
#' Jayasumana, S., Ramalingam, S., Veit, A., Glasner, D., Chakrabarti, A.
#' and Kumar, S. (2024). Rethinking FID: towards a better evaluation
#' metric for image generation. CVPR. arXiv:2401.09603.
#'
#' Friedman, D. and Dieng, A. B. (2023). The Vendi score: a diversity
#' evaluation metric for machine learning. TMLR. arXiv:2210.02410.
#'
#' Alaa, A., van Breugel, B., Saveliev, E. and van der Schaar, M. (2022).
#' How faithful is your synthetic data? Sample-level metrics for
#' evaluating and auditing generative models. ICML. arXiv:2102.08921.
#'
#' Meehan, C., Chaudhuri, K. and Dasgupta, S. (2020). A non-parametric
#' test to detect data-copying in generative models. AISTATS.
#' arXiv:2004.05675.
#'
#' Nadjahi, K., Durmus, A., Jacob, P. E., Badeau, R. and Simsekli, U.
#' (2021). Fast approximation of the sliced-Wasserstein distance using
#' concentration of random projections. NeurIPS. arXiv:2106.15427.
#'
#' Woo, M.-J., Reiter, J. P., Oganian, A. and Karr, A. F. (2009). Global
#' measures of data utility for microdata masked for disclosure
#' limitation. Journal of Privacy and Confidentiality 1(1), 111-124.
#' \doi{10.29012/jpc.v1i1.568}.
#'
#' Snoke, J., Raab, G. M., Nowok, B., Dibben, C. and Slavkovic, A. (2018).
#' General and specific utility measures for synthetic data. Journal of
#' the Royal Statistical Society A 181(3), 663-688.
#' \doi{10.1111/rssa.12358}.
#'
#' Szekely, G. J. and Rizzo, M. L. (2013). Energy statistics: a class of
#' statistics based on distances. Journal of Statistical Planning and
#' Inference 143(8), 1249-1272. \doi{10.1016/j.jspi.2013.03.018}.
#'
#' Stein, G., Cresswell, J. C., Hosseinzadeh, R., Sui, Y., Ross, B. L.,
#' Villecroze, V., Liu, Z., Caterini, A. L., Taylor, J. E. T. and
#' Loaiza-Ganem, G. (2023). Exposing flaws of generative model evaluation
#' metrics and their unfair treatment of diffusion models. NeurIPS.
#' arXiv:2306.04675. (dgm-eval, the reference code.)
#'
#' Wolter, K. M. (2007). Introduction to Variance Estimation, 2nd ed.,
#' chapter 2. Springer. \doi{10.1007/978-0-387-35099-8}.
#' @seealso [manifold_metrics()], [prd_curve()], [prd_compare()].
#' @examples
#' set.seed(1)
#' real <- matrix(rnorm(300 * 8), ncol = 8)
#' models <- list(same = matrix(rnorm(300 * 8), ncol = 8),
#'                shifted = matrix(rnorm(300 * 8, mean = 0.3), ncol = 8))
#' embedding_metrics(real, models, metrics = c("fd", "kid", "vendi"))
#'
#' # with intervals, and the paired differences
#' em <- embedding_metrics(real, models, metrics = c("fd", "kid"),
#'                         replicates = 20)
#' prd_compare(em, baseline = "same")
#' @export
embedding_metrics <- function(real, generated,
                              metrics = embedding_metric_names(),
                              held_out = NULL, subsets = NULL,
                              subset_size = 1000, classes = NULL,
                              bandwidth = NULL, maxorder = 1,
                              replicates = 0, conf_level = 0.9,
                              features = NULL, id = NULL,
                              standardize = c("none", "real"),
                              max_params = 400) {
  features <- rlang::enquo(features)
  id <- rlang::enquo(id)
  if (missing(metrics)) metrics <- embedding_default_metrics(held_out, classes)
  metrics <- check_methods(metrics, embedding_metric_names(), arg = "metrics",
                           aliases = embedding_metric_aliases())
  # (the logit model of pmse and s_pmse does not depend on the columns'
  # scales: no scale warning when they are all that is asked)
  raw <- prepare_samples(real, generated, features, id, standardize,
                         check_scale = !all(metrics %in% c("pmse", "s_pmse")))
  sets <- standardize_split(raw)
  # the metrics need 2 rows a set (FD's covariance divides by n - 1, the
  # U-statistics a pair i != j), but below small_set_rows (10) they are
  # noise: FD's bias, of order d^2 / n, is 5.7 at 10 rows a set in d = 8
  # (2 for a shift of 0.5 a column); details in @section Errors
  check_sample_traps(sets, k = NULL, neighbours = FALSE, moments = TRUE)
  warn_moments_rank(sets, metrics)
  opts <- embedding_options(metrics, held_out, subsets, subset_size,
                            bandwidth, raw, sets, features, id)
  opts <- c(opts, embedding_scale(sets, opts$held_out))
  opts$maxorder <- check_maxorder(maxorder)
  opts$max_params <- check_max_params(max_params)
  given <- c(if (!missing(maxorder)) "maxorder",
             if (!missing(max_params)) "max_params")
  if (length(given) && !any(c("pmse", "s_pmse") %in% metrics)) {
    warn_unused(given, cli::format_inline("{.val pmse} and {.val s_pmse}"))
  }
  # (which columns are a category's indicators: pmse's treatment contrasts;
  # standardize and the halves of the replicates do not keep it)
  opts$encoding <- attr(raw$real, "encoding")
  opts$classes <- check_classes(classes, metrics, sets$generated)
  replicates <- check_replicates(replicates)
  if (replicates > 0L) check_embedding_halves(sets, opts$held_out)
  conf_level <- check_level(conf_level)
  first <- embedding_core(sets$real, sets$generated, metrics, opts)
  out <- new_prd_metrics(
    first$values,
    sizes = c(real = nrow(sets$real),
              vapply(sets$generated, nrow, integer(1))),
    model_sizes = vapply(sets$generated, nrow, integer(1)),
    vendi_real = first$vendi_real,
    vendi_classes = first$vendi_classes,
    bandwidth = if ("mmd_rbf" %in% metrics) opts$bandwidth,
    ct_cells = first$ct_cells
  )
  if (replicates > 0L) {
    held <- opts$held_out
    pair <- new.env(parent = emptyenv())
    pair$count <- 0L
    reps <- run_replicates(sets$real, sets$generated, replicates,
                           function(real, gens) {
      o <- opts
      # each half's rows of the generated sets (their class labels)
      o$rows <- lapply(gens, attr, "prdcurve_rows")
      h <- standardize_half(real, gens, sets$standardize, grid = sets$grid)
      if (!is.null(held)) {
        # the held-out rows in complementary halves too, one split per pair
        pair$count <- pair$count + 1L
        # (over the held-out rows in canonical order)
        if (pair$count %% 2L == 1L) {
          pair$perm <- canonical_order(held)[sample.int(nrow(held))]
        }
        k <- floor(nrow(held) / 2)
        rows <- if (pair$count %% 2L == 1L) pair$perm[seq_len(k)] else
          pair$perm[-seq_len(k)]
        o$held_out <- held[sort(rows), , drop = FALSE]
      }
      embedding_core(h$real, h$gens, metrics, o)$values
    })
    out <- attach_metric_replicates(out, reps, conf_level)
  }
  out
}

#' The half-samples of the replicates hold floor(n / 2) rows of each set:
#' the metrics need 2 a set, as the sets themselves (a half of 1 row has
#' no covariance)
#' @noRd
check_embedding_halves <- function(sets, held_out = NULL,
                                   call = rlang::caller_env()) {
  sizes <- c(real = nrow(sets$real), vapply(sets$generated, nrow, 1L),
             held_out = if (!is.null(held_out)) nrow(held_out))
  bad <- sizes[sizes < 4L]
  if (!length(bad)) return(invisible())
  prd_abort(c(
    "The half-samples of {.arg replicates} need at least 2 rows of each set.",
    "x" = "Rows: {paste0(names(bad), ' ', bad, collapse = ', ')}.",
    "i" = "Give at least 4 rows per set, or {.code replicates = 0}."
  ), "replicates", call = call)
}

#' The class labels of `classes` as a list named as the models (NULL
#' unless `vendi_class` is asked), each one label per row, without NA
#' @noRd
check_classes <- function(classes, metrics, gens, call = rlang::caller_env()) {
  if (!"vendi_class" %in% metrics) return(NULL)
  if (is.null(classes)) {
    prd_abort(c("{.val vendi_class} needs the class labels of the generated rows in {.arg classes}.",
                "i" = "One label per row; a list of them named as the models for several models."),
              "input", call = call)
  }
  if (!is.list(classes)) {
    if (length(gens) > 1L) {
      prd_abort(c("{.arg classes} must be a list named as the models: there are {length(gens)} models.",
                  "i" = "Models: {.val {names(gens)}}."), "input", call = call)
    }
    classes <- stats::setNames(list(classes), names(gens))
  }
  if (!setequal(names(classes), names(gens)) || anyDuplicated(names(classes))) {
    prd_abort(c("{.arg classes} must be named as the models.",
                "x" = "Models: {.val {names(gens)}}; names: {.val {names(classes)}}."),
              "input", call = call)
  }
  for (m in names(gens)) {
    lab <- classes[[m]]
    if (!is.atomic(lab) || length(lab) != nrow(gens[[m]]) || anyNA(lab)) {
      prd_abort(c("{.arg classes} must give one label, not NA, per generated row.",
                  "x" = "Model {.val {m}}: {nrow(gens[[m]])} rows, {length(lab)} label{?s}{if (anyNA(lab)) ' with NA' else ''}."),
                "input", call = call)
    }
  }
  classes <- classes[names(gens)]
  # labels of several types (text for one model, numbers or a factor for
  # another) are compared as text: one `class` column for every model
  types <- unique(vapply(classes, function(l) class(l)[1], ""))
  if (length(types) > 1L) classes[] <- lapply(classes, as.character)
  classes
}

#' Validated options of embedding_metrics()
#' @noRd
embedding_options <- function(metrics, held_out, subsets, subset_size,
                              bandwidth, raw, sets, features, id,
                              call = rlang::caller_env()) {
  if ("ct" %in% metrics && is.null(held_out)) {
    prd_abort(c(
      "{.val ct} needs held-out real samples in {.arg held_out}.",
      "i" = "The copying test compares the generated rows with real rows the model was not trained on; {.arg real} is its training set."
    ), "input", call = call)
  }
  if (!is.null(held_out)) {
    held_out <- as_samples(held_out, arg = "held_out", call = call,
                           features = features, id = id,
                           check_scale = sets$standardize == "none")
    check_same_columns(sets$real, held_out, "real", "held_out", call = call)
    if (identical(sets$standardize, "real")) {
      # scaled as the other sets, by the moments of the real rows as given
      held_out <- standardize_sets(list(real = raw$real,
                                        generated = list(held_out)))
      held_out <- held_out$generated[[1]]
    }
  }
  if (!is.null(subsets)) {
    subsets <- check_count(subsets, min = 1, max = 1e5, call = call)
  }
  subset_size <- check_count(subset_size, min = 2, call = call)
  if (!is.null(bandwidth)) {
    bandwidth <- check_positive(bandwidth, len = 1L, max = 1e150, call = call)
  } else if ("mmd_rbf" %in% metrics) {
    bandwidth <- median_bandwidth(sets$real)
    if (!(bandwidth > 0)) bandwidth <- 1
  }
  list(held_out = held_out, subsets = subsets, subset_size = subset_size,
       bandwidth = bandwidth)
}

#' The metrics of every model on one real set (the estimate, or one
#' half-sample of the replicates). The real set's moments, pair sums and
#' nearest-neighbour radii are computed once for all models.
#' @return list(values = tibble(model, metric, k, value), vendi_real,
#'   ct_cells)
#' @noRd
embedding_core <- function(real, gens, metrics, opts,
                           call = rlang::caller_env()) {
  tryCatch(embedding_compute(real, gens, metrics, opts), error = function(e) {
    if (inherits(e, "prdcurve_error")) stop(e)
    big <- max(abs(range(real)), vapply(gens, function(g) max(abs(range(g))), 0))
    if (big < 1e30 && (big > 1e-30 || big == 0)) {
      # (no overflow or underflow at these magnitudes: not the data's fault)
      msg <- conditionMessage(e)
      prd_abort(c(
        "The embedding metrics failed on values of ordinary magnitude (at most {format(big, digits = 3)}).",
        "x" = "{msg}",
        "i" = "This is a bug of prdcurve: please report it with the call."
      ), "internal", parent = e, call = call)
    }
    prd_abort(c(
      "The embedding metrics could not be computed on these values.",
      "x" = "The largest magnitude in {.arg real} and {.arg generated} is {format(big, digits = 3)}: the moments, kernels or eigenvalues overflow or fail there.",
      "i" = "Rescale the features (e.g. {.code standardize = \"real\"})."
    ), "input", parent = e, call = call)
  })
}

#' embedding_core()'s work
#' @noRd
embedding_compute <- function(real, gens, metrics, opts) {
  local_memory_hold()
  needs <- unique(unlist(lapply(embedding_registry[metrics], `[[`, "needs")))
  kernels <- intersect(c("poly", "rbf", "dist"), needs)
  if (!is.null(opts$subsets)) kernels <- setdiff(kernels, "poly")
  real <- as_double_matrix(real)
  sigma <- if (is.null(opts$bandwidth)) 1 else opts$bandwidth
  # every set (and the bandwidth, a length) on the common scale 2^-e of
  # embedding_scale(); the values are brought back to the units as given
  e <- if (is.null(opts$scale_exp)) 0L else opts$scale_exp
  if (e != 0L) {
    real <- real * 2^-e
    gens <- lapply(gens, function(g) g * 2^-e)
    if (!is.null(opts$held_out)) opts$held_out <- opts$held_out * 2^-e
    sigma <- sigma * 2^-e
  }
  # (the counts as doubles: n m overflows an integer past 46,340 rows)
  q <- list(opts = opts, d = ncol(real), n = as.double(nrow(real)), e = e)
  # the real set's moments and the eigendecomposition of its covariance,
  # shared by fd, fd_inf (its square root) and ct (its principal axes)
  if ("moments" %in% needs || "ct" %in% metrics) q$mx <- set_moments(real)
  if (any(c("fd", "fd_inf", "ct") %in% metrics)) {
    q$eig_x <- eigen(q$mx$cov, symmetric = TRUE)
    if (any(c("fd", "fd_inf") %in% metrics)) {
      q$root_x <- sym_sqrt(q$mx$cov, q$eig_x)
    }
  }
  centre <- colMeans(real)
  if (length(kernels)) {
    q$sxx <- pair_sums(real, real, TRUE, centre, kernels,
                       sigma = sigma)$sums
  }
  if ("nearest" %in% needs) q$own2 <- own_nearest_sq(real)
  rows <- list()
  cells <- list()
  by_class <- list()
  for (m in names(gens)) {
    y <- as_double_matrix(gens[[m]])
    q$y <- y
    if (!is.null(opts$classes)) {
      lab <- opts$classes[[m]]
      if (!is.null(opts$rows[[m]])) lab <- lab[opts$rows[[m]]]
      q$vendi_classes <- class_vendi(y, lab)
      by_class[[m]] <- tibble::tibble(model = m, q$vendi_classes)
    }
    q$real <- real
    q$m <- as.double(nrow(y))
    if ("moments" %in% needs) q$my <- set_moments(y)
    if (length(kernels) || "nearest" %in% needs) {
      xy <- pair_sums(real, y, FALSE, centre, kernels,
                      sigma = sigma,
                      nearest = "nearest" %in% needs)
      q$sxy <- xy$sums
      q$near <- xy
      if (length(kernels)) {
        q$syy <- pair_sums(y, y, TRUE, centre, kernels,
                           sigma = sigma)$sums
      }
    }
    if ("propensity" %in% needs) {
      q$propensity <- pmse_one(real, y, opts$maxorder, opts$encoding,
                               max_params = opts$max_params)
    }
    if ("ct" %in% metrics) {
      ctv <- ct_value(real, opts$held_out, y, mom = q$mx, eig = q$eig_x)
      q$ct <- ctv$value
      cells[[m]] <- ctv$cells
    }
    vals <- vapply(metrics, function(mt) {
      entry <- embedding_registry[[mt]]
      v <- as.double(entry$value(q))
      if (!is.na(entry$power)) v <- times_pow2(v, entry$power * e)
      v
    }, double(1))
    rows[[m]] <- tibble::tibble(model = m, metric = metrics,
                                k = NA_integer_, value = unname(vals))
  }
  list(values = vctrs::vec_rbind(!!!unname(rows)),
       vendi_real = if ("vendi" %in% metrics) vendi_value(real),
       vendi_classes = if (length(by_class)) {
         vctrs::vec_rbind(!!!unname(by_class))
       },
       ct_cells = if (length(cells)) cells)
}

as_double_matrix <- function(x) {
  if (!is.double(x)) storage.mode(x) <- "double"
  x
}

#' The warning (prdcurve_warning_small_sample) that a set has no more rows
#' than columns where a metric of the Gaussian fits (FD, fd_inf,
#' sw_approx) is asked: its covariance has rank below d, and FD reads the
#' noise of both fits (for one law about d^2 / (2 n) at n rows a set:
#' two N(0, I_512) samples read 407 at 300 rows, 132 at 1,000, 13 at
#' 10,000)
#' @noRd
warn_moments_rank <- function(sets, metrics) {
  fits <- intersect(metrics, c("fd", "fd_inf", "sw_approx"))
  if (!length(fits) || !inputs_checked()) return(invisible())
  all_sets <- c(list(real = sets$real), sets$generated)
  rows <- vapply(all_sets, nrow, integer(1))
  d <- ncol(sets$real)
  few <- rows[rows <= d]
  if (!length(few)) return(invisible())
  labs <- model_args(sets$generated, "generated")
  names(few) <- c("real", labs)[rows <= d]
  lines <- paste0("`", names(few), "` has ", fmt_count(few), " rows of ",
                  fmt_count(d), " columns.")
  prd_warn(c(
    "{.val {fits}} {?is/are} computed from no more rows than columns.",
    stats::setNames(lines, rep("x", length(lines))),
    "i" = "The covariances then have rank below d, and FD reads their noise: two samples of one law, N(0, I_512), read FD 407 at 300 rows a set, 132 at 1,000 and 13 at 10,000 (about d^2 / (2n)).",
    "i" = "Compare models at one size and with more rows than columns, read {.val fd_inf}, or use {.val kid}, which is unbiased at any size."
  ), "small_sample")
}
