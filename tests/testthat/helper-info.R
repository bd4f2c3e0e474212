# Settings of the curves of a prd_curve (from prd_curve_info()), in the
# shapes the tests compare: sizes as a named vector, split as a number (or
# "rows"), the kde bandwidths as a pair (NULL without kde).
curve_attr <- function(cv, what) {
  info <- prd_curve_info(cv)
  switch(what,
    sizes = c(fit_real = info$n_fit_real[1],
              fit_generated = info$n_fit_generated[1],
              eval_real = info$n_eval_real[1],
              eval_generated = info$n_eval_generated[1]),
    k = unique(info$k),
    split = {
      s <- unique(info$split)
      if (identical(s, "rows")) s else as.numeric(s)
    },
    closed = unique(info$closed),
    angles = unique(info$angles),
    bandwidth = {
      kde <- info[!is.na(info$bandwidth_real), , drop = FALSE]
      if (!nrow(kde)) NULL else
        c(real = kde$bandwidth_real[1], generated = kde$bandwidth_generated[1])
    },
    stop("unknown setting ", what)
  )
}

# The classes of every warning an expression raises (muffled).
warning_classes <- function(expr) {
  out <- character()
  withCallingHandlers(expr, warning = function(w) {
    out <<- c(out, class(w)[1])
    invokeRestart("muffleWarning")
  })
  out
}

# One further setting of the (first) curve of a prd_curve: details such as
# delta, std_error, clusters, runs, n_mc.
curve_detail <- function(cv, name) {
  prd_curve_info(cv)$details[[1]][[name]]
}

# The classed warnings that tiny, discrete or duplicated test data raise on
# purpose (the checks of the user's data; their own tests are in
# test-validate-traps.R and test-validate.R): muffled where a test compares
# numbers on such data, so that any other warning still shows.
trap_classes <- paste0("prdcurve_warning_",
                       c("copies", "duplicates", "k_large", "small_sample",
                         "unequal_sizes", "family_disagreement", "bandwidth",
                         "grid_columns"))
# (and the note that the entropy functions subsampled unequal sets, which
# test-validate-traps.R asserts)
quiet_traps <- function(expr) {
  withCallingHandlers(expr, warning = function(w) {
    if (inherits(w, trap_classes)) invokeRestart("muffleWarning")
  }, message = function(m) {
    if (inherits(m, "prdcurve_message_subsampled")) {
      invokeRestart("muffleMessage")
    }
  })
}
