# The curves of every model, method and k (prd_curve()'s engine work): the
# splits per model, the neighbour families' evidences from one engine
# sweep, the fitted families' scores, the envelopes.

#' One split per model, sharing the real set's partition (paired models)
#' and one partition per distinct generated size (identical generated sets
#' get identical estimates), each size's drawn as with that size alone
#' (lapply_same_draws()).
#' @noRd
resolve_model_splits <- function(split, real, gens, canonical = FALSE,
                                 call = rlang::caller_env()) {
  if (is.list(split) || (is.numeric(split) && isTRUE(split == 0))) {
    # (rows given per model: canonical_split())
    by_model <- inherits(split, "prdcurve_model_rows")
    out <- lapply(names(gens), function(nm) {
      g <- gens[[nm]]
      if (by_model) split <- split[[nm]]
      if (is.list(split)) {
        # in a half-sample of the replicates, the user's rows that fall in it
        split <- split_rows_in_half(split, real, g, call = call)
      }
      resolve_split(split, nrow(real), nrow(g), call = call)
    })
    names(out) <- names(gens)
    return(record_real_split(out))
  }
  # validate the fraction once, then draw the real partition once and one
  # partition per distinct generated size
  check_split_fraction(split, call)
  # (`canonical`: sets not in canonical order, the metrics', drawn over
  # their rows in that order, so that the same seed splits the same values
  # whatever order the rows came in; prd_curve()'s sets are in it already)
  ord <- function(x) if (canonical) canonical_order(x)
  px <- split_part(split, nrow(real), "real", call, order = ord(real))
  sizes <- unique(vapply(gens, nrow, integer(1)))
  # one permutation per distinct generated size (split_part()'s checks
  # before it), each model's partition in its own rows' order
  perms <- lapply_same_draws(sizes, function(m) {
    split_part(split, m, "generated", call, perm = seq_len(m))
    sample.int(m)
  })
  out <- lapply(names(gens), function(nm) {
    g <- gens[[nm]]
    py <- split_part(split, nrow(g), "generated", call, order = ord(g),
                     perm = perms[[match(nrow(g), sizes)]])
    split_from_parts(px, py, split)
  })
  names(out) <- names(gens)
  record_real_split(out)
}

#' Fewest evaluation rows per half and set below which "tightest" uses one
#' family and warns: on a few rows the lowest of the families lies well
#' below the truth (P = Q, true AUC 1: 0.848-0.908 at 10 rows a half,
#' 0.883-0.917 at 25, 0.914-0.936 at 50, 0.964 at 100, 0.989-0.993 at 250;
#' d = 8 and 64, means of 3 draws, before the ceiling rule of
#' tightest_null_width, which takes none of them below 250)
#' @noRd
tightest_min_half <- 50L

#' The warning of "tightest" on halves of fewer than tightest_min_half rows
#' @noRd
warn_tightest_halves <- function(rows) {
  if (rows >= tightest_min_half) return(invisible())
  prd_warn(c(
    "{.val tightest} reads its families on halves of the evaluation rows: here {rows} row{?s} of a set in a half.",
    "x" = "On so few rows it takes one family's curve (the one with the least penalised area), and the result is unreliable: it lies below the true one on average (two samples of one distribution, true AUC 1, read 0.85 to 0.91 with 10 rows a half and 0.88 to 0.92 with 25), and a family decided by a few points can lift it above.",
    "i" = "Use hundreds of rows per set, or one family (e.g. {.code method = \"knn\"})."
  ), "small_sample")
}

#' The curves of every model, method and k (the engine work of prd_curve)
#' @noRd
curve_estimates <- function(real, gens, splits, settings, check_limit = NULL,
                            call = rlang::caller_env()) {
  k <- settings$k
  method <- settings$method
  tight <- "tightest" %in% method
  families <- if (tight) settings$families else character()
  used <- union(setdiff(method, "tightest"), families)
  need_nb <- intersect(neighbour_methods(), used)
  need_fit <- intersect(fitted_methods(), used)
  # a given kde bandwidth: the kde counts are the same at every k
  fixed_kde <- !is.null(settings$bandwidth) && "kde" %in% need_nb
  if (!is.null(check_limit) && length(need_nb)) {
    check_k(k, check_limit, what = "the half-samples of the replicates",
            call = call)
  }
  # halves of the evaluation rows for "tightest": the real set's shared by
  # every model (paired comparisons), one per distinct generated size
  halves <- list()
  if (tight) {
    sz <- lapply(splits, split_sizes)
    ner <- sz[[1]][["eval_real"]]
    halves$real <- random_halves(ner)
    neg <- unique(vapply(sz, function(z) z[["eval_generated"]], numeric(1)))
    if (min(ner, neg) < 2) {
      prd_abort(c(
        "{.val tightest} needs at least 2 evaluation rows per set (one per half).",
        "x" = "A set has {min(ner, neg)} evaluation row{?s}.",
        "i" = "Use more rows or a larger {.arg split}."
      ), "split", call = call)
    }
    halves$gen <- lapply_same_draws(neg, random_halves)
    names(halves$gen) <- neg
    if (!run_state$in_replicates) {
      warn_tightest_halves(min(ner, neg) %/% 2)
    }
  }
  pieces <- list()
  shared <- engine_shared()
  # every model's draws (the fitted families' folds and fits) from the
  # same state, R's stream left as the first model's left it: a model's
  # curves are those of a call with its set alone (with the same k)
  lapply_same_draws(names(gens), function(m) {
    s <- splits[[m]]
    sizes <- split_sizes(s)
    nb <- if (length(need_nb)) {
      curve_evidence(real, gens[[m]], s, k, need_nb, settings$bandwidth,
                     settings$closed, shared)
    }
    fs <- fitted_scores(real, gens[[m]], s, need_fit, folds = settings$folds,
                        call = call)
    hub <- if ("knn" %in% method && !is.null(nb$hub)) hub_skewness(nb$hub)
    # a neighbour family alone: the simple classifiers' AUCs of this split,
    # for check_neighbour_family() (R/family-checks.R)
    simple <- if (all(method %in% neighbour_methods()) &&
                  !run_state$in_replicates) {
      simple_aucs(real, gens[[m]], s)
    }
    ne <- sizes[["eval_real"]]
    ix <- seq_len(ne)
    nb_env <- function(meth, j) {
      a <- nb$counts[[meth]]$a[, j]
      b <- nb$counts[[meth]]$b[, j]
      ar <- a[ix]
      br <- b[ix]
      ag <- a[-ix]
      bg <- b[-ix]
      function(ir = seq_along(ar), ig = seq_along(ag)) {
        curve_from_evidence(ar[ir], br[ir], ag[ig], bg[ig], settings$lambda,
                            sizes[["fit_real"]], sizes[["fit_generated"]])
      }
    }
    fit_env <- function(meth) {
      sc <- fs$scores[[meth]]
      function(ir = seq_along(sc$real), ig = seq_along(sc$gen)) {
        curve_from_scores(sc$real[ir], sc$gen[ig], settings$lambda)
      }
    }
    fit_info <- function(meth, extra = list()) {
      fsz <- sizes
      K <- settings$folds
      cross <- !is.null(K) && K >= 2L &&
        meth %in% c(fitted_methods(), "tightest") && length(need_fit)
      if (cross) {
        # K folds of the evaluation rows, each fitted on the fit rows (none
        # without a split) and the other folds: the rows of the smallest fit
        for (w in c("real", "generated")) {
          ne <- sizes[[paste0("eval_", w)]]
          base <- if (split_has_eval(s)) sizes[[paste0("fit_", w)]] else 0
          fsz[[paste0("fit_", w)]] <- base + ne - ceiling(ne / K)
        }
      }
      curve_info(source = "prd_curve", split = split_asked(s), sizes = fsz,
                 closed = settings$closed, angles = settings$angles,
                 details = c(list(cross_fit = cross),
                             if (cross) list(folds = K), extra))
    }
    add <- function(env, meth, kk, info) {
      pieces[[length(pieces) + 1L]] <<- new_prd_curve(
        settings$lambda, env$precision, env$recall, env$max_precision,
        env$max_recall, method = meth, model = m, k = kk, info = info)
    }
    for (meth in method) {
      if (meth %in% neighbour_methods()) {
        # kde with a given bandwidth reads no k: one curve, k NA
        kk <- if (fixed_kde && meth == "kde") NA_integer_ else k
        for (j in seq_along(kk)) {
          env <- nb_env(meth, j)()
          # (in the units of the data as given)
          bw <- if (meth == "kde") nb$bandwidth[[j]] / settings$scale else NULL
          det <- if (meth == "knn") list(hubness = hub[[j]]) else list()
          det$simple_auc <- simple
          if (fixed_kde && meth == "kde") {
            det$blind_balls <- kde_blind_balls(nb$counts$kde, ne, sizes,
                                               self = !split_has_eval(s))
          }
          add(env, meth, kk[j],
              curve_info(source = "prd_curve", split = split_asked(s),
                         sizes = sizes, closed = settings$closed,
                         bandwidth = bw, angles = settings$angles,
                         details = det))
        }
      } else if (meth %in% fitted_methods()) {
        add(fit_env(meth)(), meth, NA_integer_,
            fit_info(meth, fs$details[[meth]]))
      } else if (meth == "tightest") {
        ks <- if (length(setdiff(intersect(families, neighbour_methods()),
                                 if (fixed_kde) "kde"))) k else NA_integer_
        bounds <- category_bounds(real, gens[[m]], settings$categories)
        hg <- halves$gen[[as.character(sizes[["eval_generated"]])]]
        for (j in seq_along(ks)) {
          envs <- list()
          for (f in families) {
            envs[[f]] <- if (f %in% neighbour_methods()) nb_env(f, j) else
              fit_env(f)
          }
          env <- tightest_envelope(envs, halves$real, hg, settings$lambda)
          # (within what the categories one set lacks allow)
          env <- bound_curve(env, bounds, settings$lambda)
          extra <- list(families = families, chosen = env$chosen,
                        choice = env$choice, bands = env$bands,
                        half_gap = env$half_gap, family_auc = env$family_auc,
                        category_bounds = bounds,
                        clusters_gain = settings$clusters_gain)
          # (a given kde bandwidth whose balls see nothing: family-checks.R)
          if (fixed_kde && "kde" %in% families) {
            extra$blind_balls <- kde_blind_balls(nb$counts$kde, ne, sizes,
                                                 self = !split_has_eval(s))
          }
          add(env, meth, ks[j], fit_info(meth, extra))
        }
      }
    }
  })
  bind_curves(pieces)
}

#' lapply(xs, f), each element's random draws from the state the first
#' element's started from; R's stream is left where the first's left it,
#' as with that element alone
#' @noRd
lapply_same_draws <- function(xs, f) {
  start <- rng_state()
  after <- NULL
  out <- vector("list", length(xs))
  for (i in seq_along(xs)) {
    if (i > 1L) assign(".Random.seed", start, globalenv())
    out[[i]] <- f(xs[[i]])
    if (i == 1L) after <- rng_state()
  }
  if (length(xs) > 1L) assign(".Random.seed", after, globalenv())
  out
}

#' Share of each set's evaluation rows above which kde_blind_balls()
#' calls a given kde bandwidth blind. Every rule of the family puts the rows
#' of one pair of balls on one side, so with a split (one score) the curve
#' is then within 1% of that of Q = P, alpha = min(lambda, 1); without one
#' each row's ball holds the row alone. At the default bandwidths (each
#' set's mean k-th neighbour distance, split 0.5) at most 1% of a set's
#' rows had both balls empty (N(0, I) against N(0.2, I), d = 64, 1,000
#' points per set; against N(5, I), d = 5, 400; digits 0.25%, 40% with k =
#' 1), and none was full. At d = 64 the bandwidths that see the data span
#' 8 to 15 (the default 9.85): at 8 both balls were empty for 87% of the
#' rows, at 7 for all; at 15 both held every fit row for 91%, at 16 for
#' 99.8%.
#' @noRd
kde_blind_share <- 0.99

#' Do a given kde bandwidth's balls see the data? With counts a (real fit
#' rows within sigma_X) and b (generated, sigma_Y) of the evaluation rows
#' (real first, `ne` of them), each ball is empty or holds every fit row of
#' its set (`self`: without a split a row is its own fit row and is left out
#' of both). When more than kde_blind_share of the evaluation rows of each
#' set have one such pair (both empty, both full, or one of each), their
#' scores are one number and the curve reads the bandwidth, not the data.
#' @return NULL, or list(balls = c(real = , generated = ) "empty" or
#'   "full", rows = rows with that pair, of `total` evaluation rows).
#' @noRd
kde_blind_balls <- function(counts, ne, sizes, self = FALSE) {
  a <- counts$a[, 1]
  b <- counts$b[, 1]
  n <- length(a)
  is_real <- seq_len(n) <= ne
  # (without a split a row's own ball holds the row itself)
  a <- a - (self & is_real)
  b <- b - (self & !is_real)
  state <- function(count, full) {
    ifelse(count == 0, "empty", ifelse(count == full, "full", "other"))
  }
  sa <- state(a, sizes[["fit_real"]] - (self & is_real))
  sb <- state(b, sizes[["fit_generated"]] - (self & !is_real))
  pair <- paste(sa, sb)
  for (p in unique(pair[sa != "other" & sb != "other"])) {
    hit <- pair == p
    if (mean(hit[is_real]) > kde_blind_share &&
        mean(hit[!is_real]) > kde_blind_share) {
      return(list(balls = c(real = sa[hit][1], generated = sb[hit][1]),
                  rows = sum(hit), total = n))
    }
  }
  NULL
}

#' Evidences a, b of every evaluation point, for each method, one column
#' per k (real evaluation rows first); kde bandwidths per k.
#' @noRd
curve_evidence <- function(real, generated, s, k, method, bandwidth, closed,
                           shared = NULL) {
  counts <- list()
  # one sweep for every method and k (k is sorted and unique: check_k());
  # kde with the bandwidths of every k (or the fixed ones) in that sweep;
  # knn also counts the k-occurrences of the fit rows (hubness diagnostic)
  est <- vapply(method, function(f) family_entry(f)$estimator, "")
  kde <- "kde" %in% est
  nb <- engine_neighbours(real, generated, s, k,
                          c(est, if ("knn" %in% est) "hub"),
                          closed = closed, bandwidth = if (kde) bandwidth,
                          bandwidth_k = if (kde) k, shared = shared)
  for (m in method) {
    e <- est[[m]]
    counts[[m]] <- list(a = nb[[paste0(e, "_a")]], b = nb[[paste0(e, "_b")]])
  }
  bw <- list()
  if (kde) {
    bw <- matrix(nb$kde_radius, nrow = 2L)
    bw <- lapply(seq_along(k), function(j) {
      c(real = bw[1, min(j, ncol(bw))], generated = bw[2, min(j, ncol(bw))])
    })
  }
  list(counts = counts, bandwidth = bw, hub = nb$hub)
}

#' The lambda grid of Sajjadi et al. (2018): tan of equally spaced angles
#' in [eps, pi/2 - eps], eps = 1e-10.
#' @noRd
lambda_grid <- function(angles) {
  eps <- 1e-10
  tan(seq(eps, pi / 2 - eps, length.out = angles))
}

#' Score s = (b / n_yf) / (a / n_xf), computed as (b n_xf) / (a n_yf), with
#' b / 0 = Inf (b > 0) and 0 / 0 = 1 (SPEC.md section 2). The integer
#' products are exact, so equal ratios give equal scores.
#' @noRd
evidence_score <- function(a, b, n_xf = 1, n_yf = 1) {
  s <- (b * n_xf) / (a * n_yf)
  s[a == 0 & b == 0] <- 1
  s
}

#' Lower envelope from the evidences of the evaluation points: threshold
#' rules on the score plus the extremes 1[a >= 1] and 1[b = 0].
#' @noRd
curve_from_evidence <- function(a_real, b_real, a_gen, b_gen, lambda,
                                n_xf = 1, n_yf = 1) {
  extremes <- rbind(
    c(mean(a_real == 0), mean(a_gen >= 1)),  # 1[a >= 1]
    c(mean(b_real > 0), mean(b_gen == 0))    # 1[b = 0]
  )
  curve_from_scores(evidence_score(a_real, b_real, n_xf, n_yf),
                    evidence_score(a_gen, b_gen, n_xf, n_yf), lambda,
                    extra = extremes)
}

#' The envelope of scores (low = "real") through the shared C code:
#' precision and recall on the grid and the two extremes.
#' @noRd
curve_from_scores <- function(s_real, s_gen, lambda,
                              extra = matrix(numeric(), ncol = 2)) {
  env <- engine_envelope(s_real, s_gen, extra, lambda)
  alpha <- pmin(env$alpha, 1)
  list(precision = alpha, recall = pmin(alpha / lambda, 1),
       max_precision = env$alpha_inf, max_recall = env$beta_0)
}
