# Complementary half-sample replicates (random groups, Wolter 2007): the
# replicate machinery exactly, then a small calibration run (the full one is
# the coverage part of bench/validity.R, results in bench/results.md).

gauss <- function(n, d, shift = 0) {
  x <- matrix(stats::rnorm(n * d), n, d)
  x[, 1] <- x[, 1] + shift
  x
}

# ---- the half-samples -------------------------------------------------------

test_that("replicates come in complementary pairs of halves, without replacement", {
  # column 1 identifies the rows
  real <- cbind(seq_len(41), gauss(41, 2))
  gens <- list(a = cbind(100 + seq_len(30), gauss(30, 2)),
               b = cbind(200 + seq_len(25), gauss(25, 2)),
               c = cbind(300 + seq_len(30), gauss(30, 2)))
  set.seed(11)
  # an odd R is rounded up: 5 -> 3 pairs
  reps <- prdcurve:::run_replicates(real, gens, R = 5,
    function(real, gens) list(real = real[, 1], gens = lapply(gens, function(g) g[, 1])))
  expect_length(reps$results, 6)
  # c = 1 / f1 + 1 / f2, f1 and f2 the mean shares of the two halves
  f1 <- mean(c(20 / 41, 15 / 30, 12 / 25, 15 / 30))
  f2 <- mean(c(21 / 41, 15 / 30, 13 / 25, 15 / 30))
  expect_equal(reps$divisor, 1 / f1 + 1 / f2)
  for (j in 1:3) {
    h <- reps$results[[2 * j - 1]]
    hc <- reps$results[[2 * j]]
    expect_length(h$real, 20)
    expect_length(hc$real, 21)
    # complementary: disjoint, and together every row once
    expect_identical(sort(c(h$real, hc$real)), as.numeric(seq_len(41)))
    expect_identical(sort(c(h$gens$a, hc$gens$a)), as.numeric(100 + seq_len(30)))
    expect_identical(sort(c(h$gens$b, hc$gens$b)), as.numeric(200 + seq_len(25)))
    expect_length(h$gens$b, 12)
    # equal-size generated sets are split by the same row positions
    expect_identical(h$gens$c - 300, h$gens$a - 100)
    expect_identical(hc$gens$c - 300, hc$gens$a - 100)
  }
  # the halves change between pairs
  expect_false(identical(reps$results[[1]]$real, reps$results[[3]]$real))
})

test_that("pair_variance() is mean(D^2) / c over the complete pairs", {
  v <- c(0.5, 0.7, 0.2, 0.1, 0.9, NA, 0.4, 0.35)
  pv <- prdcurve:::pair_variance(v, seq_along(v), 4)
  # pairs (0.5, 0.7), (0.2, 0.1), (0.4, 0.35); (0.9, NA) is dropped
  expect_equal(pv$v, mean(c(-0.2, 0.1, 0.05)^2) / 4)
  expect_identical(pv$df, 3L)
  # values given out of order and as a matrix (one variance per row)
  o <- c(8, 1, 3, 2, 4, 7)
  m <- rbind(v[o], 2 * v[o])
  pm <- prdcurve:::pair_variance(m, o, 4)
  expect_equal(pm$v, c(1, 4) * pv$v)
  expect_identical(pm$df, 3L)
  expect_equal(pm$se, sqrt(pm$v))
  # the standard error of values past the square root of the double range
  # (a KID of features of magnitude 1e30), and of tiny ones, scales with them
  for (s in c(1e200, 1e-200)) {
    ps <- prdcurve:::pair_variance(v * s, seq_along(v), 4)
    expect_equal(ps$se, s * sqrt(pv$v), tolerance = 1e-14)
    expect_identical(ps$df, 3L)
  }
  expect_identical(prdcurve:::pair_variance(rep(2, 4), 1:4, 4)$se, 0)
  ci <- prdcurve:::replicate_interval(0.3, v, seq_along(v), 4, 0.9,
                                      lower_bound = 0.28)
  half <- stats::qt(0.95, 3) * sqrt(pv$v)
  expect_equal(ci, c(lower = max(0.28, 0.3 - half), upper = 0.3 + half))
  expect_identical(prdcurve:::replicate_interval(0.3, c(1, NA), 1:2, 4, 0.9),
                   c(lower = NA_real_, upper = NA_real_))
})

test_that("every model of a replicate is computed on the same real half (paired)", {
  set.seed(12)
  real <- cbind(seq_len(40), gauss(40, 2))
  gens <- list(a = gauss(30, 3), b = gauss(30, 3), c = gauss(20, 3))
  seen <- list()
  set.seed(13)
  prdcurve:::run_replicates(real, gens, R = 6, function(real, gens) {
    # what the estimators do: one pass over the models with the same real rows
    for (m in names(gens)) seen[[length(seen) + 1L]] <<- list(model = m, real = real[, 1])
    NULL
  })
  expect_length(seen, 18)
  for (r in 1:6) {
    grp <- seen[(r - 1) * 3 + 1:3]
    expect_identical(vapply(grp, `[[`, "", "model"), c("a", "b", "c"))
    expect_identical(grp[[2]]$real, grp[[1]]$real)
    expect_identical(grp[[3]]$real, grp[[1]]$real)
  }
})

test_that("the replicate estimates of every model share the real half", {
  # precision of a large generated set against a small real one: the
  # variance comes from the real half (its balls). Two copies of one model
  # get identical replicates (same real half, same generated rows); two
  # separate calls draw other halves (correlation about 0).
  set.seed(14)
  real <- gauss(60, 3)
  g <- gauss(1000, 3, shift = 1)
  mm <- manifold_metrics(real, list(a = g, b = g), metrics = "precision",
                         k = 3, replicates = 30)
  expect_equal(mm$value[1], mm$value[2])
  reps <- attr(mm, "replicates")
  va <- reps$value[reps$model == "a"]
  vb <- reps$value[reps$model == "b"]
  expect_identical(va, vb)
  expect_gt(stats::sd(va), 0)
  m1 <- manifold_metrics(real, g, metrics = "precision", k = 3, replicates = 30)
  m2 <- manifold_metrics(real, g, metrics = "precision", k = 3, replicates = 30)
  expect_lt(stats::cor(attr(m1, "replicates")$value,
                       attr(m2, "replicates")$value), 0.7)
})

# ---- intervals --------------------------------------------------------------

test_that("intervals are the estimate +- t_P sqrt(mean(D^2) / 4) of the pairs, clamped", {
  # (a draw whose extremes are off 1 in some half-sample: a share at 1 in
  # every half gets Wilson's interval, tested below)
  set.seed(22)
  real <- gauss(120, 3)
  gen <- gauss(120, 3, shift = 0.5)
  # (one split: the draw is chosen for its extremes on one)
  cv <- prd_curve(real, gen, method = "knn", replicates = 12, angles = 101,
                  repeats = 1)
  s <- summary(cv, conf_level = 0.8)
  long <- prdcurve:::replicate_statistics(cv)
  expect_equal(long$divisor, 4)
  q <- stats::qt(0.9, df = 6)
  for (st in c("auc", "max_precision", "max_recall", "f_beta_recall")) {
    r <- long$replicates[long$replicates$statistic == st, ]
    expect_identical(sort(r$replicate), 1:12)
    v <- r$value[order(r$replicate)]
    D <- v[c(1, 3, 5, 7, 9, 11)] - v[c(2, 4, 6, 8, 10, 12)]
    se <- sqrt(sum(D^2) / (4 * 6))
    expect_equal(s[[paste0(st, "_lower")]], max(0, s[[st]] - q * se))
    expect_equal(s[[paste0(st, "_upper")]], min(1, s[[st]] + q * se))
  }
  mm <- manifold_metrics(real, gen, metrics = c("recall", "density"), k = 3,
                         replicates = 12)
  reps <- attr(mm, "replicates")
  q <- stats::qt(0.95, df = 6)
  for (i in seq_len(nrow(mm))) {
    r <- reps[reps$metric == mm$metric[i], ]
    v <- r$value[order(r$replicate)]
    D <- v[c(1, 3, 5, 7, 9, 11)] - v[c(2, 4, 6, 8, 10, 12)]
    se <- sqrt(mean(D^2) / 4)
    lo <- max(0, mm$value[i] - q * se)
    hi <- mm$value[i] + q * se
    if (mm$metric[i] == "recall") {
      # a share of the 120 real rows: also the Wilson score interval
      z <- stats::qnorm(0.95)
      p <- mm$value[i]
      w <- ((p + z^2 / 240) + c(-1, 1) * z * sqrt(p * (1 - p) / 120 + z^2 / (4 * 120^2))) /
        (1 + z^2 / 120)
      lo <- min(lo, w[1])
      hi <- min(1, max(hi, w[2]))
    }
    expect_equal(mm$lower[i], lo)
    expect_equal(mm$upper[i], hi)
  }
})

test_that("replicates reproduce under set.seed()", {
  real <- gauss(80, 3)
  gens <- list(a = gauss(80, 3, 0.5), b = gauss(70, 3, 1))
  # (the models' sizes differ on purpose: the comparisons warn of it)
  run <- function(seed) {
    set.seed(seed)
    cv <- prd_curve(real, gens, method = c("knn", "coverage"),
                    replicates = 5, angles = 51)
    mm <- manifold_metrics(real, gens, metrics = c("precision", "coverage"),
                           k = 3, replicates = 5)
    cls <- warning_classes(
      out <- list(summary(cv), mm, attr(mm, "replicates"),
                  prd_compare(cv, baseline = "a"), prd_compare(mm, baseline = "a")))
    expect_true(length(cls) > 0 && all(cls == "prdcurve_warning_unequal_sizes"))
    out
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
  # of the t quantiles with 5 degrees of freedom (5 pairs)
  w50 <- s50$auc - s50$auc_lower
  w90 <- s90$auc - s90$auc_lower
  expect_equal(s90$auc_upper, 1)
  expect_equal(w50 / w90, stats::qt(0.75, 5) / stats::qt(0.95, 5))
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
  D <- dv[c(TRUE, FALSE)] - dv[c(FALSE, TRUE)]
  half <- stats::qt(0.95, df = 5) * sqrt(mean(D^2) / 4)
  expect_equal(c(auc$lower, auc$upper), auc$estimate + c(-1, 1) * half)
})

test_that("prd_compare() of bound curves that do not pair stops before any warning", {
  # separate calls: another k, another real set; the models' sizes differ
  # too, which would warn (prdcurve_warning_unequal_sizes) of a comparison
  # that is not made
  set.seed(42)
  real <- gauss(120, 3)
  a <- prd_curve(real, list(a = gauss(120, 3, 0.3)), method = "knn", k = 5,
                 replicates = 4, angles = 51)
  d <- prd_curve(real, list(d = gauss(100, 3, 1)), method = "knn", k = 3,
                 replicates = 4, angles = 51)
  b <- prd_curve(gauss(120, 3, 2), list(b = gauss(100, 3)), method = "knn",
                 k = 5, replicates = 4, angles = 51)
  expect_no_warning(expect_error(prd_compare(prd_bind(a, d), baseline = "a"),
                                 class = "prdcurve_error_unmatched"))
  expect_no_warning(expect_error(prd_compare(prd_bind(a, b), baseline = "a"),
                                 class = "prdcurve_error_unpaired"))
})

test_that("prd_compare() of a model with a copy of itself: exactly 0, interval [0, 0]", {
  # the copies get the same generated halves, and with a split the same
  # evaluation rows, so every estimate and replicate agrees exactly
  set.seed(51)
  real <- gauss(100, 3)
  g <- gauss(100, 3, 0.5)
  other <- gauss(100, 3, 1)
  mm <- manifold_metrics(real, list(a = g, b = g, c = other),
                         metrics = c("recall", "density"), k = 3,
                         replicates = 8)
  cmp <- prd_compare(mm, baseline = "a")
  same <- cmp[cmp$model == "b", ]
  expect_identical(same$estimate, c(0, 0))
  expect_identical(same$lower, c(0, 0))
  expect_identical(same$upper, c(0, 0))
  diff <- cmp[cmp$model == "c", ]
  expect_true(all(diff$upper > diff$lower))
  cv <- prd_curve(real, list(a = g, b = g), method = c("knn", "coverage"),
                  replicates = 6, angles = 51)
  cc <- prd_compare(cv, baseline = "a")
  expect_true(all(cc$estimate == 0 & cc$lower == 0 & cc$upper == 0))
  # with a split, the metric functions share the real split and the
  # generated split of equal-size sets too
  for (fn in list(manifold_metrics, entropy_metrics)) {
    ms <- fn(real, list(a = g, b = g), k = 3, split = 0.5, replicates = 4)
    cm <- prd_compare(ms, baseline = "a")
    expect_true(all(cm$estimate == 0 & cm$lower == 0 & cm$upper == 0))
  }
})

test_that("prd_compare() of shares at their bound: Newcombe's interval, copies still [0, 0]", {
  # d = 32, 80 rows per set: generated sets wider than the real one cover
  # every real row, in the full sets and in every half
  set.seed(58)
  real <- gauss(80, 32)
  b <- gauss(80, 32) * 1.5
  c2 <- gauss(80, 32) * 2
  mm <- manifold_metrics(real, list(b = b, c = c2, copy = b),
                         metrics = c("recall", "density"), k = 3,
                         replicates = 8)
  reps <- attr(mm, "replicates")
  expect_true(all(mm$value[mm$metric == "recall"] == 1))
  expect_true(all(reps$value[reps$metric == "recall"] == 1))
  cmp <- prd_compare(mm, baseline = "b", conf_level = 0.9)
  # the copy: exactly 0 with interval [0, 0] (its density tells it apart
  # from a different set at the same bound)
  same <- cmp[cmp$model == "copy", ]
  expect_identical(same$estimate, c(0, 0))
  expect_identical(same$lower, c(0, 0))
  expect_identical(same$upper, c(0, 0))
  # a different model: every half-sample difference of recall is 0, so the
  # half-sample interval is [0, 0]; Newcombe's at p1 = p2 = 1 over the 80
  # shared real rows is -+ z^2 / (80 + z^2)
  z <- stats::qnorm(0.95)
  rec <- cmp[cmp$model == "c" & cmp$statistic == "recall", ]
  expect_identical(rec$estimate, 0)
  expect_equal(c(rec$lower, rec$upper), c(-1, 1) * z^2 / (80 + z^2),
               tolerance = 1e-12)
  expect_equal(c(rec$lower, rec$upper),
               unname(prdcurve:::newcombe_interval(1, 80, 1, 80, 0.9)))
  # density is no share: its interval stays the half-sample one
  den <- cmp[cmp$model == "c" & cmp$statistic == "density", ]
  rd <- function(m) {
    r <- reps[reps$model == m & reps$metric == "density", ]
    r$value[order(r$replicate)]
  }
  dv <- rd("c") - rd("b")
  D <- dv[c(TRUE, FALSE)] - dv[c(FALSE, TRUE)]
  expect_equal(c(den$lower, den$upper),
               den$estimate + c(-1, 1) * stats::qt(0.95, 4) * sqrt(mean(D^2) / 4))
  # a table of the bounded share alone cannot tell a copy from a different
  # set at the same bound: both get Newcombe's interval (the conservative
  # side)
  set.seed(59)
  mr <- manifold_metrics(real, list(b = b, c = c2, copy = b),
                         metrics = "recall", k = 3, replicates = 8)
  cr <- prd_compare(mr, baseline = "b")
  expect_identical(cr$estimate, c(0, 0))
  expect_equal(cr$lower, rep(-z^2 / (80 + z^2), 2), tolerance = 1e-12)
  expect_equal(cr$upper, rep(z^2 / (80 + z^2), 2), tolerance = 1e-12)
})

test_that("prd_compare() of shares away from their bound keeps the half-sample interval", {
  set.seed(43)
  real <- gauss(120, 3)
  mm <- manifold_metrics(real, list(a = gauss(120, 3, 0.3),
                                    b = gauss(120, 3, 1.2)),
                         metrics = c("precision", "recall", "coverage"),
                         k = 3, replicates = 10)
  reps <- attr(mm, "replicates")
  # no estimate or half-sample value at 0 or 1
  expect_true(all(mm$value > 0 & mm$value < 1))
  expect_true(all(reps$value > 0 & reps$value < 1))
  cmp <- prd_compare(mm, baseline = "a", conf_level = 0.9)
  for (st in c("precision", "recall", "coverage")) {
    rv <- function(m) {
      r <- reps[reps$model == m & reps$metric == st, ]
      r$value[order(r$replicate)]
    }
    dv <- rv("b") - rv("a")
    D <- dv[c(TRUE, FALSE)] - dv[c(FALSE, TRUE)]
    row <- cmp[cmp$statistic == st, ]
    expect_equal(c(row$lower, row$upper),
                 row$estimate + c(-1, 1) * stats::qt(0.95, 5) * sqrt(mean(D^2) / 4),
                 tolerance = 1e-12, label = st)
  }
})

test_that("curves: max_precision and max_recall at their bound hold the Wilson interval; compare gives Newcombe's, copies [0, 0]", {
  # d = 32, 80 rows per set, no split: knn tells every row of a much
  # wider generated set from the real ones (max_precision = max_recall =
  # 0 in the full sets and in every half)
  set.seed(58)
  real <- gauss(80, 32)
  b <- gauss(80, 32) * 1.5
  c2 <- gauss(80, 32) * 2
  c3 <- gauss(80, 32) * 2.5
  cv <- suppressWarnings(prd_curve(real, list(b = b, c = c2, d = c3,
                                              copy = b),
                                   method = "knn", split = 0, k = 3,
                                   replicates = 8, angles = 51))
  s <- summary(cv, conf_level = 0.9)
  info <- prd_curve_info(cv)
  half_values <- function(i, st) {
    reps <- info$replicates[[i]]
    vapply(split(reps, reps$replicate), function(r) {
      prdcurve:::curve_stats(r$lambda, r$precision, r$recall)[[st]]
    }, 0)
  }
  for (i in 2:3) for (st in c("max_precision", "max_recall")) {
    expect_identical(s[[st]][i], 0)
    expect_true(all(half_values(i, st) == 0))
  }
  # the half-sample interval is [0, 0]; Wilson's at p = 0 over 80 rows
  z <- stats::qnorm(0.95)
  w <- z^2 / (80 + z^2)
  expect_identical(info$n_eval_real, rep(80L, 4))
  expect_identical(s$max_recall_lower[2:3], c(0, 0))
  expect_equal(s$max_recall_upper[2:3], c(w, w), tolerance = 1e-12)
  expect_equal(s$max_precision_upper[2:3], c(w, w), tolerance = 1e-12)
  # auc is no share: the half-sample interval alone (b: off its bounds)
  r1 <- half_values(1, "auc")
  expect_true(s$auc[1] > 0.01)
  D <- r1[c(TRUE, FALSE)] - r1[c(FALSE, TRUE)]
  half <- stats::qt(0.95, 4) * sqrt(mean(D^2) / 4)
  expect_equal(c(s$auc_lower[1], s$auc_upper[1]),
               c(max(0, s$auc[1] - half), min(1, s$auc[1] + half)),
               tolerance = 1e-12)
  # two different models at 0: Newcombe's interval -+ z^2 / (80 + z^2)
  cmp <- prd_compare(cv, baseline = "c", conf_level = 0.9)
  for (st in c("max_precision", "max_recall")) {
    row <- cmp[cmp$model == "d" & cmp$statistic == st, ]
    expect_identical(row$estimate, 0)
    expect_equal(c(row$lower, row$upper), c(-w, w), tolerance = 1e-12)
  }
  # a copy of a model whose auc is off its bounds: 0 with [0, 0]
  cb <- prd_compare(cv, baseline = "b")
  same <- cb[cb$model == "copy", ]
  expect_true(all(same$estimate == 0 & same$lower == 0 & same$upper == 0))
})

test_that("conf_level of the metric functions sets the level of lower and upper", {
  set.seed(52)
  real <- gauss(100, 3)
  g <- gauss(100, 3, 0.5)
  run <- function(level) {
    set.seed(53)
    manifold_metrics(real, g, metrics = c("precision", "recall"), k = 3,
                     replicates = 10, conf_level = level)
  }
  m90 <- run(0.9)
  m50 <- run(0.5)
  expect_identical(m50$value, m90$value)
  expect_equal(m50$lower, tidy(m90, conf.level = 0.5)$conf.low)
  expect_equal(m50$upper, tidy(m90, conf_level = 0.5)$conf.high)
  expect_true(all(m50$upper - m50$lower < m90$upper - m90$lower))
  # tidy() keeps the table's level unless told otherwise
  expect_equal(tidy(m50)$conf.low, m50$lower)
  expect_equal(tidy(m50, conf_level = 0.9)$conf.high, m90$upper)
  set.seed(54)
  e80 <- entropy_metrics(real, g, k = 3, replicates = 6, conf_level = 0.8)
  expect_equal(e80$lower, tidy(e80, conf.level = 0.8)$conf.low)
  expect_error(manifold_metrics(real, g, replicates = 4, conf_level = 1.5),
               class = "prdcurve_error_input")
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
  err <- expect_error(prd_compare(no_reps), class = "prdcurve_error_replicates")
  expect_match(conditionMessage(err),
               "prd_curve(real, generated, replicates = 50)", fixed = TRUE)
  expect_no_match(conditionMessage(err), "not used")
  # a `replicates` given to prd_compare() is named as unused
  err <- expect_error(prd_compare(no_reps, replicates = 10),
                      class = "prdcurve_error_replicates")
  expect_match(conditionMessage(err), "`replicates` is not used", fixed = TRUE)
  err <- expect_error(prd_compare(manifold_metrics(real, two, metrics = "recall")),
                      class = "prdcurve_error_replicates")
  expect_match(conditionMessage(err), "Compute the metrics with `replicates = 50`",
               fixed = TRUE)
  set.seed(61)
  cv <- prd_curve(real, two, method = "knn", replicates = 3, angles = 21)
  expect_error(prd_compare(cv, baseline = "zzz"), class = "prdcurve_error_model")
  one <- prd_curve(real, gen, method = "knn", replicates = 3, angles = 21)
  expect_error(prd_compare(one), class = "prdcurve_error_model")
  expect_error(prd_compare(cv, conf_level = 1), class = "prdcurve_error_input")
  # k must fit the half-samples (20 real rows, split 0.5: 10 fit rows);
  # k = 15 against the whole sets' 10 fit rows warns first
  expect_warning(
    expect_error(prd_curve(real, gen, method = "knn", k = 15, replicates = 3),
                 class = "prdcurve_error_k_too_large"),
    class = "prdcurve_warning_k_large")
})

# ---- calibration (small; the full run is bench/coverage.R) ------------------

test_that("90% intervals cover the estimator's mean at the nominal rate", {
  skip_on_cran()
  # 40 draws, n = 300 per set, d = 4, generated mean moved by 1 along axis
  # 1, R = 20 replicates (10 pairs). Coverage of the mean estimate over the
  # draws by the 90% (and 50%) intervals of the knn auc and the manifold
  # recall. Binomial sd of a calibrated share over 40 draws:
  # sqrt(p (1 - p) / 40), 0.047 at p = 0.9 and 0.079 at p = 0.5; the band
  # is 3 sd, widened by 0.03 for the Monte Carlo error of the target (the
  # mean of only 40 estimates). 90% has no useful upper bound with 40
  # draws; the 50% intervals bound the variance from both sides (a variance
  # 3 times too large would cover about 76%). Measured with seeds 7000 +
  # 1:40 (and 8000, 9000 + 1:40): auc 90% 0.875 (0.875-0.95), auc 50%
  # 0.55 (0.40-0.55), recall 90% 0.925 (0.90-0.95); see "What the 90%
  # intervals cover" in bench/results.md for the full run.
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

test_that("prd_compare() keeps a difference's interval within the range a difference can take", {
  # a noisy model's curve statistics far below the good model's: the
  # half-sample interval of some difference reaches below -1; a
  # difference of two values in [0, 1] cannot
  set.seed(4)
  d <- 128
  n <- 400
  real <- matrix(rnorm(n * d), n)
  good <- matrix(rnorm(n * d), n)
  noisy <- matrix(rnorm(n * d, sd = 1.2), n)
  # (one split: its halves' differences reach past -1)
  cv <- suppressWarnings(prd_curve(real, list(good = good, noisy = noisy),
                                   method = c("knn", "kde", "ipr", "coverage"),
                                   replicates = 10, repeats = 1))
  long <- prdcurve:::replicate_statistics(cv)
  e <- long$estimates
  r <- long$replicates
  raw <- NULL
  for (i in which(e$model == "noisy" & e$statistic != "median_lambda")) {
    key <- function(t, m) t$model == m & t$statistic == e$statistic[i] &
      t$method == e$method[i]
    rm <- r[key(r, "noisy"), ]
    rb <- r[key(r, "good"), ]
    rb <- rb[match(rm$replicate, rb$replicate), ]
    raw <- rbind(raw, prdcurve:::replicate_interval(
      e$estimate[i] - e$estimate[key(e, "good")], rm$value - rb$value,
      rm$replicate, long$divisor, 0.9))
  }
  expect_lt(min(raw[, "lower"]), -1)
  cmp <- prd_compare(cv, "good")
  u <- cmp$statistic != "median_lambda"
  expect_true(all(cmp$lower[u] >= -1 & cmp$upper[u] <= 1))
  expect_true(all(cmp$lower <= cmp$estimate & cmp$estimate <= cmp$upper))
  expect_identical(prdcurve:::statistic_range(cv, "auc"), c(0, 1))
  expect_identical(prdcurve:::statistic_range(cv, "median_lambda"), c(0, Inf))
})

test_that("the metrics' half-samples and real-set fingerprints do not depend on the rows' order", {
  set.seed(1)
  R <- matrix(rnorm(600 * 8), 600)
  A <- matrix(rnorm(500 * 8), 500)
  G <- matrix(rnorm(500 * 8, 0.3), 500)
  pr <- sample(600)
  pg <- sample(500)
  # the same intervals under one seed, whatever order the rows came in
  set.seed(2)
  a <- embedding_metrics(R, G, metrics = c("fd", "kid", "authpct"), replicates = 10)
  set.seed(2)
  b <- embedding_metrics(R[pr, ], G[pg, ], metrics = c("fd", "kid", "authpct"),
                         replicates = 10)
  expect_equal(b$lower, a$lower, tolerance = 1e-12)
  expect_equal(b$upper, a$upper, tolerance = 1e-12)
  set.seed(2)
  a <- manifold_metrics(R, G, replicates = 10)
  set.seed(2)
  b <- manifold_metrics(R[pr, ], G[pg, ], replicates = 10)
  expect_identical(b$lower, a$lower)
  expect_identical(b$upper, a$upper)
  # separate calls on the real set in another order pair: a copy of a model
  # differs by 0 [0, 0]
  set.seed(4)
  m1 <- manifold_metrics(R, list(a = A), metrics = "precision", replicates = 6)
  set.seed(4)
  m2 <- manifold_metrics(R[pr, ], list(c = A), metrics = "precision", replicates = 6)
  expect_identical(unname(attr(m1, "real_set")), unname(attr(m2, "real_set")))
  d <- prd_compare(prd_bind(m1, m2), baseline = "a")
  expect_identical(c(d$estimate, d$lower, d$upper), c(0, 0, 0))
  # prd_curve()'s sets are in canonical order already: the order is the identity
  x <- canonical_sets(prepare_samples(R, G))$real
  expect_identical(canonical_order(x), seq_len(nrow(x)))
})
