# The package's layout: the tests of R/<name>.R live in
# tests/testthat/test-<name>.R.

# R files without logic of their own, so without a test file
layout_exempt <- c(
  "curve-doc.R"          # roxygen only: the curve's documentation topics
)
# test files of no one R file
layout_extra_tests <- c(
  "test-fuzz.R",         # seeded fuzz cases across every exported function
  "test-report.R"        # the R Markdown report (inst/rmarkdown/templates)
)

test_that("every R file has its test file, and every test file its R file", {
  src <- test_path("..", "..", "R")
  skip_if_not(dir.exists(src) && length(list.files(src, "\\.R$")) > 0L,
              "the package's R sources are not here (an installed package)")
  r_files <- list.files(src, "\\.R$")
  tests <- list.files(test_path(), "^test-.*\\.R$")
  expect_identical(setdiff(layout_exempt, r_files), character())
  expect_identical(setdiff(layout_extra_tests, tests), character())
  # an R file without its test file
  expect_identical(setdiff(paste0("test-", setdiff(r_files, layout_exempt)),
                           tests), character())
  # a test file named after no R file
  expect_identical(setdiff(sub("^test-", "", setdiff(tests, layout_extra_tests)),
                           r_files), character())
  # an exempt file holds no code but roxygen blocks and NULL
  for (f in layout_exempt) {
    code <- grep("^\\s*(#|$)", readLines(file.path(src, f)), value = TRUE,
                 invert = TRUE)
    expect_identical(code, "NULL", label = f)
  }
})

test_that("every recipe of the map names a test that exists", {
  # the sources' map where they are here (make layout), else the installed one
  map <- test_path("..", "..", "inst", "ARCHITECTURE.md")
  if (!file.exists(map)) map <- system.file("ARCHITECTURE.md", package = "prdcurve")
  skip_if_not(file.exists(map), "the map is not here")
  lines <- readLines(map)
  # a map, not a diary: at most 200 lines
  expect_lte(length(lines), 200L)
  txt <- paste(lines, collapse = " ")
  refs <- regmatches(txt, gregexpr(
    "Test:\\s+(test-[a-z-]+\\.R),\\s+\"recipe \\.\\.\\.\\s+[^\"]+\"", txt))[[1]]
  expect_gte(length(refs), 4L)
  for (r in refs) {
    file <- sub("^Test:\\s+(test-[a-z-]+\\.R),.*$", "\\1", r)
    words <- sub("\"$", "", sub("^.*\"recipe \\.\\.\\.\\s+", "", r))
    code <- paste(readLines(test_path(file)), collapse = " ")
    expect_true(grepl(paste0("test_that(\"recipe (inst/ARCHITECTURE.md): ", words),
                      code, fixed = TRUE), label = r)
  }
})

test_that("each result class is built by its one constructor", {
  src <- test_path("..", "..", "R")
  skip_if_not(dir.exists(src) && length(list.files(src, "\\.R$")) > 0L,
              "the package's R sources are not here (an installed package)")
  # the class name given to new_tibble() or structure(): where each is
  home <- c(prd_curve = "curve-class.R", prd_metrics = "metrics-class.R",
            prd_comparison = "replicates.R")
  for (cl in names(home)) {
    at <- character()
    for (f in list.files(src, "\\.R$")) {
      code <- readLines(file.path(src, f))
      code <- code[!grepl("^\\s*#", code)]
      if (any(grepl(sprintf("class = \"%s\"", cl), code, fixed = TRUE))) {
        at <- c(at, f)
      }
    }
    expect_identical(at, unname(home[cl]), label = cl)
  }
  # the metrics tables bound by prd_bind() and the command line go through
  # new_prd_metrics() (lower and upper kept)
  x <- prdcurve:::new_prd_metrics(tibble::tibble(model = "a", metric = "recall", k = 5L,
                                      value = 0.5, lower = 0.4, upper = 0.6,
                                      other = 1), split = 0.5)
  expect_identical(names(x), c("model", "metric", "k", "value", "lower",
                               "upper"))
  expect_identical(attr(x, "split"), 0.5)
  expect_s3_class(x, "prd_metrics")
})
