/* fcsim — case files: strict JSON loading, validation with JSON paths, --set overrides,
 * defaults. Every key, its type, unit and default is documented in doc/case-format.md.
 *
 * FcCaseLoad() parses the file, applies the --set overrides to the JSON tree, validates the
 * whole tree (unknown key, wrong type, missing required key, non-physical value: one line
 * "FILE: JSON.PATH: message" via FcInputError, before any computation), fills in defaults and
 * returns both the typed FcCase and the resolved JSON text (every key, defaults included). */
#ifndef FC_CASE_H
#define FC_CASE_H

#include "../core/fc.h"
#include "../fem/material.h"
#include "../drivers/driver.h" /* FcRamp, FcDriver: the case's functions of time */

/* bodies[i].boundary[j]: Dirichlet condition on the nodes of a physical group.
 * "fix": [bx, by, bz] booleans (value 0 on true components), or
 * "displacement": [ux|null, uy|null, uz|null] scaled by "ramp", or
 * "displacement": {"table": [[t, ux, uy, uz], ...]} (components may be null), or a "series"
 * (the table it stands for). */
typedef struct {
  char      group[FC_NAME_LEN];
  PetscBool comp[3]; /* constrained components */
  FcDriver  u;       /* the prescribed displacement u(t) (meaningful where comp; 0 for "fix") */
} FcCaseBoundary;

typedef enum { FC_LOAD_TRACTION, FC_LOAD_PRESSURE, FC_LOAD_FORCE } FcLoadType;
/* bodies[i].loads[j]: surface load on a physical surface group, scaled by ramp.
 * traction [Pa] vector per reference area; pressure [Pa] along the inward reference normal
 * (p > 0 pushes into the body); force [N] total vector spread uniformly over the group's area. */
typedef struct {
  char       group[FC_NAME_LEN];
  FcLoadType type;
  PetscReal  vec[3]; /* traction or force */
  PetscReal  pressure;
  FcRamp     ramp;
} FcCaseBodyLoad;

/* bodies[i].shape of a rigid body (only the fields of its type are set, the others are 0).
 * plane: the half-space behind `normal` (unit) through `point` is solid; box: `center`,
 * `half_extents`; sphere: `center`, `radius`; cylinder: `center`, unit `axis`, `radius`,
 * `half_length`; mesh: `mesh_file` (resolved relative to the case file), surface `group` ("":
 * all boundary faces), `refine` uniform refinements. */
typedef enum { FC_SHAPE_PLANE, FC_SHAPE_BOX, FC_SHAPE_SPHERE, FC_SHAPE_CYLINDER, FC_SHAPE_MESH } FcShapeType;
typedef struct {
  FcShapeType type;
  PetscReal   point[3], normal[3], center[3], half_extents[3], axis[3], radius, half_length;
  char        mesh_file[PETSC_MAX_PATH_LEN];
  char        group[FC_NAME_LEN];
  PetscInt    refine;
} FcCaseShape;

/* bodies[i].motion of a rigid body. fixed: never moves. kinematic: prescribed translation,
 * `displacement` scaled by `ramp`, or interpolated in `tab` when ntab > 0. dynamic: rigid-body
 * dynamics with `mass` [kg], principal `inertia` [kg m²] (body axes = world axes at t = 0),
 * `joint` (free: 6 DoFs about the centre of mass; prismatic along the unit `axis`; fixed), applied
 * `force` [N] at the centre of mass scaled by `force_ramp`, `initial_velocity` [m/s] and (free
 * joint) `initial_angular_velocity` [rad/s]. trajectory: the pose of a device log (has_device, the
 * dev_* fields below); a dynamic motion may add a coupling to one (coupled). */
typedef enum { FC_MOTION_FIXED, FC_MOTION_KINEMATIC, FC_MOTION_DYNAMIC, FC_MOTION_TRAJECTORY } FcMotionType;
typedef enum { FC_JOINT_FREE, FC_JOINT_PRISMATIC, FC_JOINT_FIXED } FcJointType;
typedef struct {
  FcMotionType type;
  FcDriver     translation; /* kinematic: displacement·ramp(t) or the table; else 0 */
  PetscReal    mass, inertia[3];
  FcJointType  joint;
  PetscReal    axis[3];
  PetscReal    force[3];
  FcRamp       force_ramp;
  PetscReal    initial_velocity[3];
  PetscReal    initial_angular_velocity[3]; /* [rad/s], world axes; free joint only */
  /* kinematic rotation: about rot_center (when rot_has_center, else the body's centre) and the
   * unit rot_axis by the angle [rad] angle(t): rotation.angle·ramp(t) (the translation's ramp), or
   * the table [[t, angle], ...]; 0 without a rotation */
  PetscBool rotates, rot_has_center;
  PetscReal rot_axis[3], rot_center[3];
  FcDriver  angle;
  /* A recorded device log (doc/trajectory.md) driving the body: motion "trajectory" (kinematic:
   * the body's pose is the device pose) or "dynamic" with a free joint and a "coupling" (a 6-DoF
   * spring-damper from the device pose to the body, doc/rigid.md §2d). has_device for both. */
  PetscBool has_device;
  char      dev_file[PETSC_MAX_PATH_LEN];            /* resolved relative to the case file */
  char      dev_format[32], dev_units[8];            /* dev_units "": the format's own unit */
  PetscReal dev_q[4], dev_translation[3], dev_scale; /* device-to-world transform */
  PetscBool dev_window;
  PetscReal dev_t0, dev_t1;
  PetscBool dev_has_offset;
  PetscReal dev_offset[3]; /* the tool point the device position drives (reference coordinates) */
  /* coupling (dynamic): stiffness K [N/m], damping B [N s/m], rotational_stiffness K_r [N m/rad],
   * rotational_damping B_r [N m s/rad]; -1: the default (body_rigid.c, doc/rigid.md §2d) */
  PetscBool coupled;
  PetscReal K, B, Kr, Br;
} FcCaseMotion;

typedef struct {
  char             name[FC_NAME_LEN];
  char             type[32];                      /* "deformable" or "rigid" */
  char             mesh_file[PETSC_MAX_PATH_LEN]; /* resolved relative to the case file */
  char             mesh_volume[FC_NAME_LEN];      /* mesh.volume: only this physical volume of the file ("": all) */
  PetscInt         refine, order;
  FcMaterialParams material;     /* model, density and the model's parameters (src/fem/material.h) */
  PetscReal        alpha, beta;  /* Rayleigh damping C = alpha M + beta K */
  PetscBool        plane_strain; /* u_z = 0 at every node (han2023 §VII-A) */
  PetscBool        corotational; /* kinematics "global_corotational" (duriez2006 §6.2) */
  PetscInt         nboundary;
  FcCaseBoundary  *boundary;
  PetscInt         nloads;
  FcCaseBodyLoad  *loads;
  /* rigid bodies (type "rigid"): the fields above except name and type are zero ("") */
  PetscBool    rigid;
  FcCaseShape  shape;
  FcCaseMotion motion;
  /* where the body is written in the case file: bodies[entry]; an entry with mesh.volumes stands
   * for several bodies (from_volumes), one per matching physical volume (FcCaseBodyPath) */
  PetscInt  entry;
  PetscBool from_volumes;
} FcCaseBody;

/* centry[e]: the pairs of contacts[] entry e, contacts[first .. first + n), as groups of body
 * indices: "pair" (nb > 0): ga[x] against gb[y] at first + x nb + y; "bodies" (nb = 0): every pair
 * (x < y) of ga but those of two rigid bodies, in that order. The contact pairs are found from
 * their two bodies through these (src/model/contact_pairs.c), never by a search of contacts[]. */
typedef struct {
  PetscInt  first, n;
  PetscInt  na, nb;
  PetscInt *ga, *gb;
  PetscInt *start, *ndef, *defpos; /* "bodies" (one block, start's): start[x] the pairs before
                                    * ga[x]'s, ndef[x] the deformable bodies among ga[0 .. x),
                                    * defpos[k] the place of the k-th deformable one */
  /* of every pair of the entry (FcCaseContact) */
  char      surface[FC_NAME_LEN], target_surface[FC_NAME_LEN];
  PetscReal mu, alarm;
  PetscBool both_passes, mortar;
} FcCaseContactEntry;

/* contacts[i]: body[0] is the contactor (deformable: its surface nodes are the contact points),
 * body[1] the target (indices into bodies[]). surface / target_surface: physical surface groups
 * ("": all boundary nodes / faces). alarm: proximity distance [m], -1 = automatic. both_passes:
 * also take the target's nodes against the contactor (deformable-deformable pairs only). */
typedef enum { FC_LINEARIZATION_RECURSIVE, FC_LINEARIZATION_ONCE, FC_LINEARIZATION_FAST } FcLinearization;

typedef struct {
  PetscInt    entry; /* the element of contacts[] this pair comes from (one entry with
                          * "bodies" or patterns stands for many pairs; probes' "pair" is an entry) */
  PetscInt    body[2];
  const char *surface; /* the entry's (FcCaseContactEntry): a group of n bodies has
                               * n(n − 1)/2 pairs, the strings are kept once */
  const char *target_surface;
  PetscReal   mu, alarm;
  PetscBool   both_passes;
  PetscBool   mortar; /* formulation "mortar" (lumped mortar weights, doc/contact.md) */
} FcCaseContact;

typedef enum {
  FC_PROBE_DISPLACEMENT,
  FC_PROBE_REACTION,
  FC_PROBE_KINETIC_ENERGY,
  FC_PROBE_STRAIN_ENERGY,
  FC_PROBE_CONTACT_FORCE,
  FC_PROBE_ACTIVE_CONTACTS
} FcProbeType;
/* probes[i]: named time series. displacement: node of `body` nearest `point`, or the
 * area-weighted mean over the surface `group` (3 columns name_x, name_y, name_z); reaction: resultant of the reaction forces on `group` of `body`
 * (3 columns); kinetic_energy / strain_energy: of `body`, or of all bodies when body is "".
 * contact_force: total contact force on the contactor of contacts[pair], world frame (3
 * columns); active_contacts: number of active contacts of contacts[pair] (1 column). A
 * displacement probe on a rigid body gives its translation; reaction probes need a deformable
 * body. component / scale: see doc/case-format.md. */
typedef struct {
  char        name[FC_NAME_LEN];
  FcProbeType type;
  char        body[FC_NAME_LEN];
  char        group[FC_NAME_LEN];
  PetscReal   point[3];
  PetscInt    pair;      /* contact_force, active_contacts: index into contacts[] */
  PetscInt    component; /* vector probes: 0, 1, 2 = one column x, y, z; -1 = all three */
  PetscReal   scale;     /* multiplies the values written (1) */
} FcCaseProbe;

/* verdict: the run's verdict on a structure that should stand (src/run/verdict.h), from two
 * probe columns: `drop`, the upward displacement of a watched point (its negative is the drop),
 * and `energy`, the kinetic energy. "stands": after `after` s the drop stays below
 * stand_drop·rise and the kinetic energy below stand_energy·m g rise (m: the bodies' mass,
 * g = |gravity|); "collapses": the drop exceeds collapse_drop·rise before t_end (the time is
 * recorded; stop_on_collapse ends the run there); otherwise "undecided". */
typedef struct {
  PetscBool set;                                     /* the case has a "verdict" */
  char      drop[FC_NAME_LEN];                       /* probe column, m (up positive) */
  char      energy[FC_NAME_LEN];                     /* probe column, J */
  PetscReal rise;                                    /* H, m */
  PetscReal after;                                   /* s */
  PetscReal stand_drop, stand_energy, collapse_drop; /* fractions of H, of m g H, of H */
  PetscBool stop_on_collapse;
} FcCaseVerdict;

/* haptic: the multi-rate haptic loop on the frozen contact problem (src/run/haptic.h,
 * doc/haptic.md). After every step, ticks at `rate` Hz re-solve the step's contact problem with
 * the free term shifted by the prescribed motion of the rigid bodies since the step, at most
 * `max_iterations` solver iterations each; `tool` names the rigid body whose rendered force is
 * reported ("": the one rigid target with a prescribed motion); `strict`: a tick that exhausts its
 * budget fails the run; `passivity_rtol`: the energy a step interval may generate, relative to
 * the interval's energy scale, before it is reported. */
typedef struct {
  PetscBool set;
  PetscReal rate; /* Hz */
  PetscInt  max_iterations;
  PetscBool strict;
  char      tool[FC_NAME_LEN];
  PetscReal passivity_rtol; /* relative */
} FcCaseHaptic;

/* BACKWARD_EULER is the θ-method with θ = θ_vq = 1; THETA is the general θ-method (han2023
 * eq. 1–4) with the case's theta and theta_vq (midpoint and symplectic_euler are THETA). */
typedef enum { FC_INTEGRATOR_QUASI_STATIC, FC_INTEGRATOR_BACKWARD_EULER, FC_INTEGRATOR_THETA } FcIntegratorType;

typedef struct {
  char  file[PETSC_MAX_PATH_LEN]; /* the case file as given */
  char  name[FC_NAME_LEN];
  char *description;

  FcIntegratorType integrator;
  PetscReal        dt, t_end;   /* t_end = steps * dt when "steps" is given */
  PetscInt         steps;       /* = round(t_end / dt) when "t_end" is given */
  PetscBool        steps_given; /* the case gives "steps" (else "t_end") */
  PetscInt         newton_max_it;
  PetscReal        newton_rtol, newton_atol;
  PetscBool        allow_nonconvergence; /* time.newton.allow_failure */
  /* time.newton.shift s [1/s^2]: quasi-static Newton matrix A = K + s M instead of K (a modified
   * Newton method: the residual, hence the converged solution, is unchanged). It makes A
   * nonsingular for a body held only by contact (free rigid modes) and positive definite where
   * K is indefinite but s exceeds its most negative eigenvalue relative to M. 0: plain Newton. */
  PetscReal newton_shift;
  /* time.newton.inertia_correction: when the Newton matrix A (K, or K + s M, or the dynamic
   * A = cM M + cK K) of a deformable body has negative eigenvalues — counted by the MUMPS LDLᵀ
   * factorization — it is replaced by A + ρ Σ h_a h_aᵀ (normal rows of the active contacts) or
   * else A + δ M, whichever first is positive definite (body_deformable.c FormMatrix_Private).
   * The residual is unchanged (a modified Newton step), and W = H A⁻¹ Hᵀ stays positive
   * semidefinite. Default true; ρ and δ per step: stats columns inertia_penalty, inertia_shift. */
  PetscBool inertia_correction;
  PetscReal theta, theta_vq; /* θ-method parameters (1, 1 for backward Euler) */
  PetscInt  cutback;         /* quasi-static: a failed step is retried as 2, 4, ... sub-steps, up to 2^cutback */
  /* gravity(t) [m/s^2]: the constant vector (gravity.value), or the table [[t, gx, gy, gz], ...]
   * interpolated (gravity.value: its first row) */
  FcDriver gravity;

  PetscInt      nbodies;
  FcCaseBody   *bodies;
  PetscInt      nprobes;
  FcCaseProbe  *probes;
  FcCaseVerdict verdict;
  FcCaseHaptic  haptic;

  PetscInt            ncontacts;                        /* body pairs, every entry of contacts[] expanded (FcCaseContactAt) */
  PetscInt            nentries;                         /* elements of contacts[] in the case file */
  FcCaseContactEntry *centry;                           /* per element of contacts[]: its pairs as groups of bodies */
  char                contact_solver_type[FC_NAME_LEN]; /* solver registry name, "nsgs" */
  PetscReal           contact_solver_tol;
  PetscInt            contact_solver_max_it;
  PetscBool           contact_solver_warm_start;
  PetscReal           contact_solver_max_error;          /* contact_solver.max_error; PETSC_INFINITY when absent (no bound) */
  PetscReal           contact_solver_accept_regularized; /* contact_solver.accept_regularized: true (the default) →
                                                     * FC_CONTACT_SOLVER_ACCEPT_REGULARIZED, false → 0 (off), a number → it */
  char                compliance_type[FC_NAME_LEN];      /* compliance.type: a registered compliance strategy
                                                 * (src/compliance; checked by FcComplianceCheckType) */
  /* contact_step: how the contact constraints are linearized within a step (issue 28,
   * recursive-corrective-motion paper Algorithms 1-3; doc/contact.md "Linearization"):
   * once: detected and linearized at the step's first correction, reused by the later Newton
   * iterations (gap linearized); recursive: re-detected at every Newton iteration (the default);
   * fast: within each correction, up to contact_lin_max_it re-linearizations with W_k = C_k W_H C_kᵀ
   * until the normals turn by at most contact_lin_tol radians. */
  FcLinearization contact_linearization;
  PetscInt        contact_lin_max_it;
  PetscReal       contact_lin_tol;
  /* compliance "lagged" (courtecuisse §IV-A, src/compliance/lagged.c; only with that type):
   * refresh every N steps (≥ 1), nodal rotation "shape_matching" | "polar" | "none", Krylov "cg" | "gmres" */
  PetscInt  compliance_refresh;       /* 0: none by count (refresh_drift given alone) */
  PetscInt  compliance_refresh_drift; /* refresh after a step of more Krylov iterations; 0: off */
  char      compliance_rotation[16];
  char      compliance_krylov[16];
  PetscBool compliance_async;   /* the refresh in a thread of its own, concurrent with the steps */
  PetscBool compliance_w_cache; /* W from columns of F⁻¹ kept until the next refresh */
  PetscInt  compliance_delay;   /* async: taken into use this many steps after its request; −1: "ready" */
  /* Which of the keys a run may ignore the case (or a --set) gave, before the defaults were
   * filled in: a run warns about an ignored option only when the user asked for it. */
  struct {
    PetscBool contact_solver_tol, contact_solver_warm_start, inertia_correction, contact_solver_max_it, contact_solver_accept_regularized;
  } given;

  char      output_dir[PETSC_MAX_PATH_LEN]; /* "results" (relative to the working directory) */
  PetscInt  output_every;
  PetscBool output_hdf5, output_vtk;
  PetscBool vtk_binary;
  PetscBool output_fclib; /* write each step's contact problem as an FCLIB file */

  PetscInt   npetsc;       /* "petsc": {"ksp_type": "cg", ...} → "-ksp_type" "cg" */
  char     **petsc_keys;   /* with leading '-' */
  char     **petsc_values; /* "" for flags (JSON true); JSON false entries are dropped; a view: its format */
  PetscBool *petsc_view;   /* a view written into the run's folder (src/case/petsc_opts.h) */

  char *resolved_json; /* the full resolved case (defaults filled), pretty printed */
} FcCase;

/* Load, override, validate. `sets` are "PATH=VALUE" strings from --set (VALUE parsed as JSON
 * when it is valid JSON, else taken as a string). All problems are input errors. */
/* FcCaseLoad overwrites *c without freeing it; on any error *c is left zeroed (nothing to
 * destroy). FcCaseDestroy frees everything and zeroes *c, so calling it twice is harmless. */
/* Pair i of the expanded contacts[] (0 <= i < ncontacts; the pairs of entry e are
 * centry[e].first ...), computed from the entries' groups in O(log) (no list of the pairs is
 * kept: a group of n bodies has n(n − 1)/2), and the entry of pair i. */
FcCaseContact FcCaseContactAt(const FcCase *c, PetscInt i);
PetscInt      FcCaseContactEntryOf(const FcCase *c, PetscInt i);

PetscErrorCode FcCaseLoad(const char *file, PetscInt nsets, const char *const *sets, FcCase *c);
PetscErrorCode FcCaseDestroy(FcCase *c);
/* Put the case's "petsc" options into PETSc's options database; an option already set (on the
 * command line, or by an earlier call for the same case) is left as it is, so the command line
 * wins. fcsim run/info call it once (a study starts each of its runs as an fcsim run process). */
PetscErrorCode FcCaseInsertOptions(const FcCase *c);
/* The case's view options (petsc_view: "ksp_view": true, "ksp_monitor": "ascii::FORMAT"), which
 * FcCaseInsertOptions leaves out: pointed at DIR/petsc/<option>.txt (DIR: the run's temporary
 * folder, renamed with it), unless the command line set them. inserted[i] (npetsc entries)
 * records which were set, for FcCaseRemoveViewOptions at the end of the run (a study compare
 * runs the case again into another folder). */
PetscErrorCode FcCaseInsertViewOptions(const FcCase *c, const char *dir, PetscBool *inserted);
PetscErrorCode FcCaseRemoveViewOptions(const FcCase *c, const PetscBool *inserted);
/* The tetrahedra of a mesh file at refine 0 (FcMeshCountTetrahedra), counted once per file and
 * process: the case check of refine levels and the run's size estimate both ask. */
PetscErrorCode FcCaseCountTetrahedra(const char *file, PetscInt64 *n);
/* Whether a body (or physical volume) name matches a pattern of contacts[i].pair/bodies or
 * mesh.volumes: '*' any run of characters, '?' one character; a name without them matches itself. */
PetscBool FcCaseNameMatch(const char *pattern, const char *name);
/* The JSON path of key `key` (NULL or "": the entry itself) of body i as the case file writes it,
 * for error messages: "bodies[E].key" with E the entry of the file's bodies[] the body comes from;
 * for a body of an entry with mesh.volumes, " (body 'NAME')" follows, naming which of its bodies. */
void FcCaseBodyPath(const FcCase *c, PetscInt i, const char *key, char *out, size_t len);

#endif
