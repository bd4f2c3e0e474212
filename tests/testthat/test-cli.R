cli_fixture <- function(header = TRUE) {
  set.seed(11)
  real <- matrix(round(rnorm(60 * 3), 3), ncol = 3)
  generated <- matrix(round(rnorm(50 * 3, mean = 0.7), 3), ncol = 3)
  f_real <- tempfile(fileext = ".csv")
  f_gen <- tempfile(fileext = ".csv")
  utils::write.table(real, f_real, sep = ",", row.names = FALSE,
                     col.names = if (header) paste0("v", 1:3) else FALSE)
  utils::write.table(generated, f_gen, sep = ",", row.names = FALSE,
                     col.names = if (header) paste0("v", 1:3) else FALSE)
  list(real = real, generated = generated, f_real = f_real, f_gen = f_gen)
}

test_that("prd_cli writes the curve of prd_curve() with the same seed", {
  fx <- cli_fixture(header = TRUE)
  out <- file.path(tempdir(), "cli-curve")
  expect_output(
    cv <- prd_cli(c(fx$f_real, fx$f_gen, "--method", "knn,coverage",
                    "--k", "4", "--split", "0.4", "--seed", "7",
                    "--angles", "101", "--out", out)),
    "max_precision"
  )
  set.seed(7)
  ref <- prd_curve(fx$real, fx$generated, method = c("knn", "coverage"),
                   k = 4, split = 0.4, angles = 101)
  written <- utils::read.csv(paste0(out, ".csv"))
  expect_identical(names(written), c("method", "lambda", "precision", "recall"))
  expect_identical(nrow(written), 2L * 103L)
  expect_identical(written$method, ref$method)
  expect_equal(written$lambda, ref$lambda, tolerance = 1e-12)
  expect_equal(written$precision, ref$precision, tolerance = 1e-12)
  expect_equal(written$recall, ref$recall, tolerance = 1e-12)
  # the returned curve is the curve itself, with its attributes
  expect_equal(cv$precision, ref$precision)
  expect_identical(attr(cv, "k"), 4L)
  expect_identical(attr(cv, "sizes")[["eval_real"]], 24L)
  if (requireNamespace("ggplot2", quietly = TRUE)) {
    expect_true(file.size(paste0(out, ".png")) > 1000)
  }
})

test_that("prd_cli detects a missing header, and --no-header / --opt=value work", {
  fx <- cli_fixture(header = FALSE)
  out <- file.path(tempdir(), "cli-nohead")
  cv <- prd_cli(c(fx$f_real, fx$f_gen, "--method=knn", "--seed=3", "--k=5",
                  "--split=0", "--angles=51", paste0("--out=", out),
                  "--quiet"))
  ref <- prd_curve(fx$real, fx$generated, method = "knn", k = 5, split = 0,
                   angles = 51)
  # no header detected: all 60 rows read
  expect_identical(attr(cv, "sizes")[["eval_real"]], 60L)
  expect_equal(cv$precision, ref$precision)
  expect_equal(cv$recall, ref$recall)
  cv2 <- prd_cli(c(fx$f_real, fx$f_gen, "--no-header", "--method", "knn",
                   "--k", "5", "--split", "0", "--angles", "51",
                   "--out", out, "--quiet"))
  expect_equal(cv2$precision, ref$precision)
  # forcing --header on header-less files drops the first row
  cv3 <- prd_cli(c(fx$f_real, fx$f_gen, "--header", "--method", "knn",
                   "--k", "5", "--split", "0", "--angles", "51",
                   "--out", out, "--quiet"))
  expect_identical(attr(cv3, "sizes")[["eval_real"]], 59L)
  expect_identical(attr(cv3, "sizes")[["eval_generated"]], 49L)
})

test_that("prd_cli gives clear errors", {
  fx <- cli_fixture()
  missing <- file.path(tempdir(), "no-such-file.csv")
  expect_error(prd_cli(c(fx$f_real, missing)), "does not exist",
               class = "prdcurve_error")
  expect_error(prd_cli(c(fx$f_real, missing)), "no-such-file")
  expect_error(prd_cli(c(fx$f_real)), "exactly 2 CSV files.*got 1",
               class = "prdcurve_error")
  expect_error(prd_cli(c(fx$f_real, fx$f_gen, fx$f_gen)), "got 3")
  expect_error(prd_cli(c(fx$f_real, fx$f_gen, "--bogus", "1")),
               "Unknown option.*--bogus", class = "prdcurve_error")
  expect_error(prd_cli(c(fx$f_real, fx$f_gen, "--k")), "--k.*needs a value")
  expect_error(prd_cli(c(fx$f_real, fx$f_gen, "--k", "ten")),
               "--k.*must be a number")
  expect_error(prd_cli(c(fx$f_real, fx$f_gen, "--quiet=yes")),
               "takes no value")
  expect_error(prd_cli(c(fx$f_real, fx$f_gen, "--method", "knn,foo",
                         "--quiet")), "foo")
  # a non-numeric column is reported with the file name
  bad <- tempfile(fileext = ".csv")
  writeLines(c("a,b,c", "1,2,x", "3,4,y", "5,6,z"), bad)
  expect_error(prd_cli(c(fx$f_real, bad, "--quiet")), "numeric columns")
})

test_that("prd_cli --help prints the usage and returns NULL", {
  expect_output(res <- prd_cli("--help"), "Usage: Rscript")
  expect_null(res)
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
  cv <- prd_cli(c(fr, fg, "--method", "kde", "--bandwidth", "1,1.5",
                  "--open", "--split", "0", "--angles", "51", "--quiet",
                  "--out", out))
  expect_equal(attr(cv, "bandwidth"), c(real = 1, generated = 1.5))
  expect_false(attr(cv, "closed"))
  direct <- prd_curve(real, generated, method = "kde", bandwidth = c(1, 1.5),
                      closed = FALSE, split = 0, angles = 51)
  expect_equal(cv$precision, direct$precision, tolerance = 1e-12)
  written <- utils::read.csv(paste0(out, ".csv"))
  expect_equal(written$recall, direct$recall, tolerance = 1e-12)
  unlink(dir, recursive = TRUE)
})
