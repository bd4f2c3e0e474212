# Tests of R/validate-grid.R: columns on a grid (or constant) in one set
# and not in the other, or on a coarser grid in one set than the other's
# values take, named per model with the fix.

test_that("columns on a grid in one set only are named, per model, with the fix", {
  set.seed(184)
  real <- cbind(a = round(10 * rnorm(200)), b = rnorm(200), c = 0.25 * sample(0:40, 200, TRUE))
  rounded <- cbind(a = round(10 * rnorm(200)), b = rnorm(200),
                   c = 0.25 * sample(0:40, 200, TRUE))
  unrounded <- cbind(a = 10 * rnorm(200), b = rnorm(200), c = 10 * runif(200))
  w <- expect_warning(
    manifold_metrics(real, list(rounded = rounded, unrounded = unrounded),
                     metrics = "precision"),
    class = "prdcurve_warning_grid_columns")
  msg <- cli::ansi_strip(conditionMessage(w))
  # only the model off the grid, both columns (whole numbers, quarters)
  expect_match(msg, "generated$unrounded: on a grid in the real set only: a, c",
               fixed = TRUE)
  expect_no_match(msg, "generated$rounded", fixed = TRUE)
  expect_match(msg, "round its output", fixed = TRUE)
  # the other way round, and a column constant in one set (a dead feature)
  gen <- cbind(a = round(real[, "a"] + 0.3 * rnorm(200)), b = 1, c = real[, "c"])
  cont <- cbind(a = 10 * rnorm(200), b = rnorm(200), c = 10 * runif(200))
  w <- expect_warning(manifold_metrics(cont, gen, metrics = "precision"),
                      class = "prdcurve_warning_grid_columns")
  expect_match(cli::ansi_strip(conditionMessage(w)),
               "generated: on a grid in this set only: a, c; constant in this set only: b",
               fixed = TRUE)
  # a generated set's columns by its own names (matched by position)
  gen2 <- gen
  colnames(gen2) <- c("id", "b2", "c2")
  w <- expect_warning(suppressWarnings(
    manifold_metrics(cont, gen2, metrics = "precision"),
    classes = "prdcurve_warning_column_names"),
    class = "prdcurve_warning_grid_columns")
  expect_match(cli::ansi_strip(conditionMessage(w)),
               "generated: on a grid in this set only: id, c2; constant in this set only: b2",
               fixed = TRUE)
  # constant in both sets at different values (the supports are disjoint)
  w <- expect_warning(manifold_metrics(cbind(cont, k = 1), cbind(cont, k = 2),
                                       metrics = "precision"),
                      class = "prdcurve_warning_grid_columns")
  expect_match(cli::ansi_strip(conditionMessage(w)),
               "generated: constant at another value in each set: k", fixed = TRUE)
  # such a column may label the sets (0 and 1): the warning says how to
  # leave it out; not where no column is constant in both sets
  expect_match(cli::ansi_strip(conditionMessage(w)),
               "labels the sets (0 in the real set, 1 in a generated one), it alone tells them apart: leave it out, `features = -k`",
               fixed = TRUE)
  w2 <- expect_warning(manifold_metrics(cbind(cont, k = 1), cbind(cont, k = rnorm(200)),
                                        metrics = "precision"),
                       class = "prdcurve_warning_grid_columns")
  expect_no_match(conditionMessage(w2), "labels the sets", fixed = TRUE)
  cont2 <- cbind(a = 10 * rnorm(200), b = rnorm(200), c = 10 * runif(200))
  # categories of each set only: their indicators are constant at other
  # values, which the categories' own warning tells (two in the real set:
  # one value in each set would label the sets, set_label_columns())
  seen <- character()
  withCallingHandlers(
    suppressMessages(manifold_metrics(data.frame(cont, label = rep_len(c("r", "s"), nrow(cont))),
                                      data.frame(cont2, label = "g"),
                                      metrics = "precision")),
    warning = function(w) {
      seen <<- c(seen, class(w)[1])
      invokeRestart("muffleWarning")
    })
  expect_identical(seen, "prdcurve_warning_category_levels")
  expect_no_warning(manifold_metrics(cbind(cont, k = 1), cbind(cont2, k = 1),
                                     metrics = "precision"),
                    class = "prdcurve_warning_grid_columns")
  # a collapsed set (every column constant) has its own warning
  expect_no_warning(quiet_traps(suppressWarnings(
    manifold_metrics(cont, matrix(0.5, 20, 3), metrics = "precision"),
    classes = "prdcurve_warning_collapsed")),
    class = "prdcurve_warning_grid_columns")
  # float32 storage of a wide range is not a grid (2^23 steps apart)
  f32 <- function(v) round(v * 2^23) / 2^23
  expect_no_warning(manifold_metrics(cbind(f32(1 + runif(200))),
                                     cbind(1 + runif(200)),
                                     metrics = "precision"),
                    class = "prdcurve_warning_grid_columns")
  # silenced with the other input checks
  withr::local_options(prdcurve.check_inputs = FALSE)
  expect_no_warning(manifold_metrics(real, unrounded, metrics = "precision"))
})

test_that("a column on a coarser grid in one set than the other's values take is named; counts of one law are not", {
  set.seed(185)
  n <- 1000
  real <- data.frame(kids = rpois(n, 2), income = rnorm(n), bmi = rnorm(n))
  half <- data.frame(kids = rpois(n, 2) + 0.5, income = rnorm(n), bmi = rnorm(n))
  # whole numbers against half-numbers: no value in common, true curve 0
  # (kids is also a column of few whole values: its own warning)
  w <- expect_warning(suppressWarnings(suppressMessages(
    prd_curve(real, half, method = "knn", angles = 21)),
    classes = "prdcurve_warning_label_column"),
    class = "prdcurve_warning_grid_columns")
  msg <- gsub("\\s+", " ", cli::ansi_strip(conditionMessage(w)))
  expect_match(msg, "generated: on a coarser grid in the real set: kids (this set's values lie on it in 0% of its rows)",
               fixed = TRUE)
  # the other way round: the real set's quarter values off the model's
  # whole numbers
  q <- as.matrix(real)
  q[, "kids"] <- q[, "kids"] + 0.25
  lines <- grid_column_lines(q, list(generated = as.matrix(real)))
  expect_match(lines[["generated"]], "on a coarser grid in this set: kids (the real set's values lie on it in 0% of its rows)",
               fixed = TRUE)
  # a model that drops the large counts, or counts of one law: one grid,
  # no warning
  same <- data.frame(kids = pmin(rpois(n, 2), 2), income = rnorm(n), bmi = rnorm(n))
  expect_no_warning(suppressWarnings(
    suppressMessages(manifold_metrics(real, same, metrics = "precision")),
    classes = "prdcurve_warning_label_column"),
    class = "prdcurve_warning_grid_columns")
  # ids of other ranges in the two sets are on one grid (their own warning)
  ids <- grid_column_lines(cbind(id = 1:n, x = rnorm(n)),
                           list(generated = cbind(id = n + 1:n, x = rnorm(n))))
  expect_length(ids, 0)
  # two thirds of a model's rows moved by 0.5 are off the real grid
  # (share 0.33); a third of them leaves most on it (0.67): named, not named
  mix <- as.matrix(real)
  mix[, "kids"] <- mix[, "kids"] + rep(c(0, 0.5, 0.5), length.out = n)
  few <- as.matrix(real)
  few[, "kids"] <- few[, "kids"] + rep(c(0, 0, 0.5), length.out = n)
  lines <- grid_column_lines(as.matrix(real),
                             list(a = as.matrix(half), b = mix, c = few))
  expect_identical(names(lines), c("a", "b"))
  expect_match(lines[["b"]], "lie on it in 33% of its rows", fixed = TRUE)
})

test_that("spaced_rows() picks evenly spaced rows, the ends among them, without a draw", {
  expect_identical(spaced_rows(5L, 10L), 1:5)
  expect_identical(spaced_rows(0L, 64L), integer())
  expect_equal(spaced_rows(10L, 4L), c(1, 4, 7, 10))
  expect_equal(spaced_rows(100L, 3L), c(1, 50, 100)) # 50.5 rounds to even
  set.seed(1)
  before <- .Random.seed
  r <- spaced_rows(20000L, grid_apart_rows)
  expect_identical(.Random.seed, before)
  expect_length(r, grid_apart_rows)
  expect_equal(range(r), c(1, 20000))
  # the marginal family's edge rows: the same pick of the sorted rows
  expect_identical(marginal_edge_pick(c(9L, 3L, 5L)), c(3L, 5L, 9L))
  big <- sample.int(1e6, marginal_edge_rows + 10L)
  expect_identical(marginal_edge_pick(big),
                   sort(big)[spaced_rows(length(big), marginal_edge_rows)])
})
