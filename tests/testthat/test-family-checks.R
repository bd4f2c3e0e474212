# Tests of R/family-checks.R.

test_that("families that disagree raise a classed warning naming the tighter", {
  set.seed(4)
  d <- 128
  x <- matrix(rnorm(600 * d), 600)
  y <- matrix(rnorm(600 * d, sd = 1.2), 600)
  w <- NULL
  cv <- withCallingHandlers(
    prd_curve(x, y, method = c("knn", "quadratic")),
    prdcurve_warning_family_disagreement = function(cnd) {
      w <<- cnd
      invokeRestart("muffleWarning")
    })
  s <- summary(cv)
  expect_gt(s$auc[s$method == "knn"], 0.5)
  expect_lt(s$auc[s$method == "quadratic"], 0.1)
  # without replicates the checks read each curve's area alone: summary()'s
  expect_identical(curve_areas(cv)$auc, s$auc)
  expect_identical(curve_areas(cv)$method, s$method)
  expect_s3_class(w, "prdcurve_warning")
  expect_match(conditionMessage(w), "\"quadratic\" is the tighter", fixed = TRUE)
  # and does not promise that the tighter one is the truth
  expect_match(conditionMessage(w), "may still lie above the true curve",
               fixed = TRUE)
  expect_match(conditionMessage(w), "hubness", fixed = TRUE)
  # agreeing families stay silent
  withCallingHandlers(
    expect_no_warning(
      prd_curve(x, x[sample(600), ] + 0, method = c("linear", "quadratic")),
      class = "prdcurve_warning_family_disagreement"
    ),
    prdcurve_warning_copies = function(w) invokeRestart("muffleWarning")
  )
})

test_that("the checks' areas of an envelope are summary()'s auc", {
  set.seed(9)
  lam <- lambda_grid(51)
  for (i in 1:20) {
    n <- 5 + 3 * i
    env <- curve_from_scores(rnorm(n), rnorm(n, (i - 10) / 5), lam)
    st <- curve_stats(c(0, lam, Inf), c(0, env$precision, env$max_precision),
                      c(env$max_recall, env$recall, 0))
    expect_identical(envelope_auc(lam, env), st[["auc"]])
  }
})

test_that("the knn hubness figure is the skewness of the k-occurrence counts", {
  set.seed(6)
  x <- in_canonical_order(matrix(rnorm(60 * 8), 60))
  y <- in_canonical_order(matrix(rnorm(50 * 8, sd = 1.3), 50))
  skew <- function(v) mean((v - mean(v))^3) / sqrt(mean((v - mean(v))^2))^3
  for (split in list(0, 0.5)) {
    set.seed(2)
    # k = 7 near the 25 fit rows of split 0.5: the traps warning is expected
    cv <- suppressWarnings(prd_curve(x, y, method = "knn", k = c(3, 7),
                                     split = split, repeats = 1),
                           classes = "prdcurve_warning_k_large")
    set.seed(2)
    sp <- resolve_split(split, 60, 50)
    fit <- rbind(x[sp$fit[[1]], ], y[sp$fit[[2]], ])
    ev <- if (is.null(sp$eval)) sp$fit else sp$eval
    z <- rbind(x[ev[[1]], ], y[ev[[2]], ])
    d2 <- sq_dist(z, fit)
    if (is.null(sp$eval)) diag(d2) <- Inf # fit rows = evaluation rows
    inf <- prd_curve_info(cv)
    for (j in 1:2) {
      k <- c(3, 7)[j]
      occ <- numeric(ncol(d2))
      for (i in seq_len(nrow(d2))) {
        occ <- occ + (d2[i, ] <= sort(d2[i, ])[k])
      }
      expect_equal(inf$details[[j]]$hubness, skew(occ), tolerance = 1e-10)
    }
  }
  # the engine's counts: every fit row's k-occurrences, summed over the
  # evaluation rows (at least k each)
  sp <- list(fit = list(1:30, 1:25), eval = list(31:60, 26:50))
  nb <- prdcurve:::engine_neighbours(x, y, sp, c(3L, 7L), c("knn", "hub"))
  expect_identical(dim(nb$hub), c(55L, 2L))
  expect_true(all(colSums(nb$hub) >= c(3, 7) * 55))
})

test_that("a neighbour family alone is checked against simple classifiers", {
  set.seed(71)
  n <- 1000
  d <- 256
  x <- matrix(rnorm(n * d), n)
  noisy <- matrix(rnorm(n * d, sd = 1.2), n)
  same <- matrix(rnorm(n * d), n)
  # the truth is about 0.008 (SPEC section 7); knn says about 0.95
  w <- NULL
  cv <- withCallingHandlers(
    prd_curve(x, noisy, method = "knn", angles = 101),
    prdcurve_warning_family_disagreement = function(c) {
      w <<- c
      invokeRestart("muffleWarning")
    }
  )
  expect_gt(summary(cv)$auc, 0.5)
  expect_s3_class(w, "prdcurve_warning")
  expect_match(conditionMessage(w), "more dispersed", fixed = TRUE)
  # with the knn curve's own hubness figure
  hub <- prd_curve_info(cv)$details[[1]]$hubness
  expect_gt(hub, 3)
  expect_match(conditionMessage(w), paste0(
    "skewness of the k-occurrence counts is ", format(round(hub, 1), nsmall = 1)),
    fixed = TRUE)
  # the same distribution: no warning
  expect_no_warning(prd_curve(x, same, method = "knn", angles = 101),
                    class = "prdcurve_warning_family_disagreement")
  # the check reads the simple classifiers' AUCs the curve's details hold
  # (of its split here; the mean of its splits with repeats,
  # test-curve-repeats.R), the distance to the real mean the lowest
  inf <- prd_curve_info(cv)
  sa <- inf$details[[1]]$simple_auc
  expect_named(sa, c("mean", "far", "near"))
  expect_identical(names(which.min(sa)), "far")
  expect_lt(sa[["far"]], 0.05)
  expect_gt(sa[["near"]], 0.9)
  at <- function(v) {
    y <- cv
    inf2 <- attr(y, "curves")
    inf2$details[[1]]$simple_auc <- v
    attr(y, "curves") <- inf2
    y
  }
  expect_warning(check_neighbour_family(at(sa), d),
                 class = "prdcurve_warning_family_disagreement")
  expect_no_warning(check_neighbour_family(at(c(mean = 0.9, far = 0.8, near = 0.9)), d),
                    class = "prdcurve_warning_family_disagreement")
  # a fitted family in the call: no simple classifiers
  both <- suppressWarnings(prd_curve(x[1:200, ], noisy[1:200, ],
                                     method = c("knn", "linear"), repeats = 1))
  expect_null(prd_curve_info(both)$details[[1]]$simple_auc)
  # the simple scores by hand: distance to the real fit mean
  s <- list(fit = list(1:500, 1:500), eval = list(501:1000, 501:1000))
  sc <- simple_scores(x, noisy, s)
  mx <- colMeans(x[1:500, ])
  expect_equal(sc$far$gen, rowSums(sweep(noisy[501:1000, ], 2, mx)^2))
  expect_equal(sc$near$real, -rowSums(sweep(x[501:1000, ], 2, mx)^2))
  expect_equal(sc$mean$real, drop(sweep(x[501:1000, ], 2, mx) %*%
                                    (colMeans(noisy[1:500, ]) - mx)))
  # without a split: the odd rows scored by the even rows' means, then the
  # even rows by the odd rows'
  s0 <- list(fit = list(1:1000, 1:1000), eval = NULL)
  sc0 <- simple_scores(x, noisy, s0)
  odd <- seq(1, 1000, by = 2)
  even <- seq(2, 1000, by = 2)
  m_e <- colMeans(x[even, ])
  m_o <- colMeans(x[odd, ])
  expect_equal(sc0$far$gen, c(rowSums(sweep(noisy[odd, ], 2, m_e)^2),
                              rowSums(sweep(noisy[even, ], 2, m_o)^2)))
  expect_equal(sc0$mean$real, c(
    drop(sweep(x[odd, ], 2, m_e) %*% (colMeans(noisy[even, ]) - m_e)),
    drop(sweep(x[even, ], 2, m_o) %*% (colMeans(noisy[odd, ]) - m_o))))
  # the one-pass input scan: every value finite, the largest magnitude
  expect_identical(.Call(prdcurve:::ffi_scan, cbind(c(1, -7.5), c(2, 3))), c(1, 7.5))
  expect_identical(.Call(prdcurve:::ffi_scan, cbind(c(1, NA), c(-9, 3))), c(0, 9))
  expect_identical(.Call(prdcurve:::ffi_scan, cbind(c(Inf, 0))), c(0, 0))
})

test_that("a clustered real set of more than 1,024 columns warns that the default reads high, with the fix", {
  # 16 overlapping classes of the validity suite, 2,000 x 1,025 real rows:
  # tested on a projection to 256 directions, read as clustered; too wide
  # for the mixture in the default, which takes it at 1,024 columns
  set.seed(3)
  sc <- cluster_scenario(1025, classes = 16L)
  x <- sc$real$sample(2000)
  y <- sc$models$widen$sample(1100)
  fams <- tightest_families(x, rows = 1000)
  expect_identical(as.vector(fams), tightest_default())
  expect_gt(attr(fams, "clusters_gain"), 0.2)
  f1024 <- tightest_families(x[, 1:1024], rows = 1000)
  expect_identical(as.vector(f1024), c(tightest_default(), "mixture"))
  w <- expect_warning(cv <- prd_curve(x, y), class = "prdcurve_warning_clustered")
  expect_match(conditionMessage(w), "2,000 x 1,025", fixed = TRUE)
  expect_match(conditionMessage(w), "add it to `families`", fixed = TRUE)
  expect_identical(prd_curve_info(cv)$details[[1]]$families, tightest_default())
  expect_match(tibble::tbl_sum(cv)[[2]],
               "clustered real rows, too wide for the mixture (can read high)",
               fixed = TRUE)
  # families given: no test, no warning; N(0, I) of the same size: none
  expect_gt(prd_curve_info(cv)$details[[1]]$clusters_gain, 0.2)
  expect_no_warning(cv2 <- prd_curve(x, y, families = c("knn", "quadratic")),
                    class = "prdcurve_warning_clustered")
  expect_identical(prd_curve_info(cv2)$details[[1]]$clusters_gain, NA_real_)
  g <- matrix(rnorm(2000 * 1025), 2000)
  expect_lt(attr(tightest_families(g, rows = 1000), "clusters_gain"), 0)
})

test_that("a given kde bandwidth that leaves every ball empty or full is warned of by its class, not as noise", {
  set.seed(1)
  r <- matrix(rnorm(2000), 400)
  g <- matrix(rnorm(2000, 5), 400)
  caught <- function(expr) {
    ws <- list()
    value <- withCallingHandlers(expr, warning = function(w) {
      ws[[length(ws) + 1L]] <<- w
      invokeRestart("muffleWarning")
    })
    list(value = value, warnings = ws,
         classes = vapply(ws, function(w) class(w)[1], ""),
         text = vapply(ws, function(w) cli::ansi_strip(conditionMessage(w)), ""))
  }
  flat <- function(s) gsub("\\s+", " ", s)
  # sets 5 apart in every coordinate: every ball empty (or full), the
  # curve that of Q = P (AUC 1), said once by its own class (not the
  # disagreement warning's "noisy with few points")
  for (bw in c(0.01, 1e-9)) {
    set.seed(2)
    res <- caught(prd_curve(r, g, method = "kde", bandwidth = bw))
    expect_identical(res$classes, "prdcurve_warning_bandwidth")
    expect_equal(summary(res$value)$auc, 1)
    w <- res$warnings[[1]]
    expect_s3_class(w, "prdcurve_warning")
    expect_identical(w$balls, c(real = "empty", generated = "empty"))
    expect_identical(w$models, "generated")
    m <- flat(res$text)
    expect_match(m, paste0("`bandwidth` ", format_number(bw, digits = 3),
                           " leaves every ball empty: 400 of the 400 evaluation rows (100.0%)"),
                 fixed = TRUE)
    expect_match(m, "AUC 1.000", fixed = TRUE)
    expect_match(m, "a larger `bandwidth`", fixed = TRUE)
    expect_match(m, "or `bandwidth = NULL` for the default rule", fixed = TRUE)
    expect_no_match(m, "noisy")
    expect_no_match(m, "k = ")
    # the curve claims no k
    expect_identical(res$value$k[1], NA_integer_)
  }
  set.seed(2)
  res <- caught(prd_curve(r, g, method = "kde", bandwidth = 1e6))
  expect_identical(res$classes, "prdcurve_warning_bandwidth")
  expect_identical(res$warnings[[1]]$balls, c(real = "full", generated = "full"))
  expect_match(flat(res$text), "`bandwidth` 1,000,000 puts every fit row in every ball: 400 of the 400",
               fixed = TRUE)
  expect_match(flat(res$text), "a smaller `bandwidth`", fixed = TRUE)
  expect_equal(summary(res$value)$auc, 1)
  # two bandwidths: the real balls empty, the generated ones full
  set.seed(2)
  res <- caught(prd_curve(r, g, method = "kde", bandwidth = c(1e-9, 1e6)))
  expect_identical(res$warnings[[1]]$balls, c(real = "empty", generated = "full"))
  expect_match(flat(res$text), "1e-9 (real) and 1,000,000 (generated) leaves the real balls empty and puts every generated fit row in the generated balls",
               fixed = TRUE)
  expect_match(flat(res$text), "a larger real and a smaller generated bandwidth",
               fixed = TRUE)
  # without a split a row is its own fit row, not counted: every row alone
  # in its ball reads AUC 0, as meaningless
  set.seed(2)
  res <- caught(prd_curve(r, g, method = "kde", bandwidth = 0.01, split = 0))
  expect_identical(res$classes, "prdcurve_warning_bandwidth")
  expect_match(flat(res$text), "800 of the 800 evaluation rows", fixed = TRUE)
  expect_equal(summary(res$value)$auc, 0)
  # beside knn: only the bandwidth's warning, for every model, with the
  # knn curves at their k
  set.seed(2)
  res <- caught(prd_curve(r, list(a = g, b = g + 1), method = c("kde", "knn"),
                          bandwidth = 0.01, k = c(3, 5)))
  expect_identical(res$classes, "prdcurve_warning_bandwidth")
  expect_identical(res$warnings[[1]]$models, c("a", "b"))
  expect_match(flat(res$text), "for models \"a\" and \"b\"", fixed = TRUE)
  s <- summary(res$value)
  expect_identical(s$k, c(NA, 3L, 5L, NA, 3L, 5L))
  expect_identical(s$auc[s$method == "kde"], c(1, 1))
  # in "tightest" the kde family's area is named
  set.seed(2)
  res <- caught(prd_curve(r, g, families = c("kde", "knn"), bandwidth = 0.01))
  expect_identical(res$classes, "prdcurve_warning_bandwidth")
  expect_match(flat(res$text), "\"kde\" curve (AUC 1.000)", fixed = TRUE)
  # sensible bandwidths do not warn: the default rule's (1.88 and 1.79
  # here, on one split), and 1, where 45% of the rows have both balls empty
  set.seed(2)
  bw <- curve_attr(prd_curve(r, g, method = "kde", repeats = 1), "bandwidth")
  expect_equal(unname(bw), c(1.88, 1.79), tolerance = 0.01)
  for (b in list(bw, 1)) {
    set.seed(2)
    expect_identical(caught(prd_curve(r, g, method = "kde", bandwidth = b))$classes,
                     character())
  }
  # at 0.5 (93% to 97% of a set's rows with both balls empty) the curve
  # reads AUC 0.90 and the disagreement warning names the bandwidth
  set.seed(2)
  res <- caught(prd_curve(r, g, method = "kde", bandwidth = 0.5, repeats = 1))
  expect_identical(res$classes, "prdcurve_warning_family_disagreement")
  expect_equal(summary(res$value)$auc, 0.902, tolerance = 0.001)
  expect_match(flat(res$text), "Its balls have the given `bandwidth`",
               fixed = TRUE)
  expect_no_match(res$text, "noisy")
})
