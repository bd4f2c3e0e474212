# The mixture family (R/family-mixture.R) against EM written plainly from
# its definition (every density a product of dnorm() over the columns, the
# full matrix of responsibilities, loops over components), against the
# true log-likelihood ratio of well-separated mixtures, and its choices.

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

test_that("EM of one set equals the plain EM (spherical and diagonal)", {
  set.seed(11)
  X <- rbind(matrix(rnorm(40 * 3), 40), matrix(rnorm(30 * 3, 4, 0.5), 30),
             matrix(rnorm(20 * 3, c(-3, 0, 3), 2), 20, byrow = TRUE))
  fl <- 1e-3 * apply(X, 2, function(v) mean((v - mean(v))^2))
  C <- mixture_kmeanspp(X, 3)
  for (form in c("spherical", "diagonal")) {
    m <- mixture_em(X, C, form, fl, maxit = 12L, tol = 0)
    b <- brute_em(X, C, form == "spherical", fl, 12L)
    expect_equal(m$iterations, 12L)
    expect_equal(m$weights, b$weights, tolerance = 1e-8)
    expect_equal(m$means, b$means, tolerance = 1e-8, ignore_attr = TRUE)
    expect_equal(m$var, b$var, tolerance = 1e-8, ignore_attr = TRUE)
    expect_equal(m$loglik, b$loglik, tolerance = 1e-8)
    # the log-density of new rows, by the plain formula
    Z <- matrix(rnorm(15), 5)
    expect_equal(mixture_logdens(m, Z),
                 log(rowSums(exp(brute_comp_logdens(
                   Z, m$weights, m$means, m$var, form == "spherical")))),
                 tolerance = 1e-10)
  }
})

test_that("EM with tied means equals the plain EM", {
  set.seed(12)
  X <- rbind(matrix(rnorm(30 * 2), 30), matrix(rnorm(30 * 2, 5), 30))
  Y <- rbind(matrix(rnorm(10 * 2, 0, 1.5), 10), matrix(rnorm(40 * 2, 5), 40))
  fl <- lapply(list(X, Y), function(A) {
    1e-3 * apply(A, 2, function(v) mean((v - mean(v))^2))
  })
  C <- mixture_kmeanspp(rbind(X, Y), 2)
  m <- mixture_em_tied(X, Y, C, "spherical", fl, maxit = 10L, tol = 0)
  b <- brute_em_tied(X, Y, C, fl, 10L)
  for (j in 1:2) {
    expect_equal(m[[j]]$means, b$means, tolerance = 1e-8, ignore_attr = TRUE)
    expect_equal(m[[j]]$var, b$var[[j]], tolerance = 1e-8, ignore_attr = TRUE)
    expect_equal(m[[j]]$weights, b$weights[[j]], tolerance = 1e-8,
                 ignore_attr = TRUE)
    expect_equal(m[[j]]$loglik, b$loglik, tolerance = 1e-8)
  }
  # the component Y hardly uses keeps a finite spread near X's
  expect_true(all(is.finite(m[[2]]$var)))
})

test_that("k-means++ seeds are rows of X, one per well-separated cluster", {
  set.seed(13)
  X <- three(300)
  C <- mixture_kmeanspp(X, 3)
  expect_true(all(apply(C, 1, function(c) any(colSums(t(X) == c) == 2))))
  cl <- apply(C, 1, function(c) which.min((c(-6, 0, 6) - c[1])^2 +
                                             (c(0, 5, 0) - c[2])^2))
  expect_setequal(cl, 1:3)
  # fewer distinct rows than K: those rows
  expect_equal(nrow(mixture_kmeanspp(X[rep(1:2, 10), ], 5)), 2L)
})

test_that("squared distances in blocks equal the direct ones", {
  set.seed(14)
  # 600 rows: three blocks of src/mixture.c, the last one short
  X <- matrix(rnorm(600 * 4), 600)
  C <- matrix(rnorm(3 * 4), 3)
  expect_equal(mixture_dist2(X, C), sq_dist(X, C), tolerance = 1e-12)
  expect_equal(mixture_dist2(X[1:50, ], C), sq_dist(X[1:50, ], C),
               tolerance = 1e-12)
})

test_that("the E-step's sums over blocks equal the plain posterior's", {
  set.seed(15)
  X <- matrix(rnorm(700 * 5), 700) + rep(c(0, 3), each = 350)
  C <- X[c(1, 400, 600), ]
  w <- c(0.5, 0.3, 0.2)
  for (form in c("spherical", "diagonal")) {
    V <- if (form == "spherical") c(1, 2, 0.5) else
      matrix(runif(15, 0.5, 2), 3)
    m <- list(form = form, weights = w, means = C, var = V)
    st <- mixture_estep(m, X)
    L <- brute_comp_logdens(X, w, C, V, form == "spherical")
    R <- brute_posterior(L)
    expect_equal(st$lse, log(rowSums(exp(L))), tolerance = 1e-10)
    expect_equal(st$N, colSums(R), tolerance = 1e-10)
    expect_equal(st$S1, crossprod(R, X), tolerance = 1e-10,
                 ignore_attr = TRUE)
    expect_equal(st$S2, if (form == "spherical") drop(crossprod(R, rowSums(X^2)))
                 else crossprod(R, X^2), tolerance = 1e-10, ignore_attr = TRUE)
    expect_equal(mixture_logdens(m, X), st$lse)
    # the hard assignment's sums: counts and sums of the nearest rows
    H <- brute_hard(X, C)
    sh <- mixture_hard(X, C, form)
    expect_equal(sh$N, colSums(H))
    expect_equal(sh$S1, crossprod(H, X), tolerance = 1e-12, ignore_attr = TRUE)
  }
})

test_that("the score is the true log-likelihood ratio of separated mixtures", {
  # one dimension: two modes 10 apart, reweighted; near each mode the true
  # log ratio is log(0.8 / 0.5) or log(0.2 / 0.5) (measured over seeds 1-4:
  # within 0.047)
  set.seed(1)
  n <- 3000
  x <- matrix(c(rnorm(n / 2, -5), rnorm(n / 2, 5)))
  y <- matrix(c(rnorm(0.8 * n, -5), rnorm(0.2 * n, 5)))
  f <- fit_mixture(x, y, seq_len(n), seq_len(n))
  z <- matrix(c(-5.5, -5, -4.5, 4.5, 5, 5.5))
  truth <- log(rep(c(0.8, 0.2), each = 3) / 0.5)
  expect_lt(max(abs(f$score(z) - truth)), 0.06)
  expect_equal(unname(f$settings$components), c(2, 2))
  # two dimensions: three clusters, reweighted and one spread changed
  set.seed(22)
  x <- three(4000)
  y <- three(4000, w = c(0.6, 0.3, 0.1))
  f <- fit_mixture(x, y, 1:3000, 1:3000, components = 1:6)
  z <- x[3001:4000, ]
  lr <- three_logdens(z, c(0.6, 0.3, 0.1)) - three_logdens(z, c(1, 1, 1))
  err <- f$score(z) - lr
  expect_lt(mean(abs(err)), 0.08)
  expect_gt(cor(f$score(z), lr), 0.99)
  expect_equal(unname(f$settings$components), c(3, 3))
})

test_that("the number of components follows the clusters the ratio needs", {
  # four clusters at the corners of a square, the generated set thinning
  # one diagonal pair (an exclusive-or pattern: no one or two spherical or
  # diagonal Gaussians per set follow it); 4, or 5 when a cluster is split
  xor4 <- function(n, w) {
    comp <- sample(4, n, replace = TRUE, prob = w)
    cbind(rnorm(n, c(-6, 6, -6, 6)[comp]), rnorm(n, c(-6, 6, 6, -6)[comp]))
  }
  for (seed in 1:3) {
    set.seed(seed)
    x <- xor4(1500, c(1, 1, 1, 1))
    y <- xor4(1500, c(1, 1, 0.25, 0.25))
    f <- fit_mixture(x, y, 1:1500, 1:1500, components = 1:8,
                     means = c("tied", "separate"))
    expect_true(all(f$settings$components %in% 4:5))
  }
  # where a single Gaussian per set ranks the rows as well (three
  # clusters, one thinned), the choice may be that simpler one; with Q = P
  # it is 1 component and the score 0 (below)
})

test_that("scores do not change under a common affine map, even near overflow", {
  set.seed(31)
  x <- three(600)
  y <- three(600, w = c(1, 2, 1), sd = 1.2)
  s0 <- withr::with_seed(5, fit_mixture(x, y, 1:400, 1:400))$score(x, 401:600)
  for (a in c(1e-3, 1e99, 1e300)) {
    f <- withr::with_seed(5, fit_mixture(x * a + 7 * a, y * a + 7 * a,
                                         1:400, 1:400))
    s <- f$score(x * a + 7 * a, 401:600)
    expect_true(all(is.finite(s)))
    expect_equal(s, s0, tolerance = 1e-6)
  }
})

test_that("score(Z, rows) reads the rows of Z; settings are named numbers", {
  set.seed(41)
  x <- three(300)
  y <- three(300, w = c(2, 1, 1))
  f <- fit_mixture(x, y, 1:200, 1:200, components = c(1, 3))
  expect_equal(f$score(x, 201:300), f$score(x[201:300, ]))
  expect_equal(f$score(y, c(5L, 1L)), f$score(y[c(5, 1), ]))
  expect_true(all(vapply(f$settings, is.numeric, TRUE)))
  expect_named(f$settings$components, c("real", "generated"))
  expect_true(f$settings$covariance[["real"]] %in% mixture_forms)
  # integer matrices are read as doubles
  xi <- round(x * 100)
  storage.mode(xi) <- "integer"
  fi <- withr::with_seed(1, fit_mixture(xi, y * 100, 1:200, 1:200))
  fd <- withr::with_seed(1, fit_mixture(round(x * 100), y * 100, 1:200, 1:200))
  expect_equal(fi$score(xi, 201:210), fd$score(round(x * 100), 201:210))
})

test_that("Q = P gives one component and a score of 0", {
  set.seed(51)
  x <- three(600)
  f <- fit_mixture(x, x, 1:600, 1:600)
  expect_equal(f$score(three(50)), rep(0, 50), tolerance = 1e-8)
})

test_that("bad arguments are classed errors naming the argument", {
  x <- matrix(rnorm(40), 20)
  expect_error(fit_mixture(x, x, 1:10, 1:10, components = 0),
               class = "prdcurve_error_input", regexp = "components")
  expect_error(fit_mixture(x, x, 1:10, 1:10, components = 2.5),
               class = "prdcurve_error_input")
  expect_error(fit_mixture(x, x, 1:10, 1:10, forms = "full"),
               class = "prdcurve_error_input", regexp = "forms")
  expect_error(fit_mixture(x, x, 1:10, 1:10, means = "shared"),
               class = "prdcurve_error_input", regexp = "means")
  expect_error(fit_mixture(x, x, 1:10, 1:10, restarts = 0),
               class = "prdcurve_error_input", regexp = "restarts")
  expect_error(fit_mixture(x, x, 1:3, 1:10), class = "prdcurve_error_split")
})

test_that("permuting the rows gives the same scores under a fixed seed", {
  set.seed(71)
  x <- three(500)
  y <- three(500, w = c(1, 3, 1), sd = 1.1)
  px <- sample(500)
  py <- sample(500)
  ex <- 401:500
  f0 <- withr::with_seed(9, fit_mixture(x, y, 1:400, 1:400))
  # the same fit rows, at other positions and in another order
  f1 <- withr::with_seed(9, fit_mixture(x[px, ], y[py, ], rev(order(px)[1:400]),
                                        order(py)[1:400]))
  expect_identical(f1$score(x[ex, ]), f0$score(x[ex, ]))
  expect_identical(f1$settings, f0$settings)
  g0 <- withr::with_seed(9, fit_smooth_marginal(x, y, 1:400, 1:400))
  g1 <- withr::with_seed(9, fit_smooth_marginal(x[px, ], y[py, ],
                                                order(px)[1:400],
                                                rev(order(py)[1:400])))
  expect_identical(g1$score(y[ex, ]), g0$score(y[ex, ]))
})

test_that("the E-step's sums do not depend on the number of threads", {
  set.seed(18)
  old <- prd_threads(1)
  on.exit(prd_threads(old), add = TRUE)
  # 3,000 rows: 12 blocks in 8 chunks of their own sums
  X <- matrix(rnorm(3000 * 6), 3000)
  for (form in c("spherical", "diagonal")) {
    m <- list(form = form, weights = c(0.3, 0.7), means = X[1:2, ],
              var = if (form == "spherical") c(1, 2) else matrix(1.5, 2, 6))
    prd_threads(1)
    one <- mixture_estep(m, X)
    prd_threads(2)
    two <- mixture_estep(m, X)
    expect_identical(one, two)
    expect_equal(two$N, colSums(brute_posterior(brute_comp_logdens(
      X, m$weights, m$means, m$var, form == "spherical"))), tolerance = 1e-10)
  }
})

test_that("each fold's mixtures are one EM step on the other cells from the fit rows' fits", {
  set.seed(17)
  x <- three(300)
  y <- three(300, w = c(3, 1, 1))
  # cells: the fit rows, then three folds of the evaluation rows
  cells <- lapply(1:2, function(j) {
    list(1:120, 121:180, 181:240, 241:300)
  })
  got <- withr::with_seed(5, mixture_cells(x, y, cells, components = c(1, 3)))
  f <- withr::with_seed(5, fit_mixture(x, y, 1:120, 1:120,
                                       components = c(1, 3), keep_fits = TRUE))
  expect_true(f$tied)
  # fold v: the posterior under each refit of f on the other cells' rows
  # (plain formulas), one tied M-step, the mean log ratio of the refits
  want <- lapply(1:3, function(v) {
    tr <- unlist(cells[[1]][-(v + 1L)])
    sets <- list(mixture_rows(x, tr, f$transform),
                 mixture_rows(y, tr, f$transform))
    fl <- lapply(sets, function(A) {
      1e-3 * apply(A, 2, function(u) mean((u - mean(u))^2))
    })
    score <- function(z) {
      z <- mixture_rows(z, NULL, f$transform)
      rowMeans(sapply(f$fits, function(m) {
        R <- lapply(1:2, function(j) {
          brute_posterior(brute_comp_logdens(sets[[j]], m[[j]]$weights,
                                             m[[j]]$means, m[[j]]$var, TRUE))
        })
        b <- brute_tied_step(sets, R, lapply(m, `[[`, "var"), fl)
        ld <- lapply(1:2, function(j) {
          log(rowSums(exp(brute_comp_logdens(z, b$weights[[j]], b$means,
                                             b$var[[j]], TRUE))))
        })
        ld[[2]] - ld[[1]]
      }))
    }
    list(score(x[cells[[1]][[v + 1L]], ]), score(y[cells[[2]][[v + 1L]], ]))
  })
  expect_equal(got$real, unlist(lapply(want, `[[`, 1L)), tolerance = 1e-8)
  expect_equal(got$gen, unlist(lapply(want, `[[`, 2L)), tolerance = 1e-8)
  # a fold's rows are in none of its fits: moved, they are scored by the
  # same fits as before (the fit rows' and the other folds' rows)
  x2 <- x
  x2[181:240, ] <- x2[181:240, ] + 0.5
  g2 <- withr::with_seed(5, mixture_cells(x2, y, cells, components = c(1, 3)))
  ff <- mixture_fold_fits(x, y, cells, f)
  expect_equal(g2$real[61:120],
               mixture_score(ff[[2]], f$transform)(x2, 181:240),
               tolerance = 1e-12)
  expect_false(isTRUE(all.equal(g2$real[1:60], got$real[1:60])))
  # separate means, each set its own form: one M-step of each set's own
  # mixture from the E-step on the other cells' rows
  fs <- withr::with_seed(3, fit_mixture(x, y, 1:120, 1:120, components = c(1, 3),
                                        forms = c("spherical", "diagonal"),
                                        means = "separate", keep_fits = TRUE))
  expect_false(fs$tied)
  ffs <- mixture_fold_fits(x, y, cells, fs)
  tr <- unlist(cells[[2]][-2L])
  Z <- mixture_rows(y, tr, fs$transform)
  m2 <- fs$fits[[1]][[2]]
  fl <- 1e-3 * apply(Z, 2, function(u) mean((u - mean(u))^2))
  one <- mixture_mstep(mixture_estep(m2, Z), m2$form, fl, ncol(Z))
  for (p in c("weights", "means", "var")) {
    expect_equal(ffs[[1]][[1]][[2]][[p]], one[[p]], tolerance = 1e-8)
  }
  # the fit rows' model is the choice: three components, as the data
  expect_equal(got$settings$components[["real"]], 3)
  expect_true(all(got$settings$iterations > 0))
  # without fit rows: each fold chooses and fits on the other cells alone
  cells0 <- lapply(1:2, function(j) list(integer(), 1:150, 151:300))
  g0 <- withr::with_seed(6, mixture_cells(x, y, cells0, components = c(1, 3)))
  w0 <- withr::with_seed(6, {
    f1 <- fit_mixture(x, y, 151:300, 151:300, components = c(1, 3))
    s1 <- f1$score(x, 1:150)
    f2 <- fit_mixture(x, y, 1:150, 1:150, components = c(1, 3))
    c(s1, f2$score(x, 151:300))
  })
  expect_equal(g0$real, w0, tolerance = 1e-12)
})
