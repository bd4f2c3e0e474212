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
#             engine (re-raised from the C engine), replicates, model
#   warnings: unused_argument, zero_radius, id_column, transposed, scale,
#             collapsed, deprecated, k_reduced (a default k lowered to fit),
#             convergence (k-means did not converge), family_disagreement
#             (two curve families far apart: the lower is the tighter)
#   messages: dropped_columns (non-numeric columns ignored)

#' Raise a classed prdcurve error
#' @param message cli message (glue-interpolated in the caller's frame).
#' @param kind the specific kind: the class is `prdcurve_error_<kind>`.
#' @noRd
prd_abort <- function(message, kind = "input", ..., call = rlang::caller_env(),
                      .envir = parent.frame()) {
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

#' Send a classed message (prdcurve_message_<kind>)
#' @noRd
prd_inform <- function(message, kind, ..., .envir = parent.frame()) {
  cli::cli_inform(message,
                  class = c(paste0("prdcurve_message_", kind), "prdcurve_message"),
                  ..., .envir = .envir)
}
