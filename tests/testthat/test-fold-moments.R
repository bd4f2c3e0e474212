# Tests of R/fold-moments.R.

test_that("linear in folds: conjugate gradients equal the direct solve and the brute force", {
  # anisotropic sets (variances 1 / i), a Student t set, d up to 150
  for (cfg in list(c(60, 3), c(200, 30), c(400, 150))) {
    n <- cfg[[1]]
    d <- cfg[[2]]
    set.seed(n)
    sd <- 1 / sqrt(seq_len(d))
    x <- matrix(rnorm(n * d), n) * rep(sd, each = n)
    y <- matrix(if (d == 30) 1.2 * rt(n * d, df = 5) else rnorm(n * d, sd = 1.2), n) *
      rep(sd, each = n)
    y[, 1] <- y[, 1] + 1
    nf <- n / 3
    cut <- function() {
      c(list(seq_len(nf)), lapply(split(sample((nf + 1):n), rep(1:4, length.out = n - nf)),
                                  function(r) as.integer(sort(r))))
    }
    cx <- cut()
    cy <- cut()
    mom <- list(fold_moments(x, cx), fold_moments(y, cy))
    blas <- prdcurve:::engine_blas_threads()
    cg <- fold_discriminants(x, y, mom, list(cx, cy), score = TRUE)
    # (the BLAS at one thread during the steps, then as it was)
    expect_identical(prdcurve:::engine_blas_threads(), blas)
    direct <- fold_discriminants(x, y, mom, list(cx, cy), score = TRUE,
                                 max_iter = 0L)
    for (v in 1:4) {
      b <- brute_fold_linear_scores(x[cx[[1]], ], y[cy[[1]], ],
                                    x[unlist(cx[-(v + 1)]), ],
                                    y[unlist(cy[-(v + 1)]), ],
                                    rbind(x[cx[[v + 1]], ], y[cy[[v + 1]], ]))
      rng <- diff(range(b))
      a <- unlist(cg$scores[[v]])
      expect_lt(max(abs(a - b)) / rng, 1e-9)
      expect_lt(max(abs(unlist(direct$scores[[v]]) - b)) / rng, 1e-12)
    }
    expect_identical(cg$rho, direct$rho)
    # the conjugate gradients converged (no fold fell back to the direct
    # solve, which max_iter = 200 would have forced)
    expect_gte(cg$iterations, 1L)
    expect_lt(cg$iterations, 200L)
    expect_identical(direct$iterations, 0L)
    # the stacked family's inner discriminants: the halves of the cells
    for (h in 1:2) {
      inner <- fold_discriminants(x, y, mom, list(cx, cy), hs = h)
      half <- function(m, keep) unlist(lapply(m$halves[keep], `[[`, h))
      for (v in c(1, 4)) {
        b <- brute_fold_linear(x[half(mom[[1]], 1), ], y[half(mom[[2]], 1), ],
                               x[half(mom[[1]], -(v + 1)), ],
                               y[half(mom[[2]], -(v + 1)), ])
        expect_equal(inner$w[, v], b$w, tolerance = 1e-9)
        expect_equal(inner$mx[, v], b$mx, tolerance = 1e-12)
        expect_equal(inner$centre[, v], b$centre, tolerance = 1e-12)
      }
    }
    # the shrinkage: full for isotropic data (d = 3 here), partial otherwise
    rho <- cg$rho
    expect_true(all(rho > 0 & rho <= 1))
    if (d > 3) expect_true(all(rho < 0.2))
    # far from the origin: the same scores (the rows are centred on each
    # set's centre before any product)
    if (d == 30) {
      off <- 1e8
      mo <- list(fold_moments(x + off, cx), fold_moments(y + off, cy))
      far <- fold_discriminants(x + off, y + off, mo, list(cx, cy), score = TRUE)
      for (v in 1:4) {
        a <- unlist(cg$scores[[v]])
        expect_lt(max(abs(unlist(far$scores[[v]]) - a)) / diff(range(a)), 1e-6)
      }
    }
  }
})

test_that("the conjugate gradients' kernels: transposed centred rows, each fold's C' C d", {
  set.seed(31)
  x <- matrix(rnorm(300 * 70), 300)
  g <- colMeans(x)
  rows <- sort(sample.int(300, 130))
  Ct <- .Call(ffi_centre_t, x, g, rows)
  expect_identical(Ct, t(.Call(ffi_centre, x, g, rows)))
  expect_identical(dim(Ct), c(70L, 130L))
  fold <- sample(rep(1:4, length.out = 130))
  D <- matrix(rnorm(70 * 4), 70)
  ref <- vapply(1:4, function(v) {
    C <- t(Ct[, fold == v, drop = FALSE])
    drop(crossprod(C, C %*% D[, v]))
  }, numeric(70))
  for (th in 1:2) {
    old <- prd_threads(th)
    # (with M = 0: less each fold's own part alone)
    expect_equal(-.Call(ffi_fold_sigma, 0 * diag(70), Ct, fold, D), ref,
                 tolerance = 1e-13)
    prd_threads(old)
  }
  # a step for one set: M D less each fold's own part, and the
  # preconditioner's two triangular solves, V's columns among the threads
  M <- crossprod(matrix(rnorm(200 * 70), 200))
  R <- chol(M)
  blas <- prdcurve:::engine_blas_threads()
  for (th in 1:2) {
    old <- prd_threads(th)
    expect_equal(.Call(ffi_fold_sigma, M, Ct, fold, D), M %*% D - ref,
                 tolerance = 1e-13)
    expect_equal(.Call(ffi_chol_solve, R, D),
                 backsolve(R, backsolve(R, D, transpose = TRUE)),
                 tolerance = 1e-13)
    expect_equal(M %*% .Call(ffi_chol_solve, R, D), D, tolerance = 1e-9)
    prd_threads(old)
    expect_identical(prdcurve:::engine_blas_threads(), blas)
  }
  expect_error(.Call(ffi_fold_sigma, M[-1, ], Ct, fold, D), "d x d")
  # a fold without rows gives 0
  expect_identical(.Call(ffi_fold_sigma, 0 * diag(70), Ct, rep(1L, 130),
                         D)[, 2:4], matrix(0, 70, 3))
  expect_error(.Call(ffi_fold_sigma, 0 * diag(70), Ct, c(fold[-1], 5L), D),
               "out of range")
  expect_error(.Call(ffi_centre_t, x, g, c(rows, 301L)), "out of range")
})

test_that("the fold moments' kernels equal R's products, with 1 and 2 threads", {
  # d = 2,048: blocks of 512 rows (three here, the last partial), and two
  # threads' panels of columns (edge at 1,448)
  set.seed(41)
  d <- 2048L
  x <- matrix(rnorm(1300 * d), 1300) + 3
  g <- colMeans(x)
  rows <- sample.int(1300, 1200)
  cell <- sample(rep(1:3, length.out = 1200))
  C <- x[rows, ] - rep(g, each = 1200)
  E <- outer(cell, 1:3, `==`) * 1
  q <- rowSums(C^2)
  M0 <- crossprod(matrix(rnorm(40 * d), 40))
  blas <- prdcurve:::engine_blas_threads()
  ref <- M0 + crossprod(C)
  scale <- sqrt(outer(diag(ref), diag(ref)))
  for (th in 1:2) {
    old <- prd_threads(th)
    cm <- .Call(ffi_cell_moments, x, g, rows, cell, 3L, M0, FALSE)
    # from 256 columns (NA) the products in single precision where the
    # BLAS has ssyrk: each entry within 1e-6 of sqrt(M_ll M_mm), the sums
    # and norms those of the double products
    cs <- .Call(ffi_cell_moments, x, g, rows, cell, 3L, M0, NA)
    prd_threads(old)
    expect_false(cm$single)
    expect_equal(cm$M, ref, tolerance = 1e-13)
    expect_true(isSymmetric(cm$M, tol = 0))
    expect_identical(cs[c("s", "qv", "q")], cm[c("s", "qv", "q")])
    expect_true(isSymmetric(cs$M, tol = 0))
    err <- max(abs(cs$M - ref) / scale)
    expect_lt(err, 1e-6)
    if (cs$single) expect_gt(err, 1e-12) else expect_identical(cs$M, cm$M)
    expect_equal(cm$s, crossprod(C, E), tolerance = 1e-13)
    expect_equal(cm$qv, crossprod(C, E * q), tolerance = 1e-13)
    # q summed over the columns in order: prd_row_scores()' values
    expect_identical(cm$q, .Call(ffi_row_scores, C, seq_len(1200), numeric(d),
                                 NULL)$dist)
    # (the BLAS's own thread count is back)
    expect_identical(prdcurve:::engine_blas_threads(), blas)
  }
  # small d: one block; no M0
  y <- matrix(rnorm(50 * 3), 50)
  cm <- .Call(ffi_cell_moments, y, c(0.1, 0, -0.2), 5:44, rep(1L, 40), 1L,
              NULL, NA)
  Cy <- y[5:44, ] - rep(c(0.1, 0, -0.2), each = 40)
  expect_false(cm$single)
  expect_equal(cm$M, crossprod(Cy), tolerance = 1e-14)
  expect_equal(drop(cm$s), colSums(Cy), tolerance = 1e-14)
  # single precision asked for: each column scaled by a power of two, so
  # columns of any scale keep their relative precision, and a column times
  # 2^k gives its entries times 2^k exactly
  Y <- y * rep(c(1e-30, 1, 1e30), each = 50)
  s1 <- .Call(ffi_cell_moments, Y, numeric(3), 5:44, rep(1L, 40), 1L, NULL,
              TRUE)
  if (s1$single) {
    R <- crossprod(Y[5:44, ])
    expect_lt(max(abs(s1$M - R) / sqrt(outer(diag(R), diag(R)))), 1e-6)
    s2 <- .Call(ffi_cell_moments, Y * rep(c(2^-40, 1, 2^40), each = 50),
                numeric(3), 5:44, rep(1L, 40), 1L, NULL, TRUE)
    expect_identical(s2$M, s1$M * outer(c(2^-40, 1, 2^40), c(2^-40, 1, 2^40)))
  }
  expect_error(.Call(ffi_cell_moments, y, numeric(3), 1:3, c(1L, 2L, 3L), 2L,
                     NULL, NA), "cell 3 out of range")
  expect_error(.Call(ffi_cell_moments, y, numeric(3), c(1L, 51L), 1:2, 2L,
                     NULL, NA), "out of range")
  expect_error(.Call(ffi_cell_moments, y, numeric(3), 1:3, rep(1L, 3), 1L,
                     NULL, "yes"), "bad argument types")
  # the stacked table's products: every row of x centred, times V
  V <- matrix(rnorm(d * 7), d)
  for (th in 1:2) {
    old <- prd_threads(th)
    pq <- .Call(ffi_centred_product, x, g, V, NULL)
    # (and of some rows, in their order: the spectral family's scores)
    rows <- c(1300L, 5L, 700L:1L)
    pr <- .Call(ffi_centred_product, x, g, V, rows)
    prd_threads(old)
    Cx <- x - rep(g, each = 1300)
    expect_equal(pq$P, Cx %*% V, tolerance = 1e-13)
    expect_identical(pq$q, .Call(ffi_row_scores, x, seq_len(1300), g, NULL)$dist)
    expect_equal(pr$P, pq$P[rows, ], tolerance = 1e-13)
    expect_identical(pr$q, pq$q[rows])
  }
  expect_error(.Call(ffi_centred_product, x, g, V, c(1L, 1301L)), "out of range")
})

test_that("fold moments give each fold's fit as formed from its rows, far from the origin too", {
  # the fit rows and 4 folds, each cell in two random halves
  set.seed(21)
  for (off in c(0, 1e8)) {
    x <- matrix(rnorm(90 * 6), 90) + off
    y <- matrix(rnorm(80 * 6, sd = 1.3), 80) + off + 0.5
    cx <- list(1:30, 31:45, 46:60, 61:75, 76:90)
    cy <- list(1:20, 21:35, 36:50, 51:65, 66:80)
    mx <- fold_moments(x, cx)
    my <- fold_moments(y, cy)
    # each cell's halves split it in two (floor and ceiling of half)
    for (v in seq_along(cx)) {
      h <- mx$halves[[v]]
      expect_identical(sort(c(h[[1]], h[[2]])), cx[[v]])
      expect_identical(lengths(h), c(length(cx[[v]]) %/% 2L,
                                     length(cx[[v]]) - length(cx[[v]]) %/% 2L))
    }
    for (v in 2:5) {
      Mx <- cell_cross(x, mx, v, 1:2)
      My <- cell_cross(y, my, v, 1:2)
      p <- moment_parts(fold_stats(mx, v, 1:2, Mx), fold_stats(my, v, 1:2, My))
      q <- cov_parts(x, y, unlist(cx[-v]), unlist(cy[-v]))
      tol <- if (off == 0) 1e-10 else 1e-6
      for (f in c("nx", "ny", "mx", "my", "Sx", "Sy", "ff", "tr", "r4")) {
        expect_equal(p[[f]], q[[f]], tolerance = tol, info = f)
      }
      # the same scores (to 1e-9 of their range) of both families
      z <- rbind(x[cx[[v]], ], y[cy[[v]], ])
      for (fit in list(fit_linear, fit_quadratic)) {
        a <- fit(p)$score(z)
        b <- fit(q)$score(z)
        expect_lt(max(abs(a - b)) / diff(range(b)), 1e-7)
      }
      # stacked: its inner halves' parts, then the fit as from their rows
      rest <- function(m, h) unlist(lapply(m$halves[-v], `[[`, h))
      hx <- list(rest(mx, 1), rest(mx, 2))
      hy <- list(rest(my, 1), rest(my, 2))
      parts <- lapply(1:2, function(h) {
        moment_parts(fold_stats(mx, v, h, cell_cross(x, mx, v, h)),
                     fold_stats(my, v, h, cell_cross(y, my, v, h)))
      })
      lins <- lapply(parts, stacked_linear)
      a <- fit_stacked_halves(x, y, hx, hy, lins = lins)$score(z)
      b <- fit_stacked_halves(x, y, hx, hy)$score(z)
      expect_lt(max(abs(a - b)) / diff(range(b)), 1e-6)
      # its features of every fold at once (one product of the centred
      # rows) equal the features formed row by row
      tab <- stacked_table(x, mx, list(lins, rev(lins)))
      for (k in 1:4) {
        lin <- list(lins, rev(lins))[[(k + 1) %/% 2]][[2 - k %% 2]]
        expect_equal(table_features(tab, k, cx[[v]]),
                     stacked_features(lin, x, cx[[v]]),
                     tolerance = if (off == 0) 1e-12 else 1e-7)
      }
      ty <- stacked_table(y, my, list(lins))
      expect_equal(table_features(ty, 2, 1:80), stacked_features(lins[[2]], y),
                   tolerance = if (off == 0) 1e-12 else 1e-7)
    }
  }
  # through prd_curve(): stacked cross-fitted in 3 folds from the moments
  # equals the fits formed from each fold's rows, its inner discriminants
  # those of the linear family in folds (the norms predicted from the fit
  # rows of the same half). 60 rows a set: 30 + 20 fit rows a fold, 50 in
  # each inner half; with 100 columns (2 a row of the half) the moments
  # still serve it (engine_knobs$stacked_moments_ratio = 4), not the Gram
  # form fold by fold
  withr::local_options(prdcurve.check_inputs = FALSE) # (60 rows, 100 columns)
  for (d in c(3L, 100L)) {
    s <- two_sets(60, d, sd = if (d > 3L) 1.1 else 1.3, seed = 9)
    set.seed(5)
    cv <- prd_curve(s$x, s$y, method = "stacked", folds = 3, angles = 15,
                    repeats = 1)
    set.seed(5)
    sp <- resolve_split(0.5, 60, 60)
    fx <- cross_folds(30, 3)
    fy <- cross_folds(30, 3)
    mx <- fold_moments(s$x, c(list(sp$fit[[1]]), lapply(fx, function(f) sp$eval[[1]][f])))
    my <- fold_moments(s$y, c(list(sp$fit[[2]]), lapply(fy, function(f) sp$eval[[2]][f])))
    sr <- numeric(30)
    sg <- numeric(30)
    for (v in 1:3) {
      rest <- function(m, h) unlist(lapply(m$halves[-(v + 1)], `[[`, h))
      hx <- list(rest(mx, 1), rest(mx, 2))
      hy <- list(rest(my, 1), rest(my, 2))
      lins <- lapply(1:2, function(h) {
        brute_fold_linear(s$x[mx$halves[[1]][[h]], ], s$y[my$halves[[1]][[h]], ],
                          s$x[hx[[h]], ], s$y[hy[[h]], ])
      })
      f <- fit_stacked_halves(s$x, s$y, hx, hy, lins = lins)
      sr[fx[[v]]] <- f$score(s$x, sp$eval[[1]][fx[[v]]])
      sg[fy[[v]]] <- f$score(s$y, sp$eval[[2]][fy[[v]]])
    }
    expect_curve_equal(cv, brute_score_curve(sr, sg, lambda_grid(15)))
    # (a curve that tells the sets apart)
    expect_true(summary(cv)$auc > 0.05 && summary(cv)$auc < 0.95)
  }
})
