# Writes .npy files byte by byte, as numpy.save() does (format 1.0 unless
# `version` says otherwise): the magic string, the version, the header
# length, a Python dict literal padded with spaces to a multiple of 64
# bytes and ended by a newline, then the values in C (row-major) or Fortran
# order. Tests must not depend on Python, so fixtures are made here.
#
# x: a matrix (or a vector: a 1-D array); dtype: numpy's descr, e.g. "<f4",
# ">f8", "<i2", "|u1", "|b1"; payload: raw bytes to write instead of x's
# values (for dtypes R can't write, e.g. float16), with `shape` given.
write_npy <- function(x, path, dtype = "<f8", fortran = FALSE, version = 1L,
                      payload = NULL, shape = NULL) {
  if (is.null(shape)) shape <- if (is.null(dim(x))) length(x) else dim(x)
  shape_txt <- if (length(shape) == 1L) sprintf("(%d,)", shape) else
    sprintf("(%s)", paste(shape, collapse = ", "))
  dict <- sprintf("{'descr': '%s', 'fortran_order': %s, 'shape': %s, }",
                  dtype, if (fortran) "True" else "False", shape_txt)
  len_size <- if (version == 1L) 2L else 4L
  pre <- 6L + 2L + len_size
  total <- ceiling((pre + nchar(dict) + 1L) / 64) * 64
  header <- paste0(dict, strrep(" ", total - pre - nchar(dict) - 1L), "\n")
  con <- file(path, "wb")
  on.exit(close(con))
  writeBin(as.raw(c(0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, version, 0)), con)
  writeBin(as.integer(nchar(header)), con, size = len_size, endian = "little")
  writeBin(charToRaw(header), con)
  if (!is.null(payload)) {
    writeBin(payload, con)
    return(invisible(path))
  }
  vals <- if (is.matrix(x) && !fortran) as.vector(t(x)) else as.vector(x)
  endian <- if (startsWith(dtype, ">")) "big" else "little"
  kind <- substr(dtype, 2, 2)
  size <- as.integer(substring(dtype, 3))
  if (kind == "f") {
    writeBin(as.double(vals), con, size = size, endian = endian)
  } else if (kind == "b") {
    writeBin(as.raw(as.logical(vals)), con)
  } else if (size == 1L) {
    writeBin(as.raw(as.integer(vals) %% 256L), con)
  } else if (size == 8L) {
    # two 32-bit halves (values within R's integer range)
    v <- as.integer(vals)
    hi <- ifelse(v < 0L, -1L, 0L)
    halves <- if (endian == "little") rbind(v, hi) else rbind(hi, v)
    writeBin(as.vector(halves), con, size = 4L, endian = endian)
  } else {
    writeBin(as.integer(vals), con, size = size, endian = endian)
  }
  invisible(path)
}

# The doubles a float32 file holds: x rounded to single precision (what
# numpy's x.astype("float32") stores), through R's own 4-byte writer.
as_float32 <- function(x) {
  v <- readBin(writeBin(as.double(x), raw(), size = 4L), "double",
               n = length(x), size = 4L)
  dim(v) <- dim(x)
  v
}

# A zip of .npy files, as numpy.savez() (stored) or savez_compressed()
# (deflated) writes: arrays is a named list of matrices.
write_npz <- function(arrays, path, dtype = "<f8", compressed = FALSE) {
  dir <- tempfile("npz")
  dir.create(dir)
  on.exit(unlink(dir, recursive = TRUE))
  files <- paste0(names(arrays), ".npy")
  for (i in seq_along(arrays)) {
    write_npy(arrays[[i]], file.path(dir, files[i]), dtype = dtype)
  }
  path <- normalizePath(path, mustWork = FALSE)
  old <- setwd(dir)
  on.exit(setwd(old), add = TRUE)
  utils::zip(path, files, flags = if (compressed) "-q9X" else "-q0X")
  invisible(path)
}
