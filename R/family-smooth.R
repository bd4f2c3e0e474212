# The smoothed marginal family (SPEC.md section 7): for data whose
# coordinates are independent (or nearly so) but not Gaussian, such as
# heavy-tailed coordinates, the log-likelihood ratio is a sum over the
# coordinates of one-dimensional log density ratios, s(z) = sum_l log
# q_l(z_l) - log p_l(z_l) (the naive Bayes classifier; Hastie, Tibshirani
# and Friedman 2009, The Elements of Statistical Learning, 2nd ed.,
# section 6.6.3, eq. 6.27). The `marginal` family reads each term from
# raw histograms; over hundreds of coordinates their noise adds up, and a
# coordinate in which the sets do not differ contributes only noise. Here
# each coordinate's histograms (on the marginal family's bins: quantiles
# of both sets' fit rows pooled, marginal_breaks()) are smoothed by a
# Gaussian kernel over neighbouring bins (a kernel density estimate in
# the scale of the pooled distribution function, where every bin holds
# the same mass), and each coordinate's log ratio is shrunk toward 0 by a
# James-Stein factor max(0, 1 - noise / signal) (James and Stein 1961;
# Efron and Morris 1973, JASA 68(341):117-130,
# doi:10.1080/01621459.1973.10481350): its mean square over the pooled bin
# masses against the same mean of its delta-method variance, so the
# coordinates without a difference drop out; or, where it fits the
# held-out rows better, toward the coordinates' common log ratio, bin by
# bin (independent coordinates of one law share it: on t(3) and Laplace
# coordinates 10% wider or narrower, d = 256-512, 5,000 rows, the curve
# then reads within 0.02 of the oracle floor, against +0.17 shrunk toward
# 0 alone). The bandwidth (in bins) and the target are chosen by two-fold
# cross-validation within the fit rows (R's RNG) on the held-out logistic
# loss of the recalibrated score (as the mixture family's choice,
# ratio_logistic_loss()). prd_curve() scores every fold at once
# (smooth_marginal_cells(), the registry's "cells" path).

#' The bandwidths (in bins) the smoothed marginal family tries.
#' @noRd
smooth_bandwidths <- c(0, 1, 2, 4, 8, 16, 32)

#' Fit the smoothed marginal family on the fit rows `fx` of `real` and `fy`
#' of `generated` (integer row indices into every row of each set).
#' Returns list(score = function(Z, rows = NULL): the sum over the columns
#' of the smoothed, shrunk log ratios of the rows `rows` of Z (NULL: every
#' row), high = "generated"; settings = list(bins, bandwidth (in bins),
#' columns_kept (the columns whose shrinkage factor is positive))).
#' `bandwidths`: the Gaussian kernel's standard deviations tried, in bins
#' (0: no smoothing). Errors: prdcurve_error_input for `bandwidths`,
#' prdcurve_error_split for fewer than 4 fit rows in a set.
#' @noRd
fit_smooth_marginal <- function(real, generated, fx, fy,
                                call = rlang::caller_env(),
                                bandwidths = smooth_bandwidths) {
  if (!is.numeric(bandwidths) || !length(bandwidths) ||
      !all(is.finite(bandwidths)) || any(bandwidths < 0)) {
    prd_abort(c("{.arg bandwidths} must be non-negative numbers (in bins).",
                "x" = "It is {.val {format(bandwidths)}}."), "input",
              call = call)
  }
  r <- choice_fit_rows(real, generated, fx, fy, "smoothed marginal family",
                       call)
  real <- r$real
  generated <- r$generated
  fx <- r$fx
  fy <- r$fy
  B <- marginal_bin_count(min(length(fx), length(fy)))
  E <- marginal_breaks(real, generated, fx, fy, B)
  # each set's fit rows' bins, and their counts in two inner folds
  index <- list(marginal_index(real, E, fx), marginal_index(generated, E, fy))
  hx <- random_halves(length(fx))
  hy <- random_halves(length(fy))
  cp <- halves_counts(index[[1]], B, hx)
  cq <- halves_counts(index[[2]], B, hy)
  ch <- smooth_choose(index, cp, cq, hx, hy, bandwidths)
  rm(index)
  fit <- smooth_table(matrix(cp[, , 1] + cp[, , 2], B),
                      matrix(cq[, , 1] + cq[, , 2], B),
                      length(fx), length(fy), ch$h, ch$pooled)
  tab <- fit$table
  list(
    score = function(Z, rows = NULL) {
      if (!is.double(Z)) storage.mode(Z) <- "double"
      rows <- if (is.null(rows)) seq_len(nrow(Z)) else as.integer(rows)
      smooth_scores(Z, E, rows, tab)
    },
    settings = list(bins = B, bandwidth = ch$h, pooled = ch$pooled,
                    columns_kept = sum(fit$shrinkage > 0))
  )
}

#' The counts of a bin index (`ix`, B bins) in each of two halves `h` of
#' its rows (positions in the index): a B x d x 2 array (ffi_index_counts())
#' @noRd
halves_counts <- function(ix, B, h) {
  cell <- integer(ncol(ix))
  cell[h[[1]]] <- 1L
  cell[h[[2]]] <- 2L
  .Call(ffi_index_counts, ix, B, seq_along(cell), cell, 2L)
}

#' The smoothed marginal family's choice of bandwidth and shrinkage target
#' by two-fold cross-validation: `cp`, `cq` the bin counts (B x d x 2) of
#' each set's two inner folds, whose rows are the columns `rx[[v]]` of
#' `index[[1]]` (the real rows' bins, marginal_index()) and `ry[[v]]` of
#' `index[[2]]` (generated); each candidate's table fitted on one fold
#' scores the other's rows (its recalibrated logistic loss,
#' ratio_logistic_loss()). The candidates: each bandwidth, shrinking toward
#' 0 and toward the columns' common log ratio. The least loss wins; among
#' equal ones the smoothest, shrunk toward 0.
#' @return list(h, pooled)
#' @noRd
smooth_choose <- function(index, cp, cq, rx, ry,
                          bandwidths = smooth_bandwidths) {
  B <- dim(cp)[1L]
  bandwidths <- sort(unique(as.double(bandwidths)))
  grid <- expand.grid(h = bandwidths, pooled = c(FALSE, TRUE))
  # every candidate's held-out scores, in the grid's order: each fold's
  # table (smooth_parts() of the other fold's counts, then smooth_shrink())
  # summed at the fold's rows, real then generated, each row's sum in
  # double over the columns in order (src/smooth.c: the parts and tables
  # in buffers of one call, not a B x d matrix of R a step)
  if (!is.double(cp)) storage.mode(cp) <- "double"
  if (!is.double(cq)) storage.mode(cq) <- "double"
  sums <- .Call(ffi_smooth_choice_sums, cp, cq, as.double(lengths(rx)),
                as.double(lengths(ry)),
                lapply(bandwidths, function(h) if (h > 0) smooth_kernel(B, h)),
                marginal_smooth, index, lapply(rx, as.integer),
                lapply(ry, as.integer),
                !isFALSE(getOption("prdcurve.keep_scratch")))
  loss <- matrix(0, sum(lengths(rx)) + sum(lengths(ry)), nrow(grid))
  for (g in seq_len(nrow(grid))) {
    loss[, g] <- c(ratio_logistic_loss(sums[[g]][[1]], seq_along(rx[[1]])),
                   ratio_logistic_loss(sums[[g]][[2]], seq_along(rx[[2]])))
  }
  g <- choose_within_se(-loss, (max(bandwidths) + 1) * grid$pooled - grid$h,
                        se_mult = 0)
  list(h = grid$h[g], pooled = grid$pooled[g])
}

#' The smoothed marginal family on every fold at once (the registry's
#' "cells" path, as marginal_scores()): `cells[[j]]` the rows of set j
#' cut into the fit rows and K folds. The bins' edges come from every row
#' of both sets pooled without their labels (marginal_breaks()); the
#' bandwidth and target are chosen once, on two random halves of the fit
#' rows, which no fold scores (smooth_choose()); each fold's table is
#' fitted on the counts of every other cell and scores that fold's rows.
#' @return list(real, gen (the scores of the folds' rows, in the order of
#'   the folds), settings)
#' @noRd
smooth_marginal_cells <- function(real, generated, cells,
                                  call = rlang::caller_env()) {
  # the rows the choice is made on: the fit rows, which no fold scores;
  # without a split (no fit rows of their own) every row, as the neighbour
  # families' radii
  pick <- lapply(cells, `[[`, 1L)
  if (min(lengths(pick)) == 0L) {
    pick <- lapply(cells, function(cj) unlist(cj, use.names = FALSE))
  }
  check_choice_rows(length(pick[[1]]), length(pick[[2]]),
                    "smoothed marginal family", call)
  # the bins, atoms and each cell's counts as the marginal family's
  mc <- marginal_cell_counts(real, generated, cells)
  K <- mc$K
  total <- mc$total
  B <- mc$B
  # the choice on two random halves of those rows, which lead each set's
  # rows `total` (the fit rows first, or every row): their bins are the
  # first columns of the bin index
  halves <- lapply(pick, function(r) random_halves(length(r)))
  hc <- lapply(1:2, function(j) {
    id <- integer(length(pick[[j]])) + 1L
    id[halves[[j]][[2]]] <- 2L
    .Call(ffi_index_counts, mc$index[[j]], B, seq_along(id), id, 2L)
  })
  ch <- smooth_choose(mc$index, hc[[1]], hc[[2]], halves[[1]], halves[[2]])
  # each fold's table from the counts of every other cell
  counts <- mc$counts
  mc$counts <- NULL
  # (src/smooth.c: smooth_table() of each fold's counts, the totals less
  # the fold's cell, into one B x d x K array)
  sums <- lapply(counts, rowSums, dims = 2L)
  n <- lapply(1:2, function(j) {
    as.double(length(total[[j]]) - lengths(cells[[j]][-1L]))
  })
  ft <- .Call(ffi_smooth_fold_tables, sums[[1]], sums[[2]], counts[[1]],
              counts[[2]], n[[1]], n[[2]],
              if (ch$h > 0) smooth_kernel(B, ch$h), marginal_smooth,
              isTRUE(ch$pooled), !isFALSE(getOption("prdcurve.keep_scratch")))
  rm(counts, sums)
  tab <- ft$table
  kept <- 0
  for (v in seq_len(K)) kept <- kept + ft$kept[[v]] / K
  sc <- lapply(1:2, function(j) marginal_cell_scores(mc, j, cells, tab))
  list(real = sc[[1]], gen = sc[[2]],
       settings = list(bins = B, atom_columns = length(mc$atoms$cols),
                       bandwidth = ch$h, pooled = ch$pooled,
                       columns_kept = kept))
}

#' The per-row sums over the columns (in order, in double) of the table's
#' entries (B x d) at the bins of the rows `rows` of Z (marginal_index(),
#' src/marginal.c).
#' @noRd
smooth_scores <- function(Z, E, rows, tab) {
  .Call(ffi_index_scores, marginal_index(Z, E, rows), nrow(tab),
        seq_along(rows), rep(1L, length(rows)), tab)
}

#' The smoothing matrix over B bins: column j spreads bin j's count over
#' the bins i with Gaussian weights exp(-(i - j)^2 / (2 h^2)), normalised
#' to sum 1 (no mass leaves the histogram); h = 0: the identity.
#' @noRd
smooth_kernel <- function(B, h) {
  if (h <= 0) return(diag(B))
  K <- outer(seq_len(B), seq_len(B), function(i, j) exp(-(i - j)^2 / (2 * h^2)))
  K / rep(colSums(K), each = B)
}

#' The smoothed marginal family's table (B x d) from the bin counts cp,
#' cq (B x d) of np real and nq generated rows, bandwidth h (bins): the
#' smoothed counts c~ = K c, their log ratio t = log((c~_q + a) / (n_q +
#' a B)) - log((c~_p + a) / (n_p + a B)) (a = marginal_smooth), and each
#' column's James-Stein factor max(0, 1 - N / S) with S = sum_b pi_b t_b^2
#' and N = sum_b pi_b (var c~_pb / (c~_pb + a)^2 + var c~_qb / (c~_qb +
#' a)^2), var c~_b = sum_j K_bj^2 c_j (Poisson counts), pi the pooled
#' smoothed bin masses. With `pooled`, each column is shrunk toward the
#' columns' mean log ratio t-bar (bin by bin: the bins are quantiles of
#' each column, so where the coordinates are exchangeable, as independent
#' coordinates of one law, they share one log ratio per bin) instead of
#' 0: t-bar + w (t - t-bar), S the mean square of t - t-bar. Returns
#' list(table, shrinkage (per column)).
#' @noRd
smooth_table <- function(cp, cq, np, nq, h, pooled = FALSE) {
  smooth_shrink(smooth_parts(cp, cq, np, nq, h), pooled)
}

#' smooth_table()'s smoothed log ratios t, their noise (per bin, before
#' the masses) and the pooled masses pi, which both targets share
#' @noRd
smooth_parts <- function(cp, cq, np, nq, h) {
  # (src/smooth.c: smooth_table()'s formulas in R's order of operations,
  # the products by dgemm as R's %*%; none by the identity at h = 0)
  if (!is.double(cp)) storage.mode(cp) <- "double"
  if (!is.double(cq)) storage.mode(cq) <- "double"
  .Call(ffi_smooth_parts, cp, cq, as.double(np), as.double(nq),
        if (h > 0) smooth_kernel(nrow(cp), h), marginal_smooth,
        !isFALSE(getOption("prdcurve.keep_scratch")))
}

#' smooth_table()'s shrinkage of the parts p (smooth_parts()) toward 0 or,
#' with `pooled`, toward the columns' mean log ratio
#' @noRd
smooth_shrink <- function(p, pooled) {
  # (src/smooth.c: rowMeans() and colSums() in long double, as R's)
  .Call(ffi_smooth_shrink, p$t, p$noise, p$pi, isTRUE(pooled))
}
