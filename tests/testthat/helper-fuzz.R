# The fuzz harness, shared by the seeded fuzz test (test-fuzz.R) and the
# random fuzz driver (bench/fuzz.R, which sources this file): the checkers of
# results (`*_problem()`: NULL when fine, else what is wrong), one case run
# under a time limit with its conditions recorded (fuzz_run()), its verdict
# (fuzz_verdict()) and the hostile sample sets (fuzz_bad_sets(),
# fuzz_pair_sets()).
#
# A verdict is one of
# * "ok": a result the checker accepts, or an error inheriting from
#   `prdcurve_error` (or an `rlang_error` raised by rlang's own argument
#   checks, such as `rlang::arg_match()`) with no stray " ." at the end of a
#   line; with `given`, the message must also name an argument (or a flag or
#   file of the command line) the caller gave;
# * "unclear": any other error (unclassed, "no applicable method", base R
#   internals), or a classed one that names no argument the caller gave;
# * "silent-wrong": a result the checker rejects (non-finite or out of
#   range) with no classed warning where one is allowed (`warned_ok`);
# * "unclassed warning": a warning without the class `prdcurve_warning`;
# * "hang": more than `limit` seconds.

#' Namespaces of the functions on the call stack between frame `from` and
#' the caller of this function.
frame_namespaces <- function(from) {
  n <- sys.nframe() - 1L
  if (n <= from) return(character())
  vapply((from + 1L):n, function(i) {
    env <- environment(sys.function(i))
    if (is.null(env)) "base" else environmentName(topenv(env))
  }, "")
}

`%||%` <- function(a, b) if (is.null(a)) b else a

stray_dot <- function(msg) grepl(" \\.(\n|$)", msg)

in_unit <- function(v) {
  is.numeric(v) && all(is.finite(v)) && all(v >= 0 & v <= 1)
}

describe_bad <- function(v) {
  v <- v[!(is.finite(v) & v >= 0 & v <= 1)]
  paste(utils::head(format(v), 3), collapse = ", ")
}

#' NULL if `x` is a valid curve, else what is wrong.
curve_problem <- function(x, what = "curve") {
  if (!is.data.frame(x) || !all(c("precision", "recall") %in% names(x))) {
    return(paste(what, "is not a data frame with precision and recall"))
  }
  if (nrow(x) < 1L) return(paste(what, "has no rows"))
  for (col in c("precision", "recall")) {
    if (!in_unit(x[[col]])) {
      return(sprintf("%s$%s not finite in [0, 1]: %s", what, col,
                     describe_bad(x[[col]])))
    }
  }
  NULL
}

#' Metrics tibble (metric, value): finite; bounded metrics in [0, 1].
#' Unbounded: "density" (>= 0); entropy metrics may be non-finite only with
#' a classed warning (documented: zero k-NN distances).
metrics_problem <- function(x, unbounded = character(), nonfinite_ok = FALSE) {
  if (is.list(x) && !is.data.frame(x)) x <- x$metrics
  if (!is.data.frame(x) || !"value" %in% names(x)) {
    return("result has no value column")
  }
  v <- x$value
  if (!is.numeric(v) || length(v) < 1L) return("value is not numeric")
  if (!nonfinite_ok && !all(is.finite(v))) {
    return(paste("value not finite:", describe_bad(v)))
  }
  bounded <- if ("metric" %in% names(x)) !x$metric %in% unbounded else
    rep(TRUE, length(v))
  vb <- v[bounded & is.finite(v)]
  if (length(vb) && !in_unit(vb)) {
    return(paste("bounded value outside [0, 1]:", describe_bad(vb)))
  }
  NULL
}

summary_problem <- function(x) {
  if (!is.data.frame(x)) return("summary is not a data frame")
  unit <- c("max_precision", "max_recall", "f_beta_precision",
            "f_beta_recall", "median_precision", "median_recall",
            "precision_at_recall", "recall_at_precision")
  for (col in unit) {
    if (!in_unit(x[[col]])) {
      return(sprintf("summary$%s not finite in [0, 1]: %s", col,
                     describe_bad(x[[col]])))
    }
  }
  # the area of a polygon inside the unit square: never above 1
  if (!all(is.finite(x$auc)) || any(x$auc < 0 | x$auc > 1 + 1e-12)) {
    return(paste("summary$auc outside [0, 1]:", format(x$auc)))
  }
  if (anyNA(x$median_lambda) || any(x$median_lambda < 0)) {
    return(paste("summary$median_lambda:", format(x$median_lambda)))
  }
  NULL
}

sim_problem <- function(x) {
  for (nm in c("real", "generated")) {
    m <- x[[nm]]
    if (!is.matrix(m) || !is.numeric(m) || !all(is.finite(m))) {
      return(paste(nm, "is not a finite numeric matrix"))
    }
  }
  curve_problem(x$truth, "truth")
}

mixture_problem <- function(mix) {
  if (!inherits(mix, "prd_gaussian_mixture")) return("not a mixture")
  if (!in_unit(mix$weights) || abs(sum(mix$weights) - 1) > 1e-12) {
    return(paste("weights:", format(mix$weights)))
  }
  z <- mix$sample(4)
  if (!is.matrix(z) || !all(is.finite(z))) return("sample() not finite")
  ld <- mix$log_density(z)
  if (!is.numeric(ld) || anyNA(ld) || any(ld == Inf)) {
    return(paste("log_density() at its own draws:", format(ld)))
  }
  NULL
}


#' NULL when every statistic of a summary with intervals lies in its
#' documented range and every interval holds its estimate and its range
interval_problem <- function(s) {
  p <- summary_problem(s)
  if (!is.null(p)) return(p)
  for (st in prdcurve:::curve_statistic_names) {
    lo <- s[[paste0(st, "_lower")]]
    hi <- s[[paste0(st, "_upper")]]
    if (is.null(lo)) next
    est <- s[[st]]
    ok <- is.na(lo) | (lo <= est + 1e-12 & est <= hi + 1e-12 & lo >= -1e-12 &
                         (st == "median_lambda" | hi <= 1 + 1e-12))
    if (!all(ok)) {
      return(sprintf("%s: interval [%s, %s] vs estimate %s", st,
                     format(lo[!ok][1]), format(hi[!ok][1]), format(est[!ok][1])))
    }
  }
  NULL
}

metric_interval_problem <- function(m, unbounded = character()) {
  p <- metrics_problem(m, unbounded = unbounded)
  if (!is.null(p)) return(p)
  if (!"lower" %in% names(m)) return(NULL)
  ok <- is.na(m$lower) | (m$lower <= m$value + 1e-12 &
                            m$value <= m$upper + 1e-12)
  bounded <- !m$metric %in% unbounded
  ok <- ok & (!bounded | is.na(m$lower) | (m$lower >= -1e-12 & m$upper <= 1 + 1e-12))
  if (!all(ok)) return(paste("interval without its estimate or out of range:",
                             m$metric[!ok][1]))
  NULL
}

#' Run `f()` under an elapsed-time limit of `limit` seconds; returns its
#' value, its error (NULL if none) with the namespaces on the stack when it
#' was raised, its warnings (muffled) and the seconds it took.
fuzz_run <- function(f, limit = 10) {
  base <- sys.nframe()
  warns <- list()
  err <- NULL
  err_ns <- character()
  t0 <- proc.time()[["elapsed"]]
  setTimeLimit(elapsed = limit, transient = TRUE)
  on.exit(setTimeLimit(elapsed = Inf), add = TRUE)
  value <- tryCatch(
    withCallingHandlers(
      f(),
      warning = function(w) {
        warns[[length(warns) + 1L]] <<- w
        invokeRestart("muffleWarning")
      },
      message = function(m) invokeRestart("muffleMessage"),
      error = function(e) err_ns <<- frame_namespaces(base)
    ),
    error = function(e) {
      err <<- e
      NULL
    }
  )
  setTimeLimit(elapsed = Inf)
  list(value = value, error = err, error_ns = err_ns, warnings = warns,
       seconds = proc.time()[["elapsed"]] - t0)
}

#' The backticked names in a condition message: `k`, `real$x` and
#' `split = 0.5` give "k", "real", "split"; `--k 3` gives "--k".
message_names <- function(msg) {
  ticks <- regmatches(msg, gregexpr("`[^`\n]+`", msg))[[1]]
  ticks <- gsub("`", "", ticks)
  nm <- regmatches(ticks, regexpr("^(--[A-Za-z][A-Za-z0-9_-]*|[A-Za-z_.][A-Za-z0-9_.]*)", ticks))
  unique(nm)
}

#' NULL when an error message names one of `given` (argument names; for
#' the command line, with `anywhere`, its flags and files matched anywhere in
#' the message), else why not. A message naming only arguments the caller
#' did not give is clear when it asks for them ("`sample_real` must be a
#' function"), unclear when it blames their value ("`k` = 5 is too large"
#' for a `k` never set) without saying it is the default. `values` are the
#' strings given (a path named by value is named).
names_given <- function(msg, given, formals = character(), anywhere = FALSE,
                        values = character()) {
  if (!length(given)) return(NULL)
  found <- function(g) any(vapply(g, grepl, logical(1), x = msg, fixed = TRUE))
  named <- message_names(msg)
  if (anywhere) {
    # a flag to give (`--real FILE`) names the input that is missing
    if (found(given) || any(startsWith(named, "--"))) return(NULL)
    return("names none of the flags or files given")
  }
  if (any(named %in% given)) return(NULL)
  # a label given as an argument name, shown as a value ("a/knn/k=4")
  if (found(paste0('"', given[nzchar(given)]))) return(NULL)
  # a value given (a path) shown in the message
  values <- values[!is.na(values) & nzchar(values)]
  if (length(values) && found(c(paste0("'", values, "'"), paste0('"', values, '"'),
                                values[nchar(values) > 2], basename(values)))) {
    return(NULL)
  }
  other <- intersect(named, formals)
  if (!length(other)) return("names no argument given")
  blamed <- vapply(other, function(a) {
    grepl(paste0("`", a, "( = [^`]*`|` = )"), msg)
  }, logical(1))
  if (any(blamed) && !grepl("default", msg, ignore.case = TRUE)) {
    return(paste0("blames `", other[blamed][1], "`, not given"))
  }
  NULL
}

#' The verdict on one run: list(class, problem), class one of "ok",
#' "error" (a clear error), "unclear", "silent-wrong", "unclassed warning",
#' "hang" (see the top of this file).
fuzz_verdict <- function(run, check = function(x) NULL, warned_ok = FALSE,
                         given = NULL, formals = character(),
                         anywhere = FALSE, values = character(), limit = 10) {
  verdict <- function(class, problem = NULL) list(class = class, problem = problem)
  for (w in run$warnings) {
    if (!inherits(w, c("prdcurve_warning", "lifecycle_warning_deprecated"))) {
      return(verdict("unclassed warning", sprintf(
        "unclassed warning <%s>: %s", paste(class(w), collapse = "/"),
        trimws(conditionMessage(w)))))
    }
    if (stray_dot(conditionMessage(w))) {
      return(verdict("unclear", paste("warning message with a stray ' .':",
                                      conditionMessage(w))))
    }
  }
  err <- run$error
  if (!is.null(err)) {
    msg <- trimws(conditionMessage(err))
    if (grepl("reached elapsed time limit", msg) || run$seconds > limit) {
      return(verdict("hang", sprintf("hang (> %g s)", limit)))
    }
    rlang_own <- inherits(err, "rlang_error") && "rlang" %in% run$error_ns &&
      !"cli" %in% run$error_ns
    if (!inherits(err, "prdcurve_error") && !rlang_own) {
      return(verdict("unclear", sprintf(
        "error without class prdcurve_error <%s>: %s",
        paste(class(err), collapse = "/"), gsub("\n", " ", msg))))
    }
    if (stray_dot(msg)) {
      return(verdict("unclear", paste("message with a stray ' .':", msg)))
    }
    if (!is.null(given) && !rlang_own) {
      why <- names_given(msg, given, formals, anywhere, values)
      if (!is.null(why)) {
        return(verdict("unclear", paste0(why, ": ", gsub("\n", " ", msg))))
      }
    }
    return(verdict("error"))
  }
  if (run$seconds > limit) return(verdict("hang", sprintf("hang (> %g s)", limit)))
  if (warned_ok && length(run$warnings)) return(verdict("ok"))
  problem <- tryCatch(check(run$value), error = function(e) {
    paste("the check failed:", conditionMessage(e))
  })
  if (is.null(problem)) verdict("ok") else verdict("silent-wrong", problem)
}

#' Run one case; returns NULL (fine) or a description of the problem.
fuzz_case <- function(f, check = function(x) NULL, warned_ok = FALSE) {
  fuzz_verdict(fuzz_run(f), check, warned_ok)$problem
}

# ---- hostile inputs -----------------------------------------------------------

set_cell <- function(m, v) {
  m[min(3L, nrow(m)), min(2L, ncol(m))] <- v
  m
}

#' One-sided hostile variants of a sample set `X` (n x d, n >= 4, d >= 2),
#' named by what is wrong with them.
fuzz_bad_sets <- function(X) {
  n0 <- nrow(X)
  list(
    "NA" = set_cell(X, NA), "NaN" = set_cell(X, NaN), "Inf" = set_cell(X, Inf),
    "-Inf" = set_cell(X, -Inf), "0 rows" = X[0, , drop = FALSE],
    "0 columns" = X[, 0, drop = FALSE], "NULL" = NULL,
    "numeric(0)" = numeric(0), "one row" = X[1, , drop = FALSE],
    "two rows" = X[1:2, , drop = FALSE], "one column" = X[, 1, drop = FALSE],
    "a vector" = X[, 1], "character matrix" = matrix(as.character(X), n0),
    "character column" = data.frame(X, s = "a"),
    "factor column" = data.frame(X, f = factor(rep(1:2, length.out = n0))),
    "logical matrix" = X > 0, "a list" = list(1, 2, 3),
    "a dist object" = stats::dist(X[1:4, ]), "a string" = "real.csv",
    "huge 1e150" = X * 1e150, "huge 1e300" = X * 1e300,
    "tiny 1e-300" = X * 1e-300, "offset 1e8" = X + 1e8,
    "duplicated rows" = rbind(X, X), "all rows identical" = matrix(1, n0, ncol(X)),
    "integer matrix" = matrix(sample(0:4, n0 * ncol(X), TRUE), n0),
    "data frame" = as.data.frame(X), "transposed" = t(X),
    "integer id column" = cbind(id = seq_len(n0), X[, -1, drop = FALSE])
  )
}

#' Hostile pairs: both sets of a pair transformed alike.
fuzz_pair_sets <- function(X, Y, wide = 200) {
  n0 <- nrow(X)
  list(
    "both one column" = list(X[, 1, drop = FALSE], Y[, 1, drop = FALSE]),
    "both two rows" = list(X[1:2, ], Y[1:2, ]),
    "both three rows" = list(X[1:3, ], Y[1:3, ]),
    "both huge 1e99" = list(X * 1e99, Y * 1e99),
    "both tiny 1e-99" = list(X * 1e-99, Y * 1e-99),
    "both offset 1e8" = list(X + 1e8, Y + 1e8),
    "both duplicated" = list(rbind(X, X), rbind(Y, Y)),
    "identical sets" = list(X, X),
    "generated collapsed" = list(X, matrix(0.5, n0, ncol(X))),
    "both integer" = list(matrix(sample(0:2, 60, TRUE), 20),
                          matrix(sample(0:2, 60, TRUE), 20)),
    "unequal sizes" = list(X, Y[1:min(7L, nrow(Y)), ]),
    "different columns" = list(X, Y[, -1, drop = FALSE]),
    "data frames" = list(as.data.frame(X), as.data.frame(Y)),
    "far apart" = list(X, Y + 1e4),
    "d > n" = list(matrix(rnorm(30 * wide), 30), matrix(rnorm(30 * wide), 30)),
    "columns in another order" = list(as.data.frame(X),
                                      as.data.frame(Y)[rev(seq_len(ncol(Y)))]),
    "other column names" = list(as.data.frame(X), stats::setNames(
      as.data.frame(Y), paste0("g", seq_len(ncol(Y))))),
    "models of other widths" = list(X, list(a = Y, b = Y[, -1, drop = FALSE]))
  )
}
