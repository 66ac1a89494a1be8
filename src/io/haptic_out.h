/* fcsim — the haptic loop's output (src/run/haptic.c, doc/haptic.md, doc/output-format.md):
 * haptic.csv (one row per tick, haptic_out.c) and the group /haptic of run.h5 (one dataset per
 * column, the per-tick wall times, and the run's counts as attributes; h5out.c), both written by
 * FcOutputWriteHaptic (output.h). Plain data only. */
#ifndef FC_HAPTIC_OUT_H
#define FC_HAPTIC_OUT_H

#include "../core/fc.h"

typedef struct {
  PetscInt           ncols;
  const char *const *cols; /* column names (CSV header, HDF5 dataset names) */
  PetscInt           nrows;
  const PetscReal   *values;    /* nrows × ncols, row-major */
  const PetscReal   *wall_time; /* nrows: wall time of each tick, s (run.h5 only: it is not reproducible) */
  PetscInt           nattrs;
  const char *const *attr_names; /* scalar attributes of /haptic */
  const PetscReal   *attr_values;
  const char        *solver; /* attribute "solver": the contact solver's type */
} FcHapticOutput;

#endif
