# The command line's test fixtures and expectations, shared by test-cli*.R.

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

# the fixture's two sets as float32 .npy files, real.npy and gen.npy:
# list(real, gen) of their paths
cli_npy_fixture <- function(fx) {
  f <- list(real = file.path(fx$dir, "real.npy"),
            gen = file.path(fx$dir, "gen.npy"))
  write_npy(fx$real, f$real, dtype = "<f4")
  write_npy(fx$generated, f$gen, dtype = "<f4")
  f
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

# the width and height in pixels of a PNG file (its IHDR chunk)
png_size <- function(path) {
  b <- readBin(path, "raw", 24L)
  px <- function(i) sum(as.integer(b[i:(i + 3L)]) * 256^(3:0))
  c(width = px(17L), height = px(21L))
}

# The unused-argument warnings (prdcurve_warning_unused_argument) that a
# quiet command-line run of `method` on `files` (default the fixture's
# two tables) printed, with the further arguments `...`
cli_unused_warnings <- function(fx, ..., files = c(fx$f_real, fx$f_gen),
                                method = "knn") {
  run <- cli_warnings(utils::capture.output(prd_cli(c(
    files, "--method", method, "--angles", "11", "--seed", "1", "--quiet",
    ..., "--out", file.path(fx$dir, "run")))))
  Filter(function(m) inherits(m$condition, "prdcurve_warning_unused_argument"),
         attr(run, "warnings"))
}
