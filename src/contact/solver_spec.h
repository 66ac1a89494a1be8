/* fcsim — a contact-solver variant written "type[:key=value]..." (`lemke:k=16`,
 * `uzawa_local:uzawa_rho_local=false`), as `fclib compare --solvers` and `study compare --axis
 * solver=` take it (solver_spec.c). A key is one of the type's options, -fc_contact_solver_<type>_<key>,
 * or a common one, -fc_contact_solver_<key> (tol, max_it, ...): both spellings are set and the
 * type reads its own; a key that neither spelling reads is an unknown key. */
#ifndef FC_CONTACT_SOLVER_SPEC_H
#define FC_CONTACT_SOLVER_SPEC_H
#include "../core/fc.h"

#define FC_SOLVER_SPEC_MAX_KEYS 4

typedef struct {
  char     type[FC_NAME_LEN];
  PetscInt nkeys;
  char     key[FC_SOLVER_SPEC_MAX_KEYS][FC_NAME_LEN];
  char     value[FC_SOLVER_SPEC_MAX_KEYS][FC_NAME_LEN];
  char     option[FC_SOLVER_SPEC_MAX_KEYS][2][2 * FC_NAME_LEN]; /* -fc_contact_solver_<type>_<key>, -fc_contact_solver_<key> */
} FcSolverSpec;

/* Parses spec (its form only; the type is checked by FcSolverSpecCheck): one input-error line
 * "where: what: ..." for an empty type, a part that is not key=value, a key given twice or more
 * than FC_SOLVER_SPEC_MAX_KEYS keys. */
PetscErrorCode FcSolverSpecParse(const char *spec, const char *where, const char *what, FcSolverSpec *s);
/* Puts both spellings of every key into PETSc's options (for one solve), and takes them out. */
PetscErrorCode FcSolverSpecSetOptions(const FcSolverSpec *s);
PetscErrorCode FcSolverSpecClearOptions(const FcSolverSpec *s);
/* After a solver of the spec read its options (with FcSolverSpecSetOptions in place): every key
 * must have been read under one of its spellings, else one input-error line naming the key.
 * which[k] (may be NULL): the spelling that was read, 0 prefixed by the type, 1 common. */
PetscErrorCode FcSolverSpecCheckUsed(const FcSolverSpec *s, const char *spec, const char *where, const char *what, PetscInt which[]);
/* The whole check of a spec without a problem: the type in the registry, the values of its keys
 * (a solve of the empty problem reads and checks every option), every key known. which[] as above. */
PetscErrorCode FcSolverSpecCheck(const char *spec, const char *where, const char *what, FcSolverSpec *s, PetscInt which[]);
#endif
