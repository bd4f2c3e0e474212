# tools/sanitize.sh runs the suite a second time, against a build with
# AddressSanitizer and UndefinedBehaviorSanitizer, for the package's C code
# (PRDCURVE_SANITIZE=1), where every allocation of R goes through the
# sanitizer's allocator and R-level work runs 2-3 times slower. Files and
# tests whose subject is R-level work (figures, the R Markdown report, the
# command line's wording, parsing, files and scripts, the validity suite's
# truths, the comparisons with synthpop's glm()) reach the C code only by
# paths other files cover, on small data: they skip there, and R CMD check
# runs them.
skip_if_sanitizing <- function() {
  skip_if(nzchar(Sys.getenv("PRDCURVE_SANITIZE")),
          "R-level work: R CMD check runs it, the sanitized run is for the C code")
}
