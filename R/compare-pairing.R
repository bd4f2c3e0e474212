# What prd_compare() pairs, checked before it pairs it: each model's
# curves with the baseline's of the same method and k, half-sample by
# half-sample. The pairing holds for curves that read the same real rows
# in every draw: those of one prd_curve() call, or of separate calls on
# the same real set whose draws came out the same (the same seed, sizes
# and random numbers used in between). Each curve keeps two fingerprints
# (rlang::hash(), 128 bits) that prd_compare() compares: of the real set
# as read, and of the real rows of every draw.

#' A fingerprint of the real set as prd_curve() reads it: of
#' canonical_sets()' matrix (rows in canonical order, categories encoded)
#' with its common scale undone (which depends on the generated sets too),
#' its dimensions, its column sums and 64 of its rows evenly spaced, as
#' doubles; not its names or other attributes. One pass over the values
#' and no copy of them (hashing every value took 0.3-0.6 s at 10,000 x
#' 2,048, a sixth of a knn curve); two real sets of one size whose column
#' sums and those rows agree are taken for the same. `order`: the canonical
#' order of a set not given in it (the metrics' sets, run_replicates()), so
#' that the spaced rows are those of the canonical order.
#' @noRd
real_set_fingerprint <- function(x, scale = 1, order = NULL) {
  n <- nrow(x)
  rows <- spaced_rows(n, 64L)
  if (!is.null(order)) rows <- order[rows]
  v <- as.double(x[rows, , drop = FALSE])
  cs <- unname(colSums(x))
  if (scale != 1) {
    v <- v / scale
    cs <- cs / scale
  }
  rlang::hash(list(dim(x), v, cs))
}

#' A fingerprint of one draw of the real rows: the rows of a half-sample
#' (`rows`, NULL for the whole set) and the real fit and evaluation rows
#' of its split (shared by every model of a call)
#' @noRd
real_draws_fingerprint <- function(splits, rows = NULL) {
  s <- splits[[1]]
  rlang::hash(list(plain_rows(rows), plain_rows(split_fit(s, 1L)),
                   plain_rows(split_eval(s, 1L))))
}

#' Row numbers as a plain integer vector, so that their hash (a hash of
#' their serialization) reads their values alone: sort() returns an ALTREP
#' wrapper, whose serialization can differ with equal values (under a
#' future plan the split's rows hashed apart; test-engine-futures.R)
#' @noRd
plain_rows <- function(v) {
  if (!is.numeric(v) || !is.null(dim(v))) return(v)
  out <- integer(length(v))
  out[] <- as.integer(v)
  out
}

#' Record `value` (a draw's real rows) while run_replicates() collects
#' them (run_state$real_draws): the fingerprint of a metrics table's
#' draws, attach_metric_replicates()
#' @noRd
record_real_draw <- function(value) {
  env <- run_state$real_draws
  if (!is.null(env)) env$draws[[length(env$draws) + 1L]] <- plain_rows(value)
  invisible(value)
}

#' Record the real rows of the splits `splits` (resolve_model_splits(),
#' shared by every model); returns `splits`
#' @noRd
record_real_split <- function(splits) {
  if (!is.null(run_state$real_draws) && length(splits)) {
    record_real_draw(real_draws_fingerprint(splits))
  }
  splits
}

#' The curves of `out` (one prd_curve() call) with the fingerprints of
#' their real set and of their draws (`draws`: one per draw, in order)
#' @noRd
with_real_pairing <- function(out, real_set, draws) {
  info <- attr(out, "curves")
  info$real_set <- real_set
  info$real_draws <- rlang::hash(draws)
  attr(out, "curves") <- info
  out
}

#' The estimates of curves with a model; the others (a truth or plug-in
#' curve bound to the estimates: no replicates, nothing to pair) are left
#' out with a warning (prdcurve_warning_unmatched).
#' @noRd
modelled_rows <- function(est) {
  none <- is.na(est$model)
  if (!any(none)) return(est)
  left <- unique(est$method[none])
  prd_warn(c(
    "{.fn prd_compare} leaves out the curve{?s} without a model: {.val {left}}.",
    "i" = "Only estimates of {.fn prd_curve} have the replicates a paired comparison needs."
  ), "unmatched")
  est[!none, , drop = FALSE]
}

#' The curves (method, k) of each model of prd_compare()'s estimates `est`,
#' as text: "knn (k = 5)", "coverage (k = 12)", "tightest", "k = 5" (a
#' metric table's k), "no k"
#' @noRd
curve_labels <- function(keys) {
  lab <- ifelse(is.na(keys$k), NA_character_, paste0("k = ", keys$k))
  ifelse(is.na(keys$method), ifelse(is.na(lab), "no k", lab),
         ifelse(is.na(lab), keys$method, paste0(keys$method, " (", lab, ")")))
}

#' prd_compare()'s pairs are a model's curve and the baseline's of the same
#' method and k: a model with none of the baseline's (curves of separate
#' calls with another method or k, bound) is an error
#' (prdcurve_error_unmatched) naming each side's curves; curves of either
#' side without a counterpart in a model that has some are left out with
#' a warning (prdcurve_warning_unmatched).
#' @noRd
check_shared_curves <- function(est, models, baseline,
                                call = rlang::caller_env()) {
  keys <- function(m) {
    vctrs::vec_unique(est[est$model == m, c("method", "k"), drop = FALSE])
  }
  kb <- keys(baseline)
  none <- character()
  none_curves <- character()
  left <- character()
  for (m in setdiff(models, baseline)) {
    km <- keys(m)
    shared <- vctrs::vec_in(km, kb)
    if (!any(shared)) {
      none <- c(none, m)
      none_curves <- c(none_curves, paste(curve_labels(km), collapse = ", "))
    } else {
      own <- km[!shared, , drop = FALSE]
      base <- kb[!vctrs::vec_in(kb, km), , drop = FALSE]
      left <- c(left, if (nrow(own)) paste(m, curve_labels(own)),
                if (nrow(base)) paste0(baseline, " ", curve_labels(base),
                                       " (against ", m, ")"))
    }
  }
  if (length(none)) {
    base <- paste(curve_labels(kb), collapse = ", ")
    each <- stats::setNames(
      paste0("{.val {none[", seq_along(none), "]}}: {none_curves[",
             seq_along(none), "]}."), rep("x", length(none)))
    prd_abort(c(
      "Model{?s} {.val {none}} ha{?s/ve} no curve of the baseline's method and {.arg k}, and {.fn prd_compare} pairs curves of the same method and {.arg k}.",
      "x" = "Baseline {.val {baseline}}: {base}.",
      each,
      "i" = "Compute every model with the same {.arg method} and {.arg k}, best in one {.fn prd_curve} call with all of them (which also gives them the same split and half-samples of the real set)."
    ), "unmatched", call = call)
  }
  if (length(left)) {
    prd_warn(c(
      "{.fn prd_compare} leaves out the curves without a counterpart of the same method and {.arg k}: {left}.",
      "i" = "Compute every model with the same {.arg method} and {.arg k} to compare them all."
    ), "unmatched")
  }
  invisible()
}

#' prd_compare()'s pairing on curves: each model's curve and the
#' baseline's of the same method and k must hold the same number of
#' replicates, read the same real set and draw the same real rows (their
#' fingerprints, with_real_pairing()); else an error
#' (prdcurve_error_unpaired) naming, per model, what differs. Curves
#' without fingerprints (from before they were kept) are not checked.
#' @noRd
check_curve_pairing <- function(x, models, baseline,
                                call = rlang::caller_env()) {
  info <- prd_curve_info(x)
  col <- function(nm) {
    if (nm %in% names(info)) info[[nm]] else rep(NA_character_, nrow(info))
  }
  set <- col("real_set")
  draws <- col("real_draws")
  nrep <- vapply(info$replicates, function(r) {
    if (is.null(r)) 0L else length(unique(r$replicate))
  }, integer(1))
  base <- which(info$model %in% baseline)
  bad <- character()
  why <- character()
  for (m in setdiff(models, baseline)) {
    for (i in which(info$model %in% m)) {
      j <- base[vctrs::vec_equal(info$method[base], info$method[i],
                                 na_equal = TRUE) &
                  vctrs::vec_equal(info$k[base], info$k[i], na_equal = TRUE)]
      if (!length(j)) next
      what <- unpaired_reason(set, draws, nrep, i, j[1])
      if (!is.null(what)) {
        bad <- c(bad, m)
        why <- c(why, paste0(", ", curve_labels(info[i, c("method", "k")]),
                             ": ", what, "."))
        break
      }
    }
  }
  if (!length(bad)) return(invisible())
  both <- paste0(c(baseline, bad), " = ...", collapse = ", ")
  unpaired_error(bad, why, baseline, paste0(
    "prd_curve(real, list(", both, "), replicates = ", max(nrep), ")"),
    call = call)
}

#' What differs between a model's draws and the baseline's (fingerprints
#' `set`, `draws`, replicate counts `nrep`, at i and j), as text; NULL
#' where they pair
#' @noRd
unpaired_reason <- function(set, draws, nrep, i, j) {
  differ <- function(a, b) !is.na(a) && !is.na(b) && a != b
  reps <- function(n) if (n) paste(n, "replicates") else "no replicates"
  if (differ(set[i], set[j])) {
    "computed on another real set than the baseline's"
  } else if (nrep[i] != nrep[j]) {
    paste0(reps(nrep[i]), ", the baseline's ", reps(nrep[j]))
  } else if (differ(draws[i], draws[j])) {
    paste("the same real set, but other real rows in its split or",
          "half-samples than the baseline's (another call, under",
          "another seed or with other random draws before them)")
  }
}

#' The error (prdcurve_error_unpaired) of models `bad` that do not pair
#' with `baseline`, each for its reason (`why`, text after the model's
#' name); `how` is code computing them in one call (an example of it when
#' `eg`)
#' @noRd
unpaired_error <- function(bad, why, baseline, how, call, eg = FALSE) {
  each <- stats::setNames(
    paste0("{.val {bad[", seq_along(bad), "]}}{why[", seq_along(bad), "]}"),
    rep("x", length(bad)))
  prd_abort(c(
    "{.fn prd_compare} pairs each model with the baseline {.val {baseline}} half-sample by half-sample, which needs the same real rows in both: model{?s} {.val {bad}} do{?es/} not pair with it.",
    each,
    "i" = "Compute the models in one call, {if (eg) 'e.g. '}{.code {how}}: every model then shares the real set's split and half-samples."
  ), "unpaired", call = call)
}

#' prd_compare()'s pairing on a metrics table: every model has replicates
#' (`reps`, the table's). Tables bound with rbind() keep the first one's
#' replicates alone (prd_bind() keeps every table's): a model without them
#' is an error (prdcurve_error_unpaired).
#' @noRd
check_metrics_pairing <- function(x, reps, call = rlang::caller_env()) {
  lacking <- setdiff(unique(x$model), unique(reps$model))
  if (!length(lacking)) return(invisible())
  prd_abort(c(
    "{.arg x} holds no half-sample replicates of {cli::qty(length(lacking))}model{?s} {.val {lacking}}.",
    "i" = "A metrics table bound with {.fn rbind} keeps the first table's replicates only; {.fn prd_bind} keeps every table's, and tables of separate calls pair where the calls drew the same real rows (the same real set, seed and sizes).",
    "i" = "Or compute the models in one call, e.g. {.code {metrics_maker(x)}(real, list(a = ..., b = ...), replicates = 50)}, then compare."
  ), "unpaired", call = call)
}

#' prd_compare()'s pairing on a metrics table, as on curves: each model's
#' replicates must be as many as the baseline's and read the same real set
#' and real rows (attributes `real_set` and `real_draws`, one per model,
#' attach_metric_replicates(); tables bound with prd_bind() keep each
#' one's); else an error (prdcurve_error_unpaired) naming, per model, what
#' differs. The draws recorded are the real rows of every half and of its
#' split (run_replicates()); the whole set's split, drawn from the random
#' numbers just before them, is the same where they are. Models without
#' fingerprints are not checked.
#' @noRd
check_metrics_draws <- function(x, models, baseline,
                                call = rlang::caller_env()) {
  reps <- attr(x, "replicates")
  fp <- function(nm) {
    v <- attr(x, nm)
    unname(if (is.null(v)) rep(NA_character_, length(models)) else v[models])
  }
  set <- fp("real_set")
  draws <- fp("real_draws")
  nrep <- vapply(models, function(m) {
    length(unique(reps$replicate[reps$model == m]))
  }, integer(1))
  j <- match(baseline, models)
  why <- vapply(seq_along(models), function(i) {
    w <- if (i != j) unpaired_reason(set, draws, nrep, i, j)
    if (is.null(w)) NA_character_ else paste0(": ", w, ".")
  }, character(1))
  bad <- !is.na(why)
  if (!any(bad)) return(invisible())
  unpaired_error(models[bad], why[bad], baseline, paste0(
    metrics_maker(x), "(real, list(", paste0(c(baseline, models[bad]),
                                             " = ...", collapse = ", "),
    "), replicates = ", max(nrep), ")"), call = call, eg = TRUE)
}

#' The function that makes metrics tables of `x`'s metrics (those with
#' replicates: manifold_metrics(), entropy_metrics(), embedding_metrics()),
#' from the metrics' names; "manifold_metrics" where none is known
#' @noRd
metrics_maker <- function(x) {
  m <- unique(x$metric)
  if (length(m) && all(m %in% entropy_metric_names)) return("entropy_metrics")
  if (length(m) && all(m %in% embedding_metric_names())) return("embedding_metrics")
  "manifold_metrics"
}
