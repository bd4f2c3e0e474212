# Fitted classifier families of prd_curve() (SPEC.md section 7): a linear
# discriminant with a Ledoit-Wolf shrunk pooled covariance, a regularised
# quadratic discriminant (Friedman 1989), and the combined curve
# "tightest". Every family gives each evaluation row a score, low = "real"
# (an estimate of log q/p up to a constant), which feeds the same envelope
# as the neighbour families (curve_from_scores()).
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
#' doubles of Xf[rx, ] - rep(mx, each = nx), without copies of the rows)
#' @noRd
cov_parts <- function(Xf, Yf, rx = NULL, ry = NULL) {
  if (!is.double(Xf)) storage.mode(Xf) <- "double"
  if (!is.double(Yf)) storage.mode(Yf) <- "double"
  d <- ncol(Xf)
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
    G <- rbind(cbind(Gxx, Gxy), cbind(t(Gxy), Gyy))
    Sx <- Sy <- NULL
  } else {
    Sx <- crossprod(Ax) / nx
    Sy <- crossprod(Ay) / ny
    ff <- c(xx = sum(Sx^2), yy = sum(Sy^2), xy = sum(Sx * Sy))
    G <- NULL
  }
  # the rows' squared norms in one threaded pass (no n x d square)
  sq <- function(A) {
    .Call(ffi_row_scores, A, seq_len(nrow(A)), numeric(d), NULL)$dist
  }
  rx <- sq(Ax)
  ry <- sq(Ay)
  list(nx = nx, ny = ny, d = d, mx = mx, my = my, Ax = Ax, Ay = Ay,
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

#' A solver for Sigma = a S_X + b S_Y + c I: quad(V) = the quadratic forms
#' v' Sigma^-1 v of the rows of V, solve(v) = Sigma^-1 v, logdet.
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
    return(list(
      factor = R,
      inverse = function() chol2inv(R),
      quad = function(V) chol_quad(R, t(V)),
      solve = function(v) backsolve(R, backsolve(R, v, transpose = TRUE)),
      logdet = 2 * sum(log(diag(R)))
    ))
  }
  # Woodbury: (A' W A + c I)^-1 = (I - A' W^1/2 M^-1 W^1/2 A) / c with
  # M = c I + W^1/2 G W^1/2, G = A A' (rows of both sets)
  A <- rbind(p$Ax, p$Ay)
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
  if (!p$dual && n_score < 1.5 * p$d) {
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
    U <- .Call(ffi_centre, Z, ctr, if (!is.null(rows)) as.integer(rows))
    Ut <- t(U)
    0.5 * (chol_quad(Rx, Ut - mx) - chol_quad(Ry, Ut - my)) + const
  }
}

#' The quadratic forms v' (R'R)^-1 v of the columns v of Vt, R upper
#' triangular (a Cholesky factor): one triangular solve per column.
#' @noRd
chol_quad <- function(R, Vt) colSums(backsolve(R, Vt, transpose = TRUE)^2)

#' Fit the stacked classifier (SPEC.md section 7): a logistic regression
#' on natural cubic splines of three features, the linear discriminant's
#' score and log |z - mu_X|^2, log |z - mu_Y|^2, so that a log-likelihood
#' ratio that is not monotone in them (heavy tails: log q/p rises, then
#' falls with |z|^2; a dropped middle mode) is still estimated. The fit rows
#' are cut into two random folds (inner_halves(), R's RNG): the discriminant and
#' the means are fitted on one fold, the features of the other fold train
#' the logistic regression (never the rows the discriminant saw), and the
#' two folds' log-odds are averaged. The discriminant thus sees half the
#' fit rows: in high dimension the stacked family is looser than "linear"
#' on a mean shift, which "tightest" also holds. Its cost is about that of
#' "linear" (two fits on half the rows, O(n d) features).
#' @noRd
fit_stacked <- function(Xf, Yf, rx = NULL, ry = NULL,
                        call = rlang::caller_env()) {
  rx <- if (is.null(rx)) seq_len(nrow(Xf)) else as.integer(rx)
  ry <- if (is.null(ry)) seq_len(nrow(Yf)) else as.integer(ry)
  hx <- inner_halves(rx)
  hy <- inner_halves(ry)
  if (min(lengths(hx), lengths(hy)) < 2L) {
    short <- if (length(rx) <= length(ry)) "real" else "generated"
    prd_abort(c(
      "{.code method = \"stacked\"} needs at least 4 fit rows per set (two folds of 2).",
      "x" = "{.arg {short}} has {min(length(rx), length(ry))} fit row{?s}.",
      "i" = "Give more rows, a smaller {.arg split}, or another {.arg method}."
    ), "split", call = call)
  }
  fit_stacked_halves(Xf, Yf, hx, hy, call = call)
}

#' The stacked classifier on given inner folds: hx, hy the two folds of
#' each set's fit rows; `lins` the two folds' discriminants
#' (stacked_linear()), NULL to fit them here from the folds' rows (the
#' fold moments give them in crossfit.R); `features` NULL (the features
#' formed from the rows, one pass per row and centre) or a function(v,
#' set, rows) giving the n x 3 features of rows `rows` of set `set` (1
#' real, 2 generated) under fold v's discriminant (crossfit.R forms them
#' for every fold at once). The scoring function then takes score(Z,
#' rows, set).
#' @noRd
fit_stacked_halves <- function(Xf, Yf, hx, hy, lins = NULL, features = NULL,
                               call = rlang::caller_env()) {
  if (!is.double(Xf)) storage.mode(Xf) <- "double"
  if (!is.double(Yf)) storage.mode(Yf) <- "double"
  if (is.null(lins)) {
    # (each fold's covariances live only inside stacked_linear(): the
    # scoring functions keep this frame, not the covariances)
    lins <- lapply(1:2, function(v) {
      stacked_linear(cov_parts(Xf, Yf, hx[[v]], hy[[v]]), call = call)
    })
  }
  by_set <- !is.null(features)
  if (by_set) {
    sets <- list(1L, 2L)
  } else {
    features <- function(v, Z, rows) stacked_features(lins[[v]], Z, rows)
    sets <- list(Xf, Yf)
  }
  fits <- lapply(1:2, function(v) {
    o <- 3L - v
    F <- rbind(features(v, sets[[1]], hx[[o]]),
               features(v, sets[[2]], hy[[o]]))
    nfx <- length(hx[[o]])
    nfy <- length(hy[[o]])
    b <- spline_basis_fit(F)
    beta <- logistic_ridge(b$basis(F), c(rep(0, nfx), rep(1, nfy)),
                           weights = c(rep(0.5 / nfx, nfx),
                                       rep(0.5 / nfy, nfy)))
    rm(F)
    function(Z, rows) drop(b$basis(features(v, Z, rows)) %*% beta)
  })
  list(score = function(Z, rows = NULL, set = NULL) {
    if (by_set) Z <- set
    (fits[[1]](Z, rows) + fits[[2]](Z, rows)) / 2
  })
}

#' The stacked classifier's two inner folds of the rows `r` (R's RNG):
#' random_halves() of their positions, each half in the order of `r`.
#' Drawn at random, not by position parity, so that on prd_curve()'s sets
#' (in canonical row order, canonical_sets()) the folds depend on the
#' rows' values and the seed only.
#' @noRd
inner_halves <- function(r) {
  r <- as.integer(r)
  if (length(r) < 2L) return(list(r, integer()))
  lapply(random_halves(length(r)), function(h) r[h])
}

#' The linear discriminant of one inner fold of the stacked classifier and
#' the means its features are measured from: list(w, mx, my, centre).
#' @noRd
stacked_linear <- function(p, call = rlang::caller_env()) {
  lin <- fit_linear(p, call = call)
  list(w = lin$w, mx = p$mx, my = p$my, centre = lin$centre)
}

#' The stacked classifier's features of the rows `rows` of Z (NULL: every
#' row) under one inner fold's discriminant `lin`: the discriminant's score
#' (z - centre)' w and log |z - mu_X|^2, log |z - mu_Y|^2, in one threaded
#' pass per mean over the rows (no copies of the rows).
#' @noRd
stacked_features <- function(lin, Z, rows = NULL) {
  if (!is.double(Z)) storage.mode(Z) <- "double"
  rows <- if (is.null(rows)) seq_len(nrow(Z)) else as.integer(rows)
  a <- .Call(ffi_row_scores, Z, rows, lin$mx, lin$w)
  b <- .Call(ffi_row_scores, Z, rows, lin$my, NULL)
  cbind(a$proj + sum((lin$mx - lin$centre) * lin$w), log(a$dist + 1e-300),
        log(b$dist + 1e-300))
}

#' Natural cubic spline bases (splines::ns) of the columns of F, with 3
#' inner knots at the quartiles of each column and its range as boundary
#' knots (new values are clamped to that range); columns with fewer than 2
#' distinct values are left out. Returns basis(F): the intercept column
#' and the bases side by side.
#' @noRd
spline_basis_fit <- function(F) {
  specs <- list()
  for (j in seq_len(ncol(F))) {
    f <- F[, j]
    f <- f[is.finite(f)]
    if (length(unique(f)) < 2L) next
    bd <- range(f)
    inner <- unique(stats::quantile(f, c(0.25, 0.5, 0.75), names = FALSE))
    inner <- inner[inner > bd[1] & inner < bd[2]]
    specs[[length(specs) + 1L]] <- list(j = j, bd = bd, inner = inner)
  }
  list(basis = function(G) {
    cols <- lapply(specs, function(sp) {
      g <- G[, sp$j]
      g[!is.finite(g)] <- sp$bd[2]
      g <- pmin(pmax(g, sp$bd[1]), sp$bd[2])
      splines::ns(g, knots = sp$inner, Boundary.knots = sp$bd)
    })
    do.call(cbind, c(list(rep(1, nrow(G))), cols))
  })
}

#' Weighted logistic regression of y (0/1) on the columns of B (first the
#' intercept) by Newton's method, with a small ridge penalty on every
#' coefficient but the intercept, so that separable sets (a model far from
#' the real one) still give finite coefficients and an ordering.
#' @noRd
logistic_ridge <- function(B, y, weights, ridge = 1e-4, iter = 50L) {
  beta <- numeric(ncol(B))
  pen <- c(0, rep(ridge, ncol(B) - 1L))
  for (it in seq_len(iter)) {
    eta <- drop(B %*% beta)
    p <- stats::plogis(eta)
    w <- weights * pmax(p * (1 - p), 1e-12)
    H <- crossprod(B, B * w)
    diag(H) <- diag(H) + pen
    g <- drop(crossprod(B, weights * (y - p))) - pen * beta
    # H is positive definite (a weighted cross product and a ridge): a
    # Cholesky solve. (solve()'s LU goes through the BLAS's threads even
    # for these 16 x 16 systems, and under load each took milliseconds.)
    step <- tryCatch({
      R <- chol(H)
      backsolve(R, backsolve(R, g, transpose = TRUE))
    }, error = function(e) NULL)
    if (is.null(step) || !all(is.finite(step))) break
    beta <- beta + step
    if (max(abs(step)) < 1e-8) break
  }
  beta
}

# ---- marginal: per-coordinate histograms (naive Bayes) -----------------------

#' Most bins per coordinate of the `marginal` family, and the fit rows a
#' bin holds on average below that (marginal_bin_count())
#' @noRd
marginal_bins <- 128L
marginal_per_bin <- 25

#' The count added to every bin of a histogram (Jeffreys: 1/2)
#' @noRd
marginal_smooth <- 0.5

#' Rows of each set read for the bins' edges (evenly spaced positions)
#' @noRd
marginal_edge_rows <- 2048L

#' The bins of the `marginal` family's histograms with `n_fit` fit rows in
#' the smaller set: n_fit / marginal_per_bin, at least 2, at most
#' marginal_bins.
#' @noRd
marginal_bin_count <- function(n_fit) {
  as.integer(max(2, min(marginal_bins, floor(n_fit / marginal_per_bin))))
}

#' The edges of the `marginal` family's bins: per column, the order
#' statistics at ranks ceiling(N j / B), j = 1..B-1, of both sets' rows
#' pooled without their labels (N of them: at most marginal_edge_rows of
#' each set, at evenly spaced positions of `rx` and `ry`), so that each
#' bin holds about 1/B of the pooled rows; a column with at most B
#' distinct values there gets a bin per value (each value but the
#' smallest an edge, the rest Inf).
#' @return a (B - 1) x d matrix, each column sorted.
#' @noRd
marginal_breaks <- function(real, generated, rx, ry, bins, atoms = NULL) {
  .Call(ffi_bin_edges, real, generated, marginal_edge_pick(rx),
        marginal_edge_pick(ry), as.integer(bins), atoms_arg(atoms))
}

#' At most marginal_edge_rows of the rows `r`, sorted, at evenly spaced
#' positions
#' @noRd
marginal_edge_pick <- function(r) {
  r <- sort(as.integer(r))
  if (length(r) <= marginal_edge_rows) return(r)
  r[unique(round(seq(1, length(r), length.out = marginal_edge_rows)))]
}

#' Most steps from 0 the values of a grid of the `marginal` family's
#' atoms may lie (see coarse_grid()): whole numbers up to 65,536. Float
#' values carry 24 (float32) or 53 significant bits, so a column of them
#' is a grid only where its values happen to be coarse: storage precision
#' is not a support.
#' @noRd
marginal_grid_bits <- 16L

#' The relative distance from a grid point within which a value counts as
#' on the grid (near_grid()): the rounding of a round trip through a
#' scaling in double precision (a few 2^-53) is not a difference of
#' support. Not float32's (2^-24 a step): a looser tolerance lets
#' continuous values near a grid point count as atoms (2^-20: about 2 of
#' 1,000 N(0, 1,000^2) values near whole numbers, enough to move the
#' curve's extremes by 0.3).
#' @noRd
marginal_grid_tol <- 2^-30

#' Each column's coarse grid in the matrix `m`: the exponent e of the
#' power of two 2^e of which every value is a multiple (ffi_col_grid()),
#' NA unless every value lies within 2^marginal_grid_bits steps of 0
#' (INT_MAX for a column of zeros, the grid {0}). `constant`: the column
#' holds one value.
#' @return list(e, constant)
#' @noRd
coarse_grid <- function(m) {
  if (!is.double(m)) storage.mode(m) <- "double"
  g <- .Call(ffi_col_grid, m, marginal_grid_bits)
  e <- g$e
  big <- pmax(abs(g$lo), abs(g$hi))
  zero <- !is.na(e) & e == .Machine$integer.max
  far <- !is.na(e) & !zero & !(big / 2^e < 2^marginal_grid_bits)
  e[far] <- NA_integer_
  list(e = e, constant = !is.na(e) & g$lo == g$hi)
}

#' Which values x lie on the grid of multiples of 2^e (e = INT_MAX: the
#' grid {0}), to the relative tolerance marginal_grid_tol; the arithmetic
#' of atom_value() in src/marginal.c
#' @noRd
near_grid <- function(x, e) {
  if (e == .Machine$integer.max) return(x == 0)
  q <- x / 2^e
  abs(q - round(q)) <= marginal_grid_tol * pmax(1, abs(q))
}

#' The columns in which one set of a pair lies on a grid and the other
#' does not (whole numbers against a continuous model's values): the
#' values on the grid are then atoms of one law that the other does not
#' have, and the `marginal` family gives them bins of their own (SPEC.md
#' section 7). A set's column is on a grid when the set's rows among the
#' rows read for the edges (marginal_edge_pick() of `rx` and `ry`) are all
#' multiples of one power of two 2^e within 2^marginal_grid_bits steps of
#' 0 (coarse_grid(); a column of zeros: the grid {0}), judged on the
#' values as given: a matrix scaled by `standardize = "real"` carries its
#' grid in attribute "grid" (standardize_sets()), and only the columns
#' scaled on a grid (restored exactly by unscale_grid()) qualify. In those
#' columns the kernels read every value on that grid (near_grid(), to a
#' relative 2^-30) as it is and every other value moved above all of them
#' (by `shift`, twice the column's range plus 1; src/marginal.c,
#' atom_value(), the same arithmetic), so that no bin holds both kinds
#' once the smallest moved value is an edge (marginal_atom_edges()).
#' Orders within each kind are kept; a column none of whose values is
#' moved (the other set's values on the grid but for rounding) is left
#' out. The matrices are not copied.
#' @return list(cols, e: their grids' exponents, shift, off, mult, centre:
#'   the grid scaling to undo (mult 0: none), bound: the smallest moved
#'   value of each column), the first six as the kernels' `atoms`
#'   argument; NULL when there are no such columns
#' @noRd
marginal_atoms <- function(real, generated, rx, ry) {
  grid <- attr(real, "grid")
  sets <- list(real, generated)
  rows <- list(marginal_edge_pick(rx), marginal_edge_pick(ry))
  e <- lapply(1:2, function(j) {
    m <- sets[[j]][rows[[j]], , drop = FALSE]
    if (!is.null(grid)) m <- unscale_grid(m, grid)
    coarse_grid(m)$e
  })
  on <- lapply(e, Negate(is.na))
  cols <- which(on[[1]] != on[[2]])
  if (!is.null(grid)) cols <- cols[grid$mult[cols] != 0]
  ex <- ifelse(on[[1]], e[[1]], e[[2]])[cols]
  keep <- ex == .Machine$integer.max | (ex > -900L & ex < 900L)
  cols <- cols[keep]
  ex <- ex[keep]
  if (!length(cols)) return(NULL)
  mult <- if (is.null(grid)) numeric(length(cols)) else grid$mult[cols]
  off <- if (is.null(grid)) numeric(length(cols)) else grid$offset[cols]
  centre <- if (is.null(grid)) numeric(length(cols)) else grid$centre[cols]
  shift <- bound <- rep(NA_real_, length(cols))
  for (i in seq_along(cols)) {
    # the column of each set, read once
    zs <- list(real[, cols[i]], generated[, cols[i]])
    lo <- min(zs[[1]], zs[[2]])
    hi <- max(zs[[1]], zs[[2]])
    sh <- 2 * (hi - lo) + 1
    if (!is.finite(sh) || !(lo + sh > hi)) next
    shift[i] <- sh
    b <- Inf
    for (z in zs) {
      x <- if (mult[i] != 0) (z + off[i]) / mult[i] + centre[i] else z
      on_grid <- near_grid(x, ex[i])
      if (!all(on_grid)) b <- min(b, min(z[!on_grid] + sh))
    }
    bound[i] <- b
  }
  ok <- !is.na(shift) & is.finite(bound)
  if (!any(ok)) return(NULL)
  list(cols = as.integer(cols[ok]), e = as.integer(ex[ok]), shift = shift[ok],
       off = as.double(off[ok]), mult = as.double(mult[ok]),
       centre = as.double(centre[ok]), bound = bound[ok])
}

#' The kernels' `atoms` argument from marginal_atoms() (NULL: none)
#' @noRd
atoms_arg <- function(atoms) {
  if (is.null(atoms)) return(NULL)
  atoms[c("cols", "e", "shift", "off", "mult", "centre")]
}

#' The edges E (marginal_breaks()) with each atom column's bound (the
#' smallest value moved above the grid's values, marginal_atoms()) made an
#' edge: inserted, and to keep B - 1 edges, an Inf edge dropped (a column
#' with a bin per value) or else the edge just below the bound. A bin then
#' never holds values of both kinds (an order statistic at the border, the
#' largest value on the grid, would otherwise open the bin of the moved
#' values).
#' @noRd
marginal_atom_edges <- function(E, atoms) {
  for (i in seq_along(atoms$cols)) {
    b <- atoms$bound[i]
    l <- atoms$cols[i]
    e <- E[, l]
    if (!is.finite(b) || b %in% e) next
    e <- sort(c(e, b))
    k <- which(e == b)
    drop <- if (is.infinite(e[length(e)])) length(e) else
      if (k > 1L) k - 1L else k + 1L
    E[, l] <- e[-drop]
  }
  E
}

#' Scores of the `marginal` family (SPEC.md section 7): a naive Bayes
#' classifier, s(z) = sum over the coordinates l of
#' log q_l(z_l) - log p_l(z_l), each marginal density a histogram on
#' marginal_breaks()'s bins with marginal_smooth added to every count.
#' `cells` = list(real cells, generated cells): each set's rows cut into a
#' first cell (rows that are only fitted on; may be empty) and the scored
#' cells; the rows of scored cell v are scored by the histograms of every
#' other cell (cross-fitting; with one scored cell, the single fit on the
#' first). One pass over the rows counts every cell; each fold's counts
#' are the totals less its own.
#' The columns where one set lies on a grid and the other does not get
#' bins of their own for the values on it (marginal_atoms()), unless the
#' call reads the atoms as continuous values (`atoms = "ignore"`: bins of
#' whole cells of the grid, marginal_cell_edges()).
#' @return list(real, gen): the scores of each set's scored cells' rows, in
#'   the order of the cells; settings list(bins, atom_columns: how many
#'   columns had such bins).
#' @noRd
marginal_scores <- function(real, generated, cells) {
  K <- length(cells[[1]]) - 1L
  total <- lapply(cells, function(cj) unlist(cj, use.names = FALSE))
  n_fit <- min(vapply(1:2, function(j) {
    length(total[[j]]) - max(lengths(cells[[j]][-1L]))
  }, numeric(1)))
  B <- marginal_bin_count(n_fit)
  atoms <- marginal_atoms(real, generated, total[[1]], total[[2]])
  sets <- list(real, generated)
  if (atoms_ignored()) {
    # the atoms read as continuous values: cells of the grid (R/atoms.R)
    E <- marginal_breaks(real, generated, total[[1]], total[[2]], B)
    E <- marginal_cell_edges(E, atoms)
    atoms <- NULL
  } else {
    E <- marginal_breaks(real, generated, total[[1]], total[[2]], B, atoms)
    E <- marginal_atom_edges(E, atoms)
  }
  counts <- lapply(1:2, function(j) {
    cj <- cells[[j]]
    .Call(ffi_bin_counts, sets[[j]], E, as.integer(total[[j]]),
          rep.int(seq_along(cj), lengths(cj)), length(cj), atoms_arg(atoms))
  })
  d <- ncol(real)
  # each scored cell's log-ratio table: the histograms of the other cells
  tab <- array(0, c(B, d, K))
  a <- marginal_smooth
  sums <- lapply(counts, rowSums, dims = 2L)
  for (v in seq_len(K)) {
    h <- lapply(1:2, function(j) {
      cnt <- sums[[j]] - counts[[j]][, , v + 1L]
      n <- length(total[[j]]) - length(cells[[j]][[v + 1L]])
      list(l = log(cnt + a) - log(n + a * B), v = 1 / (cnt + a))
    })
    t <- h[[2]]$l - h[[1]]$l
    # each entry shrunk toward 0 by its noise (a bin's log count has
    # variance about 1 / count): t (1 - var / t^2), or 0 when negative
    w <- 1 - (h[[1]]$v + h[[2]]$v) / t^2
    t <- ifelse(t == 0 | w < 0, 0, t * w)
    tab[, , v] <- t
  }
  rm(counts, sums)
  sc <- lapply(1:2, function(j) {
    cj <- cells[[j]][-1L]
    .Call(ffi_bin_scores, sets[[j]], E, as.integer(unlist(cj, use.names = FALSE)),
          rep.int(seq_len(K), lengths(cj)), tab, atoms_arg(atoms))
  })
  list(real = sc[[1]], gen = sc[[2]],
       settings = list(bins = B, atom_columns = length(atoms$cols)))
}

# ---- the combined curve ----------------------------------------------------

#' The smallest curve at or above the values alpha (on the increasing grid
#' lambda) that is a PR curve: alpha nondecreasing and alpha / lambda
#' nonincreasing in lambda (Simon et al. 2019, Theorem 2), with the extremes
#' alpha_inf >= every alpha and beta_0 >= every alpha / lambda; alpha <= 1.
#' @noRd
pr_majorant <- function(alpha, lambda, max_precision, max_recall) {
  for (it in 1:50) { # two passes suffice but for rounding
    old <- alpha
    alpha <- cummax(alpha)
    beta <- rev(cummax(rev(alpha / lambda)))
    # (a value is never lowered, not even by the rounding of beta * lambda)
    alpha <- pmin(pmax(alpha, beta * lambda), 1)
    if (max(alpha - old) <= 1e-14) break
  }
  list(alpha = alpha,
       max_precision = max(max_precision, alpha),
       max_recall = min(1, max(max_recall, pmin(alpha / lambda, 1))))
}

#' Random halves of 1..n (R's RNG), n >= 2.
#' @noRd
random_halves <- function(n) {
  perm <- sample.int(n)
  h <- floor(n / 2)
  list(sort(perm[seq_len(h)]), sort(perm[-seq_len(h)]))
}

#' Area of an envelope (a list as from curve_from_scores()).
#' @noRd
envelope_auc <- function(lambda, env) {
  curve_auc(c(0, lambda, Inf), c(0, env$precision, env$max_precision),
            c(env$max_recall, env$recall, 0))
}

# ---- diagnostics -----------------------------------------------------------

#' Warn (class prdcurve_warning_family_disagreement) when two families'
#' curves of one model disagree: the AUCs differ by more than `margin` and
#' the lower is less than half the higher, and, with replicates, their
#' intervals do not overlap; only with at least `min_rows` evaluation rows
#' per set. Every family estimates an upper bound of the
#' true curve, so the lower one is the tighter.
#' @noRd
check_family_agreement <- function(x, d, margin = 0.2, min_rows = 50L) {
  if (length(unique(x$method)) < 2L) return(invisible(FALSE))
  info <- prd_curve_info(x)
  if (min(info$n_eval_real, info$n_eval_generated, na.rm = TRUE) < min_rows) {
    return(invisible(FALSE)) # small sets: the families' noise is large
  }
  warned <- FALSE
  # the intervals when there are replicates, else the areas alone
  has_reps <- any(!vapply(info$replicates, is.null, logical(1)))
  s <- if (has_reps) summary(x) else curve_areas(x)
  has_ci <- "auc_lower" %in% names(s)
  for (m in unique(s$model)) {
    sm <- s[s$model == m, , drop = FALSE]
    hi <- which.max(sm$auc)
    lo <- which.min(sm$auc)
    gap <- sm$auc[hi] - sm$auc[lo]
    disjoint <- !has_ci || !is.finite(sm$auc_lower[hi]) ||
      !is.finite(sm$auc_upper[lo]) || sm$auc_lower[hi] > sm$auc_upper[lo]
    apart <- gap > margin && sm$auc[lo] < sm$auc[hi] / 2 && disjoint
    if (!isTRUE(apart)) next
    lab <- function(i) {
      if (is.na(sm$k[i])) sm$method[i] else paste0(sm$method[i], ", k = ", sm$k[i])
    }
    high <- lab(hi)
    low <- lab(lo)
    auc_hi <- format(round(sm$auc[hi], 3), nsmall = 3)
    auc_lo <- format(round(sm$auc[lo], 3), nsmall = 3)
    reason <- family_reason(sm$method[hi], d,
                            curve_hubness(info, m, sm$method[hi], sm$k[hi]))
    if (sm$method[lo] == "marginal" && curve_atoms(info, m) > 0L) {
      reason <- "Columns lie on a grid (whole numbers) in one set only, and the {.val marginal} family gives such values bins of their own: the supports differ there, which no other family sees on a fine grid."
    }
    prd_warn(c(
      "For model {.val {m}}, the {.val {high}} curve (AUC {auc_hi}) lies far above the {.val {low}} curve (AUC {auc_lo}).",
      "i" = "Every family's curve estimates an upper bound of the true curve, so {.val {low}} is the tighter one.",
      "i" = reason,
      "i" = "Read the lower curve, or use {.code method = \"tightest\"}."
    ), "family_disagreement")
    warned <- TRUE
  }
  invisible(warned)
}

#' Each curve's key (model, method, k) and area: summary()'s `auc`, without
#' its other statistics and intervals.
#' @noRd
curve_areas <- function(x) {
  # the curves' rows by key, as split_curves() groups them, without its
  # data frame per curve
  key_cols <- setdiff(names(x), c("lambda", "precision", "recall"))
  keys <- tibble::new_tibble(unclass(x)[key_cols], nrow = nrow(x))
  id <- if (length(key_cols)) vctrs::vec_group_id(keys) else
    structure(rep(1L, nrow(x)), n = 1L)
  rows <- split(seq_len(nrow(x)), factor(id, levels = seq_len(attr(id, "n"))))
  out <- vctrs::vec_slice(keys, vapply(rows, `[`, 1L, 1L))
  out$auc <- vapply(rows, function(r) {
    curve_auc(x$lambda[r], x$precision[r], x$recall[r])
  }, numeric(1), USE.NAMES = FALSE)
  out
}

#' The hubness figure of one curve (model, method, k) of a prd_curve_info()
#' table: a number for knn curves, else NA.
#' @noRd
curve_hubness <- function(info, model, method, k) {
  i <- which(info$model == model & info$method == method &
               (is.na(k) | info$k %in% k))
  h <- if (length(i)) info$details[[i[1]]]$hubness
  if (is.numeric(h) && length(h) == 1L) h else NA_real_
}

#' How many columns the `marginal` curve of `model` gave atom bins
#' (marginal_atoms()) in a prd_curve_info() table; 0 without such a curve.
#' @noRd
curve_atoms <- function(info, model) {
  i <- which(info$model == model & info$method == "marginal")
  a <- if (length(i)) info$details[[i[1]]]$atom_columns
  if (is.numeric(a) && length(a) == 1L) a else 0L
}

# ---- hubness ---------------------------------------------------------------

#' Hubness of the knn family: skewness of the k-occurrence counts N_k(x) of
#' the fit points, N_k(x) = the number of evaluation points z with x among
#' their k nearest fit points, ||x - z|| <= r_k(z; X_f u Y_f) (Radovanovic,
#' Nanopoulos and Ivanovic 2010), counted by the engine in the knn family's
#' own sweep (estimator "hub"; without a split a point is not its own
#' neighbour).
#' @param counts the engine's k-occurrences, a row per fit row, a column
#'   per k.
#' @return the (population) skewness per k; 0 when every count is equal.
#' @noRd
hub_skewness <- function(counts) {
  apply(counts, 2L, function(v) {
    v <- as.double(v)
    sdv <- sqrt(mean((v - mean(v))^2))
    if (sdv == 0) 0 else mean((v - mean(v))^3) / sdv^3
  })
}

#' A neighbour family alone (no fitted family in the call) is checked
#' against two O(n d) classifiers fitted on the fit rows: the squared
#' distance to the real fit mean (both orientations: a noisy or a sharp
#' model) and the projection on the difference of the fit means (a shift).
#' Each is a classifier, so its AUC is also an upper bound of the true
#' AUC; when it is far below the family's, the family's curve is loose and
#' the same classed warning as for two disagreeing families says so.
#' Without a split the means come from the other half of each set
#' (cross-fitting), so no row is scored by a mean it entered.
#' @noRd
check_neighbour_family <- function(x, real, generated, splits,
                                   margin = 0.2, min_rows = 50L) {
  if (!all(unique(x$method) %in% neighbour_methods())) return(invisible(NULL))
  info <- prd_curve_info(x)
  if (min(info$n_eval_real, info$n_eval_generated, na.rm = TRUE) < min_rows) {
    return(invisible(NULL))
  }
  s <- curve_areas(x)
  lambda <- lambda_grid(201)
  for (m in unique(s$model)) {
    sm <- s[s$model == m, , drop = FALSE]
    hi <- which.max(sm$auc)
    if (sm$auc[hi] <= 0.5) next
    ref <- simple_scores(real, generated[[m]], splits[[m]])
    aucs <- vapply(ref, function(sc) {
      envelope_auc(lambda, curve_from_scores(sc$real, sc$gen, lambda))
    }, numeric(1))
    low <- min(aucs)
    if (!(sm$auc[hi] - low > margin && low < sm$auc[hi] / 2)) next
    high <- if (is.na(sm$k[hi])) sm$method[hi] else
      paste0(sm$method[hi], ", k = ", sm$k[hi])
    auc_hi <- format(round(sm$auc[hi], 3), nsmall = 3)
    auc_lo <- format(round(low, 3), nsmall = 3)
    what <- c(mean = "the projection on the difference of the means",
              far = "the distance to the real mean (a more dispersed model)",
              near = "the distance to the real mean (a less dispersed model)")
    prd_warn(c(
      "For model {.val {m}}, the {.val {high}} curve (AUC {auc_hi}) lies far above the curve of a simple classifier, {what[[names(which.min(aucs))]]} (AUC {auc_lo}).",
      "i" = "Every classifier's curve estimates an upper bound of the true curve, so the true curve is at most near the lower one.",
      "i" = family_reason(sm$method[hi], ncol(real),
                          curve_hubness(info, m, sm$method[hi], sm$k[hi])),
      "i" = "Use {.code method = \"tightest\"}, or add {.val quadratic} to {.arg method}."
    ), "family_disagreement")
  }
  invisible(NULL)
}

#' Scores (low = "real") of the evaluation rows under the three simple
#' classifiers of check_neighbour_family(), means from the fit rows (or,
#' without a split, from the other fold).
#' @noRd
simple_scores <- function(real, generated, s) {
  # means and scores without copies of the rows (one pass each, in C)
  sub_mean <- function(x, rows) .Call(ffi_col_means, x, as.integer(rows))
  one <- function(fx, fy, ex, ey) {
    mx <- sub_mean(real, fx)
    w <- sub_mean(generated, fy) - mx
    sc <- function(z, rows) {
      r <- .Call(ffi_row_scores, z, as.integer(rows), mx, w)
      list(mean = r$proj, dist = r$dist)
    }
    list(real = sc(real, ex), gen = sc(generated, ey))
  }
  if (!is.null(s$eval)) {
    r <- one(s$fit[[1]], s$fit[[2]], s$eval[[1]], s$eval[[2]])
  } else {
    # odd and even rows: the user's random stream is left untouched
    halves <- function(n) list(seq.int(1L, n, by = 2L), seq.int(2L, n, by = 2L))
    fr <- halves(nrow(real))
    fg <- halves(nrow(generated))
    a <- one(fr[[2]], fg[[2]], fr[[1]], fg[[1]])
    b <- one(fr[[1]], fg[[1]], fr[[2]], fg[[2]])
    r <- list(real = Map(c, a$real, b$real), gen = Map(c, a$gen, b$gen))
  }
  list(mean = list(real = r$real$mean, gen = r$gen$mean),
       far = list(real = r$real$dist, gen = r$gen$dist),
       near = list(real = -r$real$dist, gen = -r$gen$dist))
}
