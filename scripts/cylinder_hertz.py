#!/usr/bin/python3
"""The rubber cylinder press at small compression against the 2-D Hertz line contact (issue 30
item 3), one command:

    /usr/bin/python3 scripts/cylinder_hertz.py [--levels 0,1,2] [--at 0.002,0.005,0.01]
        [--fcsim bin/fcsim] [-o results/cylinder_hertz]

cases/cylinder_press.json as it is (material, plates, contact solver), on the mesh
meshes/cylinder_hertz.geo (cylinder.geo's quarter, graded towards the contact point so that the
contact half-width b is resolved: see the .geo), at refinement levels --levels, the top plate
moving down to half the largest compression of --at in increments of 0.001 m of total
compression (every compression of --at must be a multiple of it: the force is read at a step, not
interpolated). Per level and compression delta (total: both plates' travel, the case's probe
`compression`), the force per unit length F (probe `force_per_length`) against Johnson (1985),
*Contact Mechanics*, §5.6, eq. (5.36), the approach of two rigid plates squeezing an elastic
cylinder of radius R by a line load P per unit length,

    delta = (4 P / (pi E*)) (ln(4 R / b) - 1/2),     b = sqrt(4 P R / (pi E*))  (eq. 4.43),

with E* = E / (1 - nu^2) (rigid plates) and the small-strain moduli of the case's Mooney-Rivlin
material: shear modulus mu0 = 2 (C10 + C01), bulk modulus kappa, E = 9 kappa mu0 / (3 kappa + mu0),
nu = (3 kappa - 2 mu0) / (2 (3 kappa + mu0)). The formula is the small-load limit (b << R): the
relative error err = F / P - 1 should fall as delta -> 0 (the trend the table shows), down to
the discretization's error. R is read from the .geo (its `R = ...;` line), the material from the
resolved case (`fcsim info`): the numbers come from the definitions that build the model.

Writes DIR/hertz.csv (level, DoFs, delta, F, P, b, err) and DIR/hertz.md; prints the table. Exit 2
with one line on bad arguments, 1 when a run fails."""
import argparse
import csv
import json
import math
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASE = os.path.join(ROOT, "cases", "cylinder_press.json")
GEO = os.path.join(ROOT, "meshes", "cylinder_hertz.geo")
STEP = 0.001  # total compression per increment [m]


def die(msg):
    print("cylinder_hertz.py: " + msg, file=sys.stderr)
    sys.exit(2)


def geo_radius(path):
    with open(path) as f:
        m = re.search(r"^R\s*=\s*([0-9.eE+-]+)\s*;", f.read(), re.M)
    if not m:
        raise RuntimeError("%s: no 'R = ...;' line" % path)
    return float(m.group(1))


def resolved_material(fcsim):
    p = subprocess.run([fcsim, "info", CASE], capture_output=True, text=True, cwd=ROOT)
    if p.returncode:
        raise RuntimeError("fcsim info: " + p.stderr.strip())
    text = p.stdout[:p.stdout.rindex("}") + 1]
    return json.loads(text)["bodies"][0]["material"]


def small_strain_moduli(mat):
    mu0 = 2.0 * (mat["C10"] + mat["C01"])
    k = mat["kappa"]
    E = 9.0 * k * mu0 / (3.0 * k + mu0)
    nu = (3.0 * k - 2.0 * mu0) / (2.0 * (3.0 * k + mu0))
    return E, nu


def hertz_load(delta, R, Es):
    """P with delta(P) = delta (Johnson eq. 5.36): delta(P) is increasing for b < 4R e^-1.5, so
    bisection on P in (0, P_hi]."""
    def d(P):
        b = math.sqrt(4.0 * P * R / (math.pi * Es))
        return 4.0 * P / (math.pi * Es) * (math.log(4.0 * R / b) - 0.5), b

    lo, hi = 0.0, 1.0
    while d(hi)[0] < delta:
        hi *= 2.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if d(mid)[0] < delta:
            lo = mid
        else:
            hi = mid
    P = 0.5 * (lo + hi)
    return P, d(P)[1]


def run_level(fcsim, level, dmax, out):
    steps = int(round(dmax / STEP))
    argv = [fcsim, "run", CASE, "--set", 'bodies[0].mesh.file="../meshes/cylinder_hertz.geo"', "--set", "bodies[0].mesh.refine=%d" % level,
            "--set", "bodies[1].motion.displacement=[0,%.17g,0]" % (-dmax / 2), "--set", "time.dt=%.17g" % (1.0 / steps),
            "--set", "output.vtk=false", "--set", "output.every=1000", "-q", "-o", out, "--overwrite"]
    p = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True)
    if p.returncode:
        raise RuntimeError("level %d: fcsim run exited %d: %s" % (level, p.returncode, p.stderr.strip().splitlines()[-1:]))
    with open(os.path.join(out, "probes.csv")) as f:
        rows = list(csv.DictReader(f))
    info = subprocess.run([fcsim, "info", CASE, "--set", 'bodies[0].mesh.file="../meshes/cylinder_hertz.geo"', "--set", "bodies[0].mesh.refine=%d" % level],
                          capture_output=True, text=True, cwd=ROOT).stdout
    m = re.search(r"(\d+) DoFs", info)
    return rows, int(m.group(1)) if m else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--levels", default="0,1,2")
    ap.add_argument("--at", default="0.002,0.005,0.01", help="total compressions [m], multiples of 0.001")
    ap.add_argument("--fcsim", default=os.path.join(ROOT, "bin", "fcsim"))
    ap.add_argument("-o", default=os.path.join(ROOT, "results", "cylinder_hertz"))
    a = ap.parse_args()
    try:
        levels = [int(x) for x in a.levels.split(",")]
        at = [float(x) for x in a.at.split(",")]
    except ValueError:
        die("--levels / --at: a comma-separated list of numbers expected")
    if not levels or min(levels) < 0 or max(levels) > 4:
        die("--levels: levels between 0 and 4 expected, got '%s'" % a.levels)
    if not at or min(at) <= 0 or any(abs(x / STEP - round(x / STEP)) > 1e-9 for x in at):
        die("--at: positive multiples of %g m expected, got '%s'" % (STEP, a.at))
    R = geo_radius(GEO)
    E, nu = small_strain_moduli(resolved_material(a.fcsim))
    Es = E / (1.0 - nu * nu)
    os.makedirs(a.o, exist_ok=True)
    table = []
    for L in levels:
        rows, dofs = run_level(a.fcsim, L, max(at), os.path.join(a.o, "level_%d" % L))
        for d in at:
            r = [x for x in rows if abs(float(x["compression"]) - d) < 1e-9 * max(1.0, d) + 1e-12]
            if not r:
                raise RuntimeError("level %d: no step at compression %g" % (L, d))
            F = float(r[0]["force_per_length"])
            P, b = hertz_load(d, R, Es)
            table.append((L, dofs, d, F, P, b, F / P - 1.0))
    with open(os.path.join(a.o, "hertz.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["# R=%.17g E=%.17g nu=%.17g Estar=%.17g" % (R, E, nu, Es)])
        w.writerow(["level", "dofs", "compression", "force_per_length", "hertz", "half_width", "rel_error"])
        for t in table:
            w.writerow([t[0], t[1], "%g" % t[2], "%.9g" % t[3], "%.9g" % t[4], "%.6g" % t[5], "%.6g" % t[6]])
    lines = ["R = %g m, E = %.6g Pa, nu = %.6f, E* = %.6g Pa" % (R, E, nu, Es),
             "| level | DoFs | compression [m] | fcsim F [N/m] | Hertz P [N/m] | half-width b [mm] | error |", "|---|---|---|---|---|---|---|"]
    for t in table:
        lines.append("| %d | %d | %g | %.5g | %.5g | %.2f | %+.2f %% |" % (t[0], t[1], t[2], t[3], t[4], 1e3 * t[5], 100 * t[6]))
    with open(os.path.join(a.o, "hertz.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except RuntimeError as e:
        print("cylinder_hertz.py: " + str(e), file=sys.stderr)
        sys.exit(1)
