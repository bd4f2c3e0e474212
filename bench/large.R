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
# Prints one line "RESULT n d k precision seconds peak_MiB input_MiB".
args <- commandArgs(trailingOnly = TRUE)
n <- as.integer(args[1])
d <- as.integer(args[2])
method <- if (length(args) >= 3 && args[3] %in% c("tightest", "knn")) args[3] else
  c("knn", "kde", "ipr", "coverage")
folds <- if (length(args) >= 4) as.integer(args[4]) else NULL
suppressPackageStartupMessages(library(prdcurve))

source("bench/common.R")
dat <- bench_data(n, d)
real <- dat$real
gen <- dat$generated
rm(dat)
input_mib <- 2 * n * d * 8 / 2^20
set.seed(2026)
el <- system.time(
  cv <- prd_curve(real, gen, method = method, folds = folds)
)[["elapsed"]]
# the precision asked for ("single" unless options(prdcurve.precision) says
# otherwise; the engine falls back to double without sgemm)
precision <- if (prdcurve:::engine_has_sgemm()) prdcurve:::engine_precision() else "double"
k <- stats::na.omit(cv$k)[1] # (NA for the fitted families)
cat(sprintf("RESULT %d %d %d %s %.1f %.0f %.0f\n", n, d, as.integer(k),
            precision, el, vm_hwm_mib(), input_mib))
