# The engine's products in single precision (options(prdcurve.precision),
# src/products.c "float32 tiles"): every decision is made exact by the
# recomputation window, so every result equals the double-precision one
# bit for bit, on data chosen to sit on the windows' edges.

# `expr` evaluated under a precision with a fixed seed: its value and the
# classes of its warnings (muffled; the small sets are legal but odd)
under_precision <- function(precision, expr, seed = 1) {
  withr::local_options(prdcurve.precision = precision)
  set.seed(seed)
  w <- character()
  value <- withCallingHandlers(expr, warning = function(cnd) {
    w <<- c(w, class(cnd)[1])
    invokeRestart("muffleWarning")
  })
  list(value = value, warnings = w)
}

expect_same_in_both <- function(f, ...) {
  single <- under_precision("single", f(...))
  double <- under_precision("double", f(...))
  expect_identical(single, double)
}

# the precision the engine chose for a pair of sets (no split, one k)
precision_used <- function(real, generated, precision = "single") {
  withr::local_options(prdcurve.precision = precision)
  storage.mode(real) <- storage.mode(generated) <- "double"
  n <- min(nrow(real), nrow(generated))
  s <- list(fit = list(seq_len(nrow(real)), seq_len(nrow(generated))),
            eval = NULL)
  nb <- prdcurve:::engine_neighbours(real, generated, s, min(3L, n - 1L),
                                     "knn")
  attr(nb, "precision")
}

# adversarial pairs of sets, each small
precision_cases <- function() {
  set.seed(401)
  lattice <- function(n, d) matrix(sample(0:2, n * d, TRUE) + 0, n, d)
  g <- function(n, d, m = 0) matrix(rnorm(n * d, m), n, d)
  dup <- g(40, 6)
  # coordinates a few ulps apart: distances that differ by relative 1e-15
  near <- matrix(1 + sample(0:3, 80 * 5, TRUE) * .Machine$double.eps, 80, 5)
  near2 <- near[sample(80), ]
  near2[, 1] <- near2[, 1] + 2 * .Machine$double.eps
  list(
    lattice = list(lattice(90, 3), lattice(80, 3)),
    duplicated = list(dup[c(1:40, 1:40), ], rbind(dup[1:30, ], g(30, 6))),
    ulps = list(near, near2),
    offset = list(g(70, 8) + 1e6, g(70, 8, 0.3) + 1e6),
    lattice_offset = list(lattice(70, 4) + 1e6, lattice(60, 4) + 1e6),
    integer = list(matrix(sample(-5:5, 70 * 10, TRUE), 70, 10),
                   matrix(sample(-5:5, 60 * 10, TRUE), 60, 10)),
    d1 = list(matrix(sample(0:20, 80, TRUE) + 0, 80), g(70, 1, 3)),
    d4096 = list(g(24, 4096), g(20, 4096, 0.1))
  )
}

test_that("single-precision products give identical results to double", {
  quiet_traps({
    skip_on_cran()
    cases <- precision_cases()
    manifold_all <- c("precision", "recall", "density", "coverage",
                      "c_precision", "sym_precision", "sym_recall",
                      "prc_precision", "prc_recall", "p_precision", "p_recall")
    for (nm in names(cases)) {
      real <- cases[[nm]][[1]]
      gen <- cases[[nm]][[2]]
      ks <- if (nm == "d4096") c(1, 3) else c(1, 4, 9)
      for (split in c(0, 0.5)) {
        expect_same_in_both(prd_curve, real, gen,
                            method = c("knn", "kde", "ipr", "coverage"),
                            k = ks, split = split, angles = 51)
        expect_same_in_both(manifold_metrics, real, gen,
                            metrics = manifold_all, k = ks, split = split)
        expect_same_in_both(manifold_samples, real, gen, k = ks[2],
                            split = split, probabilistic = TRUE)
        expect_same_in_both(entropy_metrics, real, gen, k = ks, split = split)
        expect_same_in_both(entropy_samples, real, gen, k = ks[2],
                            split = split)
      }
      expect_same_in_both(prd_curve, real, gen, method = "kde", k = ks[2],
                          bandwidth = 1.5, split = 0, angles = 51)
      expect_same_in_both(prd_curve, real, gen, method = "coverage",
                          k = ks[2], split = 0, closed = FALSE, angles = 51)
      expect_same_in_both(knn_entropy, real, k = ks)
      expect_same_in_both(knn_cross_entropy, real, gen, k = ks)
      # external query points (Monte Carlo draws around the samples)
      if (ncol(real) <= 10) {
        expect_same_in_both(prd_kde_plugin, real, gen, n_mc = 300, angles = 51)
      }
    }
  })
})

test_that("the engine's outputs are identical across precisions and threads", {
  skip_on_cran()
  cases <- precision_cases()
  what <- c("own", "query_x", "query_y", "query_all", "knn", "coverage",
            "ipr", "kde", "ppr")
  for (nm in c("lattice", "duplicated", "offset", "d4096")) {
    real <- cases[[nm]][[1]]
    gen <- cases[[nm]][[2]]
    h <- c(nrow(real), nrow(gen)) %/% 2
    s <- list(fit = list(seq_len(h[1]), seq_len(h[2])),
              eval = list(seq(h[1] + 1, nrow(real)),
                          seq(h[2] + 1, nrow(gen))))
    run <- function(precision, threads) {
      withr::local_options(prdcurve.precision = precision)
      set0 <- prdcurve:::thread_info()[["set"]]
      prd_threads(threads)
      on.exit(prd_threads(set0), add = TRUE)
      r <- prdcurve:::engine_neighbours(real, gen, s, c(1, 3, 5), what,
                                        bandwidth_k = 3, ppr_k = 2,
                                        ppr_scale = 1.2)
      attributes(r)[c("exact", "threads", "precision")] <- NULL
      r
    }
    ref <- run("double", 1)
    expect_identical(run("single", 1), ref)
    expect_identical(run("single", 2), ref)
  }
})

test_that("radii without a split (X x Y once) are identical across precisions", {
  skip_on_cran()
  skip_if_not(prdcurve:::engine_has_sgemm(),
              "the BLAS has no sgemm: the engine runs in double precision only")
  cases <- precision_cases()
  for (nm in names(cases)) {
    real <- cases[[nm]][[1]]
    gen <- cases[[nm]][[2]]
    storage.mode(real) <- storage.mode(gen) <- "double"
    s <- list(fit = list(seq_len(nrow(real)), seq_len(nrow(gen))), eval = NULL)
    ks <- c(1L, 3L, 10L)
    run <- function(precision, symmetric, buffer = 0L) {
      withr::local_options(prdcurve.precision = precision)
      prdcurve:::local_engine_knobs(symmetric = symmetric, own_buffer = buffer)
      r <- prdcurve:::engine_neighbours(real, gen, s, ks,
                                        c("query_x", "query_y"))
      attr(r, "exact") <- NULL
      r
    }
    ref <- run("double", FALSE)
    expect_identical(attr(ref, "precision"), "double")
    single <- run("single", TRUE)
    expect_identical(attr(single, "precision"), "single", label = nm)
    attr(ref, "precision") <- attr(single, "precision") <- NULL
    expect_identical(single, ref, label = nm)
    # buffers that overflow: the full-row engine, in single precision too
    small <- run("single", TRUE, 12L)
    attr(small, "precision") <- NULL
    expect_identical(small, ref, label = nm)
    double <- run("double", TRUE)
    attr(double, "precision") <- NULL
    expect_identical(double, ref, label = nm)
  }
})

test_that("single precision is really used where the BLAS has sgemm", {
  skip_if_not(prdcurve:::engine_has_sgemm(),
              "the BLAS has no sgemm: the engine runs in double precision only")
  cases <- precision_cases()
  for (nm in names(cases)) {
    expect_identical(precision_used(cases[[nm]][[1]], cases[[nm]][[2]]),
                     "single", label = nm)
    expect_identical(precision_used(cases[[nm]][[1]], cases[[nm]][[2]],
                                    "double"), "double")
  }
  # the default is single precision
  withr::local_options(prdcurve.precision = NULL)
  x <- cases$offset[[1]]
  y <- cases$offset[[2]]
  s <- list(fit = list(seq_len(nrow(x)), seq_len(nrow(y))), eval = NULL)
  expect_identical(
    attr(prdcurve:::engine_neighbours(x, y, s, 3, "knn"), "precision"),
    "single")
})

test_that("a window too wide for the data falls back to double precision", {
  skip_if_not(prdcurve:::engine_has_sgemm(),
              "the BLAS has no sgemm: the engine runs in double precision only")
  set.seed(402)
  real <- matrix(rnorm(60 * 20), 60, 20)
  # a generated set far away from the real one, whose spread sets the
  # scale of the distances: the window would hold most pairs
  far <- matrix(rnorm(60 * 20), 60, 20) + 1e4
  expect_identical(precision_used(real, far), "double")
  expect_same_in_both(manifold_metrics, real, far, k = c(2, 5))
  # all rows equal: nothing to gain, double
  flat <- matrix(1, 30, 4)
  expect_identical(precision_used(flat, flat), "double")
})

test_that("options(prdcurve.precision) is validated", {
  quiet_traps({
    real <- matrix(rnorm(40), 20)
    withr::local_options(prdcurve.precision = "half")
    expect_error(prd_curve(real, real, method = "knn", k = 2),
                 class = "prdcurve_error_input")
    withr::local_options(prdcurve.precision = c("double", "single"))
    expect_error(manifold_metrics(real, real, k = 2),
                 class = "prdcurve_error_input")
    withr::local_options(prdcurve.precision = 1)
    expect_error(entropy_metrics(real, real, k = 2),
                 class = "prdcurve_error_input")
  })
})

test_that("OpenBLAS's sgemm, and only it, adds the coordinate blocks", {
  # with OpenBLAS (whose thread count the engine can set) its sgemm adds
  # each block of 256 coordinates to the tile (beta = 1); with any other
  # BLAS the engine sums the blocks itself
  skip_if_not(prdcurve:::engine_has_sgemm(), "the BLAS has no sgemm")
  openblas <- !is.na(prdcurve:::engine_blas_threads())
  expect_identical(prdcurve:::engine_blas_adds(), openblas)
})

test_that("long tiles of several coordinate blocks (chunked sums) match double precision", {
  # more than R_CHUNK = 1,024 reference rows and d > 256 (several sgemm
  # blocks summed in float chunk by chunk, products.c; a partial last
  # block; the blocks added by OpenBLAS's sgemm, beta = 1, or by the
  # engine), ties included
  skip_on_cran()
  skip_if_not(prdcurve:::engine_has_sgemm(),
              "the BLAS has no sgemm: the engine runs in double only")
  for (d in c(300, 700)) {
    set.seed(402)
    real <- matrix(sample(0:2, 2600 * d, TRUE) + 0, ncol = d)
    gen <- matrix(rnorm(2400 * d, 1, 0.6), ncol = d)
    s <- list(fit = list(1:1300, 1:1200), eval = list(1301:2600, 1201:2400))
    run <- function(precision, blas_sum = TRUE) {
      withr::local_options(prdcurve.precision = precision)
      prdcurve:::local_engine_knobs(blas_sum = blas_sum)
      prdcurve:::engine_neighbours(real, gen, s, c(2, 8),
                                   c("own", "query_all", "knn", "coverage", "ipr"))
    }
    single <- run("single")
    # the blocks added by the engine instead of by OpenBLAS's sgemm
    own_sum <- run("single", FALSE)
    double <- run("double")
    expect_identical(attr(single, "precision"), "single")
    expect_identical(attr(own_sum, "precision"), "single")
    attributes(single)[c("exact", "threads", "precision")] <- NULL
    attributes(own_sum)[c("exact", "threads", "precision")] <- NULL
    attributes(double)[c("exact", "threads", "precision")] <- NULL
    expect_identical(single, double)
    expect_identical(own_sum, double)
  }
})
