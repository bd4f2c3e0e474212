# Tests of R/crossfit.R.

test_that("split = 0 cross-fits: no row is scored by a classifier fitted on it", {
  s <- two_sets(30, 3, seed = 5)
  lambda <- lambda_grid(15)
  for (meth in c("linear", "quadratic")) {
    set.seed(11)
    cv <- prd_curve(s$x, s$y, method = meth, split = 0, angles = 15,
                    folds = 2)
    set.seed(11)
    px <- sample.int(30)
    py <- sample.int(30)
    folds <- list(list(sort(px[1:15]), sort(px[-(1:15)])),
                  list(sort(py[1:15]), sort(py[-(1:15)])))
    bf <- if (meth == "linear") brute_linear_scores else brute_quadratic_scores
    sr <- numeric(30)
    sg <- numeric(30)
    for (v in 1:2) {
      fx <- folds[[1]][[3 - v]]
      fy <- folds[[2]][[3 - v]]
      ex <- folds[[1]][[v]]
      ey <- folds[[2]][[v]]
      expect_length(intersect(fx, ex), 0)
      sc <- bf(s$x[fx, ], s$y[fy, ], rbind(s$x[ex, ], s$y[ey, ]))
      sr[ex] <- sc[seq_along(ex)]
      sg[ey] <- sc[-seq_along(ex)]
    }
    expect_curve_equal(cv, brute_score_curve(sr, sg, lambda))
    inf <- prd_curve_info(cv)
    expect_true(inf$details[[1]]$cross_fit)
    expect_equal(inf$n_fit_real, 15L)
  }
  # scored in-sample, a quadratic classifier with d close to n overfits
  # and puts P = Q far below the true curve (AUC 1); cross-fitted it stays
  # an upper bound
  set.seed(2)
  x <- matrix(rnorm(120 * 40), 120)
  y <- matrix(rnorm(120 * 40), 120)
  p <- cov_parts(x, y)
  f <- fit_quadratic(p)
  insample <- brute_score_curve(f$score(x), f$score(y), lambda_grid(101))
  auc_in <- curve_stats(insample$lambda, insample$precision,
                        insample$recall)[["auc"]]
  cv <- prd_curve(x, y, method = "quadratic", split = 0, angles = 101,
                  folds = 2)
  expect_lt(auc_in, 0.8)
  expect_gt(summary(cv)$auc, 0.85)
})

test_that("folds = K cross-fits the evaluation rows: each fold fitted on the fit rows and the other folds", {
  s <- two_sets(60, 3, seed = 6)
  lambda <- lambda_grid(15)
  # explicit evaluation rows (no RNG for the split): rows 21..60 of each set
  ev <- list(real = 21:60, generated = 21:60)
  for (meth in c("linear", "quadratic")) {
    set.seed(12)
    cv <- prd_curve(s$x, s$y, method = meth, split = ev, folds = 3,
                    angles = 15)
    set.seed(12)
    # three folds of the 40 evaluation positions: cut at 13 and 26
    fold_of <- function(perm) {
      list(sort(perm[1:13]), sort(perm[14:26]), sort(perm[27:40]))
    }
    fx <- fold_of(sample.int(40))
    fy <- fold_of(sample.int(40))
    bf <- brute_quadratic_scores
    sr <- numeric(40)
    sg <- numeric(40)
    for (v in 1:3) {
      ex <- ev$real[fx[[v]]]
      ey <- ev$generated[fy[[v]]]
      # the fit rows and the evaluation rows of the other two folds
      rx <- c(1:20, ev$real[-fx[[v]]])
      ry <- c(1:20, ev$generated[-fy[[v]]])
      expect_length(intersect(rx, ex), 0)
      expect_length(rx, 20 + 40 - length(ex))
      z <- rbind(s$x[ex, ], s$y[ey, ])
      sc <- if (meth == "linear") {
        brute_fold_linear_scores(s$x[1:20, ], s$y[1:20, ], s$x[rx, ],
                                 s$y[ry, ], z)
      } else {
        bf(s$x[rx, ], s$y[ry, ], z)
      }
      sr[fx[[v]]] <- sc[seq_along(ex)]
      sg[fy[[v]]] <- sc[-seq_along(ex)]
    }
    expect_curve_equal(cv, brute_score_curve(sr, sg, lambda))
    inf <- prd_curve_info(cv)
    expect_true(inf$details[[1]]$cross_fit)
    expect_identical(inf$details[[1]]$folds, 3L)
    # the smallest fit: 20 fit rows and 40 - 14 evaluation rows
    expect_equal(inf$n_fit_real, 46)
    expect_equal(inf$n_eval_real, 40L)
  }
  # the default is 10 folds, to the bit, with a split and without, where
  # the sets have fewer than d^2 fit rows (30 < 36 at d = 6) ...
  s6 <- two_sets(60, 6, seed = 6)
  for (sp0 in list(0.5, 0)) {
    set.seed(13)
    a <- prd_curve(s6$x, s6$y, method = "linear", split = sp0, angles = 15)
    set.seed(13)
    b <- prd_curve(s6$x, s6$y, method = "linear", split = sp0, folds = 10,
                   angles = 15)
    expect_identical(a, b)
    expect_identical(prd_curve_info(a)$details[[1]]$folds, 10L)
  }
  # ... and one fit on the fit rows, to the bit, with d^2 or more (30 >= 9
  # at d = 3; 36 >= 36 at d = 6 with 72 rows a set); without a split,
  # which leaves no fit rows, still 10 folds
  set.seed(13)
  a <- prd_curve(s$x, s$y, method = "linear", angles = 15)
  set.seed(13)
  b <- prd_curve(s$x, s$y, method = "linear", folds = 1, angles = 15)
  expect_identical(a, b)
  expect_false(prd_curve_info(a)$details[[1]]$cross_fit)
  s72 <- two_sets(72, 6, seed = 6)
  set.seed(13)
  expect_false(prd_curve_info(prd_curve(s72$x, s72$y, method = "linear",
                                        angles = 15))$details[[1]]$cross_fit)
  set.seed(13)
  a <- prd_curve(s$x, s$y, method = "linear", split = 0, angles = 15)
  expect_identical(prd_curve_info(a)$details[[1]]$folds, 10L)
  # fewer on small sets (2 evaluation rows a fold), also in the half-samples
  # (whose fit rows are halved too: 15 < 36 at d = 6)
  set.seed(13)
  small <- quiet_traps(prd_curve(s6$x[1:12, ], s6$y[1:12, ],
                                 method = "linear", angles = 15))
  expect_identical(prd_curve_info(small)$details[[1]]$folds, 3L)
  expect_equal(prd_curve_info(small)$n_fit_real, 10)
  set.seed(13)
  rep4 <- prd_curve(s6$x, s6$y, method = "linear", replicates = 4,
                    angles = 15)
  expect_identical(prd_curve_info(rep4)$details[[1]]$folds, 7L)
  # one evaluation row a set with a split: one fit on the fit rows
  one_fit <- quiet_traps(prd_curve(s$x[1:5, ], s$y[1:5, ],
                                   method = "linear", angles = 15,
                                   split = list(real = 5, generated = 5)))
  expect_false(prd_curve_info(one_fit)$details[[1]]$cross_fit)
  expect_null(prd_curve_info(one_fit)$details[[1]]$folds)
  # ... and folds = 3 without a split scores every row out of fold
  set.seed(14)
  c3 <- prd_curve(s$x, s$y, method = "linear", split = 0, folds = 3,
                  angles = 15)
  set.seed(14)
  fx <- list(sort((p <- sample.int(60))[1:20]), sort(p[21:40]), sort(p[41:60]))
  fy <- list(sort((p <- sample.int(60))[1:20]), sort(p[21:40]), sort(p[41:60]))
  sr <- sg <- numeric(60)
  for (v in 1:3) {
    sc <- brute_linear_scores(s$x[-fx[[v]], ], s$y[-fy[[v]], ],
                              rbind(s$x[fx[[v]], ], s$y[fy[[v]], ]))
    sr[fx[[v]]] <- sc[1:20]
    sg[fy[[v]]] <- sc[-(1:20)]
  }
  expect_curve_equal(c3, brute_score_curve(sr, sg, lambda))
  expect_equal(prd_curve_info(c3)$n_fit_real, 40)
})

test_that("long fits say so in interactive sessions, not inside replicates", {
  rlang::local_interactive(TRUE)
  set.seed(8)
  # (2,500 + 2,500) rows x 2,000 columns: the 1e7 values of a long fit
  x <- matrix(rnorm(2500 * 2000), 2500)
  y <- matrix(rnorm(2500 * 2000), 2500)
  sp <- new_split(list(1:1250, 1:1250), list(1251:2500, 1251:2500), 0.5)
  # the step and its closing line ("v Fitting ... [time]"), both captured
  msg <- cli::ansi_strip(capture_messages(fitted_scores(x, y, sp, "linear")))
  expect_identical(sum(grepl("Fitting \"linear\"", msg, fixed = TRUE)), 2L)
  # one step per stage: the families of the cells path one by one, then
  # the others together, each closed with its time
  # (in folds, 5,000 rows of 1,000 columns are a long fit)
  msg <- cli::ansi_strip(capture_messages(
    fitted_scores(x[, 1:1000], y[, 1:1000], sp, c("linear", "smooth_marginal"),
                  folds = 4)))
  expect_identical(sum(grepl("Fitting \"smooth_marginal\" in 4 folds", msg,
                             fixed = TRUE)), 2L)
  expect_identical(sum(grepl("Fitting \"linear\" in 4 folds", msg,
                             fixed = TRUE)), 2L)
  expect_true(all(grepl("Fitting", msg[nzchar(trimws(msg))], fixed = TRUE)))
  # a small fit, inside the replicates, or with the option off: silent
  expect_no_message(fitted_scores(x[1:400, 1:50], y[1:400, 1:50],
                                  new_split(list(1:200, 1:200),
                                            list(201:400, 201:400), 0.5),
                                  "linear"))
  prdcurve:::local_run_state(in_replicates = TRUE)
  expect_no_message(fitted_scores(x, y, sp, "linear"))
  prdcurve:::local_run_state(in_replicates = FALSE)
  # (nor inside repeated splits, whose bar stands for the steps)
  prdcurve:::local_run_state(in_splits = TRUE)
  expect_no_message(fitted_scores(x, y, sp, "linear"))
  prdcurve:::local_run_state(in_splits = FALSE)
  withr::local_options(prdcurve.progress = FALSE)
  expect_no_message(fitted_scores(x, y, sp, "linear"))
  # the threshold: 1e7 values, twice the rows in folds; 1e6 with the
  # mixture family's EM
  expect_true(long_fit("linear", 5000, 2000))
  expect_false(long_fit("linear", 5000, 1999))
  expect_true(long_fit("linear", 2500, 2000, folds = 10))
  expect_false(long_fit(c("knn", "quadratic"), 10000, 256))
  expect_true(long_fit(c("knn", "mixture"), 10000, 100))
  expect_false(long_fit(c("knn", "mixture"), 10000, 99))
  # the Gram form (d above half the rows): 900 + 900 rows of 2,048 columns
  # in 10 folds took 10 s, 400 + 400 about 2 s; one fit of 1,800 rows too
  expect_true(long_fit("quadratic", 1800, 2048, folds = 10))
  expect_true(long_fit("quadratic", 800, 2048, folds = 10))
  expect_false(long_fit("quadratic", 400, 2048, folds = 10))
  expect_true(long_fit("quadratic", 1800, 2048))
  expect_false(long_fit("quadratic", 1800, 512, folds = 10))
})

test_that("fits on large sets release the engine's scratch first, on small ones keep it", {
  set.seed(11)
  x <- matrix(rnorm(4000 * 32), 4000)
  y <- matrix(rnorm(4000 * 32), 4000)
  prd_curve(x, y, method = "knn")
  kept <- engine_scratch()
  expect_gt(kept, 2^20)
  # 256,000 values: below fit_collect_values, the scratch stays
  collect_between_fits(x, y, scratch = TRUE)
  expect_equal(engine_scratch(), kept)
  # a fit on the small sets leaves it too
  prd_curve(x, y, method = "quadratic")
  expect_equal(engine_scratch(), kept)
  # 2^22 values: released
  big <- matrix(0, 2^11, 2^10)
  collect_between_fits(big, big, scratch = TRUE)
  expect_equal(engine_scratch(), 0)
  # without `scratch` (between two fits) it is left as it is
  prd_curve(x, y, method = "knn")
  collect_between_fits(big, big)
  expect_equal(engine_scratch(), kept)
})

test_that("the fold moments serve the parts families up to 1.25 columns a fit row, with the Gram form's curves", {
  # 60 rows a set, split 0.5, 5 folds: 30 + 24 fit rows a set, 108 in
  # all, and 120 columns (1.11 a fit row): the fold moments, where the
  # rule of d at most the fit rows took the dual form fold by fold
  withr::local_options(prdcurve.check_inputs = FALSE) # (60 rows, 120 columns)
  set.seed(21)
  x <- matrix(rnorm(60 * 120), 60)
  y <- matrix(rnorm(60 * 120), 60)
  y[, 1:3] <- y[, 1:3] + 1.5
  one <- function(ratio) {
    prdcurve:::local_engine_knobs(fold_moments_ratio = ratio)
    set.seed(4)
    cv <- prd_curve(x, y, method = c("quadratic", "linear"), repeats = 1,
                    folds = 5)
    # (the fold moments cut each cell in random halves: the stream moves)
    list(cv = cv, next_draw = stats::runif(1))
  }
  a <- one(1.25)
  b <- one(1)
  expect_false(identical(a$next_draw, b$next_draw))
  # the quadratic family's fits are the same (here to the last bit); the
  # linear family, whose folds' shrinkage the moments give otherwise,
  # stays in the dual form
  expect_equal(a$cv$precision, b$cv$precision, tolerance = 1e-10)
  # (curves that tell the sets apart, not the ceiling)
  auc <- summary(a$cv)$auc
  expect_true(all(auc > 0.02 & auc < 0.95))
})

test_that("span_sets() gives the rows' coordinates in their span: the centred Gram matrix, d kept", {
  set.seed(31)
  x <- matrix(rnorm(20 * 90), 20) + 5
  y <- matrix(rnorm(25 * 90), 25) * 2
  fam <- lapply(c("quadratic", "marginal"), prdcurve:::family_entry)
  sp <- prdcurve:::span_sets(x, y, fam)
  # 45 centred rows span 44 directions
  expect_equal(ncol(sp[[1]]), 44L)
  expect_equal(c(nrow(sp[[1]]), nrow(sp[[2]])), c(20L, 25L))
  expect_identical(attr(sp[[1]], "ambient_dim"), 90L)
  Z <- rbind(x, y)
  C <- Z - rep(colMeans(Z), each = nrow(Z))
  expect_equal(tcrossprod(rbind(sp[[1]], sp[[2]])), tcrossprod(C),
               tolerance = 1e-12)
  # not where the rows are as many as the columns, without a span family,
  # or with the knob off
  expect_null(prdcurve:::span_sets(x[, 1:45], y[, 1:45], fam))
  expect_null(prdcurve:::span_sets(x, y, fam[2]))
  prdcurve:::local_engine_knobs(span = FALSE)
  expect_null(prdcurve:::span_sets(x, y, fam))
})

test_that("the span families fit on the rows' span with the scores of the rows, the dimension d kept", {
  # 60 and 70 rows of 300 columns: on the rows every fit of quadratic,
  # linear and stacked in the dual form; on the 129 coordinates of their
  # span quadratic and stacked take the fold moments (d = 129 in the
  # shrinkage would move the scores by far more)
  withr::local_options(prdcurve.check_inputs = FALSE)
  set.seed(3)
  x <- matrix(rnorm(60 * 300), 60)
  y <- matrix(rnorm(70 * 300) * 1.2, 70) + 0.3
  s <- prdcurve:::split_from_parts(prdcurve:::split_part(0.5, 60, "real", NULL),
                                   prdcurve:::split_part(0.5, 70, "generated", NULL),
                                   0.5)
  fams <- c("quadratic", "linear", "stacked", "smooth_marginal")
  has_ssyrk <- .Call(ffi_cell_moments, matrix(1, 2, 256), numeric(256), 1:2,
                     c(1L, 1L), 1L, NULL, TRUE)$single
  # moments: the fold moments on the rows too (their ratios raised), so
  # that both read the same path
  for (run in list(list(folds = 10L, moments = FALSE),
                   list(folds = 10L, moments = TRUE),
                   list(folds = NULL, moments = FALSE))) {
    one <- function(span, single = FALSE) {
      if (run$moments) {
        prdcurve:::local_engine_knobs(fold_moments_ratio = 10,
                                      stacked_moments_ratio = 10)
      }
      # (the rows' 300 columns would take the fold moments' products in
      # single precision, the span's 130 in double)
      prdcurve:::local_engine_knobs(span = span, single_moments = single)
      set.seed(1)
      prdcurve:::fitted_scores(x, y, s, fams, folds = run$folds)
    }
    a <- one(TRUE)
    b <- one(FALSE)
    if (run$moments) {
      # in single precision on the rows: the same scores to 1e-6
      b1 <- one(FALSE, single = TRUE)
      for (f in c("quadratic", "linear")) {
        s1 <- unlist(b1$scores[[f]])
        sb <- unlist(b$scores[[f]])
        expect_lt(max(abs(s1 - sb)) / max(abs(sb)), 1e-6)
        # (the linear discriminant is shrunk to the identity here: its
        # scores read only the traces, which stay in double)
        if (has_ssyrk && f == "quadratic") {
          expect_gt(max(abs(s1 - sb)) / max(abs(sb)), 0)
        }
      }
    }
    for (f in fams) {
      sa <- unlist(a$scores[[f]])
      sb <- unlist(b$scores[[f]])
      if (f == "smooth_marginal") {
        # (not a span family: on the rows either way)
        expect_identical(sa, sb)
      } else if (f == "stacked" && identical(run$folds, 10L) && !run$moments) {
        # the fold moments' inner discriminants predict the folds' norms
        # from the fit rows (fold_discriminants()), the dual form's are
        # exact: close, not equal
        expect_gt(stats::cor(sa, sb), 0.99)
        expect_gt(max(abs(sa - sb)) / max(abs(sb)), 1e-6)
      } else {
        expect_lt(max(abs(sa - sb)) / max(abs(sb)), 1e-12)
        expect_gt(stats::sd(sb), 1)
      }
    }
    expect_equal(a$details$quadratic, b$details$quadratic, tolerance = 1e-12)
  }
})

test_that("on the rows' span, equal rows keep equal coordinates: copies tie as on the rows", {
  # a generated set that copies 3 real rows, a real set with a repeated
  # row: their scores tie exactly, as on the rows (a step of 1/13 moved
  # when the copies' coordinates differed in the last bits)
  withr::local_options(prdcurve.check_inputs = FALSE)
  set.seed(5)
  x <- matrix(rnorm(13 * 310), 13)
  y <- matrix(rnorm(33 * 310) * 1.2, 33)
  y[1:3, ] <- x[1:3, ]
  x[13, ] <- x[1, ]
  fam <- list(prdcurve:::family_entry("quadratic"))
  sp <- prdcurve:::span_sets(x, y, fam)
  expect_identical(sp[[2]][1:3, ], sp[[1]][1:3, ])
  expect_identical(sp[[1]][13, ], sp[[1]][1, ])
  expect_identical(prdcurve:::first_copies(rbind(x, y)),
                   c(1:12, 1L, 1:3, 17:46))
  one <- function(span) {
    prdcurve:::local_engine_knobs(span = span)
    set.seed(7)
    prd_curve(x, y, method = "quadratic", split = 0, folds = 2, repeats = 1)
  }
  a <- one(TRUE)
  b <- one(FALSE)
  expect_equal(a$precision, b$precision, tolerance = 1e-12)
  expect_equal(a$recall, b$recall, tolerance = 1e-12)
})
