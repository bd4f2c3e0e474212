# Random fuzz cases of the scalar metrics, the per-sample tables and the
# class subsets (bench/fuzz.R; the shared draws are in bench/fuzz-cases.R).

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
        args$metrics <- draw(function() sample(getFromNamespace("manifold_metric_names", "prdcurve")(), sample(1:3, 1)),
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
      identical(args$standardize, "real") ||
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
