# prd_curve()'s sets in canonical row order and on a safe scale
# (R/canonical.R): a permutation of the rows gives the identical curve under
# the same seed, for every family and every kind of random draw; every
# magnitude the input check accepts gives the curve of the values near 1.

perm_sets <- function(seed = 11, n = 90, m = 80, d = 4) {
  set.seed(seed)
  x <- matrix(rnorm(n * d), n)
  y <- matrix(rnorm(m * d, 0.3, 1.2), m)
  list(x = x, y = y, px = sample.int(n), py = sample.int(m))
}

# every family of the registry, the mixture and smoothed marginal included
all_methods <- curve_methods()

test_that("a row permutation of both sets gives the identical curve for every family", {
  s <- perm_sets()
  run <- function(x, y, ...) {
    set.seed(1)
    quiet_traps(suppressWarnings(
      prd_curve(x, y, angles = 41, ...),
      classes = c("prdcurve_warning_small_sample",
                  "prdcurve_warning_family_disagreement")))
  }
  for (f in all_methods) {
    a <- run(s$x, s$y, method = f)
    b <- run(s$x[s$px, ], s$y[s$py, ], method = f)
    expect_identical(a$precision, b$precision, info = f)
    expect_identical(a$recall, b$recall, info = f)
  }
  # without a split (cross-fitted folds, stacked's inner folds), with the
  # half-sample replicates, and with several models
  for (f in c("stacked", "tightest")) {
    a <- run(s$x, s$y, method = f, split = 0)
    b <- run(s$x[s$px, ], s$y[s$py, ], method = f, split = 0)
    expect_identical(a$precision, b$precision, info = f)
    a <- run(s$x, s$y, method = f, replicates = 4)
    b <- run(s$x[s$px, ], s$y[s$py, ], method = f, replicates = 4)
    expect_identical(prd_curve_info(a)$replicates[[1]]$precision,
                     prd_curve_info(b)$replicates[[1]]$precision, info = f)
  }
  g2 <- s$y[, 4:1]
  a <- run(s$x, list(one = s$y, two = g2), method = "linear")
  b <- run(s$x[s$px, ], list(one = s$y[s$py, ], two = g2[rev(s$py), ]),
           method = "linear")
  expect_identical(a$precision, b$precision)
  # evaluation rows given by row number follow their rows
  ev <- list(real = c(3, 10:40), generated = 21:60)
  evp <- list(real = match(ev$real, s$px), generated = match(ev$generated, s$py))
  a <- run(s$x, s$y, method = "stacked", split = ev)
  b <- run(s$x[s$px, ], s$y[s$py, ], method = "stacked", split = evp)
  expect_identical(a$precision, b$precision)
  expect_identical(prd_curve_info(b)$n_eval_real, 32L)
  # scaled by the real fit rows, and data frames with an id column
  a <- run(s$x, s$y, standardize = "real")
  b <- run(s$x[s$px, ], s$y[s$py, ], standardize = "real")
  expect_identical(a$precision, b$precision)
  dx <- data.frame(id = seq_len(nrow(s$x)), s$x)
  dy <- data.frame(id = seq_len(nrow(s$y)), s$y)
  a <- run(dx, dy, id = id, method = "stacked")
  b <- run(dx[s$px, ], dy[s$py, ], id = id, method = "stacked")
  expect_identical(a$precision, b$precision)
})

test_that("the canonical order is lexicographic and ignores increasing maps of a column", {
  set.seed(2)
  y <- matrix(sample(0:2, 600 * 5, TRUE), 600)
  storage.mode(y) <- "double"
  o <- canonical_order(y)
  expect_identical(y[o, ], y[do.call(order, as.data.frame(y)), ])
  expect_identical(sort(o), seq_len(600))
  z <- cbind(exp(y[, 1]), 3 * y[, 2] - 1, y[, 3:5]^3)
  expect_identical(z[canonical_order(z), ], z[o, ])
  # a set already in that order is not copied, and keeps its ids
  s <- canonical_sets(list(real = y[o, ], generated = list(generated = y)))
  expect_null(s$order$real)
  expect_identical(s$order$generated$generated, o)
  expect_identical(s$scale, 1)
  # the moved set is y[o, ], its names, ids and column attributes with it
  # (signed zeros too)
  w <- y
  w[1, 1] <- -0
  dimnames(w) <- list(paste0("r", 1:600), paste0("c", 1:5))
  attr(w, "ids") <- 600:1
  attr(w, "encoding") <- "kept"
  s <- canonical_sets(list(real = w, generated = list(generated = y)))
  ref <- w[o, ]
  attr(ref, "encoding") <- "kept"
  attr(ref, "ids") <- (600:1)[o]
  expect_identical(s$real, ref)
  expect_identical(1 / s$real[which(o == 1), 1], -Inf)
})

# (mixture16 is the mixture's code with its choice fixed: its scaling is the
# mixture's, and its 16 low-rank components at 13 scales cost minutes in
# the sanitized run; the permutation test above runs it)
scale_methods <- setdiff(all_methods, "mixture16")

test_that("values far from 1 are scaled by a power of two: the curve of the values near 1", {
  set.seed(3)
  x <- matrix(rnorm(160 * 3), 160)
  y <- matrix(rnorm(160 * 3, 0.4, 1.3), 160)
  fams <- setdiff(all_methods, "tightest")
  run <- function(a, b) {
    set.seed(4)
    quiet_traps(suppressWarnings(prd_curve(a, b, method = scale_methods,
                                           angles = 31),
                                 classes = "prdcurve_warning_family_disagreement"))
  }
  ref <- run(x, y)
  expect_setequal(unique(ref$method), scale_methods)
  # powers of two: every value exact, the identical curve
  for (e in c(-330, -200, -66, 66, 200, 330)) {
    cv <- run(x * 2^e, y * 2^e)
    expect_identical(cv$precision, ref$precision, info = e)
    expect_identical(cv$recall, ref$recall, info = e)
  }
  # powers of ten (each value rounded once): the same curve to rounding,
  # from 1e-100 to 1e100, the input check's range. Not the mixture's: its
  # low-rank fits stop after 100 EM steps, before their bases converge,
  # and keep traces of their start (seeds, hard assignments), which the
  # rounding can move: its curve moves here by up to 0.022 (two of the 80
  # evaluation rows of a set), at some of these scales and not at others
  mix <- ref$method == "mixture"
  for (e in c(-100, -77, -30, 30, 77, 99, 100)) {
    s <- 10^e
    if (max(abs(c(x, y))) * s > 1e100) s <- s / 10
    cv <- run(x * s, y * s)
    expect_equal(cv$precision[!mix], ref$precision[!mix], tolerance = 1e-9,
                 info = e)
    expect_equal(cv$recall[!mix], ref$recall[!mix], tolerance = 1e-9, info = e)
    expect_lt(max(abs(cv$precision[mix] - ref$precision[mix])), 0.04)
    expect_lt(max(abs(cv$recall[mix] - ref$recall[mix])), 0.04)
  }
  # the case of the report: 1e99 and an offset of 1e98 (the fitted
  # families' fourth moments overflowed)
  set.seed(5)
  big <- matrix(rnorm(400), 200) * 1e99
  cv <- run(big, big + 1e98)
  expect_true(all(is.finite(cv$precision)))
  set.seed(5)
  small <- matrix(rnorm(400), 200)
  ref <- run(small, small + 0.1)
  expect_equal(cv$precision, ref$precision, tolerance = 1e-9)
  # beyond 1e100 the input check refuses, with its class
  expect_error(prd_curve(x * 1e101, y), class = "prdcurve_error_input")
})

test_that("a kde bandwidth in the data's units is scaled with the data", {
  set.seed(6)
  x <- matrix(rnorm(100 * 2), 100)
  y <- matrix(rnorm(100 * 2, 0.5), 100)
  set.seed(1)
  a <- prd_curve(x, y, method = "kde", bandwidth = 0.6, angles = 31)
  set.seed(1)
  b <- prd_curve(x * 2^90, y * 2^90, method = "kde", bandwidth = 0.6 * 2^90,
                 angles = 31)
  expect_identical(a$precision, b$precision)
  expect_identical(curve_attr(b, "bandwidth") / 2^90, curve_attr(a, "bandwidth"))
  set.seed(1)
  c <- prd_curve(x * 2^90, y * 2^90, method = "kde", angles = 31)
  set.seed(1)
  d <- prd_curve(x, y, method = "kde", angles = 31)
  expect_equal(curve_attr(c, "bandwidth") / 2^90, curve_attr(d, "bandwidth"),
               tolerance = 1e-14)
})
