# Tests of R/cli-metrics.R.

skip_if_sanitizing()

test_that("the command line's --metrics=NAMES takes the embedding metrics", {
  skip_if_not_installed("optparse")
  dir <- withr::local_tempdir()
  set.seed(17)
  real <- matrix(rnorm(60 * 3), ncol = 3)
  gens <- list(a = matrix(rnorm(60 * 3), ncol = 3),
               b = matrix(rnorm(60 * 3, mean = 0.6), ncol = 3))
  files <- file.path(dir, c("real.csv", "a.csv", "b.csv"))
  for (i in 1:3) {
    utils::write.csv(list(real, gens$a, gens$b)[[i]], files[i],
                     row.names = FALSE)
  }
  out <- file.path(dir, "run")
  utils::capture.output(suppressMessages(prd_cli(c(
    files, "--method", "knn", "--angles", "21", "--seed", "3",
    "--replicates", "6", "--metrics=precision,fd,kid", "--compare", "a",
    "--quiet", "--out", out))))
  m <- utils::read.csv(paste0(out, "-metrics.csv"))
  set.seed(3)
  ref_m <- manifold_metrics(real, gens, metrics = "precision", replicates = 6)
  set.seed(3)
  ref_e <- embedding_metrics(real, gens, metrics = c("fd", "kid"),
                             replicates = 6)
  # each model's rows together, in the order the metrics were asked
  ref <- rbind(as.data.frame(ref_m)[c("model", "metric", "value", "upper")],
               as.data.frame(ref_e)[c("model", "metric", "value", "upper")])
  ref <- ref[order(ref$model, match(ref$metric, c("precision", "fd", "kid"))), ]
  expect_identical(m$model, rep(c("a", "b"), each = 3))
  expect_identical(m$metric, rep(c("precision", "fd", "kid"), 2))
  expect_equal(m$value, ref$value, tolerance = 1e-12)
  expect_equal(m$upper, ref$upper, tolerance = 1e-12)
  # asked in another order, given in that order
  tab <- suppressMessages(prdcurve:::cli_metric_table(
    real, gens, c("kid", "precision"), 5, TRUE, 0, "none", 1))
  expect_identical(tab$metric, rep(c("kid", "precision"), 2))
  cmp <- utils::read.csv(paste0(out, "-metrics-compare.csv"))
  expect_setequal(cmp$statistic, c("precision", "fd", "kid"))
  fd <- cmp[cmp$statistic == "fd", ]
  expect_equal(fd$estimate, ref_e$value[ref_e$model == "b" & ref_e$metric == "fd"] -
                 ref_e$value[ref_e$model == "a" & ref_e$metric == "fd"],
               tolerance = 1e-12)
  expect_error(prdcurve:::cli_metric_table(real, gens, "fid", 5, TRUE, 0,
                                           "none", 1),
               class = "prdcurve_error_input")
})

test_that("an unknown --metrics name is told the metrics and the names it may mean", {
  skip_if_not_installed("optparse")
  fx <- cli_fixture()
  said <- character()
  run <- function(...) {
    tryCatch(withCallingHandlers(prd_cli(c(
      fx$f_real, fx$f_gen, "--method", "knn", "--angles", "11", "--seed", "1",
      ..., "--out", file.path(fx$dir, "run"))),
      message = function(m) {
        said <<- c(said, conditionMessage(m))
        invokeRestart("muffleMessage")
      }), prdcurve_error_input = function(e) e)
  }
  err <- run("--metrics=precision,FID,memorisation")
  expect_s3_class(err, "prdcurve_error_input")
  # told when the options are read: no file read, no curve computed
  expect_false(any(grepl("Read|Computing", said)))
  expect_false(file.exists(file.path(fx$dir, "run.csv")))
  msg <- cli::ansi_strip(conditionMessage(err))
  # the command line's own words, not the R functions' rewritten to the flag
  expect_match(msg, "must name manifold or embedding metrics", fixed = TRUE)
  expect_no_match(msg, "of `--metrics` or", fixed = TRUE)
  # the aliases: FID is "fd", memorisation "authpct" (and "ct", which the
  # command line can't compute)
  expect_match(msg, 'Did you mean "fd" and "authpct"?', fixed = TRUE)
  # every metric named, none cut off ("s_pmse" is the lists' last)
  for (m in setdiff(c(manifold_metric_names(), embedding_metric_names()),
                    c("ct", "vendi_class"))) {
    expect_match(msg, paste0('"', m, '"'), fixed = TRUE)
  }
  expect_no_match(msg, '"ct"', fixed = TRUE)
  expect_no_match(msg, "\u2026", fixed = TRUE)
  err <- run("--metrics=")
  expect_s3_class(err, "prdcurve_error_input")
  expect_match(conditionMessage(err), "It names none", fixed = TRUE)
  # ct (a held-out set) and vendi_class (class labels) need what the
  # command line does not take: refused before any file is read
  said <- character()
  err <- run("--metrics=fd,ct,vendi_class")
  expect_s3_class(err, "prdcurve_error_input")
  expect_false(any(grepl("Read|Computing", said)))
  msg <- cli::ansi_strip(conditionMessage(err))
  expect_match(msg, "can't name \"ct\" and \"vendi_class\"", fixed = TRUE)
  expect_match(msg, "held_out = ..., classes = ...", fixed = TRUE)
})

test_that("--maxorder and --max-params set the propensity model of --metrics=pmse", {
  skip_if_not_installed("optparse")
  fx <- cli_fixture()
  run <- function(...) {
    out <- file.path(fx$dir, "run")
    utils::capture.output(suppressMessages(prd_cli(c(
      fx$f_real, fx$f_gen, "--method", "knn", "--angles", "11", "--seed", "1",
      "--quiet", "--metrics=pmse,s_pmse", ..., "--out", out))))
    utils::read.csv(paste0(out, "-metrics.csv"))
  }
  # 1 + 3 + 3 = 7 parameters at maxorder 1: refused above --max-params 6,
  # in the command line's words (its flags, not R's arguments)
  err <- tryCatch(run("--max-params", "6"),
                  prdcurve_error_input = function(e) e)
  expect_s3_class(err, "prdcurve_error_input")
  msg <- cli::ansi_strip(conditionMessage(err))
  expect_match(msg, "7 parameters, more than 6", fixed = TRUE)
  expect_match(msg, "Lower `--maxorder`", fixed = TRUE)
  expect_match(msg, "raise `--max-params`", fixed = TRUE)
  # refused before the curves (were computed and written first)
  expect_false(file.exists(file.path(fx$dir, "run.csv")))
  # names after a space are read as a file: said, with the form that works
  e <- expect_error(prd_cli(c(fx$f_real, fx$f_gen, "--metrics", "pmse,kid",
                              "--quiet")),
                    class = "prdcurve_error_input")
  expect_match(cli::ansi_strip(conditionMessage(e)),
               "`--metrics` takes its names after `=`: `--metrics=pmse,kid`",
               fixed = TRUE)
  at <- run("--max-params", "7")
  expect_equal(at$value,
               pmse_stats(fx$real, fx$generated, max_params = 7)$value,
               tolerance = 1e-12)
  main <- run("--maxorder", "0")
  expect_equal(main$value,
               pmse_stats(fx$real, fx$generated, maxorder = 0)$value,
               tolerance = 1e-12)
  expect_false(isTRUE(all.equal(main$value, at$value)))
  for (bad in list(c("--maxorder", "11"), c("--maxorder", "0.5"),
                   c("--max-params", "0"))) {
    expect_error(run(bad), bad[1], fixed = TRUE,
                 class = "prdcurve_error_input")
  }
})

test_that("--maxorder or --max-params without the pMSE metrics is warned, classed", {
  skip_if_not_installed("optparse")
  fx <- cli_fixture()
  unused <- function(...) cli_unused_warnings(fx, ...)
  told <- unused("--metrics=precision,fd", "--maxorder", "2",
                 "--max-params", "50")
  expect_length(told, 1L)
  expect_match(gsub("\\s+", " ", conditionMessage(told[[1]])),
               "--maxorder` and `--max-params` are read by `--metrics=pmse,s_pmse` only",
               fixed = TRUE)
  # read by pmse: no warning
  expect_length(unused("--metrics=pmse", "--maxorder", "0"), 0L)
})

test_that("--k and --open are unused only when neither the curves nor the metrics read them", {
  skip_if_not_installed("optparse")
  fx <- cli_fixture()
  unused <- function(...) cli_unused_warnings(fx, ..., method = "linear")
  told <- unused("--k", "3", "--open")
  expect_length(told, 1L)
  expect_match(gsub("\\s+", " ", conditionMessage(told[[1]])),
               "`--k` and `--open` are used by the neighbour families", fixed = TRUE)
  told <- unused("--k", "3", "--metrics=fd")
  expect_length(told, 1L)
  expect_match(gsub("\\s+", " ", conditionMessage(told[[1]])),
               "`--k` is used by the neighbour families", fixed = TRUE)
  # read by the manifold metrics: no warning
  expect_length(unused("--k", "3", "--open", "--metrics=precision,fd"), 0L)
  expect_length(unused("--k", "3", "--metrics"), 0L)
})
