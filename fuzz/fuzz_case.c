/* fcsim fuzzing — the case parser: FcCaseLoad (src/case/: JSON reading, duplicate keys, --set
 * overrides, schema validation, defaults, the typed FcCase) as `fcsim run|info CASE.json` calls
 * it. doc/fuzzing.md.
 *
 * Input: the case file's bytes up to the first NUL; after it, NUL-separated --set strings
 * (PATH=VALUE, at most 16). fcsim itself refuses a NUL byte in a case file (a JSON syntax error),
 * so no case is lost by giving the NUL this meaning; the seeds without a NUL are plain cases.
 *
 * The case is written to TMP/cases/fuzz.json, next to TMP/meshes/, which holds one symbolic
 * link per file of the tree's meshes/ directory, so that the shipped cases' "../meshes/NAME.geo"
 * resolve (an unreadable mesh file stops the validation at its body). FcCaseLoad reads no mesh
 * except to estimate the size of a refined one (MeshSizeCheck_Private: a .geo with refine > 0 is
 * meshed at refine 0 and its tetrahedra counted), so every link leads to the same small mesh,
 * fuzz/tiny.geo (24 tetrahedra): meshing the real ones would cost a second per input. With
 * FCSIM_FUZZ_REAL_MESHES=1 the links lead to the real files instead.
 *
 * On a case that loads, the typed case is exercised: the time functions (ramps, tables,
 * prescribed displacements, motions, gravity) are evaluated at a few times, and the resolved
 * JSON (every key, defaults filled) is loaded again — it must be a valid case itself. */
#include "fuzz_common.h"
#include "../src/case/case.h"
#include <dirent.h>
#include <math.h>

#ifndef FCSIM_FUZZ_MESHES
#define FCSIM_FUZZ_MESHES "meshes"
#endif
#ifndef FCSIM_FUZZ_TINY_MESH
#define FCSIM_FUZZ_TINY_MESH "fuzz/tiny.geo"
#endif

#define FZ_MAX_SETS 16

static char case_path[PETSC_MAX_PATH_LEN + 64], resolved_path[PETSC_MAX_PATH_LEN + 64];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  char           p[PETSC_MAX_PATH_LEN + 64], real[PETSC_MAX_PATH_LEN], tiny[PETSC_MAX_PATH_LEN], target[2 * PETSC_MAX_PATH_LEN + 2];
  const char    *meshes = getenv("FCSIM_FUZZ_MESHES"), *mesh = getenv("FCSIM_FUZZ_TINY_MESH");
  const int      use_real = getenv("FCSIM_FUZZ_REAL_MESHES") && strcmp(getenv("FCSIM_FUZZ_REAL_MESHES"), "0");
  DIR           *d;
  struct dirent *e;

  (void)argc;
  (void)argv;
  FzInitialize("fuzz_case");
  if (!meshes || !meshes[0]) meshes = FCSIM_FUZZ_MESHES;
  if (!mesh || !mesh[0]) mesh = FCSIM_FUZZ_TINY_MESH;
  if (!realpath(meshes, real)) FzFatal("meshes directory %s: %s (set FCSIM_FUZZ_MESHES)", meshes, strerror(errno));
  if (!realpath(mesh, tiny)) FzFatal("small mesh %s: %s (set FCSIM_FUZZ_TINY_MESH)", mesh, strerror(errno));
  snprintf(p, sizeof p, "%s/cases", fz_dir);
  if (mkdir(p, 0700)) FzFatal("cannot create %s: %s", p, strerror(errno));
  snprintf(p, sizeof p, "%s/meshes", fz_dir);
  if (mkdir(p, 0700)) FzFatal("cannot create %s: %s", p, strerror(errno));
  if (!(d = opendir(real))) FzFatal("cannot list %s: %s", real, strerror(errno));
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    snprintf(p, sizeof p, "%s/meshes/%s", fz_dir, e->d_name);
    snprintf(target, sizeof target, "%s/%s", real, e->d_name);
    if (symlink(use_real ? target : tiny, p)) FzFatal("cannot link %s: %s", p, strerror(errno));
  }
  closedir(d);
  snprintf(case_path, sizeof case_path, "%s/cases/fuzz.json", fz_dir);
  snprintf(resolved_path, sizeof resolved_path, "%s/cases/resolved.json", fz_dir);
  return 0;
}

/* Evaluate every time function of a loaded case at a few times (interpolation, ramps). */
static void Exercise_Private(const FcCase *c)
{
  const PetscReal    ts[] = {-1.0, 0.0, 0.5 * c->dt, c->dt, 0.5 * c->t_end, c->t_end, 2 * c->t_end + 1};
  volatile PetscReal sink = 0;
  PetscReal          g[3], u[3];

  for (size_t k = 0; k < sizeof ts / sizeof ts[0]; k++) {
    const PetscReal t = ts[k];
    FcDriverEval(&c->gravity, t, g);
    sink += g[0] + g[1] + g[2];
    for (PetscInt b = 0; b < c->nbodies; b++) {
      const FcCaseBody *body = &c->bodies[b];
      for (PetscInt j = 0; j < body->nboundary; j++)
        for (PetscInt comp = 0; comp < 3; comp++)
          if (body->boundary[j].comp[comp]) sink += FcDriverComponent(&body->boundary[j].u, comp, t);
      for (PetscInt j = 0; j < body->nloads; j++) sink += FcRampEval(&body->loads[j].ramp, t);
      if (body->rigid) {
        FcDriverEval(&body->motion.translation, t, u);
        sink += u[0] + u[1] + u[2] + FcDriverComponent(&body->motion.angle, 0, t);
        if (body->motion.type == FC_MOTION_DYNAMIC) sink += FcRampEval(&body->motion.force_ramp, t);
      }
    }
  }
  (void)sink;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  const uint8_t *nul  = memchr(data, 0, size);
  const size_t   jlen = nul ? (size_t)(nul - data) : size;
  const char    *sets[FZ_MAX_SETS];
  char          *tail  = NULL;
  PetscInt       nsets = 0;
  FcCase         c;
  PetscErrorCode ierr;

  FzWriteFile(case_path, data, jlen);
  if (nul) { /* the --set strings: a NUL-terminated copy of what follows the first NUL */
    const size_t tlen = size - jlen - 1;
    if (!(tail = malloc(tlen + 1))) FzFatal("out of memory");
    memcpy(tail, nul + 1, tlen);
    tail[tlen] = 0;
    for (char *s = tail; nsets < FZ_MAX_SETS && s <= tail + tlen; s += strlen(s) + 1) sets[nsets++] = s;
  }
  memset(&c, 0, sizeof c);
  ierr = FcCaseLoad(case_path, nsets, sets, &c);
  FzCheckError(ierr, "FcCaseLoad");
  if (!ierr) {
    FcCase again;

    if (c.nbodies < 1 || !c.bodies || !c.resolved_json)
      FzFatal("FcCaseLoad succeeded with %d bodies, resolved JSON %p", (int)c.nbodies, (void *)c.resolved_json);
    if (!(c.dt > 0) || !(c.t_end > 0) || c.steps < 1)
      FzFatal("FcCaseLoad succeeded with dt %g, t_end %g, steps %d", (double)c.dt, (double)c.t_end, (int)c.steps);
    Exercise_Private(&c);
    /* The resolved case (fcsim info, /case in run.h5) must load again, to the same case. */
    FzWriteFile(resolved_path, (const uint8_t *)c.resolved_json, strlen(c.resolved_json));
    memset(&again, 0, sizeof again);
    ierr = FcCaseLoad(resolved_path, 0, NULL, &again);
    if (ierr) {
      const char *text     = NULL;
      char       *specific = NULL;
      (void)PetscErrorMessage(ierr, &text, &specific);
      FzFatal("the resolved case does not load again: error %d: %s", (int)ierr, specific ? specific : "");
    }
    if (strcmp(again.resolved_json, c.resolved_json)) FzFatal("the resolved case, loaded again, resolves differently");
    if (FcCaseDestroy(&again)) FzFatal("FcCaseDestroy failed");
  }
  if (FcCaseDestroy(&c)) FzFatal("FcCaseDestroy failed");
  free(tail);
  return 0;
}
