# Benchmark of the command line against the in-R computation.
#
# Usage (from the package root, with prdcurve installed):
#   Rscript bench/cli.R                 # writes its section of bench/results.md
#   BENCH_READ_CSV=0 Rscript bench/cli.R   # skip utils::read.csv (about 100 s)
#
# Two 5,000 x 2,048 CSV files of Gaussian data (real N(0, I), generated
# N(0.5 e_1, I), written by data.table::fwrite, about 190 MB each) go to
# tempdir(). Timed, for each method set (the CLI default, all four methods,
# and "knn" alone):
#   (a) the command line end to end: `Rscript <installed prdcurve script>
#       real.csv generated.csv --method M --k K --split 0.5 --seed 1 --out ...`
#       run with system2() (R start-up, reading both files, the curves, the
#       CSV and PNG outputs);
#   (b) prd_curve() in this R session on the same matrices, with the same
#       method, k, split and seed;
# and the ratio (a) / (b) (target: at most 1.5); the same with the data in
# float64 .npy files. Also utils::read.csv() against
# prd_read() on one of the files. Each timing is the best of `BENCH_REPS`
# runs (default 3), CLI and in-R runs interleaved. The section "Command line" of
# bench/results.md is replaced (or appended); the other sections are kept
# (write_section() in bench/common.R).

suppressPackageStartupMessages(library(prdcurve))
source("bench/common.R")
reps <- as.integer(Sys.getenv("BENCH_REPS", "3"))
n <- 5000L
d <- 2048L
k <- 50L
split <- 0.5
rscript <- file.path(R.home("bin"), "Rscript")
script <- system.file("scripts", "prdcurve", package = "prdcurve")
if (!nzchar(script)) stop("install prdcurve first: the prdcurve script is missing")

dir <- tempfile("prdbench")
dir.create(dir)
on.exit(unlink(dir, recursive = TRUE), add = TRUE)
set.seed(1)
real <- matrix(stats::rnorm(n * d), n, d)
generated <- matrix(stats::rnorm(n * d), n, d)
generated[, 1] <- generated[, 1] + 0.5
f_real <- file.path(dir, "real.csv")
f_gen <- file.path(dir, "generated.csv")
data.table::fwrite(as.data.frame(real), f_real)
data.table::fwrite(as.data.frame(generated), f_gen)
# what the CLI computes on: the values as parsed from the files
real <- as.matrix(prd_read(f_real))
generated <- as.matrix(prd_read(f_gen))
mb <- file.size(f_real) / 1e6
message(sprintf("Wrote two %d x %d CSV files of %.0f MB each", n, d, mb))

# the same values as float64 .npy files (written byte by byte, as
# numpy.save() does)
source("tests/testthat/helper-npy.R")
has_npy <- TRUE
f_real_npy <- file.path(dir, "real.npy")
f_gen_npy <- file.path(dir, "generated.npy")
write_npy(real, f_real_npy, dtype = "<f8")
write_npy(generated, f_gen_npy, dtype = "<f8")

best <- function(f) min(vapply(seq_len(reps), function(i) f(), numeric(1)))

time_cli <- function(method, files = c(f_real, f_gen)) {
  out <- file.path(dir, "out")
  err <- file.path(dir, "stderr.txt")
  el <- system.time(
    status <- system2(rscript, c(script, shQuote(files),
                                 "--method", method, "--k", k,
                                 "--split", split, "--seed", 1,
                                 "--out", shQuote(out)),
                      stdout = FALSE, stderr = err)
  )[["elapsed"]]
  log <- readLines(err)
  if (status != 0L) stop("the CLI failed:\n", paste(log, collapse = "\n"))
  num <- function(re) {
    sum(as.numeric(sub(re, "\\1", grep(re, log, value = TRUE))))
  }
  c(total = el, read = num(".*Read .* in ([0-9.]+) s\\.$"),
    curves = num(".*Computed in ([0-9.]+) s\\.$"))
}

time_r <- function(method) {
  m <- strsplit(method, ",", fixed = TRUE)[[1]]
  system.time({
    set.seed(1)
    prd_curve(real, generated, method = m, k = k, split = split)
  })[["elapsed"]]
}

load_start <- readLines("/proc/loadavg")
cases <- list(list(method = "knn,kde,ipr,coverage", input = "csv"),
              list(method = "knn", input = "csv"))
if (has_npy) {
  cases <- c(cases, list(list(method = "knn,kde,ipr,coverage", input = "npy"),
                         list(method = "knn", input = "npy")))
}
rows <- list()
for (cs in cases) {
  method <- cs$method
  files <- if (cs$input == "csv") c(f_real, f_gen) else
    c(f_real_npy, f_gen_npy)
  invisible(time_r(method))  # warm-up (BLAS threads, page faults)
  # CLI and in-R runs interleaved, so that both see the same machine load
  runs <- list()
  r_runs <- numeric()
  for (i in seq_len(reps)) {
    runs[[i]] <- time_cli(method, files)
    r_runs[i] <- time_r(method)
  }
  cli <- runs[[which.min(vapply(runs, `[[`, numeric(1), "total"))]]
  r <- min(r_runs)
  rows[[length(rows) + 1L]] <- data.frame(
    method = if (grepl(",", method)) "all four (default)" else method,
    input = paste0(".", cs$input),
    cli_s = round(cli[["total"]], 2), read_s = round(cli[["read"]], 2),
    curves_s = round(cli[["curves"]], 2),
    other_s = round(cli[["total"]] - cli[["read"]] - cli[["curves"]], 2),
    r_s = round(r, 2), ratio = round(cli[["total"]] / r, 2)
  )
  message(sprintf("%s, %s: CLI %.2f s (read %.2f, curves %.2f), prd_curve() %.2f s, ratio %.2f",
                  method, cs$input, cli[["total"]], cli[["read"]],
                  cli[["curves"]], r, cli[["total"]] / r))
}
load_end <- readLines("/proc/loadavg")
tab <- do.call(rbind, rows)
names(tab) <- c("methods", "input", "CLI s", "of which reading s", "of which curves s",
                "of which other s", "prd_curve() s", "ratio")

t_fread <- best(function() system.time(prd_read(f_real))[["elapsed"]])
t_readcsv <- if (identical(Sys.getenv("BENCH_READ_CSV"), "0")) NA else
  system.time(utils::read.csv(f_real))[["elapsed"]]
read_tab <- data.frame(
  reader = c("utils::read.csv()", "prd_read() (data.table::fread)"),
  seconds = round(c(t_readcsv, t_fread), 2),
  speedup = c(1, round(t_readcsv / t_fread, 1))
)

si <- utils::sessionInfo()
section <- c(
  "# Command line (bench/cli.R)",
  "",
  sprintf("Two %s x %s CSV files of Gaussian data (real N(0, I), generated N(0.5 e_1, I); %.0f MB each, written by `data.table::fwrite()`). `CLI s`: `Rscript <prdcurve script> real.csv generated.csv --method M --k %d --split %s --seed 1 --out ...` run with `system2()`, end to end (R start-up, reading both files, the curves, writing the CSV and the PNG); the reading and curve times are those the CLI reports on standard error, `other` is the rest (start-up, packages, outputs). `prd_curve() s`: the same call in R on the same matrices (same method, k, split and seed). `ratio` = CLI / prd_curve() (target: at most 1.5). Best of %d runs, the CLI and in-R runs interleaved. `.npy` rows: the same data as float64 `.npy` files, to show what reading text costs. %s; data.table %s; %d cores; prd_threads() = %d. Run on %s; load average (1, 5, 15 min) %s at the start, %s at the end (other jobs were running on the machine when it is above 0).",
          format(n, big.mark = ","), format(d, big.mark = ","), mb, k,
          format(split), reps, si$R.version$version.string,
          utils::packageVersion("data.table"), parallel::detectCores(),
          prd_threads(), format(Sys.Date()),
          paste(strsplit(load_start, " ")[[1]][1:3], collapse = ", "),
          paste(strsplit(load_end, " ")[[1]][1:3], collapse = ", ")),
  "",
  knitr::kable(tab, format = "pipe", align = "r"),
  "",
  sprintf("Reading one of the files (%.0f MB) into R:", mb),
  "",
  knitr::kable(read_tab, format = "pipe", align = "r"),
  ""
)
write_section(section)
print(knitr::kable(tab, format = "simple"))
print(knitr::kable(read_tab, format = "simple"))
cat("\nWritten: the command-line section of", res_file, "\n")
