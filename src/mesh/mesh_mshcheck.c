/* fcsim — the counts of an ASCII MSH file against the lines it holds.
 *
 * Gmsh trusts the counts an ASCII MSH file declares: given an element block that declares 95
 * of the 100 tetrahedra that follow, it reads 95 and drops the rest without a word, and a
 * MSH 2.2 $Nodes count one short crashes it (segmentation fault). So before Gmsh opens the
 * file, the $Nodes and $Elements sections of MSH 2.2 and 4.1 ASCII files are walked line by
 * line, and every count must match the lines present up to the section's $End marker:
 *
 *   MSH 2.2  $Nodes / $Elements: a count line, then one line per node / element;
 *   MSH 4.1  a header "numEntityBlocks numNodes|numElements minTag maxTag", then per block a
 *            header of 4 numbers ending with the block's size, then one line per element,
 *            or, for nodes, one line per node tag and one line per node's coordinates.
 *
 *
 * $PhysicalNames, in every MSH 2.2/4.1 file (its text comes first in binary ones too): at most
 * 50,000 names (Gmsh reads them in quadratic time), and as many lines as declared.
 *
 * Problems Gmsh reports itself (a file that ends inside a section, a missing $End marker, a
 * malformed section header) are left to Gmsh, whose message the existing tests expect.
 * Binary files and other MSH versions are not checked here. */
#include "mesh_impl.h"
#include <stdlib.h>
#include <string.h>

int FcMeshMshHead_Private(const char *file)
{
  char   head[12] = "";
  size_t n;
  int    ch;
  FILE  *fp = fopen(file, "rb");

  if (!fp) return -1;
  while ((ch = fgetc(fp)) != EOF && (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n')) continue;
  if (ch != EOF) {
    head[0]     = (char)ch;
    n           = fread(head + 1, 1, 10, fp);
    head[n + 1] = '\0';
  }
  fclose(fp);
  if (ch == EOF) return -1;
  return strncmp(head, "$MeshFormat", 11) ? 0 : 1;
}

typedef struct {
  FILE       *fp;
  const char *file;
  long        line;     /* number of the line in buf */
  char        buf[256]; /* the line's first characters: only its first fields are looked at */
} LineReader;

/* The next non-blank line, leading blanks removed; NULL at the end of the file. */
static const char *NextLine(LineReader *r)
{
  for (;;) {
    char  *p;
    size_t n;

    if (!fgets(r->buf, sizeof r->buf, r->fp)) return NULL;
    r->line++;
    n = strlen(r->buf);
    if (n && r->buf[n - 1] != '\n') {
      int ch;
      while ((ch = fgetc(r->fp)) != EOF && ch != '\n') continue;
    }
    for (p = r->buf; *p == ' ' || *p == '\t' || *p == '\r'; p++) continue;
    if (*p && *p != '\n') {
      for (char *q = p + strlen(p); q > p && (q[-1] == '\n' || q[-1] == '\r' || q[-1] == ' ' || q[-1] == '\t'); q--) q[-1] = '\0';
      return p;
    }
  }
}

/* Up to max integers of line s; the number read, or -1 if s holds anything else. */
static int Integers(const char *s, long long *v, int max)
{
  int n = 0;

  for (;;) {
    char     *end;
    long long x;

    while (*s == ' ' || *s == '\t') s++;
    if (!*s) return n;
    if (n == max) return -1;
    x = strtoll(s, &end, 10);
    if (end == s || (*end && *end != ' ' && *end != '\t')) return -1;
    v[n++] = x;
    s      = end;
  }
}

static PetscBool IsMarker(const char *s, const char *marker) { return !strcmp(s, marker) ? PETSC_TRUE : PETSC_FALSE; }

/* MSH 2.2: "$Nodes", count line, count lines, "$EndNodes" (the same for elements). */
static PetscErrorCode CheckSection22(LineReader *r, const char *section, const char *what)
{
  char        end[32], at[32];
  const char *s;
  long long   n, m = 0;
  long        count_line;

  PetscFunctionBegin;
  snprintf(end, sizeof end, "$End%s", section + 1);
  if (!(s = NextLine(r)) || Integers(s, &n, 1) != 1 || n < 0) PetscFunctionReturn(0);
  count_line = r->line;
  for (;;) {
    if (!(s = NextLine(r))) PetscFunctionReturn(0); /* truncated: Gmsh says so */
    if (s[0] == '$') {
      if (!IsMarker(s, end)) PetscFunctionReturn(0); /* no end marker: Gmsh says so */
      break;
    }
    m++;
  }
  snprintf(at, sizeof at, "line %ld", count_line);
  if (m != n) return FcInputError(r->file, at, "%s declares %lld %s, but %lld lines follow up to %s (line %ld)", section, n, what, m, end, r->line);
  PetscFunctionReturn(0);
}

/* MSH 4.1: section header, blocks (header + size*per lines), end marker. */
static PetscErrorCode CheckSection41(LineReader *r, const char *section, const char *what, int per)
{
  char        end[32], at[32];
  const char *s;
  long long   h[4], nblocks, total, sum = 0;
  long        header_line, block_line = 0, block_size = 0;

  PetscFunctionBegin;
  snprintf(end, sizeof end, "$End%s", section + 1);
  if (!(s = NextLine(r)) || Integers(s, h, 4) != 4 || h[0] < 0 || h[1] < 0) PetscFunctionReturn(0);
  header_line = r->line;
  nblocks     = h[0];
  total       = h[1];
  for (long long b = 0; b < nblocks; b++) {
    long long v[4];
    int       nv;

    if (!(s = NextLine(r))) PetscFunctionReturn(0);
    if (s[0] == '$') {
      if (!IsMarker(s, end)) PetscFunctionReturn(0);
      snprintf(at, sizeof at, "line %ld", header_line);
      return FcInputError(r->file, at, "%s declares %lld entity blocks, but %s (line %ld) comes after %lld of them", section, nblocks, end, r->line, b);
    }
    nv = Integers(s, v, 4);
    /* entity dimension 0..3, then tag, type (or parametric flag), block size */
    if (nv != 4 || v[0] < 0 || v[0] > 3 || v[3] < 0) {
      if (b == 0) PetscFunctionReturn(0); /* a malformed section: Gmsh says so */
      snprintf(at, sizeof at, "line %ld", block_line);
      return FcInputError(r->file, at, "the entity block declares %ld %s, but more lines follow: line %ld (\"%.40s\") is not the header of the next block",
        block_size, what, r->line, s);
    }
    block_line = r->line;
    block_size = (long)v[3];
    sum += v[3];
    for (long long k = 0; k < per * v[3]; k++) {
      if (!(s = NextLine(r))) PetscFunctionReturn(0);
      if (s[0] == '$') {
        if (!IsMarker(s, end)) PetscFunctionReturn(0);
        snprintf(at, sizeof at, "line %ld", block_line);
        return FcInputError(r->file, at, "the entity block declares %ld %s, but %s (line %ld) comes after %lld lines of it", block_size, what, end, r->line, k);
      }
    }
  }
  if (!(s = NextLine(r))) PetscFunctionReturn(0);
  if (!IsMarker(s, end)) {
    long extra = 0;
    if (s[0] == '$') PetscFunctionReturn(0); /* no end marker: Gmsh says so */
    do extra++;
    while ((s = NextLine(r)) && s[0] != '$');
    if (!s || !IsMarker(s, end)) PetscFunctionReturn(0);
    snprintf(at, sizeof at, "line %ld", nblocks ? block_line : header_line);
    if (nblocks)
      return FcInputError(r->file, at, "the last entity block of %s declares %ld %s, but %ld more lines follow up to %s (line %ld)", section, block_size, what,
        extra, end, r->line);
    return FcInputError(r->file, at, "%s declares no entity blocks, but %ld lines follow up to %s (line %ld)", section, extra, end, r->line);
  }
  if (sum != total) {
    snprintf(at, sizeof at, "line %ld", header_line);
    return FcInputError(r->file, at, "%s declares %lld %s, but its entity blocks hold %lld", section, total, what, sum);
  }
  PetscFunctionReturn(0);
}

/* $PhysicalNames (MSH 2.2 and 4.1, ASCII even in binary files): a count line, then one line
 * per name. Gmsh looks every name it reads up among those read before (GModel::setPhysicalName
 * through getPhysicalNumber, a linear search), so reading n names takes n^2/2 steps: 30,000
 * take 2 s, and a file declaring a million hangs for hours. The count is bounded before
 * anything is read, and must match the lines present. */
#define MSH_MAX_PHYSICAL_NAMES 50000

static PetscErrorCode CheckPhysicalNames(LineReader *r)
{
  const char *s;
  char        at[32];
  long long   n;

  PetscFunctionBegin;
  if (!(s = NextLine(r)) || Integers(s, &n, 1) != 1) PetscFunctionReturn(0); /* Gmsh says so */
  snprintf(at, sizeof at, "line %ld", r->line);
  if (n < 0) return FcInputError(r->file, at, "$PhysicalNames declares %lld names", n);
  if (n > MSH_MAX_PHYSICAL_NAMES)
    return FcInputError(r->file, at, "$PhysicalNames declares %lld names, more than the %d fcsim reads (Gmsh's time to read them grows as their square)", n,
      MSH_MAX_PHYSICAL_NAMES);
  {
    const long count_line = r->line;
    long long  m          = 0;
    for (;;) {
      if (!(s = NextLine(r))) PetscFunctionReturn(0); /* truncated: Gmsh says so */
      if (s[0] == '$') {
        if (!IsMarker(s, "$EndPhysicalNames")) PetscFunctionReturn(0);
        break;
      }
      m++;
    }
    snprintf(at, sizeof at, "line %ld", count_line);
    if (m != n) return FcInputError(r->file, at, "$PhysicalNames declares %lld names, but %lld lines follow up to $EndPhysicalNames (line %ld)", n, m, r->line);
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcMeshCheckMshCounts_Private(const char *file)
{
  LineReader     r;
  const char    *s;
  char           version[16] = "";
  int            type        = -1, v2, v41;
  PetscErrorCode rc          = 0;

  PetscFunctionBegin;
  r.file = file;
  r.line = 0;
  r.fp   = fopen(file, "r");
  if (!r.fp) PetscFunctionReturn(0); /* the caller has checked that it reads */
  /* "$MeshFormat", then "version file-type data-size" */
  if ((s = NextLine(&r)) && IsMarker(s, "$MeshFormat") && (s = NextLine(&r))) {
    if (sscanf(s, "%15s %d", version, &type) != 2) type = -1;
  }
  v2  = type == 0 && version[0] == '2' && version[1] == '.';
  v41 = type == 0 && !strcmp(version, "4.1");
  /* A binary file's $PhysicalNames is text and comes before its binary sections. */
  while (type == 1 && !rc && (s = NextLine(&r))) {
    if (IsMarker(s, "$PhysicalNames")) rc = CheckPhysicalNames(&r);
    else if (s[0] == '$' && !IsMarker(s, "$EndMeshFormat") && !IsMarker(s, "$EndPhysicalNames")) break;
  }
  while ((v2 || v41) && !rc && (s = NextLine(&r))) {
    const char *what = NULL;
    char        section[16];
    if (IsMarker(s, "$PhysicalNames")) {
      rc = CheckPhysicalNames(&r);
      continue;
    }
    if (IsMarker(s, "$Nodes")) what = "nodes";
    else if (IsMarker(s, "$Elements")) what = "elements";
    else continue;
    snprintf(section, sizeof section, "%s", s);
    if (v2) rc = CheckSection22(&r, section, what);
    else rc = CheckSection41(&r, section, what, what[0] == 'n' ? 2 : 1);
  }
  fclose(r.fp);
  PetscCall(rc);
  PetscFunctionReturn(0);
}
