# The sets of prd_curve() in a canonical row order and a safe scale,
# before any random draw and any moment. Every random assignment of a curve
# (the fit/evaluation split, the cross-fitting folds, the halves of
# "tightest", the inner folds of "stacked", the half-samples of the
# replicates) is drawn with R's RNG over row positions; drawn over the rows
# in an order fixed by their values, the same seed gives the same
# assignment of values whatever order the rows came in, so a permutation
# of the rows of either set gives the identical curve. The order is
# lexicographic over the columns (no random numbers: the user's stream is
# untouched). A set already in that order is not copied.
#
# Values far from 1 are multiplied by one power of two common to every set
# of the call (exact in binary floating point, so every distance, count,
# quantile and score keeps its order and the curves are unchanged), so
# that the fitted families' fourth moments (sums of |x|^4 in the
# Ledoit-Wolf shrinkage) neither overflow nor underflow for any value the
# input check accepts.

#' The largest magnitude at which prd_curve() leaves the values as given,
#' and the smallest (as powers of two); beyond either, every set is
#' multiplied by 2^-e, e the exponent of the largest magnitude, so that it
#' lies in [1, 2). Fourth powers of 2^64 times d^2 n stay far below the
#' double range (about 2^1024).
#' @noRd
curve_scale_bits <- 64L

#' The canonical order of the rows of a double matrix `x`: lexicographic,
#' by the first column, ties by the second, and so on (each column read
#' only for the rows still tied). An increasing map of any column, and so
#' `standardize` and the common scale, leaves it unchanged. Equal rows
#' stay in their given order (the order of identical rows changes no
#' result).
#' @return an integer permutation o: x[o, ] is in canonical order.
#' @noRd
canonical_order <- function(x) {
  if (!is.double(x)) storage.mode(x) <- "double"
  n <- nrow(x)
  o <- order(x[, 1L], method = "radix")
  if (n < 2L) return(o)
  v <- x[o, 1L]
  tie <- v[-1L] == v[-n] # row i of the order tied with row i + 1
  j <- 1L
  while (any(tie) && j < ncol(x)) {
    j <- j + 1L
    # the runs of tied rows (contiguous in the order), ordered within each
    # run by column j
    run <- cumsum(c(TRUE, !tie))
    pos <- which(run %in% run[c(tie, FALSE)])
    r <- run[pos]
    col <- x[o[pos], j]
    oo <- order(r, col, method = "radix")
    o[pos] <- o[pos][oo]
    r <- r[oo]
    col <- col[oo]
    k <- length(pos)
    tie <- logical(n - 1L)
    tie[pos[-k][r[-1L] == r[-k] & col[-1L] == col[-k]]] <- TRUE
  }
  o
}

#' The exponent e of the common scale 2^-e of a call's sets: 0 (values as
#' given) when the largest magnitude `big` lies within
#' 2^+-curve_scale_bits, else that of `big` (big 2^-e in [1, 2)).
#' @noRd
curve_scale_exponent <- function(big) {
  if (!(big > 0) || !is.finite(big)) return(0L)
  if (big < 2^curve_scale_bits && big >= 2^-curve_scale_bits) return(0L)
  as.integer(floor(log2(big)))
}

#' prepare_samples()'s sets in canonical row order (canonical_order()) and
#' on a common safe scale (curve_scale_exponent()); each matrix keeps its
#' attribute "ids" (reordered). Also returns each set's order (`order`: a
#' list real, generated = list per model; NULL where a set kept its order)
#' and the scale factor `scale` (1: values as given), which the caller
#' applies to lengths given in the data's units (the kde `bandwidth`).
#' @noRd
canonical_sets <- function(sets) {
  mats <- c(list(sets$real), sets$generated)
  # the largest magnitude of each set (one threaded pass, as the input
  # check's)
  big <- max(vapply(mats, function(m) {
    if (!is.double(m)) storage.mode(m) <- "double"
    .Call(ffi_scan, m)[[2]]
  }, numeric(1)))
  e <- curve_scale_exponent(big)
  scale <- 2^-e
  keys <- sets$keys
  orders <- vector("list", length(mats))
  for (i in seq_along(mats)) {
    m <- mats[[i]]
    if (!is.double(m)) storage.mode(m) <- "double"
    o <- canonical_order(m)
    ids <- attr(m, "ids")
    # the column-level attributes (the categories' "encoding", R/encode.R)
    # survive the reordering
    cols <- attributes(m)
    cols <- cols[setdiff(names(cols), c("dim", "dimnames", "ids"))]
    moved <- is.unsorted(o)
    if (moved) {
      # m[o, ] by the engine's threads (a column at a time, no centre)
      dn <- dimnames(m)
      m <- .Call(ffi_centre, m, double(ncol(m)), o)
      if (!is.null(dn)) {
        if (!is.null(dn[[1]])) dn[[1]] <- dn[[1]][o]
        dimnames(m) <- dn
      }
      for (a in names(cols)) attr(m, a) <- cols[[a]]
      if (!is.null(keys[[i]])) keys[[i]] <- keys[[i]][o, , drop = FALSE]
      orders[[i]] <- o
    }
    if (e != 0L) {
      m <- m * scale
      if (!is.null(keys[[i]])) keys[[i]] <- keys[[i]] * scale
    }
    if (moved || e != 0L) {
      if (!is.null(ids)) attr(m, "ids") <- if (moved) ids[o] else ids
      mats[[i]] <- m
    }
  }
  sets$real <- mats[[1]]
  gens <- mats[-1L]
  names(gens) <- names(sets$generated)
  sets$generated <- gens
  if (!is.null(keys)) sets$keys <- keys
  sets$order <- list(real = orders[[1]], generated = stats::setNames(
    orders[-1L], names(gens)))
  sets$scale <- scale
  sets
}

#' A `split` given as rows (list(real, generated), row numbers of the sets
#' as given) in the canonical order of canonical_sets(): the positions of
#' those rows there, per model (class "prdcurve_model_rows": a list of
#' such splits by model, which resolve_model_splits() reads). A fraction,
#' or rows the split checks will refuse, are returned as they are (the
#' checks then name the rows as given).
#' @noRd
canonical_split <- function(split, sets) {
  if (!is.list(split) || is.null(sets$order)) return(split)
  if (!identical(sort(names(split)), c("generated", "real"))) return(split)
  map <- function(rows, o) {
    if (is.null(o) || !is_whole(rows) || !length(rows) ||
        any(rows < 1 | rows > length(o))) {
      return(rows)
    }
    inv <- integer(length(o))
    inv[o] <- seq_along(o)
    inv[rows]
  }
  real_rows <- map(split$real, sets$order$real)
  out <- lapply(names(sets$generated), function(nm) {
    list(real = real_rows,
         generated = map(split$generated, sets$order$generated[[nm]]))
  })
  names(out) <- names(sets$generated)
  structure(out, class = "prdcurve_model_rows")
}
