#!/bin/sh
# Installs what building, checking and running prdcurve needs on a fresh
# Debian machine: R packages prebuilt from Debian (r-cran-*), pandoc, qpdf
# and checkbashisms (devscripts: R CMD check reads the configure script
# with it) for R CMD check, OpenBLAS (a fast BLAS for the distance
# tiles) and numpy (a test reads a .npy file numpy itself wrote).
# Anything Debian does not provide is installed from CRAN. Idempotent: it
# does nothing when everything is present.
set -eu

DEB="r-cran-cli r-cran-rlang r-cran-tibble r-cran-vctrs r-cran-lifecycle \
r-cran-generics r-cran-tidyselect r-cran-ggplot2 r-cran-knitr \
r-cran-rmarkdown r-cran-testthat r-cran-withr r-cran-mvtnorm r-cran-dplyr \
r-cran-data.table r-cran-optparse r-cran-future r-cran-future.apply \
r-cran-parallelly r-cran-png pandoc qpdf devscripts libopenblas0-pthread \
python3-numpy"
# arrow (optional, for Parquet and Feather) is deliberately not installed:
# it is too heavy to build.
R_PKGS="cli rlang tibble vctrs lifecycle generics tidyselect ggplot2 knitr \
rmarkdown testthat withr mvtnorm dplyr data.table optparse future \
future.apply parallelly png"

missing=""
if command -v dpkg-query >/dev/null 2>&1; then
  for p in $DEB; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
      missing="$missing $p"
  done
fi

if [ -n "$missing" ] && command -v apt-get >/dev/null 2>&1; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && SUDO="sudo"
  echo "Installing Debian packages:$missing"
  $SUDO apt-get update -qq || true
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq \
    --no-install-recommends $missing || true
fi

# CRAN fallback for anything still missing (other systems, older Debian).
export R_PKGS
Rscript -e '
pkgs <- strsplit(Sys.getenv("R_PKGS"), " ")[[1]]
need <- pkgs[!vapply(pkgs, requireNamespace, logical(1), quietly = TRUE)]
if (length(need)) {
  message("Installing from CRAN: ", paste(need, collapse = ", "))
  lib <- Sys.getenv("R_LIBS_USER")
  dir.create(lib, recursive = TRUE, showWarnings = FALSE)
  install.packages(need, lib = lib, repos = "https://cloud.r-project.org")
}
'
# synthpop (optional: the "Synthetic tabular data" vignette's synthesisers
# and the pMSE tests; both skip without it). Its dependencies come from
# Debian where it has them (Rsolnp, which CRAN's source does not build
# here, and the random forests, party and the rest, which would otherwise
# compile from source for minutes), then synthpop and the few Debian lacks
# (mipfp, cmm, broman) from CRAN. A failure here does not stop the script.
SYNTHPOP_DEB="r-cran-rsolnp r-cran-numderiv r-cran-party r-cran-plyr \
r-cran-proto r-cran-polspline r-cran-randomforest r-cran-ranger \
r-cran-classint r-cran-rmutil r-cran-forcats r-cran-stringr"
if command -v apt-get >/dev/null 2>&1; then
  missing=""
  for p in $SYNTHPOP_DEB; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
      missing="$missing $p"
  done
  if [ -n "$missing" ]; then
    SUDO=""
    [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && SUDO="sudo"
    $SUDO apt-get update -qq >/dev/null 2>&1 || true
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq \
      --no-install-recommends $missing >/dev/null 2>&1 ||
      echo "Note: synthpop's dependencies not all installed from Debian; trying CRAN." >&2
  fi
fi
Rscript -e '
if (!requireNamespace("synthpop", quietly = TRUE)) {
  message("Installing synthpop (optional) from CRAN")
  lib <- Sys.getenv("R_LIBS_USER")
  dir.create(lib, recursive = TRUE, showWarnings = FALSE)
  .libPaths(c(lib, .libPaths()))  # a library created now is not on the path yet
  try(install.packages("synthpop", lib = lib, repos = "https://cloud.r-project.org"))
}
if (!requireNamespace("synthpop", quietly = TRUE)) {
  message("synthpop is not installed: its vignette parts and tests are skipped.")
}
' || echo "Note: synthpop not installed (optional)." >&2

for tool in pandoc qpdf checkbashisms; do
  command -v "$tool" >/dev/null 2>&1 ||
    echo "Warning: $tool not found; R CMD check --as-cran needs it." >&2
done
exit 0
