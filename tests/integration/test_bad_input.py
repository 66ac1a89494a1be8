"""Bad input: malformed cases, meshes and command lines each exit with status 2 and print
exactly one line on stderr that names the file (and the JSON path where there is one); nothing
crashes, nothing is written, nothing of the user's is touched (README, "Exit status"). All run
with PETSc's -malloc_debug -malloc_dump (every PETSc-tracked allocation freed on the error
paths). `make memcheck` runs this file with FC_MEMCHECK=1: then every case also runs under
valgrind (memcheck errors and definite leaks from fcsim's own code fail it)."""
import json
import concurrent.futures
import os
import shutil
import subprocess
import tempfile
from fctest import ROOT, FCSIM, figure, check, fail

tmp = tempfile.mkdtemp(prefix="fcsim-bad-")
beam = os.path.join(ROOT, "meshes", "beam.geo")


def snapshot(path, skip=()):
    """Every file under path with its size and modification time."""
    out = {}
    for d, dirs, files in os.walk(path):
        dirs[:] = [x for x in dirs if os.path.join(d, x) not in skip]
        for f in files:
            q = os.path.join(d, f)
            st = os.lstat(q)
            out[os.path.relpath(q, path)] = (st.st_size, st.st_mtime_ns)
    return out


# A user's data that no bad input may touch: a folder of files in the scratch folder, and the
# repository's own inputs (cases, meshes, the bad-input corpus).
user = os.path.join(tmp, "user")
os.makedirs(user)
with open(os.path.join(user, "thesis.tex"), "w") as f:
    f.write("thesis\n")
inputs = [os.path.join(ROOT, d) for d in ("cases", "meshes", os.path.join("tests", "bad"))]
before = {d: snapshot(d) for d in inputs + [user]}


def write_case(name, body_extra="", mesh=None, probes="[]", top_extra=""):
    mesh = mesh or beam
    text = """{
 "name": "bad", "time": {"dt": 1, "steps": 1},
 "bodies": [{"name": "b", "mesh": {"file": "%s"},
   "material": {"model": "linear", "E": 1e6, "nu": 0.3, "density": 1000},
   "boundary": [{"group": "fixed", "fix": [true, true, true]}] %s}],
 "probes": %s %s
}""" % (mesh, body_extra, probes, top_extra)
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(text)
    return path


cases = []  # (label, argv, substrings that must appear in the single stderr line)

# 1. Malformed case files (tests/bad/case/MANIFEST: file|expected JSON path or -)
man = os.path.join(ROOT, "tests", "bad", "case", "MANIFEST")
for line in open(man):
    line = line.strip()
    if not line or line.startswith("#"):
        continue
    fname, path = line.split("|", 1)
    rel = os.path.join("tests", "bad", "case", fname)
    subs = [rel] + ([] if path == "-" else [path])
    cases.append(("case " + fname, ["info", rel], subs))

# 2. Malformed meshes (tests/bad/mesh/MANIFEST: file|expected substring), wrapped in a case.
man = os.path.join(ROOT, "tests", "bad", "mesh", "MANIFEST")
for line in open(man):
    line = line.strip()
    if not line or line.startswith("#"):
        continue
    fname, sub = line.split("|", 1)
    mesh = os.path.join(ROOT, "tests", "bad", "mesh", fname)
    c = write_case("mesh_" + fname + ".json", mesh=mesh)
    subs = [fname] + ([] if sub == "-" else [sub])
    cases.append(("mesh " + fname, ["run", c, "-o", os.path.join(tmp, "out_" + fname)], subs))

# 2b. Malformed FCLIB files (tests/bad/fclib/MANIFEST: file|expected substring).
man = os.path.join(ROOT, "tests", "bad", "fclib", "MANIFEST")
for line in open(man):
    line = line.strip()
    if not line or line.startswith("#"):
        continue
    fname, sub = line.split("|", 1)
    rel = os.path.join("tests", "bad", "fclib", fname)
    cases.append(("fclib " + fname, ["fclib", "solve", rel], [rel] + ([] if sub == "-" else [sub])))

# 3. Errors found when the case meets its mesh (exit 2, path in the case).
c = write_case("unknown_group.json", body_extra=', "loads": [{"group": "nosuch", "pressure": 1}]')
cases.append(("unknown load group", ["run", c, "-o", os.path.join(tmp, "o1")], ["unknown_group.json", "bodies[0].loads[0].group", "nosuch", "fixed"]))
c = write_case("unknown_bc_group.json", top_extra="")
with open(c) as f:
    txt = f.read().replace('"group": "fixed"', '"group": "clamp"')
with open(c, "w") as f:
    f.write(txt)
cases.append(("unknown boundary group", ["run", c, "-o", os.path.join(tmp, "o2")], ["unknown_bc_group.json", "bodies[0].boundary[0].group", "clamp"]))
c = write_case("unknown_probe_group.json", probes='[{"name": "r", "type": "reaction", "body": "b", "group": "nope"}]')
cases.append(("unknown probe group", ["run", c, "-o", os.path.join(tmp, "o3")], ["unknown_probe_group.json", "probes[0].group"]))
c = write_case("volume_load.json", body_extra=', "loads": [{"group": "beam", "pressure": 1}]')
cases.append(("load on a volume group", ["run", c, "-o", os.path.join(tmp, "o4")], ["volume_load.json", "bodies[0].loads[0].group"]))

# Many bodies (doc/case-format.md "Many bodies"): overlapping blocks at t = 0 are refused by `run`
# too, with the largest penetration (tests/bad/case/make_blocks.py: 0.1 m, blocks 1 and 2).
cases.append(("overlap at t = 0 (run)", ["run", os.path.join("tests", "bad", "case", "overlap_t0.json"), "-o", os.path.join(tmp, "o_overlap")],
              ["overlap_t0.json", "contacts[0]", "\"block_1\" and \"block_2\"", "largest penetration 0.1 m"]))

# compliance "lagged" on a case whose only body is rigid (a dynamic plate; a contact pair needs a
# deformable body anyway)
with open(os.path.join(tmp, "lagged_rigid.json"), "w") as f:
    json.dump({"name": "bad", "time": {"integrator": "backward_euler", "dt": 0.1, "steps": 1}, "compliance": {"type": "lagged"},
               "bodies": [{"name": "plate", "type": "rigid", "shape": {"type": "plane", "point": [0, 0, 1], "normal": [0, 0, -1]},
                           "motion": {"type": "dynamic", "mass": 1.0, "joint": {"type": "prismatic", "axis": [0, 0, 1]}}}]}, f)

# 3b. Rigid "mesh" shapes (doc/rigid.md): the shape's mesh and groups, named by the case.
slab = os.path.join(ROOT, "meshes", "slab.geo")


def write_rigid_mesh_case(name, shape_file=slab, group="top", target_surface=None):
    case = {"name": "bad", "time": {"dt": 0.01, "steps": 1},
            "bodies": [{"name": "b", "mesh": {"file": os.path.join(ROOT, "meshes", "cube.geo")},
                        "material": {"model": "linear", "E": 1e6, "nu": 0.3, "density": 1000}},
                       {"name": "floor", "type": "rigid", "shape": {"type": "mesh", "file": shape_file, "group": group}}],
            "contacts": [{"pair": ["b", "floor"]}]}
    if target_surface:
        case["contacts"][0]["target_surface"] = target_surface
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        json.dump(case, f)
    return path


c = write_rigid_mesh_case("rigid_mesh_group.json", group="nosuch")
cases.append(("rigid mesh unknown group", ["run", c, "-o", os.path.join(tmp, "o5")], ["rigid_mesh_group.json", "bodies[1].shape.group", "nosuch", "top"]))
c = write_rigid_mesh_case("rigid_mesh_volume_group.json", group="slab")
cases.append(("rigid mesh volume group", ["run", c, "-o", os.path.join(tmp, "o6")], ["rigid_mesh_volume_group.json", "bodies[1].shape.group", "slab"]))
c = write_rigid_mesh_case("rigid_mesh_surface_only.json", shape_file=os.path.join(ROOT, "tests", "bad", "mesh", "surface_only.msh"))
cases.append(("rigid mesh surface only", ["run", c, "-o", os.path.join(tmp, "o7")], ["rigid_mesh_surface_only.json", "bodies[1].shape.file", "surface_only.msh", "no tetrahedra", "volume mesh"]))
c = write_rigid_mesh_case("rigid_mesh_garbage.json", shape_file=os.path.join(ROOT, "tests", "bad", "mesh", "garbage.msh"))
cases.append(("rigid mesh unreadable", ["run", c, "-o", os.path.join(tmp, "o8")], ["rigid_mesh_garbage.json", "bodies[1].shape.file", "garbage.msh", "not a Gmsh MSH file"]))
c = write_rigid_mesh_case("rigid_mesh_target_surface.json", target_surface="nosuch")
cases.append(("rigid mesh unknown target_surface", ["run", c, "-o", os.path.join(tmp, "o9")], ["rigid_mesh_target_surface.json", "contacts[0].target_surface", "nosuch", "sides"]))
c = write_rigid_mesh_case("rigid_mesh_fast.json")
cases.append(("fast, rigid mesh target", ["run", c, "-o", os.path.join(tmp, "o9f"), "--set", "contact_step.linearization=\"fast\""], ["rigid_mesh_fast.json", "contact_step.linearization", "\"floor\"", "a mesh shape"]))
# the contactor's surface group and a second pass (both_passes) naming an unknown group
patch = os.path.join("cases", "contact_patch.json")
cases.append(("unknown contactor surface", ["run", patch, "-o", os.path.join(tmp, "o10"), "--set", "contacts[0].surface=\"nosuch\""], [patch, "contacts[0].surface", "nosuch", "zmin"]))
cases.append(("two-pass: unknown target surface", ["run", patch, "-o", os.path.join(tmp, "o11"), "--set", "contacts[0].both_passes=true", "--set", "contacts[0].target_surface=\"nosuch\""], [patch, "contacts[0].target_surface", "nosuch"]))
probe = os.path.join("cases", "haptic_probe.json")
cases.append(("haptic: a coupled tool needs backward Euler", ["run", probe, "-o", os.path.join(tmp, "o12"), "--set", "time.integrator=\"midpoint\""], [probe, "time.integrator", "coupled tool", "backward_euler"]))

# 4. Command lines.
good = os.path.join("cases", "cantilever.json")
cases += [
    ("no command", [], ["command line", "missing command", "--help"]),
    # root passes the folder's access test and is refused at the first file; a user at the access test
    ("-o in /proc (fails before meshing, also as root)", ["run", "cases/cantilever.json", "-o", "/proc/fcsim_out"],
     ["-o", "/proc/fcsim_out", "takes no new file" if os.geteuid() == 0 else "is not writable"]),
    ("unknown command", ["frobnicate", good], ["command line", "frobnicate"]),
    ("unknown long option", ["run", good, "--frob"], ["command line", "--frob"]),
    ("missing case", ["run"], ["command line", "CASE"]),
    ("two case files", ["run", good, good], ["command line", "unexpected"]),
    ("--set without value", ["run", good, "--set"], ["command line", "--set"]),
    ("-o without dir", ["run", good, "-o"], ["command line", "-o"]),
    ("case file missing", ["run", "cases/nosuch.json"], ["cases/nosuch.json"]),
    ("--set malformed", ["info", good, "--set", "time.dt"], [good, "time.dt"]),
    ("--set unknown key", ["info", good, "--set", "time.dtt=1"], [good, "time.dtt"]),
    ("--set wrong type", ["info", good, "--set", "time.dt=\"fast\""], [good, "time.dt"]),
    ("--set non-physical", ["info", good, "--set", "bodies[0].material.nu=0.5"], [good, "bodies[0].material.nu"]),
    ("--set index out of range", ["info", good, "--set", "bodies[3].material.E=1"], [good, "bodies[3]"]),
    ("fclib without subcommand", ["fclib", "tests/bad/fclib/baseline_local.hdf5"], ["command line", "fclib solve"]),
    ("fclib bad --tol", ["fclib", "solve", "tests/bad/fclib/baseline_local.hdf5", "--tol", "-1"], ["command line", "--tol"]),
    ("fclib bad --max-it", ["fclib", "solve", "tests/bad/fclib/baseline_local.hdf5", "--max-it", "x"], ["command line", "--max-it"]),
    ("fclib unknown solver", ["fclib", "solve", "tests/bad/fclib/baseline_local.hdf5", "--solver", "nosuch"], ["nosuch", "nsgs"]),
    ("fclib missing file", ["fclib", "solve", "tests/bad/fclib/nosuch.hdf5"], ["tests/bad/fclib/nosuch.hdf5"]),
    ("fclib compare unknown solver", ["fclib", "compare", "tests/bad/fclib/baseline_local.hdf5", "--solvers", "nsgs,nosuch"], ["nosuch", "nsgs"]),
    ("fclib compare bad format", ["fclib", "compare", "tests/bad/fclib/baseline_local.hdf5", "--format", "xml"], ["--format", "xml"]),
    ("fclib compare bad option spec", ["fclib", "compare", "tests/bad/fclib/baseline_local.hdf5", "--solvers", "nsgs:tol"], ["--solvers", "nsgs:tol"]),
    ("fclib lemke k below 3", ["fclib", "solve", "tests/bad/fclib/baseline_local.hdf5", "--solver", "lemke", "-fc_contact_solver_lemke_k", "1"], ["options", "-fc_contact_solver_lemke_k", ">= 3"]),
    ("fclib nsgs error_every 0", ["fclib", "solve", "tests/bad/fclib/baseline_local.hdf5", "-fc_contact_solver_nsgs_error_every", "0"], ["options", "-fc_contact_solver_nsgs_error_every"]),
    ("fclib nsgs omega 2", ["fclib", "solve", "tests/bad/fclib/baseline_local.hdf5", "-fc_contact_solver_nsgs_omega", "2"], ["options", "-fc_contact_solver_nsgs_omega", "(0, 2)"]),
    ("fclib nsgs unknown order", ["fclib", "solve", "tests/bad/fclib/baseline_local.hdf5", "-fc_contact_solver_nsgs_order", "sideways"], ["options", "-fc_contact_solver_nsgs_order", "sideways"]),
    ("fclib compare lemke:k=2", ["fclib", "compare", "tests/bad/fclib/baseline_local.hdf5", "--solvers", "nsgs,lemke:k=2"], ["options", "lemke_k", ">= 3"]),
    # a W that is not symmetric: valid for nsgs (tests/bad/fclib/generate.py), refused by sap, whose cost needs W = W^T
    ("fclib sap non-symmetric W", ["fclib", "solve", "tests/bad/fclib/local_W_not_symmetric.hdf5", "--solver", "sap"], ["tests/bad/fclib/local_W_not_symmetric.hdf5", "/fclib_local/W", "not symmetric", "(0, 1)", "sap"]),
    ("fclib solve with --solvers", ["fclib", "solve", "tests/bad/fclib/baseline_local.hdf5", "--solvers", "nsgs"], ["command line", "--solvers"]),
    # issue 25: the measured asymmetry beyond a producer's round-off; --accept-regularized with a solver that is not regularized; an unknown auto option
    ("fclib sap W beyond round-off", ["fclib", "solve", "tests/bad/fclib/local_W_not_symmetric.hdf5", "--solver", "sap"], ["/fclib_local/W", "0.16 of max|W|", "beyond the 0.001 of a producer's round-off"]),
    ("fclib --accept-regularized nsgs", ["fclib", "solve", "tests/bad/fclib/baseline_local.hdf5", "--accept-regularized"], ["command line", "--accept-regularized", "nsgs", "not a regularized solver"]),
    ("fclib compare --accept-regularized", ["fclib", "compare", "tests/bad/fclib/baseline_local.hdf5", "--solvers", "nsgs,newton", "--accept-regularized"], ["command line", "--accept-regularized", "not a regularized solver"]),
    ("fclib auto unknown option", ["fclib", "solve", "tests/bad/fclib/baseline_local.hdf5", "--solver", "auto", "-fc_contact_solver_auto_frist", "newton"], ["options", "-fc_contact_solver_auto_frist", "unknown auto option"]),
    ("fclib compare auto:frist", ["fclib", "compare", "tests/bad/fclib/baseline_local.hdf5", "--solvers", "nsgs,auto:frist=newton"], ["options", "-fc_contact_solver_auto_frist", "unknown auto option"]),
    ("fclib auto bad first", ["fclib", "solve", "tests/bad/fclib/baseline_local.hdf5", "--solver", "auto", "-fc_contact_solver_auto_first", "sideways"], ["options", "-fc_contact_solver_auto_first", "sideways"]),
    ("fclib newton bad lu", ["fclib", "solve", "tests/bad/fclib/baseline_local.hdf5", "--solver", "newton", "-fc_contact_solver_newton_lu", "cholesky"], ["options", "-fc_contact_solver_newton_lu", "cholesky"]),
    ("fclib uzawa bad rho rule", ["fclib", "solve", "tests/bad/fclib/baseline_local.hdf5", "--solver", "uzawa_global", "-fc_contact_solver_uzawa_rho_rule", "magic"], ["-fc_contact_solver_uzawa_rho_rule", "magic"]),
    ("case accept_regularized < 0", ["info", "cases/block_on_floor.json", "--set", "contact_solver.accept_regularized=-1"], ["cases/block_on_floor.json", "contact_solver.accept_regularized"]),
    # compliance "lagged" (src/compliance/lagged.c): its keys, and a case with nothing to factor
    ("lagged refresh < 1", ["info", "cases/block_on_floor.json", "--set", "compliance.type=\"lagged\"", "--set", "compliance.refresh=0"], ["cases/block_on_floor.json", "compliance.refresh", ">= 1"]),
    ("lagged refresh_drift < 1", ["info", "cases/block_on_floor.json", "--set", "compliance.type=\"lagged\"", "--set", "compliance.refresh_drift=-5"], ["cases/block_on_floor.json", "compliance.refresh_drift", ">= 1"]),
    ("lagged refresh_drift with exact", ["info", "cases/block_on_floor.json", "--set", "compliance.refresh_drift=50"], ["cases/block_on_floor.json", "compliance.refresh_drift", "only with compliance type \"lagged\""]),
    ("lagged w_cache with exact", ["info", "cases/block_on_floor.json", "--set", "compliance.w_cache=true"], ["cases/block_on_floor.json", "compliance.w_cache", "only with compliance type \"lagged\""]),
    ("lagged unknown rotation", ["info", "cases/block_on_floor.json", "--set", "compliance.type=\"lagged\"", "--set", "compliance.rotation=\"quaternion\""], ["cases/block_on_floor.json", "compliance.rotation", "shape_matching"]),
    ("lagged delay without async", ["info", "cases/block_on_floor.json", "--set", "compliance.type=\"lagged\"", "--set", "compliance.delay=2"], ["cases/block_on_floor.json", "compliance.delay", "\"async\": true"]),
    ("lagged key with exact", ["info", "cases/block_on_floor.json", "--set", "compliance.refresh=3"], ["cases/block_on_floor.json", "compliance.refresh", "only with compliance type \"lagged\""]),
    ("lagged on rigid bodies only", ["run", os.path.join(tmp, "lagged_rigid.json"), "-o", os.path.join(tmp, "olag1")], ["lagged_rigid.json", "compliance.type", "every body here is rigid"]),
    # the Uzawa step rho of a run (talbi2008 §3.3.3): rho_factor <= 0 or rho < 0 (rho 0 means automatic)
    ("run uzawa_local rho_factor 0", ["run", "cases/hapco_bench1.json", "-o", os.path.join(tmp, "ohap1"), "--set", "contact_solver.type=\"uzawa_local\"", "-fc_contact_solver_uzawa_rho_factor", "0"], ["options", "-fc_contact_solver_uzawa_rho_factor", "> 0"]),
    ("run uzawa_global rho < 0", ["run", "cases/hapco_bench2.json", "-o", os.path.join(tmp, "ohap2"), "--set", "contact_solver.type=\"uzawa_global\"", "-fc_contact_solver_uzawa_rho", "-0.5"], ["options", "-fc_contact_solver_uzawa_rho", ">= 0"]),
    # issue 31 item 7: a PETSc option's value that is not of its kind, or past PetscInt, is bad input
    # (exit 2, one line naming the option), on the command line and from a case's petsc object;
    # an -options_file PETSc cannot read is one line naming the file and the line
    ("option value not an integer", ["fclib", "solve", "tests/bad/fclib/baseline_local.hdf5", "-fc_contact_solver_max_it", "x"], ["options", "-fc_contact_solver_max_it", "'x'", "integer"]),
    ("option value past PetscInt", ["fclib", "solve", "tests/bad/fclib/baseline_local.hdf5", "-fc_contact_solver_max_it", "4294967297"], ["options", "-fc_contact_solver_max_it", "[0, 2147483647]", "4294967297"]),
    ("PETSc option value not a number", ["info", good, "-ksp_type", "cg", "-ksp_rtol", "abc"], ["options", "-ksp_rtol", "'abc' is not a number"]),
    ("case petsc value not a number", ["info", good, "--set", "petsc.ksp_type=\"cg\"", "--set", "petsc.ksp_rtol=\"abc\""], [good, "petsc.ksp_rtol", "-ksp_rtol 'abc' is not a number"]),
    ("case petsc value not an integer", ["info", "cases/block_on_floor.json", "--set", "petsc.fc_contact_solver_max_it=\"x\""], ["cases/block_on_floor.json", "petsc.fc_contact_solver_max_it", "'x'"]),
    # a type PETSc does not have (solver, preconditioner, factorization package, ordering): exit 2,
    # the option named (and the case's JSON path when the case set it), not a failure of the run
    ("PETSc unknown KSP type", ["run", good, "-o", os.path.join(tmp, "otype1"), "-ksp_type", "cgg"], ["options", "-ksp_type", "'cgg'", "not a type PETSc has"]),
    ("PETSc unknown PC type", ["run", good, "-o", os.path.join(tmp, "otype2"), "-pc_type", "jacobbi"], ["options", "-pc_type", "'jacobbi'"]),
    ("PETSc unknown factor package", ["run", good, "-o", os.path.join(tmp, "otype3"), "-pc_factor_mat_solver_type", "mumpss"], ["options", "-pc_factor_mat_solver_type", "'mumpss'"]),
    ("PETSc unknown ordering", ["run", good, "-o", os.path.join(tmp, "otype4"), "-pc_factor_mat_ordering_type", "xx"], ["options", "-pc_factor_mat_ordering_type", "'xx'"]),
    ("case petsc unknown KSP type", ["run", good, "-o", os.path.join(tmp, "otype5"), "--set", "petsc.ksp_type=\"cgg\""], [good, "petsc.ksp_type", "-ksp_type 'cgg'", "not a type PETSc has"]),
    ("PETSc option not true or false", ["fclib", "solve", "tests/bad/fclib/baseline_local.hdf5", "-fc_contact_solver_warm_start", "maybe"], ["options", "-fc_contact_solver_warm_start", "'maybe' is not true or false"]),
    ("-options_file /etc/passwd", ["run", good, "-options_file", "/etc/passwd"], ["command line", "-options_file", "/etc/passwd line 1"]),
    ("-options_file missing", ["fclib", "solve", "tests/bad/fclib/baseline_local.hdf5", "-options_file", "/nonexistent/fcsim.opts"], ["command line", "-options_file", "/nonexistent/fcsim.opts"]),
    ("study without subcommand", ["study", good], ["command line", "study compare"]),
    ("study compare duplicate solver", ["study", "compare", "cases/block_on_floor.json", "--solvers", "nsgs,nsgs"], ["--solvers", "twice"]),
    ("study compare empty solver list", ["study", "compare", "cases/block_on_floor.json", "--solvers", ",,"], ["--solvers", "empty solver name"]),
    ("study compare trailing comma", ["study", "compare", "cases/block_on_floor.json", "--solvers", "nsgs,"], ["--solvers", "empty solver name"]),
    ("study compare unknown solver", ["study", "compare", "cases/block_on_floor.json", "--solvers", "nosuch", "-o", os.path.join(tmp, "ocmp")], ["nosuch", "nsgs"]),
    # the case's "petsc" object reaches the runs of a study compare (a bad solver option in it is refused)
    ("study compare case petsc option", ["study", "compare", "cases/block_on_floor.json", "--solvers", "nsgs", "--set", "petsc.fc_contact_solver_nsgs_error_every=0", "-o", os.path.join(tmp, "ocmp2"), "-q"], ["cases/block_on_floor.json", "petsc.fc_contact_solver_nsgs_error_every", "-fc_contact_solver_nsgs_error_every"]),
    ("study compare without contact", ["study", "compare", good, "--solvers", "nsgs"], [good, "contacts"]),
    # study --mpiexec (issue 29 item 3): an empty launcher, one that is not in PATH
    ("study refine empty --mpiexec", ["study", "refine", good, "--levels", "0", "--mpiexec", " ", "-o", os.path.join(tmp, "ompx1")], ["--mpiexec", "empty"]),
    ("study compare unknown --mpiexec", ["study", "compare", "cases/block_on_floor.json", "--solvers", "nsgs", "--mpiexec", "no-such-launcher -n 2", "-o", os.path.join(tmp, "ompx2")], ["--mpiexec", "no-such-launcher", "not an executable in PATH"]),
    # contact_step (issue 28, doc/contact.md "Linearization")
    ("contact_step max_it 0", ["info", "cases/block_on_floor.json", "--set", "contact_step.max_it=0"], ["cases/block_on_floor.json", "contact_step.max_it", ">= 1"]),
    ("contact_step tol < 0", ["info", "cases/block_on_floor.json", "--set", "contact_step.tol=-1e-6"], ["cases/block_on_floor.json", "contact_step.tol", ">= 0"]),
    ("contact_step unknown scheme", ["info", "cases/block_on_floor.json", "--set", "contact_step.linearization=\"newton\""], ["cases/block_on_floor.json", "contact_step.linearization", "recursive, once, fast"]),
    ("fast with compliance lagged", ["run", "cases/block_on_floor.json", "-o", os.path.join(tmp, "ofastlag"), "--set", "contact_step.linearization=\"fast\"", "--set", "compliance.type=\"lagged\""], ["cases/block_on_floor.json", "contact_step.linearization", "\"lagged\""]),
    ("fast, deformable target", ["run", "cases/two_blocks.json", "-o", os.path.join(tmp, "ofast"), "--set", "contact_step.linearization=\"fast\""], ["cases/two_blocks.json", "contact_step.linearization", "\"base\"", "degrees of freedom"]),
    ("unknown W storage", ["run", "cases/block_on_floor.json", "-o", os.path.join(tmp, "ows"), "-fc_contact_w_storage", "banded"], ["options", "-fc_contact_w_storage", "banded", "auto, dense, sparse"]),
    ("fclib compare bad file", ["fclib", "compare", "tests/bad/fclib/baseline_local.hdf5", "tests/bad/fclib/empty.hdf5"], ["tests/bad/fclib/empty.hdf5"]),
    # the run's verdict (issue 13 item 3): its probe columns exist, m g H > 0; checked before anything is written
    ("verdict drop not a column", ["run", "cases/masonry_arch.json", "-o", os.path.join(tmp, "overd1"), "--set", "verdict.drop=keystone"], ["cases/masonry_arch.json", "verdict.drop", "no probe column \"keystone\""]),
    ("verdict energy not a column", ["run", "cases/masonry_arch.json", "-o", os.path.join(tmp, "overd2"), "--set", "verdict.energy=ek"], ["cases/masonry_arch.json", "verdict.energy", "\"ek\""]),
    ("verdict without gravity", ["run", "cases/masonry_arch.json", "-o", os.path.join(tmp, "overd3"), "--set", "gravity=[0,0,0]"], ["cases/masonry_arch.json", "verdict", "m g H is zero"]),
    ("verdict rise 0", ["info", "cases/masonry_arch.json", "--set", "verdict.rise=0"], ["cases/masonry_arch.json", "verdict.rise"]),
]

n_ok = 0
def command(argv):
    # PETSc's leak check right after the command word (so it cannot be taken as a --set value)
    cmd = [FCSIM] + argv[:1] + (["-malloc_debug", "-malloc_dump"] if argv and argv[0] in ("run", "info") else []) + argv[1:]
    if argv[:2] in (["fclib", "solve"], ["study", "compare"]):
        cmd += ["-malloc_debug", "-malloc_dump"]
    return cmd


# The cases are independent processes (each its own output name): two at a time, as the machine
# has two cores; the results are checked in the order of the list.
with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
    done = list(pool.map(lambda c: subprocess.run(command(c[1]), cwd=ROOT, capture_output=True, text=True, timeout=120), cases))
for (label, argv, subs), p in zip(cases, done):
    cmd = command(argv)
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    err = None
    if p.returncode != 2:
        err = "exit %d (expected 2)" % p.returncode
    elif argv and argv[0] != "info" and len(lines) != 1:
        err = "%d stderr lines (expected 1)" % len(lines)
    elif argv and argv[0] == "info" and len(lines) != 1:
        err = "%d stderr lines (expected 1)" % len(lines)
    elif not argv and not lines:
        err = "no message"
    else:
        for s in subs:
            if s not in lines[0]:
                err = "message lacks %r" % s
    if err is None and p.stdout.strip() and "Total space" in p.stdout:
        err = "PETSc reports unfreed memory"
    if err is not None:
        print("FAIL %-28s %s\n   cmd: %s\n   stderr: %s\n   stdout: %s" % (label, err, " ".join(cmd), p.stderr.strip()[:800], p.stdout.strip()[:400]))
        fail("bad input %s" % label)
    print("ok   %-28s %s" % (label, lines[0] if lines else ""))
    n_ok += 1

# Nothing was written for the failed runs, nothing of the user's touched.
left = [x for x in os.listdir(tmp) if not x.endswith(".json") and x != "user"]
check(not left, "nothing left behind by the failed commands (%s)" % left)
check(all(snapshot(d) == before[d] for d in before), "the user's files and the repository's inputs are untouched (%d files)" % sum(len(v) for v in before.values()))

# 5. `make memcheck` (FC_MEMCHECK=1): every case under valgrind: no memory errors, no definite
# leaks.
vg = shutil.which("valgrind") if os.environ.get("FC_MEMCHECK") else None
nvg = 0
if vg:
    supp = os.path.join(ROOT, "tests", "valgrind.supp")
    sample = [c for c in cases if c[1] and c[1][0] in ("run", "info", "fclib", "study")]

    def under_valgrind(c):
        cmd = [vg, "-q", "--error-exitcode=9", "--leak-check=full", "--errors-for-leak-kinds=definite",
               "--suppressions=" + supp, "--num-callers=60", FCSIM] + c[1]
        return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        vdone = list(pool.map(under_valgrind, sample))
    vbad = []  # every case is reported, not only the first that fails
    for (label, argv, subs), p in zip(sample, vdone):
        if p.returncode != 2:
            print(p.stderr[-4000:])
            print("FAIL valgrind %s: exit %d" % (label, p.returncode))
            vbad.append(label)
            continue
        nvg += 1
        print("ok   valgrind %s" % label)
    if vbad:
        fail("valgrind failed on %d case(s): %s" % (len(vbad), ", ".join(vbad)))
figure("bad input: %d malformed cases/meshes/command lines exit 2 with one line%s" % (n_ok, "; %d of them clean under valgrind" % nvg if vg else ""))
shutil.rmtree(tmp)
