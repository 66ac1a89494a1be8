/* fcsim — material registry: name → create function, PETSc style (XXXRegister /
 * XXXRegisterAll / XXXCreate), so a new constitutive law is one file plus one
 * FcMaterialRegister() line. A small static table rather than a PetscFunctionList because the
 * names must be listed in messages (FcMaterialTypes) and the table never holds more than a
 * handful of models. */
#include "material.h"
#include <string.h>

#define FC_MATERIAL_MAX 16

typedef struct {
  char name[FC_NAME_LEN];
  PetscErrorCode (*create)(FcMaterial);
} FcMaterialEntry;

static FcMaterialEntry MaterialTable[FC_MATERIAL_MAX];
static int             MaterialCount;
static PetscBool       MaterialRegisterAllCalled = PETSC_FALSE;

PetscErrorCode FcMaterialRegister(const char *name, PetscErrorCode (*create)(FcMaterial))
{
  PetscFunctionBegin;
  PetscCheck(name && name[0] && create, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Material name and create function are required");
  PetscCheck(strlen(name) < FC_NAME_LEN, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Material name too long: %s", name);
  for (int i = 0; i < MaterialCount; i++) {
    if (!strcmp(MaterialTable[i].name, name)) { /* re-registering replaces, like PetscFunctionListAdd */
      MaterialTable[i].create = create;
      PetscFunctionReturn(0);
    }
  }
  PetscCheck(MaterialCount < FC_MATERIAL_MAX, PETSC_COMM_SELF, PETSC_ERR_MEM, "Too many material models (at most %d)", FC_MATERIAL_MAX);
  PetscCall(PetscStrncpy(MaterialTable[MaterialCount].name, name, FC_NAME_LEN));
  MaterialTable[MaterialCount].create = create;
  MaterialCount++;
  PetscFunctionReturn(0);
}

PetscErrorCode FcMaterialRegisterAll(void)
{
  PetscFunctionBegin;
  if (MaterialRegisterAllCalled) PetscFunctionReturn(0);
  MaterialRegisterAllCalled = PETSC_TRUE;
  PetscCall(FcMaterialRegister("linear", FcMaterialCreate_Linear));
  PetscCall(FcMaterialRegister("corotational", FcMaterialCreate_Corotational));
  PetscFunctionReturn(0);
}

PetscErrorCode FcMaterialFinalizePackage(void)
{
  PetscFunctionBegin;
  MaterialCount             = 0;
  MaterialRegisterAllCalled = PETSC_FALSE;
  PetscFunctionReturn(0);
}

void FcMaterialTypes(char *buf, size_t len)
{
  size_t n = 0;

  if (!buf || !len) return;
  buf[0] = 0;
  for (int i = 0; i < MaterialCount && n < len; i++) {
    int k = snprintf(buf + n, len - n, "%s%s", i ? ", " : "", MaterialTable[i].name);
    if (k < 0) break;
    n += (size_t)k;
  }
}

PetscErrorCode FcMaterialCreate(const FcCaseMaterial *params, FcMaterial *mat)
{
  PetscErrorCode (*create)(FcMaterial) = NULL;
  FcMaterial m;

  PetscFunctionBegin;
  *mat = NULL;
  PetscCall(FcMaterialRegisterAll());
  for (int i = 0; i < MaterialCount; i++)
    if (!strcmp(MaterialTable[i].name, params->model)) create = MaterialTable[i].create;
  if (!create) {
    char list[1024];
    FcMaterialTypes(list, sizeof list);
    return FcInputError("material", params->model, "unknown model (registered: %s)", list);
  }
  /* The case validator checks these too; repeated here because λ below is singular at ν = 1/2
   * and a material can be created from code that did not go through the case file. */
  FcCheckInput(PetscIsNormalReal(params->E) && params->E > 0, "material", params->model, "Young's modulus E = %g must be positive", (double)params->E);
  FcCheckInput(params->nu > -1.0 && params->nu < 0.5, "material", params->model, "Poisson's ratio nu = %g must be in (-1, 0.5)", (double)params->nu);
  FcCheckInput(params->density >= 0 && !PetscIsInfOrNanReal(params->density), "material", params->model, "density = %g must be >= 0", (double)params->density);

  PetscCall(PetscNew(&m));
  PetscCall(PetscStrncpy(m->type, params->model, sizeof m->type));
  m->E       = params->E;
  m->nu      = params->nu;
  m->density = params->density;
  /* Lamé parameters of an isotropic solid from Young's modulus and Poisson's ratio. */
  m->lambda  = params->E * params->nu / ((1.0 + params->nu) * (1.0 - 2.0 * params->nu));
  m->mu      = params->E / (2.0 * (1.0 + params->nu));
  PetscCall((*create)(m));
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
