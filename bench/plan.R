# The targets of the planned engine: scalar metrics without a split against
# the four curves, and every sweep on future workers. Each ratio is
# measured in one run (the two calls alternate, medians of `reps`).
#
# Usage (package root, prdcurve installed):
#   Rscript bench/plan.R scalars N D [REPS]   all 11 default metrics and the
#                                            four scalars (no split) vs the
#                                            four curves (prd_curve(), split
#                                            0.5 default)
#   Rscript bench/plan.R future N D [REPS] [CASES]
#                                            manifold_metrics() without a
#                                            split (11 metrics and four) and
#                                            the four neighbour curves with
#                                            split = 0, in process with 2
#                                            threads vs multisession, 2
#                                            workers of one thread; the
#                                            workers' share of the CPU time.
#                                            CASES: a comma-separated subset
#                                            of all11,four,curve0 (default
#                                            all three)
# Prints a table and lines "RESULT ..." (scalars: the median seconds of
# the curves, the 11 metrics and the four, and the two ratios; future, one
# per case: case, in-process and futures seconds, ratio, workers' share).
args <- commandArgs(trailingOnly = TRUE)
what <- args[1]
n <- as.integer(args[2])
d <- as.integer(args[3])
reps <- if (length(args) >= 4) as.integer(args[4]) else 3L
suppressPackageStartupMessages(library(prdcurve))
source("bench/common.R")
dat <- bench_data(n, d)
real <- dat$real
gen <- dat$generated
rm(dat)
four <- c("precision", "recall", "density", "coverage")
secs <- function(expr) system.time(expr)[["elapsed"]]

if (what == "scalars") {
  prd_threads(2)
  t <- replicate(reps, c(
    curves = secs(prd_curve(real, gen, method = c("knn", "kde", "ipr", "coverage"))),
    all11 = secs(manifold_metrics(real, gen, k = 5)),
    four = secs(manifold_metrics(real, gen, k = 5, metrics = four))))
  med <- apply(t, 1, stats::median)
  cat(sprintf("| %s x %d | four curves %.2f s | 11 metrics %.2f s (%.2fx) | four scalars %.2f s (%.2fx) | load %.1f |\n",
              format(n, big.mark = ","), d, med[["curves"]], med[["all11"]],
              med[["all11"]] / med[["curves"]], med[["four"]],
              med[["four"]] / med[["curves"]], load1()))
  cat("ratios per run (11, four):",
      paste(sprintf("%.2f/%.2f", t["all11", ] / t["curves", ],
                    t["four", ] / t["curves", ]), collapse = " "), "\n")
  cat("RESULT", med, med[["all11"]] / med[["curves"]],
      med[["four"]] / med[["curves"]], "\n")
} else if (what == "future") {
  # CPU seconds of the multisession workers (their command lines name
  # this session's temporary directory; they are not its children)
  kids_cpu <- function() {
    pids <- system(sprintf("pgrep -f %s", shQuote(tempdir())), intern = TRUE)
    pids <- setdiff(trimws(pids), as.character(Sys.getpid()))
    tot <- 0
    for (p in pids) {
      f <- sprintf("/proc/%s/stat", p)
      if (!file.exists(f)) next
      st <- strsplit(readLines(f), " ")[[1]]
      tot <- tot + (as.numeric(st[14]) + as.numeric(st[15])) / 100
    }
    tot
  }
  self_cpu <- function() sum(proc.time()[c("user.self", "sys.self")])
  future::plan(future::multisession, workers = 2)
  options(prdcurve.worker_threads = 1L)
  # warm the workers (package loaded)
  invisible(future::value(future::future(prdcurve::prd_threads())))
  cases <- if (length(args) >= 5) strsplit(args[5], ",")[[1]] else
    c("all11", "four", "curve0")
  nb <- c("knn", "kde", "ipr", "coverage")
  calls <- list(
    all11 = function() manifold_metrics(real, gen, k = 5),
    four = function() manifold_metrics(real, gen, k = 5, metrics = four),
    curve0 = function() prd_curve(real, gen, split = 0, method = nb))
  labels <- c(all11 = "11 metrics", four = "four scalars",
              curve0 = "four curves, split = 0")
  rows <- character()
  for (cs in cases) {
    res <- replicate(reps, {
      options(prdcurve.future = FALSE)
      prd_threads(2)
      l0 <- load1()
      t_in <- secs(a <- calls[[cs]]())
      options(prdcurve.future = TRUE)
      k0 <- kids_cpu(); s0 <- self_cpu()
      t_fu <- secs(b <- calls[[cs]]())
      k1 <- kids_cpu(); s1 <- self_cpu()
      stopifnot(identical(a, b))
      c(in_process = t_in, futures = t_fu,
        workers_share = (k1 - k0) / ((k1 - k0) + (s1 - s0)),
        caller_cpu = s1 - s0, load = (l0 + load1()) / 2)
    })
    med <- apply(res, 1, stats::median)
    rows <- c(rows, sprintf(
      "| %s, %s x %d, no split | in process (2 threads) %.2f s | 2 workers x 1 thread %.2f s (%.2fx) | workers' CPU share %.0f%% (calling process %.2f s) | identical | load %.1f |",
      labels[[cs]], format(n, big.mark = ","), d, med[["in_process"]],
      med[["futures"]], med[["futures"]] / med[["in_process"]],
      100 * med[["workers_share"]], med[["caller_cpu"]], med[["load"]]))
    cat(rows[length(rows)], "\n")
    cat("RESULT", cs, med[["in_process"]], med[["futures"]],
        med[["futures"]] / med[["in_process"]], med[["workers_share"]],
        "\n")
    cat("ratios per run:", paste(sprintf("%.2f", res["futures", ] / res["in_process", ]), collapse = " "),
        "; shares:", paste(sprintf("%.0f%%", 100 * res["workers_share", ]), collapse = " "),
        "; loads:", paste(sprintf("%.1f", res["load", ]), collapse = " "), "\n")
  }
  future::plan(future::sequential)
}
