# Standardization of the sample sets (`standardize = "real"`): the scale
# from the real fit rows (or every real row for the metrics), discrete
# columns scaled on a grid so that their values stay exact.

#' Centre and scale every column of every set of prepare_samples()'s list
#' by the mean and standard deviation of the real set's rows `rows` (NULL:
#' all of them). prd_curve() passes the real fit rows of its split: the
#' evaluation rows of both sets then take no part in the scale, so two
#' samples of one law stay two samples of one law after the scaling (with
#' the scale from every real row, the real rows that set it are not
#' distributed as the generated ones, which a strong classifier can see).
#' @noRd
standardize_sets <- function(sets, rows = NULL, keep = NULL) {
  x <- sets$real
  # the indicators of categories keep their weight (R/encode.R); `keep`
  # carries them to the half-samples, whose rows lost the attribute
  if (is.null(keep)) keep <- category_columns(x)
  if (!is.double(x)) storage.mode(x) <- "double"
  rows <- if (is.null(rows)) seq_len(nrow(x)) else as.integer(rows)
  n <- length(rows)
  # the moments of the rows read in place: the means (colMeans()'s
  # doubles), then the standard deviations from the centred rows (two
  # passes, as sd(): mean(x^2) - mean(x)^2 lost every digit of a column
  # far from 0, e.g. sd 1 read as 1.04 at a mean of 1e8), without copies
  # of the rows (colSums(C * C)'s doubles)
  mu <- .Call(ffi_col_means, x, rows)
  sdv <- rep(0, ncol(x))
  if (n > 1L) sdv <- sqrt(.Call(ffi_col_ss, x, mu, rows) / (n - 1))
  gens <- lapply(sets$generated, function(m) {
    if (!is.double(m)) storage.mode(m) <- "double"
    m
  })
  mu[keep] <- 0
  sdv[keep] <- 1
  # a column constant in the rows that set the scale (sd 0) is divided by
  # 1, and its grid is judged with that scale: on the grid, its values are
  # restored exactly, and the marginal family reads a real atom against a
  # continuous model there as it does unscaled (marginal_atoms())
  sdv[!(sdv > 0)] <- 1
  grid <- scale_grid(c(list(x), unname(gens)), mu, sdv)
  grid$keep <- keep
  scale_set <- function(m) {
    ids <- attr(m, "ids")
    # (x - mu) / sd in one pass (sweep() built two n x d arrays of the
    # statistics besides its two results); a column on a grid, (x - m) *
    # s - c, each step exact
    out <- .Call(ffi_standardize, m, grid$centre, as.double(sdv), grid$mult,
                 grid$offset)
    dimnames(out) <- dimnames(m)
    attr(out, "ids") <- ids
    # (the marginal family restores the columns on a grid: marginal_atoms())
    attr(out, "grid") <- grid
    out
  }
  sets$real <- scale_set(x) # (x: the real set as doubles, converted once)
  sets$generated <- lapply(gens, scale_set)
  sets$grid <- grid
  sets
}

#' The columns standardize_sets() scales on a grid, so that equal
#' differences stay equal (ties of discrete data stay ties). A column
#' whose values, in the sets that are on a grid there, are multiples of
#' one power of two u (whole numbers, counts, pixel intensities, codes; u
#' = 1 for those) and lie within `max_bits` bits of steps u of a grid
#' point m near the mean (|x - m| < 2^max_bits u) is scaled as (x - m) s'
#' - c (the values of a set not on a grid there, a continuous model's
#' against whole numbers, the same way, each rounded): s' is 1 / sd
#' rounded to p = 52 - k significant bits (|x - m| < 2^k u), c the mean's
#' offset (mu - m) s' rounded to the grid of the results. Then (x - m) s'
#' has at most 52 bits and each difference (x_a - x_b) s' at most 53, so
#' every step is exact and the scaled values differ by exactly (x_a - x_b)
#' s': two pairs of rows with the same differences column by column have
#' the same scaled differences, hence the same distances ((x - mu) / sd
#' rounds each value on its own, so such ties were decided by the last
#' bits of the rounding). The scale moves by at most 2^-30 of itself, the
#' centre by at most half a step of the results' grid. A column constant
#' in the rows that set the scale comes with `sdv` 1 (standardize_sets())
#' and is scaled on its grid as any other (s' = 1); a column whose sets on
#' a grid hold only zeros (the grid {0}, e = INT_MAX) takes the grid of
#' whole numbers. Columns not on such a grid (continuous data, float32
#' embeddings over many binades) keep (x - mu) / sd.
#' @return list(centre = m or mu, mult = s' or 0 (not on a grid), offset
#'   = c or 0), d values each.
#' @noRd
scale_grid <- function(mats, mu, sdv, max_bits = 22L) {
  d <- length(mu)
  out <- list(centre = as.double(mu), mult = numeric(d), offset = numeric(d))
  g <- lapply(mats, function(m) {
    # a set's column on a grid of its own (e not NA): finite, within
    # 2^max_bits steps (a column of zeros, e = INT_MAX, is on every grid)
    r <- .Call(ffi_col_grid, m, as.integer(max_bits))
    r$on <- !is.na(r$e)
    r$e[!r$on] <- .Machine$integer.max
    r$lo[!r$on] <- Inf
    r$hi[!r$on] <- -Inf
    r
  })
  # the finest grid of the sets on one; the other sets' values (a
  # continuous model against whole numbers) are scaled the same way, with
  # the rounding of each value
  e <- do.call(pmin, lapply(g, `[[`, "e"))
  lo <- do.call(pmin, lapply(g, `[[`, "lo"))
  hi <- do.call(pmax, lapply(g, `[[`, "hi"))
  # zeros on the grid of whole numbers (as on any): a column of zeros
  # against a continuous set is an atom of the marginal family, which reads
  # only the columns scaled here (marginal_atoms())
  e[e == .Machine$integer.max & Reduce(`|`, lapply(g, `[[`, "on"))] <- 0L
  ok <- e < .Machine$integer.max & e > -900L & e < 900L &
    is.finite(sdv) & sdv > 0
  for (l in which(ok)) {
    u <- 2^e[l]
    m <- round(mu[l] / u) * u
    steps <- max(hi[l] - m, m - lo[l]) / u
    if (!(steps < 2^max_bits)) next
    k <- if (steps < 1) 0 else floor(log2(steps)) + 1 # steps < 2^k
    p <- 52 - k
    s <- 1 / sdv[l]
    E <- floor(log2(s)) # 2^E <= s < 2^(E + 1), exactly
    if (2^E > s) E <- E - 1
    if (2^(E + 1) <= s) E <- E + 1
    q <- 2^(E - p + 1)
    sp <- round(s / q) * q
    step <- u * q # the grid of (x - m) s'
    if (!(step > 2^-1000) || !is.finite(sp)) next
    out$centre[l] <- m
    out$mult[l] <- sp
    out$offset[l] <- round((mu[l] - m) * sp / step) * step
  }
  out
}

#' The values before standardize_sets()'s scaling of the columns it
#' scaled on a grid (exact: (z + c) / s' + m undoes each exact step);
#' the other columns as they are
#' @noRd
unscale_grid <- function(z, grid) {
  for (l in which(grid$mult != 0)) {
    z[, l] <- (z[, l] + grid$offset[l]) / grid$mult[l] + grid$centre[l]
  }
  z
}

#' The real rows that set the scale of `standardize = "real"` for the
#' splits of resolve_model_splits(), in prd_curve(): the real fit rows of a
#' split (one real partition, shared by every model), NULL (every real
#' row) without one or with `splits` NULL.
#' @noRd
scale_rows <- function(splits) {
  s1 <- splits[[1]]
  if (split_has_eval(s1)) split_fit(s1, 1) else NULL
}

#' Standardize prepare_samples()'s sets: by the real fit rows of `splits`
#' (prd_curve(), once its split is drawn: the evaluation rows of both sets
#' then take no part in the scale, which a strong classifier would see),
#' or by every real row with `splits` NULL (the metrics functions: their
#' balls are built on the real fit rows, and a scale from fewer rows moves
#' those further from the generated rows: at P = Q on a sphere surface in
#' d = 128, split 0.5, density read 0.953 with the fit rows' scale, 0.975
#' with every real row's, 0.993 unscaled; bench/results.md). With
#' `standardize = "none"` the sets are returned as they are.
#' @noRd
standardize_split <- function(sets, splits = NULL) {
  if (!identical(sets$standardize, "real")) return(sets)
  standardize_sets(sets, scale_rows(splits))
}

#' A half-sample of the replicates scaled as the estimate is (with
#' `standardize = "real"`): by the moments of the half's own real rows
#' `rows` (its fit rows; NULL: every real row of the half), so each half
#' replicates the estimator, scaling included. The half's rows were
#' scaled by the full sample's moments already; the scalings are affine
#' per column, so scaling them again equals scaling the raw rows by the
#' half's moments (to rounding); the columns the full sample scaled on a
#' grid (`grid`: standardize_sets()'s sets$grid) are first restored to
#' their values as given, exactly, and scaled on the half's own grid.
#' `how`: prepare_samples()'s `standardize` (with "none" the half is
#' returned as it is).
#' @return list(real, gens)
#' @noRd
standardize_half <- function(real, gens, how, rows = NULL, grid = NULL) {
  if (!identical(how, "real")) return(list(real = real, gens = gens))
  if (!is.null(grid) && any(grid$mult != 0)) {
    # the columns scaled on a grid from their values as given, so that the
    # half's own scaling keeps their ties too
    real <- unscale_grid(real, grid)
    gens <- lapply(gens, unscale_grid, grid = grid)
  }
  h <- standardize_sets(list(real = real, generated = gens), rows,
                        keep = grid$keep)
  list(real = h$real, gens = h$generated)
}

