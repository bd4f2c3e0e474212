# The prd_curve class: one validating constructor, settings that survive
# binding and subsetting, several models and several k in one call.

set.seed(41)
real <- matrix(rnorm(80 * 3), ncol = 3)
gen_a <- matrix(rnorm(70 * 3, mean = 0.3), ncol = 3)
gen_b <- matrix(rnorm(60 * 3, mean = 1), ncol = 3)

test_that("the constructor validates and builds the end rows", {
  lam <- c(0.5, 1, 2)
  cv <- prdcurve:::new_prd_curve(lam, c(0.4, 0.6, 0.7), c(0.8, 0.6, 0.35),
                                 max_precision = 0.8, max_recall = 0.9,
                                 method = "x")
  expect_s3_class(cv, "prd_curve")
  expect_equal(cv$lambda, c(0, lam, Inf))
  expect_equal(cv$precision, c(0, 0.4, 0.6, 0.7, 0.8))
  expect_equal(cv$recall, c(0.9, 0.8, 0.6, 0.35, 0))
  bad <- list(
    list(c(1, 0.5, 2), c(0.4, 0.6, 0.7), c(0.8, 0.6, 0.35)),  # not increasing
    list(lam, c(0.4, 1.2, 0.7), c(0.8, 0.6, 0.35)),           # > 1
    list(lam, c(0.4, NA, 0.7), c(0.8, 0.6, 0.35)),            # NA
    list(c(0, 1, 2), c(0.4, 0.6, 0.7), c(0.8, 0.6, 0.35)),    # lambda 0 inside
    list(lam, c(0.4, 0.6), c(0.8, 0.6, 0.35))                 # lengths
  )
  for (b in bad) {
    expect_error(prdcurve:::new_prd_curve(b[[1]], b[[2]], b[[3]], 0.8, 0.9,
                                          method = "x"),
                 class = "prdcurve_error_curve")
  }
  expect_error(prd_iou(data.frame(method = "a", lambda = c(0, 1),
                                  precision = c(0, Inf), recall = c(1, 0)),
                       prd_discrete(1, 1)),
               class = "prdcurve_error_curve")
  expect_error(prd_iou(data.frame(method = "a", lambda = c(0, 1),
                                  precision = c("0", "1"), recall = c(1, 0)),
                       prd_discrete(1, 1)),
               class = "prdcurve_error_curve")
})

test_that("rbind(), bind_rows() and subsetting keep every curve's settings", {
  set.seed(1)
  est <- prd_curve(real, gen_a, method = c("knn", "kde"), k = 6, angles = 11)
  truth <- prd_truth_gaussian(rep(0, 3), c(0.3, 0.3, 0.3), angles = 11)
  both <- rbind(est, truth)
  info <- prd_curve_info(both)
  expect_equal(info$method, c("knn", "kde", "truth"))
  expect_equal(info$source, c("prd_curve", "prd_curve", "prd_truth_gaussian"))
  expect_equal(info$k, c(6L, 6L, NA))
  expect_true(is.na(info$bandwidth_real[1]) && info$bandwidth_real[2] > 0)
  expect_equal(info$details[[3]]$delta, sqrt(3 * 0.09))
  # the header prints each curve's own settings
  head <- tibble::tbl_sum(both)
  expect_match(head[["truth"]], "prd_truth_gaussian; delta = 0.52")
  expect_match(head[["generated / knn / k = 6"]], "split 0.5")
  skip_if_not_installed("dplyr")
  b2 <- dplyr::bind_rows(est, truth)
  expect_s3_class(b2, "prd_curve")
  expect_identical(prd_curve_info(b2), info)
  # subsetting keeps only the curves present
  sub <- both[both$method == "kde", ]
  expect_s3_class(sub, "prd_curve")
  expect_equal(prd_curve_info(sub)$method, "kde")
  f <- dplyr::filter(both, method != "kde")
  expect_equal(prd_curve_info(f)$method, c("knn", "truth"))
  # summaries of bound and grouped curves keep one row per curve
  s <- summary(dplyr::bind_rows(a = est, b = est, .id = "run"))
  expect_equal(nrow(s), 4)
  expect_equal(s$run, c("a", "a", "b", "b"))
  g <- summary(dplyr::group_by(both, method))
  expect_s3_class(g, "tbl_df")
  expect_equal(nrow(g), 3)
})

test_that("several models in one call equal separate calls, with a model column", {
  quiet_traps({
    set.seed(7)
    one <- prd_curve(real, gen_a, method = c("knn", "coverage"), k = 5,
                     angles = 21)
    set.seed(7)
    two <- prd_curve(real, list(a = gen_a, b = gen_b),
                     method = c("knn", "coverage"), k = 5, angles = 21)
    expect_equal(unique(two$model), c("a", "b"))
    expect_equal(unique(one$model), "generated")
    expect_identical(two$precision[two$model == "a"], one$precision)
    expect_identical(two$recall[two$model == "a"], one$recall)
    # the real split is shared by both models
    info <- prd_curve_info(two)
    expect_equal(unique(info$n_eval_real), 40L)
    expect_equal(info$n_fit_generated, c(35L, 35L, 30L, 30L))
    # a grouped data frame gives the same curves
    skip_if_not_installed("dplyr")
    df <- rbind(data.frame(model = "a", gen_a), data.frame(model = "b", gen_b))
    set.seed(7)
    grouped <- prd_curve(real, dplyr::group_by(df, model),
                         method = c("knn", "coverage"), k = 5, angles = 21)
    expect_identical(grouped$precision, two$precision)
    # both sets filtered from one table: the real set's own value of the
    # grouping column ("real") is no feature either
    set.seed(7)
    one_table <- prd_curve(data.frame(source = "real", real),
                           dplyr::group_by(dplyr::rename(df, source = model), source),
                           method = c("knn", "coverage"), k = 5, angles = 21)
    expect_identical(one_table$precision, two$precision)
    s <- summary(two)
    expect_equal(nrow(s), 4)
    expect_equal(s$model, c("a", "a", "b", "b"))
    # the manifold and entropy metrics too
    m <- manifold_metrics(real, list(a = gen_a, b = gen_b),
                          metrics = c("precision", "recall"))
    expect_equal(m$value[m$model == "b"],
                 manifold_metrics(real, gen_b,
                                  metrics = c("precision", "recall"))$value)
    e <- entropy_metrics(real, list(a = gen_a, b = gen_b), subsample = FALSE)
    expect_equal(e$value[e$model == "a"], entropy_metrics(real, gen_a, subsample = FALSE)$value)
    expect_error(prd_curve(real, list(a = gen_a, a = gen_b), method = c("knn", "kde", "ipr", "coverage")),
                 class = "prdcurve_error_model")
  })
})

test_that("several k: one curve per k, equal to separate calls", {
  for (m in c("knn", "kde", "ipr", "coverage")) {
    set.seed(3)
    both <- prd_curve(real, gen_a, method = m, k = c(8, 4), angles = 21)
    expect_equal(unique(both$k), c(4L, 8L))
    for (k in c(4, 8)) {
      set.seed(3)
      one <- prd_curve(real, gen_a, method = m, k = k, angles = 21)
      expect_identical(both$precision[both$k == k], one$precision)
    }
  }
})

test_that("prd_bind relabels models of estimates and methods of other curves", {
  set.seed(2)
  a <- prd_curve(real, gen_a, method = "knn", k = 5, angles = 11)
  b <- prd_curve(real, gen_b, method = "knn", k = 5, angles = 11)
  ab <- prd_bind(good = a, bad = b, truth = prd_discrete(1, 1, angles = 11))
  expect_equal(unique(ab$model), c("good", "bad", NA))
  expect_equal(unique(ab$method), c("knn", "truth"))
  expect_equal(prd_curve_info(ab)$model, c("good", "bad", NA))
  expect_error(prd_bind(a, a), class = "prdcurve_error_curve")
  expect_equal(names(prd_iou(ab[!is.na(ab$model), ], prd_discrete(1, 1))),
               c("good/knn", "bad/knn"))
  # a call of two models under one name: "<name> <model>" for each
  set.seed(2)
  two <- prd_curve(real, list(m1 = gen_a, m2 = gen_b), method = "knn", k = 5,
                   angles = 11)
  run <- prd_bind(run1 = two, run2 = b)
  expect_equal(unique(run$model), c("run1 m1", "run1 m2", "run2"))
  info <- prd_curve_info(run)
  expect_equal(info$model, c("run1 m1", "run1 m2", "run2"))
  expect_identical(run$precision[run$model == "run1 m2"],
                   two$precision[two$model == "m2"])
  expect_identical(info$n_eval_generated[1:2],
                   prd_curve_info(two)$n_eval_generated)
})

test_that("rbind() refuses two calls' curves under one label, and binds parts of one curve", {
  set.seed(2)
  a <- prd_curve(real, gen_a, method = "knn", k = 5, angles = 11)
  b <- prd_curve(real, gen_b, method = "knn", k = 5, angles = 11)
  e <- expect_error(rbind(a, b), class = "prdcurve_error_curve")
  expect_match(conditionMessage(e), "generated/knn/k=5")
  expect_match(conditionMessage(e), "prd_bind(a = curve1, b = curve2)",
               fixed = TRUE)
  # the parts of one curve bind back to it
  half <- seq_len(nrow(a)) <= nrow(a) / 2
  back <- rbind(a[half, ], a[!half, ])
  expect_identical(back$precision, a$precision)
  expect_identical(prd_curve_info(back), prd_curve_info(a))
  # curves of other labels bind as before
  sq <- prd_discrete(1, 1, angles = 11)
  expect_equal(nrow(rbind(a, sq)), nrow(a) + nrow(sq))
})

test_that("the fingerprints of the real set and its draws are settings of each curve", {
  set.seed(3)
  two <- prd_curve(real, list(a = gen_a, b = gen_b), method = c("knn", "kde"),
                   k = 5, angles = 11, replicates = 2)
  truth <- prd_truth_gaussian(rep(0, 3), c(0.3, 0.3, 0.3), angles = 11)
  info <- prd_curve_info(prd_bind(two, truth = truth))
  # one value for every curve of one call; NA for a curve of another source
  expect_length(unique(info$real_set[1:4]), 1L)
  expect_length(unique(info$real_draws[1:4]), 1L)
  expect_match(info$real_set[1:4], "^[0-9a-f]{32}$")
  expect_match(info$real_draws[1:4], "^[0-9a-f]{32}$")
  expect_identical(info$real_set[5], NA_character_)
  expect_identical(info$real_draws[5], NA_character_)
  # they survive subsetting and binding
  sub <- two[two$model == "b" & two$method == "kde", ]
  expect_identical(prd_curve_info(sub)$real_set, info$real_set[1])
  expect_identical(prd_curve_info(rbind(sub, truth))$real_draws,
                   c(info$real_draws[1], NA))
})

test_that("curve_repeats() reads the number of splits averaged from the details", {
  set.seed(8)
  x <- matrix(rnorm(200), 100)
  y <- matrix(rnorm(200, 0.5), 100)
  cv <- prd_curve(x, y, method = "knn", k = 4, angles = 11, repeats = 3)
  expect_identical(curve_repeats(prd_curve_info(cv)), 3L)
  one <- prd_curve(x, y, method = "knn", k = 4, angles = 11, repeats = 1)
  expect_identical(curve_repeats(prd_curve_info(one)), 1L)
  # a table without details (a truth curve) averages nothing
  expect_identical(curve_repeats(prd_curve_info(prd_truth_gaussian(1, 2, 0.5, angles = 11))), 1L)
})
