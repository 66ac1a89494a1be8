/* fcsim — what the files of src/case/ share and nothing else includes (the public interface is
 * case.h). Loading a case is four jobs, one file each:
 *   case_schema.c  the tables of the format (one row per key: type, default, range, ...), and
 *                  the hooks that insert the defaults a row cannot state alone;
 *   case_check.c   the checks of one object a table row cannot say (the tables' check hooks);
 *   case_refs.c    the checks across objects: body entries and mesh.volumes, names, contacts
 *                  and probes referring to bodies; and, on the filled FcCase, what needs
 *                  several of its parts at once (FcCaseCheckFilled);
 *   case_fill.c    the validated tree into the typed FcCase;
 * case_util.c holds the few helpers two of them share; case.c ties them (FcCaseLoad) and frees
 * the case. Messages name the file and the JSON path (FcInputError); their texts are the
 * contract of tests/integration/test_bad_input.py. */
#ifndef FC_CASE_UTIL_H
#define FC_CASE_UTIL_H

#include "case.h"
#include "schema.h"

#define NAME_MAX_CHARS (FC_NAME_LEN - 1)
#define PATH_MAX_CHARS (PETSC_MAX_PATH_LEN - 1)
/* Names become directory and file names, and CSV column prefixes. */
#define NAME_CHARS  "_.-"
#define PROBE_CHARS "_"

/* Members of a validated tree: every key read exists (required or defaulted). */
static inline cJSON *Get_Private(const cJSON *obj, const char *key) { return cJSON_GetObjectItemCaseSensitive(obj, key); }

static inline double Num_Private(const cJSON *obj, const char *key) { return Get_Private(obj, key)->valuedouble; }

static inline const char *Str_Private(const cJSON *obj, const char *key) { return Get_Private(obj, key)->valuestring; }

static inline PetscBool Bool_Private(const cJSON *obj, const char *key) { return cJSON_IsTrue(Get_Private(obj, key)) ? PETSC_TRUE : PETSC_FALSE; }

static inline PetscBool IsRigid_Private(const cJSON *body) { return strcmp(Str_Private(body, "type"), "rigid") ? PETSC_FALSE : PETSC_TRUE; }

/* The entry of the file's bodies[] each body comes from (mesh.volumes expands one entry into
 * several bodies), filled by FcCaseCheckBodies, read by FcCaseFill. */
typedef struct {
  PetscInt   n;
  PetscInt  *entry;
  PetscBool *expanded;
} FcCaseBodyEntries;

/* case_schema.c: the root of the format, and the material models' keys (rebuilt from the
 * material registry before every load). */
extern const FcSchemaObject FcCaseRootObject;
PetscErrorCode              FcCaseMaterialSchema(void);

/* case_check.c: hooks of single objects (FcSchemaCheck) */
PetscErrorCode FcCaseCheckTime(FcSchemaCtx *, cJSON *, const char *);
PetscErrorCode FcCaseCheckNoControl(FcSchemaCtx *, cJSON *, const char *);
PetscErrorCode FcCaseCheckMeshFile(FcSchemaCtx *, cJSON *, const char *);
PetscErrorCode FcCaseCheckMeshSize(FcSchemaCtx *, cJSON *, const char *);
PetscErrorCode FcCaseCheckShapeSize(FcSchemaCtx *, cJSON *, const char *);
PetscErrorCode FcCaseCheckRampTable(FcSchemaCtx *, cJSON *, const char *);
PetscErrorCode FcCaseCheckDisplacementTable(FcSchemaCtx *, cJSON *, const char *);
PetscErrorCode FcCaseCheckDisplacementObject(FcSchemaCtx *, cJSON *, const char *);
PetscErrorCode FcCaseCheckDisplacement(FcSchemaCtx *, cJSON *, const char *);
PetscErrorCode FcCaseCheckNonZeroVec(FcSchemaCtx *, cJSON *, const char *);
PetscErrorCode FcCaseCheckSolverName(FcSchemaCtx *, cJSON *, const char *);
PetscErrorCode FcCaseCheckMaterial(FcSchemaCtx *, cJSON *, const char *);
PetscErrorCode FcCaseCheckPetscOption(FcSchemaCtx *, cJSON *, const char *);
PetscErrorCode FcCaseCheckQuaternion(FcSchemaCtx *, cJSON *, const char *);
PetscErrorCode FcCaseCheckWindow(FcSchemaCtx *, cJSON *, const char *);
PetscErrorCode FcCaseCheckTrajectory(FcSchemaCtx *, cJSON *, const char *);
PetscErrorCode FcCaseCheckLoad(FcSchemaCtx *, cJSON *, const char *);

/* case_refs.c: hooks across objects, and the body pairs of one element of contacts[] (`pi` its
 * path; *pairs: 2 indices per pair, freed by the caller) */
PetscErrorCode FcCaseCheckBodies(FcSchemaCtx *, cJSON *, const char *);
PetscErrorCode FcCaseCheckProbes(FcSchemaCtx *, cJSON *, const char *);
PetscErrorCode FcCaseCheckRoot(FcSchemaCtx *, cJSON *, const char *);
PetscErrorCode FcCaseContactPairs(FcSchemaCtx *ctx, cJSON *bodies, cJSON *ct, const char *pi, PetscInt *np, PetscInt **pairs);
PetscErrorCode FcCaseContactGroups(FcSchemaCtx *ctx, cJSON *bodies, cJSON *ct, const char *pi, PetscInt *na, PetscInt **ga, PetscInt *nb, PetscInt **gb);
/* The filled case: a body against the time integration or the compliance (global_corotational;
 * a dynamic rigid body's joint, shape and initial velocities). The model takes the case as valid. */
PetscErrorCode FcCaseCheckFilled(const FcCase *c);

/* case_fill.c */
PetscErrorCode FcCaseFill(FcSchemaCtx *ctx, cJSON *root, FcCase *c);

/* case_util.c. Mesh and device files are relative to the case file, so a case runs from any
 * directory. */
PetscErrorCode FcCaseMeshFileResolve(FcSchemaCtx *ctx, const char *file, const char *path, char *out, size_t len);
/* max|v_k| * sqrt(sum (v_k/max)^2): no overflow for any finite components. */
PetscReal FcCaseNorm3(const PetscReal v[3]);
/* The parameter values of a validated material object, as the material model reads them. */
PetscErrorCode FcCaseMaterialParams(const cJSON *mat, FcMaterialParams *p);

#endif
