# EM for the mixture family (R/family-mixture.R; SPEC.md section 7): the
# k-means++ seeds, the E-step (one pass over the rows in C, src/mixture.c:
# log-densities and the next M-step's sums), the M-steps, and EM for one
# set's mixture or for two sets' mixtures with tied means. A fit is a list
# (form, weights, means K x d, var: K variances or K x d, loglik,
# iterations); the low-rank form's also has basis, spikes and colscale,
# and its E-step, M-steps and start are in R/family-mixture-lowrank.R.

#' Greedy k-means++ seeds (Arthur and Vassilvitskii 2007; the greedy
#' variant of scikit-learn's k-means, 2 + floor(log K) trials a step): K
#' rows of X, the first uniform, each next the best (smallest sum of
#' squared distances to the nearest seed) of the trials drawn with
#' probability proportional to the squared distance to the nearest seed
#' so far (R's RNG). Fewer distinct rows than K: those rows. `xx` the
#' rows' squared norms (a caller seeding several fits of X forms them once).
#' X may be a list of matrices, seeded as their rows stacked in order (the
#' same seeds as rbind() of them, without that copy; `xx` then a list of
#' their norms).
#' @noRd
mixture_kmeanspp <- function(X, K, xx = NULL) {
  parts <- if (is.list(X)) X else list(X)
  if (is.null(xx)) xx <- lapply(parts, row_sq_norms)
  if (!is.list(xx)) xx <- list(xx)
  off <- cumsum(c(0L, vapply(parts, nrow, 1L)))
  n <- off[length(off)]
  # (the rows i of the stacked parts)
  pick <- function(i) {
    if (length(parts) == 1L) return(parts[[1L]][i, , drop = FALSE])
    out <- matrix(0, length(i), ncol(parts[[1L]]))
    for (p in seq_along(parts)) {
      w <- which(i > off[p] & i <= off[p + 1L])
      if (length(w)) out[w, ] <- parts[[p]][i[w] - off[p], , drop = FALSE]
    }
    out
  }
  dist2 <- function(C) {
    do.call(rbind, Map(function(A, a) mixture_dist2(A, C, a), parts, xx))
  }
  K <- min(K, n)
  trials <- 2L + floor(log(K))
  idx <- integer(K)
  idx[1] <- sample.int(n, 1L)
  d2 <- dist2(pick(idx[1]))[, 1]
  for (k in seq_len(K)[-1L]) {
    if (!(sum(d2) > 0)) return(pick(idx[seq_len(k - 1L)]))
    cand <- sample.int(n, trials, replace = TRUE, prob = d2)
    D <- pmin(dist2(pick(cand)), d2)
    best <- which.min(colSums(D))
    idx[k] <- cand[best]
    d2 <- D[, best]
  }
  pick(idx)
}

#' Squared distances ||x||^2 + ||c||^2 - 2 x.c (clamped at 0) of the rows
#' of X to the rows of C (src/mixture.c: one dgemm per block of rows);
#' `xx` the rows' squared norms, rowSums(X^2), when known.
#' @noRd
mixture_dist2 <- function(X, C, xx = NULL) .Call(ffi_mixture_dist2, X, C, xx)

#' One pass over the rows of X (src/mixture.c): each row's log-density
#' under the mixture m, log sum_k w_k N(x; mu_k, Sigma_k) (`lse`), and
#' with `stats` the sums of the next M-step over the responsibilities r_ik
#' (the posterior of the components): N_k = sum_i r_ik, S1 = R'X (K x d),
#' S2 = R'||x||^2 (spherical) or R'X^2 (diagonal, K x d). Spherical
#' components: log N = -(d log(2 pi sigma_k^2) + ||x - mu_k||^2 /
#' sigma_k^2) / 2, the squared distance ||x||^2 - 2 x.mu_k + ||mu_k||^2;
#' diagonal: the same with the coordinates scaled by 1 / s_kj, sum_j
#' x_j^2 / s_kj - 2 sum_j x_j mu_kj / s_kj + sum_j mu_kj^2 / s_kj (two
#' products per block); each clamped at 0.
#' @noRd
mixture_estep <- function(m, X, stats = TRUE) {
  if (m$form == "lowrank") return(mixture_estep_lowrank(m, X, stats))
  .Call(ffi_mixture_estep, X, m$means, as.double(m$var), log(m$weights),
        as.integer(c(mixture_forms[[m$form]], 0, stats)))
}

#' The M-step sums of the hard assignment of the rows of X to their
#' nearest row of C (the first at a tie), as mixture_estep()'s, for the
#' covariance `form`.
#' @noRd
mixture_hard <- function(X, C, form) {
  .Call(ffi_mixture_estep, X, C, 0, numeric(nrow(C)),
        as.integer(c(mixture_forms[[form]], 1, 1)))
}

#' The mixture's log-density at the rows of X (a matrix, or a list of
#' matrices: their rows in order).
#' @noRd
mixture_logdens <- function(m, X) {
  if (is.list(X)) {
    return(unlist(lapply(X, function(A) mixture_logdens(m, A)),
                  use.names = FALSE))
  }
  mixture_estep(m, X, stats = FALSE)$lse
}

#' EM for a Gaussian mixture of `form` ("spherical", "diagonal",
#' "lowrank": in the columns divided by lowrank_colscale()) on the
#' rows of X from the centres C: responsibilities of the hard assignment
#' to the nearest centre, then M-step, E-step, ... until the mean
#' log-likelihood per row changes by less than `tol` (relative) or after
#' `maxit` E-steps. Variances are at least `floor_var` (per column; the
#' spherical form floors at its mean). Returns list(form, weights, means (K x
#' d), var (K numbers, or K x d), loglik (mean per row), iterations).
#' @noRd
mixture_em <- function(X, C, form, floor_var, maxit = 100L, tol = 1e-6) {
  lr <- NULL
  if (form == "lowrank") {
    # (EM in the scaled columns, the rows' squared norms kept)
    lr <- lowrank_setup(list(X), C, list(floor_var))
    X <- lr$sets[[1]]
    floor_var <- lr$floors[[1]]
    st <- lr$st[[1]]
  } else {
    st <- mixture_hard(X, C, form)
  }
  ll_old <- -Inf
  it <- 0L
  repeat {
    collect_between_fits(X, NULL)
    m <- mixture_mstep(st, form, floor_var, ncol(X))
    st <- if (is.null(lr)) mixture_estep(m, X) else
      mixture_estep_lowrank(m, X, xx = lr$xx[[1]])
    ll <- mean(st$lse)
    it <- it + 1L
    if (it >= maxit || abs(ll - ll_old) <= tol * max(1, abs(ll))) break
    ll_old <- ll
  }
  # the parameters of the last M-step, with the log-likelihood they give
  if (!is.null(lr)) {
    m$colscale <- lr$colscale
    ll <- ll - sum(log(lr$colscale))
  }
  c(m, list(loglik = ll, iterations = it))
}

#' M-step from the sums `st` of mixture_estep() or mixture_hard(): weights
#' N_k / n, means S1 / N_k, and variances sum_i r_ik (x_i - mu_k)^2 / N_k
#' (per column for the diagonal form, the mean over the d columns for the
#' spherical one), floored. Components with N_k < 1 are dropped (all but
#' the largest when every one has).
#' @noRd
mixture_mstep <- function(st, form, floor_var, d) {
  if (form == "lowrank") return(mixture_mstep_lowrank(st, floor_var, d))
  Nk <- st$N
  keep <- which(Nk >= 1)
  if (!length(keep)) keep <- which.max(Nk)
  Nk <- Nk[keep]
  M <- st$S1[keep, , drop = FALSE] / Nk
  if (form == "spherical") {
    v <- (st$S2[keep] / Nk - rowSums(M^2)) / d
    v <- pmax(v, mean(floor_var))
  } else {
    v <- st$S2[keep, , drop = FALSE] / Nk - M^2
    v <- pmax(v, rep(floor_var, each = nrow(v)))
  }
  list(form = form, weights = Nk / sum(Nk), means = M, var = v)
}

#' EM for two Gaussian mixtures with tied means (one set of centres for
#' both sets X and Y, each set its own weights and variances), from the
#' centres C: each set's rows assigned to the nearest centre, then an
#' expectation-conditional maximisation (Meng and Rubin 1993) of the sum of
#' both sets' log-likelihoods: the means given the variances, mu_k = sum_j
#' (S_jk / v_jk) / sum_j (N_jk / v_jk) (first step: the pooled means), then
#' each set's variances given the means, with one pseudo-row at the pooled
#' variance of the component, v_jk = (SS_jk + d v_k) / (d (N_jk + 1))
#' (spherical; per column for the diagonal form), so that a component a set
#' hardly uses (a dropped class) keeps a finite spread; floored as in
#' mixture_mstep(). Components with less than one row's weight in both
#' sets together are dropped. Returns a list of the two mixtures (as
#' mixture_em()'s, with the same means).
#' @noRd
mixture_em_tied <- function(X, Y, C, form, floors, maxit = 100L, tol = 1e-6) {
  sets <- list(X, Y)
  n <- nrow(X) + nrow(Y)
  lr <- NULL
  if (form == "lowrank") {
    lr <- lowrank_setup(sets, C, floors)
    sets <- lr$sets
    floors <- lr$floors
    st <- lr$st
  } else {
    st <- lapply(sets, mixture_hard, C = C, form = form)
  }
  V <- NULL
  ll_old <- -Inf
  it <- 0L
  repeat {
    collect_between_fits(X, Y)
    m <- mixture_tied_mstep(st, V, form, floors, ncol(X))
    V <- m$var
    ll <- 0
    for (j in 1:2) {
      st[[j]] <- if (is.null(lr)) mixture_estep(m$fits[[j]], sets[[j]]) else
        mixture_estep_lowrank(m$fits[[j]], sets[[j]], xx = lr$xx[[j]])
      ll <- ll + sum(st[[j]]$lse)
    }
    ll <- ll / n
    it <- it + 1L
    if (it >= maxit || abs(ll - ll_old) <= tol * max(1, abs(ll))) break
    ll_old <- ll
  }
  if (!is.null(lr)) {
    m$fits <- lapply(m$fits, function(f) {
      f$colscale <- lr$colscale
      f
    })
    ll <- ll - sum(log(lr$colscale))
  }
  lapply(m$fits, function(f) c(f, list(loglik = ll, iterations = it)))
}

#' The M-step of mixture_em_tied() from both sets' E-step sums `st` (a
#' list of two, as mixture_estep()'s) and the variances `V` of the step
#' before (a list of two; NULL: the first step, pooled means): components
#' with less than one row's weight in both sets together dropped, the
#' means given V, then each set's variances given the means, with one
#' pseudo-row at the pooled variance, floored at `floors`. Returns
#' list(fits = the two mixtures, var = their variances).
#' @noRd
mixture_tied_mstep <- function(st, V, form, floors, d) {
  if (form == "lowrank") return(mixture_tied_mstep_lowrank(st, V, floors, d))
  N <- lapply(st, `[[`, "N")
  keep <- which(N[[1]] + N[[2]] >= 1)
  if (!length(keep)) keep <- which.max(N[[1]] + N[[2]])
  N <- lapply(N, `[`, keep)
  S1 <- lapply(st, function(s) s$S1[keep, , drop = FALSE])
  S2 <- lapply(st, function(s) {
    if (form == "spherical") s$S2[keep] else s$S2[keep, , drop = FALSE]
  })
  if (is.null(V)) {
    M <- (S1[[1]] + S1[[2]]) / (N[[1]] + N[[2]])
  } else {
    V <- lapply(V, function(v) if (form == "spherical") v[keep] else
      v[keep, , drop = FALSE])
    M <- (S1[[1]] / V[[1]] + S1[[2]] / V[[2]]) /
      (N[[1]] / V[[1]] + N[[2]] / V[[2]])
  }
  # sum_i r_ik (x_i - mu_k)^2 of each set (summed over the columns for the
  # spherical form)
  SS <- lapply(1:2, function(j) {
    if (form == "spherical") {
      S2[[j]] - 2 * rowSums(M * S1[[j]]) + N[[j]] * rowSums(M^2)
    } else {
      S2[[j]] - 2 * M * S1[[j]] + N[[j]] * M^2
    }
  })
  dd <- if (form == "spherical") d else 1
  vpool <- (SS[[1]] + SS[[2]]) / (dd * (N[[1]] + N[[2]]))
  V <- lapply(1:2, function(j) {
    v <- (SS[[j]] + dd * vpool) / (dd * (N[[j]] + 1))
    if (form == "spherical") pmax(v, mean(floors[[j]])) else
      pmax(v, rep(floors[[j]], each = nrow(v)))
  })
  fits <- lapply(1:2, function(j) {
    list(form = form, weights = N[[j]] / sum(N[[j]]), means = M, var = V[[j]])
  })
  list(fits = fits, var = V)
}
