# Tests of R/validate-standardize.R.

# The first half-sample of run_replicates() after the same set.seed() (one
# permutation of each set, its first half, sorted), and with a split given
# as rows, the half's own split: the user's evaluation rows that fall in it
first_halves <- function(n_real, n_gen, split = NULL, real = NULL, gen = NULL) {
  # (the metrics draw over the rows in canonical order: `real`, `gen`
  # given; prd_curve()'s sets are in that order already)
  o_r <- if (is.null(real)) seq_len(n_real) else canonical_order(real)
  o_g <- if (is.null(gen)) seq_len(n_gen) else canonical_order(gen)
  h <- list(real = sort(o_r[sample.int(n_real)[seq_len(n_real %/% 2)]]),
            gen = sort(o_g[sample.int(n_gen)[seq_len(n_gen %/% 2)]]))
  if (!is.null(split)) {
    h$split <- list(real = which(h$real %in% split$real),
                    generated = which(h$gen %in% split$generated))
  }
  h
}

test_that("standardize = 'real' scales every set by the real fit rows' moments", {
  set.seed(16)
  # (in canonical row order: the draws repeated below are prd_curve()'s)
  real <- in_canonical_order(cbind(matrix(rnorm(80 * 3), ncol = 3),
                                   rnorm(80, 1e4, 1e3)))
  gen <- in_canonical_order(cbind(matrix(rnorm(70 * 3, 0.5), ncol = 3),
                                  rnorm(70, 1e4, 1e3)))
  # a split given as rows: the real fit rows are 31..80
  sp <- list(real = 1:30, generated = 1:25)
  fit <- real[31:80, ]
  mu <- colMeans(fit)
  sdv <- apply(fit, 2, sd)
  a <- suppressWarnings(prd_curve(real, gen, method = "knn", angles = 11,
                                  split = sp, standardize = "real"))
  b <- prd_curve(scale(real, mu, sdv), scale(gen, mu, sdv), method = "knn",
                 angles = 11, split = sp)
  expect_equal(a$precision, b$precision, tolerance = 1e-12)
  # not the moments of every real row (they give another curve here); the
  # linear family's folds are drawn from R's RNG
  set.seed(3)
  c0 <- prd_curve(scale(real, colMeans(real), apply(real, 2, sd)),
                  scale(gen, colMeans(real), apply(real, 2, sd)),
                  method = "linear", angles = 11, split = sp)
  set.seed(3)
  a1 <- suppressWarnings(prd_curve(real, gen, method = "linear", angles = 11,
                                   split = sp, standardize = "real"))
  set.seed(3)
  b1 <- prd_curve(scale(real, mu, sdv), scale(gen, mu, sdv),
                  method = "linear", angles = 11, split = sp)
  expect_equal(a1$precision, b1$precision, tolerance = 1e-12)
  expect_gt(max(abs(a1$precision - c0$precision)), 1e-6)
  # a fraction: the split's own fit rows, drawn before the scaling
  set.seed(2)
  a2 <- suppressWarnings(prd_curve(real, gen, method = "knn", angles = 11,
                                   standardize = "real", repeats = 1))
  set.seed(2)
  s2 <- prdcurve:::resolve_model_splits(0.5, real, list(generated = gen))
  f2 <- real[s2[[1]]$fit[[1]], ]
  set.seed(2)
  b2 <- prd_curve(scale(real, colMeans(f2), apply(f2, 2, sd)),
                  scale(gen, colMeans(f2), apply(f2, 2, sd)), method = "knn",
                  angles = 11, repeats = 1)
  expect_equal(a2$precision, b2$precision, tolerance = 1e-12)
  # without a split, every real row
  a3 <- suppressWarnings(prd_curve(real, gen, method = "knn", angles = 11,
                                   split = 0, standardize = "real"))
  b3 <- prd_curve(scale(real, colMeans(real), apply(real, 2, sd)),
                  scale(gen, colMeans(real), apply(real, 2, sd)),
                  method = "knn", angles = 11, split = 0)
  expect_equal(a3$precision, b3$precision, tolerance = 1e-12)
  expect_error(prd_curve(real, gen, standardize = "both"),
               class = "prdcurve_error_input")
})

test_that("the one-pass scaling gives sweep()'s doubles, names and ids", {
  set.seed(17)
  x <- matrix(rnorm(300 * 7, 5, 3), 300, dimnames = list(NULL, letters[1:7]))
  attr(x, "ids") <- paste0("row", 1:300)
  mu <- colMeans(x[1:100, ])
  s <- apply(x[1:100, ], 2, sd)
  out <- prdcurve:::standardize_sets(list(real = x, generated = list(g = x[1:5, ])),
                                     rows = 1:100)
  ref <- sweep(sweep(x, 2L, mu), 2L, s, "/")
  expect_equal(unclass(out$real)[, ], ref[, ], tolerance = 1e-14)
  expect_identical(colnames(out$real), letters[1:7])
  expect_identical(attr(out$real, "ids"), paste0("row", 1:300))
  expect_null(attr(out$generated$g, "ids"))
  # an integer matrix is taken as doubles; a column constant in the rows
  # that set the scale is only centred
  xi <- cbind(matrix(sample(-9:9, 40, TRUE), 20), 3L)
  oi <- prdcurve:::standardize_sets(list(real = xi, generated = list()))
  # (whole numbers: scaled on a grid, the scale within 2^-30 of itself)
  expect_equal(oi$real[, 1:2], scale(xi[, 1:2]), ignore_attr = TRUE,
               tolerance = 1e-9)
  expect_identical(oi$real[, 3], rep(0, 20))
  # a column far from 0: its standard deviation from the centred rows
  # (mean(x^2) - mean(x)^2 read sd 1 as 1.04 at a mean of 1e8)
  far <- cbind(rnorm(1000), rnorm(1000, 1e8, 1))
  of <- prdcurve:::standardize_sets(list(real = far, generated = list()))
  expect_equal(apply(of$real, 2, sd), c(1, 1), tolerance = 1e-9)
  expect_equal(unclass(of$real)[, ], scale(far)[, ], tolerance = 1e-9)
  # the centred sums of squares, read in place: colSums(C * C)'s doubles
  # on any number of threads
  rows <- sort(sample.int(300, 170))
  mu <- .Call(prdcurve:::ffi_col_means, x, rows)
  C <- .Call(prdcurve:::ffi_centre, x, mu, rows)
  old <- prd_threads(1)
  on.exit(prd_threads(old), add = TRUE)
  expect_identical(.Call(prdcurve:::ffi_col_ss, x, mu, rows), colSums(C * C))
  prd_threads(2)
  expect_identical(.Call(prdcurve:::ffi_col_ss, x, mu, rows), colSums(C * C))
  expect_error(.Call(prdcurve:::ffi_col_ss, x, mu, 0L), "out of range")
})

test_that("standardize = 'real' keeps the ties of discrete data", {
  # whole numbers in columns of different spreads (codes, counts): many
  # pairs of rows have the same differences column by column
  set.seed(5)
  d <- 5
  disc <- function(n, shift = 0) {
    sapply(1:d, function(j) {
      pmin(pmax(round(rnorm(n, 2 + shift * (j == 1), 0.6 + 0.25 * j)), 0), 3 + j)
    })
  }
  # (in canonical row order: the draws repeated below are prd_curve()'s)
  real <- in_canonical_order(disc(400))
  gen <- in_canonical_order(disc(350, 0.3))
  # the scaled columns differ by exactly the scaled differences: equal
  # differences stay equal
  s <- prdcurve:::standardize_sets(list(real = real, generated = list(g = gen)))
  for (j in 1:d) {
    z <- c(s$real[, j], s$generated$g[, j])
    x <- c(real[, j], gen[, j])
    dz <- outer(z, z[1:40], "-")
    dx <- outer(x, x[1:40], "-")
    for (v in unique(as.vector(dx))) expect_length(unique(dz[dx == v]), 1L)
  }
  sdv <- apply(real, 2, sd)
  expect_equal(unname(apply(s$real, 2, sd)), rep(1, d), tolerance = 1e-9)
  expect_equal(unname(colMeans(s$real)), rep(0, d), tolerance = 1e-12)
  expect_lt(max(abs(s$real - scale(real))), 1e-9)
  # the scaling undone, exactly (the half-samples start from it)
  # (the scaled matrices carry the grid for the marginal family)
  expect_identical(attr(s$real, "grid"), s$grid)
  expect_identical(attr(s$generated$g, "grid"), s$grid)
  expect_identical(c(prdcurve:::unscale_grid(s$real, s$grid)), c(real))
  # the metrics: the decisions of the exact distances sum_l ((a_l -
  # b_l) / sd_l)^2 (each pair's terms in column order: equal differences,
  # equal sums), ties inside the balls
  D2 <- function(A, B) {
    out <- 0
    for (j in 1:d) out <- out + outer(A[, j], B[, j], "-")^2 / sdv[j]^2
    out
  }
  k <- 4
  kth <- function(D) apply(D, 1, function(r) sort(r)[k + 1])
  rr <- kth(D2(real, real))
  exact_metrics <- function(g) {
    Dgr <- D2(g, real)
    rg <- kth(D2(g, g))
    c(precision = mean(apply(Dgr, 1, function(r) any(r <= rr))),
      recall = mean(apply(Dgr, 2, function(r) any(r <= rg))),
      density = sum(sweep(Dgr, 2, rr, "<=")) / (k * nrow(g)),
      coverage = mean(apply(Dgr, 2, min) <= rr))
  }
  ref <- exact_metrics(gen)
  m <- suppressWarnings(manifold_metrics(real, gen, k = k,
                                         metrics = names(ref),
                                         standardize = "real"))
  expect_equal(m$value, unname(ref), tolerance = 1e-14)
  # (ties at the k-th radius: a fifth of the real rows here, all kept)
  expect_gt(mean(apply(D2(real, real), 1, function(r) {
    sort(r)[k + 1] == sort(r)[k + 2]
  })), 0.1)
  # the same answer after a translation and a doubling of the data, which
  # standardize = "real" undoes (before, its rounding decided the ties:
  # density 0.995 here, 1.003 after the doubling, against the exact 1.026)
  m2 <- suppressWarnings(manifold_metrics(2 * real + 7, 2 * gen + 7, k = k,
                                          metrics = names(ref),
                                          standardize = "real"))
  expect_identical(m2$value, m$value)
  set.seed(1)
  c1 <- suppressWarnings(prd_curve(real, gen, method = "knn", angles = 11,
                                   standardize = "real"))
  set.seed(1)
  c2 <- suppressWarnings(prd_curve(2 * real + 7, 2 * gen + 7, method = "knn",
                                   angles = 11, standardize = "real"))
  expect_identical(c2$precision, c1$precision)
  # whole numbers against a continuous model: the real rows' ties kept
  gc <- gen + runif(length(gen), -0.5, 0.5)
  ref_c <- exact_metrics(gc)
  mc <- suppressWarnings(manifold_metrics(real, gc, k = k,
                                          metrics = names(ref_c),
                                          standardize = "real"))
  expect_equal(mc$value, unname(ref_c), tolerance = 1e-14)
  # the half-samples too: each is scaled from its values as given
  set.seed(3)
  mr <- suppressWarnings(manifold_metrics(real, gen, k = k, metrics = "density",
                                          standardize = "real", replicates = 2))
  set.seed(3)
  h <- first_halves(400, 350, real = real, gen = gen)
  hx <- h$real
  hy <- h$gen
  mh <- suppressWarnings(manifold_metrics(real[hx, ], gen[hy, ], k = k,
                                          metrics = "density",
                                          standardize = "real"))
  expect_identical(attr(mr, "replicates")$value[1], mh$value)
  # and a curve's, scaled by the half's real fit rows (rows given as a
  # split; knn draws nothing from R's RNG before the replicates)
  sp <- list(real = 1:150, generated = 1:120)
  set.seed(4)
  cr <- suppressWarnings(prd_curve(real, gen, method = "knn", k = 3,
                                   angles = 11, split = sp,
                                   standardize = "real", replicates = 2))
  set.seed(4)
  h <- first_halves(400, 350, sp)
  hx <- h$real
  hy <- h$gen
  sph <- h$split
  ch <- suppressWarnings(prd_curve(real[hx, ], gen[hy, ], method = "knn",
                                   k = 3, angles = 11, split = sph,
                                   standardize = "real"))
  r1 <- attr(cr, "curves")$replicates[[1]]
  expect_identical(r1$precision[r1$replicate == 1L], ch$precision)
})

test_that("ffi_col_grid() finds each column's power-of-two step and range", {
  x <- cbind(c(3, -5, 7), c(2, 4, -8), c(0.5, 1.25, 0), c(0, 0, 0),
             c(1, NA, 2), c(2^22 + 2, 2, 3), c(2^22 - 1, 0, 3),
             c(3 * 2^-1070, 2^-1074, 0), c(-6 * 2^900, 2^901, 0))
  g <- .Call(prdcurve:::ffi_col_grid, x, 22L)
  expect_identical(g$e, c(0L, 1L, -2L, .Machine$integer.max, NA, NA, 0L,
                          -1074L, 901L))
  expect_identical(g$lo[-(5:6)], c(-5, -8, 0, 0, 0, 0, -6 * 2^900))
  expect_identical(g$hi[-(5:6)], c(7, 4, 1.25, 0, 2^22 - 1, 3 * 2^-1070,
                                   2^901))
  expect_identical(.Call(prdcurve:::ffi_col_grid, x[, 6, drop = FALSE], 23L)$e,
                   0L)
  # the same on any number of threads
  old <- prd_threads(1)
  on.exit(prd_threads(old), add = TRUE)
  expect_identical(.Call(prdcurve:::ffi_col_grid, x, 22L), g)
  # float32 values over many binades: far too fine a step for a grid
  z <- as_float32(rnorm(100))
  expect_identical(.Call(prdcurve:::ffi_col_grid, matrix(z), 22L)$e, NA_integer_)
  grid <- prdcurve:::scale_grid(list(matrix(z)), mean(z), sd(z))
  expect_identical(grid$mult, 0)
  # a column of wide whole numbers (2^22 steps or more) is not on a grid
  w <- cbind(c(0, 2^23, 5), c(0, 2^21, 5))
  gw <- prdcurve:::scale_grid(list(w), colMeans(w), apply(w, 2, sd))
  expect_identical(gw$mult == 0, c(TRUE, FALSE))
})

test_that("with standardize = 'real' each half-sample is scaled by its own real fit rows", {
  set.seed(16)
  # (in canonical row order: the draws repeated below are prd_curve()'s)
  real <- in_canonical_order(cbind(matrix(rnorm(80 * 3), ncol = 3),
                                   rnorm(80, 1e4, 1e3)))
  gen <- in_canonical_order(cbind(matrix(rnorm(70 * 3, 0.5), ncol = 3),
                                  rnorm(70, 1e4, 1e3)))
  sp <- list(real = 1:30, generated = 1:25)
  # knn draws nothing from R's RNG before the replicates, which draw one
  # permutation of each set per pair (run_replicates())
  set.seed(5)
  a <- suppressWarnings(prd_curve(real, gen, method = "knn", k = 3,
                                  angles = 11, split = sp,
                                  standardize = "real", replicates = 2))
  set.seed(5)
  # the half's own split: the user's evaluation rows that fall in it
  h <- first_halves(80, 70, sp)
  hx <- h$real
  hy <- h$gen
  sph <- h$split
  fit <- real[hx, ][-sph$real, ]
  mu <- colMeans(fit)
  sdv <- apply(fit, 2, sd)
  b <- prd_curve(scale(real[hx, ], mu, sdv), scale(gen[hy, ], mu, sdv),
                 method = "knn", k = 3, angles = 11, split = sph)
  r1 <- attr(a, "curves")$replicates[[1]]
  r1 <- r1[r1$replicate == 1L, ]
  expect_equal(r1$precision, b$precision, tolerance = 1e-12)
  expect_equal(r1$recall, b$recall, tolerance = 1e-12)
  # not the full sample's scale: the half scaled by the full fit rows
  # (as before) gives another curve here
  f0 <- real[-sp$real, ]
  b0 <- prd_curve(scale(real[hx, ], colMeans(f0), apply(f0, 2, sd)),
                  scale(gen[hy, ], colMeans(f0), apply(f0, 2, sd)),
                  method = "knn", k = 3, angles = 11, split = sph)
  expect_gt(max(abs(b0$precision - b$precision)), 1e-6)
  # the metrics without a split: every real row of the half
  set.seed(6)
  m <- expect_no_warning(manifold_metrics(real, gen, metrics = "density",
                                          k = 3, standardize = "real",
                                          replicates = 2))
  set.seed(6)
  h <- first_halves(80, 70, real = real, gen = gen)
  hx <- h$real
  hy <- h$gen
  mu <- colMeans(real[hx, ])
  sdv <- apply(real[hx, ], 2, sd)
  m1 <- manifold_metrics(scale(real[hx, ], mu, sdv), scale(gen[hy, ], mu, sdv),
                         metrics = "density", k = 3)
  expect_equal(attr(m, "replicates")$value[1], m1$value, tolerance = 1e-12)
  # and the entropy metrics (sets of one size: no subsampling)
  g80 <- cbind(matrix(rnorm(80 * 3, 0.5), ncol = 3), rnorm(80, 1e4, 1e3))
  set.seed(7)
  e <- entropy_metrics(real, g80, metrics = "pce", k = 3,
                       standardize = "real", replicates = 2)
  set.seed(7)
  h <- first_halves(80, 80, real = real, gen = g80)
  hx <- h$real
  hy <- h$gen
  mu <- colMeans(real[hx, ])
  sdv <- apply(real[hx, ], 2, sd)
  e1 <- entropy_metrics(scale(real[hx, ], mu, sdv), scale(g80[hy, ], mu, sdv),
                        metrics = "pce", k = 3)
  expect_equal(attr(e, "replicates")$value[1], e1$value, tolerance = 1e-12)
})

test_that("the metrics with a split take standardize's scale from every real row", {
  # (their balls are built on the real fit rows: a scale from those rows
  # alone moves the balls away from fresh points; bench/results.md)
  set.seed(16)
  real <- cbind(matrix(rnorm(80 * 3), ncol = 3), rnorm(80, 1e4, 1e3))
  gen <- cbind(matrix(rnorm(80 * 3, 0.5), ncol = 3), rnorm(80, 1e4, 1e3))
  sp <- list(real = 1:30, generated = 1:25)
  mu <- colMeans(real)
  sdv <- apply(real, 2, sd)
  a <- manifold_metrics(real, gen, k = 3, split = sp, standardize = "real")
  b <- manifold_metrics(scale(real, mu, sdv), scale(gen, mu, sdv), k = 3,
                        split = sp)
  expect_equal(a$value, b$value, tolerance = 1e-12)
  # not the fit rows' moments (prd_curve()'s rule), which give other values
  fit <- real[31:80, ]
  c0 <- manifold_metrics(scale(real, colMeans(fit), apply(fit, 2, sd)),
                         scale(gen, colMeans(fit), apply(fit, 2, sd)),
                         k = 3, split = sp)
  expect_gt(max(abs(a$value - c0$value)), 1e-6)
  ms <- manifold_samples(real, gen, k = 3, split = sp, standardize = "real")
  mb <- manifold_samples(scale(real, mu, sdv), scale(gen, mu, sdv), k = 3,
                         split = sp)
  expect_identical(ms$in_manifold, mb$in_manifold)
  expect_equal(ms$n_in_ball, mb$n_in_ball)
  e <- entropy_metrics(real, gen, k = 3, split = sp, standardize = "real")
  eb <- entropy_metrics(scale(real, mu, sdv), scale(gen, mu, sdv), k = 3,
                        split = sp)
  expect_equal(e$value, eb$value, tolerance = 1e-12)
  es <- entropy_samples(real, gen, k = 3, split = sp, standardize = "real")
  esb <- entropy_samples(scale(real, mu, sdv), scale(gen, mu, sdv), k = 3,
                         split = sp)
  expect_equal(es$pce, esb$pce, tolerance = 1e-12)
  # a half-sample of the replicates: every real row of the half
  set.seed(5)
  r <- manifold_metrics(real, gen, metrics = "density", k = 3, split = 0.5,
                        standardize = "real", replicates = 2)
  set.seed(5)
  invisible(prdcurve:::resolve_model_splits(0.5, real, list(generated = gen)))
  h <- first_halves(80, 80, real = real, gen = gen)
  hx <- h$real
  hy <- h$gen
  sh <- prdcurve:::resolve_model_splits(0.5, real[hx, ],
                                        list(generated = gen[hy, ]),
                                        canonical = TRUE)
  mh <- colMeans(real[hx, ])
  sdh <- apply(real[hx, ], 2, sd)
  hs <- list(real = sh[[1]]$eval[[1]], generated = sh[[1]]$eval[[2]])
  r1 <- manifold_metrics(scale(real[hx, ], mh, sdh), scale(gen[hy, ], mh, sdh),
                         metrics = "density", k = 3, split = hs)
  expect_equal(attr(r, "replicates")$value[1], r1$value, tolerance = 1e-12)
  # entropy_metrics() subsampling to a common size: every real row, before
  # the subsample
  g60 <- gen[1:60, ]
  set.seed(8)
  es60 <- suppressMessages(entropy_metrics(real, g60, metrics = "pce", k = 3,
                                           standardize = "real"))
  set.seed(8)
  # (drawn over the rows in canonical order)
  keep <- sort(canonical_order(real)[sample.int(80, 60)])
  eb60 <- entropy_metrics(scale(real, mu, sdv)[keep, ], scale(g60, mu, sdv),
                          metrics = "pce", k = 3)
  expect_equal(es60$value, eb60$value, tolerance = 1e-12)
})

test_that("standardize = 'real' keeps the marginal atoms of constant columns", {
  # a real column constant at 5 (sd 0: divided by 1) against a continuous
  # model: disjoint supports, true curve 0. It is scaled on its grid, so
  # the marginal family reads the atom on the values as given, as it does
  # unscaled (left off the grid before: AUC 0.010 and 0.006)
  set.seed(1)
  R <- matrix(rnorm(1600), 400)
  G <- matrix(rnorm(1600), 400)
  R[, 2] <- 5
  G[, 2] <- 5 + rnorm(400)
  fit <- function(real, gen, method = c("tightest", "marginal"), ...) {
    set.seed(9)
    quiet_traps(prd_curve(real, gen, method = method, ...))
  }
  atom_columns <- function(x, i = 1L) {
    prd_curve_info(x)$details[[i]]$atom_columns
  }
  x <- fit(R, G, standardize = "real")
  y <- fit(R, G)
  expect_identical(summary(x)$auc, c(0, 0))
  expect_identical(atom_columns(x, 2L), 1L)
  expect_identical(atom_columns(y, 2L), 1L)
  expect_identical(x$precision, y$precision)
  expect_identical(x$recall, y$recall)
  s <- prdcurve:::standardize_sets(list(real = R, generated = list(g = G)))
  expect_identical(s$grid$mult[2], 1)
  expect_identical(unname(s$real[, 2]), rep(0, 400))
  expect_identical(prdcurve:::unscale_grid(s$real, s$grid)[, 2], R[, 2])
  # the other columns as before: (x - mu) / sd
  expect_identical(s$grid$mult[-2], c(0, 0, 0))
  # a column of zeros (the grid {0}) in either set against continuous
  # values in the other
  both_ways <- function(real, gen) {
    a <- fit(real, gen, "marginal", angles = 101, standardize = "real")
    b <- fit(real, gen, "marginal", angles = 101)
    expect_identical(a$precision, b$precision)
    c(summary(a)$auc, atom_columns(a))
  }
  R0 <- R
  R0[, 2] <- 0
  expect_identical(both_ways(R0, G), c(0, 1))
  G0 <- G
  G0[, 2] <- 0
  R0[, 2] <- rnorm(400)
  expect_identical(both_ways(R0, G0), c(0, 1))
  # constant in the real fit rows only (the rows that set the scale; the
  # split's evaluation rows given as rows, in canonical order): whole
  # numbers in the real set, continuous in the generated one
  Rc <- in_canonical_order(R)
  set.seed(2)
  Rc[1:200, 2] <- 5 + sample(-1:1, 200, TRUE)
  sp <- list(real = 1:200, generated = 1:200)
  s <- prdcurve:::standardize_sets(list(real = Rc, generated = list(g = G)),
                                   rows = 201:400)
  expect_identical(s$grid$mult[2], 1)
  expect_identical(unname(s$real[, 2]), Rc[, 2] - 5)
  a <- suppressWarnings(fit(Rc, G, "marginal", split = sp,
                            standardize = "real"),
                        classes = "prdcurve_warning_label_column")
  b <- suppressWarnings(fit(Rc, G, "marginal", split = sp),
                        classes = "prdcurve_warning_label_column")
  expect_identical(atom_columns(a), 1L)
  expect_identical(a$precision, b$precision)
  # (not 0: the values 4 and 6 are in no fit row, whose bins tell nothing;
  # 0.917 before, left off the grid)
  expect_equal(summary(a)$auc, 0.0831, tolerance = 1e-3)
  # constant in both sets: at one value, no atom (the same curve); at two,
  # disjoint supports
  G5 <- G
  G5[, 2] <- 5
  a <- fit(R, G5, "marginal", angles = 101, standardize = "real")
  b <- fit(R, G5, "marginal", angles = 101)
  expect_identical(atom_columns(a), 0L)
  expect_identical(a$precision, b$precision)
  expect_gt(summary(a)$auc, 0.9)
  G5[, 2] <- 7
  expect_identical(both_ways(R, G5)[1], 0)
})
