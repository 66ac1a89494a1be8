/* Unit test of src/step: FcStep and the contact step, called directly on tiny models built in
 * this process (a structured tetrahedral box written as a Gmsh MSH 2.2 file and a case JSON, in a
 * temporary folder; FcCaseLoad + FcModelCreate, the sequence of src/run/run.c), with no run
 * driver, output or time loop around them:
 *
 *  1. quasi-static, linear, a prescribed end displacement δ on a bar L × a × a (rollers on the
 *     three minimum faces): one Newton solve, the reaction equals E A δ / L and the displacement
 *     the uniaxial field (δ x/L, −ν δ y/L, −ν δ z/L), which the linear elements hold exactly;
 *  2. backward Euler, a free cube under gravity from rest: v = g Δt and u = g Δt² at every node,
 *     the kinetic energy ½ m |g Δt|²;
 *  3. the contact step: a cube resting on a rigid plane under gravity, quasi-static with the
 *     shifted Newton matrix K + s M (the cube is held by the contact alone): normal force m g,
 *     tangential resultant 0, no penetration;
 *  4. the compliance strategies (src/compliance) on the same resting cube: exact, precomputed
 *     and schur give the same Delassus operator W and contact forces to round-off (a linear
 *     body, the same Newton matrix every iteration), and an unknown strategy is one input-error
 *     line naming compliance.type and the registered names;
 *  5. W block-sparse (issue 12): three cubes, two on a floor and one on another, where contacts
 *     on different bodies do not couple: the stored blocks are those predicted from the
 *     contacts' bodies, the dense W (-fc_contact_w_storage dense) is exactly zero outside them,
 *     and W and r agree between the storages, for every compliance strategy;
 *  6. the body object (src/model/body.c): a type registered by name is what FcBodyCreate makes
 *     for a case body of that type, an unregistered type is an error naming the registered ones;
 *     the virtual coupling's force law FcRigidCouplingForce (doc/rigid.md §2d) on poses where
 *     it is known by hand: F = K (p_tgt − c − d) + B (v_dev − v), and a device turned by θ about
 *     z from the tool gives τ = K_r θ e_z + B_r (ω_dev − ω).
 *
 * Each test prints its figures on a line starting with "FIGURE ". Run it under valgrind
 * --leak-check=full and with -malloc_debug -malloc_dump: nothing leaks. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "testutil.h"

#include "../../src/case/case.h"
#include "../../src/model/body_impl.h" /* white-box: the test reads the bodies' state */
#include "../../src/step/step.h"
#include "../../src/step/contact_impl.h" /* the step's compliance object */

static char tmpdir[64] = ""; /* mkdtemp folder for the meshes and cases of this run */

/* tmpdir/name */
static void TmpPath(char *path, size_t len, const char *name)
{
  const int n = snprintf(path, len, "%s/%s", tmpdir, name);
  assert_true(n > 0 && (size_t)n < len);
}

/* The box [0, size_x] × [0, size_y] × [0, size_z] of n³ cells × 6 tetrahedra (FcTestCubeMesh,
 * straight: every vertex on the grid) as tmpdir/name, with the surfaces xmin … zmax. */
static void WriteBox(const char *name, PetscInt n, const PetscReal size[3])
{
  char   path[PETSC_MAX_PATH_LEN];
  FcMesh cube;

  TmpPath(path, sizeof path, name);
  CHK(FcTestCubeMesh(n, 1, 1.0, 0.0, 0.0, NULL, NULL, &cube));
  CHK(FcTestCubeMeshWriteMsh(&cube, 1.0, size, path));
  CHK(FcTestCubeMeshFree(&cube));
}

/* A loaded case (tmpdir/name written with json) and its model; with contacts, the contact step. */
typedef struct {
  FcCase        c;
  FcModel       m;
  FcContactStep cs;
} Model;

static void ModelCreate(const char *name, const char *json, Model *md)
{
  char path[PETSC_MAX_PATH_LEN];

  TmpPath(path, sizeof path, name);
  FcTestWriteFile(path, json);
  CHK(PetscMemzero(md, sizeof *md));
  CHK(FcCaseLoad(path, 0, NULL, &md->c));
  CHK(FcModelCreate(&md->c, &md->m));
  if (md->c.ncontacts) CHK(FcContactStepCreate(&md->m, &md->cs));
}

static void ModelDestroy(Model *md)
{
  if (md->cs) CHK(FcContactStepDestroy(&md->cs));
  CHK(FcModelDestroy(&md->m));
  CHK(FcCaseDestroy(&md->c));
}

/* The first step of the case, t0 = 0 → t1 = dt, as the run loop (src/run/run.c) sets it up. */
static void FirstStep(Model *md, FcStepStats *st)
{
  const FcStepInfo s = {.integrator = md->c.integrator, .step = 1, .t0 = 0.0, .t1 = md->c.dt, .dt = md->c.dt};
  CHK(FcStep(&md->m, md->cs, &s, st));
}

/* Nodes of the physical surface group `name` of body b. */
static const FcMeshGroup *Group(FcBody b, const char *name)
{
  const FcMeshGroup *g;
  CHK(FcMeshFindGroup(&b->mesh, name, 2, &g));
  assert_non_null(g);
  return g;
}

/* Σ over the nodes of group g of component k of the vector v (3 per node). */
static PetscReal GroupSum(const FcMeshGroup *g, Vec v, int k)
{
  const PetscScalar *a;
  PetscReal          s = 0;
  CHK(VecGetArrayRead(v, &a));
  for (PetscInt i = 0; i < g->nnodes; i++) s += a[3 * g->nodes[i] + k];
  CHK(VecRestoreArrayRead(v, &a));
  return s;
}

/* ---- 1. quasi-static linear step: a bar pulled by a prescribed end displacement ------------- */
static void test_quasi_static_bar(void **state)
{
  const PetscReal    L = 2.0, a = 0.5, E = 2.1e11, nu = 0.3, delta = 1e-3, size[3] = {L, a, a};
  const PetscReal    F = E * a * a * delta / L; /* uniaxial stress E δ/L on the section a² */
  char               json[2048];
  Model              md;
  FcStepStats        st;
  FcBody             b;
  const PetscScalar *u;
  PetscReal          Fmax, Fmin, lateral = 0, uerr = 0;
  (void)state;

  WriteBox("bar.msh", 2, size); /* 2 × 2 × 2 cells: 27 nodes, 48 tetrahedra; one node inside */
  snprintf(json, sizeof json,
    "{ \"name\": \"bar\",\n"
    "  \"time\": { \"integrator\": \"quasi_static\", \"dt\": 1, \"steps\": 1 },\n"
    "  \"bodies\": [ { \"name\": \"bar\", \"mesh\": { \"file\": \"bar.msh\" },\n"
    "    \"material\": { \"model\": \"linear\", \"E\": %.17g, \"nu\": %.17g, \"density\": 7800 },\n"
    "    \"boundary\": [ { \"group\": \"xmin\", \"fix\": [true, false, false] },\n"
    "                    { \"group\": \"ymin\", \"fix\": [false, true, false] },\n"
    "                    { \"group\": \"zmin\", \"fix\": [false, false, true] },\n"
    "                    { \"group\": \"xmax\", \"displacement\": [%.17g, null, null] } ] } ] }\n",
    (double)E, (double)nu, (double)delta);
  ModelCreate("bar.json", json, &md);
  assert_int_equal(md.m.nbodies, 1);
  b = md.m.bodies[0];
  FirstStep(&md, &st);

  /* linear: the exact tangent K, so the first solve gives the solution; the second residual
   * evaluation (round-off, ~1e-16 relative) only confirms it */
  assert_true(st.converged);
  assert_int_equal(st.newton_it, 1);
  Fmax = GroupSum(Group(b, "xmax"), b->reaction, 0);
  Fmin = GroupSum(Group(b, "xmin"), b->reaction, 0);
  /* the rollers carry nothing: the lateral contraction is free */
  lateral = PetscMax(PetscAbsReal(GroupSum(Group(b, "ymin"), b->reaction, 1)), PetscAbsReal(GroupSum(Group(b, "zmin"), b->reaction, 2)));
  CHK(VecGetArrayRead(b->u, &u));
  for (PetscInt k = 0; k < b->mesh.nnodes; k++) {
    const PetscReal *X = b->mesh.X + 3 * k, ex[3] = {delta * X[0] / L, -nu * delta * X[1] / L, -nu * delta * X[2] / L};
    for (int i = 0; i < 3; i++) uerr = PetscMax(uerr, PetscAbsReal(u[3 * k + i] - ex[i]));
  }
  CHK(VecRestoreArrayRead(b->u, &u));
  printf(
    "FIGURE step quasi-static linear bar (L %g, a %g, E %g, nu %g, delta %g; %d tets): converged in %d Newton solve(s), residual %.1e; reaction on xmax %.10e N vs E A delta/L = %.10e N (rel. error %.1e), on xmin -F to %.1e F; rollers %.1e F; |u - u_uniaxial| / delta %.1e\n",
    (double)L, (double)a, (double)E, (double)nu, (double)delta, (int)b->mesh.nelems, (int)st.newton_it, (double)st.residual, (double)Fmax, (double)F,
    (double)(PetscAbsReal(Fmax - F) / F), (double)(PetscAbsReal(Fmin + F) / F), (double)(lateral / F), (double)(uerr / delta));
  /* The uniaxial field is linear in X, inside the tet4 space: the discrete solution is the exact
   * one and only round-off separates them (K entries ~E a, condition number of this small K
   * ~1e3: ~1e-13 relative). 1e-10 leaves room and still fails on any wrong factor (ν, A, L). */
  assert_true(PetscAbsReal(Fmax - F) <= 1e-10 * F);
  assert_true(PetscAbsReal(Fmin + F) <= 1e-10 * F);
  assert_true(lateral <= 1e-10 * F);
  assert_true(uerr <= 1e-10 * delta);
  ModelDestroy(&md);
}

/* ---- 2. dynamic step: a free cube falls under gravity (backward Euler) --------------------- */
static void test_dynamic_free_fall(void **state)
{
  const PetscReal    L = 1.0, rho = 1000, dt = 1e-3, g[3] = {1.5, -2.0, -9.81}, size[3] = {L, L, L};
  char               json[2048];
  Model              md;
  FcStepStats        st;
  FcBody             b;
  const PetscScalar *u, *v;
  PetscReal          verr = 0, uerr = 0, g2 = 0, ke;
  (void)state;

  WriteBox("cube.msh", 1, size); /* one cell: 8 nodes, 6 tetrahedra */
  snprintf(json, sizeof json,
    "{ \"name\": \"fall\",\n"
    "  \"time\": { \"integrator\": \"backward_euler\", \"dt\": %.17g, \"steps\": 1 },\n"
    "  \"gravity\": [%.17g, %.17g, %.17g],\n"
    "  \"bodies\": [ { \"name\": \"cube\", \"mesh\": { \"file\": \"cube.msh\" },\n"
    "    \"material\": { \"model\": \"linear\", \"E\": 1e6, \"nu\": 0.3, \"density\": %.17g } } ] }\n",
    (double)dt, (double)g[0], (double)g[1], (double)g[2], (double)rho);
  ModelCreate("fall.json", json, &md);
  b = md.m.bodies[0];
  FirstStep(&md, &st);

  /* M (v − 0) + Δt (K (Δt v) − M g) = 0 has the rigid translation v = g Δt as its solution
   * (K annihilates translations): one Newton solve with A = M + Δt² K */
  assert_true(st.converged);
  assert_int_equal(st.newton_it, 1);
  CHK(VecGetArrayRead(b->u, &u));
  CHK(VecGetArrayRead(b->v, &v));
  for (PetscInt k = 0; k < b->mesh.nnodes; k++)
    for (int i = 0; i < 3; i++) {
      verr = PetscMax(verr, PetscAbsReal(v[3 * k + i] - g[i] * dt));
      uerr = PetscMax(uerr, PetscAbsReal(u[3 * k + i] - g[i] * dt * dt)); /* u = u0 + Δt v */
    }
  CHK(VecRestoreArrayRead(b->v, &v));
  CHK(VecRestoreArrayRead(b->u, &u));
  for (int i = 0; i < 3; i++) g2 += g[i] * g[i];
  ke = 0.5 * rho * L * L * L * g2 * dt * dt;
  printf(
    "FIGURE step backward Euler free fall (g = (%g, %g, %g), dt %g; %d tets): converged in %d Newton solve(s); max |v - g dt| / |g dt| %.1e, max |u - g dt^2| / |g dt^2| %.1e, kinetic energy vs m |g dt|^2 / 2 %.1e\n",
    (double)g[0], (double)g[1], (double)g[2], (double)dt, (int)b->mesh.nelems, (int)st.newton_it, (double)(verr / (PetscSqrtReal(g2) * dt)),
    (double)(uerr / (PetscSqrtReal(g2) * dt * dt)), (double)(PetscAbsReal(b->kinetic_energy - ke) / ke));
  /* Exact in exact arithmetic; what is left is the round-off of K·1 (~1e-16 |K| |u|, times
   * Δt²/M ~ 1e-2 here) and of one well-conditioned solve (cond A ~ 1 + Δt² λ_max(K, M) ~ 1):
   * ~1e-15 relative. */
  assert_true(verr <= 1e-12 * PetscSqrtReal(g2) * dt);
  assert_true(uerr <= 1e-12 * PetscSqrtReal(g2) * dt * dt);
  assert_true(PetscAbsReal(b->kinetic_energy - ke) <= 1e-12 * ke);
  ModelDestroy(&md);
}

/* ---- 3. the contact step: a cube resting on a rigid plane under gravity -------------------- */
static void test_contact_rest(void **state)
{
  const PetscReal    L = 1.0, rho = 1000, gz = 9.81, mu = 0.5, size[3] = {L, L, L};
  const PetscReal    W = rho * L * L * L * gz; /* the weight m g */
  char               json[4096];
  Model              md;
  FcStepStats        st;
  FcBody             b;
  FcContactView      cv;
  const FcMeshGroup *bottom;
  const PetscScalar *u;
  PetscReal          f[3] = {0, 0, 0}, gapmin = PETSC_MAX_REAL, cone = 0, rnmin = PETSC_MAX_REAL;
  PetscInt           nstick = 0;
  (void)state;

  WriteBox("block.msh", 2, size); /* 2 × 2 × 2 cells: 27 nodes, 9 of them on the floor */
  /* Only the contact holds the cube, so K is singular: the Newton matrix is K + s M with s = 10
   * s⁻², far below the lowest elastic ω² of the cube (~(π c / 2L)² ~ 2.5e3 s⁻², c = √(E/ρ)), a
   * modified Newton method contracting by ~s/ω² per iteration to the same solution. */
  snprintf(json, sizeof json,
    "{ \"name\": \"rest\",\n"
    "  \"time\": { \"integrator\": \"quasi_static\", \"dt\": 1, \"steps\": 1,\n"
    "            \"newton\": { \"shift\": 10, \"max_it\": 50 } },\n"
    "  \"gravity\": [0, 0, %.17g],\n"
    "  \"bodies\": [ { \"name\": \"block\", \"mesh\": { \"file\": \"block.msh\" },\n"
    "                  \"material\": { \"model\": \"linear\", \"E\": 1e6, \"nu\": 0.3, \"density\": %.17g } },\n"
    "                { \"name\": \"floor\", \"type\": \"rigid\",\n"
    "                  \"shape\": { \"type\": \"plane\", \"point\": [0, 0, 0], \"normal\": [0, 0, 1] } } ],\n"
    "  \"contacts\": [ { \"pair\": [\"block\", \"floor\"], \"surface\": \"zmin\", \"mu\": %.17g } ],\n"
    "  \"contact_solver\": { \"type\": \"nsgs\", \"tol\": 1e-16, \"max_it\": 100000 } }\n",
    (double)-gz, (double)rho, (double)mu);
  ModelCreate("rest.json", json, &md);
  assert_non_null(md.cs);
  b = md.m.bodies[0];
  FirstStep(&md, &st);

  assert_true(st.converged);
  assert_true(st.contact.converged);
  CHK(FcContactStepGetView(md.cs, &cv));
  bottom = Group(b, "zmin");
  assert_int_equal(cv.m, bottom->nnodes); /* one contact per node of the bottom face */
  for (PetscInt k = 0; k < cv.m; k++) {
    const PetscReal *r = cv.r + 3 * k;
    for (int i = 0; i < 3; i++) f[i] += r[0] * cv.n[9 * k + i] + r[1] * cv.t1[9 * k + i] + r[2] * cv.t2[9 * k + i];
    rnmin = PetscMin(rnmin, r[0]);
    cone  = PetscMax(cone, PetscSqrtReal(r[1] * r[1] + r[2] * r[2]) - mu * r[0]);
    nstick += cv.status[k] == FC_CONTACT_STICK;
  }
  /* the gap of the end state: the floor is z = 0 */
  CHK(VecGetArrayRead(b->u, &u));
  for (PetscInt i = 0; i < bottom->nnodes; i++) gapmin = PetscMin(gapmin, b->mesh.X[3 * bottom->nodes[i] + 2] + u[3 * bottom->nodes[i] + 2]);
  CHK(VecRestoreArrayRead(b->u, &u));
  printf(
    "FIGURE step contact: cube on a rigid plane (m g = %g N, mu %g, %d tets, Newton shift 10): converged in %d Newton solves (%d contact solves, %d nsgs sweeps), %d contacts, %d sticking; normal force %.10e N, |F_z - m g| / m g %.1e, |F_t| / m g %.1e; min r_n %.3e N, max(|r_t| - mu r_n) %.1e N; min gap %.1e m\n",
    (double)W, (double)mu, (int)b->mesh.nelems, (int)st.newton_it, (int)st.contact.solves, (int)st.contact.iterations, (int)cv.m, (int)nstick, (double)f[2],
    (double)(PetscAbsReal(f[2] - W) / W), (double)(PetscSqrtReal(f[0] * f[0] + f[1] * f[1]) / W), (double)rnmin, (double)cone, (double)gapmin);
  /* Equilibrium of the converged step: Σ(f_int − f_ext − Hᵀr) is the residual, ≤ rtol (1e-10,
   * the default) times the force scale ~m g, and Σ f_int = K·u summed = 0 to round-off (rigid
   * translations are in the null space of K): the contact forces carry the weight to ~1e-10. */
  assert_true(PetscAbsReal(f[2] - W) <= 1e-8 * W);
  assert_true(PetscSqrtReal(f[0] * f[0] + f[1] * f[1]) <= 1e-8 * W);
  /* every contact node pressed (r_n > 0), within the Coulomb cone */
  assert_true(rnmin > 0);
  assert_true(cone <= 1e-10 * W);
  /* No penetration. The plane makes the linearized gap of the last contact solve the end gap,
   * which that solve makes ≥ 0 up to its common error: tol times max(|q|, |r|, |u|), here |r| ~
   * 4e3 N in a norm that mixes newtons and metres, so u_n may be off by ~tol · 4e3 "m". Hence
   * contact_solver.tol 1e-16 (nsgs reaches it; ~2e-13 m measured, 1e-14 gives -2e-12 m), the
   * end gap ~2e-13 of the 5e-3 m the cube settles. */
  assert_true(gapmin >= -1e-12);
  ModelDestroy(&md);
}

/* ---- 4. the compliance strategies agree on a linear body ------------------------------------ */
static void RestCase(char *json, size_t len, const char *compliance)
{
  snprintf(json, len,
    "{ \"name\": \"rest_%s\",\n"
    "  \"time\": { \"integrator\": \"quasi_static\", \"dt\": 1, \"steps\": 1,\n"
    "            \"newton\": { \"shift\": 10, \"max_it\": 50 } },\n"
    "  \"gravity\": [0, 0, -9.81],\n"
    "  \"bodies\": [ { \"name\": \"block\", \"mesh\": { \"file\": \"block.msh\" },\n"
    "                  \"material\": { \"model\": \"linear\", \"E\": 1e6, \"nu\": 0.3, \"density\": 1000 } },\n"
    "                { \"name\": \"floor\", \"type\": \"rigid\",\n"
    "                  \"shape\": { \"type\": \"plane\", \"point\": [0, 0, 0], \"normal\": [0, 0, 1] } } ],\n"
    "  \"contacts\": [ { \"pair\": [\"block\", \"floor\"], \"surface\": \"zmin\", \"mu\": 0.5 } ],\n"
    "  \"contact_solver\": { \"type\": \"nsgs\", \"tol\": 1e-16, \"max_it\": 100000 },\n"
    "  \"compliance\": { \"type\": \"%s\" } }\n",
    compliance, compliance);
}

static void test_compliance_strategies(void **state)
{
  const char     *types[3] = {"exact", "precomputed", "schur"};
  const PetscReal size[3]  = {1, 1, 1};
  PetscReal      *W0 = NULL, *r0 = NULL, wmax = 0, rmax = 0, dw[3] = {0, 0, 0}, dr[3] = {0, 0, 0};
  PetscInt        m0 = 0;
  char            json[4096], name[64];
  (void)state;

  WriteBox("block.msh", 2, size);
  for (int t = 0; t < 3; t++) {
    Model            md;
    FcStepStats      st;
    FcContactProblem p;
    const PetscReal *r;
    RestCase(json, sizeof json, types[t]);
    snprintf(name, sizeof name, "rest_%s.json", types[t]);
    ModelCreate(name, json, &md);
    assert_string_equal(md.cs->compliance->type, types[t]);
    FirstStep(&md, &st);
    assert_true(st.converged);
    CHK(FcContactStepGetProblem(md.cs, &p, &r));
    assert_non_null(p);
    if (!t) {
      m0 = p->m;
      CHK(PetscMalloc2(9 * m0 * m0, &W0, 3 * m0, &r0));
      CHK(PetscArraycpy(W0, p->W, 9 * m0 * m0));
      CHK(PetscArraycpy(r0, r, 3 * m0));
      for (PetscInt i = 0; i < 9 * m0 * m0; i++) wmax = PetscMax(wmax, PetscAbsReal(W0[i]));
      for (PetscInt i = 0; i < 3 * m0; i++) rmax = PetscMax(rmax, PetscAbsReal(r0[i]));
    } else {
      assert_int_equal(p->m, m0);
      for (PetscInt i = 0; i < 9 * m0 * m0; i++) dw[t] = PetscMax(dw[t], PetscAbsReal(p->W[i] - W0[i]));
      for (PetscInt i = 0; i < 3 * m0; i++) dr[t] = PetscMax(dr[t], PetscAbsReal(r[i] - r0[i]));
    }
    ModelDestroy(&md);
  }
  printf(
    "FIGURE step compliance strategies on the resting cube (%d contacts): max |W - W_exact| / max |W_exact|: precomputed %.1e, schur %.1e; max |r - r_exact| / max |r_exact|: precomputed %.1e, schur %.1e\n",
    (int)m0, (double)(dw[1] / wmax), (double)(dw[2] / wmax), (double)(dr[1] / rmax), (double)(dr[2] / rmax));
  /* The same A = K + s M is factored every iteration (a linear body), so the three strategies
   * compute one W: precomputed from the first factorization's columns, schur through the Schur
   * complement (one more elimination order), both differing from exact by the round-off of a
   * solve with cond(A) ~ 1e3 (~1e-13 relative). The forces come from nsgs at tol 1e-16 on these W. */
  assert_true(wmax > 0 && rmax > 0);
  for (int t = 1; t < 3; t++) {
    assert_true(dw[t] <= 1e-10 * wmax);
    assert_true(dr[t] <= 1e-8 * rmax);
  }
  CHK(PetscFree2(W0, r0));
}

/* An unknown strategy: one line, FILE: compliance.type: ..., listing the registered names. */
static void test_compliance_unknown(void **state)
{
  char           err[1024] = "";
  PetscErrorCode ierr;
  FcTestCapture  cap;
  (void)state;

  FcTestCaptureStart(&cap);
  ierr = FcComplianceCheckType("case.json", "approx");
  FcTestCaptureStop(&cap, err, sizeof err);
  assert_int_equal(ierr, FC_ERR_INPUT);
  assert_string_equal(err, "case.json: compliance.type: \"approx\" is not allowed (choices: exact, precomputed, schur, lagged)\n");
  CHK(FcComplianceCheckType("case.json", "schur"));
}

/* ---- 5. W block-sparse in a multi-body step ------------------------------------------------- */
/* A box as in WriteBox, translated by off (node lines of the MSH 2.2 $Nodes section shifted). */
static void WriteBoxAt(const char *name, PetscInt n, const PetscReal size[3], const PetscReal off[3])
{
  char  path[PETSC_MAX_PATH_LEN], tmp[PETSC_MAX_PATH_LEN + 8], line[512];
  FILE *in, *out;
  int   nodes = 0;

  WriteBox(name, n, size);
  TmpPath(path, sizeof path, name);
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  assert_int_equal(rename(path, tmp), 0);
  in  = fopen(tmp, "r");
  out = fopen(path, "w");
  assert_non_null(in);
  assert_non_null(out);
  while (fgets(line, sizeof line, in)) {
    int    id;
    double x[3];
    if (!strncmp(line, "$Nodes", 6)) nodes = 1;
    else if (!strncmp(line, "$EndNodes", 9)) nodes = 0;
    else if (nodes == 1) nodes = 2; /* the count */
    else if (nodes == 2 && sscanf(line, "%d %lf %lf %lf", &id, &x[0], &x[1], &x[2]) == 4) {
      fprintf(out, "%d %.17g %.17g %.17g\n", id, x[0] + (double)off[0], x[1] + (double)off[1], x[2] + (double)off[2]);
      continue;
    }
    fputs(line, out);
  }
  fclose(in);
  assert_int_equal(fclose(out), 0);
  assert_int_equal(remove(tmp), 0);
}

/* Three deformable cubes, backward Euler, one step under gravity from rest: A (unit cube) and C
 * (unit cube at x = 2) on a rigid floor, B (0.5 × 0.5 × 0.5) standing on A's top, all touching at
 * t = 0. Contacts: A–floor and C–floor (9 each, on one body), B–A (9, on both A and B). */
static void StackCase(char *json, size_t len, const char *name, const char *compliance)
{
  snprintf(json, len,
    "{ \"name\": \"%s\",\n"
    "  \"time\": { \"integrator\": \"backward_euler\", \"dt\": 0.01, \"steps\": 1 },\n"
    "  \"gravity\": [0, 0, -9.81],\n"
    "  \"bodies\": [ { \"name\": \"A\", \"mesh\": { \"file\": \"A.msh\" },\n"
    "                  \"material\": { \"model\": \"linear\", \"E\": 1e6, \"nu\": 0.3, \"density\": 1000 } },\n"
    "                { \"name\": \"B\", \"mesh\": { \"file\": \"B.msh\" },\n"
    "                  \"material\": { \"model\": \"linear\", \"E\": 1e6, \"nu\": 0.3, \"density\": 1000 } },\n"
    "                { \"name\": \"C\", \"mesh\": { \"file\": \"C.msh\" },\n"
    "                  \"material\": { \"model\": \"linear\", \"E\": 1e6, \"nu\": 0.3, \"density\": 1000 } },\n"
    "                { \"name\": \"floor\", \"type\": \"rigid\",\n"
    "                  \"shape\": { \"type\": \"plane\", \"point\": [0, 0, 0], \"normal\": [0, 0, 1] } } ],\n"
    "  \"contacts\": [ { \"pair\": [\"A\", \"floor\"], \"surface\": \"zmin\", \"mu\": 0.5, \"alarm\": 0.05 },\n"
    "                { \"pair\": [\"B\", \"A\"], \"surface\": \"zmin\", \"target_surface\": \"zmax\", \"mu\": 0.3, \"alarm\": 0.05 },\n"
    "                { \"pair\": [\"C\", \"floor\"], \"surface\": \"zmin\", \"mu\": 0.5, \"alarm\": 0.05 } ],\n"
    "  \"contact_solver\": { \"type\": \"nsgs\", \"tol\": 1e-15, \"max_it\": 100000 },\n"
    "  \"compliance\": { \"type\": \"%s\" } }\n",
    name, compliance);
}

static void test_sparse_delassus(void **state)
{
  const char     *types[3] = {"exact", "precomputed", "schur"};
  const PetscReal unit[3] = {1, 1, 1}, half[3] = {0.5, 0.5, 0.5}, o0[3] = {0, 0, 0}, oB[3] = {0.25, 0.25, 1}, oC[3] = {2, 0, 0};
  PetscReal       dW[3] = {0, 0, 0}, dr[3] = {0, 0, 0}, offpat[3] = {0, 0, 0};
  PetscInt64      predicted = 0, nbs[3] = {0, 0, 0};
  PetscInt        m0     = 0;
  PetscBool      *shares = NULL;
  char            json[8192], name[64];
  (void)state;

  WriteBoxAt("A.msh", 2, unit, o0);
  WriteBoxAt("B.msh", 2, half, oB);
  WriteBoxAt("C.msh", 2, unit, oC);
  for (int t = 0; t < 3; t++) {
    FcContactProblem P[2] = {NULL, NULL};
    PetscReal       *R[2] = {NULL, NULL}, wmax = 0, rmax = 0;
    PetscInt64       nb[2];
    for (int s = 0; s < 2; s++) { /* s = 0: auto (sparse here), s = 1: -fc_contact_w_storage dense */
      Model       md;
      FcStepStats st;
      snprintf(name, sizeof name, "stack_%s_%d", types[t], s);
      StackCase(json, sizeof json, name, types[t]);
      if (s) CHK(PetscOptionsSetValue(NULL, "-fc_contact_w_storage", "dense"));
      snprintf(name, sizeof name, "stack_%s_%d.json", types[t], s);
      ModelCreate(name, json, &md);
      if (s) CHK(PetscOptionsClearValue(NULL, "-fc_contact_w_storage"));
      FirstStep(&md, &st);
      assert_true(st.converged);
      assert_true(st.contact.converged);
      nb[s] = md.cs->wblocks;
      assert_true(FcContactProblemIsSparse(md.cs->prob) == (s == 0));
      if (!s) assert_int_equal(md.cs->prob->nb, md.cs->wblocks); /* stored = pattern (diagonal included) */
      if (!s && !t) {                                            /* the prediction from the contacts' bodies: a, b couple iff they share a body */
        PetscInt *bodyof;
        m0 = md.cs->m;
        CHK(PetscMalloc1(2 * m0, &bodyof));
        CHK(PetscMalloc1(m0 * m0, &shares));
        for (PetscInt a = 0; a < m0; a++) {
          const FcContactPair *pp = &md.cs->pairs[md.cs->pair[a]];
          bodyof[2 * a]           = pp->A;
          bodyof[2 * a + 1]       = md.m.bodies[pp->B]->ndof ? pp->B : -1; /* the floor has no DoFs */
        }
        for (PetscInt a = 0; a < m0; a++)
          for (PetscInt b = 0; b < m0; b++) {
            PetscBool share = PETSC_FALSE;
            for (int i = 0; i < 2; i++)
              for (int j = 0; j < 2; j++) share = (PetscBool)(share || (bodyof[2 * a + i] >= 0 && bodyof[2 * a + i] == bodyof[2 * b + j]));
            predicted += share;
            shares[a * m0 + b] = share;
          }
        CHK(PetscFree(bodyof));
      }
      assert_int_equal(md.cs->m, m0);
      CHK(FcContactProblemConvert(md.cs->prob, FC_CONTACT_W_DENSE, &P[s]));
      CHK(PetscMalloc1(3 * m0, &R[s]));
      CHK(PetscArraycpy(R[s], md.cs->r, 3 * m0));
      ModelDestroy(&md);
    }
    nbs[t] = nb[0];
    assert_int_equal(nb[0], predicted);
    assert_int_equal(nb[1], predicted); /* the pattern is counted whatever the storage */
    for (PetscInt i = 0; i < 9 * m0 * m0; i++) wmax = PetscMax(wmax, PetscAbsReal(P[1]->W[i]));
    for (PetscInt i = 0; i < 3 * m0; i++) rmax = PetscMax(rmax, PetscAbsReal(R[1][i]));
    for (PetscInt i = 0; i < 9 * m0 * m0; i++) dW[t] = PetscMax(dW[t], PetscAbsReal(P[0]->W[i] - P[1]->W[i]));
    for (PetscInt i = 0; i < 3 * m0; i++) dr[t] = PetscMax(dr[t], PetscAbsReal(R[0][i] - R[1][i]));
    /* the dense W outside the pattern (contacts that share no body) is exactly zero: the pattern
     * misses no coupling */
    for (PetscInt a = 0; a < m0; a++)
      for (PetscInt b = 0; b < m0; b++) {
        PetscReal blk[9];
        if (shares[a * m0 + b]) continue;
        FcContactProblemGetBlock(P[1], a, b, blk);
        for (int i = 0; i < 9; i++) offpat[t] = PetscMax(offpat[t], PetscAbsReal(blk[i]));
      }
    dW[t] /= wmax;
    dr[t] /= rmax;
    for (int s = 0; s < 2; s++) {
      CHK(FcContactProblemDestroy(&P[s]));
      CHK(PetscFree(R[s]));
    }
  }
  printf(
    "FIGURE step sparse W: 3 cubes (A and C on a floor, B on A), %d contacts: %lld blocks predicted from the bodies' contacts, %lld stored (fill %.3f: block-sparse by the rule); sparse vs -fc_contact_w_storage dense: max |W_s - W_d| / max |W_d| exact %.1e, precomputed %.1e, schur %.1e; max |r_s - r_d| / max |r_d| %.1e, %.1e, %.1e\n",
    (int)m0, (long long)predicted, (long long)nbs[0], (double)predicted / (double)(m0 * m0), (double)dW[0], (double)dW[1], (double)dW[2], (double)dr[0],
    (double)dr[1], (double)dr[2]);
  /* 27 contacts, 9 per pair: A's group is A–floor and B–A (18), B's is B–A, C's C–floor, so
   * 18² + 9² = 405 blocks of 729: sparse by the fill rule (0.56 < 0.75) */
  assert_int_equal(m0, 27);
  assert_int_equal(predicted, 405);
  for (int t = 0; t < 3; t++) {
    assert_true(offpat[t] == 0);
    /* the same W up to the round-off of the solves: on the sparse path each body solves only the
     * columns of its own contacts, in other blocks of right-hand sides (cond(A) ~ 1e2 with the
     * mass term of Δt = 0.01); nsgs to tol 1e-15 on the two: r to 1e-12 (issue 12) */
    assert_true(dW[t] <= 1e-13);
    assert_true(dr[t] <= 1e-12);
  }
  CHK(PetscFree(shares));
}

/* ---- the temporary folder, the registries ---------------------------------------------------- */
static int MakeTmpdir(void **state)
{
  (void)state;
  snprintf(tmpdir, sizeof tmpdir, "/tmp/fcsim_test_step_XXXXXX");
  return mkdtemp(tmpdir) ? 0 : -1;
}

static int RemoveTmpdir(void **state)
{
  (void)state;
  if (tmpdir[0]) FcTestRemoveTree(tmpdir);
  return 0;
}

static PetscErrorCode Register(void)
{
  PetscFunctionBegin;
  PetscCall(FcMaterialRegisterAll());
  PetscCall(FcContactSolverRegisterAll());
  PetscFunctionReturn(0);
}

/* what src/fcsim.c finalizes: Gmsh, the two registries */
static PetscErrorCode Finalize(void)
{
  PetscFunctionBegin;
  PetscCall(FcMeshFinalizePackage());
  PetscCall(FcMaterialFinalizePackage());
  PetscCall(FcContactSolverFinalizePackage());
  PetscFunctionReturn(0);
}

/* ---- 6. the body registry and the coupling law --------------------------------------------- */
static int stub_created = 0;

static PetscErrorCode CreateStub_Test(const FcCase *c, PetscInt index, FcBody *body)
{
  PetscFunctionBegin;
  PetscCall(PetscNew(body));
  (*body)->spec = &c->bodies[index];
  PetscCall(PetscStrncpy((*body)->name, c->bodies[index].name, sizeof(*body)->name));
  stub_created++;
  PetscFunctionReturn(0);
}

static void test_body_registry(void **state)
{
  FcCase         c;
  FcCaseBody     bodies[2];
  FcBody         b         = NULL;
  char           err[4096] = "";
  PetscErrorCode ierr;
  FcTestCapture  cap;
  (void)state;

  memset(&c, 0, sizeof c);
  memset(bodies, 0, sizeof bodies);
  c.nbodies = 2;
  c.bodies  = bodies;
  snprintf(bodies[0].name, sizeof bodies[0].name, "probe");
  snprintf(bodies[0].type, sizeof bodies[0].type, "stub");
  snprintf(bodies[1].name, sizeof bodies[1].name, "other");
  snprintf(bodies[1].type, sizeof bodies[1].type, "nosuch");
  CHK(FcBodyRegisterAll()); /* the built-in types first, whatever ran before: a known list order */
  CHK(FcBodyRegister("stub", CreateStub_Test));
  CHK(FcBodyCreate(&c, 0, &b));
  assert_int_equal(stub_created, 1);
  assert_non_null(b);
  assert_string_equal(FcBodyName(b), "probe");
  assert_int_equal(FcBodyNDof(b), 0);
  assert_null(FcBodyFieldMesh(b));
  CHK(FcBodyDestroy(&b));
  assert_null(b);
  FcTestCaptureStart(&cap);
  ierr = FcBodyCreate(&c, 1, &b);
  FcTestCaptureStop(&cap, err, sizeof err);
  assert_int_equal(ierr, PETSC_ERR_ARG_UNKNOWN_TYPE);
  assert_int_equal(stub_created, 1);
  assert_non_null(strstr(err, "body other: unknown body type \"nosuch\" (registered: deformable, rigid, stub)"));
  CHK(FcBodyDestroy(&b));
}

static void test_coupling_law(void **state)
{
  const FcRigidCoupling cp   = {.mass = 1, .Jb = {1, 1, 1}, .K = 1000, .B = 20, .Kr = 3, .Br = 0.5};
  const PetscReal       c[3] = {0.1, 0.2, 0.3}, d[3] = {0.01, -0.02, 0.005}, ptgt[3] = {0.15, 0.17, 0.31};
  const PetscReal       vdev[3] = {1, 2, 3}, wdev[3] = {0.5, -1, 2}, V[6] = {0.5, 1, -1, 0.25, 0.5, 1};
  const PetscReal       Id[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, th = 0.3;
  const PetscReal       Rz[9] = {PetscCosReal(th), -PetscSinReal(th), 0, PetscSinReal(th), PetscCosReal(th), 0, 0, 0, 1};
  PetscReal             F[3], T[3];
  (void)state;

  FcRigidCouplingForce(&cp, c, ptgt, Id, vdev, wdev, d, Id, V, F, T);
  for (int k = 0; k < 3; k++) {
    /* the same expression: equal to the last bit */
    assert_true(F[k] == cp.K * (ptgt[k] - c[k] - d[k]) + cp.B * (vdev[k] - V[k]));
    assert_true(T[k] == cp.Br * (wdev[k] - V[3 + k]));
  }
  /* R_dev = R_z(θ), R = I: log(R_dev Rᵀ) = θ e_z (FcMat3Log, accurate to a few ulp of θ) */
  FcRigidCouplingForce(&cp, c, ptgt, Rz, vdev, wdev, d, Id, V, F, T);
  assert_true(PetscAbsReal(T[0] - cp.Br * (wdev[0] - V[3])) <= 1e-15);
  assert_true(PetscAbsReal(T[1] - cp.Br * (wdev[1] - V[4])) <= 1e-15);
  assert_true(PetscAbsReal(T[2] - (cp.Kr * th + cp.Br * (wdev[2] - V[5]))) <= 1e-14);
}

int main(int argc, char **argv)
{
  // clang-format off
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_quasi_static_bar),
    cmocka_unit_test(test_compliance_strategies),
    cmocka_unit_test(test_compliance_unknown),
    cmocka_unit_test(test_dynamic_free_fall),
    cmocka_unit_test(test_contact_rest),
    cmocka_unit_test(test_sparse_delassus),
    cmocka_unit_test(test_body_registry),
    cmocka_unit_test(test_coupling_law),
  };
  // clang-format on

  return FcTestRun(&argc, &argv, "tests", tests, sizeof tests / sizeof tests[0], MakeTmpdir, RemoveTmpdir, Register, Finalize);
}
