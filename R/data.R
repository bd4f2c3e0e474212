#' Handwritten digits, 8 x 8 pixel counts
#'
#' Real images of handwritten digits: the test set of the "Optical
#' Recognition of Handwritten Digits" data (NIST preprocessing: 32 x 32
#' bitmaps divided into non-overlapping 4 x 4 blocks, counting the on
#' pixels in each block). Small, real, 64-dimensional, with integer
#' features (so distance ties really occur), and classes that give
#' experiments with a known answer (see [prd_class_subset()]).
#'
#' @format A data frame with 1,797 rows (about 180 per digit) and 65
#'   integer columns: the 64 pixel counts (0-16) of the 8 x 8 image,
#'   row-major, named `r1c1`, `r1c2`, ..., `r8c8` (`r2c5` is row 2, column
#'   5), and `digit`, the digit class 0-9.
#' @source E. Alpaydin and C. Kaynak (1998). Optical Recognition of
#'   Handwritten Digits. UCI Machine Learning Repository.
#'   \doi{10.24432/C50P49}. Licensed under CC BY 4.0
#'   (<https://creativecommons.org/licenses/by/4.0/>); shipped unchanged
#'   apart from the column names.
#' @references E. Alpaydin and C. Kaynak (1998). Cascading classifiers.
#'   Kybernetika 34(4), 369-374.
#' @examples
#' pixels <- as.matrix(digits[, 1:64])
#' image(matrix(pixels[1, ], 8, byrow = TRUE)[, 8:1], col = gray.colors(17))
#' table(digits$digit)
"digits"
