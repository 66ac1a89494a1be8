/* fcsim — registry of pluggable types (registry.h). */
#include "registry.h"
#include <string.h>

PetscErrorCode FcRegistryAdd(FcRegistry *r, const char *name, FcRegistryFn fn)
{
  PetscFunctionBegin;
  PetscCheck(name && name[0] && fn, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "A %s needs a name and a create function", r->what);
  PetscCheck(strlen(name) < FC_NAME_LEN, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "%s name too long: %s", r->what, name);
  for (int i = 0; i < r->n; i++)
    if (!strcmp(r->name[i], name)) {
      r->fn[i] = fn;
      PetscFunctionReturn(0);
    }
  PetscCheck(r->n < FC_REGISTRY_MAX, PETSC_COMM_SELF, PETSC_ERR_MEM, "Too many %s types (at most %d)", r->what, FC_REGISTRY_MAX);
  PetscCall(PetscStrncpy(r->name[r->n], name, FC_NAME_LEN));
  r->fn[r->n++] = fn;
  PetscFunctionReturn(0);
}

FcRegistryFn FcRegistryFind(const FcRegistry *r, const char *name)
{
  for (int i = 0; name && i < r->n; i++)
    if (!strcmp(r->name[i], name)) return r->fn[i];
  return NULL;
}

void FcRegistryList(const FcRegistry *r, char *buf, size_t len)
{
  size_t n = 0;

  if (!buf || !len) return;
  buf[0] = 0;
  for (int i = 0; i < r->n && n < len; i++) {
    int k = snprintf(buf + n, len - n, "%s%s", i ? ", " : "", r->name[i]);
    if (k < 0) break;
    n += (size_t)k;
  }
}

void FcRegistryClear(FcRegistry *r) { r->n = 0; }
