# Tests of R/cli-output.R.

test_that("the figure: one panel per model, title with files, k and split", {
  skip_if_not_installed("ggplot2")
  fx <- cli_fixture()
  f_b <- file.path(fx$dir, "gen_b.csv")
  file.copy(fx$f_gen, f_b)
  out <- file.path(fx$dir, "fig")
  cv <- prd_cli(c("--real", fx$f_real, "--generated", fx$f_gen,
                  "--generated", f_b, "--k", "6", "--split", "0.4",
                  "--method", "knn,kde", "--seed", "1", "--angles", "51",
                  "--quiet", "--out", out))
  expect_true(file.exists(paste0(out, ".png")))
  expect_gt(file.size(paste0(out, ".png")), 10000)
  title <- prdcurve:::cli_title(fx$f_real, c(gen = fx$f_gen, gen_b = f_b), cv)
  expect_match(title, "real.csv vs gen.csv, gen_b.csv")
  # a model named otherwise than its file: the name of the legend, then the file
  expect_match(prdcurve:::cli_title(fx$f_real, c(noisy = fx$f_gen, gen_b = f_b), cv),
               "real.csv vs noisy (gen.csv), gen_b.csv", fixed = TRUE)
  # the arrays of one .npz name their file once
  expect_match(prdcurve:::cli_title(fx$f_real, c(good = "/x/m.npz", noisy = "/x/m.npz",
                                                 other = "/x/o.npz", gen_b = f_b), cv),
               "real.csv vs good, noisy (m.npz), other (o.npz), gen_b.csv",
               fixed = TRUE)
  expect_match(title, "knn, kde curves, k = 6, split = 0.4", fixed = TRUE)
  expect_no_match(title, "bands", fixed = TRUE)
  p <- prdcurve:::cli_plot(cv, title)
  built <- ggplot2::ggplot_build(p)
  expect_identical(nrow(built$layout$layout), 2L)
  expect_identical(as.character(built$layout$layout$.panel), c("gen", "gen_b"))
  expect_identical(p$labels$title, title)
  expect_identical(p$labels$x, "recall")
  expect_identical(p$labels$y, "precision")
  expect_identical(built$layout$panel_scales_x[[1]]$limits, c(0, 1))
  expect_identical(built$layout$panel_scales_y[[1]]$limits, c(0, 1))
  expect_true(built$plot$coordinates$is_free() == FALSE)
  expect_identical(built$plot$coordinates$ratio, 1)
  # one colour per method, every method in every panel (the lines: the
  # layer after the blank one that orders the legend's keys)
  d <- built$data[[which(vapply(p$layers, function(l) inherits(l$geom, "GeomPath"), NA))[1]]]
  expect_identical(length(unique(d$colour)), 2L)
  expect_identical(nrow(unique(d[c("PANEL", "colour")])), 4L)
  # a single model: one panel
  one <- prdcurve:::cli_plot(cv[cv$model == "gen", ], "t")
  expect_identical(nrow(ggplot2::ggplot_build(one)$layout$layout), 1L)
  # different k per model are named in the title
  cv2 <- prd_cli(c(fx$f_real, fx$f_gen, "--split", "0", "--method", "knn",
                   "--angles", "11", "--quiet", "--out", out))
  expect_match(prdcurve:::cli_title(fx$f_real, c(gen = fx$f_gen), cv2),
               " knn curve, k = 7, split = 0$")
  cv3 <- prd_curve(fx$real, list(a = fx$generated, b = fx$generated),
                   method = "knn", k = c(5, 7), split = 0, angles = 11)
  expect_match(prdcurve:::cli_title("r.csv", c(a = "a.csv", b = "b.csv"), cv3),
               "k = 5, 7, split = 0", fixed = TRUE)
})

test_that("--replicates, --metrics and --compare write what the R API computes", {
  fx <- cli_fixture()
  m2 <- cli_second_model(fx, 50, 21, "narrow.csv")
  g2 <- m2$x
  f_g2 <- m2$file
  out <- file.path(fx$dir, "run")
  printed <- utils::capture.output(
    suppressMessages(cv <- prd_cli(c(
      fx$f_real, fx$f_gen, f_g2, "--method", "knn,ipr", "--k", "4",
      "--angles", "41", "--seed", "3", "--replicates", "6", "--metrics",
      "--compare", "gen", "--out", out))))
  expect_true(any(grepl("Differences from gen", printed, fixed = TRUE)))
  # the intervals' note, as print(summary()) gives it
  expect_true(all(prdcurve:::curve_interval_note() %in% printed))
  models <- list(gen = fx$generated, narrow = g2)
  set.seed(3)
  ref <- prd_curve(fx$real, models, method = c("knn", "ipr"), k = 4,
                   angles = 41, replicates = 6)
  expect_equal(cv$precision, ref$precision, tolerance = 1e-12)
  written <- utils::read.csv(paste0(out, ".csv"))
  expect_equal(written$recall, ref$recall, tolerance = 1e-12)
  # with replicates the bands' ends too, as prd_curve_bands() gives them
  bands <- prd_curve_bands(ref)
  expect_identical(names(written), names(bands))
  for (col in c("recall_lower", "precision_lower", "recall_upper",
                "precision_upper")) {
    expect_equal(written[[col]], bands[[col]], tolerance = 1e-12)
  }
  # the metrics: manifold_metrics() with the same seed, k = --k
  set.seed(3)
  mref <- manifold_metrics(fx$real, models, k = 4, replicates = 6)
  m <- utils::read.csv(paste0(out, "-metrics.csv"))
  expect_identical(m$metric, mref$metric)
  expect_identical(m$model, mref$model)
  expect_equal(m$value, mref$value, tolerance = 1e-12)
  expect_equal(m$lower, mref$lower, tolerance = 1e-12)
  expect_equal(m$upper, mref$upper, tolerance = 1e-12)
  # the k of p_precision and p_recall is their ppr_k, named as such
  expect_identical(prdcurve:::cli_metrics_k(mref), "k = 4; ppr_k = 4")
  expect_identical(prdcurve:::cli_metrics_k(mref[mref$metric == "recall", ]),
                   "k = 4")
  # the embedding metrics have no k: none said (it read "k = ")
  emb <- data.frame(metric = c("fd", "kid"), k = NA_integer_)
  expect_null(prdcurve:::cli_metrics_k(emb))
  expect_identical(prdcurve:::cli_metrics_k(mref[mref$metric == "p_recall", ]),
                   "ppr_k = 4")
  # the comparison: prd_compare() of the curves, and of the metrics
  cref <- as.data.frame(prd_compare(ref, baseline = "gen"))
  cmp <- utils::read.csv(paste0(out, "-compare.csv"))
  expect_identical(cmp$statistic, cref$statistic)
  expect_identical(unique(cmp$model), "narrow")
  expect_identical(unique(cmp$baseline), "gen")
  expect_equal(cmp$estimate, cref$estimate, tolerance = 1e-12)
  expect_equal(cmp$lower, cref$lower, tolerance = 1e-12)
  mcmp <- utils::read.csv(paste0(out, "-metrics-compare.csv"))
  mref_cmp <- prd_compare(mref, baseline = "gen")
  expect_equal(mcmp$estimate, mref_cmp$estimate, tolerance = 1e-12)
  # ... printed too: a heading, then a row per metric with its interval
  at <- grep("Metrics, differences from gen", printed, fixed = TRUE)
  expect_length(at, 1L)
  rec <- mref_cmp[mref_cmp$statistic == "recall", ]
  expect_true(any(grepl(sprintf("narrow +recall +4 +%.3f \\[%.3f, %.3f\\]",
                                rec$estimate, rec$lower, rec$upper),
                        printed[-seq_len(at)])))
  expect_identical(sum(grepl("^ *narrow ", printed[-seq_len(at)])),
                   nrow(mref_cmp))
  # the title says what the bands are
  expect_match(prdcurve:::cli_title(fx$f_real, c(gen = fx$f_gen, narrow = f_g2), ref),
               "k = 4, split = 0.5, 5 splits averaged, 90% bands from 6 half-samples",
               fixed = TRUE)
  # a comparison's figure shows intervals
  expect_match(prdcurve:::cli_title(fx$f_real, c(gen = fx$f_gen, narrow = f_g2),
                                    ref, what = "differences from gen",
                                    bands = FALSE),
               "differences from gen, k = 4, split = 0.5, 5 splits averaged, 90% intervals from 6",
               fixed = TRUE)
  # a figure per result that has an autoplot() method, at the package's
  # figure size (300 dpi), the title's lines added
  skip_if_not_installed("ggplot2")
  # the metrics' differences drawn as the curves' are
  mpng <- paste0(out, "-metrics-compare.png")
  msize <- prdcurve:::cli_figure_size(ggplot2::autoplot(mref_cmp))
  expect_equal(png_size(mpng)[["width"]], round(msize$width * 300),
               tolerance = 1)
  png <- paste0(out, ".png")
  size <- prdcurve:::cli_figure_size(ggplot2::autoplot(ref))
  expect_equal(png_size(png)[["width"]], round(size$width * 300), tolerance = 1)
  expect_equal(png_size(png)[["height"]], round((size$height + 0.18) * 300),
               tolerance = 1)
  if (!is.null(utils::getS3method("autoplot", "prd_comparison",
                                  optional = TRUE,
                                  envir = asNamespace("ggplot2")))) {
    expect_true(file.exists(paste0(out, "-compare.png")))
  }
})

test_that("the printed summary has three decimals in every column", {
  fx <- cli_fixture()
  txt <- utils::capture.output(suppressMessages(prd_cli(c(
    fx$f_real, fx$f_gen, "--method", "knn,coverage", "--angles", "41",
    "--seed", "2", "--replicates", "4", "--out",
    file.path(fx$dir, "p")))))
  body <- txt[grepl("^ *gen ", txt)]
  expect_length(body, 2L)
  nums <- unlist(regmatches(body, gregexpr("-?[0-9]+\\.[0-9]+", body)))
  expect_length(nums, 2L * 5L * 3L)  # 5 statistics, each with an interval
  expect_true(all(grepl("^-?[0-9]+\\.[0-9]{3}$", nums)))
  set.seed(2)
  s <- summary(prd_curve(fx$real, list(gen = fx$generated),
                         method = c("knn", "coverage"), angles = 41,
                         replicates = 4))
  expect_identical(regmatches(body[1], regexpr("[0-9]\\.[0-9]{3}", body[1])),
                   sprintf("%.3f", s$auc[1]))
})

test_that("a title wider than its figure goes on two lines at its dash", {
  long <- "real.npy vs good.npy, noisy.npy - k = 32, split = 0.5"
  # the curves' figure is 3.3 inches wide: about 46 characters; the dash
  # does not end the first line
  expect_identical(prdcurve:::cli_fit_title(long, 3.3),
                   "real.npy vs good.npy, noisy.npy\nk = 32, split = 0.5")
  expect_identical(prdcurve:::cli_fit_title(long, 6.9), long)
  two <- "a.csv vs b.csv\nk = 5, split = 0"
  expect_identical(prdcurve:::cli_fit_title(two, 1.2), two)
  expect_identical(prdcurve:::cli_fit_title(two, 1),
                   "a.csv vs b.csv\nk = 5,\nsplit = 0")
  em <- "real.npy vs good.npy, noisy.npy \u2014 k = 32, split = 0.5"
  expect_identical(prdcurve:::cli_fit_title(em, 3.3),
                   "real.npy vs good.npy, noisy.npy\nk = 32, split = 0.5")
  # cli_title() breaks a long title the same way
  cv <- prd_curve(matrix(1:40 / 7, 20), matrix(1:40 / 5, 20), method = "knn",
                  k = 3, split = 0, angles = 11)
  expect_identical(
    prdcurve:::cli_title("real-features-of-the-test-set.npy",
                         "gen-features-of-the-model.npy", cv),
    paste0("real-features-of-the-test-set.npy vs gen-features-of-the-model.npy",
           "\nknn curve, k = 3, split = 0"))
  # three models of one .npz: the files themselves wrap, between files
  npz <- paste("real.npy vs good (models.npz), noisy (models.npz),",
               "collapsed (models.npz)\nk = 39, split = 0.5")
  fitted <- prdcurve:::cli_fit_title(npz, 3.3)
  expect_identical(fitted, paste0(
    "real.npy vs good (models.npz),\n",
    "noisy (models.npz), collapsed (models.npz)\n",
    "k = 39, split = 0.5"))
  expect_true(all(nchar(strsplit(fitted, "\n")[[1]]) <= 46))
  # a line of parameters too wide goes on more lines at its commas (the
  # curves' figure cut "... 90% bands from" off)
  params <- paste("real.csv vs good (gen2.csv), noisy (gen.csv)",
                  "tightest curve, k = 20, split = 0.5, 90% bands from 6 half-samples",
                  sep = "\n")
  expect_identical(prdcurve:::cli_fit_title(params, 3.3), paste(
    "real.csv vs good (gen2.csv), noisy (gen.csv)",
    "tightest curve, k = 20, split = 0.5,", "90% bands from 6 half-samples",
    sep = "\n"))
  expect_identical(prdcurve:::cli_fit_title(npz, 6.9), npz)
  expect_identical(prdcurve:::cli_fit_title(npz, 4),
                   sub("(models.npz), collapsed", "(models.npz),\ncollapsed",
                       npz, fixed = TRUE))
})

test_that("the title and the report give the k of the curves that have one, never NA", {
  set.seed(3)
  x <- matrix(rnorm(200), 100)
  y <- matrix(rnorm(200, 0.5), 100)
  fam <- prd_curve(x, y, method = c("quadratic", "linear"), angles = 11,
                   repeats = 1)
  expect_true(all(is.na(prd_curve_info(fam)$k)))
  expect_identical(prdcurve:::cli_title("real.csv", "gen.csv", fam),
                   "real.csv vs gen.csv \u2014 quadratic, linear curves, split = 0.5")
  # (5 splits averaged by default below 1,000 rows a set: said too)
  both <- prd_curve(x, y, method = c("knn", "quadratic"), k = 4, angles = 11)
  expect_identical(prdcurve:::cli_title("real.csv", "gen.csv", both), paste0(
    "real.csv vs gen.csv\n",
    "knn, quadratic curves, k = 4, split = 0.5, 5 splits averaged"))
  expect_identical(prdcurve:::cli_k_text(c(4, NA, 4, 10)), "4, 10")
  expect_null(prdcurve:::cli_k_text(NA))
  # the report's line of settings
  opt <- list(generated = c(gen = "gen.csv"), standardize = "none",
              split = 0.5, replicates = 0, seed = 1L, compare = NULL)
  out <- capture.output(prdcurve:::cli_report(fam, NULL, NULL, opt, "real.csv",
                                              100L, 2L, 100L, 1L, tempdir()))
  # (one split asked for; 100 rows a set otherwise average five)
  expect_match(out[1], "2 features; split = 0.5; seed = 1", fixed = TRUE)
  out <- capture.output(prdcurve:::cli_report(both, NULL, NULL, opt, "real.csv",
                                              100L, 2L, 100L, 1L, tempdir()))
  expect_match(out[1], "2 features; k = 4; split = 0.5 (5 splits averaged);",
               fixed = TRUE)
})

test_that("the report counts the feature columns the curves read, not the table's", {
  dir <- withr::local_tempdir()
  set.seed(5)
  table_of <- function(shift, lab) {
    data.frame(id = seq_len(80), sex = sample(c("f", "m"), 80, TRUE),
               age = rnorm(80, shift), income = rexp(80), source = lab)
  }
  utils::write.csv(table_of(0, "real"), file.path(dir, "real.csv"), row.names = FALSE)
  utils::write.csv(table_of(1, "synth"), file.path(dir, "gen.csv"), row.names = FALSE)
  # five columns, of which the id and the set label are no features (the
  # line said 4 features: the table's columns less the id)
  out <- capture.output(suppressMessages(prd_cli(c(
    file.path(dir, "real.csv"), file.path(dir, "gen.csv"), "--id", "id",
    "--method", "knn", "--seed", "1", "--out", dir))))
  expect_match(out[1], "vs gen (80 rows); 3 features; k = ", fixed = TRUE)
})

test_that("the report says which models read the ceiling, and only those", {
  set.seed(3)
  x <- matrix(rnorm(2400 * 3), 2400)
  gen <- list(same = matrix(rnorm(2400 * 3), 2400),
              shift = matrix(rnorm(2400 * 3, 0.5), 2400))
  cv <- prd_curve(x, gen, angles = 51)
  ch <- vapply(prd_curve_info(cv)$details, `[[`, "", "choice")
  expect_identical(ch, c("ceiling", "bands"))
  note <- prdcurve:::cli_ceiling_note(cv)
  expect_match(paste(note, collapse = " "),
               "^same: no family tells it from the real set .* min\\(1, lambda\\)")
  expect_false(any(grepl("shift", note)))
  opt <- list(generated = c(same = "same.npy", shift = "shift.npy"),
              standardize = "none", split = 0.5, replicates = 0, seed = 3L,
              compare = NULL)
  out <- capture.output(prdcurve:::cli_report(cv, NULL, NULL, opt, "real.npy",
                                              2400L, 3L, c(2400L, 2400L), 3L,
                                              tempdir()))
  expect_true(any(startsWith(out, "same: no family tells it")))
  # without a ceiling, no note
  expect_identical(prdcurve:::cli_ceiling_note(cv[cv$model == "shift", ]),
                   character())
})

test_that("the report says when the default read the real rows as clustered and took the mixture, and only then", {
  # (the command line's wording: R CMD check runs it)
  skip_if_sanitizing()
  # 16 overlapping classes of the validity suite, 2,000 real and 1,000
  # generated rows of 128 columns: the clusters test reads them as
  # clustered and the mixture joins (as in test-family-mixture-default.R)
  set.seed(4)
  sc <- cluster_scenario(128, classes = 16L)
  x <- sc$real$sample(2000)
  cv <- suppressWarnings(prd_curve(x, list(widen = sc$models$widen$sample(1000)),
                                   angles = 51))
  det <- prd_curve_info(cv)$details[[1]]
  expect_true("mixture" %in% det$families)
  expect_gt(det$clusters_gain, 0)
  note <- paste(prdcurve:::cli_clusters_note(cv), collapse = " ")
  expect_match(note, "^The real rows are clustered, so the default took the mixture family")
  expect_match(note, "0.13 to 0.26 at d = 512", fixed = TRUE)
  opt <- list(generated = c(widen = "widen.npy"), standardize = "none",
              split = 0.5, replicates = 0, seed = 4L, compare = NULL)
  out <- capture.output(prdcurve:::cli_report(cv, NULL, NULL, opt, "real.npy",
                                              2000L, 128L, 1000L, 128L,
                                              tempdir()))
  expect_true(any(startsWith(out, "The real rows are clustered")))
  # Gaussian real rows: the test reads no clusters, no note; nor where the
  # families are given (no test)
  gx <- matrix(rnorm(1000 * 16), 1000)
  gy <- matrix(rnorm(1000 * 16, 0.1), 1000)
  g <- prd_curve(gx, gy, angles = 51)
  expect_lt(prd_curve_info(g)$details[[1]]$clusters_gain, 0)
  expect_identical(prdcurve:::cli_clusters_note(g), character())
  f <- prd_curve(gx, gy, angles = 51, families = c("knn", "quadratic"))
  expect_identical(prd_curve_info(f)$details[[1]]$clusters_gain, NA_real_)
  expect_identical(prdcurve:::cli_clusters_note(f), character())
})
