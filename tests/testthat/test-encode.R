# The encoding of categorical columns (R/encode.R): indicator columns of
# weight 1/2 of the categories of every set, identical whatever the level
# order or the levels present; the warning for categories of one set only;
# identifiers left out; a category drift read by the default curve.

test_that("categories become indicator columns of weight 1/2, exactly", {
  df <- data.frame(x = c(1.5, 2, 3), sex = factor(c("M", "F", "M")),
                   ok = c(TRUE, FALSE, TRUE), town = c("b", "c", "a"))
  m <- encode_categories(df)
  expect_identical(colnames(m), c("x", "sex=F", "sex=M", "ok=FALSE", "ok=TRUE",
                                  "town=a", "town=b", "town=c"))
  expect_identical(unname(m[1, ]), c(1.5, 0, 0.5, 0, 0.5, 0, 0.5, 0))
  expect_identical(unname(m[2, ]), c(2, 0.5, 0, 0.5, 0, 0, 0, 0.5))
  expect_identical(unname(m[3, ]), c(3, 0, 0.5, 0, 0.5, 0.5, 0, 0))
  expect_identical(category_weight, 0.5)
  # two rows in different categories of one column: distance 2^(-1/2)
  expect_equal(sqrt(sum((m[1, 2:3] - m[2, 2:3])^2)), 2^-0.5, tolerance = 0)
  expect_identical(attr(m, "encoding")$variable,
                   c("x", "sex", "sex", "ok", "ok", "town", "town", "town"))
  expect_identical(attr(m, "encoding")$category,
                   c(NA, "F", "M", "FALSE", "TRUE", "a", "b", "c"))
  # ordered factors: one indicator per category as well (order not used)
  o <- encode_categories(data.frame(g = factor(c("lo", "hi"), c("lo", "hi"),
                                               ordered = TRUE)))
  expect_identical(colnames(o), c("g=hi", "g=lo"))
  expect_identical(unname(o[, ]), matrix(c(0, 0.5, 0.5, 0), 2))
  # a missing value: a category of its own ("<NA>" sorts before letters)
  e <- encode_categories(data.frame(g = c("a", NA)))
  expect_identical(colnames(e), c("g=<NA>", "g=a"))
  expect_identical(unname(e[, ]), matrix(c(0, 0.5, 0.5, 0), 2))
  expect_identical(attr(e, "encoding")$category, c("<NA>", "a"))
  # a column missing in every row of every set is not a category
  expect_identical(category_levels(list(data.frame(g = c(NA, NA)),
                                        data.frame(g = NA)))$g, character())
})

test_that("a missing category is read as a category of its own, as synthpop's", {
  set.seed(3)
  n <- 200
  draw <- function(p) sample(c("basic", "secondary", NA), n, TRUE, prob = p)
  real <- data.frame(x = rnorm(n), edu = draw(c(0.4, 0.4, 0.2)))
  same <- data.frame(x = rnorm(n), edu = draw(c(0.4, 0.4, 0.2)))
  lost <- data.frame(x = rnorm(n), edu = draw(c(0.5, 0.5, 0)))
  # (the missing category is one the model never writes: warned about)
  expect_warning(expect_message(
    sets <- prepare_samples(real, list(same = same, lost = lost)),
    "edu=<NA>", class = "prdcurve_message_missing_categories"),
    "edu = \"<NA>\"", class = "prdcurve_warning_category_levels")
  expect_identical(colnames(sets$real), c("x", "edu=<NA>", "edu=basic",
                                          "edu=secondary"))
  # each row's missing category is an indicator of weight 1/2
  expect_identical(sets$real[, "edu=<NA>"], ifelse(is.na(real$edu), 0.5, 0))
  expect_identical(sets$generated$lost[, "edu=<NA>"], numeric(n))
  # a model that never writes the missing category loses its mass: the
  # exact reading of the categories alone has max_recall 1 - P(NA)
  cv <- suppressWarnings(suppressMessages(
    prd_curve(real["edu"], list(lost = lost["edu"]), method = "knn",
              split = 0, angles = 11)))
  expect_equal(summary(cv)$max_recall, 1 - mean(is.na(real$edu)),
               tolerance = 0.02)
  # the message appears with a selection of features too, not without NA
  expect_message(prepare_samples(real, same, features = rlang::quo(edu)),
                 class = "prdcurve_message_missing_categories")
  expect_no_message(prepare_samples(real[!is.na(real$edu), ],
                                    same[!is.na(same$edu), ]),
                    class = "prdcurve_message_missing_categories")
})

test_that("a missing number is read as synthpop reads it: an indicator beside the value, filled", {
  set.seed(4)
  n <- 120
  real <- data.frame(x = rnorm(n), y = rexp(n))
  gen <- data.frame(x = rnorm(n, 0.5), y = rexp(n))
  real$x[c(2, 7, 30)] <- NA
  gen$x[c(1, 40)] <- NA
  gen$y[5] <- NaN
  fill_x <- stats::median(real$x, na.rm = TRUE)
  msgs <- list()
  # (y is missing in the generated set only: a category of that set only)
  expect_warning(sets <- withCallingHandlers(
    prepare_samples(real, gen),
    message = function(m) {
      msgs[[length(msgs) + 1L]] <<- m
      invokeRestart("muffleMessage")
    }), "y = \"<NA>\"", class = "prdcurve_warning_category_levels")
  cls <- vapply(msgs, function(m) class(m)[1], "")
  # one message, of its own class; no categorical column announced
  expect_identical(cls, "prdcurve_message_missing_values")
  expect_match(cli::ansi_strip(conditionMessage(msgs[[1]])),
               "numbers in x and y as an indicator column beside each (x=<NA>, ...)",
               fixed = TRUE)
  expect_identical(colnames(sets$real), c("x", "x=<NA>", "y", "y=<NA>"))
  expect_identical(colnames(sets$generated[[1]]), colnames(sets$real))
  # the value: the real set's median where missing, in every set; the
  # indicator 1/2 there and 0 elsewhere; y's fill the real set's median
  expect_identical(sets$real[, "x"], ifelse(is.na(real$x), fill_x, real$x))
  expect_identical(sets$generated[[1]][, "x"], ifelse(is.na(gen$x), fill_x, gen$x))
  expect_identical(sets$real[, "x=<NA>"], ifelse(is.na(real$x), 0.5, 0))
  expect_identical(sets$generated[[1]][, "x=<NA>"], ifelse(is.na(gen$x), 0.5, 0))
  expect_identical(unname(sets$generated[[1]][5, "y"]), stats::median(real$y))
  expect_identical(attr(sets$real, "encoding")$category,
                   c(NA, "<NA>", NA, "<NA>"))
  # the indicators count as categories (the default's tabular families),
  # the values as numbers
  expect_identical(category_columns(sets$real), c(FALSE, TRUE, FALSE, TRUE))
  # a set with no missing value gets the indicator too (0: a category of
  # the real set only, warned about)
  gen2 <- data.frame(x = rnorm(n), y = rexp(n))
  expect_warning(s2 <- suppressMessages(prepare_samples(real["x"], gen2["x"])),
                 "x = \"<NA>\"", class = "prdcurve_warning_category_levels")
  expect_identical(s2$generated[[1]][, "x=<NA>"], numeric(n))
  # a column missing in every real row: filled with every set's median
  r3 <- real
  r3$x <- NA_real_
  s3 <- suppressMessages(suppressWarnings(prepare_samples(r3, gen)))
  expect_identical(s3$real[, "x"], rep(stats::median(gen$x, na.rm = TRUE), n))
  # the curve of the encoded matrices, exactly
  run <- function(a, b) {
    set.seed(9)
    suppressMessages(suppressWarnings(prd_curve(a, b, method = c("knn", "marginal"),
                                                angles = 21)))
  }
  cv <- run(real, gen)
  by_hand <- run(unname(sets$real), unname(sets$generated[[1]]))
  expect_identical(cv$precision, by_hand$precision)
  expect_identical(cv$recall, by_hand$recall)
  # with a missing category too: two messages, the advice once
  real$g <- rep(c("u", "v", NA), length.out = n)
  gen$g <- rep(c("u", "v"), length.out = n)
  said <- list()
  withCallingHandlers(suppressWarnings(prepare_samples(real, gen)),
                      message = function(m) {
                        said[[length(said) + 1L]] <<- m
                        invokeRestart("muffleMessage")
                      })
  said <- said[vapply(said, inherits, NA, c("prdcurve_message_missing_values",
                                            "prdcurve_message_missing_categories"))]
  expect_length(said, 2L)
  expect_identical(sum(vapply(said, function(m) grepl("na.omit", conditionMessage(m),
                                                      fixed = TRUE), NA)), 1L)
  # a matrix keeps refusing NA (an embedding with NA is a bug)
  x <- as.matrix(real)
  expect_error(prd_curve(x, as.matrix(gen), method = "knn"),
               class = "prdcurve_error_input")
})

test_that("missing numbers, so read, give the true curve of the records", {
  skip_if_sanitizing()
  # real: x1 missing completely at random in 20% of the rows; a model that
  # imputes every value (missingness is then an atom of P alone: true
  # max_recall 0.8) and one that loses x1 where it is large (its top 20%:
  # cells observed-low, observed-high, missing of masses 0.64, 0.16, 0.2
  # against 0.8, 0, 0.2); the other columns as P's. Exact truths by
  # prd_discrete(). (Over seeds 1-6 the default read AUC -0.005 to +0.036
  # of them, max_recall -0.004 to +0.051.)
  set.seed(2)
  n <- 2000
  mk <- function(n) data.frame(x1 = rnorm(n), x2 = rnorm(n), x3 = rnorm(n))
  real <- mk(n)
  real$x1[runif(n) < 0.2] <- NA
  imputed <- mk(n)
  mnar <- mk(n)
  mnar$x1[mnar$x1 > qnorm(0.8)] <- NA
  truth <- list(prd_discrete(c(0.8, 0.2), c(1, 0), angles = 1001),
                prd_discrete(c(0.64, 0.16, 0.2), c(0.8, 0, 0.2), angles = 1001))
  expect_equal(vapply(truth, function(t) summary(t)$auc, 1), c(0.8, 0.8366),
               tolerance = 1e-4)
  cv <- suppressMessages(suppressWarnings(
    prd_curve(real, list(imputed = imputed, mnar = mnar), angles = 1001)))
  s <- summary(cv)
  expect_identical(s$model, c("imputed", "mnar"))
  expect_lt(max(abs(s$auc - vapply(truth, function(t) summary(t)$auc, 1))), 0.04)
  expect_lt(max(abs(s$max_recall - c(0.8, 0.84))), 0.06)
})

test_that("every set is encoded alike whatever its level order or levels present", {
  set.seed(5)
  n <- 40
  real <- data.frame(v = rnorm(n),
                     reg = factor(sample(c("n", "s", "e", "w"), n, TRUE),
                                  levels = c("w", "s", "n", "e", "unused")))
  # the generated set: another level order, no "w", a level of its own,
  # and characters instead of a factor
  gen <- data.frame(v = rnorm(n),
                    reg = sample(c("s", "n", "e", "x"), n, TRUE))
  sets <- suppressWarnings(prepare_samples(real, gen))
  cols <- c("v", "reg=e", "reg=n", "reg=s", "reg=w", "reg=x")
  expect_identical(colnames(sets$real), cols)
  expect_identical(colnames(sets$generated[[1]]), cols)
  # each row: 1/2 in its own category only
  for (s in list(list(sets$real, real), list(sets$generated[[1]], gen))) {
    ind <- s[[1]][, -1]
    expect_identical(unname(rowSums(ind)), rep(0.5, n))
    expect_identical(unname(ind[cbind(seq_len(n), match(as.character(s[[2]]$reg),
                                                        sub("reg=", "", cols[-1])))]),
                     rep(0.5, n))
  }
  # relabelling the levels' order, or the type, changes nothing
  real2 <- real
  real2$reg <- factor(as.character(real$reg), levels = c("e", "n", "s", "w"))
  gen2 <- gen
  gen2$reg <- factor(gen$reg, levels = rev(sort(unique(gen$reg))))
  sets2 <- suppressWarnings(prepare_samples(real2, gen2))
  expect_identical(unclass(sets2$real), unclass(sets$real))
  expect_identical(unclass(sets2$generated[[1]]), unclass(sets$generated[[1]]))
  # several generated sets share the union of every set's categories
  sets3 <- suppressWarnings(prepare_samples(real, list(a = gen, b = real)))
  expect_identical(colnames(sets3$generated$b), cols)
  expect_identical(unclass(sets3$generated$b), unclass(sets$real))
})

test_that("categories of one set only are atoms, with a classed warning", {
  set.seed(6)
  real <- data.frame(v = rnorm(30), g = rep(c("a", "b", "c"), 10))
  gen <- data.frame(v = rnorm(30), g = rep(c("a", "b", "d"), 10))
  w <- expect_warning(prepare_samples(real, gen),
                      class = "prdcurve_warning_category_levels")
  expect_match(conditionMessage(w), 'only in the real set: g = "c"', fixed = TRUE)
  expect_match(conditionMessage(w), 'only in this set: g = "d"', fixed = TRUE)
  msg <- gsub("\\s+", " ", conditionMessage(w))
  expect_match(msg, 'g = "c" (33% of the real rows)', fixed = TRUE)
  expect_match(msg, 'g = "d" (33% of this set\'s rows)', fixed = TRUE)
  expect_no_match(msg, "by chance")
  # the same categories: no such warning
  expect_no_warning(prepare_samples(real, data.frame(v = rnorm(30),
                                                     g = real$g[30:1])))
  # a category the generated set lacks: the warning names that one only
  w <- expect_warning(prepare_samples(real, data.frame(v = rnorm(4), g = c("a", "c", "a", "c"))),
                      class = "prdcurve_warning_category_levels")
  expect_match(conditionMessage(w), 'only in the real set: g = "b"', fixed = TRUE)
  expect_no_match(conditionMessage(w), "only in this set")
  # the marginal family reads the atoms: real mass 1/3 on "c", generated
  # 1/3 on "d" (v alike), so the true curve has max precision = max recall
  # = 2/3
  big_r <- data.frame(v = rnorm(3000), g = rep(c("a", "b", "c"), 1000))
  big_g <- data.frame(v = rnorm(3000), g = rep(c("a", "b", "d"), 1000))
  set.seed(1)
  s <- summary(suppressWarnings(prd_curve(big_r, big_g, method = "marginal")))
  expect_equal(s$max_precision, 2 / 3, tolerance = 0.03)
  expect_equal(s$max_recall, 2 / 3, tolerance = 0.03)
})

test_that("features selects categorical columns; identifiers stay out by default", {
  set.seed(7)
  n <- 30
  real <- data.frame(key = sprintf("r%03d", seq_len(n)), v = rnorm(n),
                     g = rep(c("a", "b"), n / 2), when = Sys.Date() + seq_len(n))
  gen <- data.frame(key = sprintf("g%03d", seq_len(n)), v = rnorm(n),
                    g = rep(c("b", "a"), n / 2), when = Sys.Date() + seq_len(n))
  # the key (a value per row) is not a feature: one message a set; the
  # date is one, in days
  said <- character()
  sets <- withCallingHandlers(
    prepare_samples(real, gen),
    prdcurve_message_dropped_columns = function(m) {
      said <<- c(said, conditionMessage(m))
      invokeRestart("muffleMessage")
    })
  expect_length(said, 2)
  expect_true(all(grepl("key", said) & !grepl("when", said)))
  expect_identical(colnames(sets$real), c("v", "g=a", "g=b", "when"))
  # an exclusion narrows that default
  sets <- suppressWarnings(suppressMessages(
    prepare_samples(real, gen, features = quote(-v))))
  expect_identical(colnames(sets$real), c("g=a", "g=b", "when"))
  # a selection takes what it names, but an identifier is an input error
  # (every generated row then equals real rows, which repeat themselves:
  # two categories, no copies warning)
  expect_no_warning(sets <- prepare_samples(real, gen, features = quote(g)),
                    class = "prdcurve_warning_copies")
  expect_identical(colnames(sets$real), c("g=a", "g=b"))
  expect_error(prepare_samples(real, gen, features = quote(c(g, key))),
               "key", class = "prdcurve_error_input")
  # a model label is not a feature either
  m <- suppressMessages(prepare_samples(real[-1], cbind(gen[-1], model = "m1")))
  expect_identical(colnames(m$generated[[1]]), c("v", "g=a", "g=b", "when"))
  # a selected column neither numeric, categorical nor a date is an input
  # error
  cx <- as.complex(seq_len(n))
  expect_error(prepare_samples(cbind(real, cx = cx), cbind(gen, cx = cx),
                               features = quote(c(v, cx))),
               "cx", class = "prdcurve_error_input")
  # an id column is never a feature
  sets <- prepare_samples(real, gen, id = quote(key), features = quote(c(v, g)))
  expect_identical(attr(sets$real, "ids"), real$key)
  expect_identical(colnames(sets$real), c("v", "g=a", "g=b"))
})

test_that("a curve names the feature columns it read, with or without standardize", {
  set.seed(8)
  n <- 120
  table_of <- function(shift, lab) {
    data.frame(id = seq_len(n), sex = sample(c("f", "m"), n, TRUE),
               age = rnorm(n, shift), income = rexp(n), label = lab)
  }
  real <- table_of(0, "real")
  gen <- table_of(0.5, "synth")
  feats <- function(cv) lapply(prd_curve_info(cv)$details, `[[`, "features")
  # the id and the set label left out, the category once by its name
  cv <- suppressMessages(prd_curve(real, gen, id = id, method = c("knn", "quadratic")))
  expect_identical(feats(cv), rep(list(c("sex", "age", "income")), 2))
  # standardize drops the encoding of the scaled sets, not the names
  cv <- suppressMessages(prd_curve(real, gen, id = id, method = "knn",
                                   standardize = "real", features = -income))
  expect_identical(feats(cv), list(c("sex", "age")))
  # a matrix: its column names as selected, NULL without
  x <- matrix(rnorm(4 * n), n, dimnames = list(NULL, c("a", "b", "c", "d")))
  cv <- prd_curve(x, x + 1, method = "knn", features = c(b, d))
  expect_identical(feats(cv), list(c("b", "d")))
  cv <- prd_curve(unname(x), unname(x) + 1, method = "knn")
  expect_identical(feats(cv), list(NULL))
  expect_true("features" %in% names(prd_curve_info(cv)$details[[1]]))
})

test_that("a category drift alone: the default curve reads the discrete truth", {
  # the example of the category drift: age and income alike, sex 0.5/0.5
  # against 0.7/0.3, region .4/.3/.1/.1/.1 against uniform; the true curve
  # is prd_discrete() of the ten cells (independent columns)
  p <- as.vector(outer(c(0.5, 0.5), c(0.4, 0.3, 0.1, 0.1, 0.1)))
  q <- as.vector(outer(c(0.7, 0.3), rep(0.2, 5)))
  truth <- summary(prd_discrete(p, q))$auc
  expect_equal(truth, 0.793, tolerance = 0.001)
  set.seed(46)
  n <- 3000
  draw <- function(ps, pr) {
    data.frame(age = round(stats::rnorm(n, 45, 15)),
               income = exp(stats::rnorm(n, 10, 0.5)),
               sex = factor(sample(c("F", "M"), n, TRUE, ps)),
               region = factor(sample(letters[1:5], n, TRUE, pr)))
  }
  real <- draw(c(0.5, 0.5), c(0.4, 0.3, 0.1, 0.1, 0.1))
  gen <- draw(c(0.7, 0.3), rep(0.2, 5))
  cv <- suppressWarnings(prd_curve(real, gen))
  # measured: 0.799 (the marginal family's curve, in "tightest")
  expect_lt(abs(summary(cv)$auc - truth), 0.05)
  # before the encoding, the categories were dropped: the curve read 0.995
  cv_num <- suppressWarnings(prd_curve(real, gen, features = c(age, income)))
  expect_gt(summary(cv_num)$auc, 0.95)
})

test_that("standardize = \"real\" keeps the indicators' weight, in the half-samples too", {
  set.seed(8)
  real <- data.frame(v = rnorm(60, 10, 3),
                     g = sample(c("a", "b", "c"), 60, TRUE, c(0.8, 0.1, 0.1)))
  gen <- data.frame(v = rnorm(60, 10, 3), g = sample(c("a", "b", "c"), 60, TRUE))
  s <- standardize_split(prepare_samples(real, gen, standardize = "real"))
  raw <- prepare_samples(real, gen)
  expect_identical(unname(s$real[, 2:4]), unname(raw$real[, 2:4]))
  expect_identical(unname(s$generated[[1]][, 2:4]),
                   unname(raw$generated[[1]][, 2:4]))
  # the numeric column: (x - mean) / sd of the real rows
  expect_equal(unname(s$real[, 1]), (real$v - mean(real$v)) / sd(real$v),
               tolerance = 1e-12)
  h <- standardize_half(s$real[1:30, ], list(s$generated[[1]][1:30, ]), "real",
                        grid = s$grid)
  expect_identical(unname(h$real[, 2:4]), unname(raw$real[1:30, 2:4]))
  expect_equal(unname(h$real[, 1]),
               (real$v[1:30] - mean(real$v[1:30])) / sd(real$v[1:30]),
               tolerance = 1e-12)
})

test_that("the plug-in curves encode both sets alike", {
  # real: categories a, b; generated: a, c (two columns each on their own)
  real <- data.frame(g = rep(c("a", "b"), c(60, 40)))
  gen <- data.frame(g = rep(c("a", "c"), c(30, 70)))
  # histogram of the three atoms: the discrete curve of (.6, .4, 0) and
  # (.3, 0, .7)
  set.seed(9)
  h <- suppressWarnings(prd_histogram(real, gen, clusters = 3, runs = 2))
  truth <- prd_discrete(c(0.6, 0.4, 0), c(0.3, 0, 0.7))
  expect_equal(summary(h)$auc, summary(truth)$auc, tolerance = 1e-6)
  expect_equal(summary(h)$max_precision, 0.3, tolerance = 1e-12)
  expect_equal(summary(h)$max_recall, 0.6, tolerance = 1e-12)
})

test_that("the categories of one set say their share of rows, and which the other set may miss by chance", {
  # one law over 100 categories of falling weight: the rare ones missing
  # from one set are chance; a frequent one the model drops is not
  lv <- sprintf("c%03d", 1:100)
  set.seed(7)
  draw <- function(n) data.frame(x = rnorm(n),
                                 g = factor(sample(lv, n, TRUE, 1 / (1:100)^1.5), lv))
  real <- draw(2000)
  gen <- draw(1000)
  gen$g[gen$g == "c001"] <- "c002" # c001 holds about 38% of the rows
  w <- expect_warning(prepare_samples(real, gen),
                      class = "prdcurve_warning_category_levels")
  msg <- gsub("\\s+", " ", conditionMessage(w))
  only_r <- setdiff(unique(as.character(real$g)), unique(as.character(gen$g)))
  n_r <- table(factor(real$g, lv))[only_r]
  rare <- sum(n_r * 1000 / 2000 < 5)
  share <- signif(100 * mean(real$g %in% only_r), 2)
  expect_gt(length(only_r), 1L)
  expect_gt(rare, 0L)
  expect_lt(rare, length(only_r))
  # the most frequent first, their share, and how many are rare
  expect_match(msg, paste0('only in the real set: g = "c001", '), fixed = TRUE)
  expect_match(msg, paste0("(", length(only_r), " categories, ", share,
                           "% of the real rows; ", rare,
                           " of them rare enough to be missing by chance)"),
               fixed = TRUE)
  expect_match(msg, "fewer than 5 rows expected in the other set", fixed = TRUE)
  # two draws of one law: whatever one set lacks, the other holds rarely
  w <- expect_warning(prepare_samples(draw(2000), draw(2000)),
                      class = "prdcurve_warning_category_levels")
  expect_match(gsub("\\s+", " ", conditionMessage(w)),
               "categories, [0-9.]+% of the real rows; each rare enough")
})
