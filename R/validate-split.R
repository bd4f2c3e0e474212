# The split object: resolve_split() and resolve_model_splits() make it,
# new_split() constructs it (fit rows, evaluation rows, the split asked
# for), split_fit(), split_eval() and the other accessors read it,
# split_sizes() counts it; the folds of the fitted families.

#' Resolve `split` into fit and evaluation rows (SPEC.md section 0)
#'
#' A fraction s in [0, 1): each set is permuted with R's RNG and its first
#' round(s * n) rows (at least one) are evaluated, the rest fit. s = 0: no
#' split. A list `list(real = <int>, generated = <int>)` gives the evaluation
#' rows explicitly. Returns list(fit = list(x, y), eval = list(x, y) or NULL,
#' split = s or "rows").
#' @noRd
resolve_split <- function(split, n_real, n_generated,
                          call = rlang::caller_env()) {
  if (is.list(split)) {
    if (!identical(sort(names(split)), c("generated", "real"))) {
      prd_abort(c(
        "{.arg split} as a list must have exactly the elements {.field real} and {.field generated}.",
        "i" = "Each holds the evaluation rows (1-based) of that set."
      ), "split", call = call)
    }
    ev <- list()
    for (nm in c("real", "generated")) {
      n <- if (nm == "real") n_real else n_generated
      idx <- split[[nm]]
      lab <- paste0("split$", nm)
      if (!is_whole(idx) || length(idx) < 1L) {
        prd_abort("{.arg {lab}} must be a non-empty vector of row numbers.",
                  "split", call = call)
      }
      if (any(idx < 1 | idx > n)) {
        prd_abort(c(
          "{.arg {lab}} must hold row numbers between 1 and {n}.",
          "x" = "Out of range: {.val {utils::head(idx[idx < 1 | idx > n], 5)}}."
        ), "split", call = call)
      }
      if (anyDuplicated(idx)) {
        prd_abort("{.arg {lab}} must not repeat rows.", "split", call = call)
      }
      if (n - length(idx) < 2L) {
        prd_abort(c(
          "{.arg {lab}} leaves fewer than 2 rows of {.arg {nm}} to fit on.",
          "x" = "{length(idx)} of {n} rows are for evaluation."
        ), "split", call = call)
      }
      ev[[nm]] <- sort(as.integer(idx))
    }
    fit <- list(setdiff(seq_len(n_real), ev$real),
                setdiff(seq_len(n_generated), ev$generated))
    return(new_split(fit, list(ev$real, ev$generated), "rows"))
  }
  check_split_fraction(split, call)
  if (split == 0) {
    return(new_split(list(seq_len(n_real), seq_len(n_generated)), NULL, 0))
  }
  px <- split_part(split, n_real, "real", call)
  py <- split_part(split, n_generated, "generated", call)
  split_from_parts(px, py, split)
}

#' The resolved split, the one form every function and the engine use,
#' made only here: `fit` (fit rows of real and generated), `eval` (their
#' evaluation rows, two integer vectors; NULL: the fit rows themselves,
#' self excluded; or a matrix of query points), `split` (as given: 0, a
#' fraction, or "rows") and `self_rows` (evaluation rows that are fit rows,
#' their positions among the fit rows: left out of their own balls, as
#' without a split; engine-futures.R).
#' @noRd
new_split <- function(fit, eval = NULL, split = 0, self_rows = NULL) {
  structure(list(fit = fit, eval = eval, split = split, self_rows = self_rows),
            class = "prdcurve_split")
}

# The split object's accessors: the only readers of its fields (a test
# walks the namespace's functions for reads of them elsewhere). `j` picks a
# set: 1 real, 2 generated.

#' The fit rows: list(real, generated), or set j's (an integer vector)
#' @noRd
split_fit <- function(s, j = NULL) {
  fit <- .subset2(s, "fit")
  if (is.null(j)) fit else fit[[j]]
}

#' The evaluation rows: list(real, generated) or set j's; a matrix of query
#' points of their own; NULL without a split (the fit rows themselves)
#' @noRd
split_eval <- function(s, j = NULL) {
  ev <- .subset2(s, "eval")
  if (is.null(j) || is.null(ev)) ev else ev[[j]]
}

#' TRUE when the split has evaluation rows of its own, FALSE when the fit
#' rows are evaluated themselves (self excluded: `split` = 0)
#' @noRd
split_has_eval <- function(s) !is.null(.subset2(s, "eval"))

#' The rows evaluated: the evaluation rows, or the fit rows without a split
#' (list(real, generated), or set j's)
#' @noRd
split_scored <- function(s, j = NULL) {
  if (split_has_eval(s)) split_eval(s, j) else split_fit(s, j)
}

#' The split as asked for: 0, a fraction, or "rows"
#' @noRd
split_asked <- function(s) .subset2(s, "split")

#' The evaluation rows that are fit rows (their positions among the fit
#' rows, left out of their own balls), or NULL
#' @noRd
split_self_rows <- function(s) .subset2(s, "self_rows")

#' The split object of two partitions of split_part() (real, generated)
#' @noRd
split_from_parts <- function(px, py, split) {
  new_split(list(px$fit, py$fit), list(px$eval, py$eval), split)
}

#' A split given as rows, for a half-sample of the replicates (a subset
#' whose attribute "prdcurve_rows" holds its rows in the full set): the
#' user's evaluation rows that fall in the half, as positions in it; the
#' rest of the half is fitted on. A half without any of a set's evaluation
#' rows, or with fewer than 2 rows to fit on, is an error (prdcurve_error_split).
#' @noRd
split_rows_in_half <- function(split, real, g, call = rlang::caller_env()) {
  map <- function(rows, x, nm) {
    from <- attr(x, "prdcurve_rows")
    if (is.null(from)) return(rows)
    pos <- which(from %in% rows)
    if (!length(pos) || length(from) - length(pos) < 2L) {
      prd_abort(c(
        "A half-sample of the replicates holds {length(pos)} of the {length(rows)} evaluation row{?s} of {.arg split${nm}} and {length(from) - length(pos)} row{?s} to fit on.",
        "i" = "Each half keeps the evaluation rows that fall in it, so each half needs at least 1 of them and 2 other rows.",
        "i" = "Give more evaluation rows, or use {.code replicates = 0}."
      ), "split", call = call)
    }
    pos
  }
  list(real = map(split$real, real, "real"),
       generated = map(split$generated, g, "generated"))
}

check_split_fraction <- function(split, call = rlang::caller_env()) {
  if (!is.numeric(split) || length(split) != 1L || !is.finite(split) ||
      split < 0 || split >= 1) {
    prd_abort(c(
      "{.arg split} must be a fraction in [0, 1) or a list of evaluation rows.",
      "x" = "It is {describe(split)}."
    ), "split", call = call)
  }
  invisible(split)
}

#' The fit rows a share `split` of evaluation rows leaves of n rows (also
#' the checks' largest k, k_limit())
#' @noRd
split_fit_count <- function(split, n) round((1 - split) * n)

#' One set's random partition into fit and evaluation rows: the first
#' round(split * n) rows of a permutation (R's RNG; or `perm`, drawn
#' before) are evaluated; with `order`, positions in that order of the rows
#' (canonical_order(): the metrics' sets).
#' @noRd
split_part <- function(split, n, nm, call = rlang::caller_env(), order = NULL,
                       perm = NULL) {
  n_fit <- split_fit_count(split, n)
  n_eval <- n - n_fit
  if (n_eval < 1L || n_fit < 2L) {
    prd_abort(c(
      "{.arg split} = {split} leaves {n_fit} fit and {n_eval} evaluation rows of {.arg {nm}}.",
      "i" = "Each part needs at least 1 evaluation and 2 fit rows."
    ), "split", call = call)
  }
  if (is.null(perm)) perm <- sample.int(n)
  if (!is.null(order)) perm <- order[perm]
  list(fit = sort(perm[seq_len(n_fit)]), eval = sort(perm[-seq_len(n_fit)]))
}

split_sizes <- function(s) {
  c(fit_real = length(split_fit(s, 1)),
    fit_generated = length(split_fit(s, 2)),
    eval_real = length(split_scored(s, 1)),
    eval_generated = length(split_scored(s, 2)))
}

#' Fit rows per set, as a multiple of d^2, from which the default `folds`
#' is one fit on the fit rows (resolve_folds()): there the folds' extra
#' fit rows no longer bring the curve closer. Measured with "tightest" on
#' the Gaussian scenarios of validity_scenarios() (same, shifts of 1 along
#' an axis and of 0.5 in a random direction, dispersions 0.8 and 1.2; 2-3
#' draws, split 0.5): where each set has d^2 fit rows or more (d = 16 at
#' 2,000-20,000 points per set, d = 64 at 10,000 and 20,000) the mean
#' |AUC error| was 0.0086 with one fit and 0.0087 with 10 folds, no cell
#' apart by more than 0.002; below (d = 64 at 1,000-5,000, d = 128 at
#' 300-5,000) 10 folds were closer by 0.002-0.006. At 20,000 x 64 one fit
#' takes the default from 3.09 to 1.79-2.12 times knn's time (bench/results.md).
#' @noRd
folds_one_fit <- 1

#' The fitted families' folds: `folds` NULL (default) gives 10, or fewer
#' where the sets are small (2 evaluation rows a fold), and one fit on the
#' fit rows (1) when fewer than 2 folds fit with a split, or when every set
#' has at least folds_one_fit d^2 fit rows (d the columns; in the
#' half-samples of the replicates, half the rows); a given K must give
#' each fold 2 evaluation rows (all rows without a split), also in the
#' half-samples of the replicates; K = 1 needs a split. Checked before any
#' work.
#' @noRd
resolve_folds <- function(folds, splits, replicates, d = Inf,
                          call = rlang::caller_env()) {
  z <- lapply(splits, split_sizes)
  fewest <- function(a, b) min(vapply(z, function(x) min(x[[a]], x[[b]]), 1))
  rows <- fewest("eval_real", "eval_generated")
  fit_rows <- fewest("fit_real", "fit_generated")
  no_split <- !all(vapply(splits, split_has_eval, logical(1)))
  where <- "evaluation rows"
  if (replicates > 0L) {
    rows <- floor(rows / 2)
    fit_rows <- floor(fit_rows / 2)
    where <- "evaluation rows in a half-sample of the replicates"
  }
  if (is.null(folds)) {
    if (!no_split && fit_rows >= folds_one_fit * d^2) return(1L)
    K <- min(10L, as.integer(rows %/% 2))
    # without a split 2 folds at least (cross_folds() says when too few)
    return(if (K >= 2L) K else if (no_split) 2L else 1L)
  }
  if (folds == 1L && no_split) {
    prd_abort(c(
      "{.arg folds} = 1 fits the fitted families on the fit rows alone, and {.code split = 0} leaves none.",
      "i" = "Use {.arg folds} of 2 or more, or a split."
    ), "split", call = call)
  }
  if (rows < 2 * folds) {
    prd_abort(c(
      "{.arg folds} = {folds} needs at least {2 * folds} evaluation rows per set (2 a fold).",
      "x" = "A set has {rows} {where}.",
      "i" = "Use fewer {.arg folds}, more rows or a larger {.arg split}."
    ), "split", call = call)
  }
  folds
}

