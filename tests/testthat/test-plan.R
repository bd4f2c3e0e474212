# The engine's planner (src/plan.c, nb_plan_make()): which sweeps a
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
  one <- count(a <- prd_curve(x, y, method = m, k = 5, split = 0.5))
  expect_identical(one$calls, 2L)
  expect_identical(one$sweeps, c("symmetric:real" = 1, "symmetric:generated" = 1,
                                 "full" = 1))
  # a second model takes the real set's from the first: its own call
  # sweeps its own set only
  set.seed(4)
  two <- count(b <- prd_curve(x, list(a = y, b = y2), method = m, k = 5,
                              split = 0.5))
  expect_identical(two$calls, 4L)
  expect_identical(two$sweeps, c("symmetric:real" = 1,
                                 "symmetric:generated" = 2, "full" = 2))
  # the same curves as the model alone (same split: the real set's is
  # drawn first, then the model's)
  expect_identical(b$precision[b$model == "a"], a$precision)
  expect_identical(b$recall[b$model == "a"], a$recall)
})

test_that("recipe (inst/ARCHITECTURE.md): a ball-count metric is one registry row", {
  # the recipe's example: the share of generated samples inside at least
  # two real k-NN balls, from the engine's "ipr" counts
  env <- environment(manifold_metrics)
  old <- get("manifold_registry", env)
  row <- manifold_metric("two_balls", "ipr", function(q) share(q$ipr_gen, 2),
                         "share of generated samples in two real balls")
  unlockBinding("manifold_registry", env)
  assign("manifold_registry", c(old, list(two_balls = row)), envir = env)
  on.exit({
    assign("manifold_registry", old, envir = env)
    lockBinding("manifold_registry", env)
  }, add = TRUE)
  set.seed(7)
  x <- matrix(rnorm(90 * 3), ncol = 3)
  y <- matrix(rnorm(80 * 3, 0.4), ncol = 3)
  m <- manifold_metrics(x, y, k = c(2, 4), metrics = c("two_balls", "precision"))
  # brute force: real own radii, then the balls holding each generated row
  dxx <- sq_dist(x, x)
  dyx <- sq_dist(y, x)
  want <- vapply(c(2, 4), function(k) {
    r2 <- vapply(seq_len(nrow(x)), function(i) kth_skip(dxx[i, ], k, i), 0)
    mean(rowSums(sweep(dyx, 2, r2, `<=`)) >= 2)
  }, 0)
  expect_identical(m$value[m$metric == "two_balls"], want)
  expect_identical(m$k[m$metric == "two_balls"], c(2L, 4L))
  # it is a metric like the others: listed, requested from the engine in
  # the same plan, bounded (intervals) by its row
  expect_true("two_balls" %in% manifold_metric_names())
  expect_identical(manifold_bounds("two_balls"), c(0, 1))
  engine_sweeps(reset = TRUE)
  manifold_metrics(x, y, k = 2, metrics = c("two_balls", "coverage"))
  n <- engine_sweeps(reset = TRUE)
  expect_identical(n[n > 0], c("symmetric:real" = 1, "symmetric:generated" = 1,
                               "cross-decide" = 1))
})

test_that("the default metrics, their bounds and their docs come from the registry", {
  expect_identical(eval(formals(manifold_metrics)$metrics),
                   names(manifold_registry))
  expect_identical(names(manifold_registry),
                   c("precision", "recall", "density", "coverage",
                     "c_precision", "sym_precision", "sym_recall",
                     "prc_precision", "prc_recall", "p_precision",
                     "p_recall"))
  expect_identical(manifold_bounds("density"), c(0, Inf))
  expect_null(manifold_bounds("pce"))
  doc <- manifold_metrics_doc()
  for (m in names(manifold_registry)) {
    expect_match(doc, paste0("`\"", m, "\"`: "), fixed = TRUE)
  }
  # every need is an estimator of the engine's table
  needs <- unique(unlist(lapply(manifold_registry, `[[`, "needs")))
  expect_true(all(needs %in% engine_estimators()$name))
})

test_that("recipe (inst/ARCHITECTURE.md): every curve family is wired from its name to a curve", {
  set.seed(8)
  x <- matrix(rnorm(120 * 2), ncol = 2)
  y <- matrix(rnorm(110 * 2, 0.5), ncol = 2)
  for (m in curve_methods()) {
    # ("tightest" warns that its halves of 27 rows are few)
    cv <- withCallingHandlers(
      prd_curve(x, y, method = m, k = 4, angles = 21, split = 0.5),
      prdcurve_warning_small_sample = function(w) invokeRestart("muffleWarning"))
    expect_identical(unique(cv$method), m)
    expect_gte(nrow(cv), 21L)
    # a PRD curve: alpha(lambda) nondecreasing, beta = alpha / lambda
    # nonincreasing, both in [0, 1]
    expect_true(all(diff(cv$precision) >= -1e-12))
    expect_true(all(diff(cv$recall) <= 1e-12))
    expect_true(all(cv$precision >= 0 & cv$precision <= 1))
    expect_true(all(cv$recall >= 0 & cv$recall <= 1))
  }
  # each neighbour family's engine estimator gives (a, b) counts per
  # evaluation row
  table <- engine_estimators()
  for (m in family_names("neighbour")) {
    e <- family_entry(m)$estimator
    row <- table[table$name == e, ]
    expect_identical(nrow(row), 1L)
    expect_identical(row$outputs[[1]], paste0(e, c("_a", "_b")))
    expect_identical(row$rows, "evaluation")
  }
})

test_that("recipe (inst/ARCHITECTURE.md): every format has a reader", {
  # the formats of read_formats() are the branches of read_table_file()'s
  # switch()
  find_switch <- function(e) {
    if (is.call(e) && identical(e[[1]], as.name("switch"))) return(e)
    if (is.call(e) || is.expression(e)) {
      for (a in as.list(e)[-1]) {
        r <- find_switch(a)
        if (!is.null(r)) return(r)
      }
    }
    NULL
  }
  sw <- find_switch(body(read_table_file))
  branches <- setdiff(names(as.list(sw)), "")
  expect_setequal(unique(unname(read_formats())), branches)
})
