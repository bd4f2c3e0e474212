# Large cases of issue 11: four curves (knn, kde, ipr, coverage; split 0.5,
# default k) at 50,000 per set with d = 2,048 and 100,000 per set with
# d = 512, in a fresh Rscript process each: elapsed seconds of prd_curve(),
# the peak resident memory of the process (VmHWM, which includes the two
# input matrices) and the engine's product precision.
#
# A third argument "tightest" times the default curve (method =
# "tightest" and its default families) instead, "knn" the knn family
# alone (the reference of the default's time and memory); a fourth, K,
# with folds = K (1: one fit on the fit rows).
#
# Usage (package root, prdcurve installed):
#   Rscript bench/large.R 50000 2048
#   Rscript bench/large.R 100000 512
#   Rscript bench/large.R 10000 2048 tightest
#   Rscript bench/large.R 10000 2048 knn
#   Rscript bench/large.R 10000 2048 tightest 1
#   Rscript bench/large.R 50000 512 tightest --clustered
# With --clustered the sets are the validity suite's 16 overlapping classes
# and its model that widens every class by 15% (R/validity-kinds.R), where
# the default takes the mixture family; the line then ends with the AUC
# and the true AUC.
# Prints one line "RESULT n d k precision seconds peak_MiB input_MiB".
args <- commandArgs(trailingOnly = TRUE)
clustered <- "--clustered" %in% args
args <- setdiff(args, "--clustered")
n <- as.integer(args[1])
d <- as.integer(args[2])
method <- if (length(args) >= 3 && args[3] %in% c("tightest", "knn")) args[3] else
  c("knn", "kde", "ipr", "coverage")
folds <- if (length(args) >= 4) as.integer(args[4]) else NULL
suppressPackageStartupMessages(library(prdcurve))

source("bench/common.R")
if (clustered) {
  g <- prdcurve:::validity_scenarios(d, truth_n = 2e4, kinds = "clusters")
  g <- g[[which(vapply(g, `[[`, "", "name") == "clusters")]]
  set.seed(11)
  dat <- prdcurve:::validity_draw(g, n)
  dat <- list(real = dat$real, generated = dat$gens[["clusters_widen"]])
  truth <- summary(g$models$clusters_widen$truth)$auc
  rm(g)
} else {
  dat <- bench_data(n, d)
}
real <- dat$real
gen <- dat$generated
rm(dat)
input_mib <- 2 * n * d * 8 / 2^20
set.seed(2026)
el <- system.time(
  cv <- suppressWarnings(prd_curve(real, gen, method = method, folds = folds))
)[["elapsed"]]
# the precision asked for ("single" unless options(prdcurve.precision) says
# otherwise; the engine falls back to double without sgemm)
precision <- if (prdcurve:::engine_has_sgemm()) prdcurve:::engine_precision() else "double"
k <- stats::na.omit(cv$k)[1] # (NA for the fitted families)
cat(sprintf("RESULT %d %d %d %s %.1f %.0f %.0f%s\n", n, d, as.integer(k),
            precision, el, vm_hwm_mib(), input_mib,
            if (clustered) sprintf(" auc %.3f truth %.3f", summary(cv)$auc[1],
                                   truth) else ""))
