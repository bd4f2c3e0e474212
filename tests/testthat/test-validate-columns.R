# Tests of R/validate-columns.R, through prd_curve(): the sets' column
# counts, orders and names, and the categorical columns counted as
# indicators.

set.seed(11)
x <- matrix(rnorm(20 * 2), ncol = 2)
y <- matrix(rnorm(18 * 2, mean = 0.5), ncol = 2)

test_that("column counts and orders must match", {
  quiet_traps({
    expect_error(prd_curve(x, cbind(y, 1)), class = "prdcurve_error_columns")
    expect_snapshot(error = TRUE, prd_curve(x, cbind(y, 1)))
    a <- data.frame(u = x[, 1], v = x[, 2])
    b <- data.frame(v = y[, 2], u = y[, 1])
    # data frames are matched by name; matrices of the same names in
    # another order are an error
    expect_identical(prd_curve(a, b, method = "knn", split = 0)$precision,
                     prd_curve(a, b[c("u", "v")], method = "knn", split = 0)$precision)
    expect_error(prd_curve(as.matrix(a), as.matrix(b)),
                 class = "prdcurve_error_columns")
    # named columns: the error names those only one set has
    g <- data.frame(id = seq_len(nrow(y)), u = y[, 1], v = y[, 2])
    err <- expect_error(suppressWarnings(prd_curve(a, g)),
                        class = "prdcurve_error_columns")
    expect_match(conditionMessage(err), "Only `generated` has id", fixed = TRUE)
    expect_no_match(conditionMessage(err), "Only `real`", fixed = TRUE)
    err <- expect_error(prd_curve(x, cbind(y, 1)), class = "prdcurve_error_columns")
    expect_no_match(conditionMessage(err), "Only", fixed = TRUE)
    # many such columns: the first few, then the last
    wide <- as.data.frame(matrix(1, 5, 12, dimnames = list(NULL, paste0("f", 1:12))))
    narrow <- data.frame(g1 = 1:5 + 0, g2 = 2)
    msg <- cli::ansi_strip(conditionMessage(
      expect_error(suppressWarnings(prd_curve(wide, narrow)),
                   class = "prdcurve_error_columns")))
    expect_match(msg, "Only `real` has f1, f2, f3, ..., f11, and f12.", fixed = TRUE)
    expect_match(msg, "Only `generated` has g1 and g2.", fixed = TRUE)
    # a column without a name (cbind() of a named matrix and a vector) by
    # its number
    xn <- cbind(u = x[, 1], v = x[, 2])
    err <- expect_error(prd_curve(xn, cbind(xn, rnorm(nrow(xn)))),
                        class = "prdcurve_error_columns")
    expect_match(cli::ansi_strip(conditionMessage(err)),
                 "Only `generated` has column 3 (no name).", fixed = TRUE)
  })
})

test_that("a column count that differs names the categorical columns counted as indicators", {
  set.seed(1)
  x <- matrix(rnorm(200 * 5), 200)
  y <- data.frame(matrix(rnorm(200 * 5), 200),
                  s = rep(letters[1:4], 50))
  e <- expect_error(prd_curve(x, y, method = "knn"), class = "prdcurve_error_columns")
  msg <- cli::ansi_strip(conditionMessage(e))
  expect_match(msg, "`real` has 5, `generated` has 9.", fixed = TRUE)
  expect_match(msg, "`generated`'s 9 columns are its 6 columns, with the categories of s as indicator columns",
               fixed = TRUE)
})
