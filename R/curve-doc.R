# Sections of ?prd_curve on the fitted families, the combined curve and
# where each family is loose (the rest of its help: R/curve.R).

#' @name prd_curve
#' @rdname prd_curve
#' @param repeats Number of random splits into fit and evaluation rows
#'   whose curves are averaged: each split's curves are estimated as on
#'   one, then at each \eqn{\lambda} the precision and the recall are the
#'   means over the splits (repeated cross-fitting: Chernozhukov et al.
#'   2018, section 3.4, \doi{10.1111/ectj.12097}). `NULL` (default): 5 when
#'   `split` is a fraction above 0 and every set has fewer than 1,000 rows,
#'   else 1. The mean has one split's expectation and less noise: on the
#'   digits class-subset experiment (90 to 800 rows a set, 30 seeds;
#'   `bench/tightest-choice.R`) most of an AUC's spread across seeds was
#'   the split's, and 5 splits halved it (the default's 0.024 to 0.013,
#'   knn's 0.021 to 0.011; mean IoU with the true rectangle 0.929 to 0.933
#'   and 0.933 to 0.943). It costs `repeats` times one split's time, in
#'   every half-sample of `replicates` too, whose intervals stay calibrated:
#'   at 500 rows a set (d = 16, a mean shift, 10 replicates, 200 draws;
#'   `bench/coverage.R --rows 500`) the 90% interval of the AUC held the
#'   estimator's mean in 88.5% of draws for knn, 90.5% for `"coverage"`
#'   and 91% for `"tightest"` (100 draws; one split: 89.5%, 90.0% and
#'   95%), 0.13, 0.14 and 0.16 wide (one split: 0.17, 0.19 and 0.20).
#'   Below 1,000 rows in high dimension the default is slow: each of its
#'   fitted families forms a d x d covariance a fold, or with far more
#'   columns than fit rows fits every fold on its own (on the rows'
#'   span where the sets hold fewer rows than columns, see "Fitted
#'   families"), so with 5 splits at 900 x 2,048 it took 14.7 s (knn
#'   0.17 s), at 600 x 2,048 8.0 s and at 300 x 2,048 3.5 s (knn 0.07 s;
#'   bench/results.md), up to 1.5 times its time at 10,000 x 2,048
#'   (10-12 s). Interactive sessions show a bar over the splits. More
#'   than 1 needs a split drawn at random (`prdcurve_error_split` with
#'   `split = 0` or given rows).
#'   `details$repeats` of [prd_curve_info()] gives the number, and the
#'   printed curve's header says "5 splits averaged". The other details
#'   cover every split: the choice tables of `"tightest"` hold each
#'   split's rows (column `split`), its `choice` is `"mixed"` when some
#'   splits read the ceiling and others do not (`choices` gives each
#'   split's), and each number that differs between splits (the families'
#'   AUCs, knn's hubness, the kde bandwidths) is their mean.
#' @section Several models:
#' Each model's random draws (its partition, its halves, its fitted
#' families' folds and fits) start from the same state of R's stream, which
#' the call leaves as the first model's draws leave it. So a model's curves
#' and intervals do not depend on the other models of its size or on their
#' order: with the same `k` (by default it follows the smallest set), they
#' equal those of a call with that model alone. A model of another size
#' than the first reads as in a call after a model of the first's size.
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
#'   two random halves (R's RNG); the linear discriminant and the
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
#'   (`prdcurve_warning_grid_columns`), which may also be coarse storage
#'   (8-bit intensities against a model's floats; not float16 against
#'   float32, whose values span too many steps of their finest grid). On real integer-valued data against
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
#' * `"mixture"` (in the default on clustered data, below): \eqn{s(z) = \log \hat q(z) - \log
#'   \hat p(z)} with Gaussian mixtures fitted by EM (mixture discriminant
#'   analysis, Hastie and Tibshirani 1996, J. R. Statist. Soc. B 58,
#'   155-176): components spherical or low rank plus a diagonal
#'   (probabilistic PCA's, Tipping and Bishop 1999, Neural Computation 11,
#'   443-482: four directions each, in the columns scaled by their pooled
#'   standard deviations), whose centres and directions both sets share,
#'   each set its own weights and spreads; the form and 1 to 16 components
#'   chosen on two inner folds of the fit rows by the held-out logistic
#'   loss of the ratio (one spherical component a set where no candidate
#'   beats a constant score by 2 standard errors, as with Q = P: 2.5 s
#'   instead of 5.4 on 16 classes on the unit sphere, d = 256, 3,000 rows
#'   a set); the mean of 3 refits from k-means++ seeds. In folds
#'   each fold's mixtures are one EM step from the fit rows' on its own
#'   rows. For clustered data (embeddings whose classes a model drops,
#'   reweights or widens), where the other families read high. **In the
#'   default** when every set has at least 1,000 rows, the real set at most
#'   1,024 columns (above 5,000 rows a set its EM, the choice and the refits,
#'   runs on a random sample of 2^21 values of each set's fit rows, at
#'   least 2,500 rows: 4,096 at d = 512; the folds' EM step and the scores
#'   take every row; at 10,000 points per set and d = 512, 16 widened
#'   classes read 0.123 above a true 0.154 against 0.268 without the
#'   family, and widened rank-4 classes 0.223 above 0.027 against 0.402,
#'   one draw each, and the default took 13.9 s against 4.2 s without it,
#'   knn 1.5 s; at 20,000 points per set and d = 256, 0.049 and 0.067
#'   above the truth against 0.265 and 0.362) and its rows are clustered (on smaller sets the choice among its
#'   components and among six families is noisy: on the digits, 90 to 800
#'   rows a set, IoU 0.932 with it against 0.936 without):
#'   in the real rows (above d = 256, their projection on 256 random
#'   directions) whitened by their covariance (shrunk 10% toward its
#'   mean variance, so that a Gaussian of any covariance is one cluster),
#'   eight spherical components fit held-out rows better than one Gaussian,
#'   or 16 spherical components fit the leading 16 principal components
#'   (each scaled to unit variance) better than one Gaussian does (two
#'   halves of at most 4,000 rows, drawn under a fixed seed: the
#'   caller's random draws are not touched). On the validity suite's 16
#'   classes (5,000 rows) the held-out gain is 0.1 nats per row at d = 64
#'   and 0.7-0.9 at d = 256 to 2,048; on its Gaussian, Gaussian-mixture
#'   and anisotropic real sets -0.01 to -1.8, so their curves are as
#'   before; Student t coordinates and the curved manifold read as
#'   clustered too (the family then costs time: their scenarios stay
#'   within the target). With it, the default meets the suite's target on
#'   the clustered kinds at 5,000 points per set but one (means of three
#'   draws): widened classes read 0.084 above a true 0.227 at d = 256 and
#'   0.148 above 0.153 at d = 512 (the labelled fit of the true form, 0.085
#'   and 0.132); with rank-4 covariances widened, 0.172 above 0.094 at d =
#'   256 (labelled fit 0.242) and 0.256 above 0.027 at d = 512 (labelled
#'   fit 0.201: not met, by 0.005); the printed curve's header ("clustered real
#'   rows: mixture joined") and the command line's report say when it
#'   joined (`details$clusters_gain`, the test's held-out gain, above 0).
#'   It is the default's largest cost there: on those
#'   16 classes at 5,000 points per set and d = 256 the default took 4.2 s
#'   against 0.74 s without it (knn 0.14 s; `bench/large.R 5000 256
#'   tightest --clustered`, 0.6.2). It helps less as d grows: at
#'   d = 1,024 and 5,000 points per set the widened classes read 0.228
#'   above a true 0.104 (0.278 without it; labelled fit 0.175) and the
#'   widened rank-4 ones 0.272 above 0.013 (0.352; labelled fit 0.214),
#'   the other kinds within 0.02 of their readings without it (before its
#'   refits took up to twice the components chosen). Above 1,024
#'   columns add it to `families` by hand: alone it costs 3.0 s at 5,000
#'   points per set and d = 256 (knn 0.11 s), 47 s at 10,000 and d = 2,048
#'   (knn 3.1 s; 0.6.2); on those widened classes at d = 2,048 the default read
#'   0.29 above the truth (0.28 with it; the labelled fit of the true form
#'   0.23), and the heavy-tailed and manifold kinds, which read as
#'   clustered too, were within 0.01 of the truth without it. On ten
#'   overlapping isotropic classes at d = 64 and 256, 2,000 and 5,000
#'   points per set, its mean |AUC error| was
#'   0.016 to 0.049 against 0.071 to 0.120 for the other default
#'   families combined (bench/results.md). With `replicates`, each
#'   half-sample repeats the family's choice (the components and form
#'   chosen vary between halves, and the intervals carry that noise) and
#'   its fits: 10 replicates of two models at 6,000 points per set and d
#'   = 128 took 40 s against 5.6 s without. On 16 classes at d = 256,
#'   2,000 points per set, three dropped, the default's 90% interval of
#'   the area held its mean in 88% of 50 draws (`bench/coverage.R --parts
#'   e`). Classes on the unit sphere (as L2-normalised embeddings hold)
#'   span few of its directions, and the whitened rows hide them: the
#'   principal components' view sees them up to d = 256. On 16 von
#'   Mises-Fisher classes (`bench/sphere.R`; three dropped or four
#'   reweighted) at d = 128 and 256, 2,000 and 5,000 points per set, where
#'   only that view reads them as clustered, the default's mean |AUC
#'   error| is 0.012 against 0.053 without the mixture (at most 0.030
#'   above the truth against 0.104; 1.2-5.0 s against 0.4-2.4 s). At d =
#'   512 neither view sees them (the classes' centres are within the
#'   noise's spread of sample eigenvalues) and the default reads 0.049 and
#'   0.091 above the truth; with `"mixture"` added to `families` by hand,
#'   0.028 and 0.091.
#' * `"mixture16"` (in the default beside `"mixture"` up to d = 512):
#'   the same family with its choice fixed at 16 low-rank components, no
#'   step-up. The mixture's choice, on half the fit rows, can take one or
#'   two components where the candidates' held-out losses differ by less
#'   than their noise, too few to separate classes a model drops; the
#'   default takes this curve only where it is the tighter. On the suite's
#'   clustered kinds (16 classes, spherical or rank 4, dropped, reweighted
#'   or widened; 5,000 points per set, 3 draws) the default's mean |AUC
#'   error| at d = 64 / 256 / 512 went from 0.028 / 0.062 / 0.088 to 0.019
#'   / 0.056 / 0.081 (dropped rank-4 classes 0.066 / 0.065 / 0.065 to 0.028
#'   / 0.050 / 0.053), and 51 of their 51 pairs whose true AUCs differ by
#'   0.05 or more rank right (48 without it), at 1.4-2.1 times the
#'   default's time on them.
#' * `"spectral"` (in the default at d <= 512): \eqn{s(z) = \sum_j \log
#'   N(v_j' z; v_j' \hat\mu_Y, l_j) - \log N(v_j' z; v_j' \hat\mu_X, 1)}
#'   over the generalised eigenvectors \eqn{S_Y v = l S_X v} of the fit
#'   rows' covariances (Fukunaga 1990, chapter 10) whose eigenvalues
#'   leave, by a factor 1.1, the bulk that two Gaussian samples of one law
#'   give (Wachter 1980, doi:10.1214/aos/1176345134; edges closed form in
#'   d / n), at most 32. A change of spread along a few directions (a model
#'   truncated to a slab, one direction narrowed or widened), which
#'   `"quadratic"`'s shrinkage averages away and its other d^2 / 2
#'   coefficients bury in noise, is read from those directions alone; with
#'   none beyond the noise the score is constant and the curve the ceiling
#'   min(1, \eqn{\lambda}). The eigenvector minimises the generated rows'
#'   second moment, whose estimate is noisy for a law with a sharp edge:
#'   where the generated rows along the narrowest kept direction are
#'   flatter than the real ones (kurtosis lower by 5 standard errors, as
#'   at a truncation's edge), a local search (gradient descent on the
#'   sphere from the eigenvector, at most 60 steps: 0.1 s a fold at 4,500 x
#'   512) moves it to a minimum of the generated rows' \eqn{L^8} width
#'   \eqn{(\mathrm{mean} |v'(y - \hat\mu_Y)|^8)^{1/8}}{(mean |v'(y - mu_Y)|^8)^(1/8)}
#'   at \eqn{v' S_X v = 1}, near the thinnest slab that holds them (the
#'   width of a point set is NP-hard in general dimension, Gritzmann and
#'   Klee 1993); the result's details give the share of fits it moved
#'   (`refined`). Where instead they are skewed against the real ones (by 5
#'   standard errors: a one-sided truncation, P within a half-space), the
#'   same search minimises the \eqn{L^8} extent of the side opposite the
#'   skew, the half-space's edge, and the score along that direction is
#'   capped at its peak, so that it rises away from the edge (the log
#'   density ratio of a half-space is a step). On P within a half-space of
#'   mass 0.6 (truth 0.60, 5,000 points per set, three draws) the default
#'   read +0.013, +0.040 and +0.092 at d = 64, 256 and 512 (+0.075, +0.147
#'   and +0.215 without the search; the best function of the searched
#'   direction, 4,500 fit rows a set, has true AUC 0.615, 0.645 and 0.703,
#'   of the eigenvector 0.661, 0.732 and 0.814). On P truncated to a slab of mass 0.7 in a random
#'   direction (truth 0.70) at 5,000 points per set the default read
#'   0.710, 0.744 and 0.814 at d = 64, 256 and 512 (means of three draws;
#'   0.737, 0.792 and 0.829 with the eigenvector, 0.99 without the
#'   family). The direction is estimated less well as d / n grows: on
#'   4,500 fit rows a set its cosine with the slab's normal is 0.999, 0.992
#'   and 0.959 there (the eigenvector's 0.994, 0.972 and 0.937), and the
#'   best function of it has true AUC 0.720, 0.754 and 0.816
#'   (bench/slab-limit.R, exact given the direction), so at d = 512 no
#'   score through it comes within 0.05 of the truth at this size; at d =
#'   1,024 the rows along the eigenvector (cosine 0.83) look Gaussian and
#'   nothing is searched. **In the default**
#'   up to d = 512 when every set has at least 8 rows a column, no
#'   categorical columns, and the family keeps no direction between two
#'   random halves of the real rows (at most 8,000, under a fixed seed;
#'   0.1-0.2 s at 5,000 x 512): the edges hold for laws with four
#'   moments (Laplace or t(5) coordinates: extremes within 1.03 of them),
#'   not for heavier tails (t(3) coordinates: the largest 3 to 13 times
#'   the upper edge), where the family would only add noise. On the
#'   validity suite's t(3) coordinates 10% narrower at d = 64 the default
#'   reads +0.017 with this test, +0.035 without. Added by hand above
#'   those bounds (`families`: the default's five and `"spectral"`) on the
#'   slab at d = 1,024 with 5,000 points per set (4.9 rows a column) the
#'   curve read 0.914, the default 0.995 (8.7 s against 5.1 s).
#'   Asked for on a set of fewer than 2 rows a column it warns
#'   (`prdcurve_warning_small_sample`): only a spread changed more than
#'   tenfold can then leave the bulk.
#' * `"tightest"`: a combination of several families' curves
#'   (`families`; default: `"knn"` and `"coverage"` at each `k`,
#'   `"quadratic"`, `"stacked"` and `"smooth_marginal"`; up to d = 512 with
#'   8 rows a column also `"spectral"`, unless two halves of the real rows
#'   give it a direction; with categorical
#'   columns also `"logit"` and `"interaction"`; on clustered real rows of
#'   at most 1,024 columns, every set of 1,000 rows or more,
#'   also `"mixture"`). `"kde"`, `"ipr"`,
#'   `"linear"` and `"marginal"` left the default in 0.6.0: choosing among
#'   the same calls' curves without them was as close to the truth or
#'   closer on every suite (mean |AUC error| on Gaussian scenarios at d =
#'   16-256, 300-2,000 points per set 0.027 against 0.029; clusters, heavy
#'   tails, a manifold and truncation at d = 64 and 256 0.077 against
#'   0.084; d = 1,024 and 2,048 0.044 against 0.044; mixed-type tables
#'   0.033 against 0.035; digits IoU 0.930 against 0.924;
#'   `bench/tightest-families.R`), and the default costs less (no own
#'   radii for `"kde"` and `"ipr"`). The
#'   evaluation rows of each set are halved at random (R's RNG), and the
#'   angle grid is cut into six bands of equal angle. On each half, each
#'   band takes the family with the least penalised area there: its area
#'   in the band plus 4 times its noise, the gap between its areas in the
#'   band on the two halves (a family decided by a few points has a large
#'   gap), or that gap less the median gap of the families where this is
#'   smaller (rows that make every family look tighter on one half are no
#'   family's noise). The mixture family's noise counts once, not 4 times:
#'   it joins only where the real rows test as clustered, and there its
#'   curve moves more between the halves than the smoother families' (on
#'   the suite's clustered scenarios at 5,000 points per set, mean |AUC
#'   error| 0.073 against 0.082 with 4 times its noise). A family saturated in the band (its area there at
#'   least 98% of that of \eqn{\alpha = \min(1, \lambda)}, the curve of
#'   Q = P, on both halves) has no gap because it cannot move, so it takes
#'   the largest noise of the band's unsaturated families (where every
#'   family is saturated, the noises stay). Where
#'   both halves choose the same family, the band is that family's curve
#'   on every evaluation row; where they differ, the family chosen on one
#'   half is read on the other and the two readings are averaged. Each
#'   extreme (`max_precision`, `max_recall`) is read from one family, that
#'   of its end band (when the halves differ there, the first half's
#'   choice read on the second half). The readings are then raised to the
#'   smallest PR curve above them (\eqn{\alpha} nondecreasing,
#'   \eqn{\beta} nonincreasing; unchanged with one family, whose curve
#'   `"tightest"` then is). A category that the real rows hold and no
#'   generated row does (a categorical column's level, or a missing value
#'   or missing code of a number, read as categories: see `features`) lies
#'   outside the generated law's support, so the true `max_recall` is at
#'   most 1 less the real rows' share in such categories, and likewise
#'   `max_precision` at most 1 less the generated rows' share in
#'   categories no real row holds. The curve is held within these bounds,
#'   each the share's upper 97.7% confidence bound (1 - share + 2 standard
#'   errors, from every row; a category counts only where the set that
#'   lacks it would hold it 3 times or more at the other's share;
#'   `details$category_bounds`, 1 where none applies): an extreme read from the scores hangs on the one generated
#'   row scored lowest, and on `SD2011` against a synthesis that lost a
#'   level of education held by 18.7% of the real rows (true `max_recall`
#'   at most 0.813) the default read 1.000 in 1 of 28 seeds and above 0.85
#'   in 5, and 0.832 at most with the bounds; the suite's dropped
#'   category (d = 64, true AUC 0.875) read 0.945 and now 0.906. The
#'   families' own curves are left as they are. With fewer than 50 evaluation rows of a set in
#'   a half, the whole curve comes from one family (that chosen on the
#'   first half: on every row when the second half agrees, else read on
#'   the second half), and a warning says so
#'   (`prdcurve_warning_small_sample`). `prd_curve_info(x)$details` holds
#'   the choice: `choice` (`"bands"`, `"single"` or `"ceiling"`; with
#'   several splits `"mixed"` when only some read the ceiling, and
#'   `choices`, each split's), `bands` (for each split, column `split`, each band's
#'   \eqn{\lambda} range, the family chosen on each half, and `read`: `"all
#'   rows"` or `"halves"`), `chosen` (the families at every
#'   \eqn{\lambda}), each family's AUC (`family_auc`), the gap between
#'   its AUCs on the two halves (`half_gap`) and the bounds of the
#'   categories (`category_bounds`: `max_precision`, `max_recall`).
#'
#'   **The default is an estimate of an upper bound, not a bound.** Each
#'   family's curve estimates an upper bound of the true curve (every
#'   classifier's errors do), but from a finite sample: the lower envelope
#'   over thresholds is optimistic on few rows, and the choice of the
#'   lowest family adds to that, so the estimate can lie below the truth.
#'   A score that knows nothing of the data (as every
#'   family's is at Q = P) reads below 1 on a finite sample: on
#'   \eqn{n_r} real and \eqn{n_g} generated evaluation rows its mean AUC
#'   is \eqn{1 - \log(h) / h}, \eqn{h = 2 / (1 / n_r + 1 / n_g)}
#'   (0.993 at 1,000 rows a set, sd 0.004), and 99% of draws read above
#'   \eqn{1 - 3 \log(h) / h}. So when every family reads an AUC of at
#'   least \eqn{1 - \min(0.02, 3 \log(h) / h)}, no family tells the sets
#'   apart and the curve is the ceiling \eqn{\alpha = \min(1, \lambda)},
#'   the curve of Q = P (`details$choice` and the bands' `read`
#'   `"ceiling"`, no family chosen; the printed curve's header and the
#'   command line's report say so). The rule adds about 0.02 at most to a
#'   reading: a mean shift of 0.2 at d = 8 (true AUC 0.981,
#'   2,000 points per set) read 1.000, 0.977 and 0.991 in three draws, and
#'   a shift of 0.3 is left alone. Measured (means of 3 draws) for two
#'   samples of one distribution (true AUC 1) at d = 8 and 64: 0.949 and
#'   0.864 with 40 points per set (10 evaluation rows a half; 5 splits
#'   averaged below 1,000 rows, see `repeats`), 0.970 and 0.961 with 200,
#'   0.975 and 0.981 with 400 (the rule's margin binds there), 1.000 and
#'   0.997 with 1,000 and 1.000 with 2,000 (without the rule 0.988-0.990;
#'   `"knn"` 0.997) (bench/tightest-choice.R). At d = 64 with 5,000
#'   points per set it read 0.005 below the true AUC on a mean shift
#'   (0.679), 0.004 above on a deflated model (0.131) and 0.015 below on an
#'   inflated one (0.243) (bench/tightest-choice.R). On the `digits`
#'   class-subset experiment (30 seeds, about 22 to 113 evaluation rows a
#'   half, 5 splits averaged) its mean IoU with the true rectangle is 0.933
#'   against `"knn"`'s 0.943 (the difference -0.013 to -0.006 in 90% of
#'   bootstrap draws of the seeds), and its AUC is less steady: a spread
#'   across seeds of 0.013 against knn's 0.011 (+0.0015 to +0.0035); on
#'   such small sets knn is the better choice. Choosing
#'   at each \eqn{\lambda} separately (earlier versions) flipped between
#'   families on a handful of rows: IoU 0.903 on
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
#' they cost \eqn{O(n d \min(n, d))} through R's BLAS. Where the two sets
#' hold fewer rows than columns (n in all), `"linear"`, `"quadratic"` and
#' `"stacked"`, whose fits read the rows only through the inner products
#' of their differences and d, fit on the rows' coordinates in their span
#' (at most n - 1 numbers a row, from one n x n Gram matrix; the same
#' scores to rounding, 1e-12 in the tests), so each fold costs
#' \eqn{O(n^3)} instead of \eqn{O(n^2 d)}; below 0.9 d rows in all,
#' when every family a call fits fold by fold declares it (the default's
#' do), `"quadratic"` and `"stacked"` take the fold moments on those
#' coordinates (`"stacked"` then predicts its inner folds' shrinkage from
#' the fit rows, as from 1,000 rows a set: close to, not equal to, its
#' fits fold by fold). Their curves carry `k = NA`.
#'
#' When two families' AUCs of one model differ by more than 0.2 and the
#' lower is less than half the higher (and, with replicates, their intervals
#' are disjoint), with at least 50 evaluation rows per set, a warning of class
#' `prdcurve_warning_family_disagreement` names the tighter (lower) one (which
#' may itself lie above the truth) and
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
#' When the default families are used on a clustered real set too wide
#' for `"mixture"` in the default (more than 1,024 columns,
#' every set of 1,000 rows or more; the test of `"mixture"` above, on a projection to
#' 256 random directions above d = 256, about 0.2 s at 10,000 x 2,048), a
#' warning of class `prdcurve_warning_clustered` says that the default
#' reads high on such data and how to add the family; giving `families`
#' silences it.
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
#' rows per set instead of 2,500. On the validity suite's Gaussian grid
#' with one fit and with 10 folds (the same draws, 3 repeats at 5,000
#' points per set) the mean |AUC error| of `"tightest"` fell from 0.050 to
#' 0.031 at d = 1,024 and from 0.074 to 0.049 at 2,048 (the worst from
#' +0.145 to +0.086 and from +0.233 to +0.131). In the shipped run (10
#' folds, one draw at 5,000 points per set) it is within 0.104 / 0.154 of
#' the true AUC in every Gaussian scenario at d = 1,024 / 2,048 (mean
#' 0.029 / 0.044) and within 0.035 at d = 256; at 1,000 points per set
#' and d = 256 within 0.12 on average over 3 draws (0.31 in the worst
#' draw). At d <= 64, where the fit
#' does not limit the curve, it is slightly looser (mean error 0.012
#' against 0.011 at d = 64): the ten fits' scores are pooled into one
#' curve. The ten fits took about three times as long as one at 10,000
#' points per set and d = 2,048 (see `families`). The validity
#' suite at 20,000 points per set (10 folds, 19,000 fit rows per set):
#' `"tightest"` within 0.027 / 0.043 / 0.059 of the true AUC in every
#' Gaussian scenario at d <= 256 / 1,024 / 2,048 (mean error 0.005 to
#' 0.006 / 0.012 / 0.018).
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
NULL
