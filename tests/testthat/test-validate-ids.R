# The id column (R/validate-ids.R): a generated set without it, ids that
# repeat, and ids of two types.

test_that("a generated set without the real set's id column has no ids; repeated ids are warned of", {
  set.seed(61)
  real <- data.frame(image_id = 101:300, matrix(rnorm(200 * 3), ncol = 3))
  gen <- data.frame(matrix(rnorm(200 * 3, 0.3), ncol = 3))
  # (was prdcurve_error_input: `id` must select a column of `generated`)
  set.seed(5)
  expect_message(cv <- prd_curve(real, gen, id = image_id, method = "knn",
                                 angles = 11),
                 "has no `id` column image_id",
                 class = "prdcurve_message_id_absent")
  set.seed(5)
  ref <- prd_curve(real[-1], gen, method = "knn", angles = 11)
  expect_identical(cv$precision, ref$precision)
  ms <- suppressMessages(manifold_samples(real, gen, id = image_id))
  expect_identical(ms$id[ms$set == "real"], 101:300)
  expect_true(all(is.na(ms$id[ms$set == "generated"])))
  expect_identical(ms$row[ms$set == "generated"], 1:200)
  # the real set must have it
  expect_error(prd_curve(gen, real, id = image_id), class = "prdcurve_error_input")
  # ids that repeat: a warning naming the value and its count
  real$image_id[7] <- 103L
  w <- expect_warning(ms <- suppressMessages(
    manifold_samples(real, gen[1:50, ], id = image_id)),
    class = "prdcurve_warning_id_duplicated")
  expect_match(cli::ansi_strip(conditionMessage(w)),
               "repeats 1 value, e.g. \"103\" in 2 rows", fixed = TRUE)
  # the generated rows' names (text) and the real ids (integers) bind as
  # text (were a vctrs error)
  expect_identical(ms$id[ms$set == "generated"], as.character(1:50))
  expect_identical(ms$id[ms$set == "real"][1:3], c("101", "102", "103"))
  gen$image_id <- rep(1:100, 2)
  w <- expect_warning(manifold_samples(real[-7, ], gen, id = image_id),
                      class = "prdcurve_warning_id_duplicated")
  expect_match(cli::ansi_strip(conditionMessage(w)), "`generated` repeats 100 values",
               fixed = TRUE)
})

test_that("id_column_name() names the selected column, or NULL where there is none", {
  real <- data.frame(key = 1:3, a = c(0.5, 1, 2))
  expect_identical(id_column_name(rlang::quo(key), real), "key")
  expect_identical(id_column_name(rlang::quo("key"), real), "key")
  expect_null(id_column_name(rlang::quo(NULL), real))
  expect_null(id_column_name(rlang::quo(nothing), real))       # fails: NULL
  expect_null(id_column_name(rlang::quo(c(key, a)), real))     # two columns
  expect_null(id_column_name(rlang::quo(key), as.matrix(real)))
})

test_that("same_id_type() turns ids to text only where two types meet", {
  a <- structure(matrix(0, 2, 1), ids = 1:2)
  b <- structure(matrix(0, 2, 1), ids = c("x", "y"))
  n <- matrix(0, 2, 1)
  one <- same_id_type(list(a, n))
  expect_identical(attr(one[[1]], "ids"), 1:2)
  expect_null(attr(one[[2]], "ids"))
  two <- same_id_type(list(a, b, n))
  expect_identical(attr(two[[1]], "ids"), c("1", "2"))
  expect_identical(attr(two[[2]], "ids"), c("x", "y"))
  expect_null(attr(two[[3]], "ids"))
})
