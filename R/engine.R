# Thin wrappers over the C engine (src/tiles.c, src/neighbours.c,
# src/envelope.c). Inputs are already validated (validate.R).

engine_flags <- c(own = 1L, query_x = 2L, query_y = 4L, query_all = 8L,
                  knn = 16L, coverage = 32L, ipr = 64L, kde = 128L,
                  ppr = 256L)

show_progress <- function() {
  interactive() && isTRUE(getOption("prdcurve.progress", TRUE))
}

engine_call <- function(real, generated, s, ks, what, own, fixed, closed) {
  eval <- s$eval
  if (is.list(eval)) eval <- lapply(eval, as.integer)
  .Call(ffi_neighbours, real, generated, lapply(s$fit, as.integer), eval,
        as.integer(ks), as.integer(sum(engine_flags[unique(what)])), own,
        as.double(fixed), isTRUE(closed), show_progress())
}

#' Neighbourhood quantities of the evaluation points, from the tile engine
#'
#' @param real,generated validated double matrices (either may have 0 rows
#'   if no radius is taken in it).
#' @param s a resolved split (resolve_split()): `fit` = list of fit rows of
#'   real and generated; `eval` = NULL (no split: the fit rows, with
#'   self-exclusion by index), a list of evaluation rows, or a double
#'   matrix of external query points.
#' @param ks increasing whole numbers (neighbour counts).
#' @param what names of engine_flags: "own" (own-set radii of fit points),
#'   "query_x", "query_y", "query_all" (radii of evaluation points in X_f,
#'   Y_f, X_f u Y_f), ball counts "knn", "coverage", "ipr", "kde", and
#'   "ppr" (sums of log(1 - tau)).
#' @param kde two radii (distances) for "kde", or list(k = ) to use the
#'   mean own k-NN distance of each fit set (Sykes et al. 2024, 2.4.2).
#' @param ppr list(k = , scale = ): radius R = scale * mean own k-NN
#'   distance of each fit set (Park & Kim 2023).
#' @return list of own_x, own_y (squared radii of fit rows, a column per
#'   k), query_x, query_y, query_all (squared radii of evaluation rows),
#'   knn_a, knn_b, coverage_a, coverage_b, ipr_a, ipr_b (counts, a column
#'   per k), kde_a, kde_b (counts), ppr_a, ppr_b (log sums over X_f, Y_f),
#'   kde_radius, ppr_radius (distances). Evaluation rows of real come first,
#'   then those of generated. Unrequested parts are NULL.
#'
#' Radii that depend on the own radii (estimated kde bandwidths, ppr) need
#' those first: one radii-only sweep over fit x fit, then the evaluation
#' sweep over eval x fit. With a split the two cover disjoint pairs; without
#' one, this is the only case that visits a pair twice.
#' @noRd
engine_neighbours <- function(real, generated, s, ks, what, bandwidth = NULL,
                              bandwidth_k = NULL, ppr_k = NULL,
                              ppr_scale = NULL, closed = TRUE) {
  kde <- if (is.null(bandwidth)) list(k = bandwidth_k) else bandwidth
  ppr <- list(k = ppr_k, scale = ppr_scale)
  ks <- sort(unique(as.integer(ks)))
  fixed <- rep(NA_real_, 4)
  own <- NULL
  derived <- ("kde" %in% what && is.list(kde)) || "ppr" %in% what
  if (derived) {
    r <- engine_call(real, generated, s, ks, "own", NULL, fixed, closed)
    own <- list(r$own_x, r$own_y)
  }
  mean_dist <- function(r2, k) mean(sqrt(r2[, match(k, ks)]))
  if ("kde" %in% what) {
    fixed[1:2] <- if (is.list(kde)) {
      c(mean_dist(own[[1]], kde$k), mean_dist(own[[2]], kde$k))
    } else {
      rep_len(kde, 2)
    }
  }
  if ("ppr" %in% what) {
    fixed[3:4] <- ppr$scale * c(mean_dist(own[[1]], ppr$k),
                                mean_dist(own[[2]], ppr$k))
  }
  rest <- if (derived) setdiff(what, "own") else what
  out <- if (length(rest)) {
    engine_call(real, generated, s, ks, rest, own, fixed, closed)
  } else {
    list()
  }
  if (derived) {
    out$own_x <- own[[1]]
    out$own_y <- own[[2]]
  }
  out$kde_radius <- fixed[1:2]
  out$ppr_radius <- fixed[3:4]
  out
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
