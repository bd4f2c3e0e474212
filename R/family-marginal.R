# The marginal family: per-coordinate histograms on common bins, each bin's
# log-ratio shrunk (non-negative garrote), summed over the coordinates
# (naive Bayes); atoms on a grid in one set only get bins of their own
# (SPEC.md section 7; the kernels in src/marginal.c).

#' Most bins per coordinate of the `marginal` family, and the fit rows a
#' bin holds on average below that (marginal_bin_count()); at most 256
#' (the bin index holds a byte a value, marginal_index())
#' @noRd
marginal_bins <- 128L
marginal_per_bin <- 25

#' The count added to every bin of a histogram (Jeffreys: 1/2)
#' @noRd
marginal_smooth <- 0.5

#' Rows of each set read for the bins' edges (evenly spaced positions)
#' @noRd
marginal_edge_rows <- 2048L

#' The bins of the `marginal` family's histograms with `n_fit` fit rows in
#' the smaller set: n_fit / marginal_per_bin, at least 2, at most
#' marginal_bins.
#' @noRd
marginal_bin_count <- function(n_fit) {
  as.integer(max(2, min(marginal_bins, floor(n_fit / marginal_per_bin))))
}

#' The edges of the `marginal` family's bins: per column, the order
#' statistics at ranks ceiling(N j / B), j = 1..B-1, of both sets' rows
#' pooled without their labels (N of them: at most marginal_edge_rows of
#' each set, at evenly spaced positions of `rx` and `ry`), so that each
#' bin holds about 1/B of the pooled rows; a column with at most B
#' distinct values there gets a bin per value (each value but the
#' smallest an edge, the rest Inf).
#' @return a (B - 1) x d matrix, each column sorted.
#' @noRd
marginal_breaks <- function(real, generated, rx, ry, bins, atoms = NULL) {
  .Call(ffi_bin_edges, real, generated, marginal_edge_pick(rx),
        marginal_edge_pick(ry), as.integer(bins), atoms_arg(atoms))
}

#' At most marginal_edge_rows of the rows `r`, sorted, at evenly spaced
#' positions
#' @noRd
marginal_edge_pick <- function(r) {
  r <- sort(as.integer(r))
  r[spaced_rows(length(r), marginal_edge_rows)]
}

#' Most steps from 0 the values of a grid of the `marginal` family's
#' atoms may lie (see coarse_grid()): whole numbers up to 65,536. Float
#' values carry 24 (float32) or 53 significant bits, so a column of them
#' is a grid only where its values happen to be coarse: storage precision
#' is not a support.
#' @noRd
marginal_grid_bits <- 16L

#' The relative distance from a grid point within which a value counts as
#' on the grid (near_grid()): the rounding of a round trip through a
#' scaling in double precision (a few 2^-53) is not a difference of
#' support. Not float32's (2^-24 a step): a looser tolerance lets
#' continuous values near a grid point count as atoms (2^-20: about 2 of
#' 1,000 N(0, 1,000^2) values near whole numbers, enough to move the
#' curve's extremes by 0.3).
#' @noRd
marginal_grid_tol <- 2^-30

#' Each column's coarse grid in the matrix `m`: the exponent e of the
#' power of two 2^e of which every value is a multiple (ffi_col_grid()),
#' NA unless every value lies within 2^marginal_grid_bits steps of 0
#' (INT_MAX for a column of zeros, the grid {0}). `constant`: the column
#' holds one value.
#' @return list(e, constant)
#' @noRd
coarse_grid <- function(m) {
  if (!is.double(m)) storage.mode(m) <- "double"
  g <- .Call(ffi_col_grid, m, marginal_grid_bits)
  e <- g$e
  big <- pmax(abs(g$lo), abs(g$hi))
  zero <- !is.na(e) & e == .Machine$integer.max
  far <- !is.na(e) & !zero & !(big / 2^e < 2^marginal_grid_bits)
  e[far] <- NA_integer_
  list(e = e, constant = !is.na(e) & g$lo == g$hi)
}

#' Which values x lie on the grid of multiples of 2^e (e = INT_MAX: the
#' grid {0}), to the relative tolerance marginal_grid_tol; the arithmetic
#' of atom_value() in src/marginal.c
#' @noRd
near_grid <- function(x, e) {
  if (e == .Machine$integer.max) return(x == 0)
  q <- x / 2^e
  abs(q - round(q)) <= marginal_grid_tol * pmax(1, abs(q))
}

#' The columns in which one set of a pair lies on a grid and the other
#' does not (whole numbers against a continuous model's values): the
#' values on the grid are then atoms of one law that the other does not
#' have, and the `marginal` family gives them bins of their own (SPEC.md
#' section 7). A set's column is on a grid when the set's rows among the
#' rows read for the edges (marginal_edge_pick() of `rx` and `ry`) are all
#' multiples of one power of two 2^e within 2^marginal_grid_bits steps of
#' 0 (coarse_grid(); a column of zeros: the grid {0}), judged on the
#' values as given: a matrix scaled by `standardize = "real"` carries its
#' grid in attribute "grid" (standardize_sets()), and only the columns
#' scaled on a grid (restored exactly by unscale_grid()) qualify. In those
#' columns the kernels read every value on that grid (near_grid(), to a
#' relative 2^-30) as it is and every other value moved above all of them
#' (by `shift`, twice the column's range plus 1; src/marginal.c,
#' atom_value(), the same arithmetic), so that no bin holds both kinds
#' once the smallest moved value is an edge (marginal_atom_edges()).
#' Orders within each kind are kept; a column none of whose values is
#' moved (the other set's values on the grid but for rounding) is left
#' out. The matrices are not copied.
#' @return list(cols, e: their grids' exponents, shift, off, mult, centre:
#'   the grid scaling to undo (mult 0: none), bound: the smallest moved
#'   value of each column), the first six as the kernels' `atoms`
#'   argument; NULL when there are no such columns
#' @noRd
marginal_atoms <- function(real, generated, rx, ry) {
  grid <- attr(real, "grid")
  sets <- list(real, generated)
  rows <- list(marginal_edge_pick(rx), marginal_edge_pick(ry))
  e <- lapply(1:2, function(j) {
    m <- sets[[j]][rows[[j]], , drop = FALSE]
    if (!is.null(grid)) m <- unscale_grid(m, grid)
    coarse_grid(m)$e
  })
  on <- lapply(e, Negate(is.na))
  cols <- which(on[[1]] != on[[2]])
  if (!is.null(grid)) cols <- cols[grid$mult[cols] != 0]
  ex <- ifelse(on[[1]], e[[1]], e[[2]])[cols]
  keep <- ex == .Machine$integer.max | (ex > -900L & ex < 900L)
  cols <- cols[keep]
  ex <- ex[keep]
  if (!length(cols)) return(NULL)
  mult <- if (is.null(grid)) numeric(length(cols)) else grid$mult[cols]
  off <- if (is.null(grid)) numeric(length(cols)) else grid$offset[cols]
  centre <- if (is.null(grid)) numeric(length(cols)) else grid$centre[cols]
  shift <- bound <- rep(NA_real_, length(cols))
  for (i in seq_along(cols)) {
    # the column of each set, read once
    zs <- list(real[, cols[i]], generated[, cols[i]])
    lo <- min(zs[[1]], zs[[2]])
    hi <- max(zs[[1]], zs[[2]])
    sh <- 2 * (hi - lo) + 1
    if (!is.finite(sh) || !(lo + sh > hi)) next
    shift[i] <- sh
    b <- Inf
    for (z in zs) {
      x <- if (mult[i] != 0) (z + off[i]) / mult[i] + centre[i] else z
      on_grid <- near_grid(x, ex[i])
      if (!all(on_grid)) b <- min(b, min(z[!on_grid] + sh))
    }
    bound[i] <- b
  }
  ok <- !is.na(shift) & is.finite(bound)
  if (!any(ok)) return(NULL)
  list(cols = as.integer(cols[ok]), e = as.integer(ex[ok]), shift = shift[ok],
       off = as.double(off[ok]), mult = as.double(mult[ok]),
       centre = as.double(centre[ok]), bound = bound[ok])
}

#' The kernels' `atoms` argument from marginal_atoms() (NULL: none)
#' @noRd
atoms_arg <- function(atoms) {
  if (is.null(atoms)) return(NULL)
  atoms[c("cols", "e", "shift", "off", "mult", "centre")]
}

#' The edges E (marginal_breaks()) with each atom column's bound (the
#' smallest value moved above the grid's values, marginal_atoms()) made an
#' edge: inserted, and to keep B - 1 edges, an Inf edge dropped (a column
#' with a bin per value) or else the edge just below the bound. A bin then
#' never holds values of both kinds (an order statistic at the border, the
#' largest value on the grid, would otherwise open the bin of the moved
#' values).
#' @noRd
marginal_atom_edges <- function(E, atoms) {
  for (i in seq_along(atoms$cols)) {
    b <- atoms$bound[i]
    l <- atoms$cols[i]
    e <- E[, l]
    if (!is.finite(b) || b %in% e) next
    e <- sort(c(e, b))
    k <- which(e == b)
    drop <- if (is.infinite(e[length(e)])) length(e) else
      if (k > 1L) k - 1L else k + 1L
    E[, l] <- e[-drop]
  }
  E
}

#' The `marginal` family's bin edges from the rows `total` (a list of
#' each set's rows) of both sets pooled, and its atom columns: with
#' atoms = "ignore" (R/atoms.R) the grid's cells, without atom columns;
#' else the atoms' own bins. Shared by the smoothed marginal family.
#' @return list(E, atoms)
#' @noRd
marginal_edges <- function(real, generated, total, B) {
  atoms <- marginal_atoms(real, generated, total[[1]], total[[2]])
  if (atoms_ignored()) {
    # the atoms read as continuous values: cells of the grid (R/atoms.R)
    E <- marginal_breaks(real, generated, total[[1]], total[[2]], B)
    list(E = marginal_cell_edges(E, atoms), atoms = NULL)
  } else {
    E <- marginal_breaks(real, generated, total[[1]], total[[2]], B, atoms)
    list(E = marginal_atom_edges(E, atoms), atoms = atoms)
  }
}

#' The set-up shared by the marginal families' cross-fitted paths
#' (marginal_scores(), smooth_marginal_cells()): `cells` = list(real
#' cells, generated cells), each set's rows cut into a first cell of fit
#' rows (may be empty) and K scored cells. The bin count follows the
#' fewest rows any fold is fitted on (n_fit); the edges and atom columns
#' come from every row of both sets pooled (marginal_edges()); each row's
#' bins are found once (marginal_index()), and one pass over them counts
#' every cell.
#' @return list(K, total (each set's rows, cell after cell), n_fit, B,
#'   E (the edges, B - 1 by d), atoms (marginal_atoms()'s, or NULL when
#'   the atoms are ignored), index (per set, the bins of the rows `total`,
#'   column i those of row total[i]), counts (per set, the B by d by K + 1
#'   counts of each cell))
#' @noRd
marginal_cell_counts <- function(real, generated, cells) {
  K <- length(cells[[1]]) - 1L
  total <- lapply(cells, function(cj) unlist(cj, use.names = FALSE))
  n_fit <- min(vapply(1:2, function(j) {
    length(total[[j]]) - max(lengths(cells[[j]][-1L]))
  }, numeric(1)))
  B <- marginal_bin_count(n_fit)
  sets <- list(real, generated)
  ed <- marginal_edges(real, generated, total, B)
  E <- ed$E
  atoms <- ed$atoms
  index <- lapply(1:2, function(j) marginal_index(sets[[j]], E, total[[j]], atoms))
  counts <- lapply(1:2, function(j) {
    cj <- cells[[j]]
    .Call(ffi_index_counts, index[[j]], B, seq_along(total[[j]]),
          rep.int(seq_along(cj), lengths(cj)), length(cj))
  })
  list(K = K, total = total, n_fit = n_fit, B = B, E = E, atoms = atoms,
       index = index, counts = counts)
}

#' The bins of the rows `rows` of X among the edges E (B - 1 by d, B at
#' most 256), the atom columns of `atoms` (marginal_atoms(); NULL: none)
#' read as the kernels read them: a raw d by length(rows) matrix, column i
#' the bins of row rows[i], each 0 .. B - 1, the number of edges at or
#' below the value (as findInterval()). Found once and read by the kernels
#' that count (ffi_index_counts()) and sum (ffi_index_scores(),
#' ffi_index_sums()) by bin, each row's bins side by side
#' (src/marginal.c).
#' @noRd
marginal_index <- function(X, E, rows = seq_len(nrow(X)), atoms = NULL) {
  if (!is.double(X)) storage.mode(X) <- "double"
  .Call(ffi_bin_index, X, E, as.integer(rows), atoms_arg(atoms))
}

#' Scores of the `marginal` family (SPEC.md section 7): a naive Bayes
#' classifier, s(z) = sum over the coordinates l of
#' log q_l(z_l) - log p_l(z_l), each marginal density a histogram on
#' marginal_breaks()'s bins with marginal_smooth added to every count.
#' `cells` = list(real cells, generated cells): each set's rows cut into a
#' first cell (rows that are only fitted on; may be empty) and the scored
#' cells; the rows of scored cell v are scored by the histograms of every
#' other cell (cross-fitting; with one scored cell, the single fit on the
#' first). One pass over the rows counts every cell; each fold's counts
#' are the totals less its own.
#' The columns where one set lies on a grid and the other does not get
#' bins of their own for the values on it (marginal_atoms()), unless the
#' call reads the atoms as continuous values (`atoms = "ignore"`: bins of
#' whole cells of the grid, marginal_cell_edges()).
#' @return list(real, gen): the scores of each set's scored cells' rows, in
#'   the order of the cells; settings list(bins, atom_columns: how many
#'   columns had such bins).
#' @noRd
marginal_scores <- function(real, generated, cells) {
  mc <- marginal_cell_counts(real, generated, cells)
  K <- mc$K
  total <- mc$total
  B <- mc$B
  atoms <- mc$atoms
  counts <- mc$counts
  mc$counts <- NULL
  d <- ncol(real)
  # each scored cell's log-ratio table: the histograms of the other cells
  tab <- array(0, c(B, d, K))
  a <- marginal_smooth
  sums <- lapply(counts, rowSums, dims = 2L)
  for (v in seq_len(K)) {
    h <- lapply(1:2, function(j) {
      cnt <- sums[[j]] - counts[[j]][, , v + 1L]
      n <- length(total[[j]]) - length(cells[[j]][[v + 1L]])
      list(l = log(cnt + a) - log(n + a * B), v = 1 / (cnt + a))
    })
    t <- h[[2]]$l - h[[1]]$l
    # each entry shrunk toward 0 by its noise (a bin's log count has
    # variance about 1 / count): t (1 - var / t^2), or 0 when negative
    w <- 1 - (h[[1]]$v + h[[2]]$v) / t^2
    t <- ifelse(t == 0 | w < 0, 0, t * w)
    tab[, , v] <- t
  }
  rm(counts, sums)
  sc <- lapply(1:2, function(j) marginal_cell_scores(mc, j, cells, tab))
  list(real = sc[[1]], gen = sc[[2]],
       settings = list(bins = B, atom_columns = length(atoms$cols)))
}

#' The scores of set j's scored cells' rows (in the order of the cells)
#' from the set-up `mc` (marginal_cell_counts()): each row's sum over the
#' columns, in order, of the table `tab` (B by d by K) of its cell at its
#' bins
#' @noRd
marginal_cell_scores <- function(mc, j, cells, tab) {
  cj <- cells[[j]]
  first <- length(cj[[1L]])
  .Call(ffi_index_scores, mc$index[[j]], mc$B,
        seq.int(first + 1L, length.out = length(mc$total[[j]]) - first),
        rep.int(seq_len(mc$K), lengths(cj[-1L])), tab)
}

