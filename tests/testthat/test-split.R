# The one resolved split (new_split()) and its uses: models share the real
# split, and half-samples of the replicates keep a split given as rows.

test_that("a split is resolved to one typed object", {
  s0 <- resolve_split(0, 5, 4)
  expect_s3_class(s0, "prdcurve_split")
  expect_identical(s0$split, 0)
  expect_null(s0$eval)
  expect_identical(s0$fit, list(1:5, 1:4))
  sr <- resolve_split(list(real = c(5, 2), generated = 1), 6, 4)
  expect_identical(sr$split, "rows")
  expect_identical(sr$eval, list(c(2L, 5L), 1L))
  expect_identical(sr$fit, list(c(1L, 3L, 4L, 6L), 2:4))
  set.seed(1)
  sf <- resolve_split(0.5, 10, 8)
  expect_identical(sf$split, 0.5)
  expect_identical(sort(c(sf$fit[[1]], sf$eval[[1]])), 1:10)
  expect_length(sf$eval[[2]], 4L)
})

test_that("the *_samples() functions share the real split between models", {
  set.seed(2)
  real <- matrix(rnorm(60 * 2), ncol = 2)
  gens <- list(a = matrix(rnorm(50 * 2), ncol = 2),
               b = matrix(rnorm(50 * 2, 1), ncol = 2))
  set.seed(3)
  ms <- manifold_samples(real, gens, k = 3, split = 0.5)
  rows_a <- ms$row[ms$model == "a" & ms$set == "real"]
  rows_b <- ms$row[ms$model == "b" & ms$set == "real"]
  expect_identical(rows_a, rows_b)
  # and the same split as manifold_metrics() draws (paired models)
  set.seed(3)
  sp <- resolve_model_splits(0.5, real, gens)
  expect_identical(unique(rows_a), sp$a$eval[[1]])
  expect_identical(sp$a$eval[[1]], sp$b$eval[[1]])
  set.seed(3)
  es <- entropy_samples(real, gens, k = 3, split = 0.5)
  expect_identical(unique(es$row[es$model == "a" & es$set == "real"]),
                   unique(es$row[es$model == "b" & es$set == "real"]))
  # precision per model equals the metric with the same split
  for (m in names(gens)) {
    g <- ms[ms$model == m & ms$set == "generated", ]
    set.seed(3)
    v <- manifold_metrics(real, gens, k = 3, split = 0.5,
                          metrics = "precision")
    expect_identical(mean(g$in_manifold), v$value[v$model == m])
  }
})

test_that("a split given as rows with replicates: each half keeps the evaluation rows in it", {
  set.seed(4)
  real <- matrix(rnorm(40 * 2), ncol = 2)
  gen <- matrix(rnorm(40 * 2, 0.5), ncol = 2)
  rows <- list(real = 31:40, generated = 31:40)
  # a half holds rows 2, 5, 31, 33, 36, 40 of real: its evaluation rows are
  # the positions of 31, 33, 36, 40
  half <- c(2L, 5L, 31L, 33L, 36L, 40L)
  sub <- structure(real[half, ], prdcurve_rows = half)
  gsub <- structure(gen[1:35, ], prdcurve_rows = 1:35)
  sp <- resolve_model_splits(rows, sub, list(g = gsub))$g
  expect_identical(sp$eval, list(3:6, 31:35))
  expect_identical(sp$fit, list(1:2, 1:30))
  # end to end: the replicates' values are the metric on each half with
  # the rows that fall in it (the halves drawn as run_replicates() draws
  # them)
  set.seed(5)
  m <- manifold_metrics(real, gen, k = 2, split = rows, replicates = 2,
                        metrics = "precision")
  reps <- attr(m, "replicates")
  set.seed(5)
  px <- sample.int(40)
  pg <- sample.int(40)
  for (side in 1:2) {
    h <- function(p) sort(if (side == 1L) p[1:20] else p[-(1:20)])
    hx <- h(px)
    hg <- h(pg)
    ev <- list(real = which(hx %in% 31:40), generated = which(hg %in% 31:40))
    one <- manifold_metrics(real[hx, ], gen[hg, ], k = 2, split = ev,
                            metrics = "precision")
    expect_identical(reps$value[reps$replicate == side], one$value)
  }
  # a half without any evaluation row of a set: a classed error saying why
  expect_error(
    manifold_metrics(real, gen, k = 2, replicates = 2,
                     split = list(real = 40, generated = 40)),
    class = "prdcurve_error_split")
})
