/* fcsim — an HDF5 file fcsim reads names only itself, and declares no more data than it holds.
 *
 * HDF5 lets a file refer to data elsewhere: an external link (a link to an object in another
 * file), a user-defined link (resolved by a registered callback), a dataset with external
 * storage (its bytes are read from a named raw file, e.g. /etc/passwd) and a virtual dataset
 * (its elements are mapped from datasets of other files). A shared FCLIB file built that way
 * makes fcsim read, and report on, files its user never named. And a dataset's header declares
 * its size: a few kilobytes of deflated zeros may declare gigabytes, which a reader allocates
 * whole. FcH5CheckFile visits every link of an open file (H5Lvisit, which does not follow soft
 * or external links) before any dataset is read, and refuses all of these as input errors
 * "FILE: /path: message" naming the object and what it points to (doc/contact.md "FCLIB").
 *
 * The size bound: a dataset may declare at most FC_H5_MAX_RATIO times the bytes it stores, plus
 * FC_H5_SLACK. FC_H5_MAX_RATIO = 1032 is deflate's largest compression ratio (a 258-byte match
 * costs at least 2 bits: 258 × 8 / 2 = 1032; zlib's "technical details" page), so no dataset
 * compressed by deflate alone — what FCLIB writers use, with shuffle or not — is refused,
 * whatever it holds, while a 6 KB file can make fcsim read at most a few megabytes. The slack
 * (64 KiB, HDF5's limit for compact storage) admits the small datasets (sizes, strings) whose
 * storage overhead exceeds their data, and datasets that were never written (read as their fill
 * value). The stored bytes themselves must fit in the file. */
#ifndef FC_IO_H5CHECK_H
#define FC_IO_H5CHECK_H
#include "../core/fc.h"
#include <hdf5.h>

#define FC_H5_MAX_RATIO 1032.0
#define FC_H5_SLACK     65536.0

/* fid: the open file; file: its name as the user gave it (for messages); filesize: its size in
 * bytes (FcInputFileCheck). HDF5's error printing should be off (the caller's). */
PetscErrorCode FcH5CheckFile(hid_t fid, const char *file, PetscInt64 filesize);
/* The same check, quiet: PETSC_FALSE when the file would be refused (for a file fcsim wrote
 * itself and reads for information only, where a refusal is no error: study refine's runs). */
PetscBool FcH5FileIsSafe(hid_t fid, PetscInt64 filesize);
#endif
