/* fcsim — 3x3 linear algebra (row-major) and rotations. */
#include "mat3.h"
#include <math.h>

PetscReal FcMat3Det(const PetscReal a[9])
{
  return a[0] * (a[4] * a[8] - a[5] * a[7]) - a[1] * (a[3] * a[8] - a[5] * a[6]) + a[2] * (a[3] * a[7] - a[4] * a[6]);
}

PetscReal FcMat3Inv(const PetscReal a[9], PetscReal inv[9])
{
  PetscReal d = FcMat3Det(a), id;
  if (d == 0) return 0;
  id     = 1.0 / d;
  inv[0] = (a[4] * a[8] - a[5] * a[7]) * id;
  inv[1] = (a[2] * a[7] - a[1] * a[8]) * id;
  inv[2] = (a[1] * a[5] - a[2] * a[4]) * id;
  inv[3] = (a[5] * a[6] - a[3] * a[8]) * id;
  inv[4] = (a[0] * a[8] - a[2] * a[6]) * id;
  inv[5] = (a[2] * a[3] - a[0] * a[5]) * id;
  inv[6] = (a[3] * a[7] - a[4] * a[6]) * id;
  inv[7] = (a[1] * a[6] - a[0] * a[7]) * id;
  inv[8] = (a[0] * a[4] - a[1] * a[3]) * id;
  return d;
}

void FcMat3Mult(const PetscReal a[9], const PetscReal b[9], PetscReal c[9])
{
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) c[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] + a[3 * i + 2] * b[6 + j];
}

void FcMat3MultTN(const PetscReal a[9], const PetscReal b[9], PetscReal c[9])
{
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) c[3 * i + j] = a[i] * b[j] + a[3 + i] * b[3 + j] + a[6 + i] * b[6 + j];
}

void FcMat3MultNT(const PetscReal a[9], const PetscReal b[9], PetscReal c[9])
{
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) c[3 * i + j] = a[3 * i] * b[3 * j] + a[3 * i + 1] * b[3 * j + 1] + a[3 * i + 2] * b[3 * j + 2];
}

void FcMat3Transpose(const PetscReal a[9], PetscReal at[9])
{
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) at[3 * j + i] = a[3 * i + j];
}

void FcMat3Identity(PetscReal a[9])
{
  for (int i = 0; i < 9; i++) a[i] = (i % 4 == 0) ? 1.0 : 0.0;
}

PetscReal FcMat3Norm(const PetscReal a[9])
{
  PetscReal s = 0;
  for (int i = 0; i < 9; i++) s += a[i] * a[i];
  return PetscSqrtReal(s);
}

/* Polar decomposition by the scaled Newton iteration R ← ½(γR + γ⁻¹R⁻ᵀ) with the
 * Frobenius-norm scaling γ = (‖R⁻¹‖/‖R‖)^½ (Higham, "Computing the polar decomposition",
 * SIAM J. Sci. Stat. Comput. 7, 1986, eq. 3.2 and §3.3): quadratically convergent for
 * non-singular F and it stays in the orientation class of F. */
PetscBool FcMat3Polar(const PetscReal F[9], PetscReal R[9])
{
  PetscReal X[9], Xi[9], XiT[9], d;
  int       it;

  d = FcMat3Det(F);
  if (!(d > 0) || !isfinite(d)) {
    FcMat3Identity(R);
    return PETSC_FALSE;
  }
  for (int i = 0; i < 9; i++) X[i] = F[i];
  for (it = 0; it < 100; it++) {
    PetscReal g, diff = 0, nx;
    if (FcMat3Inv(X, Xi) == 0) break;
    FcMat3Transpose(Xi, XiT);
    nx = FcMat3Norm(X);
    g  = (it < 6) ? PetscSqrtReal(FcMat3Norm(Xi) / nx) : 1.0;
    for (int i = 0; i < 9; i++) {
      PetscReal xn = 0.5 * (g * X[i] + XiT[i] / g);
      diff += (xn - X[i]) * (xn - X[i]);
      X[i] = xn;
    }
    if (PetscSqrtReal(diff) <= 1e-15 * 3.0) break;
  }
  for (int i = 0; i < 9; i++) R[i] = X[i];
  return PETSC_TRUE;
}

PetscReal FcMat3VonMises(const PetscReal s[9])
{
  PetscReal d0 = s[0] - s[4], d1 = s[4] - s[8], d2 = s[8] - s[0];
  PetscReal sh = s[1] * s[1] + s[5] * s[5] + s[2] * s[2];
  return PetscSqrtReal(0.5 * (d0 * d0 + d1 * d1 + d2 * d2) + 3.0 * sh);
}

void FcMat3Skew(const PetscReal w[3], PetscReal S[9])
{
  S[0] = 0;
  S[1] = -w[2];
  S[2] = w[1];
  S[3] = w[2];
  S[4] = 0;
  S[5] = -w[0];
  S[6] = -w[1];
  S[7] = w[0];
  S[8] = 0;
}

/* Rodrigues: exp([φ]×) = I + (sin t / t) [φ]× + ((1 − cos t) / t²) [φ]×², t = |φ| (Murray, Li &
 * Sastry, A Mathematical Introduction to Robotic Manipulation, 1994, eq. 2.14), with the first
 * two terms of the coefficients' series below t = 1e-6 (where 1 − cos t loses its digits). */
void FcMat3Exp(const PetscReal phi[3], PetscReal R[9])
{
  const PetscReal t2 = phi[0] * phi[0] + phi[1] * phi[1] + phi[2] * phi[2], t = PetscSqrtReal(t2);
  PetscReal       S[9], S2[9], a, b;

  FcMat3Skew(phi, S);
  FcMat3Mult(S, S, S2);
  if (t < 1e-6) {
    a = 1 - t2 / 6;
    b = 0.5 - t2 / 24;
  } else {
    a = PetscSinReal(t) / t;
    b = (1 - PetscCosReal(t)) / t2;
  }
  for (int i = 0; i < 9; i++) R[i] = (i % 4 == 0 ? 1.0 : 0.0) + a * S[i] + b * S2[i];
}

/* The inverse of FcMat3Exp for angles below π: cos t = (tr R − 1)/2 and the skew part
 * (R − Rᵀ)/2 = sin t [a]× (Murray, Li & Sastry 1994, §2.2, the proof that exp is onto SO(3)),
 * with t / (2 sin t) by its series near t = 0. */
void FcMat3Log(const PetscReal R[9], PetscReal phi[3])
{
  PetscReal c = 0.5 * (R[0] + R[4] + R[8] - 1), t, f;

  c      = PetscMin(1.0, PetscMax(-1.0, c));
  t      = PetscAcosReal(c);
  f      = t < 1e-6 ? 0.5 * (1 + t * t / 6) : 0.5 * t / PetscSinReal(t);
  phi[0] = f * (R[7] - R[5]);
  phi[1] = f * (R[2] - R[6]);
  phi[2] = f * (R[3] - R[1]);
}

/* R diag(d) Rᵀ: e.g. the inertia tensor in the world frame of a body with principal moments d
 * along the columns of R. */
void FcMat3RotateDiag(const PetscReal R[9], const PetscReal d[3], PetscReal A[9])
{
  PetscReal T[9];

  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) T[3 * i + j] = R[3 * i + j] * d[j];
  FcMat3MultNT(T, R, A);
}

/* R(q) for a unit quaternion q = (w, x, y, z) (row-major) */
void FcMat3FromQuat(const PetscReal q[4], PetscReal R[9])
{
  const PetscReal w = q[0], x = q[1], y = q[2], z = q[3];
  R[0] = 1 - 2 * (y * y + z * z);
  R[1] = 2 * (x * y - w * z);
  R[2] = 2 * (x * z + w * y);
  R[3] = 2 * (x * y + w * z);
  R[4] = 1 - 2 * (x * x + z * z);
  R[5] = 2 * (y * z - w * x);
  R[6] = 2 * (x * z - w * y);
  R[7] = 2 * (y * z + w * x);
  R[8] = 1 - 2 * (x * x + y * y);
}

/* Unit quaternion of a rotation matrix R (row-major), Shepperd's method (J. Guidance and Control
 * 1(3), 1978): the largest of 4w², 4x², 4y², 4z² (from the trace and the diagonal) is taken as
 * the pivot, so no division by a small number occurs. */
void FcMat3ToQuat(const PetscReal R[9], PetscReal q[4])
{
  const PetscReal tr = R[0] + R[4] + R[8];
  PetscReal       s;
  if (tr >= R[0] && tr >= R[4] && tr >= R[8]) {
    s    = 2 * PetscSqrtReal(1 + tr);
    q[0] = s / 4;
    q[1] = (R[7] - R[5]) / s;
    q[2] = (R[2] - R[6]) / s;
    q[3] = (R[3] - R[1]) / s;
  } else if (R[0] >= R[4] && R[0] >= R[8]) {
    s    = 2 * PetscSqrtReal(1 + R[0] - R[4] - R[8]);
    q[0] = (R[7] - R[5]) / s;
    q[1] = s / 4;
    q[2] = (R[1] + R[3]) / s;
    q[3] = (R[2] + R[6]) / s;
  } else if (R[4] >= R[8]) {
    s    = 2 * PetscSqrtReal(1 - R[0] + R[4] - R[8]);
    q[0] = (R[2] - R[6]) / s;
    q[1] = (R[1] + R[3]) / s;
    q[2] = s / 4;
    q[3] = (R[5] + R[7]) / s;
  } else {
    s    = 2 * PetscSqrtReal(1 - R[0] - R[4] + R[8]);
    q[0] = (R[3] - R[1]) / s;
    q[1] = (R[2] + R[6]) / s;
    q[2] = (R[5] + R[7]) / s;
    q[3] = s / 4;
  }
  if (q[0] < 0)
    for (int k = 0; k < 4; k++) q[k] = -q[k];
}
