/* fcsim — material registry: name → model (create function and parameter table), PETSc style
 * (XXXRegister / XXXRegisterAll / XXXCreate), so a new constitutive law is one file plus one
 * FcMaterialRegister() line (the name table is src/core/registry.h). Also the plain-data
 * parameter values (FcMaterialParams), their check against a model's table, and what several
 * models share: the isotropic moduli, the choice of the volumetric integration, the bound on κ/μ. */
#include "material.h"
#include "../core/registry.h"
#include <stdlib.h>
#include <string.h>

static FcRegistry             MaterialRegistry = {.what = "material"};
static const FcMaterialModel *MaterialModels[FC_REGISTRY_MAX]; /* by registry position */
static PetscBool              MaterialRegisterAllCalled = PETSC_FALSE;

const FcBound     FcModulusBound        = {"elastic moduli of solids: soft gels have about 10 Pa, diamond 1.2e12 Pa", "Pa", 0.1, 1e14};
const FcBound     FcModulusUpperBound   = {"elastic moduli of solids: soft gels have about 10 Pa, diamond 1.2e12 Pa", "Pa", -1, 1e14};
const FcBound     FcDensityBound        = {"densities of solids: aerogels have about 0.2 kg/m^3, osmium 2.26e4 kg/m^3", "kg/m^3", 1e-3, 1e6};
const char *const FcVolumetricChoices[] = {"auto", "mean_dilatation", "pointwise", NULL};

/* ------------------------------------------------------------------------------------------ */
/* parameter values                                                                           */

PetscErrorCode FcMaterialParamsInit(FcMaterialParams *p, const char *model)
{
  PetscFunctionBegin;
  PetscCall(PetscMemzero(p, sizeof *p));
  PetscCheck(strlen(model) < sizeof p->model, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Material model name too long: %s", model);
  PetscCall(PetscStrncpy(p->model, model, sizeof p->model));
  PetscFunctionReturn(0);
}

static PetscInt ParamIndex_Private(const FcMaterialParams *p, const char *name)
{
  for (PetscInt i = 0; i < p->n; i++)
    if (!strcmp(p->param[i].name, name)) return i;
  return -1;
}

/* The slot of name: its own, or a new one. */
static PetscErrorCode ParamSlot_Private(FcMaterialParams *p, const char *name, PetscInt *i)
{
  PetscFunctionBegin;
  *i = ParamIndex_Private(p, name);
  if (*i >= 0) PetscFunctionReturn(0);
  PetscCheck(strlen(name) < FC_MATERIAL_PARAM_LEN, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Material parameter name too long: %s", name);
  PetscCheck(p->n < FC_MATERIAL_MAX_PARAMS, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Material %s: more than %d parameters", p->model, FC_MATERIAL_MAX_PARAMS);
  *i = p->n++;
  PetscCall(PetscStrncpy(p->param[*i].name, name, FC_MATERIAL_PARAM_LEN));
  PetscFunctionReturn(0);
}

PetscErrorCode FcMaterialParamsSetReal(FcMaterialParams *p, const char *name, PetscReal value)
{
  PetscInt i;

  PetscFunctionBegin;
  if (!strcmp(name, "density")) {
    p->density = value;
    PetscFunctionReturn(0);
  }
  PetscCall(ParamSlot_Private(p, name, &i));
  p->param[i].value = value;
  PetscFunctionReturn(0);
}

PetscErrorCode FcMaterialParamsSetChoice(FcMaterialParams *p, const char *name, const char *choice)
{
  PetscInt i;

  PetscFunctionBegin;
  PetscCheck(strcmp(name, "density"), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Material parameter density is a number");
  PetscCheck(strlen(choice) < FC_MATERIAL_PARAM_LEN, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Material parameter %s: choice too long: %s", name, choice);
  PetscCall(ParamSlot_Private(p, name, &i));
  PetscCall(PetscStrncpy(p->param[i].choice, choice, FC_MATERIAL_PARAM_LEN));
  PetscFunctionReturn(0);
}

PetscBool FcMaterialParamsHas(const FcMaterialParams *p, const char *name) { return (PetscBool)(!strcmp(name, "density") || ParamIndex_Private(p, name) >= 0); }

PetscErrorCode FcMaterialParamsGetReal(const FcMaterialParams *p, const char *name, PetscReal *value)
{
  PetscInt i = ParamIndex_Private(p, name);

  PetscFunctionBegin;
  if (!strcmp(name, "density")) {
    *value = p->density;
    PetscFunctionReturn(0);
  }
  PetscCheck(i >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Material %s has no parameter %s", p->model, name);
  *value = p->param[i].value;
  PetscFunctionReturn(0);
}

PetscErrorCode FcMaterialParamsGetChoice(const FcMaterialParams *p, const char *name, const char **choice)
{
  PetscInt i = ParamIndex_Private(p, name);

  PetscFunctionBegin;
  PetscCheck(i >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Material %s has no parameter %s", p->model, name);
  *choice = p->param[i].choice;
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------------------------------ */
/* registry                                                                                   */

PetscErrorCode FcMaterialRegister(const char *name, const FcMaterialModel *model)
{
  const char *n;

  PetscFunctionBegin;
  PetscCheck(model && model->create && model->params, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Material %s needs a create function and a parameter table", name);
  PetscCall(FcRegistryAdd(&MaterialRegistry, name, (FcRegistryFn)model->create));
  for (PetscInt i = 0; i < MaterialRegistry.n; i++) {
    PetscCall(FcMaterialModelGet(i, &n, NULL));
    if (!strcmp(n, name)) MaterialModels[i] = model;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcMaterialRegisterAll(void)
{
  PetscFunctionBegin;
  if (MaterialRegisterAllCalled) PetscFunctionReturn(0);
  MaterialRegisterAllCalled = PETSC_TRUE;
  PetscCall(FcMaterialRegister("linear", &FcMaterialLinear));
  PetscCall(FcMaterialRegister("corotational", &FcMaterialCorotational));
  PetscCall(FcMaterialRegister("corotational_lagged", &FcMaterialCorotationalLagged));
  PetscCall(FcMaterialRegister("stvk", &FcMaterialStVK));
  PetscCall(FcMaterialRegister("neohookean", &FcMaterialNeoHookean));
  PetscCall(FcMaterialRegister("mooney_rivlin", &FcMaterialMooneyRivlin));
  PetscFunctionReturn(0);
}

PetscErrorCode FcMaterialFinalizePackage(void)
{
  PetscFunctionBegin;
  FcRegistryClear(&MaterialRegistry);
  MaterialRegisterAllCalled = PETSC_FALSE;
  PetscFunctionReturn(0);
}

void FcMaterialTypes(char *buf, size_t len) { FcRegistryList(&MaterialRegistry, buf, len); }

PetscErrorCode FcMaterialModelGet(PetscInt i, const char **name, const FcMaterialModel **model)
{
  PetscFunctionBegin;
  if (name) *name = i >= 0 && i < MaterialRegistry.n ? MaterialRegistry.name[i] : NULL;
  if (model) *model = i >= 0 && i < MaterialRegistry.n ? MaterialModels[i] : NULL;
  PetscFunctionReturn(0);
}

const FcMaterialModel *FcMaterialModelFind(const char *name)
{
  for (PetscInt i = 0; name && i < MaterialRegistry.n; i++)
    if (!strcmp(MaterialRegistry.name[i], name)) return MaterialModels[i];
  return NULL;
}

static PetscErrorCode FindModel_Private(const char *name, const FcMaterialModel **model)
{
  char list[1024];

  PetscFunctionBegin;
  PetscCall(FcMaterialRegisterAll());
  *model = FcMaterialModelFind(name);
  if (*model) PetscFunctionReturn(0);
  FcMaterialTypes(list, sizeof list);
  return FcInputError("material", name, "unknown model (registered: %s)", list);
}

PetscErrorCode FcMaterialCheckParams(const FcMaterialParams *p, const char *where, const char *path)
{
  const FcMaterialModel *model;

  PetscFunctionBegin;
  PetscCall(FindModel_Private(p->model, &model));
  if (model->check) PetscCall(model->check(p, where, path));
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------------------------------ */
/* create                                                                                     */

static void FormatRange_Private(const FcRange *r, char *out, size_t len)
{
  if (r->has_lo && r->has_hi) snprintf(out, len, "in %c%g, %g%c", r->lo_open ? '(' : '[', (double)r->lo, (double)r->hi, r->hi_open ? ')' : ']');
  else if (r->has_lo) snprintf(out, len, "%s %g", r->lo_open ? ">" : ">=", (double)r->lo);
  else if (r->has_hi) snprintf(out, len, "%s %g", r->hi_open ? "<" : "<=", (double)r->hi);
  else snprintf(out, len, "finite");
}

/* full = p checked against the model's table, with the defaults of absent parameters. The case
 * validator has checked a case's materials already (with their JSON paths); this catches
 * parameters built in code, and keeps λ from the singular ν = 1/2. */
static PetscErrorCode CompleteParams_Private(const FcMaterialModel *model, const FcMaterialParams *p, FcMaterialParams *full)
{
  const FcParamSpec *s;
  char               rule[128];

  PetscFunctionBegin;
  *full = *p;
  for (PetscInt i = 0; i < p->n; i++) {
    for (s = model->params; s->name; s++)
      if (!strcmp(s->name, p->param[i].name)) break;
    if (!s->name) return FcInputError("material", p->model, "unknown parameter %s", p->param[i].name);
  }
  for (s = model->params; s->name; s++) {
    if (!FcMaterialParamsHas(p, s->name)) {
      if (s->required) return FcInputError("material", p->model, "parameter %s is missing", s->name);
      if (!s->def) continue;
      if (s->type == FC_PARAM_REAL) PetscCall(FcMaterialParamsSetReal(full, s->name, strtod(s->def, NULL)));
      else PetscCall(FcMaterialParamsSetChoice(full, s->name, s->def));
    }
    if (s->type == FC_PARAM_REAL) {
      PetscReal x;
      PetscCall(FcMaterialParamsGetReal(full, s->name, &x));
      FormatRange_Private(&s->range, rule, sizeof rule);
      FcCheckInput(!PetscIsInfOrNanReal(x) && FcRangeContains(&s->range, x), "material", p->model, "%s = %g must be finite and %s", s->name, (double)x, rule);
    } else {
      const char *c = NULL;
      PetscInt    k;
      PetscCall(FcMaterialParamsGetChoice(full, s->name, &c));
      for (k = 0; s->choices[k]; k++)
        if (!strcmp(s->choices[k], c)) break;
      FcCheckInput(s->choices[k], "material", p->model, "%s = \"%s\" is not one of the choices", s->name, c);
    }
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcMaterialCreate(const FcMaterialParams *p, FcMaterial *mat)
{
  const FcMaterialModel *model;
  FcMaterialParams       full;
  FcMaterial             m;

  PetscFunctionBegin;
  *mat = NULL;
  PetscCall(FindModel_Private(p->model, &model));
  PetscCall(CompleteParams_Private(model, p, &full));
  PetscCall(PetscNew(&m));
  PetscCall(PetscStrncpy(m->type, p->model, sizeof m->type));
  m->density      = full.density;
  m->linear       = model->linear;
  m->lagged_frame = model->lagged_frame;
  PetscCall((*model->create)(m, &full));
  PetscCheck(m->ops.energy && m->ops.stress && m->ops.tangent, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Material model %s did not set energy/stress/tangent", m->type);
  *mat = m;
  PetscFunctionReturn(0);
}

PetscErrorCode FcMaterialDestroy(FcMaterial *mat)
{
  PetscFunctionBegin;
  if (!mat || !*mat) PetscFunctionReturn(0);
  if ((*mat)->ops.destroy) PetscCall((*(*mat)->ops.destroy)(*mat));
  PetscCall(PetscFree((*mat)->data));
  PetscCall(PetscFree(*mat));
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------------------------------ */
/* shared by the models                                                                       */

PetscErrorCode FcMaterialSetIsotropic(FcMaterial mat, PetscReal E, PetscReal nu)
{
  PetscFunctionBegin;
  mat->E  = E;
  mat->nu = nu;
  /* Lamé parameters and bulk modulus of an isotropic solid from Young's modulus and Poisson's
   * ratio (e.g. Timoshenko & Goodier, Theory of Elasticity, 1970, §6). */
  mat->lambda = E * nu / ((1.0 + nu) * (1.0 - 2.0 * nu));
  mat->mu     = E / (2.0 * (1.0 + nu));
  mat->kappa  = E / (3.0 * (1.0 - 2.0 * nu));
  PetscFunctionReturn(0);
}

PetscErrorCode FcMaterialSetENu(FcMaterial mat, const FcMaterialParams *p)
{
  PetscReal E, nu;

  PetscFunctionBegin;
  PetscCall(FcMaterialParamsGetReal(p, "E", &E));
  PetscCall(FcMaterialParamsGetReal(p, "nu", &nu));
  PetscCall(FcMaterialSetIsotropic(mat, E, nu));
  PetscFunctionReturn(0);
}

/* "auto": mean dilatation when the material is nearly incompressible (κ/μ ≥ 10, i.e. ν ≥ 0.45),
 * where pointwise tet10 locks; pointwise otherwise, because the P2/P0 element has 3 zero-energy
 * modes per element that the deviatoric energy alone must suppress, which makes coarse meshes
 * of compressible materials too soft in bending (doc/fem.md). */
PetscErrorCode FcMaterialSetVolumetric(FcMaterial mat, const FcMaterialParams *p)
{
  const char *vol = NULL;

  PetscFunctionBegin;
  PetscCall(FcMaterialParamsGetChoice(p, "volumetric", &vol));
  mat->volumetric = FC_VOLUMETRIC_POINTWISE;
  if (!strcmp(vol, "mean_dilatation") || (!strcmp(vol, "auto") && mat->kappa >= 10.0 * mat->mu)) mat->volumetric = FC_VOLUMETRIC_MEAN_DILATATION;
  PetscFunctionReturn(0);
}

/* Bulk over shear modulus κ/μ at most 1e8 (ν ≤ 0.499999995): beyond, the volumetric stiffness
 * swamps the shear stiffness by more than half of double precision's 16 digits and the shear
 * response is lost to rounding (nearly incompressible rubber has κ/μ of 1e3 to 1e4; ν at the
 * largest double below 0.5 would give 1e16). */
PetscErrorCode FcMaterialCheckBulkShear(const char *where, const char *path, const char *key, const char *hint, PetscReal kappa, PetscReal mu)
{
  char sub[1024];

  PetscFunctionBegin;
  if (kappa <= 1e8 * mu) PetscFunctionReturn(0);
  snprintf(sub, sizeof sub, "%s%s%s", path, path[0] ? "." : "", key);
  return FcInputError(where, sub,
    "the bulk modulus would be %.3g times the shear modulus (at most 1e8%s): the shear response would be lost to rounding; nearly incompressible rubber has 1e3 to 1e4",
    (double)(kappa / mu), hint);
}

PetscErrorCode FcMaterialCheckENu(const FcMaterialParams *p, const char *where, const char *path)
{
  PetscReal E, nu;

  PetscFunctionBegin;
  PetscCall(FcMaterialParamsGetReal(p, "E", &E));
  PetscCall(FcMaterialParamsGetReal(p, "nu", &nu));
  PetscCall(FcMaterialCheckBulkShear(where, path, "nu", ", nu <= 0.499999995", E / (3.0 * (1.0 - 2.0 * nu)), E / (2.0 * (1.0 + nu))));
  PetscFunctionReturn(0);
}
