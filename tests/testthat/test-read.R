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
  # the header line then is a row of data: the columns are text
  expect_identical(prd_read(g, header = FALSE, features = everything())[[1]],
                   c("a", "1", "3"))
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
  df <- data.frame(id = 1:30, label = paste0("s", 1:30), f1 = 1:30 + 0.5,
                   f2 = rep(0:1, 15), g = 30:1 + 0)
  f <- file.path(dir, "d.csv")
  utils::write.csv(df, f, row.names = FALSE)
  # nothing asked: every column as read
  all <- prd_read(f)
  expect_identical(names(all), names(df))
  expect_identical(all$label, df$label)
  # the id first, then every column except the id; a text column with a
  # new value in every row is an identifier, not a feature (as on the
  # command line)
  expect_message(res <- prd_read(f, id = "id"), "label",
                 class = "prdcurve_message_dropped_columns")
  expect_identical(names(res), c("id", "f1", "f2", "g"))
  expect_identical(res$id, 1:30)
  # categorical columns are features, as prd_curve() takes them
  df2 <- data.frame(id = 1:6, sex = c("f", "m", "f", "m", "f", "f"),
                    smoker = c(TRUE, FALSE, FALSE, TRUE, FALSE, FALSE),
                    model = "cart", age = c(31, 45, 52, 28, 60, 39))
  f2 <- file.path(dir, "tab.csv")
  utils::write.csv(df2, f2, row.names = FALSE)
  expect_message(tab <- prd_read(f2, id = "id"), "model",
                 class = "prdcurve_message_dropped_columns")
  expect_identical(names(tab), c("id", "sex", "smoker", "age"))
  expect_identical(tab$sex, df2$sex)
  expect_identical(tab$smoker, df2$smoker)
  expect_identical(names(prd_read(f2, features = c(sex, age))), c("sex", "age"))
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
  expect_identical(prd_read(f, features = label)$label, df$label)
  dates <- data.frame(day = as.Date("2026-01-01") + 0:4, f1 = df$f1)
  fd <- file.path(dir, "days.rds")
  saveRDS(dates, fd)
  # a date is a feature (prd_curve() reads it in days)
  expect_identical(prd_read(fd, features = day)$day, dates$day)
  expect_error(prd_read(f, features = nope), class = "prdcurve_error_input")
  # an exclusion of one file must exclude one of its columns
  expect_identical(names(suppressMessages(prd_read(f, features = c(-g, -label)))),
                   c("id", "f1", "f2"))
  expect_error(prd_read(f, features = c(-g, -lable)), "no file has: `lable`",
               class = "prdcurve_error_input")
  expect_error(prd_read(f, features = starts_with("zz")),
               class = "prdcurve_error_input")
  expect_error(prd_read(f, id = "ident"), "ident",
               class = "prdcurve_error_input")
  expect_error(prd_read(f, id = c("a", "b")), class = "prdcurve_error_input")
  expect_error(prd_read(f, features = id, id = "id"),
               class = "prdcurve_error_input")
})

test_that("empty fields and NA are missing values in every column, as either writer writes them", {
  df <- data.frame(x = c(1.5, NA, 3), g = c("a", NA, "b"))
  f1 <- withr::local_tempfile(fileext = ".csv")
  f2 <- withr::local_tempfile(fileext = ".csv")
  utils::write.csv(df, f1, row.names = FALSE) # writes NA
  data.table::fwrite(df, f2)                  # writes an empty field
  for (f in c(f1, f2)) {
    got <- prdcurve:::read_table_file(f)
    expect_identical(is.na(got$x), c(FALSE, TRUE, FALSE))
    expect_identical(got$g, c("a", NA, "b"))
  }
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
  # a synthpop object: the fix named
  syn_rds <- file.path(dir, "syn.rds")
  saveRDS(structure(list(syn = data.frame(x = 1:3), m = 1), class = "synds"), syn_rds)
  expect_error(prd_read(syn_rds), "saveRDS(s$syn, file)", fixed = TRUE,
               class = "prdcurve_error_file")
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

test_that("a selection past the columns: tidyselect's reasons as bullets of their own", {
  p <- withr::local_tempfile(fileext = ".csv")
  utils::write.csv(data.frame(a = 1:5, b = 2:6), p, row.names = FALSE)
  lines <- function(e) strsplit(cli::ansi_strip(conditionMessage(e)), "\n")[[1]]
  e <- expect_error(prd_read(p, features = 1:80), class = "prdcurve_error_input")
  l <- lines(e)
  expect_length(l, 4L)
  expect_match(l[2], "^\\S+ Can't subset columns past the end.$")
  expect_match(l[3], "^\\S+ Locations 3, 4, 5")
  expect_match(l[4], "^\\S+ There are only 2 columns.$")
  # tidyselect's own symbols kept: a cross where it has one
  e <- expect_error(prd_read(p, features = c(a, zz)), class = "prdcurve_error_input")
  l <- lines(e)
  expect_match(l[3], "^\\S+ Column `zz` doesn't exist.$")
  expect_identical(sub(" .*", "", l[3]), sub(" .*", "", l[2]))
})
