# The command line's metrics table (`--metrics`, `--metrics=NAMES`): the
# manifold metrics and the embedding metrics named, computed by their own
# functions on the same seed and replicates and bound into one metrics
# table (so the CSV, the printed table, the plot and the paired
# differences take both).

#' The metrics of `--metrics`: `names` NULL (the bare flag) gives
#' manifold_metrics()'s default metrics; otherwise each name is a manifold
#' or an embedding metric (an unknown name is a classed error naming the
#' option).
#' @noRd
cli_metric_table <- function(real, gens, names, k, closed, replicates,
                             standardize, seed) {
  known <- c(manifold_metric_names(), embedding_metric_names())
  if (is.null(names)) names <- manifold_metric_names()
  bad <- setdiff(names, known)
  if (length(bad)) {
    prd_abort(c("Option {.code --metrics} must name metrics of {.fn manifold_metrics} or {.fn embedding_metrics}.",
                "x" = "Unknown: {.val {bad}}.",
                "i" = "Metrics: {.val {known}}."), kind = "input", call = NULL)
  }
  man <- intersect(names, manifold_metric_names())
  emb <- intersect(names, embedding_metric_names())
  set.seed(seed)
  a <- if (length(man)) {
    manifold_metrics(real, gens, metrics = man, k = k, closed = closed,
                     replicates = replicates, standardize = standardize)
  }
  set.seed(seed)
  b <- if (length(emb)) {
    embedding_metrics(real, gens, metrics = emb, replicates = replicates,
                      standardize = standardize)
  }
  if (is.null(a)) return(b)
  if (is.null(b)) return(a)
  bind_metric_tables(a, b)
}

#' Two metrics tables of the same models (and the same replicates) as one:
#' the rows of `a`, then those of `b`; the attributes of `a`, the
#' replicate values of both.
#' @noRd
bind_metric_tables <- function(a, b) {
  cols <- intersect(c("model", "metric", "k", "value", "lower", "upper"),
                    names(a))
  rows <- vctrs::vec_rbind(tibble::as_tibble(unclass(a)[cols]),
                           tibble::as_tibble(unclass(b)[cols]))
  keep <- setdiff(names(attributes(a)), c("names", "row.names", "class"))
  out <- tibble::new_tibble(rows, nrow = nrow(rows), class = "prd_metrics")
  for (nm in keep) attr(out, nm) <- attr(a, nm)
  ra <- attr(a, "replicates")
  rb <- attr(b, "replicates")
  if (!is.null(ra) && !is.null(rb)) {
    attr(out, "replicates") <- vctrs::vec_rbind(ra, rb)
  }
  out
}
