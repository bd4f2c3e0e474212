# Thin wrappers over the C engine (src/tiles.c, src/neighbours.c,
# src/envelope.c). Inputs are already validated (validate.R).

engine_flags <- c(own = 1L, query = 2L, knn = 4L, coverage = 8L, ipr = 16L,
                  kde = 32L)

show_progress <- function() {
  interactive() && isTRUE(getOption("prdcurve.progress", TRUE))
}

#' One sweep of the distance engine
#'
#' @param real,generated validated double matrices.
#' @param s a resolved split (resolve_split()).
#' @param ks increasing whole numbers.
#' @param what names of engine_flags: "own" (own-set radii of fit points),
#'   "query" (radii of evaluation points in X_f, Y_f, X_f u Y_f), and the
#'   ball counts "knn", "coverage", "ipr", "kde".
#' @param sigma NULL (kde bandwidths = mean own k-NN distance, first k) or
#'   two bandwidths (real, generated), as distances.
#' @return list of own_x, own_y (squared radii of fit rows, one column per
#'   k), query_x, query_y, query_all (squared radii of evaluation rows),
#'   knn_a, knn_b, coverage_a, coverage_b, ipr_a, ipr_b, kde_a, kde_b
#'   (counts per evaluation row: evaluation rows of real first, then of
#'   generated) and sigma2 (squared kde bandwidths). Unrequested parts NULL.
#' @noRd
engine_neighbours <- function(real, generated, s, ks, what, sigma = NULL,
                              closed = TRUE) {
  flags <- sum(engine_flags[unique(what)])
  sigma2 <- if (is.null(sigma)) c(NA_real_, NA_real_) else rep_len(sigma, 2)^2
  .Call(ffi_neighbours, real, generated,
        lapply(s$fit, as.integer),
        if (is.null(s$eval)) NULL else lapply(s$eval, as.integer),
        as.integer(ks), as.integer(flags), as.double(sigma2),
        isTRUE(closed), show_progress())
}

#' Lower envelope of the classifier family (SPEC.md section 2)
#' @param s_real,s_gen scores of the evaluation points (low = real).
#' @param extra matrix of extra (fpr, fnr) pairs.
#' @param lambda increasing finite positive values.
#' @noRd
engine_envelope <- function(s_real, s_gen, extra, lambda) {
  extra <- matrix(as.double(extra), ncol = 2L)
  .Call(ffi_envelope, as.double(s_real), as.double(s_gen), extra,
        as.double(lambda))
}
