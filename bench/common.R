# Helpers shared by the benchmark scripts; they source this file from the
# package root (`source("bench/common.R")`).

# Peak resident memory of this process in MiB (VmHWM, Linux).
vm_hwm_mib <- function() {
  st <- readLines("/proc/self/status")
  as.numeric(gsub("[^0-9]", "", grep("^VmHWM", st, value = TRUE))) / 1024
}

# Compile the C program `lines` with R's compiler, flags and BLAS (plus
# `flags`) and run it with `args`: its standard output as numbers, one
# vector per line; NULL when it does not compile (a BLAS without sgemm).
run_c_program <- function(lines, args, flags = "") {
  dir <- tempfile("cprog")
  dir.create(dir)
  on.exit(unlink(dir, recursive = TRUE), add = TRUE)
  src <- file.path(dir, "prog.c")
  exe <- file.path(dir, "prog")
  writeLines(lines, src)
  rcmd <- file.path(R.home("bin"), "R")
  cfg <- function(v) system2(rcmd, c("CMD", "config", v), stdout = TRUE)
  cmd <- paste(cfg("CC"), cfg("CFLAGS"), flags, "-o", exe, src,
               cfg("BLAS_LIBS"), cfg("FLIBS"))
  if (system(cmd, ignore.stdout = TRUE, ignore.stderr = TRUE) != 0) return(NULL)
  out <- system2(exe, as.character(args), stdout = TRUE)
  lapply(strsplit(out, " "), as.numeric)
}

# The benchmark data: real N(0, I_d) and generated N(0.5 e_1, I_d), n rows
# each.
bench_data <- function(n, d, seed = 1) {
  set.seed(seed)
  real <- matrix(stats::rnorm(n * d), n, d)
  generated <- matrix(stats::rnorm(n * d), n, d)
  generated[, 1] <- generated[, 1] + 0.5
  list(real = real, generated = generated)
}

# Write `sec` (a character vector of lines whose first line is its heading)
# into `path`: it replaces the section with the same heading, up to the next
# heading of the same or a higher level, or is appended. Every other section
# is kept.
write_section <- function(sec, path = "bench/results.md") {
  old <- if (file.exists(path)) readLines(path) else character()
  level <- nchar(sub("^(#+).*", "\\1", sec[1]))
  start <- which(old == sec[1])
  if (length(start)) {
    nxt <- grep(sprintf("^#{1,%d} ", level), old)
    nxt <- nxt[nxt > start[1]]
    end <- if (length(nxt)) nxt[1] - 1L else length(old)
    # a blank line before the next section
    gap <- if (end < length(old) && nzchar(sec[length(sec)])) "" else NULL
    new <- c(old[seq_len(start[1] - 1L)], sec, gap,
             if (end < length(old)) old[(end + 1L):length(old)])
  } else {
    new <- c(old, if (length(old) && nzchar(old[length(old)])) "", sec)
  }
  writeLines(new, path)
  invisible(path)
}

# The command-line options of a benchmark script: opt("draws", 200) is the
# value after --draws (a string) or the default; flag("write") is TRUE when
# --write is given.
opt <- function(name, default, args = commandArgs(trailingOnly = TRUE)) {
  i <- match(paste0("--", name), args)
  if (is.na(i)) default else args[i + 1L]
}
flag <- function(name, args = commandArgs(trailingOnly = TRUE)) {
  paste0("--", name) %in% args
}

# Run `Rscript script ...` in a fresh process and return the numbers of
# each of its "RESULT ..." lines (a list of numeric vectors; non-numeric
# fields, such as the precision, become NA). Used by the target runners
# (bench/targets.R, bench/targets-engine.R).
bench_results <- function(script, ...) {
  rscript <- file.path(R.home("bin"), "Rscript")
  out <- system2(rscript, c(script, ...), stdout = TRUE, stderr = FALSE)
  line <- grep("^RESULT ", out, value = TRUE)
  if (!length(line)) stop("no RESULT line from ", script, " ", paste(...))
  lapply(strsplit(sub("^RESULT ", "", line), " +"), function(v)
    suppressWarnings(as.numeric(v)))
}

# The 1-minute load average, and numbers formatted for the tables.
load1 <- function() as.numeric(strsplit(readLines("/proc/loadavg"), " ")[[1]][1])
fmt_num <- function(x, digits = 2) formatC(x, format = "f", digits = digits,
                                          big.mark = ",")

# The package for a benchmark script: with "--installed" among `args` the
# installed one (its internal functions copied into `env`, so the script
# reads as under load_all()), else pkgload::load_all(), whose C code is
# compiled without optimisation (time with --installed). Returns the
# package's namespace.
bench_package <- function(args, env = parent.frame()) {
  if ("--installed" %in% args) {
    suppressPackageStartupMessages(library(prdcurve))
    ns <- asNamespace("prdcurve")
    for (nm in ls(ns, all.names = TRUE)) assign(nm, get(nm, envir = ns), envir = env)
  } else {
    suppressPackageStartupMessages(pkgload::load_all(quiet = TRUE))
    ns <- asNamespace("prdcurve")
  }
  invisible(ns)
}

# Keep what every call of the default's choice (tightest_envelope() in the
# namespace `ns`) sees, reduced to the families' envelopes: in the
# environment `saved`, `last` (the latest call) and `calls` (every call
# since saved$calls was last emptied), each list(e = the envelopes on both
# halves of the evaluation rows, full = on every row, lambda, hr, hg = the
# halves, nr, ng = their sizes). Returns the package's own
# tightest_envelope(), to choose again from kept envelopes.
keep_envelopes <- function(ns, saved) {
  choose <- ns$tightest_envelope
  unlockBinding("tightest_envelope", ns)
  assign("tightest_envelope", function(envs, halves_real, halves_gen, lambda, ...) {
    e <- lapply(1:2, function(h) {
      lapply(envs, function(f) f(halves_real[[h]], halves_gen[[h]]))
    })
    saved$last <- list(e = e, full = lapply(envs, function(f) f()), envs = envs,
                       lambda = lambda, hr = halves_real, hg = halves_gen,
                       nr = lengths(halves_real), ng = lengths(halves_gen))
    saved$calls[[length(saved$calls) + 1L]] <- saved$last
    choose(envs, halves_real, halves_gen, lambda, ...)
  }, envir = ns)
  choose
}
