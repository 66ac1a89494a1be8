/* fcsim unit tests — small helpers shared by the cmocka programs (header only; include after
 * <cmocka.h>): deterministic random numbers and capture of stderr, so that a test can assert the
 * one-line message of an input error. */
#ifndef FC_TESTUTIL_H
#define FC_TESTUTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* splitmix64 (Steele, Lea & Flood 2014): reproducible uniform numbers in [a, b) from *state. */
static inline double FcTestUniform(uint64_t *state, double a, double b)
{
  uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
  z          = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z          = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return a + (b - a) * ((double)(z >> 11) / 9007199254740992.0);
}

/* stderr redirected into a temporary file between Start and Stop (dup/dup2). */
typedef struct {
  int  saved;
  char path[64];
} FcTestCapture;

static inline void FcTestCaptureStart(FcTestCapture *c)
{
  int tmp;
  fflush(stderr);
  snprintf(c->path, sizeof c->path, "/tmp/fcsim_test_XXXXXX");
  tmp = mkstemp(c->path);
  assert_true(tmp >= 0);
  c->saved = dup(2);
  assert_true(c->saved >= 0);
  assert_true(dup2(tmp, 2) >= 0);
  close(tmp);
}

/* Restore stderr and return what was written (NUL-terminated, at most len - 1 bytes). */
static inline void FcTestCaptureStop(FcTestCapture *c, char *buf, size_t len)
{
  FILE  *fp;
  size_t n;
  fflush(stderr);
  assert_true(dup2(c->saved, 2) >= 0);
  close(c->saved);
  fp = fopen(c->path, "r");
  assert_non_null(fp);
  n      = fread(buf, 1, len - 1, fp);
  buf[n] = 0;
  fclose(fp);
  unlink(c->path);
}

static inline int FcTestCountLines(const char *s)
{
  int n = 0;
  for (; *s; s++)
    if (*s == '\n') n++;
  return n;
}

#endif
