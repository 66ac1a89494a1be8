/* fcsim — finite elements: tet4/tet10 shape functions, quadrature, element kernels and
 * assembly into PETSc matrices. Displacement DoFs are node-major: dof = 3*node + component. */
#ifndef FC_FEM_H
#define FC_FEM_H

#include "../core/fc.h"
#include "../mesh/mesh.h"
#include "material.h"

#define FC_MAX_NPE 10
#define FC_MAX_QP  16

/* Shape functions of the reference tetrahedron (vertices (0,0,0),(1,0,0),(0,1,0),(0,0,1)),
 * Gmsh node ordering. N[npe], dN[npe*3] = dN_a/dxi_j. */
void FcTetShape(PetscInt order, const PetscReal xi[3], PetscReal N[], PetscReal dN[]);
/* Triangle shape functions (3 or 6 nodes; corners then mid-edges 01,12,20). */
void FcTriShape(PetscInt order, const PetscReal xi[2], PetscReal N[], PetscReal dN[]);
/* Reference coordinates of the element nodes (npe*3, resp. npf*2), and the corner nodes of
 * the edge carrying each mid-edge node (tet10 node 4+e, tri6 node 3+e). */
void             FcTetNodes(PetscInt order, PetscReal xi[]);
void             FcTriNodes(PetscInt order, PetscReal xi[]);
extern const int FcTetEdgeNodes[6][2];
extern const int FcTriEdgeNodes[3][2];

typedef struct {
  PetscInt         n;
  const PetscReal *xi; /* n*3 (tet) or n*2 (tri) reference coordinates */
  const PetscReal *w;  /* weights; sum = 1/6 (tet) or 1/2 (tri) */
} FcQuadrature;
/* Rules exact for polynomials of at least the given degree. */
PetscErrorCode FcTetQuadrature(PetscInt degree, FcQuadrature *q);
PetscErrorCode FcTriQuadrature(PetscInt degree, FcQuadrature *q);
/* Degree of exactness of the rule returned for a request of `degree` (-1: none). Tet: 1, 2, 3,
 * 5 (14 points, also returned for 4); tri: 1, 2, 4 (6 points, also for 3), 5. Sources in
 * quadrature.c. */
PetscInt FcTetQuadratureDegree(PetscInt degree);
PetscInt FcTriQuadratureDegree(PetscInt degree);

/* Element kernels. Xe: npe*3 reference coordinates, ue: npe*3 displacements.
 * fe = ∫ P : ∇_X N dV (internal force, 3*npe), Ke = ∂fe/∂ue as given by the material tangent
 * ((3npe)^2 row-major), We = ∫ W dV. Any output may be NULL. Returns an input-free error if an
 * element is inverted in the reference configuration. For decoupled hyperelastic models with
 * mat->volumetric == FC_VOLUMETRIC_MEAN_DILATATION the element adds V U(J̄), J̄ = ∫ det F dV / V,
 * and its derivatives (element.c; We stays the full energy); those models raise PETSC_ERR_FP
 * when det F <= 0 at a quadrature point (doc/fem.md, "Behaviour at det F ≤ 0"). */
PetscErrorCode FcElementInternal(FcMaterial mat, PetscInt order, const PetscReal *Xe, const PetscReal *ue, PetscReal *We, PetscReal *fe, PetscReal *Ke);
/* Consistent mass Me = ∫ rho N_a N_b I dV ((3npe)^2). */
PetscErrorCode FcElementMass(PetscInt order, const PetscReal *Xe, PetscReal rho, PetscReal *Me);
/* Cauchy stress at the element centroid: sym(P Fᵀ) / det F (P Fᵀ is symmetric only to first
 * order for the small-strain models; sym(P) when det F <= 0, an error for the decoupled
 * hyperelastic models), plus the element pressure U'(J̄) I in mean-dilatation mode. */
PetscErrorCode FcElementCauchy(FcMaterial mat, PetscInt order, const PetscReal *Xe, const PetscReal *ue, PetscReal sigma[9]);
/* FcElementInternal with a given element frame R (NULL: computed by FcElementFrame). With R
 * fixed, fe is the exact derivative of We and Ke that of fe (finite-difference checks). */
PetscErrorCode FcElementInternalFrame(
  FcMaterial mat, PetscInt order, const PetscReal *Xe, const PetscReal *ue, const PetscReal *R, PetscReal *We, PetscReal *fe, PetscReal *Ke);
/* FcElementAdmissible then FcElementInternal, the element's kinematics computed once: ok false
 * (and nothing else computed) for an inadmissible element; otherwise the same results, bit for bit. */
PetscErrorCode FcElementInternalChecked(
  FcMaterial mat, PetscInt order, const PetscReal *Xe, const PetscReal *ue, PetscReal *We, PetscReal *fe, PetscReal *Ke, PetscBool *ok);
/* Element frame: mat->ops.frame of F at the centroid, identity for models without a frame. */
PetscErrorCode FcElementFrame(FcMaterial mat, PetscInt order, const PetscReal *Xe, const PetscReal *ue, PetscReal R[9]);
/* Deformation gradient F = I + ∇_X u at reference point xi (NULL: centroid); ue may be NULL. */
PetscErrorCode FcElementGradient(PetscInt order, const PetscReal *Xe, const PetscReal *ue, const PetscReal xi[3], PetscReal F[9]);
/* Consistent body force fe = ∫ rho g N dV (3*npe), with the mass matrix's quadrature rule. */
PetscErrorCode FcElementBodyForce(PetscInt order, const PetscReal *Xe, PetscReal rho, const PetscReal g[3], PetscReal *fe);
/* Volume (exact, also for curved tet10). */
PetscErrorCode FcElementVolume(PetscInt order, const PetscReal *Xe, PetscReal *vol);
/* Quadrature degree FcElementInternal uses: 1 (tet4), 2 (straight tet10), 3 (curved tet10,
 * some mid-edge node more than 1e-10 edge lengths off its edge's midpoint); see element.c. */
PetscInt  FcElementStiffnessDegree(PetscInt order, const PetscReal *Xe);
PetscBool FcElementIsStraight(PetscInt order, const PetscReal *Xe);

/* Assembly (sequential now; uses global indices and MatSetValues so a distributed element loop
 * can follow). The matrix has exact preallocation from the node graph, block size 3.
 * Rank-safe: each rank integrates a contiguous share of the elements (faces) and adds with
 * ADD_VALUES; u is gathered to every rank when there are several. */
/* MATAIJ, global size 3*nnodes, the full nonzero pattern (two nodes coupled iff they share an
 * element) inserted as zeros and assembled, so MatDuplicate / MatAXPY(SAME_NONZERO_PATTERN)
 * work at once; MAT_NEW_NONZERO_ALLOCATION_ERR is set. */
PetscErrorCode FcAssemblyCreateMatrix(MPI_Comm comm, const FcMesh *mesh, Mat *A);
/* Assemble A (K or M, of FcAssemblyCreateMatrix's pattern, MATAIJ) from now on by adding the
 * element matrices straight into its storage, at the places of their entries found once here
 * (every owned element's (3npe)² places: one PetscInt each), instead of one MatSetValues per
 * element; the rows of other ranks still go through MatSetValues. Bit for bit the MatSetValues
 * assembly's result (the same sums in the same order). Collective. */
PetscErrorCode FcAssemblySetUpDirect(const FcMesh *mesh, Mat A);
/* On several ranks: partition the mesh's nodes (MatPartitioning on the node graph, PT-Scotch by
 * default, -mat_partitioning_type to choose) and number them so that each rank owns a
 * contiguous range (mesh->part_perm, part_nown); a rank then integrates the elements whose first
 * node it owns. A no-op on one rank. Collective; before FcAssemblyCreateMatrix. */
PetscErrorCode FcAssemblyPartition(MPI_Comm comm, FcMesh *mesh);
/* The same partition for a mesh loaded by FcMeshLoadVolumeParted (rank 0 whole, the others the
 * header): rank 0 builds the node graph and sends each rank its rows, gets the numbering back and
 * sends each rank its part of the mesh (FcMeshSendParts). Collective. */
PetscErrorCode FcAssemblyPartitionParted(MPI_Comm comm, FcMesh *mesh);
/* Vectors of the body's layout read in the mesh's node order (FcVecAll): compose the map on u
 * before its duplicates are made (VecDuplicate keeps it). A no-op without a partition. */
PetscErrorCode FcAssemblyComposeNatural(const FcMesh *mesh, Vec u);
/* Several ranks, after the set-up, on a rank other than 0: keep of the mesh only the elements
 * this rank assembles and their nodes (mesh.h, "a trimmed mesh"), for a body whose whole mesh no
 * step reads there (no contact). u: the body's displacement (its natural map is emptied here).
 * A no-op on one rank, on rank 0 and without a partition. Not collective. */
PetscErrorCode FcAssemblyTrim(FcMesh *mesh, Vec u);
/* The number of elements this rank integrates (u: a vector of the body's layout). */
PetscErrorCode FcAssemblyOwnedElements(const FcMesh *mesh, Vec u, PetscInt *n);
/* f_int (may be NULL), K (may be NULL, ADD_VALUES after MatZeroEntries), energy (may be NULL).
 * fint and K are overwritten (zeroed here first), energy is the total.
 * An inadmissible state (some element with det F <= 0 at a quadrature point, for the models
 * that need det F > 0, see FcElementAdmissible) is not an error: energy and every entry of fint
 * are then +∞ and K holds the admissible elements only, so that a Newton iteration sees a
 * non-finite residual and can treat the iterate as failed (src/step/step.c). */
PetscErrorCode FcAssembleInternal(const FcMesh *mesh, FcMaterial mat, Vec u, PetscReal *energy, Vec fint, Mat K);
/* FcAssembleInternal with every element frame R taken from the displacements uframe instead of
 * u (uframe NULL: from u, i.e. FcAssembleInternal): the lagged frame R̂ = R0 of
 * `corotational_lagged` (han2023 §V-B), with uframe = u0 of the step. */
PetscErrorCode FcAssembleInternalLagged(const FcMesh *mesh, FcMaterial mat, Vec u, Vec uframe, PetscReal *energy, Vec fint, Mat K);
/* ok = det F > 0 and finite at every quadrature point of the element's internal-force rule, for
 * materials with a volumetric op (neohookean, mooney_rivlin); always true for the others. */
PetscErrorCode FcElementAdmissible(FcMaterial mat, PetscInt order, const PetscReal *Xe, const PetscReal *ue, PetscBool *ok);
/* M is overwritten with the consistent mass. */
PetscErrorCode FcAssembleMass(const FcMesh *mesh, PetscReal rho, Mat M);
/* f += ∫ rho g N dV */
PetscErrorCode FcAssembleBodyForce(const FcMesh *mesh, PetscReal rho, const PetscReal g[3], Vec f);
/* f += ∫_faces t N dA with a constant traction t (reference area). */
PetscErrorCode FcAssembleTraction(const FcMesh *mesh, PetscInt nfaces, const PetscInt *faces, const PetscReal t[3], Vec f);
/* f += ∫_faces (-p n) N dA with n the outward reference normal. */
PetscErrorCode FcAssemblePressure(const FcMesh *mesh, PetscInt nfaces, const PetscInt *faces, PetscReal p, Vec f);
/* Per-element von Mises stress of the Cauchy stress at the centroid (array of nelems, on every
 * rank: summed over the ranks). */
PetscErrorCode FcComputeVonMises(const FcMesh *mesh, FcMaterial mat, Vec u, PetscReal *vm);
/* The same into vm, a vector of the whole mesh's elements (any layout), each element set by the
 * rank that assembles it; the form for several ranks and trimmed meshes. */
PetscErrorCode FcComputeVonMisesVec(const FcMesh *mesh, FcMaterial mat, Vec u, Vec vm);
/* Every entry of a vector in global order on every rank, for what reads a distributed vector
 * by global index (probes, the writers of rank 0): on one rank the vector's own array (no copy,
 * the results bit for bit as before); on several, a copy gathered by VecScatterCreateToAll
 * (O(N) per rank and per call, as the replicated mesh: doc/mpi.md). Collective. */
typedef struct {
  Vec                v, vall;
  VecScatter         scatter;
  const PetscScalar *a;    /* the entries (NULL on a rank other than 0 after FcVecRootBegin) */
  const PetscScalar *held; /* the copy's array, as taken */
} FcVecAll;
PetscErrorCode FcVecAllBegin(Vec v, FcVecAll *all);
/* FcVecAllBegin for rank 0 alone (a writer of rank 0's, the VTK files): the others receive nothing
 * (a is NULL there) instead of the whole vector. Collective; ended by FcVecAllEnd. */
PetscErrorCode FcVecRootBegin(Vec v, FcVecAll *all);
PetscErrorCode FcVecAllEnd(FcVecAll *all);
/* A few entries of vectors of one layout, by mesh DoF, on every rank: what a probe reads at every
 * step (a node's three DoFs, a group's). On several ranks only those entries travel, by a
 * VecScatter made once (FcVecPickCreate, collective) and kept, instead of the whole vector to
 * every rank (FcVecAll: O(N) per rank and per call); on one rank they are read from the vector's
 * array. val[i] is entry dof[i] after FcVecPickRead (collective); the same values either way. */
typedef struct {
  PetscInt   n;
  PetscInt  *dof; /* the mesh DoFs (n) */
  PetscReal *val; /* their values after FcVecPickRead (n) */
  Vec        sub; /* several ranks: the gathered entries */
  VecScatter scatter;
} FcVecPick;
PetscErrorCode FcVecPickCreate(Vec v, PetscInt n, const PetscInt dof[], FcVecPick *pk);
/* The same with the entries' places in the distributed vector given (didx), on a rank that holds
 * no whole map of the body's DoFs (a distributed mesh: rank 0 maps them, doc/mpi.md). Collective. */
PetscErrorCode FcVecPickCreateAt(Vec v, PetscInt n, const PetscInt dof[], const PetscInt didx[], FcVecPick *pk);
PetscErrorCode FcVecPickRead(FcVecPick *pk, Vec v);
PetscErrorCode FcVecPickDestroy(FcVecPick *pk);

#endif
