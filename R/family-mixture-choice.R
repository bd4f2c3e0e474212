# The mixture family's choice made simpler (mixture_choose(),
# R/family-mixture.R): the candidate with the least held-out loss is kept
# only where it beats a constant score beyond the noise.

#' Standard errors (of the paired per-row differences of the held-out
#' losses) by which the chosen pair of mixtures must beat a constant score
#' for mixture_choose() to keep it (mixture_simpler()).
#' @noRd
mixture_null_se <- 2

#' The row of `pairs` (mixture_candidates()' pairs, their held-out losses
#' the columns of `loss`) that mixture_choose() takes for its chosen row
#' `best`: best when its mean loss is below that of a constant score
#' (`null`, the per-row losses of s = 0: log 2 on average) by more than
#' `se_mult` standard errors, else the pair with the fewest parameters
#' (one spherical component a set). Where the sets do not differ (Q = P)
#' every candidate reads about log 2 and the least loss was a noisy choice,
#' often of 16 low-rank components whose EM ran to its 100 steps. On the
#' validity suite's 16 classes, spherical or rank 4, 5,000 rows a set,
#' the chosen pair beat the constant score by 0.87 to 1.45 standard errors
#' with Q = P, and by 3.9 to 34.5 for the models that drop, reweight or
#' widen classes (d = 64 and 256); on 16 classes on the unit sphere (d =
#' 256, 3,000 rows a set) Q = P then took 2.5 s instead of 5.4 s
#' (bench/mixture.R --simpler). Taking one spherical component whenever it
#' was within one standard error of the least loss took it for widened
#' classes too (their spread alone beats it by little in the loss), 0.076
#' further from the truth there at d = 256; spherical components for
#' low-rank ones within one, 0.055 (bench/results.md).
#' @noRd
mixture_simpler <- function(pairs, loss, null, best,
                            se_mult = mixture_null_se) {
  dif <- null - loss[, best]
  dif <- dif[is.finite(dif)]
  if (length(dif) < 2L) return(best)
  se <- stats::sd(dif) / sqrt(length(dif))
  if (mean(dif) > se_mult * se) best else which.min(pairs$params)
}
