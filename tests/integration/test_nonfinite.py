"""Non-finite results fail the run (issue 17, item 7b).

A case whose magnitudes overflow double precision while the Newton test still passes (a load of
1e152 N on a 1 Pa beam, a rigid body launched at 1e160 m/s, a probe scaled by 1e308) used to end
"successfully" with inf in probes.csv and run.h5. The step now checks its result (displacements,
velocities, reactions, contact forces, energies, probe values): such a run exits 1 with one
message naming the step, its time and what is not finite, and leaves nothing under the -o name.
Absurd material values (E = 1e-300 Pa) are refused before the run, as bad input (exit 2)."""
import json
import os
import shutil
import tempfile
from fctest import ROOT, run, figure, check

tmp = tempfile.mkdtemp(prefix="fcsim-nonfinite-")
cant = os.path.join("cases", "cantilever.json")


def nothing_left(out):
    """No run directory and no DIR.partial-<pid> left behind."""
    base = os.path.basename(out)
    return not os.path.exists(out) and not [x for x in os.listdir(os.path.dirname(out)) if x.startswith(base + ".partial")]


def fails(label, args, out, needles):
    """fcsim run ... -o out: exit 1; the message, once on stderr, names every needle; nothing left."""
    p = run(["run"] + args + ["-o", out], expect=None)
    lines = [l for l in p.stderr.splitlines() if "not finite" in l]
    check(p.returncode == 1, "%s: exit 1 (got %d; stderr: %s)" % (label, p.returncode, p.stderr.strip()[-300:]))
    check(len(lines) == 1, "%s: one message saying the result is not finite (got %d)" % (label, len(lines)))
    for n in needles:
        check(n in lines[0], "%s: the message names %r: %s" % (label, n, lines[0]))
    check(nothing_left(out), "%s: nothing left under %s" % (label, out))
    figure("%s: %s" % (label, lines[0].strip()))


# 1. strain of a 1 Pa beam under 1e152 N: displacements of 1e157 m, energies overflow
fails("beam under 1e152 N", [cant, "--set", "bodies[0].material.E=1", "--set", "bodies[0].loads[0].force=[0, 0, -1e152]"],
      os.path.join(tmp, "beam"), ["Step 1 (t = 0.25)", "body \"beam\"", "energy"])

# 2. a probe scaled beyond double precision (the state itself is finite)
fails("probe scaled by 1e308", [cant, "--set", "probes[1].scale=1e308"],
      os.path.join(tmp, "scaled"), ["Step 1 (t = 0.25)", "probe", "support"])

# 3. a rigid body launched at 1e160 m/s: its kinetic energy is inf after the first step
fast = {"name": "rigid_fast", "time": {"integrator": "backward_euler", "dt": 0.1, "steps": 2},
        "bodies": [{"name": "plate", "type": "rigid",
                    "shape": {"type": "plane", "point": [0, 0, 1], "normal": [0, 0, -1]},
                    "motion": {"type": "dynamic", "mass": 1, "joint": {"type": "prismatic", "axis": [0, 0, 1]},
                               "initial_velocity": [0, 0, 1e160]}}],
        "probes": [{"name": "ke", "type": "kinetic_energy", "body": "plate"}],
        "output": {"vtk": False}}
fc = os.path.join(tmp, "rigid_fast.json")
with open(fc, "w") as f:
    json.dump(fast, f)
fails("rigid body at 1e160 m/s", [fc], os.path.join(tmp, "fast"), ["Step 1 (t = 0.1)", "kinetic energy", "\"plate\""])

# 4. the E = 1e-300 Pa (strain energy inf at step 3 before): bad input, nothing run
out = os.path.join(tmp, "tiny_E")
p = run(["run", cant, "--set", "bodies[0].material.E=1e-300", "-o", out], expect=None)
lines = [l for l in p.stderr.splitlines() if l.strip()]
check(p.returncode == 2, "E = 1e-300: exit 2 (got %d)" % p.returncode)
check(len(lines) == 1 and cant in lines[0] and "bodies[0].material.E" in lines[0], "E = 1e-300: one line naming the file and bodies[0].material.E: %s" % lines)
check(nothing_left(out), "E = 1e-300: nothing written")

# 5. the same case with sane values still runs (the check does not reject finite results)
out = os.path.join(tmp, "sane")
run(["run", cant, "-o", out])
check(os.path.isfile(os.path.join(out, "probes.csv")), "the unmodified cantilever runs and writes its outputs")
shutil.rmtree(tmp)
