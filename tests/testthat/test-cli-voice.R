# The command line's own voice (R/cli-voice.R): its warnings and errors
# name its flags and files, come before the results, and drop advice that
# does not apply on the command line.

skip_if_sanitizing()

# a run's standard output and standard error in the order written: the
# messages (progress, warnings) are written to the captured output as
# they arrive
cli_transcript <- function(args) {
  utils::capture.output(withCallingHandlers(
    tryCatch(prd_cli(args), prdcurve_error = function(e) {
      cat("prdcurve: error: ", conditionMessage(e), "\n", sep = "")
    }),
    message = function(m) {
      text <- conditionMessage(m)
      cat(text, if (!grepl("\n$", text)) "\n", sep = "")
      invokeRestart("muffleMessage")
    }))
}

# R's syntax in a text: `arg = value`, a call of an R function f()
expect_no_r_syntax <- function(text) {
  text <- paste(text, collapse = "\n")
  expect_no_match(text, "`[A-Za-z_.][A-Za-z0-9_.]* = ")
  expect_no_match(text, "`[A-Za-z_.][A-Za-z0-9_.]*` = ")
  expect_no_match(text, "[A-Za-z_][A-Za-z0-9_.]*\\(\\)")
  expect_no_match(text, "Warning message|In prd_curve|`real`|`generated")
}

test_that("the command line's warnings and errors name its flags and files, before the results", {
  fx <- cli_fixture(dir = tempfile("prdvoice"))
  tiny <- file.path(fx$dir, "tiny.csv")
  set.seed(4)
  utils::write.csv(matrix(round(rnorm(8 * 3, 0.5), 3), ncol = 3), tiny,
                   row.names = FALSE)
  out <- file.path(fx$dir, "voice")
  # too large a k: the error names --k with the value as typed
  txt <- cli_transcript(c(fx$f_real, fx$f_gen, "--k", "100000", "--quiet",
                          "--out", out))
  expect_identical(txt[1], "prdcurve: error: `--k 100000` is too large for the fit sets.")
  expect_match(txt[2], "^. `--k` must be at most 24 here.$")
  expect_length(txt, 2L)
  err <- expect_error(prd_cli(c(fx$f_real, fx$f_gen, "--k", "100000",
                                "--quiet", "--out", out)),
                      class = "prdcurve_error_k_too_large")
  expect_null(err$call)
  # a tiny generated file with tightest and knn: two warnings, each once,
  # naming the file and the flags; both before the first line of results
  txt <- cli_transcript(c(fx$f_real, tiny, "--method", "knn,tightest",
                          "--angles", "11", "--seed", "2", "--out", out))
  warn <- grep("^prdcurve: warning: ", txt)
  expect_length(warn, 2L)
  expect_match(txt[warn[1]], "Too few rows", fixed = TRUE)
  flat <- gsub("\\s+", " ", paste(txt, collapse = " "))
  expect_true(grepl(paste0(" `", tiny, "` has 8 rows."), flat, fixed = TRUE))
  expect_true(any(grepl("`--replicates`", txt, fixed = TRUE)))
  results <- grep("^prd_curve: ", txt)
  expect_length(results, 1L)
  expect_lt(max(warn), results)
  # the advice to use one family (e.g. --method knn) is dropped: knn runs
  expect_true(any(grepl("Use hundreds of rows per set.", txt, fixed = TRUE)))
  expect_false(any(grepl("or one family", txt, fixed = TRUE)))
  expect_no_r_syntax(txt)
  # with --replicates, the advice to read intervals is dropped too
  txt <- cli_transcript(c(fx$f_real, tiny, "--method", "knn", "--angles", "11",
                          "--seed", "2", "--replicates", "3", "--quiet",
                          "--out", out))
  expect_false(any(grepl("--replicates", txt, fixed = TRUE)))
  expect_no_r_syntax(txt)
  # k close to the fit size: `k` = 2 is --k 2
  txt <- cli_transcript(c(fx$f_real, fx$f_gen, "--split", "0.9", "--method",
                          "knn", "--angles", "11", "--seed", "1", "--quiet",
                          "--out", out))
  expect_match(txt[1], "^prdcurve: warning: `--k 2` is close to the size")
  expect_true(any(grepl("Use `--k` well below", txt, fixed = TRUE)))
  expect_no_r_syntax(txt)
})

test_that("one table maps R arguments to flags; advice in use is dropped", {
  opt <- list(real = list(path = "real.csv"),
              generated = list(a = list(path = "a.npy"),
                               b = list(path = "m.npz", member = "b")),
              method = "tightest", k = 5, split = 0.5, replicates = 0L,
              standardize = "none", closed = TRUE)
  tr <- function(x) prdcurve:::cli_translate(x, opt)
  expect_identical(
    tr(c("For model \"a\", the \"knn\" curve lies far above.",
         i = "Read the lower curve, or use `method = \"tightest\"`.",
         i = "Use `method = \"tightest\"`, or add \"quadratic\" to `method`.")),
    c("For model \"a\", the \"knn\" curve lies far above.",
      i = "Read the lower curve.",
      i = "Add \"quadratic\" to `--method`."))
  expect_identical(
    tr(c("`k` = 1,000 is too large.", x = "`generated$b` has 3 rows.",
         i = "Consider `standardize = \"real\"` (`--standardize` on the command line).",
         i = "Set `closed = FALSE`.",
         i = "See `manifold_samples()` per sample.",
         i = "Use `split = 0`, `angles = 11` or `bandwidth = c(1, 2)`.")),
    c("`--k 1000` is too large.", x = "`m.npz:b` has 3 rows.",
      i = "Consider `--standardize`.",
      i = "Set `--open`.",
      i = "Use `--split 0`, `--angles 11` or `--bandwidth 1,2`."))
  expect_identical(tr(c("`real` and `generated` differ.")),
                   "`real.csv` and `a.npy`, `m.npz:b` differ.")
  # NULL, the default, is the flag left out
  expect_identical(
    tr(c(i = "Give a larger `bandwidth`, or `bandwidth = NULL` for the default rule.")),
    c(i = "Give a larger `--bandwidth`, or no `--bandwidth` for the default rule."))
  # every argument of the table is an argument of prd_curve(),
  # manifold_metrics(), embedding_metrics() or prd_compare(), or a function
  # of the package
  tab <- prdcurve:::cli_flag_table()
  fns <- grepl("\\(\\)$", tab$arg)
  args <- c(names(formals(prd_curve)), names(formals(manifold_metrics)),
            names(formals(embedding_metrics)),
            names(formals(prd_compare)), names(formals(prd_read)))
  expect_true(all(tab$arg[!fns] %in% args))
  expect_true(all(vapply(sub("\\(\\)$", "", tab$arg[fns]), exists, NA)))
  # every flag of the table is an option of the command line (or a file)
  usage <- paste(prdcurve:::cli_usage(), collapse = " ")
  for (f in grep("^--", tab$flag, value = TRUE)) expect_match(usage, f, fixed = TRUE)
})

test_that("an id-like column of an array is dropped by number in the advice, of a table by --id", {
  advice <- function(file, cols) {
    c(paste0("`", file, "` has 2 columns that look like identifiers: ", cols, "."),
      i = "Its values are distinct whole numbers.",
      i = "Drop it, or (a data frame) pass `--id V1`: an identifier is never a feature.")
  }
  # (the positions come from the warning's field, not from its text)
  expect_identical(
    prdcurve:::cli_array_id(advice("/d/x.npz:feats", "V1 and V12"), c(1L, 12L))[[3]],
    "Drop them with `--features='c(-1, -12)'`: an array has no column names, its columns (V1, V2, ...) are chosen by number.")
  expect_identical(
    prdcurve:::cli_array_id(advice("/d/x.npy", "column 3"), 3L)[[3]],
    "Drop it with `--features=-3`: an array has no column names, its columns (V1, V2, ...) are chosen by number.")
  expect_identical(prdcurve:::cli_array_id(advice("/d/V1.csv", "V1 and V12"), c(1L, 12L)),
                   advice("/d/V1.csv", "V1 and V12"))
  # the warning carries the positions
  x <- cbind(rnorm(40), seq_len(40), rnorm(40))
  y <- cbind(rnorm(40), rep(1:4, 10), rnorm(40))
  w <- expect_warning(prd_curve(x, y, method = "knn"),
                      class = "prdcurve_warning_id_column")
  expect_identical(w$columns, 2L)
})

test_that("--families without tightest is ignored, and the warning says so in the command line's words", {
  fx <- cli_fixture(dir = tempfile("prdvoice"))
  txt <- cli_transcript(c(fx$f_real, fx$f_gen, "--method", "knn",
                          "--families", "knn", "--seed", "5", "--angles", "31",
                          "--quiet", "--out", file.path(fx$dir, "fam")))
  warn <- grep("^prdcurve: warning: ", txt, value = TRUE)
  expect_length(warn, 1L)
  expect_match(warn, "`--families` is used by the \"?tightest\"? method only")
  expect_no_r_syntax(txt)
})
