#' prdcurve: precision-recall curves and metrics for generative models
#'
#' Compares a set of real feature vectors (`real`, n x d, from P) with a set
#' of generated ones (`generated`, m x d, from Q). [prd_curve()] estimates
#' the whole precision-recall curve \eqn{\lambda \mapsto (\alpha_\lambda,
#' \beta_\lambda)} of Sykes, Simon, Rabin and Fadili (2024) with four
#' classifier families; [summary.prd_curve()] gives its scalar summaries and
#' [prd_iou()] compares two curves. [prd_truth_gaussian()] and
#' [prd_discrete()] give exact curves to compare against.
#'
#' All estimators share one tiled distance engine: squared Euclidean
#' distances are produced block by block with the BLAS (`sgemm` or `dgemm`,
#' option `prdcurve.precision` below), consumed by per-row reductions in C
#' (k-th neighbour radii, ball counts) in parallel with OpenMP
#' ([prd_threads()]), and never stored as an n x n matrix.
#'
#' @section Conventions: Every function of the package follows one grammar.
#'
#' * **Samples.** The sets are `real` (n x d, from P) and `generated` (m x
#'   d, from Q), always named so, never positional "x, y" whose order can be
#'   swapped silently. Rows are samples. Matrices and data frames are
#'   accepted; for data frames `features` (tidyselect, default every
#'   numeric and categorical column) picks the feature columns and `id`
#'   names an id column that is carried to per-sample results, never used
#'   as a feature. Categories enter as indicators; a missing value (NA) as
#'   a category of its own, or in a numeric column as an indicator column
#'   beside it, the value set to the real set's median (synthpop's
#'   reading; NA in a matrix is an error).
#'   `generated` may hold several models: a named list of sets or a data
#'   frame grouped by a model column; every result then has a `model`
#'   column (`"generated"` for a single set), and the real set's split and
#'   half-samples are shared by all models (paired comparisons).
#' * **Argument order and defaults.** `real`, `generated`, the estimator
#'   selector (`method` for curves, `metrics` for scalar metrics), `k`,
#'   `split`, `closed`, then the family's own arguments, `replicates`,
#'   `features`, `id`, `standardize`. `k` is always a vector of neighbour
#'   counts served by one pass of the engine (results get a `k` column).
#'   `closed = TRUE` (closed balls) everywhere.
#' * **`split`.** One default per family: curves use `split = 0.5`,
#'   because a classifier's error rates must be measured on points it was
#'   not fitted on (Sykes et al. 2024, section 4.2); scalar metrics
#'   ([manifold_metrics()], [entropy_metrics()]) use `split = 0`, the
#'   setting in which they were defined and published, so their numbers
#'   compare with the literature and with peer implementations. Every
#'   function accepts either.
#' * **Names.** Metric names are lower snake_case everywhere: `precision`,
#'   `recall`, `density`, `coverage`, ..., `pce`, `rce`, `re` (the papers'
#'   PCE, RCE, RE); \eqn{\alpha_\infty} is `max_precision`,
#'   \eqn{\beta_0} is `max_recall`.
#' * **Results.** Curves are `prd_curve` tibbles (`model`, `method`, `k`,
#'   `lambda`, `precision`, `recall`) whose per-curve settings survive
#'   binding and subsetting ([prd_curve_info()]). Every scalar-metric
#'   function returns the same long shape: `model`, `metric`, `k`, `value`
#'   (and `lower`, `upper` with replicates). Per-sample results come from
#'   their own functions ([manifold_samples()], [entropy_samples()]): one
#'   row per sample with `model`, `set`, `row` and `id`. [tidy()] and
#'   [glance()] give broom-style views, [prd_compare()] paired differences.
#' * **Conditions.** Every error has class `prdcurve_error` and a specific
#'   one (`prdcurve_error_input`, `prdcurve_error_k_too_large`,
#'   `prdcurve_error_columns`, `prdcurve_error_split`,
#'   `prdcurve_error_curve`, `prdcurve_error_engine`, ...); every warning
#'   `prdcurve_warning` and a specific one (`prdcurve_warning_id_column`,
#'   `prdcurve_warning_transposed`, `prdcurve_warning_scale`,
#'   `prdcurve_warning_collapsed`, `prdcurve_warning_zero_radius`, ...).
#'
#' @section Silent traps: legal input that gives a wrong answer is named
#'   with a classed warning and its fix: a label-like column among
#'   continuous features (`prdcurve_warning_label_column`: few distinct
#'   whole values while other columns are continuous, in sets without
#'   categorical columns, whose whole-valued numbers are taken as counts;
#'   drop it with `features = -label`), columns whose values lie on a grid (whole
#'   numbers, or multiples of one power of two), or are constant, in one
#'   set and are continuous in the other, or lie on a coarser grid in one
#'   set than most of the other set's values (whole numbers against
#'   half-numbers)
#'   (`prdcurve_warning_grid_columns`: rounded real data against a
#'   model's continuous output, or 8-bit storage against floats; the
#'   supports differ, which only the `"marginal"` family and so
#'   `"tightest"` read; when every model then reads 0 the warning also
#'   gives the reading with the atoms ignored, `atoms = "ignore"` of
#'   [prd_curve()], and [prd_compare()] warns that the exact comparison
#'   cannot rank them, `prdcurve_warning_atoms_tie`), categories of a categorical column that occur in
#'   one set only (`prdcurve_warning_category_levels`: atoms the other
#'   set never hits), generated rows that are exact copies of real
#'   rows (`prdcurve_warning_copies`; [manifold_samples()] flags exact and
#'   near copies per sample), rows duplicated at least `k` times
#'   (`prdcurve_warning_duplicates`), sets under 10 rows
#'   (`prdcurve_warning_small_sample`), `k` above a quarter of the smallest
#'   fit set (`prdcurve_warning_k_large`), feature names that differ
#'   between the sets and are matched by position
#'   (`prdcurve_warning_column_names`), sets of unequal size in
#'   [entropy_metrics()] (subsampled by default) and [prd_compare()]
#'   (`prdcurve_warning_unequal_sizes`), `id` values that repeat within a
#'   set (`prdcurve_warning_id_duplicated`: per-sample results could not
#'   be told apart). An ungrouped data frame with a
#'   `model` column of several values is refused (`prdcurve_error_model`).
#'   A call whose neighbour buffers (12 bytes per row and neighbour, twice)
#'   and curves would exceed the memory limit is refused before it
#'   allocates (`prdcurve_error_memory`); a failed parallel worker gives
#'   `prdcurve_error_future` with the way to reset the plan.
#'
#' @section Options: `prdcurve.progress` (default `TRUE`) shows a cli
#'   progress bar on long computations in interactive sessions (the
#'   distance engine's sweeps, the half-sample replicates) and a step
#'   message while the fitted families are fitted on large sets.
#'   `prdcurve.check_inputs` (default `TRUE`) warns about input that is
#'   legal but probably a mistake (an id-like column, fewer rows than
#'   columns, column scales that differ by more than a factor 100 from the
#'   median one, all rows equal, and the traps above); `FALSE` silences
#'   these checks. `prdcurve.memory_limit` (default `4 * 1024^3`, 4 GiB)
#'   is the memory, in bytes, a call may plan to use; `NA` turns the check
#'   off.
#'   `prdcurve.precision` (default `"single"`) is the precision of the
#'   distance engine's matrix products: `"single"` computes them with the
#'   BLAS's single-precision `sgemm` where it is available (R guarantees
#'   only the double-precision routines; the package checks for `sgemm`
#'   when it is installed), about twice as fast as `"double"` (`dgemm`) in
#'   high dimension. Results do not depend on it: every comparison of a
#'   distance with a radius whose outcome the rounding could change is
#'   recomputed exactly in double precision, so curves and metrics are
#'   identical to the last bit either way. The engine uses double precision
#'   anyway when `sgemm` is missing, and for data whose rounding window
#'   would hold too many pairs (a generated set far from the real one
#'   relative to the real set's spread). Any other value is an error
#'   (`prdcurve_error_input`).
#'   `prdcurve.keep_scratch` (default `TRUE`) keeps the engine's largest
#'   work buffers (the reference rows as float and row-major copies, the
#'   distance tile, the neighbour candidates; about 1.5 times the fit
#'   rows in double plus the tile's 64 MiB, at most 1 GiB a buffer; and
#'   the smoothed marginal family's products) from one call to the next,
#'   because touching fresh memory is slow (page faults), and, with the GNU
#'   C library, keeps the memory that is freed while a call runs in the
#'   process until the call ends (the fitted families form and free d x d
#'   matrices several times a fold: at 10,000 rows a set and d = 2,048 the
#'   default curve took 9.3-9.8 s instead of 11.1-11.9 s on a virtual
#'   machine, `bench/results.md`);
#'   `FALSE` frees the buffers at the end of every call and keeps nothing.
#'
#' @section Threads and BLAS: the engine's threads are set by
#'   [prd_threads()]. When R's BLAS is OpenBLAS, the engine computes each
#'   block of distance products with its own threads, setting OpenBLAS to
#'   one thread for the duration of that block (and back to its setting
#'   after it), so that the two thread pools do not compete; any other
#'   BLAS is called from one thread and threads as it decides.
#'
#' @references
#' Sykes, B., Simon, L., Rabin, J. and Fadili, J. (2024). A new perspective
#' on precision and recall for generative models. arXiv:2405.01611.
#'
#' Simon, L., Webster, R. and Rabin, J. (2019). Revisiting precision and
#' recall definition for generative model evaluation. ICML 2019.
#'
#' Sajjadi, M. S. M., Bachem, O., Lucic, M., Bousquet, O. and Gelly, S.
#' (2018). Assessing generative models via precision and recall. NeurIPS.
#' @keywords internal
#' @useDynLib prdcurve, .registration = TRUE
#' @importFrom lifecycle deprecated
"_PACKAGE"
