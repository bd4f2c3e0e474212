# The numbers NEWS.md and the validity vignette quote from the shipped
# validity suite (inst/extdata/validity.csv, bench/validity.R): a run that
# changes them must change the text too.

validity_rows <- function(kind) {
  v <- utils::read.csv(system.file("extdata", "validity.csv", package = "prdcurve"),
                       stringsAsFactors = FALSE)
  v[v$kind == kind, ]
}

test_that("the default's quoted errors and targets are the shipped grid's", {
  acc <- validity_rows("accuracy")
  tight <- acc[acc$method == "tightest" & acc$statistic == "auc", ]
  # 16 scenarios at 5 dimensions for every n
  expect_equal(as.vector(table(tight$n_real)), c(80L, 80L, 80L))
  mean_err <- tapply(tight$mean_abs_error, tight$n_real, mean)
  # "mean |AUC error| 0.051, 0.019, 0.009 at 1,000, 5,000, 20,000 points per set"
  expect_equal(round(as.vector(mean_err[c("1000", "5000", "20000")]), 3),
               c(0.051, 0.019, 0.009))
  # the target met in 75 of 80 scenarios at n = 1,000, every one above
  met <- tapply(tight$target_met, tight$n_real, sum)
  expect_equal(as.vector(met[c("1000", "5000", "20000")]), c(75L, 80L, 80L))
  expect_setequal(tight$scenario[tight$n_real == 1000 & !tight$target_met],
                  c("student_t", "aniso_2"))
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
  # "cover the mean estimate in 88% of the draws (AUC), 84% (max_recall)"
  expect_equal(round(100 * unname(pooled)), c(88, 84))
  expect_equal(sort(unique(tight$count)), 40L)
})
