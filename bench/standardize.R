# Which rows should set the scale of standardize = "real"? Two samples of
# one law (uniform on the unit sphere surface in d = 128, 1,000 points per
# set, the sanity checks' "Hypersphere surface" at Q = P), 20 draws, the
# fitted families and the default "tightest" with the package's defaults.
# The true AUC is 1. Three readings of the same draws:
#   every real row: the columns scaled by the mean and sd of all real rows
#                   (standardize = "real" of prdcurve 0.5.8 and earlier);
#   fit rows:       standardize = "real" (the real fit rows of the split);
#   unscaled:       the data as drawn.
# Usage: Rscript bench/standardize.R [DRAWS = 20]
args <- commandArgs(trailingOnly = TRUE)
draws <- if (length(args)) as.integer(args[1]) else 20L
suppressPackageStartupMessages(library(prdcurve))
rsphere <- function(n, d) {
  z <- matrix(stats::rnorm(n * d), n)
  z / sqrt(rowSums(z^2))
}
methods <- c("linear", "quadratic", "stacked", "tightest")
one <- function(i, how) {
  set.seed(100 + i)
  r <- rsphere(1000, 128)
  g <- rsphere(1000, 128)
  if (how == "every real row") {
    mu <- colMeans(r)
    s <- apply(r, 2, stats::sd)
    r <- scale(r, mu, s)
    g <- scale(g, mu, s)
  }
  set.seed(i)
  cv <- suppressWarnings(prd_curve(r, g, method = methods,
                                   standardize = if (how == "fit rows") "real" else "none"))
  s <- summary(cv)
  stats::setNames(s$auc, s$method)[methods]
}
hows <- c("every real row", "fit rows", "unscaled")
res <- lapply(hows, function(h) t(vapply(seq_len(draws), one, numeric(4), how = h)))
tab <- do.call(rbind, lapply(seq_along(hows), function(j) {
  m <- res[[j]]
  data.frame(scale = hows[j], method = methods,
             mean_auc = round(colMeans(m), 3),
             sd = round(apply(m, 2, stats::sd), 3), row.names = NULL)
}))
cat(sprintf("Q = P uniform on the sphere surface, d = 128, 1,000 points per set, %d draws (true AUC 1)\n", draws))
print(tab, right = FALSE)
