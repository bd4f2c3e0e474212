# The R Markdown report template (inst/rmarkdown/templates/prdcurve-report):
# rendered from feature files it shows the numbers prd_curve(),
# prd_compare() and manifold_metrics() give with the same seed.

skip_if_sanitizing()

report_skeleton <- function() {
  system.file("rmarkdown", "templates", "prdcurve-report", "skeleton",
              "skeleton.Rmd", package = "prdcurve")
}

render_report <- function(dir, params) {
  rmd <- file.path(dir, "report.Rmd")
  file.copy(report_skeleton(), rmd, overwrite = TRUE)
  out <- rmarkdown::render(rmd, params = params, quiet = TRUE,
                           envir = new.env(), intermediates_dir = dir)
  paste(readLines(out, warn = FALSE), collapse = "\n")
}

skip_if_cannot_render <- function() {
  skip_if_not_installed("rmarkdown")
  skip_if_not_installed("ggplot2")
  skip_if_not(rmarkdown::pandoc_available(), "pandoc is not available")
}

# the page holds `pattern` (expect_match() would escape the whole page, a
# megabyte of inline figures, for its message: 27 s of a test's 31)
expect_page <- function(page, pattern, fixed = FALSE) {
  expect_true(grepl(pattern, page, fixed = fixed),
              label = paste0("the page holds \"", pattern, "\""))
}

# the report's numbers: three decimals, three significant digits below 0.01
report_num <- function(x) {
  ifelse(!is.na(x) & x != 0 & abs(x) < 0.01, sprintf("%.3g", x),
         sprintf("%.3f", x))
}
interval_text <- function(v, lo, hi) {
  sprintf("%s [%s, %s]", report_num(v), report_num(lo), report_num(hi))
}

test_that("the report template is found by rmarkdown::draft()", {
  skip_if_not_installed("rmarkdown")
  expect_true(nzchar(report_skeleton()))
  dir <- withr::local_tempdir()
  path <- rmarkdown::draft(file.path(dir, "my-report.Rmd"),
                           template = "prdcurve-report",
                           package = "prdcurve", edit = FALSE)
  expect_identical(readLines(path), readLines(report_skeleton()))
})

test_that("a report from float32 .npy and .npz files shows the package's numbers", {
  skip_if_cannot_render()
  dir <- withr::local_tempdir()
  set.seed(11)
  d <- 6
  real <- matrix(rnorm(300 * d), ncol = d)
  good <- matrix(rnorm(300 * d), ncol = d)
  wide <- matrix(rnorm(300 * d, sd = 1.5), ncol = d)
  write_npy(real, file.path(dir, "real.npy"), dtype = "<f4")
  write_npy(good, file.path(dir, "good.npy"), dtype = "<f4")
  write_npz(list(wide = wide, other = good), file.path(dir, "models.npz"),
            dtype = "<f4")
  html <- render_report(dir, list(
    real = file.path(dir, "real.npy"),
    generated = c(good = file.path(dir, "good.npy"),
                  wide = paste0(file.path(dir, "models.npz"), ":wide")),
    replicates = 4, seed = 3, k = 4))
  # the same computation in R, on the float32 values the files hold
  models <- list(good = as_float32(good), wide = as_float32(wide))
  set.seed(3)
  cv <- prd_curve(as_float32(real), models, method = "tightest", replicates = 4)
  s <- summary(cv)
  for (i in seq_len(nrow(s))) {
    expect_page(html, interval_text(s$auc[i], s$auc_lower[i], s$auc_upper[i]),
                 fixed = TRUE)
  }
  cmp <- prd_compare(cv, baseline = "good")
  cmp <- cmp[cmp$statistic == "auc", ]
  expect_page(html, interval_text(cmp$estimate, cmp$lower, cmp$upper),
               fixed = TRUE)
  set.seed(3)
  m <- manifold_metrics(as_float32(real), models, k = 4, replicates = 4)
  rc <- m[m$model == "wide" & m$metric == "recall", ]
  expect_page(html, interval_text(rc$value, rc$lower, rc$upper), fixed = TRUE)
  # the embedding metrics (FD, KID, Vendi, authenticity) with the same seed
  set.seed(3)
  e <- embedding_metrics(as_float32(real), models, replicates = 4)
  expect_setequal(unique(e$metric), embedding_default_metrics())
  for (mt in c("fd", "kid", "vendi", "authpct")) {
    v <- e[e$model == "wide" & e$metric == mt, ]
    expect_page(html, interval_text(v$value, v$lower, v$upper), fixed = TRUE)
  }
  # values below 0.01 (the good model's MMD) keep three significant digits
  # (were "0.000 [-0.000, 0.000]")
  small <- e[e$model == "good" & abs(e$value) < 0.01 & e$value != 0, ]
  expect_gt(nrow(small), 0L)
  for (i in seq_len(nrow(small))) {
    expect_page(html, interval_text(small$value[i], small$lower[i], small$upper[i]),
                fixed = TRUE)
  }
  expect_false(grepl("-0.000", html, fixed = TRUE))
  # the models at the ceiling of Q = P are named, and only they
  info <- prd_curve_info(cv)
  at <- unique(info$model[vapply(info$details, function(d)
    identical(d$choice, "ceiling"), logical(1))])
  expect_identical(grepl("curve is that of Q = P", html, fixed = TRUE),
                   length(at) > 0L)
  if (length(at)) {
    expect_page(html, paste0(paste(at, collapse = ", "), ": no family tells"),
                fixed = TRUE)
  }
  # an estimate of an upper bound, never "an upper bound" outright
  expect_false(grepl("curve is an upper bound", html, fixed = TRUE))
  # (300 rows a set: no mixture; no model at the ceiling here)
  expect_false(grepl("real rows are clustered", html, fixed = TRUE))
  # what it takes to reproduce it: the version and the files' checksums
  expect_page(html, as.character(utils::packageVersion("prdcurve")),
               fixed = TRUE)
  expect_page(html, unname(tools::md5sum(file.path(dir, "models.npz"))),
               fixed = TRUE)
  expect_page(html, "Paired differences from good", fixed = TRUE)
  expect_false(grepl("## Warning", html, fixed = TRUE))
  # the call as R, and the replicates with their level
  txt <- gsub("\\s+", " ", gsub("&quot;", "\"", html, fixed = TRUE))
  expect_true(grepl("<code>prd_curve(method = \"tightest\")</code>", txt,
                    fixed = TRUE))
  expect_true(grepl("4 half-sample replicates (90% intervals)", txt, fixed = TRUE))
  # (300 rows a set: five splits averaged, and said)
  expect_true(grepl("split 0.5 (5 random splits averaged), k =", txt, fixed = TRUE))
})

test_that("a report names the models at the ceiling of Q = P and says when the rows are clustered", {
  skip_if_cannot_render()
  dir <- withr::local_tempdir()
  # three clusters (centres 6 e_j) in d = 3, 2,500 rows a set (at 1,200 the
  # ceiling took 1 of 3 draws, the mixture alone reading 0.978 for Q = P;
  # at 2,500 and 5,000, 3 of 3)
  set.seed(2)
  d <- 3
  clusters <- function(n) {
    matrix(rnorm(n * d), ncol = d) + 6 * diag(d)[sample(d, n, TRUE), ]
  }
  real <- clusters(2500)
  good <- clusters(2500)
  write_npy(real, file.path(dir, "real.npy"), dtype = "<f4")
  write_npy(good, file.path(dir, "good.npy"), dtype = "<f4")
  write_npy(good + 1, file.path(dir, "far.npy"), dtype = "<f4")
  html <- render_report(dir, list(
    real = file.path(dir, "real.npy"),
    generated = c(good = file.path(dir, "good.npy"),
                  far = file.path(dir, "far.npy")),
    replicates = 0, seed = 2))
  set.seed(2)
  cv <- prd_curve(as_float32(real), list(good = as_float32(good),
                                         far = as_float32(good + 1)))
  det <- prd_curve_info(cv)$details
  # good: one law, no family tells them apart; the mixture joined for both
  expect_identical(vapply(det, `[[`, "", "choice"), c("ceiling", "bands"))
  expect_true(all(vapply(det, function(x) "mixture" %in% x$families, NA)))
  # the command line's notes, word for word (pandoc's typographic quotes
  # read as straight ones)
  txt <- gsub("\\s+", " ", gsub("&quot;", "\"", html, fixed = TRUE))
  txt <- gsub("\u2019", "'", gsub("[\u201c\u201d]", "\"", txt))
  for (note in list(prdcurve:::cli_ceiling_note(cv),
                    prdcurve:::cli_clusters_note(cv))) {
    expect_true(length(note) > 0L)
    expect_page(txt, paste(note, collapse = " "), fixed = TRUE)
  }
  expect_page(txt, "good: no family tells it from the real set", fixed = TRUE)
  expect_false(grepl("far: no family", txt, fixed = TRUE))
})

test_that("a report expands an .npz of several models, as the command line does", {
  skip_if_cannot_render()
  skip_if(!nzchar(Sys.which("zip")), "no zip program to write the .npz")
  dir <- withr::local_tempdir()
  set.seed(13)
  d <- 5
  real <- matrix(rnorm(300 * d), ncol = d)
  good <- matrix(rnorm(300 * d), ncol = d)
  wide <- matrix(rnorm(300 * d, sd = 1.5), ncol = d)
  # numpy.savez(f, real = ..., good = ..., wide = ..., labels = ...): the
  # real set, two models and a 1-D array, unnamed in `generated`
  f <- file.path(dir, "all.npz")
  write_npz(list(real = real, good = good, wide = wide,
                 labels = rep(0:2, 100)), f, dtype = "<f4")
  html <- render_report(dir, list(real = paste0(f, ":real"), generated = f,
                                  replicates = 0, seed = 6))
  set.seed(6)
  cv <- prd_curve(as_float32(real), list(good = as_float32(good),
                                         wide = as_float32(wide)))
  s <- summary(cv)
  for (m in c("good", "wide")) {
    re <- paste0("<td align=\"left\">", m, "</td>\\s*<td align=\"left\">",
                 "tightest</td>\\s*<td align=\"left\">([0-9.]+)</td>")
    expect_identical(regmatches(html, regexec(re, html))[[1]][2],
                     sprintf("%.3f", s$auc[s$model == m]))
  }
  expect_false(grepl(">labels<", html, fixed = TRUE))
  expect_false(grepl("## Warning", html, fixed = TRUE))
  # labelled: LABEL:NAME; a file of one model and a 1-D array: that model
  f2 <- file.path(dir, "one.npz")
  write_npz(list(wide = wide, labels = rep(0:2, 100)), f2, dtype = "<f4")
  # (and several methods: the call prints them as the vector R reads)
  html2 <- render_report(dir, list(real = paste0(f, ":real"),
                                   generated = c(m = f, f2),
                                   method = c("tightest", "knn"),
                                   replicates = 0, seed = 6))
  for (m in c("m:good", "m:wide", "one")) {
    expect_page(html2, paste0("<td align=\"left\">", m, "</td>"),
                 fixed = TRUE)
  }
  txt <- gsub("\\s+", " ", gsub("&quot;", "\"", html2, fixed = TRUE))
  expect_true(grepl("<code>prd_curve(method = c(\"tightest\", \"knn\"))</code>",
                    txt, fixed = TRUE))
  expect_true(grepl("<td align=\"left\">method</td> <td align=\"left\"><code>c(\"tightest\", \"knn\")</code></td>",
                    txt, fixed = TRUE))
  expect_true(grepl("<td align=\"left\">one</td> <td align=\"left\">knn</td>",
                    txt, fixed = TRUE))
  expect_false(grepl("## Warning", html2, fixed = TRUE))
})

test_that("the report runs on the bundled digits without files or intervals", {
  skip_if_cannot_render()
  dir <- withr::local_tempdir()
  html <- render_report(dir, list(replicates = 0, seed = 5))
  expect_page(html, "the bundled <code>digits</code> data", fixed = TRUE)
  # (grepl: a failure need not print the whole page)
  expect_false(grepl("Paired differences", html, fixed = TRUE))
  expect_false(grepl("## Warning", html, fixed = TRUE))
  # no intervals, and no level or replicates claimed for them
  txt <- gsub("\\s+", " ", html)
  expect_true(grepl(", no intervals (replicates = 0). Every", txt, fixed = TRUE))
  expect_false(grepl("half-sample replicates (90% intervals)", txt, fixed = TRUE))
  # "tightest" as ?prd_curve describes it
  expect_true(grepl(paste(
    "cuts lambda into six bands and takes in each the family whose area",
    "there, penalised by its noise, is the smallest, chosen on one half of",
    "the evaluation rows and read on the other"), txt, fixed = TRUE))
  expect_true(grepl("an estimate of an upper bound, whose noise can put it below the true curve",
                    txt, fixed = TRUE))
  expect_false(grepl("the lowest of its families", txt, fixed = TRUE))
  # the curves' areas: the model drawn from the real digits near 1, the one
  # without the digits 3 and 4 (true maximal recall about 3/5) between, the
  # noisy one far below
  auc_of <- function(model) {
    re <- paste0("<td align=\"left\">", model, "</td>\\s*<td align=\"left\">",
                 "tightest</td>\\s*<td align=\"left\">([0-9.e+-]+)</td>")
    # (below 0.01 three significant digits, e.g. 6.5e-05)
    as.numeric(regmatches(html, regexec(re, html))[[1]][2])
  }
  expect_gt(auc_of("other_half"), 0.9)
  expect_gt(auc_of("digits_0_2"), 0.4)
  expect_lt(auc_of("digits_0_2"), 0.8)
  expect_lt(auc_of("noisy"), auc_of("other_half") - 0.3)
  # each figure at the size it is laid out for (prd_figure_size()), shown
  # in proportion to the page's 6.9 in: the single curve panel 3.3 in of
  # it, 48% (it was drawn 5 in wide, its legend wrapped for 3.3 in), the
  # metrics' panels the whole width
  img <- regmatches(html, gregexpr("<img src=\"data:image/png;base64,[^\"]+\"[^>]*>", html))[[1]]
  expect_length(img, 2L)
  width <- sub(".*width=\"([^\"]+)\".*", "\\1", substring(img, nchar(img) - 200L))
  expect_identical(width, c("48%", "100%"))
})

test_that("a report from tables with id and label columns reads the features", {
  skip_if_cannot_render()
  dir <- withr::local_tempdir()
  set.seed(12)
  table_of <- function(x) {
    data.frame(id = seq_len(nrow(x)), label = sample(c("cat", "dog"), nrow(x), TRUE),
               stats::setNames(as.data.frame(x), paste0("f", seq_len(ncol(x)))))
  }
  real <- matrix(rnorm(400 * 5), ncol = 5)
  gen <- matrix(rnorm(400 * 5, mean = 0.3), ncol = 5)
  utils::write.csv(table_of(real), file.path(dir, "real.csv"), row.names = FALSE)
  utils::write.csv(table_of(gen), file.path(dir, "gen.csv"), row.names = FALSE)
  html <- render_report(dir, list(
    real = file.path(dir, "real.csv"),
    generated = c(shifted = file.path(dir, "gen.csv")),
    features = 'starts_with("f")', id = "id", replicates = 0, seed = 4))
  set.seed(4)
  cv <- prd_curve(unname(real), list(shifted = unname(gen)))
  re <- paste0("<td align=\"left\">shifted</td>\\s*<td align=\"left\">",
               "tightest</td>\\s*<td align=\"left\">([0-9.]+)</td>")
  expect_identical(regmatches(html, regexec(re, html))[[1]][2],
                   sprintf("%.3f", summary(cv)$auc))
  # the id column is not a feature: no warning about it, 5 features
  expect_false(grepl("## Warning", html, fixed = TRUE))
  expect_page(html, "<td align=\"left\">real</td>\\s*<td align=\"right\">400</td>\\s*<td align=\"right\">5</td>")
})

test_that("a report from tables with an id and no features keeps the categorical columns, as the command line", {
  skip_if_cannot_render()
  dir <- withr::local_tempdir()
  set.seed(13)
  table_of <- function(n, p_f, shift) {
    data.frame(id = seq_len(n), sex = ifelse(runif(n) < p_f, "f", "m"),
               age = round(rnorm(n, 40 + shift, 10)), income = rexp(n))
  }
  real <- table_of(300, 0.5, 0)
  gen <- table_of(300, 0.9, 0)
  # a column that labels the sets, left out of the features
  real$source <- "real"
  gen$source <- "synth"
  utils::write.csv(real, file.path(dir, "real.csv"), row.names = FALSE)
  utils::write.csv(gen, file.path(dir, "gen.csv"), row.names = FALSE)
  html <- render_report(dir, list(
    real = file.path(dir, "real.csv"),
    generated = c(synth = file.path(dir, "gen.csv")),
    id = "id", replicates = 0, seed = 4))
  set.seed(4)
  cv <- prd_curve(real[2:4], list(synth = gen[2:4]))
  re <- paste0("<td align=\"left\">synth</td>\\s*<td align=\"left\">",
               "tightest</td>\\s*<td align=\"left\">([0-9.]+)</td>")
  expect_identical(regmatches(html, regexec(re, html))[[1]][2],
                   sprintf("%.3f", summary(cv)$auc))
  # sex, age, income: three columns (sex was dropped: AUC 0.965 against
  # 0.736), named, and the set label named as left out (the table counted
  # it: 4)
  expect_page(html, "<td align=\"left\">real</td>\\s*<td align=\"right\">300</td>\\s*<td align=\"right\">3</td>")
  expect_page(gsub("\\s+", " ", html),
              "Features: <code>sex</code>, <code>age</code>, <code>income</code>; left out: <code>source</code>",
              fixed = TRUE)
  expect_lt(summary(cv)$auc, 0.9)
})

test_that("standardize = 'real' reaches the curves and the metrics of a report", {
  skip_if_cannot_render()
  dir <- withr::local_tempdir()
  set.seed(13)
  # a column in other units (a scale warning without standardize)
  table_of <- function(x, income) {
    data.frame(stats::setNames(as.data.frame(x), paste0("f", seq_len(ncol(x)))),
               income = round(income, 2))
  }
  real <- table_of(matrix(rnorm(300 * 4), ncol = 4), rlnorm(300, 10, 1))
  gen <- table_of(matrix(rnorm(300 * 4, mean = 0.3), ncol = 4),
                  rlnorm(300, 10.4, 1))
  utils::write.csv(real, file.path(dir, "real.csv"), row.names = FALSE)
  utils::write.csv(gen, file.path(dir, "gen.csv"), row.names = FALSE)
  html <- render_report(dir, list(
    real = file.path(dir, "real.csv"), generated = c(shifted = file.path(dir, "gen.csv")),
    replicates = 0, seed = 6, standardize = "real"))
  set.seed(6)
  cv <- prd_curve(real, list(shifted = gen), standardize = "real")
  re <- paste0("<td align=\"left\">shifted</td>\\s*<td align=\"left\">",
               "tightest</td>\\s*<td align=\"left\">([0-9.]+)</td>")
  expect_identical(regmatches(html, regexec(re, html))[[1]][2],
                   sprintf("%.3f", summary(cv)$auc))
  set.seed(6)
  m <- manifold_metrics(real, list(shifted = gen), standardize = "real")
  cov <- m$value[m$metric == "coverage"]
  expect_true(grepl(paste0("<td align=\"left\">coverage</td>\\s*<td align=\"left\">",
                           sprintf("%.3f", cov), "</td>"), html))
  # (grepl: a failure need not print the whole page)
  expect_true(grepl("centred and scaled by the mean and standard deviation of the real fit rows",
                    gsub("\\s+", " ", html), fixed = TRUE))
  expect_false(grepl("## Warning", html, fixed = TRUE))
})
