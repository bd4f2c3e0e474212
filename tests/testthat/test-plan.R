# The engine's planner (src/neighbours.c, nb_plan_make()): which sweeps a
# request runs, and that a call's metrics, k values and models share them.

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
