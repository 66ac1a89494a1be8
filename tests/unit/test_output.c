/* Unit test of src/io: writes a tiny run (a tet4 body with 2 elements, a tet10 body with 1,
 * 3 output steps out of 5 solver steps, probe and stat columns, and the same run with contacts
 * at the 3 output steps, one of them without contact) in VTK ASCII and BINARY, reads run.h5 and
 * the VTK files back, checks the CSVs, and runs scripts/check_output.py on it (the test runs
 * from the repository root). Also: every failure of FcOutputOpen/Write/Close
 * returns an error, leaves nothing open and *out NULL (run under valgrind / -malloc_dump). */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../src/io/output.h"
#include "../../src/io/results.h"
#include "testutil.h"

#define NB     2
#define NSTEPS 5 /* solver steps 0..4; fields at 0, 2, 4 */
#define NOUT   3

/* The second body's name has XML, JSON and shell-hostile characters on purpose. */
static const char *body_names[NB] = {"block", "tip\"&<x>'"};
static const char *probe_cols[]   = {"tip_ux", "load, N"};
static const char *stat_cols[]    = {"newton_its", "contact_nodes", "gap_min"};

static PetscReal X0[5 * 3]    = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1};
static PetscInt  conn0[2 * 4] = {0, 1, 2, 3, 1, 2, 3, 4};
static PetscReal X1[10 * 3];
static PetscInt  conn1[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};

static FcOutputMesh meshes[NB];

/* Contacts of output step k: 2, 0 and 3 contacts. */
#define NCMAX 3
static const PetscInt ncontacts[NOUT] = {2, 0, 3};

typedef struct {
  PetscReal        x[3 * NCMAX], n[3 * NCMAX], t1[3 * NCMAX], t2[3 * NCMAX], r[3 * NCMAX], gap[NCMAX];
  PetscInt         status[NCMAX], pair[NCMAX];
  FcOutputContacts c;
} ContactData;

/* An orthonormal right-handed frame per contact (n from two angles, t1 = dn/dtheta), values
 * with full mantissas. */
static void contact_data(int k, ContactData *d)
{
  memset(d, 0, sizeof *d);
  for (int i = 0; i < ncontacts[k]; i++) {
    double th = 0.3 + 0.7 * i + 0.11 * k, ph = 1.1 * i - 0.2 * k + 1.0 / 3.0;
    double n[3]  = {sin(th) * cos(ph), sin(th) * sin(ph), cos(th)};
    double t1[3] = {cos(th) * cos(ph), cos(th) * sin(ph), -sin(th)};

    for (int c = 0; c < 3; c++) {
      d->x[3 * i + c]  = 1.0 / 7.0 + k + 0.5 * i + c / 3.0;
      d->n[3 * i + c]  = n[c];
      d->t1[3 * i + c] = t1[c];
      d->r[3 * i + c]  = c == 0 ? 100.0 / (i + k + 3) : (c == 1 ? -1.0 : 1.0) * (i + 1) / 9.0;
    }
    d->t2[3 * i + 0] = n[1] * t1[2] - n[2] * t1[1];
    d->t2[3 * i + 1] = n[2] * t1[0] - n[0] * t1[2];
    d->t2[3 * i + 2] = n[0] * t1[1] - n[1] * t1[0];
    d->gap[i]        = -1e-5 * (i + 1) / 3.0 + 1e-6 * k;
    d->status[i]     = (i + k) % 3;
    d->pair[i]       = (i + 1) % 2;
  }
  d->c = (FcOutputContacts){ncontacts[k], d->x, d->n, d->t1, d->t2, d->r, d->gap, d->status, d->pair};
}

/* World-frame force as the output computes it (same expression, same rounding). */
static double contact_force(const ContactData *d, int i, int c)
{
  return d->r[3 * i] * d->n[3 * i + c] + d->r[3 * i + 1] * d->t1[3 * i + c] + d->r[3 * i + 2] * d->t2[3 * i + c];
}

static void build_meshes(void)
{
  // clang-format off
  const PetscReal v[4][3] = {
    {3, 0, 0},
    {5, 0, 0},
    {3, 2, 0},
    {3, 0, 2}
  };
  // clang-format on
  for (int i = 0; i < 4; i++)
    for (int c = 0; c < 3; c++) X1[3 * i + c] = v[i][c];
  for (int e = 0; e < 6; e++)
    for (int c = 0; c < 3; c++) X1[3 * (4 + e) + c] = 0.5 * (v[FcTestGmshTetEdges[e][0]][c] + v[FcTestGmshTetEdges[e][1]][c]);
  meshes[0] = (FcOutputMesh){body_names[0], 5, X0, 2, 4, conn0};
  meshes[1] = (FcOutputMesh){body_names[1], 10, X1, 1, 10, conn1};
}

/* Field values with full 53-bit mantissas, so any loss of precision shows. kind 0: u, 1: v. */
static PetscReal fval(int b, int k, int i, int c, int kind) { return kind * 10.0 + b + 1e-3 * (k + 1) * (i + 1) + c / 3.0; }
static PetscReal vmval(int b, int k, int e) { return 1e6 * (b + 1) * (e + 1) * (k + 1) / 7.0; }
static PetscReal step_time(int s) { return 0.1 * s; }
static PetscReal probe_val(int s, int c) { return s / 3.0 + c; }
static PetscReal stat_val(int s, int c) { return c == 2 ? -1e-4 * s / 7.0 : (PetscReal)(s + c); }

static FcOutputSpec base_spec(const char *dir)
{
  FcOutputSpec spec;

  memset(&spec, 0, sizeof spec);
  spec.dir           = dir;
  spec.hdf5          = PETSC_TRUE;
  spec.vtk           = PETSC_TRUE;
  spec.case_json     = "{\"name\": \"unit\", \"bodies\": [\"block\", \"tip\"]}";
  spec.case_file     = "cases/unit.json";
  spec.version       = "test-1.0";
  spec.petsc_options = "-ksp_type preonly\n-pc_type lu\n";
  spec.command_line  = "fcsim run cases/unit.json";
  spec.nbodies       = NB;
  spec.meshes        = meshes;
  spec.nprobe_cols   = 2;
  spec.probe_cols    = probe_cols;
  spec.nstat_cols    = 3;
  spec.stat_cols     = stat_cols;
  return spec;
}

static void make_tmpdir(char *dir, size_t len)
{
  snprintf(dir, len, "/tmp/fcsim_test_output_XXXXXX");
  assert_non_null(mkdtemp(dir));
}

static int run_checker(const char *dir, const char *opts, PetscBool quiet)
{
  char cmd[2 * PETSC_MAX_PATH_LEN];
  int  rc;

  snprintf(cmd, sizeof cmd, "/usr/bin/python3 scripts/check_output.py %s '%s'%s", opts, dir, quiet ? " >/dev/null 2>&1" : "");
  rc = system(cmd);
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

/* Writes the run: fields (and contacts, if asked) at steps 0, 2, 4; probes and stats every step. */
static void write_run_ex(const FcOutputSpec *spec, PetscBool contacts)
{
  FcOutput       out = NULL;
  PetscReal      u[NB][10 * 3], v[NB][10 * 3], vm[NB][2], row[3];
  FcOutputFields f[NB];
  PetscInt       nout;

  assert_int_equal(FcOutputOpen(spec, &out), 0);
  assert_non_null(out);
  for (int s = 0; s < NSTEPS; s++) {
    if (s % 2 == 0) {
      int k = s / 2;
      for (int b = 0; b < NB; b++) {
        for (int i = 0; i < meshes[b].nnodes; i++)
          for (int c = 0; c < 3; c++) {
            u[b][3 * i + c] = fval(b, k, i, c, 0);
            v[b][3 * i + c] = fval(b, k, i, c, 1);
          }
        for (int e = 0; e < meshes[b].nelems; e++) vm[b][e] = vmval(b, k, e);
        f[b] = (FcOutputFields){.u = u[b], .v = v[b], .vm = vm[b]};
      }
      assert_int_equal(FcOutputWriteFields(out, s, step_time(s), f), 0);
      if (contacts) {
        ContactData d;

        contact_data(k, &d);
        assert_int_equal(FcOutputWriteContacts(out, s, step_time(s), &d.c), 0);
      }
    }
    for (int c = 0; c < 2; c++) row[c] = probe_val(s, c);
    assert_int_equal(FcOutputWriteProbes(out, s, step_time(s), row), 0);
    for (int c = 0; c < 3; c++) row[c] = stat_val(s, c);
    assert_int_equal(FcOutputWriteStats(out, s, step_time(s), row), 0);
  }
  assert_int_equal(FcOutputGetNumOutputSteps(out, &nout), 0);
  assert_int_equal(nout, NOUT);
  assert_int_equal(FcOutputClose(&out), 0);
  assert_null(out);
}

static void write_run(const FcOutputSpec *spec) { write_run_ex(spec, PETSC_FALSE); }

/* ------------------------------------------------------------------ run.h5 read-back */

static hid_t open_dataset(hid_t f, const char *path, hid_t ftype, int rank, hsize_t d0, hsize_t d1)
{
  hid_t   d, s, t;
  hsize_t dims[2];

  d = H5Dopen2(f, path, H5P_DEFAULT);
  if (d < 0) fprintf(stderr, "missing dataset %s\n", path);
  assert_true(d >= 0);
  s = H5Dget_space(d);
  assert_int_equal(H5Sget_simple_extent_ndims(s), rank);
  assert_true(H5Sget_simple_extent_dims(s, dims, NULL) >= 0);
  assert_int_equal(dims[0], d0);
  if (rank == 2) assert_int_equal(dims[1], d1);
  H5Sclose(s);
  t = H5Dget_type(d);
  assert_true(H5Tequal(t, ftype) > 0);
  H5Tclose(t);
  return d;
}

static void read_reals(hid_t f, const char *path, int rank, hsize_t d0, hsize_t d1, double *buf)
{
  hid_t d = open_dataset(f, path, H5T_IEEE_F64LE, rank, d0, d1);
  assert_true(H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) >= 0);
  H5Dclose(d);
}

static void read_int64s(hid_t f, const char *path, int rank, hsize_t d0, hsize_t d1, int64_t *buf)
{
  hid_t d = open_dataset(f, path, H5T_STD_I64LE, rank, d0, d1);
  assert_true(H5Dread(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) >= 0);
  H5Dclose(d);
}

static hid_t vlen_string_type(void)
{
  hid_t t = H5Tcopy(H5T_C_S1);
  H5Tset_size(t, H5T_VARIABLE);
  H5Tset_cset(t, H5T_CSET_UTF8);
  return t;
}

/* Compares a scalar string attribute (attr != NULL) or string dataset with `expect`. */
static void check_string(hid_t f, const char *obj, const char *attr, const char *expect)
{
  hid_t h, t = vlen_string_type();
  char *s = NULL;

  if (attr) {
    h = H5Aopen_by_name(f, obj, attr, H5P_DEFAULT, H5P_DEFAULT);
    assert_true(h >= 0);
    assert_true(H5Aread(h, t, &s) >= 0);
    H5Aclose(h);
  } else {
    h = H5Dopen2(f, obj, H5P_DEFAULT);
    assert_true(h >= 0);
    assert_true(H5Dread(h, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, &s) >= 0);
    H5Dclose(h);
  }
  H5Tclose(t);
  assert_non_null(s);
  assert_string_equal(s, expect);
  H5free_memory(s);
}

static void read_scalar_attr(hid_t f, const char *obj, const char *attr, hid_t memtype, void *value)
{
  hid_t a = H5Aopen_by_name(f, obj, attr, H5P_DEFAULT, H5P_DEFAULT);
  assert_true(a >= 0);
  assert_true(H5Aread(a, memtype, value) >= 0);
  H5Aclose(a);
}

static void check_h5_contacts(hid_t f, PetscBool contacts)
{
  char    obj[512];
  double  buf[3 * NCMAX], t;
  int64_t ibuf[NCMAX], step;

  if (!contacts) {
    /* A run without contacts keeps the layout it always had. */
    assert_true(H5Lexists(f, "/contacts", H5P_DEFAULT) == 0);
    return;
  }
  for (int k = 0; k < NOUT; k++) {
    ContactData        d;
    hsize_t            m     = (hsize_t)ncontacts[k];
    static const char *vec[] = {"x", "normal", "t1", "t2", "r_local"};

    contact_data(k, &d);
    for (int v = 0; v < 5; v++) {
      const PetscReal *expect[] = {d.x, d.n, d.t1, d.t2, d.r};

      snprintf(obj, sizeof obj, "/contacts/%06d/%s", k, vec[v]);
      read_reals(f, obj, 2, m, 3, buf); /* m = 0: an empty (0, 3) dataset */
      for (hsize_t i = 0; i < 3 * m; i++) assert_true(buf[i] == expect[v][i]);
    }
    snprintf(obj, sizeof obj, "/contacts/%06d/force", k);
    read_reals(f, obj, 2, m, 3, buf);
    for (hsize_t i = 0; i < m; i++)
      for (int c = 0; c < 3; c++) assert_true(buf[3 * i + c] == contact_force(&d, (int)i, c));
    /* An orthonormal frame: the world force has the local force's normal part and length. */
    for (hsize_t i = 0; i < m; i++) {
      double fn = 0, f2 = 0, r2 = 0;
      for (int c = 0; c < 3; c++) {
        fn += buf[3 * i + c] * d.n[3 * i + c];
        f2 += buf[3 * i + c] * buf[3 * i + c];
        r2 += d.r[3 * i + c] * d.r[3 * i + c];
      }
      assert_true(fabs(fn - d.r[3 * i]) <= 1e-12 * 100 && fabs(f2 - r2) <= 1e-12 * r2);
    }
    snprintf(obj, sizeof obj, "/contacts/%06d/gap", k);
    read_reals(f, obj, 1, m, 0, buf);
    for (hsize_t i = 0; i < m; i++) assert_true(buf[i] == d.gap[i]);
    snprintf(obj, sizeof obj, "/contacts/%06d/status", k);
    read_int64s(f, obj, 1, m, 0, ibuf);
    for (hsize_t i = 0; i < m; i++) assert_int_equal(ibuf[i], d.status[i]);
    snprintf(obj, sizeof obj, "/contacts/%06d/pair", k);
    read_int64s(f, obj, 1, m, 0, ibuf);
    for (hsize_t i = 0; i < m; i++) assert_int_equal(ibuf[i], d.pair[i]);
    snprintf(obj, sizeof obj, "/contacts/%06d", k);
    read_scalar_attr(f, obj, "time", H5T_NATIVE_DOUBLE, &t);
    read_scalar_attr(f, obj, "step", H5T_NATIVE_INT64, &step);
    assert_true(t == step_time(2 * k));
    assert_int_equal(step, 2 * k);
  }
  snprintf(obj, sizeof obj, "/contacts/%06d", NOUT);
  assert_true(H5Lexists(f, obj, H5P_DEFAULT) == 0);
}

static void check_h5(const char *dir, PetscBool contacts)
{
  char    path[PETSC_MAX_PATH_LEN], obj[512];
  hid_t   f;
  double  buf[64], t;
  int64_t ibuf[64], step;

  snprintf(path, sizeof path, "%s/run.h5", dir);
  f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  assert_true(f >= 0);

  check_string(f, "/fcsim", "version", "test-1.0");
  check_string(f, "/fcsim", "case_file", "cases/unit.json");
  check_string(f, "/fcsim", "command_line", "fcsim run cases/unit.json");
  check_string(f, "/fcsim/case_json", NULL, "{\"name\": \"unit\", \"bodies\": [\"block\", \"tip\"]}");
  check_string(f, "/fcsim/petsc_options", NULL, "-ksp_type preonly\n-pc_type lu\n");
  read_scalar_attr(f, "/fcsim", "format_version", H5T_NATIVE_INT64, &step);
  assert_int_equal(step, FC_OUTPUT_FORMAT_VERSION);

  for (int b = 0; b < NB; b++) {
    const FcOutputMesh *m = &meshes[b];

    snprintf(obj, sizeof obj, "/bodies/%s/mesh/X", m->name);
    read_reals(f, obj, 2, (hsize_t)m->nnodes, 3, buf);
    assert_memory_equal(buf, m->X, sizeof(double) * 3 * (size_t)m->nnodes);
    snprintf(obj, sizeof obj, "/bodies/%s/mesh/cells", m->name);
    read_int64s(f, obj, 2, (hsize_t)m->nelems, (hsize_t)m->npe, ibuf);
    for (int e = 0; e < m->nelems; e++)
      for (int i = 0; i < m->npe; i++) {
        /* VTK order: tet10 positions 8 and 9 swapped with respect to Gmsh. */
        int gi = m->npe == 10 && i >= 8 ? 17 - i : i;
        assert_int_equal(ibuf[e * m->npe + i], m->conn[e * m->npe + gi]);
      }
    check_string(f, obj, "element_type", m->npe == 4 ? "tet4" : "tet10");
    snprintf(obj, sizeof obj, "/bodies/%s/mesh", m->name);
    check_string(f, obj, "element_type", m->npe == 4 ? "tet4" : "tet10");

    for (int k = 0; k < NOUT; k++) {
      snprintf(obj, sizeof obj, "/bodies/%s/fields/%06d/displacement", m->name, k);
      read_reals(f, obj, 2, (hsize_t)m->nnodes, 3, buf);
      for (int i = 0; i < m->nnodes; i++)
        for (int c = 0; c < 3; c++) assert_true(buf[3 * i + c] == fval(b, k, i, c, 0));
      snprintf(obj, sizeof obj, "/bodies/%s/fields/%06d/velocity", m->name, k);
      read_reals(f, obj, 2, (hsize_t)m->nnodes, 3, buf);
      for (int i = 0; i < m->nnodes; i++)
        for (int c = 0; c < 3; c++) assert_true(buf[3 * i + c] == fval(b, k, i, c, 1));
      snprintf(obj, sizeof obj, "/bodies/%s/fields/%06d/von_mises", m->name, k);
      read_reals(f, obj, 1, (hsize_t)m->nelems, 0, buf);
      for (int e = 0; e < m->nelems; e++) assert_true(buf[e] == vmval(b, k, e));
      snprintf(obj, sizeof obj, "/bodies/%s/fields/%06d", m->name, k);
      read_scalar_attr(f, obj, "time", H5T_NATIVE_DOUBLE, &t);
      read_scalar_attr(f, obj, "step", H5T_NATIVE_INT64, &step);
      assert_true(t == step_time(2 * k));
      assert_int_equal(step, 2 * k);
    }
    /* Exactly NOUT output groups. */
    snprintf(obj, sizeof obj, "/bodies/%s/fields/%06d", m->name, NOUT);
    assert_true(H5Lexists(f, obj, H5P_DEFAULT) <= 0);
  }

  read_reals(f, "/output/time", 1, NOUT, 0, buf);
  read_int64s(f, "/output/step", 1, NOUT, 0, ibuf);
  for (int k = 0; k < NOUT; k++) {
    assert_true(buf[k] == step_time(2 * k));
    assert_int_equal(ibuf[k], 2 * k);
  }

  for (int tab = 0; tab < 2; tab++) {
    const char  *g     = tab ? "stats" : "probes";
    int          ncols = tab ? 3 : 2;
    const char **cols  = tab ? stat_cols : probe_cols;

    snprintf(obj, sizeof obj, "/%s/step", g);
    read_int64s(f, obj, 1, NSTEPS, 0, ibuf);
    snprintf(obj, sizeof obj, "/%s/time", g);
    read_reals(f, obj, 1, NSTEPS, 0, buf);
    for (int s = 0; s < NSTEPS; s++) {
      assert_int_equal(ibuf[s], s);
      assert_true(buf[s] == step_time(s));
    }
    for (int c = 0; c < ncols; c++) {
      snprintf(obj, sizeof obj, "/%s/%s", g, cols[c]);
      read_reals(f, obj, 1, NSTEPS, 0, buf);
      for (int s = 0; s < NSTEPS; s++) assert_true(buf[s] == (tab ? stat_val(s, c) : probe_val(s, c)));
    }
  }
  check_h5_contacts(f, contacts);
  assert_true(H5Fclose(f) >= 0);
}

/* ----------------------------------------------------------------------- other files */

static char *slurp(const char *path)
{
  FILE *fp = fopen(path, "rb");
  long  n;
  char *s;

  if (!fp) fprintf(stderr, "missing file %s\n", path);
  assert_non_null(fp);
  assert_int_equal(fseek(fp, 0, SEEK_END), 0);
  n = ftell(fp);
  rewind(fp);
  s = malloc((size_t)n + 1);
  assert_non_null(s);
  assert_int_equal(fread(s, 1, (size_t)n, fp), (size_t)n);
  s[n] = 0;
  fclose(fp);
  return s;
}

static void check_csv(const char *dir)
{
  char  path[PETSC_MAX_PATH_LEN], expect[4096];
  char *s;
  int   len = 0;

  snprintf(path, sizeof path, "%s/probes.csv", dir);
  s   = slurp(path);
  len = snprintf(expect, sizeof expect, "step,time,tip_ux,\"load, N\"\n");
  for (int st = 0; st < NSTEPS; st++)
    len += snprintf(expect + len, sizeof expect - (size_t)len, "%d,%.17g,%.17g,%.17g\n", st, step_time(st), probe_val(st, 0), probe_val(st, 1));
  assert_string_equal(s, expect);
  free(s);

  snprintf(path, sizeof path, "%s/stats.csv", dir);
  s   = slurp(path);
  len = snprintf(expect, sizeof expect, "step,time,newton_its,contact_nodes,gap_min\n");
  for (int st = 0; st < NSTEPS; st++)
    len += snprintf(
      expect + len, sizeof expect - (size_t)len, "%d,%.17g,%.17g,%.17g,%.17g\n", st, step_time(st), stat_val(st, 0), stat_val(st, 1), stat_val(st, 2));
  assert_string_equal(s, expect);
  free(s);
}

static void check_vtk_files(const char *dir, PetscBool binary)
{
  char  path[PETSC_MAX_PATH_LEN];
  char *s;

  for (int b = 0; b < NB; b++) {
    for (int k = 0; k < NOUT; k++) {
      snprintf(path, sizeof path, "%s/vtk/%s_%06d.vtk", dir, body_names[b], k);
      s = slurp(path);
      assert_memory_equal(s, "# vtk DataFile Version 3.0\nfcsim time=", 38);
      assert_non_null(strstr(s, binary ? "\nBINARY\nDATASET UNSTRUCTURED_GRID\n" : "\nASCII\nDATASET UNSTRUCTURED_GRID\n"));
      free(s);
    }
    snprintf(path, sizeof path, "%s/vtk/%s.vtk.series", dir, body_names[b]);
    s = slurp(path);
    assert_non_null(strstr(s, "\"file-series-version\": \"1.0\""));
    free(s);
  }
  /* The tet4 ASCII file is small enough to compare whole. */
  if (!binary) {
    char expect[4096];
    int  n = 0;

    n += snprintf(expect + n, sizeof expect - (size_t)n,
      "# vtk DataFile Version 3.0\nfcsim time=%.17g body=block\nASCII\nDATASET UNSTRUCTURED_GRID\nPOINTS 5 double\n", step_time(2));
    for (int i = 0; i < 5; i++) n += snprintf(expect + n, sizeof expect - (size_t)n, "%.17g %.17g %.17g\n", X0[3 * i], X0[3 * i + 1], X0[3 * i + 2]);
    n += snprintf(expect + n, sizeof expect - (size_t)n, "CELLS 2 10\n4 0 1 2 3\n4 1 2 3 4\nCELL_TYPES 2\n10\n10\nPOINT_DATA 5\nVECTORS displacement double\n");
    for (int kind = 0; kind < 2; kind++) {
      if (kind) n += snprintf(expect + n, sizeof expect - (size_t)n, "VECTORS velocity double\n");
      for (int i = 0; i < 5; i++)
        n += snprintf(expect + n, sizeof expect - (size_t)n, "%.17g %.17g %.17g\n", fval(0, 1, i, 0, kind), fval(0, 1, i, 1, kind), fval(0, 1, i, 2, kind));
    }
    n += snprintf(
      expect + n, sizeof expect - (size_t)n, "CELL_DATA 2\nSCALARS von_mises double 1\nLOOKUP_TABLE default\n%.17g\n%.17g\n", vmval(0, 1, 0), vmval(0, 1, 1));
    snprintf(path, sizeof path, "%s/vtk/block_000001.vtk", dir);
    s = slurp(path);
    assert_string_equal(s, expect);
    free(s);
  }
}

/* Expected file bytes, built independently of src/io/vtk.c: legacy VTK text lines, and values
 * as %.17g text (ASCII) or big-endian int32/float64 (BINARY; each block ends with a newline). */
typedef struct {
  char     *s;
  size_t    n, cap;
  PetscBool binary;
} Buf;

static void buf_put(Buf *b, const void *p, size_t n)
{
  if (b->n + n + 1 > b->cap) {
    b->cap = 2 * (b->n + n + 1);
    b->s   = realloc(b->s, b->cap);
    assert_non_null(b->s);
  }
  memcpy(b->s + b->n, p, n);
  b->n += n;
  b->s[b->n] = 0;
}

static void buf_printf(Buf *b, const char *fmt, ...)
{
  char    line[512];
  va_list ap;
  int     n;

  va_start(ap, fmt);
  n = vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  assert_true(n >= 0 && (size_t)n < sizeof line);
  buf_put(b, line, (size_t)n);
}

static void buf_be(Buf *b, uint64_t bits, int nbytes)
{
  unsigned char c[8];

  for (int i = 0; i < nbytes; i++) c[i] = (unsigned char)(bits >> (8 * (nbytes - 1 - i)));
  buf_put(b, c, (size_t)nbytes);
}

/* One tuple of ncomp doubles (one line in ASCII). */
static void buf_reals(Buf *b, int ncomp, const double *x)
{
  for (int c = 0; c < ncomp; c++) {
    if (b->binary) {
      uint64_t bits;
      memcpy(&bits, &x[c], sizeof bits);
      buf_be(b, bits, 8);
    } else buf_printf(b, c == ncomp - 1 ? "%.17g\n" : "%.17g ", x[c]);
  }
}

static void buf_ints(Buf *b, int ncomp, const int32_t *v)
{
  for (int c = 0; c < ncomp; c++) {
    if (b->binary) buf_be(b, (uint64_t)(uint32_t)v[c], 4);
    else buf_printf(b, c == ncomp - 1 ? "%d\n" : "%d ", (int)v[c]);
  }
}

static void buf_end_block(Buf *b)
{
  if (b->binary) buf_put(b, "\n", 1);
}

static void check_contact_vtk_files(const char *dir, PetscBool binary, PetscBool contacts)
{
  char        path[PETSC_MAX_PATH_LEN], *s, expect[1024];
  struct stat st;
  int         n = 0;

  snprintf(path, sizeof path, "%s/vtk/contacts.vtk.series", dir);
  if (!contacts) {
    /* No contact output at all without FcOutputWriteContacts. */
    assert_int_not_equal(stat(path, &st), 0);
    snprintf(path, sizeof path, "%s/vtk/contacts_000000.vtk", dir);
    assert_int_not_equal(stat(path, &st), 0);
    return;
  }
  /* The series lists every output step, the one without contacts too. */
  s = slurp(path);
  n += snprintf(expect + n, sizeof expect - (size_t)n, "{\n  \"file-series-version\": \"1.0\",\n  \"files\": [\n");
  for (int k = 0; k < NOUT; k++)
    n += snprintf(
      expect + n, sizeof expect - (size_t)n, "    {\"name\": \"contacts_%06d.vtk\", \"time\": %.17g}%s\n", k, step_time(2 * k), k < NOUT - 1 ? "," : "");
  snprintf(expect + n, sizeof expect - (size_t)n, "  ]\n}\n");
  assert_string_equal(s, expect);
  free(s);

  for (int k = 0; k < NOUT; k++) {
    ContactData d;
    Buf         b = {NULL, 0, 0, binary};
    FILE       *fp;
    long        len;
    int         m = (int)ncontacts[k];

    contact_data(k, &d);
    buf_printf(
      &b, "# vtk DataFile Version 3.0\nfcsim time=%.17g contacts\n%s\nDATASET POLYDATA\nPOINTS %d double\n", step_time(2 * k), binary ? "BINARY" : "ASCII", m);
    for (int i = 0; i < m; i++) buf_reals(&b, 3, &d.x[3 * i]);
    buf_end_block(&b);
    buf_printf(&b, "VERTICES %d %d\n", m, 2 * m);
    for (int i = 0; i < m; i++) buf_ints(&b, 2, (int32_t[]){1, i});
    buf_end_block(&b);
    buf_printf(&b, "POINT_DATA %d\nVECTORS force double\n", m);
    for (int i = 0; i < m; i++) buf_reals(&b, 3, (double[]){contact_force(&d, i, 0), contact_force(&d, i, 1), contact_force(&d, i, 2)});
    buf_end_block(&b);
    buf_printf(&b, "VECTORS normal double\n");
    for (int i = 0; i < m; i++) buf_reals(&b, 3, &d.n[3 * i]);
    buf_end_block(&b);
    buf_printf(&b, "VECTORS r_local double\n");
    for (int i = 0; i < m; i++) buf_reals(&b, 3, &d.r[3 * i]);
    buf_end_block(&b);
    buf_printf(&b, "SCALARS gap double 1\nLOOKUP_TABLE default\n");
    for (int i = 0; i < m; i++) buf_reals(&b, 1, &d.gap[i]);
    buf_end_block(&b);
    buf_printf(&b, "SCALARS status int 1\nLOOKUP_TABLE default\n");
    for (int i = 0; i < m; i++) buf_ints(&b, 1, (int32_t[]){(int32_t)d.status[i]});
    buf_end_block(&b);
    buf_printf(&b, "SCALARS pair int 1\nLOOKUP_TABLE default\n");
    for (int i = 0; i < m; i++) buf_ints(&b, 1, (int32_t[]){(int32_t)d.pair[i]});
    buf_end_block(&b);

    snprintf(path, sizeof path, "%s/vtk/contacts_%06d.vtk", dir, k);
    fp = fopen(path, "rb");
    assert_non_null(fp);
    assert_int_equal(fseek(fp, 0, SEEK_END), 0);
    len = ftell(fp);
    rewind(fp);
    s = malloc((size_t)len + 1);
    assert_non_null(s);
    assert_int_equal(fread(s, 1, (size_t)len, fp), (size_t)len);
    fclose(fp);
    if ((size_t)len != b.n || memcmp(s, b.s, b.n)) fprintf(stderr, "%s differs from the expected %zu bytes:\n%s\n", path, b.n, binary ? "(binary)" : b.s);
    assert_int_equal((size_t)len, b.n);
    assert_memory_equal(s, b.s, b.n);
    free(s);
    free(b.s);
  }
}

/* run.xdmf: the "contacts" collection has a grid per step, with inline vertex connectivity
 * except for the step without contact (an empty inline DataItem aborts ParaView's reader). */
static void check_xdmf_contacts(const char *dir, PetscBool contacts)
{
  char  path[PETSC_MAX_PATH_LEN];
  char *s;

  snprintf(path, sizeof path, "%s/run.xdmf", dir);
  s = slurp(path);
  if (!contacts) assert_null(strstr(s, "contacts"));
  else {
    assert_non_null(strstr(s, "<Grid Name=\"contacts\" GridType=\"Collection\" CollectionType=\"Temporal\">"));
    assert_non_null(strstr(s, "<Grid Name=\"contacts_000000\""));
    assert_non_null(strstr(s, "<Grid Name=\"contacts_000001\""));
    assert_non_null(strstr(s, "<Grid Name=\"contacts_000002\""));
    assert_non_null(strstr(s, "<Topology TopologyType=\"Polyvertex\" NumberOfElements=\"0\" NodesPerElement=\"1\"/>\n"));
    assert_non_null(strstr(s,
      "<Topology TopologyType=\"Polyvertex\" NumberOfElements=\"3\" NodesPerElement=\"1\">\n"
      "          <DataItem Dimensions=\"3\" NumberType=\"Int\" Precision=\"8\" Format=\"XML\">0 1 2</DataItem>\n"));
    assert_non_null(strstr(s, "<DataItem Dimensions=\"0 3\" NumberType=\"Float\" Precision=\"8\" Format=\"HDF\">run.h5:/contacts/000001/x</DataItem>"));
    assert_non_null(strstr(s, ">run.h5:/contacts/000002/force</DataItem>"));
  }
  free(s);
}

/* Overwrites the bytes of `what` in a file with `with` (same length). */
static void patch_file(const char *path, const char *what, const char *with)
{
  char *s = slurp(path), *p;
  FILE *fp;

  p = strstr(s, what);
  assert_non_null(p);
  assert_int_equal(strlen(what), strlen(with));
  memcpy(p, with, strlen(with));
  fp = fopen(path, "wb");
  assert_non_null(fp);
  assert_int_equal(fwrite(s, 1, strlen(s), fp), strlen(s));
  fclose(fp);
  free(s);
}

/* The checker must notice damaged contact output: a VTK value off by far more than 1e-12 (ASCII),
 * a missing contact VTK file, a series without the step that has no contact, an XDMF grid with the
 * wrong number of points. */
static void damage_contacts(FcOutputSpec *spec, PetscBool binary)
{
  char dir[64], path[PETSC_MAX_PATH_LEN + 64], num[64], num2[64];

  for (int what = 0; what < 4; what++) {
    if (binary && what == 0) continue;
    make_tmpdir(dir, sizeof dir);
    spec->dir = dir;
    write_run_ex(spec, PETSC_TRUE);
    switch (what) {
    case 0: {
      ContactData d;

      contact_data(2, &d);
      snprintf(path, sizeof path, "%s/vtk/contacts_000002.vtk", dir);
      snprintf(num, sizeof num, "\n%.17g\n", d.gap[1]);
      snprintf(num2, sizeof num2, "\n%.17g\n", d.gap[1]);
      num2[5] = num2[5] == '9' ? '8' : '9'; /* "\n-4.66...": a relative change of 1e-3 */
      patch_file(path, num, num2);
    } break;
    case 1:
      snprintf(path, sizeof path, "%s/vtk/contacts_000002.vtk", dir);
      assert_int_equal(remove(path), 0);
      break;
    case 2:
      snprintf(path, sizeof path, "%s/vtk/contacts.vtk.series", dir);
      patch_file(path, "contacts_000001.vtk", "contacts_000002.vtk");
      break;
    case 3:
      snprintf(path, sizeof path, "%s/run.xdmf", dir);
      patch_file(path, "NumberOfElements=\"3\" NodesPerElement", "NumberOfElements=\"2\" NodesPerElement");
      break;
    }
    assert_int_equal(run_checker(dir, "", PETSC_TRUE), 1);
    FcTestRemoveTree(dir);
  }
}

static void run_full(PetscBool binary, PetscBool contacts)
{
  char         dir[64], path[PETSC_MAX_PATH_LEN + 64];
  FcOutputSpec spec;
  struct stat  st;

  build_meshes();
  make_tmpdir(dir, sizeof dir);
  spec            = base_spec(dir);
  spec.vtk_binary = binary;
  write_run_ex(&spec, contacts);
  check_h5(dir, contacts);
  check_csv(dir);
  check_vtk_files(dir, binary);
  check_contact_vtk_files(dir, binary, contacts);
  snprintf(path, sizeof path, "%s/run.xdmf", dir);
  assert_int_equal(stat(path, &st), 0);
  check_xdmf_contacts(dir, contacts);
  assert_int_equal(run_checker(dir, "--hdf5 --vtk", PETSC_FALSE), 0);

  /* The checker must notice damage: a stats row more than run.h5 has, a missing VTK file. */
  snprintf(path, sizeof path, "%s/stats.csv", dir);
  {
    FILE *fp = fopen(path, "a");
    assert_non_null(fp);
    fputs("5,0.5,1,2,3\n", fp);
    fclose(fp);
  }
  assert_int_equal(run_checker(dir, "", PETSC_TRUE), 1);
  FcTestRemoveTree(dir);

  make_tmpdir(dir, sizeof dir);
  spec.dir = dir;
  write_run_ex(&spec, contacts);
  snprintf(path, sizeof path, "%s/vtk/block_000001.vtk", dir);
  assert_int_equal(remove(path), 0);
  assert_int_equal(run_checker(dir, "", PETSC_TRUE), 1);
  FcTestRemoveTree(dir);
  if (contacts) damage_contacts(&spec, binary);
}

static void test_run_ascii(void **state)
{
  (void)state;
  run_full(PETSC_FALSE, PETSC_FALSE);
}

static void test_run_binary(void **state)
{
  (void)state;
  run_full(PETSC_TRUE, PETSC_FALSE);
}

static void test_contacts_ascii(void **state)
{
  (void)state;
  run_full(PETSC_FALSE, PETSC_TRUE);
}

static void test_contacts_binary(void **state)
{
  (void)state;
  run_full(PETSC_TRUE, PETSC_TRUE);
}

/* hdf5 = vtk = false: only the CSVs. */
static void test_csv_only(void **state)
{
  char         dir[64], path[PETSC_MAX_PATH_LEN + 64];
  FcOutputSpec spec;
  struct stat  st;

  (void)state;
  build_meshes();
  make_tmpdir(dir, sizeof dir);
  spec      = base_spec(dir);
  spec.hdf5 = PETSC_FALSE;
  spec.vtk  = PETSC_FALSE;
  write_run(&spec);
  check_csv(dir);
  snprintf(path, sizeof path, "%s/run.h5", dir);
  assert_int_not_equal(stat(path, &st), 0);
  snprintf(path, sizeof path, "%s/run.xdmf", dir);
  assert_int_not_equal(stat(path, &st), 0);
  snprintf(path, sizeof path, "%s/vtk", dir);
  assert_int_not_equal(stat(path, &st), 0);
  assert_int_equal(run_checker(dir, "--no-hdf5 --no-vtk", PETSC_FALSE), 0);
  FcTestRemoveTree(dir);
}

/* A run that ends before its first output step: run.xdmf shows the meshes alone, the VTK
 * series are empty, the tables still have their rows. */
static void test_no_fields(void **state)
{
  char         dir[64];
  FcOutputSpec spec;
  FcOutput     out    = NULL;
  PetscReal    row[2] = {1, 2};
  PetscInt     nout   = -1;

  (void)state;
  build_meshes();
  make_tmpdir(dir, sizeof dir);
  spec            = base_spec(dir);
  spec.nstat_cols = 0; /* an empty table: header step,time only */
  spec.stat_cols  = NULL;
  assert_int_equal(FcOutputOpen(&spec, &out), 0);
  assert_int_equal(FcOutputWriteProbes(out, 0, 0.0, row), 0);
  assert_int_equal(FcOutputWriteStats(out, 0, 0.0, NULL), 0);
  assert_int_equal(FcOutputGetNumOutputSteps(out, &nout), 0);
  assert_int_equal(nout, 0);
  assert_int_equal(FcOutputClose(&out), 0);
  assert_int_equal(run_checker(dir, "--hdf5", PETSC_FALSE), 0);
  FcTestRemoveTree(dir);
}

/* Open must fail cleanly (error code, *out NULL, nothing leaked) whatever goes wrong. */
static void expect_open_fails(const FcOutputSpec *spec)
{
  FcOutput out = (FcOutput)(uintptr_t)1; /* must be reset to NULL */

  assert_int_not_equal(FcOutputOpen(spec, &out), 0);
  assert_null(out);
}

static void test_open_errors(void **state)
{
  char         dir[64], path[PETSC_MAX_PATH_LEN + 64];
  FcOutputSpec spec;
  FcOutputMesh bad[NB];
  const char  *dup_cols[]      = {"a", "a"};
  const char  *reserved_cols[] = {"time"};
  FILE        *fp;

  (void)state;
  build_meshes();
  make_tmpdir(dir, sizeof dir);
  assert_int_equal(PetscPushErrorHandler(PetscReturnErrorHandler, NULL), 0);

  spec = base_spec("/nonexistent/fcsim/out");
  expect_open_fails(&spec);

  /* A regular file as the directory (also fails for root, unlike a read-only directory). */
  snprintf(path, sizeof path, "%s/file", dir);
  fp = fopen(path, "w");
  assert_non_null(fp);
  fclose(fp);
  spec = base_spec(path);
  expect_open_fails(&spec);

  /* Failures after run.h5 was created: probes.csv cannot be created, vtk/ cannot be made. */
  snprintf(path, sizeof path, "%s/a", dir);
  assert_int_equal(mkdir(path, 0700), 0);
  snprintf(path, sizeof path, "%s/a/probes.csv", dir);
  assert_int_equal(mkdir(path, 0700), 0);
  snprintf(path, sizeof path, "%s/a", dir);
  spec = base_spec(path);
  expect_open_fails(&spec);

  snprintf(path, sizeof path, "%s/b", dir);
  assert_int_equal(mkdir(path, 0700), 0);
  snprintf(path, sizeof path, "%s/b/vtk", dir);
  fp = fopen(path, "w");
  assert_non_null(fp);
  fclose(fp);
  snprintf(path, sizeof path, "%s/b", dir);
  spec = base_spec(path);
  expect_open_fails(&spec);

  /* run.h5 cannot be created. */
  snprintf(path, sizeof path, "%s/c", dir);
  assert_int_equal(mkdir(path, 0700), 0);
  snprintf(path, sizeof path, "%s/c/run.h5", dir);
  assert_int_equal(mkdir(path, 0700), 0);
  snprintf(path, sizeof path, "%s/c", dir);
  spec = base_spec(path);
  expect_open_fails(&spec);

  /* Names that cannot be HDF5 links / file names, bad meshes, bad columns. */
  spec = base_spec(dir);
  memcpy(bad, meshes, sizeof bad);
  bad[1].name = "a/b";
  spec.meshes = bad;
  expect_open_fails(&spec);
  bad[1].name = "block";
  expect_open_fails(&spec);
  memcpy(bad, meshes, sizeof bad);
  bad[0].npe = 8;
  expect_open_fails(&spec);
  memcpy(bad, meshes, sizeof bad);
  bad[0].nnodes = 4; /* conn refers to node 4 */
  expect_open_fails(&spec);
  spec            = base_spec(dir);
  spec.probe_cols = dup_cols;
  expect_open_fails(&spec);
  spec            = base_spec(dir);
  spec.nstat_cols = 1;
  spec.stat_cols  = reserved_cols;
  expect_open_fails(&spec);

  assert_int_equal(PetscPopErrorHandler(), 0);
  FcTestRemoveTree(dir);
}

/* A failure in the middle of a run: the error is returned, and Close still frees everything
 * (and reports that the VTK series could not be written). */
static void test_write_errors(void **state)
{
  char         dir[64], path[PETSC_MAX_PATH_LEN + 64];
  FcOutputSpec spec;
  FcOutput     out   = NULL;
  PetscReal    u[30] = {0}, vm[2] = {0};
  // clang-format off
  FcOutputFields f[NB] = {
    {.u = u, .v = u, .vm = vm},
    {.u = u, .v = u, .vm = vm}
  };
  // clang-format on

  (void)state;
  build_meshes();
  make_tmpdir(dir, sizeof dir);
  spec = base_spec(dir);
  assert_int_equal(FcOutputOpen(&spec, &out), 0);
  snprintf(path, sizeof path, "%s/vtk", dir);
  assert_int_equal(rmdir(path), 0);
  assert_int_equal(PetscPushErrorHandler(PetscReturnErrorHandler, NULL), 0);
  assert_int_not_equal(FcOutputWriteFields(out, 0, 0.0, f), 0);
  assert_int_not_equal(FcOutputWriteFields(out, 1, NAN, f), 0);
  assert_int_not_equal(FcOutputWriteProbes(out, 0, 0.0, NULL), 0);
  assert_int_not_equal(FcOutputClose(&out), 0);
  assert_null(out);
  assert_int_not_equal(FcVTKWriteBody("/nonexistent/fcsim/x.vtk", PETSC_FALSE, &meshes[0], &f[0], 0.0), 0);
  assert_int_equal(PetscPopErrorHandler(), 0);
  assert_int_equal(FcOutputClose(&out), 0); /* NULL: no-op */
  FcTestRemoveTree(dir);
}

/* Contacts with only one of the optional outputs: VTK alone (the checker tells the contact files
 * by their POLYDATA, without run.h5), HDF5 alone. */
static void test_contacts_partial(void **state)
{
  char         dir[64], path[PETSC_MAX_PATH_LEN + 64];
  FcOutputSpec spec;
  struct stat  st;

  (void)state;
  build_meshes();
  make_tmpdir(dir, sizeof dir);
  spec            = base_spec(dir);
  spec.hdf5       = PETSC_FALSE;
  spec.vtk_binary = PETSC_TRUE;
  write_run_ex(&spec, PETSC_TRUE);
  check_contact_vtk_files(dir, PETSC_TRUE, PETSC_TRUE);
  assert_int_equal(run_checker(dir, "--no-hdf5 --vtk", PETSC_FALSE), 0);
  FcTestRemoveTree(dir);

  make_tmpdir(dir, sizeof dir);
  spec     = base_spec(dir);
  spec.vtk = PETSC_FALSE;
  write_run_ex(&spec, PETSC_TRUE);
  check_h5(dir, PETSC_TRUE);
  check_xdmf_contacts(dir, PETSC_TRUE);
  snprintf(path, sizeof path, "%s/vtk", dir);
  assert_int_not_equal(stat(path, &st), 0);
  assert_int_equal(run_checker(dir, "--hdf5 --no-vtk", PETSC_FALSE), 0);
  FcTestRemoveTree(dir);
}

/* Misuse of FcOutputWriteContacts is refused (and leaves the output usable). */
static void test_contact_errors(void **state)
{
  char         dir[64];
  FcOutputSpec spec;
  FcOutput     out = NULL;
  FcOutputMesh named[NB];
  PetscReal    u[30] = {0}, vm[2] = {0};
  // clang-format off
  FcOutputFields   f[NB] = {
    {.u = u, .v = u, .vm = vm},
    {.u = u, .v = u, .vm = vm}
  };
  // clang-format on
  ContactData      d;
  FcOutputContacts bad;

  (void)state;
  build_meshes();
  make_tmpdir(dir, sizeof dir);
  spec = base_spec(dir);
  contact_data(0, &d);
  assert_int_equal(FcOutputOpen(&spec, &out), 0);
  assert_int_equal(PetscPushErrorHandler(PetscReturnErrorHandler, NULL), 0);
  assert_int_not_equal(FcOutputWriteContacts(out, 0, 0.0, &d.c), 0); /* before any output step */
  assert_int_not_equal(FcOutputWriteContacts(NULL, 0, 0.0, &d.c), 0);
  assert_int_equal(FcOutputWriteFields(out, 0, 0.0, f), 0);
  assert_int_not_equal(FcOutputWriteContacts(out, 1, 0.0, &d.c), 0); /* not the output step's step */
  assert_int_not_equal(FcOutputWriteContacts(out, 0, 0.5, &d.c), 0); /* nor its time */
  assert_int_not_equal(FcOutputWriteContacts(out, 0, 0.0, NULL), 0);
  bad   = d.c;
  bad.m = -1;
  assert_int_not_equal(FcOutputWriteContacts(out, 0, 0.0, &bad), 0);
  bad   = d.c;
  bad.r = NULL;
  assert_int_not_equal(FcOutputWriteContacts(out, 0, 0.0, &bad), 0);
  d.status[1] = 3;
  assert_int_not_equal(FcOutputWriteContacts(out, 0, 0.0, &d.c), 0);
  d.status[1] = 1;
  d.pair[0]   = -1;
  assert_int_not_equal(FcOutputWriteContacts(out, 0, 0.0, &d.c), 0);
  d.pair[0] = 0;
  assert_int_equal(FcOutputWriteContacts(out, 0, 0.0, &d.c), 0);
  assert_int_not_equal(FcOutputWriteContacts(out, 0, 0.0, &d.c), 0); /* twice for one step */
  /* m = 0 with NULL arrays is fine. */
  memset(&bad, 0, sizeof bad);
  assert_int_equal(FcOutputWriteFields(out, 1, 0.5, f), 0);
  assert_int_equal(FcOutputWriteContacts(out, 1, 0.5, &bad), 0);
  assert_int_equal(PetscPopErrorHandler(), 0);
  assert_int_equal(FcOutputClose(&out), 0);
  assert_int_equal(run_checker(dir, "--hdf5 --vtk", PETSC_FALSE), 0);
  FcTestRemoveTree(dir);

  /* A body named "contacts": its VTK files would collide with the contact output. */
  make_tmpdir(dir, sizeof dir);
  spec = base_spec(dir);
  memcpy(named, meshes, sizeof named);
  named[1].name = "contacts";
  spec.meshes   = named;
  assert_int_equal(FcOutputOpen(&spec, &out), 0);
  assert_int_equal(FcOutputWriteFields(out, 0, 0.0, f), 0);
  assert_int_equal(PetscPushErrorHandler(PetscReturnErrorHandler, NULL), 0);
  assert_int_not_equal(FcOutputWriteContacts(out, 0, 0.0, &d.c), 0);
  assert_int_equal(PetscPopErrorHandler(), 0);
  assert_int_equal(FcOutputClose(&out), 0);
  /* ... but without contact output it is an ordinary body. */
  assert_int_equal(run_checker(dir, "--hdf5 --vtk", PETSC_FALSE), 0);
  FcTestRemoveTree(dir);

  /* VTK writer on its own: an unwritable path fails. */
  assert_int_equal(PetscPushErrorHandler(PetscReturnErrorHandler, NULL), 0);
  assert_int_not_equal(FcVTKWriteContacts("/nonexistent/fcsim/c.vtk", PETSC_FALSE, &d.c, 0.0), 0);
  assert_int_equal(PetscPopErrorHandler(), 0);
}

/* The reader studies use (src/io/results.h) gives back what the writers wrote: the CSV columns
 * (a quoted name included) and every value bit for bit, the mesh sizes from run.h5 and, without
 * it, from the VTK files; a missing table is reported or refused, an empty field is NaN. */
static void check_table(const char *dir, const char *name, PetscInt ncols, const char *const *cols, PetscReal (*val)(int, int))
{
  FcResultsTable t;
  PetscBool      found = PETSC_FALSE;

  assert_int_equal(FcResultsReadTable(dir, name, PETSC_TRUE, &t, &found), 0);
  assert_true(found);
  assert_int_equal(t.ncols, ncols + 2);
  assert_int_equal(t.nrows, NSTEPS);
  assert_string_equal(t.head[0], "step");
  assert_string_equal(t.head[1], "time");
  for (int c = 0; c < ncols; c++) assert_int_equal(FcResultsTableColumn(&t, cols[c]), c + 2);
  assert_int_equal(FcResultsTableColumn(&t, "nosuch"), -1);
  for (int s = 0; s < NSTEPS; s++) {
    assert_true(t.v[s * t.ncols] == s);
    assert_true(t.v[s * t.ncols + 1] == step_time(s));
    for (int c = 0; c < ncols; c++) assert_true(t.v[s * t.ncols + 2 + c] == val(s, c));
  }
  assert_int_equal(FcResultsTableDestroy(&t), 0);
}

static void test_results_readback(void **state)
{
  char           dir[64], path[PETSC_MAX_PATH_LEN + 64];
  FcOutputSpec   spec;
  FcResultsTable t;
  PetscBool      found = PETSC_TRUE;
  long long      nodes, elems;
  char          *names[NB] = {(char *)body_names[0], (char *)body_names[1]};
  FILE          *fp;

  (void)state;
  build_meshes();
  make_tmpdir(dir, sizeof dir);
  spec = base_spec(dir);
  write_run(&spec);
  check_table(dir, "probes", 2, probe_cols, probe_val);
  check_table(dir, "stats", 3, stat_cols, stat_val);
  FcResultsMeshCounts(dir, NB, names, &nodes, &elems);
  assert_int_equal(nodes, 15); /* 5 + 10 nodes, 2 + 1 elements */
  assert_int_equal(elems, 3);
  snprintf(path, sizeof path, "%s/run.h5", dir);
  assert_int_equal(unlink(path), 0);
  FcResultsMeshCounts(dir, NB, names, &nodes, &elems); /* from vtk/<b>_000000.vtk (ASCII) */
  assert_int_equal(nodes, 15);
  assert_int_equal(elems, 3);
  assert_int_equal(FcResultsReadTable(dir, "nosuch", PETSC_FALSE, &t, &found), 0);
  assert_false(found);
  assert_int_equal(PetscPushErrorHandler(PetscReturnErrorHandler, NULL), 0);
  assert_int_not_equal(FcResultsReadTable(dir, "nosuch", PETSC_TRUE, &t, &found), 0);
  assert_int_equal(PetscPopErrorHandler(), 0);
  snprintf(path, sizeof path, "%s/empty.csv", dir);
  assert_non_null(fp = fopen(path, "w"));
  fputs("step,time,a\n\n0,,2.5\n", fp);
  fclose(fp);
  assert_int_equal(FcResultsReadTable(dir, "empty", PETSC_TRUE, &t, &found), 0);
  assert_int_equal(t.nrows, 1);
  assert_true(t.v[0] == 0 && isnan(t.v[1]) && t.v[2] == 2.5);
  assert_int_equal(FcResultsTableDestroy(&t), 0);
  FcTestRemoveTree(dir);
  make_tmpdir(dir, sizeof dir);
  spec            = base_spec(dir);
  spec.hdf5       = PETSC_FALSE;
  spec.vtk_binary = PETSC_TRUE;
  write_run(&spec);
  FcResultsMeshCounts(dir, NB, names, &nodes, &elems); /* binary VTK */
  assert_int_equal(nodes, 15);
  assert_int_equal(elems, 3);
  FcTestRemoveTree(dir);
}

/* The haptic loop's output: haptic.csv and run.h5:/haptic, written while run.h5 is open (before
 * the close, which then completes the file as ever); once only. */
static void test_haptic_output(void **state)
{
  char              dir[64], path[PETSC_MAX_PATH_LEN + 64], line[256];
  FcOutputSpec      spec;
  FcOutput          out      = NULL;
  const char *const cols[]   = {"t", "fx"};
  const char *const attrs[]  = {"rate", "ticks"};
  const PetscReal   values[] = {0.001, 1.0 / 3.0, 0.002, -2.5e-7};
  const PetscReal   wall[]   = {1e-5, 2e-5};
  const PetscReal   avals[]  = {1000, 2};
  FcHapticOutput    h        = {2, cols, 2, values, wall, 2, attrs, avals, "nsgs"};
  PetscReal         got[2], a;
  hid_t             f, d, g, at;
  FILE             *fp;

  (void)state;
  build_meshes();
  make_tmpdir(dir, sizeof dir);
  spec     = base_spec(dir);
  spec.vtk = PETSC_FALSE;
  assert_int_equal(FcOutputOpen(&spec, &out), 0);
  assert_int_equal(FcOutputWriteHaptic(out, &h), 0);
  assert_int_equal(PetscPushErrorHandler(PetscReturnErrorHandler, NULL), 0);
  assert_int_not_equal(FcOutputWriteHaptic(out, &h), 0);
  assert_int_equal(PetscPopErrorHandler(), 0);
  assert_int_equal(FcOutputClose(&out), 0);
  snprintf(path, sizeof path, "%s/haptic.csv", dir);
  assert_non_null(fp = fopen(path, "r"));
  assert_non_null(fgets(line, sizeof line, fp));
  assert_string_equal(line, "t,fx\n");
  assert_non_null(fgets(line, sizeof line, fp));
  assert_string_equal(line, "0.001,0.33333333333333331\n");
  fclose(fp);
  snprintf(path, sizeof path, "%s/run.h5", dir);
  assert_true((f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT)) >= 0);
  assert_true((d = H5Dopen2(f, "/haptic/fx", H5P_DEFAULT)) >= 0);
  assert_true(H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, got) >= 0);
  assert_true(got[0] == values[1] && got[1] == values[3]);
  H5Dclose(d);
  assert_true((d = H5Dopen2(f, "/haptic/wall_time", H5P_DEFAULT)) >= 0);
  assert_true(H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, got) >= 0);
  assert_true(got[0] == wall[0] && got[1] == wall[1]);
  H5Dclose(d);
  assert_true((g = H5Gopen2(f, "/haptic", H5P_DEFAULT)) >= 0);
  assert_true((at = H5Aopen(g, "ticks", H5P_DEFAULT)) >= 0);
  assert_true(H5Aread(at, H5T_NATIVE_DOUBLE, &a) >= 0 && a == 2);
  H5Aclose(at);
  assert_true(H5Aexists(g, "solver") > 0 && H5Aexists(g, "columns") > 0);
  H5Gclose(g);
  assert_true(H5Lexists(f, "/stats", H5P_DEFAULT) > 0); /* the close completed the file */
  H5Fclose(f);
  assert_int_equal(run_checker(dir, "--hdf5 --no-vtk", PETSC_FALSE), 0);
  FcTestRemoveTree(dir);
}

static void test_cells_to_vtk(void **state)
{
  PetscInt   g[10] = {10, 11, 12, 13, 14, 15, 16, 17, 18, 19};
  PetscInt64 v[10];

  (void)state;
  assert_int_equal(FcOutputCellsToVTK(1, 10, g, v), 0);
  for (int i = 0; i < 8; i++) assert_int_equal(v[i], g[i]);
  assert_int_equal(v[8], 19);
  assert_int_equal(v[9], 18);
  assert_int_equal(FcOutputCellsToVTK(1, 4, g, v), 0);
  for (int i = 0; i < 4; i++) assert_int_equal(v[i], g[i]);
}

int main(int argc, char **argv)
{
  // clang-format off
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_cells_to_vtk), cmocka_unit_test(test_run_ascii),    cmocka_unit_test(test_run_binary),
    cmocka_unit_test(test_contacts_ascii), cmocka_unit_test(test_contacts_binary), cmocka_unit_test(test_contacts_partial),
    cmocka_unit_test(test_csv_only),     cmocka_unit_test(test_no_fields),     cmocka_unit_test(test_open_errors), cmocka_unit_test(test_write_errors),
    cmocka_unit_test(test_contact_errors), cmocka_unit_test(test_results_readback), cmocka_unit_test(test_haptic_output),
  };
  // clang-format on

  return FcTestMain(argc, argv, tests, NULL, NULL);
}
