/* fcsim — unit tests of the mesh module (src/mesh): loading through libgmsh, boundary faces,
 * physical groups, geometry, and the input errors of tests/bad/mesh/MANIFEST.
 *
 * Run from the repository root (or set FCSIM_ROOT). The small .msh files in tests/data/ were
 * generated from meshes/cube.geo with the gmsh CLI:
 *   gmsh -3 meshes/cube.geo -format msh22 -o tests/data/cube_v22.msh
 *   gmsh -3 meshes/cube.geo -format msh41 -o tests/data/cube_v41.msh
 *   gmsh -3 meshes/cube.geo -format msh41 -bin -o tests/data/cube_v41_bin.msh
 *   gmsh -3 -order 2 meshes/cube.geo -format msh41 -o tests/data/cube_o2_v41.msh
 * tests/data/curved_tet10.msh is hand-written: one tet10 whose nodes sample the quadratic map
 * x = (xi + a eta^2, eta + a zeta^2, zeta + a xi^2), a = 0.3, of the reference tetrahedron;
 * det(dx/dxi) = 1 + 8 a^3 xi eta zeta, so its volume is 1/6 + a^3/90 exactly. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "../../src/mesh/mesh.h"
#include "testutil.h"

static char root[PETSC_MAX_PATH_LEN] = ".";

/* rel relative to the repository root (absolute paths are kept). */
static void Path(char *out, size_t len, const char *rel)
{
  const int n = rel[0] == '/' ? snprintf(out, len, "%s", rel) : snprintf(out, len, "%s/%s", root, rel);
  assert_true(n > 0 && (size_t)n < len);
}

/* Load rel (relative to the root), asserting success and a silent load. */
static void Load(const char *rel, PetscInt refine, PetscInt order, FcMesh *mesh)
{
  char           file[PETSC_MAX_PATH_LEN], out[4096], err[4096];
  FcTestCapture  co, ce;
  PetscErrorCode rc;

  Path(file, sizeof file, rel);
  FcTestCaptureFd(&co, STDOUT_FILENO);
  FcTestCaptureFd(&ce, STDERR_FILENO);
  rc = FcMeshLoad(file, refine, order, mesh);
  FcTestCaptureStop(&ce, err, sizeof err);
  FcTestCaptureStop(&co, out, sizeof out);
  if (rc) fprintf(stderr, "loading %s failed: %s\n", file, err);
  assert_int_equal(rc, 0);
  /* Gmsh must print nothing on success. */
  assert_string_equal(out, "");
  assert_string_equal(err, "");
}

/* A per-process scratch .geo name (tests may run concurrently). */
static void TmpGeo(char *out, size_t len, const char *what)
{
  const int n = snprintf(out, len, "/tmp/fcsim_test_mesh_%d_%s.geo", (int)getpid(), what);
  assert_true(n > 0 && (size_t)n < len);
}

static PetscReal Volume(const FcMesh *m)
{
  PetscReal v = -1;
  CHK(FcMeshVolume(m, &v));
  return v;
}

static PetscReal BoundaryArea(const FcMesh *m)
{
  PetscInt *all;
  PetscReal a = -1;
  CHK(PetscMalloc1(m->nbfaces, &all));
  for (PetscInt f = 0; f < m->nbfaces; f++) all[f] = f;
  CHK(FcMeshFacesArea(m, m->nbfaces, all, &a));
  CHK(PetscFree(all));
  return a;
}

/* Largest distance of a tet10 mid-edge node from the midpoint of its edge in the ordering
 * 01,12,20,30,32,31 (0 for straight-sided elements in that ordering). */
static PetscReal MidEdgeDeviation(const FcMesh *m)
{
  PetscReal worst = 0;
  for (PetscInt e = 0; e < m->nelems; e++) {
    const PetscInt *c = m->conn + e * m->npe;
    for (PetscInt k = 0; k < 6; k++)
      for (PetscInt i = 0; i < 3; i++) {
        const PetscReal mid = 0.5 * (m->X[3 * c[FcTestGmshTetEdges[k][0]] + i] + m->X[3 * c[FcTestGmshTetEdges[k][1]] + i]);
        worst               = PetscMax(worst, PetscAbsReal(m->X[3 * c[4 + k] + i] - mid));
      }
  }
  return worst;
}

/* ---- tests ---- */

static void test_cube_volume_area(void **state)
{
  PetscReal dv = 0, da = 0;
  (void)state;
  for (PetscInt order = 1; order <= 2; order++)
    for (PetscInt refine = 0; refine <= 1; refine++) {
      FcMesh    m;
      PetscReal v, a;
      Load("meshes/cube.geo", refine, order, &m);
      v = Volume(&m);
      a = BoundaryArea(&m);
      printf("  cube.geo order %d refine %d: %5d nodes %5d elements %4d boundary faces, volume-1 = %+.1e, area-6 = %+.1e\n", (int)order, (int)refine,
        (int)m.nnodes, (int)m.nelems, (int)m.nbfaces, (double)(v - 1), (double)(a - 6));
      assert_int_equal(m.order, order);
      assert_int_equal(m.npe, order == 1 ? 4 : 10);
      assert_int_equal(m.npf, order == 1 ? 3 : 6);
      assert_true(PetscAbsReal(v - 1) <= 1e-12);
      assert_true(PetscAbsReal(a - 6) <= 1e-12);
      dv = PetscMax(dv, PetscAbsReal(v - 1));
      da = PetscMax(da, PetscAbsReal(a - 6));
      CHK(FcMeshDestroy(&m));
    }
  printf("FIGURE mesh: unit cube (.geo, tet4/tet10, refine 0/1): |volume-1| <= %.1e, |boundary area-6| <= %.1e\n", (double)dv, (double)da);
}

/* Every boundary face points away from the cube centre, its owner lies behind it, and its
 * 6-node form has the mid-edge nodes 01,12,20 at the edge midpoints. */
static void test_boundary_orientation(void **state)
{
  (void)state;
  for (PetscInt order = 1; order <= 2; order++) {
    FcMesh    m;
    PetscReal worst_mid = 0;
    Load("meshes/cube.geo", 1, order, &m);
    for (PetscInt f = 0; f < m.nbfaces; f++) {
      const PetscInt  *q = m.bfaces + f * m.npf, *c = m.conn + m.bface_elem[f] * m.npe;
      const PetscReal *x0 = m.X + 3 * q[0], *x1 = m.X + 3 * q[1], *x2 = m.X + 3 * q[2];
      PetscReal        u[3], w[3], n[3], mid[3], out = 0, inside = 0, cen[3] = {0, 0, 0};
      PetscInt         opp = -1, shared = 0;

      for (PetscInt i = 0; i < 3; i++) {
        u[i]   = x1[i] - x0[i];
        w[i]   = x2[i] - x0[i];
        mid[i] = (x0[i] + x1[i] + x2[i]) / 3;
      }
      n[0] = u[1] * w[2] - u[2] * w[1];
      n[1] = u[2] * w[0] - u[0] * w[2];
      n[2] = u[0] * w[1] - u[1] * w[0];
      for (PetscInt i = 0; i < 3; i++) out += n[i] * (mid[i] - 0.5);
      assert_true(out > 0);
      /* The owner's fourth corner is on the inner side of the face. */
      for (PetscInt a = 0; a < 4; a++) {
        PetscBool on = PETSC_FALSE;
        for (PetscInt j = 0; j < 3; j++)
          if (c[a] == q[j]) on = PETSC_TRUE;
        if (on) shared++;
        else opp = c[a];
      }
      assert_int_equal(shared, 3);
      for (PetscInt i = 0; i < 3; i++) inside += n[i] * (m.X[3 * opp + i] - x0[i]);
      assert_true(inside < 0);
      /* Boundary faces of the cube lie on its faces. */
      for (PetscInt i = 0; i < 3; i++) cen[i] = PetscMin(PetscAbsReal(mid[i]), PetscAbsReal(mid[i] - 1));
      assert_true(PetscMin(cen[0], PetscMin(cen[1], cen[2])) < 1e-14);
      if (m.npf == 6)
        for (PetscInt k = 0; k < 3; k++)
          for (PetscInt i = 0; i < 3; i++)
            worst_mid = PetscMax(worst_mid, PetscAbsReal(m.X[3 * q[3 + k] + i] - 0.5 * (m.X[3 * q[k] + i] + m.X[3 * q[(k + 1) % 3] + i])));
    }
    assert_true(worst_mid < 1e-12); /* Gmsh places them through the geometry: ~1e-14 */
    CHK(FcMeshDestroy(&m));
  }
}

/* Gmsh tet10 ordering: vertices 0-3 then edges 01,12,20,30,32,31. Checked on straight tet10
 * meshes made by Gmsh (a .msh written by `gmsh -order 2`) and by our setOrder conversion. */
static void test_tet10_ordering(void **state)
{
  const char *files[] = {"tests/data/cube_o2_v41.msh", "meshes/cube.geo", "tests/data/cube_v22.msh"};
  (void)state;
  for (int i = 0; i < 3; i++) {
    FcMesh    m;
    PetscReal dev;
    Load(files[i], 0, 2, &m);
    dev = MidEdgeDeviation(&m);
    printf("  %s as tet10: largest mid-edge node distance from its edge midpoint %.1e\n", files[i], (double)dev);
    assert_true(dev < 1e-12);
    CHK(FcMeshDestroy(&m));
  }
}

static void test_groups(void **state)
{
  static const char *names[6] = {"xmin", "xmax", "ymin", "ymax", "zmin", "zmax"};
  FcMesh             m;
  const FcMeshGroup *g, *h;
  PetscInt           nfaces = 0;
  PetscReal          a;
  char               list[1024];
  (void)state;

  for (PetscInt order = 1; order <= 2; order++) {
    Load("meshes/cube.geo", 1, order, &m);
    assert_int_equal(m.ngroups, 7);
    nfaces = 0;
    for (PetscInt k = 0; k < 6; k++) {
      const PetscInt  axis = k / 2;
      const PetscReal side = k % 2;
      char            tag[8];

      CHK(FcMeshFindGroup(&m, names[k], 2, &g));
      assert_non_null(g);
      assert_int_equal(g->dim, 2);
      assert_int_equal(g->tag, k + 1);
      snprintf(tag, sizeof tag, "%d", (int)(k + 1));
      CHK(FcMeshFindGroup(&m, tag, -1, &h));
      assert_ptr_equal(g, h);
      CHK(FcMeshFacesArea(&m, g->nfaces, g->faces, &a));
      assert_true(PetscAbsReal(a - 1) <= 1e-12);
      nfaces += g->nfaces;
      /* Every node of the group (mid-edge nodes included) is on that side, and every node
       * on that side is in the group. */
      for (PetscInt i = 0; i < g->nnodes; i++) assert_true(PetscAbsReal(m.X[3 * g->nodes[i] + axis] - side) < 1e-14);
      {
        PetscInt on = 0;
        for (PetscInt n = 0; n < m.nnodes; n++)
          if (PetscAbsReal(m.X[3 * n + axis] - side) < 1e-14) on++;
        assert_int_equal(on, g->nnodes);
      }
      for (PetscInt i = 1; i < g->nnodes; i++) assert_true(g->nodes[i - 1] < g->nodes[i]);
      for (PetscInt i = 1; i < g->nfaces; i++) assert_true(g->faces[i - 1] < g->faces[i]);
      if (order == 1 && k == 1)
        printf("  cube.geo refine 1: xmax by name and by tag \"2\": %d faces, %d nodes, area %.15f\n", (int)g->nfaces, (int)g->nnodes, (double)a);
    }
    /* The six sides cover the boundary exactly once. */
    assert_int_equal(nfaces, m.nbfaces);
    CHK(FcMeshFindGroup(&m, "cube", 3, &g));
    assert_non_null(g);
    assert_int_equal(g->nelems, m.nelems);
    assert_int_equal(g->nnodes, m.nnodes);
    assert_int_equal(g->nfaces, 0);
    CHK(FcMeshFindGroup(&m, "7", -1, &h));
    assert_ptr_equal(g, h);
    CHK(FcMeshFindGroup(&m, "xmax", 3, &g)); /* wrong dimension */
    assert_null(g);
    CHK(FcMeshFindGroup(&m, "nonexistent", -1, &g));
    assert_null(g);
    CHK(FcMeshFindGroup(&m, "8", -1, &g));
    assert_null(g);
    FcMeshGroupList(&m, list, sizeof list);
    if (order == 1) printf("  groups: %s\n", list);
    assert_string_equal(list,
      "xmin (dim 2, tag 1), xmax (dim 2, tag 2), ymin (dim 2, tag 3), ymax (dim 2, tag 4), zmin (dim 2, tag 5), zmax (dim 2, tag 6), cube (dim 3, tag 7)");
    FcMeshGroupList(&m, list, 30);
    assert_int_equal(strlen(list), 29);
    assert_string_equal(list + 26, "...");
    CHK(FcMeshDestroy(&m));
  }

  /* The beam: lengthwise 20 elements at refine 0. */
  Load("meshes/beam.geo", 0, 1, &m);
  CHK(FcMeshFindGroup(&m, "tip", 2, &g));
  assert_non_null(g);
  CHK(FcMeshFacesArea(&m, g->nfaces, g->faces, &a));
  assert_true(PetscAbsReal(a - 0.01) <= 1e-14);
  CHK(FcMeshFindGroup(&m, "top", 2, &g));
  assert_non_null(g);
  CHK(FcMeshFacesArea(&m, g->nfaces, g->faces, &a));
  assert_true(PetscAbsReal(a - 0.1) <= 1e-14);
  {
    PetscInt along = 0; /* nodes on the edge y = z = 0 */
    for (PetscInt n = 0; n < m.nnodes; n++)
      if (m.X[3 * n + 1] == 0 && m.X[3 * n + 2] == 0) along++;
    printf("  beam.geo refine 0: %d nodes, %d elements, %d nodes along an edge, volume %.15f\n", (int)m.nnodes, (int)m.nelems, (int)along, (double)Volume(&m));
    assert_int_equal(along, 21);
  }
  assert_true(PetscAbsReal(Volume(&m) - 0.01) < 1e-15);
  CHK(FcMeshFindGroup(&m, "beam", -1, &g));
  assert_non_null(g);
  assert_int_equal(g->nelems, m.nelems);
  CHK(FcMeshDestroy(&m));
}

static void test_formats(void **state)
{
  const char *files[] = {"tests/data/cube_v22.msh", "tests/data/cube_v41.msh", "tests/data/cube_v41_bin.msh", "meshes/cube.geo"};
  FcMesh      ref;
  (void)state;

  Load(files[0], 0, 1, &ref);
  for (int i = 0; i < 4; i++) {
    FcMesh    m;
    PetscReal dx = 0;
    Load(files[i], 0, 1, &m);
    assert_int_equal(m.nnodes, ref.nnodes);
    assert_int_equal(m.nelems, ref.nelems);
    assert_int_equal(m.nbfaces, ref.nbfaces);
    assert_int_equal(m.ngroups, ref.ngroups);
    for (PetscInt k = 0; k < 3 * m.nnodes; k++) dx = PetscMax(dx, PetscAbsReal(m.X[k] - ref.X[k]));
    for (PetscInt k = 0; k < m.nelems * m.npe; k++) assert_int_equal(m.conn[k], ref.conn[k]);
    for (PetscInt k = 0; k < m.nnodes; k++) assert_int_equal(m.node_id[k], ref.node_id[k]);
    for (PetscInt k = 0; k < m.nelems; k++) assert_int_equal(m.elem_id[k], ref.elem_id[k]);
    for (PetscInt k = 0; k < m.ngroups; k++) {
      assert_string_equal(m.groups[k].name, ref.groups[k].name);
      assert_int_equal(m.groups[k].nfaces, ref.groups[k].nfaces);
      assert_int_equal(m.groups[k].nnodes, ref.groups[k].nnodes);
    }
    printf("  %-28s %d nodes %d elements %d groups, volume-1 = %+.1e, max |dX| vs msh 2.2 = %.1e\n", files[i], (int)m.nnodes, (int)m.nelems, (int)m.ngroups,
      (double)(Volume(&m) - 1), (double)dx);
    assert_true(dx < 1e-15);
    assert_true(PetscAbsReal(Volume(&m) - 1) <= 1e-12);
    CHK(FcMeshDestroy(&m));
  }
  printf("FIGURE mesh: msh 2.2 ASCII, msh 4.1 ASCII, msh 4.1 binary and .geo load identically: %d nodes, %d elements, %d boundary faces, %d groups\n",
    (int)ref.nnodes, (int)ref.nelems, (int)ref.nbfaces, (int)ref.ngroups);
  CHK(FcMeshDestroy(&ref));
}

/* Uniform subdivision of a .msh: exactly 8 tetrahedra per tetrahedron and level. */
static void test_refine_msh(void **state)
{
  PetscInt prev = 0, counts[3];
  (void)state;
  for (PetscInt r = 0; r <= 2; r++) {
    FcMesh    m;
    PetscReal a;
    Load("tests/data/cube_v41.msh", r, 1, &m);
    printf("  cube_v41.msh refine %d: %6d elements (x%.2f), %5d nodes\n", (int)r, (int)m.nelems, prev ? (double)m.nelems / prev : 1.0, (int)m.nnodes);
    if (prev) assert_int_equal(m.nelems, 8 * prev);
    prev = counts[r] = m.nelems;
    assert_true(PetscAbsReal(Volume(&m) - 1) <= 1e-12);
    assert_true(PetscAbsReal(BoundaryArea(&m) - 6) <= 1e-12);
    {
      const FcMeshGroup *g;
      CHK(FcMeshFindGroup(&m, "zmax", 2, &g));
      assert_non_null(g);
      CHK(FcMeshFacesArea(&m, g->nfaces, g->faces, &a));
      assert_true(PetscAbsReal(a - 1) <= 1e-12);
    }
    CHK(FcMeshDestroy(&m));
  }
  {
    /* A tet10 file refined: 8 tets per tet10 (split through its mid-edge nodes), then
     * brought back to order 2. */
    FcMesh m0, m1;
    Load("tests/data/cube_o2_v41.msh", 0, 2, &m0);
    Load("tests/data/cube_o2_v41.msh", 1, 2, &m1);
    printf("  cube_o2_v41.msh order 2: %d -> %d elements after refine 1\n", (int)m0.nelems, (int)m1.nelems);
    assert_int_equal(m1.nelems, 8 * m0.nelems);
    assert_int_equal(m1.npe, 10);
    assert_true(PetscAbsReal(Volume(&m1) - 1) <= 1e-12);
    assert_true(MidEdgeDeviation(&m1) < 1e-12);
    printf("FIGURE mesh: .msh refine 0/1/2: %d -> %d -> %d elements (x8 per level); tet10 file: %d -> %d\n", (int)counts[0], (int)counts[1], (int)counts[2],
      (int)m0.nelems, (int)m1.nelems);
    CHK(FcMeshDestroy(&m0));
    CHK(FcMeshDestroy(&m1));
  }
}

/* Order conversion both ways keeps the corners and the element ids. */
static void test_order_conversion(void **state)
{
  FcMesh m1, m2, m21;
  (void)state;
  Load("tests/data/cube_v41.msh", 0, 1, &m1);
  Load("tests/data/cube_v41.msh", 0, 2, &m2);
  Load("tests/data/cube_o2_v41.msh", 0, 1, &m21);
  assert_int_equal(m2.nelems, m1.nelems);
  assert_int_equal(m21.nelems, m1.nelems);
  assert_int_equal(m21.nnodes, m1.nnodes);
  assert_true(m2.nnodes > m1.nnodes);
  for (PetscInt e = 0; e < m1.nelems; e++) {
    assert_int_equal(m2.elem_id[e], m1.elem_id[e]);
    /* Gmsh renumbers the nodes when it changes the order: compare coordinates. */
    for (PetscInt a = 0; a < 4; a++)
      for (PetscInt i = 0; i < 3; i++) {
        assert_true(m2.X[3 * m2.conn[10 * e + a] + i] == m1.X[3 * m1.conn[4 * e + a] + i]);
        assert_true(m21.X[3 * m21.conn[4 * e + a] + i] == m1.X[3 * m1.conn[4 * e + a] + i]);
      }
  }
  assert_true(PetscAbsReal(Volume(&m2) - 1) <= 1e-12);
  assert_true(PetscAbsReal(Volume(&m21) - 1) <= 1e-12);
  {
    /* The surface groups follow the conversion: tri6 faces, mid-edge nodes included. */
    const FcMeshGroup *g;
    PetscReal          a;
    PetscInt           on = 0;
    CHK(FcMeshFindGroup(&m2, "xmax", 2, &g));
    assert_non_null(g);
    CHK(FcMeshFacesArea(&m2, g->nfaces, g->faces, &a));
    assert_true(PetscAbsReal(a - 1) <= 1e-12);
    for (PetscInt n = 0; n < m2.nnodes; n++)
      if (m2.X[3 * n] == 1) on++;
    assert_int_equal(g->nnodes, on);
  }
  CHK(FcMeshDestroy(&m1));
  CHK(FcMeshDestroy(&m2));
  CHK(FcMeshDestroy(&m21));
}

/* Curved tet10: the quadrature of the Jacobian is exact for its cubic determinant. */
static void test_curved_tet10(void **state)
{
  const PetscReal    alpha = 0.3, exact = 1.0 / 6 + alpha * alpha * alpha / 90;
  FcMesh             m;
  const FcMeshGroup *g;
  PetscReal          v, a;
  (void)state;

  Load("tests/data/curved_tet10.msh", 0, 2, &m);
  v = Volume(&m);
  printf("FIGURE mesh: curved tet10 volume %.16f vs exact 1/6 + a^3/90 = %.16f (error %.1e)\n", (double)v, (double)exact, (double)(v - exact));
  assert_true(PetscAbsReal(v - exact) <= 1e-15);
  assert_int_equal(m.nbfaces, 4);
  /* The tri6 of group "faces" (dim 2, tag 1) is the boundary face opposite corner 3. */
  CHK(FcMeshFindGroup(&m, "faces", 2, &g));
  assert_non_null(g);
  assert_int_equal(g->nfaces, 1);
  assert_int_equal(g->nnodes, 6);
  CHK(FcMeshFacesArea(&m, 1, g->faces, &a));
  assert_true(a > 0.5); /* bulged beyond its flat projection 1/2 onto z = 0 */
  /* Tag 1 names a surface and a volume: ambiguous without a dimension. */
  CHK(FcMeshFindGroup(&m, "1", 3, &g));
  assert_non_null(g);
  assert_string_equal(g->name, "solid");
  {
    FcTestCapture  ce;
    char           err[1024];
    PetscErrorCode rc;
    FcTestCaptureFd(&ce, STDERR_FILENO);
    rc = FcMeshFindGroup(&m, "1", -1, &g);
    FcTestCaptureStop(&ce, err, sizeof err);
    assert_int_equal(rc, FC_ERR_INPUT);
    assert_non_null(strstr(err, "curved_tet10.msh: group \"1\" is ambiguous"));
    printf("  ambiguous key: %s", err);
  }
  CHK(FcMeshDestroy(&m));
  /* Loaded as tet4 the element keeps its corners only. */
  Load("tests/data/curved_tet10.msh", 0, 1, &m);
  assert_true(PetscAbsReal(Volume(&m) - 1.027 / 6) <= 1e-15);
  CHK(FcMeshDestroy(&m));
}

/* A curved boundary (OpenCASCADE sphere of radius 1): tet10 with Gmsh's mid-edge nodes on the
 * sphere converges much faster than tet4 to 4/3 pi, and so does the area of the curved faces. */
static void test_sphere(void **state)
{
  char            geo[64];
  const PetscReal V = 4.0 / 3.0 * PETSC_PI, S = 4 * PETSC_PI;
  PetscReal       ev[2][2], es[2][2];
  FILE           *fp;
  (void)state;

  TmpGeo(geo, sizeof geo, "sphere");
  fp = fopen(geo, "w");
  assert_non_null(fp);
  fprintf(fp,
    "SetFactory(\"OpenCASCADE\");\nSphere(1) = {0, 0, 0, 1};\nMesh.MeshSizeMax = 0.4;\nPhysical Surface(\"skin\") = {1};\nPhysical Volume(\"ball\") = {1};\n");
  fclose(fp);
  for (PetscInt order = 1; order <= 2; order++)
    for (PetscInt r = 0; r <= 1; r++) {
      FcMesh             m;
      const FcMeshGroup *g;
      PetscReal          a;
      Load(geo, r, order, &m);
      CHK(FcMeshFindGroup(&m, "skin", 2, &g));
      assert_non_null(g);
      assert_int_equal(g->nfaces, m.nbfaces);
      CHK(FcMeshFacesArea(&m, g->nfaces, g->faces, &a));
      ev[order - 1][r] = PetscAbsReal(Volume(&m) - V) / V;
      es[order - 1][r] = PetscAbsReal(a - S) / S;
      CHK(FcMeshDestroy(&m));
    }
  unlink(geo);
  printf("FIGURE mesh: unit sphere .geo, relative volume/area errors: tet4 %.1e/%.1e -> %.1e/%.1e, tet10 %.1e/%.1e -> %.1e/%.1e (refine 0 -> 1)\n",
    (double)ev[0][0], (double)es[0][0], (double)ev[0][1], (double)es[0][1], (double)ev[1][0], (double)es[1][0], (double)ev[1][1], (double)es[1][1]);
  for (int o = 0; o < 2; o++) {
    assert_true(ev[o][1] < ev[o][0]);
    assert_true(es[o][1] < es[o][0]);
  }
  assert_true(ev[1][0] < 1e-3 && ev[1][0] < ev[0][0] / 100);
  assert_true(es[1][0] < 1e-3 && es[1][0] < es[0][0] / 100);
}

static void test_nearest(void **state)
{
  // clang-format off
  static const PetscReal pts[4][3] = {
    {0,    0,   0   },
    {1.2,  1.1, 1.3 },
    {0.49, 1.0, -0.2},
    {0.3,  0.4, 0.6 }
  };
  // clang-format on
  FcMesh m;
  (void)state;
  Load("meshes/cube.geo", 1, 2, &m);
  for (int k = 0; k < 4; k++) {
    const PetscInt n    = FcMeshNearestNode(&m, pts[k]);
    PetscReal      best = PETSC_MAX_REAL, d = 0;
    assert_true(n >= 0 && n < m.nnodes);
    for (PetscInt j = 0; j < m.nnodes; j++) {
      PetscReal dj = 0;
      for (PetscInt i = 0; i < 3; i++) dj += (m.X[3 * j + i] - pts[k][i]) * (m.X[3 * j + i] - pts[k][i]);
      best = PetscMin(best, dj);
    }
    for (PetscInt i = 0; i < 3; i++) d += (m.X[3 * n + i] - pts[k][i]) * (m.X[3 * n + i] - pts[k][i]);
    assert_true(d == best);
    if (k < 3)
      printf("  nearest node to (%g, %g, %g): %d at (%g, %g, %g)\n", (double)pts[k][0], (double)pts[k][1], (double)pts[k][2], (int)n, (double)m.X[3 * n],
        (double)m.X[3 * n + 1], (double)m.X[3 * n + 2]);
  }
  {
    const PetscReal corner[3] = {1, 1, 1};
    const PetscInt  n         = FcMeshNearestNode(&m, corner);
    assert_true(m.X[3 * n] == 1 && m.X[3 * n + 1] == 1 && m.X[3 * n + 2] == 1);
    /* Every node is its own nearest node. */
    for (PetscInt j = 0; j < m.nnodes; j++) assert_int_equal(FcMeshNearestNode(&m, m.X + 3 * j), j);
  }
  CHK(FcMeshDestroy(&m));
}

/* Options a script sets do not leak into the next load, "Mesh 3;" in a script is redone at
 * the requested size, and dim 0/1 physical groups come with their nodes. */
static void test_script_options(void **state)
{
  char   dir[64], geo[96], cube[96], src[PETSC_MAX_PATH_LEN], buf[4096];
  FcMesh a, b, c, c0;
  FILE  *fp, *in;
  size_t n;
  (void)state;

  /* A scratch folder holding the script and a copy of cube.geo: a script may include files of
   * its own folder tree only (doc/mesh.md, "What a .geo may do"). */
  snprintf(dir, sizeof dir, "/tmp/fcsim_test_mesh_%d_script", (int)getpid());
  assert_int_equal(mkdir(dir, 0700), 0);
  snprintf(geo, sizeof geo, "%s/script.geo", dir);
  snprintf(cube, sizeof cube, "%s/cube.geo", dir);
  Path(src, sizeof src, "meshes/cube.geo");
  in = fopen(src, "r");
  fp = fopen(cube, "w");
  assert_non_null(in);
  assert_non_null(fp);
  while ((n = fread(buf, 1, sizeof buf, in)) > 0) assert_int_equal(fwrite(buf, 1, n, fp), n);
  fclose(in);
  fclose(fp);
  Load("meshes/cube.geo", 0, 1, &c0);
  fp = fopen(geo, "w");
  assert_non_null(fp);
  fprintf(fp, "Include \"cube.geo\";\nPhysical Point(\"corner\", 10) = {1};\nPhysical Curve(\"edge\", 11) = {1};\n");
  fprintf(fp, "Mesh.MeshSizeFactor = 0.5;\nMesh.ElementOrder = 2;\nMesh 3;\n");
  fclose(fp);
  {
    FcTestCapture  co, ce;
    char           out[4096], err[4096];
    PetscErrorCode rc;
    FcTestCaptureFd(&co, STDOUT_FILENO);
    FcTestCaptureFd(&ce, STDERR_FILENO);
    rc = FcMeshLoad(geo, 0, 1, &a);
    FcTestCaptureStop(&ce, err, sizeof err);
    FcTestCaptureStop(&co, out, sizeof out);
    assert_int_equal(rc, 0);
    assert_string_equal(err, "");
  }
  Load("meshes/cube.geo", 1, 1, &b);
  Load("meshes/cube.geo", 0, 1, &c);
  printf("  script with MeshSizeFactor 0.5 at refine 0: %d elements; cube.geo refine 1: %d; cube.geo refine 0 after it: %d\n", (int)a.nelems, (int)b.nelems,
    (int)c.nelems);
  assert_int_equal(a.order, 1);
  assert_int_equal(a.nelems, b.nelems);
  {
    /* Physical points and curves are kept with nodes only. */
    const FcMeshGroup *g;
    CHK(FcMeshFindGroup(&a, "corner", -1, &g));
    assert_non_null(g);
    assert_int_equal(g->dim, 0);
    assert_int_equal(g->nnodes, 1);
    assert_true(a.X[3 * g->nodes[0]] == 0 && a.X[3 * g->nodes[0] + 1] == 0 && a.X[3 * g->nodes[0] + 2] == 0);
    CHK(FcMeshFindGroup(&a, "11", -1, &g));
    assert_non_null(g);
    assert_int_equal(g->dim, 1);
    assert_int_equal(g->nnodes, 5); /* x = 0, 0.25, ..., 1 on y = z = 0 */
    assert_int_equal(g->nfaces + g->nelems, 0);
    for (PetscInt i = 0; i < g->nnodes; i++) assert_true(a.X[3 * g->nodes[i] + 1] == 0 && a.X[3 * g->nodes[i] + 2] == 0);
  }
  assert_int_equal(c.nelems, c0.nelems);
  CHK(FcMeshDestroy(&c0));
  unlink(geo);
  unlink(cube);
  rmdir(dir);
  CHK(FcMeshDestroy(&a));
  CHK(FcMeshDestroy(&b));
  CHK(FcMeshDestroy(&c));
}

/* Load a bad file: FC_ERR_INPUT, exactly one line on stderr naming the file and containing
 * `expect`, nothing on stdout, and the mesh left empty. */
static void ExpectInputError(const char *file, PetscInt refine, PetscInt order, const char *expect)
{
  FcTestCapture  co, ce;
  char           out[4096], err[4096];
  FcMesh         m;
  PetscErrorCode rc;
  char          *nl;

  FcTestCaptureFd(&co, STDOUT_FILENO);
  FcTestCaptureFd(&ce, STDERR_FILENO);
  rc = FcMeshLoad(file, refine, order, &m);
  FcTestCaptureStop(&ce, err, sizeof err);
  FcTestCaptureStop(&co, out, sizeof out);
  printf("  %s", err);
  assert_int_equal(rc, FC_ERR_INPUT);
  assert_string_equal(out, "");
  nl = strchr(err, '\n');
  assert_non_null(nl);
  assert_int_equal(nl[1], '\0');
  assert_true(strncmp(err, file, strlen(file)) == 0 && err[strlen(file)] == ':');
  if (!strstr(err, expect)) fprintf(stderr, "expected \"%s\" in: %s", expect, err);
  assert_non_null(strstr(err, expect));
  assert_int_equal(m.nnodes, 0);
  assert_null(m.X);
  assert_null(m.groups);
}

static void test_bad_meshes(void **state)
{
  char  manifest[PETSC_MAX_PATH_LEN], line[1024];
  FILE *fp;
  int   n = 0;
  (void)state;

  Path(manifest, sizeof manifest, "tests/bad/mesh/MANIFEST");
  fp = fopen(manifest, "r");
  assert_non_null(fp);
  while (fgets(line, sizeof line, fp)) {
    char *bar                   = strchr(line, '|'), file[PETSC_MAX_PATH_LEN], rel[PETSC_MAX_PATH_LEN];
    line[strcspn(line, "\r\n")] = '\0';
    if (!line[0]) continue;
    assert_non_null(bar);
    *bar = '\0';
    assert_true((size_t)snprintf(rel, sizeof rel, "tests/bad/mesh/%s", line) < sizeof rel);
    Path(file, sizeof file, rel);
    /* The errors of the MANIFEST do not depend on the case's order or refinement: a .msh is
     * checked as the file has it before Gmsh converts or refines it. */
    ExpectInputError(file, 0, 1, bar + 1);
    ExpectInputError(file, 0, 2, bar + 1);
    ExpectInputError(file, 1, 1, bar + 1);
    n++;
  }
  fclose(fp);
  assert_true(n >= 6);
  printf("FIGURE mesh: %d bad meshes of tests/bad/mesh/MANIFEST rejected with one line each (orders 1, 2; refine 0, 1)\n", n);

  /* A .geo with a syntax error, then a good file: Gmsh's parser must not stay locked. */
  {
    char   geo[64];
    FcMesh m;
    TmpGeo(geo, sizeof geo, "bad");
    fp = fopen(geo, "w");
    assert_non_null(fp);
    fprintf(fp, "Point(1) = {0, 0, 0};\nThis is not Gmsh;\n");
    fclose(fp);
    ExpectInputError(geo, 0, 1, "gmsh: line 2: syntax error");
    unlink(geo);
    Load("tests/data/cube_v22.msh", 0, 1, &m);
    assert_int_equal(m.nelems, 100);
    CHK(FcMeshDestroy(&m));
    Load("meshes/cube.geo", 0, 1, &m);
    assert_int_equal(m.nelems, 100);
    CHK(FcMeshDestroy(&m));
  }

  /* Argument errors (not mesh files). */
  {
    char file[PETSC_MAX_PATH_LEN];
    Path(file, sizeof file, "meshes/cube.geo");
    ExpectInputError(file, 0, 3, "element order 3");
    ExpectInputError(file, -1, 1, "refine -1");
    Path(file, sizeof file, "tests/data/cube.stl");
    ExpectInputError(file, 0, 1, "unsupported mesh file type");
    ExpectInputError("/tmp", 0, 1, "unsupported mesh file type");
  }
}

// clang-format off
static const int two_low[8] = {50, 51, 52, 53, 7, 8, 9, 10}, two_up[8] = {7, 8, 9, 10, 90000, 90001, 90002, 90003};
// clang-format on

/* The two-volume file of test_shared_volumes, its top layer at height ztop. */
static void WriteTwoVolumes(const char *file, int ztop)
{
  // clang-format off
  static const int tags[12] = {90000, 7, 50, 90001, 8, 51, 90002, 9, 52, 90003, 10, 53};
  static const int kuhn[6][4] = {{0, 1, 2, 6}, {0, 2, 3, 6}, {0, 3, 7, 6}, {0, 7, 4, 6}, {0, 4, 5, 6}, {0, 5, 1, 6}};
  // clang-format on
  FILE *f = fopen(file, "w");

  assert_non_null(f);
  fprintf(f, "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$PhysicalNames\n4\n3 1 \"lower\"\n3 2 \"upper\"\n2 10 \"interface\"\n2 11 \"top\"\n$EndPhysicalNames\n");
  fprintf(f, "$Nodes\n12\n");
  for (int i = 0; i < 12; i++) {
    const int t = tags[i], k = t >= 90000 ? t - 90000 : t >= 50 ? t - 50 : t - 7; /* corner 0-3 of its layer */
    fprintf(f, "%d %d %d %d\n", t, k == 1 || k == 2, k >= 2, t >= 90000 ? ztop : t >= 50 ? 0 : 1);
  }
  fprintf(f, "$EndNodes\n$Elements\n16\n");
  for (int b = 0; b < 2; b++)
    for (int e = 0; e < 6; e++) {
      const int *c = b ? two_up : two_low;
      fprintf(f, "%d 4 2 %d %d %d %d %d %d\n", 6 * b + e + 1, b + 1, b + 1, c[kuhn[e][0]], c[kuhn[e][1]], c[kuhn[e][2]], c[kuhn[e][3]]);
    }
  fprintf(f, "13 2 2 10 10 7 8 9\n14 2 2 10 10 7 9 10\n15 2 2 11 11 90000 90001 90002\n16 2 2 11 11 90000 90002 90003\n$EndElements\n");
  assert_int_equal(fclose(f), 0);
}

/* One body per volume of a file whose volumes share nodes (issue 29: a one-volume load reads the
 * model's nodes and groups once per file). Two unit cubes stacked on z = 1 share its 4 nodes; MSH
 * 2.2 classifies a node on the entity of the first element that uses it, so the shared nodes
 * belong to the lower volume's entity and the upper body must still find them. Node tags are out
 * of order in the file, and the top ones sparse (90000+: the sorted tag map, not the dense table).
 * Each body keeps its 8 nodes in increasing tag order at their coordinates, its 6 tetrahedra, the
 * surface groups that touch it (2 boundary faces each), its own volume group and not the other's. */
static void test_shared_volumes(void **state)
{
  static const int *const low = two_low, *const up = two_up;
  char   dir[] = "/tmp/fcsim_test_mesh_XXXXXX", file[PETSC_MAX_PATH_LEN];
  FcMesh m;
  (void)state;

  assert_non_null(mkdtemp(dir));
  snprintf(file, sizeof file, "%s/two.msh", dir);
  WriteTwoVolumes(file, 2);
  for (int b = 0; b < 2; b++) {
    const FcMeshGroup *g;
    const int         *ids = b ? up : low;
    int                sorted[8];
    memcpy(sorted, ids, sizeof sorted);
    for (int i = 0; i < 8; i++) /* insertion sort: the expected node order */
      for (int j = i; j > 0 && sorted[j] < sorted[j - 1]; j--) {
        const int t   = sorted[j];
        sorted[j]     = sorted[j - 1];
        sorted[j - 1] = t;
      }
    CHK(FcMeshLoadVolume(file, 0, 1, b ? "upper" : "lower", &m));
    assert_int_equal(m.nnodes, 8);
    assert_int_equal(m.nelems, 6);
    assert_int_equal(m.nbfaces, 12);
    for (int n = 0; n < 8; n++) {
      const int t = sorted[n], k = t >= 90000 ? t - 90000 : t >= 50 ? t - 50 : t - 7;
      assert_int_equal(m.node_id[n], t);
      assert_true(m.X[3 * n] == (k == 1 || k == 2) && m.X[3 * n + 1] == (k >= 2) && m.X[3 * n + 2] == (t >= 90000 ? 2 : t >= 50 ? 0 : 1));
    }
    for (int e = 0; e < 6; e++) assert_int_equal(m.elem_id[e], 6 * b + e + 1);
    CHK(FcMeshFindGroup(&m, b ? "upper" : "lower", 3, &g));
    assert_non_null(g);
    assert_int_equal(g->nelems, 6);
    assert_int_equal(g->nnodes, 8);
    CHK(FcMeshFindGroup(&m, b ? "lower" : "upper", 3, &g));
    assert_null(g);
    CHK(FcMeshFindGroup(&m, "interface", 2, &g));
    assert_non_null(g);
    assert_int_equal(g->nnodes, 4);
    assert_int_equal(g->nfaces, 2);
    CHK(FcMeshFindGroup(&m, "top", 2, &g));
    if (b) {
      assert_non_null(g);
      assert_int_equal(g->nnodes, 4);
      assert_int_equal(g->nfaces, 2);
    } else assert_null(g); /* no node of the lower body */
    assert_int_equal(m.ngroups, b ? 3 : 2);
    CHK(FcMeshDestroy(&m));
  }
  CHK(FcMeshReleaseKept());
  assert_int_equal(unlink(file), 0);
  assert_int_equal(rmdir(dir), 0);
}

/* A query of a .msh leaves its model open (mesh_gmsh.c `opened`): the next query and the next
 * load answer from it, and the load gives what a load from the file gives, at any refine and
 * order; a file replaced meanwhile (another size or time) is read again. */
static void test_opened_model(void **state)
{
  char       dir[] = "/tmp/fcsim_test_mesh_XXXXXX", file[PETSC_MAX_PATH_LEN];
  FcMesh     a, b;
  PetscInt   n, *ntets;
  PetscInt64 total;
  char(*names)[FC_NAME_LEN];
  PetscReal ztop = 0;
  (void)state;

  assert_non_null(mkdtemp(dir));
  snprintf(file, sizeof file, "%s/two.msh", dir);
  WriteTwoVolumes(file, 2);
  /* refine 1, order 2 from the queried model, then from the file alone */
  CHK(FcMeshListVolumes(file, &n, &names, &ntets));
  assert_int_equal(n, 2);
  assert_int_equal(ntets[0] + ntets[1], 12);
  CHK(PetscFree2(names, ntets));
  CHK(FcMeshCountTetrahedra(file, &total));
  assert_int_equal(total, 12);
  CHK(FcMeshLoadVolume(file, 1, 2, "upper", &a));
  CHK(FcMeshReleaseKept());
  CHK(FcMeshLoadVolume(file, 1, 2, "upper", &b));
  CHK(FcMeshReleaseKept());
  assert_int_equal(a.nelems, 48);
  assert_int_equal(a.npe, 10);
  assert_int_equal(a.nnodes, b.nnodes);
  assert_int_equal(a.nelems, b.nelems);
  assert_memory_equal(a.X, b.X, 3 * (size_t)a.nnodes * sizeof *a.X);
  assert_memory_equal(a.conn, b.conn, (size_t)a.npe * (size_t)a.nelems * sizeof *a.conn);
  CHK(FcMeshDestroy(&a));
  CHK(FcMeshDestroy(&b));
  /* the file replaced after the query: the load reads the new one */
  CHK(FcMeshCountTetrahedra(file, &total));
  WriteTwoVolumes(file, 30);
  CHK(FcMeshLoadVolume(file, 0, 1, "upper", &a));
  for (PetscInt i = 0; i < a.nnodes; i++) ztop = PetscMax(ztop, a.X[3 * i + 2]);
  assert_true(ztop == 30);
  CHK(FcMeshDestroy(&a));
  CHK(FcMeshReleaseKept());
  assert_int_equal(unlink(file), 0);
  assert_int_equal(rmdir(dir), 0);
}

/* Load time of a mid-size mesh (not an assertion: a figure for the report). */
static void test_timing(void **state)
{
  FcMesh          m;
  struct timespec t0, t1;
  PetscReal       v;
  (void)state;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  Load("meshes/cube.geo", 3, 2, &m);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  v = Volume(&m);
  printf("FIGURE mesh: cube.geo refine 3 order 2: %d nodes, %d elements, %d boundary faces loaded in %.3f s (Gmsh meshing included), volume-1 = %+.1e\n",
    (int)m.nnodes, (int)m.nelems, (int)m.nbfaces, (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec), (double)(v - 1));
  assert_true(PetscAbsReal(v - 1) <= 1e-11);
  CHK(FcMeshDestroy(&m));
}

int main(int argc, char **argv)
{
  // clang-format off
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_cube_volume_area), cmocka_unit_test(test_boundary_orientation), cmocka_unit_test(test_tet10_ordering), cmocka_unit_test(test_groups),
    cmocka_unit_test(test_formats),          cmocka_unit_test(test_refine_msh),           cmocka_unit_test(test_order_conversion), cmocka_unit_test(test_curved_tet10), cmocka_unit_test(test_sphere),
    cmocka_unit_test(test_nearest),          cmocka_unit_test(test_script_options),       cmocka_unit_test(test_bad_meshes),
    cmocka_unit_test(test_shared_volumes), cmocka_unit_test(test_opened_model),   cmocka_unit_test(test_timing),
  };
  // clang-format on
  const char *r = getenv("FCSIM_ROOT");

  if (r && r[0]) snprintf(root, sizeof root, "%s", r);
  return FcTestMain(argc, argv, tests, NULL, FcMeshFinalizePackage);
}
