# Reads R CMD check's log and fails unless it has 0 errors, 0 warnings and
# no note beyond CRAN's incoming-feasibility note about a new submission.
args <- commandArgs(trailingOnly = TRUE)
log <- readLines(args[1], warn = FALSE)
status <- grep("\\.\\.\\. (ERROR|WARNING|NOTE)$", log, value = TRUE)
ok <- grepl("CRAN incoming feasibility \\.\\.\\. NOTE$", status)
if (any(ok)) {
  i <- grep("CRAN incoming feasibility", log)
  block <- log[i:min(length(log), i + 12L)]
  end <- which(grepl("^\\* checking", block))[-1]
  block <- block[seq_len(if (length(end)) end[1] - 1L else length(block))]
  body <- trimws(block[-1])
  body <- body[nzchar(body)]
  allowed <- grepl("^(Maintainer:|New submission)", body)
  if (!all(allowed)) ok[ok] <- FALSE
}
bad <- status[!ok]
if (length(bad)) {
  cat("R CMD check is not clean:\n", paste0("  ", bad, "\n"), sep = "")
  quit(status = 1)
}
cat("R CMD check: 0 errors, 0 warnings, no notes beyond a new submission.\n")
