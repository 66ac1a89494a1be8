/* fcsim — the case format as tables: one row per key (type, required, default, range, choices,
 * the check hook of what a row cannot say: case_check.c, case_refs.c). doc/case-format.md
 * documents every row. To add a key: add its row here, read it in case_fill.c, document it. */
#include "case_util.h"
#include "../core/registry.h"
#include <string.h>

static PetscErrorCode BoundaryCheck_Private(FcSchemaCtx *, cJSON *, const char *);
static PetscErrorCode MotionCheck_Private(FcSchemaCtx *, cJSON *, const char *);

/* Physical bounds (SI) of the time step; those of the material parameters are declared by the
 * material models (src/fem/material.h). Checked by the schema (FcSchemaEntry.bound). */
static const FcBound dt_bound = {"time steps of a continuum model: a picosecond to 30 years", "s", 1e-12, 1e9};

static const FcSchemaEntry number_elem      = {.types = FC_T_NUMBER};
static const FcSchemaEntry bool_elem        = {.types = FC_T_BOOL};
static const FcSchemaEntry number_null_elem = {.types = FC_T_NUMBER | FC_T_NULL};

/* A physical group of the mesh: its name, or its integer tag. */
// clang-format off
#define GROUP_ENTRY {.key = "group", .types = FC_T_STRING | FC_T_INTEGER, .required = PETSC_TRUE, .len_min = 1, .len_max = NAME_MAX_CHARS, .check = FcCaseCheckNoControl}
// clang-format on

/* ramp */
static const FcSchemaEntry ramp_type_entry = {.key = "type", .types = FC_T_STRING, .required = PETSC_TRUE};
// clang-format off
static const FcSchemaEntry ramp_constant_keys[] = {
  {.key = "value", .types = FC_T_NUMBER, .def = "1"},
  {.key = NULL}
};
// clang-format on
/* t1 defaults to time.t_end, known only once "time" is read: filled by FillRamp_Private. */
// clang-format off
static const FcSchemaEntry ramp_linear_keys[] = {
  {.key = "t0", .types = FC_T_NUMBER, .def = "0"},
  {.key = "t1", .types = FC_T_NUMBER},
  {.key = NULL}
};
// clang-format on
static const FcSchemaEntry ramp_row_elem = {.types = FC_T_ARRAY, .len_min = 2, .len_max = 2, .elem = &number_elem};
// clang-format off
static const FcSchemaEntry ramp_table_keys[] = {
  {.key = "table", .types = FC_T_ARRAY, .required = PETSC_TRUE, .len_min = 2, .elem = &ramp_row_elem, .check = FcCaseCheckRampTable},
  {.key = NULL}
};
// clang-format on
// clang-format off
static const FcSchemaVariant ramp_variants[] = {
  {"constant", ramp_constant_keys},
  {"linear",   ramp_linear_keys  },
  {"table",    ramp_table_keys   },
  {NULL,       NULL              }
};
// clang-format on
static const FcSchemaObject ramp_object      = {.discriminator = &ramp_type_entry, .variants = ramp_variants};
static const char *const    ramp_shorthand[] = {"constant", "linear", NULL};
// clang-format off
#define RAMP_ENTRY(default_) {.key = "ramp", .types = FC_T_STRING | FC_T_OBJECT, .def = default_, .choices = ramp_shorthand, .object = &ramp_object, .expand = "type"}
// clang-format on

/* bodies[i].mesh */
/* volumes: a pattern over the physical volume names of a multi-volume mesh; the entry becomes one
 * body per matching volume (FcCaseCheckBodies), each with `volume` set and named after it. */
// clang-format off
static const FcSchemaEntry mesh_keys[] = {
  {.key = "file",   .types = FC_T_STRING,  .required = PETSC_TRUE, .len_min = 1, .len_max = PATH_MAX_CHARS, .check = FcCaseCheckMeshFile},
  {.key = "volume",  .types = FC_T_STRING, .len_min = 1, .len_max = NAME_MAX_CHARS, .check = FcCaseCheckNoControl},
  {.key = "volumes", .types = FC_T_STRING, .len_min = 1, .len_max = NAME_MAX_CHARS, .check = FcCaseCheckNoControl},
  {.key = "refine", .types = FC_T_INTEGER, .def = "0", .range = FC_RANGE_CC(0, 8)},
  {.key = "order",  .types = FC_T_INTEGER, .def = "1", .range = FC_RANGE_CC(1, 2)},
  {.key = "max_elements", .types = FC_T_INTEGER, .def = "20000000", .range = FC_RANGE_GE(1)},
  {.key = NULL}
};
// clang-format on
static const FcSchemaObject mesh_object = {.entries = mesh_keys, .check = FcCaseCheckMeshSize};

/* bodies[i].material: "model" names a registered material model, and the model's table of
 * parameters (src/fem/materials/NAME.c: E, nu, density, ...; src/core/param.h) gives the other
 * keys, their types, ranges, bounds and defaults: FcCaseMaterialSchema turns each row into a
 * schema row, before every load (so a model registered in code is a case key too). */
static const FcSchemaEntry  material_model_entry = {.key = "model", .types = FC_T_STRING, .required = PETSC_TRUE};
static FcSchemaEntry        material_keys[FC_REGISTRY_MAX][FC_MATERIAL_MAX_PARAMS + 1];
static char                 material_defs[FC_REGISTRY_MAX][FC_MATERIAL_MAX_PARAMS][64]; /* defaults as JSON text */
static FcSchemaVariant      material_variants[FC_REGISTRY_MAX + 1];
static const FcSchemaObject material_object = {.discriminator = &material_model_entry, .variants = material_variants, .check = FcCaseCheckMaterial};

PetscErrorCode FcCaseMaterialSchema(void)
{
  const char            *name;
  const FcMaterialModel *model;
  PetscInt               i;

  PetscFunctionBegin;
  PetscCall(FcMaterialRegisterAll());
  for (i = 0; i < FC_REGISTRY_MAX; i++) {
    PetscInt k = 0;
    PetscCall(FcMaterialModelGet(i, &name, &model));
    if (!name) break;
    for (const FcParamSpec *s = model->params; s->name; s++, k++) {
      FcSchemaEntry *e = &material_keys[i][k];
      PetscCheck(k < FC_MATERIAL_MAX_PARAMS, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Material %s has more than %d parameters", name, FC_MATERIAL_MAX_PARAMS);
      PetscCall(PetscMemzero(e, sizeof *e));
      e->key      = s->name;
      e->required = s->required;
      if (s->type == FC_PARAM_REAL) {
        e->types = FC_T_NUMBER;
        e->range = s->range;
        e->bound = s->bound;
        e->def   = s->def; /* a number's text is its JSON */
      } else {
        e->types   = FC_T_STRING;
        e->choices = s->choices;
        if (s->def) {
          PetscCheck(strlen(s->def) + 3 <= sizeof material_defs[i][k], PETSC_COMM_SELF, PETSC_ERR_PLIB, "Default of material parameter %s too long", s->name);
          snprintf(material_defs[i][k], sizeof material_defs[i][k], "\"%s\"", s->def);
          e->def = material_defs[i][k];
        }
      }
    }
    material_keys[i][k].key      = NULL;
    material_variants[i].name    = name;
    material_variants[i].entries = material_keys[i];
  }
  material_variants[i].name    = NULL;
  material_variants[i].entries = NULL;
  PetscFunctionReturn(0);
}

/* bodies[i].damping: Rayleigh C = alpha M + beta K */
// clang-format off
static const FcSchemaEntry damping_keys[] = {
  {.key = "alpha", .types = FC_T_NUMBER, .def = "0", .range = FC_RANGE_GE(0)},
  {.key = "beta",  .types = FC_T_NUMBER, .def = "0", .range = FC_RANGE_GE(0)},
  {.key = NULL}
};
// clang-format on
static const FcSchemaObject damping_object = {.entries = damping_keys};

/* bodies[i].boundary[j] */
static const FcSchemaEntry disp_row_elem = {.types = FC_T_ARRAY, .len_min = 4, .len_max = 4, .elem = &number_null_elem};
/* "series": phases of equal increments of `unit` metres along an axis, one increment per time
 * step (talbi2008 Fig. 5: 5P down, 20P along x, ...); read as the table it stands for. */
static const char *const series_directions[] = {"+x", "-x", "+y", "-y", "+z", "-z", NULL};
// clang-format off
static const FcSchemaEntry series_phase_keys[] = {
  {.key = "direction",  .types = FC_T_STRING,  .required = PETSC_TRUE, .choices = series_directions},
  {.key = "increments", .types = FC_T_INTEGER, .required = PETSC_TRUE, .range = FC_RANGE_GE(1)},
  {.key = NULL}
};
// clang-format on
static const FcSchemaObject series_phase_object = {.entries = series_phase_keys};
static const FcSchemaEntry  series_phase_elem   = {.types = FC_T_OBJECT, .object = &series_phase_object};
// clang-format off
static const FcSchemaEntry  series_keys[]       = {
  {.key = "unit",   .types = FC_T_NUMBER, .required = PETSC_TRUE, .range = FC_RANGE_GT(0)},
  {.key = "phases", .types = FC_T_ARRAY,  .required = PETSC_TRUE, .len_min = 1, .elem = &series_phase_elem},
  {.key = NULL}
};
// clang-format on
static const FcSchemaObject series_object = {.entries = series_keys};
// clang-format off
static const FcSchemaEntry  disp_table_keys[] = {
  {.key = "table",  .types = FC_T_ARRAY,  .len_min = 2, .elem = &disp_row_elem, .check = FcCaseCheckDisplacementTable},
  {.key = "series", .types = FC_T_OBJECT, .object = &series_object},
  {.key = NULL}
};
// clang-format on
static const FcSchemaObject disp_table_object = {.entries = disp_table_keys, .check = FcCaseCheckDisplacementObject};
// clang-format off
static const FcSchemaEntry  boundary_keys[]   = {
  GROUP_ENTRY,
  {.key = "fix",          .types = FC_T_ARRAY,                .len_min = 3, .len_max = 3, .elem = &bool_elem},
  {.key = "displacement", .types = FC_T_ARRAY | FC_T_OBJECT, .len_min = 3, .len_max = 3, .elem = &number_null_elem, .object = &disp_table_object, .check = FcCaseCheckDisplacement},
  RAMP_ENTRY(NULL),
  {.key = NULL}
};
// clang-format on
/* What BoundaryCheck_Private and KinematicCheck_Private insert for a displacement array
 * without a ramp. */
static const FcSchemaEntry  ramp_constant_default = RAMP_ENTRY("\"constant\"");
static const FcSchemaObject boundary_object       = {.entries = boundary_keys, .check = BoundaryCheck_Private};
static const FcSchemaEntry  boundary_elem         = {.types = FC_T_OBJECT, .object = &boundary_object};

/* bodies[i].loads[j] */
// clang-format off
static const FcSchemaEntry load_keys[] = {
  GROUP_ENTRY,
  {.key = "traction", .types = FC_T_ARRAY,  .len_min = 3, .len_max = 3, .elem = &number_elem},
  {.key = "pressure", .types = FC_T_NUMBER},
  {.key = "force",    .types = FC_T_ARRAY,  .len_min = 3, .len_max = 3, .elem = &number_elem},
  RAMP_ENTRY("\"constant\""),
  {.key = NULL}
};
// clang-format on
static const FcSchemaObject load_object = {.entries = load_keys, .check = FcCaseCheckLoad};
static const FcSchemaEntry  load_elem   = {.types = FC_T_OBJECT, .object = &load_object};

/* A vector of 3 numbers; directions must be non-zero (they are normalized). */
// clang-format off
#define VEC3_ENTRY(key_, req_, def_) {.key = key_, .types = FC_T_ARRAY, .required = req_, .def = def_, .len_min = 3, .len_max = 3, .elem = &number_elem}
// clang-format on
// clang-format off
#define DIR3_ENTRY(key_) {.key = key_, .types = FC_T_ARRAY, .required = PETSC_TRUE, .len_min = 3, .len_max = 3, .elem = &number_elem, .check = FcCaseCheckNonZeroVec}
// clang-format on
static const FcSchemaEntry positive_elem     = {.types = FC_T_NUMBER, .range = FC_RANGE_GT(0)};
static const FcSchemaEntry non_negative_elem = {.types = FC_T_NUMBER, .range = FC_RANGE_GE(0)};

/* bodies[i].shape (rigid bodies): the keys depend on the type */
static const FcSchemaEntry shape_type_entry = {.key = "type", .types = FC_T_STRING, .required = PETSC_TRUE};
// clang-format off
static const FcSchemaEntry shape_plane_keys[] = {
  VEC3_ENTRY("point", PETSC_TRUE, NULL),
  DIR3_ENTRY("normal"),
  {.key = NULL}
};
// clang-format on
// clang-format off
static const FcSchemaEntry shape_box_keys[] = {
  VEC3_ENTRY("center", PETSC_TRUE, NULL),
  {.key = "half_extents", .types = FC_T_ARRAY, .required = PETSC_TRUE, .len_min = 3, .len_max = 3, .elem = &positive_elem},
  {.key = NULL}
};
// clang-format on
// clang-format off
static const FcSchemaEntry shape_sphere_keys[] = {
  VEC3_ENTRY("center", PETSC_TRUE, NULL),
  {.key = "radius", .types = FC_T_NUMBER, .required = PETSC_TRUE, .range = FC_RANGE_GT(0)},
  {.key = NULL}
};
// clang-format on
// clang-format off
static const FcSchemaEntry shape_cylinder_keys[] = {
  VEC3_ENTRY("center", PETSC_TRUE, NULL),
  DIR3_ENTRY("axis"),
  {.key = "radius",      .types = FC_T_NUMBER, .required = PETSC_TRUE, .range = FC_RANGE_GT(0)},
  {.key = "half_length", .types = FC_T_NUMBER, .required = PETSC_TRUE, .range = FC_RANGE_GT(0)},
  {.key = NULL}
};
// clang-format on
/* group absent: all boundary faces of the mesh */
// clang-format off
static const FcSchemaEntry shape_mesh_keys[] = {
  {.key = "file",   .types = FC_T_STRING,  .required = PETSC_TRUE, .len_min = 1, .len_max = PATH_MAX_CHARS, .check = FcCaseCheckMeshFile},
  {.key = "group",  .types = FC_T_STRING | FC_T_INTEGER, .len_min = 1, .len_max = NAME_MAX_CHARS, .check = FcCaseCheckNoControl},
  {.key = "refine", .types = FC_T_INTEGER, .def = "0", .range = FC_RANGE_CC(0, 8)},
  {.key = "max_elements", .types = FC_T_INTEGER, .def = "20000000", .range = FC_RANGE_GE(1)},
  {.key = NULL}
};
// clang-format on
// clang-format off
static const FcSchemaVariant shape_variants[] = {
  {"plane",    shape_plane_keys   },
  {"box",      shape_box_keys     },
  {"sphere",   shape_sphere_keys  },
  {"cylinder", shape_cylinder_keys},
  {"mesh",     shape_mesh_keys    },
  {NULL,       NULL               }
};
// clang-format on
static const FcSchemaObject shape_object = {.discriminator = &shape_type_entry, .variants = shape_variants, .check = FcCaseCheckShapeSize};

/* bodies[i].motion (rigid bodies): the keys depend on the type */
static const FcSchemaEntry motion_type_entry   = {.key = "type", .types = FC_T_STRING, .required = PETSC_TRUE};
static const FcSchemaEntry motion_fixed_keys[] = {{.key = NULL}};
/* kinematic: a boundary displacement without nulls (the body translates as a whole) */
static const FcSchemaEntry kin_row_elem = {.types = FC_T_ARRAY, .len_min = 4, .len_max = 4, .elem = &number_elem};
// clang-format off
static const FcSchemaEntry kin_table_keys[] = {
  {.key = "table", .types = FC_T_ARRAY, .required = PETSC_TRUE, .len_min = 2, .elem = &kin_row_elem, .check = FcCaseCheckRampTable},
  {.key = NULL}
};
// clang-format on
static const FcSchemaObject kin_table_object = {.entries = kin_table_keys};
/* kinematic rotation about `center` (default: the body's centre, doc/rigid.md) and the unit
 * `axis`, by `angle` [rad] times the motion's ramp, or by the angle interpolated in `table`
 * rows [t, angle] */
static const FcSchemaEntry kin_rot_row_elem = {.types = FC_T_ARRAY, .len_min = 2, .len_max = 2, .elem = &number_elem};
// clang-format off
static const FcSchemaEntry kin_rotation_keys[] = {
  DIR3_ENTRY("axis"),
  {.key = "angle",  .types = FC_T_NUMBER},
  {.key = "table",  .types = FC_T_ARRAY, .len_min = 2, .elem = &kin_rot_row_elem, .check = FcCaseCheckRampTable},
  {.key = "center", .types = FC_T_ARRAY, .len_min = 3, .len_max = 3, .elem = &number_elem},
  {.key = NULL}
};
// clang-format on
static const FcSchemaObject kin_rotation_object = {.entries = kin_rotation_keys};
// clang-format off
static const FcSchemaEntry  motion_kinematic_keys[] = {
  {.key = "displacement", .types = FC_T_ARRAY | FC_T_OBJECT, .required = PETSC_TRUE, .len_min = 3, .len_max = 3, .elem = &number_elem, .object = &kin_table_object},
  RAMP_ENTRY(NULL),
  {.key = "rotation", .types = FC_T_OBJECT, .object = &kin_rotation_object},
  {.key = NULL}
};
// clang-format on
/* A recorded device log driving a rigid body (doc/trajectory.md, doc/rigid.md §2d): the keys of
 * motion "trajectory" and of a dynamic motion's "coupling". The transform's rotation is a
 * quaternion [w, x, y, z] (normalized; zero norm refused) or {"axis", "angle" [rad]}. */
static const char *const trajectory_formats[] = {"fcsim", "openhaptics", "ros_pose", "ros_jointstate", NULL};
static const char *const trajectory_units[]   = {"m", "mm", NULL};
// clang-format off
static const FcSchemaEntry traj_rotation_keys[] = {
  DIR3_ENTRY("axis"),
  {.key = "angle", .types = FC_T_NUMBER, .required = PETSC_TRUE},
  {.key = NULL}
};
// clang-format on
static const FcSchemaObject traj_rotation_object = {.entries = traj_rotation_keys};
// clang-format off
static const FcSchemaEntry  traj_transform_keys[] = {
  {.key = "rotation", .types = FC_T_ARRAY | FC_T_OBJECT, .def = "[1, 0, 0, 0]", .len_min = 4, .len_max = 4, .elem = &number_elem, .object = &traj_rotation_object, .check = FcCaseCheckQuaternion},
  VEC3_ENTRY("translation", PETSC_FALSE, "[0, 0, 0]"),
  {.key = "scale",    .types = FC_T_NUMBER, .def = "1", .range = FC_RANGE_GT(0)},
  {.key = NULL}
};
// clang-format on
static const FcSchemaObject traj_transform_object = {.entries = traj_transform_keys};
#define TRAJECTORY_ENTRIES \
  {.key = "file", .types = FC_T_STRING, .required = PETSC_TRUE, .len_min = 1, .len_max = PATH_MAX_CHARS, .check = FcCaseCheckMeshFile}, \
    {.key = "format", .types = FC_T_STRING, .required = PETSC_TRUE, .choices = trajectory_formats}, \
    {.key = "units", .types = FC_T_STRING, .choices = trajectory_units}, \
    {.key = "transform", .types = FC_T_OBJECT, .def = "{}", .object = &traj_transform_object}, \
    {.key = "window", .types = FC_T_ARRAY, .len_min = 2, .len_max = 2, .elem = &non_negative_elem, .check = FcCaseCheckWindow}, \
  { \
    .key = "offset", .types = FC_T_ARRAY, .len_min = 3, .len_max = 3, .elem = &number_elem \
  }
// clang-format off
static const FcSchemaEntry motion_trajectory_keys[] = {
  TRAJECTORY_ENTRIES,
  {.key = NULL}
};
// clang-format on
/* coupling: K > 0, B, K_r > 0, B_r >= 0 (absent: the defaults of doc/rigid.md §2d) */
// clang-format off
static const FcSchemaEntry coupling_keys[] = {
  TRAJECTORY_ENTRIES,
  {.key = "stiffness",            .types = FC_T_NUMBER, .range = FC_RANGE_GT(0)},
  {.key = "damping",              .types = FC_T_NUMBER, .range = FC_RANGE_GE(0)},
  {.key = "rotational_stiffness", .types = FC_T_NUMBER, .range = FC_RANGE_GT(0)},
  {.key = "rotational_damping",   .types = FC_T_NUMBER, .range = FC_RANGE_GE(0)},
  {.key = NULL}
};
// clang-format on
static const FcSchemaObject coupling_object = {.entries = coupling_keys, .check = FcCaseCheckTrajectory};
/* dynamic: joint */
static const FcSchemaEntry joint_type_entry   = {.key = "type", .types = FC_T_STRING, .required = PETSC_TRUE};
static const FcSchemaEntry joint_empty_keys[] = {{.key = NULL}};
// clang-format off
static const FcSchemaEntry joint_prismatic_keys[] = {
  DIR3_ENTRY("axis"),
  {.key = NULL}
};
// clang-format on
// clang-format off
static const FcSchemaVariant joint_variants[] = {
  {"free",      joint_empty_keys    },
  {"prismatic", joint_prismatic_keys},
  {"fixed",     joint_empty_keys    },
  {NULL,        NULL                }
};
// clang-format on
static const FcSchemaObject joint_object = {.discriminator = &joint_type_entry, .variants = joint_variants};
/* inertia: required (each > 0) for a free joint, checked by DynamicCheck_Private, which
 * inserts inertia_default for the other joints. */
// clang-format off
static const FcSchemaEntry motion_dynamic_keys[] = {
  {.key = "mass",             .types = FC_T_NUMBER, .required = PETSC_TRUE, .range = FC_RANGE_GT(0)},
  {.key = "inertia",          .types = FC_T_ARRAY,  .len_min = 3, .len_max = 3, .elem = &non_negative_elem},
  {.key = "joint",            .types = FC_T_OBJECT, .def = "{\"type\": \"free\"}", .object = &joint_object},
  VEC3_ENTRY("force", PETSC_FALSE, "[0, 0, 0]"),
  RAMP_ENTRY("\"constant\""),
  VEC3_ENTRY("initial_velocity", PETSC_FALSE, "[0, 0, 0]"),
  VEC3_ENTRY("initial_angular_velocity", PETSC_FALSE, "[0, 0, 0]"),
  {.key = "coupling",         .types = FC_T_OBJECT, .object = &coupling_object},
  {.key = NULL}
};
// clang-format on
static const FcSchemaEntry inertia_default = {
  .key = "inertia", .types = FC_T_ARRAY, .def = "[0, 0, 0]", .len_min = 3, .len_max = 3, .elem = &non_negative_elem};
/* Variants have no check hook of their own: MotionCheck_Private runs the kinematic and dynamic
 * checks. */
// clang-format off
static const FcSchemaVariant motion_variants[] = {
  {"fixed",     motion_fixed_keys    },
  {"kinematic", motion_kinematic_keys},
  {"dynamic",   motion_dynamic_keys  },
  {"trajectory", motion_trajectory_keys},
  {NULL,        NULL                 }
};
// clang-format on
static const FcSchemaObject motion_object = {.discriminator = &motion_type_entry, .variants = motion_variants, .check = MotionCheck_Private};

/* bodies[i]: the keys depend on the type (default "deformable"); name is common to all */
static const FcSchemaEntry body_type_entry = {.key = "type", .types = FC_T_STRING, .def = "\"deformable\""};
/* name: required, but for an entry with mesh.volumes, whose bodies are named after the volumes
 * (checked by FcCaseCheckBodies) */
// clang-format off
static const FcSchemaEntry body_common_keys[] = {
  {.key = "name", .types = FC_T_STRING, .charset = NAME_CHARS, .len_max = NAME_MAX_CHARS},
  {.key = NULL}
};
// clang-format on
/* bodies[i].kinematics (duriez2006 §6.2): "plain", the nodal FEM motion; "global_corotational",
 * a rigid motion (centre of mass, rotation) plus a linear deformation in the co-rotated frame,
 * whose compliance W = Σ H C Hᵀ + J A⁻¹ Jᵀ splits the rigid part off (src/model/body_deformable.c;
 * the conditions it needs, a free linear body, are checked when the body is built). */
static const char *const body_kinematics[] = {"plain", "global_corotational", NULL};
// clang-format off
static const FcSchemaEntry body_deformable_keys[] = {
  {.key = "mesh",     .types = FC_T_OBJECT, .required = PETSC_TRUE, .object = &mesh_object},
  {.key = "material", .types = FC_T_OBJECT, .required = PETSC_TRUE, .object = &material_object},
  {.key = "damping",  .types = FC_T_OBJECT, .def = "{}", .object = &damping_object},
  {.key = "plane_strain", .types = FC_T_BOOL, .def = "false"},
  {.key = "kinematics", .types = FC_T_STRING, .def = "\"plain\"", .choices = body_kinematics},
  {.key = "boundary", .types = FC_T_ARRAY,  .def = "[]", .elem = &boundary_elem},
  {.key = "loads",    .types = FC_T_ARRAY,  .def = "[]", .elem = &load_elem},
  {.key = NULL}
};
// clang-format on
// clang-format off
static const FcSchemaEntry body_rigid_keys[] = {
  {.key = "shape",  .types = FC_T_OBJECT, .required = PETSC_TRUE, .object = &shape_object},
  {.key = "motion", .types = FC_T_OBJECT, .def = "{\"type\": \"fixed\"}", .object = &motion_object},
  {.key = NULL}
};
// clang-format on
// clang-format off
static const FcSchemaVariant body_variants[] = {
  {"deformable", body_deformable_keys},
  {"rigid",      body_rigid_keys     },
  {NULL,         NULL                }
};
// clang-format on
static const FcSchemaObject body_object = {.common = body_common_keys, .discriminator = &body_type_entry, .variants = body_variants};
static const FcSchemaEntry  body_elem   = {.types = FC_T_OBJECT, .object = &body_object};

/* contacts[i]: the cross references (names, contactor deformable, ...) are checked by
 * FcCaseCheckRoot. alarm absent: automatic. */
static const FcSchemaEntry contact_name_elem      = {.types = FC_T_STRING, .len_min = 1, .len_max = NAME_MAX_CHARS};
static const char *const   contact_formulations[] = {"node_to_surface", "mortar", NULL};
/* pair: two names or patterns (every body of the first group against every body of the second);
 * bodies: names or patterns (every pair among them); exactly one of the two (ContactsCheck_Private) */
// clang-format off
static const FcSchemaEntry contact_keys[]    = {
  {.key = "pair",           .types = FC_T_ARRAY,  .len_min = 2, .len_max = 2, .elem = &contact_name_elem},
  {.key = "bodies",         .types = FC_T_ARRAY,  .len_min = 1, .elem = &contact_name_elem},
  {.key = "surface",        .types = FC_T_STRING | FC_T_INTEGER, .len_min = 1, .len_max = NAME_MAX_CHARS, .check = FcCaseCheckNoControl},
  {.key = "target_surface", .types = FC_T_STRING | FC_T_INTEGER, .len_min = 1, .len_max = NAME_MAX_CHARS, .check = FcCaseCheckNoControl},
  {.key = "mu",             .types = FC_T_NUMBER, .def = "0", .range = FC_RANGE_GE(0)},
  {.key = "alarm",          .types = FC_T_NUMBER, .range = FC_RANGE_GT(0)},
  {.key = "both_passes",    .types = FC_T_BOOL,   .def = "false"},
  /* node_to_surface: each contactor node against its closest target triangle; mortar: against
   * the N_a-weighted mean of the target over the node's support (doc/contact.md, "Mortar") */
  {.key = "formulation",    .types = FC_T_STRING, .def = "\"node_to_surface\"", .choices = contact_formulations},
  {.key = NULL}
};
// clang-format on
static const FcSchemaObject contact_object = {.entries = contact_keys};
static const FcSchemaEntry  contact_elem   = {.types = FC_T_OBJECT, .object = &contact_object};

/* contact_solver: the type is validated by the solver registry when the run starts */
// clang-format off
static const FcSchemaEntry contact_solver_keys[] = {
  {.key = "type",       .types = FC_T_STRING,  .def = "\"nsgs\"", .len_max = NAME_MAX_CHARS, .check = FcCaseCheckSolverName},
  {.key = "tol",        .types = FC_T_NUMBER,  .def = "1e-10", .range = FC_RANGE_GT(0)},
  {.key = "max_it",     .types = FC_T_INTEGER, .def = "1000", .range = FC_RANGE_GE(1)},
  {.key = "warm_start", .types = FC_T_BOOL,    .def = "true"},
  /* a converged solve with a larger common error fails (solver.h); absent: no bound, because
   * sap's common error is its model's distance from Coulomb's law, which depends on the case */
  {.key = "max_error",  .types = FC_T_NUMBER,  .range = FC_RANGE_GT(0)},
  /* a regularized type's answer (sap) above tol: accepted up to the bound (true: 1e-2, solver.h
   * FC_CONTACT_SOLVER_ACCEPT_REGULARIZED; a number: that bound), or never (false) */
  {.key = "accept_regularized", .types = FC_T_BOOL | FC_T_NUMBER, .def = "true", .range = FC_RANGE_GT(0)},
  {.key = NULL}
};
// clang-format on
static const FcSchemaObject contact_solver_object = {.entries = contact_solver_keys};

/* contact_step: the linearization scheme of the contact constraints within a step (case.h;
 * doc/contact.md "Linearization"); max_it and tol bound the re-linearizations of "fast" */
static const char *const contact_linearizations[] = {"recursive", "once", "fast", NULL};
// clang-format off
static const FcSchemaEntry contact_step_keys[]      = {
  {.key = "linearization", .types = FC_T_STRING,  .def = "\"recursive\"", .choices = contact_linearizations},
  {.key = "max_it",        .types = FC_T_INTEGER, .def = "10",   .range = FC_RANGE_GE(1)},
  {.key = "tol",           .types = FC_T_NUMBER,  .def = "1e-6", .range = FC_RANGE_GE(0)},
  {.key = NULL}
};
// clang-format on
static const FcSchemaObject contact_step_object = {.entries = contact_step_keys};

/* compliance: the type is validated by the compliance registry (src/compliance) when the run starts */
/* the keys of "lagged" have no default here: absent, FcCaseFill takes its defaults; given with
 * another type, LaggedKeys_Private refuses them (an ignored key would be a silent surprise) */
static const char *const lagged_rotations[] = {"shape_matching", "polar", "none", NULL};
static const char *const lagged_krylovs[]   = {"cg", "gmres", NULL};
static const char *const lagged_delays[]    = {"ready", NULL};
static PetscErrorCode    LaggedKeys_Private(FcSchemaCtx *, cJSON *, const char *);
// clang-format off
static const FcSchemaEntry compliance_keys[] = {
  {.key = "type", .types = FC_T_STRING, .def = "\"exact\"", .len_max = NAME_MAX_CHARS, .check = FcCaseCheckSolverName},
  {.key = "refresh",  .types = FC_T_INTEGER, .range = FC_RANGE_GE(1)},
  {.key = "refresh_drift", .types = FC_T_INTEGER, .range = FC_RANGE_GE(1)},
  {.key = "rotation", .types = FC_T_STRING,  .choices = lagged_rotations},
  {.key = "krylov",   .types = FC_T_STRING,  .choices = lagged_krylovs},
  {.key = "async",    .types = FC_T_BOOL},
  {.key = "w_cache",  .types = FC_T_BOOL},
  {.key = "delay",    .types = FC_T_INTEGER | FC_T_STRING, .range = FC_RANGE_GE(1), .choices = lagged_delays},
  {.key = NULL}
};
// clang-format on
static const FcSchemaObject compliance_object = {.entries = compliance_keys, .check = LaggedKeys_Private};

/* time */
// clang-format off
static const FcSchemaEntry newton_keys[] = {
  {.key = "max_it",        .types = FC_T_INTEGER, .def = "25",    .range = FC_RANGE_GE(1)},
  {.key = "rtol",          .types = FC_T_NUMBER,  .def = "1e-10", .range = FC_RANGE_GT(0)},
  {.key = "atol",          .types = FC_T_NUMBER,  .def = "1e-12", .range = FC_RANGE_GE(0)},
  {.key = "allow_failure", .types = FC_T_BOOL,    .def = "false"},
  /* quasi-static modified Newton A = K + shift M [1/s^2]: see case.h */
  {.key = "shift",         .types = FC_T_NUMBER,  .def = "0", .range = FC_RANGE_GE(0)},
  /* Newton matrix made positive definite by A + δM when it has negative eigenvalues: see case.h */
  {.key = "inertia_correction", .types = FC_T_BOOL, .def = "true"},
  {.key = NULL}
};
// clang-format on
static const FcSchemaObject newton_object = {.entries = newton_keys};
static const char *const    integrators[] = {"quasi_static", "backward_euler", "midpoint", "symplectic_euler", "theta", NULL};
// clang-format off
static const FcSchemaEntry  time_keys[]   = {
  {.key = "integrator", .types = FC_T_STRING,  .def = "\"quasi_static\"", .choices = integrators},
  {.key = "dt",         .types = FC_T_NUMBER,  .required = PETSC_TRUE, .range = FC_RANGE_GT(0), .bound = &dt_bound},
  {.key = "t_end",      .types = FC_T_NUMBER,  .range = FC_RANGE_GT(0)},
  {.key = "steps",      .types = FC_T_INTEGER, .range = FC_RANGE_GE(1)},
  {.key = "newton",     .types = FC_T_OBJECT,  .def = "{}", .object = &newton_object},
  /* θ-method parameters (han2023 eq. 1–4), only with integrator "theta"; the named integrators
   * fix them: backward_euler θ = θ_vq = 1, midpoint θ = θ_vq = ½, symplectic_euler θ = 0, θ_vq = 1. */
  {.key = "theta",      .types = FC_T_NUMBER,  .range = FC_RANGE_CC(0, 1)},
  {.key = "theta_vq",   .types = FC_T_NUMBER,  .range = FC_RANGE_CC(0, 1)}, /* 0 rejected by FcCaseCheckTime */
  {.key = "cutback",    .types = FC_T_INTEGER, .def = "0", .range = FC_RANGE_CC(0, 10)},
  {.key = NULL}
};
// clang-format on
static const FcSchemaObject time_object = {.entries = time_keys, .check = FcCaseCheckTime};

/* probes[i]: the keys depend on the type */
static const FcSchemaEntry probe_type_entry = {.key = "type", .types = FC_T_STRING, .required = PETSC_TRUE};
// clang-format off
#define PROBE_NAME_ENTRY {.key = "name", .types = FC_T_STRING, .required = PETSC_TRUE, .charset = PROBE_CHARS, .len_max = NAME_MAX_CHARS}
// clang-format on
/* Vector probes (displacement, reaction, contact_force) write 3 columns NAME_x, NAME_y, NAME_z,
 * or, with "component", the one column NAME. "scale" multiplies the values written (e.g. -2 to
 * turn a plate's travel into the total compression of a symmetric model). */
static const char *const probe_components[] = {"x", "y", "z", NULL};
// clang-format off
#define PROBE_COMPONENT_ENTRY {.key = "component", .types = FC_T_STRING, .choices = probe_components}
// clang-format on
// clang-format off
#define PROBE_SCALE_ENTRY     {.key = "scale", .types = FC_T_NUMBER, .def = "1"}
// clang-format on
// clang-format off
static const FcSchemaEntry probe_displacement_keys[] = {
  PROBE_NAME_ENTRY,
  {.key = "body",  .types = FC_T_STRING, .required = PETSC_TRUE, .len_min = 1},
  /* deformable body: exactly one of point (the nearest node) and group (the area-weighted mean
   * over a surface group); rigid body: neither (the body's translation) */
  {.key = "point", .types = FC_T_ARRAY,  .len_min = 3, .len_max = 3, .elem = &number_elem},
  {.key = "group", .types = FC_T_STRING | FC_T_INTEGER, .len_min = 1, .len_max = NAME_MAX_CHARS, .check = FcCaseCheckNoControl},
  PROBE_COMPONENT_ENTRY,
  PROBE_SCALE_ENTRY,
  {.key = NULL}
};
// clang-format on
// clang-format off
static const FcSchemaEntry probe_reaction_keys[] = {
  PROBE_NAME_ENTRY,
  {.key = "body", .types = FC_T_STRING, .required = PETSC_TRUE, .len_min = 1},
  GROUP_ENTRY,
  PROBE_COMPONENT_ENTRY,
  PROBE_SCALE_ENTRY,
  {.key = NULL}
};
// clang-format on
/* body "" = the sum over all bodies */
// clang-format off
static const FcSchemaEntry probe_energy_keys[] = {
  PROBE_NAME_ENTRY,
  {.key = "body", .types = FC_T_STRING, .def = "\"\""},
  PROBE_SCALE_ENTRY,
  {.key = NULL}
};
// clang-format on
/* pair < number of contacts: checked by FcCaseCheckRoot */
// clang-format off
static const FcSchemaEntry probe_contact_keys[] = {
  PROBE_NAME_ENTRY,
  {.key = "pair", .types = FC_T_INTEGER, .required = PETSC_TRUE, .range = FC_RANGE_GE(0)},
  {.key = NULL}
};
// clang-format on
// clang-format off
static const FcSchemaEntry probe_contact_force_keys[] = {
  PROBE_NAME_ENTRY,
  {.key = "pair", .types = FC_T_INTEGER, .required = PETSC_TRUE, .range = FC_RANGE_GE(0)},
  PROBE_COMPONENT_ENTRY,
  PROBE_SCALE_ENTRY,
  {.key = NULL}
};
// clang-format on
// clang-format off
static const FcSchemaVariant probe_variants[] = {
  {"displacement",    probe_displacement_keys},
  {"reaction",        probe_reaction_keys    },
  {"kinetic_energy",  probe_energy_keys      },
  {"strain_energy",   probe_energy_keys      },
  {"contact_force",   probe_contact_force_keys},
  {"active_contacts", probe_contact_keys     },
  {NULL,              NULL                   }
};
// clang-format on
static const FcSchemaObject probe_object = {.discriminator = &probe_type_entry, .variants = probe_variants};
static const FcSchemaEntry  probe_elem   = {.types = FC_T_OBJECT, .object = &probe_object};

/* verdict (case.h FcCaseVerdict): the probe columns are checked against the model's columns
 * when the run starts (src/run/verdict.c), where they are known */
// clang-format off
static const FcSchemaEntry verdict_keys[] = {
  {.key = "drop",             .types = FC_T_STRING, .required = PETSC_TRUE, .len_min = 1, .len_max = NAME_MAX_CHARS, .charset = PROBE_CHARS},
  {.key = "energy",           .types = FC_T_STRING, .required = PETSC_TRUE, .len_min = 1, .len_max = NAME_MAX_CHARS, .charset = PROBE_CHARS},
  {.key = "rise",             .types = FC_T_NUMBER, .required = PETSC_TRUE, .range = FC_RANGE_GT(0)},
  {.key = "after",            .types = FC_T_NUMBER, .def = "5",    .range = FC_RANGE_GE(0)},
  {.key = "stand_drop",       .types = FC_T_NUMBER, .def = "0.01", .range = FC_RANGE_GT(0)},
  {.key = "stand_energy",     .types = FC_T_NUMBER, .def = "1e-6", .range = FC_RANGE_GT(0)},
  {.key = "collapse_drop",    .types = FC_T_NUMBER, .def = "0.1",  .range = FC_RANGE_GT(0)},
  {.key = "stop_on_collapse", .types = FC_T_BOOL,   .def = "false"},
  {.key = NULL}
};
// clang-format on
static const FcSchemaObject verdict_object = {.entries = verdict_keys};

/* haptic (case.h FcCaseHaptic): the rate against time.dt and the tool against the bodies and
 * contacts are checked when the run starts (src/run/haptic.c), where the model is known */
// clang-format off
static const FcSchemaEntry haptic_keys[] = {
  {.key = "rate",           .types = FC_T_NUMBER,  .def = "1000", .range = FC_RANGE_GT(0)},
  {.key = "max_iterations", .types = FC_T_INTEGER, .def = "20",   .range = FC_RANGE_GE(1)},
  {.key = "strict",         .types = FC_T_BOOL,    .def = "false"},
  {.key = "tool",           .types = FC_T_STRING,  .len_min = 1, .len_max = NAME_MAX_CHARS, .charset = NAME_CHARS}, /* absent: the one candidate */
  {.key = "passivity_rtol", .types = FC_T_NUMBER,  .def = "1e-4", .range = FC_RANGE_GE(0)},
  {.key = NULL}
};
// clang-format on
static const FcSchemaObject haptic_object = {.entries = haptic_keys};

/* output */
static const char *const vtk_formats[] = {"binary", "ascii", NULL};
// clang-format off
static const FcSchemaEntry output_keys[] = {
  {.key = "dir",        .types = FC_T_STRING,  .def = "\"results\"", .len_min = 1, .len_max = PATH_MAX_CHARS, .check = FcCaseCheckNoControl},
  {.key = "every",      .types = FC_T_INTEGER, .def = "1", .range = FC_RANGE_GE(1)},
  {.key = "hdf5",       .types = FC_T_BOOL,    .def = "true"},
  {.key = "vtk",        .types = FC_T_BOOL,    .def = "true"},
  {.key = "vtk_format", .types = FC_T_STRING,  .def = "\"binary\"", .choices = vtk_formats},
  {.key = "fclib",      .types = FC_T_BOOL,    .def = "false"},
  {.key = NULL}
};
// clang-format on
static const FcSchemaObject output_object = {.entries = output_keys};

static const FcSchemaEntry  petsc_value  = {.types = FC_T_STRING | FC_T_NUMBER | FC_T_BOOL, .check = FcCaseCheckPetscOption};
static const FcSchemaObject petsc_object = {.map_value = &petsc_value, .map_charset = "_"};

/* root */
// clang-format off
static const FcSchemaEntry root_keys[] = {
  {.key = "name",        .types = FC_T_STRING, .required = PETSC_TRUE, .charset = NAME_CHARS, .len_max = NAME_MAX_CHARS},
  {.key = "description", .types = FC_T_STRING, .def = "\"\""},
  {.key = "time",        .types = FC_T_OBJECT, .required = PETSC_TRUE, .object = &time_object},
  /* [gx, gy, gz], or {"table": [[t, gx, gy, gz], ...]} interpolated in time (held outside) */
  {.key = "gravity",     .types = FC_T_ARRAY | FC_T_OBJECT, .def = "[0, 0, 0]", .len_min = 3, .len_max = 3, .elem = &number_elem, .object = &kin_table_object},
  {.key = "bodies",      .types = FC_T_ARRAY,  .required = PETSC_TRUE, .len_min = 1, .elem = &body_elem, .check = FcCaseCheckBodies},
  {.key = "contacts",       .types = FC_T_ARRAY,  .def = "[]", .elem = &contact_elem},
  {.key = "contact_solver", .types = FC_T_OBJECT, .def = "{}", .object = &contact_solver_object},
  {.key = "compliance",     .types = FC_T_OBJECT, .def = "{}", .object = &compliance_object},
  {.key = "contact_step",   .types = FC_T_OBJECT, .def = "{}", .object = &contact_step_object},
  {.key = "probes",      .types = FC_T_ARRAY,  .def = "[]", .elem = &probe_elem, .check = FcCaseCheckProbes},
  {.key = "output",      .types = FC_T_OBJECT, .def = "{}", .object = &output_object},
  {.key = "verdict",     .types = FC_T_OBJECT, .object = &verdict_object},
  {.key = "haptic",      .types = FC_T_OBJECT, .object = &haptic_object},
  {.key = "petsc",       .types = FC_T_OBJECT, .def = "{}", .object = &petsc_object},
  {.key = NULL}
};
// clang-format on
const FcSchemaObject FcCaseRootObject = {.entries = root_keys, .check = FcCaseCheckRoot};

/* ------------------------------------------------------------------------------------------ */
/* The hooks that complete the tree with defaults of the rows above (a ramp; the inertia of a  */
/* body that does not rotate) besides checking what a row cannot say.                          */
/* ------------------------------------------------------------------------------------------ */

static PetscErrorCode BoundaryCheck_Private(FcSchemaCtx *ctx, cJSON *obj, const char *path)
{
  cJSON *fix = Get_Private(obj, "fix"), *disp = Get_Private(obj, "displacement");
  char   sub[FC_PATH_LEN];

  PetscFunctionBegin;
  if (!fix && !disp) return FcInputError(ctx->file, path, "exactly one of \"fix\" or \"displacement\" is required");
  if (fix && disp) return FcInputError(ctx->file, path, "give exactly one of \"fix\" and \"displacement\", not both");
  if (Get_Private(obj, "ramp")) {
    /* fix is zero at all times and a table carries its own time dependence. */
    FcSchemaPathKey(sub, sizeof sub, path, "ramp");
    if (!cJSON_IsArray(disp)) return FcInputError(ctx->file, sub, "only allowed with the \"displacement\": [ux, uy, uz] form");
  } else if (cJSON_IsArray(disp)) PetscCall(FcSchemaAddDefault(ctx, &ramp_constant_default, obj, path));
  PetscFunctionReturn(0);
}

/* kinematic: a ramp only scales the [ux, uy, uz] form (a table carries its own time). */
static PetscErrorCode KinematicCheck_Private(FcSchemaCtx *ctx, cJSON *obj, const char *path)
{
  cJSON *disp = Get_Private(obj, "displacement");
  char   sub[FC_PATH_LEN];

  PetscFunctionBegin;
  if (Get_Private(obj, "ramp")) {
    FcSchemaPathKey(sub, sizeof sub, path, "ramp");
    if (!cJSON_IsArray(disp)) return FcInputError(ctx->file, sub, "only allowed with the \"displacement\": [ux, uy, uz] form");
  } else if (cJSON_IsArray(disp)) PetscCall(FcSchemaAddDefault(ctx, &ramp_constant_default, obj, path));
  {
    cJSON *rot = Get_Private(obj, "rotation");
    if (rot) {
      cJSON *angle = Get_Private(rot, "angle"), *table = Get_Private(rot, "table");
      FcSchemaPathKey(sub, sizeof sub, path, "rotation");
      if (!angle == !table)
        return FcInputError(ctx->file, sub, "give exactly one of \"angle\" (scaled by the motion's ramp) and \"table\" ([[t, angle], ...])");
      if (angle && !cJSON_IsArray(disp)) {
        char s2[FC_PATH_LEN];
        FcSchemaPathKey(s2, sizeof s2, sub, "angle");
        return FcInputError(
          ctx->file, s2, "is scaled by the motion's ramp, which only the \"displacement\": [ux, uy, uz] form has: give the rotation as a \"table\"");
      }
    }
  }
  PetscFunctionReturn(0);
}

/* dynamic: a free body rotates, so it needs its (positive) principal moments of inertia; with
 * a prismatic or fixed joint they are unused and default to 0. */
static PetscErrorCode DynamicCheck_Private(FcSchemaCtx *ctx, cJSON *obj, const char *path)
{
  cJSON      *inertia = Get_Private(obj, "inertia");
  const char *joint   = Str_Private(Get_Private(obj, "joint"), "type");
  char        sub[FC_PATH_LEN], pp[FC_PATH_LEN];

  PetscFunctionBegin;
  FcSchemaPathKey(pp, sizeof pp, path, "inertia");
  if (strcmp(joint, "free")) {
    if (!inertia) PetscCall(FcSchemaAddDefault(ctx, &inertia_default, obj, path));
    PetscFunctionReturn(0);
  }
  if (!inertia) return FcInputError(ctx->file, pp, "required key \"inertia\" is missing (a body with a free joint rotates)");
  for (int k = 0; k < 3; k++) {
    if (cJSON_GetArrayItem(inertia, k)->valuedouble > 0) continue;
    FcSchemaPathIndex(sub, sizeof sub, pp, k);
    return FcInputError(ctx->file, sub, "must be > 0 with a free joint, got 0");
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode MotionCheck_Private(FcSchemaCtx *ctx, cJSON *obj, const char *path)
{
  const char *type = Str_Private(obj, "type");

  PetscFunctionBegin;
  if (!strcmp(type, "kinematic")) PetscCall(KinematicCheck_Private(ctx, obj, path));
  else if (!strcmp(type, "dynamic")) PetscCall(DynamicCheck_Private(ctx, obj, path));
  else if (!strcmp(type, "trajectory")) PetscCall(FcCaseCheckTrajectory(ctx, obj, path));
  if (!strcmp(type, "dynamic") && Get_Private(obj, "coupling") && strcmp(Str_Private(Get_Private(obj, "joint"), "type"), "free")) {
    char sub[FC_PATH_LEN];
    FcSchemaPathKey(sub, sizeof sub, path, "coupling");
    return FcInputError(ctx->file, sub, "a virtual coupling drives all six DoFs of the tool: it needs \"joint\": {\"type\": \"free\"}");
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode LaggedKeys_Private(FcSchemaCtx *ctx, cJSON *obj, const char *path)
{
  static const char *const keys[] = {"refresh", "refresh_drift", "rotation", "krylov", "async", "delay", "w_cache"};
  const cJSON             *type   = cJSON_GetObjectItemCaseSensitive(obj, "type");
  char                     kpath[256];

  PetscFunctionBegin;
  if (cJSON_IsString(type) && !strcmp(type->valuestring, "lagged")) {
    const cJSON *as = cJSON_GetObjectItemCaseSensitive(obj, "async");
    if (cJSON_GetObjectItemCaseSensitive(obj, "delay") && !cJSON_IsTrue(as)) {
      FcSchemaPathKey(kpath, sizeof kpath, path, "delay");
      return FcInputError(ctx->file, kpath, "only with \"async\": true (a synchronous refresh is taken at once)");
    }
    PetscFunctionReturn(0);
  }
  for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
    if (!cJSON_GetObjectItemCaseSensitive(obj, keys[k])) continue;
    FcSchemaPathKey(kpath, sizeof kpath, path, keys[k]);
    return FcInputError(ctx->file, kpath, "only with compliance type \"lagged\", not \"%s\"", cJSON_IsString(type) ? type->valuestring : "?");
  }
  PetscFunctionReturn(0);
}
