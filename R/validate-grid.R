# The warning about columns whose values lie on a grid or are constant in
# one set and not in the other, or on a coarser grid in one set than the
# other set's values mostly take (atoms that the other law never takes:
# the true PR curve is at most their overlap).
# The marginal family reads such atoms (R/family-marginal.R); prd_curve()
# may defer the warning to add what tied models read with the atoms
# ignored (R/atoms.R).

#' Warn about columns that lie on a grid (whole numbers, or multiples of
#' one power of two, within 2^marginal_grid_bits steps of 0:
#' coarse_grid()) in one set and not in the other (but for rounding:
#' near_grid()): rounded real data against a model's
#' continuous output, or coarse storage (8-bit intensities against floats;
#' float16 against float32 is not caught: a float16 column's values span
#' far more than 2^marginal_grid_bits steps of its finest grid).
#' Also columns on a grid in both sets where one set's grid is coarser
#' and most of the other set's rows lie off it (grid_apart_share).
#' The values on the grid are atoms the other law never hits, so the true
#' PR curve is 0; the `marginal` family reads that (marginal_atoms()),
#' the neighbour families and the scalar metrics do not.
#' @return the lines of the warning, one per model with such columns, named
#'   by the models
#' @noRd
grid_column_lines <- function(real, gens, generated_arg = "generated") {
  # 1 on a grid, 0 not, NA constant (on every grid)
  grids <- function(m) {
    g <- coarse_grid(m)
    list(code = ifelse(is.na(g$e), 0L, ifelse(g$constant, NA_integer_, 1L)),
         e = g$e)
  }
  # a column of `m` whose values all lie on the grid 2^e but for rounding
  # (a round trip through a scaling) is not off it
  rounded <- function(m, cols, e) {
    vapply(seq_along(cols), function(i) {
      all(near_grid(as.double(m[, cols[i]]), e[cols[i]]))
    }, logical(1))
  }
  gr <- grids(real)
  r <- gr$code
  # (each set's columns by its own names: the sets are matched by position,
  # and the command line keeps each file's names)
  names_of <- function(cols, x = real) {
    nm <- if (is.null(colnames(x))) paste("column", cols) else
      colnames(x)[cols]
    if (length(nm) > 4L) nm <- c(nm[1:3], paste("and", length(nm) - 3L, "more"))
    paste(nm, collapse = ", ")
  }
  labs <- model_args(gens, generated_arg)
  lines <- character()
  # the columns constant at another value in each set, over the models
  # (a 0/1 column labelling the sets: warn_grid_columns() says how to
  # leave it out)
  both_all <- integer()
  for (i in seq_along(gens)) {
    gg <- grids(gens[[i]])
    g <- gg$code
    only_r <- which(r == 1L & g == 0L)
    only_g <- which(g == 1L & r == 0L)
    # constant in one set, continuous in the other (unless every column of
    # the constant set is: a collapsed set, warned about as such)
    const_r <- if (!all(is.na(r))) which(is.na(r) & g == 0L)
    const_g <- if (!all(is.na(g))) which(is.na(g) & r == 0L)
    only_r <- only_r[!rounded(gens[[i]], only_r, gr$e)]
    const_r <- const_r[!rounded(gens[[i]], const_r, gr$e)]
    only_g <- only_g[!rounded(real, only_g, gg$e)]
    const_g <- const_g[!rounded(real, const_g, gg$e)]
    # constant in both sets at another value: disjoint supports too (not
    # a category's indicators: a category of one set only has its own
    # warning, warn_category_levels())
    both <- if (!all(is.na(r)) && !all(is.na(g))) {
      which(is.na(r) & is.na(g) & real[1L, ] != gens[[i]][1L, ] &
              !category_columns(real))
    }
    # on grids in both sets, one coarser, and most of the other set's
    # rows off it (whole numbers against half-numbers: values the
    # coarser set never takes); on at most grid_apart_rows evenly spaced
    # rows (8-bit pixels in both sets are thousands of grid columns)
    two <- which(r == 1L & g == 1L & gr$e != gg$e)
    on_grid <- function(m, cols, e) {
      rows <- spaced_rows(nrow(m), grid_apart_rows)
      vapply(cols, function(j) mean(near_grid(as.double(m[rows, j]), e[j])), 0)
    }
    coarse_r <- two[gr$e[two] > gg$e[two]]
    coarse_g <- two[gg$e[two] > gr$e[two]]
    on_r <- on_grid(gens[[i]], coarse_r, gr$e)
    on_g <- on_grid(real, coarse_g, gg$e)
    off_r <- coarse_r[on_r < grid_apart_share]
    off_g <- coarse_g[on_g < grid_apart_share]
    on_r <- on_r[on_r < grid_apart_share]
    on_g <- on_g[on_g < grid_apart_share]
    # the largest share of the other set's rows on those values (a ReLU
    # unit's zeros against a model's constant 0): no disjoint support there
    hits <- function(cols, other, from, e, who) {
      if (!length(cols)) return("")
      sh <- max(vapply(cols, function(j) {
        v <- as.double(other[, j])
        mean(if (is.null(e)) v == from[1L, j] else near_grid(v, e[j]))
      }, numeric(1)))
      if (sh > 0) paste0(" (", who, " takes these values in ",
                         if (length(cols) > 1L) "up to ", signif(100 * sh, 2), "%",
                         " of its rows)") else ""
    }
    part <- c(if (length(only_r)) paste0("on a grid in the real set only: ",
                                         names_of(only_r),
                                         hits(only_r, gens[[i]], real, gr$e, "this set")),
              if (length(only_g)) paste0("on a grid in this set only: ",
                                         names_of(only_g, gens[[i]]),
                                         hits(only_g, real, gens[[i]], gg$e, "the real set")),
              if (length(const_r)) paste0("constant in the real set only: ",
                                          names_of(const_r),
                                          hits(const_r, gens[[i]], real, NULL, "this set")),
              if (length(const_g)) paste0("constant in this set only: ",
                                          names_of(const_g, gens[[i]]),
                                          hits(const_g, real, gens[[i]], NULL, "the real set")),
              if (length(both)) paste0("constant at another value in each set: ",
                                       names_of(both)),
              if (length(off_r)) paste0(
                "on a coarser grid in the real set: ", names_of(off_r), " (this set's values lie on it in ",
                if (length(off_r) > 1L) "up to ", signif(100 * max(on_r), 2), "% of its rows)"),
              if (length(off_g)) paste0(
                "on a coarser grid in this set: ", names_of(off_g, gens[[i]]), " (the real set's values lie on it in ",
                if (length(off_g) > 1L) "up to ", signif(100 * max(on_g), 2), "% of its rows)"))
    if (length(part)) {
      nm <- if (is.null(names(gens))) labs[i] else names(gens)[i]
      lines[[nm]] <- paste0(labs[i], ": ", paste(part, collapse = "; "))
    }
    both_all <- union(both_all, both)
  }
  if (length(both_all)) {
    both_all <- sort(both_all)
    attr(lines, "label_fix") <- features_drop(
      if (is.null(colnames(real))) paste0("V", both_all) else
        colnames(real)[both_all], both_all,
      array_names = is.null(colnames(real)))$code
  }
  lines
}

#' Largest share of one set's rows on the other set's coarser grid below
#' which a column on grids in both sets is named (half-numbers against
#' whole numbers: 0; two count columns of one law are on one grid)
#' @noRd
grid_apart_share <- 0.5

#' Rows of a set read for grid_apart_share (the share within about 0.03
#' of all rows')
#' @noRd
grid_apart_rows <- 2000L

#' At most `m` of `n` rows, evenly spaced, the first and the last among
#' them (no draw: the RNG stays as it was); also the marginal family's edge
#' rows and the real set's fingerprint
#' @noRd
spaced_rows <- function(n, m) {
  if (n <= m) seq_len(n) else unique(round(seq(1, n, length.out = m)))
}

#' The warning of grid_column_lines()'s lines (none: no warning), with the
#' `extra` lines (prd_curve(): what tied models read with the atoms
#' ignored, atoms_tie_lines()) after them.
#' @return the lines, invisibly
#' @noRd
warn_grid_columns <- function(lines, extra = character()) {
  if (!length(lines)) return(invisible(character()))
  prd_warn(c(
    "Columns whose values lie on a grid (whole numbers, or multiples of one power of two), or are constant, in one set and are continuous in the other (or constant at another value, or on a coarser grid than the other set's values mostly take).",
    stats::setNames(unname(lines), rep("x", length(lines))),
    "i" = "Such values are atoms: where the other set never takes them, the supports differ and the true PR curve is 0; where it takes them in a share of its rows (given above), the true curve is at most about that share. The {.val marginal} family (in the default {.val tightest}) reads this; the neighbour families and the scalar metrics do not.",
    extra,
    "i" = "If the model should produce such values, round its output to the grid; if the grid is the storage (8-bit intensities against floats), give both sets the same type.",
    if (!is.null(attr(lines, "label_fix"))) c("i" = paste0(
      "If a column constant at another value in each set labels the sets (0 in the real set, 1 in a generated one), it alone tells them apart: leave it out, {.code ",
      gsub("}", "}}", gsub("{", "{{", attr(lines, "label_fix"), fixed = TRUE), fixed = TRUE),
      "}."))
  ), "grid_columns")
  invisible(lines)
}
