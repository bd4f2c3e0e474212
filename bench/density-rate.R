# Why the half-sample intervals of `density` under heavy tails are too
# narrow: its variance does not fall as 1/n. Real N(0, I_d), generated a
# multivariate t (5 df, covariance I_d: the validity suite's student_t),
# k = 5, no split; `draws` fresh draws at n and at n / 2 per set. Prints,
# for n: the sd of the estimates over the draws, the mean of the
# half-sample sd estimates (sqrt(v), v = sum D_j^2 / 4P over the P pairs
# of complementary halves, what the interval uses), the coverage of the
# 90% intervals of their own mean, the mean of the halves' estimates; and
# the sd of the estimates at n / 2.
#
# Usage (package root, prdcurve installed):
#   Rscript bench/density-rate.R [d] [n] [draws]     (64 1000 40: 1 min)
suppressPackageStartupMessages(library(prdcurve))
args <- commandArgs(trailingOnly = TRUE)
d <- if (length(args) >= 1) as.integer(args[1]) else 64L
n <- if (length(args) >= 2) as.integer(args[2]) else 1000L
draws <- if (length(args) >= 3) as.integer(args[3]) else 40L
nu <- 5
t_scale <- sqrt((nu - 2) / nu)
gauss <- function(m) matrix(stats::rnorm(m * d), m, d)
student <- function(m) gauss(m) * (t_scale / sqrt(stats::rchisq(m, nu) / nu))
one <- function(i, m, reps) {
  set.seed(1000 + i)
  x <- suppressWarnings(manifold_metrics(gauss(m), student(m), k = 5,
                                         metrics = "density",
                                         replicates = reps))
  if (!reps) return(c(est = x$value))
  r <- attr(x, "replicates")
  r <- r$value[order(r$replicate)]
  D <- r[c(TRUE, FALSE)] - r[c(FALSE, TRUE)]
  c(est = x$value, lower = x$lower, upper = x$upper,
    sd_halves = sqrt(sum(D^2) / (4 * length(D))), mean_halves = mean(r))
}
full <- do.call(rbind, lapply(seq_len(draws), one, m = n, reps = 10L))
half <- vapply(seq_len(draws), function(i) one(i + draws, n %/% 2L, 0L), 0)
mu <- mean(full[, "est"])
cat(sprintf(paste0("d = %d, %s per set, %d draws: density mean %.2f, sd %.3f; ",
                   "half-sample sd estimate %.3f (ratio of variances %.2f); ",
                   "90%% intervals cover their mean in %.0f%%; ",
                   "mean of the halves' estimates %.2f; at %s per set: mean %.2f, sd %.3f ",
                   "(variance ratio n/2 : n = %.2f, 2 under 1/n)\n"),
            d, n, draws, mu, stats::sd(full[, "est"]), mean(full[, "sd_halves"]),
            stats::var(full[, "est"]) / mean(full[, "sd_halves"]^2),
            100 * mean(full[, "lower"] <= mu & mu <= full[, "upper"]),
            mean(full[, "mean_halves"]), n %/% 2L, mean(half), stats::sd(half),
            stats::var(half) / stats::var(full[, "est"])))
