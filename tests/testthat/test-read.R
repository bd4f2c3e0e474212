local_dir <- function() {
  dir <- tempfile("prdread")
  dir.create(dir)
  dir
}

# 17 significant digits: the text is the double's exact decimal form
write_exact <- function(x, path, sep = ",", header = TRUE) {
  txt <- matrix(formatC(x, digits = 17, format = "g"), nrow = nrow(x))
  lines <- apply(txt, 1, paste, collapse = sep)
  if (header) lines <- c(paste(colnames(x), collapse = sep), lines)
  writeLines(lines, path)
  invisible(path)
}

test_that("CSV and TSV, with and without a header, give the written matrix exactly", {
  set.seed(1)
  x <- matrix(rnorm(300 * 7), ncol = 7,
              dimnames = list(NULL, paste0("f", 1:7)))
  dir <- local_dir()
  for (sep in c(",", "\t", ";", " ")) {
    ext <- if (sep == "\t") ".tsv" else if (sep == ",") ".csv" else ".txt"
    with_h <- file.path(dir, paste0("h", ext))
    without_h <- file.path(dir, paste0("n", ext))
    write_exact(x, with_h, sep = sep, header = TRUE)
    write_exact(x, without_h, sep = sep, header = FALSE)
    a <- prd_read(with_h)
    b <- prd_read(without_h)
    expect_s3_class(a, "tbl_df")
    expect_identical(names(a), paste0("f", 1:7))
    expect_identical(names(b), paste0("V", 1:7))
    expect_identical(dim(a), c(300L, 7L))
    expect_identical(dim(b), c(300L, 7L))
    expect_identical(unname(as.matrix(a)), unname(x))
    expect_identical(unname(as.matrix(b)), unname(x))
  }
  # what utils::write.table writes (15 significant digits) of short decimals
  y <- round(x, 4)
  f <- file.path(dir, "wt.csv")
  utils::write.csv(y, f, row.names = FALSE)
  expect_identical(as.matrix(prd_read(f)), y)
  utils::write.table(y, f, sep = ",", row.names = FALSE, col.names = FALSE)
  expect_identical(unname(as.matrix(prd_read(f))), unname(y))
})

test_that("header = TRUE / FALSE override the detection", {
  dir <- local_dir()
  f <- file.path(dir, "x.csv")
  writeLines(c("1,2,3", "4,5,6", "7,8,9"), f)
  expect_identical(dim(prd_read(f)), c(3L, 3L))
  forced <- prd_read(f, header = TRUE)
  expect_identical(names(forced), c("1", "2", "3"))
  expect_identical(forced[[1]], c(4L, 7L))
  g <- file.path(dir, "y.csv")
  writeLines(c("a,b", "1,2", "3,4"), g)
  expect_identical(names(prd_read(g)), c("a", "b"))
  expect_error(prd_read(g, header = FALSE, features = everything()),
               class = "prdcurve_error_input")
  expect_error(prd_read(g, header = "yes"), class = "prdcurve_error_input")
})

test_that("an unnamed first column (row names, a pandas index) is dropped", {
  dir <- local_dir()
  x <- matrix(c(0.5, 1.5, -2, 3, 4.25, 5), ncol = 2,
              dimnames = list(NULL, c("a", "b")))
  f <- file.path(dir, "rn.csv")
  utils::write.csv(x, f)  # row names "1", "2", "3" under an empty header
  expect_message(res <- prd_read(f), "no name",
                 class = "prdcurve_message_dropped_columns")
  expect_identical(names(res), c("a", "b"))
  expect_identical(as.matrix(res), x)
  g <- file.path(dir, "pandas.csv")
  writeLines(c(",a,b", "0,0.5,3", "1,1.5,4.25", "2,-2,5"), g)
  expect_message(res <- prd_read(g), class = "prdcurve_message_dropped_columns")
  expect_identical(as.matrix(res), x)
})

test_that("features and id select columns; non-numeric columns are reported", {
  dir <- local_dir()
  df <- data.frame(id = 1:5, label = letters[1:5], f1 = c(1.5, 2, 3, 4, 5),
                   f2 = c(0, 1, 0, 1, 0), g = c(9, 8, 7, 6, 5))
  f <- file.path(dir, "d.csv")
  utils::write.csv(df, f, row.names = FALSE)
  # nothing asked: every column as read
  all <- prd_read(f)
  expect_identical(names(all), names(df))
  expect_identical(all$label, df$label)
  # the id first, then every numeric column except the id
  expect_message(res <- prd_read(f, id = "id"), "label",
                 class = "prdcurve_message_dropped_columns")
  expect_identical(names(res), c("id", "f1", "f2", "g"))
  expect_identical(res$id, 1:5)
  # tidyselect: helpers, ranges, numbers; the id is never a feature
  expect_identical(names(suppressMessages(prd_read(f, features = starts_with("f")))),
                   c("f1", "f2"))
  expect_identical(names(suppressMessages(prd_read(f, features = f1:g, id = "id"))),
                   c("id", "f1", "f2", "g"))
  expect_identical(names(suppressMessages(prd_read(f, features = c(3, 5)))),
                   c("f1", "g"))
  expect_identical(names(suppressMessages(
    prd_read(f, features = c(id, f2), id = "id"))), c("id", "f2"))
  expect_identical(names(suppressMessages(
    prd_read(f, features = where(is.numeric) & !g))), c("id", "f1", "f2"))
  expect_identical(suppressMessages(prd_read(f, features = f1))$f1, df$f1)
  # errors
  expect_error(prd_read(f, features = label), "not numeric",
               class = "prdcurve_error_input")
  expect_error(prd_read(f, features = nope), class = "prdcurve_error_input")
  expect_error(prd_read(f, features = starts_with("zz")),
               class = "prdcurve_error_input")
  expect_error(prd_read(f, id = "ident"), "ident",
               class = "prdcurve_error_input")
  expect_error(prd_read(f, id = c("a", "b")), class = "prdcurve_error_input")
  expect_error(prd_read(f, features = id, id = "id"),
               class = "prdcurve_error_input")
})

test_that("file errors are classed and name the file", {
  dir <- local_dir()
  missing <- file.path(dir, "no-such-file.csv")
  expect_error(prd_read(missing), "no-such-file",
               class = "prdcurve_error_file")
  expect_error(prd_read(dir), class = "prdcurve_error_file")
  expect_error(prd_read(c("a.csv", "b.csv")), class = "prdcurve_error_input")
  odd <- file.path(dir, "x.xlsx")
  writeLines("a", odd)
  expect_error(prd_read(odd), "extension", class = "prdcurve_error_file")
  empty <- file.path(dir, "empty.csv")
  file.create(empty)
  expect_error(prd_read(empty), "empty", class = "prdcurve_error_file")
  head_only <- file.path(dir, "head.csv")
  writeLines("a,b,c", head_only)
  expect_error(prd_read(head_only), "no data rows",
               class = "prdcurve_error_file")
  ragged <- file.path(dir, "ragged.csv")
  writeLines(c("a,b", "1,2", "3,4", "5,6,7", "8,9"), ragged)
  expect_error(prd_read(ragged), "same number of fields",
               class = "prdcurve_error_file")
  dup <- file.path(dir, "dup.csv")
  writeLines(c("a,b,a", "1,2,3", "4,5,6"), dup)
  expect_error(prd_read(dup), "duplicated", class = "prdcurve_error_file")
  bad_rds <- file.path(dir, "bad.rds")
  saveRDS(list(1, 2), bad_rds)
  expect_error(prd_read(bad_rds), "data frame or a matrix",
               class = "prdcurve_error_file")
  not_npy <- file.path(dir, "fake.npy")
  writeLines("not numpy", not_npy)
  expect_error(prd_read(not_npy), "NUMPY", class = "prdcurve_error_file")
  # a directory says so
  err <- expect_error(prd_read(dir), class = "prdcurve_error_file")
  expect_match(conditionMessage(err), "is a directory, not a file")
  expect_no_match(conditionMessage(err), "does not exist")
})

test_that(".rds files: matrices, data frames and embedding list columns", {
  dir <- local_dir()
  x <- matrix(c(1.25, -2, 3, 4, 5, 6.5), ncol = 2)
  f <- file.path(dir, "m.rds")
  saveRDS(x, f)
  res <- prd_read(f)
  expect_identical(names(res), c("V1", "V2"))
  expect_identical(unname(as.matrix(res)), x)
  # a matrix with names: selection without a data frame copy
  xn <- cbind(id = c(10, 20, 30), a = c(0.5, 1, 2), b = c(3, 4, 5.5))
  saveRDS(xn, f)
  res <- prd_read(f, id = "id")
  expect_identical(names(res), c("id", "a", "b"))
  expect_identical(as.matrix(res), xn)
  expect_identical(names(prd_read(f, features = b, id = "id")), c("id", "b"))
  expect_error(prd_read(f, features = c), class = "prdcurve_error_input")
  df <- data.frame(id = c("a", "b", "c"))
  df$emb <- list(c(1, 2, 3), c(4, 5, 6), c(7, 8, 9.5))
  g <- file.path(dir, "emb.rds")
  saveRDS(df, g)
  res <- prd_read(g, id = "id")
  expect_identical(names(res), c("id", "emb_1", "emb_2", "emb_3"))
  expect_identical(unname(as.matrix(res[-1])),
                   rbind(c(1, 2, 3), c(4, 5, 6), c(7, 8, 9.5)))
  df$emb[[2]] <- c(1, 2)
  saveRDS(df, g)
  expect_error(prd_read(g), "common length", class = "prdcurve_error_file")
})

fixture <- function(name) test_path("fixtures", name)

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
  # one array: one row; a shape other than 1-D or 2-D: NA rows and columns
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
  expect_identical(b$rows, c(4, NA))
  expect_identical(b$columns, c(2, NA))
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
  write_npy(NULL, f, dtype = "<f8", payload = raw(64), shape = c(2L, 2L, 2L))
  expect_error(prd_read(f), "shape is \\(2, 2, 2\\)",
               class = "prdcurve_error_file")
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
})

test_that("a missing reader package is a classed error naming it", {
  dir <- local_dir()
  f <- file.path(dir, "x.parquet")
  writeLines("PAR1", f)
  # arrow is optional and not declared (see R/read.R)
  skip_if(nzchar(system.file(package = "arrow")), "arrow is installed")
  expect_error(prd_read(f), "arrow", class = "prdcurve_error_package")
})

test_that("Parquet and Feather round trip (arrow)", {
  if (!nzchar(system.file(package = "arrow"))) skip("arrow is not installed")
  dir <- local_dir()
  set.seed(4)
  df <- data.frame(id = 1:30, f1 = rnorm(30), f2 = rnorm(30))
  for (ext in c("parquet", "feather", "arrow")) {
    f <- file.path(dir, paste0("x.", ext))
    writer <- getExportedValue("arrow", if (ext == "parquet") "write_parquet"
                               else "write_feather")
    writer(df, f)
    res <- prd_read(f, id = "id")
    expect_identical(names(res), c("id", "f1", "f2"))
    expect_identical(as.data.frame(res), df)
  }
})

test_that("recipe (inst/ARCHITECTURE.md): every format has a reader", {
  # the formats of read_formats() are the branches of read_table_file()'s
  # switch()
  find_switch <- function(e) {
    if (is.call(e) && identical(e[[1]], as.name("switch"))) return(e)
    if (is.call(e) || is.expression(e)) {
      for (a in as.list(e)[-1]) {
        r <- find_switch(a)
        if (!is.null(r)) return(r)
      }
    }
    NULL
  }
  sw <- find_switch(body(read_table_file))
  branches <- setdiff(names(as.list(sw)), "")
  expect_setequal(unique(unname(read_formats())), branches)
})
