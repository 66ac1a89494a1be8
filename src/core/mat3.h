/* Small fixed-size linear algebra for 3x3 matrices stored row-major (a[3*i+j]). */
#ifndef FC_MAT3_H
#define FC_MAT3_H
#include <petscsys.h>

PetscReal FcMat3Det(const PetscReal a[9]);
/* Returns det; inv untouched when |det| == 0. */
PetscReal FcMat3Inv(const PetscReal a[9], PetscReal inv[9]);
void      FcMat3Mult(const PetscReal a[9], const PetscReal b[9], PetscReal c[9]);   /* c = a b   */
void      FcMat3MultTN(const PetscReal a[9], const PetscReal b[9], PetscReal c[9]); /* c = a^T b */
void      FcMat3MultNT(const PetscReal a[9], const PetscReal b[9], PetscReal c[9]); /* c = a b^T */
void      FcMat3Transpose(const PetscReal a[9], PetscReal at[9]);
void      FcMat3Identity(PetscReal a[9]);
PetscReal FcMat3Norm(const PetscReal a[9]); /* Frobenius */
/* Polar decomposition F = R U with R a proper rotation (det R = +1), U symmetric.
 * Returns PETSC_FALSE when F is singular or inverted (det F <= 0); R is then the
 * rotation of the nearest proper orthogonal matrix if one was found, else identity. */
PetscBool FcMat3Polar(const PetscReal F[9], PetscReal R[9]);
/* von Mises equivalent stress of a symmetric Cauchy stress. */
PetscReal FcMat3VonMises(const PetscReal s[9]);

/* Rotations (SO(3)). A rotation vector φ is the axis times the angle |φ|. */
void FcMat3Skew(const PetscReal w[3], PetscReal S[9]);                             /* S = [w]×: S v = w × v */
void FcMat3Exp(const PetscReal phi[3], PetscReal R[9]);                            /* R = exp([φ]×) */
void FcMat3Log(const PetscReal R[9], PetscReal phi[3]);                            /* φ of R, |φ| < π */
void FcMat3RotateDiag(const PetscReal R[9], const PetscReal d[3], PetscReal A[9]); /* A = R diag(d) Rᵀ */
/* Unit quaternions q = (w, x, y, z) and rotation matrices (row-major). */
void FcMat3FromQuat(const PetscReal q[4], PetscReal R[9]); /* R(q) */
void FcMat3ToQuat(const PetscReal R[9], PetscReal q[4]);   /* q of R, w >= 0 (Shepperd) */
#endif
