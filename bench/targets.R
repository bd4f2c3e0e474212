# The speed and memory targets of issue 11, each case in a fresh Rscript
# process (bench/speed.R, bench/large.R), one after the other, and the
# table of results: printed, and with --write put into bench/results.md as
# the section "Speed and memory: the targets of issue 11" (the other
# sections are kept). Run it on an idle machine: about 15 minutes.
#
# Usage (package root, prdcurve installed):
#   Rscript bench/targets.R [--write] [--quick]
# --quick skips the two large cases (50K x 2,048 and 100K x 512).
args <- commandArgs(trailingOnly = TRUE)
write <- "--write" %in% args
quick <- "--quick" %in% args
source("bench/common.R")

# the first RESULT line's first 7 numbers
result <- function(script, ...) bench_results(script, ...)[[1]][1:7]
f <- fmt_num

rows <- character()
add <- function(...) rows <<- c(rows, paste0("| ", paste(..., sep = " | "), " |"))
loads <- numeric()

# four curves at 10K x 2,048 and 20K x 64: the package (single and double
# precision), R's float64 products of the same pairs, C dgemm and sgemm
for (case in list(c(10000, 2048), c(20000, 64))) {
  loads <- c(loads, load1())
  r <- result("bench/speed.R", "precision", case[1], case[2])
  # r: single s, double s, R float64 products s, C dgemm s, C sgemm s, ...
  add(sprintf("four curves, %sK, %s, split 0.5", f(case[1] / 1000, 0),
              format(case[2], big.mark = ",")),
      sprintf("`speed.R precision %d %d`", case[1], case[2]),
      f(r[1]), sprintf("R float64 products %s s; C dgemm %s s, C sgemm %s s",
                       f(r[3]), f(r[4]), f(r[5])),
      sprintf("%s of R's; %s of C dgemm; %s of C sgemm", f(r[1] / r[3]),
              f(r[1] / r[4]), f(r[1] / r[5])),
      if (case[2] > 64) "<= 0.6 of the float64 products" else "<= 2 of the float64 products",
      if (case[2] > 64) {
        if (r[1] / r[3] <= 0.6) "yes (R's)" else "no"
      } else {
        if (r[1] / r[4] <= 2) "yes (C dgemm)" else if (r[1] / r[3] <= 2) "R's: yes; C dgemm: no" else "no"
      })
}

# four scalars without a split at 10K x 2,048
loads <- c(loads, load1())
r <- result("bench/speed.R", "scalars", 10000, 2048)
add("four scalars, 10K, 2,048, no split", "`speed.R scalars 10000 2048`",
    f(r[1]), sprintf("prdc's float64 products %s s; prdc 29-48 s (issue)", f(r[2])),
    sprintf("%s of prdc's products; %s-%s of prdc", f(r[1] / r[2]),
            f(r[1] / 48), f(r[1] / 29)),
    "<= 0.5 of prdc", if (r[1] / 29 <= 0.5) "yes" else "no")

# large cases: time and peak memory
if (!quick) {
  for (case in list(c(50000, 2048), c(100000, 512))) {
    loads <- c(loads, load1())
    r <- result("bench/large.R", case[1], case[2])
    # r: n d k precision(NA) seconds peak_MiB input_MiB
    add(sprintf("four curves, %sK, %s", f(case[1] / 1000, 0), format(case[2], big.mark = ",")),
        sprintf("`large.R %d %d`", case[1], case[2]), f(r[5], 1),
        sprintf("peak %s MiB (inputs %s MiB)", f(r[6], 0), f(r[7], 0)), "",
        if (case[1] == 50000) "<= 150 s" else "completes in 24 GiB",
        if (case[1] == 50000) (if (r[5] <= 150) "yes" else "no") else
          (if (r[6] < 24 * 1024) "yes" else "no"))
  }
}

# scaling in n at d = 256
ns <- c(2500, 5000, 10000, 20000, 40000)
secs <- vapply(ns, function(n) {
  loads <<- c(loads, load1())
  result("bench/large.R", n, 256)[5]
}, 0)
fit <- stats::lm(log(secs) ~ log(ns))
fit_hi <- stats::lm(log(secs[3:5]) ~ log(ns[3:5]))

sec <- c(
  "# Speed and memory: the targets of issue 11",
  "",
  sprintf(paste(
    "`Rscript bench/targets.R --write`, %s: each case in a fresh Rscript",
    "process, one after the other (load average before the cases: %s to",
    "%s). 2 cores, OpenBLAS 0.3.21 pthreads, R 4.2.2, prdcurve %s, float32",
    "tiles (the default). Data: N(0, I_d) against N(0.5 e_1, I_d). The",
    "\"float64 products\" are those of the pairs the engine needs, timed in",
    "the same process: R's `tcrossprod()` in blocks of 4,096 rows, and",
    "`dgemm`/`sgemm` called from C in the engine's tile shape."),
    format(Sys.Date()), f(min(loads)), f(max(loads)),
    as.character(utils::packageVersion("prdcurve"))),
  "",
  "| case (n per set, d) | command | seconds | reference | ratio | target | met |",
  "|---|---|---:|---|---|---|---|",
  rows,
  "",
  sprintf(paste(
    "Scaling in n (four curves, d = 256, split 0.5, default k; `large.R n",
    "256`): %s; fitted exponent %s over 2.5K-40K and %s over 10K-40K (the",
    "products alone are n^2; small cases are dominated by fixed costs)."),
    paste(sprintf("%sK %s s", f(ns / 1000, 1), f(secs, 1)), collapse = ", "),
    f(coef(fit)[2]), f(coef(fit_hi)[2])),
  ""
)
cat(sec, sep = "\n")
if (write) write_section(sec)
