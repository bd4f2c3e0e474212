#!/bin/sh
# `make sanitize`: builds prdcurve with AddressSanitizer and
# UndefinedBehaviorSanitizer (gcc) into a private library under a temporary
# directory, runs the test suite (tests/testthat) with the sanitizer
# runtimes preloaded into R (PRDCURVE_SANITIZE=1: the tests of R-level
# work skip, tests/testthat/helper-sanitize.R; R CMD check runs them),
# prints each process's testthat summary and slowest files, and fails (exit
# status 1) on any sanitizer report, on a crash of R, or on a failing test.
#
# R itself is not instrumented: only the package's C code is. R leaks by
# design (memory it keeps until exit), so leak detection is off. UBSan does
# not recover: its first report ends R (-fno-sanitize-recover=undefined).
#
# Needs gcc with its ASan and UBSan runtimes (Debian: libgcc-<version>-dev,
# which pulls libasan and libubsan); installs them with apt-get if missing.
# Environment: R, RSCRIPT (commands), SANITIZE_KEEP=1 keeps the temporary
# directory (logs, library) and prints its path, SANITIZE_TIMEOUT (seconds,
# default 1800) bounds the test run, SANITIZE_SHARDS (default 2) is the
# number of test processes side by side.
set -eu

cd "$(dirname "$0")/.."
ROOT=$(pwd)
R=${R:-R}
RSCRIPT=${RSCRIPT:-Rscript}
START=$(date +%s)

WORK=$(mktemp -d "${TMPDIR:-/tmp}/prdcurve-sanitize.XXXXXX")
if [ "${SANITIZE_KEEP:-0}" = 1 ]; then
  echo "sanitize: keeping $WORK"
else
  trap 'rm -rf "$WORK"' EXIT
fi
LIB="$WORK/lib"
mkdir -p "$LIB"

# ---- 1. the sanitizer runtimes ---------------------------------------------
apt_install() {
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "sanitize: cannot install $* (no apt-get)." >&2
    exit 1
  fi
  SUDO=""
  [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && SUDO="sudo"
  echo "sanitize: installing Debian packages: $*"
  $SUDO apt-get update -qq || true
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq \
    --no-install-recommends "$@"
}

runtime() {
  # absolute path of a gcc runtime library, or nothing
  f=$(gcc -print-file-name="$1" 2>/dev/null || true)
  case "$f" in
    /*) [ -e "$f" ] && echo "$f" ;;
  esac
}

command -v gcc >/dev/null 2>&1 || apt_install gcc
ASAN=$(runtime libasan.so)
UBSAN=$(runtime libubsan.so)
if [ -z "$ASAN" ] || [ -z "$UBSAN" ]; then
  apt_install "libgcc-$(gcc -dumpversion | cut -d. -f1)-dev"
  ASAN=$(runtime libasan.so)
  UBSAN=$(runtime libubsan.so)
fi
if [ -z "$ASAN" ] || [ -z "$UBSAN" ]; then
  echo "sanitize: gcc's libasan.so or libubsan.so not found." >&2
  exit 1
fi

# ---- 2. an instrumented build in a private library ---------------------------
SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
cat > "$WORK/Makevars" <<EOF
CFLAGS += $SAN
LDFLAGS += -fsanitize=address,undefined
EOF

# build a source tarball first: the compile happens in a fresh copy, never
# reusing object files of an ordinary build lying in src/
echo "sanitize: building with $SAN"
if ! (cd "$WORK" && "$R" CMD build --no-build-vignettes --no-manual \
        --no-resave-data "$ROOT" > "$WORK/build.log" 2>&1); then
  cat "$WORK/build.log"
  echo "sanitize: R CMD build failed." >&2
  exit 1
fi
TARBALL=$(ls "$WORK"/prdcurve_*.tar.gz)
# no test-load: loading needs the preloaded runtimes (step 3 loads it)
if ! R_MAKEVARS_USER="$WORK/Makevars" "$R" CMD INSTALL --no-multiarch --no-test-load \
     --library="$LIB" "$TARBALL" > "$WORK/install.log" 2>&1; then
  cat "$WORK/install.log"
  echo "sanitize: R CMD INSTALL failed." >&2
  exit 1
fi
SO="$LIB/prdcurve/libs/prdcurve.so"
if ! nm -D "$SO" | grep -q "__asan_report" ||
   ! nm -D "$SO" | grep -q "__ubsan_handle"; then
  echo "sanitize: $SO is not instrumented (no ASan/UBSan symbols)." >&2
  exit 1
fi

# ---- 3. the test suite with the runtimes preloaded ---------------------------
# In SANITIZE_SHARDS processes side by side (default 2: the instrumented
# run is the longer half of CI, and `make check` beside it is mostly one
# core): the test files dealt by size, largest first, each to the shard
# with the fewest bytes so far.
SHARDS=${SANITIZE_SHARDS:-2}
echo "sanitize: running tests/testthat in $SHARDS processes with $ASAN $UBSAN preloaded"
cat > "$WORK/run-tests.R" <<'EOF'
lib <- Sys.getenv("SANITIZE_LIB")
shard <- as.integer(Sys.getenv("SANITIZE_SHARD"))
shards <- as.integer(Sys.getenv("SANITIZE_SHARDS"))
library(testthat)
library(prdcurve, lib.loc = lib)
stopifnot(normalizePath(find.package("prdcurve")) ==
            normalizePath(file.path(lib, "prdcurve")))
# as tests/testthat.R: at most two threads
prd_threads(min(2L, prd_threads()))
files <- list.files(".", pattern = "^test-.*[.]R$")
files <- files[order(-file.size(files), files)]
load <- numeric(shards)
mine <- character()
for (f in files) {
  s <- which.min(load)
  load[s] <- load[s] + file.size(f)
  if (s == shard) mine <- c(mine, f)
}
names <- sub("^test-(.*)[.]R$", "\\1", mine)
res <- test_dir(".", package = "prdcurve", load_package = "installed",
                filter = paste0("^(", paste(gsub(".", "[.]", names, fixed = TRUE),
                                            collapse = "|"), ")$"),
                reporter = "check", stop_on_failure = FALSE)
df <- as.data.frame(res)
cat(sprintf(paste0("\ntestthat summary, shard %d of %d: %d files, %d tests, %d expectations; ",
                   "%d failed, %d errors, %d skipped, %d warnings\n"),
            shard, shards, length(unique(df$file)), nrow(df), sum(df$nb), sum(df$failed),
            sum(df$error), sum(df$skipped > 0), sum(df$warning)))
# where the time goes (the instrumented C code runs several times slower)
secs <- sort(tapply(df$real, df$file, sum), decreasing = TRUE)
cat(sprintf("slowest files (s): %s; all %.0f s\n",
            paste(sprintf("%s %.0f", names(secs)[1:min(8, length(secs))],
                          secs[1:min(8, length(secs))]), collapse = ", "),
            sum(secs)))
quit(status = if (sum(df$failed) > 0 || any(df$error)) 3 else 0)
EOF
# each status goes through a file: a pipe into tee would hide it in sh
i=1
while [ "$i" -le "$SHARDS" ]; do
  (
    cd "$ROOT/tests/testthat"
    st=0
    LD_PRELOAD="$ASAN $UBSAN" \
      ASAN_OPTIONS="detect_leaks=0:abort_on_error=1" \
      UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
      SANITIZE_LIB="$LIB" SANITIZE_SHARD="$i" SANITIZE_SHARDS="$SHARDS" \
      PRDCURVE_SANITIZE=1 R_LIBS="$LIB${R_LIBS:+:$R_LIBS}" \
      timeout "${SANITIZE_TIMEOUT:-1800}" \
      "$RSCRIPT" "$WORK/run-tests.R" > "$WORK/tests-$i.log" 2>&1 || st=$?
    echo "$st" > "$WORK/status-$i"
  ) &
  i=$((i + 1))
done
wait

# ---- 4. verdict -----------------------------------------------------------------
ELAPSED=$(( $(date +%s) - START ))
STATUS=0
REPORTS=0
i=1
while [ "$i" -le "$SHARDS" ]; do
  echo "sanitize: shard $i of $SHARDS:"
  cat "$WORK/tests-$i.log"
  st=$(cat "$WORK/status-$i" 2>/dev/null || echo 1)
  # a crash or a timeout outranks failed tests (3)
  if [ "$st" -ne 0 ] && [ "$STATUS" -ne 124 ]; then
    if [ "$STATUS" -eq 0 ] || [ "$STATUS" -eq 3 ]; then STATUS=$st; fi
  fi
  r=$(grep -c -E "runtime error:|AddressSanitizer|LeakSanitizer" \
        "$WORK/tests-$i.log" || true)
  REPORTS=$((REPORTS + r))
  i=$((i + 1))
done
echo "sanitize: ${ELAPSED}s; R exit status $STATUS; $REPORTS sanitizer report line(s)."
if [ "$REPORTS" -gt 0 ]; then
  echo "sanitize: FAILED: sanitizer reports:" >&2
  grep -n -E "runtime error:|AddressSanitizer|LeakSanitizer" \
    "$WORK"/tests-*.log | head -20 >&2
  exit 1
fi
if [ "$STATUS" -eq 3 ]; then
  echo "sanitize: FAILED: no sanitizer report, but some tests failed." >&2
  exit 1
fi
if [ "$STATUS" -eq 124 ]; then
  echo "sanitize: FAILED: the tests did not finish in ${SANITIZE_TIMEOUT:-1800}s." >&2
  exit 1
fi
if [ "$STATUS" -ne 0 ]; then
  echo "sanitize: FAILED: R exited with status $STATUS (a crash?)." >&2
  exit 1
fi
echo "sanitize: OK, no sanitizer report."
