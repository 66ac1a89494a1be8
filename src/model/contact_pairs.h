/* fcsim — contact pairs: what the case's contacts[] resolve to against the bodies' meshes
 * (contact_pairs.c). A case pair with both_passes gives two internal pairs, the second with the
 * roles swapped (doc/contact.md "Two-pass contact"); every first pass comes before every second
 * pass, so the contact keys (internal pair index × 1e9 + node) are unique and sorted. */
#ifndef FC_CONTACT_PAIRS_H
#define FC_CONTACT_PAIRS_H

#include "model.h"
#include "../collide/collide.h"
#include "../collide/mortar.h"

typedef struct {
  PetscInt      A, B;      /* contactor (deformable) and target body indices */
  PetscInt      casepair;  /* index of the case's contact pair (contacts[]) this pass belongs to */
  PetscBool     reverse;   /* second pass of a both_passes pair: A = contacts[i].body[1], B = body[0] */
  PetscInt      partner;   /* reverse pass: index of its first pass (-1 otherwise) */
  PetscInt     *twin;      /* reverse pass, per node of its contactor mesh: the first-pass contactor
                            * node at the same reference position, or -1 (duplicate rule) */
  PetscInt      npoints;
  PetscInt     *points;    /* contactor node indices */
  PetscInt      ntri;
  PetscInt     *tri;       /* target with a mesh (deformable, or rigid "mesh" shape): corner node triples */
  FcAABBTree    tree;      /* over tri; NULL for an analytic rigid shape */
  /* points, and tri with its tree, are shared by the pairs with the same contactor body and
   * surface (resp. target body and target surface): the pair that made them owns them. A group
   * of n bodies (doc/case-format.md "Many bodies") has n(n − 1) passes but only n surfaces. */
  PetscBool     own_points, own_target;
  PetscInt      target_owner; /* the pair that owns tri and tree (this one when own_target): a
                               * detection refits each tree once, through its owner */
  PetscReal     mu, alarm;
  PetscBool     mortar;    /* formulation "mortar": slave is the contactor surface */
  FcMortarSlave slave;
  /* detection state, kept by the contact step: the last detection (sorted by point) for frame
   * continuity and hysteresis */
  PetscInt      nprev;
  FcProximity  *prev;
} FcContactPair;

/* The pairs of model->c (input errors name the case key). On error *pairs holds the *npairs
 * pairs made so far (FcContactPairsDestroy frees them). */
PetscErrorCode FcContactPairsCreate(const FcModel *model, PetscInt *npairs, FcContactPair **pairs);
PetscErrorCode FcContactPairsDestroy(PetscInt npairs, FcContactPair **pairs);
/* mark[b] (allocated here for each body with DoFs, NULL otherwise): the DoFs a contact of these
 * pairs can touch (contactor points, target surface nodes, every DoF of a rigid target). */
PetscErrorCode FcContactPairsMark(const FcModel *model, PetscInt npairs, const FcContactPair *pairs, PetscBool **mark);

/* Broad phase (doc/case-format.md "Many bodies"): candidate[p] is true when pair p's bodies' boxes
 * overlap — each body's axis-aligned box over its nodes at their current places Xcur[b] (NULL
 * for a body without a mesh: an analytic rigid shape, whose box is taken as unbounded), inflated
 * by the largest alarm distance of its pairs — found by sort and sweep (FcBroadPhaseSweep,
 * O(nbodies log nbodies + candidates)). A pair that is not a candidate has no point within its
 * alarm distance, so the narrow phase (FcProximityFind) may skip it. Meant to run at every
 * detection (per correction iteration), before the narrow phase. */
PetscErrorCode FcContactPairsCandidates(const FcModel *model, PetscReal *const Xcur[], PetscInt npairs, const FcContactPair *pairs, PetscBool candidate[]);
/* The initial configuration may not overlap: per pair, the contactor points against the target
 * in the reference (t = 0) configuration; a penetration deeper than 1e-6 of the pair's alarm
 * distance (round-off of coincident faces) is an input error on contacts[entry] naming the two
 * bodies and the largest penetration. Pairs with candidate[p] false (the broad phase at t = 0;
 * NULL: every pair) are skipped. FcContactPairsCreate calls it. */
PetscErrorCode FcContactPairsCheckOverlap(const FcModel *model, PetscInt npairs, const FcContactPair *pairs, const PetscBool candidate[]);

#endif
