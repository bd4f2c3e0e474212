# Low-rank components for the mixture family (R/family-mixture.R, form
# "lowrank"; SPEC.md section 7). Embeddings' classes are seldom spherical:
# a few directions of large spread on top of a diffuse rest. In the columns
# divided by a common scale s (the per-column standard deviations of the
# rows fitted, a diagonal map whose Jacobian is the same for both sets), a
# component's covariance is probabilistic PCA's, sigma_k^2 I + U_k diag(l_k
# - sigma_k^2) U_k', U_k d x q orthonormal, l_k >= sigma_k^2: low rank plus
# a diagonal common to the components (Tipping and Bishop 1999, Mixtures of
# probabilistic principal component analyzers, Neural Computation 11(2),
# 443-482, doi:10.1162/089976699300016728, section 3; the maximum
# likelihood of one component, their eq. 7-8 of J. R. Statist. Soc. B
# 61(3), 611-622, doi:10.1111/1467-9868.00196: U the top q eigenvectors of
# the weighted covariance S_k, l their eigenvalues, sigma^2 the mean of the
# other d - q). Its log-density needs only the squared distances to the
# centres (src/mixture.c, as the spherical form's) and the projections
# U_k'(x - mu_k), one product of the rows with every component's basis:
#   (x - mu)' C^-1 (x - mu) = ||x - mu||^2 / sigma^2
#                             - sum_j (1 / sigma^2 - 1 / l_j) (u_j'(x - mu))^2,
#   log |C| = (d - q) log sigma^2 + sum_j log l_j.
# The M-step never forms S_k: the E-step sums S_k U_k (d x q) under the
# current basis, and the basis takes one step of subspace iteration, U <-
# the left singular vectors A of S_k U_k, with l = diag(A' S_k U U' A) (the
# eigenvalues of S_k at the fixed point, where A spans U's columns) and
# sigma^2 = (tr S_k - sum l) / (d - q), floored. With tied means (the
# family's default) the basis is tied too, from both sets' pooled S_k U_k,
# and each set keeps its own l and sigma^2 (with one pseudo-row at the
# pooled values, as the spherical form's variances): a model that widens
# or narrows a class along its main directions differs from the data only
# in what each set keeps its own. The means are weighted by the spherical
# parts sigma^2 alone (an approximation of the conditional maximum).

#' The number of directions q of each low-rank component (at most d - 1).
#' @noRd
mixture_rank <- 4L

#' Power steps of the hard assignment's bases before the first M-step.
#' @noRd
lowrank_power <- 3L

#' The common per-column scale s of the rows of the matrices in `sets`:
#' their pooled standard deviations, at least sqrt(mixture_floor) times
#' the root mean variance (1 when every column is constant).
#' @noRd
lowrank_colscale <- function(sets) {
  n <- sum(vapply(sets, nrow, 1))
  m <- Reduce(`+`, lapply(sets, colSums)) / n
  v <- Reduce(`+`, lapply(sets, function(A) {
    vapply(seq_len(ncol(A)), function(j) sum(A[, j]^2), 1)
  })) / n - m^2
  v <- pmax(v, 0)
  if (!(mean(v) > 0)) return(rep(1, length(v)))
  sqrt(pmax(v, mixture_floor * mean(v)))
}

#' The rank of the low-rank form in d columns (0: the form is not
#' possible).
#' @noRd
lowrank_q <- function(d) min(mixture_rank, d - 1L)

#' The sums of the low-rank M-step from responsibilities R (n x K) of the
#' scaled rows X under centres M (K x d) and bases U (d x Kq, component
#' k's in columns (k - 1) q + 1:q): the projections P = U_k'(x - mu_k)
#' (n x Kq) and SU = sum_i r_ik (x_i - mu_k) P_ik' (d x Kq).
#' @noRd
lowrank_sums <- function(X, R, M, U, P = NULL) {
  q <- ncol(U) %/% nrow(M)
  blk <- rep(seq_len(nrow(M)), each = q)
  if (is.null(P)) P <- lowrank_proj(X, M, U)
  RP <- R[, blk, drop = FALSE] * P
  crossprod(X, RP) - t(M[blk, , drop = FALSE]) * rep(colSums(RP), each = ncol(X))
}

#' The projections U_k'(x - mu_k) of the rows of X, n x Kq.
#' @noRd
lowrank_proj <- function(X, M, U) {
  q <- ncol(U) %/% nrow(M)
  blk <- rep(seq_len(nrow(M)), each = q)
  mu <- colSums(t(M[blk, , drop = FALSE]) * U)
  X %*% U - rep(mu, each = nrow(X))
}

#' Orthonormal bases of each block of q columns of B (QR).
#' @noRd
lowrank_orth <- function(B, q) {
  for (k in seq_len(ncol(B) %/% q)) {
    cols <- (k - 1L) * q + seq_len(q)
    B[, cols] <- qr.Q(qr(B[, cols, drop = FALSE]))
  }
  B
}

#' E-step of a low-rank mixture m (as mixture_estep()'s): the rows' log
#' density and with `stats` the M-step's sums in the scaled columns, N,
#' S1 = R'X, S2 = R'||x||^2, SU (lowrank_sums()), with the basis, centres
#' and scale they were formed under. `xx`: the rows' squared norms when m's
#' scale is 1. One pass over the rows in C (src/mixture.c), by blocks of
#' rows among the engine's threads: each block divided by the scale (EM's
#' rows are scaled once, lowrank_setup(), and read in place), its
#' distances to the centres and projections on the bases (two products),
#' the log-densities of the header and the block's share of the sums.
#' @noRd
mixture_estep_lowrank <- function(m, X, stats = TRUE, xx = NULL) {
  s <- m$colscale
  if (!is.double(X)) storage.mode(X) <- "double"
  one <- all(s == 1)
  out <- .Call(ffi_mixture_estep_lowrank, X, m$means, m$basis,
               as.double(m$var), m$spikes, log(m$weights),
               if (!one) as.double(s), if (one) xx, as.integer(stats))
  if (!stats) return(list(lse = out$lse))
  c(out, list(basis = m$basis, centre = m$means, colscale = s))
}

#' EM's start for the low-rank form on the sets `sets` (one set, or both
#' with tied means) from the centres C, with the per-set floors `floors`:
#' every matrix divided by the common scale s (lowrank_colscale()), so
#' that EM runs in the scaled columns (its fits with colscale 1; s is
#' theirs after it), the rows' squared norms, and the M-step's sums of the
#' hard assignment of each set's rows to their nearest centre: the centres
#' the pooled means of their rows, each component's basis (shared by the
#' sets) from random directions (R's RNG) after `lowrank_power` steps of
#' subspace iteration on the pooled rows. Returns list(sets, xx, floors,
#' colscale = s, st (a list of the sets' sums)).
#' @noRd
lowrank_setup <- function(sets, C, floors) {
  s <- lowrank_colscale(sets)
  # (X / rep(s, each = nrow(X)), in one array)
  sets <- lapply(sets, function(X) {
    .Call(ffi_scale_shift, X, NULL, s, double(ncol(X)))
  })
  collect_between_fits(sets[[1]], if (length(sets) > 1L) sets[[2L]])
  C <- C / rep(s, each = nrow(C))
  K <- nrow(C)
  d <- ncol(C)
  q <- lowrank_q(d)
  xx <- lapply(sets, row_sq_norms)
  R <- lapply(seq_along(sets), function(j) {
    R <- matrix(0, nrow(sets[[j]]), K)
    R[cbind(seq_len(nrow(R)),
            max.col(-mixture_dist2(sets[[j]], C, xx[[j]]), "first"))] <- 1
    R
  })
  S1 <- lapply(seq_along(sets), function(j) crossprod(R[[j]], sets[[j]]))
  M <- Reduce(`+`, S1) / pmax(Reduce(`+`, lapply(R, colSums)), 1)
  su <- function(U) {
    Reduce(`+`, lapply(seq_along(sets), function(j) {
      lowrank_sums(sets[[j]], R[[j]], M, U)
    }))
  }
  U <- lowrank_orth(matrix(stats::rnorm(d * K * q), d), q)
  for (i in seq_len(lowrank_power)) U <- lowrank_orth(su(U), q)
  st <- lapply(seq_along(sets), function(j) {
    list(N = colSums(R[[j]]), S1 = S1[[j]],
         S2 = drop(crossprod(R[[j]], xx[[j]])),
         SU = lowrank_sums(sets[[j]], R[[j]], M, U), basis = U, centre = M,
         colscale = rep(1, d))
  })
  list(sets = sets, xx = xx, floors = lapply(floors, function(f) f / s^2),
       colscale = s, st = st)
}

#' One component's basis, spikes and spherical variance from T = sum_i r_i
#' (x_i - mu)(x_i - mu)' U (the scatter times the old basis U, about the new
#' mean mu) and the tied basis A (NULL: T's own), as the header says;
#' `n` the weight, `tr` the scatter's trace, `prior` NULL or list(n = 1,
#' l, tr): a pseudo-row at those values; `fl` the floor of sigma^2.
#' @noRd
lowrank_component <- function(T, U, n, tr, d, fl, A = NULL, prior = NULL) {
  q <- ncol(U)
  if (is.null(A)) A <- svd(T, nu = q, nv = 0)$u
  l <- diag(crossprod(A, T) %*% crossprod(U, A))
  if (!is.null(prior)) {
    l <- (l + prior$l) / (n + 1)
    tr <- (tr + prior$tr) / (n + 1)
  } else {
    l <- l / n
    tr <- tr / n
  }
  v <- max((tr - sum(l)) / (d - q), fl)
  list(basis = A, spikes = pmax(l, v), var = v)
}

#' The scatter about the new mean `mu` times the old basis, from a
#' component's sums (column block `cols` of SU, about `centre`): SU - N
#' delta (delta' U), delta = mu - centre; and its trace, S2 - 2 mu.S1 + N
#' ||mu||^2.
#' @noRd
lowrank_scatter <- function(st, k, cols, mu) {
  U <- st$basis[, cols, drop = FALSE]
  del <- mu - st$centre[k, ]
  list(T = st$SU[, cols, drop = FALSE] - st$N[k] * del %o% drop(del %*% U),
       tr = st$S2[k] - 2 * sum(mu * st$S1[k, ]) + st$N[k] * sum(mu^2),
       U = U)
}

#' M-step of one set's low-rank mixture from the sums `st`
#' (mixture_estep_lowrank() or mixture_hard_lowrank()); `floor_var` the
#' per-column floors in the mixture's columns (divided by the scale here).
#' Components with N_k < 1 are dropped, as mixture_mstep()'s.
#' @noRd
mixture_mstep_lowrank <- function(st, floor_var, d) {
  keep <- which(st$N >= 1)
  if (!length(keep)) keep <- which.max(st$N)
  q <- ncol(st$basis) %/% nrow(st$centre)
  fl <- mean(floor_var / st$colscale^2)
  M <- st$S1[keep, , drop = FALSE] / st$N[keep]
  comps <- lapply(seq_along(keep), function(i) {
    k <- keep[i]
    sc <- lowrank_scatter(st, k, (k - 1L) * q + seq_len(q), M[i, ])
    lowrank_component(sc$T, sc$U, st$N[k], sc$tr, d, fl)
  })
  lowrank_fit(st$N[keep], M, comps, st$colscale)
}

#' A low-rank mixture from its counts, means and components
#' (lowrank_component()'s).
#' @noRd
lowrank_fit <- function(N, M, comps, colscale) {
  list(form = "lowrank", weights = N / sum(N), means = M,
       var = vapply(comps, `[[`, 1, "var"),
       basis = do.call(cbind, lapply(comps, `[[`, "basis")),
       spikes = do.call(rbind, lapply(comps, `[[`, "spikes")),
       colscale = colscale)
}

#' The tied M-step of two low-rank mixtures (mixture_tied_mstep()'s for
#' the form "lowrank"): the means and which components stay as the
#' spherical form's (weighted by the spherical variances `V`), then per
#' component the basis from both sets' pooled scatter, and each set's
#' spikes and sigma^2 with one pseudo-row at the pooled values. Returns
#' list(fits, var).
#' @noRd
mixture_tied_mstep_lowrank <- function(st, V, floors, d) {
  s <- st[[1]]$colscale
  fl <- lapply(floors, function(f) f / s^2)
  sph <- mixture_tied_mstep(lapply(st, `[`, c("N", "S1", "S2")), V,
                            "spherical", fl, d)
  N <- st[[1]]$N + st[[2]]$N
  keep <- which(N >= 1)
  if (!length(keep)) keep <- which.max(N)
  M <- sph$fits[[1]]$means
  q <- ncol(st[[1]]$basis) %/% nrow(st[[1]]$centre)
  comps <- lapply(seq_along(keep), function(i) {
    k <- keep[i]
    cols <- (k - 1L) * q + seq_len(q)
    sc <- lapply(st, lowrank_scatter, k = k, cols = cols, mu = M[i, ])
    pool <- lowrank_component(sc[[1]]$T + sc[[2]]$T, sc[[1]]$U, N[k],
                              sc[[1]]$tr + sc[[2]]$tr, d, 0)
    pr <- list(l = pool$spikes, tr = (sc[[1]]$tr + sc[[2]]$tr) / N[k])
    lapply(1:2, function(j) {
      lowrank_component(sc[[j]]$T, sc[[j]]$U, st[[j]]$N[k], sc[[j]]$tr, d,
                        mean(fl[[j]]), A = pool$basis, prior = pr)
    })
  })
  fits <- lapply(1:2, function(j) {
    lowrank_fit(st[[j]]$N[keep], M, lapply(comps, `[[`, j), s)
  })
  list(fits = fits, var = lapply(fits, `[[`, "var"))
}
