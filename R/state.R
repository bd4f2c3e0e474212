# The state of a running call that deeper functions read. Not options: a
# user has nothing to set here.
# * cli: NULL outside prd_cli(); TRUE inside it, where messages name the
#   command line's flags; "array" once its real set came from an array
#   (whose columns V1, V2, ... the command line selects by number).
# * in_replicates: TRUE while replicates() runs the estimators on
#   half-samples (no progress bars or step messages of their own).
# * in_splits: TRUE while repeated_curves() runs several splits (its bar
#   over the splits stands for the fits' step messages).
# * mixture_fit_rows: the fit rows per set the mixture family's EM runs on
#   at most (mixture_cells()); mixture_default_fit_rows in the default.
# * real_draws: while replicates() runs, where it records the real rows
#   of every half-sample (their fingerprint pairs separate calls).
# * progress: TRUE where the command line runs on a terminal (progress
#   bars and step messages as in an interactive session: show_progress()).
# * memory_held: TRUE while an outer call keeps the C library's freed
#   memory (local_memory_hold()).
run_state <- new.env(parent = emptyenv())
run_state$cli <- NULL
run_state$progress <- FALSE
run_state$in_replicates <- FALSE
run_state$in_splits <- FALSE
run_state$mixture_fit_rows <- Inf
run_state$real_draws <- NULL
run_state$memory_held <- FALSE

#' Set run_state values until `.local_envir` ends
#' @noRd
local_run_state <- function(..., .local_envir = parent.frame()) {
  local_env_values(run_state, list(...), .local_envir)
}

#' Set the named values `new` in the environment `env` until `envir`
#' ends (names must exist in `env`); returns the old values invisibly.
#' @noRd
local_env_values <- function(env, new, envir) {
  if (!length(new)) return(invisible(list()))
  stopifnot(all(names(new) %in% ls(env)))
  old <- mget(names(new), envir = env)
  for (nm in names(new)) assign(nm, new[[nm]], envir = env)
  withr::defer(for (nm in names(old)) assign(nm, old[[nm]], envir = env),
               envir = envir)
  invisible(old)
}
