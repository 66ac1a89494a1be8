/* fcsim — the body object: its registry of types, its life cycle, and what the rest of the
 * program may ask of it (model.h). The struct is private to the model (body_impl.h): a step, a
 * contact step, a writer or the haptic loop calls these, and a body type fills the ops table. */
#include "body_impl.h"
#include "../core/registry.h"

typedef PetscErrorCode (*FcBodyCreateFn)(const FcCase *, PetscInt, FcBody *);

static FcRegistry BodyRegistry          = {.what = "body type"};
static PetscBool  BodyRegisterAllCalled = PETSC_FALSE;

PetscErrorCode FcBodyRegister(const char *type, PetscErrorCode (*create)(const FcCase *, PetscInt, FcBody *))
{
  PetscFunctionBegin;
  PetscCall(FcRegistryAdd(&BodyRegistry, type, (FcRegistryFn)create));
  PetscFunctionReturn(0);
}

/* Every body type, by the name a case gives in bodies[i].type, listed here once: a new type is a
 * file of src/model (its create function fills the ops table, body_impl.h) plus one line. */
#define FC_BODY_REGISTER(name, create) \
  do { \
    extern PetscErrorCode create(const FcCase *, PetscInt, FcBody *); \
    PetscCall(FcBodyRegister(name, create)); \
  } while (0)

PetscErrorCode FcBodyRegisterAll(void)
{
  PetscFunctionBegin;
  if (BodyRegisterAllCalled) PetscFunctionReturn(0);
  BodyRegisterAllCalled = PETSC_TRUE;
  FC_BODY_REGISTER("deformable", FcBodyCreate_Deformable);
  FC_BODY_REGISTER("rigid", FcBodyCreate_Rigid);
  PetscFunctionReturn(0);
}

/* The case's schema admits only registered type names, so an unknown one here is a program
 * error (a type named in the schema and not registered), not an input error. */
PetscErrorCode FcBodyCreate(const FcCase *c, PetscInt index, FcBody *b)
{
  const FcCaseBody *spec = &c->bodies[index];
  FcBodyCreateFn    create;
  char              list[256];

  PetscFunctionBegin;
  PetscCall(FcBodyRegisterAll());
  create = (FcBodyCreateFn)FcRegistryFind(&BodyRegistry, spec->type);
  FcRegistryList(&BodyRegistry, list, sizeof list);
  PetscCheck(create, PETSC_COMM_SELF, PETSC_ERR_ARG_UNKNOWN_TYPE, "body %s: unknown body type \"%s\" (registered: %s)", spec->name, spec->type, list);
  PetscCall(create(c, index, b));
  PetscFunctionReturn(0);
}

PetscErrorCode FcBodyDestroy(FcBody *b)
{
  PetscFunctionBegin;
  if (!*b) PetscFunctionReturn(0);
  if ((*b)->ops.destroy) PetscCall((*b)->ops.destroy(*b));
  PetscCall(VecDestroy(&(*b)->u));
  PetscCall(VecDestroy(&(*b)->v));
  PetscCall(VecDestroy(&(*b)->reaction));
  PetscCall(VecDestroy(&(*b)->ucur));
  PetscCall(VecDestroy(&(*b)->rate));
  PetscCall(VecDestroy(&(*b)->fcontact));
  PetscCall(PetscFree((*b)->bc_dofs));
  PetscCall(PetscFree2((*b)->part_n2d, (*b)->part_d2n));
  PetscCall(PetscFree((*b)->stab_ptr));
  PetscCall(PetscFree2((*b)->stab_dof, (*b)->stab_val));
  PetscCall(FcMaterialDestroy(&(*b)->material));
  PetscCall(FcMeshDestroy(&(*b)->mesh));
  PetscCall(PetscFree(*b));
  PetscFunctionReturn(0);
}

/* ---- accessors ---- */
const char       *FcBodyName(FcBody b) { return b->name; }
const FcCaseBody *FcBodySpec(FcBody b) { return b->spec; }
PetscInt          FcBodyNDof(FcBody b) { return b->ndof; }
PetscReal         FcBodyMass(FcBody b) { return b->mass; }
PetscReal         FcBodyVolume(FcBody b) { return b->volume; }
FcMaterial        FcBodyMaterial(FcBody b) { return b->material; }
PetscInt64        FcBodyOpState(FcBody b) { return b->opstate; }
const FcMesh     *FcBodyFieldMesh(FcBody b) { return b->meshfields ? &b->mesh : NULL; }
Vec               FcBodyU(FcBody b) { return b->u; }
Vec               FcBodyUCurrent(FcBody b) { return b->ucur; }
Vec               FcBodyV(FcBody b) { return b->v; }
Vec               FcBodyReaction(FcBody b) { return b->reaction; }
PetscReal         FcBodyStrainEnergy(FcBody b) { return b->strain_energy; }
PetscReal         FcBodyKineticEnergy(FcBody b) { return b->kinetic_energy; }
PetscBool         FcBodyHasDevice(FcBody b) { return (PetscBool)(b->device != NULL); }
PetscBool         FcBodyHasNodes(FcBody b) { return (PetscBool)(b->ops.nodes != NULL); }
PetscBool         FcBodyHasPointJacobian(FcBody b) { return (PetscBool)(b->ops.pointjacobian != NULL); }
PetscBool         FcBodyHasSchur(FcBody b) { return (PetscBool)(b->ops.getschur != NULL); }
PetscInt          FcBodyNNodes(FcBody b) { return b->ops.nodes ? b->mesh.nnodes : 0; }

PetscInt FcBodyConstrained(FcBody b, const PetscInt **dofs)
{
  *dofs = b->bc_dofs;
  return b->nbc;
}

PetscErrorCode FcBodyGetPlace(FcBody b, FcBodyPlace *p, PetscBool *has)
{
  PetscFunctionBegin;
  PetscCall(PetscMemzero(p, sizeof *p));
  *has = b->placed;
  if (!b->placed) PetscFunctionReturn(0);
  PetscCall(PetscArraycpy(p->c, b->rigid_c, 3));
  PetscCall(PetscArraycpy(p->d0, b->rigid_d0, 3));
  PetscCall(PetscArraycpy(p->d1, b->rigid_d1, 3));
  PetscCall(PetscArraycpy(p->R0, b->rigid_R0, 9));
  PetscCall(PetscArraycpy(p->R1, b->rigid_R1, 9));
  PetscFunctionReturn(0);
}

/* ---- the step's questions ---- */
PetscErrorCode FcBodyBeginStep(FcBody b, const FcStepInfo *s)
{
  PetscFunctionBegin;
  b->times.assembly = b->times.factor = b->times.solve = 0;
  b->shift                                             = 0;
  b->penalty                                           = 0;
  b->refactors                                         = 0;
  PetscCall(b->ops.beginstep(b, s));
  PetscFunctionReturn(0);
}

PetscErrorCode FcBodyResidual(FcBody b, const FcStepInfo *s, PetscReal *rnorm, PetscReal *scale)
{
  PetscFunctionBegin;
  PetscCall(b->ops.residual(b, s, rnorm, scale));
  PetscFunctionReturn(0);
}

PetscErrorCode FcBodySolve(FcBody b, const FcStepInfo *s, PetscReal *dxnorm)
{
  PetscFunctionBegin;
  PetscCall(b->ops.solve(b, s, dxnorm));
  PetscFunctionReturn(0);
}

PetscErrorCode FcBodySolveMulti(FcBody b, Mat B, Mat X)
{
  PetscFunctionBegin;
  PetscCheck(b->ops.solvemulti, PETSC_COMM_SELF, PETSC_ERR_SUP, "body %s has no DoFs to solve for", b->name);
  PetscCall(b->ops.solvemulti(b, B, X));
  PetscFunctionReturn(0);
}

PetscErrorCode FcBodyInverseEntries(FcBody b, PetscInt n, const PetscInt idx[], PetscReal out[], PetscBool *done)
{
  PetscFunctionBegin;
  *done = PETSC_FALSE;
  if (b->ops.inverseentries) PetscCall(b->ops.inverseentries(b, n, idx, out, done));
  PetscFunctionReturn(0);
}

PetscErrorCode FcBodyUpdate(FcBody b, const FcStepInfo *s)
{
  PetscFunctionBegin;
  PetscCall(b->ops.update(b, s));
  PetscFunctionReturn(0);
}

PetscErrorCode FcBodyEndStep(FcBody b, const FcStepInfo *s)
{
  PetscFunctionBegin;
  PetscCall(b->ops.endstep(b, s));
  PetscFunctionReturn(0);
}

PetscErrorCode FcBodyGetStepStats(FcBody b, FcBodyStepStats *st)
{
  PetscFunctionBegin;
  st->times     = b->times;
  st->shift     = b->shift;
  st->penalty   = b->penalty;
  st->refactors = b->refactors;
  PetscFunctionReturn(0);
}

/* ---- the contact step's questions ---- */
PetscErrorCode FcBodyNodes(FcBody b, PetscReal *x)
{
  PetscFunctionBegin;
  PetscCall(b->ops.nodes(b, x));
  PetscFunctionReturn(0);
}

PetscErrorCode FcBodyProximity(FcBody b, const PetscReal p[3], const PetscReal t1_prev[3], FcProximity *c)
{
  PetscFunctionBegin;
  PetscCall(b->ops.proximity(b, p, t1_prev, c));
  PetscFunctionReturn(0);
}

void FcBodyStartPoint(FcBody b, const PetscReal x[3], PetscReal x0[3]) { b->ops.startpoint(b, x, x0); }

void FcBodyPointJacobian(FcBody b, const PetscReal x[3], PetscReal *J) { b->ops.pointjacobian(b, x, J); }

PetscErrorCode FcBodySetParticipating(FcBody b, PetscInt np, const PetscInt *idx)
{
  PetscFunctionBegin;
  if (b->ops.setparticipating) PetscCall(b->ops.setparticipating(b, np, idx));
  PetscFunctionReturn(0);
}

PetscErrorCode FcBodyGetSchur(FcBody b, FcSchur *sch)
{
  PetscFunctionBegin;
  PetscCall(b->ops.getschur(b, sch));
  PetscFunctionReturn(0);
}

PetscErrorCode FcBodyGetIncrement(FcBody b, Vec *dx, Vec *rate, PetscReal *incscale)
{
  PetscFunctionBegin;
  if (dx) *dx = b->dx;
  if (rate) *rate = b->rate;
  if (incscale) *incscale = b->incscale;
  PetscFunctionReturn(0);
}

PetscErrorCode FcBodyGetContactForce(FcBody b, PetscBool create, Vec *f)
{
  PetscFunctionBegin;
  if (create && !b->fcontact) {
    PetscCall(VecDuplicate(b->dx, &b->fcontact));
    PetscCall(VecSet(b->fcontact, 0.0));
  }
  *f = b->fcontact;
  PetscFunctionReturn(0);
}

PetscErrorCode FcBodySetContactInFree(FcBody b, PetscBool on)
{
  PetscFunctionBegin;
  b->contact_in_free = on;
  PetscFunctionReturn(0);
}

PetscErrorCode FcBodySetChordTangent(FcBody b, PetscBool on)
{
  PetscFunctionBegin;
  b->chord = on;
  PetscFunctionReturn(0);
}

PetscErrorCode FcBodyDofMaps(FcBody b, const PetscInt **n2d, const PetscInt **d2n, PetscInt *rstart, PetscInt *rend)
{
  PetscFunctionBegin;
  PetscCheck(!b->mesh.gnode || b->part_n2d, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE,
    "Body %s: its mesh is trimmed on this rank (FcBodyTrimMesh): no whole DoF maps", b->name);
  *n2d    = b->part_n2d;
  *d2n    = b->part_d2n;
  *rstart = 0;
  *rend   = b->ndof;
  if (b->part_n2d) PetscCall(VecGetOwnershipRange(b->u, rstart, rend));
  PetscFunctionReturn(0);
}

PetscErrorCode FcBodyConstrainedMask(FcBody b, PetscBool mask[])
{
  const PetscInt *bc, nbc = FcBodyConstrained(b, &bc), *n2d, *d2n;
  PetscInt        rs, re;

  PetscFunctionBegin;
  PetscCall(FcBodyDofMaps(b, &n2d, &d2n, &rs, &re));
  for (PetscInt i = 0; i < b->ndof; i++) mask[i] = PETSC_FALSE;
  for (PetscInt i = 0; i < nbc; i++) mask[d2n ? d2n[bc[i]] : bc[i]] = PETSC_TRUE;
  if (b->mesh.parted) PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, mask, (PetscMPIInt)b->ndof, MPIU_BOOL, MPI_LOR, PETSC_COMM_WORLD));
  PetscFunctionReturn(0);
}

PetscErrorCode FcBodySetContactRows(FcBody b, PetscInt nrow, const PetscInt *ptr, const PetscInt *dof, const PetscReal *val)
{
  const PetscInt nnz = nrow ? ptr[nrow] : 0;

  PetscFunctionBegin;
  b->nstab = 0;
  if (!nrow) PetscFunctionReturn(0);
  if (b->stab_cap < nrow + 1) {
    PetscCall(PetscFree(b->stab_ptr));
    b->stab_cap = nrow + 1;
    PetscCall(PetscMalloc1(b->stab_cap, &b->stab_ptr));
  }
  if (b->stab_nnzcap < nnz) {
    PetscCall(PetscFree2(b->stab_dof, b->stab_val));
    b->stab_nnzcap = nnz;
    PetscCall(PetscMalloc2(b->stab_nnzcap, &b->stab_dof, b->stab_nnzcap, &b->stab_val));
  }
  PetscCall(PetscArraycpy(b->stab_ptr, ptr, nrow + 1));
  PetscCall(PetscArraycpy(b->stab_dof, dof, nnz));
  PetscCall(PetscArraycpy(b->stab_val, val, nnz));
  b->nstab    = nrow;
  b->stab_nnz = nnz;
  PetscFunctionReturn(0);
}

PetscErrorCode FcBodyTrimMesh(FcBody b)
{
  PetscFunctionBegin;
  if (!b->meshfields || !b->mesh.part_perm) PetscFunctionReturn(0);
  PetscCall(FcAssemblyTrim(&b->mesh, b->u));
  if (b->mesh.gnode) PetscCall(PetscFree2(b->part_n2d, b->part_d2n)); /* O(DoFs) each: what a trimmed rank no longer reads */
  PetscFunctionReturn(0);
}
