# embedding_metrics() (SPEC.md section 8): each metric against a
# brute-force version on small data (full pair matrices, cov(), dist()),
# closed forms and invariances, and dgm-eval's own numbers.

fixture_sets <- function() {
  df <- utils::read.csv(test_path("fixtures", "embedding-reference.csv"))
  lapply(split(df[-1], df$set), as.matrix)
}

brute_fd <- function(x, y) {
  sx <- stats::cov(x)
  sy <- stats::cov(y)
  # the trace of sqrtm(Sx Sy) from the eigenvalues of the product (the
  # non-symmetric route of scipy's sqrtm and dgm-eval's efficient FD)
  tr <- sum(sqrt(Re(eigen(sx %*% sy, only.values = TRUE)$values)))
  sum((colMeans(x) - colMeans(y))^2) + sum(diag(sx)) + sum(diag(sy)) - 2 * tr
}

brute_mmd <- function(kxx, kyy, kxy) {
  n <- nrow(kxx)
  m <- nrow(kyy)
  (sum(kxx) - sum(diag(kxx))) / (n * (n - 1)) +
    (sum(kyy) - sum(diag(kyy))) / (m * (m - 1)) - 2 * sum(kxy) / (n * m)
}

brute_kid <- function(x, y) {
  d <- ncol(x)
  k <- function(a, b) (tcrossprod(a, b) / d + 1)^3
  brute_mmd(k(x, x), k(y, y), k(x, y))
}

brute_d2 <- function(a, b) {
  outer(rowSums(a^2), rowSums(b^2), `+`) - 2 * tcrossprod(a, b)
}

brute_rbf <- function(x, y, sigma) {
  k <- function(a, b) exp(-pmax(brute_d2(a, b), 0) / (2 * sigma^2))
  brute_mmd(k(x, x), k(y, y), k(x, y))
}

brute_energy <- function(x, y) {
  D <- as.matrix(stats::dist(rbind(x, y)))
  n <- nrow(x)
  m <- nrow(y)
  dxy <- D[seq_len(n), n + seq_len(m)]
  dxx <- D[seq_len(n), seq_len(n)]
  dyy <- D[n + seq_len(m), n + seq_len(m)]
  2 * mean(dxy) - sum(dxx) / (n * (n - 1)) - sum(dyy) / (m * (m - 1))
}

brute_vendi <- function(x) {
  xn <- x / sqrt(rowSums(x^2))
  lam <- eigen(tcrossprod(xn) / nrow(x), symmetric = TRUE,
               only.values = TRUE)$values
  lam <- lam[lam > 1e-15]
  exp(-sum(lam * log(lam)))
}

brute_authpct <- function(x, y) {
  dxx <- as.matrix(stats::dist(x))
  diag(dxx) <- Inf
  r <- apply(dxx, 1, min)
  D <- sqrt(pmax(brute_d2(y, x), 0))
  j <- apply(D, 1, which.min)
  100 * mean(r[j] < D[cbind(seq_len(nrow(y)), j)])
}

brute_sw <- function(x, y) {
  d <- ncol(x)
  m2 <- function(z) mean(rowSums(sweep(z, 2, colMeans(z))^2)) / d
  sqrt(sum((colMeans(x) - colMeans(y))^2) / d + (sqrt(m2(x)) - sqrt(m2(y)))^2)
}

value_of <- function(em, metric, model = em$model[1]) {
  em$value[em$metric == metric & em$model == model]
}

test_that("every metric equals its brute-force version (blocks of a few rows)", {
  prdcurve:::local_engine_knobs(embedding_tile = 37L)
  set.seed(2)
  x <- matrix(rnorm(90 * 5), ncol = 5) + 3 # off the origin
  y <- matrix(rnorm(70 * 5, mean = 0.4, sd = 1.3), ncol = 5) + 3
  em <- embedding_metrics(x, y, bandwidth = 1.7)
  expect_equal(value_of(em, "fd"), brute_fd(x, y), tolerance = 1e-10)
  expect_equal(value_of(em, "kid"), brute_kid(x, y), tolerance = 1e-10)
  expect_equal(value_of(em, "mmd_rbf"), brute_rbf(x, y, 1.7),
               tolerance = 1e-10)
  expect_equal(value_of(em, "vendi"), brute_vendi(y), tolerance = 1e-10)
  expect_equal(attr(em, "vendi_real"), brute_vendi(x), tolerance = 1e-10)
  expect_equal(value_of(em, "authpct"), brute_authpct(x, y))
  expect_equal(value_of(em, "sw_approx"), brute_sw(x, y), tolerance = 1e-12)
  expect_equal(value_of(em, "energy"), brute_energy(x, y), tolerance = 1e-10)
  expect_identical(em$metric, setdiff(embedding_metric_names(),
                                      c("ct", "vendi_class", "pmse", "s_pmse")))
  expect_true(all(is.na(em$k)))
})

test_that("vendi takes the n x n side when d >= n", {
  # (fewer rows than columns is the point here: no input warnings)
  withr::local_options(prdcurve.check_inputs = FALSE)
  set.seed(3)
  y <- matrix(rnorm(12 * 30), ncol = 30)
  em <- embedding_metrics(y[1:10, ] + 1, y, metrics = "vendi")
  expect_equal(em$value, brute_vendi(y), tolerance = 1e-10)
  # vendi reads rows at unit norm: a row 1e-200 times the others is the
  # same row (its squares underflow: it read as a row of norm 0, 8.28
  # against 9.81)
  y2 <- y
  y2[1, ] <- y[1, ] * 1e-200
  em2 <- embedding_metrics(y[1:10, ] + 1, y2, metrics = "vendi")
  expect_equal(em2$value, brute_vendi(y), tolerance = 1e-10)
})

test_that("closed forms: a shift, a scaling, orthogonal directions", {
  # (copies and grid columns are the point here: no input warnings)
  withr::local_options(prdcurve.check_inputs = FALSE)
  set.seed(4)
  x <- matrix(rnorm(200 * 4), ncol = 4)
  shift <- c(1, -2, 0.5, 0)
  em <- embedding_metrics(x, x + rep(shift, each = 200),
                          metrics = c("fd", "sw_approx"))
  # same covariance: FD is the squared mean shift, sw_approx the shift / sqrt(d)
  expect_equal(value_of(em, "fd"), sum(shift^2), tolerance = 1e-9)
  expect_equal(value_of(em, "sw_approx"), sqrt(sum(shift^2) / 4),
               tolerance = 1e-12)
  # y = a x: FD = (1 - a)^2 (||mu||^2 + tr S)
  a <- 1.5
  fd <- value_of(embedding_metrics(x, a * x, metrics = "fd"), "fd")
  expect_equal(fd, (1 - a)^2 * (sum(colMeans(x)^2) + sum(diag(stats::cov(x)))),
               tolerance = 1e-9)
  # unit rows along d orthogonal directions, equally often: Vendi = d
  y <- diag(5)[rep(1:5, 8), ] * 3
  expect_equal(value_of(embedding_metrics(x[, 1:5 %% 4 + 1], y,
                                          metrics = "vendi"), "vendi"),
               5, tolerance = 1e-12)
  # one row repeated: Vendi = 1
  expect_equal(value_of(embedding_metrics(x, x[rep(1, 20), ],
                                          metrics = "vendi"), "vendi"), 1,
               tolerance = 1e-12)
  # exact copies of the real rows are never authentic; the same set: all
  # MMDs and the energy distance are U-statistics of one sample
  em <- embedding_metrics(x, x, metrics = c("authpct", "kid", "energy", "fd"))
  expect_equal(value_of(em, "authpct"), 0)
  expect_equal(value_of(em, "fd"), 0, tolerance = 1e-8)
  expect_equal(value_of(em, "kid"), brute_kid(x, x), tolerance = 1e-10)
})

test_that("every metric keeps its scaling law at every scale the input check accepts", {
  # features times 2^k: the metric times 2^(power k), power the registry's
  # (fd 2, energy 1, vendi 0, ...); 2^-330 and 2^328 lie inside the
  # accepted 1e-100 to 1e100 (fd was 0 below 2^-250 and an error above
  # 2^250, its Sx^(1/2) Sy Sx^(1/2) out of the double range)
  set.seed(30)
  x <- matrix(rnorm(60 * 4), ncol = 4)
  y <- matrix(rnorm(50 * 4, mean = 0.5, sd = 1.2), ncol = 4)
  h <- matrix(rnorm(40 * 4), ncol = 4)
  ms <- setdiff(embedding_metric_names(), c("kid", "vendi_class", "pmse",
                                            "s_pmse"))
  power <- vapply(embedding_registry[ms], `[[`, 0, "power")
  run <- function(k) {
    set.seed(1)
    embedding_metrics(x * 2^k, y * 2^k, metrics = ms, held_out = h * 2^k,
                      bandwidth = 1.3 * 2^k)
  }
  one <- run(0)
  for (k in c(-330, -100, 100, 265, 328)) {
    em <- run(k)
    expect_equal(em$value, unname(one$value * 2^(power * k)),
                 tolerance = 1e-12,
                 label = paste0("metrics at 2^", k))
  }
  # at scales that are not powers of two, against the brute-force values
  # of the same rows brought near 1 by a power of two
  for (s in c(1e-30, 1e80, 1e99)) {
    xs <- x * s
    ys <- y * s
    k <- floor(log2(max(abs(c(xs, ys)))))
    em <- embedding_metrics(xs, ys, metrics = c("fd", "energy", "sw_approx"))
    xb <- xs * 2^-k
    yb <- ys * 2^-k
    expect_equal(value_of(em, "fd"), brute_fd(xb, yb) * 2^(2 * k),
                 tolerance = 1e-10)
    expect_equal(value_of(em, "energy"), brute_energy(xb, yb) * 2^k,
                 tolerance = 1e-10)
    expect_equal(value_of(em, "sw_approx"), brute_sw(xb, yb) * 2^k,
                 tolerance = 1e-12)
  }
})

test_that("kid is the true KID of the values as given at any scale, an error past the double range", {
  # KID(s X, s Y) = 3 s^2 A_1 + 3 s^4 A_2 + s^6 A_3, A_p the unbiased MMD^2
  # of the kernel (x . y / d)^p: summed with the kernel's constant 1, KID
  # was 0 at s = 1e-30 and wrong in its 5th digit at 1e-5, and NaN at 1e52
  brute_power <- function(x, y, p) {
    k <- function(a, b) (tcrossprod(a, b) / ncol(x))^p
    brute_mmd(k(x, x), k(y, y), k(x, y))
  }
  set.seed(31)
  x <- matrix(rnorm(60 * 4), ncol = 4)
  y <- matrix(rnorm(50 * 4, mean = 0.5), ncol = 4)
  a <- vapply(1:3, function(p) brute_power(x, y, p), 0)
  law <- function(s) sum(choose(3, 1:3) * s^(2 * (1:3)) * a)
  expect_equal(law(1), brute_kid(x, y), tolerance = 1e-12)
  for (s in c(2^-330, 1e-30, 1e-5, 1, 1e30, 1e45)) {
    em <- embedding_metrics(x * s, y * s, metrics = "kid")
    expect_equal(em$value, law(s), tolerance = 1e-10,
                 label = paste("kid at scale", s))
  }
  # dgm-eval's subsets too: the mean of the subsets' KID
  set.seed(11)
  v <- value_of(embedding_metrics(x * 1e-30, y * 1e-30, metrics = "kid",
                                  subsets = 3, subset_size = 20), "kid")
  set.seed(11)
  b <- mean(vapply(1:3, function(i) {
    xi <- x[sample.int(60, 20), ]
    yi <- y[sample.int(50, 20), ]
    sum(choose(3, 1:3) * 1e-30^(2 * (1:3)) *
          vapply(1:3, function(p) brute_power(xi, yi, p), 0))
  }, 0))
  expect_equal(v, b, tolerance = 1e-10)
  # at 1e52 KID is about 1e311 (A_3 1e312): no double holds it
  expect_gt(a[3] * 1e104^3 / .Machine$double.xmax, 1)
  expect_error(embedding_metrics(x * 1e52, y * 1e52, metrics = c("fd", "kid")),
               class = "prdcurve_error_input")
  expect_equal(value_of(embedding_metrics(x * 1e52, y * 1e52, metrics = "fd"),
                        "fd"), brute_fd(x, y) * 1e104, tolerance = 1e-10)
})

test_that("mmd_rbf with a bandwidth whose square underflows: equal rows count 1", {
  # (copies are the point here: no input warnings) small whole numbers,
  # 16 real rows: every distance exact, equal rows at distance 0 (the
  # kernel was exp(0 * -Inf), NaN)
  withr::local_options(prdcurve.check_inputs = FALSE)
  set.seed(33)
  x <- matrix(sample(-9:9, 24, TRUE), ncol = 2)
  x <- rbind(x, x[1:4, ])
  y <- rbind(matrix(sample(-9:9, 26, TRUE), ncol = 2), x[1:3, ])
  em <- embedding_metrics(x, y, metrics = "mmd_rbf", bandwidth = 1e-200)
  k <- function(a, b) 1 * (brute_d2(a, b) == 0)
  expect_equal(em$value, brute_mmd(k(x, x), k(y, y), k(x, y)))
})

test_that("a set of fewer than 10 rows warns (prdcurve_warning_small_sample), the metrics computed", {
  # two columns: no "transposed" warning beside it
  set.seed(32)
  x <- matrix(rnorm(40 * 2), ncol = 2)
  y <- matrix(rnorm(40 * 2, mean = 0.5), ncol = 2)
  w <- expect_warning(em <- embedding_metrics(x, y[1:3, ], metrics = c("fd", "kid")),
                      class = "prdcurve_warning_small_sample")
  # (in the words of moments, not of shares and curves)
  expect_match(conditionMessage(w), "means, covariances and kernel sums are noise",
               fixed = TRUE)
  expect_no_match(conditionMessage(w), "AUC", fixed = TRUE)
  expect_equal(value_of(em, "fd"), brute_fd(x, y[1:3, ]), tolerance = 1e-10)
  expect_equal(value_of(em, "kid"), brute_kid(x, y[1:3, ]), tolerance = 1e-10)
  expect_warning(embedding_metrics(x[1:9, ], y, metrics = "energy"),
                 class = "prdcurve_warning_small_sample")
  expect_warning(embedding_metrics(x, list(a = y, b = y[1:5, ]),
                                   metrics = "vendi"),
                 class = "prdcurve_warning_small_sample")
  expect_no_warning(embedding_metrics(x[1:10, ], y[1:10, ], metrics = "fd"))
  # the halves of the replicates need 2 rows a set (a half of 1 row failed
  # as an overflow)
  expect_error(suppressWarnings(
    embedding_metrics(x, y[1:3, ], metrics = "fd", replicates = 2)),
    class = "prdcurve_error_replicates")
  em <- suppressWarnings(
    embedding_metrics(x, y[1:4, ], metrics = "fd", replicates = 2))
  expect_true(is.finite(em$lower) && is.finite(em$upper))
  withr::local_options(prdcurve.check_inputs = FALSE)
  expect_no_warning(embedding_metrics(x, y[1:3, ], metrics = "fd"))
})

test_that("fd_inf is the intercept of FD_N over the documented sizes", {
  set.seed(5)
  x <- matrix(rnorm(150 * 3), ncol = 3)
  y <- matrix(rnorm(120 * 3, sd = 1.2), ncol = 3)
  set.seed(10)
  v <- value_of(embedding_metrics(x, y, metrics = "fd_inf"), "fd_inf")
  set.seed(10)
  sizes <- as.integer(trunc(seq(12, 120, length.out = 15)))
  # (drawn over the rows in canonical order)
  oy <- canonical_order(y)
  fds <- vapply(sizes, function(N) {
    brute_fd(x, y[oy[sample.int(120, N)], , drop = FALSE])
  }, 0)
  expect_equal(v, unname(coef(lm(fds ~ I(1 / sizes)))[1]), tolerance = 1e-9)
})

test_that("kid with subsets is dgm-eval's mean over random subsets", {
  set.seed(6)
  x <- matrix(rnorm(60 * 3), ncol = 3)
  y <- matrix(rnorm(50 * 3, mean = 0.2), ncol = 3)
  set.seed(11)
  v <- value_of(embedding_metrics(x, y, metrics = "kid", subsets = 4,
                                  subset_size = 20), "kid")
  set.seed(11)
  ox <- canonical_order(x)
  oy <- canonical_order(y)
  b <- mean(vapply(1:4, function(i) {
    brute_kid(x[ox[sample.int(60, 20)], ], y[oy[sample.int(50, 20)], ])
  }, 0))
  expect_equal(v, b, tolerance = 1e-10)
})

test_that("mmd_rbf's default bandwidth is the median real distance", {
  set.seed(7)
  x <- matrix(rnorm(40 * 3), ncol = 3)
  y <- matrix(rnorm(30 * 3, mean = 1), ncol = 3)
  em <- embedding_metrics(x, y, metrics = "mmd_rbf")
  s <- stats::median(stats::dist(x))
  expect_equal(attr(em, "bandwidth"), s)
  expect_equal(em$value, brute_rbf(x, y, s), tolerance = 1e-10)
})

test_that("ct is Meehan et al.'s C_T over the k-means cells", {
  set.seed(8)
  train <- matrix(rnorm(300 * 3), ncol = 3)
  held <- matrix(rnorm(200 * 3), ncol = 3)
  # a copier: training rows with a small jitter
  gen <- train[1:150, ] + matrix(rnorm(150 * 3, sd = 0.02), ncol = 3)
  set.seed(12)
  em <- embedding_metrics(train, gen, metrics = "ct", held_out = held)
  set.seed(12)
  # (its starts drawn over the rows in canonical order)
  train <- train[canonical_order(train), ]
  km <- stats::kmeans(train, centers = 3, nstart = 10, iter.max = 300,
                      algorithm = "Lloyd")
  cell <- function(z) apply(brute_d2(z, km$centers), 1, which.min)
  cp <- cell(held)
  cq <- cell(gen)
  nn <- function(a, b) sqrt(apply(pmax(brute_d2(a, b), 0), 1, min))
  z <- sapply(1:3, function(c) {
    tt <- train[km$cluster == c, , drop = FALSE]
    lq <- nn(gen[cq == c, , drop = FALSE], tt)
    lp <- nn(held[cp == c, , drop = FALSE], tt)
    u <- stats::wilcox.test(lq, lp, exact = FALSE)$statistic
    n <- length(lp)
    m <- length(lq)
    (u - (n * m / 2 - 0.5)) / sqrt(n * m * (n + m + 1) / 12)
  })
  pw <- tabulate(cp, 3) / 200
  keep <- tabulate(cq, 3) / 150 > 20 / 150
  expect_equal(em$value, sum(pw[keep] * z[keep]) / sum(pw[keep]),
               tolerance = 1e-12)
  expect_lt(em$value, -3) # copying is detected
  cells <- attr(em, "ct_cells")$generated
  expect_equal(sum(cells$generated), 150)
  expect_equal(cells$z, unname(z), tolerance = 1e-12)
})

test_that("dgm-eval's own functions give the same numbers (relative 1e-6)", {
  s <- fixture_sets()
  # bench/embedding-reference.py on fixtures/embedding-reference.csv
  # (dgm-eval 74c79f7: compute_FD_with_reps, compute_polynomial_mmd,
  # compute_vendi_score, compute_authpct, sw_approx)
  ref <- list(
    gen_a = c(fd = 2.8527692014471575, kid = 1.6267057781744141,
              vendi = 5.8074714378795669, authpct = 52.5,
              sw_approx = 0.59620995522876818,
              vendi_class = 5.6563189257425703),
    gen_b = c(fd = 0.68935978615424909, kid = 0.043468773386095449,
              vendi = 5.5947035292869876, authpct = 42.5,
              sw_approx = 0.200051553018325,
              vendi_class = 5.3785003764755546)
  )
  # (compute_per_class_vendi_scores() with row i, from 0, in class i %% 3)
  cls <- list(gen_a = (seq_len(120) - 1) %% 3, gen_b = (seq_len(120) - 1) %% 3)
  em <- embedding_metrics(s$real, list(gen_a = s$gen_a, gen_b = s$gen_b),
                          metrics = c("fd", "kid", "vendi", "authpct",
                                      "sw_approx", "vendi_class"),
                          classes = cls)
  for (m in names(ref)) {
    for (mt in names(ref[[m]])) {
      expect_equal(value_of(em, mt, m), ref[[m]][[mt]], tolerance = 1e-6,
                   label = paste(m, mt))
    }
  }
  expect_equal(attr(em, "vendi_real"), 5.5453282613994572, tolerance = 1e-6)
})

test_that("intervals, paired comparisons and the tidiers", {
  set.seed(14)
  x <- matrix(rnorm(160 * 4), ncol = 4)
  models <- list(a = matrix(rnorm(160 * 4), ncol = 4),
                 b = matrix(rnorm(160 * 4, mean = 0.5), ncol = 4))
  models$a2 <- models$a
  set.seed(15)
  em <- embedding_metrics(x, models, replicates = 10,
                          held_out = matrix(rnorm(100 * 4), ncol = 4))
  expect_true(all(em$lower <= em$value & em$value <= em$upper))
  expect_true(all(em$upper > em$lower))
  reps <- attr(em, "replicates")
  expect_equal(sort(unique(reps$replicate)), 1:10)
  expect_equal(nrow(reps), 10 * nrow(em))
  # authpct stays in [0, 100], fd above 0
  expect_true(all(em$lower[em$metric %in% c("fd", "authpct")] >= 0))
  expect_true(all(em$upper[em$metric == "authpct"] <= 100))
  cmp <- prd_compare(em, baseline = "a")
  expect_setequal(cmp$statistic, setdiff(embedding_metric_names(),
                                         c("vendi_class", "pmse", "s_pmse")))
  b <- cmp[cmp$model == "b", ]
  expect_equal(b$estimate, em$value[em$model == "b"] - em$value[em$model == "a"])
  # the same generated set: difference 0, interval [0, 0], except the
  # metrics drawn at random (fd_inf's subsamples, ct's k-means)
  same <- cmp[cmp$model == "a2" & !cmp$statistic %in% c("fd_inf", "ct"), ]
  expect_equal(same$estimate, rep(0, nrow(same)))
  expect_equal(same$lower, rep(0, nrow(same)))
  expect_equal(same$upper, rep(0, nrow(same)))
  # the shift is seen by fd
  expect_gt(b$lower[b$statistic == "fd"], 0)
  td <- tidy(em)
  expect_equal(td$estimate, em$value)
  expect_equal(td$conf.low, em$lower)
  expect_equal(glance(em)$n_metrics, 9L)
  skip_if_not_installed("ggplot2")
  p <- ggplot2::ggplot_build(autoplot(em))
  expect_equal(nrow(p$data[[length(p$data)]]) > 0, TRUE)
})

test_that("inputs: data frames, features and id, several models as a list", {
  set.seed(16)
  x <- data.frame(id = sprintf("r%02d", 1:40), matrix(rnorm(40 * 3), ncol = 3))
  y <- data.frame(id = sprintf("g%02d", 1:40),
                  matrix(rnorm(40 * 3, mean = 0.5), ncol = 3))
  em <- embedding_metrics(x, y, metrics = c("fd", "energy"), id = id)
  xm <- as.matrix(x[-1])
  ym <- as.matrix(y[-1])
  expect_equal(value_of(em, "fd"), brute_fd(xm, ym), tolerance = 1e-10)
  em2 <- embedding_metrics(x, y, metrics = "fd", features = c(X1, X2),
                           id = id)
  expect_equal(em2$value, brute_fd(xm[, 1:2], ym[, 1:2]), tolerance = 1e-10)
})

test_that("errors are classed and name the argument", {
  x <- matrix(rnorm(40), ncol = 2)
  y <- matrix(rnorm(40), ncol = 2)
  expect_error(embedding_metrics(x, y, metrics = "ct"),
               class = "prdcurve_error_input")
  expect_error(embedding_metrics(x, y, metrics = "fid"),
               class = "prdcurve_error_input")
  # maxorder and max_params without pmse or s_pmse: read by nothing
  w <- expect_warning(embedding_metrics(x, y, metrics = "fd", maxorder = 0),
                      class = "prdcurve_warning_unused_argument")
  expect_match(conditionMessage(w), "`maxorder` is used by", fixed = TRUE)
  expect_no_warning(embedding_metrics(x, y, metrics = "fd"))
  # the names users know the metrics by are told theirs
  expect_error(embedding_metrics(x, y, metrics = "FID"),
               'Did you mean "fd"?', fixed = TRUE)
  expect_error(embedding_metrics(x, y, metrics = c("kid", "Memorisation")),
               'Did you mean "authpct" and "ct"?', fixed = TRUE)
  expect_error(embedding_metrics(x, y, metrics = "vendy"),
               'Did you mean "vendi"?', fixed = TRUE)
  expect_error(embedding_metrics(x, y, metrics = "ct",
                                 held_out = matrix(rnorm(15), 5, 3)),
               class = "prdcurve_error_columns")
  expect_error(embedding_metrics(x, y, metrics = "kid", subsets = 0),
               class = "prdcurve_error_input")
  expect_error(embedding_metrics(x, y, metrics = "mmd_rbf", bandwidth = -1),
               class = "prdcurve_error_input")
  expect_error(embedding_metrics(x, y, metrics = "fd", replicates = -1),
               class = "prdcurve_error")
})

test_that("standardize = \"real\" scales every set, held-out rows too, by the real moments", {
  set.seed(18)
  x <- matrix(rnorm(150 * 3, sd = c(1, 10, 100)), ncol = 3, byrow = TRUE)
  y <- matrix(rnorm(150 * 3, sd = c(1, 12, 90)), ncol = 3, byrow = TRUE)
  h <- matrix(rnorm(120 * 3, sd = c(1, 10, 100)), ncol = 3, byrow = TRUE)
  mu <- colMeans(x)
  sdv <- apply(x, 2, sd)
  sc <- function(z) sweep(sweep(z, 2, mu), 2, sdv, `/`)
  set.seed(19)
  em <- embedding_metrics(x, y, metrics = c("fd", "mmd_rbf", "ct"),
                          held_out = h, standardize = "real")
  set.seed(19)
  ref <- embedding_metrics(sc(x), sc(y), metrics = c("fd", "mmd_rbf", "ct"),
                           held_out = sc(h))
  expect_equal(em$value, ref$value, tolerance = 1e-10)
  expect_equal(attr(em, "bandwidth"), attr(ref, "bandwidth"), tolerance = 1e-12)
})

test_that("vendi_class is the mean of the classes' Vendi scores, halves included", {
  set.seed(20)
  y <- rbind(matrix(rnorm(40 * 4, mean = 2), ncol = 4),
             matrix(rnorm(60 * 4, mean = -2), ncol = 4))
  lab <- rep(c("a", "b"), c(40, 60))
  x <- matrix(rnorm(80 * 4), ncol = 4)
  set.seed(21)
  em <- embedding_metrics(x, y, metrics = c("vendi", "vendi_class"),
                          classes = lab, replicates = 4)
  per <- c(brute_vendi(y[1:40, ]), brute_vendi(y[41:100, ]))
  expect_equal(value_of(em, "vendi_class"), mean(per), tolerance = 1e-10)
  vc <- attr(em, "vendi_classes")
  expect_identical(vc$class, c("a", "b"))
  expect_identical(vc$rows, c(40L, 60L))
  expect_equal(vc$vendi, per, tolerance = 1e-10)
  # each half's labels follow its rows: replicate 1 recomputed by hand
  # (the halves are drawn over the rows in canonical order)
  set.seed(21)
  px <- sample.int(80)
  pg <- sample.int(100)
  h <- sort(canonical_order(y)[pg[1:50]])
  r1 <- attr(em, "replicates")
  r1 <- r1$value[r1$replicate == 1 & r1$metric == "vendi_class"]
  hy <- y[h, ]
  hl <- lab[h]
  expect_equal(r1, mean(c(brute_vendi(hy[hl == "a", ]),
                          brute_vendi(hy[hl == "b", ]))), tolerance = 1e-10)
  expect_error(embedding_metrics(x, y, metrics = "vendi_class"),
               class = "prdcurve_error_input")
  expect_error(embedding_metrics(x, y, metrics = "vendi_class",
                                 classes = lab[-1]),
               class = "prdcurve_error_input")
  expect_error(embedding_metrics(x, list(p = y, q = y), metrics = "vendi_class",
                                 classes = lab),
               class = "prdcurve_error_input")
  # labels of several types (text, numbers, a factor) are compared as text
  num <- rep(1:2, c(40, 60))
  both <- embedding_metrics(x, list(p = y, q = y, r = y), metrics = "vendi_class",
                            classes = list(p = lab, q = num,
                                           r = factor(num, labels = c("u", "v"))))
  expect_equal(both$value, rep(mean(per), 3), tolerance = 1e-10)
  vc <- attr(both, "vendi_classes")
  expect_identical(vc$class, c("a", "b", "1", "2", "u", "v"))
  expect_identical(vc$model, rep(c("p", "q", "r"), each = 2))
})

test_that("a failure on values of ordinary magnitude is an internal error, not an overflow", {
  # (a failure forced past the checks: sets of other widths)
  set.seed(22)
  x <- matrix(rnorm(80), ncol = 4)
  e <- expect_error(embedding_core(x, list(g = x[, 1:2]), "fd", opts = list()),
                    class = "prdcurve_error_internal")
  expect_match(conditionMessage(e), "ordinary magnitude (at most", fixed = TRUE)
  expect_match(conditionMessage(e), "non-conformable", fixed = TRUE)
  expect_no_match(conditionMessage(e), "Rescale", fixed = TRUE)
  e <- expect_error(embedding_core(x * 1e40, list(g = x[, 1:2]), "fd",
                                   opts = list()),
                    class = "prdcurve_error_input")
  expect_match(conditionMessage(e), "Rescale the features", fixed = TRUE)
})

test_that("pmse and s_pmse in the companion table are pmse_stats(), with intervals and paired differences", {
  set.seed(46)
  real <- data.frame(x = rnorm(300), g = sample(c("a", "b"), 300, TRUE))
  one <- data.frame(x = rnorm(300, 0.3), g = sample(c("a", "b"), 300, TRUE))
  two <- data.frame(x = rnorm(300), g = sample(c("a", "b"), 300, TRUE, c(0.7, 0.3)))
  gens <- list(one = one, two = two)
  for (mo in 0:1) {
    em <- embedding_metrics(real, gens, metrics = c("pmse", "s_pmse"),
                            maxorder = mo)
    ps <- pmse_stats(real, gens, maxorder = mo)
    expect_identical(em$metric, rep(c("pmse", "s_pmse"), 2))
    expect_equal(em$value, ps$value, tolerance = 1e-12)
  }
  # measured: pMSE 0.0056 and 0.0099, S_pMSE 8.95 and 15.9 (maxorder 1)
  expect_equal(em$value, c(0.0056, 8.954, 0.0099, 15.872), tolerance = 0.002)
  # not among the defaults (a logistic regression on the columns)
  expect_false(any(c("pmse", "s_pmse") %in% embedding_default_metrics()))
  expect_identical(embedding_default_metrics(),
                   setdiff(embedding_metric_names(),
                           c("vendi_class", "ct", "pmse", "s_pmse")))
  # the replicates are the pMSE of the complementary halves
  set.seed(7)
  em <- embedding_metrics(real, list(one = one), metrics = c("pmse", "s_pmse"),
                          replicates = 2)
  set.seed(7)
  px <- sample.int(300)
  pg <- sample.int(300)
  # (drawn over the rows in canonical order, that of the encoded sets)
  enc <- suppressMessages(prepare_samples(real, list(one = one)))
  o_r <- canonical_order(enc$real)
  o_g <- canonical_order(enc$generated$one)
  half <- function(p, s, o) sort(o[if (s == 1) p[1:150] else p[-(1:150)]])
  reps <- attr(em, "replicates")
  for (s in 1:2) {
    expect_equal(reps$value[reps$replicate == s],
                 pmse_stats(real[half(px, s, o_r), ],
                            one[half(pg, s, o_g), ])$value,
                 tolerance = 1e-12)
  }
  expect_true(all(em$lower <= em$value & em$value <= em$upper))
  # paired differences: the estimate is the difference of the values
  set.seed(8)
  em <- embedding_metrics(real, gens, metrics = c("pmse", "s_pmse"),
                          replicates = 6)
  cmp <- prd_compare(em, baseline = "one")
  expect_identical(cmp$statistic, c("pmse", "s_pmse"))
  expect_equal(cmp$estimate, em$value[3:4] - em$value[1:2], tolerance = 1e-12)
  expect_true(all(cmp$lower < cmp$estimate & cmp$estimate < cmp$upper))
  expect_error(embedding_metrics(real, one, metrics = "pmse", maxorder = -1),
               "maxorder", class = "prdcurve_error_input")
})

test_that("pmse and s_pmse of embedding_metrics() equal synthpop::utility.gen() on SD2011", {
  skip_if_sanitizing()
  skip_if_not_installed("synthpop")
  env <- new.env()
  utils::data("SD2011", package = "synthpop", envir = env)
  d <- env$SD2011[c("sex", "age", "placesize", "region", "nofriend")]
  so <- synthpop::syn(d, method = "cart", seed = 46, print.flag = FALSE)
  for (mo in 0:1) {
    u <- synthpop::utility.gen(so, d, method = "logit", maxorder = mo,
                               print.flag = FALSE)
    em <- suppressWarnings(embedding_metrics(d, so$syn, metrics = c("pmse", "s_pmse"),
                                             maxorder = mo))
    expect_equal(em$value, c(u$pMSE, u$S_pMSE), tolerance = 1e-8)
  }
})

test_that("FD from fewer rows than columns warns, naming the sets; KID alone does not", {
  set.seed(3)
  a <- matrix(rnorm(60 * 80), 60)
  b <- matrix(rnorm(200 * 80), 200)
  seen <- list()
  em <- withCallingHandlers(
    embedding_metrics(a, list(m = b, s = matrix(rnorm(50 * 80), 50)),
                      metrics = c("fd", "kid")),
    warning = function(w) {
      seen[[length(seen) + 1L]] <<- w
      invokeRestart("muffleWarning")
    })
  small <- Filter(function(w) inherits(w, "prdcurve_warning_small_sample"), seen)
  expect_length(small, 1L)
  msg <- gsub("\\s+", " ", cli::ansi_strip(conditionMessage(small[[1]])))
  expect_match(msg, '"fd" is computed from no more rows than columns.', fixed = TRUE)
  expect_match(msg, "`real` has 60 rows of 80 columns.", fixed = TRUE)
  expect_match(msg, "`generated$s` has 50 rows of 80 columns.", fixed = TRUE)
  expect_no_match(msg, "generated$m", fixed = TRUE)
  # the noise it speaks of: two samples of one law far from FD 0
  expect_gt(em$value[em$model == "s" & em$metric == "fd"], 10)
  seen <- list()
  withCallingHandlers(
    embedding_metrics(a, b, metrics = "kid"),
    warning = function(w) {
      seen[[length(seen) + 1L]] <<- w
      invokeRestart("muffleWarning")
    })
  expect_false(any(vapply(seen, inherits, NA, "prdcurve_warning_small_sample")))
  expect_no_warning(embedding_metrics(b, matrix(rnorm(200 * 80), 200),
                                      metrics = "fd"))
})
