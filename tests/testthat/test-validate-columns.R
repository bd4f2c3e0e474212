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

test_that("an exclusion narrows each set by the columns it has; one no set has is an error", {
  set.seed(3)
  real <- data.frame(id = 1:120, label = sample(c("a", "b"), 120, TRUE),
                     x = rnorm(120), y = rnorm(120))
  gen <- data.frame(x = rnorm(100, 0.5), y = rnorm(100))
  # the synthesiser's output has neither id nor label: excluded where they
  # are, the same curve as the positive selection
  ref <- local({
    set.seed(9)
    prd_curve(as.matrix(real[c("x", "y")]), as.matrix(gen), method = "knn",
              angles = 21)
  })
  set.seed(9)
  got <- suppressMessages(prd_curve(real, gen, id = "id", features = -label,
                                    method = "knn", angles = 21))
  expect_identical(got$precision, ref$precision)
  expect_identical(got$recall, ref$recall)
  sets <- prepare_samples(real, gen, features = quote(c(-id, -label)))
  expect_identical(colnames(sets$real), c("x", "y"))
  expect_identical(dim(sets$generated[[1]]), c(100L, 2L))
  # a misspelt name excludes nothing anywhere: an error naming it, with
  # tidyselect's reason (it would leave `label` a feature)
  e <- expect_error(prepare_samples(real, gen, features = quote(-lable)),
                    class = "prdcurve_error_input")
  expect_match(conditionMessage(e), "no set has: `lable`", fixed = TRUE)
  expect_match(conditionMessage(e), "Column `lable` doesn't exist", fixed = TRUE)
  e <- expect_error(prepare_samples(real, gen,
                                    features = quote(c(-label, -nope, !c(y, nix)))),
                    class = "prdcurve_error_input")
  expect_match(conditionMessage(e), "`nope` and `c(y, nix)`", fixed = TRUE)
  # matrices: their columns by name, or V1, V2, ...
  m <- as.matrix(real[c("x", "y")])
  expect_identical(colnames(prepare_samples(m, gen, features = quote(-y))$real), "x")
  expect_error(prepare_samples(unname(m), unname(as.matrix(gen)),
                               features = quote(-V3)),
               "no set has: `V3`", class = "prdcurve_error_input")
  expect_identical(ncol(prepare_samples(unname(m), unname(as.matrix(gen)),
                                        features = quote(-V2))$real), 1L)
  # selections other than exclusions must select columns of every set
  expect_error(prepare_samples(real, gen, features = quote(c(x, label))),
               "must select columns of `generated`", class = "prdcurve_error_input")
})

test_that("exclusion_terms() takes -x, !x, c() and parentheses apart", {
  expect_identical(exclusion_terms(quote(c(-a, (!b), -c(d, e)))),
                   list(quote(a), quote(b), quote(c(d, e))))
  df <- data.frame(a = 1, d = 2)
  q <- rlang::quo(c(-a, -b, -c(d, e), -starts_with("z")))
  expect_identical(names(exclusion_misses(q, df)), c("b", "c(d, e)"))
  expect_identical(exclusion_misses(rlang::quo(c(a, b)), df), character())
})

test_that("column numbers in `features` and `id` count in the real set, whose names every set then reads", {
  set.seed(12)
  real <- data.frame(id = 1:300, a = rnorm(300), b = rnorm(300), c = rnorm(300))
  gen <- data.frame(a = rnorm(200, 0.5), b = rnorm(200), c = rnorm(200, 2))
  run <- function(...) {
    set.seed(3)
    summary(prd_curve(real, gen, method = "knn", angles = 51, ...))$auc
  }
  by_name <- run(features = c(a, b))
  expect_identical(run(features = 2:3), by_name)
  cols <- c(2, 3)
  expect_identical(run(features = all_of(cols)), by_name)
  expect_identical(run(features = c(-1, -4)), by_name)
  # an id by number: the model's column of that name, wherever it stands
  real2 <- data.frame(a = rnorm(300), id = 1:300, c = rnorm(300))
  gen2 <- data.frame(a = rnorm(200, 0.5), c = rnorm(200), id = 301:500)
  set.seed(1)
  ref <- prd_curve(real2, gen2, id = "id", method = "knn", angles = 51)
  set.seed(1)
  pos <- prd_curve(real2, gen2, id = 2, method = "knn", angles = 51)
  expect_identical(pos$precision, ref$precision)
  set.seed(1)
  plain <- prd_curve(as.matrix(real2[c("a", "c")]), as.matrix(gen2[c("a", "c")]),
                     method = "knn", angles = 51)
  expect_identical(pos$precision, plain$precision)
  # the quosures: numbers become the real set's names, others stay
  q <- positions_by_name(rlang::quo(2:3), real)
  expect_identical(names(tidyselect::eval_select(q, gen)), c("a", "b"))
  keep <- rlang::quo(starts_with("a"))
  expect_identical(positions_by_name(keep, real), keep)
  expect_identical(rlang::quo_get_expr(positions_by_name(rlang::quo(2),
                                                         as.matrix(real))), 2)
})
