#' Read a set of samples (embeddings) from a file
#'
#' Reads one sample set, one row per sample and one column per feature, with
#' a fast reader chosen by the file's extension (case-insensitive; the
#' extensions read: `r paste0("\x60.", names(read_formats()), "\x60", collapse = ", ")`):
#'
#' * `.csv`, `.tsv`, `.txt`: delimited text, read with
#'   [data.table::fread()] (multi-threaded, [prd_threads()] threads). The
#'   delimiter (comma, tab, semicolon, space, ...) is detected, and so is the
#'   header line unless `header` says otherwise: the first line is a header
#'   when its fields are not all numbers while the next lines' are. A header
#'   whose first field is empty (R's `write.csv()` with row names, pandas'
#'   `to_csv()` with its index) marks that column as row names: it is
#'   dropped, with a message. A header-less file gets columns `V1`, ...,
#'   `Vd`. Compressed `.csv.gz`, `.tsv.gz` and `.txt.gz` files need the
#'   R.utils package (a [data.table::fread()] requirement).
#' * `.npy` (also `.npy.gz`): a NumPy array saved with `numpy.save()`
#'   (what `torch`/`numpy` embeddings usually are), read natively: the
#'   header is parsed and the bytes are converted in one pass into one
#'   double matrix, with no intermediate copy (a 50,000 x 2,048 float32
#'   file, 400 MB, becomes one 800 MB matrix; `bench/read.R`). A 2-D array
#'   of shape (n, d) or a 1-D array of length n (n samples of dimension 1);
#'   an array of more dimensions, (n, a, b, ...), is n samples of a b ...
#'   features, each sample's values flattened as numpy's
#'   `x.reshape(len(x), -1)` (pooled features of shape (n, 2048, 1, 1),
#'   images; a message says so); C or Fortran order (in Fortran order, at
#'   most one axis after the first may exceed 1: else an error); either byte order; dtype float16, float32,
#'   float64, int8 to int64, uint8 to uint64 or bool. float32 values are
#'   converted to the doubles they represent exactly; 64-bit integers
#'   beyond 2^53 are rounded to the nearest double. Columns are named
#'   `V1`, ..., `Vd` (an array has no column names). A `.npy.gz` is
#'   decompressed into memory first.
#' * `.npz`: a zip of `.npy` arrays (`numpy.savez()`,
#'   `numpy.savez_compressed()`): the array named by `member`, by default
#'   the only one (`arr_0` for `numpy.savez(path, x)`), or the only 2-D
#'   one when the others are not (class labels, ids saved beside the
#'   features; a message names it); otherwise a file holding several
#'   arrays needs `member` (an error lists the arrays and their shapes;
#'   before 0.5.8 `arr_0` was read silently when there were several). It
#'   is extracted to a temporary folder (stored or deflated) and read as a
#'   `.npy` file. [prd_npz_arrays()] lists a file's arrays and shapes.
#' * `.parquet`, `.feather`, `.arrow` (Arrow IPC file format): read with
#'   `arrow::read_parquet()` or `arrow::read_feather()` (the arrow package
#'   must be installed).
#' * `.rds`: a data frame or matrix saved with [saveRDS()]. Matrix columns
#'   without names are named `V1`, ..., `Vd`.
#'
#' In every format, a list column whose elements are numeric vectors of one
#' common length d (an "embedding" column, as Parquet files often have) is
#' expanded into d numeric columns `<name>_1`, ..., `<name>_d`.
#'
#' With `features` and `id` both `NULL`, every column of the file is
#' returned as read. Otherwise the result holds the `id` column (when given)
#' followed by the feature columns: those selected by `features`, or by
#' default every numeric and categorical (character, factor, logical)
#' column other than `id`, as the command line reads them and as
#' [prd_curve()] takes a data frame (its categories encoded). Columns that
#' are neither selected nor the `id`, and by default identifiers (text with
#' more distinct values than half the rows) and model labels (a text
#' column named `model`), are dropped with a message (class
#' `prdcurve_message_dropped_columns`) naming them.
#'
#' In text files, empty fields and `NA` are missing values, in every column
#' (as `write.csv()` and `data.table::fwrite()` write them).
#'
#' Decimal numbers are parsed by [data.table::fread()], which, like
#' [utils::read.csv()], may differ from the correctly rounded double in the
#' last bit for some numbers with 15 or 16 significant digits (the two
#' parsers disagree on about 1 in 10,000 such numbers). Write 17 significant
#' digits (`data.table::fwrite()` does), or use `.npy` or `.rds`, for a
#' bit-exact round trip.
#'
#' @param path Path of the file, a single string.
#' @param features <[`tidy-select`][tidyselect::language]> The feature
#'   columns, for instance `starts_with("f")`, `f1:f128`, `c(1:64)` or
#'   `where(is.numeric)`. Default `NULL`: every numeric, categorical, date
#'   or time column other than `id`, identifiers and model labels (dates and
#'   times as they are: [prd_curve()] reads them as days) (or, when `id` is
#'   also `NULL`, every column as read). An exclusion alone (`-label`)
#'   keeps those columns but the excluded ones (each of which must be a
#'   column of the file).
#' @param id Name of an identifier column (a single string), or `NULL`. It is
#'   never a feature (even when `features` selects it) and comes first in the
#'   result.
#' @param header For delimited text only: `NA` (default) detects a header
#'   line, `TRUE` says the first line holds column names, `FALSE` that it is
#'   data.
#' @param member For `.npz` files only: the name of the array to read (a
#'   single string, without `.npy`). Default `NULL`: the only array, or
#'   the only 2-D one.
#' @return A tibble with one row per sample (n rows): every column of the
#'   file, or the `id` column followed by the selected feature columns
#'   (numeric or categorical, with the file's names; `V1`, ..., `Vd` when
#'   the file has none). Pass it, or its feature columns, to [prd_curve()].
#' @section Errors: every error has class `prdcurve_error` and a specific
#'   class: `prdcurve_error_file` when the file does not exist, is empty,
#'   has no data rows, has an unsupported extension, is a directory, is
#'   malformed (ragged lines, a `.npy` dtype that is not numeric, an array
#'   of more than 2 dimensions in Fortran order with more than one axis
#'   after the first above 1, a truncated array, an `.npz` holding no
#'   array, or
#'   several arrays and no `member`, an `.rds` that holds no data frame or
#'   matrix), has duplicated column names, or when the reader fails;
#'   `prdcurve_error_input` when an argument is malformed, when the `id`
#'   column does not exist, when `features` selects no column, a column
#'   that does not exist or a column that is neither numeric, categorical,
#'   a date nor a time (complex numbers), when `member` is not
#'   an array of the `.npz` file, or when an array (`.npy`, `.npz`) holds
#'   NaN or Inf (an embedding with missing values is a defect upstream, as
#'   in a matrix given to [prd_curve()]; the error names the rows, also
#'   counted from 0 as NumPy does). A missing arrow package (for Parquet and
#'   Feather) is an error of class `prdcurve_error_package`, which names
#'   the package and the alternatives.
#' @seealso [prd_curve()], [prd_cli()] (the command line),
#'   [prd_npz_arrays()] (the arrays of an `.npz` file).
#' @examples
#' set.seed(1)
#' x <- data.frame(id = 1:100, site = sample(c("a", "b", "c"), 100, TRUE),
#'                 f1 = rnorm(100), f2 = rnorm(100), f3 = rnorm(100))
#' path <- tempfile(fileext = ".csv")
#' utils::write.csv(x, path, row.names = FALSE)
#' all_columns <- prd_read(path)
#' names(all_columns)
#' # the id first, then every column but the id (site is a categorical
#' # feature, as in a data frame given to prd_curve())
#' samples <- prd_read(path, id = "id")
#' names(samples)
#' # a tidyselect selection
#' names(prd_read(path, features = f1:f2))
#' names(prd_read(path, features = starts_with("f"), id = "id"))
#' unlink(path)
#' @export
prd_read <- function(path, features = NULL, id = NULL, header = NA,
                     member = NULL) {
  features <- rlang::enquo(features)
  call <- rlang::current_env()
  # the path first: `member` is checked against its extension
  check_path(path, call = call)
  if (!is.null(member)) {
    member <- check_string(member, call = call)
    if (!identical(file_format(path), "npz")) {
      prd_abort(c("{.arg member} applies to {.file .npz} files only.",
                  "x" = "{.file {path}} is not one."),
                kind = "input", call = call)
    }
  }
  if (!is.null(id) && (!is.character(id) || length(id) != 1L || is.na(id) ||
                       !nzchar(id))) {
    prd_abort(c("{.arg id} must be a single column name or {.code NULL}.",
                "x" = "It is {.obj_type_friendly {id}}."),
              kind = "input", call = call)
  }
  df <- read_table_file(path, header = header, member = member,
                        columns = TRUE, call = call)
  # an array's NaN or Inf is a defect (as in a matrix given to prd_curve(),
  # and on the command line), not a missing value of a table's column
  if (file_format(path) %in% c("npy", "npz")) {
    # (column by column: no copy of the array)
    finite <- if (is.matrix(df)) is.finite(sum(df)) else
      all(vapply(df, function(v) is.finite(sum(v)), logical(1)))
    if (!finite) as_samples(as.matrix(df), arg = "path", call = call, numpy = TRUE)
  }
  if (!(rlang::quo_is_null(features) && is.null(id))) {
    # categorical columns are features as for the command line and
    # prd_curve()'s data frames (R/encode.R)
    sel <- select_features(df, features, id = id, arg = "features",
                           file = path, categorical = TRUE, call = call)
    check_exclusions(list(sel$misses), sets = "file", call = call)
    if (rlang::quo_is_null(features)) {
      sel$features <- drop_label_columns(df, sel$features, path)
    }
    cols <- c(sel$id, sel$features)
    df <- if (is.matrix(df)) df[, cols, drop = FALSE] else df[cols]
  }
  tibble::as_tibble(df, .name_repair = "minimal")
}

#' The default features `feat` of a table `df` (file `shown`) without
#' identifiers (text with more distinct values than half the rows) and
#' model labels (category_levels()), with a message naming them
#' @noRd
drop_label_columns <- function(df, feat, shown) {
  if (is.matrix(df)) return(feat)
  skip <- attr(category_levels(list(df[feat])), "skip")
  if (length(skip)) {
    prd_inform(c("i" = "Ignoring {cli::qty(length(skip))}the column{?s} {.val {skip}} of {.file {shown}}: {?an identifier or a model label/identifiers or model labels} (not {?a feature/features})."),
               kind = "dropped_columns")
  }
  setdiff(feat, skip)
}

#' The readers by extension (lower case, without the dot)
#' @noRd
read_formats <- function() {
  c(csv = "text", tsv = "text", txt = "text", csv.gz = "text",
    tsv.gz = "text", txt.gz = "text", npy = "npy", npy.gz = "npy",
    npz = "npz", parquet = "parquet", feather = "feather", arrow = "feather", rds = "rds")
}

#' The format of a file from its extension, or NA
#' @noRd
file_format <- function(path) {
  if (!rlang::is_string(path)) return(NA_character_)
  base <- tolower(basename(path))
  fmts <- read_formats()
  for (ext in names(fmts)[order(-nchar(names(fmts)))]) {
    if (endsWith(base, paste0(".", ext))) return(fmts[[ext]])
  }
  NA_character_
}

check_path <- function(path, call = rlang::caller_env()) {
  if (!is.character(path) || length(path) != 1L || is.na(path) ||
      !nzchar(path)) {
    prd_abort(c("{.arg path} must be a single file path.",
                "x" = "It is {.obj_type_friendly {path}}."),
              kind = "input", call = call)
  }
  if (dir.exists(path)) {
    prd_abort(c("{.file {path}} is a directory, not a file.",
                "i" = "Give the path of a file in it."),
              kind = "file", call = call)
  }
  if (!file.exists(path)) {
    # FILE.npz:NAME, the command line's name of an array, is `member` here
    npz <- regmatches(path, regexec("^(.+\\.npz):([^/\\\\]+)$", path,
                                    ignore.case = TRUE))[[1]]
    hint <- if (length(npz) && file.exists(npz[2])) {
      c("i" = "An array of an {.file .npz} file is read with {.arg member}: {.code prd_read({deparse(npz[2])}, member = {deparse(npz[3])})}.")
    }
    prd_abort(c("File {.file {path}} does not exist.", hint), kind = "file",
              call = call)
  }
  fmt <- file_format(path)
  if (is.na(fmt)) {
    exts <- paste0(".", names(read_formats()))
    prd_abort(c("Can't tell the format of {.file {path}} from its extension.",
                "i" = "Supported extensions: {.val {exts}}."),
              kind = "file", call = call)
  }
  if (file.size(path) == 0) {
    prd_abort("File {.file {path}} is empty.", kind = "file", call = call)
  }
  fmt
}

#' Read a file into a plain data frame (all its columns), or a numeric
#' matrix with column names for .npy files and matrices in .rds files (no
#' copy into a data frame); dispatches on the extension; every failure is a
#' classed error naming the file.
#' @noRd
read_table_file <- function(path, header = NA, member = NULL, columns = FALSE,
                            call = rlang::caller_env()) {
  fmt <- check_path(path, call = call)
  if (!is.logical(header) || length(header) != 1L) {
    prd_abort("{.arg header} must be {.code NA}, {.code TRUE} or {.code FALSE}.",
              kind = "input", call = call)
  }
  df <- switch(fmt,
    text = read_text(path, header, call = call),
    npy = read_npy(path, columns = columns, call = call),
    npz = read_npz(path, member = member, columns = columns, call = call),
    parquet = ,
    feather = read_arrow(path, fmt, call = call),
    rds = read_rds(path, call = call)
  )
  if (!is.matrix(df)) df <- expand_list_columns(df, path, call = call)
  if (ncol(df) == 0L) {
    prd_abort("File {.file {path}} has no columns.", kind = "file", call = call)
  }
  if (nrow(df) == 0L) {
    prd_abort("File {.file {path}} has no data rows.", kind = "file",
              call = call)
  }
  dup <- unique(colnames(df)[duplicated(colnames(df))])
  if (length(dup)) {
    prd_abort(c("File {.file {path}} has duplicated column names.",
                "x" = "Duplicated: {.val {dup}}."),
              kind = "file", call = call)
  }
  df
}

#' Run a reader; turn its errors into classed file errors naming the file
#' @noRd
with_file_errors <- function(expr, path, what, call) {
  tryCatch(expr, error = function(e) {
    if (inherits(e, c("prdcurve_error", "rlib_error_package_not_found"))) {
      stop(e)
    }
    prd_abort(c("Can't read {.file {path}} as {what}.",
                "x" = "{fread_text(conditionMessage(e))}"),
              kind = "file", call = call)
  })
}

read_text <- function(path, header = NA, call = rlang::caller_env()) {
  warns <- character()
  df <- with_file_errors(
    withCallingHandlers(
      data.table::fread(path, header = if (is.na(header)) "auto" else header,
                        data.table = FALSE, check.names = FALSE,
                        integer64 = "double", nThread = prd_threads(),
                        showProgress = FALSE, na.strings = c("NA", "")),
      warning = function(w) {
        warns <<- c(warns, conditionMessage(w))
        invokeRestart("muffleWarning")
      }),
    path, "delimited text", call)
  # fread() keeps going after a line with a different number of fields and
  # only warns: the rows after it would be lost silently.
  lost <- grepl("Stopped early|Discarded single-line footer", warns)
  if (any(lost)) {
    prd_abort(c("File {.file {path}} is malformed: its lines don't all have the same number of fields.",
                "x" = "{fread_ragged_text(warns[lost][1])}",
                "i" = "Every line must have one field per column; fix or remove the line."),
              kind = "file", call = call)
  }
  warns <- fread_text(warns)
  for (w in warns) {
    prd_warn(c("While reading {.file {path}}:", "!" = "{w}"), kind = "file")
  }
  # An empty first header field: row names (write.csv) or an index (pandas).
  if (ncol(df) > 1L && !isFALSE(header) && names(df)[1] == "V1" &&
      !identical(names(df), paste0("V", seq_len(ncol(df))))) {
    con <- if (grepl("\\.gz$", path, ignore.case = TRUE)) gzfile(path) else
      file(path)
    first <- tryCatch(readLines(con, n = 1L, warn = FALSE),
                      finally = close(con))
    if (length(first) && grepl("^\\s*(\"\"|'')?\\s*[,;\t| ]", first)) {
      prd_inform(c("i" = "The first column of {.file {path}} has no name: taken as row names and dropped."),
                 kind = "dropped_columns")
      df <- df[-1L]
    }
  }
  df
}

#' fread()'s messages without its advice on its own arguments (fill=,
#' comment.char=, ...), which a caller of prd_read() or the command line
#' can't pass.
#' @noRd
fread_text <- function(msg) {
  msg <- gsub("\\s*Consider fill=TRUE( and comment\\.char=)?\\.?", "", msg)
  msg <- gsub("\\s*(Please )?[Cc]onsider (setting |using |passing )?[a-z.]+ ?=[^.]*\\.", "",
              msg)
  trimws(msg)
}

#' fread()'s "Stopped early" / "Discarded single-line footer" warnings in
#' the terms of the file
#' @noRd
fread_ragged_text <- function(msg) {
  m <- regmatches(msg, regexec(
    "Stopped early on line ([0-9]+)\\. Expected ([0-9]+) fields but found ([0-9]+)\\..*<<(.*)>>",
    msg))[[1]]
  if (length(m)) {
    return(sprintf("Line %s has %s field%s, the lines before it %s: %s",
                   m[2], m[4], if (m[4] == "1") "" else "s", m[3],
                   encodeString(m[5], quote = "\"")))
  }
  m <- regmatches(msg, regexec("Discarded single-line footer: <<(.*)>>",
                               msg))[[1]]
  if (length(m)) {
    return(sprintf("The last line has a different number of fields than the lines before it: %s",
                   encodeString(m[2], quote = "\"")))
  }
  fread_text(msg)
}

# arrow is an optional reader that is not declared in Suggests: it is too
# heavy to install on the machines that check the package, and a declared
# but unavailable suggestion makes R CMD check --as-cran report a note.
# It is looked up at run time, after rlang::check_installed().
read_arrow <- function(path, fmt, call = rlang::caller_env()) {
  if (!rlang::is_installed("arrow")) {
    prd_abort(c("Reading {.file {basename(path)}} needs the {.pkg arrow} package, which is not installed.",
                "i" = "Install it with {.code install.packages(\"arrow\")}, or save the features as {.file .npy}, {.file .csv} or {.file .rds}."),
              "package", call = call)
  }
  reader <- getExportedValue("arrow", if (fmt == "parquet") "read_parquet" else
    "read_feather")
  df <- with_file_errors(reader(path),
    path, if (fmt == "parquet") "Parquet" else "Feather/Arrow IPC", call)
  as.data.frame(df)
}

read_rds <- function(path, call = rlang::caller_env()) {
  x <- with_file_errors(readRDS(path), path, "an R data file (.rds)", call)
  if (is.matrix(x)) {
    if (is.null(colnames(x))) colnames(x) <- paste0("V", seq_len(ncol(x)))
    rownames(x) <- NULL
    if (is.numeric(x)) return(x)
    x <- as.data.frame(x, stringsAsFactors = FALSE)
  }
  if (is_synds(x)) {
    # (its missing codes belong to every set of the call: R/synds.R)
    prd_abort(c("File {.file {path}} must hold a data frame or a matrix.",
                "x" = "It holds a synthpop object (the result of {.fn synthpop::syn}).",
                "i" = "Save its synthetic data, {.code saveRDS(s$syn, file)} ({.code s$syn[[1]]}, ... for m > 1), or pass the object to {.fn prd_curve} in R, which also reads its missing codes ({.field cont.na})."),
              kind = "file", call = call)
  }
  if (!is.data.frame(x)) {
    prd_abort(c("File {.file {path}} must hold a data frame or a matrix.",
                "x" = "It holds {.obj_type_friendly {x}}."),
              kind = "file", call = call)
  }
  x <- as.data.frame(x, stringsAsFactors = FALSE)
  rownames(x) <- NULL
  x
}

#' Expand list columns of equal-length numeric vectors ("embedding"
#' columns) into one numeric column per element: <name>_1, ..., <name>_d.
#' @noRd
expand_list_columns <- function(df, path, call = rlang::caller_env()) {
  is_list <- vapply(df, is.list, logical(1))
  if (!any(is_list)) return(df)
  out <- list()
  for (j in seq_along(df)) {
    col <- df[[j]]
    nm <- names(df)[j]
    if (!is_list[j]) {
      out[[nm]] <- col
      next
    }
    lens <- lengths(col)
    ok <- all(vapply(col, is.numeric, logical(1))) && length(lens) &&
      all(lens == lens[1]) && lens[1] > 0L
    if (!ok) {
      prd_abort(c("Column {.val {nm}} of {.file {path}} is a list column whose elements are not numeric vectors of one common length.",
                  "i" = "A list column can hold one embedding per row: numeric vectors all of the same length."),
                kind = "file", call = call)
    }
    m <- matrix(unlist(col, use.names = FALSE), ncol = lens[1], byrow = TRUE)
    for (i in seq_len(ncol(m))) out[[paste0(nm, "_", i)]] <- m[, i]
  }
  as.data.frame(out, check.names = FALSE, stringsAsFactors = FALSE)
}

#' TRUE for a tidyselect expression made of exclusions only: `-x`, `!x`,
#' `c()` of such terms (in parentheses or not).
#' @noRd
only_exclusions <- function(e) {
  if (!is.call(e)) return(FALSE)
  f <- e[[1]]
  if (identical(f, quote(`-`))) return(length(e) == 2L)
  if (identical(f, quote(`!`))) return(TRUE)
  if (identical(f, quote(`(`))) return(only_exclusions(e[[2]]))
  if (identical(f, quote(c)) && length(e) > 1L) {
    return(all(vapply(as.list(e)[-1], only_exclusions, logical(1))))
  }
  FALSE
}

#' Select the feature columns (and the id column) of a data frame or of a
#' matrix with column names
#'
#' @param features a quosure (tidyselect) or NULL (every numeric column
#'   other than `id`).
#' @param categorical TRUE: categorical columns (factors, logicals,
#'   characters; is_category()) are features as numeric ones are, to be
#'   encoded by prepare_samples() (the command line).
#' @return list(id = name or NULL, features = names, dropped = names of
#'   non-numeric columns left out, misses = the exclusions that exclude no
#'   column of `df`, for check_exclusions()).
#' @noRd
select_features <- function(df, features, id = NULL, arg = "features",
                            file = NULL, categorical = FALSE,
                            call = rlang::caller_env()) {
  # a matrix is selected through an empty data frame of the same columns
  if (is.matrix(df)) df <- as.data.frame(df[0L, , drop = FALSE])
  src <- if (is.null(file)) "the data" else "{.file {file}}"
  if (!is.null(id) && !id %in% names(df)) {
    prd_abort(c(paste0("The {.arg id} column {.val {id}} does not exist in ",
                       src, "."),
                "i" = "Columns: {.val {utils::head(names(df), 8)}}{if (ncol(df) > 8) ', ...'}."),
              kind = "input", call = call)
  }
  # (dates and times are numbers of days: times_as_days())
  numeric <- vapply(df, function(col) {
    (is.numeric(col) && is.null(dim(col))) || is_time(col) ||
      (categorical && is_category(col))
  }, logical(1))
  kinds <- if (categorical) "numeric, categorical or date" else "numeric or date"
  if (is.null(features) || rlang::quo_is_null(features)) {
    feat <- setdiff(names(df)[numeric], id)
  } else {
    pos <- tryCatch(
      eval_features(features, df, error_call = call),
      error = function(e) {
        # tidyselect's header and its bullets, each a bullet of its own
        lines <- strsplit(cli::ansi_strip(conditionMessage(e)), "\n")[[1]]
        rest <- lines[-1]
        kind <- ifelse(grepl("^(\u2716|\u2715|x) ", rest), "x", "i")
        rest <- sub("^\\S+ ", "", rest)
        prd_abort(c(paste0("Can't select the {.arg {arg}} in ", src, "."),
                    "x" = "{lines[1]}",
                    stats::setNames(paste0("{rest[", seq_along(rest), "]}"), kind)),
                  kind = "input", call = call)
      })
    feat <- setdiff(names(df)[pos], id)
    bad <- feat[!numeric[feat]]
    # a selection that only excludes (`-label`, `!label`, `c(-a, -b)`)
    # starts from every column: it narrows the default features, the
    # numeric columns, so the others go as they go by default
    if (length(bad) && only_exclusions(rlang::quo_get_expr(features))) {
      feat <- setdiff(feat, bad)
      bad <- character()
    }
    if (length(bad)) {
      prd_abort(c(paste0("{.arg {arg}} must select ", kinds, " columns of ",
                         src, " only."),
                  "x" = paste0("Column{?s} {.val {bad}} {?is/are} not ", kinds, ".")),
                kind = "input", call = call)
    }
  }
  if (!length(feat)) {
    prd_abort(c(paste0("No feature column is selected in ", src, "."),
                "i" = if (is.null(features) || rlang::quo_is_null(features))
                  paste0("It has no ", kinds, " column other than {.arg id}.") else
                  "{.arg {arg}} selects no column other than {.arg id}."),
              kind = "input", call = call)
  }
  dropped <- setdiff(names(df)[!numeric], c(feat, id))
  if (length(dropped)) {
    prd_inform(c("i" = paste0("Ignoring {cli::qty(length(dropped))}", if (categorical) "" else "non-numeric ", "column{?s} {.val {dropped}} of ",
                              src, " (not a feature).")),
               kind = "dropped_columns")
  }
  misses <- if (!is.null(features)) exclusion_misses(features, df) else character()
  list(id = id, features = feat, dropped = dropped, misses = misses)
}
