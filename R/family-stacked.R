# The stacked family: a logistic regression on natural cubic splines of the
# linear discriminant's score and the log distances to both means, its two
# inner folds drawn at random (SPEC.md section 7).

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
      lin <- stacked_linear(cov_parts(Xf, Yf, hx[[v]], hy[[v]]), call = call)
      collect_between_fits(Xf, Yf)
      lin
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

