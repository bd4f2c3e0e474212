# prd_discrete(), prd_histogram(), prd_kde_plugin(), prd_bind()
# (SPEC.md section 5).

test_that("prd_discrete reproduces Sajjadi et al.'s unit cases", {
  # angles = 11: row 1 is lambda = 0, row 7 is grid index 6, lambda = 1
  same <- prd_discrete(c(1, 0), c(1, 0), angles = 11)
  expect_equal(same$lambda[7], 1, tolerance = 1e-15)
  expect_equal(c(same$precision[7], same$recall[7]), c(1, 1))
  disjoint <- prd_discrete(c(1, 0), c(0, 1), angles = 11)
  expect_equal(disjoint$precision, rep(0, 13))
  expect_equal(disjoint$recall, rep(0, 13))
})

test_that("prd_discrete of a distribution with itself is the square through (1, 1)", {
  p <- c(0.1, 0.4, 0.2, 0.3)
  cv <- prd_discrete(p, 10 * p, angles = 101)  # weights are normalised
  lam <- cv$lambda
  # alpha = sum(min(lambda p, p)) = min(lambda, 1); the sums of four terms
  # are exact up to rounding (1e-15)
  expect_equal(cv$precision, c(0, pmin(lam[2:102], 1), 1), tolerance = 1e-14)
  expect_equal(cv$recall, c(1, pmin(1, 1 / lam[2:102]), 0), tolerance = 1e-14)
  expect_equal(summary(cv)$max_precision, 1)
  expect_equal(summary(cv)$max_recall, 1)
})

two_clusters <- function(n_a, n_b, m, d = 2, gap = 50) {
  # real: n_a rows near 0 and n_b rows near gap; generated: m rows near 0
  list(real = rbind(matrix(rnorm(n_a * d), n_a), matrix(rnorm(n_b * d, gap), n_b)),
       generated = matrix(rnorm(m * d), m))
}

test_that("prd_histogram on two well-separated clusters gives the rectangle", {
  set.seed(11)
  s <- two_clusters(60, 40, 70)
  h <- prd_histogram(s$real, s$generated, clusters = 2, runs = 3, angles = 41)
  # clusters 50 sd apart: k-means puts each cloud in its own cluster, so the
  # histograms are p = (0.6, 0.4), q = (1, 0) exactly:
  # alpha = min(0.6 lambda, 1), beta_0 = 0.6, alpha_inf = 1
  lam <- h$lambda[2:42]
  expect_equal(unique(h$method), "histogram")
  expect_equal(h$precision, c(0, pmin(0.6 * lam, 1), 1), tolerance = 1e-12)
  expect_equal(h$recall, c(0.6, pmin(0.6, 1 / lam), 0), tolerance = 1e-12)
  expect_equal(curve_detail(h, "clusters"), 2L)
  expect_equal(curve_detail(h, "runs"), 3L)
  # it is the curve of prd_discrete() of the same histograms
  ex <- prd_discrete(c(60, 40), c(70, 0), angles = 41)
  expect_equal(h$precision, ex$precision, tolerance = 1e-12)
  expect_equal(h$recall, ex$recall, tolerance = 1e-12)
})

test_that("prd_histogram averages the runs' curves", {
  set.seed(3)
  real <- matrix(rnorm(120 * 3), ncol = 3)
  generated <- matrix(rnorm(90 * 3, mean = 0.7), ncol = 3)
  set.seed(5)
  h2 <- prd_histogram(real, generated, clusters = 6, runs = 2, angles = 21)
  set.seed(5)  # the same stream of random starts, one run at a time
  a <- prd_histogram(real, generated, clusters = 6, runs = 1, angles = 21)
  b <- prd_histogram(real, generated, clusters = 6, runs = 1, angles = 21)
  expect_equal(h2$precision, (a$precision + b$precision) / 2, tolerance = 1e-14)
  expect_equal(h2$recall, (a$recall + b$recall) / 2, tolerance = 1e-14)
  # one cluster: both histograms are (1), the square
  one <- prd_histogram(real, generated, clusters = 1, runs = 1, angles = 21)
  expect_equal(one$precision, prd_discrete(1, 1, angles = 21)$precision)
})

test_that("prd_histogram rejects bad arguments", {
  x <- matrix(c(0, 1, 0, 1), ncol = 1)
  expect_error(prd_histogram(x, x, clusters = 3), class = "prdcurve_error")
  expect_error(prd_histogram(x, x, clusters = 2, runs = 0), "runs")
  expect_error(prd_histogram(x, matrix(1:4, ncol = 2)), class = "prdcurve_error")
})

test_that("the plug-in curves take one model, and say how to bind several", {
  set.seed(12)
  x <- matrix(rnorm(200), 100)
  models <- list(a = x + 3, b = x[100:1, ])
  for (fn in c("prd_histogram", "prd_kde_plugin")) {
    err <- expect_error(do.call(fn, list(x, models)),
                        class = "prdcurve_error_input")
    msg <- cli::ansi_strip(conditionMessage(err))
    expect_match(msg, "It holds 2 sets", fixed = TRUE)
    expect_match(msg, paste0("function(g) ", fn, "(real, g)"), fixed = TRUE)
  }
  # the advice works: one curve per model, labelled by its name
  set.seed(3)
  both <- prd_bind(lapply(models, function(g) prd_histogram(x, g, runs = 2)))
  set.seed(3)
  a <- prd_histogram(x, models$a, runs = 2)
  s <- summary(both)
  expect_identical(s$method, c("a", "b"))
  expect_identical(s$auc[1], summary(a)$auc)
  # (x against a copy of its rows: the square through (1, 1))
  expect_equal(s$auc[2], 1)
})

test_that("prd_kde_plugin is exact when the estimates coincide or are disjoint", {
  set.seed(2)
  x <- matrix(rnorm(40 * 3), ncol = 3)
  # same sample set: p-hat = q-hat, the ratio is exactly 1 at every draw, so
  # the Monte Carlo estimate has no error: alpha = min(lambda, 1)
  same <- prd_kde_plugin(x, x, bandwidth = 0.8, n_mc = 500, angles = 31)
  lam <- same$lambda[2:32]
  expect_equal(same$precision, c(0, pmin(lam, 1), 1), tolerance = 1e-14)
  expect_equal(same$recall, c(1, pmin(1, 1 / lam), 0), tolerance = 1e-14)
  expect_equal(unique(same$method), "kde_plugin")
  # supports farther apart than 2 sigma: the PR set is the origin
  far <- prd_kde_plugin(x, x + 10, bandwidth = 1, n_mc = 500, angles = 31)
  expect_equal(far$precision, rep(0, 33))
  expect_equal(far$recall, rep(0, 33))
})

test_that("prd_kde_plugin matches a hand-computed plug-in within its standard error", {
  # d = 1, sigma = 1: P-hat = U[-1, 1]/2 + U[9, 11]/2 and
  # Q-hat = U[-0.5, 1.5]/2 + U[9.5, 11.5]/2, both with density 1/4 on their
  # supports; the supports share [-0.5, 1] and [9.5, 11], mass 3/4, so
  # alpha_lambda = 0.75 min(lambda, 1).
  set.seed(7)
  x <- matrix(c(0, 10), ncol = 1)
  y <- matrix(c(0.5, 10.5), ncol = 1)
  cv <- prd_kde_plugin(x, y, bandwidth = 1, n_mc = 20000, angles = 11)
  se <- curve_detail(cv, "std_error")
  expect_equal(se$lambda, cv$lambda)
  truth <- 0.75 * pmin(cv$lambda, 1)
  mid <- 3:12  # finite positive lambda, away from the 1e-10 end point
  # binomial SE (~0.003 here): 4 SE gives a false alarm rate ~1e-4 per point
  expect_true(all(abs(cv$precision[mid] - truth[mid]) <= 4 * se$precision[mid]))
  expect_true(all(se$precision[mid] > 0 & se$precision[mid] < 0.01))
  # extremes: alpha_inf = Q-hat(p-hat > 0) = 0.75, beta_0 = 0.75
  expect_equal(cv$precision[13], 0.75, tolerance = 4 * se$precision[13] / 0.75)
  expect_equal(cv$recall[1], 0.75, tolerance = 4 * se$recall[1] / 0.75)
})

test_that("prd_kde_plugin's default bandwidth is the mean k-NN distance of both sets", {
  set.seed(4)
  x <- matrix(rnorm(30 * 2), ncol = 2)
  y <- matrix(rnorm(25 * 2, 1), ncol = 2)
  cv <- prd_kde_plugin(x, y, n_mc = 50, angles = 5)
  k <- round(sqrt(25))  # 5
  kth <- function(m) apply(as.matrix(dist(m)), 1, function(r) sort(r)[k + 1])
  expect_equal(unname(curve_attr(cv, "bandwidth")), rep(mean(c(kth(x), kth(y))), 2),
               tolerance = 1e-12)
  expect_error(prd_kde_plugin(x, y, bandwidth = -1), "bandwidth")
  expect_error(prd_kde_plugin(x, y, bandwidth = 1, n_mc = 2), "n_mc")
})

test_that("prd_bind relabels, keeps attributes and refuses duplicate labels", {
  tr <- prd_truth_gaussian(c(0, 0), c(1, 0), angles = 21)
  sq <- prd_discrete(1, 1, angles = 21)
  b <- prd_bind(truth = tr, square = sq)
  expect_s3_class(b, "prd_curve")
  expect_equal(unique(b$method), c("truth", "square"))
  expect_equal(nrow(b), 2 * 23)
  info <- prd_curve_info(b)
  expect_equal(info$details[[which(info$method == "truth")]]$delta, 1)
  s <- summary(b)
  expect_equal(s$auc, c(summary(tr)$auc, summary(sq)$auc))
  expect_equal(unname(prd_iou(b, sq)[2]), 1)
  expect_error(prd_bind(tr, tr), class = "prdcurve_error_curve")
  # the error names the arguments that repeat a label
  e <- tryCatch(prd_bind(tr, sq, tr), error = identity)
  expect_match(cli::ansi_strip(conditionMessage(e)), "in `..1` and `..3`",
               fixed = TRUE)
  expect_error(prd_bind(tr, data.frame(a = 1)), class = "prdcurve_error")
  # base rbind() keeps the class and every curve's settings
  r <- rbind(tr, sq)
  expect_s3_class(r, "prd_curve")
  expect_equal(summary(r)$auc, summary(prd_bind(tr, sq))$auc)
})

test_that("prd_bind takes metrics tables too, never mixed with curves", {
  set.seed(2)
  real <- matrix(rnorm(300), 100)
  m1 <- manifold_metrics(real, matrix(rnorm(300), 100), metrics = "recall",
                         k = 3)
  m2 <- manifold_metrics(real, matrix(rnorm(300, 2), 100), metrics = "recall",
                         k = 3)
  # one list of tables, relabelled by its names (test-bind-metrics.R has
  # the rest)
  b <- prd_bind(list(near = m1, far = m2))
  expect_s3_class(b, "prd_metrics")
  expect_identical(b$model, c("near", "far"))
  expect_identical(b$value, c(m1$value, m2$value))
  expect_identical(attr(b, "model_sizes"), c(near = 100L, far = 100L))
  sq <- prd_discrete(1, 1, angles = 5)
  e <- expect_error(prd_bind(list(sq, far = m2)), class = "prdcurve_error_input")
  expect_match(cli::ansi_strip(conditionMessage(e)),
               "`far` is a metrics table, `..1` is not", fixed = TRUE)
  e <- expect_error(prd_bind(list()), class = "prdcurve_error_input")
  expect_match(cli::ansi_strip(conditionMessage(e)),
               "at least one curve or metrics table", fixed = TRUE)
})

test_that("prd_histogram() takes up to as many clusters as distinct rows", {
  set.seed(63)
  y <- matrix(rnorm(10), 5)
  # 10 distinct pooled rows: the documented maximum is allowed, one more not
  expect_error(prd_histogram(y, y + 1, clusters = 11, runs = 1), "clusters")
  cv <- prd_histogram(y, y + 1, clusters = 10, runs = 1, angles = 11)
  # each row its own cluster: disjoint histograms, the origin
  expect_identical(cv$precision, rep(0, 13))
  expect_identical(cv$recall, rep(0, 13))
  cv <- prd_histogram(y, y + 100, clusters = 9, runs = 1, angles = 11)
  # well separated: the two sets never share a cluster
  expect_equal(max(cv$precision), 0)
  # duplicated rows: 2 distinct pooled rows, so clusters = 2 is exact,
  # p = (2, 1) / 3 and q = (1, 2) / 3
  a <- c(0, 0)
  b <- c(1, 1)
  h <- prd_histogram(rbind(a, a, b), rbind(a, b, b), clusters = 2, runs = 2,
                     angles = 21)
  ex <- prd_discrete(c(2, 1), c(1, 2), angles = 21)
  expect_equal(h$precision, ex$precision, tolerance = 1e-15)
  expect_equal(h$recall, ex$recall, tolerance = 1e-15)
  expect_error(prd_histogram(rbind(a, a, b), rbind(a, b, b), clusters = 3),
               "clusters")
})

test_that("prd_histogram() bounds runs and nstart", {
  x <- matrix(c(0, 1, 2, 3), ncol = 1)
  t0 <- proc.time()[["elapsed"]]
  expect_error(prd_histogram(x, x, clusters = 1, runs = 2147483647), "runs",
               class = "rlang_error")
  expect_error(prd_histogram(x, x, clusters = 2, runs = 1001), "runs",
               class = "rlang_error")
  expect_error(prd_histogram(x, x, clusters = 2, nstart = 1001), "nstart",
               class = "rlang_error")
  expect_error(prd_histogram(x, x, clusters = 2, iter.max = 0), "iter.max",
               class = "rlang_error")
  expect_lt(proc.time()[["elapsed"]] - t0, 5)
  # the bounds themselves are accepted: x and x are equal, so the square
  h <- prd_histogram(x, x, clusters = 4, runs = 1000, angles = 5)
  expect_equal(h$precision, prd_discrete(1, 1, angles = 5)$precision,
               tolerance = 1e-12)
})

five_clusters <- function(n_real, n_gen) {
  # clusters centred at 0, 100, ..., 400 on the first axis, sd 1
  lab_r <- rep(1:5, n_real)
  lab_g <- rep(1:5, n_gen)
  draw <- function(lab) cbind(100 * (lab - 1) + rnorm(length(lab)),
                              rnorm(length(lab)))
  list(real = draw(lab_r), generated = draw(lab_g), lab_r = lab_r,
       lab_g = lab_g)
}

test_that("k-means++ starts recover 5 clusters 100 units apart every time", {
  # with one uniformly random start stats::kmeans() recovers the clusters
  # in about a third of the calls, one k-means++ start in 99% (200 seeds
  # each); the default 10 k-means++ starts in all 200
  n_real <- c(10, 20, 30, 40, 50)
  n_gen <- c(50, 40, 30, 20, 10)
  ex <- prd_discrete(n_real, n_gen, angles = 21)
  ok <- vapply(1:50, function(seed) {
    set.seed(seed)
    s <- five_clusters(n_real, n_gen)
    h <- prd_histogram(s$real, s$generated, clusters = 5, runs = 1,
                       angles = 21)
    isTRUE(all.equal(h$precision, ex$precision, tolerance = 1e-12)) &&
      isTRUE(all.equal(h$recall, ex$recall, tolerance = 1e-12))
  }, logical(1))
  expect_equal(sum(ok), 50)
  # the clustering itself: every true cluster is one k-means cluster
  set.seed(99)
  s <- five_clusters(n_real, n_gen)
  cl <- prdcurve:::kmeans_pp(rbind(s$real, s$generated), 5, nstart = 10)
  tab <- table(c(s$lab_r, s$lab_g), cl)
  expect_equal(as.vector(rowSums(tab > 0)), rep(1, 5))
  expect_equal(as.vector(colSums(tab > 0)), rep(1, 5))
})

test_that("k-means++ seeds are distinct rows chosen by D^2 sampling", {
  # three distinct rows, repeated: any 3 seeds must be the 3 distinct rows
  x <- rbind(matrix(0, 20, 2), matrix(1, 3, 2), matrix(c(5, -5), 7, 2,
                                                         byrow = TRUE))
  for (seed in 1:20) {
    set.seed(seed)
    idx <- prdcurve:::kmeanspp_seeds(x, 3)
    expect_equal(nrow(unique(x[idx, , drop = FALSE])), 3)
  }
  # D^2 sampling: after a first seed at 0 (20 of 30 rows), the second is a
  # row at 1 with probability 3 * 2 / (3 * 2 + 7 * 50) = 6 / 356
  x2 <- rbind(matrix(0, 1, 2), matrix(1, 3, 2),
              matrix(c(5, -5), 7, 2, byrow = TRUE))
  set.seed(1)
  second <- replicate(4000, {
    d2 <- colSums((t(x2) - x2[1, ])^2)
    u <- runif(1) * sum(d2)
    findInterval(u, cumsum(d2)) + 1L
  })
  expect_equal(mean(second %in% 2:4), 6 / 356, tolerance = 0.25)
})

test_that("prd_discrete() normalises huge and tiny weights safely", {
  lam <- prdcurve:::lambda_grid(1001)
  sq <- c(0, pmin(lam, 1), 1)
  for (pq in list(list(c(1e308, 1e308), c(1, 1)),
                  list(c(1, 1), c(1e308, 1e308)),
                  list(c(5e-324, 5e-324), c(1, 1)),
                  list(c(1e308, 1e308, 0), c(3, 3, 0)))) {
    cv <- prd_discrete(pq[[1]], pq[[2]])
    expect_equal(cv$precision, sq, tolerance = 1e-15)
    expect_equal(summary(cv)$auc, 1, tolerance = 1e-5)
    expect_equal(summary(cv)$max_recall, 1)
  }
  # the sorted envelope equals the direct sum of min(lambda p_i, q_i)
  set.seed(8)
  p <- c(runif(30), 0, 0, 0.2)
  q <- c(runif(30), 0.1, 0, 0)
  cv <- prd_discrete(p, q, angles = 41)
  pn <- p / sum(p)
  qn <- q / sum(q)
  l <- cv$lambda[2:42]
  expect_equal(cv$precision[2:42],
               vapply(l, function(v) sum(pmin(v * pn, qn)), 1),
               tolerance = 1e-14)
  expect_equal(cv$recall[2:42],
               vapply(l, function(v) sum(pmin(pn, qn / v)), 1),
               tolerance = 1e-14)
  expect_equal(cv$precision[43], sum(qn[pn > 0]), tolerance = 1e-15)
  expect_equal(cv$recall[1], sum(pn[qn > 0]), tolerance = 1e-15)
})

test_that("prd_kde_plugin() bounds bandwidth and n_mc", {
  set.seed(3)
  x <- matrix(rnorm(40), 20)
  expect_error(prd_kde_plugin(x, x + 1, bandwidth = 1e300), "bandwidth",
               class = "prdcurve_error_input")
  expect_error(prd_kde_plugin(x, x + 1, bandwidth = 1, n_mc = 2147483647),
               "n_mc", class = "prdcurve_error_input")
  # bandwidth 1e100 is allowed: both estimates are the same huge ball in
  # the limit, so the curve is the square up to Monte Carlo error
  cv <- prd_kde_plugin(x, x + 1, bandwidth = 1e100, n_mc = 200, angles = 11)
  expect_equal(cv$precision, prd_discrete(1, 1, angles = 11)$precision)
})
