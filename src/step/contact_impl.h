/* fcsim — the contact step's private data (contact_step.c: the correction; contact_detect.c:
 * detection into the contact list). Not for use outside src/step. */
#ifndef FC_CONTACT_IMPL_H
#define FC_CONTACT_IMPL_H

#include "contact_step.h"
#include "../model/contact_pairs.h"
#include "../compliance/compliance.h"

/* Target nodes of one contact: 3 (node-to-surface: the closest triangle's corners) or, with the
 * mortar formulation, the master nodes of every triangle overlapping the slave node's support. */
#define FC_CONTACT_MAXT   32
#define FC_CONTACT_MAXDOF (3 + 3 * FC_CONTACT_MAXT) /* ≥ 3 + FC_RIGID_MAX_DOF */

/* Several ranks (contact_ghost.c): of one target surface (a catalogue set,
 * FcContactPair.target_owner) of a partitioned body, what this rank owns of it (the catalogue's,
 * FcContactPairsOwnSurface: its corner nodes, whose places it sends to the ranks whose points may
 * need them, and the faces whose corner 0 it owns, which it sends with them); at this detection
 * the faces other ranks sent it (4 ints each: index in the surface, corners; ascending), the whole
 * surface's scene size and its triangles' largest extent along an axis (rank 0's, broadcast); and
 * for -fc_contact_ranks_check_ghost on a rank other than 0 the whole surface, received once. */
typedef struct {
  PetscBool       made;
  PetscInt        nown, nof;
  const PetscInt *own, *of;
  PetscInt        nrf, rfcap, *rf;
  PetscReal       L, h;
  PetscBool       wmade;
  PetscInt       *wtri;
  FcAABBTree      wtree;
} FcGhostSurface;

struct _p_FcContactStep {
  FcModel        *model;
  PetscInt        npairs;
  FcContactPair  *pairs;
  FcPairCatalog   cat; /* every pass of the case; pairs: those whose boxes meet (contact_pairs.h) */
  FcContactSolver solver;
  FcCompliance    compliance;
  PetscBool     **isbc; /* per body: constrained DoF mask (NULL for bodies without DoFs) */
  PetscReal     **Xcur; /* per body with a mesh: current coordinates of its nodes (ops.nodes) */
  /* current contacts (contact_detect.c) */
  PetscInt    m, cap;
  PetscInt   *pair, *point, *tnodes, *nt, *status; /* tnodes, tw: FC_CONTACT_MAXT per contact, nt used;
                                                          * status: FcContactStatus */
  PetscReal  *tw, *frame, *gap, *xc, *r, *u, *rforce;
  PetscReal  *uhint; /* the previous correction's u by key, NaN for a new contact: the solver's velocity hint */
  PetscInt64 *key;
  /* the view (FcContactStepGetView): case pair index, frame and force of every contact expressed
   * for the pair's first body, contacts[i].body[0] (reverse-pass contacts flipped) */
  PetscInt         *vpair;
  PetscReal        *vframe, *vr;
  PetscBool        *keep; /* per row of W: needed (compliance.h, FcContactJacobian) */
  PetscInt         *kcol;
  FcContactProblem  prob;
  FcContactWChoice  wstorage; /* -fc_contact_w_storage: dense, sparse, or auto by fill (doc/contact.md) */
  PetscInt64        wblocks;  /* blocks of W's pattern in the last correction (pairs of contacts sharing a body) */
  PetscBool        *involved; /* per body: has DoFs and is touched by the current contacts */
  FcContactJacobian H;        /* of the current contacts */
  /* warm start: previous r and u = W r + q by key (sorted) */
  PetscInt    nprev, prevcap;
  PetscInt64 *prevkey;
  PetscReal  *prevr, *prevu;
  PetscInt    ncorr; /* corrections since FcContactStepBegin (this time step's Newton iterations) */
  /* active set of the previous correction (sorted keys) */
  PetscInt    nact, actcap;
  PetscInt64 *actkey;
  PetscBool   first;
  /* scratch of the normal rows of H handed to each body (StabilizationRows_Private, CSR) */
  PetscInt   stab_cap, stab_nnzcap;
  PetscInt  *stab_ptr, *stab_dof;
  PetscReal *stab_val;
  /* the linearization scheme (case.h contact_linearization; contact_linearize.c) */
  FcLinearization  lin;
  PetscInt         lin_max_it;
  PetscReal        lin_tol;
  PetscBool        wh_entries; /* fast: W_H by the entries of A⁻¹ (-fc_fast_wh_entries, contact_linearize.c) */
  PetscReal       *xrel0;      /* once: per contact, contactor point − target point at the step's detection */
  PetscInt         xrelcap;
  FcContactProblem probH; /* fast: W_H = G A⁻¹ Gᵀ (dense 3m × 3m, world rows) */
  PetscReal       *fwork; /* fast: 3m world forces Cᵀr, then 3m W_H Cᵀr; 9m previous frames */
  PetscInt         fcap;
  /* the previous correction of this step, by key (sorted): normal and world force, for the
   * statistics of the change between linearizations (lin_normal_turn, lin_force_change) */
  PetscInt    nlast, lastcap;
  PetscInt64 *lastkey;
  PetscReal  *lastnf; /* 6 per contact: n, f */
  /* several ranks (contact_mpi.c): per partitioned body, dx and rate in the mesh's order; NULL on one rank */
  PetscScalar **gdx, **grate;
  PetscInt64    gfaces;    /* target faces of this detection's ghosted trees (FcContactStepRanksFind_Private) */
  PetscInt64    gcheck[2]; /* -fc_contact_ranks_check_ghost, over the run: detections compared, differing */
  PetscInt      rrecv;     /* contacts whose r this rank received at the last correction (rank 0: m, its solve's) */
  PetscInt64    qrecv;     /* reals of dx and rate this rank received for q at the last correction (rank 0's alone) */
  /* the contact list on several ranks (contact_mpi.c FcContactStepRanksDistribute_Private): rank 0
   * holds the whole list (mg = m); another rank the contacts it touches, gidx their indices in rank
   * 0's list, and the skeleton of W's columns (ggptr, ggcon, gkcol: FcContactJacobian); ginv the
   * bodies involved in the whole list (the solves are collective). One rank: mg = m, the rest NULL. */
  PetscInt   mg;
  PetscInt  *gidx;
  PetscInt  *ggptr, *ggcon, *gkcol, gnkeep;
  PetscBool *ginv;
  PetscInt64 lrecv; /* bytes this rank received for the contact list at the last correction (records, contacts, skeleton) */
  /* detection's places on several ranks (contact_ghost.c): per partitioned body, rank 0's pick of
   * the contact surfaces' DoFs (the others' are empty); per target surface, the triangles this rank
   * owns (its corner nodes); each pass's query boxes; every rank's boxes of its own nodes */
  FcVecPick      *spick;
  FcGhostSurface *gsurf;
  PetscInt        ngsurf;
  PetscInt       *gnq; /* per pass of the list: this rank's query boxes (FcContactStepRanksBoxes_Private) */
  PetscReal     **gq;
  PetscInt        gqcap;
  PetscReal      *gobox;                 /* every rank's box of its own nodes of each body, rank after rank (6 per body) */
  PetscInt64      drecv, drecvb, greach; /* reals received for detection at the last correction: places of nodes, boxes and sizes; fetched faces within box 0 */
  PetscInt64      drecvf;                /* faces received for detection at the last correction (their topology: 4 ints each) */
  /* a rank's part of a distributed mesh (FcMesh.gnode): per body, the reference places as a vector
   * of its own rows (the corners it fetches are X + u, read from their owners), and the nodes whose
   * places it received at the last detection with their distributed indices (pairs, by node) */
  Vec      *gX;
  PetscInt *gnrecv, **grecv;
};

/* Detection at the current iterate for every pair: fills the contact list (m, pair, point,
 * target nodes and weights, frame, gap, xc, key). */
PetscErrorCode FcContactStepDetect_Private(FcContactStep cs);
PetscErrorCode FcContactStepListDestroy_Private(FcContactStep cs);
/* room for m contacts in the list (contact_detect.c) */
PetscErrorCode FcContactStepReserve_Private(FcContactStep cs, PetscInt m);

/* contact_step.c's stages, shared with contact_linearize.c */
PetscErrorCode FcContactStepJacobian_Private(FcContactStep cs);
PetscErrorCode FcContactStepFormQ_Private(FcContactStep cs, PetscReal rscale);
void           FcContactStepWarmStart_Private(FcContactStep cs);
PetscErrorCode FcContactStepSolve_Private(FcContactStep cs, FcContactStats *st);

/* contact_linearize.c: the schemes other than "recursive" (issue 28) */
/* A case's pairs that the scheme cannot handle: one input-error line. */
PetscErrorCode FcContactStepCheckLinearization_Private(FcContactStep cs);
/* once: at the step's first correction, remember the relative positions; later, keep the
 * contact list and frames and move each gap by the normal relative motion since then. */
PetscErrorCode FcContactStepOnceKeep_Private(FcContactStep cs);
PetscErrorCode FcContactStepOnceGaps_Private(FcContactStep cs);
/* fast: W_H once, then the re-linearizations (Algorithm 3); leaves cs->H, prob, r and u of the
 * last one, for the single correction of the bodies. */
PetscErrorCode FcContactStepFast_Private(FcContactStep cs, PetscReal rscale, FcContactStats *st);
PetscErrorCode FcContactStepLinDestroy_Private(FcContactStep cs);
/* lin_turn and lin_dforce against the previous correction of the step (compare), then remember
 * this one's normals and forces (contact_linearize.c) */
PetscErrorCode FcContactStepLinChange_Private(FcContactStep cs, FcContactStats *st, PetscBool compare);

/* contact_mpi.c: several MPI ranks (doc/mpi.md "Contact"); each a no-op on one rank. SetUp: the
 * constrained-DoF masks in the mesh's numbering. Gather: every partitioned body's dx and rate at
 * the contacts' DoFs, in the mesh's order, to rank 0 alone (collective; *skip on the other ranks,
 * which form no q), which Read then hands for body b instead of its own arrays.
 * Apply: Hᵀ r into this rank's rows and the correction by the distributed solve (*done: it was
 * body b's; not for a body whose vectors are not partitioned). Share: after the solve on rank 0 alone (W
 * is summed there only; contact_step.c Solve_Private), its verdict broadcast and r sent to the ranks its contacts touch. */
PetscErrorCode FcContactStepRanksSetUp_Private(FcContactStep cs);
PetscErrorCode FcContactStepRanksDestroy_Private(FcContactStep cs);
PetscErrorCode FcContactStepRanksGather_Private(FcContactStep cs, PetscBool *skip);
void           FcContactStepRanksRead_Private(FcContactStep cs, PetscInt b, const PetscScalar **dx, const PetscScalar **rate);
PetscErrorCode FcContactStepRanksApply_Private(FcContactStep cs, PetscInt b, PetscBool *done);
PetscErrorCode FcContactStepRanksShare_Private(FcContactStep cs, FcContactStats *st);
/* After rank 0 alone formed the active set (statuses, counts, changed, nact: contact_step.c
 * ActiveSet_Private), its verdict broadcast; on another rank the forces r/rscale of the contacts
 * whose r it received (zero elsewhere) and every status "separated" (it writes no contact row:
 * rank 0 writes run.h5's contact datasets, src/io/h5out.c). Rows: each body's count of the inertia
 * correction's rows, rank 0's (the others' rows stay empty: rank 0 alone adds them to A).
 * BcastForce: Hᵀ r of a body every rank holds whole, formed by rank 0 (the only rank with all of
 * r), to every rank. Each a no-op on one rank. */
PetscErrorCode FcContactStepRanksActive_Private(FcContactStep cs, PetscReal rscale, FcContactStats *st, PetscBool *changed);
PetscErrorCode FcContactStepRanksRows_Private(FcContactStep cs, PetscInt nrow[]);
PetscErrorCode FcContactStepRanksBcastForce_Private(PetscScalar f[], PetscInt n);
/* Detection by owner (contact_mpi.c): Points, the contactor points of pass P this rank detects
 * (those of the nodes it owns; every point on one rank, *own NULL, else free *own);
 * GatherDetection, every rank's detections of each pass gathered to rank 0 (the others keep their own). */
PetscErrorCode FcContactStepRanksPoints_Private(FcContactStep cs, const FcContactPair *P, PetscInt *n, const PetscInt **pts, PetscInt **own);
PetscErrorCode FcContactStepRanksGatherDetection_Private(FcContactStep cs, FcProximity **outs, PetscInt *nouts);
/* After detection (collective): rank 0, which holds the whole list, forms H, then sends every other
 * rank the contacts it touches (and, of a mortar pass, its own points' final records for the next
 * detection) and W's column skeleton; that rank forms H of its contacts. *hdone: H is formed. One
 * rank: mg = m, nothing else. */
PetscErrorCode FcContactStepRanksDistribute_Private(FcContactStep cs, PetscBool *hdone);
/* The query boxes of this rank's points of pass P (contact_ghost.c): box 0, its points' box inflated by
 * the alarm, and one per kept point beyond the alarm (XB read at its previous triangle's corners). */
PetscErrorCode FcContactStepRanksBoxes_Private(const FcContactPair *P, const PetscReal *XA, const PetscReal *XB, PetscInt np, const PetscInt pts[],
  const FcProximityOptions *opt, PetscReal margin, PetscInt *nbox, PetscReal **box);
/* contact_ghost.c, several ranks only (no rank gathers a partitioned body's u whole for detection).
 * SetUp: rank 0's pick of the contact surfaces' DoFs (mark: FcContactPairsMark). Places (collective,
 * at every detection): the places this rank needs — its own nodes, rank 0's also the surfaces',
 * another rank's also the target nodes near its points, sent by their owners — the broad phase on
 * the bodies' boxes combined over the ranks, and each pass's query boxes. Select (pass P of a
 * partitioned target, this rank's points): the target faces whose box meets the query boxes, in
 * the whole surface's order (FcAABBTreeSelect's set: *sel their indices in the surface, *selc
 * their corners, 3 each), *L the whole surface's scene size and a copy of the query boxes (free
 * *box, *sel, *selc). */
PetscErrorCode FcContactStepGhostSetUp_Private(FcContactStep cs, PetscBool **mark);
PetscErrorCode FcContactStepGhostDestroy_Private(FcContactStep cs);
PetscErrorCode FcContactStepGhostPlaces_Private(FcContactStep cs);
PetscErrorCode FcContactStepGhostSelect_Private(
  FcContactStep cs, const FcContactPair *P, PetscReal *L, PetscInt *nbox, PetscReal **box, PetscInt *nsel, PetscInt **sel, PetscInt **selc);
/* The narrow phase of pass P for this rank's points against ghosted targets (contact_ghost.c): the
 * faces within the search radius, in a tree over that subset; on one rank the whole tree. Every rank
 * calls it for every pass with a tree (with -fc_contact_ranks_check_ghost it is collective). */
PetscErrorCode FcContactStepRanksFind_Private(
  FcContactStep cs, const FcContactPair *P, PetscInt np, const PetscInt pts[], const FcProximityOptions *opt, PetscInt *nout, FcProximity **out);

#endif
