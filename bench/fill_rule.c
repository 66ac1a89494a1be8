/* fcsim bench — dense against block-sparse W: where the sparse storage becomes faster (the rule
 * FcContactProblemPreferSparse, FC_CONTACT_SPARSE_MAX_FILL in src/contact/problem.h), and sap's
 * Newton step on both storages.
 *
 * Mode "fill" (default): random problems of m contacts on nbody rigid bodies, each contact between
 * two distinct random bodies (W = Σ_contacts sharing a body H_a M⁻¹ H_bᵀ + c I, c = 0.2, so W is
 * symmetric positive definite with the block pattern of the shared bodies; fill = stored blocks /
 * m², set by nbody: two contacts share a body with probability 1 − (nb−2)(nb−3)/(nb(nb−1))), q
 * uniform in [−1, 1] (about half the contacts pressed), μ uniform in [0.1, 1]. The same problem
 * in both storages (FcContactProblemConvert), for each:
 *   sweep   time of one nsgs sweep: a solve from r = 0 with tol 0 and max_it K, divided by K
 *           (both storages make the same sweeps, arithmetic identical: doc/contact.md);
 *   sap     time of a sap solve from r = 0 (defaults, but the sparse factorization of S forced
 *           on the sparse W: -fc_contact_solver_sap_sparse_factor true), m ≤ -solve_max_m;
 *   newton  time of a newton solve from r = 0 to 1e-10, m ≤ -solve_max_m.
 * Best of -runs repetitions. One line per problem:
 *   FILL m nbody fill t_sweep_dense t_sweep_sparse t_sap_dense t_sap_sparse t_newton_dense t_newton_sparse sweeps
 * (seconds; 0 where not run), then per m the largest fill measured at which the sparse sweep was
 * faster and the smallest at which it was not.
 *
 * Mode "sap" (-mode sap FILE.hdf5...): each FCLIB problem solved by sap with W dense and W
 * block-sparse (S = I + LᵀWL dense Cholesky vs sparse Cholesky, src/contact/solvers/sap/local.c §3):
 *   SAP file m fill it_dense t_dense it_sparse t_sparse |r_s − r_d|/|r_d| error_dense error_sparse
 * Above -dense_max_m contacts the dense solve is limited to one Newton iteration (it_dense 1,
 * t_dense the time of that iteration with its set-up): the time per iteration is what compares.
 * Above -dense_skip_m contacts it is not run (it_dense 0, nan).
 *
 *   ./build/bench/fill_rule [-m 30,100,300,1000] [-runs 3] [-solve_max_m 300]
 *   ./build/bench/fill_rule -mode sap [-dense_max_m 1000] FILE.hdf5...
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "../src/contact/solver.h"
#include "../src/core/mpienv.h"
#include "../src/io/fclib_io.h"

static unsigned long long rng = 0x9E3779B97F4A7C15ULL;

static double Uniform(double a, double b)
{
  rng ^= rng >> 12;
  rng ^= rng << 25;
  rng ^= rng >> 27;
  return a + (b - a) * (double)((rng * 2685821657736338717ULL) >> 11) / 9007199254740992.0;
}

static double Now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The random problem of the head comment, dense. */
static PetscErrorCode BodiesProblem(PetscInt m, PetscInt nbody, FcContactProblem *pp)
{
  FcContactProblem p;
  const PetscInt   n = 3 * m;
  PetscInt        *body, *cnt, *list, *fill;
  PetscReal       *J, *minv;

  PetscFunctionBegin;
  PetscCall(PetscMalloc6(2 * m, &body, nbody + 1, &cnt, 2 * m, &list, nbody, &fill, 36 * m, &J, 6 * nbody, &minv));
  for (PetscInt b = 0; b <= nbody; b++) cnt[b] = 0;
  for (PetscInt c = 0; c < m; c++) {
    body[2 * c]     = (PetscInt)Uniform(0, (double)nbody - 1e-9);
    body[2 * c + 1] = (body[2 * c] + 1 + (PetscInt)Uniform(0, (double)nbody - 1 - 1e-9)) % nbody;
    for (int i = 0; i < 36; i++) J[36 * c + i] = Uniform(-1, 1);
    cnt[body[2 * c] + 1]++;
    cnt[body[2 * c + 1] + 1]++;
  }
  for (PetscInt b = 0; b < nbody; b++) {
    cnt[b + 1] += cnt[b];
    fill[b] = cnt[b];
    for (int k = 0; k < 6; k++) minv[6 * b + k] = Uniform(0.5, 2);
  }
  for (PetscInt c = 0; c < m; c++)
    for (int e = 0; e < 2; e++) list[fill[body[2 * c + e]]++] = c;
  PetscCall(FcContactProblemCreate(m, &p));
  for (PetscInt b = 0; b < nbody; b++) /* the blocks of every pair of contacts on body b */
    for (PetscInt x = cnt[b]; x < cnt[b + 1]; x++)
      for (PetscInt y = cnt[b]; y < cnt[b + 1]; y++) {
        const PetscInt  c = list[x], d = list[y];
        const int       ec = body[2 * c] == b ? 0 : 1, ed = body[2 * d] == b ? 0 : 1;
        const PetscReal sg = (ec ? -1 : 1) * (ed ? -1 : 1), *Jc = J + 36 * c + 18 * ec, *Jd = J + 36 * d + 18 * ed;
        for (int i = 0; i < 3; i++)
          for (int j = 0; j < 3; j++) {
            PetscReal s = 0;
            for (int l = 0; l < 6; l++) s += Jc[6 * i + l] * minv[6 * b + l] * Jd[6 * j + l];
            p->W[(size_t)(3 * c + i) * n + 3 * d + j] += sg * s;
          }
      }
  for (PetscInt i = 0; i < n; i++) {
    p->W[(size_t)i * n + i] += 0.2;
    p->q[i] = Uniform(-1, 1);
  }
  for (PetscInt c = 0; c < m; c++) p->mu[c] = Uniform(0.1, 1);
  PetscCall(PetscFree6(body, cnt, list, fill, J, minv));
  *pp = p;
  PetscFunctionReturn(0);
}

/* Best time of runs solves of p from r = 0 by a solver of this type, tol, max_it; *it, *err of the last. */
static PetscErrorCode TimeSolve(
  const char *type, PetscReal tol, PetscInt max_it, FcContactProblem p, PetscInt runs, PetscReal r[], double *best, PetscInt *it, PetscReal *err)
{
  FcContactSolver      s;
  FcContactSolverStats st;

  PetscFunctionBegin;
  PetscCall(FcContactSolverCreate(&s));
  PetscCall(FcContactSolverSetType(s, type));
  PetscCall(FcContactSolverSetTolerances(s, tol, max_it));
  PetscCall(FcContactSolverSetFromOptions(s));
  *best = PETSC_MAX_REAL;
  for (PetscInt k = 0; k < runs; k++) {
    double t;
    PetscCall(PetscArrayzero(r, 3 * p->m));
    t = Now();
    PetscCall(FcContactSolverSolve(s, p, r));
    t     = Now() - t;
    *best = PetscMin(*best, t);
  }
  PetscCall(FcContactSolverGetStats(s, &st));
  if (it) *it = st.iterations;
  if (err) *err = st.error;
  PetscCall(FcContactSolverDestroy(&s));
  PetscFunctionReturn(0);
}

static PetscErrorCode ModeFill(void)
{
  PetscInt       ms[8] = {30, 100, 300, 1000}, nm = 4, runs = 5, solve_max_m = 300;
  const PetscInt nbodies[] = {80, 40, 20, 10, 8, 6, 5, 4, 3};
  const int      nnb       = (int)(sizeof nbodies / sizeof nbodies[0]);

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetIntArray(NULL, NULL, "-m", ms, &nm, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-runs", &runs, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-solve_max_m", &solve_max_m, NULL));
  { /* the sap column compares the two factorizations of S: the sparse one whatever m (sap/local.c solves
     * a dense copy below 200 contacts by default), unless the command line says otherwise */
    PetscBool set;
    PetscCall(PetscOptionsHasName(NULL, NULL, "-fc_contact_solver_sap_sparse_factor", &set));
    if (!set) PetscCall(PetscOptionsSetValue(NULL, "-fc_contact_solver_sap_sparse_factor", "true"));
  }
  for (PetscInt im = 0; im < nm; im++) {
    const PetscInt m = ms[im], K = m <= 100 ? 200 : m <= 300 ? 40 : 8; /* sweeps per timed solve */
    double         faster = -1, slower = 2;
    for (int ib = 0; ib < nnb; ib++) {
      FcContactProblem pd, ps;
      PetscReal       *r;
      double           fill, t[6] = {0, 0, 0, 0, 0, 0};
      PetscInt         itd, its;
      PetscCall(BodiesProblem(m, nbodies[ib], &pd));
      PetscCall(FcContactProblemConvert(pd, FC_CONTACT_W_SPARSE, &ps));
      fill = (double)ps->nb / ((double)m * m);
      PetscCall(PetscMalloc1(3 * m, &r));
      PetscCall(TimeSolve("nsgs", 0, K, pd, runs, r, &t[0], &itd, NULL));
      PetscCall(TimeSolve("nsgs", 0, K, ps, runs, r, &t[1], &its, NULL));
      t[0] /= PetscMax(itd, 1); /* K, unless the common error reached exactly 0 */
      t[1] /= PetscMax(its, 1);
      if (m <= solve_max_m) {
        PetscCall(TimeSolve("sap", 1e-10, 1000, pd, runs, r, &t[2], NULL, NULL));
        PetscCall(TimeSolve("sap", 1e-10, 1000, ps, runs, r, &t[3], NULL, NULL));
        PetscCall(TimeSolve("newton", 1e-10, 200, pd, runs, r, &t[4], NULL, NULL));
        PetscCall(TimeSolve("newton", 1e-10, 200, ps, runs, r, &t[5], NULL, NULL));
      }
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "FILL %" PetscInt_FMT " %" PetscInt_FMT " %.4f %.4e %.4e %.4e %.4e %.4e %.4e %" PetscInt_FMT "\n", m, nbodies[ib],
        fill, t[0], t[1], t[2], t[3], t[4], t[5], itd));
      if (t[1] < t[0]) faster = PetscMax(faster, fill);
      else slower = PetscMin(slower, fill);
      PetscCall(PetscFree(r));
      PetscCall(FcContactProblemDestroy(&pd));
      PetscCall(FcContactProblemDestroy(&ps));
    }
    PetscCall(PetscPrintf(
      PETSC_COMM_SELF, "CROSSOVER %" PetscInt_FMT " sparse sweep faster up to fill %.3f, not faster from fill %.3f\n", m, faster, slower > 1 ? NAN : slower));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode ModeSAP(int argc, char **argv)
{
  PetscInt dense_max_m = 1000, dense_skip_m = PETSC_MAX_INT;

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-dense_max_m", &dense_max_m, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-dense_skip_m", &dense_skip_m, NULL));
  for (int i = 1; i < argc; i++) {
    FcContactProblem pd, ps, p0;
    PetscReal       *rd, *rs, ed, es, num = 0, den = 0;
    PetscInt         itd, its;
    double           td, ts;

    if (!strstr(argv[i], ".hdf5")) continue; /* options and their values */
    PetscCall(FcFCLIBReadProblem(argv[i], &p0));
    if (p0->m > dense_skip_m) { /* sparse only */
      PetscCall(FcContactProblemConvert(p0, FC_CONTACT_W_SPARSE, &ps));
      PetscCall(FcContactProblemDestroy(&p0));
      PetscCall(PetscMalloc1(3 * ps->m, &rs));
      PetscCall(TimeSolve("sap", 1e-10, 1000, ps, 1, rs, &ts, &its, &es));
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "SAP %s %" PetscInt_FMT " %.4f 0 nan %" PetscInt_FMT " %.4e nan nan %.3e\n", argv[i], ps->m,
        (double)ps->nb / ((double)ps->m * ps->m), its, ts, (double)es));
      PetscCall(PetscFree(rs));
      PetscCall(FcContactProblemDestroy(&ps));
      continue;
    }
    PetscCall(FcContactProblemConvert(p0, FC_CONTACT_W_DENSE, &pd));
    PetscCall(FcContactProblemConvert(p0, FC_CONTACT_W_SPARSE, &ps));
    PetscCall(FcContactProblemDestroy(&p0));
    PetscCall(PetscMalloc2(3 * pd->m, &rd, 3 * pd->m, &rs));
    PetscCall(TimeSolve("sap", 1e-10, 1000, ps, 1, rs, &ts, &its, &es));
    PetscCall(TimeSolve("sap", 1e-10, pd->m > dense_max_m ? 1 : 1000, pd, 1, rd, &td, &itd, &ed));
    for (PetscInt k = 0; k < 3 * pd->m; k++) {
      num += PetscSqr(rs[k] - rd[k]);
      den += PetscSqr(rd[k]);
    }
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "SAP %s %" PetscInt_FMT " %.4f %" PetscInt_FMT " %.4e %" PetscInt_FMT " %.4e %.2e %.3e %.3e\n", argv[i], pd->m,
      (double)ps->nb / ((double)ps->m * ps->m), itd, td, its, ts, pd->m > dense_max_m ? NAN : (double)PetscSqrtReal(num / PetscMax(den, PETSC_MIN_REAL)),
      (double)ed, (double)es));
    PetscCall(PetscFree2(rd, rs));
    PetscCall(FcContactProblemDestroy(&pd));
    PetscCall(FcContactProblemDestroy(&ps));
  }
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  char      mode[16] = "fill";
  PetscBool sap;

  FcMPIEnvPrepare();
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(FcContactSolverRegisterAll());
  PetscCall(PetscOptionsGetString(NULL, NULL, "-mode", mode, sizeof mode, NULL));
  PetscCall(PetscStrcmp(mode, "sap", &sap));
  if (sap) PetscCall(ModeSAP(argc, argv));
  else PetscCall(ModeFill());
  PetscCall(PetscFinalize());
  return 0;
}
