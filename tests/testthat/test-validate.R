# Every user-input check of validate.R, through the exported functions: each
# error and warning has its class (checked with `class =`), the messages
# name the argument and the rows (snapshots), and accepted inputs give
# identical results.

set.seed(11)
x <- matrix(rnorm(20 * 2), ncol = 2)
y <- matrix(rnorm(18 * 2, mean = 0.5), ncol = 2)

test_that("NA, NaN and Inf are rejected with the argument and the rows", {
  x2 <- x
  x2[3, 1] <- NA
  x2[7, 2] <- Inf
  expect_error(prd_curve(x2, y), class = "prdcurve_error_input")
  y2 <- y
  y2[5, 1] <- NaN
  expect_error(manifold_metrics(x, y2), class = "prdcurve_error_input")
  expect_error(entropy_metrics(x, y2), class = "prdcurve_error_input")
  df <- as.data.frame(x2)
  expect_error(prd_curve(df, y), class = "prdcurve_error")
  expect_snapshot(error = TRUE, prd_curve(x2, y))
  y3 <- y
  y3[c(1, 2, 4, 9, 10, 11), 2] <- NA
  expect_snapshot(error = TRUE, prd_curve(x, y3))
})

test_that("categorical columns beside numeric ones are features, and a message says so", {
  set.seed(3)
  mk <- function(n, p) {
    data.frame(img = sprintf("img_%04d", seq_len(n)),
               label = sample(c("cat", "dog", "bird"), n, TRUE, prob = p),
               matrix(rnorm(n * 3), ncol = 3))
  }
  real <- mk(60, c(1, 1, 1))
  gen <- mk(50, c(4, 1, 1))
  told <- function(expr) {
    out <- list()
    withCallingHandlers(expr, prdcurve_message_categorical_columns = function(m) {
      out[[length(out) + 1L]] <<- conditionMessage(m)
      invokeRestart("muffleMessage")
    }, prdcurve_message_dropped_columns = function(m) invokeRestart("muffleMessage"))
    out
  }
  run <- function(...) prd_curve(real, gen, id = img, method = "knn", angles = 5,
                                 split = 0, ...)
  m <- told(cv <- run())
  # once a call (not once a set), with the argument that leaves it out
  expect_length(m, 1L)
  expect_match(m[[1]], "categorical column label as a feature", fixed = TRUE)
  expect_match(m[[1]], "`features = -label`", fixed = TRUE)
  # it is a feature: the fix changes the curve to that of the numeric columns
  expect_length(told(cv2 <- run(features = -label)), 0L)
  num <- function(df) as.matrix(df[, c("X1", "X2", "X3")])
  ref <- prd_curve(num(real), num(gen), method = "knn", angles = 5, split = 0)
  expect_identical(cv2$precision, ref$precision)
  expect_false(identical(cv$precision, ref$precision))
  # two columns: one argument for both; none told when every feature is
  # categorical or `features` chose them
  real$size <- sample(c("s", "m"), nrow(real), TRUE)
  gen$size <- sample(c("s", "m"), nrow(gen), TRUE)
  m <- told(run())
  expect_match(m[[1]], "columns label and size as features", fixed = TRUE)
  expect_match(m[[1]], "`features = c(-label, -size)`", fixed = TRUE)
  expect_length(told(run(features = c(label, X1))), 0L)
  expect_length(told(quiet_traps(prd_curve(
    real[c("label", "size")], gen[c("label", "size")], method = "knn",
    angles = 5, split = 0))), 0L)
})

test_that("missing values are named by column, data frames matched by name, garbled categories warned", {
  set.seed(8)
  mk <- function(n) data.frame(sex = sample(c("F", "M"), n, TRUE),
                               age = rnorm(n, 40, 10), inc = rexp(n))
  r <- mk(60)
  g <- mk(50)
  msg <- function(expr) {
    e <- tryCatch(suppressMessages(expr), prdcurve_error_input = function(e) e)
    expect_s3_class(e, "prdcurve_error_input")
    cli::ansi_strip(conditionMessage(e))
  }
  # infinite values in two numeric columns: both named, with the fix (NA
  # is a category, or an indicator beside numbers, R/encode.R)
  r2 <- r
  r2$age[c(3, 9)] <- Inf
  r2$inc[5] <- -Inf
  r2$inc[6] <- NA
  r2$sex[7] <- NA
  m <- msg(suppressWarnings(prd_curve(r2, g, method = "knn")))
  expect_match(m, "rows 3, 5, and 9, in columns age and inc", fixed = TRUE)
  expect_match(m, "na.omit()", fixed = TRUE)
  expect_match(m, "Leave out those rows or columns (`features`)", fixed = TRUE)
  expect_no_match(m, "NumPy")
  # a column with no value in any set (it stopped with R's dimnames error),
  # logical or numeric
  r1 <- r
  g1 <- g
  r1$z <- NA
  g1$z <- NA
  expect_match(msg(prd_curve(r1, g1, method = "knn")), "in column z.",
               fixed = TRUE)
  r1$z <- g1$z <- NA_real_
  expect_match(msg(prd_curve(r1, g1, method = "knn")), "in column z.",
               fixed = TRUE)
  # an R matrix: rows counted as R counts them, no word of NumPy (that is
  # for the arrays the command line reads, test-cli-files.R)
  x <- as.matrix(r[-1])
  x[2, 1] <- NaN
  m <- msg(prd_curve(x, as.matrix(g[-1]), method = "knn"))
  expect_match(m, "1 row has NA, NaN or Inf, e.g. row 2, in column age.",
               fixed = TRUE)
  expect_no_match(m, "NumPy")
  expect_no_match(m, "counted from")
  # the rows of an array of a file: from 1 and from 0
  e <- expect_error(as_samples(x, arg = "real.npy", call = NULL, numpy = TRUE),
                    class = "prdcurve_error_input")
  expect_match(cli::ansi_strip(conditionMessage(e)),
               "Rows are counted from 1 (from 0 in NumPy: 1).", fixed = TRUE)
  # data frames are matched by name, as rbind() matches them
  run <- function(gen) {
    set.seed(1)
    suppressMessages(prd_curve(r, gen, method = "knn", angles = 5))
  }
  expect_identical(run(g[c("inc", "sex", "age")])$precision, run(g)$precision)
  # one renamed column is paired with the column it replaces (by position),
  # not shifted past the others, and the warning names that pair alone
  set.seed(1)
  u <- data.frame(a = rnorm(300), b = rnorm(300, 10), c = rnorm(300, 100))
  v <- data.frame(a = rnorm(300), B = rnorm(300, 10), c = rnorm(300, 100))
  set.seed(2)
  w <- expect_warning(cv <- prd_curve(u, v, method = "knn"),
                      class = "prdcurve_warning_column_names")
  expect_match(cli::ansi_strip(conditionMessage(w)), "1 of 3 columns differ: b ~ B",
               fixed = TRUE)
  set.seed(2)
  expect_identical(cv$precision,
                   prd_curve(as.matrix(u), unname(as.matrix(v)), method = "knn")$precision)
  expect_gt(summary(cv)$auc, 0.9)
  # in another order too: a and c by name, B in b's place
  set.seed(2)
  expect_identical(suppressWarnings(prd_curve(u, v[c("c", "B", "a")], method = "knn"))$precision,
                   cv$precision)
  expect_identical(names(match_columns(v[c("c", "B", "a")], u)), c("a", "B", "c"))
  # columns the real set lacks fill its other places in their own order,
  # the rest last
  expect_identical(names(match_columns(cbind(v, e = 1)[c("e", "c", "B", "a")], u)),
                   c("a", "e", "c", "B"))
  # a column numeric in one set and text in the other: named, classed
  g_txt <- g
  g_txt$inc <- format(g_txt$inc)
  e <- expect_error(prd_curve(r, g_txt, method = "knn"),
                    class = "prdcurve_error_columns")
  expect_match(cli::ansi_strip(conditionMessage(e)),
               "inc (numeric in real, categorical in generated)", fixed = TRUE)
  # not a feature, it is not checked: left out, or the id
  expect_no_error(suppressMessages(prd_curve(r, g_txt, features = -inc,
                                             method = "knn", angles = 5)))
  r_id <- cbind(key = seq_len(nrow(r)), r)
  g_id <- cbind(key = sprintf("g%d", seq_len(nrow(g))), g)
  expect_no_error(suppressMessages(prd_curve(r_id, g_id, id = key,
                                             method = "knn", angles = 5)))
  # a category of the real set that a model fills with new values is left
  # out of every set, and a warning says so
  r5 <- r
  g5 <- g
  r5$note <- sample(c("a", "b"), nrow(r5), TRUE)
  g5$note <- paste0("x", seq_len(nrow(g5)))
  expect_warning(suppressMessages(prd_curve(r5, g5, method = "knn", angles = 5)),
                 "Column note is a category of `real`",
                 class = "prdcurve_warning_garbled_categories")
  # identifiers of the real set itself are not warned about
  r5$note <- paste0("r", seq_len(nrow(r5)))
  expect_no_warning(suppressMessages(prd_curve(r5, g5, method = "knn", angles = 5)),
                    class = "prdcurve_warning_garbled_categories")
})

test_that("non-numeric inputs are rejected or their columns ignored", {
  df <- data.frame(a = x[, 1], b = letters[1:20], c = x[, 2])
  # the character column is not a feature: a message names it
  expect_message(cv <- prd_curve(df, y, split = 0, angles = 5, method = c("knn", "kde", "ipr", "coverage")),
                 class = "prdcurve_message_dropped_columns")
  expect_identical(cv$precision,
                   prd_curve(x, y, split = 0, angles = 5, method = c("knn", "kde", "ipr", "coverage"))$precision)
  expect_error(prd_curve(df, y, features = c(a, b)),
               class = "prdcurve_error_input")
  expect_error(prd_curve(x, matrix(as.character(y), ncol = 2)),
               class = "prdcurve_error_input")
  expect_error(prd_curve(x[, 1], y), class = "prdcurve_error_input")
  expect_error(prd_curve(x, matrix(TRUE, 5, 2)), class = "prdcurve_error_input")
  expect_snapshot(error = TRUE, prd_curve(x[, 1], y))
})

test_that("a file name given as the data says to read it", {
  err <- expect_error(prd_curve("real.npy", y), class = "prdcurve_error_input")
  expect_match(cli::ansi_strip(conditionMessage(err)),
               "read it first: `prd_read(\"real.npy\")`", fixed = TRUE)
})

test_that("too few rows are rejected; collapsed sets are measured", {
  quiet_traps({
    expect_error(prd_curve(x[1, , drop = FALSE], y),
                 class = "prdcurve_error_input")
    expect_error(prd_curve(x, y[1, , drop = FALSE]),
                 class = "prdcurve_error_input")
    # a fully collapsed generator: a result, precision high, recall near 0
    set.seed(13)
    real <- matrix(rnorm(200 * 2), ncol = 2)
    collapsed <- matrix(0, 100, 2)
    m <- manifold_metrics(real, collapsed, metrics = c("precision", "recall"))
    expect_equal(m$value[m$metric == "precision"], 1)
    expect_lt(m$value[m$metric == "recall"], 0.05)
    cv <- prd_curve(real, collapsed, method = "knn", angles = 11)
    s <- summary(cv)
    expect_gt(s$max_precision, 0.9)
    expect_lt(s$max_recall, 0.1)
    # all real rows equal: measured, with a classed warning
    expect_warning(prd_curve(matrix(1, 6, 2), y, split = 0, angles = 5),
                   class = "prdcurve_warning_collapsed")
    # rows with zero variance in one column only are fine
    z <- cbind(rnorm(7), 1)
    expect_equal(nrow(prd_curve(x, z, split = 0, k = 1, angles = 5, method = c("knn", "kde", "ipr", "coverage"))), 4 * 7)
  })
})

# a curve without the names of its feature columns (details$features)
unnamed <- function(cv) {
  info <- attr(cv, "curves")
  for (i in seq_len(nrow(info))) info$details[[i]]["features"] <- list(NULL)
  attr(cv, "curves") <- info
  cv
}

test_that("integer matrices and data frames give identical results", {
  quiet_traps({
    set.seed(12)
    xi <- matrix(sample(0:5, 30 * 3, replace = TRUE), ncol = 3)
    yi <- matrix(sample(0:6, 25 * 3, replace = TRUE), ncol = 3)
    expect_true(is.integer(xi))
    xd <- xi
    storage.mode(xd) <- "double"
    yd <- yi
    storage.mode(yd) <- "double"
    xf <- as.data.frame(xi)
    yf <- data.frame(V1 = yd[, 1], V2 = yi[, 2], V3 = yd[, 3])  # mixed int/double
    for (sp in list(0, 0.5)) {
      set.seed(3)
      ref <- prd_curve(xd, yd, split = sp, angles = 51)
      set.seed(3)
      expect_identical(prd_curve(xi, yi, split = sp, angles = 51), ref)
      set.seed(3)
      df <- prd_curve(xf, yf, split = sp, angles = 51)
      # (but for the names of the columns read, which the matrix has not)
      expect_identical(prd_curve_info(df)$details[[1]]$features,
                       c("V1", "V2", "V3"))
      expect_identical(unnamed(df), ref)
      set.seed(3)
      expect_identical(prd_curve(xi, yf, split = sp, angles = 51), ref)
    }
    # row and column names do not matter
    xn <- xd
    dimnames(xn) <- list(paste0("r", 1:30), c("a", "b", "c"))
    # (set.seed: "tightest" halves the evaluation rows at random)
    expect_identical({set.seed(1); unnamed(prd_curve(xn, yd, split = 0, angles = 51))},
                     {set.seed(1); prd_curve(xd, yd, split = 0, angles = 51)})
  })
})

test_that("an id column is not a feature; features selects columns", {
  set.seed(14)
  real <- matrix(rnorm(60 * 3), ncol = 3)
  gen <- matrix(rnorm(50 * 3, mean = 0.4), ncol = 3)
  rdf <- data.frame(id = 1:60, label = "r", real)
  gdf <- data.frame(id = 101:150, label = "g", gen)
  set.seed(1)
  ref <- prd_curve(real, gen, method = "knn", angles = 11)
  set.seed(1)
  with_id <- prd_curve(rdf, gdf, method = "knn", angles = 11, id = id,
                       features = -label)
  expect_identical(with_id$precision, ref$precision)
  # a text column with one value in each set labels the sets: left out of
  # the features with a message that says so (set_label_columns()), the
  # curve that of the numeric columns (with it, every curve reads 0)
  set.seed(1)
  suppressMessages(expect_message(
    lab <- prd_curve(rdf, gdf, method = "knn", angles = 11, id = id),
    "label (\"r\", \"g\") takes one value in each set", fixed = TRUE,
    class = "prdcurve_message_dropped_columns"))
  expect_identical(lab$precision, ref$precision)
  # also as the categories of a factor, and with two generated sets
  rdf$label <- factor(rdf$label)
  set.seed(1)
  two <- suppressMessages(prd_curve(rdf, list(a = gdf, b = transform(gdf, label = "h")),
                                    method = "knn", angles = 11, id = id))
  expect_identical(two$precision[two$model == "a"], ref$precision)
  # not a label: the same value in every set (a constant feature), or two
  # values in a set, or a set of fewer than small_set_rows rows
  lv <- function(...) attr(category_levels(list(...)), "skip")
  expect_identical(lv(rdf, transform(gdf, label = "r")), character())
  expect_identical(lv(transform(rdf, label = rep_len(c("r", "s"), 60)), gdf),
                   character())
  expect_identical(lv(rdf[1:9, ], gdf), character())
  expect_identical(lv(rdf, gdf), "label")
  # each model of a grouped data frame is a set: a label column repeating
  # the grouping one (`model` is never a feature)
  if (requireNamespace("dplyr", quietly = TRUE)) {
    both <- rbind(transform(gdf, model = "a", label = "a"),
                  transform(gdf, model = "b", label = "b"))
    expect_setequal(lv(rdf, dplyr::group_by(both, model)), c("model", "label"))
    expect_identical(lv(rdf, both), "model")
    # a category with several values in a model is a feature
    both$kind <- rep_len(c("u", "v"), nrow(both))
    rdf2 <- transform(rdf, kind = rep_len(c("u", "v"), nrow(rdf)))
    expect_setequal(lv(rdf2, dplyr::group_by(both, model)), c("model", "label"))
    set.seed(1)
    g2 <- suppressMessages(prd_curve(rdf2, dplyr::group_by(both, model),
                                     method = "knn", angles = 11, id = id))
    expect_identical(unique(g2$model), c("a", "b"))
    expect_identical(prd_curve_info(g2)$n_eval_real, c(30L, 30L))
  }
  set.seed(1)
  sel <- prd_curve(rdf, gdf, method = "knn", angles = 11,
                   features = tidyselect::starts_with("X"))
  expect_identical(sel$precision, ref$precision)
  set.seed(1)
  sel2 <- prd_curve(rdf, gdf, method = "knn", angles = 11, features = X1:X3)
  expect_identical(sel2$precision, ref$precision)
  # without id =, the integer id column is used, with a classed warning
  w <- warning_classes(suppressMessages(prd_curve(rdf, gdf, method = "knn",
                                                  angles = 11)))
  expect_equal(sum(w == "prdcurve_warning_id_column"), 2)
  # the fix names the column
  idw <- NULL
  withCallingHandlers(
    suppressMessages(prd_curve(rdf, gdf, method = "knn", angles = 11,
                               features = -label)),
    prdcurve_warning_id_column = function(c) {
      idw <<- c(idw, conditionMessage(c))
      invokeRestart("muffleWarning")
    })
  expect_length(idw, 2L)
  expect_match(idw[1], "pass `id = \"id\"`", fixed = TRUE)
  expect_error(prd_curve(rdf, gdf, id = nothere),
               class = "prdcurve_error_input")
  expect_error(prd_curve(rdf, gdf, id = c(id, X1)),
               class = "prdcurve_error_input")
  expect_error(prd_curve(real, gen, id = id), class = "prdcurve_error_input")
  # matrices: features by position or name
  set.seed(1)
  m2 <- prd_curve(cbind(real, 1:60), cbind(gen, 1:50), method = "knn",
                  angles = 11, features = 1:3)
  expect_identical(m2$precision, ref$precision)
})

test_that("a features selection that matches no column names `features`, with the columns", {
  set.seed(15)
  rdf <- data.frame(a = rnorm(100), b = rnorm(100))
  gdf <- data.frame(a = rnorm(100), b = rnorm(100))
  e <- expect_error(prd_curve(rdf, gdf, features = starts_with("zz")),
                    class = "prdcurve_error_input")
  msg <- cli::ansi_strip(conditionMessage(e))
  expect_match(msg, "`features` selects no feature column of `real`.",
               fixed = TRUE)
  expect_match(msg, "`real` has the columns a and b", fixed = TRUE)
  expect_no_match(msg, "at least one column", fixed = TRUE)
  # the fix it gives works: features left out
  expect_s3_class(prd_curve(rdf, gdf, method = "knn", angles = 11), "prd_curve")
  # a set without columns, no selection: still about the set
  e2 <- expect_error(prd_curve(rdf[0], gdf), class = "prdcurve_error_input")
  expect_match(conditionMessage(e2), "at least one column", fixed = TRUE)
})

test_that("suspicious inputs give classed warnings that can be silenced", {
  set.seed(15)
  tall <- matrix(rnorm(4 * 200), nrow = 4)
  w <- warning_classes(manifold_metrics(tall, tall + 1, k = 1,
                                        metrics = "precision"))
  expect_equal(sum(w == "prdcurve_warning_transposed"), 2)
  inc <- cbind(matrix(rnorm(100 * 7), ncol = 7), income = rlnorm(100, 10, 1))
  inc2 <- cbind(matrix(rnorm(100 * 7), ncol = 7), income = rlnorm(100, 10, 1))
  w <- warning_classes(prd_curve(inc, inc2, method = "knn", angles = 5))
  # one warning naming both sets
  expect_equal(sum(w == "prdcurve_warning_scale"), 1)
  expect_true(all(w %in% c("prdcurve_warning_scale", "prdcurve_warning")))
  sw <- expect_warning(prepare_samples(inc, list(a = inc2, b = inc2,
                                                 c = cbind(inc[, 1:7], income = rnorm(100)))),
                       class = "prdcurve_warning_scale")
  expect_identical(sw$set, c("real", "generated$a", "generated$b"))
  expect_match(gsub("\\s+", " ", conditionMessage(sw)),
               "The columns of `real`, `generated\\$a`, and `generated\\$b` have very different scales: the largest standard deviation is [0-9.,]+ to [0-9.,]+ times the median one\\.")
  expect_true(all(sw$ratio > 100))
  # not when the call standardizes the sets
  expect_no_warning(prd_curve(inc, inc2, method = "knn", angles = 5,
                              standardize = "real"))
  expect_no_warning(manifold_metrics(inc, inc2, metrics = "density",
                                     standardize = "real"))
  withr::local_options(prdcurve.check_inputs = FALSE)
  expect_no_warning(prd_curve(inc, inc2, method = "knn", angles = 5))
})

test_that("values whose squared distances overflow or underflow are rejected", {
  quiet_traps({
    set.seed(71)
    real <- matrix(rnorm(40), ncol = 2)
    generated <- matrix(rnorm(40, 1), ncol = 2)
    expect_error(prd_curve(real * 1e160, generated),
                 class = "prdcurve_error_input")
    expect_error(manifold_metrics(real, generated * 1e-170),
                 class = "prdcurve_error_input")
    # a common rescaling within range changes nothing
    set.seed(1)
    a <- prd_curve(real, generated, method = "knn", angles = 51)
    set.seed(1)
    b <- prd_curve(real * 1e50, generated * 1e50, method = "knn", angles = 51)
    expect_equal(a$precision, b$precision, tolerance = 1e-12)
  })
})

test_that("a bandwidth without the kde method is reported, not silently ignored", {
  quiet_traps({
    set.seed(72)
    real <- matrix(rnorm(40), ncol = 2)
    generated <- matrix(rnorm(40, 1), ncol = 2)
    expect_warning(prd_curve(real, generated, method = "knn", bandwidth = 1),
                   class = "prdcurve_warning_unused_argument")
  })
})

test_that("the input scan finds every non-finite value and the largest magnitude", {
  # ffi_scan(): four values a step, a scalar tail, blocks of 2^20 values
  # shared among threads
  scan <- function(x) .Call(prdcurve:::ffi_scan, x)
  set.seed(11)
  for (n in c(1, 3, 4, 7, 2^20 + 5)) {
    x <- rnorm(n)
    expect_identical(scan(x), c(1, max(abs(x))))
    for (pos in unique(c(1, n, ceiling(n / 2)))) {
      for (bad in c(NA, NaN, Inf, -Inf)) {
        y <- x
        y[pos] <- bad
        expect_identical(scan(y)[1], 0)
        if (n > 1) expect_identical(scan(y)[2], max(abs(y[-pos])))
      }
    }
  }
  expect_identical(scan(c(-1e300, 2, -Inf)), c(0, 1e300))
  expect_identical(scan(c(0, -0, 0)), c(1, 0))
})

test_that("dates and times are features, in days", {
  set.seed(1)
  mk <- function(shift = 0) {
    data.frame(x = rnorm(600),
               when = as.Date("2020-01-01") + sample(30, 600, TRUE) + shift,
               at = as.POSIXct("2020-01-01", tz = "UTC") + runif(600) * 1e6,
               gap = as.difftime(runif(600) * 48, units = "hours"))
  }
  r <- mk()
  g <- mk()
  # said once, for the real set, with how to leave them out
  said <- character()
  sets <- withCallingHandlers(
    prepare_samples(r, g),
    prdcurve_message_time_columns = function(m) {
      said <<- c(said, cli::ansi_strip(conditionMessage(m)))
      invokeRestart("muffleMessage")
    })
  expect_length(said, 1L)
  expect_match(said, "Reading the date and time columns when, at, and gap as days", fixed = TRUE)
  expect_match(said, "features = c(-when, -at, -gap)", fixed = TRUE)
  expect_identical(colnames(sets$real), c("x", "when", "at", "gap"))
  expect_identical(unname(sets$real[, "when"]), as.numeric(r$when))
  expect_equal(unname(sets$real[, "at"]), as.numeric(r$at) / 86400)
  expect_equal(unname(sets$real[, "gap"]), as.numeric(r$gap) / 24)
  # a difference in other units is the same number of days
  g2 <- g
  g2$gap <- as.difftime(as.numeric(g$gap) * 3600, units = "secs")
  s2 <- suppressMessages(prepare_samples(r, g2))
  expect_equal(s2$generated[[1]][, "gap"], sets$generated[[1]][, "gap"])
  # a date a row (distinct days in sequence) is a date, not an identifier
  daily <- data.frame(x = rnorm(40), when = as.Date("2020-01-01") + 0:39)
  other <- transform(daily, x = rnorm(40))
  expect_no_warning(suppressMessages(prepare_samples(daily, other)),
                    class = "prdcurve_warning_id_column")
  expect_warning(prepare_samples(transform(daily, when = as.numeric(when)), other),
                 class = "prdcurve_warning_id_column")
  # a model whose dates are 60 days late is told apart by them alone
  late <- mk(shift = 60)
  set.seed(2)
  cv <- suppressMessages(quiet_traps(prd_curve(r, late, method = "knn",
                                               standardize = "real")))
  expect_lt(summary(cv)$auc, 0.05)
  # leaving them out reads the other columns
  set.seed(2)
  cv0 <- suppressMessages(quiet_traps(prd_curve(r, late, method = "knn",
                                                features = c(-when, -at, -gap))))
  expect_gt(summary(cv0)$auc, 0.8)
})
