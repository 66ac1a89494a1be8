/* fcsim — contact problem storage, Coulomb cone projection, common error (problem.h). */
#include "problem.h"
#include <float.h>

PetscErrorCode FcContactProblemCreate(PetscInt m, FcContactProblem *problem)
{
  FcContactProblem p;
  size_t           n;

  PetscFunctionBegin;
  PetscCheck(problem, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Null pointer for the problem");
  *problem = NULL;
  PetscCheck(m >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Number of contacts %" PetscInt_FMT " must be >= 0", m);
  n = 3 * (size_t)m;
  PetscCall(PetscNew(&p));
  p->m = m;
  PetscCall(PetscCalloc3(n * n, &p->W, n, &p->q, (size_t)m, &p->mu));
  *problem = p;
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactProblemDestroy(FcContactProblem *problem)
{
  PetscFunctionBegin;
  if (!problem || !*problem) PetscFunctionReturn(0);
  PetscCall(PetscFree3((*problem)->W, (*problem)->q, (*problem)->mu));
  PetscCall(PetscFree(*problem));
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactProblemComputeVelocity(FcContactProblem p, const PetscReal r[], PetscReal u[])
{
  const PetscInt n = 3 * p->m;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < n; i++) {
    const PetscReal *Wi = p->W + (size_t)i * n;
    PetscReal        s  = p->q[i];
    for (PetscInt j = 0; j < n; j++) s += Wi[j] * r[j];
    u[i] = s;
  }
  PetscCall(PetscLogFlops(2.0 * n * n));
  PetscFunctionReturn(0);
}

/* Closed form of the projection onto K_μ = {‖x_T‖ ≤ μ x_N}. With t = ‖x_T‖:
 *  - x ∈ K_μ (t ≤ μ x_N, x_N ≥ 0): x itself;
 *  - x in the polar cone K_μ° = {μ t ≤ −x_N} (normal to K_μ at its apex): 0;
 *  - otherwise the projection onto the generator of the boundary in the half-plane of x,
 *    d = (1, μ x_T/t)/√(1+μ²): (⟨x,d⟩) d = (x_N + μ t)/(1+μ²) · (1, μ x_T/t).
 * In the third case t > 0 (t = 0 falls in one of the first two), so the division is safe, also
 * for μ = 0 where K_0 is the ray x_T = 0, x_N ≥ 0 and the formula gives (x_N, 0, 0). */
void FcConeProject(PetscReal mu, const PetscReal x[3], PetscReal p[3])
{
  const PetscReal xn = x[0], t = PetscSqrtReal(x[1] * x[1] + x[2] * x[2]);

  if (t <= mu * xn && xn >= 0) { /* xn >= 0: with μ = 0, t = 0 ≤ μ·xn = −0 holds for xn < 0 */
    p[0] = xn;
    p[1] = x[1];
    p[2] = x[2];
  } else if (mu * t <= -xn) {
    p[0] = p[1] = p[2] = 0.0;
  } else {
    const PetscReal a = (xn + mu * t) / (1.0 + mu * mu), s = mu * a / t;
    p[0] = a;
    p[1] = s * x[1];
    p[2] = s * x[2];
  }
}

/* ‖r − P_K(r − ũ)‖² with De Saxcé's modified velocity ũ = [u_N + μ‖u_T‖, u_T] (bipotential):
 * K ∋ r ⊥ ũ ∈ K* holds iff r = P_K(r − ũ) (projection characterisation of a cone
 * complementarity problem), which is Signorini + Coulomb for one contact. */
PetscReal FcContactLocalError2(PetscReal mu, const PetscReal r[3], const PetscReal u[3])
{
  PetscReal x[3], p[3];

  x[0] = r[0] - (u[0] + mu * PetscSqrtReal(u[1] * u[1] + u[2] * u[2]));
  x[1] = r[1] - u[1];
  x[2] = r[2] - u[2];
  FcConeProject(mu, x, p);
  x[0] = r[0] - p[0];
  x[1] = r[1] - p[1];
  x[2] = r[2] - p[2];
  return x[0] * x[0] + x[1] * x[1] + x[2] * x[2];
}

PetscErrorCode FcContactProblemComputeErrorWithVelocity(FcContactProblem p, const PetscReal r[], const PetscReal u[], PetscReal *error)
{
  const PetscInt m = p->m;
  PetscReal      e2 = 0, q2 = 0, r2 = 0, u2 = 0, scale;

  PetscFunctionBegin;
  for (PetscInt a = 0; a < m; a++) e2 += FcContactLocalError2(p->mu[a], r + 3 * a, u + 3 * a);
  for (PetscInt i = 0; i < 3 * m; i++) {
    q2 += p->q[i] * p->q[i];
    r2 += r[i] * r[i];
    u2 += u[i] * u[i];
  }
  /* Siconos' normalisation: relative to the largest of the data and the solution, so the
   * error is scale-free, and absolute when all of them vanish (the trivial problem). */
  scale = PetscSqrtReal(PetscMax(q2, PetscMax(r2, u2)));
  *error = PetscSqrtReal(e2);
  if (scale >= DBL_EPSILON) *error /= scale;
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactProblemComputeError(FcContactProblem p, const PetscReal r[], PetscReal *error)
{
  PetscReal *u;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(3 * (size_t)p->m, &u));
  PetscCall(FcContactProblemComputeVelocity(p, r, u));
  PetscCall(FcContactProblemComputeErrorWithVelocity(p, r, u, error));
  PetscCall(PetscFree(u));
  PetscFunctionReturn(0);
}

PetscBool FcContactProblemIsSymmetric(FcContactProblem p)
{
  const PetscInt n = 3 * p->m;
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt j = i + 1; j < n; j++)
      if (p->W[(size_t)i * n + j] != p->W[(size_t)j * n + i]) return PETSC_FALSE;
  return PETSC_TRUE;
}

void FcContactProblemAddColumn(FcContactProblem p, PetscBool symmetric, PetscInt a, const PetscReal d[3], PetscReal u[])
{
  const PetscInt   n = 3 * p->m;
  const PetscReal *W = p->W;
  if (symmetric) {
    const PetscReal *W0 = W + (size_t)(3 * a) * n, *W1 = W0 + n, *W2 = W1 + n;
    for (PetscInt i = 0; i < n; i++) u[i] += W0[i] * d[0] + W1[i] * d[1] + W2[i] * d[2];
  } else {
    for (PetscInt i = 0; i < n; i++) {
      const PetscReal *Wi = W + (size_t)i * n + 3 * a;
      u[i] += Wi[0] * d[0] + Wi[1] * d[1] + Wi[2] * d[2];
    }
  }
}
