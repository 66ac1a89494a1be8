/* fcsim — the one reader of a run's outputs (doc/output-format.md), for what reads runs back
 * (`study compare`, `study refine`): the tables probes.csv and stats.csv, and the mesh sizes of the
 * deformable bodies from run.h5 (else from the first VTK file). The writers are output.h's. */
#ifndef FC_IO_RESULTS_H
#define FC_IO_RESULTS_H

#include "../core/fc.h"

/* One table of a run: the header's names (step, time, then the table's columns) and the rows. */
typedef struct {
  PetscInt   nrows, ncols;
  char     **head;
  PetscReal *v; /* nrows × ncols, row-major; an empty field is NaN */
} FcResultsTable;

/* <dir>/<name>.csv (name "probes" or "stats"): the header (RFC 4180 quotes, as the writer quotes a
 * column name holding a comma or a quote), then the rows; empty lines are skipped. A file that is
 * missing or has no header is *found = PETSC_FALSE, or an error when required ("Cannot read FILE"). */
PetscErrorCode FcResultsReadTable(const char *dir, const char *name, PetscBool required, FcResultsTable *t, PetscBool *found);
PetscErrorCode FcResultsTableDestroy(FcResultsTable *t);
/* Index of a column by its name, -1 if there is none (a lookup: no error to return). */
PetscInt FcResultsTableColumn(const FcResultsTable *t, const char *name);

/* Split one CSV line in place into fields (RFC 4180 double quotes, as probes.csv writes column
 * names that hold a comma or a quote). Returns the number of fields, max + 1 when there are
 * more than max. */
PetscInt FcCSVSplit(char *line, char **field, PetscInt max);

/* Nodes and elements of the named deformable bodies of the run in dir, summed: run.h5
 * /bodies/<b>/mesh/{X,cells} (first dimension; only a regular run.h5 that names nothing outside
 * itself, h5check.h), else the header of vtk/<b>_000000.vtk (POINTS N, CELLS E). -1: unknown (a
 * run without HDF5 and VTK output). It cannot fail (what it cannot read is unknown), hence no
 * PetscErrorCode. */
void FcResultsMeshCounts(const char *dir, PetscInt nb, char *const *names, long long *nodes, long long *elems);

#endif
