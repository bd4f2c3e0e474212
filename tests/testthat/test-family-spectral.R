# The spectral family (R/family-spectral.R): the Gaussian log-likelihood
# ratio on the generalised eigenvectors of the two covariances whose
# eigenvalues leave Wachter's bulk.

ml_cov <- function(x) crossprod(sweep(x, 2, colMeans(x))) / nrow(x)

test_that("the bulk edges are those of two Gaussian sample covariances", {
  # Wachter's edges against the extreme eigenvalues of S_Y S_X^-1 over 5
  # draws of two Gaussian sets of 2,000 and 1,500 rows in 40 dimensions
  e <- spectral_edges(40, 2000, 1500)
  expect_equal(unname(e), c(((1 - sqrt(0.02 + 40 / 1500 - 0.02 * 40 / 1500)) / 0.98)^2,
                            ((1 + sqrt(0.02 + 40 / 1500 - 0.02 * 40 / 1500)) / 0.98)^2))
  set.seed(3)
  ext <- replicate(5, {
    sx <- ml_cov(matrix(rnorm(2000 * 40), 2000))
    sy <- ml_cov(matrix(rnorm(1500 * 40), 1500))
    range(Re(eigen(solve(sx, sy), only.values = TRUE)$values))
  })
  expect_equal(mean(ext[1, ]), e[["lower"]], tolerance = 0.03)
  expect_equal(mean(ext[2, ]), e[["upper"]], tolerance = 0.03)
  # within the margin in every draw: such sets keep no direction
  expect_true(all(ext[1, ] > e[["lower"]] / spectral_margin))
  expect_true(all(ext[2, ] < e[["upper"]] * spectral_margin))
})

test_that("the spectral family equals its brute-force fit", {
  set.seed(5)
  d <- 6
  n <- 1200
  x <- matrix(rnorm(n * d), n)
  # two directions of changed spread and a shift
  y <- matrix(rnorm(n * d), n) %*% diag(c(2.5, 0.4, 1, 1, 1, 1)) +
    rep(c(0.3, 0, 0.2, 0, 0, 0), each = n)
  f <- fit_spectral(cov_parts(x, y))
  expect_identical(f$settings$directions, 2L)
  # brute force: the eigenvalues of S_X^-1 S_Y outside the edges, their
  # vectors scaled to v' S_X v = 1, and the Gaussian densities of the
  # projections
  sx <- ml_cov(x)
  sy <- ml_cov(y)
  ev <- eigen(solve(sx, sy))
  l <- Re(ev$values)
  e <- spectral_edges(d, n, n)
  keep <- which(l > e[["upper"]] * spectral_margin | l < e[["lower"]] / spectral_margin)
  expect_equal(length(keep), 2L)
  V <- Re(ev$vectors[, keep])
  V <- sweep(V, 2, sqrt(colSums(V * (sx %*% V))), "/")
  expect_equal(sort(diag(crossprod(V, sy %*% V))), sort(l[keep]), tolerance = 1e-10)
  z <- rbind(matrix(rnorm(50 * d), 50), matrix(rnorm(50 * d, 1), 50))
  w <- z %*% V
  brute <- rowSums(sapply(seq_along(keep), function(j) {
    dnorm(w[, j], sum(colMeans(y) * V[, j]), sqrt(l[keep[j]]), log = TRUE) -
      dnorm(w[, j], sum(colMeans(x) * V[, j]), 1, log = TRUE)
  }))
  expect_equal(f$score(z), brute, tolerance = 1e-9)
  expect_equal(f$score(z, 11:20), brute[11:20], tolerance = 1e-9)
})

test_that("the spectral family reads a truncated slab that the quadratic family misses", {
  # P = N(0, I_16), Q = P within |u . x| <= c of P-mass 0.7: the true curve
  # is the rectangle of maximal recall 0.7 (AUC 0.70)
  set.seed(7)
  d <- 16
  n <- 3000
  u <- rnorm(d)
  u <- u / sqrt(sum(u^2))
  cut <- qnorm(0.85)
  x <- matrix(rnorm(n * d), n)
  e <- matrix(rnorm(n * d), n)
  t <- qnorm(runif(n, pnorm(-cut), pnorm(cut)))
  y <- e + outer(t - drop(e %*% u), u)
  f <- fit_spectral(cov_parts(x, y))
  expect_identical(f$settings$directions, 1L)
  v <- environment(f$score)$V[, 1]
  expect_gt(abs(sum(v * u)) / sqrt(sum(v^2)), 0.98)
  truth <- summary(prd_discrete(c(0.7, 0.3), c(1, 0), angles = 201))$auc
  set.seed(1)
  cv <- prd_curve(x, y, method = c("spectral", "quadratic"), angles = 201)
  a <- stats::setNames(summary(cv)$auc, summary(cv)$method)
  expect_lt(abs(a[["spectral"]] - truth), 0.04)
  expect_gt(a[["quadratic"]] - truth, 0.15)
})

test_that("with no direction beyond the noise the score is constant: the ceiling", {
  set.seed(2)
  x <- matrix(rnorm(1000 * 16), 1000)
  y <- matrix(rnorm(1000 * 16), 1000)
  f <- fit_spectral(cov_parts(x, y))
  expect_identical(f$settings$directions, 0L)
  expect_identical(f$score(y, 1:5), numeric(5))
  # d at least the fit rows of a set: no direction
  expect_identical(fit_spectral(cov_parts(x[1:10, ], y[1:30, ]))$settings$directions, 0L)
  set.seed(1)
  cv <- prd_curve(x, y, method = "spectral", angles = 101)
  expect_equal(cv$precision, pmin(1, cv$lambda))
  # asked for on fewer than 2 rows a column: a classed warning, and the
  # ceiling where d reaches the fit rows
  set.seed(1)
  expect_warning(cv <- prd_curve(x[1:30, ], y[1:30, ], method = "spectral",
                                 angles = 21, folds = 1),
                 class = "prdcurve_warning_small_sample")
  expect_equal(cv$precision, pmin(1, cv$lambda))
  expect_silent(spectral_rows_warning(16, 32))
  expect_warning(spectral_rows_warning(16, 31), "spectral",
                 class = "prdcurve_warning_small_sample")
})

test_that("the spectral family joins the default up to 512 columns with 8 rows a column", {
  set.seed(1)
  x <- matrix(rnorm(400 * 8), 400)
  expect_true("spectral" %in% tightest_families(x))
  expect_true("spectral" %in% tightest_families(x, rows = 64))
  expect_false("spectral" %in% tightest_families(x, rows = 63))
  expect_false("spectral" %in% tightest_families(matrix(0, 2100, 513)))
  expect_false("spectral" %in% tightest_default())
  df <- data.frame(a = rnorm(100), g = factor(sample(c("u", "v"), 100, TRUE)))
  expect_false("spectral" %in% tightest_families(quiet_traps(prepare_samples(df, df))$real))
})

test_that("the default takes the spectral family only where two halves of the real rows give no direction", {
  # Wachter's edges need four moments: independent t(3) coordinates pass
  # them between two samples of one law, Laplace ones do not
  set.seed(3)
  n <- 3000
  d <- 32
  g <- matrix(rnorm(n * d), n)
  lap <- matrix(rexp(n * d) * sample(c(-1, 1), n * d, TRUE), n)
  t3 <- matrix(rt(n * d, 3), n)
  e <- spectral_edges(d, n / 2, n / 2)
  h <- random_halves(n)
  l <- eigen(solve(cov(t3[h[[1]], ]), cov(t3[h[[2]], ])), only.values = TRUE)$values
  expect_gt(max(l), e[["upper"]] * spectral_margin)
  seed <- .Random.seed
  expect_true(spectral_self_null(g))
  expect_identical(.Random.seed, seed) # the caller's stream is left alone
  expect_true(spectral_self_null(lap))
  expect_false(spectral_self_null(t3))
  expect_true("spectral" %in% tightest_families(g))
  expect_false("spectral" %in% tightest_families(t3))
  # any scale (no moment overflows); too few rows: no
  expect_true(spectral_self_null(g * 1e200))
  expect_true(spectral_self_null(g * 1e-200))
  expect_false(spectral_self_null(g[1:100, ]))
})

test_that("the whitened covariance is R^-T B R^-1, full and symmetric", {
  set.seed(1)
  R <- chol(crossprod(matrix(rnorm(300 * 40), 300)))
  B <- crossprod(matrix(rnorm(300 * 40), 300))
  M <- .Call(ffi_whiten, R, B)
  expect_true(isSymmetric(M))
  expect_equal(M, solve(t(R)) %*% B %*% solve(R), tolerance = 1e-12)
  # (the strict lower triangle of R is not read)
  R2 <- R
  R2[lower.tri(R2)] <- 7
  expect_identical(.Call(ffi_whiten, R2, B), M)
})

slab_sets <- function(n, d, seed, mass = 0.7) {
  set.seed(seed)
  u <- rnorm(d)
  u <- u / sqrt(sum(u^2))
  cut <- qnorm((1 + mass) / 2)
  x <- matrix(rnorm(n * d), n)
  e <- matrix(rnorm(n * d), n)
  t <- qnorm(runif(n, pnorm(-cut), pnorm(cut)))
  list(x = x, y = e + outer(t - drop(e %*% u), u), u = u)
}
rows_of <- function(x, y, rx = NULL, ry = NULL) {
  function(j) list(X = if (j == 1L) x else y, rows = if (j == 1L) rx else ry)
}

test_that("the thinnest-slab search reaches the brute-force minimum of the generated rows' L^p width", {
  s <- slab_sets(3000, 16, 11)
  p <- cov_parts(s$x, s$y)
  f0 <- fit_spectral(p)
  f <- fit_spectral(p, fit_rows = rows_of(s$x, s$y))
  expect_identical(f$settings$refined, 1L)
  expect_identical(f$settings$directions, 1L)
  v0 <- environment(f0$score)$V[, 1]
  v <- environment(f$score)$V[, 1]
  cosu <- function(v) abs(sum(v * s$u)) / sqrt(sum(v^2))
  # the scale-free width: log mean |v'(y - mu_Y)|^p / p - log(v' S_X v) / 2
  yc <- sweep(s$y, 2, colMeans(s$y))
  width <- function(v) {
    log(mean(abs(drop(yc %*% v))^spectral_power)) / spectral_power -
      log(sum(v * (p$Sx %*% v))) / 2
  }
  brute <- stats::optim(v0, width, method = "BFGS",
                        control = list(reltol = 1e-14, maxit = 1000))$par
  expect_equal(abs(sum(v * brute)) / sqrt(sum(v^2) * sum(brute^2)), 1,
               tolerance = 1e-6)
  expect_equal(width(v), width(brute), tolerance = 1e-8)
  expect_lt(width(v), width(v0) - 1e-3)
  # closer to the slab's normal than the eigenvector (cosine 0.99874 to
  # 0.99978 on this draw: the angle's square a sixth)
  expect_lt(1 - cosu(v), (1 - cosu(v0)) / 3)
  expect_gt(cosu(v), 0.9995)
  # v' S_X v = 1, l its generated spread, the shift along it
  e <- environment(f$score)
  expect_equal(sum(v * (p$Sx %*% v)), 1, tolerance = 1e-12)
  expect_equal(e$l[1], sum(v * (p$Sy %*% v)), tolerance = 1e-12)
  expect_equal(e$shift[1], sum(v * (p$my - p$mx)), tolerance = 1e-12)
  # the fit rows read in place from larger sets: the same fit
  set.seed(2)
  xb <- rbind(matrix(rnorm(500 * 16), 500), s$x)
  yb <- rbind(s$y, matrix(rnorm(700 * 16), 700))
  rx <- 500L + seq_len(3000)
  ry <- seq_len(3000)
  fr <- fit_spectral(cov_parts(xb, yb, rx, ry), fit_rows = rows_of(xb, yb, rx, ry))
  expect_identical(fr$settings$refined, 1L)
  expect_equal(environment(fr$score)$V, environment(f$score)$V, tolerance = 1e-10)
  # any scale: the same direction (no |z|^p overflows)
  big <- fit_spectral(cov_parts(s$x * 1e150, s$y * 1e150),
                      fit_rows = rows_of(s$x * 1e150, s$y * 1e150))
  vb <- environment(big$score)$V[, 1]
  expect_identical(big$settings$refined, 1L)
  expect_equal(abs(sum(v * vb)) / sqrt(sum(v^2) * sum(vb^2)), 1, tolerance = 1e-8)
})

test_that("the search leaves a narrowed Gaussian direction as it is", {
  # a Gaussian along the narrowed direction (kurtosis 3, as the real rows'):
  # the eigenvector is the maximum-likelihood direction; no search
  set.seed(4)
  n <- 3000
  x <- matrix(rnorm(n * 16), n)
  y <- matrix(rnorm(n * 16), n) %*% diag(c(0.5, rep(1, 15)))
  p <- cov_parts(x, y)
  f0 <- fit_spectral(p)
  f <- fit_spectral(p, fit_rows = rows_of(x, y))
  expect_identical(f$settings$refined, 0L)
  expect_identical(f$settings$directions, 1L)
  expect_identical(f$score(x), f0$score(x))
  # only a narrowed direction is searched: a widened one is left
  y2 <- matrix(rnorm(n * 16), n) %*% diag(c(2, rep(1, 15)))
  expect_identical(fit_spectral(cov_parts(x, y2), fit_rows = rows_of(x, y2))$settings$refined, 0L)
})

# the spectral family's cross-fitted AUC (seed 1, 201 angles) with its
# fits given no fit rows: no search
unsearched_auc <- function(x, y) {
  f <- family_entry("spectral")
  old <- register_family("spectral", "fitted", path = "parts",
                         summary = f$summary, reason = f$reason,
                         fit = function(real, generated, fx, fy, n_score, parts, call) {
                           fit_spectral(parts(), call = call)
                         },
                         fit_parts = function(p, n_score, call, fit_rows) {
                           fit_spectral(p, call = call)
                         })
  on.exit(family_env$entries[["spectral"]] <- old)
  set.seed(1)
  summary(prd_curve(x, y, method = "spectral", angles = 201))$auc
}

# The cross-fitted AUC of the spectral family on sets `s` (each fit
# searched: asserted) and the same without the search
searched_auc <- function(s) {
  set.seed(1)
  cv <- prd_curve(s$x, s$y, method = "spectral", angles = 201)
  expect_equal(attr(cv, "curves")$details[[1]]$refined, 1)
  c(auc = summary(cv)$auc, plain = unsearched_auc(s$x, s$y))
}

test_that("cross-fitted, every fold searches on its own fit rows", {
  # the fold moments' fits (10 folds) and the rows path (folds = 1) both
  # pass the fold's fit rows: on the slab every fit searches, and the
  # search lowers the AUC toward the truth 0.70
  s <- slab_sets(2000, 16, 12)
  a <- searched_auc(s)
  auc <- a[["auc"]]
  expect_lt(auc, a[["plain"]] - 0.005)
  expect_lt(abs(auc - 0.70), 0.03)
  set.seed(1)
  one <- prd_curve(s$x, s$y, method = "spectral", angles = 201, folds = 1)
  expect_equal(attr(one, "curves")$details[[1]]$refined, 1)
})

half_sets <- function(n, d, seed) {
  set.seed(seed)
  u <- rnorm(d)
  u <- u / sqrt(sum(u^2))
  x <- matrix(rnorm(n * d), n)
  y <- matrix(rnorm(3 * n * d), 3 * n)
  list(x = x, y = y[drop(y %*% u) > 0, , drop = FALSE][seq_len(n), ], u = u)
}

test_that("a one-sided truncation: the search reaches the brute-force minimum of the lower side's L^p extent", {
  # P within the half-space u . x > 0: along u the generated rows are
  # half-normal (skewness 1, kurtosis 3.87: not the slab's test)
  s <- half_sets(3000, 16, 21)
  p <- cov_parts(s$x, s$y)
  f0 <- fit_spectral(p)
  f <- fit_spectral(p, fit_rows = rows_of(s$x, s$y))
  expect_identical(f$settings$refined, 1L)
  e <- environment(f$score)
  v0 <- environment(f0$score)$V[, 1]
  v <- e$V[, 1]
  # (the side is that of v's sign, which the eigenvector leaves free)
  sd1 <- e$side[1]
  expect_identical(abs(sd1), 1)
  cosu <- function(v) abs(sum(v * s$u)) / sqrt(sum(v^2))
  yc <- sweep(s$y, 2, colMeans(s$y))
  # the scale-free extent of the side of the generated mean where the
  # edge is (v oriented as the fit's: along sd1 v the generated law lies
  # above its edge)
  extent <- function(v) {
    log(mean(pmax(-sd1 * drop(yc %*% v), 0)^spectral_power)) / spectral_power -
      log(sum(v * (p$Sx %*% v))) / 2
  }
  brute <- stats::optim(v0, extent, method = "BFGS",
                        control = list(reltol = 1e-14, maxit = 1000))$par
  expect_equal(abs(sum(v * brute)) / sqrt(sum(v^2) * sum(brute^2)), 1,
               tolerance = 1e-6)
  expect_equal(extent(v), extent(brute), tolerance = 1e-8)
  expect_lt(extent(v), extent(v0) - 1e-3)
  expect_lt(1 - cosu(v), (1 - cosu(v0)) / 3)
  expect_equal(e$l[1], sum(v * (p$Sy %*% v)), tolerance = 1e-12)
  # the score: the Gaussian term with w capped at its peak, so it never
  # falls again above the edge (exact, by hand)
  z <- rbind(s$x[1:50, ], s$y[1:50, ])
  w <- drop(sweep(z, 2, p$mx) %*% v)
  pk <- e$shift[1] / (1 - e$l[1])
  wc <- if (sd1 > 0) pmin(w, pk) else pmax(w, pk)
  expect_equal(f$score(z), 0.5 * (wc^2 - (wc - e$shift[1])^2 / e$l[1] - log(e$l[1])),
               tolerance = 1e-12)
  g <- seq(-4, 6, by = 0.01)
  sg <- f$score(outer(sd1 * g, v / sum(v^2)) + rep(p$mx, each = length(g)))
  expect_true(all(diff(sg) >= -1e-12))
  expect_gt(sg[length(g)], sg[1] + 5)
  # the mirror image reads the same scores
  fm <- fit_spectral(cov_parts(-s$x, -s$y), fit_rows = rows_of(-s$x, -s$y))
  expect_identical(abs(environment(fm$score)$side), 1)
  expect_equal(fm$score(-z), f$score(z), tolerance = 1e-8)
})

test_that("cross-fitted on a half-space, the edge's search brings the AUC to the truth 0.5", {
  a <- searched_auc(half_sets(2000, 16, 22))
  expect_lt(a[["auc"]], a[["plain"]] - 0.02)
  expect_lt(abs(a[["auc"]] - 0.5), 0.03)
})
