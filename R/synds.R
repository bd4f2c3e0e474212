# synthpop's synthetic data objects (class "synds", the result of
# synthpop::syn()) as generated sets: their synthetic data frames, and the
# missing codes of their numeric columns (`cont.na`, such as income -8 in
# SD2011), which the encoding reads in every set of the call as synthpop's
# utility measures do (missing_fills(), R/encode.R).

#' Is `x` a synthpop object (class "synds")?
#' @noRd
is_synds <- function(x) inherits(x, "synds")

#' Does `generated` hold a synds object (itself, or an element of a list)?
#' @noRd
has_synds <- function(generated) {
  is_synds(generated) ||
    (is.list(generated) && !is.data.frame(generated) &&
       any(vapply(generated, is_synds, logical(1))))
}

#' The synthetic data frames of a synds object, named: `name` for one
#' (m = 1: `syn` is a data frame), `name_1`, ..., `name_m` for m of them
#' (`syn` a list of data frames).
#' @noRd
synds_frames <- function(x, name, arg, call) {
  syn <- x[["syn"]]
  if (is.data.frame(syn)) return(stats::setNames(list(syn), name))
  if (is.list(syn) && length(syn) &&
      all(vapply(syn, is.data.frame, logical(1)))) {
    return(stats::setNames(syn, paste0(name, "_", seq_along(syn))))
  }
  prd_abort(c(
    "{.arg {arg}} is a synthpop object without its synthetic data.",
    "x" = "Its {.field syn} is {.obj_type_friendly {syn}}, not a data frame or a list of data frames."
  ), "input", call = call)
}

#' The missing codes of a synds object's columns: its `cont.na` (a list by
#' column; with strata a matrix of such lists, one row per stratum, all
#' alike) without NA, as numbers; columns without codes are left out.
#' @noRd
synds_codes <- function(x) {
  cna <- x[["cont.na"]]
  if (is.null(cna)) return(list())
  if (!is.null(dim(cna))) cna <- cna[1L, , drop = TRUE]
  if (!is.list(cna) || is.null(names(cna))) return(list())
  out <- lapply(cna, function(v) {
    v <- suppressWarnings(as.double(unlist(v)))
    unique(v[!is.na(v)])
  })
  out[lengths(out) > 0L]
}

#' The generated sets with every synds object replaced by its data frames
#' (a synds object alone: its data frame, or a list of its m; in a list,
#' each becomes one set or m named after it), and the missing codes of
#' them all by column (the union of their `cont.na`).
#' @return list(generated, codes)
#' @noRd
synds_sets <- function(generated, arg = "generated",
                       call = rlang::caller_env()) {
  if (is_synds(generated)) {
    frames <- synds_frames(generated, "syn", arg, call)
    gen <- if (length(frames) == 1L) frames[[1L]] else frames
    return(list(generated = gen, codes = synds_codes(generated)))
  }
  if (!has_synds(generated)) return(list(generated = generated, codes = list()))
  nms <- model_names(generated)
  out <- list()
  codes <- list()
  for (i in seq_along(generated)) {
    g <- generated[[i]]
    if (!is_synds(g)) {
      out[[nms[i]]] <- g
      next
    }
    out <- c(out, synds_frames(g, nms[i], paste0(arg, "$", nms[i]), call))
    for (nm in names(cs <- synds_codes(g))) {
      codes[[nm]] <- unique(c(codes[[nm]], cs[[nm]]))
    }
  }
  list(generated = out, codes = codes)
}

#' One generated set for the functions that take a single one: a synds
#' object's data frame (m = 1) and its codes; with m > 1 an error naming
#' the fix.
#' @return list(generated, codes)
#' @noRd
synds_single <- function(generated, arg = "generated",
                         call = rlang::caller_env()) {
  if (!is_synds(generated)) return(list(generated = generated, codes = list()))
  s <- synds_sets(generated, arg, call)
  if (!is.data.frame(s$generated)) {
    prd_abort(c(
      "{.arg {arg}} must be one sample set, but this synthpop object holds {length(s$generated)} ({.field m} = {length(s$generated)}).",
      "i" = "Pass one of them, {.code {arg}$syn[[1]]}, or use a function that takes several, such as {.fn prd_curve}."
    ), "input", call = call)
  }
  s
}
