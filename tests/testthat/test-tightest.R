# The choice of "tightest" among the families (R/tightest.R) on exact small
# cases: families whose curves are rectangles (max precision m, max recall
# c: alpha = min(m, lambda c)), different on each half of the evaluation
# rows and on all of them.

lambda <- lambda_grid(401)
rect <- function(m, c) {
  a <- pmin(m, lambda * c)
  list(precision = a, recall = pmin(a / lambda, 1), max_precision = m,
       max_recall = c)
}
halves <- list(1:60, 61:120)
# an envelope function reading `h1` on the first half, `h2` on the second,
# `all` on every row
fake <- function(h1, h2, all = h1) {
  function(ir = NULL, ig = NULL) {
    if (is.null(ir)) all else if (ir[1] == 1L) h1 else h2
  }
}
# (four bands, not tightest_bands: the cases below are drawn for four;
# prd_curve()'s default is checked in test-classifiers.R)
choose <- function(envs, ..., bands = 4L) {
  tightest_envelope(envs, halves, halves, lambda, bands = bands, ...)
}

test_that("each band takes the family with the least area there, read on every row when the halves agree", {
  # A = rect(0.5, 1) is lower above lambda = 1 (bands 3, 4), B = rect(1,
  # 0.5) below (bands 1, 2): together the rectangle (0.5, 0.5)
  A <- fake(rect(0.5, 1), rect(0.5, 1), rect(0.5, 0.9))
  B <- fake(rect(1, 0.5), rect(1, 0.5), rect(0.9, 0.5))
  r <- choose(list(A = A, B = B))
  expect_identical(r$choice, "bands")
  expect_identical(r$bands$first, c("B", "B", "A", "A"))
  expect_identical(r$bands$read, rep("all rows", 4))
  # read on every row: A's and B's curves there (0.9 instead of 1)
  expect_equal(r$precision, pmin(0.5, lambda * 0.5), tolerance = 1e-15)
  expect_identical(r$max_precision, 0.5)
  expect_equal(r$max_recall, 0.5, tolerance = 1e-15)
  expect_identical(r$chosen$first[c(1, length(r$chosen$first))], c("B", "A"))
  # the pointwise minimum of the families is the same here; the bands are
  # equal angles: band b holds the angles in [(b - 1), b) pi / 8
  th <- atan(lambda)
  for (b in 1:4) {
    inb <- th >= (b - 1) * pi / 8 & th < b * pi / 8
    expect_identical(range(lambda[inb]), c(r$bands$lambda_from[b], r$bands$lambda_to[b]))
  }
})

test_that("halves that disagree are read across; each extreme comes from one family", {
  # C is lower on half 1, D on half 2 (equal gaps, so equal penalties)
  C <- fake(rect(0.3, 0.3), rect(0.6, 0.6), rect(0.45, 0.45))
  D <- fake(rect(0.6, 0.6), rect(0.3, 0.3), rect(0.45, 0.45))
  r <- choose(list(C = C, D = D))
  expect_identical(r$bands$first, rep("C", 4))
  expect_identical(r$bands$second, rep("D", 4))
  expect_identical(r$bands$read, rep("halves", 4))
  # C read on half 2 and D read on half 1, averaged: both 0.6
  expect_equal(r$precision, rect(0.6, 0.6)$precision, tolerance = 1e-15)
  # the extremes: C (chosen on half 1) read on half 2, not a mean of two
  # families' readings
  E <- fake(rect(0.3, 0.3), rect(0.9, 0.9), rect(0.6, 0.6))
  F <- fake(rect(0.35, 0.35), rect(0.2, 0.2), rect(0.3, 0.3))
  r <- choose(list(E = E, F = F), penalty = 0)
  expect_identical(r$bands$first[4], "E")
  expect_identical(r$bands$second[4], "F")
  # (E on half 2: 0.9; the mean with F on half 1 would be 0.625)
  expect_identical(r$max_precision, 0.9)
  expect_identical(r$max_recall, 0.9)
  expect_identical(r$chosen$second[c(1, length(r$chosen$second))], c("E", "E"))
})

test_that("a family whose halves disagree is penalised by its gap", {
  # G reads 0.2 on half 1 and 0.9 on half 2; H reads 0.4 on both
  G <- fake(rect(0.2, 0.2), rect(0.9, 0.9), rect(0.55, 0.55))
  H <- fake(rect(0.4, 0.4), rect(0.4, 0.4), rect(0.42, 0.42))
  r <- choose(list(G = G, H = H))
  expect_identical(r$bands$first, rep("H", 4))
  expect_equal(r$precision, rect(0.42, 0.42)$precision, tolerance = 1e-15)
  # without the penalty half 1 takes G: read on half 2 (0.9), averaged
  # with H read on half 1 (0.4)
  r0 <- choose(list(G = G, H = H), penalty = 0)
  expect_identical(r0$bands$first, rep("G", 4))
  expect_equal(r0$precision, rect(0.65, 0.65)$precision, tolerance = 1e-15)
})

test_that("a family's registry weight of its noise replaces the penalty (the mixture's: 1, the spectral family's: 2)", {
  # G reads 0.30 on half 1 and 0.34 on half 2, H 0.36 on both: with two
  # families G's noise is half its gap (the median gap is the other half),
  # H's 0; areas scale as the square of the rectangles' side, so on half 1
  # G's penalised area is 0.09 + w 0.0128 and on half 2 0.1156 + w 0.0128,
  # H's 0.1296: weight 4 takes H on both halves, weight 1 G on both
  G <- fake(rect(0.30, 0.30), rect(0.34, 0.34), rect(0.32, 0.32))
  H <- fake(rect(0.36, 0.36), rect(0.36, 0.36), rect(0.36, 0.36))
  expect_identical(tightest_noise_weights(c("mixture", "spectral", "G", "knn")),
                   c(mixture = 1, spectral = 2, G = 4, knn = 4))
  r4 <- choose(list(G = G, H = H))
  expect_identical(r4$bands$first, rep("H", 4))
  expect_identical(r4$bands$second, rep("H", 4))
  r1 <- choose(list(mixture = G, H = H))
  expect_identical(r1$bands$first, rep("mixture", 4))
  expect_identical(r1$bands$second, rep("mixture", 4))
  expect_equal(r1$precision, rect(0.32, 0.32)$precision, tolerance = 1e-15)
  # weight 2: G's 0.09 + 0.0256 below H's 0.1296 on half 1, 0.1156 +
  # 0.0256 above it on half 2
  r2 <- choose(list(spectral = G, H = H))
  expect_identical(r2$bands$first, rep("spectral", 4))
  expect_identical(r2$bands$second, rep("H", 4))
  # `penalty` sets the weight of the families without their own
  expect_identical(choose(list(G = G, H = H), penalty = 1)$bands$first,
                   rep("G", 4))
  # any entry may declare its weight: a toy family with weight 1
  register_family("toy_weighted", "fitted", path = "rows",
                  fit = function(...) NULL, summary = "toy", reason = "toy",
                  noise_weight = 1)
  on.exit(unregister_family("toy_weighted"))
  expect_identical(choose(list(toy_weighted = G, H = H))$bands$first,
                   rep("toy_weighted", 4))
  expect_error(register_family("toy_bad", "fitted", path = "rows",
                               fit = function(...) NULL, summary = "toy",
                               reason = "toy", noise_weight = -1))
})

test_that("below min_rows a half, one family: agreed on every row, else half 1's choice read on half 2", {
  C <- fake(rect(0.3, 0.3), rect(0.6, 0.6), rect(0.45, 0.45))
  D <- fake(rect(0.6, 0.6), rect(0.3, 0.3), rect(0.45, 0.45))
  r <- choose(list(C = C, D = D), min_rows = 61)
  expect_identical(r$choice, "single")
  expect_identical(nrow(r$bands), 1L)
  expect_identical(r$bands$read, "half 2")
  expect_equal(r$precision, rect(0.6, 0.6)$precision, tolerance = 1e-15)
  expect_true(all(r$chosen$first == "C" & r$chosen$second == "C"))
  A <- fake(rect(0.5, 1), rect(0.5, 1), rect(0.5, 0.9))
  B <- fake(rect(1, 0.5), rect(1, 0.5), rect(0.9, 0.5))
  r <- choose(list(A = A, B = B), min_rows = 61)
  # one family for the whole curve (equal areas: the first), on every row
  expect_identical(r$bands$read, "all rows")
  expect_equal(r$precision, rect(0.5, 0.9)$precision, tolerance = 1e-15)
  # through prd_curve(): the detail, and the warning
  set.seed(2)
  x <- matrix(rnorm(80 * 3), 80)
  y <- matrix(rnorm(80 * 3, 0.5), 80)
  expect_warning(cv <- prd_curve(x, y, angles = 51),
                 class = "prdcurve_warning_small_sample")
  inf <- prd_curve_info(cv)$details[[1]]
  expect_identical(inf$choice, "single")
  # one band in each of the 5 splits averaged (fewer than 1,000 rows)
  expect_identical(inf$bands$split, 1:5)
  fam <- unique(inf$bands$first)
  expect_true(all(fam %in% inf$families))
  # the printed header says so, and which families the splits took
  expect_match(tibble::tbl_sum(cv)[[2]],
               paste0(if (length(fam) > 1L) "one family a split, " else
                 "one family, ", paste(fam, collapse = " or "),
                      " (too few evaluation rows"), fixed = TRUE)
})

test_that("with bands, the halves' common difference is no family's noise", {
  # every family but the stable L reads lower on half 1 (rows that favour
  # all of them): J's gap is the median one, so its noise is 0 and, lowest
  # on both halves, J is chosen; its raw gap would have lost to L
  J <- fake(rect(0.3, 0.3), rect(0.5, 0.5), rect(0.4, 0.4))
  K <- fake(rect(0.4, 0.4), rect(0.6, 0.6), rect(0.5, 0.5))
  L <- fake(rect(0.55, 0.55), rect(0.55, 0.55), rect(0.55, 0.55))
  r <- choose(list(J = J, K = K, L = L))
  expect_identical(r$bands$first, rep("J", 4))
  expect_identical(r$bands$second, rep("J", 4))
  expect_equal(r$precision, rect(0.4, 0.4)$precision, tolerance = 1e-15)
  # in mode "single" (few rows) the raw gap counts: L
  r1 <- choose(list(J = J, K = K, L = L), min_rows = 61)
  expect_identical(r1$bands$first, "L")
  expect_equal(r1$precision, rect(0.55, 0.55)$precision, tolerance = 1e-15)
})

test_that("a family saturated at the ceiling takes the largest noise of the unsaturated ones, not a free pass", {
  # S reads the ceiling alpha = min(1, lambda) (P = Q) on both halves: no
  # gap. T is tighter, 0.5 on half 1 and 0.7 on half 2; U's gap has the
  # other sign, so the median gap is S's 0 and the gaps count in full. A
  # rectangle (m, m) has m^2 of the ceiling's area in every band: T's
  # penalised areas 0.25 + 4 x 0.24 = 1.21 and 0.49 + 0.96 = 1.45 of the
  # ceiling's, U's 0.9025 + 4 x 0.34 and 0.5625 + 1.36, S's 1
  S <- fake(rect(1, 1), rect(1, 1), rect(1, 1))
  T <- fake(rect(0.5, 0.5), rect(0.7, 0.7), rect(0.6, 0.6))
  U <- fake(rect(0.95, 0.95), rect(0.75, 0.75), rect(0.85, 0.85))
  envs <- list(S = S, T = T, U = U)
  # without the saturation rule the zero gap wins every band: the ceiling,
  # AUC 1
  r0 <- choose(envs, saturation = Inf)
  expect_identical(r0$bands$first, rep("S", 4))
  expect_identical(r0$bands$second, rep("S", 4))
  expect_equal(envelope_auc(lambda, r0), 1, tolerance = 1e-12)
  # with it S is charged the largest noise of the unsaturated T and U,
  # U's 0.34 (1 + 1.36 > 1.21 and 1.45): T on both halves, read on every
  # row
  r <- choose(envs)
  expect_identical(r$bands$first, rep("T", 4))
  expect_identical(r$bands$second, rep("T", 4))
  expect_equal(r$precision, rect(0.6, 0.6)$precision, tolerance = 1e-15)
  expect_equal(envelope_auc(lambda, r), 0.36, tolerance = 1e-12)
  # the saturated bands: at least `saturation` of the ceiling's area on
  # both halves; a family at 0.99 of it (0.995^2) is saturated at 0.98,
  # not at 0.995
  th <- atan(lambda)
  band <- pmin(4L, 1L + floor(4 * th / (pi / 2)))
  ceil <- vapply(1:4, function(b) {
    a <- pmin(1, lambda[band == b])
    sum(a^2 + pmin(a / lambda[band == b], 1)^2)
  }, numeric(1)) * (th[2] - th[1]) / 2
  area <- list(cbind(ceil, 0.99 * ceil, 0.25 * ceil),
               cbind(ceil, 0.99 * ceil, 0.49 * ceil))
  sat <- tightest_saturated(area, lambda, band, 4L, th[2] - th[1], 0.98)
  expect_identical(unname(sat), cbind(rep(TRUE, 4), rep(TRUE, 4), rep(FALSE, 4)))
  sat <- tightest_saturated(area, lambda, band, 4L, th[2] - th[1], 0.995)
  expect_identical(unname(sat), cbind(rep(TRUE, 4), rep(FALSE, 4), rep(FALSE, 4)))
  # when every family is saturated (Q = P) the noises stay, as without the
  # rule: V (0.990 and 0.984 of the ceiling's area, gap 0.006 less the
  # median 0.003) loses to S on half 1 (0.990 + 4 x 0.003 > 1) and wins
  # on half 2 (0.984 + 0.012 < 1)
  # (margin = 0: V's AUC 0.99^2 = 0.9801 would meet the ceiling rule,
  # tested below)
  V <- fake(rect(0.995, 0.995), rect(0.992, 0.992), rect(0.99, 0.99))
  r1 <- choose(list(S = S, V = V), margin = 0)
  expect_identical(r1$bands$first, rep("S", 4))
  expect_identical(r1$bands$second, rep("V", 4))
  expect_identical(r1[c("precision", "bands")],
                   choose(list(S = S, V = V), saturation = Inf,
                          margin = 0)[c("precision", "bands")])
})

test_that("where every family reads within the ceiling rule's margin, the curve is the ceiling", {
  # 120 evaluation rows a set: 3 log(120) / 120 = 0.120 > the margin 0.02,
  # so every family must read an AUC of at least 0.98; a rectangle (m, c)
  # has AUC m c
  # (up to h = 1,050 the margin binds: 3 log(1000) / 1000 = 0.0207)
  expect_equal(tightest_ceiling_auc(120, 120), 0.98)
  expect_equal(tightest_ceiling_auc(1000, 1000), 0.98)
  expect_equal(tightest_ceiling_auc(400, 1600), 0.98)
  expect_equal(tightest_ceiling_auc(5000, 5000), 1 - 3 * log(5000) / 5000)
  expect_equal(tightest_ceiling_auc(1000, 1000, margin = 0), 1)
  A <- fake(rect(0.97, 0.97), rect(1, 1), rect(0.991, 0.991))
  B <- fake(rect(1, 0.95), rect(0.96, 1), rect(0.99, 0.99))
  r <- choose(list(A = A, B = B))
  expect_identical(r$choice, "ceiling")
  expect_identical(r$precision, pmin(lambda, 1))
  expect_identical(r$recall, pmin(pmin(lambda, 1) / lambda, 1))
  expect_identical(c(r$max_precision, r$max_recall), c(1, 1))
  expect_equal(envelope_auc(lambda, r), 1, tolerance = 1e-12)
  expect_identical(r$bands$read, rep("ceiling", 4))
  expect_true(all(is.na(c(r$bands$first, r$chosen$second))))
  expect_equal(unname(r$family_auc), c(0.991^2, 0.99^2), tolerance = 1e-12)
  # one family below: the choice (B's 0.9801 against 0.98 passes, 0.979
  # does not)
  B2 <- fake(rect(1, 0.95), rect(0.96, 1), rect(0.989, 0.99))
  r2 <- choose(list(A = A, B = B2))
  expect_identical(r2$choice, "bands")
  expect_lt(envelope_auc(lambda, r2), 0.995)
  # without the rule (margin 0), or with one family, the choice
  expect_identical(choose(list(A = A, B = B), margin = 0)$choice, "bands")
  expect_equal(choose(list(A = A))$precision, rect(0.991, 0.991)$precision,
               tolerance = 1e-15)
})

test_that("at Q = P prd_curve() reads the ceiling and its header says so", {
  # 1,200 evaluation rows a set: the rule needs every family at 0.98 or more
  set.seed(3)
  x <- matrix(rnorm(2400 * 3), 2400)
  y <- matrix(rnorm(2400 * 3), 2400)
  cv <- prd_curve(x, y, angles = 51)
  inf <- prd_curve_info(cv)$details[[1]]
  expect_identical(inf$choice, "ceiling")
  expect_true(all(inf$family_auc >= 0.98))
  expect_equal(cv$precision, pmin(cv$lambda, 1))
  expect_match(tibble::tbl_sum(cv)[[2]], "at the ceiling: no family tells",
               fixed = TRUE)
  # a shift of 0.5 is told apart: the banded choice, no such words
  y2 <- y + 0.5
  cv2 <- prd_curve(x, y2, angles = 51)
  expect_identical(prd_curve_info(cv2)$details[[1]]$choice, "bands")
  expect_false(grepl("ceiling", tibble::tbl_sum(cv2)[[2]]))
})

test_that("a data-blind score reads the ceiling rule's law: mean AUC 1 - log(h) / h, 1% below the threshold", {
  # independent uniform scores: what every cross-fitted family's score
  # is at Q = P; h the harmonic mean of the evaluation rows
  set.seed(5)
  for (n in list(c(1000, 1000), c(400, 1600))) {
    auc <- replicate(300, envelope_auc(lambda, curve_from_scores(
      stats::runif(n[1]), stats::runif(n[2]), lambda)))
    h <- 2 / (1 / n[1] + 1 / n[2])
    expect_gt(mean(1 - auc) / (log(h) / h), 0.9)
    expect_lt(mean(1 - auc) / (log(h) / h), 1.1)
    # (the threshold with no margin, the rule's level)
    expect_gte(mean(auc >= tightest_ceiling_auc(n[1], n[2], margin = 1)), 0.97)
    expect_lt(mean(auc >= 1 - log(h) / h), 0.75)
  }
})

test_that("tightest with no default family that fits the half-samples is a classed error", {
  # 5 generated rows, split = 0 (folds of 2) and replicates (halves of 1):
  # every default family needs 2 fit rows; a fuzz case crashed here with
  # an unclassed "missing value where TRUE/FALSE needed"
  set.seed(1)
  real <- matrix(rnorm(40), 10)
  gen <- matrix(rnorm(20), 5)
  err <- expect_error(suppressWarnings(
    prd_curve(real, gen, method = c("marginal", "tightest"), angles = 14, k = 2,
              split = 0, replicates = 3)),
    class = "prdcurve_error_replicates")
  expect_match(conditionMessage(err), "no family that fits on 1 row per set",
               fixed = TRUE)
  # without the replicates the folds hold 2 rows: the families that fit them
  cv <- suppressWarnings(prd_curve(real, gen, method = "tightest", angles = 14,
                                   k = 2, split = 0))
  fams <- prd_curve_info(cv)$details[[1]]$families
  expect_true(length(fams) >= 1L && !"stacked" %in% fams)
  expect_true(all(vapply(fams, function(f) prdcurve:::family_entry(f)$min_fit_rows,
                         1L) <= 2L))
})

test_that("categories one set lacks bound the default's extremes, exactly", {
  # the real set holds category "c" in 1 of 4 rows, the generated set
  # never; the generated set holds "d" in 1 of 5 rows of a second column,
  # the real set never (100 copies of each row)
  rep100 <- function(df) df[rep(seq_len(nrow(df)), 100), , drop = FALSE]
  real <- rep100(data.frame(g = c("a", "b", "c", "a"), h = c("u", "u", "v", "v")))
  gen <- rep100(data.frame(g = c("a", "b", "a", "b", "a"), h = c("u", "v", "d", "u", "v")))
  sets <- suppressMessages(suppressWarnings(prepare_samples(real, gen)))
  b <- category_bounds(sets$real, sets$generated[[1]])
  # 1 - share plus two standard errors of the share
  up <- function(p, n) 1 - p + 2 * sqrt(p * (1 - p) / n)
  expect_equal(b, c(max_precision = up(1 / 5, 500), max_recall = up(1 / 4, 400)),
               tolerance = 1e-15)
  # a row in two missing categories counts once
  real2 <- rep100(data.frame(g = c("a", "c", "c", "a"), h = c("u", "w", "v", "v")))
  sets2 <- suppressMessages(suppressWarnings(prepare_samples(real2, gen)))
  expect_equal(category_bounds(sets2$real, sets2$generated[[1]])[["max_recall"]],
               up(2 / 4, 400), tolerance = 1e-15)
  # a share within two of its standard errors of 0: no bound
  real3 <- data.frame(g = c("c", rep("a", 9)))
  sets3 <- suppressMessages(suppressWarnings(
    prepare_samples(real3, data.frame(g = rep("a", 10)), allow_constant = TRUE)))
  expect_identical(category_bounds(sets3$real, sets3$generated[[1]])[["max_recall"]], 1)
  # a set too small to show a category at the other's share: no bound
  # (1 of 4 real rows in "c": 3 generated rows would show 0.75 of one)
  small <- suppressMessages(suppressWarnings(
    prepare_samples(real, gen[c(1, 2, 4), , drop = FALSE])))
  expect_identical(category_bounds(small$real, small$generated[[1]])[["max_recall"]], 1)
  # from 12 generated rows (3 expected) it counts
  g12 <- suppressMessages(suppressWarnings(prepare_samples(real, gen[1:12, ])))
  expect_lt(category_bounds(g12$real, g12$generated[[1]])[["max_recall"]], 1)
  # no category, or none missing: no bound
  x <- matrix(rnorm(20), 10)
  expect_identical(category_bounds(x, x), c(max_precision = 1, max_recall = 1))
  expect_identical(category_bounds(sets$real, sets$real),
                   c(max_precision = 1, max_recall = 1))
  # the bounded curve: the minimum, still a PR curve
  lambda <- lambda_grid(101)
  a <- pmin(1, lambda) * 0.9
  env <- list(precision = a, recall = pmin(a / lambda, 1), max_precision = 0.9,
              max_recall = 0.9)
  out <- bound_curve(env, c(max_precision = 0.8, max_recall = 0.75), lambda)
  expect_identical(out$precision, pmin(a, lambda * 0.75, 0.8))
  expect_identical(c(out$max_precision, out$max_recall), c(0.8, 0.75))
  expect_true(all(diff(out$precision) >= 0))
  expect_true(all(diff(out$precision / lambda) <= 1e-15))
  expect_identical(bound_curve(env, c(max_precision = 1, max_recall = 1), lambda), env)
})

test_that("a model that drops a category: the default's max_recall within the real share left", {
  set.seed(12)
  n <- 1500
  mk <- function(n, levels, p) {
    data.frame(x = rnorm(n), y = rnorm(n),
               g = sample(levels, n, TRUE, prob = p))
  }
  real <- mk(n, c("a", "b", "c"), c(0.4, 0.4, 0.2))
  gen <- mk(n, c("a", "b"), c(0.5, 0.5))
  set.seed(3)
  cv <- suppressMessages(suppressWarnings(
    prd_curve(real, gen, method = c("tightest", "knn"))))
  s <- summary(cv)
  det <- prd_curve_info(cv)$details[[1]]
  share_c <- mean(real$g == "c")
  bound <- 1 - share_c + 2 * sqrt(share_c * (1 - share_c) / n)
  expect_equal(det$category_bounds[["max_recall"]], bound, tolerance = 1e-14)
  expect_identical(det$category_bounds[["max_precision"]], 1)
  tight <- cv[cv$method == "tightest", ]
  expect_lte(s$max_recall[s$method == "tightest"], bound)
  expect_true(all(tight$recall <= bound + 1e-12))
  # the true curve: P = 0.8 (the law of the generated set) + 0.2 category
  # c, so max_recall is 0.8; the default within 0.03 of it
  expect_lt(abs(s$max_recall[s$method == "tightest"] - 0.8), 0.03)
  # the families' own readings are left as they are
  nb <- cv[cv$method == "knn", ]
  expect_gt(max(nb$recall), bound)
  # the same with the columns scaled and with half-sample replicates,
  # whose sets no longer carry their encoding
  set.seed(3)
  cs <- suppressMessages(suppressWarnings(
    prd_curve(real, gen, standardize = "real", replicates = 4)))
  expect_equal(prd_curve_info(cs)$details[[1]]$category_bounds[["max_recall"]],
               bound, tolerance = 1e-14)
  expect_lte(summary(cs)$max_recall_upper, bound + 0.03)
})
