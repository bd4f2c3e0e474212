# Reads R CMD check's log and fails unless it has 0 errors, 0 warnings and
# no note beyond CRAN's incoming-feasibility note about a new submission.
args <- commandArgs(trailingOnly = TRUE)
log <- readLines(args[1], warn = FALSE)
# (a check that took long carries its time before the status:
# "... [12s/11s] NOTE")
status <- grep("\\.\\.\\. (\\[[^]]*\\] )?(ERROR|WARNING|NOTE)$", log,
               value = TRUE)

# the body of the check whose status line matches `pattern`
note_body <- function(pattern) {
  i <- grep(pattern, log)[1]
  block <- log[i:min(length(log), i + 12L)]
  end <- which(grepl("^\\* ", block))[-1]
  block <- block[seq_len(if (length(end)) end[1] - 1L else length(block))]
  body <- trimws(block[-1])
  body[nzchar(body)]
}
ok <- logical(length(status))
feasibility <- grepl("CRAN incoming feasibility \\.\\.\\. (\\[[^]]*\\] )?NOTE$",
                     status)
if (any(feasibility)) {
  body <- note_body("CRAN incoming feasibility")
  ok[feasibility] <- all(grepl("^(Maintainer:|New submission)", body))
}
# an optional suggested package absent on this machine (its tests and
# vignette parts are skipped): told, not a defect of the package
optional <- c("synthpop")
deps <- grepl("checking package dependencies \\.\\.\\. (\\[[^]]*\\] )?NOTE$", status)
if (any(deps)) {
  body <- note_body("checking package dependencies")
  absent <- regmatches(body, gregexpr("(?<=[\u2018'])[A-Za-z0-9.]+(?=[\u2019'])",
                                      body, perl = TRUE))
  absent <- unique(unlist(absent))
  only <- all(grepl("^Packages? suggested but not available for checking:", body))
  if (only && length(absent) && all(absent %in% optional)) {
    ok[deps] <- TRUE
    cat("Note: optional suggested package(s) absent here, their parts skipped: ",
        paste(absent, collapse = ", "), "\n", sep = "")
  }
}
bad <- status[!ok]
# the final "Status:" line must not count more problems than were found
# above (a status line of a form the pattern misses still fails here)
final <- grep("^Status: ", log, value = TRUE)
counted <- sum(as.integer(regmatches(final, gregexpr("[0-9]+(?= (ERROR|WARNING|NOTE))",
                                                     final, perl = TRUE))[[1]]))
if (!length(final) || (!identical(final[length(final)], "Status: OK") &&
                       counted != length(status))) {
  bad <- c(bad, if (length(final)) final[length(final)] else "no Status line")
}
if (length(bad)) {
  cat("R CMD check is not clean:\n", paste0("  ", bad, "\n"), sep = "")
  quit(status = 1)
}
cat("R CMD check: 0 errors, 0 warnings, no notes beyond a new submission.\n")
