# Plain versions of the mixture family's pieces, from their definitions
# (every density a product of dnorm() over the columns, the full matrix of
# responsibilities, loops over components), for test-family-mixture.R and
# test-family-mixture-em.R.

# Log-density of each row of X under each component (a rows x K matrix):
# sum over columns of dnorm(log = TRUE), with the weights.
brute_comp_logdens <- function(X, w, M, V, spherical) {
  sapply(seq_along(w), function(k) {
    v <- if (spherical) rep(V[k], ncol(X)) else V[k, ]
    lw <- log(w[k])
    lw + rowSums(sapply(seq_len(ncol(X)), function(j) {
      dnorm(X[, j], M[k, j], sqrt(v[j]), log = TRUE)
    }))
  })
}

brute_posterior <- function(L) {
  t(apply(L, 1, function(l) exp(l - max(l)) / sum(exp(l - max(l)))))
}

brute_hard <- function(X, C) {
  D <- sapply(seq_len(nrow(C)), function(k) colSums((t(X) - C[k, ])^2))
  R <- matrix(0, nrow(X), nrow(C))
  R[cbind(seq_len(nrow(X)), apply(D, 1, which.min))] <- 1
  R
}

# EM of one set: hard assignment to C, then `iters` rounds of M-step and
# E-step; the parameters of the last M-step and their mean log-likelihood.
brute_em <- function(X, C, spherical, floor_var, iters) {
  R <- brute_hard(X, C)
  for (it in seq_len(iters)) {
    K <- ncol(R)
    w <- M <- NULL
    V <- if (spherical) numeric(K) else matrix(0, K, ncol(X))
    M <- matrix(0, K, ncol(X))
    for (k in seq_len(K)) {
      r <- R[, k]
      M[k, ] <- colSums(r * X) / sum(r)
      dev <- sweep(X, 2, M[k, ])^2
      if (spherical) {
        V[k] <- max(sum(r * dev) / (sum(r) * ncol(X)), mean(floor_var))
      } else {
        V[k, ] <- pmax(colSums(r * dev) / sum(r), floor_var)
      }
    }
    w <- colSums(R) / nrow(X)
    L <- brute_comp_logdens(X, w, M, V, spherical)
    ll <- mean(log(rowSums(exp(L))))
    R <- brute_posterior(L)
  }
  list(weights = w, means = M, var = V, loglik = ll)
}

# EM with tied means: both sets' hard assignments to C; the first means
# pooled, then each round the means weighted by each set's counts over its
# variances (of the round before), each set's variances with one
# pseudo-row at the pooled variance of the component.
brute_em_tied <- function(X, Y, C, floors, iters) {
  sets <- list(X, Y)
  R <- lapply(sets, brute_hard, C = C)
  V <- NULL
  for (it in seq_len(iters)) {
    b <- brute_tied_step(sets, R, V, floors)
    V <- b$var
    ll <- 0
    for (j in 1:2) {
      L <- brute_comp_logdens(sets[[j]], b$weights[[j]], b$means, V[[j]], TRUE)
      ll <- ll + sum(log(rowSums(exp(L))))
      R[[j]] <- brute_posterior(L)
    }
    ll <- ll / (nrow(X) + nrow(Y))
  }
  c(b, list(loglik = ll))
}

# One M-step with tied means (spherical) from the responsibilities R of
# both sets and the variances V of the step before (NULL: pooled means).
brute_tied_step <- function(sets, R, V, floors) {
  d <- ncol(sets[[1]])
  K <- ncol(R[[1]])
  M <- matrix(0, K, d)
  for (k in seq_len(K)) {
    num <- 0
    den <- 0
    for (j in 1:2) {
      r <- R[[j]][, k]
      a <- if (is.null(V)) 1 else 1 / V[[j]][k]
      num <- num + a * colSums(r * sets[[j]])
      den <- den + a * sum(r)
    }
    M[k, ] <- num / den
  }
  ss <- lapply(1:2, function(j) {
    vapply(seq_len(K), function(k) {
      sum(R[[j]][, k] * rowSums(sweep(sets[[j]], 2, M[k, ])^2))
    }, 0)
  })
  N <- lapply(R, colSums)
  vpool <- (ss[[1]] + ss[[2]]) / (d * (N[[1]] + N[[2]]))
  V <- lapply(1:2, function(j) {
    pmax((ss[[j]] + d * vpool) / (d * (N[[j]] + 1)), mean(floors[[j]]))
  })
  list(means = M, var = V, weights = lapply(N, function(n) n / sum(n)))
}

# three clusters in two dimensions, weights w
three <- function(n, w = c(1, 1, 1), sd = 1) {
  comp <- sample(3, n, replace = TRUE, prob = w)
  cbind(rnorm(n, c(-6, 0, 6)[comp], sd), rnorm(n, c(0, 5, 0)[comp], sd))
}
three_logdens <- function(z, w, sd = 1) {
  w <- w / sum(w)
  log(w[1] * dnorm(z[, 1], -6, sd) * dnorm(z[, 2], 0, sd) +
        w[2] * dnorm(z[, 1], 0, sd) * dnorm(z[, 2], 5, sd) +
        w[3] * dnorm(z[, 1], 6, sd) * dnorm(z[, 2], 0, sd))
}
