# The command line's metrics table (`--metrics`, `--metrics=NAMES`): the
# manifold metrics and the embedding metrics named, computed by their own
# functions on the same seed and replicates and bound into one metrics
# table (so the CSV, the printed table, the plot and the paired
# differences take both).

#' The names of `--metrics=NAMES` (NULL, the bare flag: manifold_metrics()'
#' default metrics), checked when the options are read (cli_parse()), before
#' any file is read or curve computed: each a manifold or an embedding
#' metric, else a classed error naming the option, the names it may mean
#' (the registry's aliases: FID, memorisation) and every metric.
#' @noRd
cli_metric_names <- function(names) {
  if (is.null(names)) return(manifold_metric_names())
  # (ct needs a held-out real set, vendi_class the class labels: arguments
  # of embedding_metrics() the command line does not take)
  needs <- c(ct = "a held-out real set ({.arg held_out})",
             vendi_class = "class labels ({.arg classes})")
  known <- setdiff(c(manifold_metric_names(), embedding_metric_names()),
                   names(needs))
  names <- names[nzchar(names)]
  out <- intersect(names, names(needs))
  if (length(out)) {
    args <- paste(c(if ("ct" %in% out) "held_out = ...",
                    if ("vendi_class" %in% out) "classes = ..."), collapse = ", ")
    why <- stats::setNames(paste0("{.val ", out, "} needs ", needs[out],
                                  " of {.fn embedding_metrics}, which the command line does not take."),
                           rep("x", length(out)))
    prd_abort(c("Option {.code --metrics} can't name {.val {out}}.", why,
                "i" = "In R: {.code embedding_metrics(real, generated, metrics = {deparse(out)}, {args})}."),
              kind = "input", call = NULL)
  }
  bad <- setdiff(names, known)
  if (length(bad) || !length(names)) {
    # (its own words: the R functions' names would be rewritten to the flag)
    al <- embedding_metric_aliases()
    near <- nearest_choices(bad, known, al[al %in% known])
    prd_abort(c("Option {.code --metrics} must name manifold or embedding metrics.",
                "x" = if (length(bad)) "Unknown: {.val {bad}}." else "It names none.",
                "i" = if (length(near)) "Did you mean {.val {near}}?",
                "i" = "Manifold metrics: {.val {manifold_metric_names()}}.",
                "i" = "Embedding metrics: {.val {setdiff(embedding_metric_names(), names(needs))}}."),
              kind = "input", call = NULL)
  }
  unique(names)
}

#' The metrics of `--metrics`: `names` NULL (the bare flag) gives
#' manifold_metrics()'s default metrics; otherwise each name is a manifold
#' or an embedding metric (an unknown name is a classed error naming the
#' option).
#' @noRd
cli_metric_table <- function(real, gens, names, k, closed, replicates,
                             standardize, seed, maxorder = 1L,
                             max_params = 400L) {
  names <- cli_metric_names(names)
  man <- intersect(names, manifold_metric_names())
  emb <- intersect(names, embedding_metric_names())
  set.seed(seed)
  a <- if (length(man)) {
    manifold_metrics(real, gens, metrics = man, k = k, closed = closed,
                     replicates = replicates, standardize = standardize)
  }
  set.seed(seed)
  b <- if (length(emb)) {
    # (the propensity model's settings only where a metric reads them:
    # embedding_metrics() warns of them otherwise, as cli_run() has)
    if (any(c("pmse", "s_pmse") %in% emb)) {
      embedding_metrics(real, gens, metrics = emb, replicates = replicates,
                        standardize = standardize, maxorder = maxorder,
                        max_params = max_params)
    } else {
      embedding_metrics(real, gens, metrics = emb, replicates = replicates,
                        standardize = standardize)
    }
  }
  if (is.null(a)) return(b)
  if (is.null(b)) return(a)
  out <- bind_metrics(list(a, b), c("", ""))
  # each model's rows together, its metrics in the order asked (the
  # manifold table's rows came first for every model)
  out[order(match(out$model, unique(out$model)), match(out$metric, names)), ]
}
