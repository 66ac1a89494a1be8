/* Unit tests of src/case: loading a full case, defaults, --set overrides, ramps, rigid bodies
 * and contact keys, and one input error (one line naming the file and the JSON path) for each kind of malformed input,
 * also when the input holds control characters, U+0000 or bytes that are not UTF-8 (escaped).
 *
 *   ./test_case                                   plain run
 *   ./test_case -malloc_debug -malloc_dump        PETSc reports any leaked PetscMalloc
 *   valgrind --leak-check=full ./test_case        cJSON and everything else */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../src/case/case.h"
#include "../../src/case/schema.h"
#include "testutil.h"

static char tmpdir[64]; /* mkdtemp directory for the case and mesh files */

/* ---------------------------------------------------------------------------------------- */
/* Helpers                                                                                  */
/* ---------------------------------------------------------------------------------------- */

/* tmpdir/name, written with text. */
static void TmpCase(char *path, size_t len, const char *name, const char *text)
{
  snprintf(path, len, "%s/%s", tmpdir, name);
  if (text) FcTestWriteFile(path, text);
}

/* FcCaseLoad with fd 2 redirected to a file, so the message the user would see is checked. */
static PetscErrorCode LoadCaptured(const char *file, int nsets, const char *const *sets, FcCase *c, char *err, size_t len)
{
  FcTestCapture  cap;
  PetscErrorCode ierr;

  FcTestCaptureStart(&cap);
  ierr = FcCaseLoad(file, nsets, sets, c);
  FcTestCaptureStop(&cap, err, len);
  return ierr;
}

static PetscErrorCode Load(const char *file, int nsets, const char *const *sets, FcCase *c)
{
  char           err[4096];
  PetscErrorCode ierr = LoadCaptured(file, nsets, sets, c, err, sizeof err);
  if (ierr) print_error("unexpected error %d loading %s: %s", (int)ierr, file, err);
  return ierr;
}

/* A material parameter of a body (NaN when the body has none of that name). */
static PetscReal MatParam(const FcCaseBody *b, const char *name)
{
  PetscReal x = NAN;

  if (FcMaterialParamsHas(&b->material, name) && FcMaterialParamsGetReal(&b->material, name, &x)) x = NAN;
  return x;
}

/* A value of the resolved JSON by a dotted path of member names ("time.newton.max_it"). */
static const cJSON *Resolved(const cJSON *root, const char *path)
{
  char         buf[256], *tok, *save = NULL;
  const cJSON *cur = root;

  snprintf(buf, sizeof buf, "%s", path);
  for (tok = strtok_r(buf, ".", &save); tok && cur; tok = strtok_r(NULL, ".", &save)) {
    char *br = strchr(tok, '[');
    if (br) {
      *br = 0;
      cur = cJSON_GetObjectItemCaseSensitive(cur, tok);
      cur = cJSON_GetArrayItem(cur, atoi(br + 1));
    } else cur = cJSON_GetObjectItemCaseSensitive(cur, tok);
  }
  return cur;
}

#define BODY_JSON \
  "{\"name\": \"block\", \"mesh\": {\"file\": \"mesh.geo\"}," \
  " \"material\": {\"model\": \"linear\", \"E\": 1e6, \"nu\": 0.3, \"density\": 1000}," \
  " \"boundary\": [{\"group\": \"bottom\", \"fix\": [true, true, true]}]," \
  " \"loads\": [{\"group\": \"top\", \"pressure\": 1e3}]}"

/* The smallest sensible case: every other key takes its default. */
static const char base_case[] = "{\n"
                                "  \"name\": \"base\",\n"
                                "  \"time\": {\"dt\": 0.1, \"t_end\": 1.0},\n"
                                "  \"bodies\": [" BODY_JSON "],\n"
                                "  \"probes\": [{\"name\": \"tip\", \"type\": \"displacement\", \"body\": \"block\", \"point\": [0, 0, 1]}]\n"
                                "}\n";

static const char full_case[] = "{\n"
                                "  \"name\": \"full-case_1.0\",\n"
                                "  \"description\": \"every key\",\n"
                                "  \"time\": {\"integrator\": \"backward_euler\", \"dt\": 0.01, \"steps\": 200,\n"
                                "           \"newton\": {\"max_it\": 40, \"rtol\": 1e-8, \"atol\": 0, \"allow_failure\": true}},\n"
                                "  \"gravity\": [0, 0, -9.81],\n"
                                "  \"bodies\": [\n"
                                "    {\"name\": \"ball\", \"type\": \"deformable\",\n"
                                "     \"mesh\": {\"file\": \"mesh.geo\", \"refine\": 2, \"order\": 2},\n"
                                "     \"material\": {\"model\": \"corotational\", \"E\": 2e11, \"nu\": 0.0, \"density\": 7800},\n"
                                "     \"damping\": {\"alpha\": 0.5, \"beta\": 1e-4},\n"
                                "     \"boundary\": [\n"
                                "       {\"group\": \"base\", \"fix\": [true, false, true]},\n"
                                "       {\"group\": 7, \"displacement\": [0.001, null, -0.002], \"ramp\": \"linear\"},\n"
                                "       {\"group\": \"side\", \"displacement\": {\"table\": [[0, null, 0, 1], [1, null, 0.5, 2], [3, null, 1, 0]]}}\n"
                                "     ],\n"
                                "     \"loads\": [\n"
                                "       {\"group\": \"top\", \"traction\": [1, 2, 3], \"ramp\": {\"type\": \"table\", \"table\": [[0, 0], [1, 2], [2, 1]]}},\n"
                                "       {\"group\": 12, \"pressure\": -5e3, \"ramp\": {\"type\": \"linear\", \"t0\": 0.5, \"t1\": 1.5}},\n"
                                "       {\"group\": \"tip\", \"force\": [0, 0, -10], \"ramp\": {\"type\": \"constant\", \"value\": 0.5}}\n"
                                "     ]},\n"
                                "    {\"name\": \"floor\", \"mesh\": {\"file\": \"mesh.geo\"},\n"
                                "     \"material\": {\"model\": \"linear\", \"E\": 1e7, \"nu\": 0.49, \"density\": 1}}\n"
                                "  ],\n"
                                "  \"probes\": [\n"
                                "    {\"name\": \"tip_u\", \"type\": \"displacement\", \"body\": \"ball\", \"point\": [0.1, 0.2, 0.3]},\n"
                                "    {\"name\": \"base_R\", \"type\": \"reaction\", \"body\": \"ball\", \"group\": 3},\n"
                                "    {\"name\": \"ek\", \"type\": \"kinetic_energy\"},\n"
                                "    {\"name\": \"es_floor\", \"type\": \"strain_energy\", \"body\": \"floor\"}\n"
                                "  ],\n"
                                "  \"output\": {\"dir\": \"out/full\", \"every\": 5, \"hdf5\": false, \"vtk\": true, \"vtk_format\": \"ascii\"},\n"
                                "  \"petsc\": {\"ksp_type\": \"preonly\", \"pc_type\": \"lu\", \"snes_monitor\": true, \"ksp_view\": false,\n"
                                "            \"ksp_max_it\": 100, \"ksp_rtol\": 0.5}\n"
                                "}\n";

/* ---------------------------------------------------------------------------------------- */
/* Valid cases                                                                              */
/* ---------------------------------------------------------------------------------------- */

static void test_full_case(void **state)
{
  char        file[PETSC_MAX_PATH_LEN], mesh[PETSC_MAX_PATH_LEN];
  FcCase      c;
  FcCaseBody *b;

  (void)state;
  TmpCase(file, sizeof file, "full.json", full_case);
  snprintf(mesh, sizeof mesh, "%s/mesh.geo", tmpdir);
  assert_int_equal(Load(file, 0, NULL, &c), 0);

  assert_string_equal(c.file, file);
  assert_string_equal(c.name, "full-case_1.0");
  assert_string_equal(c.description, "every key");
  assert_int_equal(c.integrator, FC_INTEGRATOR_BACKWARD_EULER);
  assert_true(c.dt == 0.01);
  assert_int_equal(c.steps, 200);
  assert_true(PetscAbsReal(c.t_end - 2.0) < 1e-14);
  assert_int_equal(c.newton_max_it, 40);
  assert_true(c.newton_rtol == 1e-8 && c.newton_atol == 0);
  assert_true(c.allow_nonconvergence);
  assert_true(c.gravity.value[0] == 0 && c.gravity.value[1] == 0 && c.gravity.value[2] == -9.81);

  assert_int_equal(c.nbodies, 2);
  b = &c.bodies[0];
  assert_string_equal(b->name, "ball");
  assert_string_equal(b->type, "deformable");
  assert_string_equal(b->mesh_file, mesh);
  assert_int_equal(b->refine, 2);
  assert_int_equal(b->order, 2);
  assert_string_equal(b->material.model, "corotational");
  assert_true(MatParam(b, "E") == 2e11 && MatParam(b, "nu") == 0 && b->material.density == 7800);
  assert_true(b->alpha == 0.5 && b->beta == 1e-4);

  assert_int_equal(b->nboundary, 3);
  assert_string_equal(b->boundary[0].group, "base");
  assert_true(b->boundary[0].comp[0] && !b->boundary[0].comp[1] && b->boundary[0].comp[2]);
  assert_int_equal(b->boundary[0].u.ntab, 0);
  assert_true(FcDriverComponent(&b->boundary[0].u, 0, 1.0) == 0);
  assert_string_equal(b->boundary[1].group, "7");
  assert_true(b->boundary[1].comp[0] && !b->boundary[1].comp[1] && b->boundary[1].comp[2]);
  assert_true(b->boundary[1].u.value[0] == 0.001 && b->boundary[1].u.value[2] == -0.002);
  assert_int_equal(b->boundary[1].u.ramp.type, FC_RAMP_LINEAR);
  assert_true(b->boundary[1].u.ramp.t0 == 0 && b->boundary[1].u.ramp.t1 == c.t_end); /* t1 defaults to t_end */
  assert_string_equal(b->boundary[2].group, "side");
  assert_int_equal(b->boundary[2].u.ntab, 3);
  assert_true(!b->boundary[2].comp[0] && b->boundary[2].comp[1] && b->boundary[2].comp[2]);

  assert_int_equal(b->nloads, 3);
  assert_string_equal(b->loads[0].group, "top");
  assert_int_equal(b->loads[0].type, FC_LOAD_TRACTION);
  assert_true(b->loads[0].vec[0] == 1 && b->loads[0].vec[1] == 2 && b->loads[0].vec[2] == 3);
  assert_int_equal(b->loads[0].ramp.type, FC_RAMP_TABLE);
  assert_int_equal(b->loads[0].ramp.n, 3);
  assert_string_equal(b->loads[1].group, "12");
  assert_int_equal(b->loads[1].type, FC_LOAD_PRESSURE);
  assert_true(b->loads[1].pressure == -5e3);
  assert_int_equal(b->loads[1].ramp.type, FC_RAMP_LINEAR);
  assert_true(b->loads[1].ramp.t0 == 0.5 && b->loads[1].ramp.t1 == 1.5);
  assert_int_equal(b->loads[2].type, FC_LOAD_FORCE);
  assert_true(b->loads[2].vec[2] == -10);
  assert_int_equal(b->loads[2].ramp.type, FC_RAMP_CONSTANT);
  assert_true(b->loads[2].ramp.value == 0.5);

  b = &c.bodies[1];
  assert_string_equal(b->name, "floor");
  assert_true(MatParam(b, "nu") == 0.49);
  assert_int_equal(b->nboundary, 0);
  assert_int_equal(b->nloads, 0);

  assert_int_equal(c.nprobes, 4);
  assert_int_equal(c.probes[0].type, FC_PROBE_DISPLACEMENT);
  assert_string_equal(c.probes[0].name, "tip_u");
  assert_string_equal(c.probes[0].body, "ball");
  assert_true(c.probes[0].point[0] == 0.1 && c.probes[0].point[1] == 0.2 && c.probes[0].point[2] == 0.3);
  assert_int_equal(c.probes[1].type, FC_PROBE_REACTION);
  assert_string_equal(c.probes[1].group, "3");
  assert_int_equal(c.probes[2].type, FC_PROBE_KINETIC_ENERGY);
  assert_string_equal(c.probes[2].body, ""); /* all bodies */
  assert_int_equal(c.probes[3].type, FC_PROBE_STRAIN_ENERGY);
  assert_string_equal(c.probes[3].body, "floor");

  assert_string_equal(c.output_dir, "out/full");
  assert_int_equal(c.output_every, 5);
  assert_false(c.output_hdf5);
  assert_true(c.output_vtk);
  assert_false(c.vtk_binary);

  /* false drops ksp_view; true is a flag; numbers in %.17g. */
  assert_int_equal(c.npetsc, 5);
  assert_string_equal(c.petsc_keys[0], "-ksp_type");
  assert_string_equal(c.petsc_values[0], "preonly");
  assert_string_equal(c.petsc_keys[1], "-pc_type");
  assert_string_equal(c.petsc_keys[2], "-snes_monitor");
  assert_string_equal(c.petsc_values[2], "");
  assert_string_equal(c.petsc_keys[3], "-ksp_max_it");
  assert_string_equal(c.petsc_values[3], "100");
  assert_string_equal(c.petsc_keys[4], "-ksp_rtol");
  assert_string_equal(c.petsc_values[4], "0.5");
  assert_non_null(c.resolved_json);
  assert_int_equal(FcCaseDestroy(&c), 0);
  assert_null(c.bodies);
  assert_null(c.resolved_json);
}

static void test_defaults(void **state)
{
  char   file[PETSC_MAX_PATH_LEN], again[PETSC_MAX_PATH_LEN];
  FcCase c, c2;
  cJSON *r;

  (void)state;
  TmpCase(file, sizeof file, "base.json", base_case);
  assert_int_equal(Load(file, 0, NULL, &c), 0);
  assert_string_equal(c.description, "");
  assert_int_equal(c.integrator, FC_INTEGRATOR_QUASI_STATIC);
  assert_int_equal(c.steps, 10);
  assert_true(c.t_end == 1.0);
  assert_int_equal(c.newton_max_it, 25);
  assert_true(c.newton_rtol == 1e-10 && c.newton_atol == 1e-12);
  assert_false(c.allow_nonconvergence);
  assert_true(c.gravity.value[0] == 0 && c.gravity.value[1] == 0 && c.gravity.value[2] == 0);
  assert_string_equal(c.bodies[0].type, "deformable");
  assert_int_equal(c.bodies[0].refine, 0);
  assert_int_equal(c.bodies[0].order, 1);
  assert_true(c.bodies[0].alpha == 0 && c.bodies[0].beta == 0);
  assert_int_equal(c.bodies[0].loads[0].ramp.type, FC_RAMP_CONSTANT);
  assert_true(c.bodies[0].loads[0].ramp.value == 1);
  assert_string_equal(c.output_dir, "results");
  assert_int_equal(c.output_every, 1);
  assert_true(c.output_hdf5 && c.output_vtk && c.vtk_binary);
  assert_int_equal(c.npetsc, 0);
  /* contact keys: none of them in the file */
  assert_false(c.bodies[0].rigid);
  assert_int_equal(c.ncontacts, 0);
  assert_string_equal(c.contact_solver_type, "nsgs");
  assert_true(c.contact_solver_tol == 1e-10);
  assert_int_equal(c.contact_solver_max_it, 1000);
  assert_true(c.contact_solver_warm_start);
  assert_string_equal(c.compliance_type, "exact");
  assert_false(c.output_fclib);

  /* The resolved JSON spells out every default, ramps in their object form. */
  r = cJSON_Parse(c.resolved_json);
  assert_non_null(r);
  assert_string_equal(cJSON_GetStringValue(Resolved(r, "description")), "");
  assert_string_equal(cJSON_GetStringValue(Resolved(r, "time.integrator")), "quasi_static");
  assert_true(cJSON_GetNumberValue(Resolved(r, "time.newton.max_it")) == 25);
  assert_true(cJSON_GetNumberValue(Resolved(r, "time.newton.rtol")) == 1e-10);
  assert_true(cJSON_IsFalse(Resolved(r, "time.newton.allow_failure")));
  assert_int_equal(cJSON_GetArraySize(Resolved(r, "gravity")), 3);
  assert_true(cJSON_GetNumberValue(Resolved(r, "bodies[0].mesh.refine")) == 0);
  assert_true(cJSON_GetNumberValue(Resolved(r, "bodies[0].damping.beta")) == 0);
  assert_string_equal(cJSON_GetStringValue(Resolved(r, "bodies[0].loads[0].ramp.type")), "constant");
  assert_true(cJSON_GetNumberValue(Resolved(r, "bodies[0].loads[0].ramp.value")) == 1);
  assert_string_equal(cJSON_GetStringValue(Resolved(r, "output.vtk_format")), "binary");
  assert_true(cJSON_IsObject(Resolved(r, "petsc")));
  assert_string_equal(cJSON_GetStringValue(Resolved(r, "bodies[0].type")), "deformable");
  assert_true(cJSON_IsArray(Resolved(r, "contacts")) && cJSON_GetArraySize(Resolved(r, "contacts")) == 0);
  assert_string_equal(cJSON_GetStringValue(Resolved(r, "contact_solver.type")), "nsgs");
  assert_true(cJSON_GetNumberValue(Resolved(r, "contact_solver.tol")) == 1e-10);
  assert_true(cJSON_GetNumberValue(Resolved(r, "contact_solver.max_it")) == 1000);
  assert_true(cJSON_IsTrue(Resolved(r, "contact_solver.warm_start")));
  assert_string_equal(cJSON_GetStringValue(Resolved(r, "compliance.type")), "exact");
  assert_true(cJSON_IsFalse(Resolved(r, "output.fclib")));
  /* A body still lists name first, then type (the discriminator), then its keys. */
  assert_string_equal(Resolved(r, "bodies[0]")->child->string, "name");
  assert_string_equal(Resolved(r, "bodies[0]")->child->next->string, "type");
  assert_string_equal(Resolved(r, "bodies[0]")->child->next->next->string, "mesh");
  /* Documented order, not insertion order: name first, petsc last. */
  assert_string_equal(r->child->string, "name");
  assert_string_equal(cJSON_GetArrayItem(r, cJSON_GetArraySize(r) - 1)->string, "petsc");
  cJSON_Delete(r);

  /* Loading the resolved JSON again resolves to the same text (it is a valid case). */
  TmpCase(again, sizeof again, "base_resolved.json", c.resolved_json);
  assert_int_equal(Load(again, 0, NULL, &c2), 0);
  assert_string_equal(c.resolved_json, c2.resolved_json);
  assert_int_equal(FcCaseDestroy(&c2), 0);
  assert_int_equal(FcCaseDestroy(&c), 0);
}

/* Mesh files are resolved relative to the case file, not to the working directory. */
static void test_mesh_relative(void **state)
{
  char        dir[128], file[PETSC_MAX_PATH_LEN], expect[PETSC_MAX_PATH_LEN];
  const char *sets[] = {"bodies[0].mesh.file=../mesh.geo"};
  FcCase      c;

  (void)state;
  snprintf(dir, sizeof dir, "%s/sub", tmpdir);
  mkdir(dir, 0700);
  snprintf(file, sizeof file, "%s/case.json", dir);
  FcTestWriteFile(file, base_case);
  assert_int_equal(Load(file, 1, sets, &c), 0);
  snprintf(expect, sizeof expect, "%s/../mesh.geo", dir);
  assert_string_equal(c.bodies[0].mesh_file, expect);
  assert_int_equal(FcCaseDestroy(&c), 0);
}

static void test_set(void **state)
{
  char file[PETSC_MAX_PATH_LEN];
  // clang-format off
  const char *sets[] = {
    "time.dt=0.05",                       /* number */
    "name=renamed",                       /* plain string (not JSON) */
    "description=\"quoted string\"",      /* JSON string */
    "time.newton.max_it=50",              /* nested creation: newton absent from the file */
    "output.dir=out/set",                 /* creation of a defaulted object */
    "bodies[0].material.E=2.5e9",         /* array element */
    "bodies[0].boundary[0].fix=[false,true,true]",
    "gravity=[0,0,-1]",
    "petsc.ksp_type=cg",                  /* petsc options, created */
    "petsc.ksp_monitor=true",
    "petsc.ksp_rtol=1e-8",
    "bodies[0].loads[0].ramp=linear",     /* shorthand, expanded */
    "probes[0].point[2]=2",
  };
  // clang-format on
  FcCase c;

  (void)state;
  TmpCase(file, sizeof file, "set.json", base_case);
  assert_int_equal(Load(file, (int)(sizeof sets / sizeof sets[0]), sets, &c), 0);
  assert_true(c.dt == 0.05);
  assert_int_equal(c.steps, 20);
  assert_string_equal(c.name, "renamed");
  assert_string_equal(c.description, "quoted string");
  assert_int_equal(c.newton_max_it, 50);
  assert_true(c.newton_rtol == 1e-10); /* siblings of a created key still default */
  assert_string_equal(c.output_dir, "out/set");
  assert_int_equal(c.output_every, 1);
  assert_true(MatParam(&c.bodies[0], "E") == 2.5e9);
  assert_true(!c.bodies[0].boundary[0].comp[0] && c.bodies[0].boundary[0].comp[1]);
  assert_true(c.gravity.value[2] == -1);
  assert_int_equal(c.npetsc, 3);
  assert_string_equal(c.petsc_keys[0], "-ksp_type");
  assert_string_equal(c.petsc_values[0], "cg");
  assert_string_equal(c.petsc_values[1], "");
  assert_string_equal(c.petsc_values[2], "1e-08");
  assert_int_equal(c.bodies[0].loads[0].ramp.type, FC_RAMP_LINEAR);
  assert_true(c.bodies[0].loads[0].ramp.t1 == 1.0);
  assert_true(c.probes[0].point[2] == 2);
  assert_non_null(strstr(c.resolved_json, "\"max_it\":\t50"));
  assert_int_equal(FcCaseDestroy(&c), 0);
}

/* A --set value goes through the same type checks as the file. */
static void test_set_typecheck(void **state)
{
  char        file[PETSC_MAX_PATH_LEN], err[4096], expect[PETSC_MAX_PATH_LEN + 64];
  const char *bad_dt[]  = {"time.dt=abc"};
  const char *bad_ref[] = {"bodies[0].mesh.refine=1.5"};
  FcCase      c;

  (void)state;
  TmpCase(file, sizeof file, "settype.json", base_case);
  assert_int_equal(LoadCaptured(file, 1, bad_dt, &c, err, sizeof err), FC_ERR_INPUT);
  snprintf(expect, sizeof expect, "%s: time.dt: expected number, got string\n", file);
  assert_string_equal(err, expect);
  assert_int_equal(LoadCaptured(file, 1, bad_ref, &c, err, sizeof err), FC_ERR_INPUT);
  assert_non_null(strstr(err, "bodies[0].mesh.refine: expected integer"));
  assert_null(c.bodies);
}

/* ---------------------------------------------------------------------------------------- */
/* Ramps and prescribed displacements                                                       */
/* ---------------------------------------------------------------------------------------- */

static void test_ramps(void **state)
{
  char        file[PETSC_MAX_PATH_LEN];
  FcCase      c;
  FcCaseBody *b;
  PetscReal   t[] = {0, 1, 2}, s[] = {0, 2, 1};
  FcRamp cst = {.type = FC_RAMP_CONSTANT, .value = 3}, lin = {.type = FC_RAMP_LINEAR, .t0 = 1, .t1 = 3}, tab = {.type = FC_RAMP_TABLE, .n = 3, .t = t, .s = s};
  const double tol = 1e-14;

  (void)state;
  assert_true(FcRampEval(&cst, -5) == 3 && FcRampEval(&cst, 7) == 3);
  assert_true(FcRampEval(&lin, 0) == 0);
  assert_true(FcRampEval(&lin, 1) == 0);
  assert_true(PetscAbsReal(FcRampEval(&lin, 1.5) - 0.25) < tol);
  assert_true(PetscAbsReal(FcRampEval(&lin, 2) - 0.5) < tol);
  assert_true(FcRampEval(&lin, 3) == 1 && FcRampEval(&lin, 10) == 1);
  assert_true(FcRampEval(&tab, -1) == 0); /* held before the table */
  assert_true(PetscAbsReal(FcRampEval(&tab, 0.25) - 0.5) < tol);
  assert_true(FcRampEval(&tab, 1) == 2);
  assert_true(PetscAbsReal(FcRampEval(&tab, 1.5) - 1.5) < tol);
  assert_true(FcRampEval(&tab, 2) == 1 && FcRampEval(&tab, 9) == 1); /* held after */

  TmpCase(file, sizeof file, "ramps.json", full_case);
  assert_int_equal(Load(file, 0, NULL, &c), 0);
  b = &c.bodies[0];
  /* displacement [0.001, null, -0.002] with "linear" from 0 to t_end = 2 */
  assert_true(PetscAbsReal(FcDriverComponent(&b->boundary[1].u, 0, 1.0) - 0.0005) < tol);
  assert_true(PetscAbsReal(FcDriverComponent(&b->boundary[1].u, 2, 1.0) + 0.001) < tol);
  assert_true(PetscAbsReal(FcDriverComponent(&b->boundary[1].u, 2, 5.0) + 0.002) < tol);
  /* table [[0, null, 0, 1], [1, null, 0.5, 2], [3, null, 1, 0]] */
  assert_true(FcDriverComponent(&b->boundary[2].u, 1, -1) == 0);
  assert_true(FcDriverComponent(&b->boundary[2].u, 2, -1) == 1);
  assert_true(PetscAbsReal(FcDriverComponent(&b->boundary[2].u, 1, 0.5) - 0.25) < tol);
  assert_true(PetscAbsReal(FcDriverComponent(&b->boundary[2].u, 2, 0.5) - 1.5) < tol);
  assert_true(PetscAbsReal(FcDriverComponent(&b->boundary[2].u, 1, 2) - 0.75) < tol);
  assert_true(PetscAbsReal(FcDriverComponent(&b->boundary[2].u, 2, 2) - 1) < tol);
  assert_true(FcDriverComponent(&b->boundary[2].u, 1, 10) == 1);
  assert_true(FcDriverComponent(&b->boundary[2].u, 2, 10) == 0);
  /* load ramps of the file */
  assert_true(PetscAbsReal(FcRampEval(&b->loads[0].ramp, 1.5) - 1.5) < tol);
  assert_true(PetscAbsReal(FcRampEval(&b->loads[1].ramp, 1.0) - 0.5) < tol);
  assert_true(FcRampEval(&b->loads[2].ramp, 1.0) == 0.5);
  assert_int_equal(FcCaseDestroy(&c), 0);
}

/* ---------------------------------------------------------------------------------------- */
/* Contact: rigid bodies, contact pairs, contact solver, compliance, FCLIB output           */
/* ---------------------------------------------------------------------------------------- */

#define RIGID_FLOOR_JSON "{\"name\": \"floor\", \"type\": \"rigid\", \"shape\": {\"type\": \"plane\", \"point\": [0, 0, 0], \"normal\": [0, 0, 1]}}"
#define RIGID_BALL_JSON \
  "{\"name\": \"ball\", \"type\": \"rigid\", \"shape\": {\"type\": \"sphere\", \"center\": [0, 0, 2], \"radius\": 0.5}," \
  " \"motion\": {\"type\": \"dynamic\", \"mass\": 2, \"inertia\": [0.2, 0.2, 0.2]}}"

/* base for the malformed contact inputs: bodies block (deformable), floor, ball (rigid) */
static const char contact_base[] = "{\n"
                                   "  \"name\": \"contact\",\n"
                                   "  \"time\": {\"dt\": 0.1, \"t_end\": 1.0},\n"
                                   "  \"bodies\": [" BODY_JSON ",\n    " RIGID_FLOOR_JSON ",\n    " RIGID_BALL_JSON "],\n"
                                   "  \"contacts\": [{\"pair\": [\"block\", \"floor\"], \"mu\": 0.5}],\n"
                                   "  \"probes\": [{\"name\": \"f\", \"type\": \"contact_force\", \"pair\": 0},\n"
                                   "             {\"name\": \"ek\", \"type\": \"kinetic_energy\", \"body\": \"ball\"}]\n"
                                   "}\n";

/* every shape, motion and joint type, every contact key */
static const char contact_full[] =
  "{\n"
  "  \"name\": \"contact_full\",\n"
  "  \"time\": {\"integrator\": \"backward_euler\", \"dt\": 0.1, \"t_end\": 1.0},\n"
  "  \"bodies\": [\n"
  "    " BODY_JSON ",\n"
  "    {\"name\": \"pad\", \"type\": \"deformable\", \"mesh\": {\"file\": \"mesh.geo\"},\n"
  "     \"material\": {\"model\": \"linear\", \"E\": 1e5, \"nu\": 0.4, \"density\": 900}},\n"
  "    {\"type\": \"rigid\", \"name\": \"floor\", \"shape\": {\"normal\": [0, 0, 2], \"type\": \"plane\", \"point\": [0, 0, -1]}},\n"
  "    {\"name\": \"press\", \"type\": \"rigid\", \"shape\": {\"type\": \"box\", \"center\": [0, 0, 3], \"half_extents\": [1, 2, 0.5]},\n"
  "     \"motion\": {\"type\": \"kinematic\", \"displacement\": [0, 0, -0.5], \"ramp\": \"linear\"}},\n"
  "    {\"name\": \"ball\", \"type\": \"rigid\", \"shape\": {\"type\": \"sphere\", \"center\": [1, 1, 1], \"radius\": 0.25},\n"
  "     \"motion\": {\"type\": \"kinematic\", \"displacement\": {\"table\": [[0, 0, 0, 0], [1, 0, 0, -1], [2, 1, 0, -1]]}}},\n"
  "    {\"name\": \"roller\", \"type\": \"rigid\",\n"
  "     \"shape\": {\"type\": \"cylinder\", \"center\": [0, 0, 0], \"axis\": [3, 0, 4], \"radius\": 0.1, \"half_length\": 0.5},\n"
  "     \"motion\": {\"type\": \"dynamic\", \"mass\": 5, \"inertia\": [1, 2, 3], \"force\": [0, 0, -49],\n"
  "                \"ramp\": {\"type\": \"constant\", \"value\": 0.5}, \"initial_velocity\": [1, 0, 0]}},\n"
  "    {\"name\": \"tool\", \"type\": \"rigid\", \"shape\": {\"type\": \"mesh\", \"file\": \"mesh.geo\", \"group\": \"contact\", \"refine\": 1},\n"
  "     \"motion\": {\"type\": \"dynamic\", \"mass\": 2, \"joint\": {\"type\": \"prismatic\", \"axis\": [0, 0, -2]}}},\n"
  "    {\"name\": \"anvil\", \"type\": \"rigid\", \"shape\": {\"type\": \"mesh\", \"file\": \"mesh.geo\"},\n"
  "     \"motion\": {\"type\": \"dynamic\", \"mass\": 1, \"inertia\": [0.5, 0.5, 0.5], \"joint\": {\"type\": \"fixed\"}}},\n"
  "    {\"name\": \"post\", \"type\": \"rigid\", \"shape\": {\"type\": \"box\", \"center\": [5, 5, 0], \"half_extents\": [0.1, 0.1, 1]},\n"
  "     \"motion\": {\"type\": \"fixed\"}}\n"
  "  ],\n"
  "  \"contacts\": [\n"
  "    {\"pair\": [\"block\", \"floor\"], \"surface\": \"bottom\", \"mu\": 0.3, \"alarm\": 0.01},\n"
  "    {\"pair\": [\"block\", \"pad\"], \"surface\": 5, \"target_surface\": \"top\", \"both_passes\": true},\n"
  "    {\"pair\": [\"pad\", \"tool\"], \"target_surface\": 7},\n"
  "    {\"pair\": [\"block\", \"roller\"]}\n"
  "  ],\n"
  "  \"contact_solver\": {\"type\": \"my_solver2\", \"tol\": 1e-6, \"max_it\": 50, \"warm_start\": false},\n"
  "  \"compliance\": {\"type\": \"precomputed\"},\n"
  "  \"probes\": [\n"
  "    {\"name\": \"fc\", \"type\": \"contact_force\", \"pair\": 0},\n"
  "    {\"name\": \"na\", \"type\": \"active_contacts\", \"pair\": 3},\n"
  "    {\"name\": \"ek_roller\", \"type\": \"kinetic_energy\", \"body\": \"roller\"},\n"
  "    {\"name\": \"es_floor\", \"type\": \"strain_energy\", \"body\": \"floor\"},\n"
  "    {\"name\": \"u\", \"type\": \"displacement\", \"body\": \"block\", \"point\": [0, 0, 0]}\n"
  "  ],\n"
  "  \"output\": {\"fclib\": true}\n"
  "}\n";

static void AssertVec3(const PetscReal v[3], double x, double y, double z)
{
  const double tol = 1e-14;
  if (PetscAbsReal(v[0] - x) > tol || PetscAbsReal(v[1] - y) > tol || PetscAbsReal(v[2] - z) > tol)
    fail_msg("got [%.17g, %.17g, %.17g], expected [%g, %g, %g]", (double)v[0], (double)v[1], (double)v[2], x, y, z);
}

static void test_contact_case(void **state)
{
  char              file[PETSC_MAX_PATH_LEN], mesh[PETSC_MAX_PATH_LEN], again[PETSC_MAX_PATH_LEN];
  FcCase            c, c2;
  const FcCaseBody *b;
  cJSON            *r;
  const cJSON      *body;

  (void)state;
  TmpCase(file, sizeof file, "contact_full.json", contact_full);
  snprintf(mesh, sizeof mesh, "%s/mesh.geo", tmpdir);
  assert_int_equal(Load(file, 0, NULL, &c), 0);
  assert_int_equal(c.nbodies, 9);

  b = &c.bodies[0]; /* deformable: unchanged, not rigid */
  assert_false(b->rigid);
  assert_string_equal(b->type, "deformable");
  assert_string_equal(b->mesh_file, mesh);
  assert_int_equal(b->nboundary, 1);
  assert_false(c.bodies[1].rigid);
  assert_true(MatParam(&c.bodies[1], "E") == 1e5);

  b = &c.bodies[2]; /* plane, normal normalized, motion defaulted to fixed; deformable fields zero */
  assert_true(b->rigid);
  assert_string_equal(b->name, "floor");
  assert_string_equal(b->type, "rigid");
  assert_int_equal(b->shape.type, FC_SHAPE_PLANE);
  AssertVec3(b->shape.point, 0, 0, -1);
  AssertVec3(b->shape.normal, 0, 0, 1);
  assert_int_equal(b->motion.type, FC_MOTION_FIXED);
  assert_string_equal(b->mesh_file, "");
  assert_true(b->material.n == 0 && b->material.density == 0 && b->material.model[0] == 0);
  assert_int_equal(b->refine, 0);
  assert_int_equal(b->order, 0);
  assert_int_equal(b->nboundary, 0);
  assert_int_equal(b->nloads, 0);
  assert_null(b->boundary);
  assert_null(b->loads);

  b = &c.bodies[3]; /* box, kinematic [ux, uy, uz] with a linear ramp to t_end */
  assert_int_equal(b->shape.type, FC_SHAPE_BOX);
  AssertVec3(b->shape.center, 0, 0, 3);
  AssertVec3(b->shape.half_extents, 1, 2, 0.5);
  assert_int_equal(b->motion.type, FC_MOTION_KINEMATIC);
  AssertVec3(b->motion.translation.value, 0, 0, -0.5);
  assert_int_equal(b->motion.translation.ramp.type, FC_RAMP_LINEAR);
  assert_true(b->motion.translation.ramp.t0 == 0 && b->motion.translation.ramp.t1 == 1.0);
  assert_int_equal(b->motion.translation.ntab, 0);

  b = &c.bodies[4]; /* sphere, kinematic table */
  assert_int_equal(b->shape.type, FC_SHAPE_SPHERE);
  AssertVec3(b->shape.center, 1, 1, 1);
  assert_true(b->shape.radius == 0.25);
  assert_int_equal(b->motion.type, FC_MOTION_KINEMATIC);
  assert_int_equal(b->motion.translation.ntab, 3);
  assert_true(b->motion.translation.tab[4] == 1 && b->motion.translation.tab[7] == -1 && b->motion.translation.tab[9] == 1);

  b = &c.bodies[5]; /* cylinder, axis normalized; dynamic, free joint by default */
  assert_int_equal(b->shape.type, FC_SHAPE_CYLINDER);
  AssertVec3(b->shape.center, 0, 0, 0);
  AssertVec3(b->shape.axis, 0.6, 0, 0.8);
  assert_true(b->shape.radius == 0.1 && b->shape.half_length == 0.5);
  assert_int_equal(b->motion.type, FC_MOTION_DYNAMIC);
  assert_true(b->motion.mass == 5);
  AssertVec3(b->motion.inertia, 1, 2, 3);
  assert_int_equal(b->motion.joint, FC_JOINT_FREE);
  AssertVec3(b->motion.axis, 0, 0, 0);
  AssertVec3(b->motion.force, 0, 0, -49);
  assert_int_equal(b->motion.force_ramp.type, FC_RAMP_CONSTANT);
  assert_true(b->motion.force_ramp.value == 0.5);
  AssertVec3(b->motion.initial_velocity, 1, 0, 0);

  b = &c.bodies[6]; /* mesh with group and refine; prismatic joint, inertia defaulted to 0 */
  assert_int_equal(b->shape.type, FC_SHAPE_MESH);
  assert_string_equal(b->shape.mesh_file, mesh);
  assert_string_equal(b->shape.group, "contact");
  assert_int_equal(b->shape.refine, 1);
  assert_string_equal(b->mesh_file, "");
  assert_int_equal(b->motion.joint, FC_JOINT_PRISMATIC);
  AssertVec3(b->motion.axis, 0, 0, -1);
  AssertVec3(b->motion.inertia, 0, 0, 0);
  AssertVec3(b->motion.force, 0, 0, 0);
  AssertVec3(b->motion.initial_velocity, 0, 0, 0);
  assert_int_equal(b->motion.force_ramp.type, FC_RAMP_CONSTANT);
  assert_true(b->motion.force_ramp.value == 1);

  b = &c.bodies[7]; /* mesh without group (all boundary faces), refine 0; fixed joint */
  assert_string_equal(b->shape.group, "");
  assert_int_equal(b->shape.refine, 0);
  assert_int_equal(b->motion.joint, FC_JOINT_FIXED);
  AssertVec3(b->motion.inertia, 0.5, 0.5, 0.5);
  assert_int_equal(c.bodies[8].motion.type, FC_MOTION_FIXED);

  assert_int_equal(c.ncontacts, 4);
  assert_true(FcCaseContactAt(&c, 0).body[0] == 0 && FcCaseContactAt(&c, 0).body[1] == 2);
  assert_string_equal(FcCaseContactAt(&c, 0).surface, "bottom");
  assert_string_equal(FcCaseContactAt(&c, 0).target_surface, "");
  assert_true(FcCaseContactAt(&c, 0).mu == 0.3 && FcCaseContactAt(&c, 0).alarm == 0.01);
  assert_false(FcCaseContactAt(&c, 0).both_passes);
  assert_false(FcCaseContactAt(&c, 0).mortar); /* formulation defaults to node_to_surface */
  assert_true(FcCaseContactAt(&c, 1).body[0] == 0 && FcCaseContactAt(&c, 1).body[1] == 1);
  assert_string_equal(FcCaseContactAt(&c, 1).surface, "5");
  assert_string_equal(FcCaseContactAt(&c, 1).target_surface, "top");
  assert_true(FcCaseContactAt(&c, 1).both_passes);
  assert_true(FcCaseContactAt(&c, 1).mu == 0 && FcCaseContactAt(&c, 1).alarm == -1); /* defaults: frictionless, automatic */
  assert_true(FcCaseContactAt(&c, 2).body[0] == 1 && FcCaseContactAt(&c, 2).body[1] == 6);
  assert_string_equal(FcCaseContactAt(&c, 2).surface, "");
  assert_string_equal(FcCaseContactAt(&c, 2).target_surface, "7");
  assert_true(FcCaseContactAt(&c, 3).body[0] == 0 && FcCaseContactAt(&c, 3).body[1] == 5);

  assert_string_equal(c.contact_solver_type, "my_solver2");
  assert_true(c.contact_solver_tol == 1e-6);
  assert_int_equal(c.contact_solver_max_it, 50);
  assert_false(c.contact_solver_warm_start);
  assert_string_equal(c.compliance_type, "precomputed");
  assert_true(c.output_fclib);

  assert_int_equal(c.nprobes, 5);
  assert_int_equal(c.probes[0].type, FC_PROBE_CONTACT_FORCE);
  assert_int_equal(c.probes[0].pair, 0);
  assert_string_equal(c.probes[0].body, "");
  assert_int_equal(c.probes[1].type, FC_PROBE_ACTIVE_CONTACTS);
  assert_int_equal(c.probes[1].pair, 3);
  assert_int_equal(c.probes[2].type, FC_PROBE_KINETIC_ENERGY);
  assert_string_equal(c.probes[2].body, "roller");
  assert_int_equal(c.probes[3].type, FC_PROBE_STRAIN_ENERGY);
  assert_string_equal(c.probes[3].body, "floor");
  assert_int_equal(c.probes[4].type, FC_PROBE_DISPLACEMENT);

  /* resolved: defaults filled, keys in documented order, directions as written */
  r = cJSON_Parse(c.resolved_json);
  assert_non_null(r);
  body = Resolved(r, "bodies[2]");
  assert_string_equal(body->child->string, "name");
  assert_string_equal(body->child->next->string, "type");
  assert_string_equal(body->child->next->next->string, "shape");
  assert_string_equal(Resolved(r, "bodies[2].shape")->child->string, "type");
  assert_string_equal(cJSON_GetStringValue(Resolved(r, "bodies[2].motion.type")), "fixed");
  assert_int_equal(cJSON_GetArraySize(Resolved(r, "bodies[2].motion")), 1);
  assert_true(cJSON_GetNumberValue(cJSON_GetArrayItem(Resolved(r, "bodies[2].shape.normal"), 2)) == 2);
  assert_string_equal(cJSON_GetStringValue(Resolved(r, "bodies[3].motion.ramp.type")), "linear");
  assert_true(cJSON_GetNumberValue(Resolved(r, "bodies[3].motion.ramp.t1")) == 1.0);
  assert_null(Resolved(r, "bodies[4].motion.ramp")); /* a table has no ramp */
  assert_string_equal(cJSON_GetStringValue(Resolved(r, "bodies[6].motion.joint.type")), "prismatic");
  assert_int_equal(cJSON_GetArraySize(Resolved(r, "bodies[6].motion.inertia")), 3);
  assert_string_equal(cJSON_GetStringValue(Resolved(r, "bodies[6].motion.ramp.type")), "constant");
  assert_true(cJSON_GetNumberValue(Resolved(r, "bodies[6].shape.refine")) == 1);
  assert_true(cJSON_GetNumberValue(Resolved(r, "bodies[7].shape.refine")) == 0);
  assert_null(Resolved(r, "bodies[7].shape.group"));
  assert_string_equal(cJSON_GetStringValue(Resolved(r, "bodies[5].motion.joint.type")), "free");
  assert_true(cJSON_IsArray(Resolved(r, "bodies[5].motion.initial_velocity")));
  assert_true(cJSON_GetNumberValue(Resolved(r, "contacts[3].mu")) == 0);
  assert_true(cJSON_IsFalse(Resolved(r, "contacts[3].both_passes")));
  assert_null(Resolved(r, "contacts[3].alarm")); /* automatic */
  assert_string_equal(Resolved(r, "contacts[0]")->child->string, "pair");
  cJSON_Delete(r);

  /* the resolved case is itself a valid case resolving to the same text */
  TmpCase(again, sizeof again, "contact_full_resolved.json", c.resolved_json);
  assert_int_equal(Load(again, 0, NULL, &c2), 0);
  assert_string_equal(c.resolved_json, c2.resolved_json);
  assert_int_equal(FcCaseDestroy(&c2), 0);
  assert_int_equal(FcCaseDestroy(&c), 0);
  assert_null(c.centry);
}

/* A minimal rigid floor and contact pair: every contact default. */
static void test_contact_defaults(void **state)
{
  char              file[PETSC_MAX_PATH_LEN];
  static const char text[] = "{\"name\": \"d\", \"time\": {\"dt\": 1, \"steps\": 1},\n"
                             " \"bodies\": [" BODY_JSON ", {\"name\": \"floor\", \"type\": \"rigid\",\n"
                             "   \"shape\": {\"type\": \"plane\", \"point\": [0, 0, 0], \"normal\": [0, 0, 1]}}],\n"
                             " \"contacts\": [{\"pair\": [\"block\", \"floor\"]}]}\n";
  FcCase            c;
  cJSON            *r;

  (void)state;
  TmpCase(file, sizeof file, "contact_defaults.json", text);
  assert_int_equal(Load(file, 0, NULL, &c), 0);
  assert_true(c.bodies[1].rigid);
  assert_int_equal(c.bodies[1].motion.type, FC_MOTION_FIXED);
  assert_int_equal(c.ncontacts, 1);
  assert_true(FcCaseContactAt(&c, 0).body[0] == 0 && FcCaseContactAt(&c, 0).body[1] == 1);
  assert_string_equal(FcCaseContactAt(&c, 0).surface, "");
  assert_string_equal(FcCaseContactAt(&c, 0).target_surface, "");
  assert_true(FcCaseContactAt(&c, 0).mu == 0 && FcCaseContactAt(&c, 0).alarm == -1);
  assert_false(FcCaseContactAt(&c, 0).both_passes);
  assert_string_equal(c.contact_solver_type, "nsgs");
  assert_string_equal(c.compliance_type, "exact");
  assert_false(c.output_fclib);
  r = cJSON_Parse(c.resolved_json);
  assert_non_null(r);
  assert_string_equal(cJSON_GetStringValue(Resolved(r, "bodies[1].motion.type")), "fixed");
  assert_true(cJSON_GetNumberValue(Resolved(r, "contacts[0].mu")) == 0);
  assert_true(cJSON_IsFalse(Resolved(r, "contacts[0].both_passes")));
  assert_null(Resolved(r, "contacts[0].surface"));
  assert_null(Resolved(r, "contacts[0].alarm"));
  /* root order: contacts after bodies, before probes */
  assert_string_equal(Resolved(r, "bodies")->next->string, "contacts");
  assert_string_equal(Resolved(r, "contacts")->next->string, "contact_solver");
  assert_string_equal(Resolved(r, "contact_solver")->next->string, "compliance");
  assert_string_equal(Resolved(r, "compliance")->next->string, "contact_step");
  assert_string_equal(Resolved(r, "contact_step")->next->string, "probes");
  /* contact_step's defaults: today's scheme (issue 28) */
  assert_int_equal(c.contact_linearization, FC_LINEARIZATION_RECURSIVE);
  assert_int_equal(c.contact_lin_max_it, 10);
  assert_true(c.contact_lin_tol == 1e-6);
  cJSON_Delete(r);
  assert_int_equal(FcCaseDestroy(&c), 0);
}

static void test_contact_set(void **state)
{
  char file[PETSC_MAX_PATH_LEN];
  // clang-format off
  const char *sets[] = {
    "contacts[0].mu=0.3",
    "contact_solver.type=\"nsgs\"",
    "contact_solver.max_it=20",
    "compliance.type=precomputed",
    "output.fclib=true",
    "contacts[0].alarm=0.05",
    "bodies[2].shape.radius=0.75",
    "bodies[2].motion.joint={\"type\": \"prismatic\", \"axis\": [0, 0, 1]}",
    "time.integrator=backward_euler", /* a dynamic body needs inertia (FcCaseCheckFilled) */
    "bodies[1].motion={\"type\": \"kinematic\", \"displacement\": [0, 0, 0.1], \"ramp\": \"linear\"}",
    "probes[0].type=active_contacts",
    "bodies[0].type=deformable",
  };
  // clang-format on
  FcCase c;

  (void)state;
  TmpCase(file, sizeof file, "contact_set.json", contact_base);
  assert_int_equal(Load(file, (int)(sizeof sets / sizeof sets[0]), sets, &c), 0);
  assert_true(FcCaseContactAt(&c, 0).mu == 0.3);
  assert_true(FcCaseContactAt(&c, 0).alarm == 0.05);
  assert_string_equal(c.contact_solver_type, "nsgs");
  assert_int_equal(c.contact_solver_max_it, 20);
  assert_true(c.contact_solver_tol == 1e-10); /* siblings of a created key default */
  assert_string_equal(c.compliance_type, "precomputed");
  assert_true(c.output_fclib);
  assert_true(c.bodies[2].shape.radius == 0.75);
  assert_int_equal(c.bodies[2].motion.joint, FC_JOINT_PRISMATIC);
  AssertVec3(c.bodies[2].motion.inertia, 0.2, 0.2, 0.2);
  assert_int_equal(c.bodies[1].motion.type, FC_MOTION_KINEMATIC);
  assert_int_equal(c.bodies[1].motion.translation.ramp.type, FC_RAMP_LINEAR);
  assert_int_equal(c.probes[0].type, FC_PROBE_ACTIVE_CONTACTS);
  assert_int_equal(FcCaseDestroy(&c), 0);
}

static void test_motion_displacement(void **state)
{
  char      file[PETSC_MAX_PATH_LEN];
  FcCase    c;
  PetscReal u[3], tab[] = {0, 1, 2, 3, 2, 3, 2, 1};
  FcDriver  zero, cst   = {.dim = 3, .value = {1, -2, 3}, .ramp = {.type = FC_RAMP_CONSTANT, .value = 0.5}};
  FcDriver  two = {.dim = 3, .ntab = 2, .tab = tab};

  (void)state;
  FcDriverInit(&zero, 3); /* what a motion without a prescribed translation holds */
  u[0] = u[1] = u[2] = 1;
  FcDriverEval(&zero, 1, u);
  AssertVec3(u, 0, 0, 0);
  FcDriverEval(&cst, 7, u);
  AssertVec3(u, 0.5, -1, 1.5);
  /* rows (0; 1, 2, 3) and (2; 3, 2, 1) */
  FcDriverEval(&two, -1, u);
  AssertVec3(u, 1, 2, 3);
  FcDriverEval(&two, 0.5, u);
  AssertVec3(u, 1.5, 2, 2.5);
  FcDriverEval(&two, 1, u);
  AssertVec3(u, 2, 2, 2);
  FcDriverEval(&two, 2, u);
  AssertVec3(u, 3, 2, 1);
  FcDriverEval(&two, 9, u);
  AssertVec3(u, 3, 2, 1);

  TmpCase(file, sizeof file, "motion.json", contact_full);
  assert_int_equal(Load(file, 0, NULL, &c), 0);
  /* press: [0, 0, -0.5] * linear ramp from 0 to t_end = 1 */
  FcDriverEval(&c.bodies[3].motion.translation, -1, u);
  AssertVec3(u, 0, 0, 0);
  FcDriverEval(&c.bodies[3].motion.translation, 0.5, u);
  AssertVec3(u, 0, 0, -0.25);
  FcDriverEval(&c.bodies[3].motion.translation, 4, u);
  AssertVec3(u, 0, 0, -0.5);
  /* ball: table [[0, 0, 0, 0], [1, 0, 0, -1], [2, 1, 0, -1]], held outside */
  FcDriverEval(&c.bodies[4].motion.translation, -1, u);
  AssertVec3(u, 0, 0, 0);
  FcDriverEval(&c.bodies[4].motion.translation, 0.25, u);
  AssertVec3(u, 0, 0, -0.25);
  FcDriverEval(&c.bodies[4].motion.translation, 1.5, u);
  AssertVec3(u, 0.5, 0, -1);
  FcDriverEval(&c.bodies[4].motion.translation, 3, u);
  AssertVec3(u, 1, 0, -1);
  /* floor (fixed) and roller (dynamic) do not have a prescribed displacement */
  FcDriverEval(&c.bodies[2].motion.translation, 0.5, u);
  AssertVec3(u, 0, 0, 0);
  FcDriverEval(&c.bodies[5].motion.translation, 0.5, u);
  AssertVec3(u, 0, 0, 0);
  assert_true(FcDriverComponent(&c.bodies[3].motion.angle, 0, 0.5) == 0); /* no rotation */
  assert_int_equal(FcCaseDestroy(&c), 0);

  /* rotation angles: "angle" scaled by the translation's ramp (its own copy of it: the case is
   * freed without a double free), or a table of its own */
  {
    const char *sets[] = {
      "bodies[3].motion.rotation={\"axis\": [0, 0, 1], \"angle\": 2}", "bodies[4].motion.rotation={\"axis\": [0, 0, 2], \"table\": [[0, 0], [2, 1]]}"};
    assert_int_equal(Load(file, 2, sets, &c), 0);
    assert_true(PetscAbsReal(FcDriverComponent(&c.bodies[3].motion.angle, 0, 0.5) - 1) < 1e-15); /* 2 · 0.5 */
    assert_true(FcDriverComponent(&c.bodies[3].motion.angle, 0, 4) == 2);
    assert_true(PetscAbsReal(FcDriverComponent(&c.bodies[4].motion.angle, 0, 1) - 0.5) < 1e-15);
    assert_true(FcDriverComponent(&c.bodies[4].motion.angle, 0, 9) == 1);
    assert_true(c.bodies[4].motion.rot_axis[2] == 1); /* normalized */
    assert_int_equal(FcCaseDestroy(&c), 0);
  }
}

/* ---------------------------------------------------------------------------------------- */
/* Malformed inputs: each one line "FILE: PATH: message" and FC_ERR_INPUT                   */
/* ---------------------------------------------------------------------------------------- */

typedef struct {
  const char *text;    /* file contents; NULL: base_case; "-": no file at all */
  const char *sets[2]; /* --set overrides */
  const char *path;    /* expected right after "FILE: "; NULL: no path */
  const char *msg;     /* expected somewhere in the message */
} BadCase;

// clang-format off
static const BadCase bad_cases[] = {
  /* reading and parsing */
  {"-", {NULL}, NULL, "cannot read: No such file or directory"},
  {"", {NULL}, "line 1, column 1", "JSON syntax error"},
  {"{\n  \"name\": \"x\",\n}\n", {NULL}, "line 3, column 1", "JSON syntax error"},
  {"{\"name\": \"x\"} trailing", {NULL}, "line 1, column 15", "JSON syntax error"},
  {"{\"name\": \"x\", \"time\": {\"dt\": 1, \"dt\": 2}}", {NULL}, "time", "duplicate key \"dt\""},
  {"[1, 2]", {NULL}, NULL, "top level must be a JSON object, got array"},
  /* unknown keys, types, required */
  {NULL, {"nmae=x"}, "nmae", "unknown key \"nmae\" (accepted: name, description, time,"},
  {NULL, {"bodies[0].material.EE=1"}, "bodies[0].material.EE", "accepted: model, E, nu, density"},
  {NULL, {"time.dt=\"0.1\""}, "time.dt", "expected number, got string"},
  {NULL, {"description=3"}, "description", "expected string, got number"},
  {"{\"time\": {\"dt\": 0.1, \"steps\": 1}, \"bodies\": [" BODY_JSON "]}", {NULL}, "name", "required key \"name\" is missing"},
  {NULL, {"bodies[0].material={\"model\": \"linear\", \"E\": 1, \"nu\": 0.3}"}, "bodies[0].material.density", "missing"},
  {NULL, {"bodies=[]"}, "bodies", "at least 1 element"},
  {NULL, {"gravity=[0, 0]"}, "gravity", "exactly 3 elements"},
  {NULL, {"time.dt=1e999"}, "time.dt", "finite"},
  /* physical ranges */
  {NULL, {"bodies[0].material.E=0"}, "bodies[0].material.E", "must be > 0, got 0"},
  {NULL, {"bodies[0].material.nu=0.5"}, "bodies[0].material.nu", "must be in [0, 0.5), got 0.5"},
  {NULL, {"bodies[0].material.density=-1"}, "bodies[0].material.density", "must be > 0"},
  {NULL, {"bodies[0].damping.alpha=-0.1"}, "bodies[0].damping.alpha", "must be >= 0"},
  {NULL, {"time.dt=0"}, "time.dt", "must be > 0"},
  {NULL, {"bodies[0].mesh.refine=9"}, "bodies[0].mesh.refine", "must be in [0, 8], got 9"},
  {NULL, {"bodies[0].mesh.order=3"}, "bodies[0].mesh.order", "must be in [1, 2]"},
  {NULL, {"time.newton.max_it=0"}, "time.newton.max_it", "must be >= 1"},
  {NULL, {"output.every=2.5"}, "output.every", "non-integral"},
  /* time */
  {NULL, {"time.steps=10"}, "time", "not both"},
  {NULL, {"time={\"dt\": 0.1}"}, "time", "exactly one of \"t_end\" or \"steps\""},
  {NULL, {"time.t_end=1.05"}, "time.t_end", "must be a multiple of time.dt"},
  /* enums and names */
  {NULL, {"time.integrator=euler"}, "time.integrator", "choices: quasi_static, backward_euler"},
  {NULL, {"bodies[0].material.model=neo_hookean"}, "bodies[0].material.model", "choices: linear, corotational"},
  {NULL, {"bodies[0].type=soft"}, "bodies[0].type", "\"soft\" is not allowed (choices: deformable, rigid)"},
  {NULL, {"output.vtk_format=xml"}, "output.vtk_format", "choices: binary, ascii"},
  {NULL, {"name=a b"}, "name", "must match [A-Za-z0-9_.-]+"},
  {NULL, {"bodies=[" BODY_JSON ", " BODY_JSON "]"}, "bodies[1].name", "duplicate body name \"block\""},
  {NULL, {"bodies[0].mesh.file=missing.msh"}, "bodies[0].mesh.file", "cannot read "},
  /* boundary conditions */
  {NULL, {"bodies[0].boundary[0].displacement=[0, 0, null]"}, "bodies[0].boundary[0]", "not both"},
  {NULL, {"bodies[0].boundary[0]={\"group\": \"g\"}"}, "bodies[0].boundary[0]", "exactly one of \"fix\" or \"displacement\""},
  {NULL, {"bodies[0].boundary[0]={\"group\": \"g\", \"displacement\": [null, null, null]}"}, "bodies[0].boundary[0].displacement", "at least one component"},
  {NULL, {"bodies[0].boundary[0].ramp=linear"}, "bodies[0].boundary[0].ramp", "only allowed with"},
  {NULL, {"bodies[0].boundary[0].fix=[true, 1, true]"}, "bodies[0].boundary[0].fix[1]", "expected boolean, got number"},
  {NULL, {"bodies[0].boundary[0].group=true"}, "bodies[0].boundary[0].group", "expected string or integer, got boolean"},
  {NULL, {"bodies[0].boundary[0]={\"group\": 1, \"displacement\": {\"table\": [[0, 0, null, null], [0, 1, null, null]]}}"}, "bodies[0].boundary[0].displacement.table[1][0]", "strictly increasing"},
  {NULL, {"bodies[0].boundary[0]={\"group\": 1, \"displacement\": {\"table\": [[0, 0, null, null], [1, 1, 2, null]]}}"}, "bodies[0].boundary[0].displacement.table[1][2]", "same components"},
  {NULL, {"bodies[0].boundary[0]={\"group\": 1, \"displacement\": {\"table\": [[0, 0, 0, 0]]}}"}, "bodies[0].boundary[0].displacement.table", "at least 2 elements"},
  /* loads and ramps */
  {NULL, {"bodies[0].loads[0].force=[0, 0, 1]"}, "bodies[0].loads[0]", "not \"pressure\" and \"force\""},
  {NULL, {"bodies[0].loads[0]={\"group\": \"top\"}"}, "bodies[0].loads[0]", "exactly one of"},
  {NULL, {"bodies[0].loads[0].ramp=table"}, "bodies[0].loads[0].ramp", "choices: constant, linear"},
  {NULL, {"bodies[0].loads[0].ramp={\"type\": \"sine\"}"}, "bodies[0].loads[0].ramp.type", "choices: constant, linear, table"},
  {NULL, {"bodies[0].loads[0].ramp={\"type\": \"constant\", \"t0\": 1}"}, "bodies[0].loads[0].ramp.t0", "for type \"constant\" (accepted: type, value)"},
  {NULL, {"bodies[0].loads[0].ramp={\"type\": \"table\", \"table\": [[0, 0], [0, 1]]}"}, "bodies[0].loads[0].ramp.table[1][0]", "strictly increasing"},
  {NULL, {"bodies[0].loads[0].ramp={\"type\": \"table\", \"table\": [[0, 0, 1], [1, 1]]}"}, "bodies[0].loads[0].ramp.table[0]", "exactly 2 elements"},
  {NULL, {"bodies[0].loads[0].ramp={\"type\": \"linear\", \"t0\": 2}"}, "bodies[0].loads[0].ramp.t1", "must be > t0 = 2, got 1 (the default, time.t_end)"},
  /* probes */
  {NULL, {"probes[0].type=velocity"}, "probes[0].type", "choices: displacement, reaction, kinetic_energy, strain_energy"},
  {NULL, {"probes[0].group=top"}, "probes[0]", "exactly one of \"point\" and \"group\""},
  {NULL, {"probes[0]={\"name\": \"p\", \"type\": \"displacement\", \"body\": \"block\"}"}, "probes[0]", "exactly one of \"point\" and \"group\""},
  {NULL, {"probes[0].body=nobody"}, "probes[0].body", "no body named \"nobody\" (bodies: \"block\")"},
  {NULL, {"probes[0].name=a.b"}, "probes[0].name", "[A-Za-z0-9_]+"},
  {NULL, {"probes[0]={\"name\": \"e\", \"type\": \"kinetic_energy\", \"point\": [0, 0, 0]}"}, "probes[0].point", "for type \"kinetic_energy\""},
  /* petsc */
  {NULL, {"petsc.-ksp_type=cg"}, "petsc.-ksp_type", "must match [A-Za-z0-9_]+"},
  {NULL, {"petsc.ksp_type=[1]"}, "petsc.ksp_type", "expected string, number or boolean, got array"},
  /* --set itself */
  {NULL, {"time.dt"}, "time.dt", "--set: expected PATH=VALUE"},
  {NULL, {"bodies[x].name=a"}, "bodies[x].name", "--set: malformed PATH"},
  {NULL, {"time..dt=1"}, "time..dt", "--set: malformed PATH"},
  {NULL, {"bodies[1].name=a"}, "bodies[1].name", "--set: index 1 is past the end of bodies (1 element)"},
  {NULL, {"time[0]=1"}, "time[0]", "--set: cannot index time"},
  {NULL, {"name.first=1"}, "name.first", "--set: cannot set key \"first\": name is a string"},
  {NULL, {"probes2[0].name=x"}, "probes2[0].name", "--set: cannot index probes2: it does not exist"},
  {NULL, {"time={\"dt\": 1, \"dt\": 2}"}, "time", "--set: duplicate key \"dt\""},
  /* rigid bodies: type, shape */
  {NULL, {"bodies[0].type=rigid"}, "bodies[0].mesh", "unknown key \"mesh\" for type \"rigid\" (accepted: name, type, shape, motion)"},
  {contact_base, {"bodies[0].shape={\"type\": \"plane\", \"point\": [0, 0, 0], \"normal\": [0, 0, 1]}"}, "bodies[0].shape", "unknown key \"shape\" for type \"deformable\" (accepted: name, type, mesh, material, damping, plane_strain, kinematics, boundary, loads)"},
  {contact_base, {"bodies[1]={\"name\": \"floor\", \"type\": \"rigid\"}"}, "bodies[1].shape", "required key \"shape\" is missing"},
  {contact_base, {"bodies[1].shape.type=cone"}, "bodies[1].shape.type", "\"cone\" is not allowed (choices: plane, box, sphere, cylinder, mesh)"},
  {contact_base, {"bodies[1].shape={\"point\": [0, 0, 0]}"}, "bodies[1].shape.type", "required key \"type\" is missing"},
  {contact_base, {"bodies[1].shape={\"type\": \"plane\", \"point\": [0, 0, 0]}"}, "bodies[1].shape.normal", "required key \"normal\" is missing"},
  {contact_base, {"bodies[1].shape.normal=[0, 0, 0]"}, "bodies[1].shape.normal", "must be a non-zero vector"},
  {contact_base, {"bodies[1].shape.normal=[0, 1]"}, "bodies[1].shape.normal", "exactly 3 elements"},
  {contact_base, {"bodies[1].shape={\"type\": \"box\", \"center\": [0, 0, 0], \"half_extents\": [1, 0, 1]}"}, "bodies[1].shape.half_extents[1]", "must be > 0, got 0"},
  {contact_base, {"bodies[2].shape.radius=-0.5"}, "bodies[2].shape.radius", "must be > 0, got -0.5"},
  {contact_base, {"bodies[2].shape.normal=[0, 0, 1]"}, "bodies[2].shape.normal", "unknown key \"normal\" for type \"sphere\" (accepted: type, center, radius)"},
  {contact_base, {"bodies[1].shape={\"type\": \"cylinder\", \"center\": [0, 0, 0], \"axis\": [0, 0, 0], \"radius\": 1, \"half_length\": 1}"}, "bodies[1].shape.axis", "non-zero"},
  {contact_base, {"bodies[1].shape={\"type\": \"cylinder\", \"center\": [0, 0, 0], \"axis\": [0, 0, 1], \"radius\": 1}"}, "bodies[1].shape.half_length", "required key \"half_length\" is missing"},
  {contact_base, {"bodies[1].shape={\"type\": \"mesh\", \"file\": \"nothere.msh\"}"}, "bodies[1].shape.file", "cannot read "},
  {contact_base, {"bodies[1].shape={\"type\": \"mesh\", \"file\": \"mesh.geo\", \"refine\": 9}"}, "bodies[1].shape.refine", "must be in [0, 8], got 9"},
  {contact_base, {"bodies[1].shape={\"type\": \"mesh\", \"file\": \"mesh.geo\", \"group\": 1.5}"}, "bodies[1].shape.group", "non-integral"},
  /* rigid bodies: motion */
  {contact_base, {"bodies[1].motion={\"type\": \"spin\"}"}, "bodies[1].motion.type", "\"spin\" is not allowed (choices: fixed, kinematic, dynamic, trajectory)"},
  {contact_base, {"bodies[1].motion={}"}, "bodies[1].motion.type", "required key \"type\" is missing"},
  {contact_base, {"bodies[1].motion={\"type\": \"fixed\", \"mass\": 1}"}, "bodies[1].motion.mass", "unknown key \"mass\" for type \"fixed\" (accepted: type)"},
  {contact_base, {"bodies[1].motion={\"type\": \"kinematic\"}"}, "bodies[1].motion.displacement", "required key \"displacement\" is missing"},
  {contact_base, {"bodies[1].motion={\"type\": \"kinematic\", \"displacement\": [0, null, 0]}"}, "bodies[1].motion.displacement[1]", "expected number, got null"},
  {contact_base, {"bodies[1].motion={\"type\": \"kinematic\", \"displacement\": {\"table\": [[0, 0, 0, 0]]}}"}, "bodies[1].motion.displacement.table", "at least 2 elements, got 1"},
  {contact_base, {"bodies[1].motion={\"type\": \"kinematic\", \"displacement\": {\"table\": [[0, 0, 0, 0], [1, 0, null, 0]]}}"}, "bodies[1].motion.displacement.table[1][2]", "expected number, got null"},
  {contact_base, {"bodies[1].motion={\"type\": \"kinematic\", \"displacement\": {\"table\": [[0, 0, 0, 0], [1, 0, 0, 1], [1, 0, 0, 2]]}}"}, "bodies[1].motion.displacement.table[2][0]", "strictly increasing (row 2 after row 1)"},
  {contact_base, {"bodies[1].motion={\"type\": \"kinematic\", \"displacement\": {\"table\": [[0, 0, 0, 0], [1, 0, 0, 1]]}, \"ramp\": \"linear\"}"}, "bodies[1].motion.ramp", "only allowed with the \"displacement\": [ux, uy, uz] form"},
  {contact_base, {"bodies[1].motion={\"type\": \"kinematic\", \"displacement\": [0, 0, 1], \"ramp\": {\"type\": \"linear\", \"t0\": 3}}"}, "bodies[1].motion.ramp.t1", "must be > t0 = 3, got 1 (the default, time.t_end)"},
  {contact_base, {"bodies[2].motion={\"type\": \"dynamic\", \"inertia\": [1, 1, 1]}"}, "bodies[2].motion.mass", "required key \"mass\" is missing"},
  {contact_base, {"bodies[2].motion.mass=0"}, "bodies[2].motion.mass", "must be > 0, got 0"},
  {contact_base, {"bodies[2].motion={\"type\": \"dynamic\", \"mass\": 1}"}, "bodies[2].motion.inertia", "required key \"inertia\" is missing (a body with a free joint rotates)"},
  {contact_base, {"bodies[2].motion.inertia=[1, 0, 1]"}, "bodies[2].motion.inertia[1]", "must be > 0 with a free joint"},
  {contact_base, {"bodies[2].motion.inertia=[-1, 1, 1]", "bodies[2].motion.joint={\"type\": \"fixed\"}"}, "bodies[2].motion.inertia[0]", "must be >= 0, got -1"},
  {contact_base, {"bodies[2].motion.joint={\"type\": \"hinge\"}"}, "bodies[2].motion.joint.type", "\"hinge\" is not allowed (choices: free, prismatic, fixed)"},
  {contact_base, {"bodies[2].motion.joint={\"type\": \"prismatic\"}"}, "bodies[2].motion.joint.axis", "required key \"axis\" is missing"},
  {contact_base, {"bodies[2].motion.joint={\"type\": \"prismatic\", \"axis\": [0, 0, 0]}"}, "bodies[2].motion.joint.axis", "non-zero"},
  {contact_base, {"bodies[2].motion.joint={\"type\": \"free\", \"axis\": [0, 0, 1]}"}, "bodies[2].motion.joint.axis", "unknown key \"axis\" for type \"free\" (accepted: type)"},
  {contact_base, {"bodies[2].motion.force=[0, 0]"}, "bodies[2].motion.force", "exactly 3 elements, got 2"},
  {contact_base, {"bodies[2].motion.initial_velocity=[0, \"x\", 0]"}, "bodies[2].motion.initial_velocity[1]", "expected number, got string"},
  {contact_base, {"bodies[2].motion.displacement=[0, 0, 1]"}, "bodies[2].motion.displacement", "unknown key \"displacement\" for type \"dynamic\""},
  /* the filled case (FcCaseCheckFilled): a dynamic body against the integrator, its joint, shape
   * and initial velocities (contact_base is quasi-static; its ball has a free joint) */
  {contact_base, {"contacts[0].mu=0.5"}, "bodies[2].motion.type", "a dynamic rigid body with a free joint needs inertia, but time.integrator is \"quasi_static\""},
  {contact_base, {"bodies[2].motion.joint={\"type\": \"prismatic\", \"axis\": [0, 0, 1]}"}, "bodies[2].motion.type", "a dynamic rigid body with a prismatic joint needs inertia"},
  {contact_base, {"time.integrator=backward_euler", "bodies[2].motion={\"type\": \"dynamic\", \"mass\": 1, \"joint\": {\"type\": \"prismatic\", \"axis\": [0, 0, 2]}, \"initial_velocity\": [1, 0, 0]}"}, "bodies[2].motion.initial_velocity", "must be parallel to the prismatic joint's axis (its component normal to the axis is 1 m/s)"},
  {contact_base, {"time.integrator=backward_euler", "bodies[2].motion={\"type\": \"dynamic\", \"mass\": 1, \"joint\": {\"type\": \"fixed\"}, \"initial_velocity\": [0, 0, 1]}"}, "bodies[2].motion.initial_velocity", "must be [0, 0, 0] with a fixed joint"},
  {contact_base, {"time.integrator=backward_euler", "bodies[2].motion={\"type\": \"dynamic\", \"mass\": 1, \"joint\": {\"type\": \"fixed\"}, \"initial_angular_velocity\": [0, 0, 1]}"}, "bodies[2].motion.initial_angular_velocity", "must be [0, 0, 0]: only a free joint rotates"},
  {contact_base, {"time.integrator=backward_euler", "bodies[1].motion={\"type\": \"dynamic\", \"mass\": 1, \"inertia\": [1, 1, 1]}"}, "bodies[1].shape.type", "a plane is infinite"},
  {NULL, {"bodies[0].kinematics=global_corotational"}, "bodies[0].kinematics", "\"global_corotational\" needs a free body"},
  {NULL, {"bodies[0].kinematics=global_corotational", "bodies[0].boundary=[]"}, "bodies[0].kinematics", "\"global_corotational\" quasi-statically needs time.newton.shift > 0"},
  /* contacts */
  {contact_base, {"contacts[0].pair=[\"block\", \"nobody\"]"}, "contacts[0].pair", "no body named \"nobody\" (bodies: \"block\", \"floor\", \"ball\")"},
  {contact_base, {"contacts[0].pair=[\"block\", \"block\"]"}, "contacts[0].pair", "the two bodies must differ, got \"block\" twice"},
  {contact_base, {"contacts[0].pair=[\"floor\", \"block\"]"}, "contacts[0].pair", "the first body is the contactor and must be deformable, but \"floor\" is rigid"},
  {contact_base, {"contacts[0].pair=[\"floor\", \"ball\"]"}, "contacts[0].pair", "at least one body of a pair must be deformable"},
  {contact_base, {"contacts[0].pair=[\"block\"]"}, "contacts[0].pair", "exactly 2 elements, got 1"},
  {contact_base, {"contacts[0].pair=[\"block\", \"\"]"}, "contacts[0].pair[1]", "must not be empty"},
  {contact_base, {"contacts[0]={\"mu\": 0.1}"}, "contacts[0].pair", "required key \"pair\" is missing"},
  {contact_base, {"contacts[0].mu=-0.1"}, "contacts[0].mu", "must be >= 0, got -0.1"},
  {contact_base, {"contacts[0].alarm=0"}, "contacts[0].alarm", "must be > 0, got 0"},
  {contact_base, {"contacts[0].surface=true"}, "contacts[0].surface", "expected string or integer, got boolean"},
  {contact_base, {"contacts[0].target_surface=top"}, "contacts[0].target_surface", "only allowed when the target is deformable or a rigid \"mesh\" shape, but \"floor\" is a rigid \"plane\""},
  {contact_base, {"contacts[0].both_passes=true"}, "contacts[0].both_passes", "only allowed for a pair of deformable bodies, but \"floor\" is rigid"},
  /* groups (issue 29): the checks find the first refused pair and a pair in two entries from the
   * groups, never from a list of the pairs; the messages are those of that pair */
  {contact_base, {"contacts=[{\"bodies\": [\"floor\", \"block\", \"ball\"], \"both_passes\": true}]"}, "contacts[0].both_passes", "only allowed for a pair of deformable bodies, but \"floor\" is rigid"},
  {contact_base, {"contacts=[{\"bodies\": [\"ball\", \"block\"], \"formulation\": \"mortar\"}]"}, "contacts[0].formulation", "\"mortar\" needs a target surface mesh (a deformable body or a rigid \"mesh\" shape), but \"ball\" is a rigid \"sphere\""},
  {contact_base, {"contacts=[{\"bodies\": [\"block\", \"floor\", \"ball\"]}, {\"pair\": [\"block\", \"ball\"]}]"}, "contacts[1]", "the pair of \"block\" and \"ball\" is already in contacts[0]"},
  {contact_base, {"contacts=[{\"bodies\": [\"floor\", \"ball\"]}]"}, "contacts[0].bodies", "these bodies make no pair (one body, or only rigid bodies)"},
  {contact_base, {"contacts[0].friction=0.3"}, "contacts[0].friction", "unknown key \"friction\" (accepted: pair, bodies, surface, target_surface, mu, alarm, both_passes, formulation)"},
  {contact_base, {"contacts={}"}, "contacts", "expected array, got object"},
  /* contact solver, compliance, output */
  {contact_base, {"contact_solver.type=NSGS"}, "contact_solver.type", "\"NSGS\" must match [a-z0-9_]+"},
  {contact_base, {"contact_solver.type=\"\""}, "contact_solver.type", "must not be empty"},
  {contact_base, {"contact_solver.tol=0"}, "contact_solver.tol", "must be > 0, got 0"},
  {contact_base, {"contact_solver.max_it=0"}, "contact_solver.max_it", "must be >= 1, got 0"},
  {contact_base, {"contact_solver.warm_start=1"}, "contact_solver.warm_start", "expected boolean, got number"},
  {contact_base, {"contact_solver.rtol=1"}, "contact_solver.rtol", "unknown key \"rtol\" (accepted: type, tol, max_it, warm_start, max_error, accept_regularized)"},
  /* compliance.type names a registered strategy: checked when the run starts (FcComplianceCheckType, test_compliance) */
  {contact_base, {"compliance.type=Exact"}, "compliance.type", "\"Exact\" must match [a-z0-9_]+"},
  {contact_base, {"output.fclib=yes"}, "output.fclib", "expected boolean, got string"},
  /* probes and rigid bodies, contact probes */
  {contact_base, {"probes[0]={\"name\": \"u\", \"type\": \"displacement\", \"body\": \"floor\", \"point\": [0, 0, 0]}"}, "probes[0].point", "body \"floor\" is rigid: its displacement probe is the body's translation"},
  {contact_base, {"probes[0]={\"name\": \"r\", \"type\": \"reaction\", \"body\": \"ball\", \"group\": \"g\"}"}, "probes[0].body", "body \"ball\" is rigid"},
  {contact_base, {"probes[0].pair=1"}, "probes[0].pair", "no contact pair 1 (contacts has 1 element: indices 0 to 0)"},
  {contact_base, {"probes[0].pair=-1"}, "probes[0].pair", "must be >= 0, got -1"},
  {contact_base, {"probes[0].body=block"}, "probes[0].body", "unknown key \"body\" for type \"contact_force\" (accepted: type, name, pair, component, scale)"},
  {contact_base, {"probes[0]={\"name\": \"n\", \"type\": \"active_contacts\"}"}, "probes[0].pair", "required key \"pair\" is missing"},
  {NULL, {"probes[0]={\"name\": \"n\", \"type\": \"active_contacts\", \"pair\": 0}"}, "probes[0].pair", "no contact pair 0: the case has no contacts"},
  {contact_base, {"probes[1].body=nobody"}, "probes[1].body", "no body named \"nobody\" (bodies: \"block\", \"floor\", \"ball\")"},
  /* issue 17: subnormal numbers anywhere, physical bounds of materials and dt */
  {NULL, {"bodies[0].material.E=1e-320"}, "bodies[0].material.E", "got the subnormal 1e-320"},
  {NULL, {"gravity=[0, 0, -4e-320]"}, "gravity[2]", "got the subnormal -4e-320"},
  {NULL, {"bodies[0].loads[0].pressure=5e-324"}, "bodies[0].loads[0].pressure", "subnormal"},
  {NULL, {"bodies[0].material.E=1e-300"}, "bodies[0].material.E", "1e-300 Pa is outside [0.1, 1e+14] Pa (SI units)"},
  {NULL, {"bodies[0].material.E=2.1e15"}, "bodies[0].material.E", "2.1e+15 Pa is outside [0.1, 1e+14] Pa"},
  {NULL, {"bodies[0].material.density=7.85e-9"}, "bodies[0].material.density", "7.85e-09 kg/m^3 is outside [0.001, 1e+06] kg/m^3"},
  {NULL, {"time.dt=1e-13"}, "time.dt", "1e-13 s is outside [1e-12, 1e+09] s"},
  {NULL, {"bodies[0].material.nu=0.4999999999"}, "bodies[0].material.nu", "the bulk modulus would be 5e+09 times the shear modulus"},
  {NULL, {"bodies[0].material={\"model\": \"mooney_rivlin\", \"C10\": 1e5, \"C01\": 2e14, \"kappa\": 1e9, \"density\": 1000}"}, "bodies[0].material.C01", "2e+14 Pa is above 1e+14 Pa"},
  {NULL, {"bodies[0].material={\"model\": \"mooney_rivlin\", \"C10\": 1, \"C01\": 0, \"kappa\": 1e9, \"density\": 1000}"}, "bodies[0].material.kappa", "the bulk modulus would be 5e+08 times"},
  /* issue 17: U+0000 refused, user strings echoed escaped (one line) */
  {"{\"name\": \"a\\u0000b\"}", {NULL}, "name", "the string \"a\\u0000...\" contains the character U+0000"},
  {"{\"name\": \"a\", \"time\": {\"d\\u0000t\": 1}}", {NULL}, "time", "the member name \"d\\u0000...\" contains"},
  {"{\"name\": \"a\\\\u0000b\"}", {NULL}, "name", "\"a\\\\u0000b\" must match"}, /* an escaped backslash, not U+0000 */
  {NULL, {"description=\"x\\u0000y\""}, "description", "--set: the string \"x\\u0000...\" contains the character U+0000"},
  {NULL, {"petsc={\"a\": [1, \"\\u0000\"]}"}, "petsc.a[1]", "--set: the string \"\\u0000...\""},
  {"{\"na\\nme\": 1}", {NULL}, "na\\nme", "unknown key \"na\\nme\" (accepted:"},
  {"{\"name\": \"a\nb\"}", {NULL}, "name", "\"a\\nb\" must match"}, /* a raw newline, which cJSON takes */
  {NULL, {"name=\"a\\u2028b\\u0085c\\\"d\""}, "name", "\"a\\u2028b\\u0085c\\\"d\" must match"},
  {NULL, {"name=\xff\xfeok"}, "name", "\"\\xff\\xfeok\" must match"},
  {NULL, {"bodies[0].mat\nerial.E=3"}, "bodies[0].mat\\nerial", "unknown key \"mat\\nerial\""},
  {NULL, {"time\n.dt"}, "time\\n.dt", "--set: expected PATH=VALUE"},
  {NULL, {"time\r=1"}, "time\\r", "unknown key \"time\\r\""},
  {NULL, {"bodies[0]\t=1"}, "bodies[0]\\t", "--set: malformed PATH: unexpected \"\\t\""},
  {NULL, {"time.integrator=\"be\\u001b[31m\""}, "time.integrator", "\"be\\u001b[31m\" is not allowed"},
  {NULL, {"probes[0].body=\"bl\\nock\""}, "probes[0].body", "no body named \"bl\\nock\""},
  {NULL, {"bodies[0].boundary[0].group=\"bot\\ttom\""}, "bodies[0].boundary[0].group", "\"bot\\ttom\" contains the control character U+0009"},
  {NULL, {"petsc.ksp_type=\"cg\\n-pc_type lu\""}, "petsc.ksp_type", "contains the control character U+000A"},
  {NULL, {"output.dir=\"out\\u2029\""}, "output.dir", "contains the control character U+2029"},
  {contact_base, {"contacts[0].pair=[\"bl\\u0085ock\", \"floor\"]"}, "contacts[0].pair", "no body named \"bl\\u0085ock\""},
};
// clang-format on

static void test_bad_inputs(void **state)
{
  const size_t n    = sizeof bad_cases / sizeof bad_cases[0];
  int          nbad = 0;

  (void)state;
  assert_true(n >= 25);
  for (size_t i = 0; i < n; i++) {
    const BadCase *bc = &bad_cases[i];
    char           name[64], file[PETSC_MAX_PATH_LEN], err[4096], prefix[2 * PETSC_MAX_PATH_LEN];
    int            nsets = 0;
    FcCase         c;
    PetscErrorCode ierr;
    const char    *nl;

    while (nsets < 2 && bc->sets[nsets]) nsets++;
    snprintf(name, sizeof name, "bad_%02d.json", (int)i);
    TmpCase(file, sizeof file, name, !bc->text ? base_case : (strcmp(bc->text, "-") ? bc->text : NULL));
    ierr = LoadCaptured(file, nsets, bc->sets, &c, err, sizeof err);
    if (bc->path) snprintf(prefix, sizeof prefix, "%s: %s: ", file, bc->path);
    else snprintf(prefix, sizeof prefix, "%s: ", file);
    nl = strchr(err, '\n');
    if (getenv("FC_TEST_SHOW")) fprintf(stdout, "%s", err);
    if (ierr != FC_ERR_INPUT || !nl || nl[1] || strncmp(err, prefix, strlen(prefix)) || !strstr(err, bc->msg) || c.bodies || c.resolved_json) {
      print_error("bad case %d (%s%s): error %d, stderr [%s], expected prefix [%s] and [%s]\n", (int)i, bc->sets[0] ? "--set " : "",
        bc->sets[0] ? bc->sets[0] : "file", (int)ierr, err, prefix, bc->msg);
      nbad++;
    }
  }
  print_message("%d malformed inputs, %d failed\n", (int)n, nbad);
  assert_int_equal(nbad, 0);
}

/* FcSchemaEscape: any bytes as one printable line, JSON-style escapes, cut with "..." to fit. */
/* A material model registered in code (one table, one FcMaterialRegister line) is a case key at
 * once: its keys, defaults, ranges, bounds and choices are checked from its table, and its values
 * reach the body as plain data. Never created here (the case loader does not create materials). */
static PetscErrorCode CreateToy_Private(FcMaterial mat, const FcMaterialParams *p)
{
  (void)mat;
  (void)p;
  return 0;
}
static const char *const toy_flavours[] = {"plain", "fancy", NULL};
// clang-format off
static const FcParamSpec toy_params[]   = {
  {.name = "k", .type = FC_PARAM_REAL, .required = PETSC_TRUE, .range = FC_RANGE_GT(0), .bound = &FcModulusBound, .doc = "stiffness [Pa]"},
  FC_MATERIAL_PARAM_DENSITY,
  {.name = "flavour", .type = FC_PARAM_CHOICE, .def = "plain", .choices = toy_flavours, .doc = "a choice"},
  {.name = NULL}
};
// clang-format on
static const FcMaterialModel toy_model = {.create = CreateToy_Private, .params = toy_params};

static void test_registered_material(void **state)
{
  char        file[PETSC_MAX_PATH_LEN], err[4096];
  const char *ok[] = {"bodies[0].material={\"model\": \"toy\", \"k\": 5, \"density\": 900}"};
  // clang-format off
  const char *bad[][1]  = {
    {"bodies[0].material={\"model\": \"toy\", \"k\": 5, \"density\": 900, \"E\": 1}"},
    {"bodies[0].material={\"model\": \"toy\", \"k\": 0, \"density\": 900}"},
    {"bodies[0].material={\"model\": \"toy\", \"k\": 1e20, \"density\": 900}"},
    {"bodies[0].material={\"model\": \"toy\", \"density\": 900}"},
    {"bodies[0].material={\"model\": \"toy\", \"k\": 5, \"density\": 900, \"flavour\": \"sour\"}"},
  };
  // clang-format on
  // clang-format off
  const char *expect[] = {
    "bodies[0].material.E: unknown key \"E\" for model \"toy\" (accepted: model, k, density, flavour)",
    "bodies[0].material.k: must be > 0, got 0",
    "bodies[0].material.k: 1e+20 Pa is outside [0.1, 1e+14] Pa (SI units)",
    "bodies[0].material.k: required key \"k\" is missing",
    "bodies[0].material.flavour: \"sour\" is not allowed (choices: plain, fancy)",
  };
  // clang-format on
  const char *flavour = NULL;
  FcCase      c;
  cJSON      *root;

  (void)state;
  assert_int_equal(FcMaterialRegisterAll(), 0);
  assert_int_equal(FcMaterialRegister("toy", &toy_model), 0);
  TmpCase(file, sizeof file, "toy.json", base_case);
  assert_int_equal(Load(file, 1, ok, &c), 0);
  assert_string_equal(c.bodies[0].material.model, "toy");
  assert_true(MatParam(&c.bodies[0], "k") == 5 && c.bodies[0].material.density == 900);
  assert_int_equal(FcMaterialParamsGetChoice(&c.bodies[0].material, "flavour", &flavour), 0);
  assert_string_equal(flavour, "plain");
  root = cJSON_Parse(c.resolved_json);
  assert_non_null(root);
  assert_string_equal(cJSON_GetStringValue(Resolved(root, "bodies[0].material.flavour")), "plain"); /* the default, written */
  cJSON_Delete(root);
  assert_int_equal(FcCaseDestroy(&c), 0);
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    assert_int_not_equal(LoadCaptured(file, 1, bad[i], &c, err, sizeof err), 0);
    printf("registered material: %s", err);
    assert_non_null(strstr(err, expect[i]));
  }
  assert_int_equal(FcMaterialFinalizePackage(), 0); /* the next load registers the built-in models only */
}

static void test_escape(void **state)
{
  char out[16], big[64], path[32];

  (void)state;
  assert_string_equal(FcSchemaEscape(out, sizeof out, "plain"), "plain");
  assert_string_equal(FcSchemaEscape(out, sizeof out, "a\nb\t\"\\"), "a\\nb\\t\\\"\\\\");
  assert_string_equal(FcSchemaEscape(out, sizeof out, "\r\x1b\x7f"), "\\r\\u001b\\u007f");
  /* UTF-8 passes, except C1 controls and the line/paragraph separators */
  assert_string_equal(FcSchemaEscape(big, sizeof big, "\xc3\xa9\xe2\x82\xac\xc2\x85\xe2\x80\xa8\xe2\x80\xa9"), "\xc3\xa9\xe2\x82\xac\\u0085\\u2028\\u2029");
  /* not UTF-8: a stray byte, a truncated sequence, an overlong NUL, a surrogate */
  assert_string_equal(FcSchemaEscape(big, sizeof big, "\xff\xc3"), "\\xff\\xc3");
  assert_string_equal(FcSchemaEscape(big, sizeof big, "\xc0\x80"), "\\xc0\\x80");
  assert_string_equal(FcSchemaEscape(big, sizeof big, "\xed\xa0\x80"), "\\xed\\xa0\\x80");
  /* fits exactly; one more and it is cut, never inside an escape */
  assert_string_equal(FcSchemaEscape(out, sizeof out, "0123456789abcde"), "0123456789abcde");
  assert_string_equal(FcSchemaEscape(out, sizeof out, "0123456789abcdef"), "0123456789ab...");
  assert_string_equal(FcSchemaEscape(out, sizeof out, "0123456789a\n\n\n"), "0123456789a...");
  assert_string_equal(FcSchemaEscape(out, 4, "abcd"), "...");
  assert_string_equal(FcSchemaEscape(out, 1, "abcd"), "");
  assert_int_equal(FcSchemaFirstControl("no controls \xc3\xa9"), -1);
  assert_int_equal(FcSchemaFirstControl("tab\there"), 9);
  assert_int_equal(FcSchemaFirstControl("a\xe2\x80\xa8"), 0x2028);
  /* keys in JSON paths are escaped too */
  FcSchemaPathKey(path, sizeof path, "bodies[0]", "ma\nterial");
  assert_string_equal(path, "bodies[0].ma\\nterial");
}

int main(int argc, char **argv)
{
  // clang-format off
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_full_case),
    cmocka_unit_test(test_defaults),
    cmocka_unit_test(test_mesh_relative),
    cmocka_unit_test(test_set),
    cmocka_unit_test(test_set_typecheck),
    cmocka_unit_test(test_ramps),
    cmocka_unit_test(test_contact_case),
    cmocka_unit_test(test_contact_defaults),
    cmocka_unit_test(test_contact_set),
    cmocka_unit_test(test_motion_displacement),
    cmocka_unit_test(test_bad_inputs),
    cmocka_unit_test(test_registered_material),
    cmocka_unit_test(test_escape),
  };
  // clang-format on
  char mesh[PETSC_MAX_PATH_LEN + 16];
  int  failures;

  FcMPIEnvPrepare();
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(FcPushErrorHandler());
  snprintf(tmpdir, sizeof tmpdir, "/tmp/fcsim_test_case_XXXXXX");
  if (!mkdtemp(tmpdir)) return 1;
  snprintf(mesh, sizeof mesh, "%s/mesh.geo", tmpdir);
  FcTestWriteFile(mesh, "// placeholder: the case module only checks that the mesh is readable\n");
  failures = cmocka_run_group_tests(tests, NULL, NULL);
  /* Leave nothing in /tmp on success; keep the files to look at on failure. */
  if (!failures) {
    char cmd[PETSC_MAX_PATH_LEN + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd)) failures = 1;
  }
  /* Pop what FcPushErrorHandler pushed, so that -malloc_dump reports only real leaks. */
  PetscCall(PetscPopErrorHandler());
  PetscCall(PetscFinalize());
  return failures;
}
