/* Unit test of the rotations of src/core/mat3.c (the rigid bodies' SO(3) helpers, used by
 * src/model/body_rigid.c): the skew matrix, the exponential and logarithm maps, R diag(d) Rᵀ.
 *
 * Checks, on random rotation vectors (angles up to 3 rad, and small ones down to 1e-12 rad on
 * either side of the series switch at 1e-6):
 *  1. [w]× v = w × v exactly (the cross product written out here), [w]× antisymmetric.
 *  2. R = exp([φ]×) is a rotation: ‖RᵀR − I‖_max and |det R − 1| ≤ 2e-15 (each entry of RᵀR
 *     or term of det R sums three products of entries of magnitude ≤ 1 that carry a few ulps,
 *     2.2e-16 each, from Rodrigues' formula); exp(0) = I exactly; exp(−φ) = exp(φ)ᵀ to 1e-15.
 *  3. exp(θ [a]×) turns a vector v by θ about the unit axis a: it equals Rodrigues' rotation
 *     formula v cos θ + (a × v) sin θ + a (a·v)(1 − cos θ), written out here on vectors, to
 *     1e-15 ‖v‖, also on either side of the switch to the series (θ = 1e-6 (1 ± 1e-9)).
 *  4. exp is a one-parameter group along an axis: exp(sφ) exp(tφ) = exp((s + t)φ) to 1e-15.
 *  5. log(exp(φ)) = φ for |φ| ≤ 3: to 1e-15 |φ| / sin|φ| (the error of the skew part divided by
 *     sin t), and the small angles to 1e-15 |φ|.
 *  6. J = R diag(d) Rᵀ is symmetric and J (R e_k) = d_k (R e_k), both to 1e-15 max d. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, dup in testutil.h */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>

#include "../../src/core/mat3.h"
#include "testutil.h"

#define NSAMPLES 2000

static uint64_t seed = 20261126;

static void Cross(const PetscReal a[3], const PetscReal b[3], PetscReal c[3])
{
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}

/* A unit vector, uniform on the sphere (rejection from the cube, then normalized). */
static void RandomAxis(PetscReal a[3])
{
  PetscReal n2;
  do {
    for (int k = 0; k < 3; k++) a[k] = FcTestUniform(&seed, -1, 1);
    n2 = a[0] * a[0] + a[1] * a[1] + a[2] * a[2];
  } while (n2 > 1 || n2 < 1e-4);
  for (int k = 0; k < 3; k++) a[k] /= PetscSqrtReal(n2);
}

/* v turned by theta about the unit axis a, by Rodrigues' rotation formula on vectors. */
static void RodriguesRotate(const PetscReal a[3], PetscReal theta, const PetscReal v[3], PetscReal w[3])
{
  const PetscReal c = PetscCosReal(theta), s = PetscSinReal(theta), av = a[0] * v[0] + a[1] * v[1] + a[2] * v[2];
  PetscReal       axv[3];
  Cross(a, v, axv);
  for (int k = 0; k < 3; k++) w[k] = v[k] * c + axv[k] * s + a[k] * av * (1 - c);
}

static void MatVec(const PetscReal R[9], const PetscReal v[3], PetscReal w[3])
{
  for (int i = 0; i < 3; i++) w[i] = R[3 * i] * v[0] + R[3 * i + 1] * v[1] + R[3 * i + 2] * v[2];
}

/* max |RᵀR − I| */
static PetscReal OrthogonalityError(const PetscReal R[9])
{
  PetscReal RtR[9], e = 0;
  FcMat3MultTN(R, R, RtR);
  for (int i = 0; i < 9; i++) e = PetscMax(e, PetscAbsReal(RtR[i] - (i % 4 == 0 ? 1.0 : 0.0)));
  return e;
}

/* An angle: uniform in [0, 3] for half the samples, else 10^U(−12, −3) (the series branch and
 * its neighbourhood). */
static PetscReal RandomAngle(int i) { return i % 2 ? 3.0 * FcTestUniform(&seed, 0, 1) : PetscPowReal(10.0, FcTestUniform(&seed, -12, -3)); }

static void test_skew(void **state)
{
  (void)state;
  for (int i = 0; i < NSAMPLES; i++) {
    PetscReal w[3], v[3], S[9], Sv[3], wxv[3];
    for (int k = 0; k < 3; k++) {
      w[k] = FcTestUniform(&seed, -10, 10);
      v[k] = FcTestUniform(&seed, -10, 10);
    }
    FcMat3Skew(w, S);
    MatVec(S, v, Sv);
    Cross(w, v, wxv);
    for (int k = 0; k < 3; k++) assert_true(Sv[k] == wxv[k]);
    for (int r = 0; r < 3; r++)
      for (int c = 0; c < 3; c++) assert_true(S[3 * r + c] == -S[3 * c + r]);
  }
}

static void test_exp_rotation(void **state)
{
  const PetscReal zero[3] = {0, 0, 0};
  PetscReal       R[9], worst_orth = 0, worst_det = 0, worst_inv = 0;

  (void)state;
  FcMat3Exp(zero, R);
  for (int i = 0; i < 9; i++) assert_true(R[i] == (i % 4 == 0 ? 1.0 : 0.0));
  for (int i = 0; i < NSAMPLES; i++) {
    PetscReal a[3], phi[3], mphi[3], Rm[9], t = RandomAngle(i);
    RandomAxis(a);
    for (int k = 0; k < 3; k++) {
      phi[k]  = t * a[k];
      mphi[k] = -phi[k];
    }
    FcMat3Exp(phi, R);
    FcMat3Exp(mphi, Rm);
    worst_orth = PetscMax(worst_orth, OrthogonalityError(R));
    worst_det  = PetscMax(worst_det, PetscAbsReal(FcMat3Det(R) - 1));
    for (int r = 0; r < 3; r++)
      for (int c = 0; c < 3; c++) worst_inv = PetscMax(worst_inv, PetscAbsReal(Rm[3 * r + c] - R[3 * c + r]));
  }
  printf("FIGURE mat3: exp of a rotation vector: max |R^T R - I| %.1e, max |det R - 1| %.1e, max |exp(-phi) - exp(phi)^T| %.1e\n", (double)worst_orth,
    (double)worst_det, (double)worst_inv);
  assert_true(worst_orth <= 2e-15);
  assert_true(worst_det <= 2e-15);
  assert_true(worst_inv <= 1e-15);
}

static void test_exp_rodrigues(void **state)
{
  PetscReal worst = 0, jump = 0;

  (void)state;
  for (int i = 0; i < NSAMPLES; i++) {
    PetscReal a[3], phi[3], R[9], v[3], Rv[3], w[3], t = RandomAngle(i);
    RandomAxis(a);
    for (int k = 0; k < 3; k++) {
      phi[k] = t * a[k];
      v[k]   = FcTestUniform(&seed, -1, 1);
    }
    FcMat3Exp(phi, R);
    MatVec(R, v, Rv);
    RodriguesRotate(a, t, v, w);
    worst = PetscMax(worst, FcTestDist(3, Rv, w) / FcTestNorm(3, v));
  }
  /* the two branches of the coefficients (the series below t = 1e-6) on either side of the switch */
  for (int i = 0; i < 200; i++) {
    PetscReal       a[3], phi[3], R[9], v[3], Rv[3], w[3];
    const PetscReal t = 1e-6 * (i % 2 ? 1 + 1e-9 : 1 - 1e-9);
    RandomAxis(a);
    for (int k = 0; k < 3; k++) {
      phi[k] = t * a[k];
      v[k]   = FcTestUniform(&seed, -1, 1);
    }
    FcMat3Exp(phi, R);
    MatVec(R, v, Rv);
    RodriguesRotate(a, t, v, w);
    jump = PetscMax(jump, FcTestDist(3, Rv, w) / FcTestNorm(3, v));
  }
  printf("FIGURE mat3: exp(theta [a]x) v against Rodrigues' formula: max error %.1e |v|; at the series switch %.1e |v|\n", (double)worst, (double)jump);
  assert_true(worst <= 1e-15);
  assert_true(jump <= 1e-15);
}

static void test_exp_group(void **state)
{
  PetscReal worst = 0;

  (void)state;
  for (int i = 0; i < NSAMPLES; i++) {
    PetscReal       a[3], ps[3], pt[3], pst[3], Rs[9], Rt[9], Rst[9], P[9];
    const PetscReal s = FcTestUniform(&seed, -1.5, 1.5), t = FcTestUniform(&seed, -1.5, 1.5);
    RandomAxis(a);
    for (int k = 0; k < 3; k++) {
      ps[k]  = s * a[k];
      pt[k]  = t * a[k];
      pst[k] = (s + t) * a[k];
    }
    FcMat3Exp(ps, Rs);
    FcMat3Exp(pt, Rt);
    FcMat3Exp(pst, Rst);
    FcMat3Mult(Rs, Rt, P);
    for (int k = 0; k < 9; k++) worst = PetscMax(worst, PetscAbsReal(P[k] - Rst[k]));
  }
  printf("FIGURE mat3: exp(s phi) exp(t phi) = exp((s + t) phi) to %.1e\n", (double)worst);
  assert_true(worst <= 1e-15);
}

static void test_log(void **state)
{
  PetscReal worst = 0;

  (void)state;
  for (int i = 0; i < NSAMPLES; i++) {
    PetscReal a[3], phi[3], back[3], R[9], t = RandomAngle(i), bound;
    RandomAxis(a);
    for (int k = 0; k < 3; k++) phi[k] = t * a[k];
    FcMat3Exp(phi, R);
    FcMat3Log(R, back);
    bound = t > 1e-3 ? t / PetscSinReal(t) : 1.0;
    worst = PetscMax(worst, FcTestDist(3, back, phi) / (t * bound));
  }
  printf("FIGURE mat3: log(exp(phi)) = phi to %.1e |phi| / sinc|phi|\n", (double)worst);
  assert_true(worst <= 1e-15);
}

static void test_rotate_diag(void **state)
{
  PetscReal worst = 0, asym = 0;

  (void)state;
  for (int i = 0; i < NSAMPLES; i++) {
    PetscReal a[3], phi[3], R[9], J[9], d[3], t = RandomAngle(i), dmax = 0;
    RandomAxis(a);
    for (int k = 0; k < 3; k++) {
      phi[k] = t * a[k];
      d[k]   = FcTestUniform(&seed, 0.1, 10);
      dmax   = PetscMax(dmax, d[k]);
    }
    FcMat3Exp(phi, R);
    FcMat3RotateDiag(R, d, J);
    for (int r = 0; r < 3; r++)
      for (int c = 0; c < 3; c++) asym = PetscMax(asym, PetscAbsReal(J[3 * r + c] - J[3 * c + r]) / dmax);
    for (int k = 0; k < 3; k++) {
      PetscReal e[3] = {R[k], R[3 + k], R[6 + k]}, Je[3]; /* R e_k: column k */
      MatVec(J, e, Je);
      for (int m = 0; m < 3; m++) worst = PetscMax(worst, PetscAbsReal(Je[m] - d[k] * e[m]) / dmax);
    }
  }
  printf("FIGURE mat3: R diag(d) R^T: eigenpairs (d_k, R e_k) to %.1e max d, asymmetry %.1e max d\n", (double)worst, (double)asym);
  assert_true(asym <= 1e-15);
  assert_true(worst <= 1e-15);
}

int main(int argc, char **argv)
{
  // clang-format off
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_skew),
    cmocka_unit_test(test_exp_rotation),
    cmocka_unit_test(test_exp_rodrigues),
    cmocka_unit_test(test_exp_group),
    cmocka_unit_test(test_log),
    cmocka_unit_test(test_rotate_diag),
  };
  // clang-format on
  return FcTestMain(argc, argv, tests, NULL, NULL);
}
