# The mixture family in the default (R/family-mixture-default.R): where it
# joins, on how many fit rows its EM runs, the clusters test.

test_that("the default's bound on the EM's fit rows: 2^21 values of each set, at least 2,500 rows", {
  expect_identical(vapply(c(64, 256, 512, 838, 1024, 2048),
                          mixture_fit_rows_max, 1),
                   c(32768, 8192, 4096, 2502, 2500, 2500))
})

test_that("in the default the mixture's EM runs on at most mixture_fit_rows_max() fit rows a set, with families given or alone on all", {
  set.seed(4)
  sc <- cluster_scenario(128, classes = 16L)
  x <- sc$real$sample(2000)
  y <- sc$models$widen$sample(1000)
  seen <- new.env()
  ns <- asNamespace("prdcurve")
  suppressMessages(trace("mixture_cells", where = ns, print = FALSE,
                         tracer = bquote(assign("fit_rows", fit_rows,
                                                envir = .(seen)))))
  withr::defer(suppressMessages(untrace("mixture_cells", where = ns)))
  cv <- suppressWarnings(prd_curve(x, y))
  expect_true("mixture" %in% prd_curve_info(cv)$details[[1]]$families)
  expect_identical(seen$fit_rows, mixture_fit_rows_max(128))
  expect_identical(seen$fit_rows, 16384)
  rm("fit_rows", envir = seen)
  invisible(prd_curve(x, y, families = c("knn", "mixture")))
  expect_identical(seen$fit_rows, Inf)
  rm("fit_rows", envir = seen)
  invisible(prd_curve(x, y, method = "mixture"))
  expect_identical(seen$fit_rows, Inf)
  expect_identical(run_state$mixture_fit_rows, Inf)
})

test_that("the clusters test reads classes, not a covariance, and leaves the RNG as it was", {
  # 16 overlapping classes of the validity suite (d = 128, 4,000 rows):
  # held-out gain of 8 spherical components over one, in the whitened rows,
  # 0.27-0.36 nats per row over seeds 1-4; a rotated Gaussian with
  # variances 1 / i, -0.24 to -0.27
  set.seed(1)
  sc <- cluster_scenario(128, classes = 16L)
  x <- sc$real$sample(4000)
  q <- qr.Q(qr(matrix(rnorm(128^2), 128)))
  g <- mixture_clustered(x)
  expect_true(g$clustered)
  expect_gt(g$gain, 0.2)
  # whitened rows: a rotation, a scale and a shift change nothing
  expect_equal(mixture_clustered(x %*% q * 3 + 5)$gain, g$gain, tolerance = 1e-10)
  aniso <- matrix(rnorm(4000 * 128), 4000) * rep(1 / sqrt(1:128), each = 4000)
  a <- mixture_clustered(aniso %*% q)
  expect_false(a$clustered)
  expect_lt(mixture_clustered(aniso %*% q, pcs = Inf)$gain, -0.2)
  # (the leading principal components of a Gaussian: one Gaussian too)
  expect_lt(a$gain, -0.05)
  # the caller's RNG: the same draws after the test as without it, and no
  # seed made where there was none
  set.seed(9)
  u <- runif(2)
  set.seed(9)
  invisible(mixture_clustered(x))
  expect_identical(runif(2), u)
  withr::local_preserve_seed()
  rm(".Random.seed", envir = globalenv())
  invisible(mixture_clustered(x))
  expect_false(exists(".Random.seed", globalenv(), inherits = FALSE))
  # too few rows for 8 components in each half, constant rows: not clustered
  expect_identical(mixture_clustered(x[1:100, ]), list(clustered = FALSE, gain = NA_real_))
  expect_false(mixture_clustered(matrix(1, 500, 4))$clustered)
})

test_that("the clusters test's second view sees classes whose centres span few of many directions", {
  # 16 classes N(c_l, I) in d = 128, their centres (norm 4) in a random
  # 15-dimensional subspace, as L2-normalised embeddings' classes are
  # (bench/sphere.R): the whitened rows read -0.27 to -0.28 over seeds 1-3,
  # the leading principal components +0.57 to +0.75
  set.seed(1)
  d <- 128
  B <- qr.Q(qr(matrix(rnorm(d * 15), d)))
  C <- matrix(rnorm(16 * 15), 16)
  C <- C / sqrt(rowSums(C^2)) * 4
  x <- C[sample.int(16, 4000, TRUE), ] %*% t(B) + matrix(rnorm(4000 * d), 4000)
  first <- mixture_clustered(x, pcs = Inf)
  expect_false(first$clustered)
  expect_lt(first$gain, -0.2)
  both <- mixture_clustered(x)
  expect_true(both$clustered)
  expect_gt(both$gain, 0.5)
  # the gain is the larger view's; with as many columns as components,
  # only the first view runs
  expect_identical(mixture_clustered(x[, 1:16])$gain,
                   mixture_clustered(x[, 1:16], pcs = Inf)$gain)
  expect_true("mixture" %in% tightest_families(x))
})

test_that("the default takes the mixture family on clustered real rows of at most 1,024 columns, sets of 1,000 rows or more", {
  set.seed(2)
  sc <- cluster_scenario(128, classes = 16L)
  x <- sc$real$sample(4000)
  y <- sc$models$widen$sample(4000)
  fx <- tightest_families(x)
  expect_identical(as.vector(fx), c(tightest_default(), "mixture", "mixture16", "spectral"))
  expect_gt(attr(fx, "clusters_gain"), 0.2)
  fg <- tightest_families(matrix(rnorm(4000 * 128), 4000))
  expect_identical(as.vector(fg), c(tightest_default(), "spectral"))
  expect_lt(attr(fg, "clusters_gain"), 0)
  # above 512 columns the mixture without mixture16 (the real set's first
  # 128 columns repeated: as clustered)
  wide <- cbind(x, x, x, x, x)[1:1000, ]
  expect_identical(as.vector(tightest_families(wide)),
                   c(tightest_default(), "mixture"))
  # a set of fewer than 1,000 rows (and of fewer than 8 a column: no
  # spectral): no mixture
  expect_identical(tightest_families(x, rows = 999), tightest_default())
  # (no test there: no gain)
  # 32,769 rows of 128 columns: the mixture too (its EM on a sample of the
  # fit rows, mixture_fit_rows_max()); above 1,024 columns, not
  # (prd_curve() then warns: test-family-checks.R)
  big <- x[rep(seq_len(nrow(x)), length.out = 32769), ]
  fb <- tightest_families(big)
  expect_identical(as.vector(fb), c(tightest_default(), "mixture", "mixture16", "spectral"))
  expect_gt(attr(fb, "clusters_gain"), 0.2)
  # the default's families, with the mixture; its curve follows the
  # mixture's, well below the quadratic's (true AUC of the widened classes
  # 0.379, cluster_truth() with 2e5 draws; read 0.464, mixture 0.452,
  # quadratic 0.551)
  cv <- suppressWarnings(prd_curve(x, y, method = c("tightest", "mixture",
                                                    "quadratic")))
  expect_identical(prd_curve_info(cv)$details[[1]]$families,
                   c(tightest_default(), "mixture", "mixture16", "spectral"))
  # the test's gain in the details, as mixture_clustered() reads the
  # canonical rows
  expect_gt(prd_curve_info(cv)$details[[1]]$clusters_gain, 0.2)
  # and the printed header says so, for the default's curve alone
  head <- tibble::tbl_sum(cv)
  expect_identical(sum(grepl("clustered real rows: mixture joined (can still read high)",
                             head, fixed = TRUE)), 1L)
  a <- stats::setNames(summary(cv)$auc, summary(cv)$method)
  expect_lt(a[["mixture"]], a[["quadratic"]] - 0.05)
  expect_lt(a[["tightest"]], a[["quadratic"]] - 0.05)
  expect_lt(abs(a[["tightest"]] - 0.379), 0.1)
})
