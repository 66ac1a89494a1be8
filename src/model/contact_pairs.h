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

#endif
