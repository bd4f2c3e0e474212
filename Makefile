# The two commands of the README: `make demo` and `make check`.
# Both install what they need first (tools/install-deps.sh).

R       ?= R
RSCRIPT ?= Rscript
PKG     := prdcurve
VERSION := $(shell sed -n 's/^Version: *//p' DESCRIPTION)
TARBALL := $(PKG)_$(VERSION).tar.gz
CHECKDIR := check

.PHONY: all deps install demo layout build check sanitize document bench cli-bench clean

all: check

# (PRDCURVE_DEPS_DONE=1: installed already, as .ci/run does before it
# runs check and sanitize side by side)
deps:
	@[ -n "$$PRDCURVE_DEPS_DONE" ] || sh tools/install-deps.sh

install: deps
	$(R) CMD INSTALL --preclean --no-multiarch .
	rm -f src/*.o src/*.so

# The main job: the class-subset experiment on the bundled digits data.
demo: install
	$(RSCRIPT) inst/scripts/demo-digits.R demo

# Regenerate NAMESPACE and man/ from the roxygen comments, and README.md.
document: install
	$(RSCRIPT) -e 'roxygen2::roxygenise(load_code = "installed")'
	$(R) CMD INSTALL --no-multiarch . && rm -f src/*.o src/*.so
	$(RSCRIPT) -e 'rmarkdown::render("README.Rmd", output_format = "github_document", quiet = TRUE)'
	rm -f README.html

# The tests of the sources' layout (tests/testthat/test-prdcurve-package.R:
# each R file has its test file, the map's recipes name tests that exist),
# which R CMD check skips: it tests the installed package, without R/.
layout:
	$(RSCRIPT) -e 'testthat::test_file("tests/testthat/test-prdcurve-package.R", stop_on_failure = TRUE, reporter = "summary")'

build: deps
	rm -rf $(CHECKDIR) && mkdir -p $(CHECKDIR)
	cd $(CHECKDIR) && $(R) CMD build ..

# R CMD check --as-cran offline; fails on any ERROR or WARNING and on any
# NOTE other than CRAN's "New submission".
# Offline settings: no query of CRAN's servers; no time server for the
# file-timestamp check (timestamps are still compared with the local clock);
# the PDF manual is skipped (it needs a LaTeX installation; the Rd files and
# HTML help are checked). Suggested packages are not forced, and --as-cran's
# orphaned-package check, which then wants CRAN's package database (not
# reachable offline), reads an empty local one (R_CRAN_WEB). The tests under
# two future workers, skipped on CRAN, run (PRDCURVE_TEST_WORKERS).
# The vignettes run once, in R CMD build above (which fails on any error in
# them, and whose outputs the check then checks): the check does not run
# their code again (--no-vignettes), which took 63-84 s of the check's 15
# minutes.
check: build layout
	mkdir -p $(CHECKDIR)/cran-web/web/packages
	$(RSCRIPT) -e 'saveRDS(data.frame(Package = character(), Maintainer = character()), "$(CHECKDIR)/cran-web/web/packages/packages.rds")'
	cd $(CHECKDIR) && PRDCURVE_TEST_WORKERS=true \
	  _R_CHECK_CRAN_INCOMING_REMOTE_=false \
	  _R_CHECK_SYSTEM_CLOCK_=false _R_CHECK_FORCE_SUGGESTS_=false \
	  R_CRAN_WEB=file://$(CURDIR)/$(CHECKDIR)/cran-web \
	  $(R) CMD check --as-cran --no-manual --no-vignettes $(TARBALL)
	$(RSCRIPT) tools/check-log.R $(CHECKDIR)/$(PKG).Rcheck/00check.log

# The test suite against a build with AddressSanitizer and
# UndefinedBehaviorSanitizer (private library in a temporary directory);
# fails on any sanitizer report (tools/sanitize.sh).
sanitize: deps
	sh tools/sanitize.sh

# bench/engine.R and bench/cli.R each replace (or append) their own section
# of bench/results.md (bench/common.R).
bench: install
	$(RSCRIPT) bench/engine.R
	$(RSCRIPT) bench/cli.R

# The command line end to end against prd_curve() in R (a few minutes).
cli-bench: install
	$(RSCRIPT) bench/cli.R

clean:
	rm -rf $(CHECKDIR) src/*.o src/*.so demo/*.csv demo/*.png
