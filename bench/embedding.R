# embedding_metrics(): (a) the coverage of FD's 90% half-sample interval
# on Gaussians whose FD has a closed form, at two sample sizes; (b) the
# time of the whole table at 10,000 x 2,048 and the peak memory.
#
# Usage (from the package root):
#   Rscript bench/embedding.R                 # both parts
#   Rscript bench/embedding.R --draws 100     # (a) with fewer draws
#   Rscript bench/embedding.R --part a|b      # one part
#   Rscript bench/embedding.R --n 50000       # (b) at another size
#   Rscript bench/embedding.R --each          # (b) also each metric alone
# Options: --draws N (default 200), --replicates R (default 40 = 20 pairs),
# --n rows per set of (b) (default 10,000), --d (default 2,048).
#
# (a) real N(0, I_d), generated N(delta e_1, s^2 I_d), d = 16, delta = 2,
# s = 1.2: FD = delta^2 + d (1 - s)^2 = 4.64 (Heusel et al. 2017, eq. 6
# for Gaussians). n = m = 500 and 2,000 rows, fresh data in every draw.
# Coverage is the share of draws whose 90% interval holds (i) the closed
# form and (ii) the estimator's own mean (the mean of the estimates over
# the draws: the target of an interval of a biased estimator, house rule
# 10); the bias, estimate minus closed form, is shown beside.
# (b) real N(0, I), generated N(0.5 e_1, I) (bench_data()), a held-out
# set of 5,000 rows for ct, ten classes of generated rows for vendi_class,
# every metric, no replicates: the whole table in
# one call and, with --each, each metric's time from a call of its own (the
# shared real-set work and pair sums repeated; several minutes at 10,000
# rows); peak resident memory (VmHWM) of the process.

args <- commandArgs(trailingOnly = TRUE)
opt <- function(name, default) {
  i <- match(paste0("--", name), args)
  if (is.na(i)) default else args[i + 1L]
}
draws <- as.integer(opt("draws", 200))
reps <- as.integer(opt("replicates", 40))
part <- opt("part", "ab")
n_big <- as.integer(opt("n", 10000))
d_big <- as.integer(opt("d", 2048))

if (requireNamespace("pkgload", quietly = TRUE) && file.exists("DESCRIPTION")) {
  pkgload::load_all(quiet = TRUE)
} else {
  library(prdcurve)
}
source("bench/common.R")
options(prdcurve.check_inputs = FALSE)

if (grepl("a", part)) {
  d <- 16
  delta <- 2
  s <- 1.2
  truth <- delta^2 + d * (1 - s)^2
  cat(sprintf("## (a) FD interval coverage: d = %d, FD = %.2f, %d draws, %d replicates\n\n",
              d, truth, draws, reps))
  rows <- list()
  for (n in c(500L, 2000L)) {
    t0 <- proc.time()[["elapsed"]]
    est <- lo <- hi <- numeric(draws)
    for (b in seq_len(draws)) {
      set.seed(1000 * n + b)
      x <- matrix(stats::rnorm(n * d), n, d)
      y <- matrix(stats::rnorm(n * d, sd = s), n, d)
      y[, 1] <- y[, 1] + delta
      em <- embedding_metrics(x, y, metrics = "fd", replicates = reps)
      est[b] <- em$value
      lo[b] <- em$lower
      hi[b] <- em$upper
    }
    own <- mean(est)
    rows[[length(rows) + 1L]] <- data.frame(
      n = n, fd_mean = own, bias = own - truth, sd = stats::sd(est),
      mean_width = mean(hi - lo),
      cover_truth = mean(lo <= truth & truth <= hi),
      cover_own_mean = mean(lo <= own & own <= hi),
      seconds = proc.time()[["elapsed"]] - t0)
  }
  tab <- do.call(rbind, rows)
  print(format(tab, digits = 3), row.names = FALSE)
  cat("\n")
}

if (grepl("b", part)) {
  cat(sprintf("## (b) the whole table at %s x %s (one model; held-out set of 5,000 rows for ct)\n\n",
              format(n_big, big.mark = ","), format(d_big, big.mark = ",")))
  dat <- bench_data(n_big, d_big)
  held <- matrix(stats::rnorm(5000 * d_big), 5000, d_big)
  # ten classes of generated rows, for vendi_class
  classes <- rep_len(1:10, n_big)
  gc(reset = TRUE)
  base_mib <- vm_hwm_mib()
  # elapsed seconds, and the CPU seconds of the process (every thread):
  # on a shared machine the second says what the work costs
  one <- function(metrics) {
    set.seed(1)
    t0 <- proc.time()
    em <- embedding_metrics(dat$real, dat$generated, metrics = metrics,
                            held_out = held, classes = classes)
    t1 <- proc.time() - t0
    list(seconds = t1[["elapsed"]], cpu = t1[["user.self"]] + t1[["sys.self"]],
         em = em)
  }
  # every metric but the propensity ones (a logistic regression on the
  # columns: at d = 2,048 it would have millions of parameters)
  names_all <- setdiff(embedding_metric_names(), c("pmse", "s_pmse"))
  all <- one(names_all)
  tab <- data.frame(metric = c(all$em$metric, "whole table"),
                    value = c(all$em$value, NA),
                    seconds = c(rep(NA, nrow(all$em)), all$seconds),
                    cpu_seconds = c(rep(NA, nrow(all$em)), all$cpu))
  if ("--each" %in% args) {
    each <- lapply(names_all, one)
    tab$seconds[seq_along(names_all)] <- vapply(each, `[[`, 0, "seconds")
    tab$cpu_seconds[seq_along(names_all)] <- vapply(each, `[[`, 0, "cpu")
  }
  print(format(tab, digits = 4), row.names = FALSE)
  cat(sprintf("\nthreads: %s; peak resident memory %.0f MiB (the data alone: %.0f MiB; after loading the data %.0f MiB); an n x n matrix of doubles would be %.0f MiB\n",
              prd_threads(), vm_hwm_mib(),
              (2 * n_big + 5000) * d_big * 8 / 2^20, base_mib,
              n_big^2 * 8 / 2^20))
}
