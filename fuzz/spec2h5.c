/* fcsim fuzzing — build an HDF5 file from an FCLIB target description (fclib_spec.h):
 *     build-fuzz/spec2h5 SPEC.txt OUT.hdf5
 * Used to make the binary seeds of fuzz/corpus/fclib/ (HDF5's default, oldest file format:
 * no metadata checksums, so that mutations of the binary reach past HDF5's checks), and to turn
 * a text reproducer into a file for `fcsim fclib solve`. */
#include "fclib_spec.h"
#include <stdio.h>

int main(int argc, char **argv)
{
  FILE  *f;
  char  *buf = NULL;
  size_t n = 0, cap = 0, got;

  if (argc != 3) {
    fprintf(stderr, "usage: spec2h5 SPEC.txt OUT.hdf5\n");
    return 2;
  }
  if (!(f = fopen(argv[1], "rb"))) {
    perror(argv[1]);
    return 2;
  }
  do {
    if (n == cap && !(buf = realloc(buf, cap = cap ? 2 * cap : 65536))) return 1;
    got = fread(buf + n, 1, cap - n, f);
    n += got;
  } while (got);
  fclose(f);
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  if (FzSpecBuild((const uint8_t *)buf, n, argv[2])) {
    fprintf(stderr, "spec2h5: cannot create %s\n", argv[2]);
    return 1;
  }
  free(buf);
  return 0;
}
