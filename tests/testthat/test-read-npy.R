# Tests of R/read-npy.R.

test_that(".npy files written by numpy: every value as numpy stores it", {
  # the fixtures hold x = arange(15).reshape(5, 3) / 7 - 1 (row-major),
  # saved by numpy 1.24 in several dtypes and layouts
  x <- matrix((0:14) / 7 - 1, 5, 3, byrow = TRUE)
  x32 <- as_float32(x)
  expect_false(identical(x32, x))  # float32 really rounds these values
  res <- prd_read(fixture("numpy-f4.npy"))
  expect_identical(names(res), c("V1", "V2", "V3"))
  expect_identical(unname(as.matrix(res)), x32)
  expect_identical(unname(as.matrix(prd_read(fixture("numpy-f4-big.npy")))),
                   x32)
  expect_identical(
    unname(as.matrix(prd_read(fixture("numpy-f8-fortran.npy")))), x)
  f2 <- unname(as.matrix(utils::read.table(fixture("numpy-f2.txt"))))
  expect_identical(unname(as.matrix(prd_read(fixture("numpy-f2.npy")))), f2)
  expect_equal(unname(as.matrix(prd_read(fixture("numpy-f2.npy")))), x,
               tolerance = 1e-3)
  expect_identical(unname(as.matrix(prd_read(fixture("numpy-i2-big.npy")))),
                   matrix(as.double(0:14 - 7), 5, 3, byrow = TRUE))
  expect_identical(unname(as.matrix(prd_read(fixture("numpy-u1.npy")))),
                   matrix(as.double(0:14), 5, 3, byrow = TRUE))
})

test_that(".npz files written by numpy: arr_0, named members, deflated", {
  x <- matrix((0:14) / 7 - 1, 5, 3, byrow = TRUE)
  # numpy.savez(path, x): one stored member arr_0
  expect_identical(unname(as.matrix(prd_read(fixture("numpy-savez.npz")))),
                   as_float32(x))
  expect_identical(
    unname(as.matrix(prd_read(fixture("numpy-savez.npz"), member = "arr_0"))),
    as_float32(x))
  # numpy.savez_compressed(path, real = x, generated = 2 * x): deflated
  two <- fixture("numpy-two.npz")
  expect_identical(unname(as.matrix(prd_read(two, member = "real"))), x)
  expect_identical(unname(as.matrix(prd_read(two, member = "generated"))),
                   2 * x)
  err <- expect_error(prd_read(two), class = "prdcurve_error_file")
  expect_match(conditionMessage(err), "several arrays")
  # each array with its shape (from its header)
  expect_match(conditionMessage(err), "\"real\" (5 x 3) and \"generated\" (5 x 3)",
               fixed = TRUE)
  expect_error(prd_read(two, member = "gen"), "\"real\" (5 x 3) and \"generated\"",
               fixed = TRUE,
               class = "prdcurve_error_input")
  expect_error(prd_read(fixture("numpy-f4.npy"), member = "real"),
               ".npz", class = "prdcurve_error_input")
  expect_error(prd_read(two, member = 1), "member",
               class = "prdcurve_error_input")
})

test_that("an .npz of features and 1-D arrays reads its only 2-D array, with a message", {
  skip_if(!nzchar(Sys.which("zip")), "no zip program to write the .npz")
  dir <- local_dir()
  x <- matrix((0:14) / 7 - 1, 5, 3, byrow = TRUE)
  f <- file.path(dir, "feats.npz")
  # numpy.savez(f, feats = x, labels = ..., ids = ...)
  write_npz(list(feats = x, labels = c(0, 1, 1, 0, 2), ids = 1:5), f)
  msg <- expect_message(out <- prd_read(f),
                        class = "prdcurve_message_dropped_columns")
  expect_identical(unname(as.matrix(out)), x)
  txt <- cli::ansi_strip(conditionMessage(msg))
  expect_match(txt, "Reading array \"feats\"")
  expect_match(txt, "\"labels\" (5) and \"ids\" (5)", fixed = TRUE)
  expect_match(txt, "name another with `member`", fixed = TRUE)
  # a 1-D array is still read when named
  expect_identical(prd_read(f, member = "labels")[[1]], c(0, 1, 1, 0, 2))
  # two 2-D arrays: the caller must choose
  f2 <- file.path(dir, "two2d.npz")
  write_npz(list(a = x, b = 2 * x, labels = 1:5), f2)
  err <- expect_error(prd_read(f2), class = "prdcurve_error_file")
  expect_match(conditionMessage(err),
               "\"a\" (5 x 3), \"b\" (5 x 3) and \"labels\" (5)", fixed = TRUE)
})

test_that("prd_npz_arrays() lists the arrays numpy wrote, with their shapes", {
  # inst/extdata/digits-models.npz: numpy.savez_compressed() of float32
  # images and an int64 1-D array (tools/digits-npz.R)
  path <- system.file("extdata", "digits-models.npz", package = "prdcurve")
  a <- prd_npz_arrays(path)
  expect_s3_class(a, "tbl_df")
  expect_identical(a$array, c("real", "other_half", "digits_0_2", "labels"))
  expect_identical(a$dtype, c("<f4", "<f4", "<f4", "<i8"))
  expect_identical(a$dims, c(2L, 2L, 2L, 1L))
  expect_identical(a$rows, c(400, 150, 150, 400))
  expect_identical(a$columns, c(64, 64, 64, 1))
  # the arrays hold the bundled digits the script drew (exact: small whole
  # numbers are exact in float32)
  set.seed(2026)
  low <- which(digits$digit <= 4)
  real <- sample(low, 400)
  other <- setdiff(low, real)
  half <- sample(other, 150)
  rest <- setdiff(other, half)
  drop <- sample(rest[digits$digit[rest] <= 2], 150)
  px <- function(rows) unname(1 * as.matrix(digits[rows, 1:64]))
  expect_identical(unname(as.matrix(prd_read(path, member = "real"))), px(real))
  expect_identical(unname(as.matrix(prd_read(path, member = "digits_0_2"))),
                   px(drop))
  expect_identical(prd_read(path, member = "labels")[[1]],
                   as.double(digits$digit[real]))
  # one array: one row; a 3-D array: its samples and their flattened size
  expect_identical(prd_npz_arrays(fixture("numpy-savez.npz"))$columns, 3)
  skip_if(!nzchar(Sys.which("zip")), "no zip program to write the .npz")
  dir <- local_dir()
  f <- file.path(dir, "cube.npz")
  # a 2-D array and a 3-D one (4 x 2 x 3)
  write_npy(matrix(1, 4, 2), file.path(dir, "x.npy"))
  write_npy(rep(1, 24), file.path(dir, "c.npy"), shape = c(4, 2, 3))
  old <- setwd(dir)
  utils::zip(f, c("x.npy", "c.npy"), flags = "-q0X")
  setwd(old)
  b <- prd_npz_arrays(f)
  expect_identical(b$array, c("x", "c"))
  expect_identical(b$dims, c(2L, 3L))
  expect_identical(b$rows, c(4, 4))
  expect_identical(b$columns, c(2, 6))
  # not an .npz, no file, not a zip
  expect_error(prd_npz_arrays(fixture("numpy-f4.npy")), "path",
               class = "prdcurve_error_input")
  expect_error(prd_npz_arrays(1), "path", class = "prdcurve_error_input")
  expect_error(prd_npz_arrays(file.path(dir, "none.npz")), "does not exist",
               class = "prdcurve_error_file")
  writeLines("not a zip", file.path(dir, "bad.npz"))
  expect_error(prd_npz_arrays(file.path(dir, "bad.npz")),
               class = "prdcurve_error_file")
})

test_that(".npy written by hand: every dtype, both byte orders, both orders", {
  dir <- local_dir()
  f <- file.path(dir, "x.npy")
  set.seed(3)
  x <- matrix(rnorm(40 * 6), ncol = 6)
  for (fortran in c(FALSE, TRUE)) {
    for (end in c("<", ">")) {
      write_npy(x, f, dtype = paste0(end, "f8"), fortran = fortran)
      expect_identical(unname(as.matrix(prd_read(f))), x)
      write_npy(x, f, dtype = paste0(end, "f4"), fortran = fortran)
      expect_identical(unname(as.matrix(prd_read(f))), as_float32(x))
    }
  }
  # integers: signed and unsigned, 1 to 8 bytes, both byte orders
  xi <- matrix(c(1L, -2L, 3L, 4L, 120L, -6L), ncol = 3)
  for (dt in c("|i1", "<i2", ">i2", "<i4", ">i4", "<i8", ">i8")) {
    write_npy(xi, f, dtype = dt)
    expect_identical(unname(as.matrix(prd_read(f))), xi + 0, info = dt)
  }
  xu <- matrix(c(1L, 200L, 3L, 4L, 255L, 0L), ncol = 3)
  for (dt in c("|u1", "<u2", ">u4")) {
    write_npy(xu, f, dtype = dt)
    expect_identical(unname(as.matrix(prd_read(f))), xu + 0, info = dt)
  }
  write_npy(matrix(c(TRUE, FALSE, TRUE, TRUE), 2), f, dtype = "|b1")
  expect_identical(unname(as.matrix(prd_read(f))), matrix(c(1, 0, 1, 1), 2))
  # float16: 1, -2, 0.5, 65504 (largest), 2^-24 (smallest subnormal), -0
  half <- as.raw(c(0x00, 0x3c, 0x00, 0xc0, 0x00, 0x38, 0xff, 0x7b,
                   0x01, 0x00, 0x00, 0x80))
  write_npy(NULL, f, dtype = "<f2", payload = half, shape = c(3L, 2L))
  expect_identical(unname(as.matrix(prd_read(f))),
                   matrix(c(1, 0.5, 2^-24, -2, 65504, -0), 3, 2))
  # format version 2.0 (4-byte header length)
  write_npy(x, f, dtype = "<f4", version = 2L)
  expect_identical(unname(as.matrix(prd_read(f))), as_float32(x))
  # a 1-D array is n samples of dimension 1
  write_npy(c(1.5, 2.5, 3.5), f)
  res <- prd_read(f)
  expect_identical(names(res), "V1")
  expect_identical(res$V1, c(1.5, 2.5, 3.5))
  # compressed .npy.gz
  g <- file.path(dir, "x.npy.gz")
  write_npy(x, f, dtype = ">f4")
  con <- gzfile(g, "wb")
  writeBin(readBin(f, "raw", file.size(f)), con)
  close(con)
  expect_identical(unname(as.matrix(prd_read(g))), as_float32(x))
})

test_that("malformed .npy files are classed errors that say what is wrong", {
  dir <- local_dir()
  f <- file.path(dir, "x.npy")
  x <- matrix(1:6 + 0.5, 2)
  write_npy(NULL, f, dtype = "<c16", payload = raw(96), shape = c(2L, 3L))
  expect_error(prd_read(f), "'<c16' is not a numeric dtype",
               class = "prdcurve_error_file")
  # a 3-D array in Fortran order with two axes beyond the first: no C-order
  # flattening without a copy in Python
  write_npy(NULL, f, dtype = "<f8", payload = raw(64), shape = c(2L, 2L, 2L),
            fortran = TRUE)
  expect_error(prd_read(f), "shape is \\(2, 2, 2\\)",
               class = "prdcurve_error_file")
  write_npy(NULL, f, dtype = "<f8", payload = raw(0), shape = integer())
  expect_error(prd_read(f), "an array of samples", class = "prdcurve_error_file")
  # truncated: the header says 50,000 x 3 float32 values
  write_npy(NULL, f, dtype = "<f4", payload = raw(24), shape = c(50000L, 3L))
  err <- expect_error(prd_read(f), class = "prdcurve_error_file")
  expect_match(conditionMessage(err), "ends before its array")
  expect_match(conditionMessage(err), "600,128 bytes")  # 128 + 600,000
  expect_no_match(conditionMessage(err), "e\\+")
})

test_that("numpy's own output matches the fixtures (when numpy is present)", {
  has_numpy <- function(py) {
    nzchar(py) && identical(suppressWarnings(system2(
      py, c("-c", shQuote("import numpy")), stdout = FALSE, stderr = FALSE)),
      0L)
  }
  pys <- unique(c(Sys.which("python3"), "/usr/bin/python3"))
  pys <- pys[nzchar(pys) & file.exists(pys)]
  pys <- Filter(has_numpy, pys)
  skip_if(!length(pys), "python3 with numpy is not available")
  py <- pys[[1]]
  dir <- local_dir()
  f <- file.path(dir, "py.npy")
  code <- sprintf(paste0(
    "import numpy as np; x = np.arange(40 * 7).reshape(40, 7) / 13 - 9; ",
    "np.save('%s', np.asfortranarray(x.astype('>f4')))"), f)
  system2(py, c("-c", shQuote(code)))
  x <- matrix((0:279) / 13 - 9, 40, 7, byrow = TRUE)
  expect_identical(unname(as.matrix(prd_read(f))), as_float32(x))
  # images (5, 3, 2, 2) and pooled features (5, 4, 1, 1) in Fortran order,
  # each read as numpy's x.reshape(len(x), -1)
  g <- file.path(dir, "img.npy")
  h <- file.path(dir, "pool.npy")
  code <- sprintf(paste0(
    "import numpy as np; x = np.arange(60).reshape(5, 3, 2, 2) / 7; ",
    "np.save('%s', x); ",
    "np.save('%s', np.asfortranarray(np.arange(20).reshape(5, 4, 1, 1) / 3))"),
    g, h)
  system2(py, c("-c", shQuote(code)))
  expect_identical(unname(as.matrix(suppressMessages(prd_read(g)))),
                   matrix((0:59) / 7, 5, 12, byrow = TRUE))
  expect_identical(unname(as.matrix(suppressMessages(prd_read(h)))),
                   matrix((0:19) / 3, 5, 4, byrow = TRUE))
})

test_that("arrays of more than two dimensions are read as numpy's x.reshape(len(x), -1)", {
  dir <- local_dir()
  f <- file.path(dir, "cube.npy")
  # x[i, j, k] = 100 i + 10 j + k, shape (3, 2, 4), row-major payload
  idx <- expand.grid(k = 0:3, j = 0:1, i = 0:2)
  vals <- 100 * idx$i + 10 * idx$j + idx$k
  write_npy(NULL, f, dtype = "<f8", payload = writeBin(as.double(vals), raw(),
                                                      size = 8, endian = "little"),
            shape = c(3L, 2L, 4L))
  msg <- expect_message(x <- prd_read(f),
                        class = "prdcurve_message_flattened_array")
  expect_match(cli::ansi_strip(conditionMessage(msg)),
               "of shape (3, 2, 4) as 3 rows of 8 features", fixed = TRUE)
  # row i: j = 0 then j = 1, k fastest
  expect_identical(unname(as.matrix(x)),
                   matrix(vals, 3, 8, byrow = TRUE))
  expect_identical(unname(as.matrix(x))[2, ], c(100, 101, 102, 103, 110, 111,
                                                112, 113))
  # pooled features saved as (n, d, 1, 1), in either order: n x d
  m <- matrix(c(1.5, -2, 3, 4.25, 5, -6), 3, 2)
  g <- file.path(dir, "pool.npy")
  write_npy(NULL, g, dtype = "<f8", shape = c(3L, 2L, 1L, 1L),
            payload = writeBin(as.vector(t(m)), raw(), size = 8,
                               endian = "little"))
  expect_identical(unname(as.matrix(suppressMessages(prd_read(g)))), m)
  write_npy(NULL, g, dtype = "<f8", shape = c(3L, 2L, 1L, 1L), fortran = TRUE,
            payload = writeBin(as.vector(m), raw(), size = 8, endian = "little"))
  expect_identical(unname(as.matrix(suppressMessages(prd_read(g)))), m)
})

test_that("prd_read(): an array's NaN is an error naming its rows, FILE.npz:NAME a hint, an empty archive holds no array", {
  dir <- withr::local_tempdir()
  x <- matrix(as.double(1:40), 10)
  x[6, 3] <- NaN
  x[9, 1] <- Inf
  p <- file.path(dir, "nan.npy")
  write_npy(x, p, dtype = "<f4")
  # (a tibble's NA would be read as a missing value of a table: not here)
  e <- expect_error(prd_read(p), class = "prdcurve_error_input")
  msg <- cli::ansi_strip(conditionMessage(e))
  expect_match(msg, "`path` must not contain missing or infinite values", fixed = TRUE)
  expect_match(msg, "rows 6 and 9, in columns V1 and V3", fixed = TRUE)
  expect_match(msg, "from 0 in NumPy: 5 and 8", fixed = TRUE)
  z <- file.path(dir, "m.npz")
  write_npz(list(good = x[1:5, ], bad = x), z)
  expect_identical(as.matrix(prd_read(z, member = "good")),
                   `colnames<-`(x[1:5, ], paste0("V", 1:4)))
  expect_error(prd_read(z, member = "bad"), class = "prdcurve_error_input")
  e <- expect_error(prd_read(paste0(z, ":good")), class = "prdcurve_error_file")
  expect_match(cli::ansi_strip(conditionMessage(e)),
               "prd_read(\"", fixed = TRUE)
  expect_match(cli::ansi_strip(conditionMessage(e)),
               "m.npz\", member = \"good\")", fixed = TRUE)
  # numpy.savez(path) with no array: the zip's end record alone
  empty <- file.path(dir, "empty.npz")
  writeBin(c(as.raw(c(0x50, 0x4b, 0x05, 0x06)), raw(18)), empty)
  e <- expect_error(prd_read(empty), class = "prdcurve_error_file")
  expect_match(cli::ansi_strip(conditionMessage(e)), "holds no .npy array",
               fixed = TRUE)
  expect_identical(nrow(prd_npz_arrays(empty)), 0L)
})
