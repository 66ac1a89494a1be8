/* fcsim — mortar contact geometry (Puso & Laursen 2004; Popp et al. 2009): plain data in and
 * out, so that the contact step, a unit test or another stepper can call it. */
#ifndef FC_MORTAR_H
#define FC_MORTAR_H

#include "collide.h"

/* The slave (contactor) surface: its triangles and, per node of the slave mesh, the triangles
 * around it (CSR over the mesh's nodes). */
typedef struct {
  PetscInt  nsf;
  PetscInt *sf;      /* 3 corner nodes per slave triangle */
  PetscInt *n2f_ptr; /* nnodes + 1 */
  PetscInt *n2f;
} FcMortarSlave;

/* From nf triangles (3 mesh-node indices each) of a mesh of nnodes nodes. */
PetscErrorCode FcMortarSlaveCreate(PetscInt nnodes, PetscInt nf, const PetscInt tri[], FcMortarSlave *S);
PetscErrorCode FcMortarSlaveDestroy(FcMortarSlave *S);

/* Lumped mortar weights of slave node `node` (Puso & Laursen, CMAME 193 (2004), eq. 18–20 with the
 * slave mass matrix D lumped; Popp et al., IJNME 79 (2009) §3, segment-based integration): for
 * every slave triangle T around the node and every master triangle M near it, M is projected
 * along T's normal into T's plane, clipped by T (Sutherland–Hodgman), and
 *
 *     M_aj = ∫_{T ∩ M} N_a N̂_j dA,     D_a = ∫_{T ∩ M} N_a dA = Σ_j M_aj
 *
 * are accumulated (a 3-point rule on the edge midpoints of each fan triangle of the clipped
 * polygon: exact, N_a N̂_j being quadratic there). The contact then ties the node to the
 * N_a-weighted mean of the master surface, x̂ = Σ_j (M_aj / D_a) x̂_j: a uniform pressure p gives
 * the slave node the force p D_a and master node j the force p Σ_a M_aj = p ∫ N̂_j dA — the
 * consistent nodal forces on both sides, which node-to-surface contact does not give on
 * non-matching meshes (the patch test). Coordinates: Xs (slave body), Xm (master surface; its triangles mtri, 3 nodes each, are those of `tree`,
 * queried within alarm).
 * nout: the slave's outward unit normal at the node, the mean of its triangles' normals weighted
 * by their share of D (only triangles that overlap the master count: not the sides of a body
 * whose whole boundary is the slave surface). *nt = 0 when nothing overlaps. */
/* At most maxt master nodes (an error beyond). */
PetscErrorCode FcMortarWeights(const FcMortarSlave *S, const PetscReal Xs[], FcAABBTree tree, const PetscInt mtri[], const PetscReal Xm[], PetscReal alarm,
  PetscInt node, PetscInt maxt, PetscInt *nt, PetscInt nodes[], PetscReal w[], PetscReal nout[3]);

#endif
