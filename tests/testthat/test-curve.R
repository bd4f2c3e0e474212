# prd_curve() against the brute force of SPEC.md section 2 (helper-brute.R),
# the consequences listed there, and the curve's structural facts.

methods_all <- c("knn", "kde", "ipr", "coverage")

# prd_curve() and the brute force on the same partition (same seed; the
# rows in the canonical order the partition is drawn over).
compare_brute <- function(real, generated, method, k, split, closed,
                          bandwidth = NULL, angles = 1001, seed = 7) {
  real <- in_canonical_order(real)
  generated <- in_canonical_order(generated)
  set.seed(seed)
  # (a given kde bandwidth reads no k)
  cv <- prd_curve(real, generated, method = method,
                  k = if (is.null(bandwidth)) k, split = split,
                  closed = closed, bandwidth = bandwidth, angles = angles,
                  repeats = 1)
  set.seed(seed)
  s <- prdcurve:::resolve_split(split, nrow(real), nrow(generated))
  br <- brute_curve(real, generated, method, k, s$fit, s$eval,
                    closed = closed, lambda = prdcurve:::lambda_grid(angles),
                    sigma = bandwidth)
  expect_equal(cv$lambda, br$lambda, tolerance = 0)
  c(precision = max(abs(cv$precision - br$precision)),
    recall = max(abs(cv$recall - br$recall)))
}

splits_for <- function(n_real, n_gen) {
  list(0, 0.5, list(real = c(2L, 5L, 11L, 17L, n_real),
                    generated = c(1L, 3L, 8L, 13L, 21L, n_gen - 1L)))
}

test_that("the curve equals the brute force on continuous data", {
  quiet_traps({
    set.seed(101)
    real <- matrix(rnorm(30 * 3), ncol = 3)
    generated <- matrix(rnorm(34 * 3, mean = 0.6, sd = 1.3), ncol = 3)
    for (m in methods_all) for (sp in splits_for(30, 34)) for (cl in c(TRUE, FALSE)) {
      err <- compare_brute(real, generated, m, k = 4, split = sp, closed = cl)
      expect_lte(max(err), 1e-12)
    }
  })
})

test_that("the curve equals the brute force on integer data with many ties", {
  quiet_traps({
    set.seed(102)
    real <- matrix(sample(0:3, 40 * 3, replace = TRUE), ncol = 3)
    generated <- matrix(sample(0:4, 36 * 3, replace = TRUE), ncol = 3)
    # duplicated rows and tied distances are the point of this case
    expect_gt(sum(duplicated(rbind(real, generated))), 10)
    for (m in methods_all) for (sp in splits_for(40, 36)) for (cl in c(TRUE, FALSE)) {
      for (k in c(1, 5)) {
        err <- compare_brute(real, generated, m, k = k, split = sp, closed = cl)
        expect_lte(max(err), 1e-12)
      }
    }
  })
})

test_that("exact ties survive a large offset (cancellation in |q|^2 + |r|^2 - 2qr)", {
  quiet_traps({
    # integer data shifted by 1e6: squared norms ~3e12, so the expanded
    # squared distances lose ~4 digits, yet tied distances must stay tied
    set.seed(105)
    real <- matrix(sample(0:3, 30 * 3, replace = TRUE), ncol = 3) + 1e6
    generated <- matrix(sample(0:4, 28 * 3, replace = TRUE), ncol = 3) + 1e6
    for (m in methods_all) for (sp in list(0, 0.5)) for (cl in c(TRUE, FALSE)) {
      err <- compare_brute(real, generated, m, k = 4, split = sp, closed = cl,
                           angles = 101)
      expect_lte(max(err), 1e-12)
    }
  })
})

test_that("kde with explicit bandwidths equals the brute force", {
  quiet_traps({
    set.seed(103)
    real <- matrix(rnorm(30 * 2), ncol = 2)
    generated <- matrix(rnorm(32 * 2, mean = 0.4), ncol = 2)
    ties_r <- matrix(sample(0:3, 30 * 2, replace = TRUE), ncol = 2)
    ties_g <- matrix(sample(0:4, 32 * 2, replace = TRUE), ncol = 2)
    for (bw in list(0.7, c(0.5, 1.1), 1, c(1, 2))) {
      for (sp in list(0, 0.5)) for (cl in c(TRUE, FALSE)) {
        expect_lte(max(compare_brute(real, generated, "kde", 3, sp, cl, bw)), 1e-12)
        expect_lte(max(compare_brute(ties_r, ties_g, "kde", 3, sp, cl, bw)), 1e-12)
      }
    }
    cv <- prd_curve(real, generated, method = "kde", bandwidth = c(0.5, 1.1),
                    split = 0)
    expect_equal(unname(curve_attr(cv, "bandwidth")), c(0.5, 1.1), tolerance = 1e-14)
    cv1 <- prd_curve(real, generated, method = "kde", bandwidth = 0.7, split = 0)
    expect_equal(unname(curve_attr(cv1, "bandwidth")), c(0.7, 0.7), tolerance = 1e-14)
  })
})

test_that("the estimated kde bandwidths are the mean own k-NN distances", {
  set.seed(104)
  real <- in_canonical_order(matrix(rnorm(40 * 3), ncol = 3))
  generated <- in_canonical_order(matrix(rnorm(30 * 3, sd = 2), ncol = 3))
  for (sp in list(0, 0.5)) {
    set.seed(5)
    cv <- prd_curve(real, generated, method = "kde", k = 3, split = sp,
                    repeats = 1)
    set.seed(5)
    s <- prdcurve:::resolve_split(sp, 40, 30)
    ev <- brute_evidence(real, generated, "kde", 3, s$fit, s$eval)
    expect_equal(unname(curve_attr(cv, "bandwidth")), ev$sigma, tolerance = 1e-12)
  }
})

# --- SPEC.md section 2, "Consequences" (no split) ---------------------------

# Error rates of the two literature extremes, from the evidences of SPEC.md
# section 2 (the brute force, which the tests above tie to prd_curve()).
extreme_rates <- function(real, generated, method, k) {
  ev <- brute_evidence(real, generated, method, k,
                       fit = list(seq_len(nrow(real)), seq_len(nrow(generated))))
  a <- ev$a
  b <- ev$b
  ix <- seq_len(nrow(real))
  sx <- brute_score(a[ix], b[ix])
  sy <- brute_score(a[-ix], b[-ix])
  list(
    fpr_a = mean(a[ix] == 0), fnr_a = mean(a[-ix] >= 1),  # 1[a >= 1]
    fpr_b = mean(b[ix] > 0), fnr_b = mean(b[-ix] == 0),   # 1[b = 0]
    # SPEC's equality conditions
    eq_inf = !any(sy > max(sx[is.finite(sx)]) & is.finite(sy)),
    eq_0 = !any(sx > 0 & sx < min(sy[sy > 0]))
  )
}

test_that("the extremes of ipr and coverage are the scalar metrics", {
  set.seed(201)
  real <- matrix(rnorm(60 * 4), ncol = 4)
  generated <- matrix(rnorm(50 * 4, mean = 0.5), ncol = 4)
  for (k in c(1, 3, 7)) {
    sc <- brute_scalar(real, generated, k)
    ipr <- extreme_rates(real, generated, "ipr", k)
    cov <- extreme_rates(real, generated, "coverage", k)
    knn <- extreme_rates(real, generated, "knn", k)
    # no split: every real point is in its own ball, so 1[a >= 1] never
    # calls a real point generated
    expect_equal(c(ipr$fpr_a, cov$fpr_a, knn$fpr_a), c(0, 0, 0))
    expect_equal(ipr$fnr_a, sc[["precision"]], tolerance = 1e-15)
    expect_equal(ipr$fpr_b, sc[["recall"]], tolerance = 1e-15)
    expect_equal(cov$fnr_a, sc[["c_precision"]], tolerance = 1e-15)
    expect_equal(cov$fpr_b, sc[["coverage"]], tolerance = 1e-15)
    # knn's extreme classifiers are coverage's (continuous data, no ties)
    expect_equal(knn$fnr_a, cov$fnr_a, tolerance = 1e-15)
    expect_equal(knn$fpr_b, cov$fpr_b, tolerance = 1e-15)
    # the metrics are not degenerate here
    expect_true(all(sc > 0.4) && any(sc < 1))
  }
})

test_that("the curve's extremes are never above the scalar metrics", {
  set.seed(202)
  n_eq <- 0
  n_strict <- 0
  for (rep in 1:3) {
    real <- matrix(rnorm(50 * 3), ncol = 3)
    generated <- matrix(rnorm(45 * 3, mean = 0.7), ncol = 3)
    for (m in methods_all) for (k in c(2, 6)) {
      ex <- extreme_rates(real, generated, m, k)
      cv <- prd_curve(real, generated, method = m, k = k, split = 0)
      a_inf <- cv$precision[cv$lambda == Inf]
      b_0 <- cv$recall[cv$lambda == 0]
      expect_lte(a_inf, ex$fnr_a + 1e-15)
      expect_lte(b_0, ex$fpr_b + 1e-15)
      if (ex$eq_inf) expect_equal(a_inf, ex$fnr_a, tolerance = 1e-15)
      if (ex$eq_0) expect_equal(b_0, ex$fpr_b, tolerance = 1e-15)
      n_eq <- n_eq + ex$eq_inf + ex$eq_0
      n_strict <- n_strict + (a_inf < ex$fnr_a) + (b_0 < ex$fpr_b)
    }
  }
  # both cases occur, so both branches above were exercised
  expect_gt(n_eq, 0)
  expect_gt(n_strict, 0)
})

test_that("equality of the extremes on a constructed example", {
  quiet_traps({
    # 1-d, ipr, k = 1: shared support {0, 1, 2, 3}, then a mode of Q that P
    # misses (10-12) and a mode of P that Q misses (-10, -11). Every radius
    # is 1; shared points score 1, missed modes score Inf (in Q) and 0 (in P).
    real <- matrix(c(0, 1, 2, 3, -10, -11), ncol = 1)
    generated <- matrix(c(0, 1, 2, 3, 10, 11, 12), ncol = 1)
    ex <- extreme_rates(real, generated, "ipr", 1)
    expect_true(ex$eq_inf && ex$eq_0)
    expect_equal(ex$fnr_a, 4 / 7)
    expect_equal(ex$fpr_b, 4 / 6)
    sc <- brute_scalar(real, generated, 1)
    expect_equal(sc[["precision"]], 4 / 7)
    expect_equal(sc[["recall"]], 4 / 6)
    cv <- prd_curve(real, generated, method = "ipr", k = 1, split = 0,
                    angles = 101)
    expect_equal(cv$precision[cv$lambda == Inf], 4 / 7, tolerance = 1e-15)
    expect_equal(cv$recall[cv$lambda == 0], 4 / 6, tolerance = 1e-15)
    # the whole curve: the family's only useful classifiers are 1[s <= 0]
    # (fpr 4/6, fnr 0) and 1[s <= 1] (fpr 0, fnr 4/7)
    lam <- cv$lambda[is.finite(cv$lambda) & cv$lambda > 0]
    expect_equal(cv$precision[is.finite(cv$lambda) & cv$lambda > 0],
                 pmin(lam * 4 / 6, 4 / 7), tolerance = 1e-14)
  })
})

# --- structure ---------------------------------------------------------------

test_that("curves have end rows, the ray property and monotonicity", {
  set.seed(301)
  real <- matrix(rnorm(80 * 3), ncol = 3)
  generated <- matrix(rnorm(70 * 3, mean = 0.5), ncol = 3)
  set.seed(1)
  cv <- prd_curve(real, generated, angles = 201, method = c("knn", "kde", "ipr", "coverage"))
  expect_s3_class(cv, "prd_curve")
  expect_named(cv, c("model", "method", "k", "lambda", "precision", "recall"))
  expect_equal(unique(cv$method), methods_all)
  lam <- prdcurve:::lambda_grid(201)
  for (m in methods_all) {
    c1 <- cv[cv$method == m, ]
    expect_equal(c1$lambda, c(0, lam, Inf))
    expect_equal(c1$precision[1], 0)
    expect_equal(c1$recall[nrow(c1)], 0)
    g <- 2:(nrow(c1) - 1)
    expect_equal(c1$precision[g], c1$lambda[g] * c1$recall[g],
                 tolerance = 1e-12)
    expect_true(all(c1$precision <= pmin(c1$lambda, 1) + 1e-15))
    expect_true(all(c1$precision >= 0 & c1$recall >= 0 & c1$recall <= 1))
    expect_true(all(diff(c1$precision) >= -1e-15))
    expect_true(all(diff(c1$recall) <= 1e-15))
    # end rows are the limits of the grid rows
    expect_lte(max(c1$precision[g]), c1$precision[nrow(c1)] + 1e-9)
    expect_lte(max(c1$recall[g]), c1$recall[1] + 1e-9)
  }
})

test_that("attributes, default k and split = 0", {
  set.seed(302)
  real <- matrix(rnorm(90 * 2), ncol = 2)
  generated <- matrix(rnorm(61 * 2), ncol = 2)
  set.seed(2)
  cv <- prd_curve(real, generated, method = c("knn", "kde"), angles = 11)
  sz <- curve_attr(cv, "sizes")
  expect_equal(unname(sz), c(45, 30, 45, 31))
  expect_equal(names(sz), c("fit_real", "fit_generated", "eval_real",
                            "eval_generated"))
  expect_equal(curve_attr(cv, "k"), round(sqrt(30)))
  expect_equal(curve_attr(cv, "split"), 0.5)
  expect_true(curve_attr(cv, "closed"))
  expect_equal(curve_attr(cv, "angles"), 11)
  expect_length(curve_attr(cv, "bandwidth"), 2)
  expect_true(all(curve_attr(cv, "bandwidth") > 0))

  cv0 <- prd_curve(real, generated, method = "knn", split = 0, closed = FALSE,
                   angles = 11)
  expect_equal(unname(curve_attr(cv0, "sizes")), c(90, 61, 90, 61))
  expect_equal(curve_attr(cv0, "k"), round(sqrt(61)))
  expect_equal(curve_attr(cv0, "split"), 0)
  expect_false(curve_attr(cv0, "closed"))
  expect_null(curve_attr(cv0, "bandwidth"))
  # split = 0 evaluates every row: the recall of 1[b = 0] is a share of 90
  expect_equal(cv0$recall[1] * 90, round(cv0$recall[1] * 90), tolerance = 1e-12)

  cvr <- prd_curve(real, generated, method = "ipr",
                   split = list(real = 1:10, generated = 5:9), angles = 11)
  expect_equal(unname(curve_attr(cvr, "sizes")), c(80, 56, 10, 5))
  expect_equal(curve_attr(cvr, "split"), "rows")
})

test_that("k and open balls without a neighbour family are warned and ignored", {
  set.seed(303)
  real <- matrix(rnorm(120 * 3), ncol = 3)
  generated <- matrix(rnorm(120 * 3, 0.4), ncol = 3)
  set.seed(4)
  plain <- prd_curve(real, generated, method = "linear", angles = 21)
  set.seed(4)
  w <- expect_warning(
    given <- prd_curve(real, generated, method = "linear", k = 500,
                       closed = FALSE, angles = 21),
    class = "prdcurve_warning_unused_argument")
  expect_identical(w$arguments, c("k", "closed"))
  expect_match(conditionMessage(w), "neighbour families", fixed = TRUE)
  # ignored: k = 500 (above the 59 fit rows) is no error, the curve is the
  # one without both, its record closed
  expect_equal(given$precision, plain$precision, tolerance = 0)
  expect_equal(given$recall, plain$recall, tolerance = 0)
  expect_true(curve_attr(given, "closed"))
  # "tightest" of fitted families alone: the same
  w <- expect_warning(quiet_traps(prd_curve(real, generated, families = "linear",
                                           k = 3, angles = 21)),
                      class = "prdcurve_warning_unused_argument")
  expect_identical(w$arguments, "k")
  # with a neighbour family among them, both are read: no warning
  expect_no_warning(cv <- prd_curve(real, generated, method = c("knn", "linear"),
                                    k = 3, closed = FALSE, angles = 21))
  expect_false(curve_attr(cv, "closed"))
  expect_setequal(curve_attr(cv, "k"), c(3, NA)) # (linear reads no k)
})

test_that("kde with a given bandwidth reads no k: one curve with k NA, a given k warned", {
  set.seed(304)
  real <- matrix(rnorm(120 * 3), ncol = 3)
  generated <- matrix(rnorm(120 * 3, 0.4), ncol = 3)
  set.seed(4)
  plain <- prd_curve(real, generated, method = "kde", bandwidth = 1,
                     angles = 21)
  expect_identical(unique(plain$k), NA_integer_)
  expect_identical(nrow(plain), 23L)
  expect_identical(prd_curve_info(plain)$k, NA_integer_)
  # the printed header names no k
  expect_match(format(plain)[2], "generated / kde: ", fixed = TRUE)
  expect_no_match(paste(format(plain)[1:3], collapse = " "), "k = ")
  set.seed(4)
  w <- expect_warning(
    given <- prd_curve(real, generated, method = "kde", bandwidth = 1,
                       k = c(3, 500), angles = 21),
    class = "prdcurve_warning_unused_argument")
  expect_identical(w$arguments, "k")
  expect_match(cli::ansi_strip(conditionMessage(w)),
               "(and \"kde\" when it estimates its bandwidth)", fixed = TRUE)
  expect_identical(given$precision, plain$precision)
  expect_identical(given$k, plain$k)
  # beside a family that reads k: no warning, kde once with k NA
  set.seed(4)
  expect_no_warning(both <- prd_curve(real, generated, method = c("kde", "knn"),
                                      bandwidth = 1, k = c(3, 5), angles = 21))
  s <- summary(both)
  expect_identical(s$method, c("kde", "knn", "knn"))
  expect_identical(s$k, c(NA, 3L, 5L))
  expect_identical(both$precision[both$method == "kde"], plain$precision)
  # "tightest": k from its other neighbour families, none with kde alone
  set.seed(4)
  tk <- quiet_traps(prd_curve(real, generated, families = c("kde", "knn"),
                              bandwidth = 1, k = c(3, 5), angles = 21))
  expect_identical(unique(tk$k), c(3L, 5L))
  set.seed(4)
  expect_warning(
    t1 <- quiet_traps(prd_curve(real, generated, families = c("kde", "linear"),
                                bandwidth = 1, k = 3, angles = 21)),
    class = "prdcurve_warning_unused_argument")
  expect_identical(unique(t1$k), NA_integer_)
  # without a bandwidth kde reads k: a curve per k
  set.seed(4)
  est <- prd_curve(real, generated, method = "kde", k = c(3, 5), angles = 21)
  expect_identical(unique(est$k), c(3L, 5L))
})

test_that("set.seed() reproduces split curves", {
  set.seed(303)
  real <- matrix(rnorm(60 * 2), ncol = 2)
  generated <- matrix(rnorm(60 * 2, mean = 1), ncol = 2)
  set.seed(9)
  c1 <- prd_curve(real, generated, angles = 51, method = c("knn", "kde", "ipr", "coverage"))
  set.seed(9)
  c2 <- prd_curve(real, generated, angles = 51, method = c("knn", "kde", "ipr", "coverage"))
  expect_identical(c1, c2)
  set.seed(10)
  c3 <- prd_curve(real, generated, angles = 51, method = c("knn", "kde", "ipr", "coverage"))
  expect_false(identical(c1$precision, c3$precision))
})

test_that("swapping real and generated swaps precision and recall", {
  set.seed(304)
  real <- matrix(rnorm(70 * 3), ncol = 3)
  generated <- matrix(rnorm(55 * 3, mean = 0.5, sd = 1.5), ncol = 3)
  lam <- prdcurve:::lambda_grid(1001)
  # the grid is symmetric: reversed, it is 1 / lambda (tan is ill-conditioned
  # 1e-10 from its pole, so the first and last values agree only to ~1e-6)
  expect_equal(atan(rev(lam)) + atan(lam), rep(pi / 2, 1001), tolerance = 1e-14)
  expect_lte(max(abs(rev(lam) * lam - 1)[2:1000]), 1e-9)
  expect_lte(max(abs(rev(lam) * lam - 1)), 1e-6)
  for (m in c("knn", "coverage", "ipr", "kde")) {
    pq <- prd_curve(real, generated, method = m, k = 5, split = 0)
    qp <- prd_curve(generated, real, method = m, k = 5, split = 0)
    # alpha of (P, Q) at lambda = beta of (Q, P) at 1 / lambda, end rows too
    expect_equal(pq$precision, rev(qp$recall), tolerance = 1e-9)
    expect_equal(pq$recall, rev(qp$precision), tolerance = 1e-9)
    expect_lte(max(abs(pq$precision - rev(qp$recall))), 1e-9)
  }
})

test_that("identical distributions give a curve near the square", {
  set.seed(305)
  real <- matrix(rnorm(1000 * 5), ncol = 5)
  generated <- matrix(rnorm(1000 * 5), ncol = 5)
  for (sp in list(0, 0.5)) {
    set.seed(1)
    s <- summary(prd_curve(real, generated, method = c("knn", "coverage"),
                           split = sp, angles = 201))
    expect_true(all(s$max_precision >= 0.95))
    expect_true(all(s$max_recall >= 0.95))
  }
})

# --- SPEC.md section 2: scores normalised by the fit sizes ------------------

test_that("prd_curve() keeps fingerprints of the real set as read and of its draws", {
  set.seed(8)
  real <- matrix(rnorm(60 * 3), ncol = 3)
  gen <- matrix(rnorm(50 * 3, 0.5), ncol = 3)
  fit <- function(x, seed = 1, replicates = 2, ...) {
    set.seed(seed)
    prd_curve_info(prd_curve(x, gen, method = "knn", k = 3, angles = 11,
                             replicates = replicates, ...))
  }
  ref <- fit(real)
  # the real set's values, whatever the rows' order and the names; the
  # same seed draws the same rows
  perm <- fit(stats::setNames(as.data.frame(real[60:1, ]), c("x", "y", "z")))
  expect_identical(perm$real_set, ref$real_set)
  expect_identical(perm$real_draws, ref$real_draws)
  # a value changed is another set (which also changes the draws' rows)
  moved <- real
  moved[7, 2] <- moved[7, 2] + 1e-9
  expect_false(identical(fit(moved)$real_set, ref$real_set))
  # another seed, other replicates, another split: other draws
  for (other in list(fit(real, seed = 2), fit(real, replicates = 4),
                     fit(real, split = 0.3))) {
    expect_identical(other$real_set, ref$real_set)
    expect_false(identical(other$real_draws, ref$real_draws))
  }
  # standardize scales after the fingerprint: the same set
  expect_identical(fit(real, standardize = "real")$real_set, ref$real_set)
})
