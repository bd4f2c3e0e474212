# The validity suite (bench/validity.R): its truths against closed forms and
# independent computations, and a fast subset of its grid (d = 256, n =
# 1,000) against the bounds it reports.

test_that("the shifted and anisotropic truths are the closed form with delta = s", {
  sc <- validity_scenarios(16, which = c("shift_axis_0.5", "shift_random_2",
                                         "aniso_1", "aniso_2"), angles = 101)
  models <- c(sc[[1]]$models, sc[[2]]$models)
  delta <- c(shift_axis_0.5 = 0.5, shift_random_2 = 2, aniso_1 = 1, aniso_2 = 2)
  for (m in names(delta)) {
    tr <- models[[m]]$truth
    inner <- tr$lambda > 0 & is.finite(tr$lambda)
    expect_equal(curve_detail(tr, "delta"), delta[[m]], tolerance = 1e-12)
    expect_equal(tr$precision[inner], shift_alpha(tr$lambda[inner], delta[[m]]),
                 tolerance = 1e-12)
  }
  # Mahalanobis distance of the anisotropic mean, by brute force
  set.seed(3)
  x <- models$aniso_2$sample(40000)
  s <- sc[[2]]$real(40000)
  mu <- colMeans(x) - colMeans(s)
  v <- apply(s, 2, var)
  expect_equal(sqrt(sum(mu^2 / v)), 2, tolerance = 0.1)
  # the sampler's shift is the truth's (every loop value its own)
  set.seed(4)
  x <- models$shift_axis_0.5$sample(40000)
  expect_equal(mean(x[, 1]), 0.5, tolerance = 0.05)
  expect_equal(sqrt(sum(colMeans(models$shift_random_2$sample(40000))^2)), 2,
               tolerance = 0.03)
})

test_that("the radial truths equal the chi-square closed form and full-dimensional Monte Carlo", {
  d <- 16
  sc <- validity_scenarios(d, which = c("var_1.2", "outliers", "student_t"),
                           truth_n = 2e5, angles = 41)
  models <- sc[[1]]$models
  # variance inflation s = 1.2: log q - log p = -d log s + r2 (1 - 1 / s^2) / 2,
  # r2 ~ chi2_d under P and s^2 chi2_d under Q
  s <- 1.2
  tr <- models$var_1.2$truth
  inner <- tr$lambda > 0 & is.finite(tr$lambda)
  lam <- tr$lambda[inner]
  cut <- (log(lam) + d * log(s)) * 2 / (1 - 1 / s^2)
  exact <- lam * pchisq(cut, d, lower.tail = FALSE) + pchisq(cut / s^2, d)
  expect_equal(tr$precision[inner], pmin(exact, pmin(lam, 1)), tolerance = 0.01)
  expect_lt(abs(summary(tr)$auc - 0.6694), 0.005)
  # outliers and Student t: prd_truth() in all 16 dimensions, with the
  # scenario's own sampler and independently written log-densities
  mix <- gaussian_mixture(rbind(rep(0, d), rep(0, d)), sd = c(1, 3),
                          weights = c(0.95, 0.05))
  nu <- 5
  sc2 <- sqrt((nu - 2) / nu)
  log_t <- function(x) {
    r2 <- rowSums(x^2)
    lgamma((nu + d) / 2) - lgamma(nu / 2) - d / 2 * log(nu * pi) - d * log(sc2) -
      (nu + d) / 2 * log1p(r2 / (nu * sc2^2))
  }
  log_p <- function(x) colSums(dnorm(t(x), log = TRUE))
  real <- function(n) matrix(rnorm(n * d), n, d)
  set.seed(5)
  full <- list(
    outliers = prd_truth(log_p, mix$log_density, real, models$outliers$sample,
                         n = 2e4, angles = 41),
    student_t = prd_truth(log_p, log_t, real, models$student_t$sample,
                          n = 2e4, angles = 41))
  for (m in names(full)) {
    expect_lt(max(abs(full[[m]]$precision - models[[m]]$truth$precision)), 0.02)
    expect_lt(abs(summary(full[[m]])$auc - models[[m]]$truth_auc), 0.01)
  }
})

test_that("the mixture and collapse truths", {
  sc <- validity_scenarios(16, which = c("collapse", "drop_1"), angles = 41)
  collapse <- sc[[1]]$models$collapse
  # 20 atoms against a continuous P: mutually singular, the origin
  expect_equal(summary(collapse$truth)$auc, 0)
  expect_equal(nrow(unique(collapse$sample(200))), 20)
  # one of four modes 4 apart dropped: exact quadrature against Monte Carlo
  drop <- sc[[2]]$models$drop_1
  set.seed(6)
  mu <- c(0, 4, 8, 12) / 4  # / sqrt(16)
  centres <- outer(mu, rep(1, 16))
  mc <- prd_truth(gaussian_mixture(centres),
                  gaussian_mixture(centres, weights = c(1, 1, 1, 0)),
                  n = 4e4, angles = 41)
  expect_lt(max(abs(mc$precision - drop$truth$precision)), 0.02)
  # its maximal precision is 1 and recall 3/4 up to the modes' overlap
  expect_equal(summary(drop$truth)$max_precision, 1)
  expect_gt(drop$truth$recall[2], 0.74)
})

# The fast subset: d = 256, n = 1,000 per set, the models Q = P, mean
# shifts 1 and 2 along e_1 and variance inflation 1.2 (true AUC 1, 0.68,
# 0.26, 0.007), every family in one call.
fast_subset <- local({
  cache <- NULL
  function() {
    if (is.null(cache)) {
      sc <- validity_scenarios(256, which = c("same", "shift_axis_1",
                                              "shift_axis_2", "var_1.2"),
                               truth_n = 1e5)[[1]]
      set.seed(16)
      real <- sc$real(1000)
      gens <- lapply(sc$models, function(m) m$sample(1000))
      caught <- list()
      cv <- withCallingHandlers(prd_curve(real, gens, method = curve_methods()),
                                warning = function(w) {
                                  caught[[length(caught) + 1L]] <<- w
                                  invokeRestart("muffleWarning")
                                })
      s <- summary(cv)
      s$truth <- vapply(s$model, function(m) sc$models[[m]]$truth_auc, 0)
      cache <<- list(curve = cv, summary = s, warnings = caught, sc = sc,
                     real = real, gens = gens)
    }
    cache
  }
})

test_that("fast subset: the AUC errors and IoU the suite reports", {
  skip_on_cran()
  fs <- fast_subset()
  s <- fs$summary
  err <- s$auc - s$truth
  # the neighbour families are far above the truth for the noisy model
  # (the failure the suite measures): knn and coverage near 1 against 0.007
  noisy <- s$model == "var_1.2"
  expect_true(all(s$auc[noisy & s$method %in% c("knn", "coverage")] > 0.9))
  # the quadratic family sees the change of dispersion
  expect_lt(abs(err[noisy & s$method == "quadratic"]), 0.05)
  # the combined curve: within 0.05 where its best family is, and never
  # far above the lowest family
  tight <- s[s$method == "tightest", ]
  # (among its families: the opt-in ones, as the mixture family, can lie
  # lower)
  fams <- prd_curve_info(fs$curve)$details[[which(prd_curve_info(fs$curve)$method == "tightest")[1]]]$families
  lowest <- vapply(tight$model, function(m) min(s$auc[s$model == m & s$method %in% fams]), 0)
  # (the lowest family is itself noisy, often below the truth: over seeds
  # 1-7 and 16 of this fixture the default read up to 0.101 above it, on
  # the shift of 1 where smooth_marginal read 0.03-0.06 below the truth;
  # a loose family, knn or coverage, would be 0.2-0.3 above)
  expect_true(all(tight$auc <= lowest + 0.12))
  expect_lt(abs(tight$auc[tight$model == "var_1.2"] - tight$truth[tight$model == "var_1.2"]), 0.05)
  expect_lt(abs(tight$auc[tight$model == "same"] - 1), 0.05)
  # at this size (n = 1,000; the issue's bound of 0.05 is for n = 5,000)
  # the suite measures up to 0.13 on average over repeats and 0.16 in one
  # draw (mean shift 1, a curve above the truth: each family is read on
  # halves of 250 evaluation rows)
  expect_true(all(abs(tight$auc - tight$truth) < 0.2))
  expect_true(all(tight$auc > tight$truth - 0.05))
  # IoU with the true curve, as the suite computes it
  iou <- prd_iou(fs$curve[fs$curve$model == "same", ], fs$sc$models$same$truth)
  expect_true(all(iou > 0.9))
})

test_that("fast subset: folds = 10 (the default) fits on more rows and comes closer on the mean shifts than one fit", {
  skip_on_cran()
  fs <- fast_subset()
  # one fixed split (rows 501 to 1,000 evaluated), with and without folds
  sp <- list(real = 501:1000, generated = 501:1000)
  run <- function(...) {
    set.seed(1)
    cv <- quiet_traps(prd_curve(fs$real, fs$gens,
                                method = c("linear", "quadratic", "tightest"),
                                split = sp, ...))
    s <- summary(cv)
    s$err <- s$auc - vapply(s$model, function(m) fs$sc$models[[m]]$truth_auc, 0)
    list(curve = cv, s = s)
  }
  one <- run(folds = 1)$s
  kf <- run(folds = 10)
  s <- kf$s
  shifts <- c("shift_axis_1", "shift_axis_2")
  total <- function(tab, f) sum(tab$err[tab$model %in% shifts & tab$method == f])
  # 500 + 450 fit rows per set instead of 500: the two shifts' errors of
  # "linear" sum to 0.130 against 0.149 (7 draws of this kind: 0.019 to
  # 0.081 lower), those of "quadratic" to 0.134 against 0.157 (those of
  # "tightest", which chooses among five families on halves of 500 rows,
  # to 0.140 against 0.133 on this draw; over the suite's draws at this
  # size its mean error is 0.025 with 10 folds, 0.043 with one fit)
  expect_lt(total(s, "linear"), total(one, "linear") - 0.01)
  expect_lt(total(s, "quadratic"), total(one, "quadratic") - 0.01)
  # still above the truth on the shifts, and close where it was
  expect_true(all(s$err[s$model %in% shifts] > -0.03))
  expect_lt(abs(s$err[s$model == "var_1.2" & s$method == "tightest"]), 0.05)
  expect_lt(abs(s$err[s$model == "same" & s$method == "tightest"]), 0.05)
  # the fit: 500 fit rows and 500 - 50 evaluation rows per set
  info <- prd_curve_info(kf$curve)
  expect_equal(unique(info$n_fit_real), 500 + 500 - 50)
  expect_true(all(vapply(info$details, `[[`, NA, "cross_fit")))
})

test_that("fast subset: the combined curve ranks the models as the truth", {
  skip_on_cran()
  s <- fast_subset()$summary
  for (f in "tightest") {
    sf <- s[s$method == f, ]
    expect_equal(sf$model[order(-sf$auc)], sf$model[order(-sf$truth)])
  }
})

test_that("fast subset: no AUC above 0.5 where the truth is below 0.05 without the warning", {
  skip_on_cran()
  fs <- fast_subset()
  s <- fs$summary
  high <- s[s$truth < 0.05 & s$auc > 0.5, ]
  expect_gt(nrow(high), 0)  # knn and coverage on the noisy model
  for (m in unique(high$model)) {
    expect_true(any(vapply(fs$warnings, function(w) {
      inherits(w, "prdcurve_warning_family_disagreement") &&
        grepl(m, conditionMessage(w), fixed = TRUE)
    }, logical(1))), label = paste("a family_disagreement warning for", m))
  }
})

# ---- the numbers NEWS.md and the validity vignette quote from the shipped
# validity suite (inst/extdata/validity.csv.gz, bench/validity.R): a run that
# changes them must change the text too.

validity_rows <- function(kind) {
  v <- utils::read.csv(system.file("extdata", "validity.csv.gz", package = "prdcurve"),
                       stringsAsFactors = FALSE)
  v[v$kind == kind, ]
}

test_that("the default's quoted errors and targets are the shipped grid's", {
  acc <- validity_rows("accuracy")
  tight <- acc[acc$method == "tightest" & acc$statistic == "auc", ]
  # 16 scenarios at 5 dimensions for every n
  expect_equal(as.vector(table(tight$n_real)), c(80L, 80L, 80L))
  mean_err <- tapply(tight$mean_abs_error, tight$n_real, mean)
  # "mean |AUC error| 0.049, 0.019, 0.009 at 1,000, 5,000, 20,000 points
  # per set" (NEWS.md, 0.6.11)
  expect_equal(round(as.vector(mean_err[c("1000", "5000", "20000")]), 3),
               c(0.049, 0.019, 0.009))
  # "Q = P itself then reads 1 at every d with 5,000 and 20,000 points per
  # set, and at d = 64 and 256 with 1,000"
  qp <- tight[tight$scenario == "same", ]
  ones <- qp$estimate == 1
  expect_true(all(ones[qp$n_real == 5000]))
  expect_true(all(ones[qp$n_real == 20000]))
  expect_setequal(qp$d[qp$n_real == 1000 & ones], c(64, 256))
  # the target met in 79 of 80 scenarios at n = 1,000, every one above
  # (bench/results.md, NEWS.md 0.6.11)
  met <- tapply(tight$target_met, tight$n_real, sum)
  expect_equal(as.vector(met[c("1000", "5000", "20000")]), c(79L, 80L, 80L))
  expect_setequal(tight$scenario[tight$n_real == 1000 & !tight$target_met],
                  "student_t")
  # every family of the grid has its rows at every n
  expect_true(all(table(acc$method, acc$n_real) == 80L))
})

test_that("the default's quoted interval coverage is the shipped coverage part's", {
  cov <- validity_rows("coverage")
  tight <- cov[cov$method == "tightest", ]
  pooled <- vapply(c("auc", "max_recall"), function(s) {
    z <- tight[tight$statistic == s, ]
    sum(round(z$coverage_own * z$count)) / sum(z$count)
  }, numeric(1))
  # "cover the mean estimate in 88% of the draws (AUC), 85% (max_recall)"
  expect_equal(round(100 * unname(pooled)), c(88, 85))
  expect_equal(sort(unique(tight$count)), 40L)
})
