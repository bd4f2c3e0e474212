# Files for the readers' tests, shared by test-read*.R.

local_dir <- function() {
  dir <- tempfile("prdread")
  dir.create(dir)
  dir
}

fixture <- function(name) test_path("fixtures", name)
