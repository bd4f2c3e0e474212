# NumPy's .npy and .npz files (prd_read(), prd_npz_arrays()): the header
# parsed in R, the payload read by src/npy.c (any dtype, byte order, C or
# Fortran order), .npz members through unzip().

#' The arrays of a NumPy `.npz` file
#'
#' Lists the arrays of an `.npz` file (`numpy.savez()`,
#' `numpy.savez_compressed()`) from their `.npy` headers, without reading
#' them: which arrays a file holds, before [prd_read()] reads one by its
#' `member`. A file saved as `numpy.savez("models.npz", good = a, noisy =
#' b, labels = y)` holds two models' features and their class labels.
#'
#' @param path Path of the `.npz` file, a single string.
#' @return A tibble with one row per array, in the file's order:
#'   * `array`: its name (what `member` of [prd_read()] takes; `arr_0`,
#'     `arr_1`, ... for arrays saved without names);
#'   * `dtype`: NumPy's type string (`"<f4"` is little-endian float32,
#'     `"<i8"` int64, `"|b1"` bool; `NA` for a structured dtype);
#'   * `dims`: the number of dimensions (2 for n samples x d features);
#'   * `rows`, `columns`: the shape [prd_read()] reads, n x d for a 2-D
#'     array, n x 1 for a 1-D one, and for more dimensions (n, a, b, ...)
#'     n x (a b ...), each sample's values flattened as numpy's
#'     `x.reshape(len(x), -1)` (features of shape (n, 2048, 1, 1), images);
#'     `NA` for a shape the header does not give.
#' @section Errors: class `prdcurve_error_file` when the file does not
#'   exist, is not a zip file or an array's header is not a `.npy` header;
#'   `prdcurve_error_input` when `path` is not a single string or not an
#'   `.npz` file.
#' @seealso [prd_read()]; on the command line a multi-array `.npz` given
#'   as a generated file is one model per array of two or more dimensions
#'   ([prd_cli()]), and so
#'   it is in the report template.
#' @examples
#' # features saved by numpy.savez_compressed(): the real images and two
#' # models' (the bundled digits as float32; the real set's digits as a
#' # 1-D int64 array)
#' path <- system.file("extdata", "digits-models.npz", package = "prdcurve")
#' arrays <- prd_npz_arrays(path)
#' arrays
#' real <- prd_read(path, member = "real")
#' models <- arrays$array[arrays$dims == 2 & arrays$array != "real"]
#' generated <- lapply(stats::setNames(models, models), function(a) {
#'   prd_read(path, member = a)
#' })
#' sapply(generated, nrow)
#' @export
prd_npz_arrays <- function(path) {
  call <- rlang::current_env()
  if (!identical(file_format(path), "npz")) {
    if (!rlang::is_string(path)) check_path(path, call = call)
    prd_abort(c("{.arg path} must be an {.file .npz} file.",
                "x" = "{.file {path}} is not one."),
              kind = "input", call = call)
  }
  check_path(path, call = call)
  arrays <- names(npz_members(path, call = call))
  heads <- lapply(arrays, function(a) {
    with_file_errors(npz_member_header(path, a, call = call),
                     paste0(path, ":", a), "a NumPy .npy array", call)
  })
  dims <- vapply(heads, function(h) {
    if (anyNA(h$shape)) NA_integer_ else length(h$shape)
  }, integer(1))
  shape_at <- function(i) {
    vapply(seq_along(heads), function(k) {
      s <- heads[[k]]$shape
      if (is.na(dims[k]) || dims[k] < 1L) return(NA_real_)
      if (i == 1L) return(as.double(s[[1]]))
      if (dims[k] == 1L) 1 else prod(as.double(s[-1]))
    }, numeric(1))
  }
  tibble::tibble(array = arrays,
                 dtype = vapply(heads, `[[`, "", "descr"),
                 dims = dims, rows = shape_at(1L), columns = shape_at(2L))
}

#' Parse the header of a .npy file (format version 1.0, 2.0 or 3.0) from
#' its first bytes: the dtype (kind, element size, byte order), the shape,
#' the order and the byte offset of the payload.
#' @param bytes raw vector: the start of the file (at least the header).
#' @noRd
npy_parse_header <- function(bytes, path, call = rlang::caller_env()) {
  magic <- as.raw(c(0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59))
  if (length(bytes) < 10L || !identical(bytes[1:6], magic)) {
    prd_abort("File {.file {path}} is not a NumPy {.file .npy} file (no NUMPY magic string).",
              kind = "file", call = call)
  }
  major <- as.integer(bytes[7])
  if (!major %in% 1:3) {
    prd_abort("Can't read {.file {path}}: its .npy format version {major} is unknown (1, 2 and 3 are supported).",
              kind = "file", call = call)
  }
  len_size <- if (major == 1L) 2L else 4L
  len_bytes <- as.integer(bytes[8L + seq_len(len_size)])
  len <- sum(len_bytes * 256^(seq_len(len_size) - 1L))
  offset <- 8 + len_size + len
  if (length(bytes) < offset) {
    prd_abort("Can't read {.file {path}}: its .npy header is truncated.",
              kind = "file", call = call)
  }
  text <- rawToChar(bytes[(9L + len_size):offset])
  field <- function(re) {
    m <- regmatches(text, regexec(re, text))[[1]]
    if (length(m) < 2L) NA_character_ else m[2]
  }
  shape <- field("'shape'\\s*:\\s*\\(([^)]*)\\)")
  dims <- if (is.na(shape)) NA else {
    parts <- trimws(strsplit(shape, ",", fixed = TRUE)[[1]])
    suppressWarnings(as.numeric(sub("L$", "", parts[nzchar(parts)])))
  }
  list(version = major, descr = field("'descr'\\s*:\\s*'([^']*)'"),
       fortran = identical(field("'fortran_order'\\s*:\\s*(True|False)"),
                           "True"),
       shape = dims, offset = offset, header = text)
}

#' The .npy dtypes prd_read() reads: kind code for src/npy.c (0 float,
#' 1 signed integer, 2 unsigned integer, 3 bool) and element sizes.
#' @noRd
npy_dtypes <- list(f = list(code = 0, sizes = c(2, 4, 8)),
                   i = list(code = 1, sizes = c(1, 2, 4, 8)),
                   u = list(code = 2, sizes = c(1, 2, 4, 8)),
                   b = list(code = 3, sizes = 1))

#' The conversion layout of a parsed header: c(n, d, kind, size, swap,
#' fortran), or a classed error naming what is not supported.
#' @noRd
npy_layout <- function(h, path, call = rlang::caller_env()) {
  descr <- h$descr
  m <- if (is.na(descr)) character() else
    regmatches(descr, regexec("^([<>|=]?)([fiub])([0-9]+)$", descr))[[1]]
  size <- if (length(m)) as.numeric(m[4]) else NA
  if (!length(m) || !size %in% npy_dtypes[[m[3]]]$sizes) {
    what <- if (is.na(descr)) "a structured dtype" else
      paste0("dtype ", encodeString(descr, quote = "'"))
    prd_abort(c("Can't read {.file {path}}: {what} is not a numeric dtype this package reads.",
                "i" = "Supported: float16, float32, float64, int8 to int64, uint8 to uint64 and bool, either byte order.",
                "i" = "Convert in Python with {.code numpy.save(path, x.astype(\"float32\"))}."),
              kind = "file", call = call)
  }
  shape_text <- paste(format(h$shape, scientific = FALSE, trim = TRUE),
                      collapse = ", ")
  if (anyNA(h$shape) || !length(h$shape)) {
    prd_abort(c("Can't read {.file {path}}: it must hold an array of samples (a 1-D or 2-D array, samples x features).",
                "x" = "Its shape is ({shape_text})."),
              kind = "file", call = call)
  }
  # an array of more dimensions is one row per sample, its other axes
  # flattened in C order (numpy's x.reshape(len(x), -1)): a Fortran-order
  # payload is that only when at most one of those axes exceeds 1
  if (length(h$shape) > 2L && h$fortran && sum(h$shape[-1] > 1) > 1L) {
    prd_abort(c("Can't read {.file {path}}: an array of more than two dimensions in Fortran order.",
                "x" = "Its shape is ({shape_text}).",
                "i" = "Save it flattened in Python: {.code numpy.save(path, numpy.ascontiguousarray(x).reshape(len(x), -1))}."),
              kind = "file", call = call)
  }
  n <- h$shape[1]
  d <- if (length(h$shape) >= 2L) prod(h$shape[-1]) else 1
  if (n > .Machine$integer.max || d > .Machine$integer.max) {
    prd_abort("Can't read {.file {path}}: its shape ({format(n, scientific = FALSE)}, {format(d, scientific = FALSE)}) is too large for an R matrix.",
              kind = "file", call = call)
  }
  big <- .Platform$endian == "big"
  order <- m[2]
  swap <- size > 1 && ((order == ">" && !big) || (order == "<" && big))
  c(n = n, d = d, kind = npy_dtypes[[m[3]]]$code, size = size,
    swap = as.numeric(swap), fortran = as.numeric(h$fortran))
}

#' Read a .npy file (or .npy.gz) into one double matrix with columns
#' V1..Vd, or (columns = TRUE) a data frame of d double columns; the bytes
#' are converted in one pass (src/npy.c) with no intermediate copy of the
#' payload (a .npy.gz is decompressed into memory first).
#' @noRd
read_npy <- function(path, columns = FALSE, call = rlang::caller_env(),
                     shown = path) {
  gz <- grepl("\\.gz$", path, ignore.case = TRUE)
  if (gz) {
    src <- with_file_errors(read_gz_bytes(path), shown,
                            "a gzip-compressed .npy file", call)
    head <- src[seq_len(min(length(src), 65536L + 12L))]
  } else {
    src <- path
    head <- readBin(path, "raw", 12L)
    if (length(head) == 12L && head[7] %in% as.raw(1:3)) {
      # the header's length field: 2 bytes (version 1) or 4 (2 and 3)
      len <- if (head[7] == as.raw(1L)) 10 + sum(as.integer(head[9:10]) * c(1, 256)) else
        12 + sum(as.integer(head[9:12]) * 256^(0:3))
      head <- readBin(path, "raw", min(len, 2^31 - 1))
    }
  }
  h <- npy_parse_header(head, shown, call = call)
  layout <- npy_layout(h, shown, call = call)
  if (length(h$shape) > 2L) {
    dims <- paste(format(h$shape, scientific = FALSE, trim = TRUE),
                  collapse = ", ")
    n <- layout[["n"]]
    d <- layout[["d"]]
    prd_inform(c("i" = "Read {.file {shown}} of shape ({dims}) as {format_number(n)} {cli::qty(n)}row{?s} of {format_number(d)} {cli::qty(d)}feature{?s} (each sample's values flattened, as {.code x.reshape(len(x), -1)})."),
               kind = "flattened_array")
  }
  need <- h$offset + layout[["n"]] * layout[["d"]] * layout[["size"]]
  have <- if (gz) length(src) else file.size(path)
  if (have < need) {
    prd_abort(c("Can't read {.file {shown}}: the file ends before its array does.",
                "x" = "Its header says ({format(layout[['n']], scientific = FALSE)}, {format(layout[['d']], scientific = FALSE)}) values of {layout[['size']]} byte{?s}: {format(need, big.mark = ',', scientific = FALSE)} bytes; the file has {format(have, big.mark = ',', scientific = FALSE)}."),
              kind = "file", call = call)
  }
  # the result is named in C (V1..Vd) and returned as is: modifying it
  # here would copy it
  x <- tryCatch(
    .Call(ffi_npy_read, src, h$offset, as.double(layout), columns),
    error = function(e) {
      prd_abort(c("Can't read {.file {shown}} as a .npy array.",
                  "x" = "{conditionMessage(e)}"),
                kind = "file", call = call)
    })
  if (columns) {
    # a data frame of the columns (the columns themselves are not copied)
    x <- structure(x, row.names = .set_row_names(as.integer(layout[["n"]])),
                   class = "data.frame")
  }
  x
}

#' The decompressed bytes of a gzip file
#' @noRd
read_gz_bytes <- function(path) {
  con <- gzfile(path, "rb")
  on.exit(close(con))
  chunks <- list()
  repeat {
    b <- readBin(con, "raw", 64L * 1024L^2)
    if (!length(b)) break
    chunks[[length(chunks) + 1L]] <- b
  }
  if (length(chunks) == 1L) chunks[[1]] else do.call(c, chunks)
}

#' The arrays of a .npz file (names without ".npy")
#' @noRd
npz_members <- function(path, call = rlang::caller_env()) {
  # numpy.savez() of no array writes an empty zip (its end record alone),
  # which unzip() cannot open
  if (file.size(path) == 22L &&
      identical(readBin(path, "raw", 4L), as.raw(c(0x50, 0x4b, 0x05, 0x06)))) {
    return(stats::setNames(character(), character()))
  }
  files <- with_file_errors(utils::unzip(path, list = TRUE)$Name, path,
                            "a NumPy .npz (zip) file", call)
  files <- files[grepl("\\.npy$", files)]
  stats::setNames(files, sub("\\.npy$", "", files))
}

#' The shape of an array of a .npz file, from its .npy header (the first
#' bytes of the zip member, stored or deflated; the array is not read).
#' @noRd
npz_member_shape <- function(path, member) {
  npz_member_header(path, member, call = NULL)$shape
}

#' The parsed .npy header of an array of a .npz file (npy_parse_header())
#' @noRd
npz_member_header <- function(path, member, call = rlang::caller_env()) {
  con <- unz(path, paste0(member, ".npy"), open = "rb")
  on.exit(close(con))
  npy_parse_header(readBin(con, "raw", 65536L + 12L),
                   paste0(path, ":", member), call = call)
}

#' The arrays of a .npz file for a message: '"feats" (500 x 256) and
#' "labels" (500)' (shapes from their headers; none where unreadable), to
#' be inserted as a value ("{arrays}"), not as template text.
#' @noRd
npz_described <- function(path, arrays) {
  txt <- vapply(arrays, function(a) {
    s <- tryCatch(npz_member_shape(path, a), error = function(e) NULL)
    paste0("\"", a, "\"", if (length(s) && !anyNA(s))
      paste0(" (", paste(format(s, scientific = FALSE, trim = TRUE),
                         collapse = " x "), ")"))
  }, "", USE.NAMES = FALSE)
  if (length(txt) < 2L) return(txt)
  paste0(paste(txt[-length(txt)], collapse = ", "), " and ", txt[length(txt)])
}

#' The array of a .npz read without a name: its only one, else its only
#' array of two or more dimensions when the others are 1-D (class labels, ids saved beside
#' the features; their shapes from the headers), else NA (several, even
#' arr_0 and arr_1 of numpy.savez() without names: the caller must name
#' one). Attribute "others": the arrays passed over, described.
#' @noRd
npz_default_member <- function(path, arrays) {
  if (length(arrays) == 1L) return(arrays)
  if (!length(arrays)) return(NA_character_)
  dims <- vapply(arrays, function(a) {
    s <- tryCatch(npz_member_shape(path, a), error = function(e) NULL)
    if (is.null(s)) NA_integer_ else length(s)
  }, integer(1))
  if (anyNA(dims) || sum(dims >= 2L) != 1L) return(NA_character_)
  structure(arrays[dims >= 2L],
            others = npz_described(path, arrays[dims < 2L]))
}

#' Read one array of a .npz file: the zip member is extracted to a
#' temporary folder (stored or deflated), read as a .npy file, and removed.
#' @noRd
read_npz <- function(path, member = NULL, columns = FALSE,
                     call = rlang::caller_env()) {
  members <- npz_members(path, call = call)
  if (!length(members)) {
    prd_abort("File {.file {path}} holds no .npy array.", kind = "file",
              call = call)
  }
  if (is.null(member)) {
    member <- npz_default_member(path, names(members))
    if (!is.null(attr(member, "others"))) {
      # (on the command line an array is named FILE.npz:NAME)
      how <- if (!is.null(run_state$cli)) {
        "as {.code {path}:NAME}"
      } else {
        "with {.arg member}"
      }
      prd_inform(c("i" = paste0("Reading array {.val {as.character(member)}} of {.file {path}}, its only array of samples x features (not {attr(member, 'others')}); name another ", how, ".")),
                 kind = "dropped_columns")
      member <- as.character(member)
    }
    if (is.na(member)) {
      arrays <- npz_described(path, names(members))
      prd_abort(c("File {.file {path}} holds several arrays: say which with {.arg member}.",
                  "i" = "Arrays: {arrays}."),
                kind = "file", call = call)
    }
  } else if (!member %in% names(members)) {
    arrays <- npz_described(path, names(members))
    prd_abort(c("File {.file {path}} has no array {.val {member}}.",
                "i" = "Arrays: {arrays}."),
              kind = "input", call = call)
  }
  dir <- tempfile("prdcurve-npz")
  dir.create(dir)
  on.exit(unlink(dir, recursive = TRUE), add = TRUE)
  file <- with_file_errors(
    utils::unzip(path, files = members[[member]], exdir = dir,
                 junkpaths = TRUE),
    path, "a NumPy .npz (zip) file", call)
  if (length(file) != 1L || !file.exists(file)) {
    prd_abort("Can't extract array {.val {member}} from {.file {path}}.",
              kind = "file", call = call)
  }
  read_npy(file, columns = columns, call = call,
           shown = paste0(path, ":", member))
}

