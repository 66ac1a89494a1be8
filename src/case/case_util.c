/* fcsim — helpers the checks and the filling of a case share (case_util.h). */
#include "case_util.h"
#include <string.h>

/* Mesh files are relative to the case file, so a case runs from any working directory. */
PetscErrorCode FcCaseMeshFileResolve(FcSchemaCtx *ctx, const char *file, const char *path, char *out, size_t len)
{
  PetscFunctionBegin;
  if (strlen(ctx->file) + strlen(file) + 1 >= len) return FcInputError(ctx->file, path, "resolved path is too long (more than %zu characters)", len - 1);
  PetscCall(FcPathResolve(ctx->file, file, out, len));
  PetscFunctionReturn(0);
}

/* max|v_k| * sqrt(sum (v_k/max)^2): no overflow for any finite components. */
PetscReal FcCaseNorm3(const PetscReal v[3])
{
  PetscReal m = PetscMax(PetscMax(PetscAbsReal(v[0]), PetscAbsReal(v[1])), PetscAbsReal(v[2])), s = 0;

  if (m == 0) return 0;
  for (int k = 0; k < 3; k++) s += (v[k] / m) * (v[k] / m);
  return m * PetscSqrtReal(s);
}

/* The parameter values of the material object mat (validated: its model is registered), as the
 * plain data the material model reads (src/fem/material.h). */
PetscErrorCode FcCaseMaterialParams(const cJSON *mat, FcMaterialParams *p)
{
  const FcMaterialModel *model;

  PetscFunctionBegin;
  PetscCall(FcMaterialParamsInit(p, Str_Private(mat, "model")));
  model = FcMaterialModelFind(p->model);
  PetscCheck(model, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Material model %s is not registered", p->model);
  for (const FcParamSpec *s = model->params; s->name; s++) {
    const cJSON *v = Get_Private(mat, s->name);
    if (!v) continue;
    if (s->type == FC_PARAM_REAL) PetscCall(FcMaterialParamsSetReal(p, s->name, v->valuedouble));
    else PetscCall(FcMaterialParamsSetChoice(p, s->name, v->valuestring));
  }
  PetscFunctionReturn(0);
}
