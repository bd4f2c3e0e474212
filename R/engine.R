# Thin wrappers over the C engine (src/neighbours.c, src/products.c ...,
# src/envelope.c). Inputs are already validated (validate.R).

#' Whether long work shows progress bars and step messages: in an
#' interactive session, or from the command line on a terminal
#' (run_state$progress); never with options(prdcurve.progress = FALSE)
#' @noRd
show_progress <- function() {
  (rlang::is_interactive() || isTRUE(run_state$progress)) &&
    isTRUE(getOption("prdcurve.progress", TRUE))
}

#' Whether the engine can compute its products in single precision (the
#' BLAS has sgemm; configure)
#' @noRd
engine_has_sgemm <- function() .Call(ffi_sgemm)

#' The BLAS's thread count (NA when it is not OpenBLAS, whose threads the
#' engine sets to one during its own, split products; src/products.c); `n`
#' sets it first and the count before is returned
#' @noRd
engine_blas_threads <- function(n = NULL) .Call(ffi_blas_threads, n)

#' TRUE when OpenBLAS's sgemm adds the float products' coordinate blocks
#' (src/products.c, tile_part())
#' @noRd
engine_blas_adds <- function() .Call(ffi_blas_adds)

#' Bytes the engine keeps in its scratch slots between calls (src/scratch.c);
#' `release = TRUE` frees them (after reporting)
#' @noRd
engine_scratch <- function(release = FALSE) .Call(ffi_scratch, release)

#' Keep the C library's freed memory in the process until `envir` ends
#' (src/scratch.c, ffi_memory_hold(); glibc only): the fits form and free
#' d x d matrices several times a fold, and each fresh one costs page
#' faults. Only the outermost call holds and gives the memory back; not
#' under options(prdcurve.keep_scratch = FALSE). Returns whether it holds.
#' @noRd
local_memory_hold <- function(envir = parent.frame()) {
  if (isTRUE(run_state$memory_held) ||
      isFALSE(getOption("prdcurve.keep_scratch"))) {
    return(invisible(FALSE))
  }
  if (!isTRUE(.Call(ffi_memory_hold, TRUE))) return(invisible(FALSE))
  local_run_state(memory_held = TRUE, .local_envir = envir)
  withr::defer(.Call(ffi_memory_hold, FALSE), envir = envir, priority = "last")
  invisible(TRUE)
}

#' The engine's estimator table, from C (src/estimators.c)
#'
#' One row per per-row quantity the engine computes: `name` (what
#' `engine_neighbours()` takes in `what`), `outputs` (the names of its
#' results: two, for X_f and Y_f, or one), `rows` ("evaluation": a row per
#' evaluation point; "fit": a row per fit row; "hits": one output, a row
#' per fit row (X_f's, then Y_f's) counted by the evaluation points),
#' `columns` ("k": a column
#' per k; "one"), `type` ("integer" or "double"), `needs` (radii the engine
#' computes for it: "radius_x", "radius_y", "radius_all" of the row in X_f,
#' Y_f, X_f u Y_f, "radius_own" in its own fit set, "own_radii" of every
#' fit row) and `radius` (the name of its fixed radius pair, or NA).
#' @noRd
engine_estimators <- local({
  table <- NULL
  function() {
    if (is.null(table)) {
      cols <- .Call(ffi_estimators)
      table <<- structure(cols, class = "data.frame",
                          row.names = seq_along(cols$name))
    }
    table
  }
})

#' The rows of X_f over which the engine forms each partial ppr sum of a
#' row of Y_f (src/prdcurve.h, PRD_PPR_BLOCK): without a split, Y_f's ppr
#' sums are these partial sums added in block order.
#' @noRd
engine_ppr_block <- function() attr(engine_estimators(), "ppr_block")

#' The engine planner's sweeps for a request (src/plan.c,
#' nb_plan_make()): `estimators` as in engine_call(), evaluation rows = fit
#' rows (`self`) or not, `cross` mode, own radii given for no fit set (0),
#' the real one (1) or both (2). Kinds: "symmetric:real",
#' "symmetric:generated" (own radii, each pair of a fit set once),
#' "cross-radii", "cross-decide" (X_f x Y_f once), "full:fit", "full".
#' @noRd
engine_plan <- function(estimators, self = TRUE, cross = FALSE, own = 0L) {
  .Call(ffi_engine_plan, as.character(estimators), isTRUE(self),
        isTRUE(cross), as.integer(own))
}

#' The sweeps the engine ran since the last reset, a count per kind (as
#' engine_plan()); `reset = TRUE` starts the count again.
#' @noRd
engine_sweeps <- function(reset = FALSE) .Call(ffi_engine_sweeps, isTRUE(reset))

# The engine's internal knobs: alternative paths with the same results,
# for tests only (not options: a user has no reason to set them).
# symmetric = FALSE: the full sweep instead of symmetric and cross tiles;
# own_buffer: candidates kept per row there (0: default); vector = FALSE:
# the generic row passes instead of the AVX2 compactions; block_products
# = FALSE: the cross sweep's products per tile; blas_sum = FALSE: the float
# products' coordinate blocks summed by the engine; embedding_tile: rows
# per side of embedding_metrics()' tiles of pair sums; fold_moments_ratio:
# the fitted families of path "parts" take the fold moments up to this
# many columns a fit row (R/crossfit.R; 1: the dual form from d above the
# fit rows, the same curves). The primal form costs about d^3 a fold and
# the dual about n^3 + n^2 d: "quadratic" at d = 2,048, medians of 3, took
# 4.1 s against 8.4 s in the dual form with 1,900 fit rows (1,000 rows a
# set), 4.0 against 5.8 with 1,710, but 3.2 against 2.9 with 1,330.
# stacked_moments_ratio: "stacked" takes the fold moments up to this many
# columns a row of its inner halves (1: the Gram form fold by fold from d
# above them; other draws of its inner halves, curves as close to the
# truth: bench/results.md). Alone, at d = 2,048, medians of 3 interleaved:
# 1.7 s against 3.2 with 900 rows a set (2.4 columns a row of a half), 1.7
# against 1.9 with 600 (3.6); with no limit, one run each, 1.3 against 1.4
# with 400 (5.4) and 1.1 against 0.8 with 250 (8.6). span = FALSE: the
# families that declare `span` fit on the rows, not on their coordinates
# in the rows' span where the sets hold fewer rows than columns
# (span_sets(), R/crossfit.R; the same curves to rounding). span_moments:
# where every fitted family of a call's folds declares `span` and the two
# sets together hold fewer rows than this share of the columns, the fold moments' fits
# run on the span too (fold_scores()); the default, 5 splits, medians of 3
# interleaved against 0.6.7: 600 x 2,048 8.0 s against 12.3, 900 x 2,048
# 14.7 against 17.9, 400 x 1,024 4.2 against 5.1; at 1,000 x 2,048 (0.98
# of the columns, one split) the span's cost outweighed its 49 columns
# (4.7 s against 4.0). single_moments = FALSE: the fold moments' products
# in double precision at every d (src/moments.c; single from 256 columns).
engine_knobs <- new.env(parent = emptyenv())
engine_knobs$symmetric <- TRUE
engine_knobs$own_buffer <- 0L
engine_knobs$vector <- TRUE
engine_knobs$block_products <- TRUE
engine_knobs$blas_sum <- TRUE
engine_knobs$embedding_tile <- 1024L
engine_knobs$fold_moments_ratio <- 1.25
engine_knobs$stacked_moments_ratio <- 4
engine_knobs$span <- TRUE
engine_knobs$span_moments <- 0.9
engine_knobs$single_moments <- TRUE

#' Set engine knobs (named values, or one list of them) until `.local_envir`
#' ends (tests); returns the old values invisibly.
#' @noRd
local_engine_knobs <- function(..., .local_envir = parent.frame()) {
  new <- list(...)
  if (length(new) == 1L && is.null(names(new)) && is.list(new[[1]])) {
    new <- new[[1]]
  }
  local_env_values(engine_knobs, new, .local_envir)
}

# The one place the engine's arguments are assembled: .Call(ffi_engine,
# real, generated, spec). C errors come back as classed R errors.
engine_call <- function(real, generated, s, ks, estimators, own = NULL,
                        radii = list(), closed = TRUE, cross = FALSE,
                        precision = engine_precision(call),
                        ppr_parts = FALSE, prep = NULL,
                        call = rlang::caller_env()) {
  eval <- split_eval(s)
  if (is.list(eval)) eval <- lapply(eval, as.integer)
  self_rows <- split_self_rows(s)
  spec <- list(
    fit = lapply(split_fit(s), as.integer),
    eval = eval,
    # evaluation rows that are fit rows, left out of their own balls as
    # without a split: their positions in the fit rows (engine-futures.R)
    self_rows = if (!is.null(self_rows)) as.integer(self_rows),
    ks = as.integer(ks),
    estimators = as.character(estimators),
    own = own,
    radii = lapply(radii, as.double),
    closed = isTRUE(closed),
    progress = show_progress(),
    cross = isTRUE(cross),
    # with cross: Y_f's ppr partial sums per block of X_f (attribute
    # "ppr_parts"; cross_futures())
    ppr_parts = isTRUE(ppr_parts),
    # own radii, and without a split the radii of query_x/query_y, from
    # symmetric and cross tiles, each pair once (FALSE: the full sweep, for
    # tests); own_buffer: candidates kept per row there (0: default; tests)
    symmetric = !isFALSE(engine_knobs$symmetric),
    own_buffer = as.integer(engine_knobs$own_buffer),
    # products in single precision where the engine can (products.c)
    single = identical(precision, "single"),
    # the engine's largest buffers are kept for the next call (scratch.c)
    keep_scratch = !isFALSE(getOption("prdcurve.keep_scratch")),
    # FALSE: the generic row passes instead of the AVX2 compactions, the
    # cross sweep's products per tile instead of per column block, and
    # the float products' coordinate blocks summed by the engine instead
    # of by OpenBLAS's sgemm (tests: the same results either way)
    vector = !isFALSE(engine_knobs$vector),
    block_products = !isFALSE(engine_knobs$block_products),
    blas_sum = !isFALSE(engine_knobs$blas_sum),
    # the centre and the sets' norm statistics, found once (engine_prep())
    prep = if (!is.null(prep)) unname(prep)
  )
  with_engine_errors(.Call(ffi_engine, real, generated, spec), call)
}

# Errors raised in C (Rf_error: simple errors) re-raised as classed
# prdcurve_error_engine errors, the C message as their parent. Interrupts
# and classed R errors pass through.
with_engine_errors <- function(expr, call = rlang::caller_env()) {
  tryCatch(expr, simpleError = function(e) {
    e$call <- NULL # the .Call() itself says nothing to the user
    prd_abort("The distance engine stopped.", "engine", parent = e,
              call = call)
  })
}

#' What every engine call on `real` and `generated` finds before its
#' sweeps, found once for the calls of engine_neighbours(): the centre of
#' the products (the column means of real) and, for single precision, the
#' largest and the sum of each set's squared norms about it (the precision
#' and scale of the float products). The real set's part is kept in
#' `shared` for the other models. A list for engine_call(prep =): the same
#' values the engine would find itself, so the same results.
#' @noRd
engine_prep <- function(real, generated, precision, shared = NULL) {
  norms <- identical(precision, "single")
  rp <- if (!is.null(shared)) shared$prep
  if (is.null(rp) || !identical(rp$norms, norms)) {
    rp <- .Call(ffi_engine_prep, real, NULL, norms)
    rp$norms <- norms
    if (!is.null(shared)) shared$prep <- rp
  }
  gp <- .Call(ffi_engine_prep, generated, rp$centre, norms)
  list(centre = rp$centre, real = rp$stats, generated = gp$stats)
}

#' Neighbourhood quantities of the evaluation points, from the tile engine
#'
#' @param real,generated validated double matrices (either may have 0 rows
#'   if no radius is taken in it).
#' @param s a resolved split (resolve_split()): `fit` = list of fit rows of
#'   real and generated; `eval` = NULL (no split: the fit rows, with
#'   self-exclusion by index), a list of evaluation rows, or a double
#'   matrix of external query points.
#' @param ks whole numbers (neighbour counts); the results have a column per
#'   sorted unique k.
#' @param what names of the engine's estimators (engine_estimators()):
#'   "own" (own-set radii of fit points), "query_x", "query_y", "query_all"
#'   (radii of evaluation points in X_f, Y_f, X_f u Y_f), ball counts
#'   "knn", "coverage", "ipr", "kde", and "ppr" (sums of log(1 - tau)).
#' @param bandwidth kde: the fixed radii (one distance for both sets, or
#'   two).
#' @param bandwidth_k kde without `bandwidth`: each set's radius is its
#'   mean own `bandwidth_k`-NN distance (Sykes et al. 2024, 2.4.2); one k
#'   for every column, or the sorted `ks` themselves: column j of the kde
#'   counts then uses the bandwidths of k = ks[j] (one sweep for all k).
#' @param ppr_k,ppr_scale ppr: radius R = ppr_scale * mean own ppr_k-NN
#'   distance of each fit set (Park & Kim 2023).
#' @param radii fixed radius pairs of other estimators, named as their
#'   `radius` in engine_estimators().
#' @param cross without a split: only the counts and sums of the rows of
#'   each set against the *other* fit set are wanted (`ipr_b`, `coverage_b`,
#'   `ppr_b` of the rows of real, `ipr_a`, `coverage_a`, `ppr_a` of the rows
#'   of generated; the others are NA), so X_f x Y_f is computed once.
#'   Estimators "own", "ipr", "coverage", "ppr" only.
#' @param shared NULL, or an environment from engine_shared() passed to the
#'   calls for several models: the real set's own radii (for a given set of
#'   real fit rows and k) are then computed once and reused, whenever the
#'   engine would compute own radii in a sweep of their own.
#' @param call the frame engine errors are reported from.
#' @return list of own_x, own_y (squared radii of fit rows, a column per
#'   k), query_x, query_y, query_all (squared radii of evaluation rows),
#'   knn_a, knn_b, coverage_a, coverage_b, ipr_a, ipr_b (counts, a column
#'   per k), kde_a, kde_b (counts, one column), ppr_a, ppr_b (log sums over
#'   X_f, Y_f, one column), kde_radius, ppr_radius (distances, NA when not
#'   used). Evaluation rows of real come first, then those of generated.
#'   Unrequested parts are NULL. Attributes: "exact" (pairs recomputed
#'   exactly), "threads" (the largest thread team that ran) and
#'   "precision" (of the distance products: "single", "double", or
#'   "mixed" when the engine calls differed).
#'
#' Radii that depend on the own radii (estimated kde bandwidths, ppr) need
#' those first: one radii-only sweep over fit x fit, then the evaluation
#' sweep over eval x fit. With a split the two cover disjoint pairs; without
#' one, this is the only case that visits a pair twice.
#' @noRd
engine_neighbours <- function(real, generated, s, ks, what,
                              bandwidth = NULL, bandwidth_k = NULL,
                              ppr_k = NULL, ppr_scale = NULL, radii = list(),
                              closed = TRUE, cross = FALSE, shared = NULL,
                              call = rlang::caller_env()) {
  table <- engine_estimators()
  cross <- isTRUE(cross) && !split_has_eval(s)
  what <- unique(as.character(what))
  unknown <- setdiff(what, table$name)
  if (length(unknown)) {
    prd_abort("Unknown engine estimator{?s}: {.val {unknown}}.", "engine",
              call = call)
  }
  ks <- k_norm(ks)
  derived <- NULL
  if ("kde" %in% what && is.null(radii$kde)) {
    if (!is.null(bandwidth)) {
      radii$kde <- rep_len(as.double(bandwidth), 2L)
    } else if (!is.null(bandwidth_k)) {
      if (length(bandwidth_k) > 1L &&
          !identical(k_norm(bandwidth_k), ks)) {
        prd_abort("{.arg bandwidth_k} must be one k or the k values.",
                  "engine", call = call)
      }
      bandwidth_k <- if (length(bandwidth_k) > 1L) ks else bandwidth_k
      derived <- c(derived, bandwidth_k)
    } else {
      prd_abort("{.val kde} needs {.arg bandwidth} or {.arg bandwidth_k}.",
                "engine", call = call)
    }
  }
  if ("ppr" %in% what && is.null(radii$ppr)) {
    if (is.null(ppr_k) || is.null(ppr_scale)) {
      prd_abort("{.val ppr} needs {.arg ppr_k} and {.arg ppr_scale}.",
                "engine", call = call)
    }
    derived <- c(derived, ppr_k)
  }

  own <- NULL
  exact <- 0
  threads <- 1L
  precision <- engine_precision(call)
  used <- character()
  # own radii in a sweep of their own: with a split, or in cross mode, or
  # for derived radii; then the real set's may come from `shared`
  own_sweep <- length(derived) > 0L ||
    (("ipr" %in% what || (cross && "coverage" %in% what)) &&
       (split_has_eval(s) || cross))
  own_real <- function(k) {
    if (is.null(shared) || !own_sweep) return(NULL)
    shared_own_real(shared, real, s, k, call)
  }
  # on futures (engine-futures.R): own radii computed first, in blocks
  fut <- engine_futures_on(
    (as.double(nrow(real)) + nrow(generated))^2 / 2 * max(1, ncol(real)))
  own_pair <- function(k) {
    own_pair_futures(real, generated, s, k, precision, shared, call)
  }
  # the centre and the norm statistics of the two sets, found once for
  # the in-process calls below (engine_prep())
  prep <- NULL
  prep_once <- function() {
    if (is.null(prep) && nrow(real) > 0L) {
      prep <<- engine_prep(real, generated, precision, shared)
    }
    prep
  }
  if (length(derived)) {
    k_own <- k_norm(ks, derived)
    if (fut) {
      r <- own_pair(k_own)
      r <- structure(list(own_x = r[[1]], own_y = r[[2]]), exact = 0,
                     threads = 1L, precision = precision)
    } else {
      # the real set's from the cache, else both sets' in this one call
      # (their symmetric sweeps share the call's set-up), the real set's
      # then cached for the next model
      ox <- if (!is.null(shared)) shared_own_get(shared, s, k_own)
      r <- engine_call(real, generated, s, k_own, "own",
                       own = if (!is.null(ox)) list(ox, NULL),
                       closed = closed, precision = precision,
                       prep = prep_once(), call = call)
      if (is.null(ox) && !is.null(shared)) {
        shared_own_put(shared, s, k_own, r$own_x)
      }
    }
    exact <- attr(r, "exact")
    threads <- attr(r, "threads")
    used <- attr(r, "precision")
    radii <- derived_radii(r, what, radii, k_own, bandwidth_k, ppr_k,
                           ppr_scale, call)
    cols <- match(ks, k_own)
    own <- list(r$own_x[, cols, drop = FALSE], r$own_y[, cols, drop = FALSE])
  }

  rest <- if (is.null(own)) what else setdiff(what, "own")
  if (length(rest)) {
    own_arg <- own
    if (is.null(own_arg)) {
      # on futures, the real set's own radii from the cache only: when they
      # are not there, own_pair() below computes both sets' in one round
      # (and caches the real set's), not one round per set
      ox <- if (!fut) own_real(ks) else
        if (!is.null(shared) && own_sweep) shared_own_get(shared, s, ks)
      if (!is.null(ox)) own_arg <- list(ox, NULL)
    }
    out <- NULL
    if (fut) {
      r <- futures_run(real, generated, s, ks, rest, own_arg, radii, closed,
                       cross, precision, own_pair, call = call)
      out <- r$out
      own_arg <- r$own
    }
    if (is.null(out)) {
      out <- engine_call(real, generated, s, ks, rest, own_arg, radii, closed,
                         cross = cross, precision = precision,
                         prep = prep_once(), call = call)
    }
    exact <- exact + attr(out, "exact")
    threads <- max(threads, attr(out, "threads"))
    used <- c(used, attr(out, "precision"))
  } else {
    outputs <- unlist(table$outputs)
    out <- stats::setNames(vector("list", length(outputs)), outputs)
  }
  if (!is.null(own)) {
    out$own_x <- own[[1]]
    out$own_y <- own[[2]]
  }
  out$kde_radius <- if ("kde" %in% what) radii$kde else rep(NA_real_, 2)
  out$ppr_radius <- if ("ppr" %in% what) radii$ppr else rep(NA_real_, 2)
  attr(out, "exact") <- exact
  attr(out, "threads") <- threads
  used <- unique(used)
  attr(out, "precision") <- if (length(used) == 1L) used else
    if (length(used)) "mixed" else precision
  out
}

#' The radii derived from the own radii `r` (own_x, own_y at k_own): the
#' kde bandwidths (mean k-NN distance at bandwidth_k: one pair, or a pair
#' per k as a 2 x nk matrix) and the ppr kernel radius (ppr_scale times the
#' mean distance at ppr_k), where `radii` does not give them.
#' @noRd
derived_radii <- function(r, what, radii, k_own, bandwidth_k, ppr_k,
                          ppr_scale, call) {
  mean_dist <- function(r2, k) mean(sqrt(r2[, match(k, k_own)]))
  if ("kde" %in% what && is.null(radii$kde)) {
    radii$kde <- vapply(as.integer(bandwidth_k), function(b) {
      c(mean_dist(r$own_x, b), mean_dist(r$own_y, b))
    }, double(2))
    if (length(bandwidth_k) == 1L) radii$kde <- as.vector(radii$kde)
  }
  if ("ppr" %in% what && is.null(radii$ppr)) {
    radii$ppr <- ppr_scale * c(mean_dist(r$own_x, ppr_k),
                               mean_dist(r$own_y, ppr_k))
    if (!all(is.finite(radii$ppr^2))) {
      prd_abort(c(
        "{.arg ppr_scale} = {format_number(ppr_scale)} makes the kernel radius of {.code p_precision} and {.code p_recall} {format_number(max(radii$ppr), digits = 3)}, whose square overflows.",
        "i" = "Use a smaller {.arg ppr_scale} (Park and Kim use 1.2), or rescale the data."
      ), "input", call = call)
    }
  }
  radii
}

#' A cache for the work that depends on the real set only, shared by the
#' engine calls for several models (issue: models share the real set's
#' work): the own radii of the real fit rows, per set of fit rows and k,
#' and the real set's part of engine_prep() (`prep`).
#' @noRd
engine_shared <- function() {
  e <- new.env(parent = emptyenv())
  e$entries <- list()
  e$prep <- NULL
  e
}

#' The own radii of the real fit rows at ks, from the cache or computed
#' once in process (one symmetric sweep over X_f) and cached. The radii
#' are exact, so they do not depend on the precision of the products.
#' (On futures engine_neighbours() reads the cache only and computes both
#' sets' radii in one round, own_pair().)
#' @noRd
shared_own_real <- function(shared, real, s, ks, call) {
  own <- shared_own_get(shared, s, ks)
  if (!is.null(own)) return(own)
  own <- own_radii_local(real, split_fit(s, 1), ks, engine_precision(call),
                         call)
  shared_own_put(shared, s, ks, own)
  own
}

#' Own radii (squared, a column per k of ks) of the rows `rows` of x within
#' themselves, self excluded: one symmetric sweep in this process.
#' @noRd
own_radii_local <- function(x, rows, ks, precision, call) {
  engine_call(x, x[0, , drop = FALSE],
              new_split(list(as.integer(rows), integer())), ks,
              "own", precision = precision, call = call)$own_x
}

#' The cached own radii of the real fit rows of `s` at ks, or NULL
#' @noRd
shared_own_get <- function(shared, s, ks) {
  fx <- as.integer(split_fit(s, 1))
  ks <- as.integer(ks)
  for (e in shared$entries) {
    if (identical(e$ks, ks) && identical(e$real_fit, fx)) return(e$own)
  }
  NULL
}

#' Cache the own radii `own` of the real fit rows of `s` at ks
#' @noRd
shared_own_put <- function(shared, s, ks, own) {
  shared$entries[[length(shared$entries) + 1L]] <-
    list(real_fit = as.integer(split_fit(s, 1)), ks = as.integer(ks),
         own = own)
  invisible(own)
}

#' Lower envelope of the classifier family (SPEC.md section 2)
#' @param s_real,s_gen scores of the evaluation points (low = real).
#' @param extra matrix of extra (fpr, fnr) pairs.
#' @param lambda increasing finite positive values.
#' @noRd
engine_envelope <- function(s_real, s_gen, extra, lambda) {
  extra <- matrix(as.double(extra), ncol = 2L)
  with_engine_errors(.Call(ffi_envelope, as.double(s_real),
                           as.double(s_gen), extra, as.double(lambda)))
}
