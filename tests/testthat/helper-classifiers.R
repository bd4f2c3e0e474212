# Brute-force versions of the fitted families, shared by their test files.

# Ledoit and Wolf (2004), Lemmas 3.2-3.4, with their normalised norm
# ||A||^2 = tr(A A') / d, for the pooled within-set covariance S = sum_k
# (n_k / n) S_k of sets of centred rows (S_k = a_k' a_k / n_k): the noise
# b-bar^2 is the sum of each set's own, (n_k / n)^2 (1 / n_k^2) sum_i
# ||a_i a_i' - S_k||^2 (the sets are independent); with one set it is the
# paper's formula.
brute_lw <- function(sets) {
  d <- ncol(sets[[1]])
  n <- sum(vapply(sets, nrow, 1L))
  nrm <- function(A) sum(diag(A %*% t(A))) / d
  S <- matrix(0, d, d)
  b2bar <- 0
  for (a in sets) {
    Sk <- crossprod(a) / nrow(a)
    S <- S + nrow(a) / n * Sk
    b2bar <- b2bar + (nrow(a) / n)^2 * sum(vapply(seq_len(nrow(a)), function(i) {
      nrm(tcrossprod(a[i, ]) - Sk)
    }, 0)) / nrow(a)^2
  }
  m <- sum(diag(S)) / d
  delta2 <- nrm(S - m * diag(d))
  rho <- min(b2bar, delta2) / delta2
  list(sigma = rho * m * diag(d) + (1 - rho) * S, rho = rho, m = m)
}

centre <- function(x) sweep(x, 2, colMeans(x))

brute_linear_scores <- function(xf, yf, z) {
  lw <- brute_lw(list(centre(xf), centre(yf)))
  w <- solve(lw$sigma, colMeans(yf) - colMeans(xf))
  drop((z - matrix((colMeans(xf) + colMeans(yf)) / 2, nrow(z), ncol(z),
                   byrow = TRUE)) %*% w)
}

# The linear family in folds with a split (R/crossfit.R, fold_discriminants()):
# the discriminant of the fold's fit rows xr, yr (the fit rows xf, yf and
# the other folds), its Ledoit-Wolf intensity with the squared Frobenius
# norms predicted from the fit rows: each set's per-row dispersion e =
# mean_i ||a_i a_i' - S||^2 and ||Sigma||^2 = ||S||^2 - e / n_f, so that
# ||S_fold||^2 = ||Sigma||^2 + e / n_fold and the noise is e / n_fold.
brute_fold_linear <- function(xf, yf, xr, yr) {
  d <- ncol(xr)
  per_row <- function(a) {
    a <- centre(a)
    S <- crossprod(a) / nrow(a)
    e <- mean(vapply(seq_len(nrow(a)), function(i) {
      sum((tcrossprod(a[i, ]) - S)^2)
    }, 0))
    list(S = S, e = e, big = sum(S^2) - e / nrow(a))
  }
  px <- per_row(xf)
  py <- per_row(yf)
  nx <- nrow(xr)
  ny <- nrow(yr)
  a <- nx / (nx + ny)
  b <- ny / (nx + ny)
  S <- a * crossprod(centre(xr)) / nx + b * crossprod(centre(yr)) / ny
  m <- sum(diag(S)) / d
  frob <- a^2 * (px$big + px$e / nx) + b^2 * (py$big + py$e / ny) +
    2 * a * b * sum(px$S * py$S)
  delta2 <- frob - 2 * m * sum(diag(S)) + m^2 * d # ||S - m I||^2
  noise <- a^2 * px$e / nx + b^2 * py$e / ny
  rho <- if (delta2 <= 0) 1 else min(1, noise / delta2)
  w <- solve((1 - rho) * S + rho * m * diag(d), colMeans(yr) - colMeans(xr))
  list(w = w, mx = colMeans(xr), my = colMeans(yr),
       centre = (colMeans(xr) + colMeans(yr)) / 2)
}

brute_fold_linear_scores <- function(xf, yf, xr, yr, z) {
  f <- brute_fold_linear(xf, yf, xr, yr)
  drop((z - matrix(f$centre, nrow(z), ncol(z), byrow = TRUE)) %*% f$w)
}

# Friedman (1989) regularised covariance of one set, with the closed-form
# intensities of R/classifiers.R written out on d x d matrices.
brute_rda_sigma <- function(own, other) {
  d <- ncol(own)
  ao <- centre(own)
  at <- centre(other)
  n <- nrow(ao) + nrow(at)
  So <- crossprod(ao) / nrow(ao)
  St <- crossprod(at) / nrow(at)
  Sp <- (nrow(ao) * So + nrow(at) * St) / n
  frob <- function(A) sum(A^2)
  noise <- function(a, S) sum(vapply(seq_len(nrow(a)), function(i) {
    frob(tcrossprod(a[i, ]) - S)
  }, 0)) / nrow(a)^2
  e_own <- noise(ao, So)
  e_p <- (nrow(ao)^2 * e_own + nrow(at)^2 * noise(at, St)) / n^2
  mo <- sum(diag(So)) / d
  mp <- sum(diag(Sp)) / d
  Tk <- (mo / mp) * Sp
  lam <- min(1, e_own / frob(So - Tk))
  C <- (1 - lam) * So + lam * Tk
  e_c <- (1 - lam)^2 * e_own + (lam * mo / mp)^2 * e_p
  rho <- min(1, e_c / frob(C - mo * diag(d)))
  (1 - rho) * C + rho * mo * diag(d)
}

brute_quadratic_scores <- function(xf, yf, z) {
  sx <- brute_rda_sigma(xf, yf)
  sy <- brute_rda_sigma(yf, xf)
  q <- function(S, mu) {
    v <- sweep(z, 2, mu)
    rowSums((v %*% solve(S)) * v)
  }
  ld <- function(S) as.numeric(determinant(S)$modulus)
  0.5 * (q(sx, colMeans(xf)) - q(sy, colMeans(yf))) + 0.5 * (ld(sx) - ld(sy))
}

# Every threshold rule on the scores (high = generated) at every lambda.
brute_score_curve <- function(sr, sg, lambda) {
  rules <- list(c(1, 0), c(0, 1)) # f = 0 always, f = 1 always: (fpr, fnr)
  for (t in sort(unique(c(sr, sg)))) {
    rules <- c(rules, list(c(mean(sr > t), mean(sg <= t)),
                           c(mean(sr >= t), mean(sg < t))))
  }
  err <- do.call(rbind, rules)
  alpha <- vapply(lambda, function(l) min(l * err[, 1] + err[, 2]), 0)
  data.frame(lambda = c(0, lambda, Inf),
             precision = c(0, alpha, min(err[err[, 1] == 0, 2])),
             recall = c(min(err[err[, 2] == 0, 1]), alpha / lambda, 0))
}

expect_curve_equal <- function(cv, ref, tol = 1e-10) {
  expect_equal(cv$lambda, ref$lambda)
  expect_equal(cv$precision, pmin(ref$precision, 1), tolerance = tol)
  expect_equal(cv$recall, pmin(ref$recall, 1), tolerance = tol)
}

two_sets <- function(n, d, shift = 1, sd = 1.3, seed = 1) {
  set.seed(seed)
  x <- matrix(rnorm(n * d), n)
  y <- matrix(rnorm(n * d, sd = sd), n)
  y[, 1] <- y[, 1] + shift
  # (in the canonical row order prd_curve() draws over, so that a test can
  # repeat its draws on these rows)
  list(x = in_canonical_order(x), y = in_canonical_order(y))
}
