# The marginal family (SPEC.md section 7): a naive Bayes classifier on
# per-coordinate histograms, against its definition written out in R
# (sort(), findInterval(), tabulate()), its kernels against R, and its
# curves against closed-form truths of product distributions.

# The scores of rows Z under the histograms of the fit rows fx of X and fy
# of Y: edges at the ranks ceiling(N j / B) of the rows `all_x` of X and
# `all_y` of Y pooled (N of them; a bin per value when a column has at
# most B distinct values there), each count + 1/2, each log-ratio t
# shrunk to t (1 - v / t^2) (0 when negative), v = 1 / (cx + 1/2) +
# 1 / (cy + 1/2); summed over the coordinates.
# `bound`: for each column NA, or a value made an edge (inserted, and an
# Inf edge or else the edge below it dropped).
brute_marginal <- function(X, Y, all_x, all_y, fx, fy, Z, B,
                           bound = rep(NA, ncol(X))) {
  pooled <- rbind(X[all_x, , drop = FALSE], Y[all_y, , drop = FALSE])
  ranks <- ceiling(nrow(pooled) * seq_len(B - 1) / B)
  score <- numeric(nrow(Z))
  for (l in seq_len(ncol(X))) {
    u <- sort(unique(pooled[, l]))
    e <- if (length(u) <= B) {
      c(u[-1], rep(Inf, B - length(u))) # a bin per value
    } else {
      sort(pooled[, l])[ranks]
    }
    b <- bound[l]
    if (!is.na(b) && !(b %in% e)) {
      e <- sort(c(e, b))
      k <- which(e == b)
      e <- e[-(if (is.infinite(e[B])) B else if (k > 1) k - 1 else k + 1)]
    }
    bin <- function(v) findInterval(v, e) + 1L # edges <= v, plus 1
    cx <- tabulate(bin(X[fx, l]), B)
    cy <- tabulate(bin(Y[fy, l]), B)
    t <- log((cy + 0.5) / (length(fy) + 0.5 * B)) -
      log((cx + 0.5) / (length(fx) + 0.5 * B))
    w <- 1 - (1 / (cx + 0.5) + 1 / (cy + 0.5)) / t^2
    t <- ifelse(t == 0 | w < 0, 0, t * w)
    score <- score + t[bin(Z[, l])]
  }
  score
}

# the threshold rules' envelope of scores (as test-classifiers.R's)
marginal_curve <- function(sr, sg, lambda) {
  rules <- list(c(1, 0), c(0, 1))
  for (t in sort(unique(c(sr, sg)))) {
    rules <- c(rules, list(c(mean(sr > t), mean(sg <= t)),
                           c(mean(sr >= t), mean(sg < t))))
  }
  err <- do.call(rbind, rules)
  alpha <- vapply(lambda, function(l) min(l * err[, 1] + err[, 2]), 0)
  list(precision = pmin(c(0, alpha, min(err[err[, 1] == 0, 2])), 1),
       recall = pmin(c(min(err[err[, 2] == 0, 1]), alpha / lambda, 0), 1))
}

uniform_shift <- function(n, d, seed) {
  set.seed(seed)
  s <- 1 - 0.2^(1 / d) # overlap 0.2 of each cube
  list(x = matrix(runif(n * d), n), y = matrix(runif(n * d, s, s + 1), n))
}

test_that("marginal equals its definition: one fit, and cross-fitted folds", {
  set.seed(3)
  n <- 300
  d <- 4
  x <- matrix(rnorm(n * d), n)
  y <- matrix(rexp(n * d), n) # skewed margins
  y[, 2] <- round(y[, 2], 1) # ties at the edges
  # (rows in the canonical order prd_curve() draws its folds over)
  x <- in_canonical_order(x)
  y <- in_canonical_order(y)
  lambda <- prdcurve:::lambda_grid(21)
  ev <- list(real = 201:300, generated = 201:300)
  # one fit on the fit rows 1..200: 200 / 25 = 8 bins, edges from every row
  cv <- prd_curve(x, y, method = "marginal", split = ev, folds = 1,
                  angles = 21)
  sc <- brute_marginal(x, y, 1:n, 1:n, 1:200, 1:200,
                       rbind(x[201:300, ], y[201:300, ]), B = 8)
  ref <- marginal_curve(sc[1:100], sc[101:200], lambda)
  expect_equal(cv$precision, ref$precision, tolerance = 1e-12)
  expect_equal(cv$recall, ref$recall, tolerance = 1e-12)
  expect_identical(prd_curve_info(cv)$details[[1]]$bins, 8L)
  # three folds of the evaluation rows: each scored by the fit rows and
  # the other folds (266 fit rows: 10 bins)
  set.seed(12)
  cv3 <- prd_curve(x, y, method = "marginal", split = ev, folds = 3,
                   angles = 21)
  set.seed(12)
  fold_of <- function(p) list(sort(p[1:33]), sort(p[34:66]), sort(p[67:100]))
  fx <- fold_of(sample.int(100))
  fy <- fold_of(sample.int(100))
  sr <- sg <- numeric(100)
  for (v in 1:3) {
    ex <- 200 + fx[[v]]
    ey <- 200 + fy[[v]]
    s <- brute_marginal(x, y, 1:n, 1:n, setdiff(1:n, ex), setdiff(1:n, ey),
                        rbind(x[ex, ], y[ey, ]), B = 10)
    sr[fx[[v]]] <- s[seq_along(ex)]
    sg[fy[[v]]] <- s[-seq_along(ex)]
  }
  ref <- marginal_curve(sr, sg, lambda)
  expect_equal(cv3$precision, ref$precision, tolerance = 1e-12)
  expect_equal(cv3$recall, ref$recall, tolerance = 1e-12)
  expect_identical(prd_curve_info(cv3)$details[[1]]$bins, 10L)
  # the bins: 25 fit rows each on average, at least 2, at most 128
  expect_identical(prdcurve:::marginal_bin_count(c(10)), 2L)
  expect_identical(prdcurve:::marginal_bin_count(999), 39L)
  expect_identical(prdcurve:::marginal_bin_count(1e6), 128L)
})

test_that("marginal's edges: at most 2,048 evenly spaced rows of each set, a bin per value of a discrete column", {
  set.seed(5)
  x <- matrix(rnorm(5000 * 2), 5000)
  y <- matrix(rnorm(3000 * 2), 3000)
  E <- prdcurve:::marginal_breaks(x, y, 1:5000, 1:3000, 4L)
  px <- unique(round(seq(1, 5000, length.out = 2048)))
  py <- unique(round(seq(1, 3000, length.out = 2048)))
  pooled <- rbind(x[px, ], y[py, ])
  N <- nrow(pooled)
  expect_identical(N, 4096L)
  for (l in 1:2) {
    expect_identical(E[, l], sort(pooled[, l])[ceiling(N * 1:3 / 4)])
  }
  # few distinct values: a bin per value (5 values, 8 bins: 4 edges and 3
  # Inf); more values than bins: the order statistics again
  xd <- cbind(sample(0:4, 300, TRUE), sample(0:20, 300, TRUE))
  yd <- cbind(sample(c(0, 2, 4), 200, TRUE), sample(0:20, 200, TRUE))
  storage.mode(xd) <- storage.mode(yd) <- "double"
  E <- prdcurve:::marginal_breaks(xd, yd, 1:300, 1:200, 8L)
  expect_identical(E[, 1], c(1, 2, 3, 4, Inf, Inf, Inf))
  expect_identical(E[, 2], sort(c(xd[, 2], yd[, 2]))[ceiling(500 * 1:7 / 8)])
  # a value only the generated set has is a bin of its own
  s <- prdcurve:::marginal_scores(matrix(1, 300, 1),
                                  cbind(rep(c(1, 2), 100)),
                                  list(list(1:200, 201:300),
                                       list(1:100, 101:200)))
  expect_true(all(s$real == s$real[1]))
  two <- seq(2, 100, by = 2) # the evaluation rows holding a 2
  expect_true(all(s$gen[-two] == s$real[1]))
  expect_gt(min(s$gen[two]), s$real[1] + 3)
})

test_that("marginal's edges are a stable sort's order statistics: signed zeros, ties, infinities, any scale", {
  set.seed(23)
  gen <- function(n) {
    cbind(sample(c(-0, 0, 1, -1, 2), n, TRUE),  # a bin per value
          sample(c(-0, 0), n, TRUE),           # zeros of both signs only
          c(rnorm(n - 2) * 1e-300, Inf, -Inf), # tiny and infinite values
          round(rnorm(n), 1) * c(1, -1),        # ties
          sample(c(rnorm(n / 2) * 1e200, rep(c(0, -0), n / 4))))
  }
  x <- gen(1000)
  y <- gen(600)
  for (B in c(2L, 4L, 128L)) {
    E <- prdcurve:::marginal_breaks(x, y, 1:1000, 1:600, B)
    for (l in 1:5) {
      v <- c(x[, l], y[, l])
      s <- v[order(v, method = "radix")] # stable: -0 and +0 in their order
      u <- s[c(TRUE, s[-1] != s[-length(s)])][-1]
      want <- if (length(u) < B) c(u, rep(Inf, B - 1 - length(u))) else
        s[ceiling(1600 * seq_len(B - 1) / B)]
      expect_identical(E[, l], want)
      # the zeros' signs as well
      expect_identical(1 / E[, l], 1 / want)
    }
  }
})

test_that("the marginal families' shared set-up: bins from the fewest fit rows, each cell's counts as findInterval() and tabulate()", {
  set.seed(8)
  x <- matrix(rnorm(700 * 3), 700)
  y <- matrix(rexp(600 * 3), 600)
  # real: 100 fit rows and folds of 200, 200, 200; generated: none and
  # folds of 250, 200, 150
  px <- sample(700)
  py <- sample(600)
  cells <- list(split(px, rep(1:4, c(100, 200, 200, 200))),
                split(py, rep(1:4, c(0, 250, 200, 150))))
  cells[[2]] <- c(list(integer()), unname(cells[[2]]))
  cells[[1]] <- unname(cells[[1]])
  mc <- prdcurve:::marginal_cell_counts(x, y, cells)
  expect_identical(mc$K, 3L)
  # each fold is fitted on the rest: real 700 - 200, generated 600 - 250
  expect_identical(mc$n_fit, 350)
  expect_identical(mc$B, 14L) # floor(350 / 25)
  expect_identical(dim(mc$E), c(13L, 3L))
  expect_null(mc$atoms)
  expect_identical(mc$total, list(unlist(cells[[1]]), unlist(cells[[2]])))
  sets <- list(x, y)
  for (j in 1:2) {
    expect_identical(dim(mc$counts[[j]]), c(14L, 3L, 4L))
    for (v in 1:4) {
      for (l in 1:3) {
        b <- findInterval(sets[[j]][cells[[j]][[v]], l], mc$E[, l]) + 1L
        expect_identical(as.integer(mc$counts[[j]][, l, v]), tabulate(b, 14L))
      }
    }
  }
})

test_that("marginal's kernels count and sum as R does, on any thread count", {
  set.seed(7)
  n <- 700
  d <- 5
  x <- matrix(rnorm(n * d), n)
  x[, 3] <- round(x[, 3]) # values on the edges
  E <- apply(x, 2, function(v) sort(v)[c(100, 300, 300, 500)]) # a repeated edge
  rows <- sample.int(n, 600)
  cell <- sample(rep(1:3, 200))
  tab <- array(rnorm(5 * d * 3), c(5, d, 3))
  bins <- vapply(1:d, function(l) findInterval(x[rows, l], E[, l]) + 1L,
                 integer(600))
  want_counts <- array(0L, c(5, d, 3))
  for (cc in 1:3) {
    for (l in 1:d) want_counts[, l, cc] <- tabulate(bins[cell == cc, l], 5)
  }
  want_scores <- numeric(600)
  for (l in 1:d) want_scores <- want_scores + tab[cbind(bins[, l], l, cell)]
  # the counts and sums by bin through the bin index of every row (read
  # at `rows`), or of the rows `rows` only (read in order)
  bin_counts <- function(x, E, rows, cell, nc, atoms) {
    ix <- .Call(ffi_bin_index, x, E, seq_len(nrow(x)), atoms)
    .Call(ffi_index_counts, ix, nrow(E) + 1L, rows, cell, nc)
  }
  bin_scores <- function(x, E, rows, cell, tab, atoms) {
    ix <- .Call(ffi_bin_index, x, E, rows, atoms)
    .Call(ffi_index_scores, ix, nrow(E) + 1L, seq_along(rows), cell, tab)
  }
  for (th in 1:2) {
    old <- prd_threads(th)
    cnt <- bin_counts(x, E, rows, cell, 3L, NULL)
    sco <- bin_scores(x, E, rows, cell, tab, NULL)
    prd_threads(old)
    expect_identical(cnt, want_counts)
    # summed over the columns in order: R's doubles, on 1 or 2 threads
    expect_identical(sco, want_scores)
  }
  expect_error(bin_counts(x, E, rows, replace(cell, 1, 4L), 3L, NULL),
               "cell out of range")
  expect_error(bin_scores(x, E, c(rows[-1], 701L), cell, tab, NULL),
               "out of range")
  expect_error(bin_scores(x, E[, 1:2], rows, cell, tab, NULL),
               "one column per column")
  expect_error(bin_counts(x, E, c(rows[-1], 701L), cell, 3L, NULL),
               "out of range")
  # atom columns: the kernels read the values off the grid moved by
  # `shift` (here column 3 holds whole numbers and, in rows 1..100, values
  # off the grid; column 5 is read as zeros or not), as R's arithmetic
  x[1:100, 3] <- x[1:100, 3] + 0.5
  x[sample.int(n, 300), 5] <- 0
  atoms <- list(cols = c(3L, 5L), e = c(0L, .Machine$integer.max),
                shift = c(100, 50), off = c(0, 0), mult = c(0, 0),
                centre = c(0, 0))
  xs <- x
  xs[, 3] <- ifelse(x[, 3] == round(x[, 3]), x[, 3], x[, 3] + 100)
  xs[, 5] <- ifelse(x[, 5] == 0, x[, 5], x[, 5] + 50)
  Es <- apply(xs, 2, function(v) sort(v)[c(100, 300, 300, 500)])
  want <- bin_counts(xs, Es, rows, cell, 3L, NULL)
  want_s <- bin_scores(xs, Es, rows, cell, tab, NULL)
  for (th in 1:2) {
    old <- prd_threads(th)
    cnt <- bin_counts(x, Es, rows, cell, 3L, atoms)
    sco <- bin_scores(x, Es, rows, cell, tab, atoms)
    edges <- .Call(ffi_bin_edges, x, x, 1:300, 301:700, 8L, atoms)
    prd_threads(old)
    expect_identical(cnt, want)
    expect_identical(sco, want_s)
    expect_identical(edges, .Call(ffi_bin_edges, xs, xs, 1:300, 301:700, 8L, NULL))
  }
  # and undoing a grid scaling first: (z + off) / mult + centre
  z <- (x[, 3] - 1) * 0.25
  a1 <- list(cols = 1L, e = 0L, shift = 100, off = 0, mult = 0.25, centre = 1)
  zs <- cbind(ifelse(x[, 3] == round(x[, 3]), z, z + 100))
  expect_identical(bin_counts(cbind(z), Es[, 3, drop = FALSE], rows,
                         cell, 3L, a1),
                   bin_counts(zs, Es[, 3, drop = FALSE], rows, cell,
                         3L, NULL))
  expect_error(bin_counts(x, E, rows, cell, 3L,
                     replace(atoms, "cols", list(c(3L, 6L)))),
               "atom column out of range")
  expect_error(bin_counts(x, E, rows, cell, 3L, list(1L)),
               "atoms must be NULL or a list of 6")
})

test_that("the bin index is the count of edges at or below each value: edges, ties, infinities, atoms", {
  set.seed(21)
  # brute force: the number of edges e_j <= v (findInterval())
  brute <- function(v, e) vapply(v, function(z) sum(e <= z), integer(1))
  for (nb in c(1L, 2L, 7L, 127L, 255L)) {
    # column 1: distinct edges; 2: repeated edges and an infinite tail;
    # 3: an edge at -Inf, one at -0; 4: every edge the same value
    e1 <- sort(rnorm(nb))
    e2 <- sort(c(round(rnorm(nb - nb %/% 3), 1), rep(Inf, nb %/% 3)))
    e3 <- sort(c(-Inf, rep(-0, min(2L, nb - 1L)), rnorm(max(0L, nb - 3L)))[
      seq_len(nb)])
    e4 <- rep(0.25, nb)
    E <- cbind(e1, e2, e3, e4, deparse.level = 0)
    # 1,003 rows (not a multiple of the kernels' groups of 8 or blocks of
    # 256): every edge itself, the midpoints, signed zeros, infinities,
    # values far out and at random
    x <- vapply(1:4, function(l) {
      e <- E[, l]
      f <- e[is.finite(e)]
      v <- c(e, (f[-1] + f[-length(f)]) / 2, 0, -0, Inf, -Inf, 1e300, -1e300,
             0.25, 0.25 * (1 + .Machine$double.eps), rnorm(1003))
      sample(rep_len(v, 1003))
    }, numeric(1003))
    for (th in 1:2) {
      old <- prd_threads(th)
      ix <- .Call(ffi_bin_index, x, E, seq_len(1003), NULL)
      prd_threads(old)
      expect_identical(dim(ix), c(4L, 1003L))
      for (l in 1:4) {
        b <- as.integer(ix[l, ])
        expect_identical(b, brute(x[, l], E[, l]))
        expect_identical(b, findInterval(x[, l], E[, l]))
      }
    }
    # rows in any order, repeated: the same bins
    r <- c(1003L, 5L, 5L, 17L, 1L)
    expect_identical(.Call(ffi_bin_index, x, E, r, NULL), ix[, r])
  }
  # a NaN (not after validation) is above no edge: bin 0
  expect_identical(as.integer(.Call(ffi_bin_index, cbind(NaN), cbind(c(-Inf, 0)),
                                    1L, NULL)), 0L)
  # at most 256 bins
  expect_error(.Call(ffi_bin_index, cbind(1), cbind(as.double(1:256)), 1L, NULL),
               "at most 256 bins")
  # an atom column (whole numbers on the grid of 2^0; the values off it
  # moved up by 100): the bins of the moved values
  z <- c(round(rnorm(500) * 3), rnorm(503) * 3)
  zs <- ifelse(z == round(z), z, z + 100)
  e <- sort(c(sample(zs, 60), 100 + min(z[z != round(z)]), -1, -1, 2))
  atoms <- list(cols = 1L, e = 0L, shift = 100, off = 0, mult = 0, centre = 0)
  ix <- .Call(ffi_bin_index, cbind(z), cbind(e), seq_along(z), atoms)
  expect_identical(as.integer(ix), brute(zs, e))
  expect_identical(as.integer(ix), findInterval(zs, e))
})

test_that("the bin index's kernels give the same numbers on 1 and 2 threads at sizes that use both", {
  set.seed(24)
  n <- 5000
  d <- 8 # 40,000 values: enough work for two threads
  x <- matrix(round(rnorm(n * d), 2), n)
  E <- apply(x, 2, function(v) sort(v)[seq(100, 4900, by = 100)]) # 50 bins
  B <- nrow(E) + 1L
  rows <- sample.int(n)
  cell <- sample(rep(1:4, length.out = n))
  tab <- array(rnorm(B * d * 4), c(B, d, 4))
  bins <- vapply(1:d, function(l) findInterval(x[rows, l], E[, l]), integer(n))
  want_counts <- array(0L, c(B, d, 4))
  for (cc in 1:4) {
    for (l in 1:d) want_counts[, l, cc] <- tabulate(bins[cell == cc, l] + 1L, B)
  }
  want_scores <- numeric(n)
  for (l in 1:d) want_scores <- want_scores + tab[cbind(bins[, l] + 1L, l, cell)]
  for (th in 1:2) {
    old <- prd_threads(th)
    ix <- .Call(ffi_bin_index, x, E, seq_len(n), NULL)
    cnt <- .Call(ffi_index_counts, ix, B, rows, cell, 4L)
    sco <- .Call(ffi_index_scores, ix, B, rows, cell, tab)
    prd_threads(old)
    expect_identical(t(matrix(as.integer(ix[, rows]), d)), bins)
    expect_identical(cnt, want_counts)
    expect_identical(sco, want_scores)
  }
})

test_that("the row sums add each row's columns in order, whatever its cell", {
  # 70 columns (tile_sums()' tiles of 32 columns: two and a part),
  # 203 rows (three tiles of 64 rows and a part, not a multiple of 4),
  # cells mixed among neighbouring rows: R's sum in column order, bit for
  # bit, on 1 and 2 threads, and the one-table sums of the cross-validation
  set.seed(25)
  n <- 203
  d <- 70
  x <- matrix(rnorm(n * d), n)
  E <- apply(x, 2, function(v) sort(v)[seq(10, 200, by = 10)]) # 21 bins
  B <- nrow(E) + 1L
  rows <- sample.int(n)
  cell <- sample(rep(1:3, length.out = n))
  tab <- array(rnorm(B * d * 3) * 10^runif(B * d * 3, -3, 3), c(B, d, 3))
  bins <- vapply(1:d, function(l) findInterval(x[rows, l], E[, l]), integer(n))
  want <- numeric(n)
  for (l in 1:d) want <- want + tab[cbind(bins[, l] + 1L, l, cell)]
  ix <- .Call(ffi_bin_index, x, E, seq_len(n), NULL)
  for (th in 1:2) {
    old <- prd_threads(th)
    sco <- .Call(ffi_index_scores, ix, B, rows, cell, tab)
    prd_threads(old)
    expect_identical(sco, want)
  }
  t1 <- tab[, , 1]
  want1 <- numeric(n)
  for (l in 1:d) want1 <- want1 + t1[cbind(bins[, l] + 1L, l)]
  expect_identical(.Call(ffi_index_sums, ix, rows, t1), want1)
})

test_that("marginal is invariant to increasing maps of each coordinate", {
  s <- uniform_shift(400, 3, seed = 9)
  f <- function(m) cbind(exp(3 * m[, 1]), 5 * m[, 2] - 2, m[, 3]^3)
  set.seed(1)
  a <- prd_curve(s$x, s$y, method = "marginal", angles = 31)
  set.seed(1)
  b <- prd_curve(f(s$x), f(s$y), method = "marginal", angles = 31)
  expect_identical(a$precision, b$precision)
  expect_identical(a$recall, b$recall)
})

test_that("marginal is near the truth of product distributions where the others are not", {
  skip_on_cran()
  # uniform cubes overlapping in 0.2 of their volume, d = 8: the true
  # curve is alpha = 0.2 min(lambda, 1), AUC 0.2^2 = 0.04
  s <- uniform_shift(2000, 8, seed = 11)
  set.seed(2)
  cv <- suppressWarnings(prd_curve(s$x, s$y, method = c("marginal",
                                                        "quadratic",
                                                        "tightest")))
  sm <- summary(cv)
  auc <- function(m) sm$auc[sm$method == m]
  expect_lt(abs(auc("marginal") - 0.04), 0.03)
  expect_lt(abs(auc("tightest") - 0.04), 0.03)
  # the quadratic discriminant sees two boxes as two Gaussians: 0.3
  expect_gt(auc("quadratic"), 0.2)
  expect_identical(prd_curve_info(cv)$details[[3]]$families,
                   c(prdcurve:::tightest_default(), "spectral"))
  # (the default reads product distributions through smooth_marginal)
  expect_true("smooth_marginal" %in% prdcurve:::tightest_default())
  expect_identical(prd_curve_info(cv)$details[[3]]$bands$first,
                   rep("smooth_marginal", prdcurve:::tightest_bands))
  # a mean shift along an axis is a product distribution too: N(0, I) vs
  # N(2 e1, I), d = 16
  set.seed(4)
  x <- matrix(rnorm(2000 * 16), 2000)
  y <- matrix(rnorm(2000 * 16), 2000)
  y[, 1] <- y[, 1] + 2
  truth <- summary(prd_truth_gaussian(rep(0, 16), c(2, rep(0, 15))))$auc
  m <- summary(prd_curve(x, y, method = "marginal"))$auc
  expect_lt(abs(m - truth), 0.03)
  # P = Q: no structure to find, AUC near 1
  same <- summary(prd_curve(x, matrix(rnorm(2000 * 16), 2000),
                            method = "marginal"))$auc
  expect_gt(same, 0.95)
})

# the classes of the warnings of `expr`, each muffled
warnings_of <- function(expr) {
  cls <- character()
  withCallingHandlers(expr, warning = function(w) {
    cls <<- c(cls, class(w))
    invokeRestart("muffleWarning")
  })
  unique(cls)
}

test_that("marginal gives the values on a grid bins of their own where the other set is off it", {
  # whole numbers against a continuous model's values: the supports are
  # disjoint, so the true curve is 0 at every scale; the neighbour families
  # cannot tell rounded from unrounded values once the grid is fine
  set.seed(21)
  n <- 1000
  for (s in c(1, 1000)) {
    x <- cbind(round(s * rnorm(n)), matrix(rnorm(n * 2), n))
    y <- cbind(s * rnorm(n), matrix(rnorm(n * 2), n))
    for (st in c("none", "real")) {
      set.seed(3)
      w <- warnings_of(
        cv <- prd_curve(x, y, method = c("marginal", "knn"), standardize = st))
      expect_true("prdcurve_warning_grid_columns" %in% w)
      sm <- summary(cv)
      expect_lt(sm$auc[sm$method == "marginal"], 0.02)
      expect_lt(sm$max_precision[sm$method == "marginal"], 0.05)
      expect_lt(sm$max_recall[sm$method == "marginal"], 0.05)
      expect_identical(prd_curve_info(cv)$details[[1]]$atom_columns, 1L)
      if (s == 1000) expect_gt(sm$auc[sm$method == "knn"], 0.8)
    }
  }
  # the other way round (a model that rounds, continuous real data), and
  # the default combined curve
  set.seed(5)
  x <- matrix(10 * rnorm(n), n)
  y <- round(matrix(10 * rnorm(n), n))
  tight <- suppressWarnings(prd_curve(x, y, standardize = "real"))
  expect_lt(summary(tight)$auc, 0.02)
  # the half-samples of the intervals (each scaled on its own grid) and
  # the cross-fit without a split read the same atoms
  cv <- suppressWarnings(prd_curve(x, y, method = "marginal", replicates = 6,
                                   standardize = "real"))
  expect_lt(summary(cv)$auc_upper, 0.02)
  cv0 <- suppressWarnings(prd_curve(x, y, method = "marginal", split = 0))
  expect_lt(summary(cv0)$auc, 0.02)
  # the warning names the column and the set on the grid
  w <- tryCatch(prd_curve(x, y, method = "knn"),
                prdcurve_warning_grid_columns = function(w) w)
  expect_match(conditionMessage(w), "on a grid in this set only: column 1",
               fixed = TRUE)
  # and the families' disagreement names the grid as its reason
  withr::local_options(prdcurve.check_inputs = FALSE)
  w <- tryCatch(prd_curve(x, y, method = c("knn", "marginal")),
                prdcurve_warning_family_disagreement = function(w) w)
  expect_match(cli::ansi_strip(conditionMessage(w)),
               "Columns lie on a grid (whole numbers) in one set only",
               fixed = TRUE)
})

test_that("marginal's grid bins: the definition, and no change where both sets or neither are on a grid", {
  set.seed(8)
  n <- 300
  x <- cbind(round(3 * rnorm(n)), rnorm(n))
  y <- cbind(3 * rnorm(n), rnorm(n))
  y[1:40, 1] <- round(y[1:40, 1]) # some generated values on the grid too
  ev <- list(real = 201:300, generated = 201:300)
  cv <- suppressWarnings(prd_curve(x, y, method = "marginal", split = ev,
                                   folds = 1, angles = 21))
  # the definition: values off the grid moved above every value on it
  # (by twice the column's range plus 1), then the histograms as before
  sh <- 2 * diff(range(c(x[, 1], y[, 1]))) + 1
  move <- function(m) {
    m[, 1] <- ifelse(m[, 1] == round(m[, 1]), m[, 1], m[, 1] + sh)
    m
  }
  xs <- move(x)
  ys <- move(y)
  # the smallest moved value an edge: no bin holds both kinds
  b <- min(c(xs[, 1], ys[, 1])[c(xs[, 1], ys[, 1]) > max(c(x[, 1], y[, 1]))])
  sc <- brute_marginal(xs, ys, 1:n, 1:n, 1:200, 1:200,
                       rbind(xs[201:300, ], ys[201:300, ]), B = 8,
                       bound = c(b, NA))
  ref <- marginal_curve(sc[1:100], sc[101:200], prdcurve:::lambda_grid(21))
  expect_equal(cv$precision, ref$precision, tolerance = 1e-12)
  expect_equal(cv$recall, ref$recall, tolerance = 1e-12)
  # both sets on the grid, neither on one, and a mixture (exact zeros and
  # continuous values, as after a ReLU) in both: no such bins, no warning
  set.seed(9)
  p <- function(n) {
    v <- rnorm(n)
    cbind(round(4 * rnorm(n)), rnorm(n), ifelse(v < 0, 0, v))
  }
  a <- p(1000)
  b <- p(1000)
  expect_no_warning(cv <- prd_curve(a, b, method = "marginal"))
  expect_identical(prd_curve_info(cv)$details[[1]]$atom_columns, 0L)
  expect_gt(summary(cv)$auc, 0.9)
  # whole numbers after a round trip through a scaling in double
  # precision lie a few 2^-53 off the grid: still on it (no atoms, no
  # warning); a constant column of a fine value (0.1) is not a grid
  set.seed(10)
  a <- cbind(round(5 * rnorm(1000)), rnorm(1000), 0.1)
  b <- cbind(round(5 * rnorm(1000)), rnorm(1000), rnorm(1000, 0.1, 0.01))
  b[, 1] <- ((b[, 1] - 0.3) / 1.7) * 1.7 + 0.3
  expect_true(any(b[, 1] != round(b[, 1]))) # off by the rounding
  expect_true(all(abs(b[, 1] - round(b[, 1])) < 1e-12))
  cls <- warnings_of(cv <- prd_curve(a, b, method = "marginal"))
  expect_false("prdcurve_warning_grid_columns" %in% cls)
  expect_identical(prd_curve_info(cv)$details[[1]]$atom_columns, 0L)
  # float32 values of a wide range (2^23 steps apart) are not a grid: a
  # float32 real set against float64 generated values changes nothing
  f32 <- function(v) round(v * 2^23) / 2^23 # values in [1, 2)
  u <- matrix(f32(1 + runif(2000)), 1000)
  v <- matrix(1 + runif(2000), 1000)
  set.seed(1)
  expect_no_warning(cv <- prd_curve(u, v, method = "marginal"))
  expect_identical(prd_curve_info(cv)$details[[1]]$atom_columns, 0L)
  expect_gt(summary(cv)$auc, 0.9)
})

test_that("marginal reads a shared atom exactly: counts against clipped continuous values", {
  # P: Poisson(2) counts; Q: N(2, 1.4^2) clipped at 0, so the two laws
  # share only the atom at 0: alpha_lambda = min(lambda P0, Q0), a
  # rectangle with max_precision Q0, max_recall P0 and area P0 Q0
  P0 <- exp(-2)
  Q0 <- pnorm(-2 / 1.4)
  set.seed(1)
  n <- 2000
  x <- cbind(rpois(n, 2), matrix(rnorm(n * 2), n))
  y <- cbind(pmax(rnorm(n, 2, 1.4), 0), matrix(rnorm(n * 2), n))
  cv <- suppressWarnings(prd_curve(x, y, method = c("marginal", "tightest")))
  s <- summary(cv)
  expect_lt(max(abs(s$auc - P0 * Q0)), 0.004)
  expect_lt(max(abs(s$max_precision - Q0)), 0.03)
  expect_lt(max(abs(s$max_recall - P0)), 0.03)
  # without the atom bins the values near 0 of both sets share bins:
  # "knn" reads a curve far above the truth
  knn <- summary(suppressWarnings(prd_curve(x, y, method = "knn")))$auc
  expect_gt(knn, 0.3)
})
