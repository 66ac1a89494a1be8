"""scripts/cluster/refine_study.slurm (doc/cluster.md; issue 29 item 3): the documented batch job
runs a refinement study outside Slurm as it would inside, mapping the job's variables onto
`study refine`.

1. Without SLURM_* variables: cantilever levels 0 and 1 (linear tetrahedra) into a folder given
   on the command line, study options after `--`: exit 0 and study.csv has the two levels,
   converged, with the refined mesh larger (more DoFs at level 1).
2. With SLURM_CPUS_PER_TASK=1, SLURM_SUBMIT_DIR (the project's root) and SLURM_TMPDIR (a fresh
   folder): the script finds bin/fcsim from the submit folder, passes -j 1 (its first line says
   so) and the study runs with TMPDIR = SLURM_TMPDIR, where nothing is left after it (Open MPI's
   per-process session folders are removed at exit).
3. A missing argument: exit non-zero with the usage line."""
import csv
import os
import subprocess
import tempfile

from fctest import ROOT, FCSIM, outdir, check, figure

SCRIPT = os.path.join(ROOT, "scripts", "cluster", "refine_study.slurm")
base = {k: v for k, v in os.environ.items() if not k.startswith("SLURM_")}


def study(out, env):
    p = subprocess.run(["bash", SCRIPT, "cases/cantilever.json", "0,1", out, "--", "--set", "bodies[0].mesh.order=1"],
                       cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    rows = []
    if os.path.exists(os.path.join(out, "study.csv")):
        with open(os.path.join(out, "study.csv")) as f:
            rows = list(csv.DictReader(f))
    return p, rows


out1 = outdir("cluster_script/local")
p, rows = study(out1, dict(base, FCSIM=FCSIM))
check(p.returncode == 0, "outside Slurm: exit 0 (%s)" % p.stderr.strip()[-300:])
check(len(rows) == 2 and all(r["converged"] == "1" for r in rows), "two levels, converged")
check(int(rows[1]["dofs"]) > int(rows[0]["dofs"]), "level 1 has more DoFs (%s > %s)" % (rows[1]["dofs"], rows[0]["dofs"]))

tmp = tempfile.mkdtemp(prefix="fcsim-slurmtmp-")
out2 = outdir("cluster_script/slurm")
env = dict(base, SLURM_CPUS_PER_TASK="1", SLURM_SUBMIT_DIR=ROOT, SLURM_TMPDIR=tmp, SLURM_JOB_ID="4242")
env.pop("FCSIM", None)
if os.environ.get("FCSIM_BIN"):
    env["FCSIM"] = FCSIM
p, rows2 = study(out2, env)
check(p.returncode == 0, "as a Slurm job: exit 0 (%s)" % p.stderr.strip()[-300:])
check("-j 1" in p.stdout.splitlines()[0], "-j from SLURM_CPUS_PER_TASK (%s)" % p.stdout.splitlines()[0])
check([r["dofs"] for r in rows2] == [r["dofs"] for r in rows], "the same levels as outside Slurm")
left = os.listdir(tmp)
check(left == [], "nothing left in SLURM_TMPDIR (%s)" % left)
os.rmdir(tmp)

p = subprocess.run(["bash", SCRIPT, "cases/cantilever.json"], cwd=ROOT, env=base, capture_output=True, text=True)
check(p.returncode != 0 and "usage" in p.stderr, "a missing LEVELS: non-zero exit, usage (%d)" % p.returncode)
figure("cluster script: refine study of 2 levels outside and inside a simulated Slurm job, same DoFs (%s)" % ", ".join(r["dofs"] for r in rows))
