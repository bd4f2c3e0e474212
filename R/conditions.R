# Conditions raised by prdcurve. Every error has the classes
# c("prdcurve_error_<kind>", "prdcurve_error", "rlang_error", ...), every
# warning c("prdcurve_warning_<kind>", "prdcurve_warning", ...), so callers
# can catch them by class (tryCatch(prdcurve_error_k_too_large = ...)) and
# tests check the class, not the wording (vctrs' stop_vctrs() pattern).
#
# Kinds in use:
#   errors:   input (a malformed argument), k_too_large, columns (sample sets
#             whose columns do not match), split, curve (not a valid PR
#             curve), sampler (a user sampler or density misbehaved),
#             engine (re-raised from the C engine), replicates, model,
#             output (the command line can't write where --out says),
#             unmatched (prd_compare(): a model without curves of the
#             baseline's method and k), unpaired (prd_compare(): curves
#             of other real rows than the baseline's, R/compare-pairing.R),
#             metrics (prd_bind(): a metrics table without its columns,
#             a model, metric and k twice, a setting that differs),
#             internal (a state the code should never reach: a bug)
#   warnings: unused_argument, zero_radius, id_column, transposed, scale,
#             collapsed, deprecated, k_reduced (a default k lowered to fit),
#             convergence (k-means did not converge, a pMSE fit diverged),
#             family_disagreement
#             (two curve families far apart: the lower is the tighter),
#             bandwidth (a given kde bandwidth whose balls see nothing),
#             category_levels (a category of one set only, R/encode.R),
#             unmatched (prd_compare() leaves out curves without a
#             counterpart),
#             garbled_categories (a real category an identifier in a model)
#   messages: dropped_columns (columns neither numeric nor categorical,
#             identifiers and model labels, ignored), categorical_columns
#             (categorical columns taken as features beside numeric ones),
#             missing_categories, missing_values and missing_codes (NA
#             read as a category, or beside numbers as an indicator, and
#             so synthpop's missing codes, R/encode.R), flattened_array (a
#             .npy array of more than two dimensions read as rows)

#' Raise a classed prdcurve error
#' @param message cli message (glue-interpolated in the caller's frame).
#' @param kind the specific kind: the class is `prdcurve_error_<kind>`.
#' @noRd
prd_abort <- function(message, kind = "input", ..., call = rlang::caller_env(),
                      .envir = parent.frame()) {
  call <- user_frame(call)
  cli::cli_abort(message, class = c(paste0("prdcurve_error_", kind), "prdcurve_error"),
                 ..., call = call, .envir = .envir)
}

#' Raise a classed prdcurve warning
#' @noRd
prd_warn <- function(message, kind, ..., .envir = parent.frame()) {
  cli::cli_warn(message,
                class = c(paste0("prdcurve_warning_", kind), "prdcurve_warning"),
                ..., .envir = .envir)
}

#' Warn that `arguments` (R names) are ignored because only `by` (text,
#' e.g. cli::format_inline("the {.val kde} method")) reads them: class
#' prdcurve_warning_unused_argument, field `arguments`
#' @noRd
warn_unused <- function(arguments, by) {
  prd_warn("{.arg {arguments}} {?is/are} used by {by} only; {cli::qty(length(arguments))}{?it is/they are} ignored here.",
           "unused_argument", arguments = arguments, .envir = environment())
}

#' Send a classed message (prdcurve_message_<kind>)
#' @noRd
prd_inform <- function(message, kind, ..., .envir = parent.frame()) {
  cli::cli_inform(message,
                  class = c(paste0("prdcurve_message_", kind), "prdcurve_message"),
                  ..., .envir = .envir)
}

#' Numbers for messages, in plain notation: "0", "0.5", "-0.1",
#' "1,000,000", "12,345.7" (whole numbers exactly, others to `digits`
#' significant digits); scientific only beyond what plain notation can
#' show (|x| >= 1e15 or below 1e-4), written "2.36e200", "1e-20". NA, NaN
#' and infinities as R prints them.
#' @noRd
format_number <- function(x, digits = 6) {
  x <- as.double(x)
  vapply(x, function(v) {
    if (!is.finite(v)) return(format(v))
    if (v == 0) return("0")
    if (abs(v) < 1e15 && v == round(v)) {
      # whole numbers exactly: 2,147,483,647
      return(format(v, big.mark = ",", scientific = FALSE, trim = TRUE,
                    digits = 15))
    }
    if (abs(v) >= 1e-4 && abs(v) < 1e15) {
      return(format(signif(v, digits), big.mark = ",", scientific = FALSE,
                    trim = TRUE, digits = digits))
    }
    s <- formatC(v, digits = min(digits, 3), format = "g")
    sub("e\\+?(-?)0*([0-9])", "e\\1\\2", s)
  }, character(1), USE.NAMES = FALSE)
}

#' The frame an error is reported from: the caller's frame when it is an
#' exported function of the package, else the nearest exported function
#' that called it (so that a check run inside an internal closure or an
#' lapply() names the user's call, `prd_curve()`, not `FUN()`).
#' @noRd
user_frame <- function(call) {
  if (!is.environment(call)) return(call)
  frames <- sys.frames()
  pos <- which(vapply(frames, identical, logical(1), call))
  if (!length(pos)) return(call)
  exports <- getNamespaceExports(topenv())
  fn_name <- function(cl) {
    f <- cl[[1]]
    # do.call(prd_curve, args) calls the function itself, not its name
    if (is.function(f)) {
      hit <- Filter(function(e) identical(f, get0(e, envir = topenv())), exports)
      return(if (length(hit)) hit[[1]] else "")
    }
    if (is.call(f) && as.character(f[[1]]) %in% c("::", ":::")) f <- f[[3]]
    if (is.symbol(f)) as.character(f) else ""
  }
  calls <- sys.calls()
  for (j in rev(seq_len(pos[length(pos)]))) {
    if (fn_name(calls[[j]]) %in% exports) return(frames[[j]])
  }
  call
}
