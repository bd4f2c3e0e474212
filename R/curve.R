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
#' Fitted classifier families (section "Fitted families and the combined
#' curve" below): `"linear"` (shrunk linear discriminant), `"quadratic"`
#' (regularised quadratic discriminant), `"stacked"` (a logistic
#' regression on splines of the linear score and the distances to the two
#' means), `"marginal"` (naive Bayes on per-coordinate histograms) and
#' `"tightest"` (in each of four bands of \eqn{\lambda} the family with the
#' least area, penalised by its noise, chosen on one half of the
#' evaluation rows: an estimate of an upper bound of the true curve).
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
#' identical.
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
#'   256, 40 draws of 18 settings per family, `inst/extdata/validity.csv`)
#'   the area's intervals stay calibrated when pooled for every family
#'   (89% to 94%) but `"quadratic"` (85%: unstable under heavy tails),
#'   and the extremes' are not. At
#'   their bound (0 or 1, as for a noisy model's `max_recall`) the
#'   half-samples sit there too and their spread is 0: there the interval
#'   also holds the Wilson score interval of a share of the evaluation rows
#'   (see [summary.prd_curve()]), and covers conservatively (the 18 such
#'   settings below 85% went to 88% or more; `kde`'s `max_precision` under
#'   heavy tails from 32% to 95%). Inside (0, 1), 34 of the 208 settings
#'   of the extremes cover less than 85%, against the 9% of settings in
#'   which a calibrated interval does so by chance over 40 draws. The
#'   real misses (15 settings at 75% or less, where chance gives a
#'   calibrated interval about 1) are mostly the noisy model's (N(0,
#'   1.2^2 I)) at d = 256, 9 of them the fitted families' (`"quadratic"`,
#'   `"stacked"`, `"tightest"`; 0.1 to 0.24 where the truth is 1), which
#'   cover 50% to 75% because their variance does not fall from n/2 to n,
#'   and `"quadratic"`'s under heavy tails (3; with one fit on the fit
#'   rows, `folds = 1`, there were 8 such settings in all).
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
#' @section Fitted families and the combined curve:
#' By the dual form, *every* classifier's error pair gives
#' \eqn{\lambda\,\mathrm{fpr} + \mathrm{fnr} \ge \alpha_\lambda}: each
#' family's curve estimates an **upper bound** of the true curve, tight only
#' for the likelihood-ratio classifier (Simon, Webster and Rabin 2019; Sykes
#' et al. 2024). The neighbour families are weak in high dimension with a
#' few thousand points, and their votes collapse under hubness. The fitted
#' families estimate \eqn{\log q/p} and feed the same threshold envelope
#' (score \eqn{s(z)}, low = "real"):
#'
#' * `"linear"`: \eqn{s(z) = w \cdot (z - c)}, \eqn{w = \hat\Sigma^{-1}
#'   (\hat\mu_Y - \hat\mu_X)}, \eqn{c = (\hat\mu_X + \hat\mu_Y)/2},
#'   \eqn{\hat\Sigma = (1 - \rho) S + \rho\, m I} with \eqn{S} the
#'   pooled within-set covariance of the fit rows, \eqn{m = \mathrm{tr}
#'   S / d} and \eqn{\rho} the closed-form shrinkage of Ledoit and Wolf
#'   (2004, Lemmas 3.2-3.4; the noise term summed over the two sets, each
#'   centred on its own mean). In `folds` with a split, each fold's
#'   \eqn{\rho} takes the squared Frobenius norms of its covariance
#'   predicted from the fit rows (their per-row dispersion, at the fold's
#'   row count; SPEC.md section 7) and its system is solved by
#'   preconditioned conjugate gradients for every fold at once: no fold
#'   forms a \eqn{d \times d} covariance of its own. At 10,000 points per
#'   set and \eqn{d} = 2,048, `"linear"` in 10 folds then takes 0.66
#'   to 0.73 of `"knn"`'s time (isotropic data, and a spectrum falling as
#'   \eqn{1/i}); `"stacked"`, whose inner discriminants are found the
#'   same way, 0.87 to 1.10; `"quadratic"`, which still factors two
#'   covariances per fold, 2.3 to 2.4.
#' * `"quadratic"`: \eqn{s(z) = \log \hat q(z) - \log \hat p(z)} with
#'   Gaussian densities whose covariances are regularised as in Friedman
#'   (1989): each set's \eqn{S_k} is first shrunk toward the pooled
#'   covariance rescaled to the set's own trace (so a change of dispersion
#'   survives), with intensity \eqn{\min(1, \widehat{\mathrm{noise}}(S_k) /
#'   \|S_k - T_k\|_F^2)}, then toward \eqn{m_k I} with the Ledoit-Wolf
#'   intensity; both closed form, from the fit rows only. It sees changes of
#'   dispersion (noisy or sharp models) that `"linear"` cannot.
#' * `"stacked"`: \eqn{s(z) = \hat\eta(z)}, the log-odds of a logistic
#'   regression on natural cubic splines (`splines::ns()`, knots at the
#'   quartiles) of three features: the `"linear"` score and \eqn{\log\|z
#'   - \hat\mu_X\|^2}, \eqn{\log\|z - \hat\mu_Y\|^2}. It estimates a
#'   log-likelihood ratio that is not monotone in a quadratic score: a
#'   heavy-tailed model (Student t against a Gaussian of the same
#'   covariance: \eqn{\log q/p} rises, then falls with \eqn{\|z\|^2}),
#'   where the quadratic discriminant is blind. The fit rows are cut into
#'   two folds (odd and even positions); the linear discriminant and the
#'   means are fitted on one fold and the logistic regression (a ridge of
#'   1e-4 on the spline coefficients, so that separable sets still give an
#'   order) on the features of the other fold, then the folds swap and the
#'   two log-odds are averaged: the regression never sees features of rows
#'   the discriminant was fitted on. Its discriminant sees half the fit
#'   rows, so in high dimension it is looser than `"linear"` on a mean
#'   shift.
#' * `"marginal"`: a naive Bayes classifier (Domingos and Pazzani 1997),
#'   \eqn{s(z) = \sum_l t_l(z_l)}, each \eqn{t_l} the log-ratio of two
#'   histograms of coordinate \eqn{l}, one per set, on B common bins:
#'   their edges are quantiles of both sets' rows pooled without their
#'   labels (at most 2,048 of each), B = \eqn{n_f / 25} between 2 and 128
#'   (\eqn{n_f} the smaller set's fit rows; `details$bins`), or a bin
#'   per value in a column with at most B distinct values, each count
#'   plus 1/2, and each bin's log-ratio \eqn{t} shrunk to \eqn{t \max(0, 1
#'   - v / t^2)}{t max(0, 1 - v / t^2)}, \eqn{v} its variance (the non-negative garrote, Breiman
#'   1995), so that bins without signal add no noise over many
#'   coordinates. It is exact in form when both distributions are products
#'   of their marginals: a shift along an axis, boxes of uniform points,
#'   independent coordinates of any shape (uniform cubes overlapping in
#'   20% of their volume, d = 8, 2,000 points per set: AUC 0.04 to 0.06
#'   against a true 0.04, where `"quadratic"` reads 0.30), and invariant to
#'   increasing maps of each coordinate; it is blind to dependence between
#'   coordinates (a shift along a random direction, a rotated covariance)
#'   and, in `"tightest"`, rarely chosen on Gaussian data. It costs two
#'   passes over the rows (a bin search per value), about half of
#'   `"knn"`'s time at 10,000 points per set and d = 2,048 (1.4 s against
#'   2.9 s). In the validity suite's Gaussian scenarios it is the loosest
#'   fitted family (mean |AUC error| 0.07 to 0.24 at 5,000 points per set,
#'   d = 16 to 2,048), and where each coordinate's log-ratio is small and
#'   smooth the shrinkage costs it accuracy (four coordinates at
#'   exponential rate 1.5 instead of 1, d = 8: 0.82 against a true 0.77,
#'   where `"stacked"` reads 0.75); `bench/marginal.R`.
#'   Where one set's column lies on a grid (whole numbers, or multiples of
#'   one power of two, up to 2^16 steps from 0, judged before
#'   `standardize`) and the other's does not (rounded data against a
#'   model's continuous output; values off the grid by the rounding of a
#'   double-precision round trip, a relative 2^-30, count as on it), the
#'   values on the grid get bins of their own
#'   (`details$atom_columns` counts those columns): such atoms are never
#'   hit by the other law, the supports are disjoint and the true curve is
#'   0. The family reads that (one rounded column among three, 1,000
#'   points per set: AUC below 0.001 with the values 1 or 1,000 steps
#'   apart), where `"knn"` reads 0.87 to 0.99; the input check warns
#'   about such columns
#'   (`prdcurve_warning_grid_columns`), which may also be storage precision
#'   (float16 against float32). On real integer-valued data against
#'   noisy continuous models every model then reads 0 and the ranking is
#'   gone: `atoms = "ignore"` reads such values as continuous (bins of
#'   whole cells of the grid, each a grid value with the values that round
#'   to it: the reading had the model's output been rounded), and when
#'   the exact reading ties two or more models at AUC 0 (at most 0.005)
#'   the curves are computed again that way, the grid warning gives each
#'   model's AUC with the atoms ignored and `details$atoms_ignored` keeps
#'   that curve (replicates included) for `prd_compare(atoms = "ignore")`.
#'
#'   The fitted families' scores come from R's BLAS and LAPACK: with
#'   another BLAS, or another count of its threads, they can differ in the
#'   last bits (about 1e-15 of their size: OpenBLAS splits a long
#'   `crossprod()` between its threads; the folds' conjugate gradients,
#'   solved to a relative residual of 1e-11, by up to about that much with
#'   another count of the engine's threads, [prd_threads()]), which moves
#'   a threshold only between two scores that close. The neighbour families' decisions are
#'   exact whatever the threads.
#' * `"tightest"`: a combination of several families' curves
#'   (`families`; default: `"linear"`, `"quadratic"`, `"stacked"`,
#'   `"marginal"` and the four neighbour families at each `k`). The
#'   evaluation rows of each set are halved at random (R's RNG), and the
#'   angle grid is cut into four bands of equal angle. On each half, each
#'   band takes the family with the least penalised area there: its area
#'   in the band plus 4 times its noise, the gap between its areas in the
#'   band on the two halves (a family decided by a few points has a large
#'   gap), or that gap less the median gap of the families where this is
#'   smaller (rows that make every family look tighter on one half are no
#'   family's noise). Where
#'   both halves choose the same family, the band is that family's curve
#'   on every evaluation row; where they differ, the family chosen on one
#'   half is read on the other and the two readings are averaged. Each
#'   extreme (`max_precision`, `max_recall`) is read from one family, that
#'   of its end band (when the halves differ there, the first half's
#'   choice read on the second half). The readings are then raised to the
#'   smallest PR curve above them (\eqn{\alpha} nondecreasing,
#'   \eqn{\beta} nonincreasing; unchanged with one family, whose curve
#'   `"tightest"` then is). With fewer than 50 evaluation rows of a set in
#'   a half, the whole curve comes from one family (that chosen on the
#'   first half: on every row when the second half agrees, else read on
#'   the second half), and a warning says so
#'   (`prdcurve_warning_small_sample`). `prd_curve_info(x)$details` holds
#'   the choice: `choice` (`"bands"` or `"single"`), `bands` (each band's
#'   \eqn{\lambda} range, the family chosen on each half, and `read`: `"all
#'   rows"` or `"halves"`), `chosen` (the families at every
#'   \eqn{\lambda}), each family's AUC (`family_auc`) and the gap between
#'   its AUCs on the two halves (`half_gap`).
#'
#'   **The default is an estimate of an upper bound, not a bound.** Each
#'   family's curve estimates an upper bound of the true curve (every
#'   classifier's errors do), but from a finite sample: the lower envelope
#'   over thresholds is optimistic on few rows, and the choice of the
#'   lowest family adds to that, so the estimate can lie below the truth.
#'   Measured (means of 3 draws): for two samples of one
#'   distribution (true AUC 1) at d = 8 and 64 it read 0.848-0.908 with 40
#'   points per set (10 evaluation rows a half), 0.914-0.936 with 200,
#'   0.964 with 400 and 0.989-0.993 with 1,000 (`"knn"`: 0.925-0.963,
#'   0.960-0.993, 0.981-0.992, 0.991-0.995), and 0.991 with 2,000 at d =
#'   64; at d = 64 with 5,000 points per set it read 0.010 above the true
#'   AUC on a mean shift (0.679), 0.008 above on a deflated model (0.131)
#'   and 0.016 below on an inflated one (0.243) (bench/tightest-choice.R).
#'   On the `digits` class-subset experiment (5 seeds, about 22 to 113
#'   evaluation rows a half) its mean IoU with the true rectangle is 0.931
#'   (`"knn"`: 0.937), with a spread of its AUC across seeds of 0.023
#'   (knn 0.021). Choosing at each \eqn{\lambda} separately (earlier versions)
#'   flipped between families on a handful of rows: IoU 0.903 on
#'   the same experiment, and extremes averaged from two families (a
#'   `max_precision` of 0.50 from readings 1 and 0.005).
#'
#' The fitted families never score their own fit rows (a classifier scored
#' on its fit rows overfits and its curve drops below the truth). They
#' **cross-fit**: the evaluation rows of each set (every row with
#' `split = 0`) are cut at random into K = `folds` folds (10 by default),
#' and each fold is scored by the classifiers fitted on the fit rows and
#' the other K - 1 folds of both sets; the K fits' scores make one curve
#' (`details$cross_fit`, `details$folds`; `n_fit_*` the rows of the
#' smallest fit). At split 0.5 and K = 10 each fit sees 95% of the rows
#' instead of half, which in high dimension is what limits the curve (see
#' "Where each family is loose"). The covariances of the K fits come from
#' each fold's moments, formed once (a fold's covariance is the total less
#' its own), so the K fits cost about two covariances of all rows and K
#' Cholesky factors (`"quadratic"`: two); with a split, the linear
#' discriminants of `"linear"` and `"stacked"` need no factor per fold
#' (conjugate gradients, see `"linear"` above). `folds = 1` fits once on the fit rows (the default
#' of prdcurve 0.5.7 and earlier, with two folds when `split = 0`). The
#' neighbour families are not affected.
#' Covariances are factorised with `chol()` of the d x d matrix, or of the
#' Gram matrix of the fit rows when d exceeds their number (Woodbury), so
#' they cost \eqn{O(n d \min(n, d))} through R's BLAS. Their curves carry
#' `k = NA`.
#'
#' When two families' AUCs of one model differ by more than 0.2 and the
#' lower is less than half the higher (and, with replicates, their intervals
#' are disjoint), with at least 50 evaluation rows per set, a warning of class
#' `prdcurve_warning_family_disagreement` names the tighter (lower) one and
#' the likely reason. A call with neighbour families only is checked the
#' same way against three simple classifiers fitted on the fit rows in
#' O(n d) (the squared distance to the real mean, in both orientations,
#' and the projection on the difference of the means; cross-fitted on odd
#' and even rows without a split): at d = 256 and 1,024 with 2,000 points
#' per set, `"knn"` and `"coverage"` give AUC 0.91 to 1.00 to a model with
#' 1.2 or 0.8 times the real spread (true AUC below 0.01), and the warning
#' fires in each of these cases and on no model from the real
#' distribution.
#'
#' @section Where each family is loose:
#' Measured against the exact curves (one draw of 2,000 points per set,
#' default settings, split 0.5; the fitted families and `"tightest"` in a
#' draw of their own with the default 10 folds and with `folds = 1`;
#' true AUC from [prd_truth_gaussian()] or the
#' chi-square law of \eqn{\|z\|^2}): N(0, I) against N(2 e1, I) (true AUC
#' 0.258), N(0, 1.2^2 I) (0.669 at d = 16, 0.007 at d = 256, 0.000 at d =
#' 1,024) and N(0, 0.8^2 I) (0.561, 0.001, 0.000).
#'
#' * `"knn"`: mean shift 0.31 / 0.59 / 0.83 at d = 16 / 256 / 1,024;
#'   dispersion 0.87 / 0.96 / 1.00 (1.2) and 0.79 / 0.98 / 1.00 (0.8):
#'   blind to dispersion in high dimension (hubness).
#' * `"kde"`: mean shift 0.33 / 0.57 / 0.76; dispersion close (0.04 and
#'   0.02 at d = 256 and 1,024).
#' * `"ipr"`: mean shift 0.35 / 0.66 / 0.85; dispersion 0.08 at d >= 256.
#' * `"coverage"`: mean shift 0.28 / 0.48 / 0.72; dispersion 0.90 / 1.00
#'   at d = 256 / 1,024.
#' * `"linear"` (default 10 folds; one draw): mean shift 0.25 / 0.27 /
#'   0.31 (one fit on the fit rows, `folds = 1`: 0.26 / 0.26 / 0.38; the
#'   estimated direction is off by \eqn{\cos^2 = \delta^2 / (\delta^2 + d
#'   (1/n_{X_f} + 1/n_{Y_f}))}, \eqn{n_{X_f}}, \eqn{n_{Y_f}} the rows it is
#'   fitted on); blind to dispersion (0.96 to 0.99 at every d).
#' * `"quadratic"`: mean shift as `"linear"`; dispersion 0.66 / 0.004 /
#'   0.000 (1.2) and 0.51 / 0.001 / 0.000 (0.8); misses what is not in
#'   the first two moments (a collapsed model of 50 points plus noise at
#'   d = 16: 0.37 against a true AUC near 0).
#' * `"tightest"` (with the choice at each \eqn{\lambda} of earlier
#'   versions): mean shift 0.24 / 0.26 / 0.30 (one fit: 0.26 / 0.26 /
#'   0.37), dispersion within 0.01 of the truth at d >= 256; 0.65 and 0.50
#'   at d = 16 (0.63 and 0.54 with one fit: the envelope's minimum on
#'   1,000 evaluation rows per set is optimistic, see below). With 5,000
#'   points per set (one fit) mean shift 0.255 / 0.259 / 0.286 at d = 16 /
#'   256 / 1,024.
#' * `"stacked"` (5,000 points per set): a Student t model with 5 degrees
#'   of freedom and the real covariance, true AUC 0.618 / 0.339 / 0.174 /
#'   0.087 / 0.061 at d = 16 / 64 / 256 / 1,024 / 2,048, gives 0.60 to
#'   0.61 / 0.35 / 0.18 to 0.20 / 0.11 / 0.08 to 0.09, where
#'   `"quadratic"` gives 0.84 to 0.97 / 0.64 / 0.83 to 0.86 / 0.85 / 0.36
#'   to 0.39 and `"kde"` 0.67 to 0.70 / 0.40 / 0.21 to 0.24 / 0.13 / 0.09.
#'   On a mean shift it is within 0.01 of `"linear"` at d <= 256 and up to
#'   0.07 above it at d = 2,048 (half the fit rows).
#'
#' *A limit no classifier passes.* With \eqn{n_f} fit rows per set, the
#' estimated direction of a mean shift \eqn{\delta} (Mahalanobis length
#' \eqn{\Delta}) is off by \eqn{\cos^2 = \Delta^2 / (\Delta^2 + 2d /
#' n_f)}, even with the covariance known, and given the data no classifier
#' does better than that direction. At 5,000 points per set (split 0.5,
#' \eqn{n_f} = 2,500) and \eqn{\Delta = 1} (true AUC 0.679), its curve has
#' AUC 0.722 / 0.800 / 0.854 at d = 256 / 1,024 / 2,048: the true curve
#' of every classifier fitted on these rows is then at least 0.04 / 0.12 /
#' 0.17 above the truth (0.012 / 0.042 / 0.075 with 20,000 points per
#' set). An estimated curve reads its classifier on finite evaluation rows
#' with an optimistic minimum over thresholds (below), so it can lie
#' somewhat lower: at 5,000 points per set and d = 2,048, with one fit on
#' the fit rows (`folds = 1`), `"tightest"` read the isotropic shifts of 1
#' 0.13 and 0.15 above the truth, the anisotropic one (covariance
#' estimated too) 0.21 above. **More fit rows** move this limit, and the
#' default takes them: with `folds = 10` the fitted families fit on 4,750
#' rows per set instead of 2,500. In the validity suite's shipped run at
#' 5,000 points per set (the same draws) `"tightest"` is within 0.094 /
#' 0.138 of the true AUC in every scenario at d = 1,024 / 2,048 (0.144 /
#' 0.229 with one fit), with a mean absolute error of 0.034 / 0.045
#' (0.052 / 0.071), and within 0.026 at d = 256 (0.045); at 1,000 points
#' per set and d = 256 within 0.061 (0.132). At d <= 64, where the fit
#' does not limit the curve, it is slightly looser (mean error 0.012
#' against 0.011 at d = 64): the ten fits' scores are pooled into one
#' curve. The ten fits took about three times as long as one at 10,000
#' points per set and d = 2,048 (see `families`). The validity
#' suite at 20,000 points per set (10 folds, 19,000 fit rows per set):
#' `"tightest"` within 0.018 / 0.033 / 0.044 of the true AUC in every
#' scenario at d <= 256 / 1,024 / 2,048 (mean error 0.005 to 0.006 /
#' 0.011 / 0.020), and every pair of models ranked as the truth.
#'
#' Two estimator effects remain. The envelope's minimum over thresholds is
#' taken on the evaluation rows themselves, so with continuous scores it
#' is optimistic: even the exact likelihood ratio, scored on 1,000 / 2,500 /
#' 10,000 evaluation rows per set of N(0, I) against N(0, 1.2^2 I) at
#' d = 16, gives AUC 0.646 / 0.657 / 0.667 against 0.669; this is why the
#' fitted families and `"tightest"` can fall slightly below the truth at
#' small d (in the validity suite, 1,000 points per set: down to 0.060
#' below it at d = 16, 0.045 at d = 64). Choosing each threshold on one
#' half of the rows and reading it on the other removes that (never more
#' than 0.011 below) but costs more accuracy than it gains (mean absolute
#' AUC error 0.014 to 0.026 at d = 256, 0.052 to 0.065 at d = 1,024 with
#' 5,000 points per set), so the package keeps the papers' in-sample
#' thresholds (bench/results.md). And every curve here is an estimate for
#' this sample size: its intervals cover the estimator's mean, not the
#' true curve.
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
#'   frame grouped by a model column (`dplyr::group_by(df, model)`).
#' @param method One or more of `"tightest"` (default), `"knn"`, `"kde"`,
#'   `"ipr"`, `"coverage"`, `"linear"`, `"quadratic"`, `"stacked"`,
#'   `"marginal"`. The four neighbour
#'   families (the default of earlier versions) remain exact to the
#'   authors' code: ask for them by name,
#'   `method = c("knn", "kde", "ipr", "coverage")`.
#' @param k Number of neighbours: one or more whole numbers, each with
#'   1 <= k <= (smallest fit set size) - 1, all served by one pass. Default
#'   `round(sqrt(min(fit sizes)))`, which satisfies k -> Inf, k / n -> 0
#'   (Sykes et al., Theorem 5).
#' @param split Fraction in \[0, 1) of each set held out for evaluation,
#'   the rest being the fit part; drawn with R's RNG, so [set.seed()]
#'   reproduces it. Default 0.5: a classifier is judged on points it was
#'   not fitted on (Sykes et al. 2024, section 4.2), the setting of every
#'   curve estimator here. `0` is the literature's no-split setting (fit =
#'   evaluation = the whole set). Or explicit evaluation rows
#'   `list(real = <int>, generated = <int>)` for reproducible cross-fitting.
#'   Every random assignment of a call (this split, the folds, the halves
#'   of `"tightest"` and of `replicates`, the inner folds of `"stacked"`) is
#'   drawn over each set's rows in lexicographic order of their values, so
#'   under one seed a permutation of the rows of either set gives the
#'   identical curve, for every method (an increasing map of a column does
#'   not change that order either). Sets whose largest magnitude lies
#'   outside \[2^-64, 2^64) are first multiplied by one power of two,
#'   common to all sets (exact: no curve changes; a `bandwidth` is scaled
#'   with them and reported in the data's units), so that every value the
#'   input check accepts (magnitudes up to 1e100) gives a curve.
#' @param closed `TRUE` (default): balls are closed, \eqn{\|u - z\| \le r};
#'   `FALSE`: open, \eqn{<} (the convention of the `prdc` Python package).
#' @param angles Number of \eqn{\lambda} values: \eqn{\lambda_i = \tan
#'   \theta_i}, \eqn{\theta_i} equally spaced in
#'   \[1e-10, \eqn{\pi}/2 - 1e-10\] (Sajjadi et al. 2018). Default 1001.
#' @param bandwidth For `"kde"`: `NULL` (estimated, see above), one
#'   positive distance for both sets, or two (real, generated). Same units
#'   as the features.
#' @param replicates Number of half-sample replicates for intervals
#'   (default 0: none; see the section Intervals). 50 to 200 are typical.
#' @param features Columns of data-frame inputs to use as features, a
#'   tidyselect selection (default: every numeric and categorical column).
#'   Categorical columns (factors, ordered factors, logicals, characters)
#'   enter as indicator columns of their categories, 1/2 in the row's
#'   category and 0 elsewhere (a change of category is a distance of
#'   \eqn{2^{-1/2}}), with the categories of every set, sorted, whatever
#'   their level order (kept as they are by `standardize`); a category of
#'   one set only is warned about (`prdcurve_warning_category_levels`). An
#'   exclusion alone (`-label`, `c(-label, -kind)`) removes columns from
#'   that default. Grouping columns, the `id` column, a categorical
#'   `model` column and identifier-like text (more distinct values than
#'   half the rows) are never features.
#' @param id A column of data-frame inputs that identifies samples; it is
#'   not a feature (per-sample functions carry it to their output).
#' @param standardize `"none"` (default) or `"real"`: centre and scale
#'   every column by the mean and standard deviation of the real set's
#'   rows, every set the same way; in `prd_curve()` with a split, of the
#'   real fit rows only (the metrics functions take every real row, see
#'   below). Euclidean distances are not scale-free: use it
#'   when columns have different units. Only the fit rows set the curve's
#'   scale so that the evaluation rows of the two sets stay comparable:
#'   with the scale from every real row, the rows that set it are not
#'   distributed as the generated ones, and a strong classifier sees that
#'   where the data are nearly degenerate (two samples of one uniform law
#'   on a sphere surface in d = 128, 1,000 points per set, read
#'   `"stacked"` AUC 0.947 on average over 20 draws with the scale from
#'   every real row, 0.986 with the scale from the fit rows and 0.987
#'   unscaled; `bench/results.md`, "Standardize"). The half-samples of
#'   `replicates` are scaled the same way, each by its own real fit rows,
#'   so that they replicate the estimate (with the full sample's scale,
#'   the pair variance of `"stacked"` AUC in that case was 2.8 times the
#'   one with each half's own scale). The metrics functions
#'   ([manifold_metrics()], [entropy_metrics()] and their per-sample
#'   forms) take every real row, also with a split: their balls are built
#'   on the real fit rows, and a scale from those rows alone moves the
#'   balls away from fresh points (the same sphere surface, split 0.5:
#'   `density` 0.975 with every real row's scale, 0.953 with the fit
#'   rows', 0.993 unscaled). On discrete data (whole numbers, counts,
#'   codes) many distances tie exactly, and the neighbour families' radii
#'   sit on the ties. A column whose values (in each set that is discrete
#'   there) are whole numbers, or multiples of one power of two, within
#'   2^22 steps is therefore scaled on a grid: its scale rounded to at
#'   least 30 significant bits (it moves by at most 1e-9 of itself) and
#'   its centre to a step of the results, so that every scaled value is
#'   exact and equal differences stay equal. The ties are then those of
#'   the exact distances, whatever the data's offset and unit. (Before
#'   0.5.8 each value was rounded on its own and the ties were decided by
#'   that rounding: on five columns of small whole numbers, `density`
#'   read 0.995 against the exact 1.026, and 1.003 once the data were
#'   doubled and shifted; in the sanity checks' discrete data, `"ipr"`'s
#'   `max_precision` read 1.000 or 0.158 depending on the last bit of one
#'   standard deviation.) Continuous columns are scaled as before.
#' @param families For `"tightest"`: the families it combines (default
#'   `"linear"`, `"quadratic"`, `"stacked"`, `"marginal"`, `"knn"`,
#'   `"kde"`, `"ipr"`, `"coverage"`). Each costs its own time: at 10,000 rows per set and
#'   d = 2,048 on 2 cores the default took 13.6 s in a run where
#'   `"knn"` alone took 2.9 s and `"marginal"` 1.4 s; without `"marginal"`
#'   it took 9.8 s and 1.5 GiB at its peak
#'   (6.7 s with `folds = 1`) in an earlier run, `"knn"` alone 2.4 s, `"linear"` 1.8 s (0.8
#'   s with `folds = 1`), `"quadratic"` 5.8 s (2.2 s) and `"stacked"` 2.4
#'   s (1.3 s) (the four neighbour families share one engine call;
#'   `bench/classifiers.R`, `bench/results.md`, "Time of each curve
#'   family"). In double precision a fit on every row costs at least the
#'   covariance of all rows (0.9 s there); `"quadratic"` also scores every
#'   evaluation row under each set's covariance (0.8 s or more) and, in
#'   10 folds, factors two covariances per fold (1.2 s), so it cannot come
#'   down to the knn family's time.
#' @param folds `NULL` (default) or a whole number K in 1 to 100: the
#'   fitted families (`"linear"`, `"quadratic"`, `"stacked"`,
#'   `"marginal"`, and in `"tightest"`) cross-fit in K folds of the evaluation rows, each fitted
#'   on the fit rows and the other folds' evaluation rows (see the section
#'   "Fitted families and the combined curve"). `NULL` is K = 10, or fewer
#'   where a fold would hold fewer than 2 evaluation rows per set (also in
#'   the replicates' half-samples), and 1 when not even 2 folds fit with a
#'   split. With split 0.5 and K = 10 they fit on 95% of the rows instead
#'   of half, which brings the curve closer to the truth where the fit is
#'   what limits it, in high dimension (section "Where each family is
#'   loose": at d = 2,048 and 5,000 points per set the suite's worst error
#'   of `"tightest"` is 0.138, 0.229 with one fit). `folds = 1` fits once
#'   on the fit rows (faster: at 10,000 points per set and d = 2,048 the
#'   default `"tightest"` takes less than half the time; not with
#'   `split = 0`, which leaves no fit rows: `prdcurve_error_split`). A
#'   given K needs 2 evaluation rows per set in each fold (also in the
#'   half-samples), else `prdcurve_error_split`; `folds` is ignored, with
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
#'   `"generated"` for a single set), `method`, `k`, `lambda` (0, the grid,
#'   then Inf), `precision` (\eqn{\hat\alpha_\lambda}) and `recall`
#'   (\eqn{\hat\beta_\lambda}), both in \[0, 1\]. The row \eqn{\lambda = 0}
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
#'   `unused_argument`, `family_disagreement` (two families' curves far
#'   apart, see above), `grid_columns` (columns on a grid in one set only,
#'   with the reading of `atoms = "ignore"` when the exact reading ties
#'   models at 0); silence the input checks with
#'   `options(prdcurve.check_inputs = FALSE)`.
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
#'   Wolter, K. M. (2007). Introduction to Variance Estimation, 2nd ed.,
#'   chapter 2 (the method of random groups). Springer.
#'   \doi{10.1007/978-0-387-35099-8}.
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
                      atoms = c("exact", "ignore")) {
  atoms <- check_choice(atoms, c("exact", "ignore"))
  sets <- prepare_samples(real, generated, rlang::enquo(features),
                          rlang::enquo(id), standardize,
                          defer_grid = TRUE)
  # rows in canonical order (a permutation of the rows gives the same
  # curve under the same seed) on a safe common scale (R/canonical.R)
  sets <- canonical_sets(sets)
  split <- canonical_split(split, sets)
  method <- check_methods(method, curve_methods())
  closed <- check_flag(closed)
  angles <- check_angles(angles)
  replicates <- check_replicates(replicates)
  default_families <- is.null(families)
  if (default_families) {
    families <- tightest_families(sets$real)
  } else {
    families <- check_methods(families, setdiff(curve_methods(), "tightest"),
                              arg = "families")
    if (!"tightest" %in% method) {
      prd_warn("{.arg families} is used by the {.val tightest} method only; it is ignored here.",
               "unused_argument")
    }
  }
  used <- union(setdiff(method, "tightest"),
                if ("tightest" %in% method) families)
  # the grid warning now, unless the curves may tie models at 0 (R/atoms.R)
  grid_later <- grid_warning_early(sets$grid_lines, atoms, used)
  if (!is.null(folds)) {
    folds <- check_count(folds, min = 1, max = 100)
    if (!length(intersect(used, fitted_methods()))) {
      prd_warn("{.arg folds} is used by the fitted families ({.val {fitted_methods()}}) only; it is ignored here.",
               "unused_argument")
      folds <- NULL
    }
  }
  if (!is.null(bandwidth)) {
    bandwidth <- check_positive(bandwidth, max = 1e150) * sets$scale
    if (!"kde" %in% used) {
      prd_warn("{.arg bandwidth} is used by the {.val kde} method only; it is ignored here.",
               "unused_argument")
      bandwidth <- NULL
    }
  }
  est <- function(real, gens) {
    sp <- resolve_model_splits(split, real, gens)
    limit <- min(vapply(sp, function(s) {
      z <- split_sizes(s)
      min(z[["fit_real"]], z[["fit_generated"]])
    }, numeric(1))) - 1L
    list(splits = sp, limit = limit)
  }
  first <- est(sets$real, sets$generated)
  # the scale from the real fit rows only (all rows without a split)
  sets <- standardize_split(sets, first$splits)
  if (default_families) {
    # a family's fewest fit rows per set (stacked: 4, two folds of 2), also
    # in the cross-fitted folds (split = 0) and the half-samples
    # (replicates); on smaller sets the default "tightest" goes without it
    rows <- first$limit + 1
    if (is.null(first$splits[[1]]$eval)) rows <- floor(rows / 2)
    if (replicates > 0L) rows <- floor(rows / 2)
    need <- vapply(families, function(f) family_entry(f)$min_fit_rows, 1L)
    families <- families[need <= rows]
  }
  if (length(intersect(used, fitted_methods()))) {
    folds <- resolve_folds(folds, first$splits, replicates)
  }
  if (is.null(k)) {
    k <- max(1L, min(first$limit, round(sqrt(first$limit + 1))))
  }
  k <- check_k(k, first$limit, what = "the fit sets")
  check_sample_traps(sets, k, split, angles, length(method) * length(k), replicates)
  lambda <- lambda_grid(angles)
  settings <- list(method = method, k = k, closed = closed,
                   bandwidth = bandwidth, lambda = lambda, angles = angles,
                   families = families, folds = folds, scale = sets$scale)
  run <- function() {
    out <- curve_estimates(sets$real, sets$generated, first$splits, settings)
    if (replicates > 0L) {
      reps <- run_replicates(sets$real, sets$generated, replicates,
                             function(real, gens) {
                               s <- est(real, gens)
                               h <- standardize_half(real, gens, sets$standardize,
                                                     scale_rows(s$splits),
                                                     grid = sets$grid)
                               curve_estimates(h$real, h$gens, s$splits, settings,
                                               check_limit = s$limit)
                             })
      out <- attach_curve_replicates(out, reps)
    }
    out
  }
  # the atoms read as given or as continuous values (R/atoms.R); an exact
  # reading that ties models at 0 read again with them ignored
  out <- with_atoms(atoms, run())
  out <- curve_atoms_reading(out, atoms, sets$grid_lines, run, grid_later)
  if (!check_family_agreement(out, ncol(sets$real))) {
    check_neighbour_family(out, sets$real, sets$generated, first$splits)
  }
  out
}


#' One split per model, sharing the real set's partition (paired models)
#' and one partition per distinct generated size (identical generated sets
#' get identical estimates).
#' @noRd
resolve_model_splits <- function(split, real, gens, call = rlang::caller_env()) {
  if (is.list(split) || (is.numeric(split) && isTRUE(split == 0))) {
    # (rows given per model: canonical_split())
    by_model <- inherits(split, "prdcurve_model_rows")
    out <- lapply(names(gens), function(nm) {
      g <- gens[[nm]]
      if (by_model) split <- split[[nm]]
      if (is.list(split)) {
        # in a half-sample of the replicates, the user's rows that fall in it
        split <- split_rows_in_half(split, real, g, call = call)
      }
      resolve_split(split, nrow(real), nrow(g), call = call)
    })
    names(out) <- names(gens)
    return(out)
  }
  # validate the fraction once, then draw the real partition once and one
  # partition per distinct generated size, in order of first appearance
  check_split_fraction(split, call)
  px <- split_part(split, nrow(real), "real", call)
  sizes <- unique(vapply(gens, nrow, integer(1)))
  parts <- lapply(sizes, function(m) split_part(split, m, "generated", call))
  out <- lapply(names(gens), function(nm) {
    py <- parts[[match(nrow(gens[[nm]]), sizes)]]
    new_split(list(px$fit, py$fit), list(px$eval, py$eval), split)
  })
  names(out) <- names(gens)
  out
}

#' Fewest evaluation rows per half and set below which "tightest" uses one
#' family and warns: on a few rows the lowest of the families lies well
#' below the truth (P = Q, true AUC 1: 0.848-0.908 at 10 rows a half,
#' 0.883-0.917 at 25, 0.914-0.936 at 50, 0.964 at 100, 0.989-0.993 at 250;
#' d = 8 and 64, means of 3 draws)
#' @noRd
tightest_min_half <- 50L

#' The warning of "tightest" on halves of fewer than tightest_min_half rows
#' @noRd
warn_tightest_halves <- function(rows) {
  if (rows >= tightest_min_half) return(invisible())
  prd_warn(c(
    "{.val tightest} reads its families on halves of the evaluation rows: here {rows} row{?s} of a set in a half.",
    "x" = "On so few rows it takes one family's curve (the one with the least penalised area), and the result is unreliable: it lies below the true one on average (two samples of one distribution, true AUC 1, read 0.85 to 0.91 with 10 rows a half and 0.88 to 0.92 with 25), and a family decided by a few points can lift it above.",
    "i" = "Use hundreds of rows per set, or one family (e.g. {.code method = \"knn\"})."
  ), "small_sample")
}

#' The curves of every model, method and k (the engine work of prd_curve)
#' @noRd
curve_estimates <- function(real, gens, splits, settings, check_limit = NULL,
                            call = rlang::caller_env()) {
  k <- settings$k
  method <- settings$method
  tight <- "tightest" %in% method
  families <- if (tight) settings$families else character()
  used <- union(setdiff(method, "tightest"), families)
  need_nb <- intersect(neighbour_methods(), used)
  need_fit <- intersect(fitted_methods(), used)
  if (!is.null(check_limit) && length(need_nb)) {
    check_k(k, check_limit, what = "the half-samples of the replicates",
            call = call)
  }
  # halves of the evaluation rows for "tightest": the real set's shared by
  # every model (paired comparisons), one per distinct generated size
  halves <- list()
  if (tight) {
    sz <- lapply(splits, split_sizes)
    ner <- sz[[1]][["eval_real"]]
    halves$real <- random_halves(ner)
    neg <- unique(vapply(sz, function(z) z[["eval_generated"]], numeric(1)))
    if (min(ner, neg) < 2) {
      prd_abort(c(
        "{.val tightest} needs at least 2 evaluation rows per set (one per half).",
        "x" = "A set has {min(ner, neg)} evaluation row{?s}.",
        "i" = "Use more rows or a larger {.arg split}."
      ), "split", call = call)
    }
    halves$gen <- lapply(neg, random_halves)
    names(halves$gen) <- neg
    if (!isTRUE(getOption("prdcurve.in_replicates"))) {
      warn_tightest_halves(min(ner, neg) %/% 2)
    }
  }
  pieces <- list()
  shared <- engine_shared()
  for (m in names(gens)) {
    s <- splits[[m]]
    sizes <- split_sizes(s)
    nb <- if (length(need_nb)) {
      curve_evidence(real, gens[[m]], s, k, need_nb, settings$bandwidth,
                     settings$closed, shared)
    }
    fs <- fitted_scores(real, gens[[m]], s, need_fit, folds = settings$folds,
                        call = call)
    hub <- if ("knn" %in% method && !is.null(nb$hub)) hub_skewness(nb$hub)
    ne <- sizes[["eval_real"]]
    ix <- seq_len(ne)
    nb_env <- function(meth, j) {
      a <- nb$counts[[meth]]$a[, j]
      b <- nb$counts[[meth]]$b[, j]
      ar <- a[ix]
      br <- b[ix]
      ag <- a[-ix]
      bg <- b[-ix]
      function(ir = seq_along(ar), ig = seq_along(ag)) {
        curve_from_evidence(ar[ir], br[ir], ag[ig], bg[ig], settings$lambda,
                            sizes[["fit_real"]], sizes[["fit_generated"]])
      }
    }
    fit_env <- function(meth) {
      sc <- fs$scores[[meth]]
      function(ir = seq_along(sc$real), ig = seq_along(sc$gen)) {
        curve_from_scores(sc$real[ir], sc$gen[ig], settings$lambda)
      }
    }
    fit_info <- function(meth, extra = list()) {
      fsz <- sizes
      K <- settings$folds
      cross <- !is.null(K) && K >= 2L &&
        meth %in% c(fitted_methods(), "tightest") && length(need_fit)
      if (cross) {
        # K folds of the evaluation rows, each fitted on the fit rows (none
        # without a split) and the other folds: the rows of the smallest fit
        for (w in c("real", "generated")) {
          ne <- sizes[[paste0("eval_", w)]]
          base <- if (is.null(s$eval)) 0 else sizes[[paste0("fit_", w)]]
          fsz[[paste0("fit_", w)]] <- base + ne - ceiling(ne / K)
        }
      }
      curve_info(source = "prd_curve", split = s$split, sizes = fsz,
                 closed = settings$closed, angles = settings$angles,
                 details = c(list(cross_fit = cross),
                             if (cross) list(folds = K), extra))
    }
    add <- function(env, meth, kk, info) {
      pieces[[length(pieces) + 1L]] <<- new_prd_curve(
        settings$lambda, env$precision, env$recall, env$max_precision,
        env$max_recall, method = meth, model = m, k = kk, info = info)
    }
    for (meth in method) {
      if (meth %in% neighbour_methods()) {
        for (j in seq_along(k)) {
          env <- nb_env(meth, j)()
          # (in the units of the data as given)
          bw <- if (meth == "kde") nb$bandwidth[[j]] / settings$scale else NULL
          det <- if (meth == "knn") list(hubness = hub[[j]]) else list()
          add(env, meth, k[j],
              curve_info(source = "prd_curve", split = s$split,
                         sizes = sizes, closed = settings$closed,
                         bandwidth = bw, angles = settings$angles,
                         details = det))
        }
      } else if (meth %in% fitted_methods()) {
        add(fit_env(meth)(), meth, NA_integer_,
            fit_info(meth, fs$details[[meth]]))
      } else if (meth == "tightest") {
        ks <- if (length(intersect(families, neighbour_methods()))) k else NA_integer_
        hg <- halves$gen[[as.character(sizes[["eval_generated"]])]]
        for (j in seq_along(ks)) {
          envs <- list()
          for (f in families) {
            envs[[f]] <- if (f %in% neighbour_methods()) nb_env(f, j) else
              fit_env(f)
          }
          env <- tightest_envelope(envs, halves$real, hg, settings$lambda)
          fam_auc <- vapply(envs, function(f) {
            e <- f()
            envelope_auc(settings$lambda, e)
          }, numeric(1))
          add(env, meth, ks[j],
              fit_info(meth, list(families = families, chosen = env$chosen,
                                  choice = env$choice, bands = env$bands,
                                  half_gap = env$half_gap,
                                  family_auc = fam_auc)))
        }
      }
    }
  }
  bind_curves(pieces)
}

#' Evidences a, b of every evaluation point, for each method, one column
#' per k (real evaluation rows first); kde bandwidths per k.
#' @noRd
curve_evidence <- function(real, generated, s, k, method, bandwidth, closed,
                           shared = NULL) {
  counts <- list()
  # one sweep for every method and k (k is sorted and unique: check_k());
  # kde with the bandwidths of every k (or the fixed ones) in that sweep;
  # knn also counts the k-occurrences of the fit rows (hubness diagnostic)
  est <- vapply(method, function(f) family_entry(f)$estimator, "")
  kde <- "kde" %in% est
  nb <- engine_neighbours(real, generated, s, k,
                          c(est, if ("knn" %in% est) "hub"),
                          closed = closed, bandwidth = if (kde) bandwidth,
                          bandwidth_k = if (kde) k, shared = shared)
  for (m in method) {
    e <- est[[m]]
    counts[[m]] <- list(a = nb[[paste0(e, "_a")]], b = nb[[paste0(e, "_b")]])
  }
  bw <- list()
  if (kde) {
    bw <- matrix(nb$kde_radius, nrow = 2L)
    bw <- lapply(seq_along(k), function(j) {
      c(real = bw[1, min(j, ncol(bw))], generated = bw[2, min(j, ncol(bw))])
    })
  }
  list(counts = counts, bandwidth = bw, hub = nb$hub)
}

#' The lambda grid of Sajjadi et al. (2018): tan of equally spaced angles
#' in [eps, pi/2 - eps], eps = 1e-10.
#' @noRd
lambda_grid <- function(angles) {
  eps <- 1e-10
  tan(seq(eps, pi / 2 - eps, length.out = angles))
}

#' Score s = (b / n_yf) / (a / n_xf), computed as (b n_xf) / (a n_yf), with
#' b / 0 = Inf (b > 0) and 0 / 0 = 1 (SPEC.md section 2). The integer
#' products are exact, so equal ratios give equal scores.
#' @noRd
evidence_score <- function(a, b, n_xf = 1, n_yf = 1) {
  s <- (b * n_xf) / (a * n_yf)
  s[a == 0 & b == 0] <- 1
  s
}

#' Lower envelope from the evidences of the evaluation points: threshold
#' rules on the score plus the extremes 1[a >= 1] and 1[b = 0].
#' @noRd
curve_from_evidence <- function(a_real, b_real, a_gen, b_gen, lambda,
                                n_xf = 1, n_yf = 1) {
  extremes <- rbind(
    c(mean(a_real == 0), mean(a_gen >= 1)),  # 1[a >= 1]
    c(mean(b_real > 0), mean(b_gen == 0))    # 1[b = 0]
  )
  curve_from_scores(evidence_score(a_real, b_real, n_xf, n_yf),
                    evidence_score(a_gen, b_gen, n_xf, n_yf), lambda,
                    extra = extremes)
}

#' The envelope of scores (low = "real") through the shared C code:
#' precision and recall on the grid and the two extremes.
#' @noRd
curve_from_scores <- function(s_real, s_gen, lambda,
                              extra = matrix(numeric(), ncol = 2)) {
  env <- engine_envelope(s_real, s_gen, extra, lambda)
  alpha <- pmin(env$alpha, 1)
  list(precision = alpha, recall = pmin(alpha / lambda, 1),
       max_precision = env$alpha_inf, max_recall = env$beta_0)
}
