# Every user-input check of validate.R, through prd_curve(): the error names
# the argument (and the rows), and accepted inputs give identical results.

set.seed(11)
x <- matrix(rnorm(20 * 2), ncol = 2)
y <- matrix(rnorm(18 * 2, mean = 0.5), ncol = 2)

test_that("NA, NaN and Inf are rejected with the argument and the rows", {
  x2 <- x
  x2[3, 1] <- NA
  x2[7, 2] <- Inf
  expect_error(prd_curve(x2, y), class = "rlang_error")
  expect_error(prd_curve(x2, y), "`real` must not contain missing or infinite")
  expect_error(prd_curve(x2, y), "2 rows have NA, NaN or Inf, e.g. rows 3 and 7")
  y2 <- y
  y2[5, 2] <- NaN
  expect_error(prd_curve(x, y2), "`generated` must not contain missing")
  expect_error(prd_curve(x, y2), "row 5")
  y3 <- y
  y3[c(1, 2, 4, 9, 10, 12), 1] <- -Inf
  expect_error(prd_curve(x, y3), "6 rows .*rows 1, 2, 4, 9, and 10")
  df <- as.data.frame(x)
  df[4, 1] <- NA
  expect_error(prd_curve(df, y), "`real` .*row 4")
})

test_that("non-numeric inputs are rejected", {
  df <- data.frame(a = x[, 1], b = letters[1:20])
  expect_error(prd_curve(df, y), "`real` must have numeric columns only",
               class = "rlang_error")
  expect_error(prd_curve(df, y), "Column \"b\" is not numeric")
  expect_error(prd_curve(x, matrix(as.character(y), ncol = 2)),
               "`generated` must be numeric")
  expect_error(prd_curve(x[, 1], y), "`real` must be a numeric matrix")
  expect_error(prd_curve(x, list(1, 2)), "`generated` must be a numeric matrix")
  expect_error(prd_curve(x, matrix(TRUE, 5, 2)), "`generated` must be numeric")
})

test_that("column counts must match", {
  expect_error(prd_curve(x, cbind(y, 1)), class = "rlang_error")
  expect_error(prd_curve(x, cbind(y, 1)),
               "`real` has 2, `generated` has 3")
})

test_that("k must be a whole number that fits the set sizes", {
  # split = 0.5: 10 and 9 fit rows, so k <= 8
  expect_error(prd_curve(x, y, k = 9), "`k` = 9 is too large",
               class = "rlang_error")
  expect_error(prd_curve(x, y, k = 9), "at most 8")
  expect_equal(attr(prd_curve(x, y, k = 8, angles = 5), "k"), 8)
  # split = 0: the generated set has 18 rows, so k <= 17
  expect_error(prd_curve(x, y, k = 18, split = 0), "at most 17")
  expect_equal(attr(prd_curve(x, y, k = 17, split = 0, angles = 5), "k"), 17)
  expect_error(prd_curve(x, y, k = 0), "`k` must be whole numbers >= 1")
  expect_error(prd_curve(x, y, k = -1), "`k`")
  expect_error(prd_curve(x, y, k = 2.5), "`k`")
  expect_error(prd_curve(x, y, k = NA), "`k`")
  expect_error(prd_curve(x, y, k = "a"), "`k`")
  expect_error(prd_curve(x, y, k = c(2, 3)), "`k` must be a single number")
})

test_that("split must be a fraction in [0, 1)", {
  for (bad in list(-0.1, 1, NA, "a", c(0.1, 0.2), Inf)) {
    expect_error(prd_curve(x, y, split = bad), "`split` must be a fraction",
                 class = "rlang_error")
  }
  # 0.99 leaves no fit rows
  expect_error(prd_curve(x, y, split = 0.99), "`split` = 0.99 leaves 0 fit")
})

test_that("explicit evaluation rows are checked", {
  ok <- list(real = 1:3, generated = 1:2)
  expect_equal(unname(attr(prd_curve(x, y, split = ok, angles = 5), "sizes")),
               c(17, 16, 3, 2))
  expect_error(prd_curve(x, y, split = list(real = 0:3, generated = 1:2)),
               "`split\\$real` must hold row numbers between 1 and 20",
               class = "rlang_error")
  expect_error(prd_curve(x, y, split = list(real = 1:3, generated = c(2, 19))),
               "`split\\$generated` .*between 1 and 18")
  expect_error(prd_curve(x, y, split = list(real = c(1, 1), generated = 1:2)),
               "`split\\$real` must not repeat rows")
  expect_error(prd_curve(x, y, split = list(real = 1:19, generated = 1:2)),
               "`split\\$real` leaves fewer than 2 rows")
  expect_error(prd_curve(x, y, split = list(real = 1:3, generated = 1:17)),
               "`split\\$generated` leaves fewer than 2 rows")
  expect_error(prd_curve(x, y, split = list(real = 1:3)),
               "exactly the elements real and generated")
  expect_error(prd_curve(x, y, split = list(1:3, 1:2)),
               "exactly the elements real and generated")
  expect_error(prd_curve(x, y, split = list(real = integer(), generated = 1:2)),
               "`split\\$real` must be a non-empty vector")
  expect_error(prd_curve(x, y, split = list(real = 1.5, generated = 1:2)),
               "`split\\$real`")
})

test_that("too few rows and zero variance are rejected", {
  expect_error(prd_curve(x[1, , drop = FALSE], y),
               "`real` must have at least 2 rows", class = "rlang_error")
  expect_error(prd_curve(x, y[1, , drop = FALSE]), "`generated` .*It has 1")
  expect_error(prd_curve(matrix(1, 5, 2), y),
               "`real` has zero variance: all 5 rows are identical",
               class = "rlang_error")
  expect_error(prd_curve(x, matrix(c(3, 4), 6, 2, byrow = TRUE)),
               "`generated` has zero variance")
  # one distinct row is enough
  z <- matrix(1, 6, 2)
  z[6, 2] <- 2
  expect_equal(nrow(prd_curve(x, z, split = 0, k = 1, angles = 5)), 4 * 7)
})

test_that("method, angles, bandwidth and closed are checked", {
  expect_error(prd_curve(x, y, method = "foo"), "`method` must be one or more of",
               class = "rlang_error")
  expect_error(prd_curve(x, y, method = c("knn", "foo")), "Unknown: \"foo\"")
  expect_error(prd_curve(x, y, method = 1), "`method`")
  expect_error(prd_curve(x, y, method = character()), "`method`")
  for (bad in list(2, 10.5, NA, "a", c(5, 7), 0)) {
    expect_error(prd_curve(x, y, angles = bad), "`angles`", class = "rlang_error")
  }
  for (bad in list(0, -1, c(1, 2, 3), NA, Inf, "a", numeric())) {
    expect_error(prd_curve(x, y, method = "kde", bandwidth = bad),
                 "`bandwidth` must be one or two positive finite numbers",
                 class = "rlang_error")
  }
  for (bad in list(NA, 1, "yes", c(TRUE, FALSE))) {
    expect_error(prd_curve(x, y, closed = bad), "`closed` must be `TRUE` or `FALSE`")
  }
})

test_that("integer matrices and data frames give identical results", {
  set.seed(12)
  xi <- matrix(sample(0:5, 30 * 3, replace = TRUE), ncol = 3)
  yi <- matrix(sample(0:6, 25 * 3, replace = TRUE), ncol = 3)
  expect_true(is.integer(xi))
  xd <- xi
  storage.mode(xd) <- "double"
  yd <- yi
  storage.mode(yd) <- "double"
  xf <- as.data.frame(xi)
  yf <- data.frame(u = yd[, 1], v = yi[, 2], w = yd[, 3])  # mixed int/double
  for (sp in list(0, 0.5)) {
    set.seed(3)
    ref <- prd_curve(xd, yd, split = sp, angles = 51)
    set.seed(3)
    expect_identical(prd_curve(xi, yi, split = sp, angles = 51), ref)
    set.seed(3)
    expect_identical(prd_curve(xf, yf, split = sp, angles = 51), ref)
    set.seed(3)
    expect_identical(prd_curve(xi, yf, split = sp, angles = 51), ref)
  }
  # row and column names do not matter
  xn <- xd
  dimnames(xn) <- list(paste0("r", 1:30), c("a", "b", "c"))
  expect_identical(prd_curve(xn, yd, split = 0, angles = 51),
                   prd_curve(xd, yd, split = 0, angles = 51))
})

test_that("values whose squared distances overflow or underflow are rejected", {
  set.seed(71)
  real <- matrix(rnorm(40), ncol = 2)
  generated <- matrix(rnorm(40, 1), ncol = 2)
  expect_error(prd_curve(real * 1e160, generated), "`real`.*overflow")
  expect_error(manifold_metrics(real, generated * 1e-170),
               "`generated`.*underflow")
  # a common rescaling within range changes nothing
  set.seed(1)
  a <- prd_curve(real, generated, method = "knn", angles = 51)
  set.seed(1)
  b <- prd_curve(real * 1e50, generated * 1e50, method = "knn", angles = 51)
  expect_equal(a$precision, b$precision, tolerance = 1e-12)
})

test_that("a bandwidth without the kde method is reported, not silently ignored", {
  set.seed(72)
  real <- matrix(rnorm(40), ncol = 2)
  generated <- matrix(rnorm(40, 1), ncol = 2)
  expect_warning(prd_curve(real, generated, method = "knn", bandwidth = 1),
                 "bandwidth")
})
