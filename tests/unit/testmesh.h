/* fcsim unit tests — a structured tetrahedral cube mesh built in memory (header only; include
 * after ../../src/fem/fem.h), shared by test_fem, test_lagged and test_hyperelastic. */
#ifndef FC_TESTMESH_H
#define FC_TESTMESH_H

/* Cube [0, L]^3 of n^3 cells, each split into the 6 Kuhn tetrahedra around its main diagonal
 * (conforming across cells, positively oriented). Interior vertices are moved by pv·h·rnd() per
 * component (rnd in [-1, 1), drawn in vertex order); order 2: tet10 mid-edge nodes at the
 * midpoints of the (moved) vertices, interior ones then moved by pm·h·rnd() (pm > 0: curved
 * elements). Boundary faces (all corners on one plane of the cube) are oriented outward, with
 * tri6 mid-edge nodes; elem_id[e] = e + 1. rnd may be NULL when pv = pm = 0. */
static inline PetscErrorCode FcTestCubeMesh(PetscInt n, PetscInt order, PetscReal L, PetscReal pv, PetscReal pm, PetscReal (*rnd)(void *), void *ctx, FcMesh *mesh)
{
  const PetscInt  nv = (n + 1) * (n + 1) * (n + 1), ncell = n * n * n, nel = 6 * ncell, npe = order == 1 ? 4 : 10, npf = order == 1 ? 3 : 6;
  const PetscReal h = L / n, tol = 1e-12 * L;
  const int       perm[6][3]    = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  const int       faceloc[4][3] = {{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}};
  PetscInt       *edge = NULL, maxn = nv + (order == 2 ? 7 * nv : 0), nn = nv, nb = 0;
  PetscReal      *X;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(mesh, sizeof *mesh));
  PetscCall(PetscMalloc1(3 * maxn, &X));
  for (PetscInt k = 0; k <= n; k++)
    for (PetscInt j = 0; j <= n; j++)
      for (PetscInt i = 0; i <= n; i++) {
        PetscReal *x = X + 3 * (i + (n + 1) * (j + (n + 1) * k));
        x[0]         = i * h;
        x[1]         = j * h;
        x[2]         = k * h;
        if (pv != 0 && i > 0 && i < n && j > 0 && j < n && k > 0 && k < n)
          for (int d = 0; d < 3; d++) x[d] += pv * h * rnd(ctx);
      }
  PetscCall(PetscMalloc1(nel * npe, &mesh->conn));
  PetscCall(PetscMalloc1(nel, &mesh->elem_id));
  for (PetscInt c = 0, e = 0; c < ncell; c++)
    for (int p = 0; p < 6; p++, e++) {
      PetscInt  ijk[3] = {c % n, (c / n) % n, c / (n * n)}, *t = mesh->conn + e * npe;
      PetscReal a[9];
      t[0] = ijk[0] + (n + 1) * (ijk[1] + (n + 1) * ijk[2]);
      for (int s = 0; s < 3; s++) {
        ijk[perm[p][s]]++;
        t[s + 1] = ijk[0] + (n + 1) * (ijk[1] + (n + 1) * ijk[2]);
      }
      for (int s = 0; s < 3; s++)
        for (int d = 0; d < 3; d++) a[3 * s + d] = X[3 * t[s + 1] + d] - X[3 * t[0] + d];
      if (FcMat3Det(a) < 0) {
        const PetscInt tmp = t[1];
        t[1]               = t[2];
        t[2]               = tmp;
      }
      mesh->elem_id[e] = e + 1;
    }
  /* boundary faces, oriented away from the element's opposite vertex */
  PetscCall(PetscMalloc1(nel * 4 * npf, &mesh->bfaces));
  PetscCall(PetscMalloc1(nel * 4, &mesh->bface_elem));
  for (PetscInt e = 0; e < nel; e++) {
    const PetscInt *t = mesh->conn + e * npe;
    for (int f = 0; f < 4; f++) {
      PetscInt  v[3] = {t[faceloc[f][0]], t[faceloc[f][1]], t[faceloc[f][2]]};
      PetscBool onb  = PETSC_FALSE;
      PetscReal a[9];
      for (int d = 0; d < 3 && !onb; d++)
        for (int s = 0; s < 2 && !onb; s++) {
          const PetscReal pl = s * L;
          onb = (PetscBool)(PetscAbsReal(X[3 * v[0] + d] - pl) < tol && PetscAbsReal(X[3 * v[1] + d] - pl) < tol && PetscAbsReal(X[3 * v[2] + d] - pl) < tol);
        }
      if (!onb) continue;
      for (int q = 0; q < 3; q++) {
        a[q]     = X[3 * v[1] + q] - X[3 * v[0] + q];
        a[3 + q] = X[3 * v[2] + q] - X[3 * v[0] + q];
        a[6 + q] = X[3 * v[0] + q] - X[3 * t[f] + q]; /* from the opposite vertex to the face */
      }
      if (FcMat3Det(a) < 0) {
        const PetscInt tmp = v[1];
        v[1]               = v[2];
        v[2]               = tmp;
      }
      for (int q = 0; q < 3; q++) mesh->bfaces[nb * npf + q] = v[q];
      mesh->bface_elem[nb++] = e;
    }
  }
  if (order == 2) {
    PetscCall(PetscMalloc1(nv * nv, &edge));
    for (PetscInt i = 0; i < nv * nv; i++) edge[i] = -1;
    for (PetscInt e = 0; e < nel; e++) {
      PetscInt *t = mesh->conn + e * npe;
      for (int k = 0; k < 6; k++) {
        const PetscInt p = t[FcTetEdgeNodes[k][0]], q = t[FcTetEdgeNodes[k][1]], key = PetscMin(p, q) * nv + PetscMax(p, q);
        if (edge[key] < 0) {
          PetscBool interior = PETSC_TRUE;
          PetscCheck(nn < maxn, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Too many edges");
          edge[key] = nn;
          for (int d = 0; d < 3; d++) {
            X[3 * nn + d] = 0.5 * (X[3 * p + d] + X[3 * q + d]);
            /* boundary iff both ends on one cube plane: the midpoint is then on it too */
            if (PetscAbsReal(X[3 * nn + d]) < tol || PetscAbsReal(X[3 * nn + d] - L) < tol) interior = PETSC_FALSE;
          }
          if (pm != 0 && interior)
            for (int d = 0; d < 3; d++) X[3 * nn + d] += pm * h * rnd(ctx);
          nn++;
        }
        t[4 + k] = edge[key];
      }
    }
    for (PetscInt f = 0; f < nb; f++) {
      PetscInt *v = mesh->bfaces + 6 * f;
      for (int k = 0; k < 3; k++) {
        const PetscInt p = v[FcTriEdgeNodes[k][0]], q = v[FcTriEdgeNodes[k][1]];
        v[3 + k]         = edge[PetscMin(p, q) * nv + PetscMax(p, q)];
      }
    }
    PetscCall(PetscFree(edge));
  }
  mesh->order   = order;
  mesh->nnodes  = nn;
  mesh->X       = X;
  mesh->nelems  = nel;
  mesh->npe     = npe;
  mesh->nbfaces = nb;
  mesh->npf     = npf;
  PetscFunctionReturn(0);
}

static inline PetscErrorCode FcTestCubeMeshFree(FcMesh *mesh)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(mesh->X));
  PetscCall(PetscFree(mesh->conn));
  PetscCall(PetscFree(mesh->elem_id));
  PetscCall(PetscFree(mesh->bfaces));
  PetscCall(PetscFree(mesh->bface_elem));
  PetscFunctionReturn(0);
}

#endif
