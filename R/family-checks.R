# The checks of a curve's families after the fact: two families that
# disagree, a neighbour family alone against simple classifiers, and the
# knn family's hubness figure; each a classed warning that names the
# tighter curve and why the looser one is loose. And a given kde bandwidth
# whose balls see nothing of the data, warned of on its own.

#' Warn (class prdcurve_warning_family_disagreement) when two families'
#' curves of one model disagree: the AUCs differ by more than `margin` and
#' the lower is less than half the higher, and, with replicates, their
#' intervals do not overlap; only with at least `min_rows` evaluation rows
#' per set. Every family estimates an upper bound of the
#' true curve, so the lower one is the tighter.
#' @noRd
check_family_agreement <- function(x, d, margin = 0.2, min_rows = 50L) {
  if (length(unique(x$method)) < 2L) return(invisible(FALSE))
  info <- prd_curve_info(x)
  if (min(info$n_eval_real, info$n_eval_generated, na.rm = TRUE) < min_rows) {
    return(invisible(FALSE)) # small sets: the families' noise is large
  }
  warned <- FALSE
  # the intervals when there are replicates, else the areas alone
  has_reps <- any(!vapply(info$replicates, is.null, logical(1)))
  s <- if (has_reps) summary(x) else curve_areas(x)
  has_ci <- "auc_lower" %in% names(s)
  # (a kde curve blind by its given bandwidth is warned of on its own)
  s <- s[!curve_blind(info, s), , drop = FALSE]
  for (m in unique(s$model)) {
    sm <- s[s$model == m, , drop = FALSE]
    hi <- which.max(sm$auc)
    lo <- which.min(sm$auc)
    gap <- sm$auc[hi] - sm$auc[lo]
    disjoint <- !has_ci || !is.finite(sm$auc_lower[hi]) ||
      !is.finite(sm$auc_upper[lo]) || sm$auc_lower[hi] > sm$auc_upper[lo]
    apart <- gap > margin && sm$auc[lo] < sm$auc[hi] / 2 && disjoint
    if (!isTRUE(apart)) next
    lab <- function(i) {
      if (is.na(sm$k[i])) sm$method[i] else paste0(sm$method[i], ", k = ", sm$k[i])
    }
    high <- lab(hi)
    low <- lab(lo)
    auc_hi <- format(round(sm$auc[hi], 3), nsmall = 3)
    auc_lo <- format(round(sm$auc[lo], 3), nsmall = 3)
    reason <- family_reason(sm$method[hi], d,
                            curve_hubness(info, m, sm$method[hi], sm$k[hi]),
                            fixed = is.na(sm$k[hi]))
    if (curve_atoms(info, m, sm$method[lo]) > 0L) {
      reason <- "Columns lie on a grid (whole numbers) in one set only, and the {.val {low}} family gives such values bins of their own: the supports differ there, which no other family sees on a fine grid."
    }
    prd_warn(c(
      "For model {.val {m}}, the {.val {high}} curve (AUC {auc_hi}) lies far above the {.val {low}} curve (AUC {auc_lo}).",
      "i" = "Every family's curve estimates an upper bound of the true curve, so {.val {low}} is the tighter one. It may still lie above the true curve: no family follows every log-likelihood ratio (on 16 overlapping classes that all widen by 15%, the default read 0.11 to 0.29 above the truth at 5,000 points per set and d = 256 to 2,048, where a fit of their true form with the class labels reads 0.09 to 0.24 above; {.code vignette(\"validity\")}).",
      "i" = reason,
      "i" = "Read the lower curve, or use {.code method = \"tightest\"}."
    ), "family_disagreement")
    warned <- TRUE
  }
  invisible(warned)
}

#' Warn (class prdcurve_warning_bandwidth) when a given kde bandwidth left
#' the balls of almost every evaluation row empty, or holding every fit row
#' (details$blind_balls of the kde curves and of "tightest" with the kde
#' family, kde_blind_balls()): the kde scores then read the bandwidth, not
#' the data. One warning per state of the balls, naming the models; the
#' family checks below leave such kde curves out. `bandwidth`: the given
#' one, in the data's units.
#' @noRd
check_kde_bandwidth <- function(x, bandwidth) {
  info <- prd_curve_info(x)
  blind <- lapply(info$details, function(d) d$blind_balls)
  hit <- which(!vapply(blind, is.null, logical(1)))
  if (!length(hit)) return(invisible(FALSE))
  s <- curve_areas(x)
  auc <- vapply(hit, function(i) {
    if (info$method[i] == "kde") {
      s$auc[s$model == info$model[i] & s$method == "kde"][1]
    } else {
      info$details[[i]]$family_auc[["kde"]]
    }
  }, numeric(1))
  state <- vapply(blind[hit], function(b) paste(b$balls, collapse = "/"), "")
  several <- length(unique(info$model)) > 1L
  for (st in unique(state)) {
    i <- hit[state == st]
    b <- blind[[i[1]]]
    balls <- b$balls
    bw <- rep_len(bandwidth, 2L)
    bw_text <- if (bw[1] == bw[2]) format_number(bw[1], digits = 3) else
      paste0(format_number(bw[1], digits = 3), " (real) and ",
             format_number(bw[2], digits = 3), " (generated)")
    rows <- format_number(b$rows)
    total <- format_number(b$total)
    pct <- paste0(format(floor(1000 * b$rows / b$total) / 10, nsmall = 1), "%")
    models <- unique(info$model[i])
    where <- if (several) {
      cli::format_inline(" for model{?s} {.val {models}}")
    } else ""
    a <- auc[state == st]
    auc_text <- paste(unique(format(round(range(a), 3), nsmall = 3)),
                      collapse = " to ")
    what <- if (all(balls == "empty")) {
      "leaves every ball empty: {rows} of the {total} evaluation rows ({pct}) have no fit row of either set within it{where}"
    } else if (all(balls == "full")) {
      "puts every fit row in every ball: {rows} of the {total} evaluation rows ({pct}) have every fit row of both sets within it{where}"
    } else {
      empty <- names(balls)[balls == "empty"]
      full <- names(balls)[balls == "full"]
      "leaves the {empty} balls empty and puts every {full} fit row in the {full} balls on {rows} of the {total} evaluation rows ({pct}){where}"
    }
    fix <- if (all(balls == "empty")) {
      "a larger {.arg bandwidth} (about the distance from a row to its nearest neighbours)"
    } else if (all(balls == "full")) {
      "a smaller {.arg bandwidth} (about the distance from a row to its nearest neighbours)"
    } else if (balls[["real"]] == "empty") {
      "a larger real and a smaller generated bandwidth, {.code bandwidth = c(real, generated)}"
    } else {
      "a smaller real and a larger generated bandwidth, {.code bandwidth = c(real, generated)}"
    }
    prd_warn(c(
      paste0("The {.val kde} {.arg bandwidth} {bw_text} ", what, "."),
      "x" = "Their scores are set by the bandwidth, not by the data: the {.val kde} curve (AUC {auc_text}) says nothing of the sets.",
      "i" = paste0("Give ", fix, ", or {.code bandwidth = NULL} for the default rule (each set's mean distance to its k-th neighbour).")
    ), "bandwidth", models = models, balls = balls)
  }
  invisible(TRUE)
}

#' The rows of `s` (curve_areas(): model, method, k) whose kde curve a
#' given bandwidth left blind (check_kde_bandwidth())
#' @noRd
curve_blind <- function(info, s) {
  vapply(seq_len(nrow(s)), function(j) {
    i <- which(info$model == s$model[j] & info$method == s$method[j] &
                 info$k %in% s$k[j])
    length(i) > 0L && s$method[j] == "kde" &&
      !is.null(info$details[[i[1]]]$blind_balls)
  }, logical(1))
}

#' Each curve's key (model, method, k) and area: summary()'s `auc`, without
#' its other statistics and intervals.
#' @noRd
curve_areas <- function(x) {
  # the curves' rows by key, as split_curves() groups them, without its
  # data frame per curve
  key_cols <- setdiff(names(x), c("lambda", "precision", "recall"))
  keys <- tibble::new_tibble(unclass(x)[key_cols], nrow = nrow(x))
  id <- if (length(key_cols)) vctrs::vec_group_id(keys) else
    structure(rep(1L, nrow(x)), n = 1L)
  rows <- split(seq_len(nrow(x)), factor(id, levels = seq_len(attr(id, "n"))))
  out <- vctrs::vec_slice(keys, vapply(rows, `[`, 1L, 1L))
  out$auc <- vapply(rows, function(r) {
    curve_auc(x$lambda[r], x$precision[r], x$recall[r])
  }, numeric(1), USE.NAMES = FALSE)
  out
}

#' The hubness figure of one curve (model, method, k) of a prd_curve_info()
#' table: a number for knn curves, else NA.
#' @noRd
curve_hubness <- function(info, model, method, k) {
  i <- which(info$model == model & info$method == method &
               (is.na(k) | info$k %in% k))
  h <- if (length(i)) info$details[[i[1]]]$hubness
  if (is.numeric(h) && length(h) == 1L) h else NA_real_
}

#' How many columns the curve of a marginal family `method`
#' (marginal_families) of `model` gave atom bins (marginal_atoms()) in a
#' prd_curve_info() table; 0 without such a curve.
#' @noRd
curve_atoms <- function(info, model, method) {
  i <- which(info$model == model & info$method == method &
               method %in% marginal_families)
  a <- if (length(i)) info$details[[i[1]]]$atom_columns
  if (is.numeric(a) && length(a) == 1L) a else 0L
}

#' Hubness of the knn family: skewness of the k-occurrence counts N_k(x) of
#' the fit points, N_k(x) = the number of evaluation points z with x among
#' their k nearest fit points, ||x - z|| <= r_k(z; X_f u Y_f) (Radovanovic,
#' Nanopoulos and Ivanovic 2010), counted by the engine in the knn family's
#' own sweep (estimator "hub"; without a split a point is not its own
#' neighbour).
#' @param counts the engine's k-occurrences, a row per fit row, a column
#'   per k.
#' @return the (population) skewness per k; 0 when every count is equal.
#' @noRd
hub_skewness <- function(counts) {
  apply(counts, 2L, function(v) {
    v <- as.double(v)
    sdv <- sqrt(mean((v - mean(v))^2))
    if (sdv == 0) 0 else mean((v - mean(v))^3) / sdv^3
  })
}

#' A neighbour family alone (no fitted family in the call) is checked
#' against two O(n d) classifiers fitted on the fit rows: the squared
#' distance to the real fit mean (both orientations: a noisy or a sharp
#' model) and the projection on the difference of the fit means (a shift).
#' Each is a classifier, so its AUC is also an upper bound of the true
#' AUC; when it is far below the family's, the family's curve is loose and
#' the same classed warning as for two disagreeing families says so.
#' Without a split the means come from the other half of each set
#' (cross-fitting), so no row is scored by a mean it entered. Their AUCs
#' come from the curve's details (`simple_auc`: simple_aucs() on each
#' split, averaged over the splits as the curve is); `d` the columns.
#' @noRd
check_neighbour_family <- function(x, d, margin = 0.2, min_rows = 50L) {
  if (!all(unique(x$method) %in% neighbour_methods())) return(invisible(NULL))
  info <- prd_curve_info(x)
  if (min(info$n_eval_real, info$n_eval_generated, na.rm = TRUE) < min_rows) {
    return(invisible(NULL))
  }
  s <- curve_areas(x)
  s <- s[!curve_blind(info, s), , drop = FALSE]
  for (m in unique(s$model)) {
    sm <- s[s$model == m, , drop = FALSE]
    hi <- which.max(sm$auc)
    if (sm$auc[hi] <= 0.5) next
    # the simple classifiers' AUCs of the model's splits (their mean over
    # the splits averaged, as the curve is; simple_aucs())
    i <- which(info$model == m)
    aucs <- if (length(i)) info$details[[i[1]]]$simple_auc
    if (!is.numeric(aucs) || length(aucs) != 3L) next
    low <- min(aucs)
    if (!(sm$auc[hi] - low > margin && low < sm$auc[hi] / 2)) next
    high <- if (is.na(sm$k[hi])) sm$method[hi] else
      paste0(sm$method[hi], ", k = ", sm$k[hi])
    auc_hi <- format(round(sm$auc[hi], 3), nsmall = 3)
    auc_lo <- format(round(low, 3), nsmall = 3)
    what <- c(mean = "the projection on the difference of the means",
              far = "the distance to the real mean (a more dispersed model)",
              near = "the distance to the real mean (a less dispersed model)")
    prd_warn(c(
      "For model {.val {m}}, the {.val {high}} curve (AUC {auc_hi}) lies far above the curve of a simple classifier, {what[[names(which.min(aucs))]]} (AUC {auc_lo}).",
      "i" = "Every classifier's curve estimates an upper bound of the true curve, so the true curve is at most near the lower one.",
      "i" = family_reason(sm$method[hi], d,
                          curve_hubness(info, m, sm$method[hi], sm$k[hi]),
                          fixed = is.na(sm$k[hi])),
      "i" = "Use {.code method = \"tightest\"}, or add {.val quadratic} to {.arg method}."
    ), "family_disagreement")
  }
  invisible(NULL)
}

#' The AUCs (named mean, far, near) of the three simple classifiers of
#' check_neighbour_family() on one split `s` of `real` and `generated`
#' (simple_scores()), read on `lambda`: curve_estimates() keeps them in
#' the details of a neighbour family's curves when no other family is in
#' the call, so that curves averaged over splits carry their mean.
#' @noRd
simple_aucs <- function(real, generated, s, lambda = lambda_grid(201)) {
  vapply(simple_scores(real, generated, s), function(sc) {
    envelope_auc(lambda, curve_from_scores(sc$real, sc$gen, lambda))
  }, numeric(1))
}

#' Scores (low = "real") of the evaluation rows under the three simple
#' classifiers of check_neighbour_family(), means from the fit rows (or,
#' without a split, from the other fold).
#' @noRd
simple_scores <- function(real, generated, s) {
  # means and scores without copies of the rows (one pass each, in C)
  sub_mean <- function(x, rows) .Call(ffi_col_means, x, as.integer(rows))
  one <- function(fx, fy, ex, ey) {
    mx <- sub_mean(real, fx)
    w <- sub_mean(generated, fy) - mx
    sc <- function(z, rows) {
      r <- .Call(ffi_row_scores, z, as.integer(rows), mx, w)
      list(mean = r$proj, dist = r$dist)
    }
    list(real = sc(real, ex), gen = sc(generated, ey))
  }
  if (split_has_eval(s)) {
    r <- one(split_fit(s, 1), split_fit(s, 2), split_eval(s, 1),
             split_eval(s, 2))
  } else {
    # odd and even rows: the user's random stream is left untouched
    halves <- function(n) list(seq.int(1L, n, by = 2L), seq.int(2L, n, by = 2L))
    fr <- halves(nrow(real))
    fg <- halves(nrow(generated))
    a <- one(fr[[2]], fg[[2]], fr[[1]], fg[[1]])
    b <- one(fr[[1]], fg[[1]], fr[[2]], fg[[2]])
    r <- list(real = Map(c, a$real, b$real), gen = Map(c, a$gen, b$gen))
  }
  list(mean = list(real = r$real$mean, gen = r$gen$mean),
       far = list(real = r$real$dist, gen = r$gen$dist),
       near = list(real = -r$real$dist, gen = -r$gen$dist))
}

#' The warning of a clustered real set too wide for the mixture family in
#' the default (tightest_families()): the default's other families read
#' high on clustered data; the fix, what it gains by d, and its cost. On
#' the validity suite's 16 widened classes at 5,000 points per set
#' (bench/results.md): 0.22 above the true AUC at d = 256 (0.07 with the
#' mixture), 0.28 at d = 1,024 (0.23) and 0.29 at d = 2,048 (0.28, where
#' the labelled fit of the true form reads 0.23 above: little is left to
#' gain). Student t coordinates and curved manifolds read as clustered too,
#' and there the default was within 0.01 of the truth at d = 2,048.
#' @noRd
clustered_warning <- function(real) {
  n <- nrow(real)
  d <- ncol(real)
  prd_warn(c(
    "The real rows are clustered: a mixture of Gaussians fits held-out rows better than one Gaussian.",
    "!" = "On clustered data the default families of {.val tightest} can read high: on the validity suite's widened classes 0.22 above the true AUC at d = 256 (0.07 with {.val mixture}) and 0.29 at d = 2,048 (0.28: it gains little there).",
    "i" = "{.val mixture} joins the default only up to 1,024 columns, here {format_number(n)} x {format_number(d)}: add it to {.arg families} (alone it took 47 s at 10,000 x 2,048, knn 3.1 s), or give {.arg families} to silence this."
  ), "clustered")
}
