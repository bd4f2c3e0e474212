#' Command-line entry point: PR curves of generated sets against a real set
#'
#' Reads a file of real feature vectors (embeddings) and one or more files
#' of generated ones with [prd_read()] (CSV/TSV, `.npy`/`.npz`, Parquet,
#' Feather, `.rds`), computes the [prd_curve()] of every generated file
#' against the real set (one call, the files as models), writes them to
#' `<prefix>.csv` (one long table, columns `model`, `method`, `k`,
#' `lambda`, `precision`, `recall`; with `--replicates` also the ends of
#' the figure's bands, [prd_curve_bands()]) and `<prefix>.png` (one panel per
#' model, when ggplot2 is installed), and prints each curve's main
#' [summary()][summary.prd_curve] statistics per model and method. Meant to
#' be run from a shell, with the script installed with the package:
#'
#' ```
#' $(Rscript -e 'cat(system.file("scripts", "prdcurve", package = "prdcurve"))') \
#'   --real real.npy --generated a=gen_a.npy --generated gen_b.csv \
#'   [--features SPEC] [--id COLUMN] [--method knn,coverage] [--k 10] \
#'   [--split 0.5] [--seed 1] [--angles 1001] [--bandwidth 2.5] \
#'   [--replicates 50] [--metrics] [--compare a] [--open] [--out prefix] \
#'   [--quiet]
#' ```
#'
#' or as `Rscript -e 'prdcurve::prd_cli()' real.csv generated.csv [options]`.
#' The script exits with status 1 and a `prdcurve: error: ...` message (no
#' R backtrace) when something fails.
#'
#' Warnings and errors speak the command line's language: the conditions
#' of [prd_curve()], [manifold_metrics()] and [prd_read()] name R
#' arguments (`` `k` = 40 ``, `` `method = "knn"` ``, `` `real` ``); the
#' command line rewrites them to name its options and files
#' (`` `--k 40` ``, `` `--method knn` ``, `` `real.csv` ``), drops advice
#' to use what the run already uses (`--method tightest` when it runs) or
#' that has no command-line form, and prints each warning once, as it
#' arrives (before the results), as a `prdcurve: warning: ...` message on
#' standard error (class `prdcurve_cli_warning`; the original warning is
#' its field `condition`).
#'
#' Options (each also accepted as `--name=value`):
#' * `--real FILE`: the real samples. Or give it as the first file argument
#'   (`real.csv generated.csv`, the positional form).
#' * `--generated [LABEL=]FILE`: a set of generated samples, repeatable; the
#'   label names its curve (column `model`), by default the file's base
#'   name without extension. Further file arguments are generated files too.
#'   An array of an `.npz` file is `FILE.npz:NAME` (default label `NAME`).
#'   A generated `.npz` without `:NAME` that holds several arrays is one
#'   model per array, labelled by the array's name (`LABEL:NAME` with
#'   `LABEL=FILE.npz`), except an array given as `--real FILE.npz:NAME`:
#'   `numpy.savez("feats.npz", real = r, good = a, noisy = b)` is
#'   `prdcurve feats.npz:real feats.npz`. Arrays that are not 2-D (class
#'   labels, ids) are not models (the progress output lists them); one 2-D
#'   array left (or the only one) is the model, labelled by the array
#'   (by the file for NumPy's default name `arr_0`; `FILE:NAME` when two
#'   files hold an array of that name). A real `.npz` needs
#'   `:NAME` unless it holds one array, or one 2-D array beside 1-D ones
#'   (read with a message).
#' * `--features SPEC`: the feature columns, the same in every file: a
#'   comma-separated list of column names, `a:b` ranges of names and column
#'   numbers (`f1,f5:f9` or `1:128`), or a tidyselect expression such as
#'   `'starts_with("f")'` or `'c(f1:f64, -f13)'` (quote it for the shell).
#'   Default: every numeric column; an exclusion alone removes columns
#'   from it, `--features=-label` (with `=`: a value that starts with `-`
#'   would be read as an option). `.npy`/`.npz` arrays have no column
#'   names: every column of an array is a feature, and `--features`
#'   applies to arrays only when it gives column numbers (`1:128`); so one
#'   `--features` serves a mix of arrays and tables.
#' * `--id COLUMN`: an identifier column, never a feature (it may be
#'   missing from some files, for instance `.npy` files).
#' * `--method`: comma-separated methods among the package's curve methods
#'   (those [prd_curve()] accepts); default `tightest`, the default of [prd_curve()].
#' * `--k`: number of neighbours (default: `round(sqrt(fit size))`, see
#'   [prd_curve()]).
#' * `--split`: fraction of each set held out for evaluation, in \[0, 1)
#'   (default 0.5; 0 = no split).
#' * `--seed`: a whole number given to [set.seed()] before the curves are
#'   computed (one call of [prd_curve()] with every generated file as a
#'   model, so every model uses the same split of the real set, and the
#'   first model's curve equals the curve of a run with that file alone),
#'   and again before the metrics. Default: a seed drawn at random
#'   (printed, so that the run can be repeated).
#' * `--angles`: number of \eqn{\lambda} values (default 1001).
#' * `--bandwidth`: the `"kde"` bandwidth, one value or two separated by a
#'   comma (real, generated); default estimated.
#' * `--folds K`: cross-fit the fitted families in K folds (`folds` of
#'   [prd_curve()]); default 10 (fewer on small sets), 1 for one fit on
#'   the fit rows.
#' * `--replicates R`: half-sample replicates for 90% intervals (`replicates`
#'   of [prd_curve()] and [manifold_metrics()]); default 0 (none). The
#'   CSV files then hold the intervals and the printed summary shows them.
#' * `--metrics`: also the scalar metrics, [manifold_metrics()] with its
#'   default metrics, `k` = `--k` (default 5), no split, the same seed and
#'   replicates; written to `<prefix>-metrics.csv` (columns of
#'   [manifold_metrics()]) and printed. `--metrics=NAMES` (comma-separated)
#'   computes the metrics named, of [manifold_metrics()] and of
#'   [embedding_metrics()] (`fd`, `kid`, `vendi`, `authpct`, ...; not `ct`,
#'   which needs a held-out set), in one table.
#' * `--compare BASELINE`: the paired differences of every other model from
#'   the model labelled `BASELINE`, [prd_compare()] of the curves (needs
#'   `--replicates` and two generated files or more): written to
#'   `<prefix>-compare.csv` (columns of [prd_compare()]) and drawn as a
#'   forest plot, `<prefix>-compare.png`; with `--metrics`, the metrics'
#'   differences go to `<prefix>-metrics-compare.csv`.
#' * `--atoms exact|ignore`: how the `"marginal"` family (and the default
#'   `"tightest"`) reads columns on a grid in one set only (`atoms` of
#'   [prd_curve()] and [prd_compare()]): `exact` (default) as atoms the
#'   other set never hits, `ignore` as continuous values.
#' * `--open`: open balls (`closed = FALSE`, the convention of `prdc`).
#' * `--standardize`: centre and scale every column by the real set's mean
#'   and standard deviation (`standardize = "real"` of [prd_curve()] and
#'   [manifold_metrics()]), for columns in different units (tabular
#'   data); default none (embeddings).
#' * `--out PREFIX`: prefix of the output files (default `"prdcurve"`, i.e.
#'   `prdcurve.csv` and `prdcurve.png` in the working directory); an
#'   existing folder, or a path ending in `/`, writes `FOLDER/prdcurve.*`.
#'   The folder must exist and be writable: this is checked before any
#'   file is read.
#' * `--header`, `--no-header`: for delimited text, whether the first line
#'   holds column names (default: detected, see [prd_read()]).
#' * `--quiet`: print nothing on standard output and no progress messages
#'   (messages about ignored columns, warnings and errors still go to
#'   standard error).
#' * `--help`, `-h`: print the usage and return.
#'
#' Progress messages ("Read real.csv: 5000 x 2048 in 0.8 s", ...) go to
#' standard error, the tables to standard output: every statistic with
#' three decimals (`0.912 [0.871, 0.950]` with replicates), one line per
#' row. Figures are saved at the package's figure size (width and height
#' of `prd_figure_size()`, 300 dpi), plus the title's lines. Non-numeric
#' columns that are not selected are ignored with a message naming them.
#' Every file must give the same number of feature columns; when the
#' generated file has the real file's feature names in another order, its
#' columns are reordered to match.
#'
#' @param args Character vector of command-line arguments: file paths and
#'   options, in any order. Default: the trailing arguments of the R
#'   process, [commandArgs]`(trailingOnly = TRUE)`.
#' @return The curves, invisibly (`NULL` for `--help`): the [prd_curve()]
#'   result (columns `model`, `method`, `k`, `lambda`, `precision`,
#'   `recall`; settings in [prd_curve_info()]).
#' @section Errors: errors have class `prdcurve_error` and a specific
#'   class: `prdcurve_error_input` for an unknown option, an option missing
#'   its value or with a bad value (`--replicates 1`, a `--compare` label
#'   that is not a model, `--compare` without `--replicates`), a missing
#'   real or generated file argument, duplicated labels, a bad
#'   `--features`/`--id` or an `.npz` array that does not exist;
#'   `prdcurve_error_output` when the folder of `--out` does not exist or
#'   is not writable, or an output file is a folder (before any
#'   computation); `prdcurve_error_file` for a file that does not exist, is
#'   a directory or can't be read (see [prd_read()]);
#'   `prdcurve_error_columns` when the files' numbers of feature columns
#'   differ. [prd_curve()]'s own errors (too large a `k`, ...) keep their
#'   classes, with messages that name the options (`--k`).
#' @references Sykes, B., Simon, L., Rabin, J. and Fadili, J. (2024). A new
#'   perspective on precision and recall for generative models.
#'   arXiv:2405.01611. Sections 2, 4.2.
#' @seealso [prd_read()], [prd_curve()], [summary.prd_curve()].
#' @examples
#' set.seed(1)
#' dir <- tempfile("prdcli")
#' dir.create(dir)
#' real <- file.path(dir, "real.csv")
#' gen_a <- file.path(dir, "gen_a.csv")
#' gen_b <- file.path(dir, "gen_b.csv")
#' utils::write.csv(matrix(rnorm(200 * 4), ncol = 4), real, row.names = FALSE)
#' utils::write.csv(matrix(rnorm(200 * 4, mean = 0.3), ncol = 4), gen_a,
#'                  row.names = FALSE)
#' utils::write.csv(matrix(rnorm(200 * 4, sd = 0.5), ncol = 4), gen_b,
#'                  row.names = FALSE)
#' out <- file.path(dir, "curve")
#' curves <- prd_cli(c("--real", real, "--generated", gen_a,
#'                     "--generated", paste0("narrow=", gen_b),
#'                     "--method", "knn,coverage", "--seed", "1",
#'                     "--out", out))
#' head(utils::read.csv(paste0(out, ".csv")))
#' unlink(dir, recursive = TRUE)
#' # from a shell:
#' # prdcurve --real real.csv --generated gen_a.csv --generated gen_b.csv
#' # Rscript -e 'prdcurve::prd_cli()' real.csv generated.csv --seed 1
#' @export
prd_cli <- function(args = commandArgs(trailingOnly = TRUE)) {
  if (!is.character(args)) {
    prd_abort("{.arg args} must be a character vector of command-line arguments.",
              kind = "input", call = NULL)
  }
  # a command line shows the error message, not an R backtrace; with
  # prdcurve.cli the messages name the command line's options
  old <- options(rlang_backtrace_on_error = "none", prdcurve.cli = TRUE)
  on.exit(options(old), add = TRUE)
  opt <- cli_parse(args)
  if (isTRUE(opt$help)) {
    cat(cli_usage(), sep = "\n")
    return(invisible(NULL))
  }
  # the conditions of the run name flags and files, warnings come as they
  # arrive (before the results)
  cli_voice(cli_run(opt), opt)
}

#' The work of prd_cli() once its options are parsed: read, compute,
#' write, print. Returns the curves.
#' @noRd
cli_run <- function(opt) {
  say <- function(msg, .envir = parent.frame()) {
    if (!opt$quiet) prd_inform(msg, kind = "progress", .envir = .envir)
  }
  features <- cli_features(opt$features)
  if (length(opt$skipped)) {
    bullets <- gsub("}", "}}", gsub("{", "{{", opt$skipped, fixed = TRUE),
                    fixed = TRUE)
    say(c("Arrays that are not feature matrices (2-D) are not models:",
          stats::setNames(bullets, rep("*", length(bullets)))))
  }
  # every file and the output folder are checked before the first (maybe
  # long) read and the computation
  inputs <- c(list(opt$real), unname(opt$generated))
  for (f in inputs) {
    check_path(f$path, call = NULL)
    if (!is.null(f$member) &&
        !f$member %in% names(npz_members(f$path, call = NULL))) {
      shown <- npz_described(f$path, names(npz_members(f$path, call = NULL)))
      prd_abort(c("File {.file {f$path}} has no array {.val {f$member}}.",
                  "i" = "Arrays: {shown}."),
                kind = "input", call = NULL)
    }
    if (is.null(f$member) && grepl("\\.npz$", f$path, ignore.case = TRUE)) {
      arrays <- names(npz_members(f$path, call = NULL))
      if (length(arrays) && is.na(npz_default_member(f$path, arrays))) {
        shown <- npz_described(f$path, arrays)
        prd_abort(c("File {.file {f$path}} holds several arrays: name one as {.code {f$path}:NAME}.",
                    "i" = "Arrays: {shown}; e.g. {.code {f$path}:{arrays[1]}}."),
                  kind = "file", call = NULL)
      }
    }
  }
  out <- cli_outputs(opt$out, metrics = opt$metrics,
                     compare = !is.null(opt$compare))

  real <- cli_read(opt$real, features, opt$id, opt$header, say)
  # an array's columns are selected by number on the command line
  if (isTRUE(real$array)) options(prdcurve.cli = "array")
  generated <- lapply(opt$generated, function(f) {
    g <- cli_read(f, features, opt$id, opt$header, say)
    cli_align(real, g)
  })
  ids_seen <- c(real$has_id, vapply(generated, `[[`, logical(1), "has_id"))
  if (!is.null(opt$id) && !any(ids_seen)) {
    prd_abort("The {.arg --id} column {.val {opt$id}} is in none of the files.",
              kind = "input", call = NULL)
  }
  seed <- opt$seed
  if (is.null(seed)) seed <- sample.int(.Machine$integer.max, 1L)
  # The columns are matched (cli_align() warned where names differ): every
  # set gets the real set's names, so that prd_curve() sees one set of
  # features. Renamed in place, without copying a matrix.
  gen_x <- stats::setNames(vector("list", length(generated)), names(generated))
  for (i in seq_along(generated)) {
    x <- generated[[i]]$x
    generated[[i]]$x <- NULL
    if (!identical(colnames(x), colnames(real$x))) {
      dimnames(x) <- list(NULL, colnames(real$x))
    }
    gen_x[[i]] <- x
    rm(x)
  }

  reps <- if (opt$replicates > 0) {
    sprintf(" with %d half-sample replicates", opt$replicates)
  } else ""
  say("Computing curves ({paste(opt$method, collapse = ', ')}) for {length(generated)} model{?s}{reps} ...")
  t0 <- proc.time()[["elapsed"]]
  # the warnings about the inputs (copies, id-like columns ...) come once:
  # the metrics below would repeat them word for word
  told <- character()
  curve <- withCallingHandlers(
    cli_curves(real$x, gen_x, seed = seed,
               method = opt$method, k = opt$k, split = opt$split,
               angles = opt$angles, bandwidth = opt$bandwidth,
               folds = opt$folds, closed = opt$closed,
               replicates = opt$replicates, standardize = opt$standardize,
               atoms = opt$atoms),
    warning = function(w) told <<- c(told, conditionMessage(w)))
  secs <- sprintf("%.1f", proc.time()[["elapsed"]] - t0)
  say("Computed in {secs} s.")
  # with replicates, the bands of the figure as data
  data.table::fwrite(if (opt$replicates > 0) prd_curve_bands(curve) else
    as.data.frame(curve), out$csv)
  written <- out$csv
  std <- opt$standardize == "real"
  # the real set as given: FILE.npz:NAME for an array of an .npz
  real_label <- paste0(opt$real$path,
                       if (!is.null(opt$real$member)) paste0(":", opt$real$member))
  title <- cli_title(real_label, vapply(opt$generated, `[[`, "", "path"),
                     curve, standardized = std)
  written <- c(written, cli_save_plot(curve, out$png, title))

  metrics <- NULL
  if (opt$metrics) {
    say("Computing the metrics ...")
    t0 <- proc.time()[["elapsed"]]
    set.seed(seed)
    metrics <- withCallingHandlers(
      cli_metric_table(real$x, gen_x, opt$metric_names,
                       k = if (is.null(opt$k)) 5 else opt$k,
                       closed = opt$closed, replicates = opt$replicates,
                       standardize = opt$standardize, seed = seed),
      warning = function(w) {
        if (conditionMessage(w) %in% told) invokeRestart("muffleWarning")
      })
    secs <- sprintf("%.1f", proc.time()[["elapsed"]] - t0)
    say("Computed in {secs} s.")
    data.table::fwrite(as.data.frame(metrics), out$metrics_csv)
    mtitle <- cli_title(real_label,
                        vapply(opt$generated, `[[`, "", "path"), metrics,
                        what = "metrics", standardized = std)
    written <- c(written, out$metrics_csv,
                 cli_save_plot(metrics, out$metrics_png, mtitle))
  }
  comparison <- NULL
  if (!is.null(opt$compare)) {
    comparison <- prd_compare(curve, baseline = opt$compare,
                              atoms = opt$atoms)
    data.table::fwrite(as.data.frame(comparison), out$compare_csv)
    ctitle <- cli_title(real_label,
                        vapply(opt$generated, `[[`, "", "path"), curve,
                        what = paste("differences from", opt$compare),
                        bands = FALSE, standardized = std)
    written <- c(written, out$compare_csv,
                 cli_save_plot(comparison, out$compare_png, ctitle))
    if (!is.null(metrics)) {
      # (the same models: their unequal sizes were told with the curves)
      mcmp <- withCallingHandlers(
        prd_compare(metrics, baseline = opt$compare),
        prdcurve_warning_unequal_sizes = function(w) invokeRestart("muffleWarning"))
      data.table::fwrite(as.data.frame(mcmp), out$metrics_compare_csv)
      written <- c(written, out$metrics_compare_csv)
      comparison <- list(curves = comparison, metrics = mcmp)
    }
  }
  files <- basename(written)
  say("Wrote {.file {files}} in {.file {out$dir}}.")

  if (!opt$quiet) {
    cli_report(curve, metrics, comparison, opt, real_label = real_label,
               n_real = nrow(real$x), d = ncol(real$x),
               n_gen = vapply(gen_x, nrow, integer(1)), seed = seed, out = out)
  }
  invisible(curve)
}

#' Print a run's results on standard output: a line of its settings, the
#' summary of the curves, the metrics and the comparison when asked for.
#' @noRd
cli_report <- function(curve, metrics, comparison, opt, real_label, n_real,
                       d, n_gen, seed, out) {
  k <- prd_curve_info(curve)$k
  # the cross-fitted families' folds (10 by default, --folds K)
  folds <- unique(unlist(lapply(prd_curve_info(curve)$details, `[[`,
                                "folds")))
  cat(sprintf(
    "prd_curve: %s (%d rows) vs %s; %d features%s; k = %s; split = %s%s; seed = %d%s%s\n\n",
    basename(real_label), n_real,
    paste(sprintf("%s (%d rows)", names(opt$generated),
                  n_gen),
          collapse = ", "),
    d,
    if (opt$standardize == "real") ", standardized by the real set" else "",
    paste(unique(k), collapse = ", "), format(opt$split),
    if (length(folds)) sprintf("; %s folds", paste(folds, collapse = ", ")) else "",
    seed,
    if (opt$replicates > 0) sprintf("; %d replicates, 90%% intervals",
                                    opt$replicates) else "",
    if (is.null(opt$seed)) " (drawn at random; pass --seed to repeat)" else ""))
  cli_print(cli_summary(curve))
  # the summary shows the extremes: what its intervals cover
  if (opt$replicates > 0) cat(c("", curve_interval_note()), sep = "\n")
  if (!is.null(metrics)) {
    cat("\nMetrics (--metrics, k = ", cli_metrics_k(metrics),
        "):\n\n", sep = "")
    cli_print(cli_metrics_table(metrics))
  }
  if (!is.null(opt$compare)) {
    cmp <- if (is.list(comparison) && !is.data.frame(comparison))
      comparison$curves else comparison
    cat("\nDifferences from ", opt$compare,
        " (model - baseline, 90% intervals; all statistics in ",
        basename(out$compare_csv), "):\n\n", sep = "")
    cli_print(cli_compare_table(cmp))
  }
}

#' The output files of a run, from --out, checked before anything is
#' computed: the folder must exist and be writable, and no output may be
#' a folder. `--out DIR/` or an existing folder writes DIR/prdcurve.*.
#' @noRd
cli_outputs <- function(out, metrics = FALSE, compare = FALSE) {
  if (dir.exists(out) || grepl("[/\\\\]$", out)) {
    out <- file.path(sub("[/\\\\]+$", "", out), "prdcurve")
  }
  dir <- dirname(out)
  if (!dir.exists(dir)) {
    prd_abort(c("The folder of {.code --out} does not exist: {.file {dir}}.",
                "i" = "Create it first, or give another {.code --out}."),
              kind = "output", call = NULL)
  }
  if (file.access(dir, 2L) != 0L) {
    prd_abort("The folder of {.code --out} is not writable: {.file {dir}}.",
              kind = "output", call = NULL)
  }
  files <- list(csv = paste0(out, ".csv"), png = paste0(out, ".png"))
  if (metrics) {
    files$metrics_csv <- paste0(out, "-metrics.csv")
    files$metrics_png <- paste0(out, "-metrics.png")
  }
  if (compare) {
    files$compare_csv <- paste0(out, "-compare.csv")
    files$compare_png <- paste0(out, "-compare.png")
    if (metrics) files$metrics_compare_csv <- paste0(out, "-metrics-compare.csv")
  }
  taken <- unlist(files)[dir.exists(unlist(files))]
  if (length(taken)) {
    prd_abort("Can't write {.file {taken[1]}}: it is a folder.",
              kind = "output", call = NULL)
  }
  c(files, dir = dir)
}

#' The curves of every generated set: one call of prd_curve() with the
#' sets as a named list (a `model` column; the real split is shared).
#' @param real numeric matrix; generated named list of numeric matrices.
#' @param seed set before the call, so that the run can be repeated.
#' @noRd
cli_curves <- function(real, generated, seed, ...) {
  set.seed(seed)
  prd_curve(real, generated, ...)
}

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
#' 0.5" (on two lines without the dash when long); a model named otherwise
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
    k_text <- paste(unique(info$k), collapse = ", ")
    split_text <- paste(unique(info$split), collapse = ", ")
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
                   "k = ", k_text, ", split = ", split_text, reps_text,
                   if (standardized) ", standardized")
  if (nchar(files) + nchar(params) > 70L) {
    paste0(files, "\n", params)
  } else {
    paste0(files, dash, params)
  }
}

#' The k of a metrics table as text: "5", or "5; ppr_k = 4" when the
#' table holds p_precision/p_recall, whose k column is their ppr_k.
#' @noRd
cli_metrics_k <- function(metrics) {
  ppr <- metrics$metric %in% c("p_precision", "p_recall")
  text <- paste(unique(metrics$k[!ppr & !is.na(metrics$k)]), collapse = ", ")
  if (any(ppr)) {
    ppr_text <- paste0("ppr_k = ", paste(unique(metrics$k[ppr]), collapse = ", "))
    text <- if (nzchar(text)) paste0(text, "; ", ppr_text) else ppr_text
  }
  text
}

#' Read one file for the CLI: the feature matrix, with progress.
#'
#' An array file (.npy, .npz) has no column names: every column is a
#' feature, and --features applies to it only when it gives column numbers
#' (1:128); names and tidyselect helpers select in the files that have
#' named columns. So one --features works for a mix of arrays and tables.
#' @param f list(path, member)
#' @noRd
cli_read <- function(f, features, id, header, say) {
  path <- f$path
  t0 <- proc.time()[["elapsed"]]
  df <- read_table_file(path, header = header, member = f$member, call = NULL)
  is_array <- file_format(path) %in% c("npy", "npz")
  shown <- if (is.null(f$member)) path else paste0(path, ":", f$member)
  if (is_array && !is.null(features) && !isTRUE(attr(features, "positions"))) {
    features <- NULL
  }
  has_id <- !is.null(id) && id %in% names(df)
  sel <- select_features(df, features, id = if (has_id) id, arg = "--features",
                         file = shown, call = NULL)
  x <- if (!is.matrix(df)) {
    as.matrix(df[sel$features])
  } else if (identical(sel$features, colnames(df))) {
    df
  } else {
    df[, sel$features, drop = FALSE]
  }
  rm(df)
  # The common defects of a file (empty cells, too few rows) are reported
  # here, naming the file; prd_curve() validates everything once more, so
  # the full check runs only when a cheap test fails.
  if (nrow(x) < 2L || !is.finite(sum(x))) {
    x <- as_samples(x, arg = shown, call = NULL)
  }
  secs <- sprintf("%.1f", proc.time()[["elapsed"]] - t0)
  file <- basename(shown)
  say("Read {.file {file}}: {nrow(x)} x {ncol(x)} in {secs} s.")
  list(x = x, path = shown, has_id = has_id, array = is_array)
}

#' Match a generated set's feature columns with the real set's
#' @noRd
cli_align <- function(real, gen) {
  rn <- colnames(real$x)
  gn <- colnames(gen$x)
  if (identical(rn, gn)) return(gen)
  if (length(rn) == length(gn) && setequal(rn, gn)) {
    gen$x <- gen$x[, rn, drop = FALSE]
    return(gen)
  }
  if (length(rn) != length(gn)) {
    wide <- if (length(gn) > length(rn)) gen else real
    # an array with fewer rows than columns: samples saved in columns?
    flipped <- Filter(function(s) isTRUE(s$array) && nrow(s$x) < ncol(s$x),
                      list(real, gen))
    flip_hint <- if (length(flipped)) {
      f <- flipped[[1]]
      c("i" = paste0("{.file {basename(f$path)}} has fewer rows ({nrow(f$x)}) than columns ({ncol(f$x)}): ",
                     "are its samples in columns? Save one sample per row (in NumPy {.code np.save(path, x.T)})."))
    }
    prd_abort(c(
      "{.file {gen$path}} and {.file {real$path}} must have the same number of feature columns.",
      "x" = "{.file {basename(gen$path)}} has {length(gn)}, {.file {basename(real$path)}} has {length(rn)}.",
      flip_hint,
      "i" = "Choose the feature columns with {.code --features} (and an identifier with {.code --id}).",
      "i" = "Columns of {.file {basename(wide$path)}}: {.val {cli::cli_vec(colnames(wide$x), list('vec-trunc' = 8))}}."
    ), kind = "columns", call = NULL)
  }
  default <- function(nm) identical(nm, paste0("V", seq_along(nm)))
  if (!default(rn) && !default(gn) && !isTRUE(real$array) &&
      !isTRUE(gen$array)) {
    prd_warn(c(
      "The feature names of {.file {gen$path}} differ from those of {.file {real$path}}: columns are matched by position.",
      "i" = "E.g. {.val {gn[gn != rn][1]}} is matched with {.val {rn[gn != rn][1]}}."
    ), kind = "columns")
  }
  gen
}

#' Turn --features into a quosure for tidyselect (NULL when absent).
#'
#' A comma-separated list of names, numbers and a:b ranges becomes
#' c(`a`, `b`:`c`, 1:3) with the names as symbols (so that any column name
#' works); anything else is parsed as an R expression.
#' @noRd
cli_features <- function(spec) {
  if (is.null(spec)) return(NULL)
  spec <- trimws(spec)
  if (!nzchar(spec)) {
    prd_abort("Option {.code --features} must not be empty.", kind = "input",
              call = NULL)
  }
  tokens <- trimws(strsplit(spec, ",", fixed = TRUE)[[1]])
  simple <- "^[^()\"'`!:=&|~\\[\\]{}$@^*/+-][^()\"'`!:=&|~\\[\\]{}$@^]*$"
  parts <- strsplit(tokens, ":", fixed = TRUE)
  plain <- length(tokens) > 0L && all(nzchar(tokens)) &&
    all(lengths(parts) %in% 1:2) &&
    all(grepl(simple, trimws(unlist(parts)), perl = TRUE))
  if (plain) {
    atom <- function(s) {
      s <- trimws(s)
      if (grepl("^[0-9]+$", s)) as.numeric(s) else rlang::sym(s)
    }
    args <- lapply(parts, function(p) {
      if (length(p) == 1L) atom(p) else rlang::call2(":", atom(p[1]), atom(p[2]))
    })
    expr <- rlang::call2("c", !!!args)
  } else {
    expr <- tryCatch(
      rlang::parse_expr(paste0("c(", spec, ")")),
      error = function(e) {
        prd_abort(c("Option {.code --features} is neither a list of columns nor an R expression.",
                    "x" = "{conditionMessage(e)}",
                    "i" = "E.g. {.code --features f1,f3:f9} or {.code --features 'starts_with(\"f\")'}."),
                  kind = "input", call = NULL)
      })
  }
  # only numbers, `:`, `-` and c(): column positions
  positions <- !length(all.vars(expr)) &&
    all(all.names(expr) %in% c("c", ":", "-"))
  q <- rlang::new_quosure(expr, env = baseenv())
  attr(q, "positions") <- positions
  q
}

cli_option_list <- function() {
  mo <- optparse::make_option
  list(
    mo("--real", type = "character", metavar = "FILE",
       help = "real samples (or the first file argument)"),
    mo("--generated", type = "character", metavar = "[LABEL=]FILE",
       help = paste("generated samples; repeat for several models (default",
                    "label: the file name without extension); further file",
                    "arguments are generated files too")),
    mo("--features", type = "character", metavar = "SPEC",
       help = paste("feature columns: names and ranges (f1,f5:f9 or 1:128)",
                    "or a tidyselect expression ('starts_with(\"f\")');",
                    "default: every numeric column")),
    mo("--id", type = "character", metavar = "COLUMN",
       help = "identifier column, never a feature"),
    mo("--method", type = "character", metavar = "M1,M2",
       help = paste0("methods among ", paste(curve_methods(), collapse = ", "),
                     " (default: ", paste(cli_default_methods(), collapse = ","),
                     ")")),
    mo("--k", type = "character", metavar = "K",
       help = "number of neighbours (default: the square root of the fit size, rounded)"),
    mo("--split", type = "character", metavar = "S",
       help = "evaluation fraction in [0, 1), 0 = no split (default 0.5)"),
    mo("--seed", type = "character", metavar = "N",
       help = paste("seed of the random draws (split, folds, replicates), set",
                    "before the curves are computed (default: drawn at random",
                    "and printed)")),
    mo("--angles", type = "character", metavar = "A",
       help = "number of lambda values (default 1001)"),
    mo("--bandwidth", type = "character", metavar = "B",
       help = "kde bandwidth, one value or two (B_REAL,B_GEN); default: estimated"),
    mo("--folds", type = "character", metavar = "K",
       help = paste("cross-fit the fitted families (linear, quadratic, stacked,",
                    "marginal, and in tightest) in K folds of the evaluation rows, each",
                    "fitted on the fit rows and the other folds (default 10,",
                    "fewer on small sets; 1: one fit on the fit rows)")),
    mo("--replicates", type = "character", metavar = "R",
       help = paste("half-sample replicates for 90% intervals (0 = none,",
                    "default; 50 or more for intervals worth reading)")),
    mo("--metrics", action = "store_true", default = FALSE,
       help = paste("also the scalar metrics (precision, recall, density,",
                    "coverage, ...; k = --k or 5, no split),",
                    "written to PREFIX-metrics.csv; --metrics=fd,kid,... names",
                    "them, among the manifold and embedding metrics")),
    mo("--compare", type = "character", metavar = "BASELINE",
       help = paste("paired differences of every model from the model",
                    "labelled BASELINE (needs --replicates), written to",
                    "PREFIX-compare.csv and PREFIX-compare.png")),
    mo("--atoms", type = "character", metavar = "READING",
       help = paste("columns on a grid (whole numbers) in one set only, in the",
                    "marginal family: exact (default; atoms the other set",
                    "never hits) or ignore (read as continuous)")),
    mo("--open", action = "store_true", default = FALSE,
       help = "open balls (<, the prdc convention); default closed"),
    mo("--standardize", action = "store_true", default = FALSE,
       help = paste("centre and scale every column by the real set's mean and",
                    "standard deviation (columns in different units);",
                    "default: as given")),
    mo("--out", type = "character", metavar = "PREFIX",
       help = paste("write PREFIX.csv and PREFIX.png (default: prdcurve; a",
                    "folder, or a path ending in /, writes FOLDER/prdcurve.*);",
                    "the folder must exist")),
    mo("--header", action = "store_true", default = FALSE,
       help = "the first line of a text file holds column names"),
    mo("--no-header", action = "store_true", default = FALSE,
       dest = "no_header",
       help = "the first line is data (default: detected)"),
    mo("--quiet", action = "store_true", default = FALSE,
       help = "print nothing (no summary, no progress)")
  )
}

cli_parser <- function() {
  optparse::OptionParser(
    usage = paste(c(
      "%prog [options] REAL GENERATED [GENERATED ...]",
      "       %prog --real REAL --generated [LABEL=]FILE [--generated ...] [options]",
      "",
      "Precision-recall curves between real and generated embeddings (one row",
      "per sample, one numeric column per feature). Writes PREFIX.csv (model,",
      "method, k, lambda, precision, recall; with --replicates the bands' ends",
      "too) and PREFIX.png, prints the summary.",
      "",
      strwrap(paste0("Files: ", paste0(".", names(read_formats()), collapse = ", "),
                     " (see ?prdcurve::prd_read). An .npz array: FILE.npz:NAME; ",
                     "a generated .npz of several arrays without :NAME is one ",
                     "model per array (not the one given as the real set). ",
                     ".npy/.npz arrays have ",
                     "no column names: all their columns are features, and ",
                     "--features applies to them only as column numbers."),
              width = 72)),
      collapse = "\n"),
    option_list = cli_option_list(), prog = "prdcurve",
    epilogue = "Also: Rscript -e 'prdcurve::prd_cli()' REAL GENERATED [options]. See ?prdcurve::prd_cli.")
}

cli_usage <- function() {
  utils::capture.output(optparse::print_help(cli_parser()))
}

#' Parse command-line arguments into options (all checks here, classed
#' errors naming the option).
#' @noRd
cli_parse <- function(args) {
  valued <- c("real", "generated", "features", "id", "method", "k", "split",
              "seed", "angles", "bandwidth", "folds", "replicates", "compare",
              "atoms", "out")
  # optparse keeps only the last of a repeated option: collect --generated
  # here, in order. A negative number after an option would be taken for a
  # flag: attach it as --name=value.
  generated <- character()
  rest <- character()
  metric_names <- NULL
  i <- 1L
  while (i <= length(args)) {
    a <- args[i]
    i <- i + 1L
    if (startsWith(a, "--metrics=")) {
      # --metrics=NAMES: the metrics to compute (cli_metric_table())
      metric_names <- trimws(strsplit(sub("^--metrics=", "", a), ",")[[1]])
      a <- "--metrics"
    }
    if (identical(a, "--generated") || startsWith(a, "--generated=")) {
      if (a == "--generated") {
        if (i > length(args) || startsWith(args[i], "--")) {
          prd_abort("Option {.code --generated} needs a value.", kind = "input",
                    call = NULL)
        }
        a <- args[i]
        i <- i + 1L
      } else {
        a <- sub("^--generated=", "", a)
      }
      generated <- c(generated, a)
      next
    }
    if (a %in% paste0("--", valued) && i <= length(args) &&
        grepl("^-[0-9.]", args[i])) {
      a <- paste0(a, "=", args[i])
      i <- i + 1L
    }
    rest <- c(rest, a)
  }
  parsed <- tryCatch(
    optparse::parse_args(cli_parser(), args = rest, print_help_and_exit = FALSE,
                         positional_arguments = TRUE),
    optparse_parse_error = function(e) cli_parse_error(conditionMessage(e),
                                                       valued)
  )
  o <- parsed$options
  files <- parsed$args
  opt <- list(help = isTRUE(o$help))
  if (opt$help) return(opt)

  real <- o$real
  if (is.null(real)) {
    if (!length(files)) {
      prd_abort(c("No real file: give {.code --real FILE} or the real file as the first file argument.",
                  "i" = "Usage: {.code prdcurve REAL GENERATED [options]}; see {.code --help}."),
                kind = "input", call = NULL)
    }
    real <- files[1]
    files <- files[-1]
  }
  generated <- c(files, generated)
  if (!length(generated)) {
    prd_abort(c("No generated file: give {.code --generated FILE} (repeatable) or a file argument after the real file.",
                "i" = "Usage: {.code prdcurve REAL GENERATED [options]}; see {.code --help}."),
              kind = "input", call = NULL)
  }
  opt$real <- cli_file_spec(real)
  generated <- cli_expand_npz(generated, opt$real)
  opt$skipped <- attr(generated, "skipped")
  opt$generated <- lapply(cli_labels(generated), cli_file_spec)

  opt$features <- o$features
  opt$id <- o$id
  if (!is.null(opt$id) && !nzchar(trimws(opt$id))) {
    prd_abort("Option {.code --id} must name a column.", kind = "input",
              call = NULL)
  }
  choices <- curve_methods()
  opt$method <- if (is.null(o$method)) cli_default_methods() else
    unique(trimws(strsplit(o$method, ",", fixed = TRUE)[[1]]))
  bad <- setdiff(opt$method, choices)
  if (!length(opt$method) || length(bad)) {
    prd_abort(c("Option {.code --method} must be some of {.val {choices}}, separated by commas.",
                "x" = "Unknown: {.val {bad}}."),
              kind = "input", call = NULL)
  }
  opt$k <- if (!is.null(o$k)) cli_number(o$k, "k", whole = TRUE, min = 1)
  opt$split <- if (is.null(o$split)) 0.5 else cli_number(o$split, "split")
  if (opt$split < 0 || opt$split >= 1) {
    prd_abort(c("Option {.code --split} must be a fraction in [0, 1).",
                "x" = "It is {.val {o$split}}."),
              kind = "input", call = NULL)
  }
  opt$seed <- if (!is.null(o$seed)) {
    as.integer(cli_number(o$seed, "seed", whole = TRUE,
                          min = -.Machine$integer.max,
                          max = .Machine$integer.max))
  }
  opt$angles <- if (is.null(o$angles)) 1001 else
    cli_number(o$angles, "angles", whole = TRUE, min = 3)
  opt$bandwidth <- if (!is.null(o$bandwidth)) {
    bw <- strsplit(o$bandwidth, ",", fixed = TRUE)[[1]]
    if (!length(bw) %in% 1:2) {
      prd_abort(c("Option {.code --bandwidth} must be one or two numbers separated by a comma.",
                  "x" = "It is {.val {o$bandwidth}}."),
                kind = "input", call = NULL)
    }
    vapply(bw, cli_number, numeric(1), name = "bandwidth", min = 0,
           open_min = TRUE, USE.NAMES = FALSE)
  }
  opt$folds <- if (!is.null(o$folds)) {
    as.integer(cli_number(o$folds, "folds", whole = TRUE, min = 1, max = 100))
  }
  opt$replicates <- if (is.null(o$replicates)) 0L else
    as.integer(cli_number(o$replicates, "replicates", whole = TRUE, min = 0,
                          max = 1e5))
  if (opt$replicates == 1L) {
    prd_abort(c("Option {.code --replicates} must be 0 (no intervals) or at least 2.",
                "x" = "It is 1."), kind = "input", call = NULL)
  }
  opt$metrics <- isTRUE(o$metrics)
  opt$metric_names <- metric_names
  opt$compare <- o$compare
  if (!is.null(opt$compare)) {
    if (!opt$compare %in% names(opt$generated)) {
      prd_abort(c("Option {.code --compare} must be the label of a generated file.",
                  "x" = "It is {.val {opt$compare}}; the labels are {.val {names(opt$generated)}}."),
                kind = "input", call = NULL)
    }
    if (length(opt$generated) < 2L) {
      prd_abort("Option {.code --compare} needs at least two generated files.",
                kind = "input", call = NULL)
    }
    if (opt$replicates == 0L) {
      prd_abort(c("Option {.code --compare} needs intervals: give {.code --replicates}.",
                  "i" = "For instance {.code --replicates 50}."),
                kind = "input", call = NULL)
    }
  }
  opt$atoms <- if (is.null(o$atoms)) "exact" else o$atoms
  if (!opt$atoms %in% c("exact", "ignore")) {
    prd_abort(c("Option {.code --atoms} must be {.val exact} or {.val ignore}.",
                "x" = "It is {.val {opt$atoms}}."), kind = "input", call = NULL)
  }
  opt$closed <- !isTRUE(o$open)
  opt$standardize <- if (isTRUE(o$standardize)) "real" else "none"
  opt$out <- if (is.null(o$out)) "prdcurve" else o$out
  if (!nzchar(opt$out)) {
    prd_abort("Option {.code --out} must not be empty.", kind = "input",
              call = NULL)
  }
  if (isTRUE(o$header) && isTRUE(o$no_header)) {
    prd_abort("Options {.code --header} and {.code --no-header} exclude each other.",
              kind = "input", call = NULL)
  }
  opt$header <- if (isTRUE(o$header)) TRUE else if (isTRUE(o$no_header)) FALSE else NA
  opt$quiet <- isTRUE(o$quiet)
  opt
}

#' optparse's parse errors, re-raised as classed errors naming the option
#' @noRd
cli_parse_error <- function(msg, valued) {
  msg <- trimws(gsub("\\s+", " ", sub("^Error in [^:]*: *", "", msg)))
  name <- regmatches(msg, regexpr("\"[^\"]+\"|--?[A-Za-z0-9_.-]+", msg))
  name <- gsub("\"", "", name)
  if (length(name) && !startsWith(name, "-")) name <- paste0("--", name)
  text <- if (grepl("requires an argument", msg)) {
    "Option {.code {name}} needs a value."
  } else if (grepl("accepts no arguments", msg)) {
    "Option {.code {name}} takes no value."
  } else if (grepl("no such option", msg)) {
    "Unknown option {.code {name}}."
  } else {
    "Can't parse the command line: {msg}"
  }
  opts <- paste0("--", c(valued, "metrics", "open", "standardize", "header",
                         "no-header",
                         "quiet", "help"))
  prd_abort(c(text, "i" = "Options: {.code {opts}}; see {.code --help}."),
            kind = "input", call = NULL)
}

#' The methods the command line computes by default: the four estimators
#' of Sykes et al. (2024) among the package's curve methods.
#' @noRd
cli_default_methods <- function() {
  eval(formals(prd_curve)$method)
}

#' A file argument: list(path, member), with FILE.npz:NAME naming an array
#' of an .npz file (unless a file of that whole name exists).
#' @noRd
cli_file_spec <- function(spec) {
  m <- regmatches(spec, regexec("^(.*\\.npz):([^:/\\\\]+)$", spec,
                                ignore.case = TRUE))[[1]]
  if (length(m) && !file.exists(spec)) {
    return(list(path = m[2], member = m[3]))
  }
  list(path = spec, member = NULL)
}

#' Generated file arguments with every .npz file named without an array
#' (FILE.npz or LABEL=FILE.npz) that holds several arrays replaced by one
#' argument per array, `NAME=FILE.npz:NAME` (`LABEL:NAME=...` when
#' labelled): numpy.savez(path, good = a, noisy = b) is two models. An
#' array that is the real set (`--real FILE.npz:NAME`, the same file) is
#' not a model, nor is an array that is not 2-D (class labels, ids: its
#' header is read, not the array); when one array remains (or the file
#' holds one) it is the model, labelled by the array as well, unless its
#' name is NumPy's default (`arr_0`: then by the file). Two such models of
#' one name from different files are told apart as `FILE:NAME` (the
#' file's base name). Files that do not exist are left to the later
#' checks.
#' @return The arguments, with attribute "skipped": the arrays left out for
#'   their shape ("FILE:NAME (shape)").
#' @noRd
cli_expand_npz <- function(specs, real) {
  skipped <- character()
  # the models labelled here by their one array: label, file stem
  single <- list()
  one_array <- function(spec, lp, path, array) {
    stem <- sub("\\.npz$", "", basename(path), ignore.case = TRUE)
    if (lp$labelled) return(paste0(lp$label, "=", path, ":", array))
    label <- if (grepl("^arr_[0-9]+$", array)) stem else array
    single[[length(single) + 1L]] <<- c(label = label, stem = stem)
    paste0(label, "=", path, ":", array)
  }
  real_path <- if (!is.null(real$member) && file.exists(real$path)) {
    normalizePath(real$path)
  }
  out <- lapply(specs, function(spec) {
    lp <- cli_label_parts(spec)
    path <- lp$path
    if (!is.null(cli_file_spec(path)$member) || !file.exists(path) ||
        !grepl("\\.npz$", path, ignore.case = TRUE)) {
      return(spec)
    }
    arrays <- names(npz_members(path, call = NULL))
    if (!length(arrays)) return(spec)
    if (length(arrays) == 1L) return(one_array(spec, lp, path, arrays))
    if (!is.null(real_path) && identical(normalizePath(path), real_path)) {
      arrays <- setdiff(arrays, real$member)
    }
    shapes <- lapply(arrays, function(a) {
      tryCatch(npz_member_shape(path, a), error = function(e) NULL)
    })
    flat <- vapply(shapes, function(s) !is.null(s) && length(s) != 2L,
                   logical(1))
    if (any(flat) && !all(flat)) {
      skipped <<- c(skipped, sprintf(
        "%s:%s (%s)", path, arrays[flat],
        vapply(shapes[flat], function(s) {
          paste0("shape (", paste(format(s, scientific = FALSE), collapse = ", "), ")")
        }, "")))
      arrays <- arrays[!flat]
    }
    if (length(arrays) == 1L) return(one_array(spec, lp, path, arrays))
    label <- if (lp$labelled) paste0(lp$label, ":")
    paste0(label, arrays, "=", path, ":", arrays)
  })
  out <- unlist(out, use.names = FALSE)
  # one array name in several files (feats.npz of two runs): FILE:NAME
  labels <- cli_label_parts(out)$label
  for (sl in single) {
    if (sum(labels == sl[["label"]], na.rm = TRUE) < 2L) next
    hit <- which(labels == sl[["label"]] & startsWith(out, paste0(sl[["label"]], "=")))
    for (h in hit) {
      path <- sub("^[^=]*=", "", out[h])
      stem <- sub("\\.npz(:.*)?$", "", basename(path), ignore.case = TRUE)
      if (!identical(stem, sl[["stem"]])) next
      out[h] <- paste0(stem, ":", sl[["label"]], "=", path)
    }
  }
  structure(out, skipped = skipped)
}

#' Generated file arguments split into LABEL=FILE: whether labelled (not
#' a file of that whole name), the label (NA when not) and the file.
#' @noRd
cli_label_parts <- function(specs) {
  labelled <- !file.exists(specs) & grepl("^[^=/\\\\]+=.", specs)
  list(labelled = labelled,
       label = ifelse(labelled, trimws(sub("=.*$", "", specs)), NA_character_),
       path = ifelse(labelled, sub("^[^=]*=", "", specs), specs))
}

#' Labels of the generated files: LABEL=FILE, or the base name without
#' extension; they must be distinct.
#' @noRd
cli_labels <- function(specs) {
  lp <- cli_label_parts(specs)
  labelled <- lp$labelled
  paths <- lp$path
  member <- vapply(paths, function(p) {
    m <- cli_file_spec(p)$member
    if (is.null(m)) NA_character_ else m
  }, "", USE.NAMES = FALSE)
  labels <- ifelse(labelled, lp$label,
                   ifelse(!is.na(member), member,
                          sub("\\.[^.]*$", "",
                              sub("\\.gz$", "", basename(specs),
                                  ignore.case = TRUE))))
  if (any(!nzchar(labels))) {
    prd_abort("Every generated file needs a non-empty label.", kind = "input",
              call = NULL)
  }
  dup <- unique(labels[duplicated(labels)])
  if (length(dup)) {
    prd_abort(c("Two generated files have the same label {.val {dup}}.",
                "i" = "Label them: {.code --generated LABEL=FILE}."),
              kind = "input", call = NULL)
  }
  stats::setNames(paths, labels)
}

cli_number <- function(value, name, whole = FALSE, min = -Inf, max = Inf,
                       open_min = FALSE) {
  num <- suppressWarnings(as.numeric(value))
  ok <- length(num) == 1L && is.finite(num) &&
    (!whole || abs(num - round(num)) < 1e-8) &&
    (if (open_min) num > min else num >= min) && num <= max
  if (!ok) {
    what <- paste0(if (whole) "a whole number" else "a number",
                   if (is.finite(min)) paste0(if (open_min) " > " else " >= ", min))
    prd_abort(c("Option {.code --{name}} must be {what}.",
                "x" = "It is {.val {value}}."),
              kind = "input", call = NULL)
  }
  num
}
