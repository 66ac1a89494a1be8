/* fcsim — from the validated tree to the typed FcCase. Every key read here exists (required or
 * defaulted by the schema, case_schema.c). */
#include "case_util.h"
#include "petsc_opts.h"
#include "../contact/solver.h"
#include <math.h>
#include <string.h>

static void Vec3_Private(const cJSON *arr, PetscReal v[3])
{
  for (int k = 0; k < 3; k++) v[k] = cJSON_GetArrayItem(arr, k)->valuedouble;
}

/* Groups are names or integer tags; downstream code looks both up by their text. An absent
 * optional group is "". */
static PetscErrorCode GroupKey_Private(const cJSON *obj, const char *key, char *out, size_t len)
{
  const cJSON *g = Get_Private(obj, key);

  PetscFunctionBegin;
  if (!g) out[0] = 0;
  else if (cJSON_IsString(g)) PetscCall(PetscStrncpy(out, g->valuestring, len));
  else snprintf(out, len, "%" PetscInt_FMT, (PetscInt)g->valuedouble);
  PetscFunctionReturn(0);
}

static PetscErrorCode Group_Private(const cJSON *obj, char *out, size_t len)
{
  PetscFunctionBegin;
  PetscCall(GroupKey_Private(obj, "group", out, len));
  PetscFunctionReturn(0);
}

/* A direction, validated non-zero, as a unit vector. */
static void Dir3_Private(const cJSON *arr, PetscReal v[3])
{
  PetscReal n;

  Vec3_Private(arr, v);
  n = FcCaseNorm3(v);
  for (int k = 0; k < 3; k++) v[k] /= n;
}

/* A driver's table (FcDriver: rows t, then ncol − 1 values; the schema checked its shape and that
 * t increases) into *tab, row-major, *ntab rows. */
static PetscErrorCode FillDriverTable_Private(const cJSON *table, int ncol, PetscInt *ntab, PetscReal **tab)
{
  const cJSON *row;
  PetscInt     i = 0;

  PetscFunctionBegin;
  *ntab = (PetscInt)cJSON_GetArraySize(table);
  PetscCall(PetscMalloc1(ncol * *ntab, tab));
  cJSON_ArrayForEach(row, table)
  {
    for (int k = 0; k < ncol; k++) (*tab)[ncol * i + k] = cJSON_GetArrayItem(row, k)->valuedouble;
    i++;
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode FillRamp_Private(FcSchemaCtx *ctx, cJSON *r, const char *path, PetscReal t_end, FcRamp *ramp)
{
  const char *type = Str_Private(r, "type");
  char        sub[FC_PATH_LEN], a[64], b[64];

  PetscFunctionBegin;
  if (!strcmp(type, "constant")) {
    ramp->type  = FC_RAMP_CONSTANT;
    ramp->value = Num_Private(r, "value");
  } else if (!strcmp(type, "linear")) {
    PetscBool defaulted = PETSC_FALSE;
    if (!Get_Private(r, "t1")) {
      PetscCheck(cJSON_AddNumberToObject(r, "t1", t_end), PETSC_COMM_SELF, PETSC_ERR_MEM, "Out of memory building the JSON tree");
      defaulted = PETSC_TRUE;
    }
    ramp->type = FC_RAMP_LINEAR;
    ramp->t0   = Num_Private(r, "t0");
    ramp->t1   = Num_Private(r, "t1");
    if (!(ramp->t1 > ramp->t0)) {
      FcSchemaPathKey(sub, sizeof sub, path, "t1");
      FcSchemaFormatNumber(a, sizeof a, ramp->t1);
      FcSchemaFormatNumber(b, sizeof b, ramp->t0);
      return FcInputError(ctx->file, sub, "must be > t0 = %s, got %s%s", b, a, defaulted ? " (the default, time.t_end)" : "");
    }
  } else {
    cJSON   *table = Get_Private(r, "table"), *row;
    PetscInt i     = 0;
    ramp->type     = FC_RAMP_TABLE;
    ramp->n        = (PetscInt)cJSON_GetArraySize(table);
    PetscCall(PetscMalloc2(ramp->n, &ramp->t, ramp->n, &ramp->s));
    cJSON_ArrayForEach(row, table)
    {
      ramp->t[i] = cJSON_GetArrayItem(row, 0)->valuedouble;
      ramp->s[i] = cJSON_GetArrayItem(row, 1)->valuedouble;
      i++;
    }
  }
  PetscFunctionReturn(0);
}

/* A displacement series as the table it stands for: row 0 at t = 0 with zero displacement, then
 * one row per increment k at t = k·dt, each moving `unit` metres further along its phase's
 * axis. All three components are prescribed (a rigid translation of the group). */
static PetscErrorCode FillSeries_Private(cJSON *series, PetscReal dt, FcCaseBoundary *bc)
{
  PetscReal unit = Num_Private(series, "unit"), x[3] = {0, 0, 0};
  PetscInt  n = 0, k = 0;
  cJSON    *ph;

  PetscFunctionBegin;
  cJSON_ArrayForEach(ph, Get_Private(series, "phases")) n += (PetscInt)Num_Private(ph, "increments");
  bc->u.ntab = n + 1;
  PetscCall(PetscCalloc1(4 * bc->u.ntab, &bc->u.tab));
  cJSON_ArrayForEach(ph, Get_Private(series, "phases"))
  {
    const char *d    = Str_Private(ph, "direction");
    int         axis = d[1] - 'x';
    PetscReal   sign = d[0] == '-' ? -1 : 1;
    for (PetscInt i = 0; i < (PetscInt)Num_Private(ph, "increments"); i++) {
      k++;
      x[axis] += sign * unit;
      bc->u.tab[4 * k] = k * dt;
      for (int c = 0; c < 3; c++) bc->u.tab[4 * k + 1 + c] = x[c];
    }
  }
  for (int c = 0; c < 3; c++) bc->comp[c] = PETSC_TRUE;
  PetscFunctionReturn(0);
}

static PetscErrorCode FillBoundary_Private(FcSchemaCtx *ctx, cJSON *obj, const char *path, PetscReal t_end, PetscReal dt, FcCaseBoundary *bc)
{
  cJSON *fix = Get_Private(obj, "fix"), *disp = Get_Private(obj, "displacement"), *el;
  char   sub[FC_PATH_LEN];

  PetscFunctionBegin;
  PetscCall(Group_Private(obj, bc->group, sizeof bc->group));
  FcDriverInit(&bc->u, 3);
  if (fix) {
    for (int k = 0; k < 3; k++) bc->comp[k] = cJSON_IsTrue(cJSON_GetArrayItem(fix, k)) ? PETSC_TRUE : PETSC_FALSE;
  } else if (cJSON_IsArray(disp)) {
    for (int k = 0; k < 3; k++) {
      el             = cJSON_GetArrayItem(disp, k);
      bc->comp[k]    = cJSON_IsNull(el) ? PETSC_FALSE : PETSC_TRUE;
      bc->u.value[k] = cJSON_IsNull(el) ? 0 : el->valuedouble;
    }
    FcSchemaPathKey(sub, sizeof sub, path, "ramp");
    PetscCall(FillRamp_Private(ctx, Get_Private(obj, "ramp"), sub, t_end, &bc->u.ramp));
  } else if (Get_Private(disp, "series")) {
    PetscCall(FillSeries_Private(Get_Private(disp, "series"), dt, bc));
  } else {
    cJSON   *table = Get_Private(disp, "table"), *row;
    PetscInt i     = 0;
    bc->u.ntab     = (PetscInt)cJSON_GetArraySize(table);
    PetscCall(PetscMalloc1(4 * bc->u.ntab, &bc->u.tab));
    cJSON_ArrayForEach(row, table)
    {
      for (int k = 0; k < 4; k++) {
        el                   = cJSON_GetArrayItem(row, k);
        bc->u.tab[4 * i + k] = cJSON_IsNull(el) ? 0 : el->valuedouble; /* null only where !comp */
      }
      i++;
    }
    for (int k = 0; k < 3; k++) bc->comp[k] = cJSON_IsNull(cJSON_GetArrayItem(cJSON_GetArrayItem(table, 0), k + 1)) ? PETSC_FALSE : PETSC_TRUE;
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode FillLoad_Private(FcSchemaCtx *ctx, cJSON *obj, const char *path, PetscReal t_end, FcCaseBodyLoad *ld)
{
  cJSON *v;
  char   sub[FC_PATH_LEN];

  PetscFunctionBegin;
  PetscCall(Group_Private(obj, ld->group, sizeof ld->group));
  if ((v = Get_Private(obj, "traction"))) {
    ld->type = FC_LOAD_TRACTION;
    Vec3_Private(v, ld->vec);
  } else if ((v = Get_Private(obj, "force"))) {
    ld->type = FC_LOAD_FORCE;
    Vec3_Private(v, ld->vec);
  } else {
    ld->type     = FC_LOAD_PRESSURE;
    ld->pressure = Num_Private(obj, "pressure");
  }
  FcSchemaPathKey(sub, sizeof sub, path, "ramp");
  PetscCall(FillRamp_Private(ctx, Get_Private(obj, "ramp"), sub, t_end, &ld->ramp));
  PetscFunctionReturn(0);
}

static PetscErrorCode FillShape_Private(FcSchemaCtx *ctx, cJSON *obj, const char *path, FcCaseShape *sh)
{
  const char *type = Str_Private(obj, "type");
  char        sub[FC_PATH_LEN];

  PetscFunctionBegin;
  if (!strcmp(type, "plane")) {
    sh->type = FC_SHAPE_PLANE;
    Vec3_Private(Get_Private(obj, "point"), sh->point);
    Dir3_Private(Get_Private(obj, "normal"), sh->normal);
  } else if (!strcmp(type, "box")) {
    sh->type = FC_SHAPE_BOX;
    Vec3_Private(Get_Private(obj, "center"), sh->center);
    Vec3_Private(Get_Private(obj, "half_extents"), sh->half_extents);
  } else if (!strcmp(type, "sphere")) {
    sh->type = FC_SHAPE_SPHERE;
    Vec3_Private(Get_Private(obj, "center"), sh->center);
    sh->radius = Num_Private(obj, "radius");
  } else if (!strcmp(type, "cylinder")) {
    sh->type = FC_SHAPE_CYLINDER;
    Vec3_Private(Get_Private(obj, "center"), sh->center);
    Dir3_Private(Get_Private(obj, "axis"), sh->axis);
    sh->radius      = Num_Private(obj, "radius");
    sh->half_length = Num_Private(obj, "half_length");
  } else {
    sh->type = FC_SHAPE_MESH;
    FcSchemaPathKey(sub, sizeof sub, path, "file");
    PetscCall(FcCaseMeshFileResolve(ctx, Str_Private(obj, "file"), sub, sh->mesh_file, sizeof sh->mesh_file));
    PetscCall(Group_Private(obj, sh->group, sizeof sh->group));
    sh->refine = (PetscInt)Num_Private(obj, "refine");
  }
  PetscFunctionReturn(0);
}

/* The device log of a "trajectory" motion or of a coupling (the file resolved against the case). */
static PetscErrorCode FillDevice_Private(FcSchemaCtx *ctx, cJSON *obj, const char *path, FcCaseMotion *m)
{
  cJSON    *tr = Get_Private(obj, "transform"), *rot = Get_Private(tr, "rotation"), *win = Get_Private(obj, "window"), *off = Get_Private(obj, "offset");
  char      sub[FC_PATH_LEN];
  PetscReal n = 0;

  PetscFunctionBegin;
  m->has_device = PETSC_TRUE;
  FcSchemaPathKey(sub, sizeof sub, path, "file");
  PetscCall(FcCaseMeshFileResolve(ctx, Str_Private(obj, "file"), sub, m->dev_file, sizeof m->dev_file));
  PetscCall(PetscStrncpy(m->dev_format, Str_Private(obj, "format"), sizeof m->dev_format));
  if (Get_Private(obj, "units")) PetscCall(PetscStrncpy(m->dev_units, Str_Private(obj, "units"), sizeof m->dev_units));
  if (cJSON_IsArray(rot)) {
    for (int k = 0; k < 4; k++) m->dev_q[k] = cJSON_GetArrayItem(rot, k)->valuedouble;
  } else {
    /* q = (cos θ/2, sin θ/2 a), a the unit axis */
    PetscReal a[3], th = Num_Private(rot, "angle");
    Dir3_Private(Get_Private(rot, "axis"), a);
    m->dev_q[0] = PetscCosReal(0.5 * th);
    for (int k = 0; k < 3; k++) m->dev_q[1 + k] = PetscSinReal(0.5 * th) * a[k];
  }
  for (int k = 0; k < 4; k++) n += m->dev_q[k] * m->dev_q[k];
  for (int k = 0; k < 4; k++) m->dev_q[k] /= PetscSqrtReal(n);
  Vec3_Private(Get_Private(tr, "translation"), m->dev_translation);
  m->dev_scale = Num_Private(tr, "scale");
  if (win) {
    m->dev_window = PETSC_TRUE;
    m->dev_t0     = cJSON_GetArrayItem(win, 0)->valuedouble;
    m->dev_t1     = cJSON_GetArrayItem(win, 1)->valuedouble;
  }
  if (off) {
    m->dev_has_offset = PETSC_TRUE;
    Vec3_Private(off, m->dev_offset);
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode FillMotion_Private(FcSchemaCtx *ctx, cJSON *obj, const char *path, PetscReal t_end, FcCaseMotion *m)
{
  const char *type = Str_Private(obj, "type");
  char        sub[FC_PATH_LEN];

  PetscFunctionBegin;
  FcDriverInit(&m->translation, 3);
  FcDriverInit(&m->angle, 1);
  m->force_ramp.type  = FC_RAMP_CONSTANT;
  m->force_ramp.value = 1;
  FcSchemaPathKey(sub, sizeof sub, path, "ramp");
  if (!strcmp(type, "fixed")) m->type = FC_MOTION_FIXED;
  else if (!strcmp(type, "trajectory")) {
    m->type = FC_MOTION_TRAJECTORY;
    PetscCall(FillDevice_Private(ctx, obj, path, m));
  } else if (!strcmp(type, "kinematic")) {
    cJSON *disp = Get_Private(obj, "displacement");
    m->type     = FC_MOTION_KINEMATIC;
    cJSON *rot  = Get_Private(obj, "rotation");
    if (rot) {
      cJSON    *table = Get_Private(rot, "table"), *center = Get_Private(rot, "center");
      PetscReal n = 0;
      m->rotates  = PETSC_TRUE;
      Vec3_Private(Get_Private(rot, "axis"), m->rot_axis);
      for (int k = 0; k < 3; k++) n += m->rot_axis[k] * m->rot_axis[k];
      for (int k = 0; k < 3; k++) m->rot_axis[k] /= PetscSqrtReal(n);
      if (center) {
        m->rot_has_center = PETSC_TRUE;
        Vec3_Private(center, m->rot_center);
      }
      if (table) PetscCall(FillDriverTable_Private(table, 2, &m->angle.ntab, &m->angle.tab));
      else m->angle.value[0] = Get_Private(rot, "angle")->valuedouble;
    }
    if (cJSON_IsArray(disp)) {
      Vec3_Private(disp, m->translation.value);
      PetscCall(FillRamp_Private(ctx, Get_Private(obj, "ramp"), sub, t_end, &m->translation.ramp));
      /* rotation.angle is scaled by the same ramp (FcCaseCheckMotion: only with this form) */
      if (m->rotates && m->angle.ntab == 0) PetscCall(FcRampDuplicate(&m->translation.ramp, &m->angle.ramp));
    } else PetscCall(FillDriverTable_Private(Get_Private(disp, "table"), 4, &m->translation.ntab, &m->translation.tab));
  } else {
    cJSON      *joint = Get_Private(obj, "joint");
    const char *jt    = Str_Private(joint, "type");
    m->type           = FC_MOTION_DYNAMIC;
    m->mass           = Num_Private(obj, "mass");
    Vec3_Private(Get_Private(obj, "inertia"), m->inertia);
    if (!strcmp(jt, "free")) m->joint = FC_JOINT_FREE;
    else if (!strcmp(jt, "fixed")) m->joint = FC_JOINT_FIXED;
    else {
      m->joint = FC_JOINT_PRISMATIC;
      Dir3_Private(Get_Private(joint, "axis"), m->axis);
    }
    Vec3_Private(Get_Private(obj, "force"), m->force);
    PetscCall(FillRamp_Private(ctx, Get_Private(obj, "ramp"), sub, t_end, &m->force_ramp));
    Vec3_Private(Get_Private(obj, "initial_velocity"), m->initial_velocity);
    Vec3_Private(Get_Private(obj, "initial_angular_velocity"), m->initial_angular_velocity);
    if (Get_Private(obj, "coupling")) {
      cJSON *cp = Get_Private(obj, "coupling");
      FcSchemaPathKey(sub, sizeof sub, path, "coupling");
      m->coupled = PETSC_TRUE;
      PetscCall(FillDevice_Private(ctx, cp, sub, m));
      m->K  = Get_Private(cp, "stiffness") ? Num_Private(cp, "stiffness") : -1;
      m->B  = Get_Private(cp, "damping") ? Num_Private(cp, "damping") : -1;
      m->Kr = Get_Private(cp, "rotational_stiffness") ? Num_Private(cp, "rotational_stiffness") : -1;
      m->Br = Get_Private(cp, "rotational_damping") ? Num_Private(cp, "rotational_damping") : -1;
    }
  }
  PetscFunctionReturn(0);
}

/* A rigid body: name, type, shape and motion; the deformable fields stay zero. */
static PetscErrorCode FillRigid_Private(FcSchemaCtx *ctx, cJSON *obj, const char *path, PetscReal t_end, FcCaseBody *b)
{
  char sub[FC_PATH_LEN];

  PetscFunctionBegin;
  b->rigid = PETSC_TRUE;
  FcSchemaPathKey(sub, sizeof sub, path, "shape");
  PetscCall(FillShape_Private(ctx, Get_Private(obj, "shape"), sub, &b->shape));
  FcSchemaPathKey(sub, sizeof sub, path, "motion");
  PetscCall(FillMotion_Private(ctx, Get_Private(obj, "motion"), sub, t_end, &b->motion));
  PetscFunctionReturn(0);
}

static PetscErrorCode FillBody_Private(FcSchemaCtx *ctx, cJSON *obj, const char *path, PetscReal t_end, PetscReal dt, FcCaseBody *b)
{
  cJSON   *mesh = Get_Private(obj, "mesh"), *mat = Get_Private(obj, "material"), *damp = Get_Private(obj, "damping"), *el;
  PetscInt i;
  char     pp[FC_PATH_LEN], sub[FC_PATH_LEN];

  PetscFunctionBegin;
  PetscCall(PetscStrncpy(b->name, Str_Private(obj, "name"), sizeof b->name));
  PetscCall(PetscStrncpy(b->type, Str_Private(obj, "type"), sizeof b->type));
  if (IsRigid_Private(obj)) {
    PetscCall(FillRigid_Private(ctx, obj, path, t_end, b));
    PetscFunctionReturn(0);
  }
  FcSchemaPathKey(pp, sizeof pp, path, "mesh");
  FcSchemaPathKey(sub, sizeof sub, pp, "file");
  PetscCall(FcCaseMeshFileResolve(ctx, Str_Private(mesh, "file"), sub, b->mesh_file, sizeof b->mesh_file));
  if (Get_Private(mesh, "volume")) PetscCall(PetscStrncpy(b->mesh_volume, Str_Private(mesh, "volume"), sizeof b->mesh_volume));
  b->refine = (PetscInt)Num_Private(mesh, "refine");
  b->order  = (PetscInt)Num_Private(mesh, "order");
  PetscCall(FcCaseMaterialParams(mat, &b->material));
  b->plane_strain = Bool_Private(obj, "plane_strain");
  b->corotational = (PetscBool)(strcmp(Str_Private(obj, "kinematics"), "global_corotational") == 0);
  b->alpha        = Num_Private(damp, "alpha");
  b->beta         = Num_Private(damp, "beta");

  b->nboundary = (PetscInt)cJSON_GetArraySize(Get_Private(obj, "boundary"));
  PetscCall(PetscCalloc1(b->nboundary, &b->boundary));
  FcSchemaPathKey(pp, sizeof pp, path, "boundary");
  i = 0;
  cJSON_ArrayForEach(el, Get_Private(obj, "boundary"))
  {
    FcSchemaPathIndex(sub, sizeof sub, pp, i);
    PetscCall(FillBoundary_Private(ctx, el, sub, t_end, dt, &b->boundary[i]));
    i++;
  }
  b->nloads = (PetscInt)cJSON_GetArraySize(Get_Private(obj, "loads"));
  PetscCall(PetscCalloc1(b->nloads, &b->loads));
  FcSchemaPathKey(pp, sizeof pp, path, "loads");
  i = 0;
  cJSON_ArrayForEach(el, Get_Private(obj, "loads"))
  {
    FcSchemaPathIndex(sub, sizeof sub, pp, i);
    PetscCall(FillLoad_Private(ctx, el, sub, t_end, &b->loads[i]));
    i++;
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode FillProbe_Private(cJSON *obj, FcCaseProbe *p)
{
  const char *type = Str_Private(obj, "type");

  PetscFunctionBegin;
  PetscCall(PetscStrncpy(p->name, Str_Private(obj, "name"), sizeof p->name));
  p->component = Get_Private(obj, "component") ? Str_Private(obj, "component")[0] - 'x' : -1;
  p->scale     = Get_Private(obj, "scale") ? Num_Private(obj, "scale") : 1.0;
  if (!strcmp(type, "contact_force") || !strcmp(type, "active_contacts")) {
    p->type = !strcmp(type, "contact_force") ? FC_PROBE_CONTACT_FORCE : FC_PROBE_ACTIVE_CONTACTS;
    p->pair = (PetscInt)Num_Private(obj, "pair");
    PetscFunctionReturn(0);
  }
  PetscCall(PetscStrncpy(p->body, Str_Private(obj, "body"), sizeof p->body));
  if (!strcmp(type, "displacement")) {
    p->type = FC_PROBE_DISPLACEMENT;
    if (Get_Private(obj, "point")) Vec3_Private(Get_Private(obj, "point"), p->point);
    else if (Get_Private(obj, "group")) PetscCall(Group_Private(obj, p->group, sizeof p->group));
  } else if (!strcmp(type, "reaction")) {
    p->type = FC_PROBE_REACTION;
    PetscCall(Group_Private(obj, p->group, sizeof p->group));
  } else p->type = !strcmp(type, "kinetic_energy") ? FC_PROBE_KINETIC_ENERGY : FC_PROBE_STRAIN_ENERGY;
  PetscFunctionReturn(0);
}

/* "petsc": {"ksp_type": "cg", "ksp_monitor": true, "ksp_rtol": 1e-8} → -ksp_type cg
 * -ksp_monitor -ksp_rtol 1e-08; false drops the option, so --set petsc.x=false undoes it. */
static PetscErrorCode FillPetsc_Private(cJSON *obj, FcCase *c)
{
  cJSON   *m;
  PetscInt n = 0;
  char     buf[64], path[FC_PATH_LEN];

  PetscFunctionBegin;
  cJSON_ArrayForEach(m, obj) if (!cJSON_IsFalse(m)) n++;
  /* One spare NULL slot: FcCaseDestroy frees a key whose value failed to allocate. */
  PetscCall(PetscCalloc1(n + 1, &c->petsc_keys));
  PetscCall(PetscCalloc1(n + 1, &c->petsc_values));
  PetscCall(PetscCalloc1(n + 1, &c->petsc_view));
  cJSON_ArrayForEach(m, obj)
  {
    const char *value = buf;
    if (cJSON_IsFalse(m)) continue;
    /* a view: its value becomes the viewer format, the run points it at its folder */
    FcSchemaPathKey(path, sizeof path, "petsc", m->string);
    PetscCall(FcCasePetscOptionCheck(c->file, path, m, &c->petsc_view[c->npetsc], buf, sizeof buf));
    if (c->petsc_view[c->npetsc]) value = buf;
    else if (cJSON_IsTrue(m)) buf[0] = 0;
    else if (cJSON_IsNumber(m)) snprintf(buf, sizeof buf, "%.17g", m->valuedouble);
    else value = m->valuestring;
    PetscCall(PetscMalloc1(strlen(m->string) + 2, &c->petsc_keys[c->npetsc]));
    c->petsc_keys[c->npetsc][0] = '-';
    PetscCall(PetscStrcpy(c->petsc_keys[c->npetsc] + 1, m->string));
    PetscCall(PetscStrallocpy(value, &c->petsc_values[c->npetsc]));
    c->npetsc++;
  }
  PetscFunctionReturn(0);
}

/* time: the integrator and its θ, the step, Newton; and gravity (constant or a table). */
static PetscErrorCode FillTime_Private(cJSON *root, FcCase *c)
{
  cJSON *time = Get_Private(root, "time"), *newton = Get_Private(time, "newton");

  PetscFunctionBegin;
  {
    const char *integ = Str_Private(time, "integrator");
    c->integrator     = FC_INTEGRATOR_QUASI_STATIC;
    c->theta = c->theta_vq = 1.0;
    if (!strcmp(integ, "backward_euler")) c->integrator = FC_INTEGRATOR_BACKWARD_EULER;
    else if (!strcmp(integ, "midpoint")) {
      c->integrator = FC_INTEGRATOR_THETA;
      c->theta = c->theta_vq = 0.5;
    } else if (!strcmp(integ, "symplectic_euler")) {
      c->integrator = FC_INTEGRATOR_THETA;
      c->theta      = 0.0;
    } else if (!strcmp(integ, "theta")) {
      c->integrator = FC_INTEGRATOR_THETA;
      if (Get_Private(time, "theta")) c->theta = Num_Private(time, "theta");
      if (Get_Private(time, "theta_vq")) c->theta_vq = Num_Private(time, "theta_vq");
    }
  }
  c->cutback = (PetscInt)Num_Private(time, "cutback");
  c->dt      = Num_Private(time, "dt");
  if (Get_Private(time, "steps")) {
    c->steps       = (PetscInt)Num_Private(time, "steps");
    c->steps_given = PETSC_TRUE;
    c->t_end       = c->steps * c->dt;
  } else {
    c->t_end = Num_Private(time, "t_end");
    c->steps = (PetscInt)round(c->t_end / c->dt);
  }
  c->newton_max_it        = (PetscInt)Num_Private(newton, "max_it");
  c->newton_rtol          = Num_Private(newton, "rtol");
  c->newton_atol          = Num_Private(newton, "atol");
  c->allow_nonconvergence = Bool_Private(newton, "allow_failure");
  c->newton_shift         = Num_Private(newton, "shift");
  c->inertia_correction   = cJSON_IsTrue(Get_Private(newton, "inertia_correction"));
  {
    cJSON *g = Get_Private(root, "gravity");
    FcDriverInit(&c->gravity, 3);
    if (cJSON_IsArray(g)) Vec3_Private(g, c->gravity.value);
    else {
      PetscCall(FillDriverTable_Private(Get_Private(g, "table"), 4, &c->gravity.ntab, &c->gravity.tab));
      for (int k = 0; k < 3; k++) c->gravity.value[k] = c->gravity.tab[1 + k]; /* value at the first row */
    }
  }

  PetscFunctionReturn(0);
}

/* bodies[] (entries with mesh.volumes already expanded, FcCaseCheckBodies) and probes[] */
static PetscErrorCode FillBodies_Private(FcSchemaCtx *ctx, cJSON *root, FcCase *c)
{
  cJSON   *el;
  PetscInt i;
  char     sub[FC_PATH_LEN];

  PetscFunctionBegin;
  c->nbodies = (PetscInt)cJSON_GetArraySize(Get_Private(root, "bodies"));
  PetscCall(PetscCalloc1(c->nbodies, &c->bodies));
  i = 0;
  cJSON_ArrayForEach(el, Get_Private(root, "bodies"))
  {
    FcCaseBodyEntries *be     = (FcCaseBodyEntries *)ctx->user;
    c->bodies[i].entry        = (be && i < be->n) ? be->entry[i] : i;
    c->bodies[i].from_volumes = (be && i < be->n) ? be->expanded[i] : PETSC_FALSE;
    FcSchemaPathIndex(sub, sizeof sub, "bodies", i);
    PetscCall(FillBody_Private(ctx, el, sub, c->t_end, c->dt, &c->bodies[i]));
    i++;
  }
  c->nprobes = (PetscInt)cJSON_GetArraySize(Get_Private(root, "probes"));
  PetscCall(PetscCalloc1(c->nprobes, &c->probes));
  i = 0;
  cJSON_ArrayForEach(el, Get_Private(root, "probes")) PetscCall(FillProbe_Private(el, &c->probes[i++]));
  PetscFunctionReturn(0);
}

static PetscErrorCode FillVerdictHaptic_Private(cJSON *root, FcCase *c)
{
  cJSON *el;

  PetscFunctionBegin;
  if ((el = Get_Private(root, "verdict"))) {
    c->verdict.set = PETSC_TRUE;
    PetscCall(PetscStrncpy(c->verdict.drop, Str_Private(el, "drop"), sizeof c->verdict.drop));
    PetscCall(PetscStrncpy(c->verdict.energy, Str_Private(el, "energy"), sizeof c->verdict.energy));
    c->verdict.rise             = Num_Private(el, "rise");
    c->verdict.after            = Num_Private(el, "after");
    c->verdict.stand_drop       = Num_Private(el, "stand_drop");
    c->verdict.stand_energy     = Num_Private(el, "stand_energy");
    c->verdict.collapse_drop    = Num_Private(el, "collapse_drop");
    c->verdict.stop_on_collapse = Bool_Private(el, "stop_on_collapse");
  }
  if ((el = Get_Private(root, "haptic"))) {
    c->haptic.set            = PETSC_TRUE;
    c->haptic.rate           = Num_Private(el, "rate");
    c->haptic.max_iterations = (PetscInt)Num_Private(el, "max_iterations");
    c->haptic.strict         = Bool_Private(el, "strict");
    c->haptic.passivity_rtol = Num_Private(el, "passivity_rtol");
    if (Get_Private(el, "tool")) PetscCall(PetscStrncpy(c->haptic.tool, Str_Private(el, "tool"), sizeof c->haptic.tool));
  }
  PetscFunctionReturn(0);
}

/* centry[e] (case.h): the groups of entry e and the parameters of its pairs; for "bodies", the
 * first pair of each body and the places of the deformable bodies (FcCaseContactAt). The pairs are
 * counted, never listed. */
static PetscErrorCode FillContactEntry_Private(
  FcSchemaCtx *ctx, cJSON *bodies, cJSON *el, const char *pi, const FcCase *c, PetscInt first, FcCaseContactEntry *ce)
{
  PetscInt na, nb, *ga, *gb;

  PetscFunctionBegin;
  PetscCall(FcCaseContactGroups(ctx, bodies, el, pi, &na, &ga, &nb, &gb));
  ce->first = first;
  ce->na    = na;
  ce->nb    = nb;
  PetscCall(PetscMalloc2(na + 1, &ce->ga, nb + 1, &ce->gb));
  PetscCall(PetscArraycpy(ce->ga, ga, na));
  PetscCall(PetscArraycpy(ce->gb, gb, nb));
  PetscCall(PetscFree(ga));
  PetscCall(PetscFree(gb));
  PetscCall(GroupKey_Private(el, "surface", ce->surface, sizeof ce->surface));
  PetscCall(GroupKey_Private(el, "target_surface", ce->target_surface, sizeof ce->target_surface));
  ce->mu          = Num_Private(el, "mu");
  ce->alarm       = Get_Private(el, "alarm") ? Num_Private(el, "alarm") : -1;
  ce->both_passes = Bool_Private(el, "both_passes");
  ce->mortar      = (PetscBool)!strcmp(Str_Private(el, "formulation"), "mortar");
  if (nb) ce->n = na * nb;
  else { /* start[x]: the pairs (x', y) with x' < x; ndef[x]: deformable bodies among ga[0 .. x) */ PetscInt *st, *nd, *dp, k = 0;
    PetscCall(PetscMalloc1(3 * (na + 1), &ce->start));
    st = ce->start;
    nd = ce->ndef = st + na + 1;
    dp = ce->defpos = nd + na + 1;
    nd[0]           = 0;
    for (PetscInt x = 0; x < na; x++) {
      nd[x + 1] = nd[x] + !c->bodies[ce->ga[x]].rigid;
      if (!c->bodies[ce->ga[x]].rigid) dp[k++] = x;
    }
    st[0] = 0;
    for (PetscInt x = 0; x < na; x++) st[x + 1] = st[x] + (c->bodies[ce->ga[x]].rigid ? nd[na] - nd[x + 1] : na - x - 1);
    ce->n = st[na];
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode FillContacts_Private(FcSchemaCtx *ctx, cJSON *root, FcCase *c)
{
  cJSON   *el;
  PetscInt e = 0;

  PetscFunctionBegin;
  /* every entry of contacts[] stands for its pairs of bodies, found from its groups
   * (FcCaseContactAt): a group of n bodies has n(n − 1)/2, never listed */
  c->ncontacts = 0;
  c->nentries  = (PetscInt)cJSON_GetArraySize(Get_Private(root, "contacts"));
  PetscCall(PetscCalloc1(c->nentries + 1, &c->centry));
  cJSON_ArrayForEach(el, Get_Private(root, "contacts"))
  {
    char pi[FC_PATH_LEN];
    FcSchemaPathIndex(pi, sizeof pi, "contacts", e);
    PetscCall(FillContactEntry_Private(ctx, Get_Private(root, "bodies"), el, pi, c, c->ncontacts, &c->centry[e]));
    c->ncontacts += c->centry[e].n;
    e++;
  }
  PetscFunctionReturn(0);
}

PetscInt FcCaseContactEntryOf(const FcCase *c, PetscInt i)
{
  PetscInt lo = 0, hi = c->nentries - 1;
  while (lo < hi) { /* the last entry whose first pair is at most i */
    const PetscInt mid = (lo + hi + 1) / 2;
    if (c->centry[mid].first <= i) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

FcCaseContact FcCaseContactAt(const FcCase *c, PetscInt i)
{
  const PetscInt            e  = FcCaseContactEntryOf(c, i);
  const FcCaseContactEntry *ce = &c->centry[e];
  const PetscInt            k  = i - ce->first;
  FcCaseContact             cc;

  cc.entry          = e;
  cc.surface        = ce->surface;
  cc.target_surface = ce->target_surface;
  cc.mu             = ce->mu;
  cc.alarm          = ce->alarm;
  cc.both_passes    = ce->both_passes;
  cc.mortar         = ce->mortar;
  if (ce->nb) {
    cc.body[0] = ce->ga[k / ce->nb];
    cc.body[1] = ce->gb[k % ce->nb];
  } else {
    PetscInt lo = 0, hi = ce->na - 1, x, r;
    while (lo < hi) { /* x: the last with start[x] <= k (then start[x + 1] > k) */
      const PetscInt mid = (lo + hi + 1) / 2;
      if (ce->start[mid] <= k) lo = mid;
      else hi = mid - 1;
    }
    x = lo;
    r = k - ce->start[x];
    if (!c->bodies[ce->ga[x]].rigid) { /* every later body, in order */
      cc.body[0] = ce->ga[x];
      cc.body[1] = ce->ga[x + 1 + r];
    } else { /* the later deformable bodies, each the contactor */
      cc.body[0] = ce->ga[ce->defpos[ce->ndef[x + 1] + r]];
      cc.body[1] = ce->ga[x];
    }
  }
  return cc;
}

/* contact_solver, compliance, output */
static PetscErrorCode FillSolverOutput_Private(cJSON *root, FcCase *c)
{
  cJSON *out = Get_Private(root, "output");

  PetscFunctionBegin;
  {
    cJSON *cs = Get_Private(root, "contact_solver");
    PetscCall(PetscStrncpy(c->contact_solver_type, Str_Private(cs, "type"), sizeof c->contact_solver_type));
    c->contact_solver_tol        = Num_Private(cs, "tol");
    c->contact_solver_max_it     = (PetscInt)Num_Private(cs, "max_it");
    c->contact_solver_warm_start = Bool_Private(cs, "warm_start");
    c->contact_solver_max_error  = Get_Private(cs, "max_error") ? Num_Private(cs, "max_error") : PETSC_INFINITY;
    {
      const cJSON *ar                      = Get_Private(cs, "accept_regularized");
      c->contact_solver_accept_regularized = cJSON_IsNumber(ar) ? ar->valuedouble : cJSON_IsTrue(ar) ? FC_CONTACT_SOLVER_ACCEPT_REGULARIZED : 0;
    }
  }
  {
    const char *ct = Str_Private(Get_Private(root, "compliance"), "type");
    PetscCall(PetscStrncpy(c->compliance_type, ct, sizeof c->compliance_type));
    const cJSON *co             = Get_Private(root, "compliance"), *k; /* "lagged": defaults for absent keys */
    k                           = cJSON_GetObjectItemCaseSensitive(co, "refresh_drift");
    c->compliance_refresh_drift = k ? (PetscInt)k->valuedouble : 0;
    k                           = cJSON_GetObjectItemCaseSensitive(co, "refresh");
    c->compliance_refresh       = k ? (PetscInt)k->valuedouble : c->compliance_refresh_drift ? 0 : 1; /* drift alone: no refresh by count */
    k                           = cJSON_GetObjectItemCaseSensitive(co, "rotation");
    PetscCall(PetscStrncpy(c->compliance_rotation, k ? k->valuestring : "shape_matching", sizeof c->compliance_rotation));
    k = cJSON_GetObjectItemCaseSensitive(co, "krylov");
    PetscCall(PetscStrncpy(c->compliance_krylov, k ? k->valuestring : "cg", sizeof c->compliance_krylov));
    c->compliance_async   = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(co, "async")) ? PETSC_TRUE : PETSC_FALSE;
    k                     = cJSON_GetObjectItemCaseSensitive(co, "w_cache");
    c->compliance_w_cache = !k || cJSON_IsTrue(k) ? PETSC_TRUE : PETSC_FALSE; /* on by default: the same W, 2x faster steps (doc/case-format.md) */
    k                     = cJSON_GetObjectItemCaseSensitive(co, "delay");
    c->compliance_delay   = !k ? 1 : cJSON_IsString(k) ? -1 : (PetscInt)k->valuedouble;
  }
  {
    cJSON      *ls           = Get_Private(root, "contact_step");
    const char *l            = Str_Private(ls, "linearization");
    c->contact_linearization = !strcmp(l, "once") ? FC_LINEARIZATION_ONCE : !strcmp(l, "fast") ? FC_LINEARIZATION_FAST : FC_LINEARIZATION_RECURSIVE;
    c->contact_lin_max_it    = (PetscInt)Num_Private(ls, "max_it");
    c->contact_lin_tol       = Num_Private(ls, "tol");
  }

  PetscCall(PetscStrncpy(c->output_dir, Str_Private(out, "dir"), sizeof c->output_dir));
  c->output_every = (PetscInt)Num_Private(out, "every");
  c->output_hdf5  = Bool_Private(out, "hdf5");
  c->output_vtk   = Bool_Private(out, "vtk");
  c->vtk_binary   = !strcmp(Str_Private(out, "vtk_format"), "binary") ? PETSC_TRUE : PETSC_FALSE;
  c->output_fclib = Bool_Private(out, "fclib");
  PetscFunctionReturn(0);
}

PetscErrorCode FcCaseFill(FcSchemaCtx *ctx, cJSON *root, FcCase *c)
{
  PetscFunctionBegin;
  PetscCall(PetscStrncpy(c->name, Str_Private(root, "name"), sizeof c->name));
  PetscCall(PetscStrallocpy(Str_Private(root, "description"), &c->description));
  PetscCall(FillTime_Private(root, c));
  PetscCall(FillBodies_Private(ctx, root, c));
  PetscCall(FillVerdictHaptic_Private(root, c));
  PetscCall(FillContacts_Private(ctx, root, c));
  PetscCall(FillSolverOutput_Private(root, c));
  PetscCall(FillPetsc_Private(Get_Private(root, "petsc"), c));
  PetscFunctionReturn(0);
}
