#' Precision-recall curve between real and generated samples
#'
#' Estimates the precision-recall (PR) curve of Sykes, Simon, Rabin and
#' Fadili (2024, section 2): for \eqn{\lambda \in [0, \infty]},
#' \eqn{\alpha_\lambda = (\lambda P \wedge Q)(\Omega)} (precision) and
#' \eqn{\beta_\lambda = \alpha_\lambda / \lambda} (recall), through its dual
#' form \eqn{\alpha_\lambda = \min_f \lambda\,\mathrm{fpr}(f) +
#' \mathrm{fnr}(f)} (their eq. 9) over a family of classifiers \eqn{f}
#' trained on a *fit* part of each set and evaluated on the *evaluation*
#' part (their section 4.2). Several generators can be compared in one
#' call: the real set's split is shared by all of them.
#'
#' Each method gives every evaluation point z two evidences, a(z) for P and
#' b(z) for Q, counted in the fit sets \eqn{X_f} (real, \eqn{n_{X_f}} rows)
#' and \eqn{Y_f} (generated, \eqn{n_{Y_f}} rows), and the score, the ratio
#' of the two density estimates, \eqn{s = (b / n_{Y_f}) / (a / n_{X_f})}
#' (b / 0 = Inf for b > 0, and 0 / 0 = 1), computed as
#' \eqn{b\,n_{X_f} / (a\,n_{Y_f})} so that equal ratios stay tied:
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
#' Fitted classifier families (the table in the section "The curve
#' families", and the section "Fitted families and the combined curve"
#' below): `r family_names_doc("fitted")`; and `"tightest"` (in each of six
#' bands of \eqn{\lambda} the family with the least area, penalised by its
#' noise, chosen on one half of the evaluation rows: an estimate of an
#' upper bound of the true curve).
#'
#' The family is every threshold rule \eqn{1[s \le t]}, \eqn{1[s < t]}, the
#' two trivial classifiers and the two literature extremes \eqn{1[a \ge 1]}
#' and \eqn{1[b = 0]}; its lower envelope is computed exactly (convex hull
#' of the error pairs), not by trying every rule at every \eqn{\lambda}.
#' Distances are Euclidean; k-NN radii leave the point itself out (by row
#' index); ball membership is \eqn{\le} (`closed = TRUE`) or \eqn{<}.
#'
#' *Normalisation.* A common factor on all scores never changes the curve,
#' but the points with a = b = 0 sit at score 1, so when the two fit parts
#' have different sizes, dividing each count by its fit size (as Sykes et
#' al.'s released code does) changes where those points fall. This package
#' follows that convention; the paper's rule "\eqn{\gamma a \ge b} for
#' \eqn{\gamma \ge 1}" is the same thing with equal fit sizes.
#'
#' All requested methods and every value of `k` come from one streamed
#' evaluation sweep of the tiled distance engine (no n x n matrix). The
#' own-set radii (`"ipr"`, estimated `"kde"` bandwidths) come from
#' symmetric sweeps within each fit set (each pair once), and the real
#' set's are computed once for all models. Under a non-sequential
#' `future::plan()` the sweeps run on the workers in blocks of rows (own
#' radii included, and with `split = 0` the sweep of every fit row against
#' both fit sets, each row still left out of its own balls); results are
#' identical. Calls of fewer than 1e10 pairs of rows times columns
#' (\eqn{(n + m)^2 d / 2}: 17,700 rows in all at d = 64, 3,200 at d =
#' 2,048) stay in the process, where a round of futures costs more than
#' the work; `options(prdcurve.future = TRUE)` sends every call,
#' `FALSE` none.
#'
#' @section Intervals: With `replicates = R > 0`, the whole estimate
#'   (split included) is recomputed on P = ceiling(R / 2) pairs of
#'   complementary half-samples: each pair splits every set at random into
#'   a half H and its complement (the real split shared by all models, so
#'   comparisons between models are paired; equal-size generated sets share
#'   the same row halves), and the estimate is computed on both halves.
#'   This is the random-groups variance estimator with two groups (Wolter
#'   2007, chapter 2): the halves share no row, so the difference
#'   \eqn{D_j = \hat\theta(H_j) - \hat\theta(H_j^c)} has \eqn{E D_j^2 =
#'   4 \mathrm{Var}(\hat\theta_n)} when the variance scales as 1/n, and
#'   \eqn{\hat v = \frac{1}{4P} \sum_j D_j^2} (with 4 replaced by
#'   \eqn{1/f_1 + 1/f_2} for odd sizes, \eqn{f_1, f_2} the halves' shares).
#'   [summary.prd_curve()] reports \eqn{\hat\theta \pm t_{P,(1 + c)/2}
#'   \sqrt{\hat v}} (Student's t with P degrees of freedom, exact when the
#'   \eqn{D_j} are normal; clamped to the statistic's range), and
#'   `autoplot()` draws the same band along the rays. No point is
#'   duplicated, unlike the ordinary bootstrap, whose repeated points put
#'   zero distances into every nearest-neighbour radius and make it invalid
#'   for these statistics. Assumptions: the rows of each set are
#'   independent draws; the statistic is approximately normal with
#'   variance of order 1/n; the interval covers the estimator's own
#'   expectation at this sample size, not the true curve (the k-NN
#'   estimators are biased, see Sykes et al. 2024, section 5). Where the
#'   variance does not fall as 1/n (the extremes `max_precision` and
#'   `max_recall`, which sit at the edge of the score distribution) the
#'   halves misjudge it. Measured over 200 fresh draws (d = 16, 1,000
#'   points per set, 20 pairs), 90% intervals of the area cover in 88.5%
#'   to 93% of the draws, of the extremes near 1 in 93.5% to 97.5%;
#'   paired differences of two models from one distribution contain 0 in
#'   89.5% to 94.5% (the "Comparing models" vignette and
#'   `inst/extdata/calibration.csv`). In the validity suite (d = 64 and
#'   256, 40 draws of 18 settings per family, `inst/extdata/validity.csv.gz`)
#'   the area's intervals stay calibrated when pooled for every family
#'   (88% to 92%) but `"quadratic"` (85%: unstable under heavy tails),
#'   and the extremes' are not. At
#'   their bound (0 or 1, as for a noisy model's `max_recall`) the
#'   half-samples sit there too and their spread is 0: there the interval
#'   also holds the Wilson score interval of a share of the evaluation rows
#'   (see [summary.prd_curve()]), and covers conservatively (the 18 such
#'   settings below 85% went to 88% or more; `kde`'s `max_precision` under
#'   heavy tails from 32% to 95%). Inside (0, 1) (a mean estimate between
#'   0.001 and 0.999), 50 of the 221 cells of the extremes cover less
#'   than 85%, where a calibrated interval does so in about 22 by chance
#'   over 40 draws. The real misses (26 cells at 75% or less, where
#'   chance gives a calibrated interval about 1) are mostly the noisy
#'   model's (N(0, 1.2^2 I)) at d = 256 (15), 11 of them the fitted
#'   families' (`"quadratic"`, `"stacked"`, `"tightest"`; 0.13 to 0.26
#'   where the truth is 1), which cover 60% to 75% because their variance
#'   does not fall from n/2 to n, then `"quadratic"`'s under heavy tails
#'   (3).
#'   40 replicates instead of 10, or 2,000 rows per set instead of 1,000,
#'   leave them there (`bench/interval-rules.R`). So compare and report
#'   models by `auc`, and read the extremes' intervals as rough.
#'   `k` must fit the half-samples; an odd `R` is rounded up.
#'
#' @section The curve families: Each family is one entry of the package's
#'   family registry (inst/ARCHITECTURE.md); this table is built from it.
#'
#' `r family_table()`
#'
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
#'
#' @param real Real samples (from P): a numeric matrix or data frame, one
#'   row per sample (n x d). Integer matrices are accepted. See
#'   `features`, `id` and `standardize` for data frames.
#' @param generated Generated samples (from Q), m x d, same columns: one
#'   sample set, a named list of sample sets (one per model), or a data
#'   frame grouped by a model column (`dplyr::group_by(df, model)`). A
#'   synthpop object (the result of `synthpop::syn()`, class `synds`) is
#'   its synthetic data: one set, or m of them (`syn_1`, ..., or
#'   `cart_1`, ... as the element `cart` of a list), and the missing
#'   codes of its numeric columns (its `cont.na`, such as income -8 in
#'   `SD2011`) are read in every set as synthpop's utility measures read
#'   them (see `features`).
#' @param method `r family_methods_doc()`
#' @param k Number of neighbours: one or more whole numbers, each with
#'   1 <= k <= (smallest fit set size) - 1, all served by one pass. Default
#'   `round(sqrt(min(fit sizes)))`, which satisfies k -> Inf, k / n -> 0
#'   (Sykes et al., Theorem 5). Read by the neighbour families only, and
#'   by `"kde"` only for its default bandwidths: with none of them (a
#'   fitted `method`, or `"tightest"` of fitted `families`), a given `k`,
#'   like `closed = FALSE`, is ignored with
#'   `prdcurve_warning_unused_argument` (its field `arguments` names them);
#'   so is `k` where `"kde"` with a given `bandwidth` is the only
#'   neighbour family.
#' @param split Fraction in \[0, 1) of each set held out for evaluation, the rest
#'   being the fit part; drawn with R's RNG, so [set.seed()] reproduces it. Default
#'   0.5: a classifier is judged on points it was not fitted on (Sykes et al. 2024,
#'   section 4.2), the setting of every curve estimator here. `0` is the
#'   literature's no-split setting (fit = evaluation = the whole set). Or explicit
#'   evaluation rows `list(real = <int>, generated = <int>)` for reproducible
#'   cross-fitting. Every random assignment of a call (this split, the folds, the
#'   halves of `"tightest"` and of `replicates`, the inner folds of `"stacked"`) is
#'   drawn over each set's rows in lexicographic order of their values, so under
#'   one seed a permutation of the rows of either set gives the identical curve,
#'   for every method (an increasing map of a column does not change that order
#'   either; nor the other models: "Several models"). Renaming categories or
#'   reordering the columns changes that order, so the same seed draws other
#'   assignments: the curves then differ within their noise (see `replicates`).
#'   Sets whose largest magnitude lies outside \[2^-64, 2^64) are first multiplied
#'   by one power of two, common to all sets (exact; a `bandwidth` is scaled with
#'   them, reported in the data's units), so that every value the input check
#'   accepts (up to 1e100) gives a curve.
#' @param closed `TRUE` (default): balls are closed, \eqn{\|u - z\| \le r};
#'   `FALSE`: open, \eqn{<} (the convention of the `prdc` Python package).
#' @param angles Number of \eqn{\lambda} values: \eqn{\lambda_i = \tan
#'   \theta_i}, \eqn{\theta_i} equally spaced in
#'   \[1e-10, \eqn{\pi}/2 - 1e-10\] (Sajjadi et al. 2018). Default 1001.
#' @param bandwidth For `"kde"`: `NULL` (estimated, see above), one
#'   positive distance for both sets, or two (real, generated). Same units
#'   as the features. A given bandwidth reads no `k`: its curve is one,
#'   with `k` NA. Where more than 99% of each set's evaluation rows find
#'   their two balls empty, or holding every fit row (not counting the row
#'   itself), their scores are set by the bandwidth and the curve says
#'   nothing of the sets (with a split, within 1% of that of Q = P):
#'   `prdcurve_warning_bandwidth` (fields `models`, `balls`) says so.
#' @param replicates Number of half-sample replicates for intervals
#'   (default 0: none; see the section Intervals). 50 to 200 are typical.
#' @param features Columns of data-frame inputs to use as features, a tidyselect
#'   selection (default: every numeric and categorical column); column numbers
#'   count in the real set, whose column names every set then reads. Categorical
#'   columns (factors, ordered factors, logicals, characters) enter as indicator
#'   columns of their categories, 1/2 in the row's category and 0 elsewhere (a
#'   change of category is a distance of \eqn{2^{-1/2}}), with the categories of
#'   every set, sorted, whatever their level order (kept as they are by
#'   `standardize`); a category of one set only is warned about
#'   (`prdcurve_warning_category_levels`). A missing value (NA) of a categorical
#'   column is a category of its own (`sex=<NA>`, as synthpop models it; a message
#'   of class `prdcurve_message_missing_categories` says so). NA (or NaN) in a
#'   numeric column is read as synthpop's utility measures read it: an indicator
#'   column beside it (`income=<NA>`, 1/2 where the value is missing, a category),
#'   the missing value set to the median of the real set's values (of every set's
#'   where the real set has none; a message of class
#'   `prdcurve_message_missing_values`). A missing code of a synthpop object's
#'   numeric column is read alike: an indicator column per code (`income=-8`), the
#'   value set to the median of the real set's other values (a message of class
#'   `prdcurve_message_missing_codes`). Dates and times (Date, POSIXct, difftime)
#'   are numbers of days (message `prdcurve_message_time_columns`). A column with
#'   no value in any set, infinite values and NA in a matrix are errors
#'   (`prdcurve_error_input`). When the default takes categorical columns beside
#'   numeric ones (a class label beside embedding columns), a message of class
#'   `prdcurve_message_categorical_columns` names them. An exclusion alone
#'   (`-label`, `c(-label, -kind)`) removes columns from that default in the sets
#'   that have them (a real table's `label`, not a synthesiser's output); one that
#'   no set has is an error (`prdcurve_error_input`). Grouping columns (those of a
#'   grouped `generated` also in `real`: a `source` column of `"real"` there), the
#'   `id` column, a categorical `model` column, identifier-like text (more distinct
#'   values than half the rows) and a categorical column with one value in each set
#'   that is not the same in all (a `label` of `"real"` in the real set and
#'   `"synthetic"` in a generated one: it alone would tell the sets apart; message
#'   `prdcurve_message_dropped_columns`) are never features.
#' @param id A column of data-frame inputs that identifies samples; it is not a
#'   feature (per-sample functions carry it to their output); a column number
#'   counts in the real set. A generated data frame without the real set's id
#'   column (a synthesiser writes none) has no ids (`NA`, with a message); ids that
#'   repeat within a set give a warning (`prdcurve_warning_id_duplicated`).
#' @param standardize `"none"` (default) or `"real"`: centre and scale every
#'   column by the mean and standard deviation of the real set's rows, every set
#'   the same way; in `prd_curve()` with a split, of the real fit rows only (the
#'   metrics functions take every real row, see below). Euclidean distances are not
#'   scale-free: use it when columns have different units. Only the fit rows set
#'   the curve's scale so that the evaluation rows of the two sets stay comparable:
#'   with the scale from every real row, the rows that set it are not distributed
#'   as the generated ones, and a strong classifier sees that where the data are
#'   nearly degenerate (two samples of one uniform law on a sphere surface in d =
#'   128, 1,000 points per set, read `"stacked"` AUC 0.947 on average over 20 draws
#'   with the scale from every real row, 0.986 with the scale from the fit rows and
#'   0.987 unscaled; `bench/results.md`, "Standardize"). The half-samples of
#'   `replicates` are scaled the same way, each by its own real fit rows, so that
#'   they replicate the estimate (with the full sample's scale, the pair variance
#'   of `"stacked"` AUC in that case was 2.8 times the one with each half's own
#'   scale). The metrics functions ([manifold_metrics()], [entropy_metrics()] and
#'   their per-sample forms) take every real row, also with a split: their balls
#'   are built on the real fit rows, and a scale from those rows alone moves the
#'   balls away from fresh points (the same sphere surface, split 0.5: `density`
#'   0.975 with every real row's scale, 0.953 with the fit rows', 0.993 unscaled).
#'   On discrete data (whole numbers, counts, codes) many distances tie exactly,
#'   and the neighbour families' radii sit on the ties. A column whose values (in
#'   each set that is discrete there) are whole numbers, or multiples of one power
#'   of two, within 2^22 steps is therefore scaled on a grid: its scale rounded to
#'   at least 30 significant bits (it moves by at most 1e-9 of itself) and its
#'   centre to a step of the results, so that every scaled value is exact and equal
#'   differences stay equal. The ties are then those of the exact distances,
#'   whatever the data's offset and unit. (Before 0.5.8 each value was rounded on
#'   its own and the ties were decided by that rounding: on five columns of small
#'   whole numbers, `density` read 0.995 against the exact 1.026, and 1.003 once
#'   the data were doubled and shifted; in the sanity checks' discrete data,
#'   `"ipr"`'s `max_precision` read 1.000 or 0.158 depending on the last bit of one
#'   standard deviation.) Continuous columns are scaled as before.
#' @param families For `"tightest"`: the families it combines (default
#'   `"knn"`, `"coverage"`, `"quadratic"`, `"stacked"` and
#'   `"smooth_marginal"`; with categorical columns of a data frame also
#'   `"logit"` and `"interaction"`; without them, up to d = 512 with at
#'   least 8 rows a column in every set and no direction kept between two
#'   halves of the real rows, `"spectral"`, and when every set has at
#'   least 1,000 rows, the real set at most 1,024 columns and its rows
#'   are clustered,
#'   also `"mixture"`: see that family in the section "Fitted families and
#'   the combined curve"; `prd_curve_info()`'s `details$families` says
#'   which). Each costs its own time: at 10,000
#'   rows per set and d = 2,048 on 2 cores (AMD EPYC) the default took
#'   10.0 s in a run where `"knn"` alone took 2.8 s, `"knn"` with
#'   `"coverage"` 3.1 s, `"quadratic"` 4.6 s (2.4 s with `folds = 1`),
#'   `"stacked"` 2.2 s (1.5 s) and `"smooth_marginal"` 1.5 s (the
#'   neighbour families share one engine call; `bench/classifiers.R`,
#'   medians of 3, `bench/results.md`, "Time of each curve family"). A
#'   fit on every row costs at least the covariance of all rows (1.1 s
#'   there in double precision; single from 256 columns); `"quadratic"`
#'   also scores every evaluation row under each set's covariance (0.9 s)
#'   and, in 10 folds, forms and factors two covariances per fold (1.0
#'   s), so it cannot come down to the knn family's time.
#' @param folds `NULL` (default) or a whole number K in 1 to 100: the fitted
#'   families (`r family_names_doc("fitted")`, also in `"tightest"`) cross-fit
#'   in K folds of the evaluation rows, each fitted on the fit rows and the
#'   other folds' evaluation rows (see the section "Fitted families and the
#'   combined curve"). `NULL` is K = 10, or fewer where a fold would hold
#'   fewer than 2 evaluation rows per set (also in the replicates'
#'   half-samples), and 1 when not even 2 folds fit with a split, or when each
#'   set has at least \eqn{d^2} fit rows (\eqn{d} its columns; half the rows
#'   in the replicates' half-samples): there the folds were no closer to the
#'   truth (Gaussian scenarios at d = 16 with 2,000-20,000 points per set and
#'   d = 64 with 10,000-20,000: mean |AUC error| of `"tightest"` 0.0086 with
#'   one fit, 0.0087 with 10 folds) and one fit takes the default from 3.1 to
#'   1.8-2.1 times knn's time at 20,000 points per set and d = 64. With split
#'   0.5 and K = 10 they fit on 95% of the rows instead of half, which brings
#'   the curve closer to the truth where the fit is what limits it, in high
#'   dimension (section "Where each family is loose": at d = 2,048 and 5,000
#'   points per set the suite's worst error of `"tightest"` is 0.138, 0.229
#'   with one fit). `folds = 1` fits once on the fit rows (faster: at 10,000
#'   points per set and d = 2,048 the default `"tightest"` took 10.8 s instead
#'   of 12.8 s; not with `split = 0`, which leaves no fit rows:
#'   `prdcurve_error_split`). Fewer folds cost accuracy: at 1,000 points per
#'   set and d = 2,048 `folds = 5` took 2.4 s instead of 3.6 s (knn 0.12 s),
#'   but on the suite's Gaussian scenarios at n = 1,000 `"tightest"` read
#'   0.099 from the true AUC on average instead of 0.093 at d = 2,048 (0.071
#'   instead of 0.070 at 1,024; bench/results.md). A given K needs 2
#'   evaluation rows per set in each fold (also in the half-samples), else
#'   `prdcurve_error_split`; `folds` is ignored, with
#'   `prdcurve_warning_unused_argument`, when no fitted family is used.
#' @param atoms How the `"marginal"` family (and so `"tightest"`) reads
#'   columns whose values lie on a grid (whole numbers) in one set only:
#'   `"exact"` (default) as atoms the other set never hits (the supports
#'   differ, the true curve is 0), `"ignore"` as continuous values (no
#'   atom bins and no `prdcurve_warning_grid_columns`; see the section
#'   "Fitted families and the combined curve"). A curve read by
#'   `"marginal"` records it in `details$atoms`. Other families read
#'   values as they are either way.
#' @return A `prd_curve`: a tibble with one row per model, method, `k` and
#'   \eqn{\lambda}, columns `model` (the generated set's name;
#'   `"generated"` for a single set), `method`, `k` (NA where the curve
#'   reads none: a fitted family, `"kde"` with a given `bandwidth`),
#'   `lambda` (0, the grid, then Inf), `precision`
#'   (\eqn{\hat\alpha_\lambda}) and `recall` (\eqn{\hat\beta_\lambda}),
#'   both in \[0, 1\]. The row \eqn{\lambda = 0}
#'   has precision 0 and the maximal recall \eqn{\hat\beta_0}; the row
#'   \eqn{\lambda = \infty} has the maximal precision
#'   \eqn{\hat\alpha_\infty} and recall 0. Each curve's settings (split and
#'   set sizes, bandwidths, `closed`, replicates) are in
#'   [prd_curve_info()] and survive [rbind()], `dplyr::bind_rows()` and
#'   subsetting. Use [summary.prd_curve()], [prd_compare()], [prd_iou()],
#'   `autoplot()` and `plot()` on it.
#' @section Errors: classed conditions, all inheriting from
#'   `prdcurve_error`: `prdcurve_error_input` (samples that are not numeric,
#'   have NA, NaN or Inf, fewer than 2 rows; a bad `method`, `bandwidth`,
#'   `angles`, `folds`, `features`, `id` or `atoms`), `prdcurve_error_columns` (sets with
#'   different columns), `prdcurve_error_k_too_large` (`k` does not fit the
#'   fit sets, or the half-samples with `replicates`),
#'   `prdcurve_error_split` (`split` not in \[0, 1) or invalid rows;
#'   fewer than 4 rows per set to cross-fit a fitted family with
#'   `split = 0`, or fewer than 4 fit rows per set for
#'   `"stacked"`; fewer than 2 evaluation rows per set for
#'   `"tightest"`, or than 2 per fold with a given `folds`; `folds = 1`
#'   with `split = 0`),
#'   `prdcurve_error_replicates`. Warnings (class `prdcurve_warning_*`):
#'   `id_column`, `transposed` (fewer rows than columns), `scale`
#'   (very different column scales), `collapsed` (all real rows equal),
#'   `unused_argument` (`k`, `closed`, `bandwidth`, `folds` or `families`
#'   given where no family reads them), `bandwidth` (a given `"kde"`
#'   bandwidth whose balls are empty, or hold every fit row, on almost
#'   every evaluation row; see `bandwidth`), `family_disagreement` (two families' curves far
#'   apart, see above), `grid_columns` (columns on a grid in one set only, or on a coarser grid
#'   in one than the other's values take, with the reading of `atoms = "ignore"` when the exact
#'   reading ties models at 0); silence the input checks with `options(prdcurve.check_inputs = FALSE)`.
#' @references Sykes, B., Simon, L., Rabin, J. and Fadili, J. (2024). A new
#'   perspective on precision and recall for generative models.
#'   arXiv:2405.01611. Sections 2, 4.2, eq. 9.
#'
#'   Ledoit, O. and Wolf, M. (2004). A well-conditioned estimator for
#'   large-dimensional covariance matrices. Journal of Multivariate
#'   Analysis 88, 365-411. \doi{10.1016/S0047-259X(03)00096-4}.
#'
#'   Friedman, J. H. (1989). Regularized discriminant analysis. Journal of
#'   the American Statistical Association 84, 165-175.
#'   \doi{10.1080/01621459.1989.10478752}.
#'
#'   Simon, L., Webster, R. and Rabin, J. (2019). Revisiting precision
#'   recall definition for generative modeling. ICML, PMLR 97, 5799-5808
#'   (the duality of PR curves and classification).
#'
#'   Domingos, P. and Pazzani, M. (1997). On the optimality of the simple
#'   Bayesian classifier under zero-one loss. Machine Learning 29, 103-130.
#'   \doi{10.1023/A:1007413511361}.
#'
#'   Breiman, L. (1995). Better subset regression using the nonnegative
#'   garrote. Technometrics 37, 373-384.
#'   \doi{10.1080/00401706.1995.10484371}.
#'
#'   Chernozhukov, V., Chetverikov, D., Demirer, M., Duflo, E., Hansen, C.,
#'   Newey, W. and Robins, J. (2018). Double/debiased machine learning for
#'   treatment and structural parameters. The Econometrics Journal 21,
#'   C1-C68, section 3.4 (`repeats`). \doi{10.1111/ectj.12097}.
#'
#'   Wolter, K. M. (2007). Introduction to Variance Estimation, 2nd ed.,
#'   chapter 2 (the method of random groups). Springer.
#'   \doi{10.1007/978-0-387-35099-8}.
#'
#'   Fan, J. and Lv, J. (2008). Sure independence screening for ultrahigh
#'   dimensional feature space. Journal of the Royal Statistical Society B
#'   70(5), 849-911 (the `interaction` family's screening).
#'   \doi{10.1111/j.1467-9868.2008.00674.x}.
#'
#'   Wachter, K. W. (1980). The limiting empirical measure of multiple
#'   discriminant ratios. Annals of Statistics 8(5), 937-957 (the
#'   `spectral` family's bulk edges). \doi{10.1214/aos/1176345134}.
#'
#'   Fukunaga, K. (1990). Introduction to Statistical Pattern Recognition,
#'   2nd ed., chapter 10. Academic Press (the `spectral` family's
#'   directions).
#' @seealso [summary.prd_curve()], [prd_compare()], [prd_iou()],
#'   [prd_truth_gaussian()], [prd_discrete()], [prd_threads()].
#' @examples
#' set.seed(1)
#' real <- matrix(rnorm(400 * 8), ncol = 8)
#' generated <- matrix(rnorm(400 * 8, mean = 0.5), ncol = 8)
#' curve <- prd_curve(real, generated, method = c("knn", "coverage"))
#' curve
#' summary(curve)
#'
#' # the default: in each band of lambda the family with the least area
#' # (penalised by its noise), chosen on one half of the evaluation rows
#' tight <- prd_curve(real, generated)
#' summary(tight)[, c("method", "auc")]
#' prd_curve_info(tight)$details[[1]]$family_auc
#'
#' # two models, with intervals
#' models <- list(near = matrix(rnorm(400 * 8, mean = 0.2), ncol = 8),
#'                far = generated)
#' cv <- prd_curve(real, models, method = "knn", replicates = 20)
#' summary(cv)[, c("model", "method", "auc", "auc_lower", "auc_upper")]
#' @export
prd_curve <- function(real, generated, method = "tightest",
                      k = NULL, split = 0.5, closed = TRUE, angles = 1001,
                      bandwidth = NULL, replicates = 0, features = NULL,
                      id = NULL, standardize = c("none", "real"),
                      families = NULL, folds = NULL,
                      atoms = c("exact", "ignore"), repeats = NULL) {
  atoms <- check_choice(atoms, c("exact", "ignore"))
  sets <- prepare_samples(real, generated, rlang::enquo(features),
                          rlang::enquo(id), standardize,
                          defer_grid = TRUE)
  # rows in canonical order (a permutation of the rows gives the same
  # curve under the same seed) on a safe common scale (R/canonical.R)
  sets <- canonical_sets(sets)
  split <- canonical_split(split, sets)
  # the real set as read, which prd_compare() checks that bound curves of
  # separate calls share (R/compare-pairing.R)
  real_set <- real_set_fingerprint(sets$real, sets$scale)
  method <- check_methods(method, curve_methods())
  closed <- check_flag(closed)
  angles <- check_angles(angles)
  replicates <- check_replicates(replicates)
  default_families <- is.null(families)
  clusters_gain <- NULL
  if (default_families) {
    # (the clusters test of tightest_families() only where it is used)
    families <- if ("tightest" %in% method) {
      tightest_families(sets$real, min(nrow(sets$real),
                                       vapply(sets$generated, nrow, 1L)))
    } else tightest_default()
    clusters_gain <- attr(families, "clusters_gain")
    attributes(families) <- NULL
    # clustered, and too large for the mixture
    if (isTRUE(clusters_gain > 0) && !"mixture" %in% families) {
      clustered_warning(sets$real)
    }
    # (in the default the mixture's EM on a sample of the fit rows: its
    # time bounded)
    if ("tightest" %in% method) {
      local_run_state(mixture_fit_rows = mixture_fit_rows_max(ncol(sets$real)))
    }
  } else {
    families <- check_methods(families, setdiff(curve_methods(), "tightest"),
                              arg = "families")
    if (!"tightest" %in% method) {
      warn_unused("families", cli::format_inline("the {.val tightest} method"))
    }
  }
  used <- union(setdiff(method, "tightest"),
                if ("tightest" %in% method) families)
  # k and open balls: only a neighbour family reads them, k not the kde
  # family with a given bandwidth (its balls are fixed)
  nb_used <- intersect(used, neighbour_methods())
  k_used <- setdiff(nb_used, if (!is.null(bandwidth)) "kde")
  unused <- c(if (!is.null(k) && !length(k_used)) "k",
              if (!closed && !length(nb_used)) "closed")
  if (length(unused)) {
    by <- if (length(nb_used)) {
      cli::format_inline("the neighbour families {.val {setdiff(neighbour_methods(), 'kde')}} (and {.val kde} when it estimates its bandwidth)")
    } else {
      cli::format_inline("the neighbour families ({.val {neighbour_methods()}})")
    }
    warn_unused(unused, by)
    if ("k" %in% unused) k <- NULL
    if ("closed" %in% unused) closed <- TRUE
  }
  # the grid warning now, unless the curves may tie models at 0 (R/atoms.R)
  grid_later <- grid_warning_early(sets$grid_lines, atoms, used)
  if (!is.null(folds)) {
    folds <- check_count(folds, min = 1, max = 100)
    if (!length(intersect(used, fitted_methods()))) {
      warn_unused("folds", cli::format_inline(
        "the fitted families ({.val {fitted_methods()}})"))
      folds <- NULL
    }
  }
  if (!is.null(bandwidth)) {
    bandwidth <- check_positive(bandwidth, max = 1e150) * sets$scale
    if (!"kde" %in% used) {
      warn_unused("bandwidth", cli::format_inline("the {.val kde} method"))
      bandwidth <- NULL
    }
  }
  # the splits averaged over (R/curve-repeats.R), the first drawn here
  repeats <- resolve_repeats(repeats, split, sets)
  seeds <- repeat_seeds(repeats)
  first <- draw_curve_splits(split, sets$real, sets$generated)
  # the indicator columns of categories (R/encode.R), before the scaling,
  # which keeps them but not their encoding: the bounds of "tightest"
  # (category_bounds()), in the half-samples too
  categories <- category_columns(sets$real)
  if ("spectral" %in% used) {
    spectral_rows_warning(ncol(sets$real), min(nrow(sets$real),
                                               vapply(sets$generated, nrow, 1L)))
  }
  # the scale from the real fit rows only (all rows without a split)
  sets <- standardize_split(sets, first$splits)
  if (default_families) {
    # a family's fewest fit rows per set (stacked: 4, two folds of 2), also
    # in the cross-fitted folds (split = 0) and the half-samples
    # (replicates); on smaller sets the default "tightest" goes without it
    rows <- first$limit + 1
    if (!split_has_eval(first$splits[[1]])) rows <- floor(rows / 2)
    if (replicates > 0L) rows <- floor(rows / 2)
    need <- vapply(families, function(f) family_entry(f)$min_fit_rows, 1L)
    families <- families[need <= rows]
    if ("tightest" %in% method && !length(families)) {
      where <- c(if (!split_has_eval(first$splits[[1]])) "in the folds of split = 0",
                 if (replicates > 0L) "in the half-samples of the replicates")
      prd_abort(c(
        "{.val tightest} has no family that fits on {rows} row{?s} per set.",
        "x" = "Its families need at least {min(need)} fit rows per set{if (length(where)) paste0(', ', paste(where, collapse = ' and ')) else ''}.",
        "i" = "Use more rows{if (replicates > 0L) ', no replicates' else ''}, or one method (e.g. {.code method = \"knn\"})."
      ), if (replicates > 0L) "replicates" else "split")
    }
  }
  if (length(intersect(used, fitted_methods()))) {
    folds <- resolve_folds(folds, first$splits, replicates,
                           d = ncol(sets$real))
  }
  if (is.null(k)) {
    k <- max(1L, min(first$limit, round(sqrt(first$limit + 1))))
  }
  k <- check_k(k, first$limit, what = "the fit sets")
  check_sample_traps(sets, k, split, angles, length(method) * length(k), replicates,
                     neighbours = length(intersect(used, neighbour_methods())) > 0L,
                     curve = TRUE)
  lambda <- lambda_grid(angles)
  settings <- list(method = method, k = k, closed = closed,
                   bandwidth = bandwidth, lambda = lambda, angles = angles,
                   families = families, folds = folds, scale = sets$scale,
                   clusters_gain = if (is.null(clusters_gain)) NA_real_ else
                     clusters_gain, categories = categories)
  run <- function() {
    out <- repeated_curves(sets$real, sets$generated, split, settings,
                           repeats, sets$standardize, sets$grid, first = first,
                           seeds = seeds)
    # the real rows each draw took (the splits, then every half-sample and
    # its splits), for prd_compare()'s pairing check
    draws <- attr(out, "real_draws")
    attr(out, "real_draws") <- NULL
    if (replicates > 0L) {
      reps <- run_replicates(sets$real, sets$generated, replicates,
                             function(real, gens) {
                               repeated_curves(real, gens, split, settings,
                                               repeats, sets$standardize,
                                               sets$grid,
                                               rows = attr(real, "prdcurve_rows"))
                             })
      draws <- c(draws, vapply(reps$results, attr, "", "real_draws"))
      out <- attach_curve_replicates(out, reps)
    }
    with_feature_names(with_real_pairing(out, real_set, draws), sets$features)
  }
  # the atoms read as given or as continuous values (R/atoms.R); an exact
  # reading that ties models at 0 read again with them ignored, from the
  # RNG's state the first reading drew from (the same draws: paired)
  seed <- rng_state()
  out <- with_atoms(atoms, run())
  out <- curve_atoms_reading(out, atoms, sets$grid_lines, run, grid_later,
                             seed = seed)
  if (!is.null(bandwidth)) check_kde_bandwidth(out, bandwidth / sets$scale)
  if (!check_family_agreement(out, ncol(sets$real))) {
    check_neighbour_family(out, ncol(sets$real))
  }
  out
}

