# K-fold cross-fitting of the fitted families (SPEC.md section 7,
# `folds`). The rows a set offers to the fits (its fit rows and the K folds
# of its evaluation rows) are cut into cells: the fit rows, then one cell a
# fold, each cell in two random halves (inner_halves(): the stacked
# family's two inner folds). The moments of every cell about one centre per set (the
# mean of all those rows) are formed once; fold v's fit is every cell but
# v, so its covariance is the total less cell v's: one pass over the rows
# for the totals and one over each fold, then O(d^2) and one Cholesky
# factor per fold and family, instead of a covariance of (K - 1) / K of the
# rows per fold. Where d is far larger than the fit rows, the families fit
# each fold from its rows in the dual (Gram) form (cov_parts(),
# fit_stacked()): "parts" above fold_moments_ratio columns a fit row,
# stacked above stacked_moments_ratio a row of its inner halves.

#' Scores of the fitted families on the evaluation rows of a split (real
#' evaluation rows, then generated), high = "generated". With `folds` = K
#' the evaluation rows of each set are cut at random (R's RNG) into K folds
#' and each fold is scored by the classifiers fitted on the fit rows and the
#' other folds' evaluation rows of both sets (K-fold cross-fitting: fits on
#' more rows). Without a split (no evaluation rows of their own) every row
#' is an evaluation row and there are no fit rows: the same with K =
#' `folds`, 2 by default.
#' `folds` = 1 (with a split only): one fit on the fit rows. No row is
#' scored by a classifier fitted on it.
#' @return list(scores = list(<family> = list(real, gen)), details =
#'   list(<family> = list of settings, averaged over the folds)).
#' @noRd
fitted_scores <- function(real, generated, s, families, folds = NULL,
                          call = rlang::caller_env()) {
  if (!length(families)) return(list(scores = list(), details = list()))
  entries <- lapply(families, family_entry, call = call)
  names(entries) <- families
  path <- vapply(entries, function(e) {
    if (e$kind != "fitted") {
      prd_abort("{.val {e$name}} is not a fitted family.", "internal",
                call = call)
    }
    e$path
  }, "")
  if (split_has_eval(s) && identical(as.integer(folds), 1L)) folds <- NULL
  # a step message per stage of long fits, each closed with its time by
  # the next (the engine's bar covers the distances; none inside the
  # half-sample replicates or the repeated splits, which have their own bar)
  show <- show_progress() && !run_state$in_replicates && !run_state$in_splits &&
    long_fit(families, nrow(real) + nrow(generated), ncol(real), folds)
  here <- environment()
  if (!is.double(real)) storage.mode(real) <- "double"
  if (!is.double(generated)) storage.mode(generated) <- "double"
  collect_between_fits(real, generated, scratch = TRUE)
  by_cells <- families[path == "cells"]
  if (split_has_eval(s) && is.null(folds)) {
    cells <- list(list(split_fit(s, 1), split_eval(s, 1)),
                  list(split_fit(s, 2), split_eval(s, 2)))
    fit_step(show, families[path != "cells"], NULL, here)
    one <- entries[path != "cells"]
    res <- span_fit_folds(real, generated, one, split_fit(s, 1),
                          split_fit(s, 2), split_eval(s, 1), split_eval(s, 2),
                          span_sets(real, generated, one), call = call)
    for (f in by_cells) {
      fit_step(show, f, NULL, here)
      res[[f]] <- entries[[f]]$cells(real, generated, cells)
      collect_between_fits(real, generated, full = TRUE)
    }
    res <- res[families]
    return(list(scores = lapply(res, function(r) list(real = r$real, gen = r$gen)),
                details = lapply(res, function(r) r$settings)))
  }
  K <- if (is.null(folds)) 2L else as.integer(folds)
  if (!split_has_eval(s)) {
    base <- list(integer(), integer())
    pool <- list(seq_len(nrow(real)), seq_len(nrow(generated)))
  } else {
    base <- lapply(split_fit(s), as.integer)
    pool <- lapply(split_eval(s), as.integer)
  }
  # fold positions within each set's evaluation rows
  fp <- lapply(pool, function(r) cross_folds(length(r), K, call = call))
  # each set's cells: the fit rows, then the folds (rows of the set)
  cells <- lapply(1:2, function(j) {
    c(list(base[[j]]), lapply(fp[[j]], function(f) pool[[j]][f]))
  })
  sr <- lapply(families, function(f) rep(NA_real_, length(pool[[1]])))
  sg <- lapply(families, function(f) rep(NA_real_, length(pool[[2]])))
  names(sr) <- names(sg) <- families
  details <- list()
  # the families that score every fold at once from the cells
  for (f in by_cells) {
    fit_step(show, f, folds, here)
    r <- entries[[f]]$cells(real, generated, cells)
    collect_between_fits(real, generated, full = TRUE)
    sr[[f]][unlist(fp[[1]])] <- r$real
    sg[[f]][unlist(fp[[2]])] <- r$gen
    details[[f]] <- r$settings
  }
  rest <- families[path != "cells"]
  if (length(rest)) {
    fit_step(show, rest, folds, here)
    got <- fold_scores(real, generated, entries[rest], base, pool, fp, cells,
                       call = call)
    for (f in rest) {
      for (v in seq_len(K)) {
        sr[[f]][fp[[1]][[v]]] <- got[[v]][[f]]$real
        sg[[f]][fp[[2]][[v]]] <- got[[v]][[f]]$gen
      }
      # the folds' settings averaged
      dd <- lapply(got, function(x) x[[f]]$settings)
      details[[f]] <- do.call(mapply, c(list(function(...) {
        Reduce(`+`, list(...)) / K
      }), dd, list(SIMPLIFY = FALSE)))
    }
  }
  # every evaluation row scored by every family: a row left out would read
  # as a constant score (a perfect curve)
  for (f in families) {
    if (anyNA(sr[[f]]) || anyNA(sg[[f]])) {
      prd_abort("The {.val {f}} family left evaluation rows without a score.",
                "internal", call = call)
    }
  }
  scores <- lapply(families, function(f) list(real = sr[[f]], gen = sg[[f]]))
  names(scores) <- families
  list(scores = scores, details = details[families])
}

#' The step message of one stage of fitted_scores() (`show`: whether its
#' fit is long, long_fit()): the families `fams` fitted in it, in `folds`
#' folds (NULL: one fit). The step is closed, with its time, by the next
#' one or when `envir` (fitted_scores()' frame) exits.
#' @noRd
fit_step <- function(show, fams, folds, envir) {
  if (!show || !length(fams)) return(invisible())
  msg <- cli::format_inline(
    "Fitting {.val {fams}}",
    if (!is.null(folds)) paste(" in", folds, "folds"))
  # (the text formed here: the step reads no glue of its own)
  cli::cli_progress_step(gsub("}", "}}", gsub("{", "{{", msg, fixed = TRUE),
                              fixed = TRUE), .envir = envir)
}

#' Whether fitting `families` on `rows` rows (both sets) of `d` columns,
#' in `folds` folds (NULL: one fit), is long enough for a step message:
#' 1e7 values (twice the rows in folds: the fold moments' pass and the
#' scoring), or 1e6 with the mixture family, whose EM choice costs about
#' a second per million values (5,000 + 5,000 rows of 256 clustered
#' columns: 4 s, knn 0.4 s). Where d exceeds half the rows, the fits of
#' the Gram form (quadratic's below d / 1.25 fit rows, stacked's below d / 2)
#' cost about a second per 6.6e9 of folds x rows^2 x d, counted as
#' 1e7 values: 900 + 900 rows of 2,048 columns in 10 folds took 10 s
#' (`"quadratic"` and `"stacked"`), 400 + 400 2.4 s.
#' @noRd
long_fit <- function(families, rows, d, folds = NULL) {
  rows <- as.double(rows)
  values <- rows * d * (if (is.null(folds)) 1 else 2)
  if (d > rows / 2) {
    gram <- (if (is.null(folds)) 1 else folds) * rows^2 * d / 660
    values <- max(values, gram)
  }
  values >= if ("mixture" %in% families) 1e6 else 1e7
}

#' Fit the families `entries` (registry entries) on the rows fx of real and
#' fy of generated and score the rows ex, ey, each by its entry's `fit`
#' (the rows are read in place: no copies of the fit or evaluation rows;
#' the covariance parts formed once, when a family asks for them).
#' @return list(<family> = list(real, gen, settings)).
#' @noRd
fit_folds <- function(real, generated, entries, fx, fy, ex, ey,
                      call = rlang::caller_env()) {
  p <- NULL
  parts <- function() {
    if (is.null(p)) p <<- cov_parts(real, generated, fx, fy)
    p
  }
  out <- list()
  for (e in entries) {
    f <- e$fit(real, generated, fx, fy, n_score = length(ex) + length(ey),
               parts = parts, call = call)
    sc <- list(real = f$score(real, ex), gen = f$score(generated, ey))
    if (length(sc$real) != length(ex) || length(sc$gen) != length(ey) ||
        !is.numeric(sc$real) || !is.numeric(sc$gen)) {
      prd_abort("The {.val {e$name}} family's score gave {length(sc$real)} and {length(sc$gen)} values for {length(ex)} and {length(ey)} rows.",
                "internal", call = call)
    }
    out[[e$name]] <- c(sc, list(settings = fit_settings(f)))
    rm(f)
    collect_between_fits(real, generated)
  }
  out
}

#' The rows of both sets in coordinates of their span, for the families
#' `entries` that declare `span` (R/families.R), where the sets hold fewer
#' rows than columns (and engine_knobs$span): each row's coordinates in an
#' orthonormal basis of the span of the rows' differences from their mean
#' g (a factor F of the Gram matrix of the centred rows, F F' = G, from
#' its pivoted Cholesky factor; directions below LAPACK's tolerance, n
#' eps times the largest squared norm, left out), attribute
#' `ambient_dim` = d (cov_parts()). The inner products of the rows'
#' differences are those of the rows (to rounding), so the fits are the
#' same, on n instead of d columns a row: at 300 rows a set of 2,048
#' columns, a fold's fits and scores read 599 columns. NULL where it does
#' not apply.
#' @return list(real, generated) or NULL.
#' @noRd
span_sets <- function(real, generated, entries) {
  n <- nrow(real) + nrow(generated)
  d <- ncol(real)
  if (!isTRUE(engine_knobs$span) || n >= d ||
      !any(vapply(entries, function(e) isTRUE(e$span), TRUE))) {
    return(NULL)
  }
  g <- (colSums(real) + colSums(generated)) / n
  C <- rbind(.Call(ffi_centre, real, g, NULL),
             .Call(ffi_centre, generated, g, NULL))
  first <- first_copies(C)
  G <- tcrossprod(C)
  rm(C, g)
  R <- suppressWarnings(chol(G, pivot = TRUE))
  rm(G)
  # (column j of R's first r rows: the coordinates of row pivot[j]; equal
  # rows take the coordinates of the first of them, so that their scores
  # stay equal, as on the rows: exact ties, as copies of real rows make)
  r <- max(1L, attr(R, "rank"))
  at <- order(attr(R, "pivot"))[first]
  one <- function(i) {
    X <- t(R[seq_len(r), at[i], drop = FALSE])
    attr(X, "ambient_dim") <- d
    X
  }
  list(one(seq_len(nrow(real))), one(nrow(real) + seq_len(nrow(generated))))
}

#' For each row of C, the first row equal to it (itself if none before):
#' candidates share both fixed projections of row_keys(), then the rows
#' are compared exactly.
#' @noRd
first_copies <- function(C) {
  id <- key_groups(row_keys(C))
  first <- match(id, id)
  cand <- which(first != seq_along(first))
  if (length(cand)) {
    same <- rowSums(C[cand, , drop = FALSE] != C[first[cand], , drop = FALSE]) == 0
    first[cand[!same]] <- cand[!same]
  }
  first
}

#' fit_folds() of the families `entries` in their order, those that
#' declare `span` on the sets `span` (span_sets(); NULL: every family on
#' the rows), the others on the rows; consecutive families on the same
#' sets share their covariance parts.
#' @noRd
span_fit_folds <- function(real, generated, entries, fx, fy, ex, ey, span,
                           call = rlang::caller_env()) {
  if (!length(entries)) return(list())
  on <- !is.null(span) & vapply(entries, function(e) isTRUE(e$span), TRUE)
  runs <- cumsum(c(TRUE, on[-1L] != on[-length(on)]))
  out <- list()
  for (r in unique(runs)) {
    i <- which(runs == r)
    sets <- if (on[i[1]]) span else list(real, generated)
    out <- c(out, fit_folds(sets[[1]], sets[[2]], entries[i], fx, fy, ex, ey,
                            call = call))
  }
  out
}

#' The K folds' scores of the families `entries` (none of path "cells"):
#' fold v fitted on every cell but v + 1 and scored on it. Families of path
#' "parts" and "stacked" are fitted from the fold moments (one pass over
#' the rows, then O(d^2) per fold) where their fits take the primal form
#' (d at most the fit rows), "parts" up to fold_moments_ratio times them
#' and "stacked" up to stacked_moments_ratio times its inner halves' rows;
#' the others fold by fold from their rows (fit_folds()).
#' @return list over folds of list(<family> = list(real, gen, settings)).
#' @noRd
fold_scores <- function(real, generated, entries, base, pool, fp, cells,
                        call = rlang::caller_env()) {
  K <- length(fp[[1]])
  # where the sets hold far fewer rows than columns (engine_knobs$
  # span_moments) and every family here fits on the rows' span, all of them
  # do, the fold moments' fits too: on n - 1 columns that path is the
  # faster one (below)
  if (nrow(real) + nrow(generated) < engine_knobs$span_moments * ncol(real) &&
      all(vapply(entries, function(e) isTRUE(e$span), TRUE))) {
    span <- span_sets(real, generated, entries)
    if (!is.null(span)) {
      real <- span[[1]]
      generated <- span[[2]]
    }
    rm(span)
  }
  d <- ncol(real)
  path <- vapply(entries, `[[`, "", "path")
  # the families the fold moments serve: every fit in the primal form
  # (d <= the fit rows of both sets), those of path "parts" that fit fold
  # by fold up to fold_moments_ratio times the fit rows (their fits the
  # same; linear's shrinkage of all folds at once reads the fit rows' own
  # norms, which the Gram form does not), and stacked up to
  # stacked_moments_ratio times the rows of its inner halves (its
  # discriminants those of linear's moments)
  fit_rows <- function(j) length(base[[j]]) + length(pool[[j]]) - max(lengths(fp[[j]]))
  n_fit <- fit_rows(1) + fit_rows(2)
  all_at_once <- vapply(entries, function(e) isTRUE(e$solve_all_folds), TRUE)
  ratio <- ifelse(all_at_once, 1, engine_knobs$fold_moments_ratio)
  fast <- names(entries)[(path == "parts" & d <= n_fit * ratio) |
                           (path == "stacked" &
                              d <= (floor(n_fit / 2) - 2) * engine_knobs$stacked_moments_ratio &
                              min(fit_rows(1), fit_rows(2)) >= 6)]
  stacked <- intersect(fast, names(entries)[path == "stacked"])
  if (length(stacked) > 1L) {
    prd_abort("Only one family may take the {.val stacked} path.", "internal",
              call = call)
  }
  mom <- if (length(fast)) {
    # (both halves' total only for the families other than stacked)
    total <- length(setdiff(fast, stacked)) > 0L
    list(fold_moments(real, cells[[1]], total),
         fold_moments(generated, cells[[2]], total))
  }
  collect_between_fits(real, generated)
  # with fit rows, the discriminants of the families that solve every fold
  # at once (linear) and of stacked's inner folds are solved for every fold
  # together (fold_discriminants())
  all_folds <- if (min(lengths(base)) >= 2L) {
    fast[vapply(entries[fast], function(e) e$solve_all_folds && e$path == "parts",
                logical(1))]
  } else character()
  if (length(all_folds) > 1L) all_folds <- all_folds[1L]
  cg_stacked <- if (min(lengths(base)) >= 4L) stacked else character()
  lin <- NULL
  lins <- list() # stacked's discriminants, fold by fold (fold moments)
  per_fold <- setdiff(fast, c(all_folds, cg_stacked))
  if (length(mom)) {
    # the fit rows' norms, then their d x d moments go
    hss <- c(if (length(all_folds)) list(1:2),
             if (length(cg_stacked)) list(1L, 2L))
    norms <- lapply(hss, function(hs) fit_norms(mom, hs))
    names(norms) <- vapply(hss, paste, "", collapse = "")
    for (j in 1:2) mom[[j]]$Mf <- NULL
  }
  if (length(all_folds)) {
    f <- fold_discriminants(real, generated, mom, cells, score = TRUE,
                            norms = norms[["12"]], call = call)
    lin <- lapply(seq_len(K), function(v) {
      c(f$scores[[v]], list(settings = list(shrinkage = f$rho[[v]])))
    })
    rm(f)
  }
  if (length(cg_stacked)) {
    inner <- lapply(1:2, function(h) {
      fold_discriminants(real, generated, mom, cells, hs = h,
                         norms = norms[[as.character(h)]], call = call)
    })
    lins <- lapply(seq_len(K), function(v) {
      lapply(inner, function(f) {
        list(w = f$w[, v], mx = f$mx[, v], my = f$my[, v],
             centre = f$centre[, v])
      })
    })
    rm(inner)
    collect_between_fits(real, generated)
  }
  if (length(mom) && !("stacked" %in% vapply(entries[per_fold], `[[`, "",
                                                "path"))) {
    # no fold fit reads the halves' totals any more: the folds' "parts"
    # read only their sum, M[[3]] (a d x d matrix a half and a set less at
    # the fold fits' peak)
    for (j in 1:2) mom[[j]]$M[1:2] <- list(NULL)
  }
  slow <- setdiff(names(entries), fast)
  span <- if (length(slow)) span_sets(real, generated, entries[slow])
  out <- vector("list", K)
  for (v in seq_len(K)) {
    # fold v's fit rows of set j
    rest <- function(j) sort(c(base[[j]], pool[[j]][-fp[[j]][[v]]]))
    ex <- cells[[1]][[v + 1L]]
    ey <- cells[[2]][[v + 1L]]
    res <- list()
    if (length(all_folds)) res[[all_folds]] <- lin[[v]]
    if (length(per_fold)) {
      res <- c(res, fold_fit(real, generated, mom, v, entries[per_fold], ex,
                             ey, fit_rows = function(j) {
                               list(X = if (j == 1L) real else generated,
                                    rows = rest(j))
                             }, call = call))
      collect_between_fits(real, generated)
      if (!is.null(res$stacked_lins)) {
        lins[[v]] <- res$stacked_lins
        res$stacked_lins <- NULL
      }
    }
    if (length(slow)) {
      res <- c(res, span_fit_folds(real, generated, entries[slow], rest(1),
                                   rest(2), ex, ey, span, call = call))
    }
    out[[v]] <- res
  }
  if (length(lins)) {
    # stacked from the fold moments: every fold's features in one product
    # of each set's rows, then the folds' logistic fits
    st <- stacked
    tab <- list(stacked_table(real, mom[[1]], lins),
                stacked_table(generated, mom[[2]], lins))
    collect_between_fits(real, generated)
    for (v in seq_len(K)) {
      c1 <- v + 1L
      rest_half <- function(j, h) {
        unlist(lapply(mom[[j]]$halves[-c1], `[[`, h), use.names = FALSE)
      }
      f <- fit_stacked_halves(real, generated,
                              list(rest_half(1, 1), rest_half(1, 2)),
                              list(rest_half(2, 1), rest_half(2, 2)),
                              lins = lins[[v]],
                              features = function(h, set, rows) {
                                table_features(tab[[set]], 2L * (v - 1L) + h,
                                               rows)
                              }, call = call)
      out[[v]][[st]] <- list(real = f$score(rows = cells[[1]][[c1]], set = 1L),
                             gen = f$score(rows = cells[[2]][[c1]], set = 2L),
                             settings = fit_settings(f))
      collect_between_fits(real, generated)
    }
    rm(tab)
  }
  out
}

#' K random folds of 1..n (R's RNG): a random order cut at floor(n j / K),
#' sorted; for K = 2 the first floor(n / 2) of the order, then the rest.
#' Each fold needs at least 2 rows (two folds: 4 rows; a row alone, a
#' classifier fitted without it).
#' @noRd
cross_folds <- function(n, K = 2L, call = rlang::caller_env()) {
  if (n < 2L * K) {
    if (K == 2L) {
      prd_abort(c(
        "Cross-fitting (with {.code split = 0}) needs at least 4 rows per set.",
        "x" = "A set has {n} rows."
      ), "split", call = call)
    }
    prd_abort(c(
      "Cross-fitting in {K} folds needs at least {2 * K} evaluation rows per set (2 a fold).",
      "x" = "A set has {n} evaluation rows.",
      "i" = "Use fewer {.arg folds}, more rows or a larger {.arg split}."
    ), "split", call = call)
  }
  perm <- sample.int(n)
  cut <- floor(n * (0:K) / K)
  lapply(seq_len(K), function(j) sort(perm[(cut[j] + 1L):cut[j + 1L]]))
}

#' Fold v's fits of the families `entries` (registry entries of path
#' "parts" or "stacked") from the fold moments `mom` (one a set), scored on
#' the fold's rows ex of real and ey of generated; for the "stacked" path,
#' its two inner discriminants (element `stacked_lins`), which
#' fold_scores() completes. `fit_rows(j)`: list(X = set j, rows = the
#' positions of its fit rows in the fold), for fits that also read the rows
#' (the spectral family's search).
#' @noRd
fold_fit <- function(real, generated, mom, v, entries, ex, ey, fit_rows,
                     call = rlang::caller_env()) {
  c1 <- v + 1L # the fold's cell (cell 1: the fit rows)
  path <- vapply(entries, `[[`, "", "path")
  stacked <- any(path == "stacked")
  # cell v's C' C: each half for stacked's inner fits, else both at once
  hs <- if (stacked) list(1L, 2L) else list(1:2)
  Mv <- lapply(1:2, function(j) {
    X <- if (j == 1L) real else generated
    Mj <- lapply(hs, function(h) cell_cross(X, mom[[j]], c1, h))
    if (length(Mj) == 2L) Mj[[3]] <- Mj[[1]] + Mj[[2]]
    Mj
  })
  out <- list()
  if (any(path == "parts")) {
    p <- moment_parts(fold_stats(mom[[1]], c1, 1:2, Mv[[1]][[length(Mv[[1]])]]),
                      fold_stats(mom[[2]], c1, 1:2, Mv[[2]][[length(Mv[[2]])]]),
                      d = mom[[1]]$ambient)
    if (!stacked) rm(Mv)
    # every fit first, then the covariances go before the scoring (whose
    # temporaries are the fold fits' peak)
    fits <- lapply(entries[path == "parts"], function(e) {
      e$fit_parts(p, n_score = length(ex) + length(ey), call = call,
                  fit_rows = fit_rows)
    })
    rm(p)
    for (e in entries[path == "parts"]) {
      f <- fits[[e$name]]
      fits[e$name] <- list(NULL)
      out[[e$name]] <- list(real = f$score(real, ex),
                            gen = f$score(generated, ey),
                            settings = fit_settings(f))
      rm(f)
    }
  }
  if (stacked) {
    # stacked's two discriminants now; its features and logistic fits once
    # every fold's discriminants are known (fold_scores())
    out[["stacked_lins"]] <- lapply(1:2, function(h) {
      stacked_linear(moment_parts(fold_stats(mom[[1]], c1, h, Mv[[1]][[h]]),
                                  fold_stats(mom[[2]], c1, h, Mv[[2]][[h]]),
                                  d = mom[[1]]$ambient),
                     call = call)
    })
  }
  out
}

#' The stacked classifier's features of every row of X under the
#' discriminants `lins` (a list per fold of the two inner folds'
#' stacked_linear()), from one product of the rows centred on the set's
#' centre g (mom$g) with the d x 6K matrix of each discriminant's w and
#' means less g, in blocks of 4,096 rows: with c = z - g and u = mu - g,
#' |z - mu|^2 = |c|^2 - 2 c'u + |u|^2 and (z - centre)' w = c'w + (g -
#' centre)' w. The same features as stacked_features() (to rounding),
#' without two passes over the rows per fold and inner fold.
#' @return list(P = n x 6K products, q = |c|^2, off = (g - centre)' w per
#'   discriminant, ux, uy = |mu_X - g|^2, |mu_Y - g|^2 per discriminant).
#' @noRd
stacked_table <- function(X, mom, lins) {
  g <- mom$g
  L <- unlist(lins, recursive = FALSE) # fold 1 inner 1, 1 2, 2 1, ...
  V <- do.call(cbind, lapply(L, function(l) cbind(l$w, l$mx - g, l$my - g)))
  n <- nrow(X)
  pq <- .Call(ffi_centred_product, X, g, V, NULL)
  list(P = pq$P, q = pq$q,
       off = vapply(L, function(l) sum((g - l$centre) * l$w), numeric(1)),
       ux = vapply(L, function(l) sum((l$mx - g)^2), numeric(1)),
       uy = vapply(L, function(l) sum((l$my - g)^2), numeric(1)))
}

#' The features of rows `rows` under discriminant k of a stacked_table()
#' @noRd
table_features <- function(tab, k, rows) {
  P <- tab$P[rows, 3L * (k - 1L) + 1:3, drop = FALSE]
  q <- tab$q[rows]
  cbind(P[, 1] + tab$off[[k]],
        log(pmax(q - 2 * P[, 2] + tab$ux[[k]], 0) + 1e-300),
        log(pmax(q - 2 * P[, 3] + tab$uy[[k]], 0) + 1e-300))
}


#' A young-generation garbage collection between the stages of a large fit
#' (`real` and `generated` together at least fit_collect_values values).
#' Each fold leaves d x d matrices and blocks of rows behind; R collects
#' them only when its heap reaches a trigger that grows with the live data,
#' so without these the peak held about 1.4 times the live data. With
#' `scratch` (before the first fit) the engine's scratch slots
#' (src/scratch.c, some 300 MiB at 10,000 x 2,048) are released too: the
#' fits do not use them, and the next engine call pays their first touch
#' again. A collection of the young generation takes about a millisecond;
#' `full` collects every generation (what a family's many steps promoted
#' and left, as the mixture's EM: 10-20 ms), once after such a family.
#' @noRd
collect_between_fits <- function(real, generated, scratch = FALSE,
                                 full = FALSE) {
  if (as.double(length(real)) + length(generated) >= fit_collect_values) {
    if (scratch) engine_scratch(release = TRUE)
    invisible(gc(verbose = FALSE, full = full))
  }
  invisible()
}

#' The number of values from which fits collect garbage between their
#' stages (collect_between_fits()): 2^22, 32 MiB of doubles
#' @noRd
fit_collect_values <- 2^22
