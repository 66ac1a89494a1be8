/* fcsim — JSON plumbing for the case module (internal to src/case/): reading a file with
 * line/column syntax errors, rejecting duplicate keys, and applying --set PATH=VALUE. */
#ifndef FC_CASE_JSON_H
#define FC_CASE_JSON_H

#include "../core/fc.h"
#include <cjson/cJSON.h>

/* Route cJSON's allocations through PetscMalloc/PetscFree between Push and Pop, so that
 * -malloc_debug / -malloc_dump see a JSON tree that was not freed. Pop restores cJSON's
 * defaults (malloc/free); nothing allocated in between may outlive the Pop. */
void FcJsonHooksPush(void);
void FcJsonHooksPop(void);

/* Read and parse `file`; the root is any JSON value. Unreadable file, syntax error (with line
 * and column) and a string holding U+0000 (\u0000, at its JSON path) are input errors; after
 * the last one *root is set all the same, and the caller deletes it. */
PetscErrorCode FcJsonReadFile(const char *file, cJSON **root);

/* Input error "FILE: PATH: <prefix>duplicate key "x"" for the first object under `item`
 * (whose path is `path`) holding a key twice. */
PetscErrorCode FcJsonCheckDuplicates(const char *file, const cJSON *item, const char *path, const char *prefix);

/* Apply one "PATH=VALUE" override to the tree (see doc/case-format.md, "Overrides"). Errors
 * are reported as "FILE: PATH: --set: reason", PATH escaped (FcSchemaEscape). */
PetscErrorCode FcJsonApplySet(const char *file, cJSON *root, const char *set);

#endif
