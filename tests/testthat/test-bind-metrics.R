# Tests of R/bind-metrics.R: prd_bind() of metrics tables.

bind_sets <- function() {
  set.seed(1)
  list(R = matrix(stats::rnorm(1200), 200),
       A = matrix(stats::rnorm(1200, 0.3), 200),
       B = matrix(stats::rnorm(1200, 0.1), 200))
}

# one call with both models, and one call each under the same seed
one_and_bound <- function(f, s, seed = 7, ...) {
  set.seed(seed)
  one <- f(s$R, list(a = s$A, b = s$B), ...)
  set.seed(seed)
  ta <- f(s$R, s$A, ...)
  set.seed(seed)
  tb <- f(s$R, s$B, ...)
  list(one = one, ta = ta, tb = tb, bound = prd_bind(a = ta, b = tb))
}

test_that("separate calls under one seed, bound, are the one call's table and comparison", {
  s <- bind_sets()
  x <- one_and_bound(manifold_metrics, s, replicates = 4, split = 0.5,
                     k = c(3, 5))
  expect_s3_class(x$bound, "prd_metrics")
  # the values, intervals and every attribute (replicates, eval_sizes,
  # model_sizes, fingerprints, ...) identical
  expect_identical(x$bound, x$one)
  for (nm in names(attributes(x$one))) {
    expect_identical(attr(x$bound, nm), attr(x$one, nm), label = nm)
  }
  expect_identical(unique(attr(x$bound, "replicates")$model), c("a", "b"))
  # 20 rows a model (9 metrics at k = 3 and 5, p_precision and p_recall
  # at ppr_k), in each of 4 replicates
  expect_identical(nrow(attr(x$bound, "replicates")), 2L * 4L * 20L)
  expect_identical(rownames(attr(x$bound, "eval_sizes")), c("a", "b"))
  expect_identical(unname(attr(x$bound, "eval_sizes")[, "eval_real"]),
                   c(100L, 100L))
  cmp <- prd_compare(x$bound, baseline = "a")
  expect_identical(cmp, prd_compare(x$one, baseline = "a"))
  # the differences are b's values less a's
  pr <- cmp[cmp$statistic == "precision" & cmp$k == 5L, ]
  expect_identical(pr$estimate,
                   x$tb$value[x$tb$metric == "precision" & x$tb$k == 5L] -
                     x$ta$value[x$ta$metric == "precision" & x$ta$k == 5L])
  # so do the entropy and embedding metrics' tables
  for (f in list(function(...) entropy_metrics(..., split = 0.5),
                 function(...) embedding_metrics(..., metrics = c("fd", "kid", "mmd_rbf")))) {
    y <- one_and_bound(f, s, replicates = 4)
    expect_identical(y$bound, y$one)
    for (nm in names(attributes(y$one))) {
      expect_identical(attr(y$bound, nm), attr(y$one, nm), label = nm)
    }
    expect_identical(prd_compare(y$bound, baseline = "a"),
                     prd_compare(y$one, baseline = "a"))
  }
})

test_that("the same models' manifold and embedding tables bind with one entry a model", {
  s <- bind_sets()
  set.seed(3)
  man <- manifold_metrics(s$R, list(a = s$A, b = s$B), replicates = 4)
  set.seed(4)
  emb <- embedding_metrics(s$R, list(a = s$A, b = s$B),
                           metrics = c("fd", "kid"), replicates = 4)
  x <- prd_bind(man, emb)
  expect_identical(nrow(x), nrow(man) + nrow(emb))
  # per-model vectors and matrices: each model once, its first table's
  for (nm in c("model_sizes", "real_set", "real_draws")) {
    expect_identical(attr(x, nm), attr(man, nm), label = nm)
  }
  expect_identical(attr(x, "eval_sizes"), attr(man, "eval_sizes"))
  expect_identical(nrow(attr(x, "replicates")),
                   nrow(attr(man, "replicates")) + nrow(attr(emb, "replicates")))
  # each table's models compare as in that table alone
  cmp <- prd_compare(x, baseline = "a")
  want <- prd_compare(emb, baseline = "a")
  got <- cmp[cmp$statistic %in% c("fd", "kid"), ]
  expect_identical(got$estimate, want$estimate)
  expect_identical(got$lower, want$lower)
})

test_that("bound tables of other draws, real sets or replicates do not pair", {
  s <- bind_sets()
  set.seed(3)
  ta <- manifold_metrics(s$R, s$A, metrics = c("precision", "recall"),
                         replicates = 4)
  set.seed(4)
  tb <- manifold_metrics(s$R, s$B, metrics = c("precision", "recall"),
                         replicates = 4)
  # the same real set, its fingerprint shared; the draws differ
  bd <- prd_bind(a = ta, b = tb)
  expect_identical(attr(bd, "real_set")[["a"]], attr(bd, "real_set")[["b"]])
  expect_false(identical(attr(bd, "real_draws")[["a"]],
                         attr(bd, "real_draws")[["b"]]))
  e <- expect_error(prd_compare(bd, baseline = "a"),
                    class = "prdcurve_error_unpaired")
  msg <- cli::ansi_strip(conditionMessage(e))
  expect_match(msg, "other real rows in its split or half-samples", fixed = TRUE)
  expect_match(msg, "replicates = 4", fixed = TRUE)
  # another real set
  set.seed(3)
  tr <- manifold_metrics(s$R + 1, s$B, metrics = c("precision", "recall"),
                         replicates = 4)
  e <- expect_error(prd_compare(prd_bind(a = ta, b = tr)),
                    class = "prdcurve_error_unpaired")
  expect_match(cli::ansi_strip(conditionMessage(e)),
               "\"b\": computed on another real set", fixed = TRUE)
  # another number of replicates
  set.seed(3)
  t6 <- manifold_metrics(s$R, s$B, metrics = c("precision", "recall"),
                         replicates = 6)
  e <- expect_error(prd_compare(prd_bind(a = ta, b = t6)),
                    class = "prdcurve_error_unpaired")
  expect_match(cli::ansi_strip(conditionMessage(e)),
               "6 replicates, the baseline's 4 replicates", fixed = TRUE)
  # the header counts each model's half-samples: 4 and 6, not 6
  expect_match(tbl_sum(prd_bind(a = ta, b = t6)),
               "; 4-6 complementary half-samples, 90% intervals)", fixed = TRUE)
  expect_match(tbl_sum(ta), "; 4 complementary half-samples", fixed = TRUE)
  # an entropy table's advice names entropy_metrics()
  set.seed(3)
  ea <- entropy_metrics(s$R, s$A, split = 0.5, replicates = 4)
  set.seed(4)
  eb <- entropy_metrics(s$R, s$B, split = 0.5, replicates = 4)
  e <- expect_error(prd_compare(prd_bind(a = ea, b = eb)),
                    class = "prdcurve_error_unpaired")
  expect_match(cli::ansi_strip(conditionMessage(e)),
               "e.g. `entropy_metrics(real, list(a = ..., b = ...), replicates = 4)`",
               fixed = TRUE)
  # a table without replicates: the models lacking them named, and how
  t0 <- manifold_metrics(s$R, s$B, metrics = c("precision", "recall"))
  e <- expect_error(prd_compare(prd_bind(a = ta, b = t0)),
                    class = "prdcurve_error_unpaired")
  msg <- cli::ansi_strip(conditionMessage(e))
  expect_match(msg, "no half-sample replicates of model \"b\"", fixed = TRUE)
  expect_match(msg, "`prd_bind()` keeps every table's", fixed = TRUE)
})

test_that("named tables relabel their models, rows and per-model attributes", {
  s <- bind_sets()
  set.seed(5)
  two <- manifold_metrics(s$R, list(x = s$A, y = s$B), metrics = "recall",
                          replicates = 2)
  set.seed(5)
  ta <- manifold_metrics(s$R, s$A, metrics = "recall", replicates = 2)
  bd <- prd_bind(list(first = two, solo = ta))
  expect_identical(bd$model, c("first x", "first y", "solo"))
  expect_identical(bd$value, c(two$value, ta$value))
  expect_identical(rownames(attr(bd, "eval_sizes")), c("first x", "first y", "solo"))
  expect_identical(names(attr(bd, "model_sizes")), c("first x", "first y", "solo"))
  expect_identical(names(attr(bd, "real_draws")), c("first x", "first y", "solo"))
  expect_setequal(attr(bd, "replicates")$model, c("first x", "first y", "solo"))
  # a table filtered to one model keeps that model's attributes alone
  why <- prd_bind(why = two[two$model == "y", ], solo = ta)
  expect_identical(why$model, c("why", "solo"))
  expect_identical(rownames(attr(why, "eval_sizes")), c("why", "solo"))
  expect_identical(unique(attr(why, "replicates")$model), c("why", "solo"))
  expect_identical(attr(why, "replicates")$value[attr(why, "replicates")$model == "why"],
                   attr(two, "replicates")$value[attr(two, "replicates")$model == "y"])
  # a model against itself: difference 0 in every half
  cmp <- prd_compare(bd, baseline = "first x")
  expect_identical(cmp$estimate[cmp$model == "solo"], 0)
  # pmse_stats(): its parameters per model, maxorder a setting
  p1 <- pmse_stats(s$R, s$A, maxorder = 0)
  p2 <- pmse_stats(s$R, s$B, maxorder = 0)
  pb <- prd_bind(a = p1, b = p2)
  expect_identical(attr(pb, "parameters"),
                   c(a = unname(attr(p1, "parameters")),
                     b = unname(attr(p2, "parameters"))))
  expect_identical(pb$value, c(p1$value, p2$value))
})

test_that("prd_bind() of metrics tables: the classed errors", {
  s <- bind_sets()
  ta <- manifold_metrics(s$R, s$A, metrics = c("precision", "recall"))
  tb <- manifold_metrics(s$R, s$B, metrics = c("precision", "recall"))
  # the same (model, metric, k) twice: unnamed tables are both "generated"
  e <- expect_error(prd_bind(ta, tb), class = "prdcurve_error_metrics")
  msg <- cli::ansi_strip(conditionMessage(e))
  expect_match(msg, "generated precision (k = 5)", fixed = TRUE)
  expect_match(msg, "in `..1` and `..2`", fixed = TRUE)
  expect_error(prd_bind(a = ta, a = tb), class = "prdcurve_error_metrics")
  # a setting that differs, named with each table's value
  t2 <- manifold_metrics(s$R, s$B, metrics = c("precision", "recall"),
                         split = 0.5)
  e <- expect_error(prd_bind(a = ta, b = t2), class = "prdcurve_error_metrics")
  msg <- cli::ansi_strip(conditionMessage(e))
  expect_match(msg, "split differs", fixed = TRUE)
  expect_match(msg, "`a`: 0", fixed = TRUE)
  expect_match(msg, "`b`: 0.5", fixed = TRUE)
  # intervals at another level
  set.seed(1)
  r9 <- manifold_metrics(s$R, s$A, metrics = "recall", replicates = 2)
  set.seed(1)
  r8 <- manifold_metrics(s$R, s$B, metrics = "recall", replicates = 2,
                         conf_level = 0.8)
  e <- expect_error(prd_bind(a = r9, b = r8), class = "prdcurve_error_metrics")
  expect_match(cli::ansi_strip(conditionMessage(e)), "conf_level differs",
               fixed = TRUE)
  tc <- manifold_metrics(s$R, s$B, metrics = c("precision", "recall"),
                         closed = FALSE)
  expect_error(prd_bind(a = ta, b = tc), "closed",
               class = "prdcurve_error_metrics")
  e <- expect_error(prd_bind(a = embedding_metrics(s$R, s$A, metrics = "fd"),
                             b = embedding_metrics(s$R[1:100, ], s$B, metrics = "fd")),
                    class = "prdcurve_error_metrics")
  expect_match(cli::ansi_strip(conditionMessage(e)), "`b`: 100", fixed = TRUE)
  # curves and metrics tables together: the arguments of each kind named
  cv <- prd_discrete(1, 1)
  e <- expect_error(prd_bind(a = ta, b = cv), class = "prdcurve_error_input")
  expect_match(cli::ansi_strip(conditionMessage(e)),
               "`a` is a metrics table, `b` is not", fixed = TRUE)
  e <- expect_error(prd_bind(cv, m = ta), class = "prdcurve_error_input")
  expect_match(cli::ansi_strip(conditionMessage(e)),
               "`m` is a metrics table, `..1` is not", fixed = TRUE)
  # a table without its columns
  e <- expect_error(prd_bind(a = ta, b = ta[c("model", "value")]),
                    class = "prdcurve_error_metrics")
  expect_match(cli::ansi_strip(conditionMessage(e)), "`b`", fixed = TRUE)
})
