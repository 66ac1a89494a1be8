/* fcsim — a small name → create-function table for pluggable types (materials, contact
 * solvers, ...), PETSc's XXXRegister/XXXRegisterAll shape. A static table rather than a
 * PetscFunctionList: the names are listed in error messages, there are a handful of entries,
 * and nothing is allocated (so -malloc_dump needs no finalize hook). Function pointers are
 * stored as a generic type and cast back by the owning package. */
#ifndef FC_REGISTRY_H
#define FC_REGISTRY_H
#include "fc.h"

#define FC_REGISTRY_MAX 16
typedef void (*FcRegistryFn)(void);

typedef struct {
  const char  *what; /* "material", "contact solver": for messages */
  int          n;
  char         name[FC_REGISTRY_MAX][FC_NAME_LEN];
  FcRegistryFn fn[FC_REGISTRY_MAX];
} FcRegistry;

/* Add or replace (re-registering a name replaces its function, like PetscFunctionListAdd). */
PetscErrorCode FcRegistryAdd(FcRegistry *r, const char *name, FcRegistryFn fn);
/* The function registered under name, or NULL. */
FcRegistryFn FcRegistryFind(const FcRegistry *r, const char *name);
/* "a, b, c" */
void FcRegistryList(const FcRegistry *r, char *buf, size_t len);
void FcRegistryClear(FcRegistry *r);
#endif
