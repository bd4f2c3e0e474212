# The digits data set: shape, types, values and a checksum of the source.

test_that("digits has 1797 images of 8 x 8 integer pixel counts", {
  expect_s3_class(digits, "data.frame")
  expect_equal(dim(digits), c(1797L, 65L))
  expect_equal(names(digits),
               c(paste0("r", rep(1:8, each = 8), "c", rep(1:8, times = 8)),
                 "digit"))
  px <- as.matrix(digits[, 1:64])
  expect_true(is.integer(px))
  expect_false(anyNA(px))
  expect_equal(range(px), c(0L, 16L))
  # every value 0-16 occurs
  expect_setequal(unique(as.vector(px)), 0:16)
  # checksum of the source file (UCI optdigits test set, as distributed)
  expect_equal(sum(px), 561718)
  expect_equal(unname(colSums(px)[1:4]), c(0, 546, 9353, 21269))
  # the first image is a 0, row-major: row 1 is 0 0 5 13 9 1 0 0
  expect_equal(unname(unlist(digits[1, c("r1c1", "r1c2", "r1c3", "r1c4", "r1c5",
                                         "r1c6", "r1c7", "r1c8")])),
               c(0, 0, 5, 13, 9, 1, 0, 0))
  expect_equal(unname(unlist(digits[1, paste0("r8c", 1:8)])),
               c(0, 0, 6, 13, 10, 0, 0, 0))
  expect_equal(digits$digit[1:10], 0:9)
})

test_that("digits has classes 0-9 of about 180 images each", {
  expect_true(is.integer(digits$digit))
  expect_false(anyNA(digits$digit))
  expect_equal(sort(unique(digits$digit)), 0:9)
  expect_equal(as.vector(table(digits$digit)),
               c(178, 182, 177, 183, 181, 182, 181, 179, 174, 180))
  # no two images are identical
  expect_equal(sum(duplicated(digits[, 1:64])), 0)
})
