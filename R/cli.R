#' Command-line entry point: PR curve of two CSV files of embeddings
#'
#' Reads two CSV files of feature vectors (embeddings), one sample per line
#' and one numeric column per feature, computes their [prd_curve()] and
#' writes it to `<prefix>.csv` (columns `method`, `lambda`, `precision`,
#' `recall`) and `<prefix>.png` (the [autoplot()][prd_plot] figure, when
#' ggplot2 is installed), then prints the curve's [summary()][summary.prd_curve]
#' to the console. Meant to be run from a shell:
#'
#' ```
#' Rscript -e 'prdcurve::prd_cli()' real.csv generated.csv \
#'   [--method knn,coverage] [--k 10] [--split 0.5] [--seed 1] \
#'   [--angles 1001] [--bandwidth 2.5] [--open] [--out prefix]
#'   [--header | --no-header]
#' ```
#'
#' Options (each also accepted as `--name=value`):
#' * `--method`: comma-separated methods, some of `knn`, `kde`, `ipr`,
#'   `coverage` (default: all four).
#' * `--k`: number of neighbours (default: `round(sqrt(fit size))`, see
#'   [prd_curve()]).
#' * `--split`: fraction of each set held out for evaluation, in \[0, 1)
#'   (default 0.5; 0 = no split).
#' * `--seed`: a whole number given to [set.seed()] before the random split
#'   (default: none, so the split changes from run to run).
#' * `--angles`: number of \eqn{\lambda} values (default 1001).
#' * `--bandwidth`: the `"kde"` bandwidth, one value or two separated by a
#'   comma (real, generated); default estimated.
#' * `--open`: open balls (`closed = FALSE`, the convention of `prdc`).
#' * `--out`: prefix of the output files (default `"prdcurve"`, i.e.
#'   `prdcurve.csv` and `prdcurve.png` in the working directory).
#' * `--header`, `--no-header`: whether the first line of both files holds
#'   column names. By default it is detected per file: the first line is a
#'   header when any of its fields is not a number.
#' * `--quiet`: print nothing.
#' * `--help`, `-h`: print the usage and return.
#'
#' Both files must have the same number of columns, numeric values only (no
#' missing values) and at least two rows; these are checked as for
#' [prd_curve()] and the errors name the file.
#'
#' @param args Character vector of command-line arguments: two file paths
#'   and options, in any order. Default: the trailing arguments of the R
#'   process, [commandArgs]`(trailingOnly = TRUE)`.
#' @return The [prd_curve()] result, invisibly (`NULL` for `--help`).
#' @section Errors: fails with a cli error when a file does not exist, when
#'   there are not exactly two files, when an option is unknown or misses
#'   its value, when a value is not a number, and for every error of
#'   [prd_curve()].
#' @references Sykes, B., Simon, L., Rabin, J. and Fadili, J. (2024). A new
#'   perspective on precision and recall for generative models.
#'   arXiv:2405.01611. Sections 2, 4.2.
#' @seealso [prd_curve()], [summary.prd_curve()].
#' @examples
#' set.seed(1)
#' real <- tempfile(fileext = ".csv")
#' generated <- tempfile(fileext = ".csv")
#' write.csv(matrix(rnorm(200 * 4), ncol = 4), real, row.names = FALSE)
#' write.csv(matrix(rnorm(200 * 4, mean = 0.3), ncol = 4), generated,
#'           row.names = FALSE)
#' out <- file.path(tempdir(), "curve")
#' curve <- prd_cli(c(real, generated, "--method", "knn,coverage",
#'                    "--seed", "1", "--out", out))
#' head(read.csv(paste0(out, ".csv")))
#' # the same from a shell:
#' # Rscript -e 'prdcurve::prd_cli()' real.csv generated.csv --seed 1
#' @export
prd_cli <- function(args = commandArgs(trailingOnly = TRUE)) {
  if (!is.character(args)) {
    cli::cli_abort("{.arg args} must be a character vector of command-line arguments.")
  }
  # a command line shows the error message, not an R backtrace
  old <- options(rlang_backtrace_on_error = "none")
  on.exit(options(old), add = TRUE)
  opt <- cli_parse(args)
  if (isTRUE(opt$help)) {
    cat(cli_usage(), sep = "\n")
    return(invisible(NULL))
  }
  if (length(opt$files) != 2L) {
    cli::cli_abort(c(
      "Expected exactly 2 CSV files (real, then generated), got {length(opt$files)}.",
      if (length(opt$files)) c("x" = "Files: {.file {opt$files}}."),
      "i" = "Usage: {.code Rscript -e 'prdcurve::prd_cli()' real.csv generated.csv [options]}; see {.code --help}."
    ), call = NULL)
  }
  real <- cli_read(opt$files[1], opt$header)
  generated <- cli_read(opt$files[2], opt$header)
  if (!is.null(opt$seed)) set.seed(opt$seed)
  curve <- prd_curve(real, generated, method = opt$method, k = opt$k,
                     split = opt$split, angles = opt$angles,
                     bandwidth = opt$bandwidth, closed = opt$closed)

  csv <- paste0(opt$out, ".csv")
  utils::write.csv(as.data.frame(curve), csv, row.names = FALSE)
  png <- paste0(opt$out, ".png")
  has_ggplot <- requireNamespace("ggplot2", quietly = TRUE)
  if (has_ggplot) {
    ggplot2::ggsave(png, autoplot.prd_curve(curve), width = 5, height = 5,
                    dpi = 100)
  }
  if (!opt$quiet) {
    sz <- attr(curve, "sizes")
    cat(sprintf(
      "prd_curve: %d real x %d generated rows, %d features; k = %d; split = %s (evaluation %d real / %d generated)\n\n",
      nrow(real), nrow(generated), ncol(real), attr(curve, "k"),
      format(opt$split), sz[["eval_real"]], sz[["eval_generated"]]))
    s <- as.data.frame(summary(curve))
    print(format(s, digits = 3), row.names = FALSE)
    cat("\nWrote ", csv, if (has_ggplot) paste0(" and ", png) else
      " (install ggplot2 for the figure)", "\n", sep = "")
  }
  invisible(curve)
}

cli_usage <- function() {
  c(
    "Usage: Rscript -e 'prdcurve::prd_cli()' REAL.csv GENERATED.csv [options]",
    "",
    "Precision-recall curve between real and generated embeddings (one row",
    "per sample, one numeric column per feature).",
    "",
    "Options:",
    "  --method M1,M2   methods among knn, kde, ipr, coverage (default: all)",
    "  --k K            number of neighbours (default: round(sqrt(fit size)))",
    "  --split S        evaluation fraction in [0, 1), 0 = no split (default 0.5)",
    "  --seed N         set.seed(N) before the random split (default: none)",
    "  --angles A       number of lambda values (default 1001)",
    "  --bandwidth B    kde bandwidth, one value or two (B_REAL,B_GEN);",
    "                   default: estimated",
    "  --open           open balls (<, the prdc convention); default closed",
    "  --out PREFIX     write PREFIX.csv and PREFIX.png (default: prdcurve)",
    "  --header         the first line of each file holds column names",
    "  --no-header      the first line is data (default: detected; a header",
    "                   when a field of the first line is not a number)",
    "  --quiet          print nothing",
    "  -h, --help       print this help"
  )
}

#' Parse command-line arguments into options (all checks here, clear
#' errors naming the option).
#' @noRd
cli_parse <- function(args) {
  opt <- list(files = character(), method = c("knn", "kde", "ipr", "coverage"),
              k = NULL, split = 0.5, seed = NULL, angles = 1001,
              bandwidth = NULL, closed = TRUE, out = "prdcurve",
              header = NA, quiet = FALSE, help = FALSE)
  valued <- c("method", "k", "split", "seed", "angles", "bandwidth", "out")
  flags <- c("open", "header", "no-header", "quiet", "help")
  i <- 1L
  while (i <= length(args)) {
    a <- args[i]
    i <- i + 1L
    if (a %in% c("-h", "--help")) {
      opt$help <- TRUE
      next
    }
    if (!startsWith(a, "-") || a == "-") {
      opt$files <- c(opt$files, a)
      next
    }
    name <- sub("^--?", "", a)
    value <- NULL
    if (grepl("=", name, fixed = TRUE)) {
      value <- sub("^[^=]*=", "", name)
      name <- sub("=.*$", "", name)
    }
    if (name %in% flags) {
      if (!is.null(value)) {
        cli::cli_abort("Option {.code --{name}} takes no value.", call = NULL)
      }
      switch(name,
             open = opt$closed <- FALSE,
             header = opt$header <- TRUE,
             `no-header` = opt$header <- FALSE,
             quiet = opt$quiet <- TRUE,
             help = opt$help <- TRUE)
      next
    }
    if (!name %in% valued) {
      cli::cli_abort(c(
        "Unknown option {.code {a}}.",
        "i" = "Options: {.code {paste0('--', c(valued, flags))}}; see {.code --help}."
      ), call = NULL)
    }
    if (is.null(value)) {
      if (i > length(args) || startsWith(args[i], "--")) {
        cli::cli_abort("Option {.code --{name}} needs a value.", call = NULL)
      }
      value <- args[i]
      i <- i + 1L
    }
    opt[[name]] <- switch(name,
      method = trimws(strsplit(value, ",", fixed = TRUE)[[1]]),
      bandwidth = vapply(strsplit(value, ",", fixed = TRUE)[[1]], cli_number,
                         numeric(1), name = name, USE.NAMES = FALSE),
      out = value,
      cli_number(value, name)
    )
  }
  opt
}

cli_number <- function(value, name) {
  num <- suppressWarnings(as.numeric(value))
  if (length(num) != 1L || is.na(num)) {
    cli::cli_abort(c(
      "Option {.code --{name}} must be a number.",
      "x" = "It is {.val {value}}."
    ), call = NULL)
  }
  num
}

#' Read one CSV file of embeddings into a numeric matrix.
#' @param header TRUE, FALSE or NA (detect: the first line is a header when
#'   one of its fields is not a number).
#' @noRd
cli_read <- function(file, header = NA) {
  if (!file.exists(file) || dir.exists(file)) {
    cli::cli_abort("File {.file {file}} does not exist.", call = NULL)
  }
  first <- readLines(file, n = 1L, warn = FALSE)
  if (!length(first) || !nzchar(trimws(first))) {
    cli::cli_abort("File {.file {file}} is empty or starts with an empty line.",
                   call = NULL)
  }
  if (is.na(header)) {
    fields <- trimws(gsub('"', "", strsplit(first, ",", fixed = TRUE)[[1]]))
    header <- anyNA(suppressWarnings(as.numeric(fields)))
  }
  df <- utils::read.csv(file, header = header, check.names = FALSE,
                        strip.white = TRUE)
  as_samples(df, arg = file, call = NULL)
}
