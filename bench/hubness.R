# Does a hubness-corrected kNN earn a place among the families of
# prd_curve()? Two corrections of the kNN vote, written out in R with full
# distance matrices (so small n only), against knn, kde and "tightest" and
# the true AUC of validity scenarios (prdcurve:::validity_scenarios()):
# * local scaling (Zelnik-Manor and Perona 2004): the k nearest fit points
#   of z under ||x - z|| / sigma_x, sigma_x the distance from fit point x to
#   its own k-th neighbour among the fit points;
# * mutual proximity (Schnitzer et al. 2012, Gaussian version): the k fit
#   points x with the largest P(D_x > ||x - z||) P(D_z > ||x - z||), D_x
#   the distances from x to the fit points (mean and sd), D_z likewise.
# The score of z is the share of generated points among those k (k =
# round(sqrt(fit size)), as prd_curve()'s default); the curve is the
# envelope of the thresholds on it (the same envelope as every family).
# Split 0.5, n points per set, one draw (seed 3).
#
# With --skewness: the hubness figure of prd_curve_info() (skewness of the
# knn family's k-occurrence counts, from the engine) beside the knn and
# true AUC, and the seconds of the knn curve, at sizes where the full
# distance matrices above would not fit.
#
# Usage (package root, prdcurve installed):
#   Rscript bench/hubness.R [--dims 16,256,1024] [--n 1000]
#   Rscript bench/hubness.R --skewness [--dims 16,256,2048] [--n 10000]
suppressPackageStartupMessages(library(prdcurve))
source("bench/common.R")
ns <- asNamespace("prdcurve")
dims <- as.numeric(strsplit(opt("dims", "16,256,1024"), ",")[[1]])
n <- as.integer(opt("n", "1000"))
scen <- c("shift_axis_1", "var_0.8", "var_1.2", "outliers", "student_t", "drop_1")
# every (d, scenario model): f(d, m, g, x, y), one data frame row each
each_case <- function(f) {
  rows <- list()
  for (d in dims) {
    for (g in ns$validity_scenarios(d, which = scen, truth_n = 2e5)) {
      set.seed(3)
      x <- g$real(n)
      for (m in names(g$models)) {
        y <- g$models[[m]]$sample(n)
        rows[[length(rows) + 1L]] <- f(d, m, g, x, y)
      }
    }
  }
  do.call(rbind, rows)
}
if (flag("skewness")) {
  res <- each_case(function(d, m, g, x, y) {
    set.seed(4)
    t0 <- proc.time()[["elapsed"]]
    cv <- suppressWarnings(prd_curve(x, y, method = "knn", angles = 201))
    sec <- proc.time()[["elapsed"]] - t0
    data.frame(d = d, scenario = m, truth = round(g$models[[m]]$truth_auc, 3),
               knn = round(summary(cv)$auc, 3),
               hubness = round(prd_curve_info(cv)$details[[1]]$hubness, 2),
               seconds = round(sec, 2), k = prd_curve_info(cv)$k)
  })
  k <- res$k[1]
  res$k <- NULL
  cat(sprintf("n = %s per set, split 0.5, k = %d (the default)\n\n",
              format(n, big.mark = ","), k))
  cat("|", paste(names(res), collapse = " | "), "|\n")
  cat("|", paste(rep("---", ncol(res)), collapse = " | "), "|\n")
  for (i in seq_len(nrow(res))) {
    cat("|", paste(format(res[i, ], big.mark = ","), collapse = " | "), "|\n")
  }
  quit(save = "no")
}
lam <- ns$lambda_grid(201)
auc_of <- function(sr, sg) ns$envelope_auc(lam, ns$curve_from_scores(sr, sg, lam))
res <- each_case(function(d, m, g, x, y) {
  h <- seq_len(n / 2)
  fit <- rbind(x[h, ], y[h, ])
  lab <- rep(0:1, each = n / 2)
  ev <- rbind(x[-h, ], y[-h, ])
  k <- round(sqrt(n / 2))
  d2 <- pmax(outer(rowSums(ev^2), rowSums(fit^2), "+") - 2 * tcrossprod(ev, fit), 0)
  ff <- pmax(outer(rowSums(fit^2), rowSums(fit^2), "+") - 2 * tcrossprod(fit), 0)
  diag(ff) <- Inf
  sig <- sqrt(apply(ff, 1, function(r) sort(r, partial = k)[k]))
  vote <- function(s) apply(s, 1, function(r) mean(lab[order(r)[1:k]]))
  dist <- sqrt(d2)
  fd <- sqrt(ff)
  fd[!is.finite(fd)] <- NA
  mu_f <- rowMeans(fd, na.rm = TRUE)
  sd_f <- apply(fd, 1, stats::sd, na.rm = TRUE)
  ne <- nrow(ev)
  mp <- stats::pnorm(dist, rep(mu_f, each = ne), rep(sd_f, each = ne),
                     lower.tail = FALSE) *
    stats::pnorm(dist, rowMeans(dist), apply(dist, 1, stats::sd),
                 lower.tail = FALSE)
  a <- function(s) auc_of(s[seq_len(n / 2)], s[-seq_len(n / 2)])
  pc <- summary(suppressWarnings(prd_curve(x, y, method = c("knn", "kde", "tightest"),
                                           angles = 201)))
  data.frame(
    d = d, scenario = m, truth = g$models[[m]]$truth_auc,
    knn_vote = a(vote(d2)), local_scaling = a(vote(dist / rep(sig, each = ne))),
    mutual_proximity = a(vote(-mp)),
    knn = pc$auc[pc$method == "knn"], kde = pc$auc[pc$method == "kde"],
    tightest = pc$auc[pc$method == "tightest"])
})
num <- vapply(res, is.numeric, logical(1)) & names(res) != "d"
res[num] <- lapply(res[num], round, 3)
print(res, row.names = FALSE, width = 200)
cat("\nlocal scaling below tightest - 0.01 in", sum(res$local_scaling < res$tightest - 0.01),
    "of", nrow(res), "cases; mutual proximity in",
    sum(res$mutual_proximity < res$tightest - 0.01), "\n")
