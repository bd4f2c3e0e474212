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
#'   product is computed as \eqn{1 - \exp \sum \log(1 - \tau)}, each
#'   sum as half the log of a product of \eqn{\|y - x\|^2 / R^2} whose
#'   binary exponent is kept apart (no underflow, one log per point), and
#'   \eqn{1 - \exp} with `expm1()`. These two do not depend on `k`.
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
#' @section Precision cover counts over the generated points:
#' Precision cover is Cheema and Urner's (2023) fidelity measure. Sykes et
#' al. (2024, eq. 19) state it over the generated points (the share of
#' generated points whose neighbourhood among the generated points holds
#' at least k' real points), the ground truth in Cheema and Urner's code
#' calls precision the share of the generated support covered by the real
#' one, and `prc_precision` computes it so. Their released function
#' `PRCover(P, Q, k, C)` (P the real set, as in the rest of their code)
#' counts its "precision" over the points of P; called with the real set
#' first, as in the sanity checks of Raisa, van Breugel and van der Schaar
#' (2025), its precision cover is this package's `prc_recall` (and its
#' recall cover is `prc_precision`).
#' For two uniform supports of equal volume, the setting of Cheema and
#' Urner's experiments, the two coincide; otherwise they do not: in the
#' check "mode dropping + invention" of Raisa et al. (five real modes, a
#' generator with the same five and five invented ones; their k = 15,
#' `k_prime = 5`), `prc_precision` is 0.49 (half of the generated points
#' lie in invented modes) and `prc_recall` 0.80 (means of three draws of
#' 1,000 points per set). To compare with numbers
#' from that code, read its precision cover as `prc_recall`.
#'
#' @section Probabilistic precision on exact duplicates:
#' Park and Kim (2023) weight a generated point y by \eqn{1 - \prod_x (1 -
#' \tau(\|y - x\|))}, with \eqn{\tau(u) = \max(0, 1 - u / R)} the
#' probability that y lies in the support around the real point x. When
#' every fit point has at least `ppr_k` exact duplicates, the mean k-NN
#' distance is 0 and so is R; \eqn{\tau} is then undefined at u = 0, and
#' its limit as R decreases to 0 is 1 at u = 0 and 0 elsewhere: an exact
#' copy of a real point lies in that point's support, so it counts. This
#' package takes that limit (`p_precision` is then the share of generated
#' points equal to some real point). Their released code, also used by
#' Raisa et al. (2025), first sets \eqn{\tau = 0} wherever \eqn{u \ge a
#' \bar r}{u >= a mean(r)}; with R = 0 that holds for every pair, exact
#' copies included, and it returns 0 even when the generated set is a copy
#' of the real one, the opposite of what the metric measures. The two agree
#' whenever R > 0, and on every setting of those sanity checks.
#'
#' @section Computation:
#' One sweep of the tiled distance engine gives every requested metric for
#' every value of `k` (the k-NN radii for all `k` come from the same
#' bounded heaps), where the peer implementations recompute everything per
#' `k`. `p_precision`/`p_recall` need the mean own-set radius before the
#' kernel sums, so requesting them adds one radii-only sweep.
#'
#' @section Intervals: With `replicates = R > 0` every metric gets a
#'   `lower` and `upper` column from ceiling(R / 2) pairs of complementary
#'   half-samples (every set split at random into two halves, the real
#'   split shared by all models; the random-groups variance, Wolter 2007),
#'   as described in the section Intervals of [prd_curve()]. `k` must fit
#'   the half-samples. The replicate values are kept in attribute
#'   `replicates` for [prd_compare()], with the fingerprints of the real
#'   set and of the real rows drawn (`real_set`, `real_draws`, per model),
#'   by which tables of separate calls bound with [prd_bind()] pair.
#'
#'   A share of n evaluation rows (`precision`, `recall`, `coverage`,
#'   `c_precision`, `sym_precision`, `sym_recall`, `prc_precision`,
#'   `prc_recall`) or a mean of terms in \[0, 1\] over them (`p_precision`,
#'   `p_recall`; a share's variance is the largest such a mean can have)
#'   gets the hull of that interval and the Wilson score interval of the
#'   share (Wilson 1927, \doi{10.1080/01621459.1927.10502953}): at 0 or 1
#'   every half-sample gives the same value, and the half-sample
#'   interval alone had width 0 (a recall of 1 in nearly every draw: it
#'   covered its own mean in 8% of 40 draws; with the Wilson part, 100%).
#'   Away from the bound the half-sample interval is the wider one and the
#'   rule changes nothing (in the validity suite only shares within 0.01
#'   of 0 or 1 got wider intervals). What stays uncalibrated (validity suite, d = 64
#'   and 256, 40 draws per setting, `bench/results.md`): under heavy tails
#'   (Student t, 5 degrees of freedom) `density` covers its own mean in
#'   62.5% to 75% of the draws and `recall` in 75% to 87.5%, `coverage`
#'   with 5% outliers in 82.5% to 95%; the pooled coverage over the 18
#'   settings is 92% for `precision`, 91% for `recall`, 91% for `coverage`
#'   and 85% for `density`. For `density` the
#'   reason is measured (`bench/density-rate.R`): there its variance does
#'   not fall with the sample size (the same at 500 and at 1,000 rows per
#'   set, while its mean grows from 18 to 26 at d = 64), so the halves'
#'   1/n rule makes its intervals too narrow by a factor of about
#'   \eqn{\sqrt 2}.
#'
#' @param real Real samples (from P): a numeric matrix or data frame, one
#'   row per sample (n x d). Integer matrices are accepted.
#' @param generated Generated samples (from Q), m x d, same columns: one
#'   sample set, a named list of sample sets (one per model), a data
#'   frame grouped by a model column, or a synthpop object (as in
#'   [prd_curve()]).
#' @param metrics Names of the metrics to compute (default: all, in this
#'   order):
#'
#'   `r manifold_metrics_doc()`
#' @param k Number of neighbours: one or more whole numbers, each with
#'   1 <= k <= (smaller fit set size) - 1. Default 5 (Naeem et al. 2020;
#'   Kynkaanniemi et al. 2019 use 3). Several values are computed in the
#'   same pass.
#' @param split Fraction in \[0, 1) of each set held out for evaluation, or
#'   explicit evaluation rows `list(real = <int>, generated = <int>)`.
#'   Default 0 (no split: fit = evaluation = the whole set), the setting in
#'   which these metrics were defined and published, so that numbers can be
#'   compared with the literature and with `prdc`; curves default to 0.5
#'   because a classifier must be judged on held-out points. Balls and
#'   radii come from the fit parts, shares and means are taken over the
#'   evaluation parts. Drawn with R's RNG ([set.seed()] reproduces it).
#' @param closed `TRUE` (default): closed balls, \eqn{\|u - z\| \le r};
#'   `FALSE`: open balls, \eqn{<} (the `prdc` convention).
#' @param k_prime Count threshold of `prc_precision`/`prc_recall`, a whole
#'   number >= 1 (default 1).
#' @param ppr_scale Positive number a of `p_precision`/`p_recall`: the
#'   kernel radius is a times the mean `ppr_k`-NN distance of the fit set
#'   (default 1.2).
#' @param ppr_k Neighbour count of that mean distance, a whole number with
#'   1 <= `ppr_k` <= (smaller fit set size) - 1 (default 4). Checked only
#'   when `p_precision` or `p_recall` is requested (`p_in` of
#'   [manifold_samples()]); the default is lowered to the largest that fits
#'   on smaller sets, with a warning of class `prdcurve_warning_k_reduced`.
#' @param replicates Number of half-sample replicates for intervals
#'   (default 0: none; ceiling(R / 2) complementary pairs, see the section
#'   Intervals). 40 to 200 are typical.
#' @param conf_level Confidence level of the `lower` and `upper` columns
#'   (default 0.9); [tidy()][prd_tidy] recomputes them at any
#'   other level.
#' @inheritParams prd_curve
#' @param per_sample `r lifecycle::badge("deprecated")` Use
#'   [manifold_samples()] for per-sample results.
#' @return A tibble of class `prd_metrics`, one row per model, metric and
#'   `k` (in that order): `model` (the generated set's name, `"generated"`
#'   for a single set), `metric` (character), `k` (integer; for
#'   `p_precision` and `p_recall` it is `ppr_k`, one row each) and `value`
#'   (double; in \[0, 1\] except `density`), plus `lower` and `upper` with
#'   replicates. Attributes: `sizes` (fit and evaluation sizes), `split`,
#'   `closed`, `k_prime`, and `ppr_radius` (the kernel radii \eqn{R_X,
#'   R_Y} as distances) when `p_*` are requested.
#' @section Errors: classed conditions inheriting from `prdcurve_error`:
#'   `prdcurve_error_input` (samples that are not numeric, with NA, NaN or
#'   Inf, fewer than 2 rows; unknown `metrics`; bad `k_prime`,
#'   `ppr_scale`, `closed`), `prdcurve_error_columns`,
#'   `prdcurve_error_k_too_large` (`k` or `ppr_k` does not fit the fit
#'   sets, or the half-samples), `prdcurve_error_split`,
#'   `prdcurve_error_replicates`. Input warnings as in [prd_curve()].
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
#' Raisa, O., van Breugel, B. and van der Schaar, M. (2025). Position: all
#' current generative fidelity and diversity metrics are flawed. ICML.
#' arXiv:2505.22450. (Their sanity checks on this package's metrics and
#' curves: `bench/sanity.R` in the source repository.)
#'
#' Sykes, B., Simon, L., Rabin, J. and Fadili, J. (2024). A new
#' perspective on precision and recall for generative models.
#' arXiv:2405.01611. Section 4.1, eqs. 16-20.
#'
#' Wolter, K. M. (2007). Introduction to Variance Estimation, 2nd ed.,
#' chapter 2 (the method of random groups). Springer.
#' \doi{10.1007/978-0-387-35099-8}.
#' @seealso [manifold_samples()] for each sample's indicators,
#'   [prd_curve()] for the whole precision-recall curve, whose extreme
#'   points these metrics bound, [prd_compare()].
#' @examples
#' set.seed(1)
#' real <- matrix(rnorm(300 * 8), ncol = 8)
#' generated <- matrix(rnorm(300 * 8, mean = 0.3), ncol = 8)
#' manifold_metrics(real, generated, k = c(3, 5))
#'
#' # two models with intervals
#' models <- list(a = generated, b = matrix(rnorm(300 * 8), ncol = 8))
#' manifold_metrics(real, models, metrics = c("precision", "recall"),
#'                  replicates = 20)
#' @export
manifold_metrics <- function(real, generated,
                             metrics = manifold_metric_names(),
                             k = 5, split = 0, closed = TRUE, k_prime = 1,
                             ppr_scale = 1.2, ppr_k = 4, replicates = 0,
                             conf_level = 0.9, features = NULL, id = NULL,
                             standardize = c("none", "real"),
                             per_sample = deprecated()) {
  if (is.numeric(metrics)) {
    # the old argument order was (real, generated, k, metrics)
    old <- legacy_k_first("manifold_metrics", metrics, k, missing(k),
                          manifold_metric_names())
    k <- old$k
    metrics <- old$metrics
  }
  if (lifecycle::is_present(per_sample)) {
    lifecycle::deprecate_warn("0.2.0", "manifold_metrics(per_sample)",
                              "manifold_samples()")
    per_sample <- check_flag(per_sample)
  } else {
    per_sample <- FALSE
  }
  sets <- prepare_samples(real, generated, rlang::enquo(features),
                          rlang::enquo(id), standardize)
  # the scale from every real row, with a split too (standardize_split())
  sets <- standardize_split(sets)
  check_sample_traps(sets, k, split)
  metrics <- check_methods(metrics, manifold_metric_names(), arg = "metrics")
  opts <- manifold_options(closed, k_prime, ppr_scale, ppr_k)
  opts$ppr_k_default <- missing(ppr_k)
  replicates <- check_replicates(replicates)
  conf_level <- check_level(conf_level)
  run <- function(real, gens, what = "the fit sets") {
    shared <- engine_shared()
    sp <- resolve_model_splits(split, real, gens, canonical = TRUE)
    vctrs::vec_rbind(!!!lapply(names(gens), function(m) {
      s <- sp[[m]]
      res <- manifold_core(real, gens[[m]], s, metrics, k, opts, what = what,
                           shared = shared)
      tibble::tibble(model = m, res$values)
    }))
  }
  shared <- engine_shared()
  sp <- resolve_model_splits(split, sets$real, sets$generated, canonical = TRUE)
  first <- lapply(names(sets$generated), function(m) {
    s <- sp[[m]]
    res <- manifold_core(sets$real, sets$generated[[m]], s, metrics, k, opts,
                         per_sample = per_sample, shared = shared)
    res$model <- m
    res$s <- s
    res
  })
  values <- vctrs::vec_rbind(!!!lapply(first, function(r) {
    tibble::tibble(model = r$model, r$values)
  }))
  s1 <- first[[1]]
  out <- new_prd_metrics(values, sizes = split_sizes(s1$s),
                         split = split_asked(s1$s), closed = opts$closed,
                         k_prime = opts$k_prime,
                         ppr_radius = s1$ppr_radius,
                         model_sizes = vapply(sets$generated, nrow, integer(1)),
                         eval_sizes = eval_sizes_of(first))
  if (replicates > 0L) {
    reps <- run_replicates(sets$real, sets$generated, replicates,
                           function(real, gens) {
                             h <- standardize_half(real, gens, sets$standardize,
                                                   grid = sets$grid)
                             run(h$real, h$gens,
                                 what = "the half-samples of the replicates")
                           })
    out <- attach_metric_replicates(out, reps, conf_level)
  }
  if (!per_sample) return(out)
  samples <- first[[1]]$samples
  list(metrics = out, generated = samples$generated, real = samples$real)
}

#' The evaluation rows of each model's fit: a matrix, one row per model
#' (named), columns eval_real and eval_generated (the n of the Wilson floor
#' of the share metrics' intervals, metric_intervals())
#' @noRd
eval_sizes_of <- function(first) {
  m <- t(vapply(first, function(r) {
    split_sizes(r$s)[c("eval_real", "eval_generated")]
  }, integer(2)))
  rownames(m) <- vapply(first, `[[`, "", "model")
  m
}

#' Per-sample indicators of the manifold metrics
#'
#' The sample-level terms behind [manifold_metrics()], as one tidy tibble
#' (augment-style): one row per evaluated sample (all rows without a
#' split, the evaluation rows with one) and value of `k`, for the real and
#' every generated set. For each sample, "the other set" is the generated
#' set for a real row and the real set for a generated row:
#'
#' * `n_balls`: the number of the other set's k-NN balls (fit points, own
#'   radius) that contain the sample; `in_manifold` is `n_balls >= 1`. For
#'   generated rows the mean of `in_manifold` is `precision` and the sum of
#'   `n_balls` over \eqn{k |Y_e|} is `density`; for real rows the mean of
#'   `in_manifold` is `recall`.
#' * `n_in_ball`: the number of the other set's fit points inside the
#'   sample's own k-NN ball (radius among its own set's fit points);
#'   `covered` is `n_in_ball >= 1`: its mean is `c_precision` over the
#'   generated rows and `coverage` over the real rows (`prc_precision`,
#'   `prc_recall` are the means of `n_in_ball >= k_prime`).
#' * `p_in` (with `probabilistic = TRUE`): \eqn{1 - \prod (1 - \tau)} over
#'   the other set's fit points, whose mean is `p_precision` (generated
#'   rows) or `p_recall` (real rows).
#'
#' Generated rows with `in_manifold` or `covered` `FALSE` are the samples
#' that drag precision down; real rows with `covered` `FALSE` are the
#' modes the generator misses.
#'
#' @inheritParams manifold_metrics
#' @param probabilistic Add the `p_in` column (one more sweep of the
#'   distance engine); default `FALSE`.
#' @return A tibble with columns `model`, `set` (`"real"` or
#'   `"generated"`), `row` (row number in that set), `id` (the `id` column
#'   or row names, when the input has them), `k`, `n_balls`, `in_manifold`,
#'   `n_in_ball`, `covered`, with `probabilistic = TRUE`, `p_in`, and for
#'   generated rows (`NA` for real rows) `real_distance`, the distance to
#'   the nearest real row, and `copy`, `TRUE` for a copy of a real row:
#'   an exact copy, or a row nearer to a real row than 0.1 times the
#'   median distance of a real row to its nearest other real row (in the
#'   spirit of the authenticity of Alaa et al. 2022, ICML, and the copying
#'   test of Meehan, Chaudhuri and Dasgupta 2020, AISTATS; their share is
#'   the memorised share of the model; [manifold_metrics()] and the other
#'   functions warn about exact copies, class
#'   `prdcurve_warning_copies`). Real rows are repeated for every model
#'   (their indicators depend on it).
#' @section Errors: as [manifold_metrics()].
#' @references See [manifold_metrics()].
#' @examples
#' set.seed(1)
#' real <- data.frame(id = sprintf("r%03d", 1:200),
#'                    matrix(rnorm(200 * 4), ncol = 4))
#' generated <- data.frame(id = sprintf("g%03d", 1:200),
#'                         matrix(rnorm(200 * 4, mean = 0.8), ncol = 4))
#' s <- manifold_samples(real, generated, id = id)
#' # the generated samples outside the real manifold
#' head(s[s$set == "generated" & !s$in_manifold, ])
#' @export
manifold_samples <- function(real, generated, k = 5, split = 0,
                             closed = TRUE, k_prime = 1, ppr_scale = 1.2,
                             ppr_k = 4, probabilistic = FALSE,
                             features = NULL, id = NULL,
                             standardize = c("none", "real")) {
  sets <- standardize_split(prepare_samples(real, generated,
                                            rlang::enquo(features),
                                            rlang::enquo(id), standardize))
  probabilistic <- check_flag(probabilistic)
  opts <- manifold_options(closed, k_prime, ppr_scale, ppr_k)
  # the default ppr_k is lowered to fit tiny sets, as in manifold_metrics()
  opts$ppr_k_default <- missing(ppr_k)
  metrics <- c("precision", if (probabilistic) "p_precision")
  shared <- engine_shared()
  # one real split shared by every model (paired), as manifold_metrics()
  sp <- resolve_model_splits(split, sets$real, sets$generated, canonical = TRUE)
  vctrs::vec_rbind(!!!lapply(names(sets$generated), function(m) {
    g <- sets$generated[[m]]
    s <- sp[[m]]
    res <- manifold_core(sets$real, g, s, metrics, k, opts, per_sample = TRUE,
                         shared = shared)
    part <- function(tab, which, ids, own) {
      id_col <- if (!is.null(ids)) list(id = ids[tab$row])
      tibble::tibble(
        model = m, set = which, row = tab$row, !!!id_col, k = tab$k,
        n_balls = tab[[paste0("n_", own, "_balls")]],
        in_manifold = tab[[paste0("in_", own, "_manifold")]],
        n_in_ball = tab[[paste0("n_", own, "_in_ball")]],
        covered = if (which == "real") tab$covered else tab$covered_c,
        p_in = if (probabilistic) tab[[paste0("p_in_", own)]]
      )
    }
    gen <- part(res$samples$generated, "generated", attr(g, "ids"), "real")
    cp <- copy_flags(sets$real, g)
    gen$real_distance <- cp$distance[gen$row]
    gen$copy <- cp$copy[gen$row]
    vctrs::vec_rbind(
      part(res$samples$real, "real", attr(sets$real, "ids"), "generated"),
      gen
    )
  }))
}

#' Validated options of the manifold metrics
#' @noRd
manifold_options <- function(closed, k_prime, ppr_scale, ppr_k,
                             call = rlang::caller_env()) {
  list(closed = check_flag(closed, call = call),
       k_prime = check_count(k_prime, min = 1, call = call),
       ppr_scale = check_positive(ppr_scale, len = 1L, max = 1e150,
                                  call = call),
       ppr_k = check_count(ppr_k, min = 1, call = call))
}

#' The metrics of one model (and, with per_sample, the per-sample tables)
#' @noRd
manifold_core <- function(real, generated, s, metrics, k, opts,
                          per_sample = FALSE, what = "the fit sets",
                          shared = NULL, call = rlang::caller_env()) {
  sizes <- split_sizes(s)
  limit <- min(sizes[["fit_real"]], sizes[["fit_generated"]]) - 1L
  k <- check_k(k, limit, what = what, call = call)
  want_ppr <- "ppr" %in% unlist(lapply(manifold_registry[metrics], `[[`,
                                        "needs"))
  ppr_k <- opts$ppr_k
  if (want_ppr && isTRUE(opts$ppr_k_default) && ppr_k > limit && limit >= 1) {
    # the default ppr_k = 4 of Park and Kim does not fit tiny sets
    prd_warn(c(
      "The default {.arg ppr_k} = {ppr_k} is too large for {what}; {.code p_precision} and {.code p_recall} use {.arg ppr_k} = {limit}.",
      "i" = "Set {.arg ppr_k} to choose it."
    ), "k_reduced")
    ppr_k <- limit
  }
  if (want_ppr) check_k(ppr_k, limit, arg = "ppr_k", what = what, call = call)
  k_prime <- opts$k_prime

  # the engine's estimators: the needs of the metrics asked for (per-sample
  # tables: the ball counts of both kinds)
  reg <- manifold_registry[metrics]
  est <- unique(c(if (per_sample) c("ipr", "coverage"),
                  unlist(lapply(reg, `[[`, "needs"))))
  est <- intersect(c("ipr", "coverage", "ppr"), est)
  # the counts at k only; ppr_k's own radii (the ppr radius) come with the
  # own radii (engine_neighbours()'s derived radii)
  ks <- k_norm(k)
  nb <- engine_neighbours(real, generated, s, ks, est,
                          ppr_k = if (want_ppr) ppr_k,
                          ppr_scale = if (want_ppr) opts$ppr_scale,
                          closed = opts$closed, cross = TRUE,
                          shared = shared)

  n_ex <- sizes[["eval_real"]]
  n_ey <- sizes[["eval_generated"]]
  ix <- seq_len(n_ex)
  iy <- n_ex + seq_len(n_ey)
  col <- match(k, ks)
  # counts of the evaluation points, one column per k
  cnt <- function(part, rows) nb[[part]][rows, col, drop = FALSE]
  ipr_gen <- if ("ipr" %in% est) cnt("ipr_a", iy)
  ipr_real <- if ("ipr" %in% est) cnt("ipr_b", ix)
  cov_gen <- if ("coverage" %in% est) cnt("coverage_a", iy)
  cov_real <- if ("coverage" %in% est) cnt("coverage_b", ix)
  # 1 - prod(1 - tau) from the engine's sums of log(1 - tau)
  p_gen <- if (want_ppr) -expm1(nb$ppr_a[iy])
  p_real <- if (want_ppr) -expm1(nb$ppr_b[ix])
  q <- list(ipr_gen = ipr_gen, ipr_real = ipr_real, cov_gen = cov_gen,
            cov_real = cov_real, p_gen = p_gen, p_real = p_real, k = k,
            n_ey = n_ey, k_prime = k_prime)
  rows <- lapply(metrics, function(m) {
    v <- manifold_registry[[m]]$value(q)
    kk <- if (manifold_registry[[m]]$per_k) k else ppr_k
    list(rep(m, length(kk)), kk, as.double(v))
  })
  values <- tibble::tibble(
    metric = unlist(lapply(rows, `[[`, 1)),
    k = as.integer(unlist(lapply(rows, `[[`, 2))),
    value = as.double(unlist(lapply(rows, `[[`, 3)))
  )
  out <- list(values = values,
              ppr_radius = if (want_ppr) c(real = nb$ppr_radius[1],
                                           generated = nb$ppr_radius[2]))
  if (!per_sample) return(out)

  ev <- split_scored(s)
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
  out$samples <- list(generated = gen, real = rl)
  out
}

# ---- the registry of the manifold metrics --------------------------------
#
# One row per metric: what it needs from the engine (its estimators, in
# src/estimators.c's table: "ipr" = the number of the other set's k-NN
# balls holding a sample, "coverage" = the number of the other set's fit
# points in the sample's own k-NN ball, "ppr" = the sums of log(1 - tau)),
# its value from those counts, whether it has a value per k (or one, at
# ppr_k), its bounds and a line of documentation. The default `metrics`,
# the engine request, interval clamping and the docs of `metrics` all come
# from here. The value functions see `q`: ipr_gen, ipr_real, cov_gen,
# cov_real (counts of the evaluation rows of generated / real, a column per
# k), p_gen, p_real (1 - prod(1 - tau) per row), k, n_ey (evaluation rows
# of generated), k_prime.

