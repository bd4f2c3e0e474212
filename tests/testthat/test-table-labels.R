# The row labels of result tables under column selection
# (R/table-labels.R): a summary or a metrics table whose key columns are
# not selected keeps its models' names with its rows, and prints them.

test_that("selected columns of a summary or metric table keep the model names", {
  set.seed(47)
  x <- matrix(rnorm(300), 100)
  models <- list(a = matrix(rnorm(300, 0.2), 100), b = matrix(rnorm(300, 0.5), 100))
  s <- summary(prd_curve(x, models, method = "knn", k = 5, angles = 11))
  shown <- format(s[c("auc", "max_recall")])
  expect_identical(colnames(shown), c("a/knn/k=5", "b/knn/k=5"))
  expect_identical(rownames(shown), c("auc", "max_recall"))
  expect_equal(unname(shown["auc", ]), sprintf("%.3f", s$auc))
  # rows and columns at once: the names of the rows kept
  expect_identical(colnames(format(s[2, "auc"])), "b/knn/k=5")
  expect_identical(colnames(format(s[-1, c("auc", "max_recall")])), "b/knn/k=5")
  expect_identical(colnames(format(s[c(FALSE, TRUE), "auc"])), "b/knn/k=5")
  if (requireNamespace("dplyr", quietly = TRUE)) {
    expect_identical(colnames(format(dplyr::select(s, auc))),
                     c("a/knn/k=5", "b/knn/k=5"))
  }
  m <- manifold_metrics(x, models, k = 5, metrics = c("precision", "recall"))
  v <- m["value"]
  expect_identical(names(v), "value")
  expect_identical(attr(v, "row_labels"), c("a", "a", "b", "b"))
  header <- tibble::tbl_sum(v)
  expect_match(header[["Metrics"]], "2 models (a, b)", fixed = TRUE)
  expect_identical(attr(m[3:4, "value"], "row_labels"), c("b", "b"))
  # with the keys selected the table is as before
  expect_null(attr(m[c("model", "value")], "row_labels"))
  expect_identical(tibble::tbl_sum(m), tibble::tbl_sum(m[c("model", "metric", "value")]))
})
