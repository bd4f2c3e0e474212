# Half-sample replicates (delete-d jackknife, d = n / 2): the replicate
# machinery exactly, then a small calibration run (the full one is
# bench/coverage.R, results in bench/results.md).

gauss <- function(n, d, shift = 0) {
  x <- matrix(stats::rnorm(n * d), n, d)
  x[, 1] <- x[, 1] + shift
  x
}

# ---- the half-samples -------------------------------------------------------

test_that("half-samples are drawn without replacement, one real half per replicate", {
  # column 1 identifies the rows
  real <- cbind(seq_len(41), gauss(41, 2))
  gens <- list(a = cbind(100 + seq_len(30), gauss(30, 2)),
               b = cbind(200 + seq_len(25), gauss(25, 2)))
  set.seed(11)
  reps <- prdcurve:::run_replicates(real, gens, R = 6, k = 1,
    function(real, gens) list(real = real[, 1], gens = lapply(gens, function(g) g[, 1])))
  expect_length(reps$results, 6)
  # f = mean over the sets of floor(n / 2) / n
  expect_equal(reps$fraction, mean(c(20 / 41, 15 / 30, 12 / 25)))
  for (r in reps$results) {
    expect_length(r$real, 20)
    expect_false(anyDuplicated(r$real) > 0)
    expect_true(all(r$real %in% real[, 1]))
    expect_length(r$gens$a, 15)
    expect_length(r$gens$b, 12)
    expect_false(anyDuplicated(r$gens$a) > 0)
    expect_false(anyDuplicated(r$gens$b) > 0)
    expect_true(all(r$gens$a %in% gens$a[, 1]))
    expect_true(all(r$gens$b %in% gens$b[, 1]))
  }
  # the halves change between replicates
  expect_gt(length(unique(lapply(reps$results, `[[`, "real"))), 1)
})

test_that("every model of a replicate is computed on the same real half (paired)", {
  set.seed(12)
  real <- cbind(seq_len(40), gauss(40, 2))
  gens <- list(a = gauss(30, 3), b = gauss(30, 3), c = gauss(20, 3))
  seen <- list()
  set.seed(13)
  prdcurve:::run_replicates(real, gens, R = 5, k = 1, function(real, gens) {
    # what the estimators do: one pass over the models with the same real rows
    for (m in names(gens)) seen[[length(seen) + 1L]] <<- list(model = m, real = real[, 1])
    NULL
  })
  expect_length(seen, 15)
  for (r in 1:5) {
    grp <- seen[(r - 1) * 3 + 1:3]
    expect_identical(vapply(grp, `[[`, "", "model"), c("a", "b", "c"))
    expect_identical(grp[[2]]$real, grp[[1]]$real)
    expect_identical(grp[[3]]$real, grp[[1]]$real)
  }
})

test_that("the replicate estimates of every model share the real half", {
  # precision of a large generated set against a small real one: the
  # variance comes from the real half (its balls), so the replicate values
  # of two identical models move together when the real half is shared
  # (correlation 0.91-0.98 over seeds 1-5 and 14), and not when it is not
  # (two separate calls: about 0).
  set.seed(14)
  real <- gauss(60, 3)
  g <- gauss(1000, 3, shift = 1)
  mm <- manifold_metrics(real, list(a = g, b = g), metrics = "precision",
                         k = 3, replicates = 30)
  expect_equal(mm$value[1], mm$value[2])
  reps <- attr(mm, "replicates")
  va <- reps$value[reps$model == "a"]
  vb <- reps$value[reps$model == "b"]
  expect_gt(stats::cor(va, vb), 0.7)
  m1 <- manifold_metrics(real, g, metrics = "precision", k = 3, replicates = 30)
  m2 <- manifold_metrics(real, g, metrics = "precision", k = 3, replicates = 30)
  expect_lt(stats::cor(attr(m1, "replicates")$value,
                       attr(m2, "replicates")$value), 0.7)
})

# ---- intervals --------------------------------------------------------------

test_that("intervals are the estimate +- z sqrt(f / (1 - f) var) of the replicates, clamped", {
  set.seed(21)
  real <- gauss(120, 3)
  gen <- gauss(120, 3, shift = 0.5)
  cv <- prd_curve(real, gen, method = "knn", replicates = 12, angles = 101)
  s <- summary(cv, conf_level = 0.8)
  long <- prdcurve:::replicate_statistics(cv)
  expect_equal(long$fraction, 0.5)
  z <- stats::qnorm(0.9)
  for (st in c("auc", "max_precision", "max_recall", "f_beta_recall")) {
    v <- long$replicates$value[long$replicates$statistic == st]
    expect_length(v, 12)
    se <- sqrt(stats::var(v))
    expect_equal(s[[paste0(st, "_lower")]], max(0, s[[st]] - z * se))
    expect_equal(s[[paste0(st, "_upper")]], min(1, s[[st]] + z * se))
  }
  mm <- manifold_metrics(real, gen, metrics = c("recall", "density"), k = 3,
                         replicates = 12)
  reps <- attr(mm, "replicates")
  z <- stats::qnorm(0.95)
  for (i in seq_len(nrow(mm))) {
    v <- reps$value[reps$metric == mm$metric[i]]
    se <- sqrt(stats::var(v))
    hi <- if (mm$metric[i] == "density") Inf else 1
    expect_equal(mm$lower[i], max(0, mm$value[i] - z * se))
    expect_equal(mm$upper[i], min(hi, mm$value[i] + z * se))
  }
})

test_that("replicates reproduce under set.seed()", {
  real <- gauss(80, 3)
  gens <- list(a = gauss(80, 3, 0.5), b = gauss(70, 3, 1))
  run <- function(seed) {
    set.seed(seed)
    cv <- prd_curve(real, gens, method = c("knn", "coverage"),
                    replicates = 5, angles = 51)
    mm <- manifold_metrics(real, gens, metrics = c("precision", "coverage"),
                           k = 3, replicates = 5)
    list(summary(cv), mm, attr(mm, "replicates"),
         prd_compare(cv, baseline = "a"), prd_compare(mm, baseline = "a"))
  }
  expect_identical(run(3), run(3))
  expect_false(identical(run(3)[[1]]$auc_lower, run(4)[[1]]$auc_lower))
})

test_that("lower confidence levels give narrower intervals", {
  set.seed(31)
  cv <- prd_curve(gauss(150, 3), gauss(150, 3, 0.7), method = "knn",
                  replicates = 10, angles = 101)
  s50 <- summary(cv, conf_level = 0.5)
  s90 <- summary(cv, conf_level = 0.9)
  for (st in prdcurve:::curve_statistic_names) {
    lo50 <- s50[[paste0(st, "_lower")]]
    hi50 <- s50[[paste0(st, "_upper")]]
    lo90 <- s90[[paste0(st, "_lower")]]
    hi90 <- s90[[paste0(st, "_upper")]]
    expect_equal(s50[[st]], s90[[st]])
    expect_true(lo90 <= lo50 && lo50 <= s50[[st]] && s50[[st]] <= hi50 &&
                  hi50 <= hi90, label = st)
  }
  # the lower half-widths (the upper side is clamped at 1 here): the ratio
  # of the normal quantiles
  w50 <- s50$auc - s50$auc_lower
  w90 <- s90$auc - s90$auc_lower
  expect_equal(s90$auc_upper, 1)
  expect_equal(w50 / w90, stats::qnorm(0.75) / stats::qnorm(0.95))
})

# ---- prd_compare() ----------------------------------------------------------

test_that("prd_compare() returns the paired differences and their intervals", {
  set.seed(41)
  real <- gauss(120, 3)
  gens <- list(a = gauss(120, 3, 0.3), b = gauss(120, 3, 1.2))
  cv <- prd_curve(real, gens, method = "knn", replicates = 10, angles = 101)
  cmp <- prd_compare(cv, baseline = "a", conf_level = 0.9)
  expect_setequal(cmp$statistic, prdcurve:::curve_statistic_names)
  expect_true(all(cmp$model == "b" & cmp$baseline == "a"))
  s <- summary(cv)
  auc <- cmp[cmp$statistic == "auc", ]
  expect_equal(auc$estimate, s$auc[s$model == "b"] - s$auc[s$model == "a"])
  long <- prdcurve:::replicate_statistics(cv)$replicates
  la <- long[long$model == "a" & long$statistic == "auc", ]
  lb <- long[long$model == "b" & long$statistic == "auc", ]
  dv <- lb$value[order(lb$replicate)] - la$value[order(la$replicate)]
  half <- stats::qnorm(0.95) * stats::sd(dv)
  expect_equal(c(auc$lower, auc$upper), auc$estimate + c(-1, 1) * half)
})

test_that("prd_compare() of a model with a copy of itself: estimate 0, interval around 0", {
  # With no split (manifold_metrics) the point estimates agree exactly; each
  # model's generated half is drawn independently in a replicate, so the
  # interval is symmetric around 0 rather than [0, 0].
  set.seed(51)
  real <- gauss(100, 3)
  g <- gauss(100, 3, 0.5)
  mm <- manifold_metrics(real, list(a = g, b = g), metrics = "recall", k = 3,
                         replicates = 8)
  cmp <- prd_compare(mm, baseline = "a")
  expect_equal(cmp$estimate, 0)
  expect_equal(cmp$lower, -cmp$upper)
  expect_gt(cmp$upper, 0)
})

test_that("replicate errors have classes", {
  real <- gauss(40, 2)
  gen <- gauss(40, 2)
  expect_error(prd_curve(real, gen, method = "knn", replicates = 1),
               class = "prdcurve_error_replicates")
  expect_error(manifold_metrics(real, gen, replicates = 1),
               class = "prdcurve_error_replicates")
  expect_error(entropy_metrics(real, gen, replicates = 1),
               class = "prdcurve_error_replicates")
  two <- list(a = gen, b = gauss(40, 2, 1))
  no_reps <- prd_curve(real, two, method = "knn", angles = 21)
  expect_error(prd_compare(no_reps), class = "prdcurve_error_replicates")
  expect_error(prd_compare(manifold_metrics(real, two, metrics = "recall")),
               class = "prdcurve_error_replicates")
  set.seed(61)
  cv <- prd_curve(real, two, method = "knn", replicates = 3, angles = 21)
  expect_error(prd_compare(cv, baseline = "zzz"), class = "prdcurve_error_model")
  one <- prd_curve(real, gen, method = "knn", replicates = 3, angles = 21)
  expect_error(prd_compare(one), class = "prdcurve_error_model")
  expect_error(prd_compare(cv, conf_level = 1), class = "prdcurve_error_input")
  # k must fit the half-samples (20 real rows, split 0.5: 10 fit rows)
  expect_error(prd_curve(real, gen, method = "knn", k = 15, replicates = 3),
               class = "prdcurve_error_k_too_large")
})

# ---- calibration (small; the full run is bench/coverage.R) ------------------

test_that("90% intervals cover the estimator's mean at the nominal rate", {
  skip_on_cran()
  # 40 draws, n = 300 per set, d = 4, generated mean moved by 1 along axis
  # 1, R = 20 replicates. Coverage of the mean estimate over the draws by
  # the 90% (and 50%) intervals of the knn auc and the manifold recall.
  # Binomial sd of a calibrated share over 40 draws: sqrt(p (1 - p) / 40),
  # 0.047 at p = 0.9 and 0.079 at p = 0.5; the band is 3 sd, widened by 0.03
  # for the Monte Carlo error of the target (the mean of only 40 estimates)
  # and the 19 degrees of freedom of the variance (a t_19 quantile would
  # give 0.884 instead of 0.9). 90% has no useful upper bound with 40
  # draws; the 50% intervals bound the variance from both sides (a variance
  # 3 times too large would cover about 76%). Measured with seeds 7000 +
  # 1:40 (and three other seed bases): auc 90% 0.95 (0.925-0.975), auc 50%
  # 0.625 (0.475-0.625), recall 90% 0.95 (0.85-0.95); the curve intervals
  # are conservative, see "Interval calibration" in bench/results.md.
  draws <- 40
  one <- function(i) {
    set.seed(7000 + i)
    real <- gauss(300, 4)
    gen <- gauss(300, 4, shift = 1)
    cv <- prd_curve(real, gen, method = "knn", replicates = 20, angles = 201)
    mm <- manifold_metrics(real, gen, metrics = "recall", k = 5,
                           replicates = 20)
    s90 <- summary(cv, conf_level = 0.9)
    s50 <- summary(cv, conf_level = 0.5)
    c(auc = s90$auc, lo90 = s90$auc_lower, hi90 = s90$auc_upper,
      lo50 = s50$auc_lower, hi50 = s50$auc_upper,
      recall = mm$value, rlo = mm$lower, rhi = mm$upper)
  }
  res <- t(vapply(seq_len(draws), one, numeric(8)))
  cover <- function(lo, hi, target) mean(lo <= target & target <= hi)
  band <- function(p) p + c(-1, 1) * (3 * sqrt(p * (1 - p) / draws) + 0.03)
  target_auc <- mean(res[, "auc"])
  target_recall <- mean(res[, "recall"])
  c90 <- cover(res[, "lo90"], res[, "hi90"], target_auc)
  c50 <- cover(res[, "lo50"], res[, "hi50"], target_auc)
  cr <- cover(res[, "rlo"], res[, "rhi"], target_recall)
  expect_gte(c90, band(0.9)[1])
  expect_gte(c50, band(0.5)[1])
  expect_lte(c50, band(0.5)[2])
  expect_gte(cr, band(0.9)[1])
})
