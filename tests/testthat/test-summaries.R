# summary.prd_curve() and prd_iou() on curves with closed-form answers:
# the square (P = Q) and rectangles (P, Q uniform on overlapping class sets).

# P uniform on classes 1..n_p, Q uniform on classes shift + 1..n_q: the PR set
# is the rectangle recall <= b = overlap / n_p, precision <= a = overlap / n_q.
rectangle <- function(n_p, n_q, shift = 0, angles = 1001) {
  n <- max(n_p, shift + n_q)
  p <- as.numeric(seq_len(n) <= n_p)
  q <- as.numeric(seq_len(n) > shift & seq_len(n) <= shift + n_q)
  prd_discrete(p, q, angles = angles)
}

test_that("auc of the square and of rectangles", {
  expect_equal(summary(prd_discrete(1, 1))$auc, 1, tolerance = 1e-4)
  expect_equal(summary(prd_discrete(c(1, 2), c(1, 2)))$auc, 1, tolerance = 1e-4)
  # disjoint supports: the PR set is empty
  expect_equal(summary(prd_discrete(c(1, 0), c(0, 1)))$auc, 0)
  for (cfg in list(c(5, 3, 0), c(5, 7, 2), c(4, 10, 0), c(6, 6, 3))) {
    r <- rectangle(cfg[1], cfg[2], cfg[3])
    ov <- min(cfg[1], cfg[3] + cfg[2]) - cfg[3]
    a <- ov / cfg[2]
    b <- ov / cfg[1]
    s <- summary(r)
    expect_equal(s$max_precision, a, tolerance = 1e-14)
    expect_equal(s$max_recall, b, tolerance = 1e-14)
    expect_equal(s$auc, a * b, tolerance = 1e-3)
  }
})

test_that("auc of the Gaussian truth is its polar area", {
  tr <- prd_truth_gaussian(0, 1, angles = 1001)
  th <- seq(1e-10, pi / 2 - 1e-10, length.out = 20001)
  t <- log(tan(th)) + 1 / 2
  alpha <- tan(th) * pnorm(t, lower.tail = FALSE) + pnorm(t - 1)
  rho2 <- alpha^2 * (1 + 1 / tan(th)^2)
  expect_equal(summary(tr)$auc, sum(diff(th) * (rho2[-1] + rho2[-20001]) / 4),
               tolerance = 1e-5)
})

test_that("F-beta scores of a rectangle are those of its corner", {
  fp <- function(a, r, b) (1 + b^2) * a * r / (b^2 * r + a)
  fr <- function(a, r, b) (1 + b^2) * a * r / (b^2 * a + r)
  for (cfg in list(c(5, 3, 0), c(5, 7, 2), c(4, 10, 0))) {
    r <- rectangle(cfg[1], cfg[2], cfg[3])
    ov <- min(cfg[1], cfg[3] + cfg[2]) - cfg[3]
    a <- ov / cfg[2]
    b <- ov / cfg[1]
    for (bt in c(8, 1, 0.5)) {
      s <- summary(r, beta = bt)
      expect_equal(s$f_beta_precision, fp(a, b, bt), tolerance = 1e-3)
      expect_equal(s$f_beta_recall, fr(a, b, bt), tolerance = 1e-3)
    }
    # beta -> Inf: f_beta_precision -> max precision, f_beta_recall -> max recall
    s <- summary(r, beta = 1e4)
    expect_equal(s$f_beta_precision, a, tolerance = 1e-3)
    expect_equal(s$f_beta_recall, b, tolerance = 1e-3)
  }
  s <- summary(prd_discrete(1, 1))
  expect_equal(c(s$f_beta_precision, s$f_beta_recall), c(1, 1), tolerance = 1e-5)
  expect_error(summary(prd_discrete(1, 1), beta = 0), "beta")
  expect_error(summary(prd_discrete(1, 1), epsilon = -1), "epsilon")
})

test_that("precision at recall and recall at precision on rectangles", {
  r <- rectangle(5, 3)          # a = 1, b = 3 / 5
  s <- summary(r)
  expect_equal(s$precision_at_recall, 1)
  expect_equal(s$recall_at_precision, 3 / 5, tolerance = 1e-14)
  expect_equal(summary(r, epsilon = 0.5)$precision_at_recall, 1)
  # recall 0.7 is never reached: precision 0 there
  expect_equal(summary(r, epsilon = 0.7)$precision_at_recall, 0)
  r2 <- rectangle(5, 7, 2)      # a = 3 / 7, b = 3 / 5
  s2 <- summary(r2, epsilon = 0.4)
  expect_equal(s2$precision_at_recall, 3 / 7, tolerance = 1e-14)
  expect_equal(s2$recall_at_precision, 3 / 5, tolerance = 1e-14)
  expect_equal(summary(r2, epsilon = 0.5)$recall_at_precision, 0)
})

test_that("the PR median of the square is lambda = 1, of a rectangle its corner", {
  s <- summary(prd_discrete(1, 1))
  expect_equal(s$median_lambda, 1, tolerance = 1e-9)
  expect_equal(c(s$median_precision, s$median_recall), c(1, 1), tolerance = 1e-9)
  # the diagonal halves a rectangle: lambda = a / b, at the corner (b, a)
  s <- summary(rectangle(5, 7, 2))
  expect_equal(s$median_lambda, (3 / 7) / (3 / 5), tolerance = 1e-3)
  expect_equal(s$median_precision, 3 / 7, tolerance = 1e-3)
  expect_equal(s$median_recall, 3 / 5, tolerance = 1e-3)
  # Gaussian truth: symmetric curve, so the median is at lambda = 1
  s <- summary(prd_truth_gaussian(0, 1.3))
  expect_equal(s$median_lambda, 1, tolerance = 1e-9)
  expect_equal(s$median_precision, 2 * pnorm(-1.3 / 2), tolerance = 1e-6)
})

test_that("summary has one row per method and the documented columns", {
  set.seed(1)
  real <- matrix(rnorm(100 * 2), ncol = 2)
  generated <- matrix(rnorm(100 * 2, mean = 0.5), ncol = 2)
  cv <- prd_curve(real, generated, method = c("knn", "ipr"), angles = 101)
  s <- summary(cv)
  expect_named(s, c("model", "method", "k", "auc", "max_precision", "max_recall",
                    "f_beta_precision", "f_beta_recall", "median_lambda",
                    "median_precision", "median_recall",
                    "precision_at_recall", "recall_at_precision"))
  expect_equal(s$method, c("knn", "ipr"))
  for (m in c("knn", "ipr")) {
    c1 <- cv[cv$method == m, ]
    expect_equal(s$max_precision[s$method == m], c1$precision[c1$lambda == Inf])
    expect_equal(s$max_recall[s$method == m], c1$recall[c1$lambda == 0])
  }
})

test_that("prd_iou: itself, nested and overlapping rectangles", {
  tr <- prd_truth_gaussian(0, 1)
  expect_equal(prd_iou(tr, tr), c(truth = 1))
  sq <- prd_discrete(1, 1)
  r1 <- rectangle(5, 3)        # 1 x 3/5
  r2 <- rectangle(5, 7, 2)     # 3/7 x 3/5, inside r1
  r3 <- rectangle(4, 10)       # 0.4 x 1
  expect_equal(unname(prd_iou(r1, r2)), (3 / 7) / 1, tolerance = 1e-3)
  expect_equal(unname(prd_iou(r2, r1)), (3 / 7) / 1, tolerance = 1e-3)
  expect_equal(unname(prd_iou(sq, r1)), 3 / 5, tolerance = 1e-3)
  expect_equal(unname(prd_iou(sq, r3)), 0.4, tolerance = 1e-3)
  # not nested: intersection 0.4 x 0.6, union 0.6 + 0.4 - 0.24
  expect_equal(unname(prd_iou(r1, r3)), 0.24 / 0.76, tolerance = 1e-3)
  # different grids are interpolated
  expect_equal(unname(prd_iou(rectangle(5, 3, angles = 501), sq)), 3 / 5,
               tolerance = 2e-3)
  expect_equal(unname(prd_iou(prd_discrete(c(1, 0), c(0, 1)), sq)), 0)
})

test_that("prd_iou matches each model's estimates with its own true curve", {
  with_model <- function(cv, model, method = NULL) {
    cv$model <- model
    if (!is.null(method)) cv$method <- method
    cv
  }
  r1 <- rectangle(5, 3)    # 1 x 3/5
  r2 <- rectangle(5, 7, 2) # 3/7 x 3/5, inside r1
  sq <- prd_discrete(1, 1)
  est <- rbind(with_model(r1, "a"), with_model(r2, "b"),
               with_model(r2, "a", "other"))
  truths <- rbind(with_model(sq, "a"), with_model(r1, "b"))
  iou <- prd_iou(est, truths)
  # a: r1 and r2 against the square (3/5, 3/7 x 3/5); b: r2 against r1
  # (it failed: "curve2 must have one curve or the same curves")
  expect_equal(unname(iou), c(3 / 5, 3 / 7, 9 / 35), tolerance = 1e-3)
  expect_length(iou, 3)
  # a model without its truth: an error that says what matches
  expect_error(prd_iou(est, rbind(with_model(sq, "a"), with_model(r1, "c"))),
               "one curve per model", class = "prdcurve_error_curve")
})

test_that("prd_iou matches methods by name", {
  set.seed(2)
  real <- matrix(rnorm(80 * 2), ncol = 2)
  generated <- matrix(rnorm(80 * 2, mean = 1), ncol = 2)
  set.seed(3)
  cv <- prd_curve(real, generated, method = c("knn", "coverage"), angles = 101)
  rev_cv <- cv[nrow(cv):1, ]
  expect_equal(prd_iou(cv, cv), c(knn = 1, coverage = 1))
  expect_equal(prd_iou(cv, rev_cv), c(knn = 1, coverage = 1))
  knn <- cv[cv$method == "knn", ]
  cov <- cv[cv$method == "coverage", ]
  cross <- prd_iou(knn, cov)[["knn"]]
  expect_lt(cross, 1)
  # a one-method curve2 is compared with every method of curve1
  expect_equal(prd_iou(cv, knn), c(knn = 1, coverage = cross))
  # same methods in another order: matched by name
  swapped <- rbind(cov, knn)
  expect_equal(prd_iou(cv, swapped), c(knn = 1, coverage = 1))
  ipr <- prd_curve(real, generated, method = c("knn", "ipr"), angles = 101)
  expect_error(prd_iou(cv, ipr), "curve2")
  expect_error(prd_iou(cv, data.frame(x = 1)), "curve2")
  expect_error(prd_iou(list(), cv), "curve1")
})

# ---- issue 18: auc as a polygon, compact prints, metric summaries -----------

test_that("auc is the area of the polygon through the points: exact for the square, at most 1", {
  # odd grids hold lambda = 1, the corner of the square
  for (angles in c(3, 11, 21, 101)) {
    expect_equal(summary(prd_discrete(1, 1, angles = angles))$auc, 1,
                 tolerance = 1e-14)
  }
  # the trapezoid rule on rho^2 gave 1.008 at 11 angles; the fan of
  # triangles never exceeds the unit square
  for (angles in c(4, 10, 20)) {
    a <- summary(prd_discrete(1, 1, angles = angles))$auc
    expect_lte(a, 1)
    expect_gt(a, 0.9)
  }
  # brute force: shoelace area of (0, 0) and the points in angle order
  tr <- prd_truth_gaussian(0, 1, angles = 31)
  o <- order(tr$lambda)
  x <- c(0, tr$recall[o])
  y <- c(0, tr$precision[o])
  shoelace <- abs(sum(x * c(y[-1], y[1]) - c(x[-1], x[1]) * y)) / 2
  expect_equal(summary(tr)$auc, shoelace, tolerance = 1e-12)
})

test_that("summary() of curves prints one column per curve, values with intervals", {
  set.seed(181)
  real <- matrix(rnorm(80 * 2), ncol = 2)
  models <- list(a = matrix(rnorm(160), ncol = 2),
                 b = matrix(rnorm(160, 1), ncol = 2))
  cv <- prd_curve(real, models, method = "knn", k = 3, angles = 21,
                  replicates = 4)
  s <- summary(cv)
  expect_s3_class(s, "prd_curve_summary")
  expect_s3_class(s, "tbl_df")
  f <- format(s)
  expect_equal(dim(f), c(10, 2))
  expect_equal(colnames(f), c("a/knn/k=3", "b/knn/k=3"))
  expect_equal(rownames(f), prdcurve:::curve_statistic_names)
  expect_equal(f["auc", "b/knn/k=3"],
               sprintf("%.3f [%.3f, %.3f]", s$auc[2], s$auc_lower[2],
                       s$auc_upper[2]))
  out <- capture.output(print(s))
  expect_match(out[1], "Summary of 2 PR curves (90% intervals", fixed = TRUE)
  # compact: no line wider than 80 characters for two curves
  expect_lte(max(nchar(out)), 80)
  # the intervals say what they cover: the table's 11 lines, the line that
  # says the rows are curves (`x["auc", ]` is no row), then the note
  expect_length(out, 1 + 11 + 1 + length(prdcurve:::curve_interval_note()))
  expect_match(out[13], "one row per curve, printed as columns (`$auc` is a column)",
               fixed = TRUE)
  note <- paste(out[-(1:13)], collapse = " ")
  expect_match(note, "cover this estimator's mean at these sample sizes, not the true curve",
               fixed = TRUE)
  expect_match(note, "max_precision and max_recall are rough", fixed = TRUE)
  expect_true(all(nchar(prdcurve:::curve_interval_note(width = 50)) <= 49))
  # a summary without the extremes does not speak of them
  out_auc <- capture.output(print(s[, c("model", "method", "auc", "auc_lower",
                                        "auc_upper")]))
  note_auc <- paste(out_auc[-(1:2)], collapse = " ")
  expect_match(note_auc, "not the true curve", fixed = TRUE)
  expect_no_match(note_auc, "max_precision", fixed = TRUE)
  # without replicates: values only, 2 decimals on request, no note
  s0 <- summary(prd_discrete(1, 1, angles = 11))
  f0 <- format(s0, digits = 2)
  expect_equal(unname(f0["auc", 1]), "1.00")
  expect_length(capture.output(print(s0)), 1 + 11 + 1)
})

test_that("summary() of a metrics table: models in columns, intervals at any level", {
  set.seed(182)
  real <- matrix(rnorm(80 * 2), ncol = 2)
  models <- list(a = matrix(rnorm(160), ncol = 2),
                 b = matrix(rnorm(160, 1), ncol = 2))
  m <- manifold_metrics(real, models, metrics = c("precision", "recall"),
                        k = c(2, 4), replicates = 4, conf_level = 0.8)
  s <- summary(m)
  expect_s3_class(s, "prd_metrics_summary")
  expect_equal(s$value, m$value)
  expect_equal(s$lower, m$lower)
  expect_equal(attr(s, "conf_level"), 0.8)
  s5 <- summary(m, conf_level = 0.5)
  expect_true(all(s5$upper - s5$lower <= m$upper - m$lower + 1e-12))
  f <- format(s)
  expect_equal(dim(f), c(4, 2))
  expect_equal(rownames(f), c("precision (k = 2)", "precision (k = 4)",
                              "recall (k = 2)", "recall (k = 4)"))
  i <- which(m$model == "b" & m$metric == "recall" & m$k == 4)
  expect_equal(f["recall (k = 4)", "b"],
               sprintf("%.3f [%.3f, %.3f]", m$value[i], m$lower[i], m$upper[i]))
  out <- capture.output(print(s))
  expect_match(out[1], "80% intervals", fixed = TRUE)
  # the table is printed in the metrics' rows; the tibble's are not those
  expect_identical(out[length(out)],
                   "# A tibble, one row per model, metric and k (`$value` is a column)")
  expect_error(summary(m, conf_level = 2), class = "prdcurve_error_input")
})

test_that("median_lambda's interval is taken on the angle scale", {
  # a noisy model: the kde curve has almost no area, and in some halves
  # the median ray is arbitrary (lambda up to tan(pi/2) = 1.6e16)
  set.seed(1)
  real <- matrix(rnorm(400 * 16), ncol = 16)
  noisy <- matrix(rnorm(400 * 16, sd = 2.5), ncol = 16)
  for (m in c("knn", "kde")) {
    # (one split: a draw whose kde median ray is undetermined on one)
    cv <- suppressWarnings(prd_curve(real, noisy, method = m, replicates = 10,
                                     repeats = 1))
    s <- summary(cv)
    long <- prdcurve:::replicate_statistics(cv)
    r <- long$replicates[long$replicates$statistic == "median_lambda", ]
    # by hand: the half-sample interval of atan(lambda) in [0, pi/2]
    z <- stats::qt(0.95, df = 5)
    pv <- prdcurve:::pair_variance(atan(r$value), r$replicate, long$divisor)
    th <- atan(s$median_lambda)
    lo <- max(0, th - z * sqrt(pv$v))
    hi <- min(pi / 2, th + z * sqrt(pv$v))
    expect_equal(pv$df, 5)
    expect_equal(s$median_lambda_lower, tan(lo))
    if (m == "knn") {
      expect_lt(hi, pi / 2)
      expect_equal(s$median_lambda_upper, tan(hi))
      expect_lt(s$median_lambda_upper, 1)
    } else {
      # undetermined: Inf, not the 1e16 of the lambda scale
      expect_gt(max(r$value), 1e15)
      expect_identical(hi, pi / 2)
      expect_identical(s$median_lambda_upper, Inf)
    }
  }
})

test_that("prd_compare(): a median_lambda difference with an arbitrary median ray is undetermined", {
  # (a draw where it happens on one split: seeds 4, 5 and 9 of 3-10)
  set.seed(4)
  real <- matrix(rnorm(400 * 16), ncol = 16)
  models <- list(good = matrix(rnorm(400 * 16), ncol = 16),
                 noisy = matrix(rnorm(400 * 16, sd = 2.5), ncol = 16))
  cv <- suppressWarnings(prd_curve(real, models, method = c("knn", "kde"),
                                   replicates = 10, repeats = 1))
  long <- prdcurve:::replicate_statistics(cv)$replicates
  cmp <- prd_compare(cv, baseline = "good")
  top <- function(m) {
    max(long$value[long$statistic == "median_lambda" & long$method == m])
  }
  # kde: a half of the noisy model has its median ray on the precision
  # axis (lambda 1.6e16): the difference is undetermined
  expect_gt(top("kde"), 1e15)
  row <- cmp[cmp$statistic == "median_lambda" & cmp$method == "kde", ]
  expect_identical(c(row$lower, row$upper), c(-Inf, Inf))
  # knn: every half's median ray is a finite one; the interval too
  expect_lt(top("knn"), 2)
  row <- cmp[cmp$statistic == "median_lambda" & cmp$method == "knn", ]
  expect_true(all(is.finite(c(row$lower, row$upper))))
  expect_true(row$lower < row$estimate && row$estimate < row$upper)
  expect_lt(row$upper, 0)
})

test_that("a curve with no area prints its median ray as undetermined", {
  set.seed(33)
  real <- matrix(rnorm(60 * 2), ncol = 2)
  far <- matrix(rnorm(60 * 2, mean = 50), ncol = 2)
  near <- matrix(rnorm(60 * 2, mean = 0.5), ncol = 2)
  s <- summary(prd_curve(real, list(far = far, near = near), method = "knn",
                         split = 0, angles = 21))
  # the value stays a number (tan of the last ray), the print says what it is
  expect_gt(s$median_lambda[1], 1e12)
  expect_lt(s$median_lambda[2], 1e3)
  f <- format(s)
  expect_identical(unname(f["median_lambda", 1]), "undetermined")
  expect_identical(unname(f["median_lambda", 2]),
                   formatC(s$median_lambda[2], format = "f", digits = 3))
  expect_identical(unname(f["auc", 1]), "0.000")
  out <- capture.output(print(s))
  expect_true(any(grepl("median_lambda +undetermined", out)))
  expect_false(any(grepl("e\\+|[0-9]{12}", out)))
})

test_that("prd_iou reads a single true curve of a model as that model's alone", {
  with_model <- function(cv, model) {
    cv$model <- model
    cv
  }
  r1 <- rectangle(5, 3)
  sq <- prd_discrete(1, 1)
  est <- rbind(with_model(r1, "a"), with_model(r1, "b"))
  # (it was compared with model b's curve too, silently)
  expect_error(prd_iou(est, with_model(sq, "a")), "one curve per model",
               class = "prdcurve_error_curve")
  expect_equal(unname(prd_iou(est[est$model == "a", ], with_model(sq, "a"))),
               3 / 5, tolerance = 1e-3)
  # a true curve without a model: every curve against it
  expect_equal(unname(prd_iou(est, sq)), c(3 / 5, 3 / 5), tolerance = 1e-3)
})
