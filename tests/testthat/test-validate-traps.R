# Legal input that used to give a wrong answer without a word (issue 18):
# each trap is a classed warning or error with the fix in its message, and
# the numbers say why.

gauss <- function(n, d, mean = 0, sd = 1) {
  matrix(stats::rnorm(n * d, mean, sd), ncol = d)
}

test_that("a label column among continuous features is named, with the fix", {
  set.seed(181)
  mk <- function(n, sd) {
    data.frame(image_id = seq_len(n), label = sample(0:9, n, TRUE),
               gauss(n, 6, sd = sd))
  }
  real <- mk(150, 1)
  models <- list(good = mk(150, 1), noisy = mk(150, 1.6))
  w <- expect_warning(
    cv <- prd_curve(real, models, method = "knn", id = image_id, angles = 21),
    class = "prdcurve_warning_label_column")
  expect_match(conditionMessage(w), "from every set with `features = -label`",
               fixed = TRUE)
  expect_match(conditionMessage(w), "10 distinct values", fixed = TRUE)
  # dropped as the message says: the good model ranks first again
  # (knn alone reads the noisy model far above a simple classifier: warned)
  s <- summary(suppressWarnings(
    prd_curve(real, models, method = "knn", id = image_id,
              features = -label, angles = 21),
    classes = "prdcurve_warning_family_disagreement"))
  expect_gt(s$auc[s$model == "good"], s$auc[s$model == "noisy"] + 0.1)
  # a matrix: the column number, as a negative selection
  m <- as.matrix(real[-1])
  w <- expect_warning(manifold_metrics(m, as.matrix(models$good[-1]),
                                       metrics = "precision"),
                      class = "prdcurve_warning_label_column")
  expect_match(conditionMessage(w), "features = -label", fixed = TRUE)
})

test_that("two label columns are named in one warning; -label leaves out text columns", {
  set.seed(184)
  mk <- function(n, sd) {
    lab <- sample(0:9, n, TRUE)
    data.frame(image_id = sprintf("img%04d", seq_len(n)), label = lab,
               kind = lab %% 3, gauss(n, 6, sd = sd))
  }
  real <- mk(150, 1)
  gen <- mk(150, 1.5)
  # (two such columns stopped the call with an error of the message's
  # plural forms)
  w <- expect_warning(
    suppressMessages(prd_curve(real, gen, method = "knn", angles = 21)),
    class = "prdcurve_warning_label_column")
  expect_match(conditionMessage(w),
               "label (10 distinct values) and kind (3 distinct values)",
               fixed = TRUE)
  expect_match(conditionMessage(w), "features = c(-label, -kind)", fixed = TRUE)
  # the fix as the message gives it, without `id`: an exclusion narrows
  # the numeric columns, so the text column is left out as by default
  set.seed(1)
  # one message a set (real, then generated), both caught
  said <- character()
  # (the generated set is more dispersed: knn alone is warned about)
  a <- withCallingHandlers(
    prd_curve(real, gen, method = "knn", angles = 21,
              features = c(-label, -kind)),
    prdcurve_message_dropped_columns = function(m) {
      said <<- c(said, conditionMessage(m))
      invokeRestart("muffleMessage")
    },
    prdcurve_warning_family_disagreement = function(w) {
      invokeRestart("muffleWarning")
    })
  expect_length(said, 2)
  expect_true(all(grepl("image_id", said, fixed = TRUE)))
  set.seed(1)
  b <- withCallingHandlers(
    prd_curve(real, gen, method = "knn", angles = 21, id = image_id,
              features = c(-label, -kind)),
    prdcurve_warning_family_disagreement = function(w) {
      invokeRestart("muffleWarning")
    })
  expect_identical(a$precision, b$precision)
  # a positive selection of a text column is still an error
  expect_error(prd_curve(real, gen, method = "knn", features = c(image_id, X1)),
               class = "prdcurve_error_input")
})

test_that("on the command line the label warning gives the option, which works", {
  set.seed(185)
  dir <- withr::local_tempdir()
  mk <- function(n, sd) {
    data.frame(id = sprintf("img%04d", seq_len(n)), label = sample(0:9, n, TRUE),
               gauss(n, 5, sd = sd))
  }
  f_real <- file.path(dir, "real.csv")
  f_gen <- file.path(dir, "gen.csv")
  utils::write.csv(mk(200, 1), f_real, row.names = FALSE)
  utils::write.csv(mk(200, 1.4), f_gen, row.names = FALSE)
  args <- c("--real", f_real, "--generated", f_gen, "--method", "knn",
            "--angles", "21", "--seed", "1", "--quiet",
            "--out", file.path(dir, "out"))
  # (the text column "id" is told to be left out: not tested here)
  # (prd_cli() prints its warnings as "prdcurve: warning: ..." messages
  # of class prdcurve_cli_warning, the warning in their field `condition`)
  cls <- "prdcurve_warning_label_column"
  told <- function(a) {
    seen <- list()
    value <- suppressMessages(withCallingHandlers(
      prd_cli(a),
      prdcurve_cli_warning = function(m) {
        if (inherits(m$condition, cls)) seen[[length(seen) + 1L]] <<- m
        invokeRestart("muffleMessage")
      }))
    list(value = value, warnings = seen)
  }
  cli <- function(a) told(a)$value
  w <- told(args)$warnings
  expect_length(w, 1L)
  expect_match(conditionMessage(w[[1]]),
               "from every set with `--features=-label`", fixed = TRUE)
  # the command line's state is restored, and never was an option
  expect_null(prdcurve:::run_state$cli)
  expect_false(any(c("prdcurve.cli", "prdcurve.in_replicates") %in%
                     names(options())))
  res <- told(c(args, "--features=-label"))
  expect_length(res$warnings, 0L)
  res <- res$value
  # the five Gaussian columns, as when they are named
  ref <- cli(c(args, "--features", "X1:X5"))
  expect_identical(res$precision, ref$precision)
  expect_identical(res$recall, ref$recall)
  # arrays: their columns are selected by number, so the advice gives it
  # (a name, `-V3`, would be ignored for arrays)
  a_real <- file.path(dir, "real.npy")
  a_gen <- file.path(dir, "gen.npy")
  lab <- function(n, sd) cbind(gauss(n, 2, sd = sd), sample(0:9, n, TRUE),
                               gauss(n, 3, sd = sd))
  write_npy(lab(200, 1), a_real, dtype = "<f4")
  write_npy(lab(200, 1.4), a_gen, dtype = "<f4")
  args_a <- c(a_real, a_gen, "--method", "knn", "--angles", "21", "--seed",
              "1", "--quiet", "--out", file.path(dir, "arr"))
  w <- told(args_a)$warnings
  expect_length(w, 1L)
  expect_match(conditionMessage(w[[1]]), "`--features=-3`", fixed = TRUE)
  expect_null(prdcurve:::run_state$cli)
  res_a <- told(c(args_a, "--features=-3"))
  expect_length(res_a$warnings, 0L)
  res_a <- res_a$value
  ref_a <- cli(c(args_a, "--features", "1,2,4:6"))
  expect_identical(res_a$precision, ref_a$precision)
})

test_that("data whose every column is small integers are not flagged", {
  px <- as.matrix(digits[, 1:64])
  expect_no_warning(
    manifold_metrics(px[1:300, ], px[301:600, ], metrics = "precision"),
    class = "prdcurve_warning_label_column")
  # nor a continuous set with an integer column of many values
  set.seed(182)
  x <- cbind(gauss(100, 3), sample(1:100, 100, TRUE))
  expect_no_warning(manifold_metrics(x, cbind(x[100:1, 1:3] + 0.01, x[100:1, 4]),
                                     metrics = "precision"),
                    class = "prdcurve_warning_label_column")
})

test_that("a count column of a table with categorical columns is not a label column", {
  set.seed(185)
  mk <- function(n, shift) {
    data.frame(sex = factor(sample(c("f", "m"), n, TRUE)),
               children = stats::rpois(n, 2),
               income = stats::rnorm(n, shift), height = stats::rnorm(n))
  }
  real <- mk(300, 0)
  gen <- mk(300, 0.5)
  seen <- character()
  set.seed(1)
  cv <- suppressMessages(withCallingHandlers(
    prd_curve(real, gen, method = "knn", angles = 21),
    warning = function(w) {
      seen <<- c(seen, class(w))
      invokeRestart("muffleWarning")
    }))
  expect_false("prdcurve_warning_label_column" %in% seen)
  # the counts are features: the same curve as when they are named
  set.seed(1)
  ref <- suppressMessages(prd_curve(real, gen, method = "knn", angles = 21,
                                    features = c(sex, children, income, height)))
  expect_identical(cv$precision, ref$precision)
  # without the categorical column the same counts look like a label
  w <- expect_warning(
    prd_curve(real[-1], gen[-1], method = "knn", angles = 21),
    class = "prdcurve_warning_label_column")
  expect_match(conditionMessage(w), "children (", fixed = TRUE)
  # and the message says how to keep a count and silence the warning
  expect_match(conditionMessage(w), "A count (children, visits) is a feature",
               fixed = TRUE)
  expect_match(conditionMessage(w), "prdcurve_warning_label_column",
               fixed = TRUE)
})

test_that("generated rows copied from the real set are counted and flagged", {
  set.seed(183)
  real <- gauss(120, 4)
  fresh <- gauss(60, 4)
  gen <- rbind(real[1:40, ], fresh)
  w <- expect_warning(m <- manifold_metrics(real, gen, metrics = "precision"),
                      class = "prdcurve_warning_copies")
  expect_match(conditionMessage(w), "40 of 100 rows", fixed = TRUE)
  # near copies (1e-6 away) are not exact: no count, but flagged per sample
  near <- rbind(real[1:25, ] + 1e-6, fresh)
  expect_no_warning(s <- manifold_samples(real, near, k = 3),
                    class = "prdcurve_warning_copies")
  g <- s[s$set == "generated", ]
  expect_equal(which(g$copy), 1:25)
  expect_equal(g$real_distance[1:25], rep(2e-6, 25), tolerance = 1e-3)
  # the distance to the nearest real row, brute force
  brute <- apply(fresh, 1, function(y) min(sqrt(colSums((t(real) - y)^2))))
  expect_equal(g$real_distance[26:85], brute, tolerance = 1e-6)
  expect_true(all(is.na(s$copy[s$set == "real"])))
  s2 <- suppressWarnings(manifold_samples(real, gen, k = 3))
  expect_equal(sum(s2$copy[s2$set == "generated"]), 40)
  expect_equal(s2$real_distance[s2$set == "generated"][1:40], rep(0, 40))
  # a table of few distinct rows (two categorical columns, 6 cells): the
  # real set repeats itself, so a model's rows equal real ones without
  # memorising; below half its rows repeated, copies are warned about
  cells <- function(n) data.frame(a = sample(c("x", "y"), n, TRUE),
                                  b = sample(c("u", "v", "w"), n, TRUE))
  seen <- character()
  withCallingHandlers(
    suppressMessages(manifold_metrics(cells(200), cells(150), metrics = "precision")),
    warning = function(w) {
      seen <<- c(seen, class(w)[1])
      invokeRestart("muffleWarning")
    })
  expect_false("prdcurve_warning_copies" %in% seen)
  expect_true("prdcurve_warning_duplicates" %in% seen)
  half <- rbind(real[1:50, ], real[1:50, ], gauss(110, 4))
  expect_warning(manifold_metrics(half, rbind(real[1:10, ], fresh),
                                  metrics = "precision"),
                 class = "prdcurve_warning_copies")
})

test_that("copies are measured against the share a fresh sample copies", {
  # a table whose coarse rows (2 in 5) repeat those of the other half, as
  # two samples of one law do (fewer than half the rows repeat, so the
  # rule of few distinct rows does not apply): a fresh sample copies as
  # many, no warning
  set.seed(41)
  coarse <- function(n) {
    cbind(sample(1:3, n, TRUE), sample(1:4, n, TRUE), sample(1:5, n, TRUE),
          rnorm(n) * (runif(n) < 0.6))
  }
  real <- coarse(1000)
  kr <- row_keys(real)[, 1]
  odd <- seq_along(kr) %% 2L == 1L
  base <- mean(kr[odd] %in% kr[!odd])
  expect_gt(base, 0.3)
  expect_lt(mean(kr %in% kr[duplicated(kr)]), 0.5)
  fresh <- coarse(800)
  share <- mean(rows_in(fresh, real))
  expect_lt(share, copies_baseline_factor * base)
  # (it warned: "memorised training data?")
  expect_false("prdcurve_warning_copies" %in%
                 warning_classes(warn_copies(real, list(generated = fresh))))
  # a model that writes real rows far more often than that is warned of,
  # with the real set's own share beside its count
  copier <- rbind(real[sample(1000, 700), ], coarse(100))
  w <- expect_warning(warn_copies(real, list(generated = copier)),
                      class = "prdcurve_warning_copies")
  expect_match(conditionMessage(w), sprintf("%.1f%% of the real set's odd rows",
                                            100 * base), fixed = TRUE)
  # continuous data: no copy of a fresh sample, one copy warns
  x <- matrix(rnorm(400), 200)
  expect_warning(warn_copies(x, list(generated = rbind(x[1, ], matrix(rnorm(398), 199)))),
                 class = "prdcurve_warning_copies")
})

test_that("duplicated rows with k below their copies are named, with the k that sees past them", {
  set.seed(184)
  real <- gauss(100, 3)
  g <- gauss(50, 3)
  gen <- rbind(g, g)
  w <- expect_warning(
    m <- manifold_metrics(real, gen, k = 1, metrics = c("precision", "recall")),
    class = "prdcurve_warning_duplicates")
  expect_match(conditionMessage(w), "100%", fixed = TRUE)
  expect_match(conditionMessage(w), "at least 2", fixed = TRUE)
  # what the warning explains: balls of radius 0 hold no real row
  expect_equal(m$value[m$metric == "recall"], 0)
  expect_no_warning(m2 <- manifold_metrics(real, gen, k = 2,
                                           metrics = c("precision", "recall")),
                    class = "prdcurve_warning_duplicates")
  expect_gt(m2$value[m2$metric == "recall"], 0.5)
})

test_that("duplicates that no allowed k sees past get advice that can be followed", {
  set.seed(187)
  x <- matrix(rep(1:4, each = 300), 300)
  y <- gauss(300, 4)
  advice <- function(expr) {
    w <- NULL
    withCallingHandlers(expr, warning = function(c) {
      if (inherits(c, "prdcurve_warning_duplicates")) {
        w <<- cli::ansi_strip(conditionMessage(c))
      }
      invokeRestart("muffleWarning")
    })
    expect_false(is.null(w))
    gsub("\\s+", " ", w)
  }
  # the largest k each function allows: 299 (no split), 149 (prd_curve's
  # split 0.5), 209 / 210 with split 0.3 (entropy: the whole fit set)
  cases <- list(
    list(function() manifold_metrics(x, y, metrics = "recall"), 299),
    list(function() entropy_metrics(x, y, metrics = "pce"), 299),
    list(function() prd_curve(x, y, method = "knn", angles = 11), 149),
    list(function() manifold_metrics(x, y, split = 0.3, metrics = "recall"), 209),
    list(function() entropy_metrics(x, y, split = 0.3, metrics = "pce"), 210))
  for (case in cases) {
    msg <- advice(case[[1]]())
    expect_match(msg, paste0("`k` of at least 300 would see past them (more ",
                             "than the copies of any row), but `k` can be at ",
                             "most ", case[[2]], " here."), fixed = TRUE)
    expect_match(msg, "`real` is mostly copies of one row (300 of its 300 rows)",
                 fixed = TRUE)
    expect_no_match(msg, "Use `k` of at least", fixed = TRUE)
    expect_no_match(msg, "unique()", fixed = TRUE)
  }
  # those limits are check_k()'s
  expect_error(suppressWarnings(manifold_metrics(x, y, split = 0.3, k = 210)),
               class = "prdcurve_error_k_too_large")
  expect_error(suppressWarnings(entropy_metrics(x, y, split = 0.3, k = 211)),
               class = "prdcurve_error_k_too_large")
  # half of the rows copies of one, beside a smaller set: unique() works
  x2 <- rbind(x[1:150, ], gauss(150, 4))
  msg <- advice(manifold_metrics(x2, y[1:100, ], metrics = "recall"))
  expect_match(msg, "`k` can be at most 99 here.", fixed = TRUE)
  expect_match(msg, "Remove the duplicates of `real` with `unique()` (151 distinct rows of 300).",
               fixed = TRUE)
  expect_no_warning(manifold_metrics(unique(x2), y[1:100, ], metrics = "recall"),
                    class = "prdcurve_warning_duplicates")
})

test_that("sets too small and k close to n are named", {
  set.seed(185)
  real <- gauss(60, 2)
  gen <- gauss(3, 2)
  expect_warning(
    s <- summary(suppressWarnings(prd_curve(real, gen, method = "knn",
                                            split = 0, angles = 21),
                                  classes = "prdcurve_warning_transposed")),
    class = "prdcurve_warning_small_sample")
  n <- 40
  x <- gauss(n, 2)
  y <- gauss(n, 2, mean = 3)
  w <- expect_warning(m <- manifold_metrics(x, y, k = n - 1,
                                            metrics = c("precision", "recall")),
                      class = "prdcurve_warning_k_large")
  # the reason: every ball holds nearly the whole set, so two sets 3 sd
  # apart score near 1, where k = 2 sees them apart
  expect_gte(min(m$value), 0.95)
  m2 <- manifold_metrics(x, y, k = 2, metrics = c("precision", "recall"))
  expect_lt(max(m2$value), 0.2)
  expect_match(conditionMessage(w), "at most 4 here", fixed = TRUE)
  expect_no_warning(manifold_metrics(x, y, k = 5, metrics = "precision"),
                    class = "prdcurve_warning_k_large")
  # a curve of fitted families alone reads no k: no warning about it
  set.seed(1)
  expect_warning(prd_curve(x[1:30, ], y[1:30, ], method = "knn", angles = 21),
                 class = "prdcurve_warning_k_large")
  expect_no_warning(prd_curve(x[1:30, ], y[1:30, ], method = "quadratic",
                              angles = 21, folds = 1),
                    class = "prdcurve_warning_k_large")
})

test_that("entropy_metrics() subsamples sets of unequal sizes to a common size", {
  set.seed(186)
  real <- gauss(300, 3)
  gen <- gauss(200, 3)
  set.seed(1)
  expect_message(a <- entropy_metrics(real, gen),
                 class = "prdcurve_message_subsampled")
  set.seed(1)
  # (drawn over the rows in canonical order: whatever order they came in)
  rows <- sort(canonical_order(real)[sample.int(300, 200)])
  b <- entropy_metrics(real[rows, ], gen)
  expect_equal(a$value, b$value)
  w <- expect_warning(entropy_metrics(real, gen, subsample = FALSE),
                      class = "prdcurve_warning_unequal_sizes")
  expect_match(conditionMessage(w), "subsample = TRUE", fixed = TRUE)
  expect_error(entropy_metrics(real, gen, subsample = NA),
               class = "prdcurve_error_input")
})

test_that("entropy_metrics() of one distribution with unequal sizes centres on 0 after subsampling", {
  skip_on_cran()
  set.seed(187)
  real <- gauss(900, 32)
  gen <- gauss(600, 32)
  full <- suppressWarnings(entropy_metrics(real, gen, subsample = FALSE,
                                           replicates = 10))
  sub <- suppressMessages(entropy_metrics(real, gen, replicates = 10))
  # the size ratio biases the estimators (log n and the radii): with every
  # row kept the intervals of RCE and RE exclude 0 (measured 0.37
  # [0.15, 0.58] and 0.70 [0.30, 1.10]); with equal sizes they hold it
  for (m in c("rce", "re")) {
    expect_gt(full$lower[full$metric == m], 0)
    expect_lt(sub$lower[sub$metric == m], 0)
    expect_gt(sub$upper[sub$metric == m], 0)
  }
})

test_that("prd_compare() warns when models differ in size", {
  set.seed(188)
  real <- gauss(80, 2)
  m <- manifold_metrics(real, list(a = gauss(80, 2), b = gauss(60, 2)),
                        metrics = "precision", replicates = 4)
  w <- expect_warning(prd_compare(m), class = "prdcurve_warning_unequal_sizes")
  expect_match(conditionMessage(w), "a: 80", fixed = TRUE)
  expect_match(conditionMessage(w), "b: 60", fixed = TRUE)
  set.seed(189)
  cv <- prd_curve(real, list(a = gauss(80, 2), b = gauss(60, 2)),
                  method = "knn", angles = 11, replicates = 4)
  expect_warning(prd_compare(cv), class = "prdcurve_warning_unequal_sizes")
  eq <- manifold_metrics(real, list(a = gauss(80, 2), b = gauss(80, 2)),
                         metrics = "precision", replicates = 4)
  expect_no_warning(prd_compare(eq), class = "prdcurve_warning_unequal_sizes")
})

test_that("an ungrouped model column is refused with the two ways to say it", {
  set.seed(190)
  real <- gauss(60, 2)
  long <- data.frame(model = rep(c("a", "b"), each = 30), gauss(60, 2))
  e <- expect_error(manifold_metrics(real, long, metrics = "precision"),
                    class = "prdcurve_error_model")
  expect_match(conditionMessage(e), "group_by", fixed = TRUE)
  expect_match(conditionMessage(e), "named list", fixed = TRUE)
  skip_if_not_installed("dplyr")
  m <- manifold_metrics(real, dplyr::group_by(long, model),
                        metrics = "precision")
  expect_equal(m$model, c("a", "b"))
  # one model in the column: nothing is pooled
  one <- long[long$model == "a", ]
  expect_equal(nrow(suppressMessages(manifold_metrics(real, one,
                                                      metrics = "precision"))), 1)
})

test_that("columns with other names are matched by position with a warning", {
  set.seed(191)
  x <- data.frame(a = rnorm(30), b = rnorm(30))
  y <- data.frame(u = rnorm(30), v = rnorm(30))
  w <- expect_warning(manifold_metrics(x, y, metrics = "precision"),
                      class = "prdcurve_warning_column_names")
  expect_match(conditionMessage(w), "a ~ u", fixed = TRUE)
  names(y) <- names(x)
  expect_no_warning(manifold_metrics(x, y, metrics = "precision"),
                    class = "prdcurve_warning_column_names")
})

test_that("calls over the memory limit are refused before allocating", {
  set.seed(192)
  x <- gauss(200, 2)
  y <- gauss(200, 2)
  th <- prd_threads()
  # the k-NN heaps are per thread, the radii per row and k: 8 bytes x
  # (4 x threads x k + 8 x rows x number of k)
  expect_equal(prdcurve:::check_memory(200, 200, 150, 0, 0, 0),
               8 * (4 * th * 150 + 8 * 400))
  # a curve: 6 columns x 8 bytes per angle, for the estimate and each
  # replicate
  expect_equal(prdcurve:::check_memory(200, 200, 3, 101, 2, 50) -
                 prdcurve:::check_memory(200, 200, 3, 0, 0, 0),
               8 * 6 * 101 * 2 * 51)
  # k close to the set size is not refused (an estimate of n x k candidates
  # would be 24 x 400 x 150 = 1.44 MB, over this limit)
  withr::local_options(prdcurve.memory_limit = 2e5)
  m <- suppressWarnings(manifold_metrics(x, y, k = 150, metrics = "precision"),
                        classes = "prdcurve_warning") # (k close to n)
  expect_true(all(m$value >= 0 & m$value <= 1))
  withr::local_options(prdcurve.memory_limit = 1e4)
  e <- expect_error(manifold_metrics(x, y, k = 150, metrics = "precision"),
                    class = "prdcurve_error_memory")
  expect_match(conditionMessage(e), "prdcurve.memory_limit", fixed = TRUE)
  expect_match(conditionMessage(e), "150 candidates", fixed = TRUE)
  # the replicates count: 10,001 angles fit alone, not with 10 replicates
  withr::local_options(prdcurve.memory_limit = 2e6)
  expect_s3_class(prd_curve(x, y, method = "knn", k = 3, angles = 10001),
                  "prd_curve")
  e <- expect_error(prd_curve(x, y, method = "knn", k = 3, angles = 10001,
                              replicates = 10),
                    class = "prdcurve_error_memory")
  # 8 x 6 x 10,001 x 11 bytes (5.04 MiB) and the radii: 5.1 MiB; no raw markup
  expect_match(conditionMessage(e), "5.1 MiB", fixed = TRUE)
  expect_match(conditionMessage(e), "10 replicates", fixed = TRUE)
  expect_match(conditionMessage(e), "fewer `angles` or fewer `replicates`",
               fixed = TRUE)
  expect_no_match(conditionMessage(e), "{", fixed = TRUE)
})

test_that("a failed future worker becomes a classed error with the way out", {
  boom <- structure(class = c("FutureError", "error", "condition"),
                    list(message = "worker died", call = NULL))
  e <- expect_error(with_future_errors(stop(boom)),
                    class = "prdcurve_error_future")
  expect_match(conditionMessage(e), "future::plan(future::sequential)",
               fixed = TRUE)
  expect_identical(conditionMessage(e$parent), "worker died")
  expect_equal(with_future_errors(1 + 1), 2)
})

test_that("errors of user functions and inner calls name what the user passed", {
  e <- expect_error(prd_truth(function(z) stop("no density here"),
                              function(z) rep(0, nrow(z)),
                              function(n) matrix(rnorm(n)),
                              function(n) matrix(rnorm(n)), n = 20),
                    class = "prdcurve_error_sampler")
  expect_match(conditionMessage(e), "log_density_real", fixed = TRUE)
  expect_match(conditionMessage(e$parent), "no density here", fixed = TRUE)
  e <- expect_error(prd_truth(function(z) rep(0, nrow(z)),
                              function(z) rep(0, nrow(z)),
                              function(n) stop("cannot draw"),
                              function(n) matrix(rnorm(n)), n = 20),
                    class = "prdcurve_error_sampler")
  expect_match(conditionMessage(e), "sample_real", fixed = TRUE)
  # prd_class_subset(): the sizes of P and Q, not the inner call's arguments
  set.seed(193)
  x <- gauss(12, 2)
  e <- expect_error(suppressWarnings(
    prd_class_subset(x, rep(1:3, 4), real_classes = 1, q = 1,
                     method = "knn", k = 5, split = 0)),
    class = "prdcurve_error_k_too_large")
  expect_match(conditionMessage(e), "`q` = 1", fixed = TRUE)
  expect_match(conditionMessage(e), "P has 2 rows", fixed = TRUE)
  # tidy(), glance(), prd_compare() on a broken curve blame `x`
  bad <- structure(data.frame(a = 1), class = c("prd_curve", "data.frame"))
  for (f in list(tidy, glance, prd_compare)) {
    e <- expect_error(f(bad), class = "prdcurve_error_curve")
    expect_match(conditionMessage(e), "`x`", fixed = TRUE)
  }
  e <- expect_error(tidy(structure(data.frame(a = 1),
                                   class = c("prd_metrics", "data.frame"))),
                    class = "prdcurve_error_input")
  expect_match(conditionMessage(e), "`x`", fixed = TRUE)
})

test_that("the row keys are computed once per set and dropped when the sets are subsampled", {
  set.seed(186)
  real <- gauss(100, 3)
  g <- gauss(40, 3)
  gen <- rbind(g, g)
  sets <- prdcurve:::prepare_samples(real, gen)
  expect_identical(names(sets$keys), c("real", "generated"))
  expect_identical(sets$keys$generated, prdcurve:::row_keys(gen))
  # the duplicate check reads them, with the same verdict as without
  w1 <- expect_warning(prdcurve:::check_sample_traps(sets, 1),
                       class = "prdcurve_warning_duplicates")
  sets0 <- sets
  sets0$keys <- NULL
  w0 <- expect_warning(prdcurve:::check_sample_traps(sets0, 1),
                       class = "prdcurve_warning_duplicates")
  expect_identical(conditionMessage(w1), conditionMessage(w0))
  # subsampled sets (entropy metrics) are new rows: their keys go
  sub <- suppressMessages(prdcurve:::equalize_sizes(sets, TRUE, 0))
  expect_null(sub$keys)
  expect_identical(nrow(sub$real), 80L)
})

test_that("row keys are equal for equal rows and count exact duplicates", {
  set.seed(12)
  x <- matrix(rnorm(700 * 37), 700)
  x[5, ] <- x[600, ]
  x[c(7, 8), ] <- x[rep(650, 2), ]
  k <- prdcurve:::row_keys(x)
  expect_identical(dim(k), c(700L, 2L))
  expect_identical(k[5, ], k[600, ])
  expect_identical(k[7, ], k[650, ])
  # the weights of the two keys, summed over the columns in order
  w1 <- 1 + cos(seq_len(37) * 2.399963229728653)
  expect_equal(k[, 1], drop(x %*% w1), tolerance = 1e-13)
  m <- prdcurve:::row_multiplicity(x)
  expect_identical(m[c(5, 600, 7, 8, 650, 1)], c(2L, 2L, 3L, 3L, 3L, 1L))
  expect_identical(prdcurve:::rows_in(x[c(3, 9), ] + c(0, 1e-9), x), c(TRUE, FALSE))
})

test_that("rows repeated in a table of categories are atoms: no copies to remove, density named", {
  set.seed(10)
  cells <- expand.grid(a = letters[1:4], b = c("x", "y", "z"))
  q <- c(3, 1, 1, 1, 2, 2, 1, 1, 1, 1, 2, 0.5)
  real <- cells[sample(12, 4000, TRUE), ]
  gen <- cells[sample(12, 4000, TRUE, prob = q), ]
  truth <- summary(prd_discrete(rep(1 / 12, 12), q / sum(q)))$auc
  # the curve reads atoms by their counts: no warning, near the truth
  set.seed(2)
  cv <- expect_no_warning(suppressMessages(prd_curve(real, gen, method = "knn")),
                          class = "prdcurve_warning_duplicates")
  expect_lt(abs(summary(cv)$auc - truth), 0.02)
  # the ball metrics: precision and recall of one law are 1, density is not
  w <- NULL
  m <- withCallingHandlers(
    suppressMessages(manifold_metrics(real, real[sample(4000), ],
                                      metrics = c("recall", "density"))),
    prdcurve_warning_duplicates = function(c) {
      w <<- gsub("\\s+", " ", conditionMessage(c))
      invokeRestart("muffleWarning")
    })
  expect_match(w, "every column is categorical or whole numbers (on a grid), so the rows are atoms",
               fixed = TRUE)
  expect_match(w, "density counts every copy", fixed = TRUE)
  expect_no_match(w, "unique()", fixed = TRUE)
  expect_identical(m$value[m$metric == "recall"], 1)
  expect_gt(m$value[m$metric == "density"], 10)
  # a continuous column beside them: copies, with the old advice
  cont <- cbind(real, x = rnorm(4000))
  cont <- rbind(cont[1:2000, ], cont[1:2000, ])
  sets <- suppressWarnings(suppressMessages(prepare_samples(cont, cont)))
  w <- expect_warning(check_sample_traps(sets, 1),
                      class = "prdcurve_warning_duplicates")
  expect_match(conditionMessage(w), "Duplicated rows", fixed = TRUE)
})
