/* fcsim — contact pairs: what the case's contacts[] resolve to against the bodies' meshes
 * (contact_pairs.c). A case pair with both_passes gives two internal pairs (passes), the second
 * with the roles swapped (doc/contact.md "Two-pass contact"); every first pass comes before every
 * second pass, so the contact keys (pass index × 1e9 + node) are unique and sorted. */
#ifndef FC_CONTACT_PAIRS_H
#define FC_CONTACT_PAIRS_H

#include "model.h"
#include "../collide/collide.h"
#include "../collide/mortar.h"

/* The catalogue of a case's passes (contact_pairs.c): the contactor point sets and target surfaces
 * (with their trees) per body and group key, shared by every pass made from them, and where each
 * body sits in each entry's groups. A pass itself (FcContactPair) is made only while its bodies'
 * boxes meet (the broad phase, FcContactPairsUpdate) and dropped when they part: a group of n
 * bodies (doc/case-format.md "Many bodies") stands for n(n − 1) passes, of which a wall or a pile
 * has O(n) near each other. */
typedef struct _n_FcPairCatalog *FcPairCatalog;

typedef struct {
  PetscInt      index;    /* the pass's index: case pair i's first pass is i, the second passes
                            * follow every first pass in case pair order; the contact keys are
                            * index × 1e9 + node, so they do not depend on which passes are made */
  PetscInt      A, B;     /* contactor (deformable) and target body indices */
  PetscInt      casepair; /* index of the case's contact pair (contacts[]) this pass belongs to */
  PetscBool     reverse;  /* second pass of a both_passes pair: A = contacts[i].body[1], B = body[0] */
  PetscInt      partner;  /* reverse pass: its first pass's place in the list (-1 otherwise) */
  PetscInt     *twin;     /* reverse pass, per node of its contactor mesh: the first-pass contactor
                            * node at the same reference position, or -1 (duplicate rule) */
  PetscInt      npoints;
  PetscInt     *points; /* contactor node indices (the catalogue's) */
  PetscInt      ntri;
  PetscInt     *tri;          /* target with a mesh (deformable, or rigid "mesh" shape): corner node triples */
  FcAABBTree    tree;         /* over tri (the catalogue's); NULL for an analytic rigid shape */
  PetscInt      target_owner; /* the catalogue's set of tri and tree (shared by the passes with
                               * that target surface: refit once per update) */
  PetscReal     mu, alarm;
  PetscBool     mortar; /* formulation "mortar": slave is the contactor surface */
  FcMortarSlave slave;
  /* detection state, kept by the contact step: the last detection (sorted by point) for frame
   * continuity and hysteresis; dropped with the pass */
  PetscInt     nprev;
  FcProximity *prev;
} FcContactPair;

/* The catalogue of model->c's passes, every pass checked as it would be made (input errors name
 * the case key, in pass order), and the passes whose bodies' boxes meet at t = 0 (*pairs, sorted
 * by index; FcContactPairsCheckOverlap run on them). On error what was made is returned for
 * FcContactPairsDestroy. */
PetscErrorCode FcContactPairsCreate(const FcModel *model, FcPairCatalog *cat, PetscInt *npairs, FcContactPair **pairs);
PetscErrorCode FcContactPairsDestroy(FcPairCatalog *cat, PetscInt npairs, FcContactPair **pairs);
/* mark[b] (allocated here for each body with DoFs, NULL otherwise): the DoFs a contact of any pass
 * can touch (contactor points, target surface nodes, every DoF of a rigid target). */
PetscErrorCode FcContactPairsMark(const FcModel *model, FcPairCatalog cat, PetscBool **mark);

/* Several ranks (issue 29: "never whole surfaces on every rank"; doc/mpi.md "Contact"), after
 * FcContactPairsCreate and FcContactPairsMark: each target surface of a partitioned body (one with
 * DoF maps, FcBodyDofMaps) lists what this rank owns of it — its corner nodes and the faces whose
 * corner 0 it owns (FcContactPairsOwnSurface) — and on a rank other than 0 frees the whole
 * surface's triangles and tree (a pass's tri and tree are NULL there, ntri stays the whole count):
 * its detection gets the faces in reach from their owners (src/step/contact_ghost.c). Rank 0 keeps
 * the whole surfaces (the list, the mortar weights and the duplicate rule are its own); the other
 * ranks drop the second passes' twins. */
PetscErrorCode FcContactPairsShed(const FcModel *model, FcPairCatalog cat, PetscMPIInt rank, PetscInt npairs, FcContactPair *pairs);
/* Target set s's own corner nodes (ascending) and own faces (4 ints each: index in the surface,
 * corners; ascending), as FcContactPairsShed made them. */
PetscErrorCode FcContactPairsOwnSurface(FcPairCatalog cat, PetscInt s, PetscInt *nnodes, const PetscInt **nodes, PetscInt *nfaces, const PetscInt **faces);
/* The faces of the catalogue's target surfaces this rank holds (the whole surface's, or after
 * FcContactPairsShed the faces whose corner 0 it owns) and the whole surfaces' count. */
PetscErrorCode FcContactPairsSurfaceFaces(FcPairCatalog cat, PetscInt64 *held, PetscInt64 *whole);

/* Broad phase (doc/case-format.md "Many bodies"): the list becomes the passes whose bodies' boxes
 * meet — each body's axis-aligned box over its nodes at their current places Xcur[b] (NULL for a
 * body without a mesh: an analytic rigid shape, whose box is taken as unbounded), inflated by the
 * largest alarm distance of its passes — found by sort and sweep (FcBroadPhaseSweep, O(nbodies log
 * nbodies + candidates)), in the order of their index. A pass that stays keeps its state (prev); a
 * pass that leaves is freed (a pass whose boxes do not meet has no point within its alarm
 * distance); a new one is made (its twins from the reference configuration). The trees of the
 * list's targets are refit at Xcur. Meant to run at every detection, before the narrow phase. */
PetscErrorCode FcContactPairsUpdate(const FcModel *model, FcPairCatalog cat, PetscReal *const Xcur[], PetscInt *npairs, FcContactPair **pairs);
/* FcContactPairsUpdate with the bodies' boxes given (raw: 6 per body, lo then hi, not inflated,
 * as FcContactPairsBodyBoxes makes them; NULL: from Xcur) and only the target trees of the bodies
 * with refit[b] refit (NULL: all). Several ranks (src/step/contact_ghost.c): each rank's box of the
 * nodes it owns, combined by MIN/MAX over the ranks (exact: the same boxes bit for bit), and no
 * refit of a tree over nodes a rank does not hold. */
PetscErrorCode FcContactPairsUpdateBoxes(
  const FcModel *model, FcPairCatalog cat, const PetscReal raw[], PetscReal *const Xcur[], const PetscBool refit[], PetscInt *npairs, FcContactPair **pairs);
/* Each body's box over its nodes at Xcur[b] (6 per body: lo, hi; unbounded for NULL), not inflated. */
PetscErrorCode FcContactPairsBodyBoxes(const FcModel *model, PetscReal *const Xcur[], PetscReal raw[]);
/* The initial configuration may not overlap: per pass, the contactor points against the target
 * in the reference (t = 0) configuration; a penetration deeper than 1e-6 of the pass's alarm
 * distance (round-off of coincident faces) is an input error on contacts[entry] naming the two
 * bodies and the largest penetration. FcContactPairsCreate calls it on the passes whose boxes meet
 * at t = 0 (the others cannot overlap). */
PetscErrorCode FcContactPairsCheckOverlap(const FcModel *model, PetscInt npairs, const FcContactPair *pairs);

#endif
