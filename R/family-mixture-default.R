# The mixture family in the default "tightest" (tightest_families()):
# on which real sets it joins, on how many rows its EM runs there, and the
# test that reads the real rows as clustered.

#' Most columns of a real set on which the default "tightest" takes the
#' mixture family among its families when the real rows are clustered
#' (mixture_clustered()) and every set has mixture_default_rows rows, at
#' any number of rows (above 5,000 rows a set its EM runs on a sample,
#' mixture_fit_rows_max()); above it the same test gives a warning
#' (tightest_families(), clustered_warning()). The family then adds its
#' own time: alone it took 3.0 s at 5,000 x 256 (knn 0.11 s); at 10,000
#' x 2,048 it would add about 47 s (knn 3.1 s; bench/results.md).
#' @noRd
mixture_default_cols <- 1024L

#' Values (rows times columns) of each set's fit rows on which the
#' mixture's EM runs in the default, and the fewest rows it runs on: every
#' fit row of 5,000 rows a set with a split of 0.5 (mixture_fit_rows_max()).
#' @noRd
mixture_em_values <- 2^21
mixture_em_rows_min <- 2500L

#' The fit rows per set (at most) on which the mixture family's EM runs in
#' the default, at d columns: 2^21 values of each set (a random sample of
#' the fit rows, R's RNG; the folds' EM step and the scores use every
#' row), at least the 2,500 fit rows of 5,000 rows a set (all of them at
#' d >= 839). Its time then stops growing with the rows but for one pass
#' over them per fit, and the family joins the default at any number of
#' rows of up to mixture_default_cols columns (tightest_families()).
#' @noRd
mixture_fit_rows_max <- function(d) {
  max(mixture_em_rows_min, floor(mixture_em_values / d))
}

#' Fewest rows of every set (real and generated) for the mixture in the
#' default: on smaller sets its choice among 1 to 16 components, made on
#' two inner folds of the fit rows, is noisy, and "tightest"'s choice among
#' six families more so. On the digits class-subset experiment (about 90
#' to 800 rows a set; bench/tightest-choice.R) the default with it read a
#' mean IoU of 0.932 against 0.936 without it (knn 0.941 and 0.935 in the
#' same runs) and its AUC spread over seeds 0.018 against 0.016; on ten
#' classes at 2,000 rows a set and d = 64 its mean |AUC error| was 0.040
#' against 0.074 (bench/results.md).
#' @noRd
mixture_default_rows <- 1000L

#' Components of the "mixture16" family (low-rank, no choice), which joins
#' the default beside "mixture" up to mixture_many_cols columns. The mixture's
#' choice is made on half the fit rows with 30 E-steps, among candidates
#' whose held-out losses can differ by less than their noise: on the
#' validity suite's 16 overlapping rank-4 classes, d = 64, one draw of
#' 5,000 rows a set, the ten candidates' losses lay within 0.002 of each other and 0.0026
#' below a constant score, the least was one low-rank component (refitted
#' with 2), and the family read AUC 0.973 for three classes dropped (true
#' 0.841; the default 0.963); fixed at 16 low-rank components it read
#' 0.853 (8: 0.957). A rule that took the most components within one
#' standard error of the least loss moved the suite's clustered kinds'
#' mean |AUC error| from 0.061 to 0.058 only and took low-rank components
#' for three separated clusters in two dimensions (mean log-ratio error
#' 0.099, above its test's bound of 0.08); the second family, whose curve
#' the default takes only where it is the tighter, took it to 0.053 and
#' ranked 51 of their 51 pairs 0.05 apart right (48 before), at 1.4-2.1
#' times the default's time per call on them (bench/results.md).
#' @noRd
mixture_many_components <- 16L

#' Most columns of a real set on which "mixture16" joins the default (where
#' "mixture" does): at d = 1,024 (one draw of the six clustered kinds) it
#' took the default's mean |AUC error| from 0.089 to 0.087 only, at 2.5
#' times its time (102 s to 264 s and 141 s to 348 s a call of three
#' models, beside other runs).
#' @noRd
mixture_many_cols <- 512L

#' Components, rows (at most), columns (at most: more are projected) and
#' seed of the clusters test.
#' @noRd
mixture_detect_components <- 8L
mixture_detect_rows <- 4000L
mixture_detect_dims <- 256L
mixture_detect_seed <- 20261130L

#' The clusters test's second view: the leading principal components
#' (this many; with more columns than that only) whitened, and the
#' spherical components fitted there (mixture_clustered()).
#' @noRd
mixture_detect_pcs <- 16L
mixture_detect_pc_components <- 16L

#' Whether the rows of `real` are clustered: in the rows (with more than
#' mixture_detect_dims columns, their random projection on that many
#' directions, which keeps clusters apart and a Gaussian Gaussian; the
#' test then costs about 0.2 s at 10,000 x 2,048) whitened by their
#' own covariance (shrunk 10% toward its mean variance, so that a
#' Gaussian of any covariance reads as one spherical cluster), a
#' mixture of mixture_detect_components spherical Gaussians fits held-out
#' rows better than one Gaussian. Two-fold: each half of at most
#' mixture_detect_rows rows (drawn under a fixed seed; the caller's RNG
#' state is left as it was) fits both, EM from k-means++ seeds, and the
#' gain is the mean held-out log-likelihood ratio per row. On 16 classes
#' of the validity suite (5,000 rows) the gain was 0.09-0.11 at d = 64,
#' 0.81-0.86 at 256 and 0.75-0.94 at 512 to 2,048 (projected); on the
#' suite's Gaussian, Gaussian-mixture and anisotropic real sets (1,000 to
#' 20,000 rows, d = 16 to 2,048) -0.01 to -1.8; on the digits 1.4-3.0. It is
#' positive for heavy-tailed radial laws too (Student t: a mixture of
#' spreads), where the family costs time without harm.
#'
#' Whitening every direction lets the many directions of within-class
#' spread hide classes whose centres span few: 16 von Mises-Fisher classes
#' on the unit sphere (L2-normalised embeddings; bench/sphere.R, 5,000
#' rows) read -0.35 at d = 128 and -0.69 at 256 (concentration 30 and
#' 60). A second view, on the same rows and halves, fits
#' mixture_detect_pc_components spherical components to the leading
#' mixture_detect_pcs principal components, each scaled to unit variance
#' (a Gaussian stays one spherical Gaussian there): +0.09 and +1.07 on
#' those classes, +1.07 at d = 64 (concentration 30), and below 0 on
#' draws of every real set of the validity suite where the first view
#' is (-0.06 to -0.39 on its Gaussian, Gaussian-mixture and anisotropic
#' sets at every n and d, -0.08 to -0.18 on truncation and Laplace
#' coordinates), so no suite call changes (its grid at n = 1,000 and
#' 5,000, d = 16 to 256, reads byte-identical). Neither view sees those
#' classes at d = 512 and 1,024: their centres' variance there is within
#' the spread of the noise's sample eigenvalues. The gain is the larger of the two views'.
#' The second view adds 0.07 s at 20,000 x 64 (0.17 s against 0.10 s)
#' and 0.12 s at 10,000 x 2,048 (0.60 s against 0.48 s).
#' Returns list(clustered, gain); FALSE (gain NA) with fewer than 8 rows
#' per component in a half, a constant set or a covariance that could not
#' be factored. `pcs` Inf: the first view alone.
#' @noRd
mixture_clustered <- function(real, pcs = mixture_detect_pcs) {
  no <- list(clustered = FALSE, gain = NA_real_)
  K <- mixture_detect_components
  n <- nrow(real)
  if (n < 16L * K || ncol(real) < 2L) return(no)
  withr::local_seed(mixture_detect_seed)
  rows <- if (n > mixture_detect_rows) sort(sample.int(n, mixture_detect_rows)) else seq_len(n)
  # (the rows gathered by the engine's threads, as canonical_sets())
  X <- if (is.double(real)) .Call(ffi_centre, real, double(ncol(real)), as.integer(rows)) else
    real[rows, , drop = FALSE]
  if (!is.double(X)) storage.mode(X) <- "double"
  # (divided by the largest value first: no moment overflows; the
  # projection's directions divided instead, one product)
  big <- max(-min(X), max(X))
  if (!is.finite(big) || !(big > 0)) return(no)
  if (ncol(X) > mixture_detect_dims) {
    X <- X %*% (matrix(stats::rnorm(ncol(X) * mixture_detect_dims), ncol(X)) / big)
  } else {
    X <- X / big
  }
  X <- X - rep(colMeans(X), each = nrow(X))
  S <- crossprod(X) / nrow(X)
  m <- mean(diag(S))
  if (!is.finite(m) || !(m > 0)) return(no)
  C <- 0.9 * S
  diag(C) <- diag(C) + 0.1 * m
  R <- tryCatch(chol(C), error = function(e) NULL)
  if (is.null(R)) return(no)
  W <- t(backsolve(R, t(X), transpose = TRUE))
  h <- random_halves(nrow(W))
  gain <- clusters_halves_gain(W, h, K)
  if (is.finite(gain) && ncol(X) > pcs &&
      nrow(X) >= 16L * mixture_detect_pc_components) {
    e <- eigen(S, symmetric = TRUE)
    j <- seq_len(pcs)
    if (all(e$values[j] > 1e-12 * e$values[1L])) {
      P <- X %*% e$vectors[, j]
      P <- P / rep(sqrt(e$values[j]), each = nrow(P))
      gain <- max(gain, clusters_halves_gain(P, h, mixture_detect_pc_components))
    }
  }
  list(clustered = is.finite(gain) && gain > 0, gain = gain)
}

#' The clusters test's gain on the rows W (mixture_clustered()): each
#' half of `h` fits K spherical components and one Gaussian (EM from
#' k-means++ seeds), the mean held-out log-likelihood ratio per row of the
#' other half, averaged over the two halves.
#' @noRd
clusters_halves_gain <- function(W, h, K) {
  gain <- 0
  for (v in 1:2) {
    A <- W[h[[v]], , drop = FALSE]
    B <- W[h[[3L - v]], , drop = FALSE]
    fl <- mixture_floors(A, A)[[1]]
    fit <- function(k) {
      mixture_em(A, mixture_kmeanspp(A, k), "spherical", fl, maxit = 15L,
                 tol = 1e-5)
    }
    gain <- gain + mean(mixture_logdens(fit(K), B) - mixture_logdens(fit(1L), B)) / 2
  }
  gain
}
