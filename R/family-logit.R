# The logit family of prd_curve() (SPEC.md section 7): the propensity
# model of synthpop's utility.gen(method = "logit") (Woo, Reiter, Oganian
# and Karr 2009; Snoke, Raab, Nowok, Dibben and Slavkovic 2018), a logistic
# regression of the set label (1 = generated) on the columns and their
# products up to order maxorder + 1, fitted on the fit rows. Its score, the
# linear predictor, estimates log q/p up to a constant, for data frames
# with categorical columns (encoded by R/encode.R) as for numeric ones.
# pmse_stats() (R/pmse.R) fits the same model on every row, with R's
# treatment contrasts for the categories (the same span, fewer columns).

#' Most parameters (the intercept included) the logit model may have: as
#' synthpop's utility.gen() (`max.params`)
#' @noRd
logit_max_params <- 400L

#' Iterations and convergence tolerance of the logit fits (glm.fit()'s
#' `maxit` and `epsilon`, those of synthpop's utility.gen())
#' @noRd
logit_maxit <- 200L
logit_epsilon <- 1e-8

#' The terms of the logit model on d columns: every column (maxorder 0),
#' and every product of 2, ..., maxorder + 1 distinct columns (R's
#' formula `t ~ .^(maxorder + 1)`, without the squares of a column: on the
#' indicators of one categorical column those are the column itself, and
#' their products across categories of one column are 0).
#' @return a list of integer vectors (column numbers), mains first
#' @noRd
logit_terms <- function(d, maxorder) {
  out <- as.list(seq_len(d))
  for (o in seq_len(min(maxorder, d - 1L))) {
    cmb <- utils::combn(d, o + 1L)
    out <- c(out, lapply(seq_len(ncol(cmb)), function(j) cmb[, j]))
  }
  out
}

#' The design matrix of the logit model on the rows `rows` of Z (NULL:
#' every row): the intercept, then one column per term (the product of
#' its columns).
#' @noRd
logit_design <- function(Z, terms, rows = NULL) {
  if (!is.null(rows)) Z <- Z[rows, , drop = FALSE]
  B <- matrix(1, nrow(Z), length(terms) + 1L)
  for (t in seq_along(terms)) {
    v <- Z[, terms[[t]][1]]
    for (j in terms[[t]][-1]) v <- v * Z[, j]
    B[, t + 1L] <- v
  }
  B
}

#' The terms of the logit model that the fit rows can identify: products
#' that are 0 on every fit row (the indicators of two categories of one
#' column, or categories never seen together) are left out; an error
#' (`prdcurve_error_input`) when more than `max_params` parameters remain
#' (`raisable`: the caller has an argument `max_params` to raise it).
#' `terms`: the candidate terms (column numbers of X), main effects (one
#' column) first; pmse_stats() gives those of its treatment contrasts
#' (pmse_terms(), R/pmse.R). `shown_order`: the maxorder the message
#' names (pmse_terms() refuses on the main effects alone, "at least").
#' @noRd
logit_fit_terms <- function(X, maxorder, max_params = logit_max_params,
                            terms = logit_terms(ncol(X), maxorder),
                            raisable = FALSE, call = rlang::caller_env(),
                            shown_order = maxorder) {
  main <- lengths(terms) == 1L
  if (!all(main)) {
    inter <- terms[!main]
    nonzero <- vapply(inter, function(tm) {
      v <- X[, tm[1]]
      for (j in tm[-1]) v <- v * X[, j]
      any(v != 0)
    }, logical(1))
    terms <- c(terms[main], inter[nonzero])
  }
  if (length(terms) + 1L > max_params) {
    # (shown_order: the maxorder asked, where `terms` are its main effects
    # alone, already too many: "at least")
    least <- if (shown_order != maxorder) "at least " else ""
    prd_abort(c(
      "The logit model with {.arg maxorder} = {shown_order} would have {least}{length(terms) + 1L} parameters, more than {max_params}.",
      "i" = "Lower {.arg maxorder}, or choose fewer feature columns with {.arg features}.",
      "i" = if (raisable) "Or raise {.arg max_params} (synthpop's {.arg max.params}): a larger model takes longer and may not converge."
    ), "input", call = call)
  }
  terms
}

#' A start for glm.fit() in logit_fit(): the iteratively reweighted least
#' squares of glm.fit() (its start, weights, working response and
#' convergence rule on the deviance), each step solved from the normal
#' equations by a Cholesky factor (a BLAS product: at 6,000 rows and 390
#' columns 0.03 s, where glm.fit()'s LINPACK QR takes 0.15 s) on the
#' columns of B that a pivoted Cholesky factor of B'B keeps (the others 0).
#' glm.fit() from this start converges in one or two of its own steps to
#' its fit (test-family-logit.R); on separated sets it settles where
#' glm.fit() does (fitted values at 0 or 1), and logit_fit() falls back to
#' the ridge fit alike. NULL (glm.fit() from its own start) where a factor
#' fails, or the deviance is not finite or does not settle in logit_maxit
#' steps.
#' @noRd
logit_newton_start <- function(B, y, epsilon = logit_epsilon,
                               maxit = logit_maxit) {
  fam <- stats::binomial()
  G <- crossprod(B)
  if (!all(is.finite(G))) return(NULL)
  R <- suppressWarnings(chol(G, pivot = TRUE,
                             tol = sqrt(.Machine$double.eps) * max(1, max(abs(diag(G))))))
  keep <- sort(attr(R, "pivot")[seq_len(attr(R, "rank"))])
  if (!length(keep)) return(NULL)
  Bk <- B[, keep, drop = FALSE]
  mu <- (y + 0.5) / 2
  eta <- fam$linkfun(mu)
  dev_old <- sum(fam$dev.resids(y, mu, 1))
  for (it in seq_len(maxit)) {
    w <- fam$mu.eta(eta)^2 / fam$variance(mu)
    z <- eta + (y - mu) / fam$mu.eta(eta)
    Rh <- tryCatch(chol(crossprod(Bk, Bk * w)), error = function(e) NULL)
    if (is.null(Rh)) return(NULL)
    b <- backsolve(Rh, backsolve(Rh, crossprod(Bk, w * z), transpose = TRUE))
    eta <- drop(Bk %*% b)
    mu <- fam$linkinv(eta)
    dev <- sum(fam$dev.resids(y, mu, 1))
    if (!is.finite(dev) || any(!is.finite(b))) return(NULL)
    if (abs(dev - dev_old) / (abs(dev) + 0.1) < epsilon) {
      start <- numeric(ncol(B))
      start[keep] <- b
      return(start)
    }
    dev_old <- dev
  }
  NULL
}

#' Fit a logistic regression of y (0/1) on the design B (its first column
#' the intercept) by R's iteratively reweighted least squares
#' (stats::glm.fit(), as glm(family = binomial)); coefficients of aliased
#' columns are 0. Where the maximum-likelihood estimate does not exist
#' (separated sets: a model far from the real one) or the fit does not
#' converge, the ridge-stabilised Newton fit logistic_ridge() instead.
#' @return list(beta, rank, iter, converged, ridge, fitted)
#' @noRd
logit_fit <- function(B, y) {
  # Newton's steps from normal equations, then glm.fit()'s own from there
  # (it then stops after one or two: the same fit, at a fraction of the
  # cost of its QR decompositions with hundreds of columns)
  start <- logit_newton_start(B, y)
  fit <- suppressWarnings(stats::glm.fit(
    B, y, start = start, family = stats::binomial(),
    control = list(epsilon = logit_epsilon, maxit = logit_maxit)))
  beta <- fit$coefficients
  eta <- fit$linear.predictors
  separated <- any(fit$fitted.values < 1e-12 | fit$fitted.values > 1 - 1e-12)
  if (fit$converged && !separated && all(is.finite(eta))) {
    beta[is.na(beta)] <- 0
    return(list(beta = beta, rank = fit$rank, iter = fit$iter,
                converged = TRUE, ridge = 0, fitted = fit$fitted.values))
  }
  ridge <- 1e-4
  beta <- logistic_ridge(B, y, rep(1, length(y)), ridge = ridge, iter = 100L)
  list(beta = beta, rank = fit$rank, iter = NA_real_, converged = FALSE,
       ridge = ridge, fitted = stats::plogis(drop(B %*% beta)))
}

#' Fit the logit family (SPEC.md section 7) on the fit rows `fx` of `real`
#' and `fy` of `generated`: a logistic regression of the set (1 =
#' generated) on the columns and, for maxorder >= 1, their products up to
#' order maxorder + 1 (synthpop's utility.gen(method = "logit", maxorder)
#' model), by glm.fit(). Same contract as the other fitted families: the
#' score of the rows `rows` of Z (NULL: every row) is the linear
#' predictor, high = "generated" (log q/p up to a constant).
#' @return list(score = function(Z, rows = NULL), settings = list(maxorder,
#'   parameters: the model's rank, iterations, converged (1 or 0), ridge:
#'   the ridge penalty of the fallback fit, 0 without one))
#' @noRd
fit_logit <- function(real, generated, fx, fy, maxorder = 1,
                      call = rlang::caller_env()) {
  maxorder <- as.integer(maxorder)
  X <- rbind(real[fx, , drop = FALSE], generated[fy, , drop = FALSE])
  if (!is.double(X)) storage.mode(X) <- "double"
  y <- rep(c(0, 1), c(length(fx), length(fy)))
  terms <- logit_fit_terms(X, maxorder, call = call)
  f <- logit_fit(logit_design(X, terms), y)
  beta <- f$beta
  rm(X)
  list(
    score = function(Z, rows = NULL) {
      if (!is.double(Z)) storage.mode(Z) <- "double"
      drop(logit_design(Z, terms, rows) %*% beta)
    },
    settings = list(maxorder = as.numeric(maxorder), parameters = f$rank,
                    iterations = f$iter, converged = as.numeric(f$converged),
                    ridge = f$ridge)
  )
}
