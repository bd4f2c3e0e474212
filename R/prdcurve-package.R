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
#' distances are produced block by block with the BLAS (`dgemm`), consumed by
#' per-row reductions in C (k-th neighbour radii, ball counts) in parallel
#' with OpenMP ([prd_threads()]), and never stored as an n x n matrix.
#'
#' Options: `prdcurve.progress` (default `TRUE`) shows a cli progress bar on
#' long computations in interactive sessions.
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
"_PACKAGE"
