# The one resolved split (new_split()), read only through its accessors
# (a walk of the namespace and a logged call check it); half-samples of the
# replicates keep a split given as rows; the checks of `split` and `folds`.

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
    # (over the rows in canonical order)
    h <- function(p, x) sort(canonical_order(x)[if (side == 1L) p[1:20] else p[-(1:20)]])
    hx <- h(px, real)
    hg <- h(pg, gen)
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

test_that("the split's accessors read its fields", {
  set.seed(4)
  sf <- resolve_split(0.5, 10, 8)
  expect_identical(split_fit(sf), list(sf$fit[[1]], sf$fit[[2]]))
  expect_identical(split_fit(sf, 2), sf$fit[[2]])
  expect_identical(split_eval(sf, 1), sf$eval[[1]])
  expect_true(split_has_eval(sf))
  expect_identical(split_scored(sf), sf$eval)
  expect_identical(lengths(split_scored(sf)), c(5L, 4L))
  expect_identical(split_asked(sf), 0.5)
  expect_null(split_self_rows(sf))
  # without a split the fit rows are the rows evaluated
  s0 <- resolve_split(0, 5, 4)
  expect_false(split_has_eval(s0))
  expect_null(split_eval(s0))
  expect_null(split_eval(s0, 1))
  expect_identical(split_scored(s0, 2), 1:4)
  expect_identical(split_asked(s0), 0)
  expect_identical(split_sizes(s0), c(fit_real = 5L, fit_generated = 4L,
                                      eval_real = 5L, eval_generated = 4L))
  # rows given; evaluation rows that are fit rows; query points of their own
  sr <- resolve_split(list(real = c(5, 2), generated = 1), 6, 4)
  expect_identical(split_asked(sr), "rows")
  expect_identical(split_eval(sr), list(c(2L, 5L), 1L))
  expect_identical(split_fit(sr, 1), c(1L, 3L, 4L, 6L))
  ss <- new_split(NULL, list(1:2, 3L), self_rows = c(1L, 2L, 7L))
  expect_identical(split_self_rows(ss), c(1L, 2L, 7L))
  expect_null(split_fit(ss))
  z <- matrix(as.double(1:6), 3)
  sq <- new_split(list(1:4, 1:3), z)
  expect_identical(split_eval(sq), z)
  expect_true(split_has_eval(sq))
  # two partitions make one split
  sp <- split_from_parts(list(fit = c(1L, 3L), eval = 2L),
                         list(fit = 2:3, eval = 1L), 0.3)
  expect_identical(split_fit(sp), list(c(1L, 3L), 2:3))
  expect_identical(split_eval(sp), list(2L, 1L))
  expect_identical(split_asked(sp), 0.3)
})

# Reads of the split object's fields (`$fit`, `$eval`, `$self_rows`, or
# by name with `[[`, .subset2(), getElement()) in every function of the
# installed namespace, also the functions held in its lists and
# environments (the families' registry), except the calls of a field that
# is a function (`entry$fit(...)`, a family's fit) and the fields of named
# sets (`rows$fit$real`: the split's `fit` and `eval` are unnamed pairs, so
# this is another structure, as the validity suite's rows).
split_field_reads <- function(objects, fields = c("fit", "eval", "self_rows")) {
  hits <- character()
  by_name <- c("[[", "[[<-", ".subset2", "getElement")
  walk <- function(x, where, head = FALSE) {
    if (is.function(x)) {
      walk(as.list(formals(x)), where)
      walk(body(x), where)
    } else if (is.call(x)) {
      f <- x[[1]]
      if (is.symbol(f) && length(x) >= 3L) {
        op <- as.character(f)
        nm <- x[[3]]
        by_dollar <- op %in% c("$", "$<-") &&
          (is.symbol(nm) || is.character(nm))
        field <- if (by_dollar) {
          as.character(nm)
        } else if (op %in% by_name && is.character(nm)) nm else NA_character_
        if (!is.na(field) && field %in% fields && !head) {
          hits <<- c(hits, paste0(where, ": ", deparse1(x)))
        }
      }
      named_set <- identical(f, as.name("$")) && length(x) == 3L &&
        as.character(x[[3]]) %in% c("real", "generated")
      for (i in seq_along(x)) {
        if (!identical(x[[i]], quote(expr = ))) {
          walk(x[[i]], where, head = i == 1L || (named_set && i == 2L))
        }
      }
    } else if (is.list(x) || is.pairlist(x)) {
      for (i in seq_along(x)) {
        if (!identical(x[[i]], quote(expr = ))) walk(x[[i]], where)
      }
    }
  }
  for (nm in names(objects)) {
    x <- objects[[nm]]
    if (is.environment(x)) {
      for (inner in ls(x, all.names = TRUE)) {
        walk(get(inner, envir = x), paste0(nm, "$", inner))
      }
    } else {
      walk(x, nm)
    }
  }
  sort(unique(hits))
}

test_that("only the split's accessors read its fields", {
  ns <- asNamespace("prdcurve")
  skip <- c(".__NAMESPACE__.", ".__S3MethodsTable__.", ".__DEVTOOLS__",
            ".packageName", ".__T__")
  names <- setdiff(ls(ns, all.names = TRUE), skip)
  objects <- mget(names, envir = ns)
  objects <- objects[!vapply(objects, function(x) {
    is.environment(x) && (isNamespace(x) || identical(x, globalenv()))
  }, logical(1))]
  accessors <- c("new_split", "split_fit", "split_eval", "split_has_eval",
                 "split_scored", "split_asked", "split_self_rows",
                 "split_from_parts")
  expect_true(all(accessors %in% names(objects)))
  hits <- split_field_reads(objects[setdiff(names(objects), accessors)])
  expect_identical(hits, character())
  # the walk sees the accessors' reads, and a read in a nested function
  seen <- split_field_reads(objects[accessors])
  expect_identical(unique(sub(":.*", "", seen)),
                   c("split_eval", "split_fit", "split_from_parts",
                     "split_has_eval", "split_self_rows"))
  planted <- list(f = function(s) lapply(1:2, function(j) s$eval[[j]]),
                  g = function(s) s[["self_rows"]],
                  h = function(e, s) e$fit(s),
                  r = list(entry = function(s) length(s$fit)),
                  v = function(rows, s) c(rows$fit$real, s$fit[[1]]$real))
  expect_identical(split_field_reads(planted),
                   c("f: s$eval", "g: s[[\"self_rows\"]]", "r: s$fit",
                     "v: s$fit"))
})

test_that("a call reads and writes its splits only through the accessors", {
  # methods of the split class that log every `$`, `[[` and `$<-` (the
  # accessors use .subset2(), which no method sees); found from the
  # package's namespace through the global environment
  log <- character()
  logged <- function(op) {
    function(x, name, ...) {
      log <<- c(log, paste0(op, as.character(name)))
      NextMethod()
    }
  }
  methods <- list(`$.prdcurve_split` = logged("$"),
                  `[[.prdcurve_split` = logged("[["),
                  `$<-.prdcurve_split` = logged("$<-"))
  set.seed(5)
  x <- matrix(rnorm(160), 40)
  y <- matrix(rnorm(160, 0.5), 40)
  run <- function() {
    set.seed(6)
    list(prd_curve(x, y, split = 0.5, method = c("knn", "kde", "linear"),
                   k = 3),
         prd_curve(x, y, split = list(real = 1:10, generated = 5:14),
                   method = c("coverage", "stacked"), k = 3),
         prd_curve(x, y, method = c("ipr", "quadratic"), k = 3),
         manifold_metrics(x, y, k = 3, split = 0.5),
         manifold_samples(x, y, k = 3, split = 0.5),
         entropy_metrics(x, y, k = 3, split = 0.5),
         entropy_samples(x, y, k = 3),
         prd_kde_plugin(x, y, n_mc = 50, angles = 11))
  }
  plain <- run()
  for (nm in names(methods)) assign(nm, methods[[nm]], envir = globalenv())
  withr::defer(rm(list = names(methods), envir = globalenv()))
  logged_run <- run()
  expect_identical(log, character())
  expect_identical(logged_run, plain)
  # the methods see a read outside the accessors, also in the namespace
  s <- new_split(list(1:3, 1:2), list(4L, 3L))
  expect_identical(s$eval, list(4L, 3L))
  expect_identical(split_eval(s), list(4L, 3L))
  read_fit <- function(s) s[["fit"]]
  environment(read_fit) <- asNamespace("prdcurve")
  expect_identical(read_fit(s), list(1:3, 1:2))
  expect_identical(log, c("$eval", "[[fit"))
})

test_that("folds: classed errors for bad values and too few rows, a warning where unused", {
  s <- two_sets(60, 3, seed = 7)
  for (bad in list(0, 2.5, 101, "3", c(2, 3), NA)) {
    expect_error(prd_curve(s$x, s$y, method = "linear", folds = bad),
                 "folds", class = "prdcurve_error_input")
  }
  # split 0.5: 30 evaluation rows a set, 2 a fold at most 15 folds
  expect_error(prd_curve(s$x, s$y, method = "linear", folds = 16),
               "at least 32 evaluation rows", class = "prdcurve_error_split")
  # the replicates' half-samples hold half of them
  expect_error(prd_curve(s$x, s$y, method = "linear", folds = 8,
                         replicates = 4),
               "half-sample", class = "prdcurve_error_split")
  # folds = 1 fits on the fit rows: none without a split
  expect_error(prd_curve(s$x, s$y, method = "linear", split = 0, folds = 1),
               "split = 0", class = "prdcurve_error_split")
  expect_warning(cv <- prd_curve(s$x, s$y, method = "knn", folds = 3),
                 "fitted families", class = "prdcurve_warning_unused_argument")
  expect_false(any(vapply(prd_curve_info(cv)$details, function(d) {
    isTRUE(d$cross_fit)
  }, logical(1))))
})

set.seed(11)
x <- matrix(rnorm(20 * 2), ncol = 2)
y <- matrix(rnorm(18 * 2, mean = 0.5), ncol = 2)

test_that("split must be a fraction in [0, 1)", {
  for (bad in list(-0.1, 1, 1.5, NA, "a", c(0.2, 0.3), Inf)) {
    expect_error(prd_curve(x, y, split = bad), class = "prdcurve_error_split")
  }
  expect_error(prd_curve(x, y, split = 0.99), class = "prdcurve_error_split")
  expect_snapshot(error = TRUE, prd_curve(x, y, split = 0.99))
})

test_that("explicit evaluation rows are checked", {
  quiet_traps({
    ok <- list(real = c(1, 5, 9), generated = c(2, 4))
    expect_equal(unname(curve_attr(prd_curve(x, y, split = ok, angles = 5),
                                   "sizes")), c(17, 16, 3, 2))
    bad <- list(list(real = 0:3, generated = 1:2),
                list(real = 1:3, generated = c(2, 19)),
                list(real = c(1, 1), generated = 1:2),
                list(real = 1:19, generated = 1:2),
                list(real = 1:3, generated = 1:17),
                list(real = 1:3), list(1:3, 1:2),
                list(real = integer(), generated = 1:2),
                list(real = 1.5, generated = 1:2))
    for (b in bad) {
      expect_error(prd_curve(x, y, split = b), class = "prdcurve_error_split")
    }
  })
})
