# Tests of R/curve-estimates.R.

test_that("tightest warns when its halves hold few evaluation rows, once a call", {
  set.seed(3)
  r <- matrix(rnorm(120 * 4), ncol = 4)
  g <- matrix(rnorm(120 * 4), ncol = 4)
  # split 0.5: 60 evaluation rows a set, halves of 30
  w <- expect_warning(prd_curve(r, g), class = "prdcurve_warning_small_sample")
  expect_match(cli::ansi_strip(conditionMessage(w)), "here 30 rows of a set",
               fixed = TRUE)
  # the half-sample replicates do not repeat it
  expect_identical(warning_classes(prd_curve(r, g, replicates = 4)),
                   "prdcurve_warning_small_sample")
  # one family alone, or halves of 50 rows (200 rows a set): no warning
  expect_identical(warning_classes(prd_curve(r, g, method = "knn")), character())
  r2 <- matrix(rnorm(200 * 4), ncol = 4)
  g2 <- matrix(rnorm(200 * 4), ncol = 4)
  expect_identical(warning_classes(prd_curve(r2, g2)), character())
  expect_identical(warning_classes(prd_curve(r2, g2[1:199, ])),
                   "prdcurve_warning_small_sample")
})

test_that("scores are density ratios: a = b = 0 points sit at 1 on the normalised scale", {
  # unequal fit sizes and a kde bandwidth small enough to leave points with
  # no fit point of either set in their windows (a = b = 0)
  set.seed(112)
  real <- in_canonical_order(matrix(rnorm(60 * 2), ncol = 2))
  generated <- in_canonical_order(matrix(rnorm(24 * 2, mean = 0.7), ncol = 2))
  set.seed(5)
  cv <- prd_curve(real, generated, method = "kde", bandwidth = 0.25,
                  split = 0.5, angles = 201, repeats = 1)
  set.seed(5)
  s <- prdcurve:::resolve_split(0.5, 60, 24)
  ev <- brute_evidence(real, generated, "kde", 3, s$fit, s$eval,
                       sigma = 0.25)
  expect_gt(sum(ev$a == 0 & ev$b == 0), 0)
  ix <- seq_len(ev$n_real)
  lam <- prdcurve:::lambda_grid(201)
  norm <- brute_envelope(ev$a[ix], ev$b[ix], ev$a[-ix], ev$b[-ix], lam,
                         30, 12)
  raw <- brute_envelope(ev$a[ix], ev$b[ix], ev$a[-ix], ev$b[-ix], lam, 1, 1)
  got <- cv$precision[2:202]
  expect_equal(got, pmin(norm$alpha, 1), tolerance = 1e-12)
  # the normalisation changes this curve (it would not with equal sizes)
  expect_gt(max(abs(pmin(raw$alpha, 1) - got)), 0.05)
  # equal ratios stay tied: (b n_xf) / (a n_yf) of integers
  expect_identical(prdcurve:::evidence_score(2, 3, 30, 12),
                   prdcurve:::evidence_score(4, 6, 30, 12))
  expect_identical(prdcurve:::evidence_score(0, 0, 30, 12), 1)
  expect_identical(prdcurve:::evidence_score(0, 2, 30, 12), Inf)
})

test_that("on digits (226 vs 134 fit points) the normalisation moves the kde curve", {
  quiet_traps({
    pixels <- as.matrix(digits[, 1:64])
    storage.mode(pixels) <- "double"
    lab <- digits$digit
    set.seed(8)
    real <- pixels[lab %in% 0:4, ][sample(sum(lab %in% 0:4), 452), ]
    gen <- pixels[lab %in% 0:2, ][sample(sum(lab %in% 0:2), 268), ]
    set.seed(9)
    cv <- prd_curve(real, gen, method = "kde", angles = 101)
    info <- prd_curve_info(cv)
    expect_equal(c(info$n_fit_real, info$n_fit_generated), c(226L, 134L))
    set.seed(9)
    s <- prdcurve:::resolve_split(0.5, 452, 268)
    nb <- prdcurve:::engine_neighbours(real, gen, s, info$k, "kde",
                                       bandwidth_k = info$k)
    a <- nb$kde_a[, 1]
    b <- nb$kde_b[, 1]
    ix <- seq_len(226)
    lam <- prdcurve:::lambda_grid(101)
    raw <- prdcurve:::curve_from_evidence(a[ix], b[ix], a[-ix], b[-ix], lam)
    moved <- max(abs(raw$precision - cv$precision[2:102]))
    # measured 0.0013 for this draw and split (0.0195 on another draw)
    expect_gt(moved, 1e-4)
    expect_lt(moved, 0.1)
  })
})

test_that("the *_samples() functions share the real split between models", {
  set.seed(2)
  real <- matrix(rnorm(60 * 2), ncol = 2)
  gens <- list(a = matrix(rnorm(50 * 2), ncol = 2),
               b = matrix(rnorm(50 * 2, 1), ncol = 2))
  set.seed(3)
  ms <- manifold_samples(real, gens, k = 3, split = 0.5)
  rows_a <- ms$row[ms$model == "a" & ms$set == "real"]
  rows_b <- ms$row[ms$model == "b" & ms$set == "real"]
  expect_identical(rows_a, rows_b)
  # and the same split as manifold_metrics() draws (paired models)
  set.seed(3)
  sp <- resolve_model_splits(0.5, real, gens, canonical = TRUE)
  expect_identical(unique(rows_a), sp$a$eval[[1]])
  expect_identical(sp$a$eval[[1]], sp$b$eval[[1]])
  set.seed(3)
  es <- entropy_samples(real, gens, k = 3, split = 0.5)
  expect_identical(unique(es$row[es$model == "a" & es$set == "real"]),
                   unique(es$row[es$model == "b" & es$set == "real"]))
  # precision per model equals the metric with the same split
  for (m in names(gens)) {
    g <- ms[ms$model == m & ms$set == "generated", ]
    set.seed(3)
    v <- manifold_metrics(real, gens, k = 3, split = 0.5,
                          metrics = "precision")
    expect_identical(mean(g$in_manifold), v$value[v$model == m])
  }
})

test_that("a kde bandwidth is blind when more than 99% of each set's rows share a pair of empty or full balls", {
  sizes <- c(fit_real = 10, fit_generated = 8, eval_real = 100,
             eval_generated = 200)
  blind <- function(a, b, self = FALSE, sz = sizes) {
    kde_blind_balls(list(a = matrix(a), b = matrix(b)), 100L, sz, self = self)
  }
  # 99 of 100 real rows with both balls empty: not more than 99%
  a <- c(3, rep(0, 99), rep(0, 200))
  b <- rep(0, 300)
  expect_null(blind(a, b))
  res <- blind(replace(a, 1, 0), b)
  expect_identical(res$balls, c(real = "empty", generated = "empty"))
  expect_identical(c(res$rows, res$total), c(300L, 300L))
  # both full; one of each
  expect_identical(blind(rep(10, 300), rep(8, 300))$balls,
                   c(real = "full", generated = "full"))
  expect_identical(blind(rep(0, 300), rep(8, 300))$balls,
                   c(real = "empty", generated = "full"))
  # each set's rows alone: two well apart clusters, each ball full of its
  # own set and empty of the other, tell the sets apart (not blind)
  expect_null(blind(c(rep(10, 100), rep(0, 200)), c(rep(0, 100), rep(8, 200))))
  # one set's rows alone blind: not blind
  expect_null(blind(c(rep(3, 100), rep(0, 200)), rep(0, 300)))
  # without a split a row is its own fit row: a count of 1 in its own set
  # is an empty ball, and full is every other fit row
  sz0 <- c(fit_real = 100, fit_generated = 200, eval_real = 100,
           eval_generated = 200)
  self_a <- c(rep(1, 100), rep(0, 200))
  self_b <- c(rep(0, 100), rep(1, 200))
  expect_identical(blind(self_a, self_b, self = TRUE, sz = sz0)$balls,
                   c(real = "empty", generated = "empty"))
  expect_null(blind(self_a, self_b, self = FALSE, sz = sz0))
  expect_identical(blind(rep(100, 300), rep(200, 300), self = TRUE,
                         sz = sz0)$balls, c(real = "full", generated = "full"))
})

test_that("a model's curves do not depend on the other models of its size or their order", {
  set.seed(2)
  x <- matrix(rnorm(600 * 4), ncol = 4)
  a <- matrix(rnorm(600 * 4, 0.3), ncol = 4)
  b <- matrix(rnorm(600 * 4, sd = 1.6), ncol = 4)
  run <- function(gens, ...) {
    set.seed(11)
    cv <- quiet_traps(prd_curve(x, gens, k = 5, ...))
    list(cv = cv, after = .Random.seed)
  }
  for (repeats in 1:2) {
    ab <- run(list(a = a, b = b), repeats = repeats)
    ba <- run(list(b = b, a = a), repeats = repeats)
    alone <- list(a = run(list(a = a), repeats = repeats),
                  b = run(list(b = b), repeats = repeats))
    for (m in c("a", "b")) {
      expect_identical(ab$cv$precision[ab$cv$model == m],
                       alone[[m]]$cv$precision)
      expect_identical(ba$cv$precision[ba$cv$model == m],
                       alone[[m]]$cv$precision)
    }
    # R's stream is left as the first model alone leaves it
    expect_identical(ab$after, alone$a$after)
    expect_identical(ba$after, alone$b$after)
  }
  # the default's fitted families draw (folds, halves): the two models'
  # curves differ, and their families are there
  expect_gt(abs(summary(alone$a$cv)$auc - summary(alone$b$cv)$auc), 0.02)
  fams <- prd_curve_info(alone$b$cv)$details[[1]]$families
  expect_true(all(c("quadratic", "stacked", "smooth_marginal") %in% fams))
  # the same with fitted families alone, one split, no k; and a model of
  # another size first: the second's curves are those of a call after one
  # of that size (its partition and draws start where the first's did)
  c3 <- a[1:450, ]
  fit <- function(gens) {
    set.seed(4)
    prd_curve(x, gens, method = c("stacked", "smooth_marginal"))
  }
  two <- fit(list(a = a, b = b))
  expect_identical(two$precision[two$model == "b"], fit(list(b = b))$precision)
  three <- fit(list(c = c3, b = b, a = a))
  cb <- fit(list(c = c3, b = b))
  expect_identical(three$precision[three$model == "b"],
                   cb$precision[cb$model == "b"])
  # the intervals too: each half-sample's call leaves R's stream as its
  # first model does, so the next pair's draws follow
  iv <- function(gens) {
    set.seed(3)
    cv <- prd_curve(x[1:300, ], gens, method = c("knn", "stacked"), k = 5,
                    replicates = 4, repeats = 1)
    sm <- summary(cv, conf_level = 0.9)
    as.data.frame(sm[sm$model == "b", c("method", "auc", "auc_lower", "auc_upper")])
  }
  ab <- list(a = a[1:300, ], b = b[1:300, ])
  expect_identical(iv(ab), iv(rev(ab)))
  expect_identical(iv(ab), iv(ab["b"]))
})
