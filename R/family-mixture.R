# The mixture family (SPEC.md section 7): a Gaussian mixture fitted by EM
# to each set's fit rows, scored by the log-likelihood ratio log q(z) -
# log p(z) of the two fits (mixture discriminant analysis: Hastie and
# Tibshirani 1996, J. R. Statist. Soc. B 58(1), 155-176,
# doi:10.1111/j.2517-6161.1996.tb02073.x; here one mixture per set, as
# their section 2 with the class-conditional densities mixtures of
# Gaussians). Real embeddings are clustered, and a single Gaussian (the
# quadratic family) or a per-coordinate density (marginal) cannot follow a
# log-likelihood ratio that changes from one cluster to the next.
#
# Components are spherical (sigma_k^2 I) or diagonal (diag(s_k)). Each
# set's number of components and form are chosen on the held-out
# log-likelihood of an inner split of its fit rows (a quarter held out,
# drawn with R's RNG) among `components` x `forms`, by the
# one-standard-error rule (the fewest parameters within a standard error
# of the best); the chosen model is then refitted on all the fit rows. EM starts from k-means++ seeds
# (Arthur and Vassilvitskii 2007, drawn with R's RNG) and hard assignments
# to them. Both sets are centred on the mean of the pooled fit rows and
# divided by one common scale (the root mean variance of the pooled
# columns) before any moment is formed: the Jacobian of this map is the
# same for both densities, so the log ratio is unchanged, and values up to
# the largest doubles give finite moments. Every E-step is a set of
# squared distances to the centres, ||x||^2 + ||c||^2 - 2 x.c (one BLAS
# product, tcrossprod(), per block of rows, never rows x rows), then a
# log-sum-exp over the components. Variances are floored at
# `mixture_floor` times the set's own variance (per column for the
# diagonal form, the mean over columns for the spherical one), so no
# component collapses onto a few rows; a component left with less than
# one row's weight is dropped.

#' The numeric codes of the covariance forms in the family's settings.
#' @noRd
mixture_forms <- c(spherical = 1, diagonal = 2)

#' Variance floor relative to the set's own variance.
#' @noRd
mixture_floor <- 1e-3

#' Rows per block of the E-step's products and of scoring.
#' @noRd
mixture_block <- 4096L

#' Fit the mixture family on the fit rows `fx` of `real` and `fy` of
#' `generated` (integer row indices; the matrices are every row of each
#' set). Returns list(score = function(Z, rows = NULL): log q(z) - log p(z)
#' of the rows `rows` of Z (NULL: every row), high = "generated"; settings
#' = list(components = c(real, generated), covariance = c(real,
#' generated) as mixture_forms codes, iterations = c(real, generated))).
#' `components`: the grid of numbers of components (positive whole
#' numbers); `forms`: the covariance forms tried ("spherical",
#' "diagonal").
#' @noRd
fit_mixture <- function(real, generated, fx, fy, call = rlang::caller_env(),
                        components = c(1, 2, 4, 8, 16),
                        forms = c("spherical", "diagonal")) {
  if (!is.numeric(components) || !length(components) ||
      anyNA(components) || any(components < 1) ||
      any(components != round(components))) {
    prd_abort(c("{.arg components} must be positive whole numbers.",
                "x" = "It is {.val {format(components)}}."), "input",
              call = call)
  }
  if (!is.character(forms) || !length(forms) ||
      !all(forms %in% names(mixture_forms))) {
    prd_abort(c(
      "{.arg forms} must be among {.val {names(mixture_forms)}}.",
      "x" = "It is {.val {format(forms)}}."
    ), "input", call = call)
  }
  fx <- as.integer(fx)
  fy <- as.integer(fy)
  if (min(length(fx), length(fy)) < 4L) {
    prd_abort(c(
      "The {.val mixture} family needs at least 4 fit rows per set (an inner split of 3 and 1).",
      "x" = "A set has {min(length(fx), length(fy))} fit row{?s}."
    ), "split", call = call)
  }
  if (!is.double(real)) storage.mode(real) <- "double"
  if (!is.double(generated)) storage.mode(generated) <- "double"
  tr <- mixture_transform(real, generated, fx, fy)
  X <- mixture_rows(real, fx, tr)
  Y <- mixture_rows(generated, fy, tr)
  components <- sort(unique(as.integer(components)))
  mp <- mixture_select(X, components, forms)
  rm(X)
  mq <- mixture_select(Y, components, forms)
  rm(Y)
  list(
    score = mixture_score(mp, mq, tr),
    settings = list(
      components = c(real = nrow(mp$means), generated = nrow(mq$means)),
      covariance = c(real = mixture_forms[[mp$form]],
                     generated = mixture_forms[[mq$form]]),
      iterations = c(real = mp$iterations, generated = mq$iterations)
    )
  )
}

#' The common map of both sets, z -> (z - centre) / scale: centre the
#' mean of the pooled fit rows, scale the root mean variance of their
#' columns (1 when every fit row is equal). The means are formed from
#' rows divided by the largest absolute value first, so no sum overflows.
#' @noRd
mixture_transform <- function(real, generated, fx, fy) {
  big <- max(abs(real[fx, , drop = FALSE]), abs(generated[fy, , drop = FALSE]))
  if (!(big > 0)) big <- 1
  A <- rbind(real[fx, , drop = FALSE], generated[fy, , drop = FALSE]) / big
  centre <- colMeans(A)
  A <- A - rep(centre, each = nrow(A))
  s <- sqrt(mean(colMeans(A^2)))
  if (!(s > 0)) s <- 1
  list(centre = centre * big, scale = s * big)
}

#' The rows `rows` of Z (NULL: every row) under the common map.
#' @noRd
mixture_rows <- function(Z, rows, tr) {
  if (!is.null(rows)) Z <- Z[rows, , drop = FALSE]
  # (z - c) / s computed as z / s - c / s: no overflow for huge values
  Z / tr$scale - rep(tr$centre / tr$scale, each = nrow(Z))
}

#' Choose the number of components and the form of one set's mixture on
#' the held-out log-likelihood of an inner split (a random quarter of the
#' rows, R's RNG), then refit the choice on every row of X. Among the
#' candidates whose held-out log-likelihood is within one standard error of
#' the best (the paired differences per held-out row), the one with the
#' fewest parameters is chosen (the one-standard-error rule: an extra
#' component that splits a cluster gains nothing beyond the noise). Numbers
#' of components above a quarter of the inner training rows are skipped (1
#' is always tried).
#' @noRd
mixture_select <- function(X, components, forms) {
  n <- nrow(X)
  d <- ncol(X)
  floor_var <- mixture_floor * pmax(colMeans((X - rep(colMeans(X), each = n))^2),
                                    .Machine$double.eps)
  held <- sample.int(n, max(1L, floor(n / 4)))
  Xt <- X[-held, , drop = FALSE]
  Xv <- X[held, , drop = FALSE]
  ks <- components[components <= max(1L, floor(nrow(Xt) / 4))]
  if (!length(ks)) ks <- 1L
  cand <- expand.grid(K = ks, form = forms, stringsAsFactors = FALSE)
  cand$params <- cand$K * (1 + d + ifelse(cand$form == "spherical", 1, d))
  lls <- matrix(NA_real_, nrow(Xv), nrow(cand))
  for (j in seq_len(nrow(cand))) {
    m <- mixture_em(Xt, mixture_kmeanspp(Xt, cand$K[j]), cand$form[j],
                    floor_var)
    lls[, j] <- mixture_logdens(m, Xv)
  }
  mean_ll <- colMeans(lls)
  ok <- is.finite(mean_ll)
  j <- if (!any(ok)) 1L else mixture_one_se(lls, mean_ll, ok, cand$params)
  mixture_em(X, mixture_kmeanspp(X, cand$K[j]), cand$form[j], floor_var)
}

#' The one-standard-error choice: the candidate with the fewest parameters
#' among those whose mean held-out log-likelihood is within one standard
#' error (of the paired per-row differences) of the best one's.
#' @noRd
mixture_one_se <- function(lls, mean_ll, ok, params) {
  best <- which(ok)[which.max(mean_ll[ok])]
  nv <- nrow(lls)
  near <- vapply(seq_along(mean_ll), function(j) {
    if (!ok[j]) return(FALSE)
    dif <- lls[, j] - lls[, best]
    se <- if (nv > 1L) stats::sd(dif) / sqrt(nv) else 0
    mean(dif) >= -se
  }, logical(1))
  cands <- which(near)
  cands[order(params[cands], -mean_ll[cands])][1]
}

#' k-means++ seeds (Arthur and Vassilvitskii 2007): K rows of X, the first
#' uniform, each next drawn with probability proportional to its squared
#' distance to the nearest seed so far (R's RNG). Fewer distinct rows than
#' K: those rows.
#' @noRd
mixture_kmeanspp <- function(X, K) {
  n <- nrow(X)
  K <- min(K, n)
  idx <- integer(K)
  idx[1] <- sample.int(n, 1L)
  xx <- rowSums(X^2)
  d2 <- mixture_dist2(X, X[idx[1], , drop = FALSE], xx)[, 1]
  for (k in seq_len(K)[-1L]) {
    if (!(sum(d2) > 0)) return(X[idx[seq_len(k - 1L)], , drop = FALSE])
    idx[k] <- sample.int(n, 1L, prob = d2)
    d2 <- pmin(d2, mixture_dist2(X, X[idx[k], , drop = FALSE], xx)[, 1])
  }
  X[idx, , drop = FALSE]
}

#' Squared distances ||x||^2 + ||c||^2 - 2 x.c (clamped at 0) of the rows
#' of X to the rows of C, one tcrossprod() per block of rows; `xx` the
#' rows' squared norms.
#' @noRd
mixture_dist2 <- function(X, C, xx = rowSums(X^2)) {
  cc <- rowSums(C^2)
  out <- matrix(0, nrow(X), nrow(C))
  for (i0 in seq(1L, nrow(X), by = mixture_block)) {
    i <- i0:min(nrow(X), i0 + mixture_block - 1L)
    out[i, ] <- pmax(xx[i] - 2 * tcrossprod(X[i, , drop = FALSE], C) +
                       rep(cc, each = length(i)), 0)
  }
  out
}

#' Log-densities of the components, log w_k + log N(x; mu_k, Sigma_k), of
#' the rows of X (a rows x K matrix). Spherical: -(d log(2 pi sigma_k^2) +
#' ||x - mu_k||^2 / sigma_k^2) / 2; diagonal: the same with the squared
#' distances of the rows scaled by 1 / s_k, sum_j x_j^2 / s_kj - 2 sum_j
#' x_j mu_kj / s_kj + sum_j mu_kj^2 / s_kj (two products per block).
#' @noRd
mixture_comp_logdens <- function(m, X, xx = NULL) {
  d <- ncol(X)
  K <- nrow(m$means)
  if (m$form == "spherical") {
    D <- mixture_dist2(X, m$means, if (is.null(xx)) rowSums(X^2) else xx)
    L <- -0.5 * D / rep(m$var, each = nrow(X))
    logdet <- d * log(m$var)
  } else {
    P <- 1 / m$var # K x d precisions
    Pm <- P * m$means
    mm <- rowSums(Pm * m$means)
    L <- matrix(0, nrow(X), K)
    for (i0 in seq(1L, nrow(X), by = mixture_block)) {
      i <- i0:min(nrow(X), i0 + mixture_block - 1L)
      Xi <- X[i, , drop = FALSE]
      q <- tcrossprod(Xi^2, P) - 2 * tcrossprod(Xi, Pm) +
        rep(mm, each = length(i))
      L[i, ] <- -0.5 * pmax(q, 0)
    }
    logdet <- rowSums(log(m$var))
  }
  L + rep(log(m$weights) - 0.5 * (d * log(2 * pi) + logdet), each = nrow(X))
}

#' The mixture's log-density at the rows of X.
#' @noRd
mixture_logdens <- function(m, X) log_sum_exp(mixture_comp_logdens(m, X))

#' EM for a Gaussian mixture of `form` ("spherical", "diagonal") on the
#' rows of X from the centres C: responsibilities of the hard assignment
#' to the nearest centre, then M-step, E-step, ... until the mean
#' log-likelihood per row changes by less than `tol` (relative) or after
#' `maxit` E-steps. Variances are at least `floor_var` (per column; the
#' spherical form floors at its mean). Returns list(form, weights, means
#' (K x d), var (K numbers, or K x d), loglik (mean per row), iterations).
#' @noRd
mixture_em <- function(X, C, form, floor_var, maxit = 100L, tol = 1e-7) {
  n <- nrow(X)
  xx <- rowSums(X^2)
  X2 <- if (form == "diagonal") X^2
  D <- mixture_dist2(X, C, xx)
  R <- matrix(0, n, nrow(C))
  R[cbind(seq_len(n), max.col(-D, ties.method = "first"))] <- 1
  rm(D)
  ll_old <- -Inf
  it <- 0L
  repeat {
    m <- mixture_mstep(X, R, form, floor_var, xx, X2)
    R <- R[, m$keep, drop = FALSE]
    L <- mixture_comp_logdens(m, X, xx)
    lse <- log_sum_exp(L)
    ll <- mean(lse)
    it <- it + 1L
    R <- exp(L - lse)
    rm(L)
    if (it >= maxit || abs(ll - ll_old) <= tol * max(1, abs(ll))) break
    ll_old <- ll
  }
  # the parameters of the last M-step, with the log-likelihood they give
  m$keep <- NULL
  c(m, list(loglik = ll, iterations = it))
}

#' M-step from responsibilities R (n x K): weights N_k / n, means, and
#' variances sum_i r_ik (x_i - mu_k)^2 / N_k (per column for the diagonal
#' form, the mean over columns for the spherical one) from the moments of
#' the rows, floored. Components with N_k < 1 are dropped (`keep`: the
#' columns of R kept).
#' @noRd
mixture_mstep <- function(X, R, form, floor_var, xx, X2 = NULL) {
  Nk <- colSums(R)
  keep <- which(Nk >= 1)
  if (!length(keep)) keep <- which.max(Nk)
  R <- R[, keep, drop = FALSE]
  Nk <- Nk[keep]
  M <- crossprod(R, X) / Nk
  if (form == "spherical") {
    v <- (drop(crossprod(R, xx)) / Nk - rowSums(M^2)) / ncol(X)
    v <- pmax(v, mean(floor_var))
  } else {
    v <- crossprod(R, X2) / Nk - M^2
    v <- pmax(v, rep(floor_var, each = nrow(v)))
  }
  list(form = form, weights = Nk / sum(Nk), means = M, var = v, keep = keep)
}

#' The family's scoring function: log q(z) - log p(z) of the mixtures mq
#' and mp (fitted in the coordinates of the map `tr`), by blocks of rows.
#' @noRd
mixture_score <- function(mp, mq, tr) {
  force(mp)
  force(mq)
  force(tr)
  function(Z, rows = NULL) {
    if (!is.double(Z)) storage.mode(Z) <- "double"
    rows <- if (is.null(rows)) seq_len(nrow(Z)) else as.integer(rows)
    out <- numeric(length(rows))
    for (i0 in seq(1L, length(rows), by = mixture_block)) {
      i <- i0:min(length(rows), i0 + mixture_block - 1L)
      z <- mixture_rows(Z, rows[i], tr)
      out[i] <- mixture_logdens(mq, z) - mixture_logdens(mp, z)
    }
    out
  }
}
