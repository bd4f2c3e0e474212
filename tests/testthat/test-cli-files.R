# Tests of R/cli-files.R: the files the command line reads, their feature
# columns, .npz members and the models' labels.

skip_if_sanitizing()

test_that("--features takes names, ranges and tidyselect expressions", {
  dir <- tempfile("prdfeat")
  dir.create(dir)
  set.seed(21)
  mk <- function(n, mean) {
    data.frame(id = seq_len(n), f1 = rnorm(n, mean), f2 = rnorm(n),
               f3 = rnorm(n, mean), g1 = rnorm(n), f4 = rnorm(n))
  }
  real <- mk(70, 0)
  gen <- mk(60, 0.8)
  f_real <- file.path(dir, "r.csv")
  f_gen <- file.path(dir, "g.csv")
  data.table::fwrite(real, f_real)
  data.table::fwrite(gen, f_gen)
  run <- function(spec) {
    prd_cli(c(f_real, f_gen, "--features", spec, "--id", "id", "--seed", "2",
              "--method", "knn", "--angles", "51", "--quiet",
              "--out", file.path(dir, "o")))
  }
  ref <- function(cols) {
    set.seed(2)
    prd_curve(as.matrix(real[cols]), as.matrix(gen[cols]), method = "knn",
              angles = 51)
  }
  expect_same_curve(run("f1:f3"), ref(c("f1", "f2", "f3")))
  expect_same_curve(run("f1,f3:g1"), ref(c("f1", "f3", "g1")))
  expect_same_curve(run("2:3,6"), ref(c("f1", "f2", "f4")))
  expect_same_curve(run('starts_with("f")'), ref(c("f1", "f2", "f3", "f4")))
  expect_same_curve(run('starts_with("f") & !f2'), ref(c("f1", "f3", "f4")))
  expect_same_curve(run("f1:f4, -g1"), ref(c("f1", "f2", "f3", "f4")))
  # default: every numeric column but the id
  expect_same_curve(
    prd_cli(c(f_real, f_gen, "--id", "id", "--seed", "2", "--method", "knn",
              "--angles", "51", "--quiet", "--out", file.path(dir, "o"))),
    ref(c("f1", "f2", "f3", "g1", "f4")))
  expect_error(run("f1:nope"), "nope", class = "prdcurve_error_input")
  expect_error(run("starts_with("), class = "prdcurve_error_input")
  expect_error(run("id"), class = "prdcurve_error_input")
  expect_error(run(""), class = "prdcurve_error_input")
  # an exclusion may name a column only some files have, not one none has
  data.table::fwrite(cbind(real, label = rep(c("a", "b"), 35)), f_real)
  excl <- function(spec) {
    prd_cli(c(f_real, f_gen, paste0("--features=", spec), "--id", "id",
              "--seed", "2", "--method", "knn", "--angles", "51", "--quiet",
              "--out", file.path(dir, "o")))
  }
  expect_same_curve(excl("-label"), ref(c("f1", "f2", "f3", "g1", "f4")))
  expect_error(excl("-lable"), "no file has: `lable`",
               class = "prdcurve_error_input")
  data.table::fwrite(real, f_real)
  # a generated file with the same features in another order is realigned
  data.table::fwrite(gen[c("f4", "id", "g1", "f3", "f2", "f1")], f_gen)
  expect_same_curve(run("f1:f4"), ref(c("f1", "f2", "f3", "g1", "f4")))
  unlink(dir, recursive = TRUE)
})

test_that("files with different feature names or counts", {
  fx <- cli_fixture()
  other <- file.path(fx$dir, "w.csv")
  x <- fx$generated
  colnames(x) <- c("a", "b", "c")
  utils::write.csv(x, other, row.names = FALSE)
  cv <- expect_cli_warning(
    prd_cli(c(fx$f_real, other, "--seed", "1", "--method", "knn",
              "--angles", "11", "--quiet",
              "--out", file.path(fx$dir, "w"))),
    "matched by position", class = "prdcurve_warning_columns")
  set.seed(1)
  expect_same_curve(cv, prd_curve(fx$real, fx$generated, method = "knn",
                                  angles = 11))
  narrow <- file.path(fx$dir, "n.csv")
  utils::write.csv(x[, 1:2], narrow, row.names = FALSE)
  expect_error(prd_cli(c(fx$f_real, narrow, "--quiet")), "n.csv",
               class = "prdcurve_error_columns")
})

test_that("an id-like column is named as its own file names it, and --id of that name drops it", {
  dir <- tempfile("prdidname")
  dir.create(dir)
  set.seed(3)
  real <- data.frame(a = rnorm(60), b = rnorm(60), c = rnorm(60))
  gen <- data.frame(id = seq_len(50), b = rnorm(50), c = rnorm(50))
  f_real <- file.path(dir, "r4.csv")
  f_gen <- file.path(dir, "g_id.csv")
  data.table::fwrite(real, f_real)
  data.table::fwrite(gen, f_gen)
  args <- c(f_real, f_gen, "--method", "knn", "--angles", "11", "--seed", "1",
            "--quiet", "--out", file.path(dir, "o"))
  res <- cli_warnings(prd_cli(args))
  text <- vapply(attr(res, "warnings"), function(m) {
    gsub("\\s+", " ", conditionMessage(m))
  }, "")
  cls <- vapply(attr(res, "warnings"), function(m) class(m$condition)[1], "")
  id_text <- text[cls == "prdcurve_warning_id_column"]
  expect_length(id_text, 1L)
  expect_match(id_text, "`[^`]*g_id.csv` has 1 column that looks like an identifier: id.",
               fixed = FALSE)
  expect_match(id_text, "pass `--id id`", fixed = TRUE)
  expect_no_match(id_text, "--id a", fixed = TRUE)
  # the names that differ are reported by file, once
  names_text <- text[cls == "prdcurve_warning_columns"]
  expect_length(names_text, 1L)
  expect_match(names_text, "Only 'g_id.csv' has \"id\"; only 'r4.csv' has \"a\".",
               fixed = TRUE)
  expect_false("prdcurve_warning_column_names" %in% cls)
  # the advice drops the id of g_id.csv (2 features left), not a feature:
  # r4.csv's 3 features are then more
  expect_error(prd_cli(c(args, "--id", "id")), "'g_id.csv' has 2, 'r4.csv' has 3",
               fixed = TRUE, class = "prdcurve_error_columns")
  unlink(dir, recursive = TRUE)
})

test_that("an id-like column of an array is dropped by number, as the warning says", {
  fx <- cli_fixture()
  f_real <- file.path(fx$dir, "real_idx.npy")
  f_gen <- file.path(fx$dir, "gen_idx.npy")
  write_npy(cbind(seq_len(60), fx$real), f_real)
  write_npy(cbind(seq_len(50), fx$generated), f_gen)
  run <- function(...) {
    prd_cli(c(f_real, f_gen, ..., "--method", "knn", "--angles", "11",
              "--seed", "1", "--quiet", "--out", file.path(fx$dir, "o")))
  }
  res <- cli_warnings(run())
  id_w <- Filter(function(m) inherits(m$condition, "prdcurve_warning_id_column"),
                 attr(res, "warnings"))
  expect_length(id_w, 2L)
  for (m in id_w) {
    text <- gsub("\\s+", " ", conditionMessage(m))
    expect_match(text, "Drop it with `--features=-1`: an array has no column names",
                 fixed = TRUE)
    expect_no_match(text, "--id", fixed = TRUE)
  }
  # the advice works: the 3 features alone, no id warning
  w <- cli_warning_classes(cv <- run("--features=-1"))
  expect_false("prdcurve_warning_id_column" %in% w)
  set.seed(1)
  expect_same_curve(cv, prd_curve(fx$real, fx$generated, method = "knn",
                                  angles = 11))
  # --id names a column of a table: with arrays, the error says what to do
  expect_error(run("--id", "V1"), "--features=-1", fixed = TRUE,
               class = "prdcurve_error_input")
})

test_that("an exclusion by name in a mix of a table and an array: the table's column goes, a name no table has is an error", {
  fx <- cli_fixture()
  npy <- cli_npy_fixture(fx)
  tab <- file.path(fx$dir, "labelled.csv")
  utils::write.csv(data.frame(fx$real, label = rep(c("a", "b"), 30)), tab,
                   row.names = FALSE)
  run <- function(spec) {
    prd_cli(c(tab, npy$gen, paste0("--features=", spec), "--method", "knn",
              "--angles", "11", "--seed", "1", "--quiet",
              "--out", file.path(fx$dir, "o")))
  }
  # (the array's columns are numbers: names do not select in it)
  cv <- run("-label")
  set.seed(1)
  ref <- prd_curve(fx$real, unname(as.matrix(prd_read(npy$gen))),
                   method = "knn", angles = 11)
  expect_same_curve(cv, ref)
  expect_error(run("-lable"), "no file has: `lable`",
               class = "prdcurve_error_input")
})

test_that("a missing or infinite value of an array counts its rows from 0 too, of a table from 1 only", {
  fx <- cli_fixture()
  x <- fx$real
  x[c(3, 7), 2] <- c(NaN, Inf)
  f_npy <- file.path(fx$dir, "holes.npy")
  write_npy(x, f_npy)
  f_csv <- file.path(fx$dir, "holes.csv")
  utils::write.csv(x, f_csv, row.names = FALSE)
  err <- function(f) {
    e <- expect_error(prd_cli(c(f, fx$f_gen, "--method", "knn", "--quiet",
                                "--out", file.path(fx$dir, "o"))),
                      class = "prdcurve_error_input")
    gsub("\\s+", " ", cli::ansi_strip(conditionMessage(e)))
  }
  m <- err(f_npy)
  expect_match(m, "holes.npy", fixed = TRUE)
  expect_match(m, "2 rows have NA, NaN or Inf, e.g. rows 3 and 7", fixed = TRUE)
  expect_match(m, "Rows are counted from 1 (from 0 in NumPy: 2 and 6).",
               fixed = TRUE)
  # a text file (Inf read as a number): its rows as R counts them
  m <- err(f_csv)
  expect_match(m, "holes.csv", fixed = TRUE)
  expect_match(m, "row 7", fixed = TRUE)
  expect_no_match(m, "NumPy")
  # a table with a categorical column: the advice in the flags' words, R's
  # na.omit() left out
  f_cat <- file.path(fx$dir, "holes-cat.csv")
  utils::write.csv(data.frame(g = rep(c("u", "v"), length.out = nrow(x)), x),
                   f_cat, row.names = FALSE)
  m <- err(f_cat)
  expect_match(m, "Leave out those rows or columns (`--features`).", fixed = TRUE)
  expect_no_match(m, "na.omit", fixed = TRUE)
})

test_that("--features of names or tidyselect helpers is an error when every file is an array", {
  fx <- cli_fixture()
  f_real <- file.path(fx$dir, "s_real.npy")
  f_gen <- file.path(fx$dir, "s_gen.npy")
  write_npy(fx$real, f_real)
  write_npy(fx$generated, f_gen)
  run <- function(spec) {
    prd_cli(c(f_real, f_gen, paste0("--features=", spec), "--method", "knn",
              "--angles", "11", "--seed", "1", "--quiet",
              "--out", file.path(fx$dir, "o")))
  }
  for (spec in c("f1", "V1,V2", 'starts_with("x")', "-V1")) {
    err <- expect_error(run(spec), class = "prdcurve_error_input")
    expect_match(conditionMessage(err),
                 paste0("`--features ", spec, "` selects columns by name"),
                 fixed = TRUE)
    expect_match(conditionMessage(err), "by number", fixed = TRUE)
  }
  # column numbers select: 2 columns
  cv <- run("1,3")
  set.seed(1)
  expect_same_curve(cv, prd_curve(fx$real[, c(1, 3)], fx$generated[, c(1, 3)],
                                  method = "knn", angles = 11))
  # with a table among the files the names select there (the array keeps
  # its columns)
  expect_s3_class(
    prd_cli(c(f_real, fx$f_gen, "--features", "v1:v3", "--method", "knn",
              "--angles", "11", "--seed", "1", "--quiet",
              "--out", file.path(fx$dir, "o"))),
    "prd_curve")
})

test_that("a generated .npz of several arrays is one model per array", {
  skip_if(!nzchar(Sys.which("zip")), "no zip program to write the .npz")
  fx <- cli_fixture()
  g2 <- fx$generated + 0.5
  f_npz <- file.path(fx$dir, "feats.npz")
  write_npz(list(real = fx$real, good = fx$generated, shifted = g2), f_npz)
  args <- c("--seed", "4", "--method", "knn", "--angles", "21", "--quiet")
  # numpy.savez("feats.npz", real = ..., good = ..., shifted = ...): the
  # real array named, the others are the models, labelled by their names
  cv <- prd_cli(c(paste0(f_npz, ":real"), f_npz, args,
                  "--out", file.path(fx$dir, "all")))
  expect_identical(unique(cv$model), c("good", "shifted"))
  set.seed(4)
  ref <- prd_curve(fx$real, list(good = fx$generated, shifted = g2),
                   method = "knn", angles = 21)
  expect_same_curve(cv, ref)
  s <- summary(cv)
  expect_lt(s$auc[s$model == "shifted"], s$auc[s$model == "good"] - 0.1)
  # the real array is named as given, in the summary line and the title
  out <- suppressMessages(utils::capture.output(
    prd_cli(c(paste0(f_npz, ":real"), f_npz, setdiff(args, "--quiet"),
              "--out", file.path(fx$dir, "all2")))))
  expect_match(out[1], "^prd_curve: feats.npz:real \\(60 rows\\) vs good")
  expect_match(prdcurve:::cli_title(paste0(f_npz, ":real"),
                                    c(good = f_npz, shifted = f_npz), cv),
               "^feats.npz:real vs good, shifted \\(feats.npz\\)")
  # a label prefixes the arrays' names; --compare takes those labels
  cv2 <- prd_cli(c("--real", paste0(f_npz, ":real"), "--generated",
                   paste0("run1=", f_npz), args, "--replicates", "4",
                   "--compare", "run1:good", "--out", file.path(fx$dir, "lab")))
  expect_identical(unique(cv2$model), c("run1:good", "run1:shifted"))
  cmp <- utils::read.csv(file.path(fx$dir, "lab-compare.csv"))
  expect_identical(unique(cmp$model), "run1:shifted")
  expect_identical(unique(cmp$baseline), "run1:good")
  # the real set from another file: every array is a model (here the
  # array "real" holds the real rows: the copy warning says so)
  cv3 <- expect_cli_warning(
    prd_cli(c(fx$f_real, f_npz, args, "--out", file.path(fx$dir, "csv"))),
    "feats.npz:real: 60 of 60 rows", class = "prdcurve_warning_copies")
  expect_identical(unique(cv3$model), c("real", "good", "shifted"))
  # two such files with the same array names: labels tell them apart
  f2 <- file.path(fx$dir, "feats2.npz")
  file.copy(f_npz, f2)
  expect_error(prd_cli(c(fx$f_real, f_npz, f2, args, "--out",
                         file.path(fx$dir, "dup"))),
               "same label", class = "prdcurve_error_input")
  # arrays that are not 2-D (class labels, ids) are not models, said on the
  # progress output; one 2-D array left is the model, labelled by the array
  f_lab <- file.path(fx$dir, "withlabels.npz")
  write_npz(list(feats = fx$generated, labels = rep(0:4, 10), ids = 1:50),
            f_lab, compressed = TRUE)
  expect_identical(prdcurve:::npz_member_shape(f_lab, "labels"), 50)
  expect_identical(prdcurve:::npz_member_shape(f_lab, "feats"), c(50, 3))
  msgs <- character()
  printed <- utils::capture.output(cv4 <- withCallingHandlers(
    prd_cli(c(fx$f_real, f_lab, "--seed", "4", "--method", "knn",
              "--angles", "21", "--out", file.path(fx$dir, "lab4"))),
    message = function(m) {
      msgs <<- c(msgs, conditionMessage(m))
      invokeRestart("muffleMessage")
    }))
  expect_match(printed[1], "vs feats (50 rows)", fixed = TRUE)
  expect_identical(unique(cv4$model), "feats")
  set.seed(4)
  expect_same_curve(cv4, prd_curve(fx$real, fx$generated, method = "knn",
                                   angles = 21))
  skip_msg <- cli::ansi_strip(paste(msgs, collapse = "\n"))
  expect_match(skip_msg, "withlabels.npz:labels (shape (50))", fixed = TRUE)
  expect_match(skip_msg, "withlabels.npz:ids (shape (50))", fixed = TRUE)
  # as the real set: its only array of features, said in the command
  # line's syntax
  f_rl <- file.path(fx$dir, "real_labels.npz")
  write_npz(list(labels = rep(0:5, 10), feats = fx$real), f_rl)
  msg <- expect_message(
    utils::capture.output(cv5 <- prd_cli(c(f_rl, fx$f_gen, "--seed", "4",
                                           "--method", "knn", "--angles", "21",
                                           "--quiet", "--out",
                                           file.path(fx$dir, "lab5")))),
    "its only array of samples x features",
    class = "prdcurve_message_dropped_columns")
  expect_match(cli::ansi_strip(conditionMessage(msg)),
               paste0("name another as `", f_rl, ":NAME`"), fixed = TRUE)
  set.seed(4)
  expect_same_curve(cv5, prd_curve(fx$real, fx$generated, method = "knn",
                                   angles = 21))
  # two files, each with one array "feats": told apart by their files;
  # a file of one array named by NumPy (arr_0) is labelled by the file
  f_lab2 <- file.path(fx$dir, "run2.npz")
  write_npz(list(feats = fx$generated[1:45, ], labels = rep(0:4, 9)), f_lab2)
  f_one <- file.path(fx$dir, "plain.npz")
  write_npz(list(arr_0 = fx$generated[1:40, ]), f_one)
  f_named <- file.path(fx$dir, "named.npz")
  write_npz(list(noisy = fx$generated[1:42, ]), f_named)
  cv6 <- suppressMessages(prd_cli(c(fx$f_real, f_lab, f_lab2, f_one, f_named,
                                    "--seed", "4", "--method", "knn",
                                    "--angles", "21", "--quiet", "--out",
                                    file.path(fx$dir, "lab6"))))
  expect_identical(unique(cv6$model),
                   c("withlabels:feats", "run2:feats", "plain", "noisy"))
  expect_identical(prd_curve_info(cv6)$n_fit_generated + prd_curve_info(cv6)$n_eval_generated,
                   c(50L, 45L, 40L, 42L))
  # R's reader names the array it reads: several arrays, none chosen,
  # are an error, arr_0 and arr_1 of numpy.savez(path, x, y) too
  f_arr <- file.path(fx$dir, "unnamed.npz")
  write_npz(list(arr_0 = fx$real, arr_1 = fx$generated), f_arr)
  err <- expect_error(prd_read(f_arr), class = "prdcurve_error_file")
  expect_match(conditionMessage(err), "\"arr_0\" (60 x 3) and \"arr_1\" (50 x 3)",
               fixed = TRUE)
  expect_equal(unname(as.matrix(prd_read(f_arr, member = "arr_1"))),
               fx$generated)
})

test_that("--features applies to arrays as column numbers only", {
  fx <- cli_fixture()
  npy <- cli_npy_fixture(fx)
  f_real <- npy$real
  f_gen <- npy$gen
  # column numbers select in arrays too
  cv <- prd_cli(c(f_real, f_gen, "--features", "1,3", "--method", "knn",
                  "--angles", "21", "--seed", "2", "--quiet",
                  "--out", file.path(fx$dir, "pos")))
  set.seed(2)
  ref <- prd_curve(as_float32(fx$real[, c(1, 3)]),
                   list(gen = as_float32(fx$generated[, c(1, 3)])),
                   method = "knn", angles = 21)
  expect_equal(cv$precision, ref$precision, tolerance = 1e-12)
  # names select in the CSV; the array keeps its 3 columns
  cv2 <- prd_cli(c(f_real, fx$f_gen, "--features", "v1:v3", "--method",
                   "knn", "--angles", "21", "--seed", "2", "--quiet",
                   "--out", file.path(fx$dir, "named")))
  set.seed(2)
  ref2 <- prd_curve(as_float32(fx$real), list(gen = fx$generated),
                    method = "knn", angles = 21)
  expect_equal(cv2$precision, ref2$precision, tolerance = 1e-12)
  expect_true(isTRUE(attr(prdcurve:::cli_features("1:4,7"), "positions")))
  expect_true(isTRUE(attr(prdcurve:::cli_features("c(1:4, -2)"), "positions")))
  expect_false(isTRUE(attr(prdcurve:::cli_features("f1,f2"), "positions")))
  expect_false(isTRUE(attr(prdcurve:::cli_features('starts_with("f")'),
                           "positions")))
})

test_that("tables of numbers with empty cells: the indicators of R, from every file", {
  dir <- tempfile("prdnanum")
  dir.create(dir)
  set.seed(8)
  mk <- function(n, shift, na) {
    d <- data.frame(id = seq_len(n), x = rnorm(n, shift), y = rexp(n))
    d$x[na] <- NA
    d
  }
  # the real file has empty cells in x, the generated one none: its
  # indicator column (all 0) comes from the real file's
  real <- mk(200, 0, c(3, 50, 51))
  gen <- mk(200, 0.5, integer())
  f_real <- file.path(dir, "real.csv")
  f_gen <- file.path(dir, "gen.csv")
  data.table::fwrite(real, f_real)
  data.table::fwrite(gen, f_gen)
  msgs <- list()
  res <- withCallingHandlers(
    cli_warnings(prd_cli(c(f_real, f_gen, "--id", "id", "--method", "knn",
                           "--angles", "11", "--seed", "1",
                           "--out", file.path(dir, "o")))),
    prdcurve_cli_message = function(m) {
      msgs[[length(msgs) + 1L]] <<- m
      invokeRestart("muffleMessage")
    })
  cls <- vapply(msgs, function(m) class(m)[2], "")
  expect_identical(sum(cls == "prdcurve_message_missing_values"), 1L)
  expect_true("prdcurve_warning_category_levels" %in%
                vapply(attr(res, "warnings"), function(m) class(m$condition)[1], ""))
  set.seed(1)
  ref <- suppressMessages(suppressWarnings(
    prd_curve(real, list(gen = gen), id = id, method = "knn", angles = 11)))
  expect_identical(res$value$precision, ref$precision)
  expect_identical(res$value$recall, ref$recall)
})

test_that("tables with missing categories and dates: the command line says what R says", {
  dir <- tempfile("prdnacat")
  dir.create(dir)
  set.seed(7)
  mk <- function(n, p_na) {
    data.frame(id = seq_len(n), income = round(rlnorm(n, 8), 2),
               age = sample(20:80, n, TRUE),
               edu = ifelse(runif(n) < p_na, NA,
                            sample(c("basic", "higher"), n, TRUE)),
               visit = as.Date("2020-01-01") + sample(0:9, n, TRUE))
  }
  f_real <- file.path(dir, "real.csv")
  f_gen <- file.path(dir, "gen.csv")
  data.table::fwrite(mk(300, 0.2), f_real)
  data.table::fwrite(mk(300, 0), f_gen)
  # (--metrics reads the files a second time: each message is said once)
  args <- c(f_real, f_gen, "--id", "id", "--method", "knn", "--angles", "11",
            "--seed", "1", "--standardize", "--metrics=precision,recall",
            "--out", file.path(dir, "o"))
  msgs <- list()
  progress <- character()
  res <- withCallingHandlers(
    cli_warnings(prd_cli(args)),
    prdcurve_cli_message = function(m) {
      msgs[[length(msgs) + 1L]] <<- m
      invokeRestart("muffleMessage")
    },
    prdcurve_message_progress = function(m) {
      progress <<- c(progress, cli::ansi_strip(conditionMessage(m)))
      invokeRestart("muffleMessage")
    })
  text <- vapply(msgs, function(m) gsub("\\s+", " ", conditionMessage(m)), "")
  cls <- vapply(msgs, function(m) class(m)[2], "")
  # the missing category: said (it printed an empty line), R's advice left out
  na_text <- text[cls == "prdcurve_message_missing_categories"]
  expect_length(na_text, 1L)
  # a message's first line is filled to 80 columns (it was wrapped as if
  # after a warning's "prdcurve: warning: ", which a message does not have)
  first <- strsplit(conditionMessage(msgs[[which(cls == "prdcurve_message_missing_categories")]]),
                    "\n")[[1]][1]
  expect_gt(nchar(first), 65)
  expect_lte(nchar(first), 80)
  expect_match(na_text, "as a category of its own (edu=<NA>)", fixed = TRUE)
  expect_no_match(na_text, "na.omit", fixed = TRUE)
  expect_false(any(!nzchar(trimws(text))))
  # the date column: a feature in days, said where each file is read
  date_text <- trimws(progress[grepl("visit", progress, fixed = TRUE)])
  expect_length(date_text, 2L)
  expect_match(date_text, "^Read '(real|gen).csv': 300 x 4 in [0-9.]+ s \\(visit in days\\)\\.$")
  # --standardize: no scale warning (the missing category sent each file
  # through the full check, which warned of scales)
  cls_w <- vapply(attr(res, "warnings"), function(m) class(m$condition)[1], "")
  expect_false("prdcurve_warning_scale" %in% cls_w)
  expect_true("prdcurve_warning_category_levels" %in% cls_w)
})

test_that("a misspelt --id is named before the files' columns are compared", {
  dir <- tempfile("prdidspell")
  dir.create(dir)
  set.seed(4)
  real <- data.frame(id = seq_len(400), a = rnorm(400), b = rnorm(400))
  gen <- data.frame(a = rnorm(300), b = rnorm(300)) # a synthesiser writes no ids
  f_real <- file.path(dir, "real.csv")
  f_gen <- file.path(dir, "gen.csv")
  data.table::fwrite(real, f_real)
  data.table::fwrite(gen, f_gen)
  args <- c(f_real, f_gen, "--method", "knn", "--angles", "11", "--seed", "1",
            "--quiet", "--out", file.path(dir, "o"))
  e <- expect_error(prd_cli(c(args, "--id=ID")), class = "prdcurve_error_input")
  msg <- gsub("\\s+", " ", conditionMessage(e))
  expect_match(msg, "The `--id` column \"ID\" is in none of the files.", fixed = TRUE)
  expect_match(msg, "Did you mean `--id=id`?", fixed = TRUE)
  expect_no_match(msg, "number of feature columns", fixed = TRUE)
  # spelt right, the id leaves the features: the curve of a and b
  cv <- prd_cli(c(args, "--id=id"))
  set.seed(1)
  expect_same_curve(cv, prd_curve(as.matrix(real[c("a", "b")]), as.matrix(gen),
                                  method = "knn", angles = 11))
  unlink(dir, recursive = TRUE)
})

test_that("--features by number counts in the real file, whose names the other files read", {
  dir <- tempfile("prdfeatpos")
  dir.create(dir)
  set.seed(8)
  real <- data.frame(sample_id = seq_len(300), a = rnorm(300), b = rnorm(300),
                     day = rnorm(300, 5))
  gen <- data.frame(a = rnorm(250), b = rnorm(250), day = rnorm(250, 5))
  f_real <- file.path(dir, "real.csv")
  f_gen <- file.path(dir, "gen.csv")
  data.table::fwrite(real, f_real)
  data.table::fwrite(gen, f_gen)
  run <- function(spec) {
    prd_cli(c(f_real, f_gen, "--features", spec, "--method", "knn",
              "--angles", "21", "--seed", "1", "--quiet",
              "--out", file.path(dir, "o")))
  }
  by_name <- run("a,b")
  expect_same_curve(run("2:3"), by_name)
  expect_gt(summary(by_name)$auc, 0.9)
  unlink(dir, recursive = TRUE)
})
