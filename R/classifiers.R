# The Gaussian fitted families of prd_curve() (SPEC.md section 7): a linear
# discriminant with a Ledoit-Wolf shrunk pooled covariance and a
# regularised quadratic discriminant (Friedman 1989). Every fitted family
# (these, R/family-*.R) gives each evaluation row a score, high =
# "generated" (an estimate of log q/p up to a constant), which feeds the
# same envelope as the neighbour families (curve_from_scores()).
#
# Covariances are kept as a S_X + b S_Y + c I, S_k = A_k' A_k / n_k with A_k
# the fit rows of set k centred on their own mean. Every Frobenius norm the
# shrinkage needs is a combination of ||S_X||^2, ||S_Y||^2, <S_X, S_Y> and
# the traces, so the shrinkage is closed form. Solves go through chol() of
# the d x d matrix (d <= n fit rows), or of the n x n Gram matrix by the
# Woodbury identity (d > n), so memory and time stay O(min(n, d)^2) and
# O(n d min(n, d)).

# (the families' names and what each declares: R/families.R)

#' Centred fit rows of both sets and the second moments the shrinkage
#' needs: the rows `rx` of Xf and `ry` of Yf (NULL: every row), read in
#' place (the means are colMeans() of those rows, the centred rows the
#' doubles of Xf[rx, ] - rep(mx, each = nx), without copies of the rows;
#' in the dual form both sets' centred rows in one matrix, A). On the
#' rows' coordinates in their span (span_sets(): attribute `ambient_dim`)
#' d is that of the rows themselves, and the form dual.
#' @noRd
cov_parts <- function(Xf, Yf, rx = NULL, ry = NULL) {
  if (!is.double(Xf)) storage.mode(Xf) <- "double"
  if (!is.double(Yf)) storage.mode(Yf) <- "double"
  d <- attr(Xf, "ambient_dim")
  if (is.null(d)) d <- ncol(Xf)
  centred <- function(X, rows) {
    rows <- if (is.null(rows)) seq_len(nrow(X)) else as.integer(rows)
    m <- .Call(ffi_col_means, X, rows)
    list(m = m, A = .Call(ffi_centre, X, m, rows))
  }
  cx <- centred(Xf, rx)
  cy <- centred(Yf, ry)
  rm(Xf, Yf)
  mx <- cx$m
  my <- cy$m
  Ax <- cx$A
  Ay <- cy$A
  rm(cx, cy)
  nx <- nrow(Ax)
  ny <- nrow(Ay)
  dual <- d > nx + ny
  if (dual) {
    Gxx <- tcrossprod(Ax)
    Gyy <- tcrossprod(Ay)
    Gxy <- tcrossprod(Ax, Ay)
    ff <- c(xx = sum(Gxx^2) / nx^2, yy = sum(Gyy^2) / ny^2,
            xy = sum(Gxy^2) / (nx * ny))
    # (by blocks: rbind() and cbind() of n x n matrices took 17 times as
    # long at 855 + 855 rows)
    G <- matrix(0, nx + ny, nx + ny)
    ix <- seq_len(nx)
    iy <- nx + seq_len(ny)
    G[ix, ix] <- Gxx
    G[iy, iy] <- Gyy
    G[ix, iy] <- Gxy
    G[iy, ix] <- t(Gxy)
    rm(Gxx, Gyy, Gxy)
    Sx <- Sy <- NULL
  } else {
    Sx <- crossprod(Ax) / nx
    Sy <- crossprod(Ay) / ny
    ff <- c(xx = sum(Sx^2), yy = sum(Sy^2), xy = sum(Sx * Sy))
    G <- NULL
  }
  # the rows' squared norms in one threaded pass (no n x d square)
  sq <- function(A) {
    .Call(ffi_row_scores, A, seq_len(nrow(A)), numeric(ncol(A)), NULL)$dist
  }
  rx <- sq(Ax)
  ry <- sq(Ay)
  # (the centred rows, both sets' in one matrix, only where the dual
  # form's solver reads them)
  A <- NULL
  if (dual) {
    A <- matrix(0, nx + ny, ncol(Ax))
    A[seq_len(nx), ] <- Ax
    A[nx + seq_len(ny), ] <- Ay
  }
  rm(Ax, Ay)
  list(nx = nx, ny = ny, d = d, mx = mx, my = my, A = A,
       dual = dual, G = G, Sx = Sx, Sy = Sy, ff = ff,
       tr = c(x = sum(rx) / nx, y = sum(ry) / ny),
       r4 = c(x = sum(rx^2), y = sum(ry^2)))
}

#' ||a S_X + b S_Y + c I||_F^2
#' @noRd
cov_norm2 <- function(p, a, b, c) {
  a^2 * p$ff[["xx"]] + b^2 * p$ff[["yy"]] + 2 * a * b * p$ff[["xy"]] +
    2 * a * c * p$tr[["x"]] + 2 * b * c * p$tr[["y"]] + c^2 * p$d
}

#' Ledoit-Wolf (2004) estimate of the summed variance of the entries of a
#' sample covariance a S_X + b S_Y: b-bar^2 of their Lemma 3.3 times d (the
#' cross term between the two sets is 0, they are independent):
#' sum_i ||a_i a_i' - S||^2 / n^2 = (sum_i ||a_i||^4 - n ||S||^2) / n^2.
#' @noRd
cov_noise <- function(p, a, b) {
  ex <- max(0, p$r4[["x"]] / p$nx^2 - p$ff[["xx"]] / p$nx)
  ey <- max(0, p$r4[["y"]] / p$ny^2 - p$ff[["yy"]] / p$ny)
  a^2 * ex + b^2 * ey
}

#' Ledoit-Wolf shrinkage intensity toward m I of a S_X + b S_Y
#' (m = its trace / d): rho = min(1, noise / ||S - m I||^2).
#' @noRd
lw_intensity <- function(p, a, b, noise = cov_noise(p, a, b)) {
  m <- (a * p$tr[["x"]] + b * p$tr[["y"]]) / p$d
  delta2 <- cov_norm2(p, a, b, -m)
  rho <- if (delta2 <= 0) 1 else min(1, max(0, noise / delta2))
  list(rho = rho, m = m)
}

#' The ridge c of Sigma = a S_X + b S_Y + c I, kept at least 1e-10 of
#' Sigma's mean eigenvalue, so that Sigma stays positive definite when the
#' sample covariances are singular (p: cov_parts(), or any list with d and
#' the traces tr)
#' @noRd
cov_ridge <- function(p, a, b, c) {
  scale <- (a * p$tr[["x"]] + b * p$tr[["y"]]) / p$d + c
  c <- max(c, 1e-10 * scale)
  if (!(c > 0)) c <- 1 # every fit row equal: any positive multiple of I
  c
}

#' The classed error of a covariance that chol() could not factorise
#' @noRd
cov_fail <- function(call) {
  prd_abort(c("The covariance of the fit rows could not be factorised.",
              "i" = "Are the columns constant or the values not finite?"),
            "input", call = call)
}

#' A solver for Sigma = a S_X + b S_Y + c I: solve(v) = Sigma^-1 v,
#' logdet; the primal form's Cholesky `factor` and `inverse()`, the dual
#' form's quad(V) = the quadratic forms v' Sigma^-1 v of the rows of V (the
#' primal form's are ffi_chol_quad()'s, quadratic_solve_score()).
#' @noRd
cov_solver <- function(p, a, b, c, call = rlang::caller_env()) {
  c <- cov_ridge(p, a, b, c)
  fail <- function(e) cov_fail(call)
  if (!p$dual) {
    # a S_X + b S_Y + c I formed and factored in place (ffi_cov_factor():
    # chol() without its copy of the d x d matrix)
    R <- .Call(ffi_cov_factor, p$Sx, p$Sy, as.double(a), as.double(b),
               as.double(c))
    if (is.null(R)) fail()
    # (on the rows' span, p$d above the factor's order: Sigma is c on the
    # other p$d - nrow(R) directions, as the dual form's log-determinant)
    return(list(
      factor = R,
      inverse = function() chol2inv(R),
      solve = function(v) backsolve(R, backsolve(R, v, transpose = TRUE)),
      logdet = 2 * sum(log(diag(R))) + (p$d - nrow(R)) * log(c)
    ))
  }
  # Woodbury: (A' W A + c I)^-1 = (I - A' W^1/2 M^-1 W^1/2 A) / c with
  # M = c I + W^1/2 G W^1/2, G = A A' (rows of both sets)
  A <- p$A
  sw <- sqrt(c(rep(a / p$nx, p$nx), rep(b / p$ny, p$ny)))
  M <- p$G * tcrossprod(sw)
  diag(M) <- diag(M) + c
  R <- tryCatch(chol(M), error = fail)
  n <- nrow(A)
  list(
    quad = function(V) {
      B <- tcrossprod(A, V) * sw # n x n_e
      (rowSums(V^2) - colSums(backsolve(R, B, transpose = TRUE)^2)) / c
    },
    solve = function(v) {
      u <- sw * (A %*% v)
      u <- backsolve(R, backsolve(R, u, transpose = TRUE))
      (v - crossprod(A, sw * u)) / c
    },
    logdet = (p$d - n) * log(c) + 2 * sum(log(diag(R)))
  )
}

#' Fit the linear discriminant (SPEC.md section 7): w = Sigma^-1 (mu_Y -
#' mu_X), Sigma = (1 - rho) S_pooled + rho m I (Ledoit and Wolf 2004).
#' Returns the scoring function (high = "generated") and the settings.
#' @noRd
fit_linear <- function(p, call = rlang::caller_env()) {
  n <- p$nx + p$ny
  a0 <- p$nx / n
  b0 <- p$ny / n
  lw <- lw_intensity(p, a0, b0)
  sol <- cov_solver(p, (1 - lw$rho) * a0, (1 - lw$rho) * b0, lw$rho * lw$m,
                    call = call)
  w <- drop(sol$solve(p$my - p$mx))
  centre <- (p$mx + p$my) / 2
  list(score = linear_score(w, centre), shrinkage = lw$rho, w = w,
       centre = centre)
}

#' The linear discriminant's score (z - centre)' w of the rows `rows` of Z
#' (NULL: every row), read in place; a function that keeps only w and the
#' centre (not the fit's covariances).
#' @noRd
linear_score <- function(w, centre) {
  force(w)
  force(centre)
  function(Z, rows = NULL) {
    if (!is.double(Z)) storage.mode(Z) <- "double"
    rows <- if (is.null(rows)) seq_len(nrow(Z)) else as.integer(rows)
    .Call(ffi_row_scores, Z, rows, centre, w)$proj
  }
}

#' The fitted family's settings reported in prd_curve_info()'s details: the
#' fit's `settings` (a named list of numbers), else the fit's list without
#' its scoring function and coefficients.
#' @noRd
fit_settings <- function(f) {
  if (is.list(f$settings)) return(f$settings)
  f[setdiff(names(f), c("score", "w", "centre"))]
}

#' Fit the regularised quadratic discriminant (Friedman 1989) in closed
#' form: for each set k, first toward the pooled covariance rescaled to the
#' set's own trace, T_k = (m_k / m_p) S_p (so that a change of dispersion
#' survives the pooling), with intensity lambda_k = min(1, noise(S_k) /
#' ||S_k - T_k||^2); then toward m_k I with the Ledoit-Wolf intensity of
#' the blend. Score log q(z) - log p(z) up to a constant. `n_score`: how
#' many rows the fit will score; fewer than 1.5 d (a fold's rows) are
#' scored by two triangular solves per row, which spares the two d x d
#' inverses of the one quadratic form (at d = 2,048 the inverses take as
#' long as scoring 2,000 rows).
#' @noRd
fit_quadratic <- function(p, n_score = Inf, call = rlang::caller_env()) {
  n <- p$nx + p$ny
  a0 <- p$nx / n
  b0 <- p$ny / n
  mp <- (a0 * p$tr[["x"]] + b0 * p$tr[["y"]]) / p$d
  noise_p <- cov_noise(p, a0, b0)
  one <- function(own) {
    mk <- p$tr[[own]] / p$d
    t <- if (mp > 0) mk / mp else 1
    # S_k - T_k as a S_X + b S_Y
    if (own == "x") {
      da <- 1 - t * a0
      db <- -t * b0
      noise_k <- cov_noise(p, 1, 0)
    } else {
      da <- -t * a0
      db <- 1 - t * b0
      noise_k <- cov_noise(p, 0, 1)
    }
    dist2 <- cov_norm2(p, da, db, 0)
    lam <- if (dist2 <= 0) 1 else min(1, max(0, noise_k / dist2))
    # C = (1 - lam) S_k + lam T_k
    if (own == "x") {
      ca <- (1 - lam) + lam * t * a0
      cb <- lam * t * b0
    } else {
      ca <- lam * t * a0
      cb <- (1 - lam) + lam * t * b0
    }
    noise_c <- (1 - lam)^2 * noise_k + (lam * t)^2 * noise_p
    lw <- lw_intensity(p, ca, cb, noise = noise_c)
    sol <- cov_solver(p, (1 - lw$rho) * ca, (1 - lw$rho) * cb, lw$rho * lw$m,
                      call = call)
    list(sol = sol, pooling = lam, shrinkage = lw$rho)
  }
  fx <- one("x")
  fy <- one("y")
  if (!p$dual && n_score < 1.5 * nrow(p$Sx)) {
    ctr <- (p$mx + p$my) / 2
    return(list(
      score = quadratic_solve_score(fx$sol$factor, fy$sol$factor,
                                    p$mx - ctr, p$my - ctr, ctr,
                                    0.5 * (fx$sol$logdet - fy$sol$logdet)),
      pooling = c(real = fx$pooling, generated = fy$pooling),
      shrinkage = c(real = fx$shrinkage, generated = fy$shrinkage)
    ))
  }
  if (!p$dual) {
    # one quadratic form: s(z) = u' D u / 2 - u' h + const in u = z - c,
    # D = Sigma_X^-1 - Sigma_Y^-1, h = Sigma_X^-1 (mu_X - c) - Sigma_Y^-1
    # (mu_Y - c) (one product of the evaluation rows with D instead of two
    # triangular solves). The centre c = (mu_X + mu_Y) / 2 keeps the form
    # free of cancellation when the data sit far from the origin (a common
    # offset of 1e8 moved the AUC by 0.01 in uncentred coordinates).
    ctr <- (p$mx + p$my) / 2
    mx <- p$mx - ctr
    my <- p$my - ctr
    Px <- fx$sol$inverse()
    Py <- fy$sol$inverse()
    hx <- drop(Px %*% mx)
    hy <- drop(Py %*% my)
    D <- Px - Py
    rm(Px, Py)
    h <- hx - hy
    const <- 0.5 * (sum(mx * hx) - sum(my * hy)) +
      0.5 * (fx$sol$logdet - fy$sol$logdet)
    return(list(
      score = quadratic_score(D, h, ctr, const),
      pooling = c(real = fx$pooling, generated = fy$pooling),
      shrinkage = c(real = fx$shrinkage, generated = fy$shrinkage)
    ))
  }
  list(
    score = function(Z, rows = NULL) {
      if (!is.null(rows)) Z <- Z[rows, , drop = FALSE]
      qx <- fx$sol$quad(Z - rep(p$mx, each = nrow(Z)))
      qy <- fy$sol$quad(Z - rep(p$my, each = nrow(Z)))
      0.5 * (qx - qy) + 0.5 * (fx$sol$logdet - fy$sol$logdet)
    },
    pooling = c(real = fx$pooling, generated = fy$pooling),
    shrinkage = c(real = fx$shrinkage, generated = fy$shrinkage)
  )
}

#' The quadratic discriminant's score u' D u / 2 - u' h + const, u = z -
#' ctr, of the rows `rows` of Z (NULL: every row), centred in one pass
#' without a copy of the rows; a function that keeps only D, h, ctr and
#' const.
#' @noRd
quadratic_score <- function(D, h, ctr, const) {
  force(D)
  force(h)
  force(ctr)
  force(const)
  function(Z, rows = NULL) {
    if (!is.double(Z)) storage.mode(Z) <- "double"
    Z <- .Call(ffi_centre, Z, ctr, if (!is.null(rows)) as.integer(rows))
    out <- numeric(nrow(Z))
    # (blocks of 4,096 rows bound the product's memory)
    for (i0 in seq(1L, nrow(Z), by = 4096L)) {
      z <- if (nrow(Z) <= 4096L) Z else
        Z[i0:min(nrow(Z), i0 + 4095L), , drop = FALSE]
      idx <- i0 - 1L + seq_len(nrow(z))
      out[idx] <- 0.5 * .Call(ffi_row_dot, z %*% D, z) - drop(z %*% h)
    }
    out + const
  }
}

#' The same score as quadratic_score(), (|R_X^-T (u - m_X)|^2 - |R_Y^-T (u
#' - m_Y)|^2) / 2 + const with u = z - ctr, m_k = mu_k - ctr, from the
#' Cholesky factors R_k of the two covariances (two triangular solves per
#' row); a function that keeps only the factors, means, ctr and const.
#' @noRd
quadratic_solve_score <- function(Rx, Ry, mx, my, ctr, const) {
  force(Rx)
  force(Ry)
  force(mx)
  force(my)
  force(ctr)
  force(const)
  function(Z, rows = NULL) {
    if (!is.double(Z)) storage.mode(Z) <- "double"
    # (blocks of 512 rows, one triangular solve per factor each, among the
    # engine's threads: src/moments.c)
    q <- .Call(ffi_chol_quad, Z, if (!is.null(rows)) as.integer(rows), ctr,
               Rx, mx, Ry, my)
    0.5 * (q$x - q$y) + const
  }
}
