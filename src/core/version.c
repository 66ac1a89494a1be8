/* fcsim — version string, from `git describe` at build time (Makefile). */
#include "fc.h"
#ifndef FCSIM_VERSION
#define FCSIM_VERSION "unknown"
#endif
const char *FcVersion(void) { return FCSIM_VERSION; }
