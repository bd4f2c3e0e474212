# Tests of R/cli-parse.R.

skip_if_sanitizing()

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

test_that("prd_cli --help prints the usage and returns NULL", {
  expect_output(res <- prd_cli("--help"), "Usage: prdcurve")
  expect_null(res)
  expect_output(prd_cli(c("-h", "whatever")), "--generated")
  # --families states the default's rules with the package's own limits
  help <- gsub("\\s+", " ", paste(capture.output(prd_cli("--help")),
                                   collapse = " "))
  expect_match(help, "up to 512 columns with 8 rows a column and no direction between two halves of the real rows, also spectral", fixed = TRUE)
  expect_match(help, "clustered real rows of at most 1,024 columns, sets of 1,000 rows or more, also mixture, and up to 512 columns mixture16", fixed = TRUE)
  expect_identical(mixture_many_cols, 512L)
  # an exclusion leaves out a column of the files that have it
  expect_match(help, "--features=-label leaves a column out of the files that have it", fixed = TRUE)
  # --folds names every fitted family of the registry
  expect_match(help, paste0("cross-fit the fitted families (",
                            paste(fitted_methods(), collapse = ", "),
                            ", also in tightest)"), fixed = TRUE)
  expect_identical(c(spectral_default_dim, spectral_default_rows_per_dim,
                     mixture_default_cols, mixture_default_rows),
                   c(512L, 8, 1024L, 1000L))
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

test_that("an option of one value given twice is an error naming it; --generated repeats", {
  fx <- cli_fixture()
  out <- file.path(fx$dir, "twice")
  msg <- function(...) {
    e <- expect_error(prd_cli(c(fx$f_real, fx$f_gen, ..., "--quiet",
                                "--out", out)),
                      class = "prdcurve_error_input")
    gsub("\\s+", " ", cli::ansi_strip(conditionMessage(e)))
  }
  # it used the last value silently
  m <- msg("--k", "5", "--k", "6")
  expect_match(m, "Option `--k` is given twice; it takes one value.",
               fixed = TRUE)
  expect_match(m, "Its values: \"5\" and \"6\".", fixed = TRUE)
  expect_match(m, "`--generated` is the option that repeats", fixed = TRUE)
  # in either form, equal values, a negative number, three times
  expect_match(msg("--k=5", "--k", "5"), "`--k` is given twice", fixed = TRUE)
  expect_match(msg("--seed", "-3", "--seed=4"),
               "Its values: \"-3\" and \"4\".", fixed = TRUE)
  expect_match(msg("--split", "0.2", "--split", "0.3", "--split", "0.4"),
               "`--split` is given 3 times", fixed = TRUE)
  expect_match(msg("--max-params", "3", "--max-params", "4"),
               "`--max-params` is given twice", fixed = TRUE)
  expect_match(msg("--metrics=fd", "--metrics=kid"),
               "with the names separated by commas", fixed = TRUE)
  # every option of a value is checked before any file is read
  valued <- c("real", "features", "id", "method", "families", "k", "split",
              "seed", "angles", "bandwidth", "folds", "replicates", "compare",
              "atoms", "out", "maxorder", "max-params")
  for (v in valued) {
    expect_error(cli_parse(c("r.csv", "g.csv", paste0("--", v, "=1"),
                             paste0("--", v, "=2"))),
                 paste0("`--", v, "` is given twice"),
                 class = "prdcurve_error_input")
  }
  # --generated is repeatable, a flag given twice is a flag, --metrics with
  # and without names is one option
  opt <- cli_parse(c("--real", "r.csv", "--generated", "a.csv",
                     "--generated=b.csv", "--quiet", "--quiet", "--metrics",
                     "--metrics=fd", "--k", "4"))
  expect_identical(unname(vapply(opt$generated, `[[`, "", "path")),
                   c("a.csv", "b.csv"))
  expect_true(opt$quiet)
  expect_identical(opt$metric_names, "fd")
  expect_identical(opt$k, 4)
})
