# The engine's contract (R/engine.R, src/neighbours.c, src/products.c ...): the
# estimator table R learns from C, classed engine errors, exactness under a
# common offset, interrupts.

engine_table <- function() prdcurve:::engine_estimators()
nb_call <- function(...) prdcurve:::engine_neighbours(...)

test_that("the estimator table lists every quantity with its shape", {
  tab <- engine_table()
  expect_s3_class(tab, "data.frame")
  expect_identical(names(tab), c("name", "outputs", "rows", "columns",
                                 "type", "needs", "radius"))
  expect_false(anyDuplicated(tab$name) > 0)
  expect_false(anyDuplicated(unlist(tab$outputs)) > 0)
  # the estimators the package's functions use (new rows may be added)
  used <- c("own", "query_x", "query_y", "query_all", "knn", "coverage",
            "ipr", "kde", "ppr", "hub")
  t9 <- tab[match(used, tab$name), ]
  expect_identical(t9$name, used)
  expect_identical(unlist(t9$outputs),
                   c("own_x", "own_y", "query_x", "query_y", "query_all",
                     "knn_a", "knn_b", "coverage_a", "coverage_b", "ipr_a",
                     "ipr_b", "kde_a", "kde_b", "ppr_a", "ppr_b", "hub"))
  expect_identical(t9$rows, c("fit", rep("evaluation", 8), "hits"))
  expect_identical(t9$columns, c(rep("k", 8), "one", "k"))
  expect_identical(t9$type, c(rep("double", 4), rep("integer", 4), "double",
                              "integer"))
  expect_identical(t9$radius, c(rep(NA, 7), "kde", "ppr", NA))
  expect_identical(t9$needs, list("radius_own", "radius_x", "radius_y",
                                  "radius_all", "radius_all",
                                  c("radius_x", "radius_y"), "own_radii",
                                  character(), character(), "radius_all"))
  expect_true(all(tab$rows %in% c("fit", "evaluation", "hits")))
  expect_true(all(tab$columns %in% c("k", "one")))
  expect_true(all(tab$type %in% c("integer", "double")))
  expect_true(all(lengths(tab$outputs) %in% 1:2))
})

test_that("each estimator's outputs have the shape its table row states", {
  set.seed(301)
  real <- matrix(rnorm(23 * 3), ncol = 3)
  generated <- matrix(rnorm(19 * 3, mean = 0.5), ncol = 3)
  tab <- engine_table()
  all_names <- c(unlist(tab$outputs), "kde_radius", "ppr_radius")
  ks <- c(2L, 4L)
  splits <- list(
    none = list(fit = list(1:23, 1:19), eval = NULL),
    split = list(fit = list(1:12, 1:10), eval = list(13:23, 11:19))
  )
  for (sp in splits) {
    n_fit <- lengths(sp$fit)
    n_eval <- if (is.null(sp$eval)) sum(n_fit) else sum(lengths(sp$eval))
    for (e in seq_len(nrow(tab))) {
      # a fixed radius pair: estimated for kde and ppr, given otherwise
      radii <- if (!is.na(tab$radius[e]) && !tab$radius[e] %in% c("kde", "ppr")) {
        stats::setNames(list(c(0.5, 0.7)), tab$radius[e])
      } else {
        list()
      }
      nb <- nb_call(real, generated, sp, ks, tab$name[e], bandwidth_k = 2,
                    ppr_k = 2, ppr_scale = 1.2, radii = radii)
      expect_identical(names(nb), all_names)
      outs <- tab$outputs[[e]]
      for (p in seq_along(outs)) {
        m <- nb[[outs[p]]]
        rows <- switch(tab$rows[e], fit = n_fit[[p]], hits = sum(n_fit),
                       n_eval)
        cols <- if (tab$columns[e] == "k") length(ks) else 1L
        expect_identical(dim(m), c(rows, cols))
        expect_identical(typeof(m), tab$type[e])
      }
      # nothing else is computed, except the own radii an estimator needs
      # (and those the derived radii of kde and ppr are taken from)
      own_too <- "own_radii" %in% tab$needs[[e]] ||
        tab$radius[e] %in% c("kde", "ppr")
      others <- setdiff(unlist(tab$outputs), c(outs, if (own_too) c("own_x", "own_y")))
      expect_true(all(vapply(nb[others], is.null, TRUE)))
    }
  }
})

test_that("fixed radius pairs: explicit, estimated, and through `radii`", {
  set.seed(302)
  real <- matrix(rnorm(30 * 2), ncol = 2)
  generated <- matrix(rnorm(25 * 2), ncol = 2)
  s <- list(fit = list(1:30, 1:25), eval = NULL)
  a <- nb_call(real, generated, s, 3, "kde", bandwidth = c(0.5, 0.8))
  b <- nb_call(real, generated, s, 3, "kde", radii = list(kde = c(0.5, 0.8)))
  expect_identical(a$kde_radius, c(0.5, 0.8))
  expect_identical(a$kde_a, b$kde_a)
  expect_identical(a$kde_b, b$kde_b)
  est <- nb_call(real, generated, s, c(3, 5), "kde", bandwidth_k = 5)
  own <- nb_call(real, generated, s, 5, "own")
  expect_identical(est$kde_radius,
                   c(mean(sqrt(own$own_x[, 1])), mean(sqrt(own$own_y[, 1]))))
  expect_identical(dim(est$own_x), c(30L, 2L))
  expect_identical(est$ppr_radius, c(NA_real_, NA_real_))
  # brute force of the counts
  d2 <- as.matrix(dist(rbind(real, generated)))^2
  r2 <- est$kde_radius^2
  # one bandwidth pair: the same counts in every k column
  expect_identical(est$kde_a[, 1], est$kde_a[, 2])
  expect_identical(est$kde_a[, 1], as.integer(rowSums(d2[, 1:30] <= r2[1])))
  expect_identical(est$kde_b[, 1], as.integer(rowSums(d2[, 31:55] <= r2[2])))
  # a bandwidth pair per k, in one sweep: column j as a call at k = ks[j]
  per_k <- nb_call(real, generated, s, c(3, 5), "kde", bandwidth_k = c(3, 5))
  expect_identical(dim(per_k$kde_radius), c(2L, 2L))
  for (j in 1:2) {
    one <- nb_call(real, generated, s, c(3, 5)[j], "kde",
                   bandwidth_k = c(3, 5)[j])
    expect_identical(per_k$kde_a[, j], one$kde_a[, 1])
    expect_identical(per_k$kde_b[, j], one$kde_b[, 1])
    expect_identical(per_k$kde_radius[, j], one$kde_radius)
  }
  expect_error(nb_call(real, generated, s, c(3, 5), "kde",
                       bandwidth_k = c(3, 4)), class = "prdcurve_error_engine")
})

test_that("engine errors are classed and keep the C message", {
  set.seed(303)
  real <- matrix(rnorm(10 * 2), ncol = 2)
  generated <- matrix(rnorm(10 * 2), ncol = 2)
  bad <- list(fit = list(1:11, 1:10), eval = NULL)
  cnd <- expect_error(nb_call(real, generated, bad, 1, "knn"),
                      class = "prdcurve_error_engine")
  expect_s3_class(cnd, "prdcurve_error")
  expect_s3_class(cnd$parent, "simpleError")
  expect_identical(conditionMessage(cnd$parent), "row index out of range")
  s <- list(fit = list(1:10, 1:10), eval = NULL)
  expect_error(nb_call(real, generated, s, 20, "knn"),
               class = "prdcurve_error_engine")
  expect_error(nb_call(real, generated, s, 1, "kde", bandwidth = c(1, Inf)),
               class = "prdcurve_error_engine")
  expect_error(nb_call(real, generated, s, 1, "nonesuch"),
               class = "prdcurve_error_engine")
  expect_error(nb_call(real, generated, s, 1, "kde"),
               class = "prdcurve_error_engine")
  env <- expect_error(prdcurve:::engine_envelope(numeric(), 1, NULL, 1),
                      class = "prdcurve_error_engine")
  expect_match(conditionMessage(env$parent), "empty evaluation set")
  # the error is reported from the caller of engine_neighbours()
  f <- function() prdcurve:::engine_neighbours(real, generated, bad, 1, "knn")
  expect_identical(rlang::catch_cnd(f(), "error")$call, quote(f()))
})

test_that("a common offset of 1e6 changes nothing and needs few exact recomputations", {
  set.seed(304)
  n <- 200
  real <- matrix(rnorm(n * 4), ncol = 4)
  generated <- matrix(rnorm(n * 4, mean = 0.4), ncol = 4)
  # the same points, exactly representable after a shift by 1e6
  x0 <- (real + 1e6) - 1e6
  y0 <- (generated + 1e6) - 1e6
  x6 <- x0 + 1e6
  y6 <- y0 + 1e6
  expect_identical(x6 - 1e6, x0)
  for (sp in list(0, 0.5)) {
    set.seed(5)
    a <- prd_curve(x0, y0, split = sp, angles = 101, method = c("knn", "kde", "ipr", "coverage"))
    set.seed(5)
    b <- prd_curve(x6, y6, split = sp, angles = 101, method = c("knn", "kde", "ipr", "coverage"))
    # (the same curves; the real sets' fingerprints differ, their values do)
    fp <- function(x) attr(x, "curves")$real_set
    expect_false(identical(fp(a), fp(b)))
    attr(b, "curves")$real_set <- fp(a)
    expect_identical(a, b)
  }
  m0 <- manifold_metrics(x0, y0, k = c(3, 5))
  m6 <- manifold_metrics(x6, y6, k = c(3, 5))
  ppr <- m0$metric %in% c("p_precision", "p_recall")
  expect_identical(m6[!ppr, ], m0[!ppr, ])
  expect_equal(m6$value[ppr], m0$value[ppr], tolerance = 1e-12)
  expect_identical(entropy_metrics(x6, y6), entropy_metrics(x0, y0))

  # on continuous data without near-ties, the plain offset gives the same
  # curve (the data themselves move by at most 6e-11)
  set.seed(5)
  a <- prd_curve(real, generated, split = 0, angles = 101, method = c("knn", "kde", "ipr", "coverage"))
  set.seed(5)
  b <- prd_curve(real + 1e6, generated + 1e6, split = 0, angles = 101, method = c("knn", "kde", "ipr", "coverage"))
  expect_identical(a$precision, b$precision)
  expect_identical(a$recall, b$recall)
  expect_equal(attr(a, "bandwidth"), attr(b, "bandwidth"), tolerance = 1e-8)

  # exact recomputations stay rare: about one per radius and row (the
  # selected k-th neighbour itself), not one per pair
  s <- list(fit = list(seq_len(n), seq_len(n)), eval = NULL)
  what <- c("knn", "coverage", "ipr", "kde")
  e0 <- attr(nb_call(x0, y0, s, 14, what, bandwidth_k = 14), "exact")
  e6 <- attr(nb_call(x6, y6, s, 14, what, bandwidth_k = 14), "exact")
  pairs <- (2 * n)^2
  expect_lt(e0, 0.02 * pairs)
  expect_lt(e6, 0.02 * pairs)
  expect_lte(e6, 1.2 * e0)
})

test_that("p_precision and p_recall survive an offset of 1e8", {
  set.seed(305)
  real <- matrix(rnorm(150 * 3), ncol = 3)
  generated <- matrix(rnorm(150 * 3, mean = 0.3), ncol = 3)
  met <- c("p_precision", "p_recall")
  for (sp in list(0, 0.5)) {
    set.seed(6)
    far <- manifold_metrics(real + 1e8, generated + 1e8, metrics = met,
                            split = sp)
    set.seed(6)
    near <- manifold_metrics((real + 1e8) - 1e8, (generated + 1e8) - 1e8,
                             metrics = met, split = sp)
    expect_true(all(far$value >= 0 & far$value <= 1))
    expect_equal(far$value, near$value, tolerance = 1e-12)
    expect_identical(attr(far, "ppr_radius"), attr(near, "ppr_radius"))
  }
})

test_that("an interrupt inside the engine stays an interrupt", {
  skip_on_cran()
  skip_on_os("windows")
  lib <- dirname(system.file(package = "prdcurve"))
  script <- tempfile(fileext = ".R")
  on.exit(unlink(script), add = TRUE)
  writeLines(c(
    "library(prdcurve)",
    "set.seed(1)",
    "x <- matrix(rnorm(20000 * 50), ncol = 50)",
    "y <- matrix(rnorm(20000 * 50), ncol = 50)",
    "system(sprintf('(sleep 0.5; kill -INT %d) >/dev/null 2>&1 &', Sys.getpid()))",
    "r <- tryCatch(prd_curve(x, y, split = 0, method = 'knn'),",
    "  interrupt = function(e) 'interrupt',",
    "  error = function(e) paste(class(e), collapse = ' '))",
    "cat(if (is.character(r)) r else 'finished')"
  ), script)
  out <- system2(file.path(R.home("bin"), "Rscript"), script, stdout = TRUE,
                 stderr = FALSE,
                 env = paste0("R_LIBS=", paste(c(lib, .libPaths()),
                                               collapse = .Platform$path.sep)))
  if (identical(out, "finished")) skip("the call ended before the interrupt")
  expect_identical(out, "interrupt")
})

# the engine with options set, attributes dropped
nb_with <- function(opts, thr, ...) {
  prdcurve:::local_engine_knobs(opts)
  set0 <- prdcurve:::thread_info()[["set"]]
  prd_threads(thr)
  on.exit(prd_threads(set0), add = TRUE)
  r <- prdcurve:::engine_neighbours(...)
  attr(r, "exact") <- NULL
  attr(r, "threads") <- NULL
  r
}

test_that("own radii from symmetric tiles equal the full sweep's, ties and offsets included", {
  skip_on_cran()
  set.seed(311)
  for (d in c(1L, 4L, 30L)) {
    n <- 700
    ints <- list(matrix(sample(0:3, n * d, TRUE) + 0, n, d),
                 matrix(sample(0:3, 500 * d, TRUE) + 0, 500, d))
    cont <- list(matrix(rnorm(n * d), n, d),
                 matrix(rnorm(500 * d, 0.3), 500, d))
    for (dat in list(ints, lapply(ints, `+`, 1e6), cont)) {
      real <- dat[[1]]
      gen <- dat[[2]]
      ks <- c(3L, 10L, 25L)
      splits <- list(
        list(fit = list(1:300, 1:250), eval = list(301:n, 251:500)),
        list(fit = list(seq_len(n), 1:500), eval = NULL)
      )
      for (s in splits) {
        for (w in list(list("own"), list(c("ipr", "knn", "coverage")),
                       list("kde", bandwidth_k = 10L))) {
          args <- c(list(real, gen, s, ks), w)
          full <- do.call(nb_with, c(list(list(symmetric = FALSE), 2L),
                                     args))
          # default buffers, and buffers so small that near-tie rows go
          # back to the full-row engine; 1 and 2 threads
          for (cfg in list(list(0L, 2L), list(0L, 1L), list(27L, 2L),
                           list(30L, 1L))) {
            o <- list(symmetric = TRUE, own_buffer = cfg[[1]])
            expect_identical(do.call(nb_with, c(list(o, cfg[[2]]), args)), full)
          }
        }
      }
    }
  }
  # and against the brute force
  real <- matrix(sample(0:2, 300 * 3, TRUE) + 0, ncol = 3)
  s <- list(fit = list(1:300, integer()), eval = NULL)
  r <- prdcurve:::engine_neighbours(real, real[0, , drop = FALSE], s, 7, "own")
  d2 <- sq_dist(real, real)
  expect_identical(r$own_x[, 1],
                   vapply(1:300, function(i) kth_skip(d2[i, ], 7, i), 0))
})

test_that("without a split, Y_f's ppr sums are partial sums per block of X_f added in order, which a block of X_f gives alone", {
  set.seed(318)
  B <- prdcurve:::engine_ppr_block()
  expect_identical(B, 1024L)
  nx <- 2L * B + 300L
  real <- matrix(rnorm(nx * 4), ncol = 4)
  gen <- matrix(rnorm(500 * 4, 0.3), ncol = 4)
  fy <- seq_len(500)
  s <- list(fit = list(seq_len(nx), fy), eval = NULL)
  own <- prdcurve:::engine_call(real, gen, s, 3L, "own")[c("own_x", "own_y")]
  R <- c(1.1, 1.3) # ppr radii (distances) of the balls of X_f and Y_f
  what <- c("ipr", "coverage", "ppr")
  full <- prdcurve:::engine_call(real, gen, s, 3L, what, own = own,
                                 radii = list(ppr = R), cross = TRUE,
                                 ppr_parts = TRUE)
  parts <- attr(full, "ppr_parts")
  expect_identical(dim(parts), c(500L, 3L))
  total <- numeric(500)
  for (j in 1:3) total <- total + parts[, j]
  expect_identical(full$ppr_a[nx + fy, 1], total)
  # each part: the sum over its block of log(dist / R_a) within R_a
  dist <- sqrt(sq_dist(gen, real))
  blk <- (seq_len(nx) - 1L) %/% B + 1L
  for (j in 1:3) {
    dj <- dist[, blk == j]
    expect_equal(parts[, j], rowSums(ifelse(dj < R[1], log(dj / R[1]), 0)),
                 tolerance = 1e-12)
  }
  # the rows of X_f from the second block on, alone: the same parts, and
  # the same sums of their own rows
  b <- (B + 1L):nx
  tail <- prdcurve:::engine_call(real, gen, list(fit = list(b, fy), eval = NULL),
                                 3L, what,
                                 own = list(own[[1]][b, , drop = FALSE], own[[2]]),
                                 radii = list(ppr = R), cross = TRUE,
                                 ppr_parts = TRUE)
  expect_identical(attr(tail, "ppr_parts"), parts[, 2:3])
  expect_identical(tail$ppr_b[seq_along(b), 1], full$ppr_b[b, 1])
  # without ppr_parts no attribute; the sums the same
  plain <- prdcurve:::engine_call(real, gen, s, 3L, what, own = own,
                                  radii = list(ppr = R), cross = TRUE)
  expect_null(attr(plain, "ppr_parts"))
  expect_identical(plain$ppr_a, full$ppr_a)
  # the futures' blocks start at multiples of the block
  bl <- prdcurve:::engine_blocks(seq_len(nx), 2L, align = B)
  expect_identical(vapply(bl, `[`, 0L, 1L), c(1L, 2L * B + 1L))
  expect_identical(unlist(bl), seq_len(nx))
  expect_identical(prdcurve:::engine_blocks(1:10, 3L),
                   list(1:4, 5:7, 8:10))
})

test_that("from d = 128 on, the ppr pairs' exact distances come from the blocked pass, the same values", {
  set.seed(319)
  # 127 coordinates (row by row) and the same with a zero coordinate added
  # (128: the blocked pass): every distance is the same sum, plus 0
  n1 <- 530
  n2 <- 470
  real <- matrix(rnorm(n1 * 127), n1)
  gen <- matrix(rnorm(n2 * 127, 0.05), n2)
  gen[1:20, ] <- real[1:20, ]
  s <- list(fit = list(seq_len(n1), seq_len(n2)), eval = NULL)
  run <- function(x, y, threads) {
    old <- prd_threads(threads)
    on.exit(prd_threads(old))
    r <- prdcurve:::engine_neighbours(x, y, s, c(3L, 5L),
                                      c("ipr", "coverage", "ppr"), ppr_k = 4L,
                                      ppr_scale = 1.2, cross = TRUE)
    attr(r, "exact") <- NULL
    attr(r, "threads") <- NULL
    r
  }
  rows <- run(real, gen, 2L)
  blocked <- run(cbind(real, 0), cbind(gen, 0), 2L)
  expect_identical(blocked, rows)
  expect_identical(run(cbind(real, 0), cbind(gen, 0), 1L), blocked)
  # and against the brute force
  dist <- sqrt(sq_dist(gen, real))
  R <- rows$ppr_radius
  expect_equal(rows$ppr_a[n1 + seq_len(n2), 1],
               rowSums(ifelse(dist < R[1], log(dist / R[1]), 0)),
               tolerance = 1e-12)
})

test_that("the cross sweep (no split: X_f x Y_f once) equals the full sweep", {
  set.seed(312)
  for (d in c(1L, 4L, 30L)) {
    n1 <- 600
    n2 <- 450
    for (off in c(0, 1e6)) {
      real <- matrix(sample(0:3, n1 * d, TRUE) + 0, n1, d) + off
      gen <- matrix(sample(0:3, n2 * d, TRUE) + 0, n2, d) + off
      s <- list(fit = list(seq_len(n1), seq_len(n2)), eval = NULL)
      ix <- seq_len(n1)
      iy <- n1 + seq_len(n2)
      args <- list(real, gen, s, c(3L, 10L), c("ipr", "coverage", "ppr"),
                   ppr_k = 4L, ppr_scale = 1.3)
      full <- do.call(nb_with, c(list(list(), 2L), args))
      c2 <- do.call(nb_with, c(list(list(), 2L), args, cross = TRUE))
      c1 <- do.call(nb_with, c(list(list(), 1L), args, cross = TRUE))
      expect_identical(c1, c2)
      for (e in c("ipr", "coverage")) {
        a <- paste0(e, "_a")
        b <- paste0(e, "_b")
        expect_identical(c2[[b]][ix, ], full[[b]][ix, ])
        expect_identical(c2[[a]][iy, ], full[[a]][iy, ])
        expect_true(all(is.na(c2[[a]][ix, ])) && all(is.na(c2[[b]][iy, ])))
      }
      expect_equal(c2$ppr_b[ix], full$ppr_b[ix], tolerance = 1e-12)
      expect_equal(c2$ppr_a[iy], full$ppr_a[iy], tolerance = 1e-12)
    }
  }
  expect_error(prdcurve:::engine_neighbours(
    real, gen, list(fit = list(1:10, 1:10), eval = list(11:20, 11:20)),
    3L, "ipr", cross = FALSE), NA)
  expect_error(prdcurve:::engine_call(real, gen, s, 3L, "knn", cross = TRUE),
               class = "prdcurve_error_engine")
})

test_that("radii without a split (entropies: X x Y once) equal the full sweep's", {
  skip_on_cran()
  set.seed(314)
  what <- c("query_x", "query_y")
  lattice <- function(n, d, v = 0:3) matrix(sample(v, n * d, TRUE) + 0, n, d)
  g <- function(n, d, m = 0) matrix(rnorm(n * d, m), n, d)
  dup <- g(150, 5)
  cases <- list(
    gauss = list(g(620, 6), g(410, 6, 0.4)),
    lattice = list(lattice(600, 3), lattice(450, 3)),
    lattice_offset = list(lattice(600, 3) + 1e6, lattice(450, 3) + 1e6),
    duplicated = list(dup[rep(1:150, 3), ], rbind(dup[1:100, ], g(200, 5))),
    d1 = list(lattice(500, 1, 0:40), g(380, 1, 3)),
    # near-tie rows and plain rows: small buffers overflow for some rows
    mixed = list(rbind(lattice(300, 3, 0:4), g(300, 3, 2) * 2),
                 rbind(lattice(200, 3, 0:4), g(250, 3, 2) * 2))
  )
  ks <- c(1L, 3L, 10L)
  for (nm in names(cases)) {
    real <- cases[[nm]][[1]]
    gen <- cases[[nm]][[2]]
    s <- list(fit = list(seq_len(nrow(real)), seq_len(nrow(gen))), eval = NULL)
    full <- nb_with(list(symmetric = FALSE), 2L, real, gen, s, ks,
                    what)
    expect_identical(dim(full$query_x), c(nrow(real) + nrow(gen), 3L))
    # default buffers, and buffers small enough that near-tie rows go back
    # to the full-row engine (all of them at 12 = kmax + 2); 1 and 2 threads
    for (cfg in list(list(0L, 2L), list(0L, 1L), list(12L, 2L),
                     list(24L, 1L), list(40L, 2L))) {
      o <- list(symmetric = TRUE, own_buffer = cfg[[1]])
      expect_identical(nb_with(o, cfg[[2]], real, gen, s, ks, what), full,
                       label = paste(nm, cfg[[1]], cfg[[2]]))
    }
    # one of the two, and with the own radii (the same numbers)
    sym <- list(symmetric = TRUE)
    qx <- nb_with(sym, 2L, real, gen, s, ks, "query_x")
    qy <- nb_with(sym, 2L, real, gen, s, ks, "query_y")
    expect_identical(qx$query_x, full$query_x)
    expect_null(qx$query_y)
    expect_identical(qy$query_y, full$query_y)
    own <- nb_with(sym, 1L, real, gen, s, ks, c("own", what))
    expect_identical(own[what], full[what])
    ix <- seq_len(nrow(real))
    iy <- nrow(real) + seq_len(nrow(gen))
    expect_identical(own$own_x, full$query_x[ix, ])
    expect_identical(own$own_y, full$query_y[iy, ])
  }

  # against the brute force, at the largest k the sizes allow (buffers as
  # large as a row: never compacted)
  real <- lattice(40, 2)
  gen <- lattice(25, 2) + 0.5
  s <- list(fit = list(1:40, 1:25), eval = NULL)
  r <- prdcurve:::engine_neighbours(real, gen, s, c(2L, 24L), what)
  dxx <- sq_dist(real, real)
  dxy <- sq_dist(real, gen)
  dyy <- sq_dist(gen, gen)
  for (j in 1:2) {
    k <- c(2L, 24L)[j]
    expect_identical(r$query_x[, j], c(
      vapply(1:40, function(i) kth_skip(dxx[i, ], k, i), 0),
      vapply(1:25, function(i) kth_skip(dxy[, i], k), 0)))
    expect_identical(r$query_y[, j], c(
      vapply(1:40, function(i) kth_skip(dxy[i, ], k), 0),
      vapply(1:25, function(i) kth_skip(dyy[i, ], k, i), 0)))
  }
})

test_that("radii without a split: 2 threads really run, and the results match 1", {
  skip_on_cran()
  old <- prd_threads(2)
  on.exit(prd_threads(old), add = TRUE)
  if (prd_threads() < 2) {
    skip(paste0("fewer than 2 threads can run here (at most ",
                prdcurve:::thread_info()[["max"]], ")"))
  }
  set.seed(315)
  real <- matrix(sample(0:3, 700 * 4, TRUE) + 0, ncol = 4)
  gen <- rbind(matrix(sample(0:3, 300 * 4, TRUE) + 0, ncol = 4),
               matrix(rnorm(300 * 4, 1.5), ncol = 4))
  s <- list(fit = list(1:700, 1:600), eval = NULL)
  run <- function(n, buf = 0L) {
    prdcurve:::local_engine_knobs(symmetric = TRUE, own_buffer = buf)
    prd_threads(n)
    prdcurve:::engine_neighbours(real, gen, s, c(1L, 3L, 10L),
                                 c("query_x", "query_y"))
  }
  for (buf in c(0L, 30L)) {
    one <- run(1L, buf)
    two <- run(2L, buf)
    expect_identical(attr(one, "threads"), 1L)
    expect_identical(attr(two, "threads"), 2L)
    expect_identical(attr(two, "exact"), attr(one, "exact"))
    attr(one, "threads") <- attr(two, "threads") <- NULL
    expect_identical(two, one)
  }
})

test_that("several models share the real set's own radii, with results identical to one call per model", {
  quiet_traps({
    set.seed(313)
    real <- matrix(sample(0:4, 400 * 3, TRUE) + 0, ncol = 3)
    gens <- list(a = matrix(sample(0:4, 300 * 3, TRUE) + 0, ncol = 3),
                 b = matrix(rnorm(350 * 3, 2), ncol = 3),
                 c = real[sample(400, 380), ] + 0.5)
    # the engine: with and without the cache, split and no split
    sh <- prdcurve:::engine_shared()
    for (g in gens) {
      sp <- list(fit = list(1:250, seq_len(200)),
                 eval = list(251:400, 201:nrow(g)))
      s0 <- list(fit = list(1:400, seq_len(nrow(g))), eval = NULL)
      for (args in list(
        list(sp, c(3L, 9L), c("ipr", "knn", "coverage")),
        list(sp, 9L, "kde", bandwidth_k = 9L),
        list(s0, 9L, "kde", bandwidth_k = 9L),
        list(s0, c(3L, 9L), c("ipr", "coverage", "ppr"), ppr_k = 4L,
             ppr_scale = 1.2, cross = TRUE)
      )) {
        one <- do.call(prdcurve:::engine_neighbours, c(list(real, g), args))
        two <- do.call(prdcurve:::engine_neighbours,
                       c(list(real, g), args, shared = sh))
        attr(one, "exact") <- attr(two, "exact") <- NULL
        attr(one, "threads") <- attr(two, "threads") <- NULL
        expect_identical(two, one)
      }
    }
    # one entry per (real fit rows, k): 250 rows at k = 3, 9; at k = 9;
    # all 400 rows at k = 9 and k = 3, 4, 9
    expect_length(sh$entries, 4L)

    # the user-facing functions
    m_all <- manifold_metrics(real, gens, k = c(3, 5))
    for (nm in names(gens)) {
      m1 <- manifold_metrics(real, gens[[nm]], k = c(3, 5))
      expect_identical(m_all$value[m_all$model == nm], m1$value)
    }
    ev <- list(real = 301:400, generated = 1:100)
    cv_all <- prd_curve(real, gens, split = ev, angles = 51, k = 7,
                        method = c("knn", "kde", "ipr", "coverage"))
    for (nm in names(gens)) {
      cv1 <- prd_curve(real, gens[[nm]], split = ev, angles = 51, k = 7,
                       method = c("knn", "kde", "ipr", "coverage"))
      sel <- cv_all$model == nm
      expect_identical(cv_all$precision[sel], cv1$precision)
      expect_identical(cv_all$recall[sel], cv1$recall)
    }
  })
})

test_that("evaluation rows given with their fit positions (self_rows) are left out of their own balls as without a split", {
  set.seed(317)
  # ties (a grid): radii and counts decided at the windows
  real <- matrix(sample(0:4, 260 * 3, TRUE) + 0, ncol = 3)
  gen <- matrix(sample(0:4, 230 * 3, TRUE) + 0.5, ncol = 3)
  fit <- list(c(3:200, 240:260), 11:220)
  nfx <- length(fit[[1]])
  nF <- nfx + length(fit[[2]])
  what <- c("knn", "coverage", "ipr", "kde", "query_x", "query_y",
            "query_all")
  ks <- c(1L, 4L, 9L)
  own <- prdcurve:::engine_call(real, gen, list(fit = fit, eval = NULL), ks,
                                "own")[c("own_x", "own_y")]
  for (closed in c(TRUE, FALSE)) {
    whole <- prdcurve:::engine_call(real, gen, list(fit = fit, eval = NULL),
                                    ks, what, own = unname(own),
                                    radii = list(kde = c(1, 1.5)),
                                    closed = closed)
    # one block of fit positions (rows of both sets, out of order within
    # the fit rows' list is not allowed: X_f's first, then Y_f's)
    p <- c(5:40, nfx + 1:30, nfx + 150:160)
    px <- p[p <= nfx]
    py <- p[p > nfx] - nfx
    part <- prdcurve:::engine_call(
      real, gen, list(fit = fit, eval = list(fit[[1]][px], fit[[2]][py]),
                      self_rows = p),
      ks, what, own = unname(own), radii = list(kde = c(1, 1.5)),
      closed = closed)
    for (o in c("knn_a", "knn_b", "coverage_a", "coverage_b", "ipr_a",
                "ipr_b", "kde_a", "kde_b", "query_x", "query_y",
                "query_all")) {
      expect_identical(part[[o]], whole[[o]][p, , drop = FALSE])
    }
  }
  expect_error(prdcurve:::engine_call(
    real, gen, list(fit = fit, eval = list(1:3, 1:2), self_rows = 1:4), ks,
    "knn"), class = "prdcurve_error_engine")
})

test_that("prd_curve(k = c(5, 9), method = \"kde\") is one sweep with the curves of each k", {
  quiet_traps({
    set.seed(315)
    real <- matrix(sample(0:3, 300 * 2, TRUE) + 0, ncol = 2)
    gen <- matrix(sample(0:4, 280 * 2, TRUE) + 0, ncol = 2)
    ev <- list(real = 201:300, generated = 181:280)
    both <- prd_curve(real, gen, k = c(5, 9), method = "kde", split = ev,
                      angles = 41)
    for (kk in c(5, 9)) {
      one <- prd_curve(real, gen, k = kk, method = "kde", split = ev, angles = 41)
      sel <- both$k == kk
      expect_identical(both$precision[sel], one$precision)
      expect_identical(both$recall[sel], one$recall)
    }
  })
})

test_that("radii from the sampled threshold and from the two sets' candidates equal the brute force", {
  # prd_kth() takes its threshold from a strided sample of a long row
  # range (n >= 8 kmax) and falls back to the heap when the sample misses;
  # radii in X_f u Y_f come from the candidates of the X_f and Y_f
  # selections when both are computed (prd_kth_union()).
  set.seed(313)
  d <- 4
  gauss <- list(matrix(rnorm(1500 * d), ncol = d),
                matrix(rnorm(1200 * d, 0.4), ncol = d))
  # a tight cluster of 60 consecutive rows in each set: a strided sample
  # mostly misses the nearest neighbours of the cluster's rows
  clus <- gauss
  clus[[1]][301:360, ] <- matrix(rnorm(60 * d, 5, 0.01), ncol = d)
  clus[[2]][801:860, ] <- matrix(rnorm(60 * d, 5, 0.01), ncol = d)
  # exact ties everywhere: the window around the threshold is crowded
  ties <- list(matrix(sample(0:2, 1500 * d, TRUE) + 0, ncol = d),
               matrix(sample(0:2, 1200 * d, TRUE) + 0, ncol = d))
  ks <- c(1L, 7L, 40L)
  for (dat in list(gauss, clus, ties)) {
    real <- dat[[1]]
    gen <- dat[[2]]
    s <- list(fit = list(1:1000, 1:700), eval = list(1001:1500, 701:1200))
    z <- rbind(real[1001:1500, ], gen[701:1200, ])
    dx <- sq_dist(z, real[1:1000, ])
    dy <- sq_dist(z, gen[1:700, ])
    kth_rows <- function(m) t(apply(m, 1, function(v) sort(v)[ks]))
    both <- prdcurve:::engine_neighbours(real, gen, s, ks,
                                         c("query_x", "query_y", "query_all"))
    alone <- prdcurve:::engine_neighbours(real, gen, s, ks, "query_all")
    expect_identical(unname(both$query_x), unname(kth_rows(dx)))
    expect_identical(unname(both$query_y), unname(kth_rows(dy)))
    expect_identical(unname(both$query_all), unname(kth_rows(cbind(dx, dy))))
    expect_identical(alone$query_all, both$query_all)
  }
})

test_that("scratch kept between engine calls changes no result and can be released", {
  set.seed(314)
  big <- list(matrix(rnorm(1500 * 300), ncol = 300),
              matrix(rnorm(1500 * 300, 0.2), ncol = 300))
  small <- list(matrix(sample(0:3, 700 * 3, TRUE) + 0, ncol = 3),
                matrix(sample(0:3, 600 * 3, TRUE) + 0, ncol = 3))
  run <- function(dat, n) {
    s <- list(fit = list(1:n, 1:n), eval = list((n + 1):(2 * n), (n + 1):(2 * n)))
    prdcurve:::engine_neighbours(dat[[1]], dat[[2]], s, c(2L, 9L),
                                 c("own", "knn", "coverage", "ipr", "query_all"))
  }
  prdcurve:::engine_scratch(release = TRUE)
  fresh_small <- run(small, 300)
  fresh_big <- run(big, 700)
  # the slots now hold the big call's blocks (well over 1 MiB)
  held <- prdcurve:::engine_scratch()
  expect_gt(held, 2^22)
  # a small call reuses them (stale contents must not matter), and a big
  # call after it again
  expect_identical(run(small, 300), fresh_small)
  expect_identical(run(big, 700), fresh_big)
  expect_identical(prdcurve:::engine_scratch(), held)
  # released at the end of a call under keep_scratch = FALSE
  old <- options(prdcurve.keep_scratch = FALSE)
  on.exit(options(old), add = TRUE)
  expect_identical(run(big, 700), fresh_big)
  expect_identical(prdcurve:::engine_scratch(), 0)
})

test_that("a call keeps the C library's freed memory while it runs, and gives it back after", {
  st <- prdcurve:::run_state
  expect_false(st$memory_held)
  glibc <- isTRUE(.Call(ffi_memory_hold, TRUE))
  expect_false(.Call(ffi_memory_hold, FALSE))
  # the Linux machines the package is checked on run glibc (but under
  # AddressSanitizer, whose allocator ignores mallopt(): nothing is held)
  if (Sys.info()[["sysname"]] == "Linux" && !nzchar(Sys.getenv("ASAN_OPTIONS"))) {
    expect_true(glibc)
  }
  seen <- NULL
  outer <- function() {
    a <- prdcurve:::local_memory_hold()
    # a nested call neither holds again nor gives the memory back
    b <- (function() prdcurve:::local_memory_hold())()
    seen <<- c(a, b, st$memory_held)
  }
  outer()
  expect_identical(seen, c(glibc, FALSE, glibc))
  expect_false(st$memory_held)
  # given back: releasing again reports nothing held
  expect_false(.Call(ffi_memory_hold, FALSE))
  # held for a whole curve, and on an error too
  set.seed(3)
  x <- matrix(rnorm(400), 100)
  here <- environment()
  trace(prdcurve:::fitted_scores,
        bquote(assign("seen", prdcurve:::run_state$memory_held, envir = .(here))),
        print = FALSE, where = asNamespace("prdcurve"))
  on.exit(untrace(prdcurve:::fitted_scores, where = asNamespace("prdcurve")),
          add = TRUE)
  seen <- NA
  prd_curve(x, x + 1, method = "linear")
  expect_identical(seen, glibc)
  expect_false(st$memory_held)
  expect_error(prd_curve(x, x[, 1:3], method = "linear"))
  expect_false(.Call(ffi_memory_hold, FALSE))
  # not under keep_scratch = FALSE
  old <- options(prdcurve.keep_scratch = FALSE)
  on.exit(options(old), add = TRUE)
  seen <- NA
  prd_curve(x, x + 1, method = "linear")
  expect_false(seen)
})

test_that("the AVX2 compactions and the cross sweep's products per column block give the generic paths' results", {
  # vector = FALSE: the candidates of every selection and of the
  # cross sweep's bound found one value at a time; block_products
  # = FALSE: the cross sweep's products formed per tile; blas_sum
  # = FALSE: the float blocks summed by the engine, not by OpenBLAS's
  # sgemm (beta = 1). Ties (self rows
  # at distance 0 among the candidates, crowded windows), an offset, both
  # precisions of the products (d = 64: float, one block; d = 300: float
  # in blocks, the tile), one and two threads.
  set.seed(318)
  paths <- list(list(), list(vector = FALSE),
                list(block_products = FALSE),
                list(vector = FALSE, block_products = FALSE),
                list(blas_sum = FALSE))
  for (d in c(3L, 64L, 300L)) {
    n1 <- 700
    n2 <- 520
    real <- matrix(sample(0:2, n1 * d, TRUE) + 0, n1, d)
    gen <- matrix(rnorm(n2 * d), n2, d)
    gen[1:200, ] <- real[1:200, ] # copies: exact ties across the sets
    if (d == 64L) {
      real <- real + 1e3
      gen <- gen + 1e3
    }
    none <- list(fit = list(seq_len(n1), seq_len(n2)), eval = NULL)
    half <- list(fit = list(1:400, 1:300), eval = list(401:n1, 301:n2))
    for (thr in 1:2) {
      runs <- lapply(paths, function(o) list(
        cross = nb_with(o, thr, real, gen, none, c(2L, 9L),
                        c("ipr", "coverage", "ppr"), ppr_k = 4L,
                        ppr_scale = 1.2, cross = TRUE),
        none = nb_with(o, thr, real, gen, none, c(2L, 9L),
                       c("query_x", "query_y", "query_all", "knn", "ipr")),
        half = nb_with(o, thr, real, gen, half, c(1L, 30L), bandwidth_k = 5L,
                       c("knn", "kde", "ipr", "coverage", "query_all"))))
      for (r in runs[-1]) expect_identical(r, runs[[1]])
    }
    # and the radii of the fit rows without a split equal the brute force
    # (each row left out of its own set)
    dx <- sq_dist(real, real)
    diag(dx) <- Inf
    kth <- function(m, k) apply(m, 1, function(v) sort(v)[k])
    expect_identical(unname(runs[[1]]$none$query_x[seq_len(n1), 2]),
                     kth(dx, 9L))
  }
})

test_that("the centre and norm statistics found once give the engine's own choices", {
  set.seed(11)
  x <- matrix(rnorm(150 * 24, 3), 150)
  y <- matrix(rnorm(140 * 24, 3.2, 1.1), 140)
  s <- list(fit = list(1:75, 1:70), eval = list(76:150, 71:140))
  shared <- engine_shared()
  p <- engine_prep(x, y, "single", shared)
  # the centre is the real set's column means; the statistics are the
  # largest and the sum of each set's squared norms about it
  expect_equal(p$centre, colMeans(x), tolerance = 1e-14)
  nx <- rowSums(sweep(x, 2, colMeans(x))^2)
  ny <- rowSums(sweep(y, 2, colMeans(x))^2)
  expect_equal(p$real, c(max(nx), sum(nx)), tolerance = 1e-12)
  expect_equal(p$generated, c(max(ny), sum(ny)), tolerance = 1e-12)
  # the real set's part is kept for the next model
  expect_identical(shared$prep$centre, p$centre)
  y2 <- y[1:100, ] * 0.9
  p2 <- engine_prep(x, y2, "single", shared)
  expect_identical(p2$centre, p$centre)
  expect_identical(p2$real, p$real)
  # given or found by the engine: the same outputs, the same precision and
  # the same exact recomputations (so the same scale of the float products)
  for (prec in c("single", "double")) {
    pp <- engine_prep(x, y, prec)
    if (prec == "double") expect_true(all(is.na(pp$real)))
    est <- c("knn", "ipr", "coverage", "query_x")
    a <- engine_call(x, y, s, c(3L, 5L), est, precision = prec)
    b <- engine_call(x, y, s, c(3L, 5L), est, precision = prec, prep = pp)
    expect_identical(b, a)
  }
  # a wrong prep is an engine error, not a wrong answer
  expect_error(engine_call(x, y, s, 3L, "knn",
                           prep = list(centre = 1:3, real = 1, generated = 1)),
               class = "prdcurve_error_engine")
})

test_that("the planner's sweeps for each estimator combination", {
  plan <- function(est, self = TRUE, cross = FALSE, own = 0L) {
    paste(engine_plan(est, self, cross, own), collapse = " ")
  }
  # estimators, evaluation rows = fit rows, cross mode, own radii given
  # (0 none, 1 real, 2 both), sweeps
  table <- tibble::tribble(
    ~est,                        ~self, ~cross, ~own, ~sweeps,
    "own",                        TRUE,  FALSE,  0L, "symmetric:real symmetric:generated",
    "own",                        TRUE,  FALSE,  1L, "symmetric:generated",
    "own",                        TRUE,  FALSE,  2L, "",
    "own",                        TRUE,  TRUE,   0L, "symmetric:real symmetric:generated",
    "own",                        FALSE, FALSE,  0L, "symmetric:real symmetric:generated",
    "ipr",                        TRUE,  FALSE,  0L, "full",
    "ipr",                        TRUE,  FALSE,  1L, "symmetric:generated full",
    "ipr",                        TRUE,  TRUE,   0L, "symmetric:real symmetric:generated cross-decide",
    "ipr",                        TRUE,  TRUE,   1L, "symmetric:generated cross-decide",
    "ipr",                        TRUE,  TRUE,   2L, "cross-decide",
    "ipr",                        FALSE, FALSE,  0L, "symmetric:real symmetric:generated full",
    "ipr",                        FALSE, FALSE,  2L, "full",
    "coverage",                   TRUE,  FALSE,  0L, "full",
    "coverage",                   TRUE,  TRUE,   0L, "symmetric:real symmetric:generated cross-decide",
    "coverage",                   FALSE, FALSE,  0L, "full",
    "ppr",                        TRUE,  TRUE,   0L, "cross-decide",
    "ppr",                        FALSE, FALSE,  0L, "full",
    "ipr+coverage+ppr",           TRUE,  TRUE,   0L, "symmetric:real symmetric:generated cross-decide",
    "ipr+coverage+ppr",           TRUE,  TRUE,   2L, "cross-decide",
    "ipr+coverage+ppr",           FALSE, FALSE,  1L, "symmetric:generated full",
    "knn+kde+ipr+coverage",       TRUE,  FALSE,  0L, "full",
    "knn+kde+ipr+coverage",       FALSE, FALSE,  0L, "symmetric:real symmetric:generated full",
    "knn+kde+ipr+coverage",       FALSE, FALSE,  2L, "full",
    "query_x+query_y",            TRUE,  FALSE,  0L, "symmetric:real symmetric:generated cross-radii",
    "query_x+query_y",            TRUE,  FALSE,  2L, "cross-radii",
    "query_x+query_y",            FALSE, FALSE,  0L, "full",
    "own+query_x+query_y",        TRUE,  FALSE,  1L, "symmetric:generated cross-radii",
    "own+query_x+query_y",        FALSE, FALSE,  0L, "symmetric:real symmetric:generated full",
    "query_all",                  TRUE,  FALSE,  0L, "full",
    "knn",                        FALSE, FALSE,  2L, "full"
  )
  got <- vapply(seq_len(nrow(table)), function(i) {
    plan(strsplit(table$est[i], "+", fixed = TRUE)[[1]], table$self[i],
         table$cross[i], table$own[i])
  }, "")
  expect_identical(got, table$sweeps)
  # estimators without a cross sweep are refused in cross mode
  expect_error(plan(c("knn", "ipr"), cross = TRUE), "no cross-set sweep")
  expect_error(plan("query_x", cross = TRUE), "no cross-set sweep")
})

test_that("the sweeps a call runs are the planner's, counted by the engine", {
  set.seed(1)
  x <- matrix(rnorm(60 * 3), 60)
  y <- matrix(rnorm(50 * 3), 50)
  s <- list(fit = list(1:60, 1:50), eval = NULL)
  engine_sweeps(reset = TRUE)
  engine_call(x, y, s, 3L, c("own", "query_x", "query_y"))
  n <- engine_sweeps(reset = TRUE)
  expect_identical(names(n)[n > 0],
                   engine_plan(c("own", "query_x", "query_y")))
  expect_true(all(n[n > 0] == 1))
})

test_that("every metric, k and model of a call shares one plan", {
  set.seed(2)
  x <- matrix(rnorm(80 * 4), 80)
  y <- matrix(rnorm(70 * 4, 0.2), 70)
  y2 <- matrix(rnorm(70 * 4, -0.2), 70)
  count <- function(expr) {
    engine_sweeps(reset = TRUE)
    force(expr)
    n <- engine_sweeps(reset = TRUE)
    n[n > 0]
  }
  one <- c("symmetric:real" = 1, "symmetric:generated" = 1,
           "cross-decide" = 1)
  # all eleven metrics at three k, no split: each pair set once (the two
  # own sets symmetrically, X_f x Y_f once)
  expect_identical(count(manifold_metrics(x, y, k = c(2, 3, 5))), one)
  # one metric alone needs no fewer sweeps than eleven, and no more
  expect_identical(count(manifold_metrics(x, y, metrics = "precision")), one)
  expect_identical(count(manifold_metrics(x, y, metrics = "p_recall")),
                   one[c("symmetric:real", "symmetric:generated",
                         "cross-decide")])
  # two models: the real set's own radii once, each model's pairs once
  expect_identical(count(manifold_metrics(x, list(a = y, b = y2), k = 3)),
                   c("symmetric:real" = 1, "symmetric:generated" = 2,
                     "cross-decide" = 2))
  # with a split: own radii of the fit sets, one evaluation sweep a model
  expect_identical(count(manifold_metrics(x, list(a = y, b = y2), k = 3,
                                          split = 0.5)),
                   c("symmetric:real" = 1, "symmetric:generated" = 2,
                     "full" = 2))
})

test_that("the four curves take both sets' own radii from one engine call", {
  set.seed(3)
  x <- matrix(rnorm(120 * 4), 120)
  y <- matrix(rnorm(110 * 4, 0.3), 110)
  y2 <- matrix(rnorm(110 * 4, -0.3), 110)
  m <- c("knn", "kde", "ipr", "coverage")
  calls <- new.env()
  calls$n <- 0L
  suppressMessages(trace("engine_call", where = asNamespace("prdcurve"),
                         print = FALSE,
                         tracer = bquote(assign("n", .(calls)$n + 1L,
                                                envir = .(calls)))))
  on.exit(suppressMessages(untrace("engine_call",
                                   where = asNamespace("prdcurve"))))
  count <- function(expr) {
    calls$n <- 0L
    engine_sweeps(reset = TRUE)
    force(expr)
    n <- engine_sweeps(reset = TRUE)
    list(calls = calls$n, sweeps = n[n > 0])
  }
  # the kde bandwidths need the own radii first: one call finds both
  # sets' (two symmetric sweeps), one more runs the evaluation sweep
  set.seed(4)
  one <- count(a <- prd_curve(x, y, method = m, k = 5, split = 0.5,
                              repeats = 1))
  expect_identical(one$calls, 2L)
  expect_identical(one$sweeps, c("symmetric:real" = 1, "symmetric:generated" = 1,
                                 "full" = 1))
  # a second model takes the real set's from the first: its own call
  # sweeps its own set only
  set.seed(4)
  two <- count(b <- prd_curve(x, list(a = y, b = y2), method = m, k = 5,
                              split = 0.5, repeats = 1))
  expect_identical(two$calls, 4L)
  expect_identical(two$sweeps, c("symmetric:real" = 1,
                                 "symmetric:generated" = 2, "full" = 2))
  # the same curves as the model alone (same split: the real set's is
  # drawn first, then the model's)
  expect_identical(b$precision[b$model == "a"], a$precision)
  expect_identical(b$recall[b$model == "a"], a$recall)
})

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
      expect_same_in_both(prd_curve, real, gen, method = "kde",
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
