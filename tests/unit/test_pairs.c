/* Unit test of many bodies (issue 13): one body per physical volume of a multi-volume mesh
 * (bodies[i].mesh.volumes, src/case + src/mesh FcMeshLoadVolume), contacts over a group of bodies
 * (contacts[i].bodies, src/case), and the broad phase's candidate pairs (src/model/contact_pairs.c
 * FcContactPairsCandidates over src/collide/broadphase.c), on models built in this process
 * (FcCaseLoad + FcModelCreate + FcContactPairsCreate, as src/run/run.c and the contact step do):
 *
 *  1. the pattern matcher: '*' and '?' against names, anchored at both ends;
 *  2. four unit cubes in one MSH file (physical volumes block_1 … block_4 along x: 1-2 and 3-4
 *     touching, 2-3 0.5 m apart) and a rigid floor plane: the entry with mesh.volumes gives the
 *     four bodies (8 nodes, 6 tetrahedra, volume 1 each), "bodies": ["block_*", "floor"] the
 *     6 + 4 pairs with entry 0, every block the contactor against the floor; with alarm 0.1 m the
 *     candidates in the reference configuration are exactly (1, 2), (3, 4) and the four
 *     block-floor pairs (the plane is unbounded); block 2 moved 0.45 m towards block 3 (0.05 m
 *     apart, within the two alarm inflations) makes (2, 3) a candidate and (1, 2) not; block 4
 *     moved 10 m up leaves (3, 4) out; the passes (issue 29) are made only for those, in index
 *     order, and a pass that stays keeps its state;
 *  3. a wall of 5 blocks in two courses with both passes: the passes made are exactly the pairs
 *     whose boxes meet of the all-pairs list, at the same indices (19 of 25), with 4 twins on the
 *     shared face of blocks 1 and 2; the pairs of a group with rigid bodies among it, computed
 *     from the groups (FcCaseContactAt), are those of the pairs written out.
 *
 * Run it under valgrind --leak-check=full: nothing leaks. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include "testutil.h"

#include "../../src/case/case.h"
#include "../../src/model/body_impl.h" /* white-box: the test reads the bodies' state */
#include "../../src/model/contact_pairs.h"

static char tmpdir[64] = "";

static void TmpPath(char *path, size_t len, const char *name)
{
  const int n = snprintf(path, len, "%s/%s", tmpdir, name);
  assert_true(n > 0 && (size_t)n < len);
}

/* Kuhn's split of a hexahedron (corners 0-3 at z = lo, counter-clockwise seen from +z, 4-7 above
 * them) along its diagonal 0-6: 6 positive tetrahedra for an axis-aligned box. */
// clang-format off
static const int kuhn[6][4] = {
  {0, 1, 2, 6},
  {0, 2, 3, 6},
  {0, 3, 7, 6},
  {0, 7, 4, 6},
  {0, 4, 5, 6},
  {0, 5, 1, 6}
};
// clang-format on

/* MSH 2.2: box k (lo at 6k, hi at 6k + 3) is physical volume k + 1 named block_<k + 1>. */
static void WriteBlocks(const char *name, int n, const double *box)
{
  char  path[PETSC_MAX_PATH_LEN];
  FILE *f;

  TmpPath(path, sizeof path, name);
  f = fopen(path, "w");
  assert_non_null(f);
  fprintf(f, "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$PhysicalNames\n%d\n", n);
  for (int k = 0; k < n; k++) fprintf(f, "3 %d \"block_%d\"\n", k + 1, k + 1);
  fprintf(f, "$EndPhysicalNames\n$Nodes\n%d\n", 8 * n);
  for (int k = 0; k < n; k++) {
    const double *lo = &box[6 * k], *hi = &box[6 * k + 3];
    for (int c = 0; c < 8; c++) {
      const int xi = (c == 1 || c == 2 || c == 5 || c == 6), yi = (c == 2 || c == 3 || c == 6 || c == 7), zi = c >= 4;
      fprintf(f, "%d %.17g %.17g %.17g\n", 8 * k + c + 1, xi ? hi[0] : lo[0], yi ? hi[1] : lo[1], zi ? hi[2] : lo[2]);
    }
  }
  fprintf(f, "$EndNodes\n$Elements\n%d\n", 6 * n);
  for (int k = 0; k < n; k++)
    for (int t = 0; t < 6; t++)
      fprintf(f, "%d 4 2 %d %d %d %d %d %d\n", 6 * k + t + 1, k + 1, k + 1, 8 * k + kuhn[t][0] + 1, 8 * k + kuhn[t][1] + 1, 8 * k + kuhn[t][2] + 1,
        8 * k + kuhn[t][3] + 1);
  fprintf(f, "$EndElements\n");
  fclose(f);
}

static void test_name_match(void **state)
{
  (void)state;
  assert_true(FcCaseNameMatch("block_*", "block_01"));
  assert_true(FcCaseNameMatch("block_*", "block_"));
  assert_true(FcCaseNameMatch("*", "x"));
  assert_true(FcCaseNameMatch("b?ock_*1", "block_11"));
  assert_true(FcCaseNameMatch("*_0*", "block_01"));
  assert_true(FcCaseNameMatch("floor", "floor"));
  assert_false(FcCaseNameMatch("block_*", "blocks_1"));
  assert_false(FcCaseNameMatch("block_?", "block_10"));
  assert_false(FcCaseNameMatch("floor", "floor2"));
  assert_false(FcCaseNameMatch("*1", "block_10"));
}

/* 1 when the pair of blocks (a, b) (1-based, either order) is in the list, 0 when it is not, -1
 * when the case has no such pair; its place in the list is its index's (the list is sorted) */
static int Candidate(const FcCase *c, const FcContactPair *pairs, PetscInt np, PetscInt a, PetscInt b)
{
  int found = -1;
  for (PetscInt i = 0; i < c->ncontacts; i++)
    if ((FcCaseContactAt(c, i).body[0] == a - 1 && FcCaseContactAt(c, i).body[1] == b - 1) ||
      (FcCaseContactAt(c, i).body[0] == b - 1 && FcCaseContactAt(c, i).body[1] == a - 1))
      found = 0;
  for (PetscInt p = 0; p < np; p++) {
    if (p) assert_true(pairs[p].index > pairs[p - 1].index);
    assert_int_equal(pairs[p].casepair, pairs[p].index); /* one pass per pair here */
    assert_int_equal(pairs[p].A, FcCaseContactAt(c, pairs[p].index).body[0]);
    assert_int_equal(pairs[p].B, FcCaseContactAt(c, pairs[p].index).body[1]);
    if ((pairs[p].A == a - 1 && pairs[p].B == b - 1) || (pairs[p].A == b - 1 && pairs[p].B == a - 1)) {
      assert_int_equal(found, 0);
      found = 1;
    }
  }
  return found;
}

static void test_blocks(void **state)
{
  const double   box[4 * 6] = {0, 0, 0, 1, 1, 1, 1, 0, 0, 2, 1, 1, 2.5, 0, 0, 3.5, 1, 1, 3.5, 0, 0, 4.5, 1, 1};
  char           path[PETSC_MAX_PATH_LEN];
  FcCase         c;
  FcModel        m;
  PetscInt       np;
  FcContactPair *pairs;
  FcPairCatalog  cat;
  PetscReal     *X[5];
  (void)state;

  WriteBlocks("blocks.msh", 4, box);
  TmpPath(path, sizeof path, "blocks.json");
  FcTestWriteFile(path,
    "{\"name\": \"blocks\", \"time\": {\"dt\": 1, \"steps\": 1},\n"
    " \"bodies\": [{\"mesh\": {\"file\": \"blocks.msh\", \"volumes\": \"block_*\"},\n"
    "              \"material\": {\"model\": \"linear\", \"E\": 1e7, \"nu\": 0.3, \"density\": 1000}},\n"
    "             {\"name\": \"floor\", \"type\": \"rigid\", \"shape\": {\"type\": \"plane\", \"point\": [0, 0, 0], \"normal\": [0, 0, 1]}}],\n"
    " \"contacts\": [{\"bodies\": [\"block_*\", \"floor\"], \"mu\": 0.5, \"alarm\": 0.1}]}\n");
  CHK(PetscMemzero(&c, sizeof c));
  CHK(FcCaseLoad(path, 0, NULL, &c));
  assert_int_equal(c.nbodies, 5);
  for (int k = 0; k < 4; k++) {
    char want[16];
    snprintf(want, sizeof want, "block_%d", k + 1);
    assert_string_equal(c.bodies[k].name, want);
    assert_string_equal(c.bodies[k].mesh_volume, want);
  }
  assert_string_equal(c.bodies[4].name, "floor");
  assert_int_equal(c.nentries, 1);
  assert_int_equal(c.ncontacts, 10); /* 6 among the blocks, 4 with the floor (contactor: the block) */
  for (PetscInt i = 0; i < c.ncontacts; i++) {
    assert_int_equal(FcCaseContactAt(&c, i).entry, 0);
    assert_true(FcCaseContactAt(&c, i).body[0] < 4);
    assert_true(FcCaseContactAt(&c, i).mu == 0.5 && FcCaseContactAt(&c, i).alarm == 0.1);
  }
  CHK(FcModelCreate(&c, &m));
  for (int k = 0; k < 4; k++) {
    assert_int_equal(m.bodies[k]->mesh.nnodes, 8);
    assert_int_equal(m.bodies[k]->mesh.nelems, 6);
    assert_true(PetscAbsReal(m.bodies[k]->volume - 1) < 1e-14);
    assert_true(PetscAbsReal(m.bodies[k]->mesh.X[0] - box[6 * k]) < 1e-15); /* node 0: its own box's lo corner */
  }
  /* the passes made at t = 0: the pairs whose boxes meet, (1, 2), (3, 4) and the four with the
   * floor, of the 10 pairs (2, 3) 0.5 m apart and (1, 3), (1, 4), (2, 4) further are not made */
  CHK(FcContactPairsCreate(&m, &cat, &np, &pairs));
  assert_int_equal(np, 6);
  assert_int_equal(Candidate(&c, pairs, np, 1, 2), 1);
  assert_int_equal(Candidate(&c, pairs, np, 3, 4), 1);
  assert_int_equal(Candidate(&c, pairs, np, 2, 3), 0);
  assert_int_equal(Candidate(&c, pairs, np, 1, 3), 0);
  assert_int_equal(Candidate(&c, pairs, np, 1, 4), 0);
  assert_int_equal(Candidate(&c, pairs, np, 2, 4), 0);
  for (int k = 1; k <= 4; k++) assert_int_equal(Candidate(&c, pairs, np, k, 5), 1);
  for (int k = 0; k < 4; k++) {
    CHK(PetscMalloc1(3 * 8, &X[k]));
    CHK(PetscArraycpy(X[k], m.bodies[k]->mesh.X, 3 * 8));
  }
  X[4] = NULL; /* the analytic plane: unbounded */
  CHK(FcContactPairsUpdate(&m, cat, X, &np, &pairs));
  assert_int_equal(np, 6);
  assert_int_equal(pairs[1].index, 3);  /* (1, floor): the 4th pair in the group's order */
  CHK(PetscMalloc1(1, &pairs[1].prev)); /* state of a pass that stays: a marker */

  /* block 2 moved 0.45 m towards block 3, block 4 10 m up: (1, 2) and (3, 4) are dropped, (2, 3)
   * made; the floor's pairs stay, with their state */
  for (int i = 0; i < 8; i++) X[1][3 * i] += 0.45; /* block 2 to [1.45, 2.45]: 0.05 from block 3 */
  for (int i = 0; i < 8; i++) X[3][3 * i + 2] += 10;
  CHK(FcContactPairsUpdate(&m, cat, X, &np, &pairs));
  assert_int_equal(np, 5);
  assert_int_equal(Candidate(&c, pairs, np, 1, 2), 0);
  assert_int_equal(Candidate(&c, pairs, np, 2, 3), 1);
  assert_int_equal(Candidate(&c, pairs, np, 3, 4), 0);
  assert_int_equal(Candidate(&c, pairs, np, 4, 5), 1);
  assert_int_equal(pairs[0].index, 3);
  assert_non_null(pairs[0].prev); /* kept (the list is made anew: (1, 2) was before it) */

  for (int k = 0; k < 4; k++) CHK(PetscFree(X[k]));
  CHK(FcContactPairsDestroy(&cat, np, &pairs));
  CHK(FcModelDestroy(&m));
  CHK(FcCaseDestroy(&c));
}

/* The old all-pairs rule, written out: pair i of the case is a candidate when its two bodies'
 * boxes (inflated by the largest alarm of the body's pairs, here the one alarm) meet, a plane's box
 * unbounded. */
static PetscBool BoxesMeet(const double *box, PetscInt a, PetscInt b, PetscInt nblocks, double alarm)
{
  if (a >= nblocks || b >= nblocks) return PETSC_TRUE;
  for (int d = 0; d < 3; d++)
    if (box[6 * a + d] - alarm > box[6 * b + 3 + d] + alarm || box[6 * b + d] - alarm > box[6 * a + 3 + d] + alarm) return PETSC_FALSE;
  return PETSC_TRUE;
}

/* A wall of two courses (3 blocks 1 x 0.5 x 0.5 below, 2 above offset by half a block) on a rigid
 * floor, every pair of blocks in contact with both passes: of the 10 block pairs 7 touch (2 + 1
 * along the courses, 4 across), so the passes made are 7 first and 7 second passes and the 5 with
 * the floor: 19, each the pass the all-pairs list had at that index (BoxesMeet); the second pass
 * of blocks 1 and 2 (one face shared, 4 coincident nodes) has 4 twins. Then the pairs of a group
 * with rigid bodies among it (FcCaseContactAt against the pairs written out in the case's order). */
static void test_wall(void **state)
{
  const double   box[5 * 6] = {0, 0, 0, 1, 0.5, 0.5, 1, 0, 0, 2, 0.5, 0.5, 2, 0, 0, 3, 0.5, 0.5, 0.5, 0.5, 0, 1.5, 1, 0.5, 1.5, 0.5, 0, 2.5, 1, 0.5};
  char           path[PETSC_MAX_PATH_LEN];
  FcCase         c;
  FcModel        m;
  PetscInt       np, k = 0, ntwins = 0;
  FcContactPair *pairs;
  FcPairCatalog  cat;
  (void)state;

  WriteBlocks("wall.msh", 5, box);
  TmpPath(path, sizeof path, "wall.json");
  FcTestWriteFile(path,
    "{\"name\": \"wall\", \"time\": {\"dt\": 1, \"steps\": 1},\n"
    " \"bodies\": [{\"mesh\": {\"file\": \"wall.msh\", \"volumes\": \"block_*\"},\n"
    "              \"material\": {\"model\": \"linear\", \"E\": 1e7, \"nu\": 0.3, \"density\": 1000}},\n"
    "             {\"name\": \"floor\", \"type\": \"rigid\", \"shape\": {\"type\": \"plane\", \"point\": [0, 0, 0], \"normal\": [0, 1, 0]}}],\n"
    " \"contacts\": [{\"bodies\": [\"block_*\"], \"mu\": 0.5, \"alarm\": 0.01, \"both_passes\": true},\n"
    "              {\"pair\": [\"block_*\", \"floor\"], \"mu\": 0.5, \"alarm\": 0.01}]}\n");
  CHK(PetscMemzero(&c, sizeof c));
  CHK(FcCaseLoad(path, 0, NULL, &c));
  assert_int_equal(c.ncontacts, 15);
  CHK(FcModelCreate(&c, &m));
  CHK(FcContactPairsCreate(&m, &cat, &np, &pairs));
  assert_int_equal(np, 19);
  for (PetscInt i = 0; i < c.ncontacts; i++) { /* first passes: index i */
    const FcCaseContact cc = FcCaseContactAt(&c, i);
    if (!BoxesMeet(box, cc.body[0], cc.body[1], 5, 0.01)) continue;
    assert_true(k < np);
    assert_int_equal(pairs[k].index, i);
    assert_false(pairs[k].reverse);
    k++;
  }
  assert_int_equal(k, 12);
  for (PetscInt i = 0; i < 10; i++) { /* second passes of the group's 10 pairs: index 15 + i */
    const FcCaseContact cc = FcCaseContactAt(&c, i);
    if (!BoxesMeet(box, cc.body[0], cc.body[1], 5, 0.01)) continue;
    assert_int_equal(pairs[k].index, 15 + i);
    assert_true(pairs[k].reverse);
    assert_int_equal(pairs[k].A, cc.body[1]);
    assert_int_equal(pairs[pairs[k].partner].index, i);
    if (i == 0)
      for (PetscInt b = 0; b < 8; b++) ntwins += pairs[k].twin[b] >= 0;
    k++;
  }
  assert_int_equal(k, np);
  assert_int_equal(ntwins, 4);
  CHK(FcContactPairsDestroy(&cat, np, &pairs));
  CHK(FcModelDestroy(&m));
  CHK(FcCaseDestroy(&c));

  /* a group with rigid bodies among it: every pair but floor-side, in the order x < y of the list,
   * the deformable body (the earlier of two) the contactor */
  TmpPath(path, sizeof path, "mixed.json");
  FcTestWriteFile(path,
    "{\"name\": \"mixed\", \"time\": {\"dt\": 1, \"steps\": 1},\n"
    " \"bodies\": [{\"mesh\": {\"file\": \"wall.msh\", \"volumes\": \"block_*\"},\n"
    "              \"material\": {\"model\": \"linear\", \"E\": 1e7, \"nu\": 0.3, \"density\": 1000}},\n"
    "             {\"name\": \"floor\", \"type\": \"rigid\", \"shape\": {\"type\": \"plane\", \"point\": [0, 0, 0], \"normal\": [0, 1, 0]}},\n"
    "             {\"name\": \"side\", \"type\": \"rigid\", \"shape\": {\"type\": \"plane\", \"point\": [-1, 0, 0], \"normal\": [1, 0, 0]}}],\n"
    " \"contacts\": [{\"bodies\": [\"floor\", \"block_1\", \"block_2\", \"side\", \"block_3\", \"block_4\", \"block_5\"], \"mu\": 0.5}]}\n");
  CHK(PetscMemzero(&c, sizeof c));
  CHK(FcCaseLoad(path, 0, NULL, &c));
  {
    const PetscInt list[7] = {5, 0, 1, 6, 2, 3, 4};
    PetscInt       i       = 0;
    assert_int_equal(c.ncontacts, 21 - 1); /* 7 bodies: 21 pairs, floor-side left out */
    for (int x = 0; x < 7; x++)
      for (int y = x + 1; y < 7; y++) {
        const PetscBool rx = list[x] >= 5, ry = list[y] >= 5;
        FcCaseContact   cc;
        if (rx && ry) continue;
        cc = FcCaseContactAt(&c, i++);
        assert_int_equal(cc.body[0], rx ? list[y] : list[x]);
        assert_int_equal(cc.body[1], rx ? list[x] : list[y]);
        assert_int_equal(cc.entry, 0);
      }
    assert_int_equal(i, c.ncontacts);
  }
  CHK(FcCaseDestroy(&c));
}

static int MakeTmpdir(void **state)
{
  (void)state;
  snprintf(tmpdir, sizeof tmpdir, "/tmp/fcsim_test_pairs_XXXXXX");
  return mkdtemp(tmpdir) ? 0 : -1;
}

static int RemoveTmpdir(void **state)
{
  (void)state;
  if (tmpdir[0]) FcTestRemoveTree(tmpdir);
  return 0;
}

static PetscErrorCode Register(void)
{
  PetscFunctionBegin;
  PetscCall(FcMaterialRegisterAll());
  PetscFunctionReturn(0);
}

static PetscErrorCode Finalize(void)
{
  PetscFunctionBegin;
  PetscCall(FcMeshFinalizePackage());
  PetscCall(FcMaterialFinalizePackage());
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  // clang-format off
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_name_match),
    cmocka_unit_test(test_blocks),
    cmocka_unit_test(test_wall),
  };
  // clang-format on

  return FcTestRun(&argc, &argv, "tests", tests, sizeof tests / sizeof tests[0], MakeTmpdir, RemoveTmpdir, Register, Finalize);
}
