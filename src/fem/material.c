/* fcsim — material registry: name → create function, PETSc style (XXXRegister /
 * XXXRegisterAll / XXXCreate), so a new constitutive law is one file plus one
 * FcMaterialRegister() line (the table is src/core/registry.h). */
#include "material.h"
#include "../core/registry.h"
#include <string.h>

static FcRegistry MaterialRegistry          = {.what = "material"};
static PetscBool  MaterialRegisterAllCalled = PETSC_FALSE;

PetscErrorCode FcMaterialRegister(const char *name, PetscErrorCode (*create)(FcMaterial))
{
  PetscFunctionBegin;
  PetscCall(FcRegistryAdd(&MaterialRegistry, name, (FcRegistryFn)create));
  PetscFunctionReturn(0);
}

PetscErrorCode FcMaterialRegisterAll(void)
{
  PetscFunctionBegin;
  if (MaterialRegisterAllCalled) PetscFunctionReturn(0);
  MaterialRegisterAllCalled = PETSC_TRUE;
  PetscCall(FcMaterialRegister("linear", FcMaterialCreate_Linear));
  PetscCall(FcMaterialRegister("corotational", FcMaterialCreate_Corotational));
  PetscCall(FcMaterialRegister("corotational_lagged", FcMaterialCreate_CorotationalLagged));
  PetscCall(FcMaterialRegister("stvk", FcMaterialCreate_StVK));
  PetscCall(FcMaterialRegister("neohookean", FcMaterialCreate_NeoHookean));
  PetscCall(FcMaterialRegister("mooney_rivlin", FcMaterialCreate_MooneyRivlin));
  PetscFunctionReturn(0);
}

PetscErrorCode FcMaterialFinalizePackage(void)
{
  PetscFunctionBegin;
  FcRegistryClear(&MaterialRegistry);
  MaterialRegisterAllCalled = PETSC_FALSE;
  PetscFunctionReturn(0);
}

void FcMaterialTypes(char *buf, size_t len)
{
  FcRegistryList(&MaterialRegistry, buf, len);
}

PetscErrorCode FcMaterialCreate(const FcCaseMaterial *params, FcMaterial *mat)
{
  PetscErrorCode (*create)(FcMaterial) = NULL;
  FcMaterial m;

  PetscFunctionBegin;
  *mat = NULL;
  PetscCall(FcMaterialRegisterAll());
  create = (PetscErrorCode(*)(FcMaterial))FcRegistryFind(&MaterialRegistry, params->model);
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
  /* bulk modulus: given (mooney_rivlin) or of E, ν; code that builds params by hand may leave 0 */
  m->kappa      = params->kappa > 0 ? params->kappa : params->E / (3.0 * (1.0 - 2.0 * params->nu));
  m->C10        = params->C10;
  m->C01        = params->C01;
  m->volumetric = params->volumetric;
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
