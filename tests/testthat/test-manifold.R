# manifold_metrics() against a brute force of SPEC.md section 3, the
# consequences of section 2 (scalars = extreme classifiers of prd_curve()),
# exact small cases, the exchangeability oracles and the emergent asymmetry
# of Khayatkhoei and AbdAlmageed (2023).

# Brute force of every metric and per-sample count, straight from the
# definitions: full distance matrices, sorting, raw products.
brute_manifold <- function(real, generated, k, fit, eval = NULL,
                           closed = TRUE, k_prime = 1, ppr_scale = 1.2,
                           ppr_k = 4) {
  self <- is.null(eval)
  if (self) eval <- fit
  xf <- real[fit[[1]], , drop = FALSE]
  yf <- generated[fit[[2]], , drop = FALSE]
  xe <- real[eval[[1]], , drop = FALSE]
  ye <- generated[eval[[2]], , drop = FALSE]
  own <- function(s, kk) vapply(seq_len(nrow(s)), function(i)
    kth_skip(sq_dist(s[i, , drop = FALSE], s)[1, ], kk, i), 0)
  # k-th neighbour radius of evaluation rows in a fit set (self: skip row i)
  query <- function(d2, kk) vapply(seq_len(nrow(d2)), function(i)
    kth_skip(d2[i, ], kk, if (self) i else NA), 0)
  dyx <- sq_dist(ye, xf)
  dxy <- sq_dist(xe, yf)
  ball_count <- function(d2, r2_ref) {
    rowSums(in_ball(d2, matrix(r2_ref, nrow(d2), ncol(d2), byrow = TRUE), closed))
  }
  in_own <- function(d2, r2_row) rowSums(in_ball(d2, r2_row, closed))
  res <- lapply(k, function(kk) {
    gen <- data.frame(
      n_real_balls = ball_count(dyx, own(xf, kk)),
      n_real_in_ball = in_own(dyx, query(sq_dist(ye, yf), kk)))
    rl <- data.frame(
      n_generated_balls = ball_count(dxy, own(yf, kk)),
      n_generated_in_ball = in_own(dxy, query(sq_dist(xe, xf), kk)))
    val <- c(
      precision = mean(gen$n_real_balls >= 1),
      recall = mean(rl$n_generated_balls >= 1),
      density = sum(gen$n_real_balls) / (kk * nrow(ye)),
      coverage = mean(rl$n_generated_in_ball >= 1),
      c_precision = mean(gen$n_real_in_ball >= 1),
      prc_precision = mean(gen$n_real_in_ball >= k_prime),
      prc_recall = mean(rl$n_generated_in_ball >= k_prime))
    list(values = val, gen = gen, real = rl)
  })
  rx <- ppr_scale * mean(sqrt(own(xf, ppr_k)))
  ry <- ppr_scale * mean(sqrt(own(yf, ppr_k)))
  p_in <- function(d2, radius) {
    apply(d2, 1, function(v) 1 - prod(1 - pmax(0, 1 - sqrt(v) / radius)))
  }
  list(per_k = res, p_gen = p_in(dyx, rx), p_real = p_in(dxy, ry),
       radius = c(rx, ry), eval = eval)
}

value_of <- function(m, metric, k = NULL) {
  sel <- m$metric == metric & (if (is.null(k)) TRUE else m$k == k)
  m$value[sel]
}

compare_manifold <- function(real, generated, k, split, closed, k_prime,
                             seed = 11) {
  set.seed(seed)
  m <- manifold_metrics(real, generated, k = k, split = split,
                        closed = closed, k_prime = k_prime)
  set.seed(seed)
  smp <- manifold_samples(real, generated, k = k, split = split,
                          closed = closed, k_prime = k_prime,
                          probabilistic = TRUE)
  out <- list(generated = smp[smp$set == "generated", ],
              real = smp[smp$set == "real", ])
  set.seed(seed)
  # (a fraction drawn over the rows in canonical order, as the metrics draw it)
  s <- prdcurve:::resolve_model_splits(split, real, list(generated = generated),
                                       canonical = TRUE)$generated
  br <- brute_manifold(real, generated, k, s$fit, s$eval, closed = closed,
                       k_prime = k_prime)
  for (j in seq_along(k)) {
    b <- br$per_k[[j]]
    for (nm in names(b$values)) {
      expect_equal(value_of(m, nm, k[j]), b$values[[nm]], tolerance = 1e-14)
    }
    g <- out$generated[out$generated$k == k[j], ]
    r <- out$real[out$real$k == k[j], ]
    ev <- if (is.null(s$eval)) s$fit else s$eval
    expect_identical(g$row, ev[[2]])
    expect_identical(r$row, ev[[1]])
    expect_identical(g$n_balls, as.integer(b$gen$n_real_balls))
    expect_identical(g$n_in_ball, as.integer(b$gen$n_real_in_ball))
    expect_identical(r$n_balls, as.integer(b$real$n_generated_balls))
    expect_identical(r$n_in_ball, as.integer(b$real$n_generated_in_ball))
    expect_identical(g$in_manifold, b$gen$n_real_balls >= 1)
    expect_identical(g$covered, b$gen$n_real_in_ball >= 1)
    expect_identical(r$in_manifold, b$real$n_generated_balls >= 1)
    expect_identical(r$covered, b$real$n_generated_in_ball >= 1)
    expect_equal(g$p_in, br$p_gen, tolerance = 1e-12)
    expect_equal(r$p_in, br$p_real, tolerance = 1e-12)
  }
  expect_equal(value_of(m, "p_precision"), mean(br$p_gen), tolerance = 1e-12)
  expect_equal(value_of(m, "p_recall"), mean(br$p_real), tolerance = 1e-12)
  expect_equal(unname(attr(m, "ppr_radius")), br$radius, tolerance = 1e-12)
  invisible(m)
}

splits_for <- function(n_real, n_gen) {
  list(0, 0.4, list(real = c(1L, 4L, 9L, 15L, n_real),
                    generated = c(2L, 3L, 10L, 12L, 20L, n_gen)))
}

test_that("every metric and per-sample count equals the brute force", {
  quiet_traps({
    set.seed(201)
    real <- matrix(rnorm(30 * 3), ncol = 3)
    generated <- matrix(rnorm(26 * 3, mean = 0.5, sd = 1.2), ncol = 3)
    for (sp in splits_for(30, 26)) for (cl in c(TRUE, FALSE)) {
      compare_manifold(real, generated, k = c(1, 3, 5), split = sp,
                       closed = cl, k_prime = 2)
    }
  })
})


test_that("the brute force agrees where a count's window holds more than 64 values", {
  quiet_traps({
    # 300 rows on the corners of a square: about 75 copies of each point, so
    # the windows of the thresholds 0 and 1 hold far more than the 64
    # positions the counting passes note (the full scan takes over)
    set.seed(204)
    real <- matrix(sample(0:1, 300 * 2, replace = TRUE), ncol = 2)
    generated <- matrix(sample(0:1, 280 * 2, replace = TRUE), ncol = 2)
    for (sp in list(0, 0.5)) {
      k <- c(3L, 90L)
      set.seed(7)
      smp <- manifold_samples(real, generated, k = k, split = sp)
      set.seed(7)
      s <- prdcurve:::resolve_model_splits(sp, real, list(generated = generated),
                                           canonical = TRUE)$generated
      # (p_precision's brute force is 0 / 0 at a zero radius: counts only)
      br <- suppressWarnings(brute_manifold(real, generated, k, s$fit, s$eval))
      for (j in seq_along(k)) {
        b <- br$per_k[[j]]
        g <- smp[smp$set == "generated" & smp$k == k[j], ]
        r <- smp[smp$set == "real" & smp$k == k[j], ]
        expect_identical(g$n_balls, as.integer(b$gen$n_real_balls))
        expect_identical(g$n_in_ball, as.integer(b$gen$n_real_in_ball))
        expect_identical(r$n_balls, as.integer(b$real$n_generated_balls))
        expect_identical(r$n_in_ball, as.integer(b$real$n_generated_in_ball))
      }
    }
  })
})

test_that("the row-major paths of 16 to 127 columns and the panels from 128 on equal the brute force", {
  # p_precision and p_recall compute their pairs' exact distances eight
  # at a time from d = 16 on (tails of d and of the candidates
  # included), from panels of four rows from d = 128 on
  for (d in c(16L, 19L, 45L, 130L)) {
    set.seed(d)
    n <- if (d > 100) 140L else 70L
    real <- matrix(rnorm(n * d), ncol = d)
    generated <- matrix(rnorm((n + 13L) * d, mean = 0.3, sd = 0.95), ncol = d)
    for (sp in list(0, 0.4)) {
      m <- compare_manifold(real, generated, k = c(2, 4), split = sp,
                            closed = TRUE, k_prime = 2)
      p <- m$value[m$metric %in% c("p_precision", "p_recall")]
      # not at 1 in double precision: the sums of log(1 - tau) show
      expect_true(all(p > 0.5 & p < 0.999))
    }
  }
})
test_that("the brute force agrees on integer data with many ties", {
  quiet_traps({
    set.seed(202)
    real <- matrix(sample(0:3, 40 * 3, replace = TRUE), ncol = 3)
    generated <- matrix(sample(0:4, 34 * 3, replace = TRUE), ncol = 3)
    expect_gt(sum(duplicated(rbind(real, generated))), 10)
    for (sp in splits_for(40, 34)) for (cl in c(TRUE, FALSE)) {
      compare_manifold(real, generated, k = c(2, 5), split = sp,
                       closed = cl, k_prime = 3)
    }
    # the two ball rules really differ on these ties
    closed <- manifold_metrics(real, generated, k = 5, closed = TRUE)
    open <- manifold_metrics(real, generated, k = 5, closed = FALSE)
    expect_gt(max(abs(closed$value - open$value)[closed$metric != "p_precision" &
                                                   closed$metric != "p_recall"]), 0.05)
    # p_* use a tent kernel, the same under both rules
    expect_identical(value_of(closed, "p_precision"), value_of(open, "p_precision"))
  })
})

test_that("an exact one-dimensional case with ties, closed and open balls", {
  quiet_traps({
    real <- matrix(c(0, 1, 2, 3), ncol = 1)
    generated <- matrix(c(4, 0.5, 10), ncol = 1)
    cl <- manifold_metrics(real, generated, k = 1, metrics = c(
      "precision", "recall", "density", "coverage", "c_precision"))
    op <- manifold_metrics(real, generated, k = 1, closed = FALSE, metrics = c(
      "precision", "recall", "density", "coverage", "c_precision"))
    # real balls have radius 1: 4 sits on the boundary of B(3, 1); the ball
    # of 10 among the generated has radius 6 and holds no real point
    expect_identical(cl$value, c(2 / 3, 1, 1, 3 / 4, 2 / 3))
    expect_identical(op$value, c(1 / 3, 1, 2 / 3, 2 / 4, 2 / 3))
    expect_identical(cl$k, rep(1L, 5))

    # probabilistic precision and recall by hand: R_X = 1.2 * 2, R_Y = 1.2 * 4
    real <- matrix(c(0, 2), ncol = 1)
    generated <- matrix(c(1, 5), ncol = 1)
    p <- manifold_metrics(real, generated, k = 1, ppr_k = 1,
                          metrics = c("p_precision", "p_recall"))
    expect_equal(p$value, c((1 - (1 / 2.4)^2) / 2,
                            ((1 - 1 / 4.8) + (1 - (1 / 4.8) * (1 - 0.375))) / 2),
                 tolerance = 1e-14)
    expect_identical(p$k, c(1L, 1L))
    expect_equal(unname(attr(p, "ppr_radius")), c(2.4, 4.8), tolerance = 1e-14)
  })
})

test_that("the scalars are the extreme classifiers' error rates of prd_curve()", {
  quiet_traps({
    set.seed(203)
    cases <- list(
      list(matrix(rnorm(60 * 2), ncol = 2),
           matrix(rnorm(50 * 2, mean = 0.8), ncol = 2)),
      list(matrix(rnorm(60 * 4), ncol = 4),
           matrix(rnorm(70 * 4, sd = 1.6), ncol = 4)),
      list(matrix(sample(0:3, 50 * 2, replace = TRUE), ncol = 2),
           matrix(sample(0:4, 45 * 2, replace = TRUE), ncol = 2)))
    n_equal <- 0
    for (cs in cases) for (k in c(2, 5)) {
      real <- cs[[1]]
      generated <- cs[[2]]
      m <- manifold_metrics(real, generated, k = k)
      cv <- prd_curve(real, generated, method = c("ipr", "coverage", "knn"),
                      k = k, split = 0)
      fit <- list(seq_len(nrow(real)), seq_len(nrow(generated)))
      for (fam in c("ipr", "coverage")) {
        ev <- brute_evidence(real, generated, fam, k, fit)
        ix <- seq_len(ev$n_real)
        # fnr(1[a >= 1]) and fpr(1[b = 0]), SPEC.md section 2
        fnr_a <- mean(ev$a[-ix] >= 1)
        fpr_b <- mean(ev$b[ix] > 0)
        p_name <- if (fam == "ipr") "precision" else "c_precision"
        r_name <- if (fam == "ipr") "recall" else "coverage"
        expect_equal(value_of(m, p_name), fnr_a, tolerance = 1e-15)
        expect_equal(value_of(m, r_name), fpr_b, tolerance = 1e-15)
        # the rule 1[a >= 1] has fpr 0 without a split (balls hold their centre)
        expect_identical(mean(ev$a[ix] == 0), 0)
        alpha_inf <- cv$precision[cv$method == fam & cv$lambda == Inf]
        beta_0 <- cv$recall[cv$method == fam & cv$lambda == 0]
        expect_lte(alpha_inf, value_of(m, p_name) + 1e-15)
        expect_lte(beta_0, value_of(m, r_name) + 1e-15)
        # equality when no generated score lies between the largest finite
        # real score and +Inf
        s_real <- brute_score(ev$a[ix], ev$b[ix])
        s_gen <- brute_score(ev$a[-ix], ev$b[-ix])
        top <- max(s_real[is.finite(s_real)])
        if (!any(s_gen > top & is.finite(s_gen)) && !any(s_real == Inf)) {
          expect_equal(alpha_inf, value_of(m, p_name), tolerance = 1e-15)
          n_equal <- n_equal + 1
        }
      }
      # knn's extremes coincide with coverage's on continuous data
      if (is.double(real) && !any(duplicated(rbind(real, generated)))) {
        ekn <- brute_evidence(real, generated, "knn", k, fit)
        ix <- seq_len(ekn$n_real)
        expect_equal(mean(ekn$a[-ix] >= 1), value_of(m, "c_precision"))
        expect_equal(mean(ekn$b[ix] > 0), value_of(m, "coverage"))
        expect_lte(cv$precision[cv$method == "knn" & cv$lambda == Inf],
                   value_of(m, "c_precision") + 1e-15)
      }
    }
    expect_gt(n_equal, 0)
  })
})

test_that("sym_* are the minima and prc with k_prime = 1 is c_precision", {
  set.seed(204)
  real <- matrix(rnorm(80 * 5), ncol = 5)
  generated <- matrix(rnorm(90 * 5, mean = 0.3, sd = 0.7), ncol = 5)
  m <- manifold_metrics(real, generated, k = c(3, 7))
  for (k in c(3, 7)) {
    expect_identical(value_of(m, "sym_precision", k),
                     min(value_of(m, "precision", k), value_of(m, "c_precision", k)))
    expect_identical(value_of(m, "sym_recall", k),
                     min(value_of(m, "recall", k), value_of(m, "coverage", k)))
    expect_identical(value_of(m, "prc_precision", k), value_of(m, "c_precision", k))
    expect_identical(value_of(m, "prc_recall", k), value_of(m, "coverage", k))
  }
  # the minimum is attained by different members here
  expect_false(value_of(m, "precision", 3) == value_of(m, "c_precision", 3))
  # larger k_prime can only lower prc_*
  m3 <- manifold_metrics(real, generated, k = 7, k_prime = 3,
                         metrics = c("prc_precision", "prc_recall"))
  expect_lt(m3$value[1], value_of(m, "c_precision", 7))
  expect_lt(m3$value[2], value_of(m, "coverage", 7))
})

test_that("several k in one call equal separate calls; output shape", {
  set.seed(205)
  real <- matrix(rnorm(70 * 4), ncol = 4)
  generated <- matrix(rnorm(60 * 4, mean = 0.4), ncol = 4)
  all_k <- manifold_metrics(real, generated, k = c(10, 3, 5))
  expect_identical(unique(all_k$k[all_k$metric == "density"]), c(3L, 5L, 10L))
  expect_identical(names(all_k), c("model", "metric", "k", "value"))
  expect_identical(unique(all_k$model), "generated")
  expect_identical(nrow(all_k), 9L * 3L + 2L)
  for (k in c(3, 5, 10)) {
    one <- manifold_metrics(real, generated, k = k)
    both <- all_k[all_k$k == k | all_k$metric %in% c("p_precision", "p_recall"), ]
    expect_identical(both$value, one$value)
  }
  expect_identical(attr(all_k, "sizes"),
                   c(fit_real = 70L, fit_generated = 60L,
                     eval_real = 70L, eval_generated = 60L))
  expect_identical(attr(all_k, "closed"), TRUE)
  expect_identical(attr(all_k, "split"), 0)
  # a subset of metrics gives the same numbers as the full call
  sub <- manifold_metrics(real, generated, k = 5, metrics = c("coverage", "recall"))
  expect_identical(sub$metric, c("coverage", "recall"))
  expect_identical(sub$value, c(value_of(all_k, "coverage", 5),
                                value_of(all_k, "recall", 5)))
  # data frames are accepted like matrices
  df <- manifold_metrics(as.data.frame(real), as.data.frame(generated), k = 5)
  expect_identical(df$value, manifold_metrics(real, generated, k = 5)$value)
})

test_that("per-sample output finds the generated samples off the real manifold", {
  set.seed(206)
  real <- matrix(rnorm(100 * 2), ncol = 2)
  generated <- rbind(matrix(rnorm(95 * 2), ncol = 2),
                     matrix(rnorm(5 * 2, mean = 8), ncol = 2))  # rows 96:100
  m <- manifold_metrics(real, generated, k = 3,
                        metrics = c("precision", "density", "c_precision"))
  smp <- manifold_samples(real, generated, k = 3)
  g <- smp[smp$set == "generated", ]
  expect_true(all(96:100 %in% g$row[!g$in_manifold]))
  expect_true(all(!g$covered[g$row %in% 96:100]))
  expect_identical(mean(g$in_manifold), value_of(m, "precision"))
  expect_identical(sum(g$n_balls) / (3 * 100), value_of(m, "density"))
  expect_identical(mean(g$covered), value_of(m, "c_precision"))
  expect_identical(sum(smp$set == "real"), 100L)
  expect_false("p_in" %in% names(g))
  # the deprecated per_sample = TRUE still returns the old list
  old <- suppressWarnings(manifold_metrics(real, generated, k = 3,
                                           metrics = "precision",
                                           per_sample = TRUE))
  expect_identical(old$generated$in_real_manifold, g$in_manifold)
  expect_warning(manifold_metrics(real, generated, k = 3,
                                  metrics = "precision", per_sample = TRUE),
                 class = "lifecycle_warning_deprecated")
  # the old positional k
  expect_warning(old_k <- manifold_metrics(real, generated, 3),
                 class = "prdcurve_warning_deprecated")
  expect_identical(old_k$value, manifold_metrics(real, generated, k = 3)$value)
})

test_that("exchangeability oracles hold for P = Q (E[density] = 1, E[coverage])", {
  set.seed(207)
  n <- 200
  d <- 5
  k <- 5
  reps <- 80
  vals <- vapply(seq_len(reps), function(i) {
    real <- matrix(rnorm(n * d), ncol = d)
    generated <- matrix(rnorm(n * d), ncol = d)
    manifold_metrics(real, generated, k = k,
                     metrics = c("density", "coverage"))$value
  }, numeric(2))
  expected_cov <- 1 - choose(n - 1, k) / choose(2 * n - 1, k)
  se <- apply(vals, 1, stats::sd) / sqrt(reps)
  expect_lt(abs(mean(vals[1, ]) - 1), 4 * se[1])
  expect_lt(abs(mean(vals[2, ]) - expected_cov), 4 * se[2])
  # the oracle is informative: coverage is not 1 and its SE is small
  expect_lt(expected_cov, 0.975)
  expect_lt(se[2], 0.002)
})

test_that("the E[coverage] oracle holds for unequal set sizes", {
  # n_X = 100 real, n_Y = 40 generated: 1 - C(99, 5) / C(139, 5) = 0.8221.
  # 300 replicates: coverage SE about 0.003.
  set.seed(211)
  n_x <- 100
  n_y <- 40
  k <- 5
  reps <- 300
  vals <- vapply(seq_len(reps), function(i) {
    manifold_metrics(matrix(rnorm(n_x * 3), ncol = 3),
                     matrix(rnorm(n_y * 3), ncol = 3), k = k,
                     metrics = c("density", "coverage"))$value
  }, numeric(2))
  expected_cov <- 1 - choose(n_x - 1, k) / choose(n_x + n_y - 1, k)
  expect_equal(expected_cov, 0.8221, tolerance = 1e-3)
  se <- apply(vals, 1, stats::sd) / sqrt(reps)
  expect_lt(abs(mean(vals[1, ]) - 1), 4 * se[1])
  expect_lt(abs(mean(vals[2, ]) - expected_cov), 4 * se[2])
})

test_that("closed = FALSE reproduces the prdc package's formulas", {
  quiet_traps({
    # A transliteration of prdc (Naeem et al. 2020): radii are the (k + 1)-th
    # smallest Euclidean distance of a point to its own set, itself included,
    # and ball membership is strict. Integer data with many ties.
    set.seed(212)
    real <- matrix(sample(0:3, 60 * 3, TRUE), ncol = 3)
    generated <- matrix(sample(0:4, 50 * 3, TRUE), ncol = 3)
    k <- 4
    dist_to <- function(a, b) sqrt(sq_dist(a, b))
    d_rr <- dist_to(real, real)
    d_gg <- dist_to(generated, generated)
    d_rg <- dist_to(real, generated)
    radii_r <- apply(d_rr, 1, function(v) sort(v)[k + 1])
    radii_g <- apply(d_gg, 1, function(v) sort(v)[k + 1])
    prdc <- c(
      precision = mean(colSums(d_rg < radii_r) > 0),
      recall = mean(colSums(t(d_rg) < radii_g) > 0),
      density = sum(d_rg < radii_r) / (k * nrow(generated)),
      coverage = mean(apply(d_rg, 1, min) < radii_r)
    )
    ours <- manifold_metrics(real, generated, k = k, closed = FALSE,
                             metrics = names(prdc))
    expect_equal(setNames(ours$value, ours$metric)[names(prdc)], prdc,
                 tolerance = 1e-12)
    # the ball rule matters on these ties
    closed <- manifold_metrics(real, generated, k = k, metrics = names(prdc))
    expect_gt(max(abs(closed$value - ours$value)), 0.05)
  })
})

test_that("p_precision with a zero radius counts exact copies only", {
  quiet_traps({
    # every real row has 4 exact copies, so the p_precision radius
    # R = 1.2 * mean 4-NN distance is 0 (the limit tau = 1[u = 0])
    set.seed(213)
    base <- matrix(rnorm(20), ncol = 2)
    real <- base[rep(1:10, each = 5), ]
    generated <- rbind(matrix(rnorm(100), ncol = 2), base[1:3, ])
    out <- manifold_metrics(real, generated,
                            metrics = c("p_precision", "p_recall"))
    expect_equal(attr(out, "ppr_radius")[["real"]], 0)
    expect_equal(out$value[out$metric == "p_precision"], 3 / 53)
  })
})

test_that("precision and recall are asymmetric in high dimensions; sym_* much less", {
  # Khayatkhoei and AbdAlmageed (2023), Fig. 1 and 3: reference uniform on
  # the unit sphere of R^64, generated uniform on the sphere of radius
  # 1 - 0.2 (inside) or 1 + 0.2 (outside), at equal point-wise distance.
  # Observed (n = 500, k = 5, this seed): precision 1.00 inside vs 0.098
  # outside, recall 0.04 vs 1.00, c_precision 0.04 vs 1.00 and coverage
  # 1.00 vs 0.094 (inverted), while sym_precision (0.040 vs 0.098) and
  # sym_recall (0.040 vs 0.094) differ by less than 0.06 between the sides.
  # The bounds below leave room for other draws.
  sphere <- function(n, d, r) {
    z <- matrix(rnorm(n * d), ncol = d)
    r * z / sqrt(rowSums(z^2))
  }
  set.seed(208)
  d <- 64
  n <- 500
  real <- sphere(n, d, 1)
  inside <- manifold_metrics(real, sphere(n, d, 0.8), k = 5)
  outside <- manifold_metrics(real, sphere(n, d, 1.2), k = 5)
  gap <- function(metric) value_of(inside, metric) - value_of(outside, metric)
  expect_gt(gap("precision"), 0.7)
  expect_lt(gap("recall"), -0.7)
  expect_lt(gap("c_precision"), -0.7)  # inverted asymmetry
  expect_gt(gap("coverage"), 0.7)
  expect_lt(abs(gap("sym_precision")), 0.25)
  expect_lt(abs(gap("sym_recall")), 0.25)
  expect_lt(abs(gap("sym_precision")), abs(gap("precision")) / 3)
  # in two dimensions the plain metrics are nearly symmetric; the k-NN balls
  # are small there (5-NN radius about 0.03 on the circle), so compare the
  # spheres at 1 -/+ 0.03, where the values are far from 0 and 1
  real2 <- sphere(n, 2, 1)
  in2 <- manifold_metrics(real2, sphere(n, 2, 0.97), k = 5,
                          metrics = c("precision", "recall"))$value
  out2 <- manifold_metrics(real2, sphere(n, 2, 1.03), k = 5,
                           metrics = c("precision", "recall"))$value
  expect_true(all(c(in2, out2) > 0.4 & c(in2, out2) < 0.95))
  expect_lt(max(abs(in2 - out2)), 0.15)
})

test_that("arguments are validated with the argument's name", {
  quiet_traps({
    set.seed(209)
    real <- matrix(rnorm(20 * 2), ncol = 2)
    generated <- matrix(rnorm(12 * 2), ncol = 2)
    expect_error(manifold_metrics(real, generated, metrics = "fid"),
                 class = "prdcurve_error", regexp = "metrics")
    expect_error(manifold_metrics(real, generated, k = 12), regexp = "k")
    expect_error(manifold_metrics(real, generated, k = c(3, 0)),
                 class = "prdcurve_error", regexp = "k")
    expect_error(manifold_metrics(real, generated, k_prime = 0),
                 class = "prdcurve_error", regexp = "k_prime")
    expect_error(manifold_metrics(real, generated, k_prime = 1.5),
                 class = "prdcurve_error", regexp = "k_prime")
    expect_error(manifold_metrics(real, generated, ppr_scale = -1),
                 class = "prdcurve_error", regexp = "ppr_scale")
    expect_error(manifold_metrics(real, generated, ppr_scale = c(1, 2)),
                 class = "prdcurve_error", regexp = "ppr_scale")
    # a radius whose square overflows: named, not an engine failure
    expect_error(manifold_metrics(real * 1e20, generated * 1e20,
                                  metrics = "p_precision", ppr_scale = 1e140),
                 class = "prdcurve_error_input", regexp = "ppr_scale")
    expect_error(manifold_metrics(real, generated, k = 3, ppr_k = 12),
                 class = "prdcurve_error", regexp = "ppr_k")
    # ppr_k only limits the set sizes when p_* are requested
    expect_identical(manifold_metrics(real, generated, k = 3, ppr_k = 12,
                                      metrics = "precision")$k, 3L)
    expect_error(manifold_metrics(real, generated, closed = NA),
                 class = "prdcurve_error", regexp = "closed")
    expect_error(suppressWarnings(manifold_metrics(real, generated,
                                                  per_sample = "yes")),
                 class = "prdcurve_error", regexp = "per_sample")
    expect_error(manifold_metrics(real, generated[, 1, drop = FALSE]),
                 class = "prdcurve_error", regexp = "columns")
    expect_error(manifold_metrics(real, generated, split = 0.9),
                 class = "prdcurve_error", regexp = "split")
    # with a split, k is checked against the fit parts (10 of 20, 6 of 12)
    expect_error(manifold_metrics(real, generated, k = 6, split = 0.5),
                 class = "prdcurve_error", regexp = "at most 5")
  })
})

test_that("a default ppr_k too large for tiny sets is lowered with a warning", {
  quiet_traps({
    set.seed(208)
    real <- matrix(rnorm(4 * 2), ncol = 2)
    generated <- matrix(rnorm(4 * 2), ncol = 2)
    expect_warning(m <- manifold_metrics(real, generated, k = 2),
                   class = "prdcurve_warning_k_reduced")
    expect_equal(m$k[m$metric == "p_precision"], 3L)
    # an explicit ppr_k is never changed
    expect_error(manifold_metrics(real, generated, k = 2, ppr_k = 4),
                 class = "prdcurve_error_k_too_large")
  })
})

# Three sanity checks of Raisa, van Breugel and van der Schaar (ICML 2025,
# arXiv:2505.22450) at small size, on improved precision with their settings
# (k = 3, closed balls, data standardized by the real set): the verdicts
# must be those of their Table 3 (D1b, "purpose"). The full suite, with
# their sizes and repeats, is bench/sanity.R.

# Their shape criteria, on the mean values `y` over the settings `x`.
bell_shape <- function(x, y, mid) {
  m <- y[which.min(abs(x - mid))]
  l <- y[which.min(x)]
  r <- y[which.max(x)]
  (m - l >= 0.2) && (m - r >= 0.2) && (max(y) - m <= 0.1) &&
    (l - min(y) <= 0.1 || r - min(y) <= 0.1)
}
horizontal_line <- function(y) max(y) - min(y) <= 0.05

# Mean of improved precision over `repeats` draws of (real, generated
# sets), one value per generated set.
mean_precision <- function(draw, repeats) {
  vals <- replicate(repeats, {
    d <- draw()
    m <- manifold_metrics(d$real, d$gens, metrics = "precision", k = 3,
                          closed = TRUE, standardize = "real")
    m$value[match(names(d$gens), m$model)]
  })
  rowMeans(matrix(vals, ncol = repeats))
}

test_that("improved precision passes the mean-difference bell and fails with an outlier, as published", {
  set.seed(2505)
  n <- 300
  mu <- seq(-6, 6, length.out = 13)
  named <- function(g) stats::setNames(g, paste0("m", seq_along(g)))
  plain <- mean_precision(function() {
    list(real = matrix(rnorm(n)),
         gens = named(lapply(mu, function(m) matrix(rnorm(n, m)))))
  }, repeats = 2)
  # a bell: about 1 at the identical setting, about 0 at both extremes
  expect_gt(plain[mu == 0], 0.9)
  expect_lt(max(plain[c(1, 13)]), 0.05)
  expect_true(bell_shape(mu, plain, 0))

  # the outlier at the largest mean, in the real set: its k-NN ball
  # swallows the generated set at that mean (their "real_outlier")
  outlier <- mean_precision(function() {
    list(real = rbind(matrix(rnorm(n)), 6),
         gens = named(lapply(mu, function(m) matrix(rnorm(n, m)))))
  }, repeats = 2)
  expect_gt(outlier[13], 0.9)
  expect_false(bell_shape(mu, outlier, 0))
  # the identical setting still scores about 1
  expect_gt(outlier[mu == 0], 0.9)
})

test_that("improved precision is not flat with one disjoint dimension among many, as published", {
  withr::local_options(prdcurve.check_inputs = FALSE) # 1,001 columns
  set.seed(2506)
  n <- 300
  extra <- c(1, 10, 100, 1000)
  vals <- vapply(extra, function(e) {
    real <- matrix(rnorm(n * (e + 1)), n)
    syn <- matrix(rnorm(n * (e + 1)), n)
    syn[, 1] <- syn[, 1] + 6
    manifold_metrics(real, syn, metrics = "precision", k = 3, closed = TRUE,
                     standardize = "real")$value
  }, numeric(1))
  # the supports are disjoint at every setting, but the shift of 6 weighs
  # less and less among distances of about sqrt(2 d): precision grows with
  # the number of identical dimensions (0.07-0.10 up to d = 101, 0.20 at
  # d = 1,001 with this seed)
  expect_gt(vals[4] - max(vals[2:3]), 0.08)
  expect_false(horizontal_line(vals))
})
