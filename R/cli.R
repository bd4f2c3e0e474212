#' Command-line entry point: PR curves of generated sets against a real set
#'
#' Reads a file of real feature vectors (embeddings) and one or more files
#' of generated ones with [prd_read()] (CSV/TSV, `.npy`, Parquet, Feather,
#' `.rds`), computes the [prd_curve()] of every generated file against the
#' real set (one call, the files as models), writes them to `<prefix>.csv`
#' (one long table, columns `model`, `method`, `k`, `lambda`, `precision`,
#' `recall`) and `<prefix>.png` (one panel
#' per model, when ggplot2 is installed), and prints each curve's
#' [summary()][summary.prd_curve] per model and method. Meant to be run from
#' a shell, with the script installed with the package:
#'
#' ```
#' $(Rscript -e 'cat(system.file("scripts", "prdcurve", package = "prdcurve"))') \
#'   --real real.csv --generated a=gen_a.npy --generated gen_b.csv \
#'   [--features SPEC] [--id COLUMN] [--method knn,coverage] [--k 10] \
#'   [--split 0.5] [--seed 1] [--angles 1001] [--bandwidth 2.5] [--open] \
#'   [--out prefix] [--quiet]
#' ```
#'
#' or as `Rscript -e 'prdcurve::prd_cli()' real.csv generated.csv [options]`.
#' The script exits with status 1 and an error message (no R backtrace)
#' when something fails.
#'
#' Options (each also accepted as `--name=value`):
#' * `--real FILE`: the real samples. Or give it as the first file argument
#'   (`real.csv generated.csv`, the positional form).
#' * `--generated [LABEL=]FILE`: a set of generated samples, repeatable; the
#'   label names its curve (column `model`), by default the file's base
#'   name without extension. Further file arguments are generated files too.
#' * `--features SPEC`: the feature columns, the same in every file: a
#'   comma-separated list of column names, `a:b` ranges of names and column
#'   numbers (`f1,f5:f9` or `1:128`), or a tidyselect expression such as
#'   `'starts_with("f")'` or `'c(f1:f64, -f13)'` (quote it for the shell).
#'   Default: every numeric column.
#' * `--id COLUMN`: an identifier column, never a feature (it may be
#'   missing from some files, for instance `.npy` files).
#' * `--method`: comma-separated methods, some of `knn`, `kde`, `ipr`,
#'   `coverage` (default: all four).
#' * `--k`: number of neighbours (default: `round(sqrt(fit size))`, see
#'   [prd_curve()]).
#' * `--split`: fraction of each set held out for evaluation, in \[0, 1)
#'   (default 0.5; 0 = no split).
#' * `--seed`: a whole number given to [set.seed()] before the curves are
#'   computed (one call of [prd_curve()] with every generated file as a
#'   model, so every model uses the same split of the real set, and the
#'   first model's curve equals the curve of a run with that file alone).
#'   Default: a seed drawn at random (printed, so that the run can be
#'   repeated).
#' * `--angles`: number of \eqn{\lambda} values (default 1001).
#' * `--bandwidth`: the `"kde"` bandwidth, one value or two separated by a
#'   comma (real, generated); default estimated.
#' * `--open`: open balls (`closed = FALSE`, the convention of `prdc`).
#' * `--out PREFIX`: prefix of the output files (default `"prdcurve"`, i.e.
#'   `prdcurve.csv` and `prdcurve.png` in the working directory).
#' * `--header`, `--no-header`: for delimited text, whether the first line
#'   holds column names (default: detected, see [prd_read()]).
#' * `--quiet`: print nothing on standard output and no progress messages
#'   (messages about ignored columns, warnings and errors still go to
#'   standard error).
#' * `--help`, `-h`: print the usage and return.
#'
#' Progress messages ("Read real.csv: 5000 x 2048 in 0.8 s", ...) go to
#' standard error, the summary table to standard output. Non-numeric
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
#'   its value or with a bad value, a missing real or generated file
#'   argument, duplicated labels or a bad `--features`/`--id`;
#'   `prdcurve_error_file` for a file that does not exist or can't be read
#'   (see [prd_read()]); `prdcurve_error_columns` when the files' numbers of
#'   feature columns differ. [prd_curve()]'s own errors (too large a `k`,
#'   ...) pass through.
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
  # a command line shows the error message, not an R backtrace
  old <- options(rlang_backtrace_on_error = "none")
  on.exit(options(old), add = TRUE)
  opt <- cli_parse(args)
  if (isTRUE(opt$help)) {
    cat(cli_usage(), sep = "\n")
    return(invisible(NULL))
  }
  say <- function(msg, .envir = parent.frame()) {
    if (!opt$quiet) prd_inform(msg, kind = "progress", .envir = .envir)
  }
  features <- cli_features(opt$features)
  # every file is checked before the first (maybe long) read
  for (path in c(opt$real, opt$generated)) check_path(path, call = NULL)

  real <- cli_read(opt$real, features, opt$id, opt$header, say)
  generated <- lapply(opt$generated, function(path) {
    g <- cli_read(path, features, opt$id, opt$header, say)
    cli_align(real, g)
  })
  ids_seen <- c(real$has_id, vapply(generated, `[[`, logical(1), "has_id"))
  if (!is.null(opt$id) && !any(ids_seen)) {
    prd_abort("The {.arg --id} column {.val {opt$id}} is in none of the files.",
              kind = "input", call = NULL)
  }
  seed <- opt$seed
  if (is.null(seed)) seed <- sample.int(.Machine$integer.max, 1L)

  say("Computing curves ({paste(opt$method, collapse = ', ')}) for {length(generated)} model{?s} ...")
  t0 <- proc.time()[["elapsed"]]
  curve <- cli_curves(real$x, lapply(generated, `[[`, "x"), seed = seed,
                      method = opt$method, k = opt$k, split = opt$split,
                      angles = opt$angles, bandwidth = opt$bandwidth,
                      closed = opt$closed)
  secs <- sprintf("%.1f", proc.time()[["elapsed"]] - t0)
  say("Computed in {secs} s.")

  csv <- paste0(opt$out, ".csv")
  data.table::fwrite(as.data.frame(curve), csv)
  png <- paste0(opt$out, ".png")
  has_ggplot <- requireNamespace("ggplot2", quietly = TRUE)
  if (has_ggplot) {
    title <- cli_title(opt$real, opt$generated, curve)
    n_models <- length(opt$generated)
    n_col <- min(3L, n_models)
    ggplot2::ggsave(png, cli_plot(curve, title),
                    width = 1 + 4 * n_col,
                    height = 1.4 + 4 * ceiling(n_models / n_col), dpi = 150)
    say("Wrote {.file {csv}} and {.file {png}}.")
  } else {
    say("Wrote {.file {csv}} (install ggplot2 for the figure).")
  }
  if (!opt$quiet) {
    k <- prd_curve_info(curve)$k
    cat(sprintf(
      "prd_curve: %s (%d rows) vs %s; %d features; k = %s; split = %s; seed = %d%s\n\n",
      basename(opt$real), nrow(real$x),
      paste(sprintf("%s (%d rows)", names(opt$generated),
                    vapply(generated, function(g) nrow(g$x), integer(1))),
            collapse = ", "),
      ncol(real$x), paste(unique(k), collapse = ", "), format(opt$split),
      seed, if (is.null(opt$seed)) " (drawn at random; pass --seed to repeat)" else ""))
    print(format(cli_summary(curve), digits = 3), row.names = FALSE)
  }
  invisible(curve)
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

#' Per-model, per-method summary
#' @noRd
cli_summary <- function(curve) as.data.frame(summary(curve))

#' The figure: autoplot() with a title (one panel per model when there are
#' several models and methods).
#' @noRd
cli_plot <- function(curve, title) {
  rlang::check_installed("ggplot2", reason = "to plot PR curves.")
  ggplot2::autoplot(curve) +
    ggplot2::labs(title = title) +
    ggplot2::theme(plot.title = ggplot2::element_text(size = 10))
}

#' "real.csv vs gen_a.csv, gen_b.csv - k = 71, split = 0.5"
#' @noRd
cli_title <- function(real, generated, curve) {
  dash <- if (isTRUE(l10n_info()$`UTF-8`)) " \u2014 " else " - "
  info <- prd_curve_info(curve)
  k <- unique(info$k)
  k_text <- paste(k, collapse = ", ")
  split_text <- paste(unique(info$split), collapse = ", ")
  files <- paste0(basename(real), " vs ",
                  paste(basename(generated), collapse = ", "))
  params <- paste0("k = ", k_text, ", split = ", split_text)
  if (nchar(files) + nchar(params) > 70L) {
    paste0(files, dash, "\n", params)
  } else {
    paste0(files, dash, params)
  }
}

#' Read one file for the CLI: the feature matrix, with progress.
#' @noRd
cli_read <- function(path, features, id, header, say) {
  t0 <- proc.time()[["elapsed"]]
  df <- read_table_file(path, header = header, call = NULL)
  has_id <- !is.null(id) && id %in% names(df)
  sel <- select_features(df, features, id = if (has_id) id, arg = "--features",
                         file = path, call = NULL)
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
    x <- as_samples(x, arg = path, call = NULL)
  }
  secs <- sprintf("%.1f", proc.time()[["elapsed"]] - t0)
  file <- basename(path)
  say("Read {.file {file}}: {nrow(x)} x {ncol(x)} in {secs} s.")
  list(x = x, path = path, has_id = has_id)
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
    prd_abort(c(
      "{.file {gen$path}} and {.file {real$path}} must have the same number of feature columns.",
      "x" = "{.file {basename(gen$path)}} has {length(gn)}, {.file {basename(real$path)}} has {length(rn)}."
    ), kind = "columns", call = NULL)
  }
  default <- function(nm) identical(nm, paste0("V", seq_along(nm)))
  if (!default(rn) && !default(gn)) {
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
  rlang::new_quosure(expr, env = baseenv())
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
       help = "methods among knn, kde, ipr, coverage (default: all)"),
    mo("--k", type = "character", metavar = "K",
       help = "number of neighbours (default: round(sqrt(fit size)))"),
    mo("--split", type = "character", metavar = "S",
       help = "evaluation fraction in [0, 1), 0 = no split (default 0.5)"),
    mo("--seed", type = "character", metavar = "N",
       help = paste("set.seed(N) before the curves are computed (default: drawn",
                    "at random and printed)")),
    mo("--angles", type = "character", metavar = "A",
       help = "number of lambda values (default 1001)"),
    mo("--bandwidth", type = "character", metavar = "B",
       help = "kde bandwidth, one value or two (B_REAL,B_GEN); default: estimated"),
    mo("--open", action = "store_true", default = FALSE,
       help = "open balls (<, the prdc convention); default closed"),
    mo("--out", type = "character", metavar = "PREFIX",
       help = "write PREFIX.csv and PREFIX.png (default: prdcurve)"),
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
    usage = paste(
      "%prog [options] REAL GENERATED [GENERATED ...]",
      "       %prog --real REAL --generated [LABEL=]FILE [--generated ...] [options]",
      "",
      "Precision-recall curves between real and generated embeddings (one row",
      "per sample, one numeric column per feature; .csv, .tsv, .txt, .npy,",
      ".parquet, .feather, .arrow or .rds). Writes PREFIX.csv (model, method,",
      "lambda, precision, recall) and PREFIX.png, prints the summary.",
      sep = "\n"),
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
              "seed", "angles", "bandwidth", "out")
  # optparse keeps only the last of a repeated option: collect --generated
  # here, in order. A negative number after an option would be taken for a
  # flag: attach it as --name=value.
  generated <- character()
  rest <- character()
  i <- 1L
  while (i <= length(args)) {
    a <- args[i]
    i <- i + 1L
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
  opt$real <- real
  opt$generated <- cli_labels(generated)

  opt$features <- o$features
  opt$id <- o$id
  if (!is.null(opt$id) && !nzchar(trimws(opt$id))) {
    prd_abort("Option {.code --id} must name a column.", kind = "input",
              call = NULL)
  }
  choices <- curve_methods
  opt$method <- if (is.null(o$method)) c("knn", "kde", "ipr", "coverage") else
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
  opt$closed <- !isTRUE(o$open)
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
  opts <- paste0("--", c(valued, "open", "header", "no-header", "quiet",
                         "help"))
  prd_abort(c(text, "i" = "Options: {.code {opts}}; see {.code --help}."),
            kind = "input", call = NULL)
}

#' Labels of the generated files: LABEL=FILE, or the base name without
#' extension; they must be distinct.
#' @noRd
cli_labels <- function(specs) {
  labelled <- !file.exists(specs) & grepl("^[^=/\\\\]+=.", specs)
  paths <- ifelse(labelled, sub("^[^=]*=", "", specs), specs)
  labels <- ifelse(labelled, trimws(sub("=.*$", "", specs)),
                   sub("\\.[^.]*$", "",
                       sub("\\.gz$", "", basename(specs), ignore.case = TRUE)))
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
