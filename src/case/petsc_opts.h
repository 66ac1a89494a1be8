/* fcsim — which PETSc options a case file may carry (its "petsc" object; doc/case-format.md
 * "petsc").
 *
 * A case is shared (with its meshes, between users and machines), and PETSc's options do more
 * than configure solvers: viewers write wherever their value says ("ksp_view": ":/home/me/x.tex"
 * replaced a user's file), options_file reads another file, start_in_debugger starts a program.
 * The command line stays the user's own, with all of PETSc; a case may only configure solvers:
 *  - the key belongs to a solver family, ksp_, pc_, mat_, snes_, ts_, tao_, possibly after
 *    prefixes (sub_, redundant_, mg_coarse_, mg_levels_[N_], fieldsplit_<name>_, telescope_), or
 *    is one of fcsim's own fc_ options (but not fc_mesh_geo_unsandboxed or
 *    fc_mesh_skip_script_check, which only the command line may give);
 *  - no part of its name names a file, a drawing or a channel (file, filename, dir, dirname,
 *    template, dump, save, load, trajectory, draw, lg, plot, binary, hdf5, vtk, matlab, socket,
 *    saws, glvis, python, debugger);
 *  - a view or monitor option (a name with view or monitor, or converged_reason/_rate) takes
 *    true, "ascii" or "ascii::FORMAT" only: it is written into the run's own folder,
 *    <run>/petsc/<option>.txt (FcCaseViewOption);
 *  - any other string value is not a path or a viewer: no ':', and no leading '/', '~', "./" or
 *    "../".
 * Everything else is refused, one line naming the key. */
#ifndef FC_CASE_PETSC_OPTS_H
#define FC_CASE_PETSC_OPTS_H
#include "../core/fc.h"
#include <cjson/cJSON.h>

/* The option `item->string` (no leading '-') with its JSON value `item`, at `path` of `file`:
 * an input error when a case may not carry it; *view: a view option to be written into the
 * run's folder, *format its viewer format ("" for the default; len bytes). */
PetscErrorCode FcCasePetscOptionCheck(const char *file, const char *path, const cJSON *item, PetscBool *view, char *format, size_t len);
#endif
