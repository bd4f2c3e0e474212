# The files of the command line: reading one (tables and arrays), the
# feature columns (--features), aligning the sets' columns, FILE.npz:NAME
# members and the models' labels.

#' Read one file for the CLI: the feature matrix, with progress.
#'
#' An array file (.npy, .npz) has no column names: every column is a
#' feature, and --features applies to it only when it gives column numbers
#' (1:128); names and tidyselect helpers select in the files that have
#' named columns. So one --features works for a mix of arrays and tables
#' (with arrays alone, cli_array_features() refuses names).
#' @param f list(path, member)
#' @noRd
cli_read <- function(f, features, id, header, say) {
  path <- f$path
  t0 <- proc.time()[["elapsed"]]
  df <- read_table_file(path, header = header, member = f$member, call = NULL)
  is_array <- cli_is_array(f)
  shown <- if (is.null(f$member)) path else paste0(path, ":", f$member)
  if (is_array && !is.null(features) && !isTRUE(attr(features, "positions"))) {
    features <- NULL
  }
  has_id <- !is.null(id) && id %in% names(df)
  columns <- if (!is_array) names(df)
  # text, logical and factor columns are features as in a data frame given
  # to prd_curve(): the sets stay data frames, encoded alike there
  # (R/encode.R)
  sel <- select_features(df, features, id = if (has_id) id, arg = "--features",
                         file = shown, categorical = TRUE, call = NULL)
  if (is.null(features)) {
    # identifiers and model labels are no features by default
    sel$features <- drop_label_columns(df, sel$features, shown)
  }
  # dates and times as numbers of days, as prd_curve() reads them
  when <- if (!is.matrix(df)) {
    intersect(sel$features, names(df)[vapply(df, is_time, logical(1))])
  }
  if (length(when)) df[when] <- times_as_days(df[when])
  # (a numeric column with empty cells too: its indicator of missing
  # values is built from every set's, R/encode.R)
  tabular <- !is.matrix(df) &&
    any(vapply(df[sel$features], function(col) is_category(col) || anyNA(col),
               logical(1)))
  x <- if (tabular) {
    as.data.frame(df[sel$features], stringsAsFactors = FALSE)
  } else if (!is.matrix(df)) {
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
  num <- if (tabular) as.matrix(x[!vapply(x, is_category, logical(1))]) else x
  # (a missing value of a table is a category of its own or an indicator,
  # R/encode.R: no defect; the sets stay data frames, encoded alike later)
  if (nrow(x) < 2L || !is.finite(sum(num, na.rm = tabular))) {
    checked <- as_samples(x, arg = shown, call = NULL, numpy = is_array)
    if (!tabular) x <- checked
  }
  rm(num)
  secs <- sprintf("%.1f", proc.time()[["elapsed"]] - t0)
  file <- basename(shown)
  days <- if (length(when)) paste0(" (", paste(when, collapse = ", "), " in days)") else ""
  say("Read {.file {file}}: {nrow(x)} x {ncol(x)} in {secs} s{days}.")
  # (the exclusions no column of this file answers; NULL where the
  # selection does not apply: an array given names)
  list(x = x, path = shown, has_id = has_id, array = is_array,
       columns = columns,
       misses = if (!is.null(features)) sel$misses)
}

#' Is a file argument (list(path, member)) an array (.npy, .npz)?
#' @noRd
cli_is_array <- function(f) file_format(f$path) %in% c("npy", "npz")

#' --features that names columns (not positions) when every file is an
#' array: it would select in none of them, so it is refused rather than
#' ignored (the columns V1, V2, ... that messages show are numbers).
#' @param features cli_features()'s quosure; spec the option as typed;
#'   inputs the file arguments.
#' @noRd
cli_array_features <- function(features, spec, inputs) {
  if (is.null(features) || isTRUE(attr(features, "positions")) ||
      !all(vapply(inputs, cli_is_array, logical(1)))) {
    return(invisible())
  }
  prd_abort(c(
    "{.code --features {spec}} selects columns by name, but every file is an array ({.file .npy}, {.file .npz}), which has no column names.",
    "i" = "Choose an array's columns by number (V3 in a message is column 3): e.g. {.code --features 1:64}, or {.code --features=-1} for all but the first."
  ), kind = "input", call = NULL)
}

#' Match a generated set's feature columns with the real set's
#'
#' Matched by position; each set keeps its own names, so that the
#' warnings about a set's columns name them as its file does.
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
    trunc <- list("vec-trunc" = 5)
    prd_warn(c(
      "The feature names of {.file {gen$path}} differ from those of {.file {real$path}}: columns are matched by position.",
      "x" = "Only {.file {basename(gen$path)}} has {.val {cli::cli_vec(setdiff(gn, rn), trunc)}}; only {.file {basename(real$path)}} has {.val {cli::cli_vec(setdiff(rn, gn), trunc)}}.",
      "i" = "E.g. {.val {gn[gn != rn][1]}} is matched with {.val {rn[gn != rn][1]}}.",
      "i" = "If they are not the same features, choose the feature columns with {.code --features} (and an identifier with {.code --id})."
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
    # (1-D arrays beside the features: class labels, ids)
    flat <- vapply(shapes, function(s) !is.null(s) && length(s) < 2L,
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
