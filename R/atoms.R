# The atoms of the `marginal` family read as given or ignored (SPEC.md
# section 7, "Atoms on a grid"). Where one set's column lies on a grid
# (whole numbers) and the other's does not, the values on the grid are
# atoms the other law never hits: the supports differ and the true curve
# is 0, which the family reads (atoms = "exact", the default). On real
# integer-valued data against noisy models every model then reads 0 and
# the comparison is gone; atoms = "ignore" reads the values as continuous
# (no atom bins, no grid warning). When the exact reading ties models at
# 0, prd_curve() also computes the reading with the atoms ignored, shows
# it in the grid warning and keeps it with each tied curve
# (details$atoms_ignored), which prd_compare(atoms = "ignore") compares.

#' The reading of the atoms of the current prd_curve() call ("exact" or
#' "ignore"), set by with_atoms() and read by marginal_scores()
#' @noRd
atoms_state <- new.env(parent = emptyenv())
atoms_state$mode <- "exact"

#' Evaluate `code` with the atoms read as `atoms` ("exact" or "ignore")
#' @noRd
with_atoms <- function(atoms, code) {
  old <- atoms_state$mode
  atoms_state$mode <- atoms
  on.exit(atoms_state$mode <- old, add = TRUE)
  force(code)
}

#' Whether the current call reads the atoms as continuous values
#' @noRd
atoms_ignored <- function() identical(atoms_state$mode, "ignore")

#' AUC at or below which an exact reading counts as 0 (a tie of models
#' that the exact comparison cannot rank)
#' @noRd
atoms_tie_tol <- 0.005

#' Whether a curve (its method and settings' details) is read by a
#' marginal family (marginal_families: the atoms' own bins): the family
#' itself, or "tightest" combining one
#' @noRd
reads_marginal <- function(method, details) {
  method %in% marginal_families ||
    (method == "tightest" && any(marginal_families %in% details$families))
}

#' The families that read atoms in bins of their own (R/family-marginal.R)
#' @noRd
marginal_families <- c("marginal", "smooth_marginal")

#' The curves of `out` (a prd_curve of prd_curve()) whose exact reading
#' ties models at 0: per method and k, the curves read by the marginal
#' family of models with columns on a grid in one set only
#' (`grid_models`) at AUC <= atoms_tie_tol, where there are two or more.
#' @return a tibble model, method, k, auc (the exact reading's), one row
#'   per tied curve (none: no tie)
#' @noRd
atoms_tie <- function(out, grid_models) {
  a <- curve_areas(out)
  if (!"model" %in% names(a)) a$model <- NA_character_
  if (!"k" %in% names(a)) a$k <- NA_integer_
  a <- a[c("model", "method", "k", "auc")]
  uses <- vapply(seq_len(nrow(a)), function(i) {
    inf <- info_of(out, a$model[i], a$method[i], a$k[i])
    !is.null(inf) && reads_marginal(a$method[i], inf$details[[1]])
  }, logical(1))
  zero <- uses & a$model %in% grid_models & a$auc <= atoms_tie_tol
  group <- paste(a$method, a$k)
  n_zero <- stats::ave(as.integer(zero), group, FUN = sum)
  a[zero & n_zero >= 2L, , drop = FALSE]
}

#' prd_curve()'s grid warning (grid_column_lines()'s `lines`) before its
#' curves, as the other input checks, where the curves cannot tie models
#' at 0 (atoms = "exact" with fewer than two models with such columns, or
#' no curve read by the marginal family among the methods `used`); none
#' with atoms = "ignore".
#' @return whether the warning waits for the curves (curve_atoms_reading())
#' @noRd
grid_warning_early <- function(lines, atoms, used) {
  if (atoms == "ignore") return(FALSE)
  if (length(lines) >= 2L && any(marginal_families %in% used)) return(TRUE)
  if (inputs_checked()) warn_grid_columns(lines)
  FALSE
}

#' The settings of prd_curve()'s curves after the estimates: each curve
#' read by the marginal family records `atoms` and whether its model has
#' columns on a grid in one set only (`grid_columns`); with atoms =
#' "exact", when the exact reading ties models at 0 (atoms_tie()), the
#' reading with the atoms ignored (`run()` again) is kept with each tied
#' curve (details$atoms_ignored: its prd_curve, replicates included), and
#' the grid warning (`lines`: grid_column_lines(); when it waited for the
#' curves, `later`: grid_warning_early()) names its AUCs. The second
#' reading starts from the RNG's state `seed` of the first (rng_state()),
#' so that it draws the same split and half-samples and its curves pair
#' with the first's (prd_compare(atoms = "ignore") compares them with the
#' models' not tied); the state after the first is restored after it.
#' @noRd
curve_atoms_reading <- function(out, atoms, lines, run, later = TRUE,
                                seed = NULL) {
  info <- attr(out, "curves")
  for (i in seq_len(nrow(info))) {
    if (reads_marginal(info$method[i], info$details[[i]])) {
      info$details[[i]]$atoms <- atoms
      info$details[[i]]$grid_columns <- info$model[i] %in% names(lines)
    }
  }
  attr(out, "curves") <- info
  if (atoms == "ignore" || !later) return(out)
  tie <- atoms_tie(out, names(lines))
  extra <- character()
  if (nrow(tie)) {
    ign <- with_rng_state(seed, with_atoms("ignore", run()))
    for (r in seq_len(nrow(tie))) {
      j <- which(vctrs::vec_equal(info$model, tie$model[r], na_equal = TRUE) &
                   info$method == tie$method[r] &
                   vctrs::vec_equal(info$k, tie$k[r], na_equal = TRUE))
      keep <- curve_rows(ign, tie$model[r], tie$method[r], tie$k[r])
      info$details[[j[1]]]$atoms_ignored <- ign[keep, , drop = FALSE]
    }
    attr(out, "curves") <- info
    extra <- atoms_tie_lines(tie, ign)
  }
  if (inputs_checked()) warn_grid_columns(lines, extra)
  out
}

#' The RNG's state (.Random.seed), drawn first if there is none yet
#' @noRd
rng_state <- function() {
  if (!exists(".Random.seed", globalenv(), inherits = FALSE)) stats::runif(1)
  get(".Random.seed", globalenv(), inherits = FALSE)
}

#' Evaluate `code` from the RNG's state `seed` (none: as it is), then put
#' back the state it found
#' @noRd
with_rng_state <- function(seed, code) {
  if (is.null(seed)) return(code)
  after <- rng_state()
  on.exit(assign(".Random.seed", after, globalenv()), add = TRUE)
  assign(".Random.seed", seed, globalenv())
  code
}

#' The rows of one curve (model, method, k) of a prd_curve
#' @noRd
curve_rows <- function(x, model, method, k) {
  n <- nrow(x)
  col <- function(nm, na) if (nm %in% names(x)) x[[nm]] else rep(na, n)
  vctrs::vec_equal(col("model", NA_character_), model, na_equal = TRUE) &
    x$method == method &
    vctrs::vec_equal(col("k", NA_integer_), as.integer(k), na_equal = TRUE)
}

#' The lines of the grid warning for tied models: the tie, and what each
#' tied model's curve reads with the atoms ignored
#' @noRd
atoms_tie_lines <- function(tie, ign) {
  a <- curve_areas(ign)
  if (!"model" %in% names(a)) a$model <- NA_character_
  if (!"k" %in% names(a)) a$k <- NA_integer_
  esc <- function(s) gsub("}", "}}", gsub("{", "{{", s, fixed = TRUE), fixed = TRUE)
  out <- character()
  for (g in unique(paste(tie$method, tie$k))) {
    t <- tie[paste(tie$method, tie$k) == g, , drop = FALSE]
    lab <- if (is.na(t$k[1])) t$method[1] else
      paste0(t$method[1], ", k = ", t$k[1])
    ai <- vapply(seq_len(nrow(t)), function(i) {
      hit <- which(a$model == t$model[i] & a$method == t$method[i] &
                     vctrs::vec_equal(a$k, t$k[i], na_equal = TRUE))
      a$auc[hit[1]]
    }, numeric(1))
    fmt <- function(v) format(round(v, 3), nsmall = 3)
    out <- c(out, "!" = esc(paste0(
      "The exact reading ties ", nrow(t), " models at AUC 0 (", lab, ": ",
      paste0(t$model, " ", fmt(t$auc), collapse = ", "),
      ") and cannot rank them. With the atoms ignored (the values read as ",
      "continuous, atoms = \"ignore\") they read AUC ",
      paste0(t$model, " ", fmt(ai), collapse = ", "), ".")))
  }
  out
}

#' The curves prd_compare() compares for `atoms`: with "exact", `x` as it
#' is, with a warning (prdcurve_warning_atoms_tie) where its exact reading
#' ties models at 0; with "ignore", each tied curve replaced by its
#' reading with the atoms ignored (details$atoms_ignored). A curve whose
#' model has atoms read exactly and no such reading is an input error.
#' @noRd
compare_atoms <- function(x, atoms, call = rlang::caller_env()) {
  if (!inherits(x, "prd_curve")) {
    if (atoms == "ignore") {
      warn_unused("atoms", "curves")
    }
    return(x)
  }
  info <- prd_curve_info(x)
  ign <- lapply(info$details, function(d) d$atoms_ignored)
  has <- !vapply(ign, is.null, logical(1))
  if (atoms == "exact") {
    if (sum(has) >= 2L) warn_atoms_tie(info[has, , drop = FALSE], ign[has])
    return(x)
  }
  exact <- vapply(info$details, function(d) {
    identical(d$atoms, "exact") && isTRUE(d$grid_columns)
  }, logical(1)) & !has
  if (any(exact)) {
    models <- unique(info$model[exact])
    prd_abort(c(
      "{.arg x} holds no reading with the atoms ignored for model{?s} {.val {models}}.",
      "x" = "Its curves read the atoms (columns on a grid in one set only) exactly; the reading with them ignored is kept only where the exact reading ties models at AUC 0.",
      "i" = "Compute the curves with {.code prd_curve(..., atoms = \"ignore\")}."
    ), "input", call = call)
  }
  if (!any(has)) return(x)
  all_info <- attr(x, "curves")
  df <- tibble::new_tibble(unclass(x)[names(x)], nrow = nrow(x))
  for (j in which(has)) {
    g <- ign[[j]]
    r <- which(curve_rows(x, info$model[j], info$method[j], info$k[j]))
    if (length(r) != nrow(g)) {
      prd_abort("A curve and its reading with the atoms ignored differ in length.",
                "internal", call = call)
    }
    df$lambda[r] <- g$lambda
    df$precision[r] <- g$precision
    df$recall[r] <- g$recall
    gi <- attr(g, "curves")
    gi <- gi[curve_rows_info(gi, info[j, ]), , drop = FALSE][1, ]
    ai <- which(curve_rows_info(all_info, info[j, ]))
    all_info[ai, ] <- gi[rep(1L, length(ai)), ]
  }
  as_prd_curve(df, all_info)
}

#' Rows of a settings table with the key (model, method, k) of `key`
#' @noRd
curve_rows_info <- function(info, key) {
  vctrs::vec_equal(info$model, key$model, na_equal = TRUE) &
    info$method == key$method &
    vctrs::vec_equal(info$k, key$k, na_equal = TRUE)
}

#' The warning of prd_compare() on curves whose exact reading ties models
#' at 0: the exact comparison cannot rank them
#' @noRd
warn_atoms_tie <- function(info, ign) {
  ia <- vapply(ign, function(g) curve_areas(g)$auc[1], numeric(1))
  lab <- ifelse(is.na(info$k), info$method,
                paste0(info$method, ", k = ", info$k))
  fmt <- function(v) format(round(v, 3), nsmall = 3)
  reading <- paste0(info$model, " (", lab, ") ", fmt(ia))
  prd_warn(c(
    "The exact reading ties models {.val {unique(info$model)}} at AUC 0: their supports differ from the real set's (columns on a grid in one set only), and the exact comparison cannot rank them (differences of 0).",
    "i" = "With the atoms ignored (the values read as continuous) they read AUC {reading}.",
    "i" = "Compare that reading with {.code prd_compare(x, atoms = \"ignore\")}."
  ), "atoms_tie")
}

#' The edges E (marginal_breaks() of the values as given) of the atom
#' columns of marginal_atoms() moved to the cells of their grids: each
#' edge to the nearest point half-way between two grid values (2^e (j +
#' 1/2) in the grid's units, undoing the scaling of `standardize`), the
#' duplicates dropped and Inf edges added to keep B - 1. Each bin then
#' holds whole cells: a grid value with the continuous values that round
#' to it, and the other set's values are read as if rounded to the grid
#' (atoms = "ignore"), where the order statistics of a set with atoms,
#' edges on the atoms themselves, would give them bins of their own. A
#' column of zeros (the grid {0}) is left as it is.
#' @noRd
marginal_cell_edges <- function(E, atoms) {
  nb <- nrow(E)
  for (i in seq_along(atoms$cols)) {
    ex <- atoms$e[i]
    if (ex == .Machine$integer.max) next
    l <- atoms$cols[i]
    e <- E[, l]
    e <- e[is.finite(e)]
    m <- atoms$mult[i]
    x <- if (m != 0) (e + atoms$off[i]) / m + atoms$centre[i] else e
    u <- 2^ex
    h <- (floor(x / u) + 0.5) * u
    z <- if (m != 0) (h - atoms$centre[i]) * m - atoms$off[i] else h
    z <- sort(unique(z))
    E[, l] <- c(z, rep(Inf, nb - length(z)))
  }
  E
}
