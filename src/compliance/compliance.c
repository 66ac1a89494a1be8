/* fcsim — the compliance-strategy object: registry, participating DoFs, the shared kernels
 * (compliance.h). The registry is the shared static table of src/core/registry.h. */
#include "compliance.h"
#include "../core/registry.h"
#include <string.h>

static FcRegistry ComplianceRegistry          = {.what = "compliance strategy"};
static PetscBool  ComplianceRegisterAllCalled = PETSC_FALSE;
/* each type's capabilities (FC_COMPLIANCE_RANKS, ...), in the registry's order */
static struct {
  char     name[FC_NAME_LEN];
  unsigned flags;
} ComplianceFlags[FC_REGISTRY_MAX];
static int ComplianceNFlags;

PetscErrorCode FcComplianceRegister(const char *name, PetscErrorCode (*create)(FcCompliance), unsigned flags)
{
  PetscFunctionBegin;
  PetscCall(FcRegistryAdd(&ComplianceRegistry, name, (FcRegistryFn)create));
  PetscCheck(ComplianceNFlags < FC_REGISTRY_MAX, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Too many compliance strategies");
  PetscCall(PetscStrncpy(ComplianceFlags[ComplianceNFlags].name, name, sizeof ComplianceFlags[0].name));
  ComplianceFlags[ComplianceNFlags++].flags = flags;
  PetscFunctionReturn(0);
}

/* Every strategy is listed here, once, with what it can do: a new one is a file in this folder
 * plus one line. */
#define FC_COMPLIANCE_REGISTER(name, create, flags) \
  do { \
    extern PetscErrorCode create(FcCompliance); \
    PetscCall(FcComplianceRegister(name, create, flags)); \
  } while (0)

PetscErrorCode FcComplianceRegisterAll(void)
{
  PetscFunctionBegin;
  if (ComplianceRegisterAllCalled) PetscFunctionReturn(0);
  ComplianceRegisterAllCalled = PETSC_TRUE;
  FC_COMPLIANCE_REGISTER("exact", FcComplianceCreate_Exact, FC_COMPLIANCE_RANKS);
  FC_COMPLIANCE_REGISTER("precomputed", FcComplianceCreate_Precomputed, FC_COMPLIANCE_RANKS);
  FC_COMPLIANCE_REGISTER("schur", FcComplianceCreate_Schur, 0);
  FC_COMPLIANCE_REGISTER("lagged", FcComplianceCreate_Lagged, FC_COMPLIANCE_DEFORMABLE);
  PetscFunctionReturn(0);
}

PetscErrorCode FcComplianceFinalizePackage(void)
{
  PetscFunctionBegin;
  FcRegistryClear(&ComplianceRegistry);
  ComplianceRegisterAllCalled = PETSC_FALSE;
  ComplianceNFlags            = 0;
  PetscFunctionReturn(0);
}

void FcComplianceTypes(char *buf, size_t len) { FcRegistryList(&ComplianceRegistry, buf, len); }

PetscErrorCode FcComplianceCheckType(const char *file, const char *type)
{
  char list[256];

  PetscFunctionBegin;
  PetscCall(FcComplianceRegisterAll());
  if (FcRegistryFind(&ComplianceRegistry, type)) PetscFunctionReturn(0);
  FcComplianceTypes(list, sizeof list);
  return FcInputError(file, "compliance.type", "\"%s\" is not allowed (choices: %s)", type, list);
}

PetscErrorCode FcComplianceCheckCase(const FcCase *c, PetscMPIInt size)
{
  unsigned  flags      = 0;
  PetscBool deformable = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(FcComplianceRegisterAll());
  if (c->ncontacts) PetscCall(FcComplianceCheckType(c->file, c->compliance_type)); /* without contact the type is not used: an unknown name then errs nowhere */
  for (int i = 0; i < ComplianceNFlags; i++)
    if (!strcmp(ComplianceFlags[i].name, c->compliance_type)) flags = ComplianceFlags[i].flags; /* the registry's own table */
  for (PetscInt i = 0; i < c->nbodies; i++) deformable = (PetscBool)(deformable || !c->bodies[i].rigid);
  FcCheckInput(deformable || !(flags & FC_COMPLIANCE_DEFORMABLE), c->file, "compliance.type",
    "\"%s\" factors the Newton matrix of a deformable body, and every body here is rigid (a rigid body's compliance is exact: use \"exact\")",
    c->compliance_type);
  /* contact on several ranks (doc/mpi.md "Contact"): W by the distributed solves of "exact"; the
   * other strategies keep per-body dense blocks or factorizations of one rank */
  if (size > 1 && c->ncontacts && !(flags & FC_COMPLIANCE_RANKS))
    return FcInputError(
      c->file, "compliance.type", "\"%s\" runs on one process only: %d were started by mpiexec; use \"exact\" (doc/mpi.md)", c->compliance_type, (int)size);
  PetscFunctionReturn(0);
}

/* What a body needs of the strategy, asked of the strategy's flags (set by its create function),
 * not of its name: a "global_corotational" body splits its compliance into the rigid and the
 * elastic part inside its own solves (src/model/body_deformable.c), which only a strategy that
 * applies A_b⁻¹ through them (c->current: exact) uses; precomputed would keep the first step's
 * frame, schur factors A_pp with no room for the split. The case is read for the body's
 * kinematics (bodies[i] is model body i). */
static PetscErrorCode CheckBodies_Private(FcCompliance c)
{
  const FcCase *cs = c->model->c;
  char          path[256];

  PetscFunctionBegin;
  for (PetscInt i = 0; i < cs->nbodies && !c->current; i++) {
    if (!cs->bodies[i].corotational) continue;
    FcCaseBodyPath(cs, i, "kinematics", path, sizeof path);
    return FcInputError(
      cs->file, path, "\"global_corotational\" needs a compliance that applies the current A through the body's solves (exact), not \"%s\"", c->type);
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcComplianceCreate(FcModel *model, const char *type, FcCompliance *out)
{
  FcCompliance c;
  PetscErrorCode (*create)(FcCompliance);
  PetscErrorCode ierr;

  PetscFunctionBegin;
  *out = NULL;
  PetscCall(FcComplianceCheckType(model->c->file, type));
  create = (PetscErrorCode(*)(FcCompliance))FcRegistryFind(&ComplianceRegistry, type);
  PetscCall(PetscNew(&c));
  c->model = model;
  PetscCall(PetscStrncpy(c->type, type, sizeof c->type));
  PetscCall(PetscCalloc3(model->nbodies, &c->ns, model->nbodies, &c->sdof, model->nbodies, &c->sidx));
  *out = c;
  PetscCall((*create)(c));
  ierr = CheckBodies_Private(c);
  if (ierr) { /* an input error: nothing of the strategy is left behind */
    PetscCall(FcComplianceDestroy(out));
    return ierr;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcComplianceDestroy(FcCompliance *pc)
{
  FcCompliance c = *pc;

  PetscFunctionBegin;
  if (!c) PetscFunctionReturn(0);
  if (c->ops.destroy) PetscCall(c->ops.destroy(c));
  for (PetscInt b = 0; b < c->model->nbodies; b++) {
    PetscCall(PetscFree(c->sdof[b]));
    PetscCall(PetscFree(c->sidx[b]));
  }
  PetscCall(PetscFree3(c->ns, c->sdof, c->sidx));
  PetscCall(PetscFree(*pc));
  PetscFunctionReturn(0);
}

/* The participating DoFs: marked and not constrained; sdof ascending, sidx its inverse. */
PetscErrorCode FcComplianceSetParticipating(FcCompliance c, PetscBool *const mark[])
{
  FcModel *model = c->model;

  PetscFunctionBegin;
  if (!c->participating) PetscFunctionReturn(0);
  for (PetscInt b = 0; b < model->nbodies; b++) {
    FcBody         body = model->bodies[b];
    PetscBool     *free_;
    PetscInt       n  = 0;
    const PetscInt nd = FcBodyNDof(body);
    if (!nd || !mark[b]) continue;
    PetscCall(PetscMalloc1(nd, &free_));
    PetscCall(FcBodyConstrainedMask(body, free_)); /* several ranks: every rank's constrained DoFs */
    for (PetscInt i = 0; i < nd; i++) free_[i] = (PetscBool)(mark[b][i] && !free_[i]);
    for (PetscInt i = 0; i < nd; i++) n += free_[i];
    c->ns[b] = n;
    if (n) {
      PetscCall(PetscMalloc1(n, &c->sdof[b]));
      PetscCall(PetscMalloc1(nd, &c->sidx[b]));
      n = 0;
      for (PetscInt i = 0; i < nd; i++) {
        c->sidx[b][i] = -1;
        if (free_[i]) {
          c->sidx[b][i]   = n;
          c->sdof[b][n++] = i;
        }
      }
    }
    PetscCall(PetscFree(free_));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcComplianceSetUp(FcCompliance c)
{
  PetscFunctionBegin;
  if (c->ops.setup) PetscCall(c->ops.setup(c));
  PetscFunctionReturn(0);
}

PetscErrorCode FcComplianceBodyContacts(const FcContactJacobian *H, PetscInt **gptr, PetscInt **gcon)
{
  PetscInt n = 0;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(H->nbodies + 1, gptr));
  for (PetscInt b = 0; b < H->nbodies; b++)
    if (H->involved[b])
      for (PetscInt a = 0; a < H->m; a++) n += H->body[b].ptr[a + 1] > H->body[b].ptr[a];
  PetscCall(PetscMalloc1(n + 1, gcon));
  n          = 0;
  (*gptr)[0] = 0;
  for (PetscInt b = 0; b < H->nbodies; b++) {
    if (H->involved[b])
      for (PetscInt a = 0; a < H->m; a++)
        if (H->body[b].ptr[a + 1] > H->body[b].ptr[a]) (*gcon)[n++] = a;
    (*gptr)[b + 1] = n;
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode RowsProblem_Private(FcCompliance c, const FcContactJacobian *H, PetscBool sparse, FcContactProblem *out);

PetscErrorCode FcComplianceCreateProblem(FcCompliance c, const FcContactJacobian *H, FcContactWChoice storage, FcContactProblem *p, PetscInt64 *nblocks)
{
  PetscInt   *gptr = NULL, *gcon = NULL, *ptr = NULL, *col = NULL;
  PetscInt64  nb     = 0, v[2];
  PetscBool   sparse = PETSC_FALSE;
  PetscMPIInt rank, size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  if (!rank) { /* several ranks: rank 0 holds the whole list, and decides W's storage for every rank */
    PetscCall(FcComplianceBodyContacts(H, &gptr, &gcon));
    PetscCall(FcContactBlockPatternFromGroups(H->m, H->nbodies, gptr, gcon, NULL, NULL, &nb));
    sparse = FcContactWChooseSparse(storage, H->m, nb);
  }
  if (size > 1) {
    v[0] = sparse;
    v[1] = nb;
    PetscCallMPI(MPI_Bcast(v, 2, MPIU_INT64, 0, PETSC_COMM_WORLD));
    sparse = (PetscBool)v[0];
    nb     = v[1];
  }
  c->wdense = (PetscBool)!sparse;
  if (*p && (rank || sparse || FcContactProblemIsSparse(*p) || (*p)->m != H->m)) PetscCall(FcContactProblemDestroy(p));
  /* a dense problem of the same size left in *p is kept (q, mu are the caller's to overwrite) */
  if (rank) PetscCall(RowsProblem_Private(c, H, sparse, p)); /* several ranks: W's rows this rank's share touches */
  else if (!*p && sparse) {
    PetscCall(FcContactBlockPatternFromGroups(H->m, H->nbodies, gptr, gcon, &ptr, &col, NULL));
    PetscCall(FcContactProblemCreateSparse(H->m, ptr, col, p));
    PetscCall(PetscFree(ptr));
    PetscCall(PetscFree(col));
  } else if (!*p) PetscCall(FcContactProblemCreate(H->m, p));
  PetscCall(PetscFree(gptr));
  PetscCall(PetscFree(gcon));
  if (nblocks) *nblocks = nb;
  PetscFunctionReturn(0);
}

/* Several ranks (doc/mpi.md "Contact"): a block of nb dense right-hand sides for body b's solve.
 * A partitioned body: distributed rows (this rank's [rstart, rend) of its vectors); otherwise the
 * sequential ndof × nb block as on one rank. *n2d: FcBodyDofMaps's (NULL: the numberings agree). */
static PetscErrorCode BodyDense_Private(FcBody body, PetscInt nb, Mat *B, const PetscInt **n2d, PetscInt *rstart, PetscInt *rend)
{
  const PetscInt *d2n;

  PetscFunctionBegin;
  PetscCall(FcBodyDofMaps(body, n2d, &d2n, rstart, rend));
  if (*n2d) PetscCall(MatCreateDense(PetscObjectComm((PetscObject)FcBodyU(body)), *rend - *rstart, PETSC_DECIDE, FcBodyNDof(body), nb, NULL, B));
  else PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, FcBodyNDof(body), nb, NULL, B));
  PetscFunctionReturn(0);
}

/* A zeroed block of BodyDense_Private, its array taken for writing the right-hand sides (h, lda;
 * restored by the caller). */
static PetscErrorCode BodyRhs_Private(FcBody body, PetscInt nb, Mat *B, PetscScalar **h, PetscInt *lda, const PetscInt **n2d, PetscInt *rstart, PetscInt *rend)
{
  PetscFunctionBegin;
  PetscCall(BodyDense_Private(body, nb, B, n2d, rstart, rend));
  PetscCall(MatZeroEntries(*B));
  PetscCall(MatDenseGetArray(*B, h));
  PetscCall(MatDenseGetLDA(*B, lda));
  PetscFunctionReturn(0);
}

/* The local row of mesh DoF k in a block of BodyDense_Private, or −1 when another rank owns it. */
static inline PetscInt BodyRow_Private(const PetscInt *n2d, PetscInt rstart, PetscInt rend, PetscInt k)
{
  const PetscInt g = n2d ? n2d[k] : k;
  return g >= rstart && g < rend ? g - rstart : -1;
}

/* Several ranks, a rank other than 0 (issue 29 item 1, doc/mpi.md "Contact"): its share of W is
 * nonzero only on the block rows of the contacts with an entry of H on a DoF it owns (a
 * partitioned body's: a body every rank holds whole is rank 0's, BodyAdds_Private), so it holds
 * those rows only, with the columns the gathered W has in them (all when W is dense, the contacts
 * sharing a body with the row's when block-sparse: FcContactBlockPatternFromGroups's row), block
 * after block as a block-sparse problem in plain arrays; the other rows are empty, and their
 * diagonal (bdiag) is one scratch block after the rows (exact.c's frictionless diagonal writes
 * every diagonal block; nothing reads it). btr is not formed (no solver runs on this rank: the
 * problem is GatherRows_Private's buffer). Memory O(rows touched × their columns + m), not W's. */
static PetscErrorCode RowsProblem_Private(FcCompliance c, const FcContactJacobian *H, PetscBool sparse, FcContactProblem *out)
{
  const PetscInt   m = H->m, mg = H->part ? H->mg : H->m; /* this rank's rows (its contacts), W's columns (the whole list) */
  PetscInt        *touch, *mark, nb = 0, *gptr = H->part ? (PetscInt *)H->ggptr : NULL, *gcon = H->part ? (PetscInt *)H->ggcon : NULL;
  FcContactProblem p;

  PetscFunctionBegin;
  if (!gptr) PetscCall(FcComplianceBodyContacts(H, &gptr, &gcon)); /* H is the whole list */
  PetscCall(PetscCalloc2(m + 1, &touch, mg + 1, &mark));
  for (PetscInt b = 0; b < H->nbodies; b++) {
    const FcJacobianBlock *J = &H->body[b];
    const PetscInt        *n2d, *d2n;
    PetscInt               rs, re;
    if (!H->involved[b]) continue;
    PetscCall(FcBodyDofMaps(c->model->bodies[b], &n2d, &d2n, &rs, &re));
    if (!n2d) continue; /* rank 0's */
    for (PetscInt a = 0; a < m; a++)
      for (PetscInt e = J->ptr[a]; e < J->ptr[a + 1] && !touch[a]; e++) touch[a] = (PetscInt)(BodyRow_Private(n2d, rs, re, J->dof[e]) >= 0);
  }
  PetscCall(PetscNew(&p));
  p->m = m;
  PetscCall(PetscCalloc2(3 * (size_t)m + 1, &p->q, (size_t)m + 1, &p->mu));
  for (int pass = 0; pass < 2; pass++) { /* count, then fill */
    PetscInt k = 0;
    for (PetscInt a = 0; a < mg; a++) mark[a] = -1;
    for (PetscInt a = 0; a < m; a++) {
      const PetscInt k0 = k, ga = H->part ? H->gidx[a] : a; /* its row of the whole W */
      if (pass) p->bptr[a] = k;
      if (!touch[a]) continue;
      if (!sparse) {
        for (PetscInt b = 0; b < mg; b++) {
          if (pass) p->bcol[k] = b;
          k++;
        }
      } else {
        mark[ga] = a;
        if (pass) p->bcol[k] = ga;
        k++;
        for (PetscInt b = 0; b < H->nbodies; b++) {
          if (!H->involved[b] || H->body[b].ptr[a + 1] == H->body[b].ptr[a]) continue;
          for (PetscInt f = gptr[b]; f < gptr[b + 1]; f++) {
            if (mark[gcon[f]] == a) continue;
            mark[gcon[f]] = a;
            if (pass) p->bcol[k] = gcon[f];
            k++;
          }
        }
        if (pass) PetscCall(PetscSortInt(k - k0, p->bcol + k0));
      }
      if (pass)
        for (PetscInt j = k0; j < k; j++)
          if (p->bcol[j] == ga) p->bdiag[a] = j;
    }
    if (!pass) {
      nb = k;
      PetscCall(PetscMalloc4((size_t)m + 1, &p->bptr, (size_t)nb + 1, &p->bcol, (size_t)m + 1, &p->bdiag, 1, &p->btr));
      for (PetscInt a = 0; a < m; a++) p->bdiag[a] = nb; /* the scratch block */
      p->btr[0] = -1;
    } else p->bptr[m] = k;
  }
  p->nb = nb;
  PetscCall(PetscCalloc1(9 * ((size_t)nb + 1), &p->bval));
  PetscCall(PetscFree2(touch, mark));
  if (gptr != H->ggptr) {
    PetscCall(PetscFree(gptr));
    PetscCall(PetscFree(gcon));
  }
  *out = p;
  PetscFunctionReturn(0);
}

/* Whether this rank adds body b's share of W: a partitioned body's rows are split among the ranks
 * (each adds its rows' share, gathered by GatherRows_Private); a body every rank holds whole (a
 * rigid body's few DoFs, replicated: doc/mpi.md) is added by rank 0 alone. */
static PetscErrorCode BodyAdds_Private(FcBody body, PetscBool *adds)
{
  PetscMPIInt     rank;
  const PetscInt *n2d, *d2n;
  PetscInt        rs, re;

  PetscFunctionBegin;
  PetscCall(FcBodyDofMaps(body, &n2d, &d2n, &rs, &re));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  *adds = (PetscBool)(n2d || !rank);
  PetscFunctionReturn(0);
}

/* W's shares of the ranks gathered on rank 0 as rows (issue 29 item 1: W gathered to one rank,
 * solved there, contact_step.c Solve_Private); nothing on one rank. Each rank other than 0 holds
 * only the block rows its share touches (RowsProblem_Private) and sends them to rank 0: the list of
 * its rows, then their blocks, in the columns rank 0's W has in those rows; rank 0 receives rank
 * after rank (a buffer of the largest share, not of all: a rank's share is at most W) and adds them
 * to its own. Bytes sent per rank: its rows' blocks (72 per block) + one PetscInt per row, against
 * W whole (9m² or 9 nb reals) by the MPI_Reduce this replaces. *root: this rank holds the sum. */
static PetscErrorCode GatherRows_Private(const FcContactJacobian *H, FcContactProblem p, PetscBool *root)
{
  PetscMPIInt size, rank, cnt[2] = {0, 0}, *all = NULL, mx[2] = {0, 0};
  PetscInt   *rows = NULL;
  PetscReal  *vals = NULL;
  const int   tag  = 2901;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  *root = (PetscBool)!rank;
  if (size == 1) PetscFunctionReturn(0);
  if (rank) {
    PetscInt n = 0;
    PetscCheck(
      9 * (size_t)p->nb <= (size_t)PETSC_MPI_INT_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "W's rows of %" PetscInt_FMT " contacts are too large to send", p->m);
    PetscCall(PetscMalloc1(p->m + 1, &rows));
    for (PetscInt a = 0; a < p->m; a++)
      if (p->bptr[a + 1] > p->bptr[a]) rows[n++] = H->part ? H->gidx[a] : a; /* its row of the whole W */
    cnt[0] = (PetscMPIInt)n;
    cnt[1] = (PetscMPIInt)(9 * p->nb);
  } else PetscCall(PetscMalloc1(2 * (size_t)size, &all));
  PetscCallMPI(MPI_Gather(cnt, 2, MPI_INT, all, 2, MPI_INT, 0, PETSC_COMM_WORLD));
  if (rank) {
    PetscCallMPI(MPI_Send(rows, cnt[0], MPIU_INT, 0, tag, PETSC_COMM_WORLD));
    PetscCallMPI(MPI_Send(p->bval, cnt[1], MPIU_REAL, 0, tag + 1, PETSC_COMM_WORLD));
    PetscCall(PetscFree(rows));
    PetscFunctionReturn(0);
  }
  for (PetscMPIInt r = 1; r < size; r++) {
    mx[0] = PetscMax(mx[0], all[2 * r]);
    mx[1] = PetscMax(mx[1], all[2 * r + 1]);
  }
  PetscCall(PetscMalloc2((size_t)mx[0] + 1, &rows, (size_t)mx[1] + 1, &vals));
  for (PetscMPIInt r = 1; r < size; r++) { /* in rank order: the same sums at every run */
    const PetscInt n3  = 3 * p->m;
    size_t         off = 0;
    PetscCallMPI(MPI_Recv(rows, all[2 * r], MPIU_INT, r, tag, PETSC_COMM_WORLD, MPI_STATUS_IGNORE));
    PetscCallMPI(MPI_Recv(vals, all[2 * r + 1], MPIU_REAL, r, tag + 1, PETSC_COMM_WORLD, MPI_STATUS_IGNORE));
    for (PetscMPIInt k = 0; k < all[2 * r]; k++) {
      const PetscInt a = rows[k];
      if (p->W) /* dense: the row's m blocks */
        for (PetscInt b = 0; b < p->m; b++, off += 9)
          for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) p->W[(3 * (size_t)a + i) * n3 + 3 * b + j] += vals[off + 3 * i + j];
      else { /* block-sparse: the row's blocks, in rank 0's order of its columns */ const size_t len = 9 * (size_t)(p->bptr[a + 1] - p->bptr[a]);
        for (size_t i = 0; i < len; i++) p->bval[9 * (size_t)p->bptr[a] + i] += vals[off + i];
        off += len;
      }
    }
    PetscCheck(off == (size_t)all[2 * r + 1], PETSC_COMM_SELF, PETSC_ERR_PLIB, "Rank %d sent %d values of W's rows, %zu expected", (int)r, all[2 * r + 1], off);
  }
  PetscCall(PetscFree2(rows, vals));
  PetscCall(PetscFree(all));
  PetscFunctionReturn(0);
}

static PetscErrorCode Delassus_Private(
  FcCompliance c, const FcContactJacobian *H, FcContactProblem p, PetscErrorCode (*delassus)(FcCompliance, const FcContactJacobian *, FcContactProblem))
{
  const PetscInt n3 = 3 * H->m;
  PetscBool      root;

  PetscFunctionBegin;
  PetscCheck(p->m == H->m, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Problem of %" PetscInt_FMT " contacts for a Jacobian of %" PetscInt_FMT, p->m, H->m);
  if (p->W) PetscCall(PetscArrayzero(p->W, (size_t)n3 * n3));
  else PetscCall(PetscArrayzero(p->bval, 9 * (size_t)p->nb));
  PetscCall(delassus(c, H, p));
  PetscCall(GatherRows_Private(H, p, &root));
  if (!root) PetscFunctionReturn(0); /* several ranks: W is rank 0's */
  if (p->W)                          /* ½ (W + Wᵀ), as it always was */
    for (PetscInt i = 0; i < n3; i++)
      for (PetscInt j = i + 1; j < n3; j++) {
        PetscReal w      = 0.5 * (p->W[i * n3 + j] + p->W[j * n3 + i]);
        p->W[i * n3 + j] = p->W[j * n3 + i] = w;
      }
  else PetscCall(FcContactProblemSymmetrizeBlocks(p));
  PetscFunctionReturn(0);
}

PetscErrorCode FcComplianceDelassus(FcCompliance c, const FcContactJacobian *H, FcContactProblem p)
{
  PetscFunctionBegin;
  PetscCall(Delassus_Private(c, H, p, c->ops.delassus));
  PetscFunctionReturn(0);
}

PetscErrorCode FcComplianceDelassusEntries(FcCompliance c, const FcContactJacobian *H, FcContactProblem p)
{
  PetscFunctionBegin;
  PetscCall(Delassus_Private(c, H, p, c->ops.delassusentries ? c->ops.delassusentries : c->ops.delassus));
  PetscFunctionReturn(0);
}

PetscErrorCode FcComplianceShiftQ(FcCompliance c, const FcContactJacobian *H, const PetscReal r0[], FcContactProblem p)
{
  PetscFunctionBegin;
  if (c->ops.shiftq) PetscCall(c->ops.shiftq(c, H, r0, p));
  PetscFunctionReturn(0);
}

PetscErrorCode FcComplianceBeginCorrection(FcCompliance c)
{
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  if (!c->ops.begincorrect) PetscFunctionReturn(0);
  PetscCall(PetscTime(&t0));
  PetscCall(c->ops.begincorrect(c));
  PetscCall(PetscTime(&t1));
  if (c->stats) c->stats->correct_time += t1 - t0;
  PetscFunctionReturn(0);
}

PetscErrorCode FcComplianceBeginStep(FcCompliance c, FcComplianceStats *st)
{
  PetscFunctionBegin;
  PetscCall(PetscMemzero(st, sizeof *st));
  c->stats = st;
  if (c->ops.beginstep) PetscCall(c->ops.beginstep(c));
  PetscFunctionReturn(0);
}

PetscErrorCode FcComplianceCorrect(FcCompliance c, PetscInt b, const PetscScalar f[], Vec dx)
{
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  PetscCall(PetscTime(&t0));
  if (c->ops.correct) PetscCall(c->ops.correct(c, b, f, dx));
  else PetscCall(FcComplianceCorrectBySolve(c, b, f, dx));
  PetscCall(PetscTime(&t1));
  if (c->stats) c->stats->correct_time += t1 - t0;
  PetscFunctionReturn(0);
}

static PetscErrorCode SolveMulti_Private(void *ctx, FcBody body, Mat B, Mat X)
{
  PetscFunctionBegin;
  (void)ctx;
  PetscCall(FcBodySolveMulti(body, B, X));
  PetscFunctionReturn(0);
}

PetscErrorCode FcComplianceDelassusBySolve(FcCompliance c, PetscInt b, const FcContactJacobian *H, FcContactProblem p)
{
  PetscFunctionBegin;
  PetscCall(FcComplianceDelassusByOperator(c, b, H, p, SolveMulti_Private, NULL));
  PetscFunctionReturn(0);
}

/* The columns solved for body b: on a dense W every kept column (H->kcol: the dense path as it
 * always was), on a block-sparse W only the kept columns of the contacts b touches (the others
 * would be zero columns of H_bᵀ: nbodies × 3m solves become Σ_b 3 |contacts of b|). */
/* Several ranks, a rank other than 0: the place in its H of contact ga of the whole list, or −1 (H
 * holds the contacts this rank touches only: FcContactJacobian.gidx); otherwise ga itself. */
static PetscInt Local_Private(const FcContactJacobian *H, PetscInt ga)
{
  PetscInt loc = -1;

  if (!H->part) return ga;
  if (PetscFindInt(ga, H->m, H->gidx, &loc)) return -1;
  return loc >= 0 ? loc : -1;
}

/* Whether contact ga of the whole list has entries in H_b: rank 0's list of body b's contacts
 * (FcContactJacobian.ggcon, ascending) on a rank that holds only its part, else H_b's row. */
static PetscBool BodyHas_Private(const FcContactJacobian *H, PetscInt b, PetscInt ga)
{
  PetscInt loc = -1;

  if (!H->part) return (PetscBool)(H->body[b].ptr[ga + 1] > H->body[b].ptr[ga]);
  if (PetscFindInt(ga, H->ggptr[b + 1] - H->ggptr[b], H->ggcon + H->ggptr[b], &loc)) return PETSC_FALSE;
  return (PetscBool)(loc >= 0);
}

PetscErrorCode FcComplianceDelassusByOperator(
  FcCompliance c, PetscInt b, const FcContactJacobian *H, FcContactProblem p, PetscErrorCode (*solve)(void *, FcBody, Mat, Mat), void *ctx)
{
  FcBody                 body = c->model->bodies[b];
  const FcJacobianBlock *J    = &H->body[b];
  const PetscInt        *kall = H->part ? H->gkcol : H->kcol, nall = H->part ? H->gnkeep : H->nkeep; /* W's columns: the whole list's */
  const PetscInt        *kcol = kall, mg = H->part ? H->mg : H->m;
  PetscInt               nkeep = nall, *bcols = NULL, *pos = NULL, rstart, rend;
  const PetscInt        *n2d;
  PetscBool              adds = PETSC_FALSE, sparsecols = (PetscBool)!p->W;
  PetscMPIInt            size;

  PetscFunctionBegin;
  PetscCall(BodyAdds_Private(body, &adds));
  if (!adds) PetscFunctionReturn(0);
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  if (size > 1) sparsecols = (PetscBool)!c->wdense;                   /* the same columns on every rank: the solves are collective */
  if (!p->W) PetscCall(PetscMalloc2(nall + 1, &bcols, mg + 1, &pos)); /* pos: FcComplianceRowMap's, by W's column */
  if (sparsecols) {
    nkeep = 0;
    for (PetscInt k = 0; k < nall; k++)
      if (BodyHas_Private(H, b, kall[k] / 3)) bcols[nkeep++] = kall[k];
    kcol = bcols;
  }
  for (PetscInt c0 = 0; c0 < nkeep; c0 += FC_COMPLIANCE_BLOCK) {
    PetscInt           nb = PetscMin(FC_COMPLIANCE_BLOCK, nkeep - c0), lda, ldx;
    Mat                B, X;
    PetscScalar       *h;
    const PetscScalar *x;
    PetscCall(BodyRhs_Private(body, nb, &B, &h, &lda, &n2d, &rstart, &rend));
    for (PetscInt j = 0; j < nb; j++) { /* column j: the row kcol[c0 + j] of H_b, transposed (zero on this rank when it holds not the contact) */
      PetscInt a = Local_Private(H, kcol[c0 + j] / 3), i = kcol[c0 + j] % 3;
      if (a < 0) continue;
      for (PetscInt e = J->ptr[a]; e < J->ptr[a + 1]; e++) {
        const PetscInt row = BodyRow_Private(n2d, rstart, rend, J->dof[e]);
        if (row >= 0) h[j * lda + row] += J->coef[e][i];
      }
    }
    PetscCall(MatDenseRestoreArray(B, &h));
    PetscCall(MatDuplicate(B, MAT_DO_NOT_COPY_VALUES, &X));
    PetscCall(solve(ctx, body, B, X));
    PetscCall(MatDenseGetArrayRead(X, &x));
    PetscCall(MatDenseGetLDA(X, &ldx));
    for (PetscInt a = 0; a < H->m; a++) {
      if (J->ptr[a] == J->ptr[a + 1]) continue;
      FcComplianceRowMap(p, a, pos);
      for (PetscInt e = J->ptr[a]; e < J->ptr[a + 1]; e++) {
        const PetscInt row = BodyRow_Private(n2d, rstart, rend, J->dof[e]); /* this rank's rows of X only: GatherRows_Private */
        if (row < 0) continue;
        for (int i = 0; i < 3; i++) {
          if (!H->keep[3 * a + i]) continue;
          for (PetscInt j = 0; j < nb; j++) *FcComplianceWEntry(p, pos, a, i, kcol[c0 + j] / 3, kcol[c0 + j] % 3) += J->coef[e][i] * x[j * ldx + row];
        }
      }
    }
    PetscCall(MatDenseRestoreArrayRead(X, &x));
    PetscCall(MatDestroy(&B));
    PetscCall(MatDestroy(&X));
  }
  PetscCall(PetscFree2(bcols, pos));
  PetscFunctionReturn(0);
}

/* Several ranks, a partitioned body (FcComplianceParticipatingInverse with rows = sdof, the square
 * C_b = P_bᵀ A_b⁻¹ P_b): the identity's columns at the participating DoFs as distributed right-hand
 * sides in blocks, one collective solve each, then the rows at the participating DoFs — each owned
 * by one rank — summed onto rank 0 (the other ranks' entries are zeros: the sum is the owner's
 * value bit for bit). out: rank 0's n × n, row-major (another rank: not written, may be NULL). */
static PetscErrorCode ParticipatingInverseRanks_Private(FcCompliance c, PetscInt b, PetscReal out[])
{
  FcBody         body = c->model->bodies[b];
  const PetscInt n = c->ns[b], *sdof = c->sdof[b];
  PetscReal     *buf, *sum           = NULL;
  PetscMPIInt    rank;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(PetscMalloc1((size_t)n * FC_COMPLIANCE_BLOCK, &buf));
  if (!rank) PetscCall(PetscMalloc1((size_t)n * FC_COMPLIANCE_BLOCK, &sum));
  for (PetscInt c0 = 0; c0 < n; c0 += FC_COMPLIANCE_BLOCK) {
    PetscInt           nb = PetscMin(FC_COMPLIANCE_BLOCK, n - c0), lda, ldx, rstart, rend;
    const PetscInt    *n2d;
    Mat                B, X;
    PetscScalar       *h;
    const PetscScalar *x;
    PetscCall(BodyRhs_Private(body, nb, &B, &h, &lda, &n2d, &rstart, &rend));
    for (PetscInt j = 0; j < nb; j++) {
      const PetscInt row = BodyRow_Private(n2d, rstart, rend, sdof[c0 + j]);
      if (row >= 0) h[j * lda + row] = 1.0;
    }
    PetscCall(MatDenseRestoreArray(B, &h));
    PetscCall(MatDuplicate(B, MAT_DO_NOT_COPY_VALUES, &X));
    PetscCall(FcBodySolveMulti(body, B, X));
    PetscCall(MatDenseGetArrayRead(X, &x));
    PetscCall(MatDenseGetLDA(X, &ldx));
    PetscCall(PetscArrayzero(buf, (size_t)n * nb));
    for (PetscInt i = 0; i < n; i++) {
      const PetscInt row = BodyRow_Private(n2d, rstart, rend, sdof[i]);
      if (row >= 0)
        for (PetscInt j = 0; j < nb; j++) buf[(size_t)i * nb + j] = x[j * ldx + row];
    }
    PetscCall(MatDenseRestoreArrayRead(X, &x));
    PetscCall(MatDestroy(&B));
    PetscCall(MatDestroy(&X));
    PetscCallMPI(MPI_Reduce(buf, sum, (PetscMPIInt)(n * nb), MPIU_REAL, MPIU_SUM, 0, PETSC_COMM_WORLD));
    if (!rank)
      for (PetscInt i = 0; i < n; i++)
        for (PetscInt j = 0; j < nb; j++) out[(size_t)i * n + c0 + j] = sum[(size_t)i * nb + j];
  }
  PetscCall(PetscFree(buf));
  PetscCall(PetscFree(sum));
  PetscFunctionReturn(0);
}

PetscErrorCode FcComplianceParticipatingInverse(FcCompliance c, PetscInt b, PetscInt nrows, const PetscInt rows[], PetscReal out[])
{
  FcBody         body = c->model->bodies[b];
  const PetscInt n    = c->ns[b];
  PetscMPIInt    size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  if (size > 1) {
    const PetscInt *n2d, *d2n;
    PetscInt        rstart, rend;
    PetscCall(FcBodyDofMaps(body, &n2d, &d2n, &rstart, &rend));
    if (n2d) { /* a partitioned body: the square C_b only (precomputed), gathered to rank 0 */
      PetscCheck(rows == c->sdof[b] && nrows == n, PETSC_COMM_SELF, PETSC_ERR_SUP, "On several ranks only C_b = P_b^T A_b^-1 P_b is formed");
      PetscCall(ParticipatingInverseRanks_Private(c, b, out));
      PetscFunctionReturn(0);
    }
  }
  for (PetscInt c0 = 0; c0 < n; c0 += FC_COMPLIANCE_BLOCK) {
    PetscInt           nb = PetscMin(FC_COMPLIANCE_BLOCK, n - c0), lda;
    Mat                B, X;
    PetscScalar       *h;
    const PetscScalar *x;
    PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, FcBodyNDof(body), nb, NULL, &B));
    PetscCall(MatZeroEntries(B));
    PetscCall(MatDenseGetArray(B, &h));
    PetscCall(MatDenseGetLDA(B, &lda));
    for (PetscInt j = 0; j < nb; j++) h[j * lda + c->sdof[b][c0 + j]] = 1.0;
    PetscCall(MatDenseRestoreArray(B, &h));
    PetscCall(MatDuplicate(B, MAT_DO_NOT_COPY_VALUES, &X));
    PetscCall(FcBodySolveMulti(body, B, X));
    PetscCall(MatDenseGetArrayRead(X, &x));
    for (PetscInt j = 0; j < nb; j++)
      for (PetscInt i = 0; i < nrows; i++) out[(size_t)i * n + c0 + j] = x[j * lda + (rows ? rows[i] : i)];
    PetscCall(MatDenseRestoreArrayRead(X, &x));
    PetscCall(MatDestroy(&B));
    PetscCall(MatDestroy(&X));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcComplianceCorrectBySolve(FcCompliance c, PetscInt b, const PetscScalar f[], Vec dx)
{
  FcBody             body = c->model->bodies[b];
  Mat                B, X;
  PetscScalar       *bb, *d;
  const PetscScalar *xx;
  const PetscInt    *n2d, *d2n;
  PetscInt           rstart, rend;

  PetscFunctionBegin;
  PetscCall(BodyDense_Private(body, 1, &B, &n2d, &rstart, &rend));
  PetscCall(FcBodyDofMaps(body, &n2d, &d2n, &rstart, &rend));
  PetscCall(MatDenseGetArray(B, &bb));
  if (d2n) /* several ranks: f is in the mesh's numbering on every rank, B this rank's rows */
    for (PetscInt i = rstart; i < rend; i++) bb[i - rstart] = f[d2n[i]];
  else PetscCall(PetscArraycpy(bb, f, FcBodyNDof(body)));
  PetscCall(MatDenseRestoreArray(B, &bb));
  PetscCall(MatDuplicate(B, MAT_DO_NOT_COPY_VALUES, &X));
  PetscCall(FcBodySolveMulti(body, B, X));
  PetscCall(MatDenseGetArrayRead(X, &xx));
  PetscCall(VecGetArray(dx, &d));
  for (PetscInt i = 0; i < rend - rstart; i++) d[i] += xx[i];
  PetscCall(VecRestoreArray(dx, &d));
  PetscCall(MatDenseRestoreArrayRead(X, &xx));
  PetscCall(MatDestroy(&B));
  PetscCall(MatDestroy(&X));
  PetscFunctionReturn(0);
}
