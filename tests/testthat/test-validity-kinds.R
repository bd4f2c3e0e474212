# The validity suite's groups of overlapping classes, heavy-tailed
# coordinates, a curved manifold and truncation (R/validity-kinds.R): their
# truths against closed forms and brute-force computations, their
# log-likelihood ratios against the densities, and the oracle's evaluation
# rows against prd_curve()'s own.

skip_if_sanitizing()

# alpha_lambda of a curve given by its likelihood ratio's tail P(r > lambda)
# and Q(r <= lambda) (Simon et al. 2019, Theorem 4)
exact_curve <- function(lambda, p_above, q_below) {
  alpha <- pmin(lambda * p_above + q_below, 1)
  beta <- pmin(p_above + q_below / lambda, 1)
  new_prd_curve(lambda, alpha, beta, max_precision = 1, max_recall = 1,
                method = "exact")
}

test_that("class mixtures: the reduced log-density is the full one, and the isotropic sampler gaussian_mixture()'s", {
  set.seed(1)
  d <- 12
  sc <- cluster_scenario(d, classes = 4L, rank = 2L)
  p <- sc$real
  # the same classes written out as full covariances in d dimensions
  set.seed(1)
  means <- matrix(rnorm(4 * d), 4) * 3 / sqrt(2 * d)
  sd <- exp(seq(log(0.85), log(1.15), length.out = 4))
  W <- lapply(1:4, function(l) matrix(rnorm(d * 2), d) * 2 / sqrt(d))
  scale <- 1 / seq_len(d)^0.25
  scale <- scale / sqrt(mean(scale^2))
  full <- function(s, w, wts) {
    covs <- lapply(1:4, function(l) {
      diag(scale) %*% (s[l]^2 * diag(d) + tcrossprod(w[[l]])) %*% diag(scale)
    })
    gaussian_mixture(means * rep(scale, each = 4), cov = covs, weights = wts)
  }
  x <- matrix(rnorm(50 * d, sd = 1.5), 50, d)
  expect_equal(p$log_density(x), full(sd, W, c(1, 1, 1, 1))$log_density(x),
               tolerance = 1e-10)
  wide <- sc$models$widen
  expect_equal(wide$log_density(x),
               full(1.15 * sd, lapply(W, `*`, 1.15), c(1, 1, 1, 1))$log_density(x),
               tolerance = 1e-10)
  expect_equal(sc$models$reweight$log_density(x),
               full(sd, W, c(3, 3, 3, 1))$log_density(x), tolerance = 1e-10)
  # isotropic classes (rank 0): the densities and, under one seed, the
  # draws of gaussian_mixture()
  set.seed(2)
  iso <- cluster_scenario(40, classes = 10L)
  set.seed(2)
  means <- matrix(rnorm(10 * 40), 10) * 3 / sqrt(80)
  sd <- exp(seq(log(0.85), log(1.15), length.out = 10))
  gm <- gaussian_mixture(means, sd = sd, weights = rep(c(0, 1), c(3, 7)))
  z <- matrix(rnorm(30 * 40), 30)
  expect_equal(iso$models$drop$log_density(z), gm$log_density(z), tolerance = 1e-10)
  set.seed(3)
  a <- iso$models$drop$sample(200)
  set.seed(3)
  expect_equal(a, gm$sample(200))
})

test_that("class mixtures: the truth from the reduced statistic is the full-dimensional Monte Carlo", {
  set.seed(4)
  d <- 40  # basis of 4 centres and 4 x 2 loadings: 12 of 40 dimensions
  sc <- cluster_scenario(d, classes = 4L, rank = 2L)
  for (m in c("drop", "widen")) {
    q <- sc$models[[m]]
    set.seed(5)
    red <- cluster_truth(sc$real, q, n = 1e5, angles = 41)
    full <- prd_truth(sc$real$log_density, q$log_density, sc$real$sample,
                      q$sample, n = 3e4, angles = 41)
    expect_lt(max(abs(red$precision - full$precision)), 0.02)
    expect_lt(abs(summary(red)$auc - summary(full)$auc), 0.01)
  }
  # the reduced draws' w part is sd^2 chi-square with d - 12 degrees of
  # freedom: its mean under the real mixture is mean(sd^2) (d - 12)
  set.seed(6)
  w <- sc$real$sample_reduced(2e4)[, 13]
  sd <- exp(seq(log(0.85), log(1.15), length.out = 4))
  expect_equal(mean(w), mean(sd^2) * (d - 12), tolerance = 0.01)
})

test_that("clusters groups: models, truths below 1, and the oracle log ratio", {
  sc <- validity_scenarios(32, truth_n = 2e4, angles = 41,
                           kinds = c("clusters", "clusters_lowrank"))
  expect_identical(vapply(sc, `[[`, "", "name")[5:6],
                   c("clusters", "clusters_lowrank"))
  for (g in sc[5:6]) {
    pre <- if (g$name == "clusters") "clusters_" else "lowrank_"
    expect_named(g$models, paste0(pre, c("drop", "reweight", "widen")))
    names(g$models) <- c("drop", "reweight", "widen")
    auc <- vapply(g$models, `[[`, 0, "truth_auc")
    expect_true(all(auc > 0.3 & auc < 0.97))
    # a dropped class: the maximal precision is 1
    expect_equal(summary(g$models$drop$truth)$max_precision, 1)
    set.seed(7)
    x <- g$real(3e4)
    y <- g$models$reweight$sample(3e4)
    lr <- g$models$reweight$log_ratio
    # the oracle's curve on fresh draws: the truth up to the draws' noise
    orc <- prd_scores(-lr(x), -lr(y), angles = 41)
    expect_lt(abs(summary(orc)$auc - g$models$reweight$truth_auc), 0.015)
  }
  # the old groups are unchanged by the new ones
  old <- validity_scenarios(32, truth_n = 2e4, angles = 41)
  expect_length(old, 4L)
  for (i in 1:4) {
    expect_equal(vapply(old[[i]]$models, `[[`, 0, "truth_auc"),
                 vapply(sc[[i]]$models, `[[`, 0, "truth_auc"))
  }
})

test_that("heavy-tailed coordinates: the Monte Carlo truth in d = 1 is the numeric integral", {
  u <- (seq_len(1e6) - 0.5) / 1e6  # midpoint rule over the quantiles
  quant <- list(t3 = function(u) qt(u, 3),
                laplace = function(u) -sign(u - 0.5) * log(1 - 2 * abs(u - 0.5)))
  for (kind in c("t3", "laplace")) {
    g <- validity_kind_group(paste0("heavy_", kind), d = 1, truth_n = 2e5,
                             angles = 41)
    for (m in names(g$models)) {
      s <- if (grepl("wider_1.1", m)) 1.1 else 0.9
      lr <- function(x) heavy_logdens(kind, matrix(x), s) - heavy_logdens(kind, matrix(x), 1)
      # the log-likelihood ratio written out, against the density's
      x <- c(-30, -2, 0.3, 5)
      own <- if (kind == "t3") dt(x / s, 3, log = TRUE) - log(s) - dt(x, 3, log = TRUE) else
        -abs(x) / s - log(s) + abs(x)
      expect_equal(g$models[[m]]$log_ratio(matrix(x)), own, tolerance = 1e-12)
      r_p <- sort(lr(quant[[kind]](u)))
      r_q <- sort(lr(s * quant[[kind]](u)))
      tr <- g$models[[m]]$truth
      lam <- tr$lambda[tr$lambda > 0 & is.finite(tr$lambda)]
      ex <- exact_curve(lam, 1 - findInterval(log(lam), r_p) / 1e6,
                        findInterval(log(lam), r_q) / 1e6)
      expect_lt(max(abs(tr$precision - ex$precision)), 0.006)
      expect_lt(abs(summary(tr)$auc - summary(ex)$auc), 0.004)
    }
  }
  # in d dimensions the truth falls as the coordinates add up evidence
  g <- validity_kind_group("heavy_t3", d = 64, truth_n = 2e4, angles = 41)
  auc <- vapply(g$models, `[[`, 0, "truth_auc")
  expect_true(all(auc > 0.6 & auc < 0.9))
})

test_that("manifold: an injective map, and the truth is the latent one", {
  set.seed(8)
  map <- manifold_map(8, 256)
  z <- matrix(rnorm(500 * 8), 500)
  x <- map$embed(z)
  expect_equal(dim(x), c(500, 256))
  expect_lt(max(abs(map$latent(x) - z)), 1e-10)
  # curved: the points need more than 8 linear dimensions
  sv <- svd(scale(x, scale = FALSE))$d
  expect_gt(sv[12] / sv[1], 0.1)
  g <- validity_kind_group("manifold", d = 256, truth_n = 2e5, angles = 41)
  # the shift: the closed form of delta = 1 in the latent space
  tr <- g$models$latent_shift_1$truth
  expect_equal(curve_detail(tr, "delta"), 1)
  # the latent scale 1.2: the chi-square closed form in 8 dimensions
  s <- 1.2
  tr <- g$models$latent_scale_1.2$truth
  inner <- tr$lambda > 0 & is.finite(tr$lambda)
  lam <- tr$lambda[inner]
  cut <- (log(lam) + 8 * log(s)) * 2 / (1 - 1 / s^2)
  exact <- lam * pchisq(cut, 8, lower.tail = FALSE) + pchisq(cut / s^2, 8)
  expect_lt(max(abs(tr$precision[inner] - pmin(exact, pmin(lam, 1)))), 0.01)
  # the oracle reads the latent log ratio off the embedded points: its
  # curve on 2 x 20,000 draws is the latent truth
  set.seed(9)
  for (m in names(g$models)) {
    xr <- g$real(2e4)
    xg <- g$models[[m]]$sample(2e4)
    lr <- g$models[[m]]$log_ratio
    orc <- prd_scores(-lr(xr), -lr(xg), angles = 41)
    expect_lt(abs(summary(orc)$auc - g$models[[m]]$truth_auc), 0.015)
  }
})

test_that("truncation: the true curve is the rectangle of recall a, and the samplers stay in the set", {
  g <- validity_kind_group("truncation", d = 64, angles = 101)
  mass <- c(trunc_ball_0.5 = 0.5, trunc_ball_0.8 = 0.8, trunc_slab_0.7 = 0.7,
            trunc_half_0.6 = 0.6)
  expect_identical(names(g$models), names(mass))
  set.seed(10)
  x <- g$real(2e4)
  for (m in names(mass)) {
    a <- mass[[m]]
    tr <- g$models[[m]]$truth
    inner <- tr$lambda > 0 & is.finite(tr$lambda)
    lam <- tr$lambda[inner]
    expect_equal(tr$precision[inner], pmin(lam * a, 1), tolerance = 1e-12)
    expect_equal(tr$recall[inner], pmin(a, 1 / lam), tolerance = 1e-12)
    expect_equal(summary(tr)$max_recall, a, tolerance = 1e-12)
    expect_equal(summary(tr)$auc, a, tolerance = 5e-4) # (the grid of 101 angles)
    lr <- g$models[[m]]$log_ratio
    y <- g$models[[m]]$sample(2e4)
    # every generated point in the set, and the set's mass under P is a
    expect_true(all(lr(y) == -log(a)))
    expect_equal(mean(is.finite(lr(x))), a, tolerance = 0.02)
  }
  # the ball's draws are P's conditioned on it: the median of |x|^2 is the
  # chi-square quantile of a / 2
  set.seed(11)
  r2 <- rowSums(g$models$trunc_ball_0.8$sample(2e4)^2)
  expect_equal(median(r2), qchisq(0.4, 64), tolerance = 0.01)
  # the half-space's draws along u are P's above the edge qnorm(0.4):
  # their mean is dnorm(edge) / 0.6, and across u they are N(0, 1)
  set.seed(12)
  y <- g$models$trunc_half_0.6$sample(2e4)
  lr <- g$models$trunc_half_0.6$log_ratio
  expect_true(all(lr(y) == -log(0.6)))
  u <- get("u", envir = environment(lr)) # the group's direction
  expect_identical(u, get("u", envir = environment(g$models$trunc_slab_0.7$log_ratio)))
  w <- drop(y %*% u)
  expect_equal(mean(w), dnorm(qnorm(0.4)) / 0.6, tolerance = 0.01)
  expect_equal(min(w), qnorm(0.4), tolerance = 0.01)
  r <- y - outer(w, u)
  expect_equal(mean(rowSums(r^2)) / 63, 1, tolerance = 0.01)
})

test_that("the oracle's evaluation rows are those of prd_curve()", {
  # a fitted family that ignores its fit rows and scores a fixed function:
  # its curve is the one of that score on prd_curve()'s evaluation rows
  score <- function(x) x[, 1] + 0.3 * rowSums(x^2)
  register_family("probe", "fitted", reason = "-", summary = "-",
                  fit = function(real, generated, fx, fy, n_score, parts, call) {
                    list(score = function(Z, rows = NULL) {
                      if (!is.null(rows)) Z <- Z[rows, , drop = FALSE]
                      score(Z)
                    }, settings = list(one = 1))
                  })
  withr::defer(unregister_family("probe"))
  set.seed(12)
  real <- matrix(rnorm(301 * 3), ncol = 3)
  gens <- list(a = matrix(rnorm(200 * 3, 0.5), ncol = 3),
               b = matrix(rnorm(301 * 3, sd = 1.3), ncol = 3),
               c = matrix(rnorm(200 * 3), ncol = 3))
  for (split in c(0.5, 0.3)) {
    set.seed(13)
    rows <- curve_eval_rows(real, gens, split = split, repeats = 1)
    set.seed(13)
    cv <- prd_curve(real, gens, method = "probe", split = split, repeats = 1)
    expect_length(rows$real, 301 - round((1 - split) * 301))
    expect_identical(rows$repeats, 1L)
    # the first of the five splits the default averages here, drawn after
    # their seeds (prd_curve()'s order)
    set.seed(13)
    first <- curve_eval_rows(real, gens, split = split)
    expect_identical(first$repeats, 5L)
    set.seed(13)
    cv5 <- prd_curve(real, gens, method = "probe", split = split)
    expect_identical(unique(vapply(prd_curve_info(cv5)$details, `[[`, 1L,
                                   "repeats")), 5L)
    set.seed(13)
    sample.int(.Machine$integer.max, 4L)
    expect_identical(first[1:2], curve_eval_rows(real, gens, split = split,
                                                 repeats = 1)[1:2])
    for (m in names(gens)) {
      orc <- oracle_curve(score, real, gens[[m]],
                          list(real = rows$real, generated = rows$generated[[m]]))
      est <- cv[cv$model == m, ]
      expect_equal(orc$precision, est$precision, tolerance = 1e-14)
      expect_equal(orc$recall, est$recall, tolerance = 1e-14)
    }
  }
  # a different draw gives different rows (the test above is not vacuous)
  set.seed(14)
  expect_false(identical(curve_eval_rows(real, gens)$real, rows$real))
})

test_that("an unknown kind is a classed error naming the kinds", {
  expect_error(validity_scenarios(16, kinds = "spiral"),
               class = "prdcurve_error_argument")
  expect_error(validity_scenarios(16, kinds = "spiral"), "clusters_lowrank")
})
