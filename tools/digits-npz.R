# Writes inst/extdata/digits-models.npz, the small NumPy archive of the
# examples of prd_npz_arrays(), prd_read() and prd_cli(): features of the
# bundled `digits` data as a Python user would save them,
#   numpy.savez_compressed("digits-models.npz", real = ..., other_half = ...,
#                          digits_0_2 = ..., labels = ...)
# real: 400 images of the digits 0-4 (float32, 400 x 64); other_half: 150
# other images of those digits; digits_0_2: 150 other images of the digits
# 0-2 only (two modes dropped); labels: the real images' digits (int64,
# 1-D). Needs numpy (Debian: python3-numpy). Run from the package root:
#   Rscript tools/digits-npz.R
load("data/digits.rda")
set.seed(2026)
low <- which(digits$digit <= 4)
real <- sample(low, 400)
other <- setdiff(low, real)
half <- sample(other, 150)
rest <- setdiff(other, half)
drop <- sample(rest[digits$digit[rest] <= 2], 150)
dir <- tempfile("digits")
dir.create(dir)
write_rows <- function(rows, name) {
  utils::write.table(as.matrix(digits[rows, 1:64]), file.path(dir, name),
                     sep = ",", row.names = FALSE, col.names = FALSE)
}
write_rows(real, "real.csv")
write_rows(half, "other_half.csv")
write_rows(drop, "digits_0_2.csv")
writeLines(as.character(digits$digit[real]), file.path(dir, "labels.csv"))
out <- normalizePath(file.path("inst", "extdata", "digits-models.npz"),
                     mustWork = FALSE)
py <- sprintf(paste(
  "import numpy as np, os",
  "d = %s",
  "f = lambda n: np.loadtxt(os.path.join(d, n + '.csv'), delimiter=',', ndmin=2).astype('float32')",
  "np.savez_compressed(%s, real=f('real'), other_half=f('other_half'),",
  "    digits_0_2=f('digits_0_2'),",
  "    labels=np.loadtxt(os.path.join(d, 'labels.csv')).astype('int64'))",
  sep = "\n"), shQuote(dir), shQuote(out))
python <- if (file.exists("/usr/bin/python3")) "/usr/bin/python3" else "python3"
status <- system2(python, c("-c", shQuote(py)))
stopifnot(status == 0)
unlink(dir, recursive = TRUE)
cat("wrote", out, file.size(out), "bytes\n")
