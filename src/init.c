#include "prdcurve.h"
#include <R_ext/Rdynload.h>
#include <R_ext/Visibility.h>

SEXP ffi_npy_read(SEXP src, SEXP offset, SEXP layout, SEXP columns);

static const R_CallMethodDef call_methods[] = {
  {"ffi_engine", (DL_FUNC) &ffi_engine, 3},
  {"ffi_engine_prep", (DL_FUNC) &ffi_engine_prep, 3},
  {"ffi_estimators", (DL_FUNC) &ffi_estimators, 0},
  {"ffi_engine_plan", (DL_FUNC) &ffi_engine_plan, 4},
  {"ffi_engine_sweeps", (DL_FUNC) &ffi_engine_sweeps, 1},
  {"ffi_sgemm", (DL_FUNC) &ffi_sgemm, 0},
  {"ffi_blas_threads", (DL_FUNC) &ffi_blas_threads, 1},
  {"ffi_blas_adds", (DL_FUNC) &ffi_blas_adds, 0},
  {"ffi_scratch", (DL_FUNC) &ffi_scratch, 1},
  {"ffi_memory_hold", (DL_FUNC) &ffi_memory_hold, 1},
  {"ffi_envelope", (DL_FUNC) &ffi_envelope, 4},
  {"ffi_threads", (DL_FUNC) &ffi_threads, 1},
  {"ffi_npy_read", (DL_FUNC) &ffi_npy_read, 4},
  {"ffi_scan", (DL_FUNC) &ffi_scan, 1},
  {"ffi_row_scores", (DL_FUNC) &ffi_row_scores, 4},
  {"ffi_row_keys", (DL_FUNC) &ffi_row_keys, 1},
  {"ffi_centre", (DL_FUNC) &ffi_centre, 3},
  {"ffi_standardize", (DL_FUNC) &ffi_standardize, 5},
  {"ffi_scale_shift", (DL_FUNC) &ffi_scale_shift, 4},
  {"ffi_row_sq_norms", (DL_FUNC) &ffi_row_sq_norms, 1},
  {"ffi_col_grid", (DL_FUNC) &ffi_col_grid, 2},
  {"ffi_col_means", (DL_FUNC) &ffi_col_means, 2},
  {"ffi_col_ss", (DL_FUNC) &ffi_col_ss, 3},
  {"ffi_bin_index", (DL_FUNC) &ffi_bin_index, 4},
  {"ffi_index_counts", (DL_FUNC) &ffi_index_counts, 5},
  {"ffi_index_scores", (DL_FUNC) &ffi_index_scores, 5},
  {"ffi_bin_edges", (DL_FUNC) &ffi_bin_edges, 6},
  {"ffi_row_dot", (DL_FUNC) &ffi_row_dot, 2},
  {"ffi_tile_kernels", (DL_FUNC) &ffi_tile_kernels, 8},
  {"ffi_index_sums", (DL_FUNC) &ffi_index_sums, 3},
  {"ffi_logistic_affine", (DL_FUNC) &ffi_logistic_affine, 3},
  {"ffi_ratio_loss", (DL_FUNC) &ffi_ratio_loss, 3},
  {"ffi_smooth_parts", (DL_FUNC) &ffi_smooth_parts, 7},
  {"ffi_smooth_shrink", (DL_FUNC) &ffi_smooth_shrink, 4},
  {"ffi_smooth_choice_sums", (DL_FUNC) &ffi_smooth_choice_sums, 10},
  {"ffi_smooth_fold_tables", (DL_FUNC) &ffi_smooth_fold_tables, 10},
  {"ffi_fold_cov", (DL_FUNC) &ffi_fold_cov, 4},
  {"ffi_frob3", (DL_FUNC) &ffi_frob3, 2},
  {"ffi_centre_t", (DL_FUNC) &ffi_centre_t, 3},
  {"ffi_cov_factor", (DL_FUNC) &ffi_cov_factor, 5},
  {"ffi_whiten", (DL_FUNC) &ffi_whiten, 2},
  {"ffi_cell_moments", (DL_FUNC) &ffi_cell_moments, 7},
  {"ffi_centred_product", (DL_FUNC) &ffi_centred_product, 4},
  {"ffi_chol_quad", (DL_FUNC) &ffi_chol_quad, 7},
  {"ffi_cov_norms", (DL_FUNC) &ffi_cov_norms, 8},
  {"ffi_fold_sigma", (DL_FUNC) &ffi_fold_sigma, 4},
  {"ffi_chol_solve", (DL_FUNC) &ffi_chol_solve, 2},
  {"ffi_mixture_dist2", (DL_FUNC) &ffi_mixture_dist2, 3},
  {"ffi_mixture_estep", (DL_FUNC) &ffi_mixture_estep, 5},
  {"ffi_mixture_estep_lowrank", (DL_FUNC) &ffi_mixture_estep_lowrank, 9},
  {NULL, NULL, 0}
};

void attribute_visible R_init_prdcurve(DllInfo *dll) {
  R_registerRoutines(dll, NULL, call_methods, NULL, NULL);
  R_useDynamicSymbols(dll, FALSE);
  R_forceSymbols(dll, TRUE);
  prd_fork_guard();
}

void attribute_visible R_unload_prdcurve(DllInfo *dll) {
  (void) dll;
  prd_scratch_release();
  prd_memory_release();
}
