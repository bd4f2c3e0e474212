#include "prdcurve.h"
#include <R_ext/Rdynload.h>
#include <R_ext/Visibility.h>

static const R_CallMethodDef call_methods[] = {
  {"ffi_neighbours", (DL_FUNC) &ffi_neighbours, 10},
  {"ffi_envelope", (DL_FUNC) &ffi_envelope, 4},
  {"ffi_threads", (DL_FUNC) &ffi_threads, 1},
  {NULL, NULL, 0}
};

void attribute_visible R_init_prdcurve(DllInfo *dll) {
  R_registerRoutines(dll, NULL, call_methods, NULL, NULL);
  R_useDynamicSymbols(dll, FALSE);
  R_forceSymbols(dll, TRUE);
}
