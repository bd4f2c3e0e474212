# Reading embeddings: a float32 .npy file of n x d (default 50,000 x 2,048,
# 400 MB) read by prd_read()'s reader into one double matrix, against
#   - readBin() of the file's bytes (the floor: the bytes into memory),
#   - readBin(size = 4) of its values into a double vector (no transpose),
#   - readBin(size = 4) + matrix(byrow = TRUE), the plain-R reader (the
#     transpose is a second full copy),
#   - data.table::fread() of the same values written as CSV.
# Medians of 3 timings each (warm page cache: every file is read once
# before it is timed), in one R process, and the peak R memory of each
# read (gc()'s "max used" above the baseline). Target (issue 18): the .npy
# read in at most 1.5 times the readBin() of its bytes.
#
# Run from the package root with the package installed (or
# pkgload::load_all()): Rscript bench/read.R [n] [d]
# Writes the section "Reading .npy files" of bench/results.md.

args <- as.numeric(commandArgs(trailingOnly = TRUE))
n <- if (length(args) >= 1) args[1] else 50000
d <- if (length(args) >= 2) args[2] else 2048
reps <- 3L

if (requireNamespace("pkgload", quietly = TRUE) && file.exists("DESCRIPTION")) {
  pkgload::load_all(quiet = TRUE)
} else {
  library(prdcurve)
}
source("bench/common.R")
source("tests/testthat/helper-npy.R")

dir <- tempfile("bench-read")
dir.create(dir)
on.exit(unlink(dir, recursive = TRUE), add = TRUE)
npy <- file.path(dir, "x.npy")
csv <- file.path(dir, "x.csv")

# the .npy file, written in blocks of rows (C order, little-endian float32)
set.seed(1)
write_npy(NULL, npy, dtype = "<f4", payload = raw(0), shape = c(n, d))
con <- file(npy, "ab")
block <- 2000
for (i0 in seq(1, n, by = block)) {
  m <- min(block, n - i0 + 1)
  writeBin(stats::rnorm(m * d), con, size = 4L, endian = "little")
}
close(con)
header_bytes <- file.size(npy) - 4 * n * d

# medians of `reps` timed runs (elapsed and CPU = user + system seconds)
# after one warm-up run (page cache, first touch); the peak R memory of
# the runs (gc()'s "max used" above what was in use before, MiB)
time_med <- function(f, warm = TRUE) {
  if (warm) invisible(f())
  r <- vapply(seq_len(reps), function(i) {
    invisible(gc(reset = TRUE))
    base <- sum(gc()[, 2])
    st <- system.time(x <- f())
    rm(x)
    c(elapsed = st[["elapsed"]], cpu = st[["user.self"]] + st[["sys.self"]],
      peak = sum(gc()[, 6]) - base)
  }, numeric(3))
  c(apply(r[1:2, , drop = FALSE], 1, stats::median), peak = max(r[3, ]))
}

readers <- list(
  "readBin() of the bytes (raw)" = function() {
    readBin(npy, "raw", file.size(npy))
  },
  "readBin(size = 4) into a double vector" = function() {
    con <- file(npy, "rb")
    on.exit(close(con))
    readBin(con, "raw", header_bytes)
    readBin(con, "double", n * d, size = 4L, endian = "little")
  },
  "readBin(size = 4) + matrix(byrow = TRUE)" = function() {
    con <- file(npy, "rb")
    on.exit(close(con))
    readBin(con, "raw", header_bytes)
    matrix(readBin(con, "double", n * d, size = 4L, endian = "little"),
           nrow = n, ncol = d, byrow = TRUE)
  },
  ".npy reader (one double matrix; the command line)" = function() {
    prdcurve:::read_table_file(npy)
  },
  "prd_read() of the .npy (a tibble of columns)" = function() {
    prd_read(npy)
  }
)

check <- prdcurve:::read_table_file(npy)
stopifnot(is.matrix(check), identical(dim(check), as.integer(c(n, d))),
          is.double(check))
ref <- readers[["readBin(size = 4) + matrix(byrow = TRUE)"]]()
stopifnot(identical(unname(check), ref))
rm(ref)

# the same values as CSV (fwrite writes each double so that it reads back
# exactly)
data.table::fwrite(data.table::as.data.table(check), csv, nThread = prd_threads())
rm(check)
invisible(gc())
readers[["data.table::fread() of the CSV"]] <- function() {
  data.table::fread(csv, nThread = prd_threads(), showProgress = FALSE)
}

res <- data.frame(reader = names(readers), seconds = NA_real_,
                  cpu = NA_real_, peak_mib = NA_real_,
                  stringsAsFactors = FALSE)
for (i in seq_along(readers)) {
  # the CSV was just written: it is in the page cache already
  t <- time_med(readers[[i]], warm = !grepl("fread", names(readers)[i]))
  res$seconds[i] <- t[["elapsed"]]
  res$cpu[i] <- t[["cpu"]]
  res$peak_mib[i] <- t[["peak"]]
  invisible(gc())
}
res$ratio <- res$seconds / res$seconds[1]
res$cpu_ratio <- res$cpu / res$cpu[1]
sizes <- c(npy = file.size(npy), csv = file.size(csv))
print(res, digits = 3, row.names = FALSE)
cat(sprintf("file sizes: .npy %.0f MB, CSV %.0f MB\n", sizes[["npy"]] / 1e6,
            sizes[["csv"]] / 1e6))
is_npy <- res$reader == ".npy reader (one double matrix; the command line)"
target <- res$ratio[is_npy]
cat(sprintf("target: .npy read / readBin of its bytes = %.2f elapsed, %.2f CPU (at most 1.5)\n",
            target, res$cpu_ratio[is_npy]))
load <- tryCatch(paste(strsplit(readLines("/proc/loadavg"), " ")[[1]][1:3],
                       collapse = ", "), error = function(e) "unknown")

fmt <- function(x, d = 2) formatC(x, format = "f", digits = d, big.mark = ",")
sec <- c(
  "# Reading .npy files",
  "",
  sprintf(paste0("`bench/read.R`, %s: a %s x %s float32 `.npy` file (%s MB) ",
                 "and the same values as CSV (%s MB, written by `fwrite`). ",
                 "Medians of %d runs in one process, warm page cache, %d ",
                 "threads for fread; peak = R's `gc()` \"max used\" above ",
                 "the baseline. Timings on a shared 2-core machine are ",
                 "noisy; the ratios are measured in the same run."),
          format(Sys.Date()), format(n, big.mark = ","),
          format(d, big.mark = ","), fmt(sizes[["npy"]] / 1e6, 0),
          fmt(sizes[["csv"]] / 1e6, 0), reps, prd_threads()),
  "",
  sprintf("Load average (1, 5, 15 min) at the end: %s (other jobs were running).", load),
  "",
  "| reader | elapsed s | CPU s | elapsed / readBin of the bytes | CPU / readBin of the bytes | peak MiB |",
  "|---|---:|---:|---:|---:|---:|",
  sprintf("| %s | %s | %s | %s | %s | %s |", res$reader, fmt(res$seconds, 2),
          fmt(res$cpu, 2), fmt(res$ratio, 2), fmt(res$cpu_ratio, 2),
          fmt(res$peak_mib, 0)),
  "",
  sprintf(paste0("Target (issue 18): the `.npy` read in at most 1.5 times ",
                 "`readBin()` of its bytes: %s elapsed, %s CPU. The reader ",
                 "allocates the result once (n x d doubles, %s MiB; the ",
                 "peak is that and a 4 MiB block) and converts the bytes ",
                 "into it in blocks of rows, each thread writing its own ",
                 "columns (`src/npy.c`). On Linux it asks for transparent ",
                 "huge pages for the result (`madvise`): first-touch page ",
                 "faults of 4 KiB pages cost more than the conversion on ",
                 "this virtual machine (without the hint, 20,000 x 2,048: ",
                 "2.2 s CPU against 1.0 s for the raw bytes)."),
          fmt(target, 2), fmt(res$cpu_ratio[is_npy], 2),
          fmt(8 * n * d / 2^20, 0))
)
if (!interactive() && identical(c(n, d), c(50000, 2048))) write_section(sec)
writeLines(sec)
