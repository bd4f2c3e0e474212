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
#'   [--repeats 5] [--replicates 50] [--metrics] [--compare a] [--open] [--out prefix] \
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
#' Options (each also accepted as `--name=value`; each given once but
#' `--generated`: an option of a value, or `--metrics=NAMES`, given twice
#' is an error of class `prdcurve_error_input` naming it):
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
#'   `prdcurve feats.npz:real feats.npz`. 1-D arrays (class labels, ids)
#'   are not models (the progress output lists them); one array of two or
#'   more dimensions left (or the only one) is the model, labelled by the
#'   array (by the file for NumPy's default name `arr_0`; `FILE:NAME` when
#'   two files hold an array of that name). A real `.npz` needs `:NAME`
#'   unless it holds one array, or one array of two or more dimensions
#'   beside 1-D ones (read with a message). Arrays of more than two
#'   dimensions are read as [prd_read()] reads them (flattened per sample).
#' * `--features SPEC`: the feature columns, the same in every file: a
#'   comma-separated list of column names, `a:b` ranges of names and column
#'   numbers (`f1,f5:f9` or `1:128`), or a tidyselect expression such as
#'   `'starts_with("f")'` or `'c(f1:f64, -f13)'` (quote it for the shell).
#'   Default: every numeric and categorical column (text, logical; not
#'   an identifier: text with more distinct values than half the rows, nor
#'   a `model` column), the categorical ones encoded as [prd_curve()]
#'   encodes those of data frames (one indicator per category, the
#'   categories of every file; an empty cell a category of its own, or in
#'   a numeric column an indicator column beside it, the value the real
#'   file's median); an exclusion alone removes columns
#'   from it, `--features=-label` (with `=`: a value that starts with `-`
#'   would be read as an option), in the files that have them (a column
#'   that no file has is an error). `.npy`/`.npz` arrays have no column
#'   names: every column of an array is a feature, and `--features`
#'   applies to arrays only when it gives column numbers (`1:128`); so one
#'   `--features` serves a mix of arrays and tables. When every file is an
#'   array, names and selection helpers are an error (the columns `V1`,
#'   `V2`, ... that messages name are the numbers 1, 2, ...).
#' * `--id COLUMN`: an identifier column of a table, never a feature (it
#'   may be missing from some files). An array has no column names: leave
#'   its index column out by number, `--features=-1`.
#' * `--method`: comma-separated methods among the package's curve methods
#'   (those [prd_curve()] accepts); default `tightest`, the default of [prd_curve()].
#' * `--families F1,F2`: the families `"tightest"` combines (`families` of
#'   [prd_curve()]); default its own. Adding `mixture` to the default's
#'   five (`--families knn,coverage,quadratic,stacked,smooth_marginal,mixture`)
#'   serves clustered data (see [prd_curve()], "mixture").
#' * `--k`: number of neighbours (default: `round(sqrt(fit size))`, see
#'   [prd_curve()]). With `--open`, read by the neighbour families and
#'   the manifold metrics only: where neither runs, both are ignored with
#'   a warning (`prdcurve_warning_unused_argument`).
#' * `--split`: fraction of each set held out for evaluation, in \[0, 1)
#'   (default 0.5; 0 = no split).
#' * `--seed`: a whole number given to [set.seed()] before the curves are
#'   computed (one call of [prd_curve()] with every generated file as a
#'   model, so every model uses the same split of the real set, and a
#'   model's curve equals the curve of a run with that file alone, in any
#'   order, when the models have the same number of rows),
#'   and again before the metrics. Default: a seed drawn at random
#'   (printed, so that the run can be repeated).
#' * `--angles`: number of \eqn{\lambda} values (default 1001).
#' * `--bandwidth`: the `"kde"` bandwidth, one value or two separated by a
#'   comma (real, generated); default estimated.
#' * `--folds K`: cross-fit the fitted families in K folds (`folds` of
#'   [prd_curve()]); default 10 (fewer on small sets), 1 for one fit on
#'   the fit rows.
#' * `--repeats S`: average the curves over S random splits (`repeats` of
#'   [prd_curve()]); default 5 when every set has fewer than 1,000 rows,
#'   else 1.
#' * `--replicates R`: half-sample replicates for 90% intervals (`replicates`
#'   of [prd_curve()] and [manifold_metrics()]); default 0 (none). The
#'   CSV files then hold the intervals and the printed summary shows them.
#' * `--metrics`: also the scalar metrics, [manifold_metrics()] with its
#'   default metrics, `k` = `--k` (default 5), no split, the same seed and
#'   replicates; written to `<prefix>-metrics.csv` (columns of
#'   [manifold_metrics()]) and printed. `--metrics=NAMES` (comma-separated)
#'   computes the metrics named, of [manifold_metrics()] and of
#'   [embedding_metrics()] (`fd`, `kid`, `vendi`, `authpct`, ...; not `ct`,
#'   which needs a held-out set), in one table; the names are checked
#'   before any file is read.
#' * `--maxorder M`, `--max-params P`: the propensity model of
#'   `--metrics=pmse,s_pmse` (`maxorder` and `max_params` of
#'   [embedding_metrics()] and [pmse_stats()]; defaults 1 and 400, synthpop's).
#' * `--compare BASELINE`: the paired differences of every other model from
#'   the model labelled `BASELINE`, [prd_compare()] of the curves (needs
#'   `--replicates` and two generated files or more): written to
#'   `<prefix>-compare.csv` (columns of [prd_compare()]) and drawn as a
#'   forest plot, `<prefix>-compare.png`; with `--metrics`, the metrics'
#'   differences go to `<prefix>-metrics-compare.csv` and
#'   `<prefix>-metrics-compare.png`, and are printed.
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
#'   existing folder, or a path ending in `/`, writes `FOLDER/prdcurve.*`
#'   (`--out results/` makes the folder `results` if its parent exists); a
#'   trailing `.csv` or `.png` is dropped (`--out run.csv` writes `run.csv`).
#'   The folder must exist (or be made so) and be writable: this is checked
#'   before any file is read.
#' * `--header`, `--no-header`: for delimited text, whether the first line
#'   holds column names (default: detected, see [prd_read()]); with no
#'   text file among the inputs, ignored with a warning.
#' * `--quiet`: print nothing on standard output and no progress messages
#'   (messages about ignored columns, warnings and errors still go to
#'   standard error). Without it, on a terminal, long work (the fitted
#'   families' folds, the replicates, the distance sweeps) shows progress
#'   bars on standard error as in an interactive session; in a log or a
#'   pipe it does not.
#' * `--help`, `-h`: print the usage and return.
#'
#' Progress messages ("Read real.csv: 5000 x 2048 in 0.8 s", ...) go to
#' standard error, the tables to standard output: every statistic with
#' three decimals (`0.912 [0.871, 0.950]` with replicates), one line per
#' row. Figures are saved at the package's figure size (width and height
#' of `prd_figure_size()`, 300 dpi), plus the title's lines. Columns that
#' are not selected (neither numeric nor categorical, identifiers, model
#' labels) are ignored with a message naming them.
#' Every file must give the same number of feature columns; when the
#' generated file has the real file's feature names in another order, its
#' columns are reordered to match; other names are matched by position,
#' with a warning naming the columns only one file has (each file's
#' columns keep their names in the warnings about them).
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
#'   `--features`/`--id` (names in `--features` when every file is an
#'   array) or an `.npz` array that does not exist;
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
  # run_state$cli the messages name the command line's options
  old <- options(rlang_backtrace_on_error = "none")
  on.exit(options(old), add = TRUE)
  local_run_state(cli = TRUE)
  opt <- cli_parse(args)
  if (isTRUE(opt$help)) {
    cat(cli_usage(), sep = "\n")
    return(invisible(NULL))
  }
  # on a terminal, progress bars as in an interactive session (not in a
  # log or a pipe, where they would be lines of noise; not with --quiet)
  local_run_state(progress = cli_progress_wanted(opt$quiet))
  # the conditions of the run name flags and files, warnings come as they
  # arrive (before the results)
  cli_voice(cli_run(opt), opt)
}

#' Whether the command line shows progress bars and step messages: on a
#' terminal that redraws a line (cli::is_dynamic_tty(), stderr), not with
#' --quiet
#' @noRd
cli_progress_wanted <- function(quiet) {
  !isTRUE(quiet) && cli::is_dynamic_tty()
}

#' The work of prd_cli() once its options are parsed: read, compute,
#' write, print. Returns the curves.
#' @noRd
cli_run <- function(opt) {
  say <- function(msg, .envir = parent.frame()) {
    if (!opt$quiet) prd_inform(msg, kind = "progress", .envir = .envir)
  }
  features <- cli_features(opt$features)
  if (length(opt$unused)) {
    unused <- opt$unused
    prd_warn(c("{.code {unused}} {?is/are} read by {.code --metrics=pmse,s_pmse} only; ignored here.",
               "i" = "Name those metrics in {.code --metrics=...}, or leave {cli::qty(length(unused))}{?it/them} out."),
             "unused_argument")
  }
  if (length(opt$skipped)) {
    bullets <- gsub("}", "}}", gsub("{", "{{", opt$skipped, fixed = TRUE),
                    fixed = TRUE)
    say(c("1-D arrays (labels, ids) are not models:",
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
  # --header and --no-header read text files only
  paths <- c(opt$real$path, vapply(opt$generated, `[[`, "", "path"))
  if (!is.na(opt$header) && !any(vapply(paths, file_format, "") %in% "text")) {
    given <- if (opt$header) "--header" else "--no-header"
    prd_warn(c("{.code {given}} is read for delimited text files only (.csv, .tsv, .txt); ignored here.",
               "i" = "Arrays and the other formats carry their own column names, or none."),
             "unused_argument")
  }
  cli_array_features(features, opt$features, inputs)
  out <- cli_outputs(opt$out, metrics = opt$metrics,
                     compare = !is.null(opt$compare))

  real <- cli_read(opt$real, features, opt$id, opt$header, say)
  # an array's columns are selected by number on the command line
  if (isTRUE(real$array)) run_state$cli <- "array"
  # column numbers of tables count in the real file, whose names the
  # other files then read (as prd_curve()'s `features`)
  if (isTRUE(attr(features, "positions")) && !isTRUE(real$array) &&
      !any(vapply(opt$generated, cli_is_array, logical(1)))) {
    proto <- as.data.frame(stats::setNames(rep(list(logical()), length(real$columns)),
                                           real$columns))
    features <- positions_by_name(features, proto)
  }
  generated <- lapply(opt$generated, cli_read, features = features,
                      id = opt$id, header = opt$header, say = say)
  # (an exclusion may name a column some files lack, not one none has)
  misses <- c(list(real$misses), lapply(generated, `[[`, "misses"))
  check_exclusions(Filter(Negate(is.null), misses), arg = "--features",
                   sets = "file", call = NULL)
  # (before the columns are aligned: a misspelt --id would be an extra
  # column there)
  ids_seen <- c(real$has_id, vapply(generated, `[[`, logical(1), "has_id"))
  if (!is.null(opt$id) && !any(ids_seen)) {
    # --id names a column of a table; an array's columns go by number
    j <- if (grepl("^V[0-9]+$", opt$id)) sub("^V", "", opt$id) else "1"
    near <- nearest_choices(opt$id, unique(unlist(c(
      list(real$columns), lapply(generated, `[[`, "columns")))))
    prd_abort(c(
      "The {.arg --id} column {.val {opt$id}} is in none of the files.",
      "i" = if (length(near)) "Did you mean {.code --id={near[1]}}?",
      "i" = if (any(vapply(inputs, cli_is_array, logical(1))))
        "An array ({.file .npy}, {.file .npz}) has no column names: leave a column out by number, e.g. {.code --features=-{j}}."
    ), kind = "input", call = NULL)
  }
  generated <- lapply(generated, cli_align, real = real)
  # a table with categories or empty cells is encoded with every set's
  # categories and fills (R/encode.R): the other tables go as data frames
  if (any(vapply(c(list(real), generated), function(s) is.data.frame(s$x), NA))) {
    as_table <- function(s) {
      if (!isTRUE(s$array) && is.matrix(s$x)) s$x <- as.data.frame(s$x)
      s
    }
    real <- as_table(real)
    generated <- lapply(generated, as_table)
  }
  seed <- opt$seed
  if (is.null(seed)) seed <- sample.int(.Machine$integer.max, 1L)
  # The columns are matched by position (cli_align() warned where names
  # differ); each set keeps its file's names, which the warnings about its
  # columns (an id-like column) name.
  gen_x <- lapply(generated, `[[`, "x")
  # a propensity model too large for --max-params: refused before the
  # curves (its error came after them)
  if (opt$metrics && opt$standardize == "none" &&
      any(c("pmse", "s_pmse") %in% cli_metric_names(opt$metric_names))) {
    pmse_check_model(real$x, opt$maxorder, opt$max_params)
  }

  reps <- if (opt$replicates > 0) {
    sprintf(" with %d half-sample replicates", opt$replicates)
  } else ""
  say("Computing curves ({paste(opt$method, collapse = ', ')}) for {length(generated)} model{?s}{reps} ...")
  t0 <- proc.time()[["elapsed"]]
  # the warnings about the inputs (copies, id-like columns ...) come once:
  # the metrics below would repeat them word for word
  told <- character()
  # --k and --open unread by the curves' families but read by the
  # manifold metrics are not unused
  balls <- opt$metrics &&
    any(cli_metric_names(opt$metric_names) %in% manifold_metric_names())
  curve <- cli_matched(
    cli_curves(real$x, gen_x, seed = seed,
               method = opt$method, families = opt$families, k = opt$k,
               split = opt$split,
               angles = opt$angles, bandwidth = opt$bandwidth,
               folds = opt$folds, closed = opt$closed,
               replicates = opt$replicates, standardize = opt$standardize,
               atoms = opt$atoms, repeats = opt$repeats),
    prdcurve_warning_unused_argument = function(w) {
      if (balls && length(w$arguments) &&
          all(w$arguments %in% c("k", "closed"))) {
        invokeRestart("muffleWarning")
      }
    },
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
    metrics <- cli_matched(
      cli_metric_table(real$x, gen_x, opt$metric_names,
                       k = if (is.null(opt$k)) 5 else opt$k,
                       closed = opt$closed, replicates = opt$replicates,
                       standardize = opt$standardize, seed = seed,
                       maxorder = opt$maxorder, max_params = opt$max_params),
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
      mctitle <- cli_title(real_label,
                           vapply(opt$generated, `[[`, "", "path"), metrics,
                           what = paste("metrics, differences from",
                                        opt$compare),
                           standardized = std)
      written <- c(written, out$metrics_compare_csv,
                   cli_save_plot(mcmp, out$metrics_compare_png, mctitle))
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
  # the feature columns the curves read (a table's identifier, set labels
  # and columns of other types left out; `d` counts the columns read)
  used <- prd_curve_info(curve)$details[[1]]$features
  if (!is.null(used)) d <- length(used)
  # the splits averaged over (repeats of prd_curve())
  rp <- curve_repeats(prd_curve_info(curve))
  cat(sprintf(
    "prd_curve: %s (%d rows) vs %s; %d features%s; %ssplit = %s%s; seed = %d%s%s\n\n",
    basename(real_label), n_real,
    paste(sprintf("%s (%d rows)", names(opt$generated),
                  n_gen),
          collapse = ", "),
    d,
    if (opt$standardize == "real") ", standardized by the real set" else "",
    if (is.null(cli_k_text(k))) "" else paste0("k = ", cli_k_text(k), "; "),
    paste0(format(opt$split), if (rp > 1L) sprintf(" (%d splits averaged)", rp)),
    if (length(folds)) sprintf("; %s folds", paste(folds, collapse = ", ")) else "",
    seed,
    if (opt$replicates > 0) sprintf("; %d replicates, 90%% intervals",
                                    opt$replicates) else "",
    if (is.null(opt$seed)) " (drawn at random; pass --seed to repeat)" else ""))
  cli_print(cli_summary(curve))
  ceiling <- cli_ceiling_note(curve)
  if (length(ceiling)) cat(c("", ceiling), sep = "\n")
  clusters <- cli_clusters_note(curve)
  if (length(clusters)) cat(c("", clusters), sep = "\n")
  # the summary shows the extremes: what its intervals cover
  if (opt$replicates > 0) cat(c("", curve_interval_note()), sep = "\n")
  if (!is.null(metrics)) {
    k_text <- cli_metrics_k(metrics)
    cat("\nMetrics (--metrics", if (!is.null(k_text)) paste0(", ", k_text),
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
    if (is.list(comparison) && !is.data.frame(comparison)) {
      cat("\nMetrics, differences from ", opt$compare,
          " (model - baseline, 90% intervals; in ",
          basename(out$metrics_compare_csv), "):\n\n", sep = "")
      cli_print(cli_metrics_compare_table(comparison$metrics))
    }
  }
}

#' The output files of a run, from --out, checked before anything is
#' computed: the folder must exist and be writable, and no output may be
#' a folder. `--out DIR/` (DIR made if its parent exists) or an existing
#' folder writes DIR/prdcurve.*; a
#' trailing .csv or .png is dropped (`--out run.csv` writes run.csv and
#' run.png, not run.csv.csv).
#' @noRd
cli_outputs <- function(out, metrics = FALSE, compare = FALSE) {
  out <- sub("[.](csv|png)$", "", out, ignore.case = TRUE)
  folder <- grepl("[/\\\\]$", out)
  if (dir.exists(out) || folder) {
    out <- file.path(sub("[/\\\\]+$", "", out), "prdcurve")
  }
  dir <- dirname(out)
  # (`--out DIR/` names a folder: made when its parent exists)
  if (folder && !dir.exists(dir) && dir.exists(dirname(dir))) {
    dir.create(dir, showWarnings = FALSE)
  }
  if (!dir.exists(dir)) {
    prd_abort(c("The folder of {.code --out} does not exist: {.file {dir}}.",
                "i" = "Create it first, or give another {.code --out} (a path ending in {.file /} makes its last folder)."),
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
    if (metrics) {
      files$metrics_compare_csv <- paste0(out, "-metrics-compare.csv")
      files$metrics_compare_png <- paste0(out, "-metrics-compare.png")
    }
  }
  taken <- unlist(files)[dir.exists(unlist(files))]
  if (length(taken)) {
    prd_abort("Can't write {.file {taken[1]}}: it is a folder.",
              kind = "output", call = NULL)
  }
  c(files, dir = dir)
}

#' Evaluate `expr` (prd_curve(), the metrics) with `...` as calling
#' handlers and without the warning that the sets' feature names differ:
#' cli_align() told it, in the files' words (and an array's V1, V2, ...
#' are no names to differ from).
#' @noRd
cli_matched <- function(expr, ...) {
  withCallingHandlers(
    expr,
    prdcurve_warning_column_names = function(w) invokeRestart("muffleWarning"),
    ...)
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

