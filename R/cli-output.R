# The command line's output: the tables it prints and writes, the figures
# it saves and their titles.

#' The statistics printed by the command line (every one is in the CSV
#' files)
#' @noRd
cli_key_statistics <- c("auc", "max_precision", "max_recall",
                        "f_beta_precision", "f_beta_recall")

#' Per-model, per-method summary: the key statistics, with their
#' intervals when there are replicates
#' @noRd
cli_summary <- function(curve) {
  s <- as.data.frame(summary(curve))
  keys <- intersect(c("model", "method", "k"), names(s))
  stats <- intersect(cli_key_statistics, names(s))
  out <- s[keys]
  for (st in stats) {
    out[[st]] <- cli_estimate(s[[st]], s[[paste0(st, "_lower")]],
                              s[[paste0(st, "_upper")]])
  }
  out
}

#' The line under the summary for the models whose default curve is the
#' ceiling (details$choice "ceiling": no family tells them from the real
#' set), or nothing
#' @noRd
cli_ceiling_note <- function(curve) {
  info <- prd_curve_info(curve)
  at <- vapply(info$details, function(d) identical(d$choice, "ceiling"),
               logical(1))
  if (!any(at)) return(character())
  m <- unique(info$model[at])
  strwrap(paste0(
    paste(m, collapse = ", "), ": no family tells ",
    if (length(m) == 1L) "it" else "them",
    " from the real set beyond what a score that knows nothing of the data ",
    "reads on these rows, so the curve is that of Q = P, min(1, lambda) ",
    "(see ?prd_curve, \"tightest\")."), width = 78)
}

#' The line under the summary when the default read the real rows as
#' clustered and took the mixture family (details$clusters_gain > 0, the
#' clusters test's held-out gain): the default can still read high there
#' (?prd_curve, "mixture"; wider sets get the clusters warning), or
#' nothing
#' @noRd
cli_clusters_note <- function(curve) {
  info <- prd_curve_info(curve)
  joined <- vapply(info$details, function(d) {
    identical(clustered_read(d), "joined")
  }, logical(1))
  if (!any(joined)) return(character())
  strwrap(paste0(
    "The real rows are clustered, so the default took the mixture family. ",
    "On clustered data it can still read above the true AUC: on the ",
    "validity suite's widened classes at 5,000 points per set by 0.06 to ",
    "0.18 at d = 256 and 0.13 to 0.26 at d = 512 (see ?prd_curve, ",
    "\"mixture\")."), width = 78)
}

#' The metrics table, long: model, metric, k, value (with its interval)
#' @noRd
cli_metrics_table <- function(m) {
  m <- as.data.frame(m)
  data.frame(model = m$model, metric = m$metric, k = m$k,
             value = cli_estimate(m$value, cli_col(m, "lower", "conf.low"),
                                  cli_col(m, "upper", "conf.high")),
             stringsAsFactors = FALSE)
}

#' The comparison, key statistics only
#' @noRd
cli_compare_table <- function(cmp) {
  cmp <- as.data.frame(cmp)
  cmp <- cmp[cmp$statistic %in% cli_key_statistics, , drop = FALSE]
  data.frame(model = cmp$model, method = cmp$method, k = cmp$k,
             statistic = cmp$statistic,
             difference = cli_estimate(cmp$estimate,
                                       cli_col(cmp, "lower", "conf.low"),
                                       cli_col(cmp, "upper", "conf.high")),
             stringsAsFactors = FALSE)
}

#' The metrics' comparison: every metric, its difference and interval
#' @noRd
cli_metrics_compare_table <- function(cmp) {
  cmp <- as.data.frame(cmp)
  data.frame(model = cmp$model, metric = cmp$statistic, k = cmp$k,
             difference = cli_estimate(cmp$estimate,
                                       cli_col(cmp, "lower", "conf.low"),
                                       cli_col(cmp, "upper", "conf.high")),
             stringsAsFactors = FALSE)
}

cli_col <- function(df, ...) {
  for (nm in c(...)) if (nm %in% names(df)) return(df[[nm]])
  NULL
}

#' "0.912" or "0.912 [0.871, 0.950]": three decimals everywhere, so that
#' the columns line up and compare.
#' @noRd
cli_estimate <- function(estimate, lower = NULL, upper = NULL) {
  f <- function(v) ifelse(is.na(v), "NA", sprintf("%.3f", v))
  out <- f(estimate)
  if (!is.null(lower) && !is.null(upper)) {
    ci <- !is.na(lower) & !is.na(upper)
    out[ci] <- paste0(out[ci], " [", f(lower[ci]), ", ", f(upper[ci]), "]")
  }
  out
}

#' Print a table of strings and whole numbers, right-aligned, no row names
#' @noRd
cli_print <- function(df) {
  cols <- lapply(df, function(col) {
    if (is.double(col)) sprintf("%.3f", col) else as.character(col)
  })
  cols <- Map(function(nm, v) {
    w <- max(nchar(c(nm, v), type = "width"))
    formatC(c(nm, v), width = w)
  }, names(df), cols)
  lines <- do.call(paste, c(unname(cols), sep = "  "))
  # one line per row, however wide: a terminal or a file keeps the columns
  cat(lines, sep = "\n")
  invisible(df)
}

#' The figure of a result (curves, metric table, comparison) with a title,
#' at the package's figure size; nothing without ggplot2 or without an
#' autoplot() method for the result. Returns the path written, or nothing.
#' @noRd
cli_save_plot <- function(x, path, title) {
  if (!requireNamespace("ggplot2", quietly = TRUE)) return(character())
  has_method <- any(vapply(class(x), function(cl) {
    !is.null(utils::getS3method("autoplot", cl, optional = TRUE,
                                envir = asNamespace("ggplot2")))
  }, logical(1)))
  if (!has_method) return(character())
  p <- cli_plot(x, title)
  size <- cli_figure_size(p)
  fitted <- cli_fit_title(title, size$width)
  if (!identical(fitted, title)) {
    title <- fitted
    p <- p + ggplot2::labs(title = title)
  }
  # room for the title's lines
  lines <- length(strsplit(title, "\n", fixed = TRUE)[[1]])
  ggplot2::ggsave(path, p, width = size$width,
                  height = size$height + 0.18 * lines, units = "in",
                  dpi = size$dpi)
  path
}

#' A title fitted to a figure of `width` inches (about 14 characters an
#' inch at the title's 8 points: the curves' 3.3-inch figure cut
#' "... split = 0.5" to "split = 0."): a one-line title goes on two lines
#' at its dash (which goes), and a line still too wide on more lines, at
#' its commas: between files (several models read from one .npz name the
#' archive after each model) or between parameters.
#' @noRd
cli_fit_title <- function(title, width) {
  limit <- floor(14 * width)
  if (!grepl("\n", title, fixed = TRUE) && nchar(title) > limit) {
    title <- sub(" \u2014 | - ", "\n", title)
  }
  lines <- strsplit(title, "\n", fixed = TRUE)[[1]]
  # greedy: as many files (or parameters) on a line as fit, each line
  # ending in its comma
  wrap <- function(line) {
    if (nchar(line) <= limit) return(line)
    pieces <- strsplit(line, "(?<=,) ", perl = TRUE)[[1]]
    out <- pieces[1]
    for (piece in pieces[-1]) {
      last <- out[length(out)]
      if (nchar(last) + 1L + nchar(piece) <= limit) {
        out[length(out)] <- paste(last, piece)
      } else {
        out <- c(out, piece)
      }
    }
    out
  }
  paste(unlist(lapply(lines, wrap)), collapse = "\n")
}

#' The figure: autoplot() with a title (one panel per model when there are
#' several models and methods); the figure size of autoplot() is kept.
#' @noRd
cli_plot <- function(x, title) {
  rlang::check_installed("ggplot2", reason = "to plot PR curves.")
  p <- ggplot2::autoplot(x)
  size <- attr(p, "prd_figure_size")
  p <- p + ggplot2::labs(title = title) +
    ggplot2::theme(plot.title = ggplot2::element_text(size = 8))
  if (!is.null(size)) attr(p, "prd_figure_size") <- size
  p
}

#' The size at which a figure is saved: prd_figure_size(), the package's
#' one documented figure size.
#' @noRd
cli_figure_size <- function(p) prd_figure_size(p)

#' "real.csv vs gen_a.csv, gen_b.csv - knn, kde curves, k = 71, split =
#' 0.5" (", 5 splits averaged" with `repeats`; on two lines without the
#' dash when long); a model named otherwise
#' than its file (`--generated noisy=a.npy`) as "noisy (a.npy)", the name
#' the legend and panels use. `bands = FALSE` (a comparison's figure):
#' the replicates give intervals, not bands. `standardized`: the sets were
#' scaled by the real set (`--standardize`), said at the end.
#' @noRd
cli_title <- function(real, generated, curve, what = NULL, bands = TRUE,
                      standardized = FALSE) {
  dash <- if (isTRUE(l10n_info()$`UTF-8`)) " \u2014 " else " - "
  lab <- basename(generated)
  nm <- names(generated)
  if (!is.null(nm)) {
    stem <- sub("\\.[^.]*$", "", sub("\\.(gz|bz2|xz|zip)$", "", lab))
    own <- nzchar(nm) & nm != stem
    # consecutive models of one file (the arrays of an .npz) name it once:
    # "good, noisy (models.npz)"
    last <- own & c(lab[-1] != lab[-length(lab)] | !own[-1], TRUE)
    lab[own] <- ifelse(last[own], paste0(nm[own], " (", lab[own], ")"),
                       nm[own])
  }
  files <- paste0(basename(real), " vs ", paste(lab, collapse = ", "))
  reps_text <- NULL
  if (inherits(curve, "prd_curve")) {
    info <- prd_curve_info(curve)
    methods <- unique(info$method)
    what <- paste0(paste(methods, collapse = ", "),
                   if (length(methods) > 1L) " curves" else " curve",
                   if (!is.null(what)) paste0(", ", what))
    # (the fitted families have no k: NA)
    k_text <- cli_k_text(info$k)
    if (!is.null(k_text)) k_text <- paste0("k = ", k_text)
    split_text <- paste(unique(info$split), collapse = ", ")
    # the splits averaged (`repeats`, 5 by default below 1,000 rows a set)
    rp <- curve_repeats(info)
    if (rp > 1L) split_text <- paste0(split_text, ", ", rp, " splits averaged")
    # the bands: their level and the replicates behind them
    reps <- info$replicates[!vapply(info$replicates, is.null, logical(1))]
    if (length(reps)) {
      n_rep <- max(vapply(reps, function(r) max(r$replicate), numeric(1)))
      reps_text <- sprintf(", 90%% %s from %d half-samples",
                           if (bands) "bands" else "intervals", n_rep)
    }
  } else {
    # a metrics table: its k and split attributes
    k_text <- cli_metrics_k(curve)
    sp <- attr(curve, "split")
    split_text <- if (is.numeric(sp)) format(sp) else "rows"
  }
  params <- paste0(if (!is.null(what)) paste0(what, ", "),
                   if (!is.null(k_text)) paste0(k_text, ", "),
                   "split = ", split_text, reps_text,
                   if (standardized) ", standardized")
  if (nchar(files) + nchar(params) > 70L) {
    paste0(files, "\n", params)
  } else {
    paste0(files, dash, params)
  }
}

#' The curves' k as text ("32", "5, 10"), NULL when no curve has one (the
#' fitted families' k is NA).
#' @noRd
cli_k_text <- function(k) {
  k <- unique(k[!is.na(k)])
  if (length(k)) paste(k, collapse = ", ")
}

#' The k of a metrics table as text: "k = 5", "k = 5; ppr_k = 4" when the
#' table holds p_precision/p_recall, whose k column is their ppr_k,
#' "ppr_k = 4" with those alone, NULL when no metric has a k (the embedding
#' metrics).
#' @noRd
cli_metrics_k <- function(metrics) {
  ppr <- metrics$metric %in% c("p_precision", "p_recall")
  k <- unique(metrics$k[!ppr & !is.na(metrics$k)])
  pk <- unique(metrics$k[ppr & !is.na(metrics$k)])
  parts <- c(if (length(k)) paste0("k = ", paste(k, collapse = ", ")),
             if (length(pk)) paste0("ppr_k = ", paste(pk, collapse = ", ")))
  if (length(parts)) paste(parts, collapse = "; ")
}

