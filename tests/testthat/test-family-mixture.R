# The mixture family (R/family-mixture.R): against the true log-likelihood
# ratio of well-separated mixtures, its choices, its folds against the
# plain formulas (helper-mixture.R), and its arguments.

test_that("the score is the true log-likelihood ratio of separated mixtures", {
  # one dimension: two modes 10 apart, reweighted; near each mode the true
  # log ratio is log(0.8 / 0.5) or log(0.2 / 0.5) (measured over seeds 1-4:
  # within 0.047)
  set.seed(1)
  n <- 3000
  x <- matrix(c(rnorm(n / 2, -5), rnorm(n / 2, 5)))
  y <- matrix(c(rnorm(0.8 * n, -5), rnorm(0.2 * n, 5)))
  f <- fit_mixture(x, y, seq_len(n), seq_len(n))
  z <- matrix(c(-5.5, -5, -4.5, 4.5, 5, 5.5))
  truth <- log(rep(c(0.8, 0.2), each = 3) / 0.5)
  expect_lt(max(abs(f$score(z) - truth)), 0.06)
  # (2 components chosen, refitted with 4: mixture_refit_candidate())
  expect_equal(unname(f$settings$components), c(4, 4))
  f2 <- fit_mixture(x, y, seq_len(n), seq_len(n), step_up = FALSE)
  expect_equal(unname(f2$settings$components), c(2, 2))
  expect_lt(max(abs(f2$score(z) - truth)), 0.06)
  # two dimensions: three clusters, reweighted and one spread changed
  set.seed(22)
  x <- three(4000)
  y <- three(4000, w = c(0.6, 0.3, 0.1))
  z <- x[3001:4000, ]
  lr <- three_logdens(z, c(0.6, 0.3, 0.1)) - three_logdens(z, c(1, 1, 1))
  state <- .Random.seed
  for (up in c(TRUE, FALSE)) {
    assign(".Random.seed", state, globalenv())
    f <- fit_mixture(x, y, 1:3000, 1:3000, components = 1:6, step_up = up)
    err <- f$score(z) - lr
    expect_lt(mean(abs(err)), 0.08)
    expect_gt(cor(f$score(z), lr), 0.99)
    # 3 chosen; the refits take 6, twice as many (tried: the grid is 1:6)
    expect_equal(unname(f$settings$components), if (up) c(6, 6) else c(3, 3))
  }
})

test_that("the number of components follows the clusters the ratio needs", {
  # four clusters at the corners of a square, the generated set thinning
  # one diagonal pair (an exclusive-or pattern: no one or two spherical or
  # diagonal Gaussians per set follow it); 4, or 5 when a cluster is split
  xor4 <- function(n, w) {
    comp <- sample(4, n, replace = TRUE, prob = w)
    cbind(rnorm(n, c(-6, 6, -6, 6)[comp]), rnorm(n, c(-6, 6, 6, -6)[comp]))
  }
  for (seed in 1:3) {
    set.seed(seed)
    x <- xor4(1500, c(1, 1, 1, 1))
    y <- xor4(1500, c(1, 1, 0.25, 0.25))
    f <- fit_mixture(x, y, 1:1500, 1:1500, components = 1:8,
                     means = c("tied", "separate"), step_up = FALSE)
    expect_true(all(f$settings$components %in% 4:5))
  }
  # where a single Gaussian per set ranks the rows as well (three
  # clusters, one thinned), the choice may be that simpler one; with Q = P
  # it is 1 component and the score 0 (below)
})

test_that("mixture16 is the mixture fitted with 16 low-rank components, without a choice", {
  set.seed(31)
  x <- three(1200)
  y <- three(1200, w = c(0.6, 0.3, 0.1))
  cells <- rep(list(list(1:600, 601:900, 901:1200)), 2)
  entry <- prdcurve:::family_env$entries[["mixture16"]]
  a <- withr::with_seed(9, entry$cells(x, y, cells))
  b <- withr::with_seed(9, mixture_cells(x, y, cells, components = 16,
                                         forms = "lowrank", step_up = FALSE))
  expect_identical(a, b)
  expect_equal(unname(a$settings$components), c(16, 16))
  expect_equal(unname(a$settings$covariance), rep(mixture_forms[["lowrank"]], 2))
  # 16 components on 600 fit rows a set of three clusters follow the log
  # ratio on the evaluation rows, with more noise than the chosen mixture
  # (8 components here): correlation 0.88 against 0.96, mean error 0.25
  # against 0.16 (seeds 31-33: 0.87-0.88 and 0.25-0.29; the chosen one
  # 0.83-0.98 and 0.10-0.29, 2 components at seed 32); in the default its
  # curve counts only where it is the tighter
  lr <- function(z) three_logdens(z, c(0.6, 0.3, 0.1)) - three_logdens(z, c(1, 1, 1))
  truth <- c(lr(x[601:1200, ]), lr(y[601:1200, ]))
  m <- withr::with_seed(9, prdcurve:::family_env$entries[["mixture"]]$cells(x, y, cells))
  expect_equal(unname(m$settings$components), c(8, 8))
  expect_gt(cor(c(a$real, a$gen), truth), 0.85)
  expect_lt(mean(abs(c(a$real, a$gen) - truth)), 0.3)
  expect_gt(cor(c(m$real, m$gen), truth), cor(c(a$real, a$gen), truth) + 0.05)
  expect_lt(mean(abs(c(m$real, m$gen) - truth)), mean(abs(c(a$real, a$gen) - truth)) - 0.05)
})

test_that("the refits take the most components tried up to twice the choice", {
  spec <- data.frame(kind = c("tied", "tied", "tied", "tied", "tied", "tied", "real"),
                     K = c(1, 2, 4, 8, 3, 6, 16),
                     form = c("spherical", "spherical", "spherical", "spherical",
                              "lowrank", "lowrank", "spherical"))
  up <- function(i) mixture_refit_candidate(spec, i)
  # (rows of spec) spherical tied: K 1 -> 2, 2 -> 4, 4 -> 8; 8 has none
  # above (16 is another kind)
  expect_equal(vapply(1:4, up, 1), c(2, 3, 4, 4))
  # low-rank tied: 3 -> 6 (of its form, not the spherical 4 or 8); 6 stays
  expect_equal(c(up(5), up(6)), c(6, 6))
  expect_equal(up(7), 7)
  expect_identical(up(NA_integer_), NA_integer_)
  # twice the choice not tried: 4 chosen, 5 and 16 tried, 5 taken
  spec2 <- data.frame(kind = "tied", K = c(4, 5, 16), form = "spherical")
  expect_equal(mixture_refit_candidate(spec2, 1L), 2L)
})

test_that("scores do not change under a common affine map, even near overflow", {
  set.seed(31)
  x <- three(600)
  y <- three(600, w = c(1, 2, 1), sd = 1.2)
  s0 <- withr::with_seed(5, fit_mixture(x, y, 1:400, 1:400))$score(x, 401:600)
  for (a in c(1e-3, 1e99, 1e300)) {
    f <- withr::with_seed(5, fit_mixture(x * a + 7 * a, y * a + 7 * a,
                                         1:400, 1:400))
    s <- f$score(x * a + 7 * a, 401:600)
    expect_true(all(is.finite(s)))
    expect_equal(s, s0, tolerance = 1e-6)
  }
})

test_that("score(Z, rows) reads the rows of Z; settings are named numbers", {
  set.seed(41)
  x <- three(300)
  y <- three(300, w = c(2, 1, 1))
  f <- fit_mixture(x, y, 1:200, 1:200, components = c(1, 3))
  expect_equal(f$score(x, 201:300), f$score(x[201:300, ]))
  expect_equal(f$score(y, c(5L, 1L)), f$score(y[c(5, 1), ]))
  expect_true(all(vapply(f$settings, is.numeric, TRUE)))
  expect_named(f$settings$components, c("real", "generated"))
  expect_true(f$settings$covariance[["real"]] %in% mixture_forms)
  # integer matrices are read as doubles
  xi <- round(x * 100)
  storage.mode(xi) <- "integer"
  fi <- withr::with_seed(1, fit_mixture(xi, y * 100, 1:200, 1:200))
  fd <- withr::with_seed(1, fit_mixture(round(x * 100), y * 100, 1:200, 1:200))
  expect_equal(fi$score(xi, 201:210), fd$score(round(x * 100), 201:210))
})

test_that("Q = P gives one component and a score of 0", {
  set.seed(51)
  x <- three(600)
  f <- fit_mixture(x, x, 1:600, 1:600)
  expect_equal(f$score(three(50)), rep(0, 50), tolerance = 1e-8)
})

test_that("bad arguments are classed errors naming the argument", {
  x <- matrix(rnorm(40), 20)
  expect_error(fit_mixture(x, x, 1:10, 1:10, components = 0),
               class = "prdcurve_error_input", regexp = "components")
  expect_error(fit_mixture(x, x, 1:10, 1:10, components = 2.5),
               class = "prdcurve_error_input")
  expect_error(fit_mixture(x, x, 1:10, 1:10, forms = "full"),
               class = "prdcurve_error_input", regexp = "forms")
  expect_error(fit_mixture(x, x, 1:10, 1:10, means = "shared"),
               class = "prdcurve_error_input", regexp = "means")
  expect_error(fit_mixture(x, x, 1:10, 1:10, restarts = 0),
               class = "prdcurve_error_input", regexp = "restarts")
  expect_error(fit_mixture(x, x, 1:3, 1:10), class = "prdcurve_error_split")
})

test_that("permuting the rows gives the same scores under a fixed seed", {
  set.seed(71)
  x <- three(500)
  y <- three(500, w = c(1, 3, 1), sd = 1.1)
  px <- sample(500)
  py <- sample(500)
  ex <- 401:500
  f0 <- withr::with_seed(9, fit_mixture(x, y, 1:400, 1:400))
  # the same fit rows, at other positions and in another order
  f1 <- withr::with_seed(9, fit_mixture(x[px, ], y[py, ], rev(order(px)[1:400]),
                                        order(py)[1:400]))
  expect_identical(f1$score(x[ex, ]), f0$score(x[ex, ]))
  expect_identical(f1$settings, f0$settings)
  g0 <- withr::with_seed(9, fit_smooth_marginal(x, y, 1:400, 1:400))
  g1 <- withr::with_seed(9, fit_smooth_marginal(x[px, ], y[py, ],
                                                order(px)[1:400],
                                                rev(order(py)[1:400])))
  expect_identical(g1$score(y[ex, ]), g0$score(y[ex, ]))
})

test_that("each fold's mixtures are one EM step on the other cells from the fit rows' fits", {
  set.seed(17)
  x <- three(300)
  y <- three(300, w = c(3, 1, 1))
  # cells: the fit rows, then three folds of the evaluation rows
  cells <- lapply(1:2, function(j) {
    list(1:120, 121:180, 181:240, 241:300)
  })
  got <- withr::with_seed(5, mixture_cells(x, y, cells, components = c(1, 3)))
  f <- withr::with_seed(5, fit_mixture(x, y, 1:120, 1:120,
                                       components = c(1, 3), keep_fits = TRUE))
  expect_true(f$tied)
  # fold v: the posterior under each refit of f on the other cells' rows
  # (plain formulas), one tied M-step, the mean log ratio of the refits
  want <- lapply(1:3, function(v) {
    tr <- unlist(cells[[1]][-(v + 1L)])
    sets <- list(mixture_rows(x, tr, f$transform),
                 mixture_rows(y, tr, f$transform))
    fl <- lapply(sets, function(A) {
      1e-3 * apply(A, 2, function(u) mean((u - mean(u))^2))
    })
    score <- function(z) {
      z <- mixture_rows(z, NULL, f$transform)
      rowMeans(sapply(f$fits, function(m) {
        R <- lapply(1:2, function(j) {
          brute_posterior(brute_comp_logdens(sets[[j]], m[[j]]$weights,
                                             m[[j]]$means, m[[j]]$var, TRUE))
        })
        b <- brute_tied_step(sets, R, lapply(m, `[[`, "var"), fl)
        ld <- lapply(1:2, function(j) {
          log(rowSums(exp(brute_comp_logdens(z, b$weights[[j]], b$means,
                                             b$var[[j]], TRUE))))
        })
        ld[[2]] - ld[[1]]
      }))
    }
    list(score(x[cells[[1]][[v + 1L]], ]), score(y[cells[[2]][[v + 1L]], ]))
  })
  expect_equal(got$real, unlist(lapply(want, `[[`, 1L)), tolerance = 1e-8)
  expect_equal(got$gen, unlist(lapply(want, `[[`, 2L)), tolerance = 1e-8)
  # a fold's rows are in none of its fits: moved, they are scored by the
  # same fits as before (the fit rows' and the other folds' rows)
  x2 <- x
  x2[181:240, ] <- x2[181:240, ] + 0.5
  g2 <- withr::with_seed(5, mixture_cells(x2, y, cells, components = c(1, 3)))
  ff <- mixture_fold_fits(x, y, cells, f)
  expect_equal(g2$real[61:120],
               mixture_score(ff[[2]], f$transform)(x2, 181:240),
               tolerance = 1e-12)
  expect_false(isTRUE(all.equal(g2$real[1:60], got$real[1:60])))
  # separate means, each set its own form: one M-step of each set's own
  # mixture from the E-step on the other cells' rows
  fs <- withr::with_seed(3, fit_mixture(x, y, 1:120, 1:120, components = c(1, 3),
                                        forms = c("spherical", "diagonal"),
                                        means = "separate", keep_fits = TRUE))
  expect_false(fs$tied)
  ffs <- mixture_fold_fits(x, y, cells, fs)
  tr <- unlist(cells[[2]][-2L])
  Z <- mixture_rows(y, tr, fs$transform)
  m2 <- fs$fits[[1]][[2]]
  fl <- 1e-3 * apply(Z, 2, function(u) mean((u - mean(u))^2))
  one <- mixture_mstep(mixture_estep(m2, Z), m2$form, fl, ncol(Z))
  for (p in c("weights", "means", "var")) {
    expect_equal(ffs[[1]][[1]][[2]][[p]], one[[p]], tolerance = 1e-8)
  }
  # by blocks of 7 rows (the cells of 60 and 120 rows cut in 9 and 18):
  # the same fits, their sums added; the default block at 300 x 4 is one
  # block a cell (4,096 rows up to d = 256, 256 rows at d = 4,096)
  expect_identical(vapply(c(4, 256, 512, 1024, 4096, 1e5), mixture_block, 1L),
                   c(4096L, 4096L, 2048L, 1024L, 256L, 256L))
  for (fit in list(f, fs)) {
    a <- mixture_fold_fits(x, y, cells, fit)
    b <- mixture_fold_fits(x, y, cells, fit, block = 7L)
    expect_equal(b, a, tolerance = 1e-12)
    expect_false(identical(b, a))
  }
  # the fit rows' model is the choice: three components, as the data
  expect_equal(got$settings$components[["real"]], 3)
  expect_true(all(got$settings$iterations > 0))
  # without fit rows: each fold chooses and fits on the other cells alone
  cells0 <- lapply(1:2, function(j) list(integer(), 1:150, 151:300))
  g0 <- withr::with_seed(6, mixture_cells(x, y, cells0, components = c(1, 3)))
  w0 <- withr::with_seed(6, {
    f1 <- fit_mixture(x, y, 151:300, 151:300, components = c(1, 3))
    s1 <- f1$score(x, 1:150)
    f2 <- fit_mixture(x, y, 1:150, 1:150, components = c(1, 3))
    c(s1, f2$score(x, 151:300))
  })
  expect_equal(g0$real, w0, tolerance = 1e-12)
})

test_that("with fit_rows, the EM runs on a random sample of the fit rows and the folds' step on every row", {
  set.seed(18)
  x <- three(400)
  y <- three(400, w = c(3, 1, 1))
  cells <- lapply(1:2, function(j) list(1:200, 201:300, 301:400))
  # at least as many as the fit rows: no draw, the same scores
  a <- withr::with_seed(4, mixture_cells(x, y, cells, components = c(1, 3)))
  b <- withr::with_seed(4, mixture_cells(x, y, cells, components = c(1, 3),
                                         fit_rows = 200))
  expect_identical(b, a)
  # fewer: the choice and refits on 80 rows a set drawn with R's RNG, each
  # fold one EM step from them on every row of the other cells (the fit
  # rows' 200 included), as mixture_fold_fits() forms it
  got <- withr::with_seed(4, mixture_cells(x, y, cells, components = c(1, 3),
                                           fit_rows = 80))
  want <- withr::with_seed(4, {
    sub <- lapply(1:2, function(j) sort(sample.int(200, 80)))
    f <- fit_mixture(x, y, sub[[1]], sub[[2]], components = c(1, 3),
                     keep_fits = TRUE)
    ff <- mixture_fold_fits(x, y, cells, f)
    list(real = c(mixture_score(ff[[1]], f$transform)(x, 201:300),
                  mixture_score(ff[[2]], f$transform)(x, 301:400)),
         gen = c(mixture_score(ff[[1]], f$transform)(y, 201:300),
                 mixture_score(ff[[2]], f$transform)(y, 301:400)))
  })
  expect_equal(got$real, want$real, tolerance = 1e-12)
  expect_equal(got$gen, want$gen, tolerance = 1e-12)
  expect_false(isTRUE(all.equal(got$real, a$real)))
  expect_identical(got$settings$fit_rows, c(real = 80, generated = 80))
  expect_identical(a$settings$fit_rows, c(real = 200, generated = 200))
})
