# Repeated splits: the curves of one sample (the whole, or a half-sample of
# the replicates) averaged over several random splits into fit and
# evaluation rows, each split's curves estimated as on one (repeated
# cross-fitting: Chernozhukov et al. 2018, "Double/debiased machine
# learning", Econometrics Journal 21, C1-C68, section 3.4, DOI
# 10.1111/ectj.12097, averages the estimates of several random splits so
# that the result does not hang on one). At each lambda the precision and
# the recall are the means over the splits (alpha / lambda stays the
# recall); the expectation is that of one split's curve, the noise of the
# split averaged out.

#' Rows below which prd_curve() averages its curves over repeats_small
#' splits by default (every set smaller, the split a fraction above 0): on
#' the digits class-subset experiment (90 to 800 rows a set; 30 seeds,
#' bench/tightest-choice.R) most of an AUC's spread across seeds was the
#' split's: with 5 splits the default's spread fell from 0.024 to 0.013 and
#' its mean IoU with the true rectangle rose from 0.929 to 0.933 (knn's
#' from 0.021 to 0.011 and 0.933 to 0.943; the default and knn each alone,
#' 10 splits: 0.010 and 0.010, IoU 0.938 and 0.944). The time is 5 times
#' one split's, a second or less below 1,000 rows. The validity suite's
#' sets (1,000 rows and more) read one split.
#' @noRd
repeats_rows <- 1000L
repeats_small <- 5L

#' Whether `split` (canonical_split()'s) is drawn at random: a fraction
#' above 0 (0 is no split; a list gives the rows)
#' @noRd
split_is_random <- function(split) {
  is.numeric(split) && length(split) == 1L && split > 0
}

#' The number of splits of a prd_curve() call: `repeats` as given (1 to
#' 100; more than one needs a random split), or by default repeats_small
#' with a random split and every set of fewer than repeats_rows rows, else 1
#' @noRd
resolve_repeats <- function(repeats, split, sets, call = rlang::caller_env()) {
  random <- split_is_random(split)
  if (is.null(repeats)) {
    rows <- max(nrow(sets$real), vapply(sets$generated, nrow, 1L))
    return(if (random && rows < repeats_rows) repeats_small else 1L)
  }
  repeats <- check_count(repeats, min = 1, max = 100, arg = "repeats",
                         call = call)
  if (repeats > 1L && !random) {
    prd_abort(c(
      "{.arg repeats} = {repeats} needs a {.arg split} drawn at random: a fraction above 0.",
      "x" = if (is.list(split)) "{.arg split} gives the evaluation rows, which no repeat can draw again." else
        "With {.arg split} = 0 every row is fitted and evaluated: there is no split to draw again.",
      "i" = "Use {.code repeats = 1}, or a fraction (e.g. {.code split = 0.5})."
    ), "split", call = call)
  }
  repeats
}

#' The seeds of repeats 2 to `repeats` (none for one), drawn from R's
#' stream before the first split: each of those repeats runs on its own
#' stream (with_repeat_seed()), so that a model's curves of a call equal
#' those of a call with its set alone, as with one split (curve_estimates())
#' @noRd
repeat_seeds <- function(repeats) {
  if (repeats > 1L) sample.int(.Machine$integer.max, repeats - 1L) else integer()
}

#' Evaluate `code` from set.seed(seed) (R's kinds as they are), then put
#' back the stream's state
#' @noRd
with_repeat_seed <- function(seed, code) {
  after <- rng_state()
  on.exit(assign(".Random.seed", after, globalenv()), add = TRUE)
  set.seed(seed)
  code
}

#' The splits of every model of one sample: resolve_model_splits(), and the
#' fewest fit rows of a set less one (`limit`: the largest k)
#' @noRd
draw_curve_splits <- function(split, real, gens, call = rlang::caller_env()) {
  sp <- resolve_model_splits(split, real, gens, call = call)
  limit <- min(vapply(sp, function(s) {
    z <- split_sizes(s)
    min(z[["fit_real"]], z[["fit_generated"]])
  }, numeric(1))) - 1L
  list(splits = sp, limit = limit)
}

#' The curves of one sample over `repeats` splits (curve_estimates() on
#' each, averaged by average_curves()): the first on R's stream, the others
#' each from its seed of `seeds` (repeat_seeds(); NULL: drawn here first).
#' `first`: the whole sample's first split (draw_curve_splits()), drawn by
#' the caller after the seeds, whose scaling the sets have already; NULL (a
#' half-sample): every split is drawn here, its sample scaled by its own
#' real fit rows (standardize_half(), `standardize` and `grid` of
#' prepare_samples()'s sets) and its k checked against its rows. A warning or message given by one split is not given again by the
#' next. Attribute "real_draws": the fingerprint of the real rows of each
#' split (real_draws_fingerprint(), `rows`: a half's rows in the whole set),
#' hashed together when there are several. Interactive sessions show a
#' progress bar over the splits when they take more than 2 seconds.
#' @noRd
repeated_curves <- function(real, gens, split, settings, repeats,
                            standardize, grid, first = NULL, seeds = NULL,
                            rows = NULL) {
  local_memory_hold()
  if (is.null(seeds)) seeds <- repeat_seeds(repeats)
  seen <- character()
  once <- function(cnd) {
    msg <- conditionMessage(cnd)
    if (msg %in% seen) {
      if (inherits(cnd, "warning")) invokeRestart("muffleWarning")
      if (inherits(cnd, "message")) invokeRestart("muffleMessage")
    }
    seen <<- c(seen, msg)
  }
  draws <- character(repeats)
  # (a bar over the splits where they take long: shown after 2 s; the
  # replicates have their own)
  bar <- if (repeats > 1L && show_progress() && !run_state$in_replicates) {
    cli::cli_progress_bar(paste("Averaging", repeats, "splits"),
                          total = repeats, .envir = environment())
  }
  if (repeats > 1L) local_run_state(in_splits = TRUE)
  one <- function(r) {
    if (r == 1L && !is.null(first)) {
      s <- first
      h <- list(real = real, gens = gens)
    } else {
      s <- draw_curve_splits(split, real, gens)
      h <- standardize_half(real, gens, standardize, scale_rows(s$splits),
                            grid = grid)
    }
    draws[r] <<- real_draws_fingerprint(s$splits, rows)
    curve_estimates(h$real, h$gens, s$splits, settings,
                    check_limit = if (is.null(first)) s$limit)
  }
  curves <- lapply(seq_len(repeats), function(r) {
    cv <- withCallingHandlers(
      if (r == 1L) one(r) else with_repeat_seed(seeds[r - 1L], one(r)),
      prdcurve_warning = once, prdcurve_message = once)
    if (!is.null(bar)) cli::cli_progress_update(id = bar)
    cv
  })
  if (!is.null(bar)) cli::cli_progress_done(id = bar)
  out <- average_curves(curves)
  attr(out, "real_draws") <- if (repeats == 1L) draws else rlang::hash(draws)
  out
}

#' The mean of curves of the same models, methods, k and lambda (the
#' repeats of repeated_curves()): precision and recall averaged row by row;
#' the settings table is the first's, its kde bandwidths the means over the
#' splits and its details each curve's split_details() over the splits,
#' gaining `repeats` (the number of curves averaged)
#' @noRd
average_curves <- function(curves) {
  out <- curves[[1]]
  key <- c("model", "method", "k", "lambda")
  # (every split gives the same rows: the settings fix them)
  for (cv in curves[-1]) {
    stopifnot(all(vapply(key, function(v) identical(cv[[v]], out[[v]]), TRUE)))
  }
  infos <- lapply(curves, attr, "curves")
  info <- infos[[1]]
  if (length(curves) > 1L) {
    mean_of <- function(col) {
      rowMeans(vapply(curves, `[[`, numeric(nrow(out)), col))
    }
    out$precision <- mean_of("precision")
    out$recall <- mean_of("recall")
    for (col in c("bandwidth_real", "bandwidth_generated")) {
      v <- vapply(infos, `[[`, numeric(nrow(info)), col)
      info[[col]] <- rowMeans(matrix(v, nrow = nrow(info)))
    }
  }
  for (i in seq_len(nrow(info))) {
    info$details[[i]] <- split_details(lapply(infos, function(f) f$details[[i]]))
  }
  attr(out, "curves") <- info
  out
}

#' One curve's details over its splits (`dets`, one list per split, the
#' fields of curve_estimates()): the choice tables of "tightest" (`chosen`,
#' `bands`) every split's rows, with a first column `split`; its `choice`
#' the splits' common one, or "mixed" (some splits at the ceiling, some
#' not: `choices` gives each split's); each other number (family_auc,
#' half_gap, hubness, a fitted family's settings) the mean over the splits
#' where they differ and every split gives as many with the same names; the
#' rest the first split's. `repeats`: the number of splits.
#' @noRd
split_details <- function(dets) {
  out <- dets[[1]]
  S <- length(dets)
  for (f in intersect(c("chosen", "bands"), names(out))) {
    out[[f]] <- vctrs::vec_rbind(!!!lapply(seq_len(S), function(s) {
      tibble::tibble(split = s, dets[[s]][[f]])
    }))
  }
  if (!is.null(out$choice)) {
    ch <- vapply(dets, function(d) d$choice, "")
    out$choice <- if (all(ch == ch[1])) ch[1] else "mixed"
    out$choices <- ch
  }
  if (S > 1L) {
    for (f in names(out)) {
      v <- lapply(dets, `[[`, f)
      same <- all(vapply(v, function(x) {
        is.numeric(x) && !is.matrix(x) && length(x) == length(v[[1]]) &&
          identical(names(x), names(v[[1]]))
      }, TRUE))
      if (same && !all(vapply(v, identical, TRUE, v[[1]]))) {
        out[[f]] <- stats::setNames(rowMeans(matrix(unlist(v), ncol = S)),
                                    names(v[[1]]))
      }
    }
  }
  out$repeats <- S
  out
}
