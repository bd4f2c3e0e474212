cli_fixture <- function(header = TRUE, dir = tempfile("prdcli")) {
  dir.create(dir, showWarnings = FALSE)
  set.seed(11)
  real <- matrix(round(rnorm(60 * 3), 3), ncol = 3)
  generated <- matrix(round(rnorm(50 * 3, mean = 0.7), 3), ncol = 3)
  f_real <- file.path(dir, "real.csv")
  f_gen <- file.path(dir, "gen.csv")
  utils::write.table(real, f_real, sep = ",", row.names = FALSE,
                     col.names = if (header) paste0("v", 1:3) else FALSE)
  utils::write.table(generated, f_gen, sep = ",", row.names = FALSE,
                     col.names = if (header) paste0("v", 1:3) else FALSE)
  list(real = real, generated = generated, f_real = f_real, f_gen = f_gen,
       dir = dir)
}

# a second generated model (n rows, sd 0.5) written next to the fixture's
cli_second_model <- function(fx, n, seed, name) {
  set.seed(seed)
  g <- matrix(round(rnorm(n * 3, sd = 0.5), 3), ncol = 3)
  f <- file.path(fx$dir, name)
  utils::write.csv(g, f, row.names = FALSE)
  list(x = g, file = f)
}

# The warnings of a command-line run: prd_cli() prints them as
# "prdcurve: warning: ..." messages (class prdcurve_cli_warning, the
# original condition in the field `condition`) as they arrive. Returns
# the value of `expr` with attribute "warnings", those messages.
cli_warnings <- function(expr) {
  seen <- list()
  value <- withCallingHandlers(expr, prdcurve_cli_warning = function(m) {
    seen[[length(seen) + 1L]] <<- m
    invokeRestart("muffleMessage")
  })
  structure(list(value = value), warnings = seen)
}

# the classes of the warnings a command-line run printed
cli_warning_classes <- function(expr) {
  res <- cli_warnings(expr)
  vapply(attr(res, "warnings"), function(m) class(m$condition)[1], "")
}

expect_cli_warning <- function(expr, regexp = NULL, class) {
  res <- cli_warnings(expr)
  hits <- Filter(function(m) inherits(m$condition, class), attr(res, "warnings"))
  expect_true(length(hits) > 0L, label = paste("a warning of class", class))
  if (length(hits) && !is.null(regexp)) {
    # (the message wrapped at the console's width: long paths move the breaks)
    expect_match(gsub("\\s+", " ", conditionMessage(hits[[1]])), regexp)
  }
  invisible(res$value)
}

curve_columns <- c("method", "k", "lambda", "precision", "recall")

expect_same_curve <- function(object, expected) {
  object <- as.data.frame(object)
  expected <- as.data.frame(expected)
  expect_identical(object$method, expected$method)
  expect_equal(object$lambda, expected$lambda, tolerance = 1e-12)
  expect_equal(object$precision, expected$precision, tolerance = 1e-12)
  expect_equal(object$recall, expected$recall, tolerance = 1e-12)
}

test_that("prd_cli writes the curve of prd_curve() with the same seed", {
  fx <- cli_fixture(header = TRUE)
  out <- file.path(fx$dir, "cli-curve")
  expect_output(
    cv <- suppressMessages(
      prd_cli(c(fx$f_real, fx$f_gen, "--method", "knn,coverage",
                "--k", "4", "--split", "0.4", "--seed", "7",
                "--angles", "101", "--out", out))),
    "max_precision"
  )
  set.seed(7)
  ref <- prd_curve(fx$real, fx$generated, method = c("knn", "coverage"),
                   k = 4, split = 0.4, angles = 101)
  written <- utils::read.csv(paste0(out, ".csv"))
  expect_identical(names(written), c("model", curve_columns))
  expect_identical(nrow(written), 2L * 103L)
  expect_identical(unique(written$model), "gen")
  expect_same_curve(written, ref)
  # the returned curve is the curve itself, with its attributes
  expect_s3_class(cv, "prd_curve")
  expect_identical(names(cv), c("model", curve_columns))
  expect_equal(cv$precision, ref$precision)
  expect_identical(unique(prd_curve_info(cv)$k), 4L)
  expect_identical(unique(prd_curve_info(cv)$n_eval_real), 24L)
  if (requireNamespace("ggplot2", quietly = TRUE)) {
    expect_true(file.size(paste0(out, ".png")) > 1000)
  }
})

test_that("progress goes to messages, results to stdout, nothing under --quiet", {
  fx <- cli_fixture()
  out <- file.path(fx$dir, "quiet")
  args <- c(fx$f_real, fx$f_gen, "--method", "knn", "--seed", "1",
            "--angles", "11", "--out", out)
  msgs <- character()
  stdout <- utils::capture.output(
    withCallingHandlers(prd_cli(args), prdcurve_message_progress = function(m) {
      msgs <<- c(msgs, conditionMessage(m))
      invokeRestart("muffleMessage")
    }))
  expect_match(msgs[1], "Read .*real\\.csv.*60 x 3 in [0-9.]+ s")
  expect_match(msgs[2], "Read .*gen\\.csv.*50 x 3")
  expect_true(any(grepl("Computing curves \\(knn\\) for 1 model", msgs)))
  expect_true(any(grepl("Wrote", msgs)))
  expect_true(any(grepl("prd_curve: real.csv \\(60 rows\\) vs gen \\(50 rows\\); 3 features", stdout)))
  expect_false(any(grepl("Read ", stdout)))
  # without replicates no interval, so no note on what intervals cover
  expect_false(any(grepl("not the true curve", stdout, fixed = TRUE)))
  expect_silent(res <- prd_cli(c(args, "--quiet")))
  expect_s3_class(res, "prd_curve")
  expect_output(prd_cli(c(args, "--quiet")), NA)
})

test_that("a header is detected; --header / --no-header and --opt=value work", {
  fx <- cli_fixture(header = FALSE)
  out <- file.path(fx$dir, "cli-nohead")
  cv <- prd_cli(c(fx$f_real, fx$f_gen, "--method=knn", "--seed=3", "--k=5",
                  "--split=0", "--angles=51", paste0("--out=", out),
                  "--quiet"))
  ref <- prd_curve(fx$real, fx$generated, method = "knn", k = 5, split = 0,
                   angles = 51)
  # no header detected: all 60 rows read
  expect_identical(unique(prd_curve_info(cv)$n_eval_real), 60L)
  expect_same_curve(cv, ref)
  cv2 <- prd_cli(c(fx$f_real, fx$f_gen, "--no-header", "--method", "knn",
                   "--k", "5", "--split", "0", "--angles", "51",
                   "--out", out, "--quiet"))
  expect_same_curve(cv2, ref)
  # forcing --header on header-less files drops the first row
  # (their first rows, now names, differ: a warning says so)
  cv3 <- expect_cli_warning(
    prd_cli(c(fx$f_real, fx$f_gen, "--header", "--method", "knn",
              "--k", "5", "--split", "0", "--angles", "51",
              "--out", out, "--quiet")),
    class = "prdcurve_warning_columns")
  expect_identical(unique(prd_curve_info(cv3)$n_eval_real), 59L)
  expect_identical(unique(prd_curve_info(cv3)$n_eval_generated), 49L)
})

test_that("an integer id column is not a feature", {
  fx <- cli_fixture()
  dir <- fx$dir
  real_id <- data.frame(id = seq_len(60) * 1000L, fx$real)
  gen_id <- data.frame(fx$generated, id = seq_len(50))
  names(real_id)[-1] <- names(gen_id)[1:3] <- paste0("v", 1:3)
  f_real <- file.path(dir, "real_id.csv")
  f_gen <- file.path(dir, "gen_id.csv")
  utils::write.csv(real_id, f_real, row.names = FALSE)
  utils::write.csv(gen_id, f_gen, row.names = FALSE)
  out <- file.path(dir, "id")
  cv <- prd_cli(c(f_real, f_gen, "--id", "id", "--seed", "5",
                  "--method", "knn,ipr", "--angles", "101", "--quiet",
                  "--out", out))
  set.seed(5)
  ref <- prd_curve(fx$real, fx$generated, method = c("knn", "ipr"),
                   angles = 101)
  expect_same_curve(cv, ref)
  expect_identical(prd_curve_info(cv)$k, prd_curve_info(ref)$k)
  # the same files without --id: the id is a feature, and the curve differs
  w <- cli_warning_classes(
    cv_bad <- prd_cli(c(f_real, f_gen, "--seed", "5", "--method", "knn,ipr",
                        "--angles", "101", "--quiet", "--out", out)))
  expect_equal(sum(w == "prdcurve_warning_id_column"), 2)
  expect_gt(max(abs(cv_bad$precision - ref$precision)), 0.1)
  # a character id column needs no --id, and is reported as ignored
  real_chr <- data.frame(name = paste0("img", 1:60), fx$real)
  names(real_chr)[-1] <- paste0("v", 1:3)
  f_chr <- file.path(dir, "real_chr.csv")
  utils::write.csv(real_chr, f_chr, row.names = FALSE)
  expect_message(
    cv_chr <- prd_cli(c(f_chr, fx$f_gen, "--seed", "5", "--method", "knn,ipr",
                        "--angles", "101", "--quiet", "--out", out)),
    "name", class = "prdcurve_message_dropped_columns")
  expect_same_curve(cv_chr, ref)
})

test_that("several --generated files give one table with a model column", {
  fx <- cli_fixture()
  dir <- fx$dir
  set.seed(12)
  other <- matrix(round(rnorm(40 * 3, sd = 0.5), 3), ncol = 3,
                  dimnames = list(NULL, paste0("v", 1:3)))
  f_other <- file.path(dir, "narrow_model.csv")
  utils::write.csv(other, f_other, row.names = FALSE)
  out <- file.path(dir, "two")
  common <- c("--method", "knn,coverage", "--seed", "9", "--angles", "101",
              "--quiet")
  both <- prd_cli(c("--real", fx$f_real, "--generated", fx$f_gen,
                    "--generated", paste0("narrow=", f_other), common,
                    "--out", out))
  expect_identical(names(both), c("model", curve_columns))
  expect_identical(unique(both$model), c("gen", "narrow"))
  # one k for every model: round(sqrt(smallest fit set)) = round(sqrt(20))
  expect_identical(unique(prd_curve_info(both)$k), 4L)
  written <- utils::read.csv(paste0(out, ".csv"))
  expect_identical(names(written), c("model", curve_columns))
  expect_identical(unique(written$model), c("gen", "narrow"))
  # the models equal one prd_curve() call with both sets (shared real split)
  one_b <- prd_cli(c(fx$f_real, f_other, common, "--out", out))
  expect_identical(unique(one_b$model), "narrow_model")
  set.seed(9)
  ref <- prd_curve(fx$real, list(gen = fx$generated, narrow = other),
                   method = c("knn", "coverage"), angles = 101)
  expect_same_curve(both, ref)
  # the first model equals its single-file run with the same k (the same
  # random numbers draw the splits)
  one_a <- prd_cli(c(fx$f_real, fx$f_gen, common, "--k", "4", "--out", out))
  expect_same_curve(both[both$model == "gen", ], one_a)
  # positional: real, then any number of generated files
  pos <- prd_cli(c(fx$f_real, fx$f_gen, f_other, common, "--out", out))
  expect_identical(unique(pos$model), c("gen", "narrow_model"))
  expect_same_curve(pos, both)
  # the summary is per model and method
  expect_output(
    suppressMessages(prd_cli(c(fx$f_real, fx$f_gen, f_other, "--method", "knn",
                               "--seed", "9", "--angles", "101", "--out", out))),
    "gen +knn.*\\n.*narrow_model +knn")
})

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

test_that("float32 .npy and .npz files on the command line", {
  fx <- cli_fixture()
  f_npy <- file.path(fx$dir, "model_x.npy")
  write_npy(fx$generated, f_npy, dtype = "<f4")
  cv <- prd_cli(c("--real", fx$f_real, "--generated", f_npy, "--seed", "4",
                  "--method", "knn", "--angles", "21", "--quiet",
                  "--out", file.path(fx$dir, "npy")))
  expect_identical(unique(cv$model), "model_x")
  set.seed(4)
  expect_same_curve(cv, prd_curve(fx$real, as_float32(fx$generated),
                                  method = "knn", angles = 21))
  # an .npz member, chosen with FILE:MEMBER
  skip_if(!nzchar(Sys.which("zip")), "no zip program to write the .npz")
  f_npz <- file.path(fx$dir, "cache.npz")
  write_npz(list(a = fx$real, b = fx$generated), f_npz)
  cv2 <- prd_cli(c("--real", paste0(f_npz, ":a"),
                   "--generated", paste0("gen=", f_npz, ":b"), "--seed", "4",
                   "--method", "knn", "--angles", "21", "--quiet",
                   "--out", file.path(fx$dir, "npz")))
  expect_identical(unique(cv2$model), "gen")
  set.seed(4)
  expect_same_curve(cv2, prd_curve(fx$real, fx$generated, method = "knn",
                                   angles = 21))
  # samples saved in columns: the column-count error says so
  f_t <- file.path(fx$dir, "real_t.npy")
  write_npy(t(fx$real[1:20, ]), f_t, dtype = "<f4")
  err <- expect_error(prd_cli(c(f_t, f_npy, "--quiet")),
                      class = "prdcurve_error_columns")
  expect_match(cli::ansi_strip(conditionMessage(err)),
               "'real_t.npy' has fewer rows (3) than columns (20): are its samples in columns?",
               fixed = TRUE)
  err <- expect_error(prd_cli(c(f_npz, f_npy, "--quiet")), "several arrays",
                      class = "prdcurve_error_file")
  # in the command line's syntax, not the R argument's
  msg <- cli::ansi_strip(conditionMessage(err))
  expect_match(msg, paste0("name one as `", f_npz, ":NAME`"), fixed = TRUE)
  expect_no_match(msg, "member", fixed = TRUE)
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
  # as the real set: its only 2-D array, said in the command line's syntax
  f_rl <- file.path(fx$dir, "real_labels.npz")
  write_npz(list(labels = rep(0:5, 10), feats = fx$real), f_rl)
  msg <- expect_message(
    utils::capture.output(cv5 <- prd_cli(c(f_rl, fx$f_gen, "--seed", "4",
                                           "--method", "knn", "--angles", "21",
                                           "--quiet", "--out",
                                           file.path(fx$dir, "lab5")))),
    "its only 2-D array", class = "prdcurve_message_dropped_columns")
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

test_that("the figure: one panel per model, title with files, k and split", {
  skip_if_not_installed("ggplot2")
  fx <- cli_fixture()
  f_b <- file.path(fx$dir, "gen_b.csv")
  file.copy(fx$f_gen, f_b)
  out <- file.path(fx$dir, "fig")
  cv <- prd_cli(c("--real", fx$f_real, "--generated", fx$f_gen,
                  "--generated", f_b, "--k", "6", "--split", "0.4",
                  "--method", "knn,kde", "--seed", "1", "--angles", "51",
                  "--quiet", "--out", out))
  expect_true(file.exists(paste0(out, ".png")))
  expect_gt(file.size(paste0(out, ".png")), 10000)
  title <- prdcurve:::cli_title(fx$f_real, c(gen = fx$f_gen, gen_b = f_b), cv)
  expect_match(title, "real.csv vs gen.csv, gen_b.csv")
  # a model named otherwise than its file: the name of the legend, then the file
  expect_match(prdcurve:::cli_title(fx$f_real, c(noisy = fx$f_gen, gen_b = f_b), cv),
               "real.csv vs noisy (gen.csv), gen_b.csv", fixed = TRUE)
  # the arrays of one .npz name their file once
  expect_match(prdcurve:::cli_title(fx$f_real, c(good = "/x/m.npz", noisy = "/x/m.npz",
                                                 other = "/x/o.npz", gen_b = f_b), cv),
               "real.csv vs good, noisy (m.npz), other (o.npz), gen_b.csv",
               fixed = TRUE)
  expect_match(title, "knn, kde curves, k = 6, split = 0.4", fixed = TRUE)
  expect_no_match(title, "bands", fixed = TRUE)
  p <- prdcurve:::cli_plot(cv, title)
  built <- ggplot2::ggplot_build(p)
  expect_identical(nrow(built$layout$layout), 2L)
  expect_identical(as.character(built$layout$layout$.panel), c("gen", "gen_b"))
  expect_identical(p$labels$title, title)
  expect_identical(p$labels$x, "recall")
  expect_identical(p$labels$y, "precision")
  expect_identical(built$layout$panel_scales_x[[1]]$limits, c(0, 1))
  expect_identical(built$layout$panel_scales_y[[1]]$limits, c(0, 1))
  expect_true(built$plot$coordinates$is_free() == FALSE)
  expect_identical(built$plot$coordinates$ratio, 1)
  # one colour per method, every method in every panel (the lines: the
  # layer after the blank one that orders the legend's keys)
  d <- built$data[[which(vapply(p$layers, function(l) inherits(l$geom, "GeomPath"), NA))[1]]]
  expect_identical(length(unique(d$colour)), 2L)
  expect_identical(nrow(unique(d[c("PANEL", "colour")])), 4L)
  # a single model: one panel
  one <- prdcurve:::cli_plot(cv[cv$model == "gen", ], "t")
  expect_identical(nrow(ggplot2::ggplot_build(one)$layout$layout), 1L)
  # different k per model are named in the title
  cv2 <- prd_cli(c(fx$f_real, fx$f_gen, "--split", "0", "--method", "knn",
                   "--angles", "11", "--quiet", "--out", out))
  expect_match(prdcurve:::cli_title(fx$f_real, c(gen = fx$f_gen), cv2),
               " knn curve, k = 7, split = 0$")
  cv3 <- prd_curve(fx$real, list(a = fx$generated, b = fx$generated),
                   method = "knn", k = c(5, 7), split = 0, angles = 11)
  expect_match(prdcurve:::cli_title("r.csv", c(a = "a.csv", b = "b.csv"), cv3),
               "k = 5, 7, split = 0", fixed = TRUE)
})

test_that("prd_cli gives classed errors", {
  fx <- cli_fixture()
  run <- function(...) prd_cli(c(..., "--quiet", "--out",
                                 file.path(fx$dir, "err")))
  missing <- file.path(fx$dir, "no-such-file.csv")
  expect_error(run(fx$f_real, missing), "no-such-file",
               class = "prdcurve_error_file")
  expect_error(run(fx$f_real), "No generated file",
               class = "prdcurve_error_input")
  expect_error(run("--generated", fx$f_gen), "No real file",
               class = "prdcurve_error_input")
  expect_error(run(fx$f_real, fx$f_gen, "--bogus", "1"),
               "Unknown option.*--bogus", class = "prdcurve_error_input")
  expect_error(run(fx$f_real, fx$f_gen, "--k"), "--k.*needs a value",
               class = "prdcurve_error_input")
  expect_error(run(fx$f_real, "--generated"), "--generated.*needs a value",
               class = "prdcurve_error_input")
  expect_error(run(fx$f_real, fx$f_gen, "--k", "ten"),
               "--k.*must be a whole number", class = "prdcurve_error_input")
  expect_error(run(fx$f_real, fx$f_gen, "--k", "2.5"),
               class = "prdcurve_error_input")
  expect_error(run(fx$f_real, fx$f_gen, "--k", "0"),
               class = "prdcurve_error_input")
  expect_error(run(fx$f_real, fx$f_gen, "--split", "1"), "--split",
               class = "prdcurve_error_input")
  expect_error(run(fx$f_real, fx$f_gen, "--seed", "1.5"), "--seed",
               class = "prdcurve_error_input")
  expect_error(run(fx$f_real, fx$f_gen, "--angles", "2"), "--angles",
               class = "prdcurve_error_input")
  expect_error(run(fx$f_real, fx$f_gen, "--bandwidth", "1,-2"),
               "--bandwidth", class = "prdcurve_error_input")
  expect_error(run(fx$f_real, fx$f_gen, "--bandwidth", "1,2,3"),
               "--bandwidth", class = "prdcurve_error_input")
  expect_error(run(fx$f_real, fx$f_gen, "--folds", "0"), "--folds",
               class = "prdcurve_error_input")
  expect_error(run(fx$f_real, fx$f_gen, "--folds", "2.5"), "--folds",
               class = "prdcurve_error_input")
  expect_error(run(fx$f_real, fx$f_gen, "--quiet=yes"), "takes no value",
               class = "prdcurve_error_input")
  expect_error(run(fx$f_real, fx$f_gen, "--method", "knn,foo"), "foo",
               class = "prdcurve_error_input")
  expect_error(run(fx$f_real, fx$f_gen, "--header", "--no-header"),
               class = "prdcurve_error_input")
  expect_error(run(fx$f_real, fx$f_gen, "--id", "nope"), "none of the files",
               class = "prdcurve_error_input")
  expect_error(prd_cli(c(fx$f_real, fx$f_gen, "--out", "")),
               class = "prdcurve_error_input")
  # two generated files with the same base name need labels
  sub <- file.path(fx$dir, "sub")
  dir.create(sub)
  file.copy(fx$f_gen, sub)
  expect_error(run(fx$f_real, fx$f_gen, file.path(sub, "gen.csv")),
               "same label", class = "prdcurve_error_input")
  expect_s3_class(
    run(fx$f_real, fx$f_gen, paste0("other=", file.path(sub, "gen.csv")),
        "--method", "knn", "--angles", "11"),
    "prd_curve")
  expect_error(prd_cli(1), class = "prdcurve_error_input")
  # a file whose only extra column is not numeric: fewer features
  bad <- file.path(fx$dir, "bad.csv")
  writeLines(c("a,b,c", "1,2,x", "3,4,y", "5,6,z"), bad)
  expect_error(suppressMessages(run(fx$f_real, bad)),
               class = "prdcurve_error_columns")
  # an empty cell: the error names the file and the row
  na_file <- file.path(fx$dir, "holes.csv")
  writeLines(c("v1,v2,v3", "1,2,3", "4,,6", "7,8,9"), na_file)
  expect_error(run(na_file, fx$f_gen), "holes.csv.*missing.*row 2")
  # negative numbers are values, not flags
  expect_s3_class(run(fx$f_real, fx$f_gen, "--seed", "-3", "--method", "knn",
                      "--angles", "11"), "prd_curve")
})

test_that("--folds reaches prd_curve()", {
  set.seed(82)
  dir <- tempfile("prdcli")
  dir.create(dir)
  real <- matrix(rnorm(80 * 3), ncol = 3)
  generated <- matrix(rnorm(80 * 3, 0.5), ncol = 3)
  fr <- file.path(dir, "r.csv")
  fg <- file.path(dir, "g.csv")
  utils::write.csv(real, fr, row.names = FALSE)
  utils::write.csv(generated, fg, row.names = FALSE)
  cv <- prd_cli(c(fr, fg, "--method", "linear", "--folds", "4", "--seed",
                  "5", "--angles", "31", "--quiet", "--out",
                  file.path(dir, "res")))
  expect_identical(prd_curve_info(cv)$details[[1]]$folds, 4L)
  # the printed header says so
  out <- capture.output(suppressMessages(
    prd_cli(c(fr, fg, "--method", "linear", "--folds", "4", "--seed", "5",
              "--angles", "31", "--out", file.path(dir, "res2")))
  ), type = "output")
  expect_match(out[1], "split = 0.5; 4 folds; seed = 5", fixed = TRUE)
  set.seed(5)
  direct <- prd_curve(real, generated, method = "linear", folds = 4,
                      angles = 31)
  expect_equal(cv$precision, direct$precision, tolerance = 1e-12)
  unlink(dir, recursive = TRUE)
})

test_that("prd_cli --help prints the usage and returns NULL", {
  expect_output(res <- prd_cli("--help"), "Usage: prdcurve")
  expect_null(res)
  expect_output(prd_cli(c("-h", "whatever")), "--generated")
})

test_that("--open and --bandwidth reach prd_curve()", {
  set.seed(81)
  dir <- tempfile("prdcli")
  dir.create(dir)
  real <- matrix(sample(0:3, 60 * 2, TRUE), ncol = 2)
  generated <- matrix(sample(0:4, 50 * 2, TRUE), ncol = 2)
  fr <- file.path(dir, "r.csv")
  fg <- file.path(dir, "g.csv")
  utils::write.csv(real, fr, row.names = FALSE)
  utils::write.csv(generated, fg, row.names = FALSE)
  out <- file.path(dir, "res")
  # small integers on purpose (ties make open and closed balls differ):
  # the package's warnings about copies and duplicated rows are expected
  cv <- suppressWarnings(
    prd_cli(c(fr, fg, "--method", "kde", "--bandwidth", "1,1.5",
              "--open", "--split", "0", "--angles", "51", "--quiet",
              "--out", out)),
    classes = "prdcurve_warning")
  info <- prd_curve_info(cv)
  expect_equal(c(info$bandwidth_real, info$bandwidth_generated), c(1, 1.5))
  expect_false(info$closed)
  direct <- suppressWarnings(
    prd_curve(real, generated, method = "kde", bandwidth = c(1, 1.5),
              closed = FALSE, split = 0, angles = 51),
    classes = "prdcurve_warning")
  expect_equal(cv$precision, direct$precision, tolerance = 1e-12)
  written <- utils::read.csv(paste0(out, ".csv"))
  expect_equal(written$recall, direct$recall, tolerance = 1e-12)
  unlink(dir, recursive = TRUE)
})

test_that("the prdcurve script: exit status, stdout, stderr without a backtrace", {
  skip_on_os("windows")
  script <- system.file("scripts", "prdcurve", package = "prdcurve")
  skip_if(!nzchar(script), "the package is not installed")
  expect_identical(file.access(script, 1L)[[1]], 0L)
  fx <- cli_fixture()
  rscript <- file.path(R.home("bin"), "Rscript")
  out <- file.path(fx$dir, "script")
  so <- file.path(fx$dir, "stdout.txt")
  se <- file.path(fx$dir, "stderr.txt")
  status <- system2(rscript, c(script, shQuote(fx$f_real), shQuote(fx$f_gen),
                               "--method", "knn", "--seed", "1",
                               "--angles", "11", "--out", shQuote(out)),
                    stdout = so, stderr = se)
  expect_identical(status, 0L)
  expect_true(any(grepl("max_precision", readLines(so))))
  expect_true(any(grepl("Read .*real\\.csv", readLines(se))))
  expect_false(any(grepl("Read ", readLines(so))))
  expect_true(file.exists(paste0(out, ".csv")))
  status <- system2(rscript, c(script, shQuote(fx$f_real), "nope.csv"),
                    stdout = so, stderr = se)
  expect_identical(status, 1L)
  err <- readLines(se)
  expect_match(err[1], "^prdcurve: error: File .*nope\\.csv.* does not exist")
  expect_false(any(grepl("Backtrace|traceback|Execution halted", err)))
  expect_length(readLines(so), 0L)
  status <- system2(rscript, c(script, "--quiet", shQuote(fx$f_real),
                               shQuote(fx$f_gen), "--method", "knn",
                               "--angles", "11", "--out", shQuote(out)),
                    stdout = so, stderr = se)
  expect_identical(status, 0L)
  expect_length(readLines(so), 0L)
})

# the width and height in pixels of a PNG file (its IHDR chunk)
png_size <- function(path) {
  b <- readBin(path, "raw", 24L)
  px <- function(i) sum(as.integer(b[i:(i + 3L)]) * 256^(3:0))
  c(width = px(17L), height = px(21L))
}

test_that("--replicates, --metrics and --compare write what the R API computes", {
  fx <- cli_fixture()
  m2 <- cli_second_model(fx, 50, 21, "narrow.csv")
  g2 <- m2$x
  f_g2 <- m2$file
  out <- file.path(fx$dir, "run")
  printed <- utils::capture.output(
    suppressMessages(cv <- prd_cli(c(
      fx$f_real, fx$f_gen, f_g2, "--method", "knn,ipr", "--k", "4",
      "--angles", "41", "--seed", "3", "--replicates", "6", "--metrics",
      "--compare", "gen", "--out", out))))
  expect_true(any(grepl("Differences from gen", printed, fixed = TRUE)))
  # the intervals' note, as print(summary()) gives it
  expect_true(all(prdcurve:::curve_interval_note() %in% printed))
  models <- list(gen = fx$generated, narrow = g2)
  set.seed(3)
  ref <- prd_curve(fx$real, models, method = c("knn", "ipr"), k = 4,
                   angles = 41, replicates = 6)
  expect_equal(cv$precision, ref$precision, tolerance = 1e-12)
  written <- utils::read.csv(paste0(out, ".csv"))
  expect_equal(written$recall, ref$recall, tolerance = 1e-12)
  # with replicates the bands' ends too, as prd_curve_bands() gives them
  bands <- prd_curve_bands(ref)
  expect_identical(names(written), names(bands))
  for (col in c("recall_lower", "precision_lower", "recall_upper",
                "precision_upper")) {
    expect_equal(written[[col]], bands[[col]], tolerance = 1e-12)
  }
  # the metrics: manifold_metrics() with the same seed, k = --k
  set.seed(3)
  mref <- manifold_metrics(fx$real, models, k = 4, replicates = 6)
  m <- utils::read.csv(paste0(out, "-metrics.csv"))
  expect_identical(m$metric, mref$metric)
  expect_identical(m$model, mref$model)
  expect_equal(m$value, mref$value, tolerance = 1e-12)
  expect_equal(m$lower, mref$lower, tolerance = 1e-12)
  expect_equal(m$upper, mref$upper, tolerance = 1e-12)
  # the k of p_precision and p_recall is their ppr_k, named as such
  expect_identical(prdcurve:::cli_metrics_k(mref), "4; ppr_k = 4")
  expect_identical(prdcurve:::cli_metrics_k(mref[mref$metric == "recall", ]), "4")
  expect_identical(prdcurve:::cli_metrics_k(mref[mref$metric == "p_recall", ]),
                   "ppr_k = 4")
  # the comparison: prd_compare() of the curves, and of the metrics
  cref <- as.data.frame(prd_compare(ref, baseline = "gen"))
  cmp <- utils::read.csv(paste0(out, "-compare.csv"))
  expect_identical(cmp$statistic, cref$statistic)
  expect_identical(unique(cmp$model), "narrow")
  expect_identical(unique(cmp$baseline), "gen")
  expect_equal(cmp$estimate, cref$estimate, tolerance = 1e-12)
  expect_equal(cmp$lower, cref$lower, tolerance = 1e-12)
  mcmp <- utils::read.csv(paste0(out, "-metrics-compare.csv"))
  expect_equal(mcmp$estimate,
               prd_compare(mref, baseline = "gen")$estimate, tolerance = 1e-12)
  # the title says what the bands are
  expect_match(prdcurve:::cli_title(fx$f_real, c(gen = fx$f_gen, narrow = f_g2), ref),
               "k = 4, split = 0.5, 90% bands from 6 half-samples", fixed = TRUE)
  # a comparison's figure shows intervals
  expect_match(prdcurve:::cli_title(fx$f_real, c(gen = fx$f_gen, narrow = f_g2),
                                    ref, what = "differences from gen",
                                    bands = FALSE),
               "differences from gen, k = 4, split = 0.5, 90% intervals from 6",
               fixed = TRUE)
  # a figure per result that has an autoplot() method, at the package's
  # figure size (300 dpi), the title's lines added
  skip_if_not_installed("ggplot2")
  png <- paste0(out, ".png")
  size <- prdcurve:::cli_figure_size(ggplot2::autoplot(ref))
  expect_equal(png_size(png)[["width"]], round(size$width * 300), tolerance = 1)
  expect_equal(png_size(png)[["height"]], round((size$height + 0.18) * 300),
               tolerance = 1)
  if (!is.null(utils::getS3method("autoplot", "prd_comparison",
                                  optional = TRUE,
                                  envir = asNamespace("ggplot2")))) {
    expect_true(file.exists(paste0(out, "-compare.png")))
  }
})

test_that("the printed summary has three decimals in every column", {
  fx <- cli_fixture()
  txt <- utils::capture.output(suppressMessages(prd_cli(c(
    fx$f_real, fx$f_gen, "--method", "knn,coverage", "--angles", "41",
    "--seed", "2", "--replicates", "4", "--out",
    file.path(fx$dir, "p")))))
  body <- txt[grepl("^ *gen ", txt)]
  expect_length(body, 2L)
  nums <- unlist(regmatches(body, gregexpr("-?[0-9]+\\.[0-9]+", body)))
  expect_length(nums, 2L * 5L * 3L)  # 5 statistics, each with an interval
  expect_true(all(grepl("^-?[0-9]+\\.[0-9]{3}$", nums)))
  set.seed(2)
  s <- summary(prd_curve(fx$real, list(gen = fx$generated),
                         method = c("knn", "coverage"), angles = 41,
                         replicates = 4))
  expect_identical(regmatches(body[1], regexpr("[0-9]\\.[0-9]{3}", body[1])),
                   sprintf("%.3f", s$auc[1]))
})

test_that("--out into a missing folder fails before any file is read", {
  fx <- cli_fixture()
  msgs <- character()
  err <- withCallingHandlers(
    expect_error(prd_cli(c(fx$f_real, fx$f_gen, "--out",
                           file.path(fx$dir, "no", "such", "run"))),
                 class = "prdcurve_error_output"),
    message = function(m) {
      msgs <<- c(msgs, conditionMessage(m))
      invokeRestart("muffleMessage")
    })
  expect_match(conditionMessage(err), "does not exist")
  expect_match(conditionMessage(err), "such", fixed = TRUE)
  expect_false(any(grepl("Read|Computing", msgs)))
  # an existing folder, or a path ending in /, writes FOLDER/prdcurve.*
  sub <- file.path(fx$dir, "results")
  dir.create(sub)
  suppressMessages(prd_cli(c(fx$f_real, fx$f_gen, "--method", "knn",
                             "--angles", "11", "--quiet", "--out", sub)))
  expect_true(file.exists(file.path(sub, "prdcurve.csv")))
  # an output file that is a folder
  dir.create(file.path(fx$dir, "x.csv"))
  expect_error(prd_cli(c(fx$f_real, fx$f_gen, "--quiet", "--out",
                         file.path(fx$dir, "x"))),
               "is a folder", class = "prdcurve_error_output")
})

test_that("models of unequal sizes are warned about once, not once per comparison", {
  fx <- cli_fixture()
  f_g2 <- cli_second_model(fx, 40, 22, "small.csv")$file
  res <- suppressMessages(cli_warnings(
    prd_cli(c(
      fx$f_real, fx$f_gen, f_g2, "--method", "knn", "--k", "4", "--angles", "21",
      "--seed", "3", "--replicates", "6", "--metrics", "--compare", "gen",
      "--quiet", "--out", file.path(fx$dir, "uneq")))))
  n_warn <- sum(vapply(attr(res, "warnings"), function(m) {
    inherits(m$condition, "prdcurve_warning_unequal_sizes")
  }, logical(1)))
  expect_identical(n_warn, 1L)
})

test_that("--compare and --replicates are checked up front", {
  fx <- cli_fixture()
  f_b <- file.path(fx$dir, "b.csv")
  file.copy(fx$f_gen, f_b)
  expect_error(prd_cli(c(fx$f_real, fx$f_gen, f_b, "--compare", "gen")),
               "--replicates", class = "prdcurve_error_input")
  expect_error(prd_cli(c(fx$f_real, fx$f_gen, f_b, "--compare", "zz",
                         "--replicates", "4")),
               "\"gen\" and \"b\"", class = "prdcurve_error_input")
  expect_error(prd_cli(c(fx$f_real, fx$f_gen, "--compare", "gen",
                         "--replicates", "4")),
               "two generated", class = "prdcurve_error_input")
  expect_error(prd_cli(c(fx$f_real, fx$f_gen, "--replicates", "1")),
               "at least 2", class = "prdcurve_error_input")
  expect_error(prd_cli(c(fx$f_real, fx$f_gen, "--method", "knn,nope")),
               "Unknown", class = "prdcurve_error_input")
  # the methods are the package's curve methods
  usage <- paste(prdcurve:::cli_usage(), collapse = " ")
  for (m in prdcurve:::curve_methods()) expect_match(usage, m, fixed = TRUE)
  expect_match(usage, ".npz", fixed = TRUE)
  expect_identical(sum(grepl("^Usage:", prdcurve:::cli_usage())), 1L)
})

test_that("a ragged file and a folder input get errors a user can act on", {
  fx <- cli_fixture()
  ragged <- file.path(fx$dir, "ragged.csv")
  writeLines(c("v1,v2,v3", "1,2,3", "4,5,6", "7,8,9,10", "1,1,1"), ragged)
  err <- expect_error(prd_cli(c(fx$f_real, ragged, "--quiet")),
                      class = "prdcurve_error_file")
  expect_match(conditionMessage(err), "Line 4 has 4 fields")
  expect_no_match(conditionMessage(err), "fill")
  expect_no_match(conditionMessage(err), "comment.char")
  err <- expect_error(prd_cli(c(fx$f_real, fx$dir, "--quiet")),
                      class = "prdcurve_error_file")
  expect_match(conditionMessage(err), "is a directory")
})

test_that("the README's command-line example runs as written", {
  # three files as in the README: float32 arrays for the real set and
  # model a, a CSV with an image_id, a label and f1..f8 for model gen_b
  dir <- tempfile("readme")
  dir.create(dir)
  old <- setwd(dir)
  on.exit(setwd(old), add = TRUE)
  set.seed(5)
  real <- matrix(rnorm(80 * 8), ncol = 8)
  gen_a <- matrix(rnorm(80 * 8, mean = 0.2), ncol = 8)
  gen_b <- matrix(rnorm(70 * 8, sd = 0.7), ncol = 8)
  write_npy(real, "real.npy", dtype = "<f4")
  write_npy(gen_a, "gen_a.npy", dtype = "<f4")
  csv <- data.frame(image_id = sprintf("img%03d", 1:70),
                    label = rep(0:6, 10), gen_b)
  names(csv)[-(1:2)] <- paste0("f", 1:8)
  data.table::fwrite(csv, "gen_b.csv")
  args <- c("--real", "real.npy", "--generated", "a=gen_a.npy",
            "--generated", "gen_b.csv",
            "--features", 'starts_with("f")', "--id", "image_id",
            "--method", "knn,coverage", "--seed", "1", "--out", "result")
  expect_output(cv <- suppressMessages(prd_cli(args)), "max_precision")
  expect_true(file.exists("result.csv"))
  expect_identical(unique(cv$model), c("a", "gen_b"))
  set.seed(1)
  ref <- prd_curve(as_float32(real),
                   list(a = as_float32(gen_a), gen_b = gen_b),
                   method = c("knn", "coverage"))
  expect_equal(cv$precision, ref$precision, tolerance = 1e-12)
  expect_equal(utils::read.csv("result.csv")$recall, ref$recall,
               tolerance = 1e-12)
  # the label column is not a feature: 8 features, as in the arrays
  expect_identical(prd_curve_info(cv)$n_fit_real[1], 40L)
})

test_that("--features applies to arrays as column numbers only", {
  fx <- cli_fixture()
  f_real <- file.path(fx$dir, "real.npy")
  f_gen <- file.path(fx$dir, "gen.npy")
  write_npy(fx$real, f_real, dtype = "<f4")
  write_npy(fx$generated, f_gen, dtype = "<f4")
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

test_that("a title wider than its figure goes on two lines at its dash", {
  long <- "real.npy vs good.npy, noisy.npy - k = 32, split = 0.5"
  # the curves' figure is 3.3 inches wide: about 46 characters; the dash
  # does not end the first line
  expect_identical(prdcurve:::cli_fit_title(long, 3.3),
                   "real.npy vs good.npy, noisy.npy\nk = 32, split = 0.5")
  expect_identical(prdcurve:::cli_fit_title(long, 6.9), long)
  two <- "a.csv vs b.csv\nk = 5, split = 0"
  expect_identical(prdcurve:::cli_fit_title(two, 1.2), two)
  expect_identical(prdcurve:::cli_fit_title(two, 1),
                   "a.csv vs b.csv\nk = 5,\nsplit = 0")
  em <- "real.npy vs good.npy, noisy.npy \u2014 k = 32, split = 0.5"
  expect_identical(prdcurve:::cli_fit_title(em, 3.3),
                   "real.npy vs good.npy, noisy.npy\nk = 32, split = 0.5")
  # cli_title() breaks a long title the same way
  cv <- prd_curve(matrix(1:40 / 7, 20), matrix(1:40 / 5, 20), method = "knn",
                  k = 3, split = 0, angles = 11)
  expect_identical(
    prdcurve:::cli_title("real-features-of-the-test-set.npy",
                         "gen-features-of-the-model.npy", cv),
    paste0("real-features-of-the-test-set.npy vs gen-features-of-the-model.npy",
           "\nknn curve, k = 3, split = 0"))
  # three models of one .npz: the files themselves wrap, between files
  npz <- paste("real.npy vs good (models.npz), noisy (models.npz),",
               "collapsed (models.npz)\nk = 39, split = 0.5")
  fitted <- prdcurve:::cli_fit_title(npz, 3.3)
  expect_identical(fitted, paste0(
    "real.npy vs good (models.npz),\n",
    "noisy (models.npz), collapsed (models.npz)\n",
    "k = 39, split = 0.5"))
  expect_true(all(nchar(strsplit(fitted, "\n")[[1]]) <= 46))
  # a line of parameters too wide goes on more lines at its commas (the
  # curves' figure cut "... 90% bands from" off)
  params <- paste("real.csv vs good (gen2.csv), noisy (gen.csv)",
                  "tightest curve, k = 20, split = 0.5, 90% bands from 6 half-samples",
                  sep = "\n")
  expect_identical(prdcurve:::cli_fit_title(params, 3.3), paste(
    "real.csv vs good (gen2.csv), noisy (gen.csv)",
    "tightest curve, k = 20, split = 0.5,", "90% bands from 6 half-samples",
    sep = "\n"))
  expect_identical(prdcurve:::cli_fit_title(npz, 6.9), npz)
  expect_identical(prdcurve:::cli_fit_title(npz, 4),
                   sub("(models.npz), collapsed", "(models.npz),\ncollapsed",
                       npz, fixed = TRUE))
})

test_that("a warning about the inputs is given once, not again by --metrics", {
  fx <- cli_fixture()
  # five generated rows are copies of real rows
  g <- fx$generated
  g[1:5, ] <- fx$real[1:5, ]
  f_copy <- file.path(fx$dir, "copies.csv")
  utils::write.csv(g, f_copy, row.names = FALSE)
  res <- suppressMessages(cli_warnings(
    prd_cli(c(fx$f_real, f_copy, "--method", "knn", "--seed", "3",
              "--metrics", "--quiet", "--out", file.path(fx$dir, "cp")))))
  seen <- vapply(attr(res, "warnings"), function(m) class(m$condition)[1], "")
  expect_identical(sum(seen == "prdcurve_warning_copies"), 1L)
  # and the R API on its own still warns in each call
  expect_warning(manifold_metrics(fx$real, g, k = 4), class = "prdcurve_warning_copies")
})

test_that("--standardize scales by the real set, as standardize = 'real'", {
  set.seed(82)
  dir <- tempfile("prdcli")
  dir.create(dir)
  # columns in different units: a scale warning without --standardize
  real <- cbind(matrix(round(rnorm(80 * 3), 4), ncol = 3),
                round(rlnorm(80, 10, 1), 2))
  generated <- cbind(matrix(round(rnorm(70 * 3, 0.4), 4), ncol = 3),
                     round(rlnorm(70, 10.3, 1), 2))
  colnames(real) <- colnames(generated) <- c("a", "b", "c", "income")
  fr <- file.path(dir, "r.csv")
  fg <- file.path(dir, "g.csv")
  utils::write.csv(real, fr, row.names = FALSE)
  utils::write.csv(generated, fg, row.names = FALSE)
  args <- c(fr, fg, "--method", "knn,linear", "--seed", "4", "--angles", "21",
            "--metrics", "--quiet")
  w <- cli_warning_classes(prd_cli(c(args, "--out", file.path(dir, "u"))))
  expect_identical(w, rep("prdcurve_warning_scale", 2)) # real and generated
  out <- utils::capture.output(suppressMessages(
    w <- cli_warning_classes(cv <- prd_cli(c(setdiff(args, "--quiet"),
                                             "--out", file.path(dir, "s"),
                                             "--standardize")))),
    type = "output")
  expect_identical(w, character())
  expect_match(out[1], "4 features, standardized by the real set; k = ",
               fixed = TRUE)
  # and the figures' titles
  expect_match(prdcurve:::cli_title(fr, c(g = fg), cv, standardized = TRUE),
               "split = 0.5, standardized$")
  expect_false(grepl("standardized", prdcurve:::cli_title(fr, c(g = fg), cv)))
  set.seed(4)
  direct <- prd_curve(real, generated, method = c("knn", "linear"),
                      angles = 21, standardize = "real")
  expect_equal(cv$precision, direct$precision, tolerance = 1e-12)
  expect_equal(cv$recall, direct$recall, tolerance = 1e-12)
  written <- utils::read.csv(file.path(dir, "s-metrics.csv"))
  set.seed(4)
  m <- manifold_metrics(real, generated, standardize = "real")
  expect_equal(written$value, m$value, tolerance = 1e-9)
  unlink(dir, recursive = TRUE)
})

test_that("--atoms reads columns on a grid in one set only as prd_curve(atoms = ) does", {
  dir <- tempfile("prdcli")
  dir.create(dir)
  set.seed(21)
  real <- matrix(round(rnorm(200 * 3, sd = 10)), ncol = 3)
  generated <- matrix(round(rnorm(200 * 3, sd = 10), 3), ncol = 3)
  fr <- file.path(dir, "r.csv")
  fg <- file.path(dir, "g.csv")
  utils::write.csv(real, fr, row.names = FALSE)
  utils::write.csv(generated, fg, row.names = FALSE)
  args <- c(fr, fg, "--method", "marginal", "--seed", "3", "--angles", "51",
            "--quiet")
  res <- cli_warnings(prd_cli(c(args, "--out", file.path(dir, "e"))))
  ex <- res$value
  expect_true(any(vapply(attr(res, "warnings"), function(m) {
    inherits(m$condition, "prdcurve_warning_grid_columns")
  }, TRUE)))
  res <- cli_warnings(prd_cli(c(args, "--atoms", "ignore",
                                "--out", file.path(dir, "i"))))
  ig <- res$value
  expect_length(attr(res, "warnings"), 0L)
  set.seed(3)
  ref <- prd_curve(real, generated, method = "marginal", angles = 51,
                   atoms = "ignore")
  expect_equal(ig$precision, ref$precision)
  expect_equal(ig$recall, ref$recall)
  # exact: the whole numbers are atoms the model never hits (true AUC 0);
  # ignored: two samples of nearly one law
  expect_true(summary(ex)$auc < 0.005)
  expect_true(summary(ig)$auc > 0.9)
  expect_error(prd_cli(c(args, "--atoms", "round")), "--atoms",
               class = "prdcurve_error_input")
})

test_that("text and logical columns of CSV files are features, encoded as prd_curve() encodes data frames", {
  dir <- tempfile("prdcli-tab")
  dir.create(dir)
  set.seed(46)
  draw <- function(n, ps, pr, shift) {
    data.frame(age = round(rnorm(n, 40 + shift, 10), 1),
               sex = sample(c("F", "M"), n, TRUE, ps),
               region = sample(c("north", "south", "east"), n, TRUE, pr),
               owner = sample(c(TRUE, FALSE), n, TRUE),
               stringsAsFactors = FALSE)
  }
  real <- draw(300, c(0.5, 0.5), c(0.5, 0.3, 0.2), 0)
  gen <- draw(280, c(0.7, 0.3), rep(1 / 3, 3), 0)
  # a generated file whose columns come in another order, its region a
  # factor with levels in another order in R
  gen2 <- draw(260, c(0.5, 0.5), c(0.2, 0.3, 0.5), 2)[c("region", "owner", "age", "sex")]
  f_real <- file.path(dir, "real.csv")
  f_gen <- file.path(dir, "gen.csv")
  f_gen2 <- file.path(dir, "other.csv")
  utils::write.csv(real, f_real, row.names = FALSE)
  utils::write.csv(gen, f_gen, row.names = FALSE)
  utils::write.csv(gen2, f_gen2, row.names = FALSE)
  out <- file.path(dir, "run")
  cv <- quiet_traps(suppressMessages(prd_cli(c(
    f_real, f_gen, f_gen2, "--method", "tightest,logit,knn", "--seed", "9",
    "--angles", "51", "--quiet", "--out", out))))
  gen2$region <- factor(gen2$region, levels = c("south", "north", "east"))
  set.seed(9)
  ref <- quiet_traps(prd_curve(real, list(gen = gen, other = gen2[names(real)]),
                               method = c("tightest", "logit", "knn"), angles = 51))
  expect_identical(cv$model, ref$model)
  expect_same_curve(cv, ref)
  # every column was read: the encoded features of both (7 columns: age
  # and the indicators of F, M, east, north, south, FALSE, TRUE)
  expect_identical(prd_curve_info(cv)$details[[1]]$families,
                   c(tightest_default(), "logit", "interaction"))
  # the category drift is seen (the columns dropped, every curve read 1)
  auc <- summary(cv)
  expect_lt(auc$auc[auc$model == "gen" & auc$method == "tightest"], 0.95)
  # the propensity metrics of the same data frames on the command line
  quiet_traps(suppressMessages(prd_cli(c(
    f_real, f_gen, "--method", "knn", "--seed", "9", "--angles", "51",
    "--metrics=pmse,s_pmse", "--quiet", "--out", out))))
  m <- utils::read.csv(paste0(out, "-metrics.csv"))
  expect_identical(m$metric, c("pmse", "s_pmse"))
  expect_equal(m$value, quiet_traps(pmse_stats(real, gen))$value, tolerance = 1e-12)
  # numeric files are read as before: a matrix, no categorical column
  fx <- cli_fixture()
  expect_false(is.data.frame(prdcurve:::cli_read(list(path = fx$f_real), NULL,
                                                 NULL, NA, function(...) NULL)$x))
})
