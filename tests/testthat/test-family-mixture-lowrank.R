# The mixture family's low-rank components (R/family-mixture-lowrank.R)
# against their definitions: the Gaussian log-density with the full
# covariance, probabilistic PCA's maximum likelihood at EM's fixed point
# (the top eigenvectors of each component's weighted covariance), the tied
# fits, the folds' sums, and the score on clusters with a few directions of
# large spread.

# n rows of a Gaussian in d columns with variances `spikes` along the first
# directions and `rest` elsewhere, rotated by the orthonormal B, times
# `scale` per column, around `mean`.
spiked <- function(n, d, spikes, B, mean = 0, scale = 1, rest = 1) {
  Z <- matrix(rnorm(n * d), n) %*%
    diag(sqrt(c(spikes, rep(rest, d - length(spikes)))))
  (Z %*% t(B) + rep(mean, each = n)) * rep(scale, each = n)
}

test_that("the low-rank log-density is the Gaussian's with its full covariance", {
  set.seed(81)
  d <- 12
  q <- lowrank_q(d)
  m <- list(form = "lowrank", weights = c(0.3, 0.7),
            means = matrix(rnorm(2 * d), 2), var = c(0.5, 1.2),
            basis = lowrank_orth(matrix(rnorm(d * 2 * q), d), q),
            spikes = rbind(c(3, 2, 1, 0.6), c(5, 1.5, 1.3, 1.2)),
            colscale = runif(d, 0.5, 2))
  # (700 rows: three blocks of rows in C, in three chunks of their own)
  X <- matrix(rnorm(700 * d), 700)
  comp <- sapply(1:2, function(k) {
    U <- m$basis[, (k - 1) * q + seq_len(q)]
    S <- m$var[k] * diag(d) + U %*% diag(m$spikes[k, ] - m$var[k]) %*% t(U)
    S <- diag(m$colscale) %*% S %*% diag(m$colscale)
    R <- chol(S)
    z <- backsolve(R, t(X) - m$means[k, ] * m$colscale, transpose = TRUE)
    log(m$weights[k]) - 0.5 * (d * log(2 * pi) + 2 * sum(log(diag(R))) +
                                 colSums(z^2))
  })
  expect_equal(mixture_logdens(m, X), log(rowSums(exp(comp))),
               tolerance = 1e-12)
  # the sums of the E-step: the posterior's counts and R'X in the scaled
  # columns
  post <- exp(comp - log(rowSums(exp(comp))))
  st <- mixture_estep(m, X)
  expect_equal(st$N, colSums(post), tolerance = 1e-12)
  Xs <- X / rep(m$colscale, each = 700)
  expect_equal(st$S1, crossprod(post, Xs), tolerance = 1e-12)
  expect_equal(st$S2, drop(crossprod(post, rowSums(Xs^2))), tolerance = 1e-12)
  # SU = sum_i r_ik (x_i - mu_k) (U_k'(x_i - mu_k))', in the scaled columns
  for (k in 1:2) {
    cols <- (k - 1) * q + seq_len(q)
    C <- Xs - rep(m$means[k, ], each = 700)
    expect_equal(st$SU[, cols],
                 crossprod(C * post[, k], C %*% m$basis[, cols]),
                 tolerance = 1e-12)
  }
  # the same numbers, to the last bit, with one thread or two
  old <- prd_threads(1)
  on.exit(prd_threads(old), add = TRUE)
  one <- mixture_estep(m, X)
  prd_threads(2)
  expect_identical(mixture_estep(m, X), one)
})

test_that("at EM's fixed point each component is probabilistic PCA's maximum likelihood", {
  set.seed(82)
  d <- 10
  B <- qr.Q(qr(matrix(rnorm(d * d), d)))
  X <- rbind(spiked(400, d, c(16, 9, 6, 4), B, mean = 6),
             spiked(300, d, c(12, 8, 5, 3), B[, d:1], mean = -6))
  fl <- 1e-3 * apply(X, 2, function(v) mean((v - mean(v))^2))
  m <- withr::with_seed(1, mixture_em(X, X[c(1, 401), ], "lowrank", fl,
                                      maxit = 300L, tol = 0))
  # the E-step's posterior (from the plain log-densities) and one M-step
  st <- mixture_estep(m, X)
  m2 <- mixture_mstep(st, "lowrank", fl, d)
  Xs <- X / rep(m$colscale, each = nrow(X))
  for (k in 1:2) {
    r <- exp(mixture_estep(replace(m, "weights", list(replace(m$weights, -k, 0))),
                           X, stats = FALSE)$lse - st$lse)
    mu <- colSums(r * Xs) / sum(r)
    S <- crossprod(sqrt(r) * sweep(Xs, 2, mu)) / sum(r)
    e <- eigen(S, symmetric = TRUE)
    U <- m2$basis[, (k - 1) * 4 + 1:4]
    expect_equal(m2$means[k, ], mu, tolerance = 1e-10)
    expect_equal(m2$spikes[k, ], e$values[1:4], tolerance = 1e-8)
    expect_equal(m2$var[k], mean(e$values[-(1:4)]), tolerance = 1e-8)
    expect_equal(U %*% t(U), e$vectors[, 1:4] %*% t(e$vectors[, 1:4]),
                 tolerance = 1e-6)
    # and EM stopped at its fixed point
    expect_equal(m$spikes[k, ], m2$spikes[k, ], tolerance = 1e-8)
  }
})

test_that("tied low-rank mixtures share means and bases, each set its spread", {
  set.seed(83)
  d <- 20
  B <- qr.Q(qr(matrix(rnorm(d * d), d)))
  sc <- exp(seq(0, 1.5, length.out = d))
  X <- spiked(3000, d, c(25, 16, 9, 6), B, scale = sc)
  Y <- spiked(3000, d, 1.5^2 * c(25, 16, 9, 6), B, scale = sc)
  fl <- mixture_floors(X, Y)
  C <- matrix(colMeans(rbind(X, Y)), 1)
  m <- withr::with_seed(2, mixture_em_tied(X, Y, C, "lowrank", fl,
                                           maxit = 200L, tol = 0))
  expect_identical(m[[1]]$means, m[[2]]$means)
  expect_identical(m[[1]]$basis, m[[2]]$basis)
  expect_identical(m[[1]]$colscale, m[[2]]$colscale)
  # Y's spikes 2.25 times X's (their estimates within 10%), the rest as X's
  expect_equal(as.vector(m[[2]]$spikes / m[[1]]$spikes), rep(2.25, 4),
               tolerance = 0.1)
  expect_equal(m[[2]]$var / m[[1]]$var, 1, tolerance = 0.05)
  # the shared basis spans the spiked directions, in the scaled columns
  # (nearly: the scale makes the rest anisotropic)
  U <- m[[1]]$basis
  V <- qr.Q(qr(diag(sc / m[[1]]$colscale) %*% B[, 1:4]))
  expect_gt(min(svd(crossprod(U, V))$d), 0.95)
})

test_that("a fold's low-rank fits are the M-step of the sums of its cells' rows", {
  set.seed(84)
  d <- 8
  B <- qr.Q(qr(matrix(rnorm(d * d), d)))
  x <- rbind(spiked(150, d, c(9, 4), B, 3), spiked(150, d, c(9, 4), B, -3))
  y <- rbind(spiked(150, d, c(20, 9), B, 3), spiked(150, d, c(9, 4), B, -3))
  cells <- lapply(1:2, function(j) list(1:120, 121:180, 181:240, 241:300))
  f <- withr::with_seed(3, fit_mixture(x, y, 1:120, 1:120, forms = "lowrank",
                                       components = c(1, 2), keep_fits = TRUE))
  expect_equal(f$fits[[1]][[1]]$form, "lowrank")
  ff <- mixture_fold_fits(x, y, cells, f)
  # by blocks of 7 rows: the same fits, their sums added
  expect_equal(mixture_fold_fits(x, y, cells, f, block = 7L), ff,
               tolerance = 1e-12)
  v <- 2
  rows <- unlist(cells[[1]][-(v + 1L)])
  sets <- list(mixture_rows(x, rows, f$transform), mixture_rows(y, rows, f$transform))
  fl <- mixture_floors(sets[[1]], sets[[2]])
  for (r in seq_along(f$fits)) {
    m <- f$fits[[r]]
    st <- lapply(1:2, function(j) mixture_estep(m[[j]], sets[[j]]))
    want <- mixture_tied_mstep(st, lapply(m, `[[`, "var"), "lowrank", fl, d)
    for (j in 1:2) {
      got <- ff[[v]][[r]][[j]]
      expect_equal(got$spikes, want$fits[[j]]$spikes, tolerance = 1e-10)
      expect_equal(got$basis, want$fits[[j]]$basis, tolerance = 1e-10)
      expect_equal(got$means, want$fits[[j]]$means, tolerance = 1e-10)
    }
  }
})

test_that("on classes with a few directions of large spread the low-rank form follows the log ratio", {
  set.seed(85)
  d <- 40
  B <- lapply(1:3, function(k) qr.Q(qr(matrix(rnorm(d * d), d))))
  mu <- lapply(1:3, function(k) rnorm(d) * 1.2)
  draw <- function(n, wide) {
    do.call(rbind, lapply(1:3, function(k) {
      spiked(n, d, wide^2 * c(16, 9, 6), B[[k]], mu[[k]], rest = wide^2)
    }))
  }
  x <- draw(700, 1)
  y <- draw(700, 1.3)
  # the true log ratio: each class a Gaussian with its covariance
  logdens <- function(z, wide) {
    comp <- sapply(1:3, function(k) {
      S <- B[[k]] %*% diag(wide^2 * c(16, 9, 6, rep(1, d - 3))) %*% t(B[[k]])
      R <- chol(S)
      u <- backsolve(R, t(z) - mu[[k]], transpose = TRUE)
      -sum(log(diag(R))) - colSums(u^2) / 2
    })
    log(rowSums(exp(comp))) - log(3)
  }
  ev <- c(401:700, 1101:1400, 1801:2100)
  fx <- setdiff(seq_len(2100), ev)
  z <- rbind(x[ev, ], y[ev, ])
  truth <- logdens(z, 1.3) - logdens(z, 1)
  cors <- vapply(c("spherical", "lowrank"), function(form) {
    f <- withr::with_seed(4, fit_mixture(x, y, fx, fx, forms = form,
                                         components = c(1, 3)))
    cor(f$score(z), truth)
  }, 1)
  expect_gt(cors[["lowrank"]], 0.9)
  expect_gt(cors[["lowrank"]], cors[["spherical"]] + 0.1)
  # the family's own choice among both forms: the low-rank one
  f <- withr::with_seed(4, fit_mixture(x, y, fx, fx, components = c(1, 3)))
  expect_equal(f$settings$covariance, c(real = 3, generated = 3))
})
