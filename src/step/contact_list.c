/* fcsim — the contact list's storage and H (split out of contact_detect.c and contact_problem.c so
 * that the files that fill the list — detection on one rank, contact_mpi.c's distribution on
 * several — and the one that forms q and solves all build on it without calling each other back):
 * the per-contact arrays, grown keeping the contacts already added, and H's rows for every contact
 * (its bodies' DoFs and coefficients: compliance.h, FcContactJacobian). doc/contact.md explains
 * the formulation. */
#include "contact_impl.h"

/* Room for m contacts in the list's arrays (the contacts already added kept). */
PetscErrorCode FcContactStepReserve_Private(FcContactStep cs, PetscInt m)
{
  PetscFunctionBegin;
  PetscInt old = cs->cap;

  if (m <= cs->cap) PetscFunctionReturn(0);
  cs->cap = PetscMax(m, 2 * cs->cap);
  /* grow keeping the contacts already added: k values per contact */
#define FC_GROW(p, n) \
  do { \
    void *np_; \
    PetscCall(PetscMalloc((size_t)(n) * sizeof(*(p)), &np_)); \
    if (old) PetscCall(PetscMemcpy(np_, (p), (size_t)((n) / cs->cap * old) * sizeof(*(p)))); \
    PetscCall(PetscFree(p)); \
    (p) = np_; \
  } while (0)
  FC_GROW(cs->pair, cs->cap);
  FC_GROW(cs->point, cs->cap);
  FC_GROW(cs->status, cs->cap);
  FC_GROW(cs->tnodes, FC_CONTACT_MAXT * cs->cap);
  FC_GROW(cs->nt, cs->cap);
  FC_GROW(cs->tw, FC_CONTACT_MAXT * cs->cap);
  FC_GROW(cs->frame, 9 * cs->cap);
  FC_GROW(cs->gap, cs->cap);
  FC_GROW(cs->xc, 3 * cs->cap);
  FC_GROW(cs->r, 3 * cs->cap);
  FC_GROW(cs->u, 3 * cs->cap);
  FC_GROW(cs->uhint, 3 * cs->cap);
  FC_GROW(cs->rforce, 3 * cs->cap);
  FC_GROW(cs->key, cs->cap);
  FC_GROW(cs->vpair, cs->cap);
  FC_GROW(cs->vframe, 9 * cs->cap);
  FC_GROW(cs->vr, 3 * cs->cap);
  FC_GROW(cs->keep, 3 * cs->cap);
  FC_GROW(cs->kcol, 3 * cs->cap);
  FC_GROW(cs->gidx, cs->cap);
#undef FC_GROW
  PetscFunctionReturn(0);
}

/* The nonzeros of row block a of H_b: DoFs of contact a on body b and, per DoF, the
 * coefficients of the three frame rows (zero on constrained DoFs are skipped). */
static PetscInt Entries_Private(FcContactStep cs, PetscInt a, PetscInt b, PetscInt dofs[FC_CONTACT_MAXDOF], PetscReal coef[FC_CONTACT_MAXDOF][3])
{
  const FcContactPair *P    = &cs->pairs[cs->pair[a]];
  FcBody               body = cs->model->bodies[b];
  PetscInt             n    = 0;
  if (P->A == b)
    for (int k = 0; k < 3; k++) {
      PetscInt dof = 3 * cs->point[a] + k;
      if (cs->isbc[b][dof]) continue;
      dofs[n] = dof;
      for (int i = 0; i < 3; i++) coef[n][i] = cs->frame[9 * a + 3 * i + k];
      n++;
    }
  if (P->B == b && FcBodyHasPointJacobian(body)) {
    /* a target with DoFs whose points move with J ẋ_B (a rigid body): H_B = −F J (F: the frame rows) */
    const PetscInt nd = FcBodyNDof(body);
    PetscReal      J[3 * FC_RIGID_MAX_DOF];
    FcBodyPointJacobian(body, &cs->xc[3 * a], J);
    for (PetscInt d = 0; d < nd; d++) {
      dofs[n] = d;
      for (int i = 0; i < 3; i++) {
        coef[n][i] = 0;
        for (int k = 0; k < 3; k++) coef[n][i] -= cs->frame[9 * a + 3 * i + k] * J[k * nd + d];
      }
      n++;
    }
  } else if (P->B == b)
    for (PetscInt j = 0; j < cs->nt[a]; j++)
      for (int k = 0; k < 3; k++) {
        PetscInt dof = 3 * cs->tnodes[FC_CONTACT_MAXT * a + j] + k;
        if (cs->isbc[b][dof]) continue;
        dofs[n] = dof;
        for (int i = 0; i < 3; i++) coef[n][i] = -cs->tw[FC_CONTACT_MAXT * a + j] * cs->frame[9 * a + 3 * i + k];
        n++;
      }
  return n;
}

/* H of the current contacts (compliance.h, FcContactJacobian): the bodies touched, the rows W
 * needs, and per touched body its entries, contact by contact. */
PetscErrorCode FcContactStepJacobian_Private(FcContactStep cs)
{
  FcModel           *model = cs->model;
  const PetscInt     m     = cs->m;
  FcContactJacobian *H     = &cs->H;

  PetscFunctionBegin;
  /* bodies with DoFs (deformable, dynamic rigid) touched by this correction's contacts */
  for (PetscInt b = 0; b < model->nbodies; b++) cs->involved[b] = cs->ginv ? cs->ginv[b] : PETSC_FALSE; /* another rank: the whole list's (contact_mpi.c) */
  for (PetscInt a = 0; a < m; a++) {
    const FcContactPair *P = &cs->pairs[cs->pair[a]];
    if (FcBodyNDof(model->bodies[P->A])) cs->involved[P->A] = PETSC_TRUE;
    if (FcBodyNDof(model->bodies[P->B])) cs->involved[P->B] = PETSC_TRUE;
  }
  /* the rows W needs: all three of a frictional contact, the normal one of a frictionless one */
  H->nkeep = 0;
  for (PetscInt a = 0; a < m; a++) {
    const PetscBool fr = (PetscBool)(cs->pairs[cs->pair[a]].mu > 0);
    for (int i = 0; i < 3; i++) {
      cs->keep[3 * a + i] = (PetscBool)(i == 0 || fr);
      if (cs->keep[3 * a + i]) cs->kcol[H->nkeep++] = 3 * a + i;
    }
  }
  H->m    = m;
  H->keep = cs->keep;
  H->kcol = cs->kcol;
  H->part = PETSC_FALSE;
  H->mg   = m; /* the whole list (another rank: contact_mpi.c sets its part's) */
  H->gidx = H->gkcol = H->ggptr = H->ggcon = NULL;
  H->gnkeep                                = 0;
  for (PetscInt b = 0; b < model->nbodies; b++) {
    FcJacobianBlock *J = &H->body[b];
    if (!cs->involved[b]) continue;
    if (J->mcap < m + 1) {
      PetscCall(PetscFree(J->ptr));
      J->mcap = m + 1;
      PetscCall(PetscMalloc1(J->mcap, &J->ptr));
    }
    J->ptr[0] = 0;
    for (PetscInt a = 0; a < m; a++) {
      PetscInt  dofs[FC_CONTACT_MAXDOF], nd;
      PetscReal coef[FC_CONTACT_MAXDOF][3];
      nd = Entries_Private(cs, a, b, dofs, coef);
      if (J->ptr[a] + nd > J->ecap) { /* grow, keeping the entries so far */
        PetscInt  cap = PetscMax(2 * J->ecap, J->ptr[a] + nd + 3 * m);
        PetscInt *d;
        PetscReal(*cf)[3];
        PetscCall(PetscMalloc2(cap, &d, cap, &cf));
        PetscCall(PetscArraycpy(d, J->dof, J->ptr[a]));
        PetscCall(PetscArraycpy(cf, J->coef, J->ptr[a]));
        PetscCall(PetscFree2(J->dof, J->coef));
        J->dof  = d;
        J->coef = cf;
        J->ecap = cap;
      }
      for (PetscInt k = 0; k < nd; k++) {
        J->dof[J->ptr[a] + k] = dofs[k];
        for (int i = 0; i < 3; i++) J->coef[J->ptr[a] + k][i] = coef[k][i];
      }
      J->ptr[a + 1] = J->ptr[a] + nd;
    }
  }
  PetscFunctionReturn(0);
}
