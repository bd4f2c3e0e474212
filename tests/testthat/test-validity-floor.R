# The validity suite's floors (R/validity-floor.R): every model's exact
# log-likelihood ratio against brute-force densities, the fitted forms
# against closed-form and numerical maximum-likelihood fits, the labelled
# draws against the samplers, and the floors' curves in limits where they
# are known.

scenarios_small <- function(d = 5, ...) {
  validity_scenarios(d, truth_n = 2e4, angles = 41, ...)
}
group_of <- function(sc, name) sc[[match(name, vapply(sc, `[[`, "", "name"))]]

test_that("the Gaussian, Student t and mixture log ratios are the densities' (dnorm sums, a numeric integral)", {
  d <- 5
  sc <- scenarios_small(d)
  gs <- group_of(sc, "gauss")$models
  set.seed(1)
  x <- matrix(rnorm(6 * d, sd = 1.3), 6, d)
  ld <- function(x, mean = 0, sd = 1) rowSums(dnorm(x, rep(mean, each = nrow(x)), sd, log = TRUE))
  expect_equal(gs$same$log_ratio(x), rep(0, 6))
  expect_equal(gs$shift_axis_1$log_ratio(x), ld(x, c(1, 0, 0, 0, 0)) - ld(x), tolerance = 1e-12)
  expect_equal(gs$shift_axis_2$log_ratio(x), ld(x, c(2, 0, 0, 0, 0)) - ld(x), tolerance = 1e-12)
  expect_equal(gs$var_1.2$log_ratio(x), ld(x, sd = 1.2) - ld(x), tolerance = 1e-12)
  expect_equal(gs$var_0.8$log_ratio(x), ld(x, sd = 0.8) - ld(x), tolerance = 1e-12)
  expect_equal(gs$outliers$log_ratio(x),
               log(0.95 * exp(ld(x)) + 0.05 * exp(ld(x, sd = 3))) - ld(x), tolerance = 1e-12)
  # multivariate t (5 df, covariance I): the Gaussian scale mixture over the
  # precision w ~ Gamma(5 / 2, rate 5 / 2), integrated numerically
  s2 <- 3 / 5
  t_dens <- function(r2) {
    integrate(function(w) {
      (w / (2 * pi * s2))^(d / 2) * exp(-w * r2 / (2 * s2)) * dgamma(w, 2.5, rate = 2.5)
    }, 0, Inf, rel.tol = 1e-10)$value
  }
  r2 <- rowSums(x^2)
  expect_equal(gs$student_t$log_ratio(x), log(vapply(r2, t_dens, 0)) - ld(x), tolerance = 1e-8)
  # the random shift: linear, E_Q = s^2 / 2 (the KL divergence), slope of
  # norm s; Q's mean is recovered from the gradient
  v <- gs$shift_random_1$log_ratio(diag(d)) - gs$shift_random_1$log_ratio(matrix(0, 1, d))
  expect_equal(sum(v^2), 1, tolerance = 1e-12)
  expect_equal(gs$shift_random_1$log_ratio(x), ld(x, v) - ld(x), tolerance = 1e-12)
  # the collapsed model: Inf at its atoms, -Inf at P's draws
  set.seed(2)
  y <- gs$collapse$sample(40)
  expect_true(all(gs$collapse$log_ratio(y) == Inf))
  expect_true(all(gs$collapse$log_ratio(x) == -Inf))
  # the mixture: four collinear modes at (0, 4, 8, 12) 1 / sqrt(d), one or
  # two dropped
  mx <- group_of(sc, "mixture")$models
  mu <- c(0, 4, 8, 12) / sqrt(d)
  mix <- function(k) log(rowMeans(vapply(mu[seq_len(k)], function(m) exp(ld(x, rep(m, d))),
                                        numeric(nrow(x)))))
  expect_equal(mx$drop_1$log_ratio(x), mix(3) - mix(4), tolerance = 1e-12)
  expect_equal(mx$drop_2$log_ratio(x), mix(2) - mix(4), tolerance = 1e-12)
})

test_that("every finite log ratio integrates to one: E_P[q / p] = 1 and E_Q[log q / p] is the KL divergence", {
  d <- 16
  sc <- scenarios_small(d)
  set.seed(3)
  for (nm in c("gauss", "mixture", "aniso")) {
    g <- group_of(sc, nm)
    x <- g$real(4e4)
    for (m in setdiff(names(g$models), c("collapse", "outliers", "student_t"))) {
      r <- exp(g$models[[m]]$log_ratio(x))
      expect_lt(abs(mean(r) - 1), 4 * sd(r) / sqrt(length(r)) + 1e-12)
    }
  }
  # anisotropic shifts of Mahalanobis length s: E_Q[log q / p] = s^2 / 2
  g <- group_of(sc, "aniso")
  for (s in 1:2) {
    lr <- g$models[[paste0("aniso_", s)]]$log_ratio(g$models[[paste0("aniso_", s)]]$sample(4e4))
    expect_equal(mean(lr), s^2 / 2, tolerance = 0.03 / s^2)
    expect_equal(var(lr), s^2, tolerance = 0.03)
  }
})

test_that("the tabular log ratios are the cells' probability ratios times x1's conditional normal", {
  g <- validity_tabular(4, truth_n = 2e4, angles = 41)
  x <- data.frame(x1 = c(0.3, -1, 2), x2 = 0, x3 = 0, x4 = 0,
                  sex = factor(c("F", "M", "M"), levels = c("F", "M")),
                  region = factor(c("a", "b", "e"), levels = letters[1:5]))
  m <- g$models
  expect_equal(m$category_drift$log_ratio(x),
               log(c(0.7 * 0.2, 0.3 * 0.2, 0.3 * 0.2) / c(0.5 * 0.4, 0.5 * 0.3, 0.5 * 0.1)))
  expect_equal(m$category_dropped$log_ratio(x), c(0, 0, -Inf))
  expect_equal(m$category_mean$log_ratio(x),
               c(0, dnorm(-1, 1, log = TRUE) - dnorm(-1, log = TRUE),
                 dnorm(2, 1, log = TRUE) - dnorm(2, log = TRUE)))
  expect_equal(m$category_scale$log_ratio(x),
               c(dnorm(0.3, sd = 2, log = TRUE) - dnorm(0.3, log = TRUE), 0, 0))
})

test_that("the Gaussian forms are their closed-form maximum-likelihood fits", {
  real <- matrix(c(0, 1, 2, 0, 0, 3), 3, 2)
  gen <- matrix(c(1, 3, 1, 1), 2, 2)
  z <- matrix(c(0.5, -1, 2, 1), 2, 2)
  ld <- function(x, m, v) -0.5 * (2 * log(2 * pi * v) + rowSums((x - rep(m, each = nrow(x)))^2) / v)
  mp <- c(1, 1)
  mq <- c(2, 1)
  ssp <- (1 + 0 + 1) + (1 + 1 + 4)  # 8
  ssq <- 2 + 0                      # 2
  # shared isotropic variance: (8 + 2) / (5 rows x 2 dims) = 1
  expect_equal(form_iso_shared()(real, gen)(z), ld(z, mq, 1) - ld(z, mp, 1))
  # a variance per set: 8 / 6 and 2 / 4
  expect_equal(form_iso()(real, gen)(z), ld(z, mq, 0.5) - ld(z, mp, 8 / 6))
  # shared diagonal: per coordinate (2 + 2) / 5 and (6 + 0) / 5
  v <- c(4, 6) / 5
  ldd <- function(x, m) rowSums(dnorm(x, rep(m, each = nrow(x)), rep(sqrt(v), each = nrow(x)),
                                      log = TRUE))
  expect_equal(form_diag_shared()(real, gen)(z), ldd(z, mq) - ldd(z, mp))
})

test_that("the Student t, probabilistic PCA and heavy-tailed scale fits are maxima of their likelihoods", {
  set.seed(4)
  # multivariate t, 5 df, isotropic scatter: EM against a numerical maximum
  d <- 3
  x <- matrix(rt(300 * d, 5), 300, d) * 0.7 + rep(c(1, -1, 0.5), each = 300)
  f <- t_fit(x, 5)
  ll <- function(p) {
    delta <- rowSums((x - rep(p[1:3], each = 300))^2)
    s2 <- exp(p[4])
    sum(lgamma(4) - lgamma(2.5) - 1.5 * log(5 * pi * s2) - 4 * log1p(delta / (5 * s2)))
  }
  opt <- optim(c(colMeans(x), log(var(x[, 1]))), ll, control = list(fnscale = -1, reltol = 1e-14,
                                                                   maxit = 5000))
  expect_equal(f$mean, opt$par[1:3], tolerance = 1e-4)
  expect_equal(f$s2, exp(opt$par[4]), tolerance = 1e-4)
  expect_equal(sum(f$loglik(x)), opt$value, tolerance = 1e-8)
  # PPCA: the fitted covariance keeps the sample covariance's top k
  # eigenvalues and replaces the others by their mean (Tipping and Bishop
  # 1999); its log-density is the Gaussian's with that covariance
  d <- 6
  y <- matrix(rnorm(80 * d), 80, d) %*% diag(c(3, 2, 1, 1, 0.5, 0.5))
  p <- ppca_fit(y, 2)
  C <- p$s2 * diag(d) + p$U %*% diag(p$lambda - p$s2) %*% t(p$U)
  S <- crossprod(sweep(y, 2, colMeans(y))) / 80
  es <- eigen(S, symmetric = TRUE)$values
  expect_equal(eigen(C, symmetric = TRUE)$values, c(es[1:2], rep(mean(es[3:6]), 4)),
               tolerance = 1e-10)
  z <- matrix(rnorm(4 * d), 4, d)
  v <- z - rep(p$mean, each = 4)
  brute <- -0.5 * (d * log(2 * pi) + as.numeric(determinant(C)$modulus) +
                     rowSums((v %*% solve(C)) * v))
  expect_equal(ppca_logdens(z, p), brute, tolerance = 1e-10)
  # rank 0: the isotropic fit
  p0 <- ppca_fit(y, 0)
  expect_equal(p0$s2, mean(es))
  # per-coordinate scales: Laplace's is the mean absolute value; t(3)'s the
  # maximum of its likelihood (optimize)
  h <- matrix(rt(500 * 2, 3), 500, 2) * rep(c(0.5, 2), each = 500)
  expect_equal(heavy_scale("laplace", h), colMeans(abs(h)))
  s_t <- heavy_scale("t3", h)
  for (j in 1:2) {
    o <- optimize(function(s) sum(dt(h[, j] / s, 3, log = TRUE) - log(s)), c(0.01, 20),
                  maximum = TRUE, tol = 1e-10)
    expect_equal(s_t[j], o$maximum, tolerance = 1e-5)
  }
})

test_that("the labelled draws are the samplers' own, with each row's class", {
  # the outliers: class 2 rows are scaled by 3 (|x|^2 about 9 d, not d)
  d <- 64
  sc <- scenarios_small(d, which = c("outliers", "drop_1", "clusters_drop"),
                        kinds = "clusters")
  g <- group_of(sc, "gauss")
  set.seed(5)
  dr <- validity_draw(g, 3000)
  set.seed(5)
  expect_identical(dr$real, g$real(3000))
  expect_identical(dr$gens$outliers, g$models$outliers$sample(3000))
  cl <- dr$classes$generated$outliers
  expect_identical(cl, 1L + (rowSums(dr$gens$outliers^2) > 4 * d))
  expect_equal(mean(cl == 2L), 0.05, tolerance = 0.2)
  expect_null(dr$classes$real)
  # the mixture and the classes: each row nearer its class's centre than
  # most others, on average, and the draws unchanged
  for (nm in c("mixture", "clusters")) {
    g <- group_of(sc, nm)
    set.seed(6)
    dr <- validity_draw(g, 2000)
    set.seed(6)
    expect_identical(dr$real, g$real(2000))
    for (m in names(g$models)) expect_identical(dr$gens[[m]], g$models[[m]]$sample(2000))
    cl <- dr$classes$real
    expect_length(cl, 2000)
    # the class means of the draws: each within sampling noise of a
    # distinct centre (the rows' own class explains their mean)
    within <- sum((dr$real - rowsum(dr$real, cl)[as.character(cl), ] /
                     as.vector(table(cl)[as.character(cl)]))^2) / (2000 * d)
    shuffled <- sample(cl)
    across <- sum((dr$real - rowsum(dr$real, shuffled)[as.character(shuffled), ] /
                     as.vector(table(shuffled)[as.character(shuffled)]))^2) / (2000 * d)
    expect_lt(within, if (nm == "mixture") 1.02 else 1.1)
    expect_gt(across - within, if (nm == "mixture") 0.2 else 0.04)
  }
  # a mixture whose classes are far apart: every row is nearest its class
  means <- matrix(c(0, 50, 100), 3, 2)
  gm <- gaussian_mixture(means, weights = c(1, 2, 1))
  set.seed(7)
  cl <- mixture_classes(gm)(500)
  set.seed(7)
  y <- gm$sample(500)
  expect_identical(cl, max.col(-abs(outer(y[, 1], means[, 1], "-"))))
})

test_that("the floor rows are prd_curve()'s, data frames included", {
  score <- function(Z) Z[, 1] + 0.3 * Z[, 2]^2
  register_family("probe", "fitted", reason = "-", summary = "-",
                  fit = function(real, generated, fx, fy, n_score, parts, call) {
                    list(score = function(Z, rows = NULL) {
                      if (!is.null(rows)) Z <- Z[rows, , drop = FALSE]
                      score(Z)
                    }, settings = list(one = 1))
                  })
  withr::defer(unregister_family("probe"))
  g <- validity_tabular(3, truth_n = 2e4, angles = 41,
                        which = c("category_drift", "category_mean"))
  set.seed(8)
  dr <- validity_draw(g, 400)
  state <- .Random.seed
  rows <- validity_floor_rows(dr$real, dr$gens, repeats = 1)
  assign(".Random.seed", state, globalenv())
  cv <- prd_curve(dr$real, dr$gens, method = "probe", repeats = 1)
  expect_length(rows$eval$real, 200)
  expect_setequal(c(rows$eval$real, rows$fit$real), 1:400)
  num <- function(x) cbind(x$x1, x$x2)
  for (m in names(dr$gens)) {
    orc <- prd_scores(-score(num(dr$real[rows$eval$real, ])),
                      -score(num(dr$gens[[m]][rows$eval$generated[[m]], ])))
    est <- cv[cv$model == m, ]
    expect_equal(orc$precision, est$precision, tolerance = 1e-14)
    expect_equal(orc$recall, est$recall, tolerance = 1e-14)
  }
})

test_that("the floors: Q = P near 1, the tabular frequencies, and the labelled fit at the oracle for large n", {
  d <- 16
  sc <- scenarios_small(d, which = c("same", "shift_axis_1", "drop_1", "category_drift"))
  floor_auc <- function(g, m, n, seed) {
    set.seed(seed)
    dr <- validity_draw(g, n)
    fr <- validity_floor_rows(dr$real, dr$gens)
    rows <- list(fit = list(real = fr$fit$real, generated = fr$fit$generated[[m]]),
                 eval = list(real = fr$eval$real, generated = fr$eval$generated[[m]]))
    cl <- list(real = dr$classes$real, generated = dr$classes$generated[[m]])
    c(floor = summary(floor_curve(g$models[[m]]$form, dr$real, dr$gens[[m]], rows, cl))$auc,
      oracle = summary(oracle_curve(g$models[[m]]$log_ratio, dr$real, dr$gens[[m]],
                                    rows$eval))$auc)
  }
  gs <- group_of(sc, "gauss")
  a <- floor_auc(gs, "same", 4000, 9)
  expect_gt(a[["floor"]], 0.97)
  expect_equal(a[["oracle"]], 1, tolerance = 1e-5)
  # the labelled mixture fit and the shift fit reach the oracle as n grows
  mx <- group_of(sc, "mixture")
  b <- floor_auc(mx, "drop_1", 40000, 10)
  expect_lt(abs(b[["floor"]] - b[["oracle"]]), 0.01)
  expect_lt(abs(b[["oracle"]] - mx$models$drop_1$truth_auc), 0.01)
  b <- floor_auc(gs, "shift_axis_1", 40000, 11)
  expect_lt(abs(b[["floor"]] - b[["oracle"]]), 0.01)
  # the tabular form: log of the cells' frequency ratio
  tb <- group_of(sc, "tabular")
  set.seed(12)
  dr <- validity_draw(tb, 1000)
  lr <- tb$models$category_drift$form(dr$real, dr$gens$category_drift)
  cell <- function(x) paste(x$sex, x$region)
  fp <- table(cell(dr$real)) / 1000
  fq <- table(cell(dr$gens$category_drift)) / 1000
  k <- cell(dr$real[1:5, ])
  expect_equal(lr(dr$real[1:5, ]), as.vector(log(fq[k]) - log(fp[k])))
})

test_that("the manifold's latent form and the truncated ball's radius", {
  # the ball: centred at the real fit rows' mean, radius^2 the largest
  # squared distance of the generated fit rows from it
  real <- matrix(c(-1, 1, -1, 1, 0, 0, 2, -2), 4, 2)  # mean (0, 0)
  gen <- matrix(c(0.5, 0, 0, 0, 0, 1.5), 3, 2)          # largest r^2: 2.25
  lr <- form_ball()(real, gen)
  expect_equal(lr(matrix(c(1.5, 1.51, 1, 0, 0, 1), 3, 2)), c(0, -Inf, 0))
  # the latent form: the latent Gaussian's fit on the latent coordinates
  f <- form_latent(function(x) x[, 1:2, drop = FALSE], form_iso())
  x <- matrix(rnorm(40), 10, 4)
  y <- matrix(rnorm(40, 1), 10, 4)
  z <- matrix(rnorm(12), 3, 4)
  expect_equal(f(x, y)(z), form_iso()(x[, 1:2], y[, 1:2])(z[, 1:2]))
  # at large n both floors reach the oracle
  sc <- validity_kind_group("manifold", 32, truth_n = 2e4, angles = 41,
                            which = "latent_scale_1.2")
  tr <- validity_kind_group("truncation", 32, angles = 41, which = "trunc_ball_0.8")
  for (g in list(sc, tr)) {
    m <- names(g$models)
    set.seed(13)
    dr <- validity_draw(g, 40000)
    fr <- validity_floor_rows(dr$real, dr$gens)
    rows <- list(fit = list(real = fr$fit$real, generated = fr$fit$generated[[m]]),
                 eval = list(real = fr$eval$real, generated = fr$eval$generated[[m]]))
    fl <- summary(floor_curve(g$models[[m]]$form, dr$real, dr$gens[[m]], rows))$auc
    orc <- summary(oracle_curve(g$models[[m]]$log_ratio, dr$real, dr$gens[[m]], rows$eval))$auc
    expect_lt(abs(fl - orc), 0.01)
  }
})
