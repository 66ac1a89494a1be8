/* fcsim — mortar contact geometry (doc/contact.md "Mortar contact"): the lumped mortar weights of
 * a slave node against a master surface, by segment-based integration of the slave/master
 * triangle overlaps. Plain data in, plain data out: the contact step (src/step) calls it per
 * detected contact of a pair with formulation "mortar". */
#include "mortar.h"

PetscErrorCode FcMortarSlaveCreate(PetscInt nnodes, PetscInt nf, const PetscInt tri[], FcMortarSlave *S)
{
  PetscInt *cnt;

  PetscFunctionBegin;
  S->nsf = nf;
  PetscCall(PetscMalloc1(3 * nf, &S->sf));
  PetscCall(PetscArraycpy(S->sf, tri, 3 * nf));
  PetscCall(PetscMalloc2(nnodes + 1, &S->n2f_ptr, 3 * nf, &S->n2f));
  PetscCall(PetscCalloc1(nnodes + 1, &cnt));
  for (PetscInt k = 0; k < 3 * nf; k++) cnt[S->sf[k] + 1]++;
  S->n2f_ptr[0] = 0;
  for (PetscInt n = 0; n < nnodes; n++) S->n2f_ptr[n + 1] = S->n2f_ptr[n] + cnt[n + 1];
  for (PetscInt n = 0; n <= nnodes; n++) cnt[n] = 0;
  for (PetscInt f = 0; f < nf; f++)
    for (int k = 0; k < 3; k++) {
      PetscInt n                       = S->sf[3 * f + k];
      S->n2f[S->n2f_ptr[n] + cnt[n]++] = f;
    }
  PetscCall(PetscFree(cnt));
  PetscFunctionReturn(0);
}

PetscErrorCode FcMortarSlaveDestroy(FcMortarSlave *S)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(S->sf));
  PetscCall(PetscFree2(S->n2f_ptr, S->n2f));
  S->nsf = 0;
  PetscFunctionReturn(0);
}

/* Barycentric coordinates of the 2D point y in the triangle (a, b, c). */
static void Bary2_Private(const PetscReal a[2], const PetscReal b[2], const PetscReal c[2], const PetscReal y[2], PetscReal w[3])
{
  const PetscReal d = (b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1]);
  w[1]              = ((y[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (y[1] - a[1])) / d;
  w[2]              = ((b[0] - a[0]) * (y[1] - a[1]) - (y[0] - a[0]) * (b[1] - a[1])) / d;
  w[0]              = 1 - w[1] - w[2];
}

/* Sutherland–Hodgman: the polygon (n points, 2D) clipped by the half-plane to the left of the
 * directed edge p → q (counter-clockwise clip triangle); returns the new count. */
static PetscInt ClipEdge_Private(PetscInt n, const PetscReal (*in)[2], const PetscReal p[2], const PetscReal q[2], PetscReal (*out)[2])
{
  PetscInt m = 0;
  for (PetscInt k = 0; k < n; k++) {
    const PetscReal *u = in[k], *v = in[(k + 1) % n];
    const PetscReal  su = (q[0] - p[0]) * (u[1] - p[1]) - (q[1] - p[1]) * (u[0] - p[0]);
    const PetscReal  sv = (q[0] - p[0]) * (v[1] - p[1]) - (q[1] - p[1]) * (v[0] - p[0]);
    if (su >= 0) {
      out[m][0] = u[0];
      out[m][1] = u[1];
      m++;
    }
    if ((su >= 0) != (sv >= 0)) {
      const PetscReal t = su / (su - sv);
      out[m][0]         = u[0] + t * (v[0] - u[0]);
      out[m][1]         = u[1] + t * (v[1] - u[1]);
      m++;
    }
  }
  return m;
}

/* The plane frame of slave triangle T: its centroid, unit normal nrm = t1 × t2 (t1 along its
 * first edge), its vertices in that frame (counter-clockwise) and its circumradius about the
 * centroid. False for a degenerate triangle. */
static PetscBool SlaveFrame_Private(
  const PetscInt T[3], const PetscReal Xs[], PetscReal ctr[3], PetscReal nrm[3], PetscReal t1[3], PetscReal t2[3], PetscReal tri2[3][2], PetscReal *rad)
{
  const PetscReal *x0 = &Xs[3 * T[0]], *x1 = &Xs[3 * T[1]], *x2 = &Xs[3 * T[2]];
  PetscReal        e1[3], e2[3], len, nn;

  for (int k = 0; k < 3; k++) {
    e1[k]  = x1[k] - x0[k];
    e2[k]  = x2[k] - x0[k];
    ctr[k] = (x0[k] + x1[k] + x2[k]) / 3;
  }
  nrm[0] = e1[1] * e2[2] - e1[2] * e2[1];
  nrm[1] = e1[2] * e2[0] - e1[0] * e2[2];
  nrm[2] = e1[0] * e2[1] - e1[1] * e2[0];
  nn     = PetscSqrtReal(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
  if (!(nn > 0)) return PETSC_FALSE;
  len = PetscSqrtReal(e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2]);
  for (int k = 0; k < 3; k++) t1[k] = e1[k] / len;
  for (int k = 0; k < 3; k++) nrm[k] /= nn;
  t2[0] = nrm[1] * t1[2] - nrm[2] * t1[1];
  t2[1] = nrm[2] * t1[0] - nrm[0] * t1[2];
  t2[2] = nrm[0] * t1[1] - nrm[1] * t1[0];
  *rad  = 0;
  for (int v = 0; v < 3; v++) { /* T in its own plane: counter-clockwise (its normal is t1 × t2) */
    const PetscReal *x  = &Xs[3 * T[v]];
    PetscReal        r2 = 0;
    tri2[v][0] = tri2[v][1] = 0;
    for (int k = 0; k < 3; k++) {
      tri2[v][0] += (x[k] - ctr[k]) * t1[k];
      tri2[v][1] += (x[k] - ctr[k]) * t2[k];
      r2 += (x[k] - ctr[k]) * (x[k] - ctr[k]);
    }
    *rad = PetscMax(*rad, PetscSqrtReal(r2));
  }
  return PETSC_TRUE;
}

/* Whether master triangle Mt faces slave triangle T (centroid ctr, unit normal nrm) and lies near
 * its plane: the master's outward normal within 60° of the opposite of the slave's (not the side
 * faces of a slave body whose whole boundary is the slave surface), and not farther than twice the
 * alarm distance (the other side of a thin body, say, is not in contact with T). */
static PetscBool MasterFacing_Private(const PetscInt Mt[3], const PetscReal Xm[], const PetscReal ctr[3], const PetscReal nrm[3], PetscReal alarm)
{
  const PetscReal *y0 = &Xm[3 * Mt[0]], *y1 = &Xm[3 * Mt[1]], *y2 = &Xm[3 * Mt[2]];
  PetscReal        f1[3], f2[3], mn[3], dmin = PETSC_MAX_REAL, dmax = -PETSC_MAX_REAL;

  for (int k = 0; k < 3; k++) {
    f1[k] = y1[k] - y0[k];
    f2[k] = y2[k] - y0[k];
  }
  mn[0] = f1[1] * f2[2] - f1[2] * f2[1];
  mn[1] = f1[2] * f2[0] - f1[0] * f2[2];
  mn[2] = f1[0] * f2[1] - f1[1] * f2[0];
  if (!(mn[0] * nrm[0] + mn[1] * nrm[1] + mn[2] * nrm[2] < -0.5 * PetscSqrtReal(mn[0] * mn[0] + mn[1] * mn[1] + mn[2] * mn[2]))) return PETSC_FALSE;
  for (int v = 0; v < 3; v++) {
    const PetscReal *y  = &Xm[3 * Mt[v]];
    PetscReal        dv = (y[0] - ctr[0]) * nrm[0] + (y[1] - ctr[1]) * nrm[1] + (y[2] - ctr[2]) * nrm[2];
    dmin                = PetscMin(dmin, dv);
    dmax                = PetscMax(dmax, dv);
  }
  return (PetscBool) !(dmin > 2 * alarm || dmax < -2 * alarm);
}

/* The segment of slave triangle T (vertices tri2 in its frame, the slave node its vertex la) and
 * master triangle Mt (vertices m2 in T's frame): the overlap polygon poly (np vertices) fanned into
 * triangles, each integrated by its edge midpoints (weight area/3, exact for the quadratic
 * products of linear shape functions): D += ∫ N_s, w[j] += ∫ N_s N_m,j over the master nodes. */
static PetscErrorCode SegmentWeights_Private(const PetscReal tri2[3][2], PetscInt la, const PetscReal m2[3][2], const PetscInt Mt[3], const PetscReal poly[][2],
  PetscInt np, PetscInt maxt, PetscReal *D, PetscInt *nt, PetscInt nodes[], PetscReal w[])
{
  PetscFunctionBegin;
  for (PetscInt f = 1; f + 1 < np; f++) { /* fan triangles of the clipped polygon */
    const PetscReal *p0 = poly[0], *p1 = poly[f], *p2 = poly[f + 1];
    const PetscReal  area = 0.5 * PetscAbsReal((p1[0] - p0[0]) * (p2[1] - p0[1]) - (p2[0] - p0[0]) * (p1[1] - p0[1]));
    for (int g = 0; g < 3; g++) { /* edge midpoints, weight area/3 */
      const PetscReal *u = g == 0 ? p0 : g == 1 ? p1 : p2, *v = g == 0 ? p1 : g == 1 ? p2 : p0;
      PetscReal        y[2] = {0.5 * (u[0] + v[0]), 0.5 * (u[1] + v[1])}, ws[3], wm[3];
      Bary2_Private(tri2[0], tri2[1], tri2[2], y, ws);
      Bary2_Private(m2[0], m2[1], m2[2], y, wm);
      *D += area / 3 * ws[la];
      for (int j = 0; j < 3; j++) {
        PetscInt slot = 0;
        while (slot < *nt && nodes[slot] != Mt[j]) slot++;
        if (slot == *nt) {
          PetscCheck(*nt < maxt, PETSC_COMM_SELF, PETSC_ERR_SUP,
            "mortar: more than %d master nodes overlap the support of one slave node; the master mesh is much finer than the slave one", (int)maxt);
          nodes[(*nt)++] = Mt[j];
          w[slot]        = 0;
        }
        w[slot] += area / 3 * ws[la] * wm[j];
      }
    }
  }
  PetscFunctionReturn(0);
}

/* Lumped mortar weights of slave node `node` (mortar.h: Puso & Laursen 2004 eq. 18–20, D lumped;
 * Popp et al. 2009 §3, segment-based integration). */
PetscErrorCode FcMortarWeights(const FcMortarSlave *S, const PetscReal Xs[], FcAABBTree tree, const PetscInt mtri[], const PetscReal Xm[], PetscReal alarm,
  PetscInt node, PetscInt maxt, PetscInt *nt, PetscInt nodes[], PetscReal w[], PetscReal nout[3])
{
  PetscReal D = 0;

  PetscFunctionBegin;
  *nt     = 0;
  nout[0] = nout[1] = nout[2] = 0;
  for (PetscInt e = S->n2f_ptr[node]; e < S->n2f_ptr[node + 1]; e++) {
    const PetscInt *T = &S->sf[3 * S->n2f[e]];
    PetscReal       nrm[3], t1[3], t2[3], ctr[3], rad, tri2[3][2];
    PetscInt        la = T[0] == node ? 0 : T[1] == node ? 1 : 2, nl;
    const PetscInt *list;
    if (!SlaveFrame_Private(T, Xs, ctr, nrm, t1, t2, tri2, &rad)) continue;
    PetscCall(FcAABBTreeQueryBall(tree, ctr, 1.01 * rad + alarm, &nl, &list));
    for (PetscInt q = 0; q < nl; q++) {
      const PetscInt *Mt = &mtri[3 * list[q]];
      PetscReal       m2[3][2], poly[2][12][2], Dt;
      PetscInt        np = 3, cur = 0;
      if (!MasterFacing_Private(Mt, Xm, ctr, nrm, alarm)) continue;
      for (int v = 0; v < 3; v++) {
        const PetscReal *y = &Xm[3 * Mt[v]];
        m2[v][0] = m2[v][1] = 0;
        for (int k = 0; k < 3; k++) {
          m2[v][0] += (y[k] - ctr[k]) * t1[k];
          m2[v][1] += (y[k] - ctr[k]) * t2[k];
        }
      }
      /* the projected master triangle is clockwise in T's frame (it faces the other way) */
      for (int v = 0; v < 3; v++) {
        poly[0][v][0] = m2[2 - v][0];
        poly[0][v][1] = m2[2 - v][1];
      }
      for (int edge = 0; edge < 3 && np > 0; edge++) {
        np  = ClipEdge_Private(np, (const PetscReal(*)[2])poly[cur], tri2[edge], tri2[(edge + 1) % 3], poly[1 - cur]);
        cur = 1 - cur;
      }
      Dt = D;
      PetscCall(
        SegmentWeights_Private((const PetscReal(*)[2])tri2, la, (const PetscReal(*)[2])m2, Mt, (const PetscReal(*)[2])poly[cur], np, maxt, &D, nt, nodes, w));
      for (int k = 0; k < 3; k++) nout[k] += (D - Dt) * nrm[k];
    }
  }
  {
    PetscReal l = PetscSqrtReal(nout[0] * nout[0] + nout[1] * nout[1] + nout[2] * nout[2]);
    for (int k = 0; k < 3; k++) nout[k] = l > 0 ? nout[k] / l : 0;
  }
  if (D > 0)
    for (PetscInt j = 0; j < *nt; j++) w[j] /= D;
  else *nt = 0;
  PetscFunctionReturn(0);
}
