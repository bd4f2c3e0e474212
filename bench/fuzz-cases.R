# Random fuzz cases for bench/fuzz.R: for each exported function (and a few
# S3 methods), a generator that draws its arguments at random from valid
# values, values at and past their limits, hostile sample sets
# (fuzz_bad_sets(), fuzz_pair_sets() of tests/testthat/helper-fuzz.R) and
# values of the wrong type. Each generator returns
#   list(args = <named list>, check = <function(value): NULL or a problem>,
#        warned_ok = <a classed warning excuses a non-finite result>)
# and may hold an invariant in its check (swapping the sets swaps precision
# and recall; identical sets give the curve at 1). Sizes are tiny (tens of
# rows) so that a case takes tens of milliseconds.

pick <- function(x) x[[sample.int(length(x), 1L)]]
coin <- function(p = 0.5) stats::runif(1) < p

#' Values of the wrong type (or shape) for any argument
wrong_values <- function() {
  list(NULL, NA, NA_character_, "a", c("a", "b"), -1, 0, 0.5, 1, 2.5, 1e300,
       -1e300, 1e-300, Inf, -Inf, NaN, integer(0), c(1, 2, 3), TRUE,
       c(TRUE, FALSE), list(1), list(a = 1, b = "x"), identity, factor("a"),
       data.frame(x = 1:2), matrix(1, 2, 2), as.Date("2020-01-01"),
       complex(real = 1, imaginary = 1), 2147483647, 3e9, -2147483647)
}

#' How hostile a case is: 1 (every argument may be wrong) or less (mostly
#' valid calls, which reach the estimators); set per case by bench/fuzz.R
fuzz_state <- new.env()
fuzz_state$hostility <- 1

#' `valid()` most of the time, else a value at or past the limits
#' (`edge`), else a value of the wrong type
draw <- function(valid, edge = list(), p_edge = 0.15, p_wrong = 0.1) {
  p_edge <- p_edge * fuzz_state$hostility
  p_wrong <- p_wrong * fuzz_state$hostility
  u <- stats::runif(1)
  if (u < p_wrong) return(pick(wrong_values()))
  if (u < p_wrong + p_edge && length(edge)) return(pick(edge))
  valid()
}

#' Counts: valid in lo..hi, edges at and past the limits
draw_count <- function(lo, hi, p_edge = 0.2, p_wrong = 0.08) {
  draw(function() if (hi > lo) sample(lo:hi, 1) else lo,
       list(lo - 1, lo, hi, hi + 1, 2.5, NA, NaN, 1e9, 3e9, -1, Inf,
            c(lo, hi), integer(0), "3"),
       p_edge, p_wrong)
}

rmat <- function(n, d, shift = 0) matrix(stats::rnorm(n * d, shift), n, d)

#' A valid-looking set of `n` rows and `d` columns in the form `v` (one
#' form for both sets of a case): a matrix, a data frame with an id or a
#' label column, integer grids, a constant column, duplicated rows
valid_set <- function(n, d, shift = 0, v = sample.int(9, 1)) {
  x <- rmat(n, d, shift)
  switch(v,
    x, x, x,
    as.data.frame(x),
    data.frame(id = seq_len(n), x),
    data.frame(x, label = sample(c("a", "b"), n, TRUE)),
    matrix(sample(0:3, n * d, TRUE), n, d),
    cbind(x, 0),
    rbind(x, x)[sample.int(2 * n, n), , drop = FALSE]
  )
}

#' The two sample sets of a case: valid, one side hostile, both hostile
#' alike, or of the wrong type; sometimes several generated models
draw_sets <- function() {
  n <- sample(c(4:12, 20, 30, 40), 1)
  d <- sample(c(1:4, 2, 3), 1)
  n2 <- if (coin(0.7)) n else sample(c(4:12, 20, 30), 1)
  X <- rmat(n, max(d, 2))
  Y <- rmat(n2, max(d, 2), stats::runif(1, 0, 1.5))
  if (d == 1) {
    X <- X[, 1, drop = FALSE]
    Y <- Y[, 1, drop = FALSE]
  }
  u <- stats::runif(1) * fuzz_state$hostility
  if (u < 0.45) {
    v <- sample.int(9, 1)
    real <- valid_set(n, d, 0, v)
    gen <- valid_set(n2, d, 0.7, v)
    if (coin(0.15)) gen <- list(a = gen, b = valid_set(n2, d, 0.3, v))
    return(list(real = real, generated = gen))
  }
  if (u < 0.75 && n >= 4) {
    bad <- if (ncol(X) >= 2) fuzz_bad_sets(X) else fuzz_bad_sets(cbind(X, rnorm(n)))
    s <- pick(bad)
    return(if (coin()) list(real = s, generated = Y) else list(real = X, generated = s))
  }
  if (u < 0.9) {
    p <- pick(fuzz_pair_sets(X, Y, wide = 20))
    return(list(real = p[[1]], generated = p[[2]]))
  }
  w <- pick(wrong_values())
  if (coin()) list(real = w, generated = Y) else list(real = X, generated = w)
}

has_id <- function(s) is.data.frame(s$real) && "id" %in% names(s$real)

n_rows <- function(s) if (is.matrix(s) || is.data.frame(s)) nrow(s) else NA_integer_

#' The optional arguments of a case: each drawn with probability `p`
optional <- function(..., p = 0.35) {
  gens <- list(...)
  keep <- stats::runif(length(gens)) < p
  lapply(gens[keep], function(g) g())
}

curve_check <- function(x) curve_problem(x)

#' Swapping the sets swaps precision and recall (split = 0, one model, a
#' symmetric method): the sorted precisions of one are the sorted recalls of
#' the other
swap_problem <- function(a, b, tol = 1e-8) {
  if (!is.data.frame(a) || !is.data.frame(b) || nrow(a) != nrow(b)) return(NULL)
  d <- max(abs(sort(a$precision) - sort(b$recall)),
           abs(sort(a$recall) - sort(b$precision)))
  if (is.finite(d) && d > tol) {
    return(sprintf("swapping real and generated does not swap precision and recall (%.3g)", d))
  }
  NULL
}

identical_problem <- function(x, what = "identical sets") {
  if (!is.data.frame(x) || !nrow(x)) return(NULL)
  best <- max(pmin(x$precision, x$recall))
  if (best < 0.999) return(sprintf("%s: the curve reaches only %.3g, not 1", what, best))
  NULL
}

quiet <- function(expr) suppressWarnings(suppressMessages(expr))

# ---- the curves -------------------------------------------------------------

gen_prd_curve <- function() {
  s <- draw_sets()
  n <- n_rows(s$real)
  fam <- family_names()
  method <- draw(function() sample(fam, sample(1:2, 1)),
                 list("foo", character(0), NA_character_, c("knn", "knn"),
                      c("tightest", "knn"), ""))
  args <- c(list(real = s$real, generated = s$generated, method = method,
                 angles = draw_count(11, 31)),
            optional(
              k = function() draw_count(1, max(1, (if (is.na(n)) 10 else n) %/% 2)),
              split = function() draw(function() pick(list(0, 0.5, 0.3)),
                                      list(1, -0.1, 0.99, 1e-300, c(0.1, 0.2), identity,
                                           list(real = 1:2, generated = 1:2),
                                           list(real = 1:3), list(real = c(1, 1), generated = 1:2),
                                           list(real = 1000, generated = 1))),
              closed = function() draw(function() coin(), list(NA, "yes")),
              bandwidth = function() draw(function() stats::runif(sample(1:2, 1), 0.1, 2),
                                          list(0, -1, 1e300, 1e-300, c(1, 2, 3), Inf)),
              replicates = function() draw(function() pick(list(0, 2, 3)), list(1, -1, NA, 2.5, 1e9)),
              standardize = function() draw(function() pick(list("none", "real")), list("foo")),
              families = function() draw(function() sample(fam, 1), list("foo", NA)),
              folds = function() draw(function() pick(list(1, 2, 3)), list(0, -1, 1e6, NA, 2.5)),
              atoms = function() draw(function() pick(list("exact", "ignore")), list("foo")),
              id = function() draw(function() if (has_id(s)) "id" else NULL, list("nope", 1, 99))
            ))
  check <- function(x) {
    curve_problem(x) %||% monotone_problem(x) %||%
      (if (!is.null(args$replicates) && !identical(args$replicates, 0)) {
        tryCatch(interval_problem(quiet(summary(x))), error = function(e) {
          paste("summary() of the result fails:", conditionMessage(e))
        })
      }) %||%
      symmetric_curve_problem(args, x) %||% permutation_problem(args, x)
  }
  list(args = args, check = check, seed = TRUE)
}

#' Along lambda, precision never falls and recall never rises (alpha and
#' beta of Sajjadi et al. 2018, eq. 3), in each curve of a result
monotone_problem <- function(x, tol = 1e-9) {
  if (!all(c("lambda", "precision", "recall") %in% names(x))) return(NULL)
  keys <- intersect(c("model", "method", "k"), names(x))
  groups <- if (length(keys)) split(x, x[keys], drop = TRUE) else list(x)
  for (g in groups) {
    g <- g[order(g$lambda), ]
    if (nrow(g) > 1 && (any(diff(g$precision) < -tol) || any(diff(g$recall) > tol))) {
      return(sprintf("%s: precision falls or recall rises along lambda",
                     paste(unlist(g[1, keys]), collapse = "/")))
    }
  }
  NULL
}

#' A permutation of the real rows gives the same curve under the same seed
#' (rows in canonical order, R/canonical.R)
permutation_problem <- function(args, x) {
  r <- args$real
  if (!is.matrix(r) || !is.numeric(r) || nrow(r) < 2 || !coin(0.3)) return(NULL)
  a2 <- args
  a2$real <- r[sample.int(nrow(r)), , drop = FALSE]
  set.seed(fuzz_state$call_seed)
  y <- tryCatch(quiet(do.call(prd_curve, a2)), error = function(e) NULL)
  if (is.null(y) || nrow(y) != nrow(x)) return(NULL)
  d <- max(abs(x$precision - y$precision), abs(x$recall - y$recall))
  if (d > 1e-9) return(sprintf("permuting the real rows changes the curve (%.3g)", d))
  NULL
}

#' The invariants of prd_curve(): identical sets reach (1, 1); for the
#' symmetric methods with split = 0, swapping the sets swaps precision and
#' recall
symmetric_curve_problem <- function(args, x) {
  r <- args$real
  g <- args$generated
  if (!is.matrix(r) || !is.matrix(g) || !is.numeric(r) || !all(is.finite(r))) return(NULL)
  if (identical(r, g) && nrow(r) >= 4 && identical(args$angles %% 2, 1)) {
    p <- identical_problem(x)
    if (!is.null(p)) return(p)
  }
  sym <- c("knn", "kde", "ipr", "coverage", "marginal")
  if (!identical(args$split, 0) || !is.character(args$method) ||
      !all(args$method %in% sym) || length(args$bandwidth) > 1 ||
      nrow(r) != nrow(g) || !is.null(args$replicates) && !identical(args$replicates, 0)) {
    return(NULL)
  }
  a2 <- args
  a2$real <- g
  a2$generated <- r
  y <- tryCatch(quiet(do.call(prd_curve, a2)), error = function(e) NULL)
  if (is.null(y)) return(NULL)
  for (m in unique(x$method)) {
    p <- swap_problem(x[x$method == m, ], y[y$method == m, ])
    if (!is.null(p)) return(paste0(m, ": ", p))
  }
  NULL
}

gen_prd_discrete <- function() {
  w <- function() draw(function() {
    v <- stats::runif(sample(1:5, 1))
    if (coin(0.2)) v[1] <- 0
    v
  }, list(c(1e308, 1e308), c(0, 0), c(-1, 1), c(NA, 1), c(Inf, 1),
          c(5e-324, 5e-324), c(1e-320, 1)))
  p <- w()
  q <- if (coin(0.2)) p else if (is.numeric(p) && coin(0.6)) stats::runif(length(p)) else w()
  angles <- draw(function() pick(list(11, 21, 31)), list(2, 3, NA, 1e7, 2.5))
  args <- list(p = p, q = q, angles = angles)
  check <- function(x) {
    curve_problem(x) %||% {
      if (identical(p, q) && identical(angles %% 2, 1)) identical_problem(x, "p = q")
      else {
        y <- tryCatch(quiet(prd_discrete(q, p, angles = angles)), error = function(e) NULL)
        swap_problem(x, y) %||% {
          # weights are normalised: 2p is p
          z <- tryCatch(quiet(prd_discrete(2 * p, q, angles = angles)), error = function(e) NULL)
          if (!is.null(z) && max(abs(z$precision - x$precision)) > 1e-9) "2 p does not give the curve of p"
        }
      }
    }
  }
  list(args = args, check = check)
}

gen_prd_scores <- function() {
  sc <- function() draw(function() stats::rnorm(sample(2:20, 1)),
                        list(c(NA, 1), NaN, numeric(0), c(Inf, -Inf), 1e308,
                             c(-1e308, 1e308), rep(1, 5), 5e-324, c(1, 2, 3)))
  a <- sc()
  b <- if (coin(0.2)) a else sc()
  args <- c(list(score_real = a, score_generated = b),
            optional(label = function() draw(function() "s", list(NA, 1, c("a", "b"))),
                     angles = function() draw_count(11, 31)))
  check <- function(x) {
    curve_problem(x) %||% {
      if (identical(a, b) && length(a) > 1 && is.numeric(a) && all(is.finite(a)) &&
          identical((args$angles %||% 1001) %% 2, 1)) {
        identical_problem(x)
      } else if (is.double(a) && is.double(b) && all(is.finite(c(a, b))) &&
                 max(abs(c(a, b))) < 100) {
        # the curve of scores depends on their order only
        a2 <- args
        a2$score_real <- exp(a) + 1
        a2$score_generated <- exp(b) + 1
        y <- tryCatch(quiet(do.call(prd_scores, a2)), error = function(e) NULL)
        if (!is.null(y) && nrow(y) == nrow(x) && max(abs(y$precision - x$precision)) > 1e-9) {
          "an increasing transform of the scores changes the curve"
        }
      }
    }
  }
  list(args = args, check = check)
}

gen_prd_histogram <- function() {
  s <- draw_sets()
  args <- c(list(real = s$real, generated = s$generated,
                 clusters = draw_count(1, 6), runs = draw_count(1, 2),
                 angles = draw_count(11, 21), nstart = draw_count(1, 2)),
            optional(iter.max = function() draw_count(1, 20)))
  check <- function(x) {
    curve_problem(x) %||% {
      if (identical(s$real, s$generated) && is.matrix(s$real) && identical(args$angles %% 2, 1)) {
        identical_problem(x)
      }
    }
  }
  list(args = args, check = check)
}

gen_prd_kde_plugin <- function() {
  s <- draw_sets()
  args <- c(list(real = s$real, generated = s$generated,
                 n_mc = draw(function() sample(10:100, 1), list(9, 10, NA, 2.5, 3e9)),
                 angles = draw_count(11, 21)),
            optional(bandwidth = function() draw(function() stats::runif(1, 0.1, 2),
                                                 list(0, -1, 1e300, 1e-300, c(1, 2)))))
  list(args = args, check = curve_check)
}

gen_prd_truth_gaussian <- function() {
  d <- sample(1:3, 1)
  mv <- function() draw(function() stats::rnorm(d),
                        list(1e200, NA, Inf, "a", numeric(0), 1e-320, c(3e200, 4e200)))
  m1 <- mv()
  m2 <- if (coin(0.2)) m1 else mv()
  args <- c(list(mean_real = m1, mean_generated = m2, angles = draw_count(11, 31)),
            optional(cov = function() draw(function() diag(stats::runif(d, 0.5, 2), d),
                                           list(0, -1, 1e-320, matrix(NA),
                                                matrix(c(1, 2, 2, 1), 2), diag(c(1e300, 1e-300))))))
  check <- function(x) {
    curve_problem(x) %||% {
      if (identical(m1, m2) && is.numeric(m1) && all(is.finite(m1)) &&
          identical(args$angles %% 2, 1)) identical_problem(x, "equal means")
    }
  }
  list(args = args, check = check)
}

fuzz_mixtures <- function() {
  list(gaussian_mixture(rbind(0, 3), weights = c(0.5, 0.5)),
       gaussian_mixture(rbind(0, 3), weights = c(1, 0)),
       gaussian_mixture(0), gaussian_mixture(c(0, 0)))
}

gen_prd_truth <- function() {
  mix <- fuzz_mixtures()
  lp <- function(x) stats::dnorm(x[, 1], log = TRUE)
  sp <- function(n) matrix(stats::rnorm(n), n)
  bad_fn <- list(function(x) rep(NaN, nrow(x)), function(x) 0,
                 function(x) rep("a", nrow(x)), function(x) rep(Inf, nrow(x)),
                 function(x) stop("boom"), function(n) matrix(0, 1, 1),
                 function(n) matrix(NA_real_, n, 1), function(n) rep("a", n))
  dens <- function() draw(function() pick(c(mix[1:3], list(lp))), bad_fn, 0.25)
  args <- list(log_density_real = dens(), log_density_generated = dens())
  if (!inherits(args[[1]], "prd_gaussian_mixture") || coin(0.3)) {
    args$sample_real <- draw(function() sp, bad_fn, 0.2)
    args$sample_generated <- draw(function() sp, bad_fn, 0.2)
  }
  args$n <- draw(function() sample(20:200, 1), list(9, NA, c(10, 20), 3e9, "a"))
  args$angles <- draw_count(11, 21)
  list(args = args, check = curve_check)
}

gen_gaussian_mixture <- function() {
  k <- sample(1:3, 1)
  d <- sample(1:2, 1)
  args <- list(means = draw(function() rmat(k, d), list(c(0, NA), Inf, "a", numeric(0),
                                                       matrix(0, 0, 2), c(1e308, -1e308), list(0))))
  extra <- optional(
    sd = function() draw(function() stats::runif(1, 0.5, 2), list(0, -1, 1e-300, 1e300, NA, c(1, 2, 3))),
    cov = function() draw(function() diag(d), list(matrix(c(1, 2, 2, 1), 2), diag(2) * 1e-300,
                                                   list(matrix(1)), "a")),
    weights = function() draw(function() stats::runif(k), list(c(1e308, 1e308), c(0, 0),
                                                               c(-1, 2), c(NA, 1), 1, c(1e-320, 1e-320))))
  args <- c(args, extra)
  list(args = args, check = mixture_problem)
}

#' The closures of a mixture: $sample(n) and $log_density(x)
gen_mixture_methods <- function() {
  mix <- pick(fuzz_mixtures())
  if (coin()) {
    n <- draw(function() sample(1:20, 1), list(-1, NA, 2.5, "a", 2147483647, 3e9, 0))
    list(fn = mix$sample, args = list(n = n), check = function(x) {
      if (is.matrix(x) && all(is.finite(x))) NULL else "sample() not a finite matrix"
    })
  } else {
    z <- draw(function() rmat(3, ncol(mix$sample(1))),
              list(matrix(1e200), c(NA, 0), matrix(0, 1, 5), "a", matrix(numeric(0), 0, 1),
                   1e308, -Inf))
    list(fn = mix$log_density, args = list(x = z), check = function(x) {
      if (!is.numeric(x) || any(is.nan(x)) || any(x == Inf, na.rm = TRUE)) {
        return(paste("log-density:", paste(format(x), collapse = ", ")))
      }
      NULL
    })
  }
}

gen_sim <- function(fn) {
  function() {
    args <- list(n = draw(function() sample(2:30, 1), list(1, 2, 2147483647, 3e9, NA, 2.5)),
                 d = draw(function() sample(1:4, 1), list(0, 1e9, NA)),
                 angles = draw_count(11, 21))
    extra <- switch(fn,
      sim_shifted_gaussians = optional(
        shift = function() draw(function() stats::runif(1), list(1e300, NA, Inf, c(1, 2, 3), "a", 1e-300)),
        n_generated = function() draw(function() sample(2:30, 1), list(1, 2147483647))),
      sim_gaussian_mixtures = c(list(truth_n = draw(function() sample(50:300, 1), list(9, 2147483647))),
        optional(
          means = function() draw(function() stats::rnorm(4, 0, 3), list(c(1e308, -1e308), c(0, NA, 1, 2),
                                                                        letters[1:4], matrix(0, 2, 5))),
          weights_real = function() draw(function() stats::runif(4), list(rep(1e308, 4), c(1, 1), rep(0, 4))),
          weights_generated = function() draw(function() stats::runif(4), list(rep(0, 4), c(1, 1))),
          sd = function() draw(function() stats::runif(1, 0.5, 2), list(1e-300, 1e300, 0)))),
      sim_spheres = optional(
        radius = function() draw(function() stats::runif(1, 0.5, 2), list(0, 1e-300, 1e300, NA)),
        support = function() draw(function() pick(list("sphere", "ball")), list("cube", NA))))
    list(args = c(args, extra), check = sim_problem)
  }
}

# ---- the metrics ------------------------------------------------------------------

draw_metric_args <- function(s) {
  n <- n_rows(s$real)
  lim <- if (is.na(n)) 10 else max(1, n - 1)
  optional(
    k = function() draw_count(1, lim),
    split = function() draw(function() pick(list(0, 0.5)), list(1, -1, NA, "a", 0.99, identity)),
    replicates = function() draw(function() pick(list(0, 2, 3)), list(1, -1, NA, 1e9)),
    conf_level = function() draw(function() pick(list(0.9, 0.5)), list(0, 1, NA, "a", c(0.5, 0.9))),
    standardize = function() draw(function() pick(list("none", "real")), list("foo")),
    id = function() draw(function() if (has_id(s)) "id" else NULL, list("nope", 1)),
    features = function() draw(function() 1, list(99, "nope", -1)))
}

gen_manifold <- function(fn) {
  function() {
    s <- draw_sets()
    args <- c(list(real = s$real, generated = s$generated), draw_metric_args(s),
              optional(
                closed = function() draw(function() coin(), list(NA, "yes")),
                k_prime = function() draw_count(1, 3),
                ppr_scale = function() draw(function() stats::runif(1, 0.5, 2), list(0, -1, 1e300, 1e-300, NA)),
                ppr_k = function() draw_count(1, 4)))
    if (fn == "manifold_metrics") {
      args$conf_level <- args$conf_level
      if (coin(0.4)) {
        args$metrics <- draw(function() sample(manifold_metric_names(), sample(1:3, 1)),
                             list("foo", character(0), 1))
      }
    } else {
      args$replicates <- NULL
      args$conf_level <- NULL
      if (coin(0.4)) args$probabilistic <- draw(function() coin(), list(NA, "yes"))
    }
    check <- if (fn == "manifold_metrics") {
      function(x) {
        metrics_problem(x, unbounded = "density") %||% manifold_swap_problem(args, x) %||%
          manifold_identical_problem(args, x) %||%
          (if (!is.null(args$replicates)) metric_interval_problem(x, "density"))
      }
    } else {
      samples_check(c("in_manifold"))
    }
    list(args = args, check = check)
  }
}

#' manifold_metrics(): precision(real, generated) = recall(generated, real)
#' with split = 0 and sets of one size (Kynkäänniemi et al. 2019)
manifold_swap_problem <- function(args, x) {
  r <- args$real
  g <- args$generated
  if (!is.matrix(r) || !is.matrix(g) || !is.numeric(r) || nrow(r) != nrow(g) ||
      !all(is.finite(r)) || !all(is.finite(g)) ||
      !is.null(args$split) && !identical(args$split, 0) ||
      !is.null(args$replicates) && !identical(args$replicates, 0) ||
      !all(c("precision", "recall") %in% x$metric)) {
    return(NULL)
  }
  a2 <- args
  a2$real <- g
  a2$generated <- r
  y <- tryCatch(quiet(do.call(manifold_metrics, a2)), error = function(e) NULL)
  if (is.null(y)) return(NULL)
  v <- function(m, what) m$value[m$metric == what]
  if (length(v(y, "recall")) == length(v(x, "precision")) &&
      max(abs(v(x, "precision") - v(y, "recall"))) > 1e-12) {
    return("manifold precision is not the recall of the swapped sets")
  }
  NULL
}

#' Identical sets, closed balls, no split: precision, recall and coverage
#' are 1 (every point lies in its own copy's ball)
manifold_identical_problem <- function(args, x) {
  if (!identical(args$real, args$generated) || !is.matrix(args$real) ||
      !is.null(args$split) && !identical(args$split, 0) ||
      isFALSE(args$closed) || !is.null(args$standardize)) {
    return(NULL)
  }
  v <- x$value[x$metric %in% c("precision", "recall", "coverage")]
  if (length(v) && any(abs(v - 1) > 1e-12)) {
    return(paste("identical sets: precision, recall, coverage", paste(format(v), collapse = ", ")))
  }
  NULL
}

samples_check <- function(cols) {
  function(x) {
    if (!is.data.frame(x) || !all(c("set", "row", cols) %in% names(x))) {
      return("not a per-sample tibble")
    }
    num <- vapply(x, is.double, logical(1))
    if (any(vapply(x[num], function(v) any(is.nan(v)), logical(1)))) return("NaN in a column")
    NULL
  }
}

gen_entropy <- function(fn) {
  function() {
    s <- draw_sets()
    args <- c(list(real = s$real, generated = s$generated), draw_metric_args(s),
              optional(subsample = function() draw(function() coin(), list(NA, "yes"))))
    if (fn == "entropy_samples") {
      args$replicates <- NULL
      args$conf_level <- NULL
      return(list(args = args, check = samples_check(c("pce", "re", "rce")), warned_ok = TRUE))
    }
    list(args = args, warned_ok = TRUE,
         check = function(x) metrics_problem(x, unbounded = c("pce", "rce", "re")))
  }
}

gen_knn_entropy <- function() {
  s <- draw_sets()
  args <- list(x = s$real, k = draw_count(1, 5))
  check <- function(x) {
    vec_check(x) %||% {
      # distances only: a translation keeps the estimate
      if (is.matrix(args$x) && is.double(args$x) && all(is.finite(args$x)) &&
          max(abs(args$x)) < 1e3) {
        y <- tryCatch(quiet(knn_entropy(args$x + 1, k = args$k)), error = function(e) NULL)
        if (!is.null(y) && all(is.finite(y)) && max(abs(y - x)) > 1e-8) {
          "a translation of x changes the entropy"
        }
      }
    }
  }
  list(args = args, warned_ok = TRUE, check = check)
}

gen_knn_cross_entropy <- function() {
  s <- draw_sets()
  args <- list(x = s$real, y = s$generated, k = draw_count(1, 5))
  list(args = args, warned_ok = TRUE, check = vec_check)
}

vec_check <- function(x) {
  if (!is.numeric(x) || !length(x) || !all(is.finite(x))) {
    return(paste("not finite:", paste(utils::head(format(x), 3), collapse = ", ")))
  }
  NULL
}

gen_pmse_stats <- function() {
  s <- draw_sets()
  args <- c(list(real = s$real, generated = s$generated),
            optional(maxorder = function() draw(function() pick(list(0, 1, 2)), list(-1, NA, 2.5, 1e9)),
                     id = function() draw(function() if (has_id(s)) "id" else NULL, list("nope"))))
  list(args = args, warned_ok = TRUE, check = function(x) metrics_problem(x, unbounded = "s_pmse"))
}

emb_unbounded <- c("fd", "fd_inf", "kid", "mmd_rbf", "vendi", "vendi_class", "authpct",
                   "sw_approx", "energy", "ct")

gen_embedding_metrics <- function() {
  s <- draw_sets()
  cheap <- c("fd", "kid", "mmd_rbf", "vendi", "authpct", "sw_approx", "energy")
  args <- list(real = s$real, generated = s$generated,
               metrics = draw(function() sample(cheap, sample(1:3, 1)),
                              list("foo", character(0), 1, "ct", "vendi_class", "fd_inf")))
  args <- c(args, optional(
    subsets = function() draw_count(1, 3), subset_size = function() draw_count(2, 20),
    bandwidth = function() draw(function() stats::runif(1, 0.5, 2), list(-1, c(1, 2, 3), Inf, 0)),
    classes = function() draw(function() sample(1:2, n_rows(s$generated) %|na|% 5, TRUE), list(1:3, NA)),
    held_out = function() draw(function() rmat(10, 2), list("a", matrix(1, 2, 3))),
    replicates = function() draw(function() pick(list(0, 2)), list(-1, NA)),
    conf_level = function() draw(function() 0.9, list(2, NA)),
    standardize = function() draw(function() "real", list("foo")),
    id = function() draw(function() if (has_id(s)) "id" else NULL, list("nope")), p = 0.25))
  list(args = args, warned_ok = TRUE,
       check = function(x) {
         metrics_problem(x, unbounded = emb_unbounded, nonfinite_ok = TRUE) %||%
           fd_swap_problem(args, x)
       })
}

`%|na|%` <- function(a, b) if (is.na(a)) b else a

#' The Fréchet distance is symmetric: fd(real, generated) = fd(generated,
#' real) (Heusel et al. 2017, eq. 6)
fd_swap_problem <- function(args, x) {
  if (!"fd" %in% x$metric || !is.matrix(args$real) || !is.matrix(args$generated) ||
      !is.null(args$standardize)) {
    return(NULL)
  }
  y <- tryCatch(quiet(embedding_metrics(args$generated, args$real, metrics = "fd")),
                error = function(e) NULL)
  if (is.null(y)) return(NULL)
  a <- x$value[x$metric == "fd"][1]
  b <- y$value[y$metric == "fd"][1]
  if (is.finite(a) && is.finite(b) && abs(a - b) > 1e-6 * max(1, abs(a))) {
    return(sprintf("fd is not symmetric: %.6g against %.6g", a, b))
  }
  NULL
}

gen_prd_class_subset <- function() {
  n <- sample(c(12, 18, 30), 1)
  x <- rbind(rmat(n / 3, 2), rmat(n / 3, 2, 4), rmat(n / 3, 2, 8))
  labels <- rep(1:3, each = n / 3)
  args <- list(x = draw(function() x, list(matrix("a", n, 2), x[, 1, drop = FALSE], set_cell(x, NA)), 0.1),
               labels = draw(function() pick(list(labels, factor(labels), letters[labels])),
                             list(replace(labels, 2, NA), labels[-1], as.list(labels), rep(1, n))),
               real_classes = draw(function() 1:2, list(integer(0), 99, NA, identity)),
               q = draw(function() sample(1:3, sample(1:3, 1)), list(0, 4, NA, "a", c(1, 1), 1e10)),
               method = "knn", angles = 21)
  args <- c(args, optional(k = function() draw_count(1, 4), split = function() draw(function() 0.5, list(0.99, 1))))
  list(args = args, check = function(x) {
    if (!is.list(x)) return("not a list")
    curve_problem(x$curves, "curves") %||%
      (if (!in_unit(x$summary$iou)) paste("summary$iou not in [0, 1]:", describe_bad(x$summary$iou)))
  })
}

gen_prd_threads <- function() {
  n <- draw(function() pick(list(NULL, 1, 2)), list(0, -1, NA, 2.5, "a", 1e9, 3e9, c(1, 2), TRUE))
  list(fn = function(n) {
    old <- prd_threads()
    on.exit(prd_threads(old))
    prd_threads(n)
  }, args = list(n = n), check = function(x) {
    if (!is.numeric(x) || length(x) != 1L || !(x >= 1)) return(paste("thread count:", format(x)))
    NULL
  })
}

# ---- results as input: tidiers, comparisons, summaries, plots -------------------

#' Results of the package (and things that are not), built once
fuzz_objects <- function() {
  set.seed(1)
  X <- rmat(30, 3)
  Y <- rmat(30, 3, 0.6)
  good <- prd_truth_gaussian(0, 1, angles = 21)
  cv_rep <- quiet(prd_curve(X, list(a = Y, b = Y + 0.5), method = "knn", angles = 11, replicates = 3))
  bad <- good
  bad$precision[5] <- NA
  list(
    "a curve" = quiet(prd_curve(X, Y, method = "knn", angles = 11)),
    "curves with replicates" = cv_rep,
    "tightest curve" = quiet(prd_curve(X, Y, angles = 11)),
    "metrics" = quiet(manifold_metrics(X, Y, metrics = c("precision", "recall"))),
    "metrics with replicates" = quiet(manifold_metrics(X, list(a = Y, b = Y + 0.5),
                                                       metrics = c("precision", "recall"), replicates = 3)),
    "entropy metrics" = quiet(entropy_metrics(X, Y, k = 2)),
    "embedding metrics" = quiet(embedding_metrics(X, Y, metrics = c("fd", "kid"))),
    "a truth" = good, "a discrete curve" = prd_discrete(c(1, 0), c(0, 1), angles = 21),
    "three rows of a curve" = good[1:3, ], "no rows of a curve" = good[0, ],
    "a curve with NA" = bad, "a curve without recall" = good[, setdiff(names(good), "recall")],
    "a summary" = summary(cv_rep), "a comparison" = quiet(prd_compare(cv_rep)),
    "a data frame" = data.frame(x = 1), "a number" = 1, "a string" = "a", "NULL" = NULL,
    "a list" = list(), "a function" = identity, "a matrix" = X
  )
}

gen_object_fn <- function(fn, objects) {
  function() {
    # summary() and plot() reach the package's methods only for its classes
    pool <- if (fn %in% c("summary", "plot")) {
      Filter(function(o) inherits(o, c("prd_curve", "prd_metrics", "prd_comparison")), objects)
    } else objects
    obj <- pick(pool)
    args <- list(x = obj)
    check <- function(x) NULL
    if (fn %in% c("prd_compare", "tidy", "prd_curve_bands")) {
      args <- c(args, optional(conf_level = function() draw(function() 0.9, list(0, 1, NA, "a", c(0.5, 0.9)))))
    }
    if (fn == "prd_compare") {
      args <- c(args, optional(baseline = function() draw(function() pick(list("a", "b")), list("c", NA, 1, c("a", "b"))),
                               atoms = function() draw(function() "exact", list("foo"))))
      check <- function(x) {
        if (!is.data.frame(x)) return("not a comparison table")
        ok <- is.na(x$lower) | (x$lower <= x$estimate + 1e-12 & x$estimate <= x$upper + 1e-12)
        if (!all(ok)) "estimate outside its interval"
      }
    }
    if (fn == "prd_figure_size") names(args) <- "plot"
    if (fn == "autoplot") {
      names(args) <- "object"
      return(list(fn = function(object) ggplot2::ggplot_build(autoplot(object)), args = args))
    }
    if (fn == "summary") {
      args <- c(args, optional(beta = function() draw(function() pick(list(1, 8)), list(0, -1, 1e300, 1e-300, NA, "a")),
                               epsilon = function() draw(function() 0.01, list(0, -1, NA, 2))))
      names(args)[1] <- "object"
      return(list(fn = summary, args = args, check = function(x) {
        if (inherits(x, "prd_curve_summary")) summary_problem(x) else NULL
      }))
    }
    if (fn == "plot") {
      return(list(fn = function(x) {
        grDevices::pdf(NULL)
        on.exit(grDevices::dev.off())
        plot(x)
      }, args = args))
    }
    list(args = args, check = check)
  }
}

gen_prd_iou <- function(objects) {
  function() {
    a <- pick(objects)
    b <- if (coin(0.2)) a else pick(objects)
    list(args = list(curve1 = a, curve2 = b), check = function(x) {
      if (!in_unit(x)) return(paste("IoU not finite in [0, 1]:", describe_bad(x)))
      if (identical(a, b) && inherits(a, "prd_curve") && all(abs(x - 1) > 1e-9)) {
        return(sprintf("the IoU of a curve with itself is %.6g, not 1", x[1]))
      }
      y <- tryCatch(quiet(prd_iou(b, a)), error = function(e) NULL)
      if (length(y) == length(x) && length(x) == 1 && abs(x - y) > 1e-9) {
        return(sprintf("the IoU is not symmetric: %.6g against %.6g", x, y))
      }
      NULL
    })
  }
}

gen_prd_bind <- function(objects) {
  function() {
    k <- sample(0:3, 1)
    args <- lapply(seq_len(k), function(i) pick(objects))
    if (k && coin(0.6)) names(args) <- sample(c("a", "b", "a", ""), k, TRUE)
    list(args = args, check = function(x) if (is.data.frame(x)) curve_problem(x) else NULL)
  }
}

# ---- files: prd_read(), prd_npz_arrays(), prd_cli() ----------------------------------

#' Files for the readers and the command line, written once in `dir`
fuzz_files <- function(dir) {
  dir.create(dir, showWarnings = FALSE)
  w <- function(name, lines) {
    f <- file.path(dir, name)
    writeLines(lines, f)
    f
  }
  to_lines <- function(m) apply(m, 1, paste, collapse = ",")
  set.seed(2)
  X <- rmat(20, 3)
  Y <- rmat(20, 3, 0.5)
  rds <- file.path(dir, "m.rds")
  saveRDS(X, rds)
  bad_rds <- file.path(dir, "bad.rds")
  saveRDS(list(1, "a"), bad_rds)
  list(
    good = c(real = w("real.csv", to_lines(X)), gen = w("gen.csv", to_lines(Y)),
             gen2 = w("gen2.csv", to_lines(Y + 1)),
             header = w("header.csv", c("f1,f2,f3", to_lines(Y))),
             id = w("id.csv", c("id,f1,f2", paste0(1:20, ",", to_lines(Y[, 1:2])))),
             tsv = w("tab.tsv", c("a\tb", "1\t2", "3\t4", "5\t6", "7\t8")), rds = rds),
    bad = c(empty = w("empty.csv", character(0)),
            na = w("na.csv", c(to_lines(X[1:5, ]), "1,NA,2", to_lines(X[6:9, ]))),
            text = w("text.csv", c("a,b,c", "1,2,x", "3,4,y", "5,6,z")),
            ragged = w("ragged.csv", c("1,2,3", "4,5", "6,7,8,9")),
            one = w("one.csv", "1,2,3"), two_cols = w("two.csv", to_lines(Y[, 1:2])),
            header_only = w("header-only.csv", "a,b,c"), bad_rds = bad_rds,
            npy = w("fake.npy", "not an npy file"), npz = w("fake.npz", "not a zip"),
            missing = file.path(dir, "nope.csv"), dir = dir,
            unknown = w("x.xyz", "1,2"), huge = w("huge.csv", to_lines(X * 1e300)))
  )
}

gen_prd_read <- function(files) {
  function() {
    path <- draw(function() pick(as.list(c(files$good, files$bad))), list(), 0, 0.15)
    args <- c(list(path = path), optional(
      features = function() draw(function() pick(list(1:2, "f1", quote(starts_with("f")))),
                                 list(99, "nope", quote(nope))),
      id = function() draw(function() "id", list("nope", 1)),
      header = function() draw(function() coin(), list(NA, "yes")),
      member = function() draw(function() "real", list(1)), p = 0.2))
    list(args = args, check = function(x) if (is.data.frame(x)) NULL else "not a data frame")
  }
}

gen_prd_npz_arrays <- function(files) {
  function() {
    path <- draw(function() pick(as.list(c(files$bad[c("npz", "missing", "dir")], files$good["real"],
                                          system.file("extdata", "digits-models.npz", package = "prdcurve")))),
                 list(), 0, 0.2)
    list(args = list(path = path), check = function(x) NULL)
  }
}

#' A random command line: files, then flags with valid and invalid values
gen_prd_cli <- function(files, out_dir) {
  function() {
    good <- files$good
    f <- c(good[c("real", "gen", "gen2", "header", "id", "tsv", "rds")], files$bad)
    paths <- if (coin(0.7)) unname(good[c("real", "gen")]) else unname(sample(f, sample(0:3, 1)))
    if (coin(0.15)) paths <- c(paste0("--real=", good[["real"]]), paste0("--generated=m=", good[["gen"]]))
    flag_pool <- list(
      "--k" = c("1", "2", "3", "0", "-1", "abc", "1e9", ""), "--split" = c("0", "0.5", "1", "-1", "abc"),
      "--method" = c("knn", "kde", "knn,ipr", "tightest", "linear", "marginal", "foo", ""),
      "--angles" = c("11", "21", "2", "NaN", "1e9"), "--seed" = c("1", "abc"),
      "--bandwidth" = c("1", "1,2", "-1", "1e300"), "--folds" = c("1", "2", "0", "x"),
      "--replicates" = c("0", "2", "-1"), "--compare" = c("gen", "nope"),
      "--atoms" = c("exact", "ignore", "foo"), "--features" = c("1:2", "nope", "f1,f2", "starts_with(\"f\")"),
      "--id" = c("id", "nope"), "--generated" = c(good[["gen2"]], "b=nope.csv"))
    switches <- c("--open", "--standardize", "--header", "--no-header", "--metrics", "--bogus", "-h")
    flags <- character()
    for (nm in sample(names(flag_pool), sample(0:3, 1))) {
      v <- sample(flag_pool[[nm]], 1)
      flags <- c(flags, if (coin()) paste0(nm, "=", v) else c(nm, v))
    }
    if (coin(0.3)) flags <- c(flags, sample(switches, 1))
    if (coin(0.1)) flags <- c(flags, "--metrics=fd,foo")
    if (!"--method" %in% sub("=.*", "", flags) && coin(0.8)) flags <- c(flags, "--method", "knn")
    out <- if (coin(0.95)) file.path(out_dir, "run") else file.path(out_dir, "no-such-dir", "run")
    args <- c(paths, flags, "--angles", "11", "--quiet", "--out", out)
    if (!any(grepl("^--seed", flags))) args <- c(args, "--seed", "1")
    list(fn = function(args) {
      utils::capture.output(res <- prd_cli(args))
      res
    }, args = list(args = args), cli = TRUE,
    check = function(x) if (is.null(x) || !is.data.frame(x)) NULL else curve_problem(x))
  }
}
