# The speed targets of the planned engine (issue 17), each measured in
# fresh Rscript processes (bench/speed.R, bench/plan.R), and the table of
# results: printed, and with --write put into bench/results.md as the
# section "The engine's targets (bench/targets-engine.R)" (the other
# sections are kept). About 12 minutes on 2 cores; run it on an idle
# machine, the ratios are taken within each run.
#
#   - four curves (split 0.5) against C sgemm on the pairs they need, at
#     20,000 x 64 and 10,000 x 2,048: three runs of `speed.R precision`,
#     the median of the three ratios;
#   - the 11 default metrics and the four scalars without a split against
#     the four curves: `plan.R scalars` (the calls alternate, medians of
#     3 in one run);
#   - the 11 metrics on 2 multisession workers of one thread against 2
#     threads in process, 20,000 x 256: `plan.R future` (medians of 3).
#
# Usage (package root, prdcurve installed):
#   Rscript bench/targets-engine.R [--write]
args <- commandArgs(trailingOnly = TRUE)
write <- "--write" %in% args
source("bench/common.R")

results <- bench_results
f <- fmt_num
runs <- function(x) paste(f(x), collapse = ", ")

rows <- character()
add <- function(what, value, target, met) {
  rows <<- c(rows, sprintf("| %s | %s | %s | %s |", what, value, target,
                           if (met) "yes" else "no"))
  cat(rows[length(rows)], "\n")
}
loads <- load1()

for (case in list(c(20000, 64, 2.5), c(10000, 2048, 1.3))) {
  r <- vapply(1:3, function(i) {
    x <- results("bench/speed.R", "precision", case[1], case[2])[[1]]
    # x: single s, double s, R float64 s, C dgemm s, C sgemm s, ...
    c(x[1], x[5])
  }, numeric(2))
  ratio <- r[1, ] / r[2, ]
  add(sprintf("four curves / C sgemm, %s x %s", format(case[1], big.mark = ","),
              format(case[2], big.mark = ",")),
      sprintf("**%sx** (runs %s; %s s against %s s)", f(stats::median(ratio)),
              runs(ratio), f(stats::median(r[1, ])), f(stats::median(r[2, ]))),
      sprintf("<= %sx", f(case[3], 1)), stats::median(ratio) <= case[3])
  loads <- c(loads, load1())
}

for (case in list(c(20000, 64), c(10000, 2048))) {
  x <- results("bench/plan.R", "scalars", case[1], case[2], 3)[[1]]
  # x: curves, all11, four (median s), all11 / curves, four / curves
  lbl <- sprintf("%s x %s", format(case[1], big.mark = ","),
                 format(case[2], big.mark = ","))
  if (case[2] == 64) {
    add(sprintf("11 metrics (no split) / four curves, %s", lbl),
        sprintf("**%sx** (%s s against %s s)", f(x[4]), f(x[2]), f(x[1])),
        "<= 2x", x[4] <= 2)
  } else {
    add(sprintf("four scalars (no split) / four curves, %s", lbl),
        sprintf("**%sx** (%s s against %s s)", f(x[5]), f(x[3]), f(x[1])),
        "<= 1.8x", x[5] <= 1.8)
  }
  loads <- c(loads, load1())
}

x <- results("bench/plan.R", "future", 20000, 256, 3, "all11")[[1]]
# x: case (NA), in process s, futures s, ratio, workers' share
add("11 metrics on 2 workers / in process, 20,000 x 256",
    sprintf("**%sx** (%s s against %s s), workers' CPU share %s%%, identical",
            f(x[4]), f(x[3]), f(x[2]), f(100 * x[5], 0)),
    "<= 1.15x, >= 90%", x[4] <= 1.15 && x[5] >= 0.9)
loads <- c(loads, load1())

sec <- c("# The engine's targets (bench/targets-engine.R)", "",
         sprintf(paste("`Rscript bench/targets-engine.R --write`, %s, prdcurve %s:",
                       "each case in fresh Rscript processes; load average %s",
                       "to %s on 2 cores. Data: N(0, I_d) against N(0.5 e_1, I_d)."),
                 format(Sys.Date()), utils::packageVersion("prdcurve"),
                 f(min(loads), 1), f(max(loads), 1)), "",
         "| target | measured | target | met |", "|---|---|---|---|", rows, "",
         "The same measurements one by one, with 0.5.4 alongside and what changed,",
         "are in the section \"The planned engine\" below; the four curves at",
         "10,000 x 2,048, the target nearest its bound, in the sections after",
         "this one.")
cat("\n", sec, sep = "\n")
if (write) write_section(sec)
