# Half-sample replicates and the intervals built from them: complementary
# half-samples, the random-groups variance estimator with two groups
# (Wolter 2007, chapter 2). A pair splits every set into a random half H
# and its complement H^c (the real split shared by every model of the call,
# so model comparisons are paired; one permutation per distinct generated
# size, so identical generated sets get identical halves), and the estimate
# is recomputed on both. The halves share no row, so for a statistic whose
# variance scales as 1/n the pair difference D = theta(H) - theta(H^c) has
# E D^2 = Var(theta(H)) + Var(theta(H^c)) = c Var(theta_n), c = 1/f1 + 1/f2
# with f1, f2 the halves' fractions (c = 4 for even sizes). Over P pairs,
# v = mean(D^2) / c, and the interval is estimate +- t_{P, (1+level)/2} sqrt(v)
# (P degrees of freedom: under normality, v is a chi-square with P df).

#' Run `fun(real_sub, gens_sub)` on ceiling(R / 2) pairs of complementary
#' half-samples (R's RNG, so set.seed() reproduces them; a cli progress bar
#' in interactive sessions). Replicates 2j - 1 and 2j are the two halves of
#' pair j. The halves are drawn over each set's rows in canonical order
#' (canonical_order(): the identity for prd_curve()'s sets, already in that
#' order), so the same seed draws the same values whatever order the rows
#' came in, and the real set's fingerprints do not depend on it either.
#' @return list(results = list of 2P results, divisor = c, real_set and
#'   real_draws: fingerprints of the real set and of the real rows drawn)
#' @noRd
run_replicates <- function(real, gens, R, fun) {
  local_memory_hold()
  P <- ceiling(R / 2)
  sizes <- c(nrow(real), vapply(gens, nrow, integer(1)))
  divisor <- 1 / mean(floor(sizes / 2) / sizes) +
    1 / mean(ceiling(sizes / 2) / sizes)
  bar <- if (show_progress()) {
    cli::cli_progress_bar("Half-sample replicates", total = 2 * P,
                          .envir = environment())
  }
  # (the calls inside show no step messages of their own); the real rows
  # of every half and of its split, for prd_compare()'s pairing check
  drawn <- new.env(parent = emptyenv())
  drawn$draws <- list()
  local_run_state(in_replicates = TRUE, real_draws = drawn)
  # each half remembers its rows in the full set (a split given as rows
  # keeps the evaluation rows that fall in the half: split_rows_in_half())
  take <- function(x, rows) {
    y <- x[rows, , drop = FALSE]
    attr(y, "prdcurve_rows") <- rows
    y
  }
  results <- vector("list", 2 * P)
  gen_sizes <- vapply(gens, nrow, integer(1))
  ord_real <- canonical_order(real)
  ord_gens <- lapply(gens, canonical_order)
  for (j in seq_len(P)) {
    # one permutation of the real rows, then one per distinct generated size
    px <- sample.int(nrow(real))
    pg <- lapply(unique(gen_sizes), sample.int)
    names(pg) <- unique(gen_sizes)
    for (side in 1:2) {
      # positions in the canonical order
      half <- function(p) {
        h <- floor(length(p) / 2)
        sort(if (side == 1L) p[seq_len(h)] else p[-seq_len(h)])
      }
      sub_gens <- lapply(seq_along(gens), function(i) {
        take(gens[[i]], sort(ord_gens[[i]][half(pg[[as.character(gen_sizes[[i]])]])]))
      })
      names(sub_gens) <- names(gens)
      record_real_draw(half(px))
      results[[2 * j - 2 + side]] <- fun(take(real, sort(ord_real[half(px)])),
                                         sub_gens)
      if (!is.null(bar)) cli::cli_progress_update(id = bar)
    }
  }
  if (!is.null(bar)) cli::cli_progress_done(id = bar)
  list(results = results, divisor = divisor,
       real_set = real_set_fingerprint(real, order = ord_real),
       real_draws = rlang::hash(drawn$draws))
}

#' Variance of an estimate from its complementary half-sample replicates:
#' v = mean over complete pairs of (theta(H) - theta(H^c))^2 / divisor, its
#' square root `se` (formed from the differences divided by the largest of
#' them, so that it is finite whenever they are: a KID of 1e180 has
#' squared differences past the double range) and its degrees of freedom
#' (the number of pairs with both values finite). `values` is indexed by
#' `replicate` (pair j = replicates 2j - 1 and 2j); `values` may be a
#' matrix with one column per replicate (a variance per row).
#' @noRd
pair_variance <- function(values, replicate, divisor) {
  if (!is.matrix(values)) values <- matrix(values, 1L)
  full <- matrix(NA_real_, nrow(values), 2L * ceiling(max(replicate) / 2))
  full[, replicate] <- values
  D <- full[, c(TRUE, FALSE), drop = FALSE] - full[, c(FALSE, TRUE), drop = FALSE]
  ok <- colSums(!is.finite(D)) == 0L
  D <- D[, ok, drop = FALSE]
  big <- if (ncol(D)) apply(abs(D), 1L, max) else rep(0, nrow(D))
  big[!(big > 0)] <- 1
  r <- rowMeans((D / big)^2) / divisor
  list(v = big^2 * r, se = big * sqrt(r), df = ncol(D))
}

#' Interval est +- t_{df} sqrt(v) from complementary half-sample
#' replicates (see pair_variance()), clamped to [lower_bound, upper_bound]
#' but always holding the estimate; NA without a complete pair.
#' @noRd
replicate_interval <- function(estimate, values, replicate, divisor,
                               conf_level, lower_bound = -Inf,
                               upper_bound = Inf) {
  pv <- pair_variance(values, replicate, divisor)
  if (pv$df < 1L || !is.finite(estimate)) {
    return(c(lower = NA_real_, upper = NA_real_))
  }
  half <- stats::qt((1 + conf_level) / 2, df = pv$df) * pv$se
  # clamped to the statistic's range, but never past the estimate itself
  c(lower = min(estimate, max(lower_bound, estimate - half)),
    upper = max(estimate, min(upper_bound, estimate + half)))
}

#' Store the replicate curves in the settings table of each curve
#' @noRd
attach_curve_replicates <- function(out, reps) {
  info <- attr(out, "curves")
  long <- vctrs::vec_rbind(!!!lapply(seq_along(reps$results), function(r) {
    cv <- reps$results[[r]]
    tibble::tibble(replicate = r, model = cv$model, method = cv$method,
                   k = cv$k, lambda = cv$lambda, precision = cv$precision,
                   recall = cv$recall)
  }))
  for (i in seq_len(nrow(info))) {
    hit <- long$model == info$model[i] & long$method == info$method[i] &
      vctrs::vec_equal(long$k, info$k[i], na_equal = TRUE)
    info$replicates[[i]] <- long[hit, c("replicate", "lambda", "precision",
                                        "recall")]
    info$divisor[i] <- reps$divisor
  }
  attr(out, "curves") <- info
  out
}

#' Paired differences between models, with intervals
#'
#' Compares every model of a multi-model result with a baseline model,
#' statistic by statistic: the difference of the two estimates and its
#' interval from the complementary half-sample replicates of both
#' (paired: each half uses the same rows of the real set for every model,
#' so the real set's sampling noise, shared by both estimates, cancels in
#' the difference). With \eqn{D_j} the difference between the two halves
#' of pair j of the model-minus-baseline difference, the interval is
#' \eqn{\hat\Delta \pm t_{P,(1+c)/2} \sqrt{\hat v}}, \eqn{\hat v =
#' \frac{1}{4P}\sum_j D_j^2} over the P pairs (random groups, Wolter 2007,
#' chapter 2; see the section Intervals of [prd_curve()]). Two identical
#' generated sets get the same halves, so their difference is exactly 0
#' with interval \[0, 0\] (except in a metrics table whose statistics all
#' sit at their bounds: see Shares at their bound). An interval that excludes 0 says the
#' two models differ at level `conf_level` in that statistic, for this real
#' set; measured calibration is in the "Comparing models" vignette.
#'
#' @section Pairing: A model's curve is paired with the baseline's of the
#'   same method and `k`, half-sample by half-sample. The models of one
#'   [prd_curve()] call pair: they share the real set's split and
#'   half-samples. Curves of separate calls bound with [prd_bind()] pair
#'   only where they read the same real set (the same values, whatever
#'   the order of the rows) and drew the same real rows for their split
#'   and every half-sample, as calls under the same seed can (with the
#'   same replicates and the same random numbers used before each draw:
#'   `method = "knn"` on generated sets of one size, say). Each curve
#'   keeps fingerprints of both (`real_set` and `real_draws` of
#'   [prd_curve_info()]), and `prd_compare()` stops where they differ
#'   rather than give unpaired intervals as paired ones. Metrics tables
#'   of separate calls bound with [prd_bind()] pair on the same terms
#'   (their attributes `real_set` and `real_draws`, per model). Curves without a
#'   counterpart of the same method and `k` in the other model, and
#'   curves without a model (a truth or plug-in curve bound in), are left
#'   out with a warning.
#'
#' @section Shares at their bound: A share of [manifold_metrics()]
#'   (`precision`, `recall`, `coverage`, `c_precision`, `sym_precision`,
#'   `sym_recall`, `prc_precision`, `prc_recall`, `p_precision`,
#'   `p_recall`) at 0 or 1 has halves cut off at the bound, whose spread
#'   understates the difference's: two different models with a recall of 1
#'   in every half have every half-sample difference 0, and the
#'   half-sample interval is \[0, 0\]. When the share of either model sits
#'   at 0 or 1 (to within half an evaluation row) in its estimate or in
#'   some half, the interval is therefore the hull of the half-sample
#'   interval and Newcombe's hybrid score interval of a difference of two
#'   proportions (Newcombe 1998, method 10, built from the Wilson
#'   intervals of the two shares over their evaluation rows), as the
#'   single-model intervals of [manifold_metrics()] hold the Wilson
#'   interval. Newcombe's interval takes the two shares as independent; for
#'   shares of the same real rows (`recall`, `coverage`), which are
#'   positively correlated, it is conservative. Away from the bound the
#'   half-sample interval is kept as it is: the hull there would widen
#'   calibrated paired intervals by 3% to 6% (d = 16, 1,000 rows per set,
#'   `bench/results.md`). At the bound (d = 64, 500 rows per set, 40
#'   draws), for two models with a recall of 1 in every draw, the 90%
#'   half-sample interval of the difference alone covered the mean
#'   difference in 35% of the draws (mean width 0.0014), with Newcombe's
#'   part in 100% (width 0.011); for a model at 0.994 against one at 1,
#'   90% alone and 97.5% with it.
#'
#'   A model is taken for a copy of the baseline, and keeps exactly 0 with
#'   interval \[0, 0\], when every statistic of the table has the same
#'   estimate and the same half-sample values for both and one of these
#'   values is off its statistic's bounds (a share not at 0 or 1, a
#'   `density` above 0; two different models differ in `density`, say). A
#'   table whose statistics all sit at their bounds cannot tell a copy from
#'   a different model there; both get Newcombe's interval, the
#'   conservative side. Of a curve's statistics, `max_precision` and
#'   `max_recall` are shares too (of the generated and of the real
#'   evaluation rows: see [summary.prd_curve()]) and follow the same rule;
#'   the other statistics of curves and the entropy metrics keep the
#'   half-sample interval.
#'
#' @param x A [prd_curve()], [manifold_metrics()], [entropy_metrics()] or
#'   [embedding_metrics()] result (or such tables bound with [prd_bind()])
#'   with at least two models and `replicates > 0`.
#' @param baseline The model to compare with (default: the first).
#' @param conf_level Confidence level of the intervals (default 0.9).
#' @param atoms For curves: `"exact"` (default) compares `x` as it is,
#'   with a warning (`prdcurve_warning_atoms_tie`) where its exact
#'   reading ties models at AUC 0 (columns whose values lie on a grid in
#'   one set only: the supports differ, every difference reads 0 and the
#'   exact comparison cannot rank the models); `"ignore"` compares the
#'   tied curves' reading with the atoms ignored, which [prd_curve()]
#'   computed for them (`atoms` of [prd_curve()]; the other curves as
#'   they are).
#' @param ... For curves, passed to [summary.prd_curve()] (`beta`,
#'   `epsilon`).
#' @return A tibble with one row per other model, method (curves only),
#'   `k` and statistic: `model`, `baseline`, `method`, `k`, `statistic`,
#'   `estimate` (the model's value minus the baseline's), `lower`, `upper`
#'   (within the range a difference can take: \[-1, 1\] for a statistic
#'   in \[0, 1\], as a single model's interval lies in its statistic's
#'   range), of class `prd_comparison` (a tibble; [autoplot()][autoplot.prd_comparison]
#'   draws it as a forest plot). For curves the statistics are the columns of [summary.prd_curve()];
#'   for metric tables, the metrics.
#' @section Errors: `prdcurve_error_replicates` when `x` has no
#'   replicates; `prdcurve_error_model` when it has one model or
#'   `baseline` is not one of them; `prdcurve_error_unmatched` when a
#'   model has no curve of the baseline's method and `k` (curves of
#'   separate calls with other methods or `k`, bound: the message lists
#'   each side's); `prdcurve_error_unpaired` when a model's curves do not
#'   pair with the baseline's (see Pairing): computed on another real
#'   set, with another number of replicates (or none), or with other real
#'   rows in the split or half-samples (the message names the model and
#'   which, and how to compute them in one call), or a metrics table
#'   without the replicates of one of its models (tables bound with
#'   `rbind()` keep the first one's, [prd_bind()] every table's) or whose
#'   models drew other real rows (as for curves); `prdcurve_error_input`
#'   for a bad `conf_level` or `atoms`, or for `atoms = "ignore"` on
#'   curves that read atoms exactly without a tie (and so without the
#'   reading with them ignored: compute them with `prd_curve(atoms =
#'   "ignore")`). Warnings: `prdcurve_warning_atoms_tie` (above),
#'   `prdcurve_warning_unmatched` for curves left out (see Pairing),
#'   `prdcurve_warning_unused_argument` for `atoms = "ignore"` on a
#'   metrics table.
#' @references Wolter, K. M. (2007). Introduction to Variance Estimation,
#'   2nd ed., chapter 2 (the method of random groups). Springer.
#'   \doi{10.1007/978-0-387-35099-8}.
#'
#'   Newcombe, R. G. (1998). Interval estimation for the difference between
#'   independent proportions: comparison of eleven methods. Statistics in
#'   Medicine 17(8), 873-890.
#'   \doi{10.1002/(SICI)1097-0258(19980430)17:8<873::AID-SIM779>3.0.CO;2-I}.
#' @examples
#' set.seed(1)
#' real <- matrix(rnorm(300 * 4), ncol = 4)
#' models <- list(same = matrix(rnorm(300 * 4), ncol = 4),
#'                shifted = matrix(rnorm(300 * 4, mean = 0.5), ncol = 4))
#' cv <- prd_curve(real, models, method = "knn", replicates = 20)
#' cmp <- prd_compare(cv, baseline = "same")
#' cmp[cmp$statistic %in% c("auc", "max_precision", "max_recall"), ]
#' @export
prd_compare <- function(x, baseline = NULL, conf_level = 0.9,
                        atoms = c("exact", "ignore"), ...) {
  conf_level <- check_level(conf_level)
  atoms <- check_choice(atoms, c("exact", "ignore"))
  # the exact reading, or the tied curves' reading with atoms ignored
  x <- compare_atoms(x, atoms)
  long <- replicate_statistics(x, ...)
  # (curves without a model, a truth or plug-in curve bound in, are left
  # out with a warning)
  est <- modelled_rows(long$estimates)
  reps <- long$replicates
  models <- unique(est$model)
  if (length(models) < 2L) {
    prd_abort("{.arg x} must hold at least two models to compare.", "model")
  }
  if (is.null(baseline)) baseline <- models[1]
  baseline <- check_string(baseline)
  if (!baseline %in% models) {
    prd_abort(c("{.arg baseline} must be one of the models of {.arg x}.",
                "x" = "Models: {.val {models}}."), "model")
  }
  # every model has curves (method, k) of the baseline's, and (curves)
  # pairs with it: the same real set, split and half-samples
  check_shared_curves(est, models, baseline)
  if (inherits(x, "prd_curve")) check_curve_pairing(x, models, baseline) else
    check_metrics_draws(x, models, baseline)
  warn_model_sizes(x, models)
  keys <- c("method", "k", "statistic")
  base_est <- est[est$model == baseline, , drop = FALSE]
  base_rep <- reps[reps$model == baseline, , drop = FALSE]
  rows <- list()
  same <- list()
  for (m in setdiff(models, baseline)) {
    e <- est[est$model == m, , drop = FALSE]
    for (i in seq_len(nrow(e))) {
      match_key <- function(tab) {
        tab$statistic == e$statistic[i] &
          vctrs::vec_equal(tab$method, e$method[i], na_equal = TRUE) &
          vctrs::vec_equal(tab$k, e$k[i], na_equal = TRUE)
      }
      b <- base_est[match_key(base_est), , drop = FALSE]
      if (!nrow(b)) next
      rm <- reps[reps$model == m, , drop = FALSE]
      rm <- rm[match_key(rm), , drop = FALSE]
      rb <- base_rep[match_key(base_rep), , drop = FALSE]
      rb <- rb[match(rm$replicate, rb$replicate), , drop = FALSE]
      diff <- e$estimate[i] - b$estimate[1]
      # a difference of two values in [lo, hi] lies in [lo - hi, hi - lo]
      rg <- statistic_range(x, e$statistic[i])
      ci <- replicate_interval(diff, rm$value - rb$value, rm$replicate,
                               long$divisor, conf_level,
                               lower_bound = rg[1] - rg[2],
                               upper_bound = rg[2] - rg[1])
      if (e$statistic[i] == "median_lambda" && !anyNA(ci) &&
          any(rm$value != rb$value &
                pmax(rm$value, rb$value) > median_lambda_undetermined,
              na.rm = TRUE)) {
        # a half whose curve has (nearly) no area: its median ray is
        # arbitrary (lambda up to 1.6e16), and so is the difference
        ci <- c(lower = -Inf, upper = Inf)
      }
      n1 <- share_rows(x, e$statistic[i], m, e$method[i], e$k[i])
      n2 <- share_rows(x, e$statistic[i], baseline, e$method[i], e$k[i])
      if (!anyNA(ci) && !is.na(n1) && !is.na(n2) &&
          (at_share_bound(c(e$estimate[i], rm$value), n1) ||
           at_share_bound(c(b$estimate[1], rb$value), n2))) {
        if (is.null(same[[m]])) {
          same[[m]] <- same_models(est, reps, m, baseline, x)
        }
        if (!same[[m]]) {
          nc <- newcombe_interval(e$estimate[i], n1, b$estimate[1], n2,
                                  conf_level)
          if (!anyNA(nc)) {
            ci <- c(lower = min(ci[["lower"]], nc[["lower"]]),
                    upper = max(ci[["upper"]], nc[["upper"]]))
          }
        }
      }
      rows[[length(rows) + 1L]] <- tibble::tibble(
        model = m, baseline = baseline, method = e$method[i], k = e$k[i],
        statistic = e$statistic[i], estimate = diff,
        lower = ci[["lower"]], upper = ci[["upper"]]
      )
    }
  }
  out <- vctrs::vec_rbind(!!!rows)
  out <- tibble::new_tibble(out, nrow = nrow(out), class = "prd_comparison")
  attr(out, "conf_level") <- conf_level
  out
}

#' A half-sample's median_lambda above this (its median ray within 1e-12
#' of the precision axis: a curve of (nearly) no area) makes a paired
#' difference of median_lambda undetermined (prd_compare()).
#' @noRd
median_lambda_undetermined <- 1e12

#' The range of a statistic of `x`: c(lower, upper). Curve statistics lie
#' in [0, 1] (median_lambda in [0, Inf)), a manifold metric in its
#' registry's bounds; others are unbounded.
#' @noRd
statistic_range <- function(x, statistic) {
  if (inherits(x, "prd_curve")) {
    return(if (statistic == "median_lambda") c(0, Inf) else c(0, 1))
  }
  b <- manifold_bounds(statistic)
  if (is.null(b)) c(-Inf, Inf) else b
}

#' The evaluation rows n behind a share statistic (precision, recall, ...:
#' the registry's `over`) of one model of a metrics table; NA for another
#' statistic, a curve, or a table without `eval_sizes`.
#' @noRd
share_rows <- function(x, statistic, model, method = NA, k = NA) {
  if (inherits(x, "prd_curve")) {
    over <- curve_share_over(statistic)
    inf <- if (!is.na(over)) info_of(x, model, method, k)
    if (is.null(inf)) return(NA_real_)
    return(as.numeric(inf[[paste0("n_eval_", over)]]))
  }
  sizes <- attr(x, "eval_sizes")
  if (!inherits(x, "prd_metrics") || is.null(sizes)) return(NA_real_)
  over <- manifold_over(statistic)
  if (is.na(over) || !model %in% rownames(sizes)) return(NA_real_)
  as.numeric(sizes[model, paste0("eval_", over)])
}

#' Whether a share of n rows sits at its bound in its estimate or in some
#' half-sample: within half an evaluation row of 0 or 1 (exactly there for
#' a count share; p_precision and p_recall, means of terms in [0, 1], can
#' miss 1 by rounding). There the halves are cut off at the bound, and
#' their spread says little about the estimate's.
#' @noRd
at_share_bound <- function(values, n) {
  v <- values[is.finite(values)]
  any(v < 0.5 / n | v > 1 - 0.5 / n)
}

#' Whether models m and b of a metrics table are the same generated set, as
#' far as the table can tell: every statistic has the same estimate and
#' the same replicate values for both (identical sets get identical
#' halves), and one of these values is off its statistic's bounds (a
#' share within half an evaluation row of 0 or 1, a density of 0: two
#' different sets can both have a recall of 1 in every half; with nothing
#' else to tell them apart, they count as different, the conservative
#' side).
#' @noRd
same_models <- function(est, reps, m, b, x) {
  pick <- function(tab, model, by) {
    tab <- tab[tab$model == model, , drop = FALSE]
    key <- do.call(paste, c(unname(as.list(tab[by])), sep = "\r"))
    o <- order(key)
    list(key = key[o], value = tab[[setdiff(names(tab), c("model", by))]][o],
         statistic = tab$statistic[o])
  }
  informative <- function(p) {
    for (st in unique(p$statistic)) {
      v <- p$value[p$statistic == st]
      v <- v[is.finite(v)]
      n <- share_rows(x, st, m)
      range <- if (!is.na(n)) {
        c(0.5 / n, 1 - 0.5 / n)
      } else if (inherits(x, "prd_curve")) {
        # a curve's statistics lie in [0, 1]; median_lambda (in [0, Inf))
        # is arbitrary for a curve of area 0 (the ray that halves nothing)
        if (st == "median_lambda") next
        c(0, 1)
      } else {
        manifold_bounds(st)
      }
      if (is.null(range)) range <- c(-Inf, Inf)
      if (any(v > range[1] & v < range[2])) return(TRUE)
    }
    FALSE
  }
  by_est <- c("method", "k", "statistic")
  by_rep <- c(by_est, "replicate")
  em <- pick(est, m, by_est)
  eb <- pick(est, b, by_est)
  rm <- pick(reps, m, by_rep)
  rb <- pick(reps, b, by_rep)
  identical(em$key, eb$key) && identical(em$value, eb$value) &&
    identical(rm$key, rb$key) && identical(rm$value, rb$value) &&
    (informative(em) || informative(rm))
}

#' The classed error of a curve or metrics table without replicates: how
#' to compute them (`how`, code); a `replicates` among the dots (given to
#' prd_compare(), which only reads them) is named.
#' @noRd
no_replicates <- function(how, ..., call, what = "the curves") {
  given <- "replicates" %in% names(list(...))
  prd_abort(c(
    "{.arg x} has no replicates.",
    "x" = if (given) "{.fn prd_compare} reads the replicates {.arg x} holds; its {.arg replicates} is not used.",
    "i" = "Compute {what} with {.code {how}} or more, then compare."
  ), "replicates", call = call)
}

#' Estimates and replicate values of every statistic, long:
#' list(estimates = (model, method, k, statistic, estimate),
#'      replicates = (model, method, k, statistic, replicate, value),
#'      divisor)
#' @noRd
replicate_statistics <- function(x, ..., call = rlang::caller_env()) {
  if (inherits(x, "prd_curve")) {
    check_curve(x, "x", call = call)
    s <- summary(x, ...)
    stats <- curve_statistic_names
    est <- long_stats(s, stats)
    info <- prd_curve_info(x)
    has <- !vapply(info$replicates, is.null, logical(1))
    if (!any(has)) no_replicates("prd_curve(real, generated, replicates = 50)",
                                 ..., call = call)
    reps <- list()
    for (i in which(has)) {
      rc <- info$replicates[[i]]
      for (r in unique(rc$replicate)) {
        cv <- rc[rc$replicate == r, , drop = FALSE]
        v <- curve_stats(cv$lambda, cv$precision, cv$recall, ...)
        reps[[length(reps) + 1L]] <- tibble::tibble(
          model = info$model[i], method = info$method[i], k = info$k[i],
          statistic = names(v), replicate = r, value = unname(v))
      }
    }
    return(list(estimates = est, replicates = vctrs::vec_rbind(!!!reps),
                divisor = info$divisor[which(has)[1]]))
  }
  if (inherits(x, "prd_metrics")) {
    reps <- attr(x, "replicates")
    if (is.null(reps)) {
      no_replicates("replicates = 50", ..., call = call, what = "the metrics")
    }
    check_metrics_pairing(x, reps, call = call)
    est <- tibble::tibble(model = x$model, method = NA_character_, k = x$k,
                          statistic = x$metric, estimate = x$value)
    rp <- tibble::tibble(model = reps$model, method = NA_character_,
                         k = reps$k, statistic = reps$metric,
                         replicate = reps$replicate, value = reps$value)
    return(list(estimates = est, replicates = rp,
                divisor = attr(x, "divisor")))
  }
  prd_abort("{.arg x} must be a {.cls prd_curve} or a metrics table of this package.",
            "input", call = call)
}

long_stats <- function(s, stats) {
  n <- nrow(s)
  col <- function(nm, na) if (nm %in% names(s)) s[[nm]] else rep(na, n)
  vctrs::vec_rbind(!!!lapply(stats, function(st) {
    tibble::tibble(model = as.character(col("model", NA_character_)),
                   method = as.character(col("method", NA_character_)),
                   k = as.integer(col("k", NA_integer_)),
                   statistic = st, estimate = s[[st]])
  }))
}
