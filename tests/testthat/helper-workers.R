# The tests under a multisession future plan start two R worker processes:
# skipped on CRAN, run by `make check` (PRDCURVE_TEST_WORKERS=true, set in the
# Makefile) and wherever NOT_CRAN is true.
skip_unless_workers <- function() {
  if (!identical(Sys.getenv("PRDCURVE_TEST_WORKERS"), "true")) skip_on_cran()
  skip_if_not_installed("future")
}
