# K-fold cross-fitting of the fitted families (SPEC.md section 7,
# `folds`). The rows a set offers to the fits (its fit rows and the K folds
# of its evaluation rows) are cut into cells: the fit rows, then one cell a
# fold, each cell in two random halves (inner_halves(): the stacked
# family's two inner folds). The moments of every cell about one centre per set (the
# mean of all those rows) are formed once; fold v's fit is every cell but
# v, so its covariance is the total less cell v's: one pass over the rows
# for the totals and one over each fold, then O(d^2) and one Cholesky
# factor per fold and family, instead of a covariance of (K - 1) / K of the
# rows per fold. Families whose fits would take the dual (Gram) form (d
# larger than the fit rows), which the moments do not give, fit each fold
# from its rows (cov_parts(), fit_stacked()).

#' Scores of the fitted families on the evaluation rows of a split (real
#' evaluation rows, then generated), high = "generated". With `folds` = K
#' the evaluation rows of each set are cut at random (R's RNG) into K folds
#' and each fold is scored by the classifiers fitted on the fit rows and the
#' other folds' evaluation rows of both sets (K-fold cross-fitting: fits on
#' more rows). Without a split (s$eval NULL) every row is an evaluation row
#' and there are no fit rows: the same with K = `folds`, 2 by default.
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
  if (!is.null(s$eval) && identical(as.integer(folds), 1L)) folds <- NULL
  # a step message on long fits (the engine's bar covers the distances;
  # none inside the half-sample replicates, which have their own bar)
  if (show_progress() && !isTRUE(getOption("prdcurve.in_replicates")) &&
      (nrow(real) + nrow(generated)) * as.double(ncol(real)) *
        (if (is.null(folds)) 1 else 2) >= 1e7) {
    cli::cli_progress_step(paste0(
      "Fitting the {.val {families}} classifier{?s}",
      if (!is.null(folds)) " in {folds} folds"))
  }
  if (!is.double(real)) storage.mode(real) <- "double"
  if (!is.double(generated)) storage.mode(generated) <- "double"
  by_cells <- families[path == "cells"]
  if (!is.null(s$eval) && is.null(folds)) {
    cells <- list(list(s$fit[[1]], s$eval[[1]]), list(s$fit[[2]], s$eval[[2]]))
    res <- fit_folds(real, generated, entries[path != "cells"], s$fit[[1]],
                     s$fit[[2]], s$eval[[1]], s$eval[[2]], call = call)
    for (f in by_cells) res[[f]] <- entries[[f]]$cells(real, generated, cells)
    res <- res[families]
    return(list(scores = lapply(res, function(r) list(real = r$real, gen = r$gen)),
                details = lapply(res, function(r) r$settings)))
  }
  K <- if (is.null(folds)) 2L else as.integer(folds)
  if (is.null(s$eval)) {
    base <- list(integer(), integer())
    pool <- list(seq_len(nrow(real)), seq_len(nrow(generated)))
  } else {
    base <- lapply(s$fit, as.integer)
    pool <- lapply(s$eval, as.integer)
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
    r <- entries[[f]]$cells(real, generated, cells)
    sr[[f]][unlist(fp[[1]])] <- r$real
    sg[[f]][unlist(fp[[2]])] <- r$gen
    details[[f]] <- r$settings
  }
  rest <- families[path != "cells"]
  if (length(rest)) {
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
  }
  out
}

#' The K folds' scores of the families `entries` (none of path "cells"):
#' fold v fitted on every cell but v + 1 and scored on it. Families of path
#' "parts" and "stacked" are fitted from the fold moments (one pass over
#' the rows, then O(d^2) per fold) where their fits take the primal form
#' (d at most the fit rows); the others fold by fold from their rows
#' (fit_folds()).
#' @return list over folds of list(<family> = list(real, gen, settings)).
#' @noRd
fold_scores <- function(real, generated, entries, base, pool, fp, cells,
                        call = rlang::caller_env()) {
  K <- length(fp[[1]])
  d <- ncol(real)
  path <- vapply(entries, `[[`, "", "path")
  # the families the fold moments serve: every fit in the primal form
  # (d <= the fit rows of both sets, also in stacked's inner halves)
  fit_rows <- function(j) length(base[[j]]) + length(pool[[j]]) - max(lengths(fp[[j]]))
  n_fit <- fit_rows(1) + fit_rows(2)
  fast <- names(entries)[(path == "parts" & d <= n_fit) |
                           (path == "stacked" & d <= floor(n_fit / 2) - 2 &
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
  }
  slow <- setdiff(names(entries), fast)
  out <- vector("list", K)
  for (v in seq_len(K)) {
    ex <- cells[[1]][[v + 1L]]
    ey <- cells[[2]][[v + 1L]]
    res <- list()
    if (length(all_folds)) res[[all_folds]] <- lin[[v]]
    if (length(per_fold)) {
      res <- c(res, fold_fit(real, generated, mom, v, entries[per_fold], ex,
                             ey, call = call))
      if (!is.null(res$stacked_lins)) {
        lins[[v]] <- res$stacked_lins
        res$stacked_lins <- NULL
      }
    }
    if (length(slow)) {
      rest <- function(j) sort(c(base[[j]], pool[[j]][-fp[[j]][[v]]]))
      res <- c(res, fit_folds(real, generated, entries[slow], rest(1), rest(2),
                              ex, ey, call = call))
    }
    out[[v]] <- res
  }
  if (length(lins)) {
    # stacked from the fold moments: every fold's features in one product
    # of each set's rows, then the folds' logistic fits
    st <- stacked
    tab <- list(stacked_table(real, mom[[1]], lins),
                stacked_table(generated, mom[[2]], lins))
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

#' The moments of one set's cells (a list of disjoint row vectors of X)
#' about g, the mean of all their rows: each cell cut into two random
#' halves (inner_halves(), R's RNG), and for
#' each half of each cell its rows' count n, sum s, sums of |c|^2, |c|^4
#' and |c|^2 c (c = x - g), and over all cells the totals M[[h]] = C_h' C_h
#' of each half h and, with `total`, M[[3]] = M[[1]] + M[[2]] (the stacked
#' family alone reads only the halves'); each total is the product of
#' the half's rows of cell 1 (the fit rows) plus that of its rows in the
#' other cells (ffi_cell_moments(), from blocks of the centred rows: no
#' copy of them), and Mf[[h]], the fit rows' own C' C in half h (absent where the half has no fit rows), is
#' kept for the shrinkage of fold_discriminants() (fitted_scores() drops
#' it once fit_norms() has read it). A cell's own C' C is formed again when its
#' fold is left out (cell_cross()), so memory holds five d x d totals per
#' set (four without `total`), not one per cell.
#' @noRd
fold_moments <- function(X, cells, total = TRUE) {
  d <- ncol(X)
  g <- .Call(ffi_col_means, X, unlist(cells, use.names = FALSE))
  halves <- lapply(cells, inner_halves)
  M <- list()
  Mf <- list()
  st <- lapply(halves, function(hh) vector("list", 2L))
  for (h in 1:2) {
    rows <- lapply(halves, `[[`, h)
    # part 1: the fit rows (cell 1); part 2: the other cells
    for (part in 1:2) {
      ids <- if (part == 1L) 1L else seq_along(rows)[-1L]
      r <- unlist(rows[ids], use.names = FALSE)
      if (!length(r)) {
        for (v in ids) {
          st[[v]][[h]] <- list(n = 0L, s = numeric(d), q1 = 0, q2 = 0,
                               qv = numeric(d))
        }
        next
      }
      cell <- rep.int(seq_along(ids), lengths(rows[ids]))
      # C' C added to the part before (the fit rows'), and the cells' sums,
      # from blocks of the centred rows C (ffi_cell_moments(): no copy)
      cm <- .Call(ffi_cell_moments, X, g, r, cell, length(ids),
                  if (length(M) >= h) M[[h]])
      if (part == 1L) Mf[[h]] <- cm$M
      M[[h]] <- cm$M
      q <- cm$q
      s <- cm$s
      qv <- cm$qv
      rm(cm)
      for (k in seq_along(ids)) {
        st[[ids[k]]][[h]] <- list(n = lengths(rows)[[ids[k]]], s = s[, k],
                                  q1 = sum(q[cell == k]),
                                  q2 = sum(q[cell == k]^2), qv = qv[, k])
      }
    }
    if (length(M) < h) M[[h]] <- matrix(0, d, d)
  }
  if (total) M[[3]] <- M[[1]] + M[[2]]
  list(g = g, d = d, halves = halves, st = st, M = M, Mf = Mf)
}

#' C' C of cell `v`'s halves `hs` (its rows centred on the set's g)
#' @noRd
cell_cross <- function(X, mom, v, hs) {
  r <- unlist(mom$halves[[v]][hs], use.names = FALSE)
  if (!length(r)) return(matrix(0, mom$d, mom$d))
  .Call(ffi_cell_moments, X, mom$g, r, rep.int(1L, length(r)), 1L, NULL)$M
}

#' The covariance moments of one set's rows in every cell but `v` and in
#' the halves `hs` (1, 2 or both), given Mv = cell v's C' C in those
#' halves: count n, mean (in X's coordinates), covariance S (divided by
#' n), trace / n, and r4 = sum of |x - mean|^4, as cov_parts() forms them
#' from the rows.
#' @noRd
fold_stats <- function(mom, v, hs, Mv) {
  moment_stats(mom, setdiff(seq_along(mom$st), v), hs,
               mom$M[[if (length(hs) == 2L) 3L else hs]], Mv)
}

#' The moments of the rows of the cells `keep` in the halves `hs`, whose
#' C' C (about mom$g) is M - Mv (Mv NULL: M): see fold_stats()
#' @noRd
moment_stats <- function(mom, keep, hs, M, Mv) {
  a <- moment_sums(mom, keep, hs)
  cv <- .Call(ffi_fold_cov, M, Mv, as.double(a$n), a$m)
  moment_summary(mom, a, cv$S, cv$Mm)
}

#' The sums of moment_stats() over the cells `keep` and the halves `hs`
#' (count n, sums s, q1, q2, qv) and the rows' mean about g, m = s / n
#' @noRd
moment_sums <- function(mom, keep, hs) {
  add <- function(field) cell_sum(mom, keep, hs, field)
  n <- add("n")
  s <- add("s")
  list(n = n, s = s, q1 = add("q1"), q2 = add("q2"), qv = add("qv"),
       m = s / n)
}

#' moment_stats() from moment_sums() `a`, the covariance S (or NULL) and
#' Mm = (C' C) m
#' @noRd
moment_summary <- function(mom, a, S, Mm) {
  m <- a$m
  kap <- sum(m^2)
  # sum_i (|c_i|^2 - 2 c_i'm + |m|^2)^2 over the rows c_i (about g)
  r4 <- a$q2 - 4 * sum(a$qv * m) + 2 * kap * a$q1 + 4 * sum(m * Mm) -
    4 * kap * sum(a$s * m) + a$n * kap^2
  list(n = a$n, mean = mom$g + m, S = S, tr = a$q1 / a$n - kap,
       r4 = max(0, r4))
}

#' The sum of one of fold_moments()' per-cell statistics (`field`: n, s,
#' q1, q2, qv) over the cells `keep` and the halves `hs`
#' @noRd
cell_sum <- function(mom, keep, hs, field) {
  Reduce(`+`, lapply(keep, function(c) {
    Reduce(`+`, lapply(hs, function(h) mom$st[[c]][[h]][[field]]))
  }))
}

#' The count, the mean about the set's centre g (m) and the trace of the
#' covariance of one set's rows in every cell but `v` and in the halves
#' `hs`: fold_stats() without its d x d work
#' @noRd
fold_counts <- function(mom, v, hs = 1:2) {
  keep <- setdiff(seq_along(mom$st), v)
  n <- cell_sum(mom, keep, hs, "n")
  m <- cell_sum(mom, keep, hs, "s") / n
  list(n = n, m = m, tr = cell_sum(mom, keep, hs, "q1") / n - sum(m^2))
}

#' cov_parts() (primal form) from two sets' fold_stats()
#' @noRd
moment_parts <- function(a, b) {
  list(nx = a$n, ny = b$n, d = nrow(a$S), mx = a$mean, my = b$mean,
       dual = FALSE, G = NULL, Sx = a$S, Sy = b$S,
       ff = stats::setNames(.Call(ffi_frob3, a$S, b$S), c("xx", "yy", "xy")),
       tr = c(x = a$tr, y = b$tr), r4 = c(x = a$r4, y = b$r4))
}

#' Fold v's fits of the families `entries` (registry entries of path
#' "parts" or "stacked") from the fold moments `mom` (one a set), scored on
#' the fold's rows ex of real and ey of generated; for the "stacked" path,
#' its two inner discriminants (element `stacked_lins`), which
#' fold_scores() completes.
#' @noRd
fold_fit <- function(real, generated, mom, v, entries, ex, ey,
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
                      fold_stats(mom[[2]], c1, 1:2, Mv[[2]][[length(Mv[[2]])]]))
    for (e in entries[path == "parts"]) {
      f <- e$fit_parts(p, n_score = length(ex) + length(ey), call = call)
      out[[e$name]] <- list(real = f$score(real, ex),
                            gen = f$score(generated, ey),
                            settings = fit_settings(f))
      rm(f)
    }
    rm(p)
  }
  if (stacked) {
    # stacked's two discriminants now; its features and logistic fits once
    # every fold's discriminants are known (fold_scores())
    out[["stacked_lins"]] <- lapply(1:2, function(h) {
      stacked_linear(moment_parts(fold_stats(mom[[1]], c1, h, Mv[[1]][[h]]),
                                  fold_stats(mom[[2]], c1, h, Mv[[2]][[h]])),
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
  pq <- .Call(ffi_centred_product, X, g, V)
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

#' The fit rows' (cell 1's) statistics that predict the folds' squared
#' Frobenius norms in fold_discriminants(), from the rows of the halves
#' `hs` of both sets' fold moments: each set's per-row dispersion e = r4 /
#' n - ||S||^2, big = ||S||^2 - e / n (an estimate of ||Sigma||^2), and
#' f3 = (||S_X||^2, ||S_Y||^2, <S_X, S_Y>)
#' @noRd
fit_norms <- function(mom, hs = 1:2) {
  # the norms of the fit rows' covariances without forming them
  # (ffi_cov_norms(): the same values as ffi_frob3() of moment_stats()' S)
  a <- lapply(mom, moment_sums, keep = 1L, hs = hs)
  Mf <- lapply(mom, function(m) m$Mf[hs])
  cn <- .Call(ffi_cov_norms, Mf[[1]][[1]], if (length(hs) == 2L) Mf[[1]][[2]],
              as.double(a[[1]]$n), a[[1]]$m, Mf[[2]][[1]],
              if (length(hs) == 2L) Mf[[2]][[2]], as.double(a[[2]]$n),
              a[[2]]$m)
  fs <- lapply(1:2, function(j) moment_summary(mom[[j]], a[[j]], NULL,
                                               cn[[j + 1L]]))
  f3 <- cn$f3
  e <- vapply(1:2, function(j) max(0, fs[[j]]$r4 / fs[[j]]$n - f3[[j]]), 0)
  big <- vapply(1:2, function(j) max(0, f3[[j]] - e[[j]] / fs[[j]]$n), 0)
  list(e = e, big = big, f3 = f3)
}

#' The linear discriminants of every fold from the fold moments, without
#' a d x d covariance per fold (SPEC.md section 7, `folds`): the linear
#' family's (halves `hs` = 1:2) and the stacked family's inner ones (`hs` =
#' 1 or 2, the rows of those halves of the cells). Fold v's discriminant
#' solves Sigma_v w = mu_Y,v - mu_X,v with Sigma_v = (1 - rho_v) (a S_X,v +
#' b S_Y,v) + rho_v m_v I, S_k,v the covariance of set k's rows in every
#' cell but v: (M_k - C_k,v' C_k,v) / n_k,v - u u' about the set's centre.
#' The shrinkage rho_v is the Ledoit-Wolf intensity of that covariance with
#' its squared Frobenius norms predicted from the fit rows (cell 1, never
#' scored): each set's per-row dispersion e_k = r4 / n - ||S_k||^2 and
#' ||Sigma_k||^2 = ||S_k||^2 - e_k / n, so that ||S_k,v||^2 =
#' ||Sigma_k||^2 + e_k / n_k,v and the noise is e_k / n_k,v (the exact
#' norms would need every fold's own C' C, as much work as the fits); the
#' traces and counts are the fold's own. The K systems are solved together
#' by conjugate gradients, preconditioned by the Cholesky factor of the
#' blend of all the rows' C' C (each fold differs from it by about 1 / K of
#' the rows, so a few tens of iterations reach a relative residual of
#' `tol`); a fold that does not converge in `max_iter` is solved directly.
#' `norms`: fit_norms(mom, hs), or NULL to form them here (from mom's Mf).
#' @return list(w, mx, my = d x K matrices of the discriminants and the
#'   means of both sets, centre = (mx + my) / 2, rho = the K intensities,
#'   iterations = the conjugate-gradient steps taken,
#'   scores = with `score`, a list per fold of the scores (z - centre)' w of
#'   its rows of each set, list(real, gen))
#' @noRd
fold_discriminants <- function(real, generated, mom, cells, hs = 1:2,
                               score = FALSE, norms = NULL, tol = 1e-11,
                               max_iter = 200L, call = rlang::caller_env()) {
  K <- length(cells[[1]]) - 1L
  d <- mom[[1]]$d
  X <- list(real, generated)
  Mt <- lapply(mom, function(m) m$M[[if (length(hs) == 2L) 3L else hs]])
  nf <- if (is.null(norms)) fit_norms(mom, hs) else norms
  e <- nf$e
  big <- nf$big
  f3 <- nf$f3
  fold <- lapply(seq_len(K), function(v) {
    f <- lapply(mom, fold_counts, v = v + 1L, hs = hs)
    n <- c(f[[1]]$n, f[[2]]$n)
    a <- n / sum(n)
    p <- list(d = d, tr = c(x = f[[1]]$tr, y = f[[2]]$tr),
              ff = c(xx = big[[1]] + e[[1]] / n[[1]],
                     yy = big[[2]] + e[[2]] / n[[2]], xy = f3[[3]]))
    lw <- lw_intensity(p, a[[1]], a[[2]], noise = sum(a^2 * e / n))
    coef <- (1 - lw$rho) * a
    list(n = n, p = p, coef = coef, c = lw$rho * lw$m,
         ridge = cov_ridge(p, coef[[1]], coef[[2]], lw$rho * lw$m),
         rho = lw$rho, u = list(f[[1]]$m, f[[2]]$m))
  })
  col <- function(field, j) vapply(fold, function(f) f[[field]][[j]], 0)
  scale <- lapply(1:2, function(j) col("coef", j) / col("n", j))
  ridge <- vapply(fold, `[[`, 0, "ridge")
  U <- lapply(1:2, function(j) {
    matrix(unlist(lapply(fold, function(f) f$u[[j]])), d, K)
  })
  Ucoef <- lapply(1:2, function(j) U[[j]] * rep(col("coef", j), each = d))
  # each set's rows of the folds' cells (in the halves hs), centred on its
  # centre, and the fold of each
  rows <- lapply(1:2, function(j) {
    if (length(hs) == 2L) return(cells[[j]][-1L]) # in the cells' order
    lapply(mom[[j]]$halves[-1L], `[[`, hs)
  })
  # (one row per column: each row's values contiguous for ffi_fold_sigma())
  Et <- lapply(1:2, function(j) {
    .Call(ffi_centre_t, X[[j]], mom[[j]]$g,
          as.integer(unlist(rows[[j]], use.names = FALSE)))
  })
  at <- lapply(1:2, function(j) {
    cbind(seq_len(ncol(Et[[j]])), rep.int(seq_len(K), lengths(rows[[j]])))
  })
  # Sigma_v applied to column v of D, for every fold at once
  sigma <- function(D) {
    out <- D * rep(ridge, each = d)
    for (j in 1:2) {
      # Mt D - the folds' own C_v' C_v D_v (ffi_fold_sigma())
      G <- .Call(ffi_fold_sigma, Mt[[j]], Et[[j]], at[[j]][, 2L], D)
      out <- out + G * rep(scale[[j]], each = d) -
        Ucoef[[j]] * rep(colSums(U[[j]] * D), each = d)
    }
    out
  }
  R <- .Call(ffi_cov_factor, Mt[[1]], Mt[[2]], mean(scale[[1]]),
             mean(scale[[2]]), mean(ridge))
  if (is.null(R)) cov_fail(call)
  # (R'R)^-1 V, V's columns among the engine's threads
  precond <- function(V) .Call(ffi_chol_solve, R, V)
  mx <- mom[[1]]$g + U[[1]]
  my <- mom[[2]]$g + U[[2]]
  B <- my - mx
  bn <- sqrt(colSums(B^2))
  W <- matrix(0, d, K)
  Rr <- B
  Z <- precond(Rr)
  P <- Z
  rz <- colSums(Rr * Z)
  live <- bn > 0
  iter <- 0L
  # each step's products (d x d by d x K: memory bound) are made by the
  # engine's threads, each calling the BLAS on its own part with OpenBLAS
  # at one thread (ffi_fold_sigma(), ffi_chol_solve())
  while (any(live) && iter < max_iter) {
    iter <- iter + 1L
    SP <- sigma(P)
    alpha <- ifelse(live, rz / colSums(P * SP), 0)
    W <- W + P * rep(alpha, each = d)
    Rr <- Rr - SP * rep(alpha, each = d)
    live <- live & sqrt(colSums(Rr^2)) > tol * bn
    if (!any(live)) break
    Z <- precond(Rr)
    rzn <- colSums(Rr * Z)
    P <- Z + P * rep(ifelse(live, rzn / rz, 0), each = d)
    rz <- ifelse(live, rzn, 1)
  }
  rm(R, P, Z, Rr)
  # a fold whose iterations did not converge: solved directly, its
  # covariances formed from the moments (cov_solver())
  for (v in which(live | !is.finite(colSums(W)))) {
    fv <- fold[[v]]
    S <- lapply(1:2, function(j) {
      Mv <- cell_cross(X[[j]], mom[[j]], v + 1L, hs)
      .Call(ffi_fold_cov, Mt[[j]], Mv, as.double(fv$n[[j]]), fv$u[[j]])$S
    })
    sol <- cov_solver(c(fv$p, list(dual = FALSE, Sx = S[[1]], Sy = S[[2]])),
                      fv$coef[[1]], fv$coef[[2]], fv$c, call = call)
    rm(S)
    W[, v] <- sol$solve(B[, v])
    rm(sol)
  }
  centre <- (mx + my) / 2
  out <- list(w = W, mx = mx, my = my, centre = centre,
              rho = vapply(fold, `[[`, 0, "rho"), iterations = iter)
  if (score) {
    # the scores (z - centre_v)' w_v = (z - g)' w_v - (centre_v - g)' w_v
    # of every fold's rows from one product of each set's centred rows
    sc <- lapply(1:2, function(j) {
      off <- colSums((centre - mom[[j]]$g) * W)
      t <- crossprod(Et[[j]], W)
      split(t[at[[j]]] - off[at[[j]][, 2L]], factor(at[[j]][, 2L], seq_len(K)))
    })
    out$scores <- lapply(seq_len(K), function(v) {
      list(real = sc[[1]][[v]], gen = sc[[2]][[v]])
    })
  }
  out
}
