# Random fuzz cases for bench/fuzz.R: the shared draws, and the curves. For
# each exported function (and a few S3 methods), a generator that draws its arguments at random from valid
# values, values at and past their limits, hostile sample sets
# (fuzz_bad_sets(), fuzz_pair_sets() of tests/testthat/helper-fuzz.R) and
# values of the wrong type. Each generator returns
#   list(args = <named list>, check = <function(value): NULL or a problem>,
#        warned_ok = <a classed warning excuses a non-finite result>)
# and may hold an invariant in its check (swapping the sets swaps precision
# and recall; identical sets give the curve at 1). Sizes are tiny (tens of
# rows) so that a case takes tens of milliseconds. The metrics are in
# bench/fuzz-metrics.R, the functions of results, files and command lines in
# bench/fuzz-results.R.

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
valid_set <- function(n, d, shift = 0, v = sample.int(n_forms, 1)) {
  x <- rmat(n, d, shift)
  switch(v,
    x, x, x,
    as.data.frame(x),
    data.frame(id = seq_len(n), x),
    data.frame(x, label = sample(c("a", "b"), n, TRUE)),
    matrix(sample(0:3, n * d, TRUE), n, d),
    cbind(x, 0),
    rbind(x, x)[sample.int(2 * n, n), , drop = FALSE],
    data.frame(x, f = factor(sample(c("u", "v", "w"), n, TRUE))),
    data.frame(x, b = sample(c(TRUE, FALSE), n, TRUE)),
    data.frame(id = sample(c(1:3, NA), n, TRUE), x)
  )
}
n_forms <- 12L

#' The two sample sets of a case: valid, one side hostile, both hostile
#' alike, or of the wrong type; sometimes several generated models
draw_sets <- function() {
  n <- sample(c(4:12, 20, 30, 40), 1)
  d <- sample(c(1:4, 2, 3), 1)
  n2 <- if (coin(0.6)) n else sample(c(4:12, 20, 30, 80), 1)
  X <- rmat(n, max(d, 2))
  Y <- rmat(n2, max(d, 2), stats::runif(1, 0, 1.5))
  if (d == 1) {
    X <- X[, 1, drop = FALSE]
    Y <- Y[, 1, drop = FALSE]
  }
  u <- stats::runif(1) * fuzz_state$hostility
  if (u < 0.45) {
    v <- sample.int(n_forms, 1)
    real <- valid_set(n, d, 0, v)
    gen <- valid_set(n2, d, 0.7, v)
    if (coin(0.15)) gen <- list(a = gen, b = valid_set(n2, d, 0.3, v))
    # the two models as one grouped data frame
    if (!is.data.frame(gen) && is.data.frame(gen[[1]]) && coin(0.5) &&
        requireNamespace("dplyr", quietly = TRUE)) {
      gen <- dplyr::group_by(rbind(data.frame(model = "a", gen$a),
                                   data.frame(model = "b", gen$b)), model)
    }
    # a column that labels the sets (one value in each)
    if (is.data.frame(real) && coin(0.15)) {
      real$source <- "real"
      if (is.data.frame(gen)) gen$source <- "gen" else
        gen <- lapply(gen, function(g) {
          if (is.data.frame(g)) g$source <- "gen"
          g
        })
    }
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
  fam <- getFromNamespace("family_names", "prdcurve")()
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
              repeats = function() draw(function() pick(list(1, 2, 3)), list(0, -1, NA, 2.5, 1e9, "a")),
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
  p <- sample.int(nrow(r))
  a2$real <- r[p, , drop = FALSE]
  # a split that names rows follows them to their new positions
  if (is.list(args$split) && !is.null(args$split$real)) {
    if (!is.numeric(args$split$real)) return(NULL)
    a2$split$real <- match(args$split$real, p)
  }
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
  # (the fitted families draw their folds at random: not symmetric)
  sym <- c("knn", "kde", "ipr", "coverage")
  if (!identical(args$split, 0) || !is.character(args$method) ||
      identical(args$standardize, "real") ||
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
        # the curve of scores depends on their order only (where the
        # transform keeps the order in doubles: exp(5e-324) + 1 and
        # exp(0) + 1 are both 2)
        a2 <- args
        a2$score_real <- exp(a) + 1
        a2$score_generated <- exp(b) + 1
        same_order <- identical(rank(c(a, b)),
                                rank(c(a2$score_real, a2$score_generated)))
        y <- if (same_order) {
          tryCatch(quiet(do.call(prd_scores, a2)), error = function(e) NULL)
        }
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
