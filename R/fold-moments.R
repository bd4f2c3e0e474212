# The fold moments of the cross-fitted families (R/crossfit.R): each cell's
# moments about one centre per set formed once (src/moments.c), a fold's
# covariance the total less its own cell's, and the linear discriminants of
# every fold in one preconditioned conjugate-gradient solve.

#' The moments of one set's cells (a list of disjoint row vectors of X)
#' about g, the mean of all their rows: each cell cut into two random
#' halves (inner_halves(), R's RNG), and for
#' each half of each cell its rows' count n, sum s, sums of |c|^2, |c|^4
#' and |c|^2 c (c = x - g), and over all cells the totals M[[h]] = C_h' C_h
#' of each half h and, with `total`, M[[3]] = M[[1]] + M[[2]] (the stacked
#' family alone reads only the halves'); each total is the product of
#' the half's rows of cell 1 (the fit rows) plus that of its rows in the
#' other cells (ffi_cell_moments(), from blocks of the centred rows: no
#' copy of them), and Mf[[h]], the fit rows' own C' C in half h (absent where the half has no fit rows), is
#' kept for the shrinkage of fold_discriminants() (fitted_scores() drops
#' it once fit_norms() has read it). A cell's own C' C is formed again when its
#' fold is left out (cell_cross()), so memory holds five d x d totals per
#' set (four without `total`), not one per cell.
#' @noRd
fold_moments <- function(X, cells, total = TRUE) {
  d <- ncol(X)
  # (on the rows' span, span_sets(): the shrinkage reads the rows' own d)
  ambient <- attr(X, "ambient_dim")
  if (is.null(ambient)) ambient <- d
  g <- .Call(ffi_col_means, X, unlist(cells, use.names = FALSE))
  halves <- lapply(cells, inner_halves)
  M <- list()
  Mf <- list()
  st <- lapply(halves, function(hh) vector("list", 2L))
  for (h in 1:2) {
    rows <- lapply(halves, `[[`, h)
    # part 1: the fit rows (cell 1); part 2: the other cells
    for (part in 1:2) {
      ids <- if (part == 1L) 1L else seq_along(rows)[-1L]
      r <- unlist(rows[ids], use.names = FALSE)
      if (!length(r)) {
        for (v in ids) {
          st[[v]][[h]] <- list(n = 0L, s = numeric(d), q1 = 0, q2 = 0,
                               qv = numeric(d))
        }
        next
      }
      cell <- rep.int(seq_along(ids), lengths(rows[ids]))
      # C' C added to the part before (the fit rows'), and the cells' sums,
      # from blocks of the centred rows C (ffi_cell_moments(): no copy)
      cm <- .Call(ffi_cell_moments, X, g, r, cell, length(ids),
                  if (length(M) >= h) M[[h]], moments_single())
      if (part == 1L) Mf[[h]] <- cm$M
      M[[h]] <- cm$M
      q <- cm$q
      s <- cm$s
      qv <- cm$qv
      rm(cm)
      for (k in seq_along(ids)) {
        st[[ids[k]]][[h]] <- list(n = lengths(rows)[[ids[k]]], s = s[, k],
                                  q1 = sum(q[cell == k]),
                                  q2 = sum(q[cell == k]^2), qv = qv[, k])
      }
    }
    if (length(M) < h) M[[h]] <- matrix(0, d, d)
  }
  if (total) M[[3]] <- M[[1]] + M[[2]]
  list(g = g, d = d, ambient = ambient, halves = halves, st = st, M = M,
       Mf = Mf)
}

#' C' C of cell `v`'s halves `hs` (its rows centred on the set's g)
#' @noRd
cell_cross <- function(X, mom, v, hs) {
  r <- unlist(mom$halves[[v]][hs], use.names = FALSE)
  if (!length(r)) return(matrix(0, mom$d, mom$d))
  .Call(ffi_cell_moments, X, mom$g, r, rep.int(1L, length(r)), 1L, NULL,
        moments_single())$M
}

#' The `single` argument of ffi_cell_moments(): NA (single precision from
#' 256 columns) unless the tests' knob asks for double
#' @noRd
moments_single <- function() if (isTRUE(engine_knobs$single_moments)) NA else FALSE

#' The covariance moments of one set's rows in every cell but `v` and in
#' the halves `hs` (1, 2 or both), given Mv = cell v's C' C in those
#' halves: count n, mean (in X's coordinates), covariance S (divided by
#' n), trace / n, and r4 = sum of |x - mean|^4, as cov_parts() forms them
#' from the rows.
#' @noRd
fold_stats <- function(mom, v, hs, Mv) {
  moment_stats(mom, setdiff(seq_along(mom$st), v), hs,
               mom$M[[if (length(hs) == 2L) 3L else hs]], Mv)
}

#' The moments of the rows of the cells `keep` in the halves `hs`, whose
#' C' C (about mom$g) is M - Mv (Mv NULL: M): see fold_stats()
#' @noRd
moment_stats <- function(mom, keep, hs, M, Mv) {
  a <- moment_sums(mom, keep, hs)
  cv <- .Call(ffi_fold_cov, M, Mv, as.double(a$n), a$m)
  moment_summary(mom, a, cv$S, cv$Mm)
}

#' The sums of moment_stats() over the cells `keep` and the halves `hs`
#' (count n, sums s, q1, q2, qv) and the rows' mean about g, m = s / n
#' @noRd
moment_sums <- function(mom, keep, hs) {
  add <- function(field) cell_sum(mom, keep, hs, field)
  n <- add("n")
  s <- add("s")
  list(n = n, s = s, q1 = add("q1"), q2 = add("q2"), qv = add("qv"),
       m = s / n)
}

#' moment_stats() from moment_sums() `a`, the covariance S (or NULL) and
#' Mm = (C' C) m
#' @noRd
moment_summary <- function(mom, a, S, Mm) {
  m <- a$m
  kap <- sum(m^2)
  # sum_i (|c_i|^2 - 2 c_i'm + |m|^2)^2 over the rows c_i (about g)
  r4 <- a$q2 - 4 * sum(a$qv * m) + 2 * kap * a$q1 + 4 * sum(m * Mm) -
    4 * kap * sum(a$s * m) + a$n * kap^2
  list(n = a$n, mean = mom$g + m, S = S, tr = a$q1 / a$n - kap,
       r4 = max(0, r4))
}

#' The sum of one of fold_moments()' per-cell statistics (`field`: n, s,
#' q1, q2, qv) over the cells `keep` and the halves `hs`
#' @noRd
cell_sum <- function(mom, keep, hs, field) {
  Reduce(`+`, lapply(keep, function(c) {
    Reduce(`+`, lapply(hs, function(h) mom$st[[c]][[h]][[field]]))
  }))
}

#' The count, the mean about the set's centre g (m) and the trace of the
#' covariance of one set's rows in every cell but `v` and in the halves
#' `hs`: fold_stats() without its d x d work
#' @noRd
fold_counts <- function(mom, v, hs = 1:2) {
  keep <- setdiff(seq_along(mom$st), v)
  n <- cell_sum(mom, keep, hs, "n")
  m <- cell_sum(mom, keep, hs, "s") / n
  list(n = n, m = m, tr = cell_sum(mom, keep, hs, "q1") / n - sum(m^2))
}

#' cov_parts() (primal form) from two sets' fold_stats(); `d` the rows'
#' dimension (fold_moments()' `ambient`: on the rows' span, that of the
#' rows themselves, as cov_parts() reads it)
#' @noRd
moment_parts <- function(a, b, d = nrow(a$S)) {
  list(nx = a$n, ny = b$n, d = d, mx = a$mean, my = b$mean,
       dual = FALSE, G = NULL, Sx = a$S, Sy = b$S,
       ff = stats::setNames(.Call(ffi_frob3, a$S, b$S), c("xx", "yy", "xy")),
       tr = c(x = a$tr, y = b$tr), r4 = c(x = a$r4, y = b$r4))
}

#' The fit rows' (cell 1's) statistics that predict the folds' squared
#' Frobenius norms in fold_discriminants(), from the rows of the halves
#' `hs` of both sets' fold moments: each set's per-row dispersion e = r4 /
#' n - ||S||^2, big = ||S||^2 - e / n (an estimate of ||Sigma||^2), and
#' f3 = (||S_X||^2, ||S_Y||^2, <S_X, S_Y>)
#' @noRd
fit_norms <- function(mom, hs = 1:2) {
  # the norms of the fit rows' covariances without forming them
  # (ffi_cov_norms(): the same values as ffi_frob3() of moment_stats()' S)
  a <- lapply(mom, moment_sums, keep = 1L, hs = hs)
  Mf <- lapply(mom, function(m) m$Mf[hs])
  cn <- .Call(ffi_cov_norms, Mf[[1]][[1]], if (length(hs) == 2L) Mf[[1]][[2]],
              as.double(a[[1]]$n), a[[1]]$m, Mf[[2]][[1]],
              if (length(hs) == 2L) Mf[[2]][[2]], as.double(a[[2]]$n),
              a[[2]]$m)
  fs <- lapply(1:2, function(j) moment_summary(mom[[j]], a[[j]], NULL,
                                               cn[[j + 1L]]))
  f3 <- cn$f3
  e <- vapply(1:2, function(j) max(0, fs[[j]]$r4 / fs[[j]]$n - f3[[j]]), 0)
  big <- vapply(1:2, function(j) max(0, f3[[j]] - e[[j]] / fs[[j]]$n), 0)
  list(e = e, big = big, f3 = f3)
}

#' The linear discriminants of every fold from the fold moments, without
#' a d x d covariance per fold (SPEC.md section 7, `folds`): the linear
#' family's (halves `hs` = 1:2) and the stacked family's inner ones (`hs` =
#' 1 or 2, the rows of those halves of the cells). Fold v's discriminant
#' solves Sigma_v w = mu_Y,v - mu_X,v with Sigma_v = (1 - rho_v) (a S_X,v +
#' b S_Y,v) + rho_v m_v I, S_k,v the covariance of set k's rows in every
#' cell but v: (M_k - C_k,v' C_k,v) / n_k,v - u u' about the set's centre.
#' The shrinkage rho_v is the Ledoit-Wolf intensity of that covariance with
#' its squared Frobenius norms predicted from the fit rows (cell 1, never
#' scored): each set's per-row dispersion e_k = r4 / n - ||S_k||^2 and
#' ||Sigma_k||^2 = ||S_k||^2 - e_k / n, so that ||S_k,v||^2 =
#' ||Sigma_k||^2 + e_k / n_k,v and the noise is e_k / n_k,v (the exact
#' norms would need every fold's own C' C, as much work as the fits); the
#' traces and counts are the fold's own. The K systems are solved together
#' by conjugate gradients, preconditioned by the Cholesky factor of the
#' blend of all the rows' C' C (each fold differs from it by about 1 / K of
#' the rows, so a few tens of iterations reach a relative residual of
#' `tol`); a fold that does not converge in `max_iter` is solved directly.
#' `norms`: fit_norms(mom, hs), or NULL to form them here (from mom's Mf).
#' @return list(w, mx, my = d x K matrices of the discriminants and the
#'   means of both sets, centre = (mx + my) / 2, rho = the K intensities,
#'   iterations = the conjugate-gradient steps taken,
#'   scores = with `score`, a list per fold of the scores (z - centre)' w of
#'   its rows of each set, list(real, gen))
#' @noRd
fold_discriminants <- function(real, generated, mom, cells, hs = 1:2,
                               score = FALSE, norms = NULL, tol = 1e-11,
                               max_iter = 200L, call = rlang::caller_env()) {
  K <- length(cells[[1]]) - 1L
  d <- mom[[1]]$d
  X <- list(real, generated)
  Mt <- lapply(mom, function(m) m$M[[if (length(hs) == 2L) 3L else hs]])
  nf <- if (is.null(norms)) fit_norms(mom, hs) else norms
  e <- nf$e
  big <- nf$big
  f3 <- nf$f3
  fold <- lapply(seq_len(K), function(v) {
    f <- lapply(mom, fold_counts, v = v + 1L, hs = hs)
    n <- c(f[[1]]$n, f[[2]]$n)
    a <- n / sum(n)
    p <- list(d = mom[[1]]$ambient, tr = c(x = f[[1]]$tr, y = f[[2]]$tr),
              ff = c(xx = big[[1]] + e[[1]] / n[[1]],
                     yy = big[[2]] + e[[2]] / n[[2]], xy = f3[[3]]))
    lw <- lw_intensity(p, a[[1]], a[[2]], noise = sum(a^2 * e / n))
    coef <- (1 - lw$rho) * a
    list(n = n, p = p, coef = coef, c = lw$rho * lw$m,
         ridge = cov_ridge(p, coef[[1]], coef[[2]], lw$rho * lw$m),
         rho = lw$rho, u = list(f[[1]]$m, f[[2]]$m))
  })
  col <- function(field, j) vapply(fold, function(f) f[[field]][[j]], 0)
  scale <- lapply(1:2, function(j) col("coef", j) / col("n", j))
  ridge <- vapply(fold, `[[`, 0, "ridge")
  U <- lapply(1:2, function(j) {
    matrix(unlist(lapply(fold, function(f) f$u[[j]])), d, K)
  })
  Ucoef <- lapply(1:2, function(j) U[[j]] * rep(col("coef", j), each = d))
  # each set's rows of the folds' cells (in the halves hs), centred on its
  # centre, and the fold of each
  rows <- lapply(1:2, function(j) {
    if (length(hs) == 2L) return(cells[[j]][-1L]) # in the cells' order
    lapply(mom[[j]]$halves[-1L], `[[`, hs)
  })
  # (one row per column: each row's values contiguous for ffi_fold_sigma())
  Et <- lapply(1:2, function(j) {
    .Call(ffi_centre_t, X[[j]], mom[[j]]$g,
          as.integer(unlist(rows[[j]], use.names = FALSE)))
  })
  at <- lapply(1:2, function(j) {
    cbind(seq_len(ncol(Et[[j]])), rep.int(seq_len(K), lengths(rows[[j]])))
  })
  # Sigma_v applied to column v of D, for every fold at once
  sigma <- function(D) {
    out <- D * rep(ridge, each = d)
    for (j in 1:2) {
      # Mt D - the folds' own C_v' C_v D_v (ffi_fold_sigma())
      G <- .Call(ffi_fold_sigma, Mt[[j]], Et[[j]], at[[j]][, 2L], D)
      out <- out + G * rep(scale[[j]], each = d) -
        Ucoef[[j]] * rep(colSums(U[[j]] * D), each = d)
    }
    out
  }
  R <- .Call(ffi_cov_factor, Mt[[1]], Mt[[2]], mean(scale[[1]]),
             mean(scale[[2]]), mean(ridge))
  if (is.null(R)) cov_fail(call)
  # (R'R)^-1 V, V's columns among the engine's threads
  precond <- function(V) .Call(ffi_chol_solve, R, V)
  mx <- mom[[1]]$g + U[[1]]
  my <- mom[[2]]$g + U[[2]]
  B <- my - mx
  bn <- sqrt(colSums(B^2))
  W <- matrix(0, d, K)
  Rr <- B
  Z <- precond(Rr)
  P <- Z
  rz <- colSums(Rr * Z)
  live <- bn > 0
  iter <- 0L
  # each step's products (d x d by d x K: memory bound) are made by the
  # engine's threads, each calling the BLAS on its own part with OpenBLAS
  # at one thread (ffi_fold_sigma(), ffi_chol_solve())
  while (any(live) && iter < max_iter) {
    iter <- iter + 1L
    SP <- sigma(P)
    alpha <- ifelse(live, rz / colSums(P * SP), 0)
    W <- W + P * rep(alpha, each = d)
    Rr <- Rr - SP * rep(alpha, each = d)
    live <- live & sqrt(colSums(Rr^2)) > tol * bn
    if (!any(live)) break
    Z <- precond(Rr)
    rzn <- colSums(Rr * Z)
    P <- Z + P * rep(ifelse(live, rzn / rz, 0), each = d)
    rz <- ifelse(live, rzn, 1)
  }
  rm(R, P, Z, Rr)
  # a fold whose iterations did not converge: solved directly, its
  # covariances formed from the moments (cov_solver())
  for (v in which(live | !is.finite(colSums(W)))) {
    fv <- fold[[v]]
    S <- lapply(1:2, function(j) {
      Mv <- cell_cross(X[[j]], mom[[j]], v + 1L, hs)
      .Call(ffi_fold_cov, Mt[[j]], Mv, as.double(fv$n[[j]]), fv$u[[j]])$S
    })
    sol <- cov_solver(c(fv$p, list(dual = FALSE, Sx = S[[1]], Sy = S[[2]])),
                      fv$coef[[1]], fv$coef[[2]], fv$c, call = call)
    rm(S)
    W[, v] <- sol$solve(B[, v])
    rm(sol)
  }
  centre <- (mx + my) / 2
  out <- list(w = W, mx = mx, my = my, centre = centre,
              rho = vapply(fold, `[[`, 0, "rho"), iterations = iter)
  if (score) {
    # the scores (z - centre_v)' w_v = (z - g)' w_v - (centre_v - g)' w_v
    # of every fold's rows from one product of each set's centred rows
    sc <- lapply(1:2, function(j) {
      off <- colSums((centre - mom[[j]]$g) * W)
      t <- crossprod(Et[[j]], W)
      split(t[at[[j]]] - off[at[[j]][, 2L]], factor(at[[j]][, 2L], seq_len(K)))
    })
    out$scores <- lapply(seq_len(K), function(v) {
      list(real = sc[[1]][[v]], gen = sc[[2]][[v]])
    })
  }
  out
}
