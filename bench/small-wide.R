# The default curve on small, wide sets (fewer rows than columns): the
# families that declare `span` (linear, quadratic, stacked; R/families.R)
# fitted on the rows' coordinates in their span (span_sets(),
# R/crossfit.R) against fitted on the rows (engine_knobs$span = FALSE),
# in one process, the two interleaved in every round so that load changes
# hit both; medians of the rounds' elapsed and CPU (user + system)
# seconds, knn's for scale, and the two AUCs (equal where both take the
# same path: the same scores to rounding; below engine_knobs$span_moments
# d rows in all `stacked` takes the fold moments on the span, and its
# curve, and the default's, can move within their noise where it took the
# Gram form on the rows). bench_data(n, d): N(0, I) against
# N(0.5 e_1, I).
#
# Usage (package root, prdcurve installed):
#   Rscript bench/small-wide.R [--sizes 300x2048,600x2048] [--rounds 3]
#     [--repeats 1]
# (--repeats: the splits averaged, prd_curve()'s `repeats`; its default
# below 1,000 rows a set is 5.)
suppressPackageStartupMessages(library(prdcurve))
source("bench/common.R")
args <- commandArgs(trailingOnly = TRUE)
sizes <- strsplit(opt("sizes", "200x2048,300x2048,400x2048,600x2048,800x2048,300x1024"),
                  ",")[[1]]
rounds <- as.integer(opt("rounds", "3"))
splits <- as.integer(opt("repeats", "1"))
knobs <- prdcurve:::engine_knobs
options(prdcurve.check_inputs = FALSE) # (fewer rows than columns: on purpose)
time_call <- function(dat, span, method = "tightest") {
  knobs$span <- span
  set.seed(1)
  st <- system.time(cv <- suppressWarnings(
    prd_curve(dat$real, dat$generated, method = method, repeats = splits)
  ))
  knobs$span <- TRUE
  c(elapsed = st[["elapsed"]], cpu = st[["user.self"]] + st[["sys.self"]],
    auc = summary(cv)$auc[1])
}
rows <- list()
for (size in sizes) {
  nd <- as.integer(strsplit(size, "x")[[1]])
  dat <- bench_data(nd[1], nd[2])
  invisible(time_call(dat, TRUE)) # (warm-up)
  r <- lapply(seq_len(rounds), function(i) {
    rbind(span = time_call(dat, TRUE), rows = time_call(dat, FALSE),
          knn = time_call(dat, TRUE, "knn"))
  })
  med <- function(v, col) stats::median(vapply(r, function(m) m[v, col], 1))
  rows[[size]] <- data.frame(
    size = size, span_s = med("span", "elapsed"), rows_s = med("rows", "elapsed"),
    ratio = med("span", "elapsed") / med("rows", "elapsed"),
    span_cpu = med("span", "cpu"), rows_cpu = med("rows", "cpu"),
    knn_s = med("knn", "elapsed"),
    auc_span = r[[1]]["span", "auc"], auc_rows = r[[1]]["rows", "auc"])
}
tab <- do.call(rbind, rows)
rownames(tab) <- NULL
cat(sprintf("the default curve, %d split(s), medians of %d rounds (interleaved), prdcurve %s\n",
            splits, rounds, utils::packageVersion("prdcurve")))
print(format(tab, digits = 3), right = FALSE)
