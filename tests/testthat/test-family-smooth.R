# The smoothed marginal family (R/family-smooth.R) against a plain version
# written from its definition: findInterval() bins, loops over bins for the
# kernel and the James-Stein factor, sums over the columns.

brute_smooth_table <- function(cp, cq, np, nq, h, pooled = FALSE, a = 0.5) {
  B <- nrow(cp)
  d <- ncol(cp)
  kern <- function(b, j) {
    if (h == 0) return(as.numeric(b == j))
    exp(-(b - j)^2 / (2 * h^2)) / sum(exp(-(seq_len(B) - j)^2 / (2 * h^2)))
  }
  t <- pi <- noise <- matrix(0, B, d)
  for (l in seq_len(d)) {
    sp <- sq <- vp <- vq <- numeric(B)
    for (b in seq_len(B)) for (j in seq_len(B)) {
      sp[b] <- sp[b] + kern(b, j) * cp[j, l]
      sq[b] <- sq[b] + kern(b, j) * cq[j, l]
      vp[b] <- vp[b] + kern(b, j)^2 * cp[j, l]
      vq[b] <- vq[b] + kern(b, j)^2 * cq[j, l]
    }
    t[, l] <- log((sq + a) / (nq + a * B)) - log((sp + a) / (np + a * B))
    pi[, l] <- (sp + sq) / (np + nq)
    noise[, l] <- vp / (sp + a)^2 + vq / (sq + a)^2
  }
  # the target: 0, or bin by bin the mean over the columns
  target <- numeric(B)
  if (pooled) for (b in seq_len(B)) target[b] <- mean(t[b, ])
  tab <- matrix(0, B, d)
  w <- numeric(d)
  for (l in seq_len(d)) {
    S <- sum(pi[, l] * (t[, l] - target)^2)
    N <- sum(pi[, l] * noise[, l])
    w[l] <- if (S > 0) max(0, 1 - N / S) else 0
    tab[, l] <- target + w[l] * (t[, l] - target)
  }
  list(table = tab, shrinkage = w)
}

brute_counts <- function(X, E) {
  B <- nrow(E) + 1L
  sapply(seq_len(ncol(X)), function(l) {
    tabulate(findInterval(X[, l], E[, l]) + 1L, nbins = B)
  })
}

test_that("the C parts and shrinkage equal R's vectorised expressions bit for bit", {
  # (the expressions smooth_parts() and smooth_shrink() evaluated in R
  # before src/marginal.c; the validity tables were computed with them)
  r_parts <- function(cp, cq, np, nq, h) {
    B <- nrow(cp)
    K <- smooth_kernel(B, h)
    a <- marginal_smooth
    sp <- K %*% cp
    sq <- K %*% cq
    t <- log(sq + a) - log(nq + a * B) - log(sp + a) + log(np + a * B)
    K2 <- K^2
    noise <- (K2 %*% cp) / (sp + a)^2 + (K2 %*% cq) / (sq + a)^2
    list(t = t, noise = noise, pi = (sp + sq) / (np + nq))
  }
  r_shrink <- function(p, pooled) {
    t <- p$t
    B <- nrow(t)
    target <- if (pooled) rowMeans(t) else double(B)
    dev <- t - target
    S <- colSums(p$pi * dev^2)
    N <- colSums(p$pi * p$noise)
    w <- ifelse(S > 0, pmax(0, 1 - N / S), 0)
    list(table = target + dev * rep(w, each = B), shrinkage = w)
  }
  set.seed(62)
  B <- 64L
  d <- 37L
  cp <- matrix(rpois(B * d, 30), B)
  cq <- matrix(rpois(B * d, 30), B) # integer counts, as the index gives
  cq[1:6, 1:5] <- cq[1:6, 1:5] + 25L
  cq[, 7] <- cp[, 7] # a column without a difference: shrunk to 0
  for (h in c(0, 1, 4, 32)) {
    got <- smooth_parts(cp, cq, sum(cp[, 1]), sum(cq[, 1]), h)
    want <- r_parts(cp, cq, sum(cp[, 1]), sum(cq[, 1]), h)
    expect_identical(lapply(got, unname), lapply(want, function(m) unname(unclass(m))))
    for (pooled in c(FALSE, TRUE)) {
      expect_identical(smooth_shrink(got, pooled), r_shrink(want, pooled))
    }
  }
  expect_identical(smooth_shrink(smooth_parts(cp, cq, 1950, 1950, 2), FALSE)$shrinkage[7], 0)
  expect_gt(min(smooth_shrink(smooth_parts(cp, cq, 1950, 1950, 2), FALSE)$shrinkage[1:5]), 0.5)
  # products of 1 MiB and more live in a scratch slot kept between calls
  # (4 x 64 x 1,100 doubles, 2.1 MiB): the same values on a fresh slot and
  # on one holding another call's products, freed under keep_scratch =
  # FALSE
  d <- 1100L
  big <- lapply(1:2, function(i) matrix(rpois(B * d, 30 + 5 * i), B))
  engine_scratch(release = TRUE)
  got <- smooth_parts(big[[1]], big[[2]], 1900, 2100, 4)
  expect_gte(engine_scratch(), 4 * B * d * 8)
  want <- r_parts(big[[1]], big[[2]], 1900, 2100, 4)
  expect_identical(lapply(got, unname), lapply(want, function(m) unname(unclass(m))))
  other <- smooth_parts(big[[2]], big[[1]], 2100, 1900, 8)
  expect_identical(smooth_parts(big[[1]], big[[2]], 1900, 2100, 4), got)
  old <- options(prdcurve.keep_scratch = FALSE)
  on.exit(options(old), add = TRUE)
  expect_identical(smooth_parts(big[[1]], big[[2]], 1900, 2100, 4), got)
  expect_identical(engine_scratch(), 0)
})

test_that("the choice's sums and the folds' tables equal smooth_table() step by step", {
  # (ffi_smooth_choice_sums() and ffi_smooth_fold_tables(), src/smooth.c,
  # against smooth_parts(), smooth_shrink() and ffi_index_sums())
  set.seed(63)
  B <- 16L
  d <- 9L
  E <- matrix(sort(rnorm((B - 1L) * d)), B - 1L)
  E <- apply(E, 2, sort)
  x <- matrix(rnorm(300 * d), 300)
  y <- matrix(rnorm(260 * d, 0.3), 260)
  index <- list(marginal_index(x, E), marginal_index(y, E))
  rx <- list(1:140, 141:300)
  ry <- list(seq(1L, 260L, 2L), seq(2L, 260L, 2L))
  cp <- halves_counts(index[[1]], B, rx)
  cq <- halves_counts(index[[2]], B, ry)
  hs <- c(0, 1, 2.5)
  got <- .Call(ffi_smooth_choice_sums, cp * 1, cq * 1, as.double(lengths(rx)),
               as.double(lengths(ry)),
               lapply(hs, function(h) if (h > 0) smooth_kernel(B, h)),
               marginal_smooth, index, rx, ry, TRUE)
  expect_length(got, 2L * length(hs))
  for (i in seq_along(hs)) for (pooled in c(FALSE, TRUE)) for (v in 1:2) {
    w <- 3L - v
    tab <- smooth_table(matrix(cp[, , w], B), matrix(cq[, , w], B),
                        length(rx[[w]]), length(ry[[w]]), hs[i], pooled)$table
    want <- c(.Call(ffi_index_sums, index[[1]], rx[[v]], tab),
              .Call(ffi_index_sums, index[[2]], ry[[v]], tab))
    expect_identical(got[[i + pooled * length(hs)]][[v]], want)
  }
  # the folds' tables: the totals less each fold's cell
  K <- 3L
  cells <- lapply(1:2, function(j) rep_len(1:(K + 1L), ncol(index[[j]])))
  counts <- lapply(1:2, function(j) {
    .Call(ffi_index_counts, index[[j]], B, seq_along(cells[[j]]), cells[[j]],
          K + 1L)
  })
  sums <- lapply(counts, rowSums, dims = 2L)
  n <- lapply(1:2, function(j) as.double(length(cells[[j]]) - tabulate(cells[[j]])[-1L]))
  for (h in c(0, 2)) for (pooled in c(FALSE, TRUE)) {
    ft <- .Call(ffi_smooth_fold_tables, sums[[1]], sums[[2]], counts[[1]],
                counts[[2]], n[[1]], n[[2]], if (h > 0) smooth_kernel(B, h),
                marginal_smooth, pooled, TRUE)
    for (v in seq_len(K)) {
      st <- smooth_table(sums[[1]] - counts[[1]][, , v + 1L],
                         sums[[2]] - counts[[2]][, , v + 1L], n[[1]][v],
                         n[[2]][v], h, pooled)
      expect_identical(ft$table[, , v], unname(st$table))
      expect_identical(ft$kept[[v]], sum(st$shrinkage > 0))
    }
  }
})

test_that("the smoothed table equals the plain formula", {
  set.seed(61)
  cp <- matrix(rpois(12 * 3, 20), 12)
  cq <- matrix(rpois(12 * 3, 20), 12)
  cq[1:3, 2] <- cq[1:3, 2] + 40
  for (h in c(0, 1, 2.5)) for (pooled in c(FALSE, TRUE)) {
    got <- smooth_table(cp, cq, sum(cp[, 1]) + 3, sum(cq[, 1]) + 5, h, pooled)
    want <- brute_smooth_table(cp, cq, sum(cp[, 1]) + 3, sum(cq[, 1]) + 5, h,
                               pooled)
    expect_equal(got$table, want$table, tolerance = 1e-12)
    expect_equal(got$shrinkage, want$shrinkage, tolerance = 1e-12)
  }
  # toward the columns' mean, a column like the others keeps the common
  # log ratio (not 0)
  cq2 <- cp + 10 * (seq_len(12) <= 3)
  tp <- smooth_table(cp, cq2, 240, 270, 0, pooled = TRUE)$table
  expect_equal(tp[, 1], tp[, 2], tolerance = 0.05)
  # bins 1-3: 30 against 20 of 270 and 240 rows, log ratio about 0.29
  expect_true(all(tp[1:3, ] > 0.15))
  expect_true(all(tp[5:12, ] < 0))
  # the column with the difference is kept, mostly unshrunk
  expect_gt(smooth_table(cp, cq, 240, 280, 1)$shrinkage[2], 0.8)
  # the smoothing keeps each histogram's mass
  expect_equal(colSums(smooth_kernel(12, 2) %*% cp), colSums(cp))
})

test_that("the family's scores are the sums of the plain table's entries", {
  set.seed(62)
  n <- 400
  x <- matrix(rt(n * 5, 3), n)
  y <- matrix(rt(n * 5, 3), n) * rep(c(1.5, 1, 1, 1, 1), each = n)
  fx <- 1:300
  fy <- 101:400
  f <- withr::with_seed(3, fit_smooth_marginal(x, y, fx, fy))
  B <- f$settings$bins
  E <- marginal_breaks(x, y, fx, fy, B)
  expect_equal(B, marginal_bin_count(300))
  tab <- brute_smooth_table(brute_counts(x[fx, ], E), brute_counts(y[fy, ], E),
                            300, 300, f$settings$bandwidth,
                            f$settings$pooled)$table
  z <- x[301:400, ]
  bins <- sapply(1:5, function(l) findInterval(z[, l], E[, l]) + 1L)
  want <- rowSums(sapply(1:5, function(l) tab[bins[, l], l]))
  expect_equal(f$score(x, 301:400), want, tolerance = 1e-10)
  expect_equal(f$score(z), want, tolerance = 1e-10)
  expect_true(f$settings$bandwidth %in% smooth_bandwidths)
  # only the first column differs: it is kept, and it carries the score
  expect_gte(f$settings$columns_kept, 1)
  expect_lte(f$settings$columns_kept, 3)
})

test_that("on heavy-tailed coordinates it is far tighter than raw histograms", {
  # 64 independent Student t (3 df) coordinates, the generated ones 1.15
  # times wider: the smoothed, shrunk sums read near the true AUC, the raw
  # histograms far above it
  set.seed(64)
  n <- 3000
  d <- 64
  x <- matrix(rt(n * d, 3), n)
  y <- matrix(rt(n * d, 3), n) * 1.15
  ld <- function(z, s) rowSums(dt(z / s, 3, log = TRUE) - log(s))
  truth <- summary(prd_truth(function(z) ld(z, 1), function(z) ld(z, 1.15),
                             function(m) matrix(rt(m * d, 3), m),
                             function(m) matrix(rt(m * d, 3), m) * 1.15,
                             n = 20000, angles = 201))$auc
  ev <- 1:1500
  f <- fit_smooth_marginal(x, y, 1501:3000, 1501:3000)
  lambda <- lambda_grid(201)
  auc <- envelope_auc(lambda, curve_from_scores(f$score(x, ev), f$score(y, ev),
                                                lambda))
  raw <- summary(suppressWarnings(prd_curve(
    x, y, method = "marginal", split = list(real = ev, generated = ev),
    angles = 201)))$auc
  # (measured: truth 0.618, smoothed 0.635 (0.686 shrunk toward 0 alone),
  # raw histograms 0.911): the coordinates share one law, so the shrinkage
  # toward the columns' common log ratio wins the cross-validation
  expect_lt(abs(auc - truth), 0.04)
  expect_lt(abs(auc - truth), abs(raw - truth) - 0.2)
  expect_gt(f$settings$bandwidth, 0)
  expect_true(f$settings$pooled)
})

test_that("bad arguments are classed errors", {
  x <- matrix(rnorm(40), 20)
  expect_error(fit_smooth_marginal(x, x, 1:10, 1:10, bandwidths = -1),
               class = "prdcurve_error_input", regexp = "bandwidths")
  expect_error(fit_smooth_marginal(x, x, 1:10, 1:3),
               class = "prdcurve_error_split")
})

test_that("the bins of the cross-validation are findInterval()'s and the C scoring's", {
  set.seed(65)
  x <- matrix(round(rnorm(300 * 3), 1), 300)
  E <- marginal_breaks(x, x, 1:150, 151:300, 8L)
  B <- nrow(E) + 1L
  tab <- matrix(rnorm(B * 3), B)
  ix <- marginal_index(x, E)
  # (ties with the edges included: the values are rounded to 0.1)
  want <- sapply(1:3, function(l) findInterval(x[, l], E[, l]) + 1L + B * (l - 1L))
  expect_identical(t(matrix(as.integer(ix), 3)) + 1L + rep(B * (0:2), each = 300),
                   want)
  rows <- c(300:151, 1:10)
  sums <- .Call(prdcurve:::ffi_index_sums, ix, rows, tab)
  expect_equal(sums, rowSums(matrix(tab[want[rows, ]], length(rows))),
               tolerance = 1e-14)
  expect_equal(sums, smooth_scores(x, E, rows, tab), tolerance = 1e-12)
})

test_that("every fold at once (the cells path) equals each fold fitted alone", {
  set.seed(66)
  n <- 300
  x <- matrix(rt(n * 4, 3), n)
  y <- matrix(rt(n * 4, 3), n) * rep(c(1.4, 1.2, 1, 1), each = n)
  # the fit rows, then three folds of each set
  cells <- list(list(1:150, 151:200, 201:250, 251:300),
                list(1:150, 151:200, 201:250, 251:300))
  got <- withr::with_seed(4, smooth_marginal_cells(x, y, cells))
  st <- got$settings
  total <- 1:300
  E <- marginal_breaks(x, y, total, total, st$bins)
  expect_equal(st$bins, marginal_bin_count(300 - 50))
  want <- list(real = numeric(), gen = numeric())
  for (v in 1:3) {
    ev <- cells[[1]][[v + 1]]
    fit <- setdiff(total, ev)
    tab <- brute_smooth_table(brute_counts(x[fit, ], E), brute_counts(y[fit, ], E),
                              length(fit), length(fit), st$bandwidth,
                              st$pooled)$table
    sc <- function(z) rowSums(sapply(1:4, function(l) {
      tab[findInterval(z[, l], E[, l]) + 1L, l]
    }))
    want$real <- c(want$real, sc(x[ev, ]))
    want$gen <- c(want$gen, sc(y[ev, ]))
  }
  expect_equal(got$real, want$real, tolerance = 1e-10)
  expect_equal(got$gen, want$gen, tolerance = 1e-10)
  expect_true(st$bandwidth %in% smooth_bandwidths)
  # the scores separate the sets: the wider generated rows score higher
  expect_gt(mean(got$gen), mean(got$real))
})
