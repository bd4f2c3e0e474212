# The combined curve "tightest" (SPEC.md section 7): a stable choice among
# the families' curves, made on one half of the evaluation rows and read
# on the other.

#' Contiguous bands of equal angle on which "tightest" chooses one family
#' each. Measured by choosing again from the same calls' envelopes
#' (`bench/tightest-families.R --all --bands 4,5,6,7,8 --noise
#' current,none`) with the five default families and the saturation
#' rule (tightest_saturation): on the digits class-subset experiment (5
#' seeds, q = 1, 3, 5, 7, 9) mean IoU with the true rectangle 0.930 /
#' 0.932 / 0.935 / 0.930 / 0.932 with 4 / 5 / 6 / 7 / 8 bands (knn
#' 0.935), and the spread of its AUC across seeds 0.022 / 0.014 / 0.016 /
#' 0.014 / 0.013 (knn 0.016); mean |AUC error| with 4 and 6 bands on
#' Gaussian scenarios (d = 16-256, 300-2,000 points per set) 0.027 and
#' 0.026, on mixed-type tables 0.029 and 0.029, at d = 1,024-2,048 0.044
#' and 0.046, on clusters, heavy tails, a manifold and truncation 0.072
#' and 0.071; Q = P (2,000 points per set) reads 0.993 and 0.994. Six
#' bands: four gave the digits' AUC a spread of 0.022 across seeds. Before
#' the saturation rule, narrower bands were not safe: with 7 or 8, the
#' Student t model at d = 2,048 (5,000 points per set, true AUC 0.060, the
#' validity suite's draws) read 0.15 and 0.20 in its worst draw (0.09
#' with 4-6): in the first band the saturated knn curve (AUC 1, no gap
#' between its halves) beat `stacked` once `stacked`'s gap was penalised,
#' and the PR majorant carried knn's alpha = lambda into the other bands.
#' With the rule it reads 0.080-0.090 with 4 to 8 bands.
#' @noRd
tightest_bands <- 6L

#' The weight of a family's noise in the area "tightest" chooses by: a
#' family's area in a band on the choosing half plus this multiple of its
#' noise there (tightest_envelope()). Measured with 4 bands and before the
#' saturation rule: digits mean IoU 0.892 / 0.916 / 0.927 / 0.932 / 0.929
#' with weights 0 / 1 / 2 / 4 / 6; Gaussian mean |AUC error| 0.017 /
#' 0.016 / 0.015 / 0.012 / 0.013. A family's registry entry may set its own
#' weight (`noise_weight`; the mixture's: mixture_noise_weight).
#' @noRd
tightest_penalty <- 4

#' The weight of each family's noise (the names `fam`) in the choice of
#' tightest_envelope(): its registry entry's `noise_weight`, else `penalty`
#' (also for names that are not registered families)
#' @noRd
tightest_noise_weights <- function(fam, penalty = tightest_penalty) {
  vapply(fam, function(f) {
    w <- family_env$entries[[f]]$noise_weight
    if (is.null(w)) penalty else w
  }, numeric(1))
}

#' A family is saturated in a band when its area there is at least this
#' fraction of the ceiling's, the curve alpha = min(1, lambda) of P = Q, on
#' both halves. Its curve is then pinned at the ceiling and its gap between
#' the halves is zero because it cannot move, not because it is accurate:
#' tightest_envelope() charges it the largest noise of the band's
#' unsaturated families (where every family is saturated, as at Q = P, the
#' noises stay). Measured as tightest_bands, with 6 bands, against the
#' same rule at 0.95 and 0.995 and against none: digits IoU 0.933 / 0.935
#' / 0.935 / 0.935 (0.95 / 0.98 / 0.995 / none), spread 0.015 / 0.016 /
#' 0.016 / 0.016; mean |AUC error| on mixed-type tables 0.029 / 0.029 /
#' 0.032 / 0.032, on clusters, heavy tails, a manifold and truncation
#' 0.070 / 0.071 / 0.075 / 0.075, Gaussian 0.027 / 0.026 / 0.026 / 0.026;
#' Q = P 0.992 / 0.994 / 0.993 / 0.993 at 2,000 points per set (in
#' `bench/tightest-choice.R`'s three draws at d = 64, 0.990 with the rule
#' and 0.992 without), and at 300-2,000 0.979 / 0.982 / 0.985 / 0.985: at
#' Q = P every family is near the ceiling and the rule lets one below it
#' by chance win, the cost of 0.98 against 0.995, whose gains on the
#' tables and the kinds are nil. Each of the three mends the Student t
#' case at 8 bands (worst draw 0.090; without the rule 0.197). The
#' largest noise of all the band's families read the same; a floor at the
#' band's median noise did not mend it (0.197 at 8 bands), nor did that
#' floor for every family (which also lowered the digits' IoU to
#' 0.920-0.924).
#' @noRd
tightest_saturation <- 0.98

#' The ceiling rule of "tightest": when no family tells the sets apart,
#' the curve is the ceiling alpha = min(1, lambda), the curve of Q = P.
#' A score that knows nothing of the data (independent of the sets'
#' labels, as every cross-fitted family's is at Q = P) still reads below
#' the ceiling on a finite sample, because the curve is a lower envelope
#' over thresholds: on nr real and ng generated evaluation rows its mean
#' AUC is 1 - log(h) / h (h = 2 / (1 / nr + 1 / ng), the harmonic mean;
#' measured from 400 draws at nr, ng = 25-6,400, equal and 4:1, 201 and
#' 1,001 angles: the mean shortfall over log(h) / h is 0.92-1.05) and its
#' 1% quantile is 1 - c log(h) / h with c = 2.3-3.4 (2.5-3.1 at h >= 400).
#' So where every family reads an AUC of at least 1 - min(margin,
#' tightest_null_width log(h) / h), no family shows a difference beyond
#' what a data-blind score shows (each passes with probability about 99%
#' at Q = P), and the curve is the ceiling. `margin` caps what the rule
#' can add to a reading: a model whose families all read within it of 1
#' is read as 1 (on few rows, where log(h) / h is large, a model 0.1 away
#' would otherwise pass; the margin binds up to h = 1,050). Measured: see
#' bench/results.md ("The default's choice and families").
#' @noRd
tightest_null_width <- 3

#' The largest shortfall of the ceiling rule (tightest_null_width): the
#' families must all read an AUC of at least 1 - tightest_ceiling_margin.
#' @noRd
tightest_ceiling_margin <- 0.02

#' The least AUC every family must read for the ceiling rule
#' (tightest_null_width) on nr real and ng generated evaluation rows.
#' @noRd
tightest_ceiling_auc <- function(nr, ng, margin = tightest_ceiling_margin,
                                 width = tightest_null_width) {
  h <- 2 / (1 / nr + 1 / ng)
  1 - min(margin, width * log(h) / h)
}

#' The "tightest" curve from several families' envelope functions
#' `env(ir, ig)` (envelope on the evaluation positions ir of real and ig of
#' generated; `env()` on every evaluation row). The evaluation rows are
#' halved at random (halves given). The angle grid is cut into `bands`
#' contiguous bands of equal angle (one band, mode "single", when a half
#' holds fewer than `min_rows` rows of a set). On each half h, each
#' family's penalised area in each band, A_h + w v (w `penalty`, or the
#' family's own weight: tightest_noise_weights(); A_h its polar
#' area there, 1/2 sum rho^2 dtheta, rho^2 = alpha^2 + beta^2; v its noise:
#' the gap g = A_1 - A_2 between the halves, in mode "bands" min(|g|, |g -
#' m|), m the median gap over the families, since rows that make every
#' family look tighter on one half are no family's noise; a family
#' saturated in the band, its area at least `saturation` of the ceiling
#' alpha = min(1, lambda)'s on both halves, takes the largest v of the
#' band's unsaturated families, if any; Inf: no family is saturated),
#' chooses the band's family F_h. When both halves choose the same
#' family, the band is that family's curve on every evaluation row; when
#' they differ, the mean of F_1 read on half 2 and F_2 read on half 1 (in
#' mode "single", F_1 read on half 2: one family). Each extreme comes from
#' one family, that of its end band (lambda = 0: max_recall, Inf:
#' max_precision): on every row when the halves agree, else F_1's reading
#' on half 2. The readings are then raised to the smallest PR curve above
#' them (pr_majorant()). Reading each family, too, at the threshold chosen
#' on the other half (no selection below the family's curve) was measured
#' at d = 64 (bench/tightest-choice.R's cases, 3 draws): Q = P 0.999
#' (0.989), but a mean shift of 1 (truth 0.679) +0.016 at 5,000 points per
#' set and +0.066 at 1,000 (-0.004, +0.016), a spread 1.2 +0.028 at 1,000
#' (-0.016): the families' own looseness then adds up; not adopted.
#' Before any choice, with two or more families: where every family's AUC
#' on every evaluation row is at least tightest_ceiling_auc() (`margin`;
#' 0: never), the curve is the ceiling alpha = min(1, lambda), choice
#' "ceiling", no family chosen (NA).
#' @return list(precision, recall, max_precision, max_recall, half_gap
#'   (each family's |AUC on half 1 - AUC on half 2|), family_auc (each
#'   family's AUC on every evaluation row), choice ("bands",
#'   "single" or "ceiling"), chosen: a tibble lambda, first, second (the
#'   family chosen on each half), bands: a tibble band, lambda_from,
#'   lambda_to, first, second, read ("all rows" where the halves agree,
#'   else "halves"; "ceiling")).
#' @noRd
tightest_envelope <- function(envs, halves_real, halves_gen, lambda,
                              bands = tightest_bands,
                              penalty = tightest_penalty,
                              min_rows = tightest_min_half,
                              saturation = tightest_saturation,
                              margin = tightest_ceiling_margin) {
  fam <- names(envs)
  e <- lapply(1:2, function(h) {
    lapply(envs, function(f) f(halves_real[[h]], halves_gen[[h]]))
  })
  full <- lapply(envs, function(f) f())
  gap <- abs(vapply(e[[1]], function(r) envelope_auc(lambda, r), numeric(1)) -
               vapply(e[[2]], function(r) envelope_auc(lambda, r), numeric(1)))
  rows <- min(lengths(halves_real), lengths(halves_gen))
  single <- rows < min_rows
  if (single) bands <- 1L
  theta <- atan(lambda)
  band <- pmin(bands, 1L + floor(bands * theta / (pi / 2)))
  auc <- vapply(full, function(r) envelope_auc(lambda, r), numeric(1))
  # the result from the curve pr (alpha, max_precision, max_recall), the
  # families chosen at every lambda (first, second) and in each band
  result <- function(pr, choice, first, second, band_first, band_second,
                     read) {
    ends_of <- function(fn) {
      vapply(seq_len(bands), function(b) {
        l <- lambda[band == b]
        if (length(l)) fn(l) else NA_real_
      }, numeric(1))
    }
    list(precision = pr$alpha, recall = pmin(pr$alpha / lambda, 1),
         max_precision = pr$max_precision, max_recall = pr$max_recall,
         half_gap = stats::setNames(gap, fam), family_auc = auc,
         choice = choice,
         chosen = tibble::tibble(lambda = c(0, lambda, Inf), first = first,
                                 second = second),
         bands = tibble::tibble(band = seq_len(bands),
                                lambda_from = ends_of(min),
                                lambda_to = ends_of(max), first = band_first,
                                second = band_second, read = read))
  }
  # no family tells the sets apart beyond a data-blind score: the ceiling
  least <- tightest_ceiling_auc(sum(lengths(halves_real)),
                                sum(lengths(halves_gen)), margin)
  if (length(fam) > 1L && all(auc >= least)) {
    none <- NA_character_
    return(result(list(alpha = pmin(lambda, 1), max_precision = 1,
                       max_recall = 1), "ceiling", none, none, none, none,
                  "ceiling"))
  }
  dtheta <- if (length(theta) > 1L) theta[2] - theta[1] else pi / 2
  # each family's polar area in each band, on each half: bands x families
  area <- lapply(e, function(eh) {
    vapply(eh, function(r) band_areas(r$precision, lambda, band, bands, dtheta),
           numeric(bands))
  })
  area <- lapply(area, matrix, nrow = bands)
  # a family's noise: the gap between its areas on the two halves; with
  # enough rows for bands, less the halves' common difference (the median
  # gap over the families: rows that make every family look tighter on
  # one half are no family's noise) where that is smaller
  gap_b <- area[[1]] - area[[2]]
  noise <- abs(gap_b)
  if (!single && length(fam) > 1L) {
    common <- apply(gap_b, 1L, stats::median)
    noise <- pmin(noise, abs(gap_b - common))
  }
  # a saturated family (at the ceiling on both halves) has no gap because
  # it cannot move: no free pass, it takes the largest noise of the band's
  # unsaturated families (where every family is saturated, as at Q = P,
  # none is favoured by its gap and the noises stay)
  if (length(fam) > 1L) {
    sat <- tightest_saturated(area, lambda, band, bands, dtheta, saturation)
    for (b in which(rowSums(sat) > 0L & rowSums(sat) < length(fam))) {
      noise[b, sat[b, ]] <- pmax(noise[b, sat[b, ]], max(noise[b, !sat[b, ]]))
    }
  }
  noise <- noise * rep(tightest_noise_weights(fam, penalty), each = bands)
  pick <- vapply(1:2, function(h) {
    max.col(-(area[[h]] + noise), ties.method = "first")
  }, integer(bands))
  pick <- matrix(pick, bands)
  agree <- pick[, 1] == pick[, 2]
  # the reading of the family chosen on half h, on the other half
  read <- function(field, h, f) e[[3L - h]][[f]][[field]]
  alpha <- numeric(length(lambda))
  for (b in seq_len(bands)) {
    inb <- band == b
    v <- if (agree[b]) full[[pick[b, 1]]]$precision else if (single)
      read("precision", 1, pick[b, 1]) else
        (read("precision", 1, pick[b, 1]) + read("precision", 2, pick[b, 2])) / 2
    alpha[inb] <- v[inb]
  }
  extreme <- function(field, b) {
    if (agree[b]) full[[pick[b, 1]]][[field]] else read(field, 1, pick[b, 1])
  }
  # readings of different families in neighbouring bands need not form a
  # PR curve: take the smallest one above them that does (only raised, so
  # still an upper-bound estimate; with one family nothing changes)
  pr <- pr_majorant(pmin(alpha, 1), lambda, extreme("max_precision", bands),
                    extreme("max_recall", 1L))
  if (single) pick[!agree, 2] <- pick[!agree, 1]
  ends <- c(1L, bands)
  first <- fam[pick[c(ends[1], band, ends[2]), 1]]
  second <- fam[pick[c(ends[1], band, ends[2]), 2]]
  # (each extreme is read from one family: the first half's choice)
  second[c(1L, length(second))] <- ifelse(agree[ends], second[c(1L, length(second))],
                                          first[c(1L, length(first))])
  result(pr, if (single) "single" else "bands", first, second, fam[pick[, 1]],
         fam[pick[, 2]],
         ifelse(agree, "all rows", if (single) "half 2" else "halves"))
}

#' Which families are saturated in which bands (a bands x families logical
#' matrix): area (a list of the two halves' bands x families areas) at
#' least `share` of the ceiling's area alpha = min(1, lambda) in the band,
#' on both halves.
#' @noRd
tightest_saturated <- function(area, lambda, band, bands, dtheta,
                               share = tightest_saturation) {
  ceil <- band_areas(lambda, lambda, band, bands, dtheta)
  area[[1]] >= share * ceil & area[[2]] >= share * ceil
}

#' The polar area of the curve alpha (precision on the grid lambda) in
#' each of the `bands` bands (`band`: each lambda's band, dtheta the angle
#' step): 1/2 sum rho^2 dtheta over the band, rho^2 = alpha^2 + beta^2,
#' alpha capped at 1 and beta = min(alpha / lambda, 1)
#' @noRd
band_areas <- function(alpha, lambda, band, bands, dtheta) {
  a <- pmin(alpha, 1)
  rho2 <- a^2 + pmin(a / lambda, 1)^2
  vapply(seq_len(bands), function(b) sum(rho2[band == b]) * dtheta / 2,
         numeric(1))
}

#' The smallest curve at or above the values alpha (on the increasing grid
#' lambda) that is a PR curve: alpha nondecreasing and alpha / lambda
#' nonincreasing in lambda (Simon et al. 2019, Theorem 2), with the extremes
#' alpha_inf >= every alpha and beta_0 >= every alpha / lambda; alpha <= 1.
#' @noRd
pr_majorant <- function(alpha, lambda, max_precision, max_recall) {
  for (it in 1:50) { # two passes suffice but for rounding
    old <- alpha
    alpha <- cummax(alpha)
    beta <- rev(cummax(rev(alpha / lambda)))
    # (a value is never lowered, not even by the rounding of beta * lambda)
    alpha <- pmin(pmax(alpha, beta * lambda), 1)
    if (max(alpha - old) <= 1e-14) break
  }
  list(alpha = alpha,
       max_precision = max(max_precision, alpha),
       max_recall = min(1, max(max_recall, pmin(alpha / lambda, 1))))
}

#' Random halves of 1..n (R's RNG), n >= 2.
#' @noRd
random_halves <- function(n) {
  perm <- sample.int(n)
  h <- floor(n / 2)
  list(sort(perm[seq_len(h)]), sort(perm[-seq_len(h)]))
}

#' Area of an envelope (a list as from curve_from_scores()).
#' @noRd
envelope_auc <- function(lambda, env) {
  curve_auc(c(0, lambda, Inf), c(0, env$precision, env$max_precision),
            c(env$max_recall, env$recall, 0))
}

#' Standard errors of a category's share added to the bounds of
#' category_bounds(): a one-sided 97.7% upper confidence bound. Without
#' them (the bound from the share alone) the default read the bound's own
#' noise: a category of 20% dropped, 1,500 rows a set, AUC 0.777 and
#' max_recall 0.779 for a true 0.8 (0.792 and 0.800 without bounds).
#' @noRd
category_bound_z <- 2

#' The fewest rows a set would hold of a category, at the other set's
#' share, for its absence from the set to count in category_bounds(): a
#' few generated rows beside many real ones miss rare categories by chance
#' (1,000 generated rows hold a category of 0.2% of the real rows in none
#' of them in 14% of draws).
#' @noRd
category_bound_min_count <- 3

#' The bounds that the categories of the sets put on the true curve: a
#' category (an indicator column of a categorical column, R/encode.R; a
#' missing value or a missing code of a number counts as one) that the
#' real rows hold and no generated row does is an atom outside the
#' generated law's support, so the true max_recall is at most 1 less the
#' share of real rows in such categories (in any of them, counted once),
#' and likewise max_precision at most 1 less the share of generated rows in
#' categories no real row holds. Read from every row of both sets (fit and
#' evaluation), each bound as an upper confidence bound: 1 - share +
#' category_bound_z standard errors of the share, sqrt(share (1 - share) /
#' n) (so a reading within the share's noise of the bound is left as it
#' is, and one far above it, as one generated row scored among the lowest
#' gives, comes down to it). Absent from m generated rows, a category of
#' the generated law has mass below about 3 / m with 95% confidence, so
#' the bound is loose by at most that share where a category is missing by
#' chance.
#' `ind`: the indicator columns (logical, one per column; NULL: those of
#' real's encoding, which the scaled sets and the half-samples no longer
#' carry).
#' @return c(max_precision, max_recall): 1 where no category is missing
#' @noRd
category_bounds <- function(real, generated, ind = NULL) {
  if (is.null(ind)) ind <- category_columns(real)
  if (!any(ind) || length(ind) != ncol(generated) || length(ind) != ncol(real)) {
    return(c(max_precision = 1, max_recall = 1))
  }
  cols <- which(ind)
  r <- real[, cols, drop = FALSE] != 0
  g <- generated[, cols, drop = FALSE] != 0
  nr <- colSums(r)
  ng <- colSums(g)
  # a category counts as missing from a set only where the set, holding
  # it at the other's share, would show it category_bound_min_count times
  # or more (absent by chance then in at most exp(-3) = 5% of draws)
  gone_g <- nr > 0 & ng == 0 & nr / nrow(r) * nrow(g) >= category_bound_min_count
  gone_r <- ng > 0 & nr == 0 & ng / nrow(g) * nrow(r) >= category_bound_min_count
  # 1 - share plus its noise (no bound: 1)
  out_share <- function(x, only) {
    if (!any(only)) return(0)
    p <- mean(rowSums(x[, only, drop = FALSE]) > 0)
    max(0, p - category_bound_z * sqrt(p * (1 - p) / nrow(x)))
  }
  c(max_precision = 1 - out_share(g, gone_r),
    max_recall = 1 - out_share(r, gone_g))
}

#' A curve (list precision, recall, max_precision, max_recall on the grid
#' lambda) held within the bounds `b` of category_bounds(): alpha at most
#' lambda max_recall and max_precision. The minimum of a PR curve and those
#' two is a PR curve (alpha still nondecreasing, alpha / lambda still
#' nonincreasing), and of a true curve within them, the same curve, so an
#' upper-bound estimate stays one.
#' @noRd
bound_curve <- function(env, b, lambda) {
  if (all(b >= 1)) return(env)
  alpha <- pmin(env$precision, lambda * b[["max_recall"]], b[["max_precision"]])
  env$precision <- alpha
  env$recall <- pmin(alpha / lambda, 1)
  env$max_precision <- min(env$max_precision, b[["max_precision"]])
  env$max_recall <- min(env$max_recall, b[["max_recall"]])
  env
}
