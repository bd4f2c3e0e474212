# The command line's parsing: its options (optparse), checked once, with
# classed errors naming the option (the files: R/cli-files.R).

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
                    "default: every numeric and categorical column, and",
                    "dates in days (an",
                    "empty cell of a table: a category of its own, or beside",
                    "numbers an indicator column, the value the real median);",
                    "--features=-label leaves a column out of the files that",
                    "have it")),
    mo("--id", type = "character", metavar = "COLUMN",
       help = paste("identifier column of a table, never a feature (an",
                    "array's: by number, --features=-1)")),
    mo("--method", type = "character", metavar = "M1,M2",
       help = paste0("methods among ", paste(curve_methods(), collapse = ", "),
                     " (default: ", paste(cli_default_methods(), collapse = ","),
                     ")")),
    mo("--families", type = "character", metavar = "F1,F2",
       help = paste0("for tightest: the families it combines, among ",
                     paste(setdiff(curve_methods(), "tightest"), collapse = ", "),
                     " (default: ", paste(tightest_default(), collapse = ","),
                     "; with categorical columns also logit,interaction;",
                     " without them, up to ", spectral_default_dim,
                     " columns with ", spectral_default_rows_per_dim,
                     " rows a column and no direction between two halves of",
                     " the real rows, also spectral; with clustered real rows",
                     " of at most ", format_number(mixture_default_cols),
                     " columns, sets of ", format_number(mixture_default_rows),
                     " rows or more, also mixture, and up to ",
                     format_number(mixture_many_cols), " columns mixture16;",
                     " add them by hand to wider clustered sets)")),
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
       help = paste0("cross-fit the fitted families (",
                     paste(fitted_methods(), collapse = ", "),
                     ", also in tightest) in K folds of the evaluation rows,",
                     " each fitted on the fit rows and the other folds",
                     " (default 10, fewer on small sets; 1: one fit on the",
                     " fit rows)")),
    mo("--repeats", type = "character", metavar = "S",
       help = paste("average the curves over S random splits (default 5",
                    "when every set has fewer than 1,000 rows, else 1)")),
    mo("--replicates", type = "character", metavar = "R",
       help = paste("half-sample replicates for 90% intervals (0 = none,",
                    "default; 50 or more for intervals worth reading)")),
    mo("--metrics", action = "store_true", default = FALSE,
       help = paste("also the scalar metrics (precision, recall, density,",
                    "coverage, ...; k = --k or 5, no split),",
                    "written to PREFIX-metrics.csv; --metrics=fd,kid,... names",
                    "them, among the manifold and embedding metrics")),
    mo("--maxorder", type = "character", metavar = "M",
       help = paste("for --metrics=pmse,s_pmse: the highest order of",
                    "interactions of the propensity model, 0 to 10 (default 1,",
                    "synthpop's)")),
    mo("--max-params", type = "character", metavar = "P", dest = "max_params",
       help = paste("for --metrics=pmse,s_pmse: the most parameters of that",
                    "model (default 400, synthpop's max.params)")),
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
                    "folder, or a path ending in /, writes FOLDER/prdcurve.*;",
                    "a trailing .csv or .png is dropped); the folder must exist,",
                    "but a path ending in / makes its last folder")),
    mo("--header", action = "store_true", default = FALSE,
       help = "the first line of a text file holds column names"),
    mo("--no-header", action = "store_true", default = FALSE,
       dest = "no_header",
       help = "the first line is data (default: detected)"),
    mo("--quiet", action = "store_true", default = FALSE,
       help = "no summary and no progress (warnings and errors still print)")
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
                     "--features applies to them only as column numbers ",
                     "(names are an error when every file is an array)."),
              width = 72)),
      collapse = "\n"),
    option_list = cli_option_list(), prog = "prdcurve",
    epilogue = "Also: Rscript -e 'prdcurve::prd_cli()' REAL GENERATED [options]. See ?prdcurve::prd_cli.")
}

cli_usage <- function() {
  utils::capture.output(optparse::print_help(cli_parser()))
}

#' The command line's arguments before optparse: every --generated
#' collected in order (optparse keeps only the last of a repeated option),
#' --metrics=NAMES read, and a negative number after a valued option
#' attached as --name=value (optparse would take it for a flag). Any other
#' option of a value (and --metrics=NAMES) given twice is an error naming
#' it: optparse would keep the last one silently.
#' @noRd
cli_pre_scan <- function(args, valued) {
  generated <- character()
  rest <- character()
  metric_names <- NULL
  # the single-value options as given: name and value, in order
  given <- character()
  values <- character()
  i <- 1L
  while (i <= length(args)) {
    a <- args[i]
    i <- i + 1L
    name <- sub("=.*$", "", sub("^--", "", a))
    if (startsWith(a, "--") && name %in% c(setdiff(valued, "generated"),
                                           if (grepl("=", a)) "metrics")) {
      given <- c(given, name)
      values <- c(values, if (grepl("=", a)) sub("^[^=]*=", "", a) else
        if (i <= length(args)) args[i] else "")
    }
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
  twice <- unique(given[duplicated(given)])
  if (length(twice)) {
    flag <- paste0("--", twice[1])
    vals <- values[given == twice[1]]
    times <- if (length(vals) == 2L) "twice" else paste(length(vals), "times")
    prd_abort(c(
      "Option {.code {flag}} is given {times}; it takes one value.",
      "x" = "Its values: {.val {vals}}.",
      "i" = "Give it once{if (twice[1] == 'metrics') ', with the names separated by commas' else ''}; {.code --generated} is the option that repeats (a model each)."
    ), kind = "input", call = NULL)
  }
  list(generated = generated, rest = rest, metric_names = metric_names)
}

#' Parse command-line arguments into options (all checks here, classed
#' errors naming the option).
#' @noRd
cli_parse <- function(args) {
  valued <- c("real", "generated", "features", "id", "method", "families", "k", "split",
              "seed", "angles", "bandwidth", "folds", "repeats", "replicates", "compare",
              "atoms", "out", "maxorder", "max-params")
  pre <- cli_pre_scan(args, valued)
  rest <- pre$rest
  generated <- pre$generated
  metric_names <- pre$metric_names
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
  # `--metrics pmse`: the names read as a file (the flag's value needs =)
  if (isTRUE(o$metrics) && is.null(metric_names)) {
    for (f in c(real, generated)) {
      if (file.exists(f)) next
      named <- tryCatch(cli_metric_names(trimws(strsplit(f, ",")[[1]])),
                        error = function(e) NULL)
      if (length(named)) {
        prd_abort(c("{.code --metrics} takes its names after {.code =}: {.code --metrics={f}}.",
                    "x" = "{.val {f}} was read as a file, and there is none."),
                  kind = "input", call = NULL)
      }
    }
  }
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
    cli_names(o$method, choices, "method")
  opt$families <- if (!is.null(o$families)) {
    cli_names(o$families, setdiff(choices, "tightest"), "families")
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
                          max = .Machine$integer.max,
                          what = "a whole number, as set.seed() takes (e.g. 1 or 2026)"))
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
  opt$repeats <- if (!is.null(o$repeats)) {
    as.integer(cli_number(o$repeats, "repeats", whole = TRUE, min = 1, max = 100))
  }
  opt$replicates <- if (is.null(o$replicates)) 0L else
    as.integer(cli_number(o$replicates, "replicates", whole = TRUE, min = 0,
                          max = 1e5))
  if (opt$replicates == 1L) {
    prd_abort(c("Option {.code --replicates} must be 0 (no intervals) or at least 2.",
                "x" = "It is 1."), kind = "input", call = NULL)
  }
  opt$metrics <- isTRUE(o$metrics)
  opt$metric_names <- if (!is.null(metric_names)) cli_metric_names(metric_names)
  opt$maxorder <- if (is.null(o$maxorder)) 1L else
    as.integer(cli_number(o$maxorder, "maxorder", whole = TRUE, min = 0,
                          max = 10))
  opt$max_params <- if (is.null(o$max_params)) 400L else
    as.integer(cli_number(o$max_params, "max-params", whole = TRUE, min = 1,
                          max = .Machine$integer.max))
  # the propensity model's options given without its metrics: warned in
  # the run (cli_run(), in the command line's voice)
  opt$unused <- c(if (!is.null(o$maxorder)) "--maxorder",
                  if (!is.null(o$max_params)) "--max-params")
  if (any(c("pmse", "s_pmse") %in% opt$metric_names)) opt$unused <- NULL
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

#' Options of other tools' command lines (and plurals) and the option of
#' ours they mean: their "Did you mean" (cli_parse_error(); "-" and " " read
#' as "_")
#' @noRd
cli_option_aliases <- c(output = "out", output_prefix = "out", prefix = "out",
                        outdir = "out", out_dir = "out", output_dir = "out",
                        methods = "method", family = "families")

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
  near <- if (grepl("no such option", msg) && length(name)) {
    nearest_choices(sub("^-+", "", name), sub("^--", "", opts),
                    aliases = cli_option_aliases)
  }
  # (every option listed: cli cuts a long vector at 20)
  prd_abort(c(text,
              "i" = if (length(near)) "Did you mean {.code {paste0('--', near)}}?",
              "i" = "Options: {.code {cli::cli_vec(opts, list('vec-trunc' = Inf))}}; see {.code --help}."),
            kind = "input", call = NULL)
}

#' The methods the command line computes by default: the four estimators
#' of Sykes et al. (2024) among the package's curve methods.
#' @noRd
cli_default_methods <- function() {
  eval(formals(prd_curve)$method)
}

#' A comma-separated list of names among `choices`, the value of option
#' `--flag`; an unknown or empty list is a classed error naming the option.
#' @noRd
cli_names <- function(value, choices, flag) {
  x <- unique(trimws(strsplit(value, ",", fixed = TRUE)[[1]]))
  bad <- setdiff(x, choices)
  if (!length(x) || length(bad)) {
    near <- nearest_choices(bad, choices)
    prd_abort(c("Option {.code --{flag}} must be some of {.val {choices}}, separated by commas.",
                "x" = if (length(bad)) "Unknown: {.val {bad}}." else "It is empty.",
                "i" = if (length(near)) "Did you mean {.val {near}}?"),
              kind = "input", call = NULL)
  }
  x
}

cli_number <- function(value, name, whole = FALSE, min = -Inf, max = Inf,
                       open_min = FALSE, what = NULL) {
  num <- suppressWarnings(as.numeric(value))
  ok <- length(num) == 1L && is.finite(num) &&
    (!whole || abs(num - round(num)) < 1e-8) &&
    (if (open_min) num > min else num >= min) && num <= max
  if (!ok) {
    # (an integer's limit is no bound a user thinks of)
    bounded <- is.finite(max) && max < .Machine$integer.max
    if (is.null(what)) {
      what <- paste0(if (whole) "a whole number" else "a number",
                     if (is.finite(min)) paste0(if (open_min) " > " else " >= ", min),
                     if (bounded) paste0(" and <= ", max))
    }
    prd_abort(c("Option {.code --{name}} must be {what}.",
                "x" = "It is {.val {value}}."),
              kind = "input", call = NULL)
  }
  num
}
