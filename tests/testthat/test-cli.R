skip_if_sanitizing()

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

test_that("--header and --no-header on arrays alone are warned as unused", {
  fx <- cli_fixture()
  npy <- cli_npy_fixture(fx)
  f_r <- npy$real
  f_g <- npy$gen
  told <- cli_unused_warnings(fx, "--no-header", files = c(f_r, f_g))
  expect_length(told, 1L)
  expect_match(gsub("\\s+", " ", conditionMessage(told[[1]])),
               "`--no-header` is read for delimited text files only", fixed = TRUE)
  expect_length(cli_unused_warnings(fx, "--header", files = c(f_r, f_g)), 1L)
  # a text file among the inputs reads it
  expect_length(cli_unused_warnings(fx, "--header", files = c(fx$f_real, f_g)),
                0L)
  expect_length(cli_unused_warnings(fx, files = c(f_r, f_g)), 0L)
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
  # a misspelt option: the one meant, and every option, none cut off
  e <- expect_error(run(fx$f_real, fx$f_gen, "--metod", "knn"),
                    class = "prdcurve_error_input")
  msg <- cli::ansi_strip(conditionMessage(e))
  expect_match(msg, "Did you mean `--method`?", fixed = TRUE)
  expect_match(msg, "`--metrics`, `--open`, `--standardize`", fixed = TRUE)
  expect_no_match(msg, "\u2026", fixed = TRUE)
  # another tool's name for an option: ours
  for (o in c("--output", "--output-dir", "--prefix")) {
    e <- expect_error(run(fx$f_real, fx$f_gen, o, "x"),
                      class = "prdcurve_error_input")
    expect_match(cli::ansi_strip(conditionMessage(e)), "Did you mean `--out`?",
                 fixed = TRUE)
  }
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
  e <- expect_error(run(fx$f_real, fx$f_gen, "--seed", "abc"), "--seed",
                    class = "prdcurve_error_input")
  # (was "a whole number >= -2147483647")
  expect_match(cli::ansi_strip(conditionMessage(e)),
               "must be a whole number, as set.seed() takes (e.g. 1 or 2026)",
               fixed = TRUE)
  e <- expect_error(run(fx$f_real, fx$f_gen, "--folds", "200"),
                    class = "prdcurve_error_input")
  expect_match(cli::ansi_strip(conditionMessage(e)),
               "a whole number >= 1 and <= 100", fixed = TRUE)
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
  # an infinite value: the error names the file and the row
  na_file <- file.path(fx$dir, "holes.csv")
  writeLines(c("v1,v2,v3", "1,2,3", "4,Inf,6", "7,8,9"), na_file)
  expect_error(run(na_file, fx$f_gen), "holes.csv.*missing.*row 2")
  # an empty cell is a missing value, as NA in R (an indicator column
  # beside its column), said in a message
  h <- fx$real
  h[2, 2] <- NA
  utils::write.table(h, na_file, sep = ",", row.names = FALSE, na = "",
                     col.names = paste0("v", 1:3))
  said <- character()
  cv <- withCallingHandlers(
    run(na_file, fx$f_gen, "--method", "knn", "--angles", "11"),
    message = function(m) {
      said <<- c(said, class(m))
      invokeRestart("muffleMessage")
    })
  expect_s3_class(cv, "prd_curve")
  expect_true("prdcurve_message_missing_values" %in% said)
  # negative numbers are values, not flags
  expect_s3_class(run(fx$f_real, fx$f_gen, "--seed", "-3", "--method", "knn",
                      "--angles", "11"), "prd_curve")
})

test_that("--folds and --repeats reach prd_curve()", {
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
  expect_match(out[1], "split = 0.5 (5 splits averaged); 4 folds; seed = 5",
               fixed = TRUE)
  set.seed(5)
  direct <- prd_curve(real, generated, method = "linear", folds = 4,
                      angles = 31)
  expect_equal(cv$precision, direct$precision, tolerance = 1e-12)
  # --repeats too, and the header says how many splits
  out <- capture.output(cv <- suppressMessages(
    prd_cli(c(fr, fg, "--method", "knn", "--repeats", "2", "--seed", "5",
              "--angles", "31", "--out", file.path(dir, "res3")))
  ), type = "output")
  expect_match(out[1], "split = 0.5 (2 splits averaged); seed = 5", fixed = TRUE)
  set.seed(5)
  direct <- prd_curve(real, generated, method = "knn", repeats = 2, angles = 31)
  expect_equal(cv$precision, direct$precision, tolerance = 1e-12)
  out <- capture.output(suppressMessages(
    prd_cli(c(fr, fg, "--method", "knn", "--repeats", "1", "--seed", "5",
              "--angles", "31", "--out", file.path(dir, "res4")))
  ), type = "output")
  expect_match(out[1], "split = 0.5; seed = 5", fixed = TRUE)
  expect_error(prd_cli(c(fr, fg, "--repeats", "0", "--quiet")), "repeats",
               class = "prdcurve_error_input")
  unlink(dir, recursive = TRUE)
})

test_that("--families reaches prd_curve(); unknown families are classed errors", {
  fx <- cli_fixture()
  run <- function(...) {
    suppressWarnings(prd_cli(c(fx$f_real, fx$f_gen, "--seed", "5",
                               "--angles", "31", "--quiet",
                               "--out", file.path(fx$dir, "res"), ...)))
  }
  cv <- run("--families", "knn,mixture")
  expect_setequal(prd_curve_info(cv)$details[[1]]$families, c("knn", "mixture"))
  set.seed(5)
  direct <- suppressWarnings(prd_curve(fx$real, fx$generated,
                                       families = c("knn", "mixture"),
                                       angles = 31))
  expect_equal(cv$precision, direct$precision, tolerance = 1e-12)
  expect_error(run("--families", "knn,bogus"), "--families",
               class = "prdcurve_error_input")
  expect_error(run("--families", "tightest"), "Unknown",
               class = "prdcurve_error_input")
  unlink(fx$dir, recursive = TRUE)
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
  # a given bandwidth reads no k (the column is empty), and one that
  # leaves every ball empty (continuous sets 10 apart) is told in the
  # command line's words
  expect_true(all(is.na(written$k)))
  utils::write.csv(matrix(rnorm(100 * 2), ncol = 2), fr, row.names = FALSE)
  utils::write.csv(matrix(rnorm(100 * 2, 10), ncol = 2), fg, row.names = FALSE)
  res <- cli_warnings(
    prd_cli(c(fr, fg, "--method", "kde", "--bandwidth", "0.01", "--k", "3",
              "--seed", "1", "--quiet", "--out", out)))
  w <- attr(res, "warnings")
  cls <- vapply(w, function(m) class(m$condition)[1], "")
  expect_true(all(c("prdcurve_warning_unused_argument",
                    "prdcurve_warning_bandwidth") %in% cls))
  text <- gsub("\\s+", " ", conditionMessage(w[[which(cls == "prdcurve_warning_bandwidth")]]))
  expect_match(text, "`--bandwidth` 0.01 leaves every ball empty", fixed = TRUE)
  expect_match(text, "or no `--bandwidth` for the default rule", fixed = TRUE)
  expect_no_match(text, "NULL")
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
  # a path ending in / makes its last folder (not more)
  suppressMessages(prd_cli(c(fx$f_real, fx$f_gen, "--method", "knn",
                             "--angles", "11", "--quiet", "--out",
                             paste0(file.path(fx$dir, "made"), "/"))))
  expect_true(file.exists(file.path(fx$dir, "made", "prdcurve.csv")))
  expect_error(prd_cli(c(fx$f_real, fx$f_gen, "--quiet", "--out",
                         paste0(file.path(fx$dir, "no2", "such"), "/"))),
               "does not exist", class = "prdcurve_error_output")
  expect_false(dir.exists(file.path(fx$dir, "no2")))
  # a prefix given with the extension of one output names both outputs
  suppressMessages(prd_cli(c(fx$f_real, fx$f_gen, "--method", "knn",
                             "--angles", "11", "--quiet", "--out",
                             file.path(sub, "run.CSV"))))
  expect_true(all(file.exists(file.path(sub, c("run.csv", "run.png")))))
  expect_false(any(file.exists(file.path(sub, c("run.CSV.csv", "run.csv.csv")))))
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
  expect_identical(w, "prdcurve_warning_scale") # real and generated, in one
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
               "split = 0.5, 5 splits averaged, standardized$")
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

test_that("the command line shows progress on a terminal only, never with --quiet", {
  withr::local_options(cli.dynamic = TRUE)
  expect_true(prdcurve:::cli_progress_wanted(FALSE))
  expect_false(prdcurve:::cli_progress_wanted(TRUE))
  withr::local_options(cli.dynamic = FALSE)
  expect_false(prdcurve:::cli_progress_wanted(FALSE))
  # show_progress(): an interactive session or the command line's request,
  # and never against options(prdcurve.progress = FALSE)
  withr::local_options(rlang_interactive = FALSE)
  expect_false(prdcurve:::show_progress())
  local({
    prdcurve:::local_run_state(progress = TRUE)
    expect_true(prdcurve:::show_progress())
    withr::local_options(prdcurve.progress = FALSE)
    expect_false(prdcurve:::show_progress())
  })
  expect_false(prdcurve:::run_state$progress)
  # prd_cli() leaves the state as it found it
  fx <- cli_fixture()
  withr::local_options(cli.dynamic = TRUE)
  suppressMessages(prd_cli(c(fx$f_real, fx$f_gen, "--method", "knn",
                             "--angles", "11", "--quiet", "--out",
                             file.path(fx$dir, "prog"))))
  expect_false(prdcurve:::run_state$progress)
})
