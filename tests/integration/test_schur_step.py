"""Compliance "schur" (han2023 Sec. VI-A/B, src/model/schur.h): the bodies factor A through its
Schur complement onto the participating DoFs (contactor points, target surface nodes) and the
contact step forms W = J A_hat^-1 J^T from it; the free solve and the correction recover the other
DoFs by eq. 15 with the same factorization. Mathematically this is the same step as compliance
"exact" (W from multi-right-hand-side solves with the full factorization), so every probe of the
run must agree to 1e-8 relative (the issue's acceptance for "a step through participating DoFs
equals the full-DoF step"); the two factorizations differ only by round-off (measured ~1e-12).
Cases: block on floor (deformable on a rigid plane, backward Euler), contact patch (two
deformable bodies: participating DoFs on the contactor and on the target), Hertz level 0
(quasi-static, ~280 contacts)."""
import os
from fctest import run, outdir, probes, stats, figure, check

cases = [
    ("block_on_floor", ["--set", "time.t_end=0.2"]),
    ("contact_patch", []),
    ("hertz", []),
]
for name, extra in cases:
    res = {}
    for comp in ("exact", "schur"):
        d = outdir("schur_step/%s_%s" % (name, comp))
        run(["run", "cases/%s.json" % name, "-o", d, "--set", "compliance.type=%s" % comp, "--set", "output.vtk=false"] + extra, timeout=600)
        res[comp] = (probes(d), stats(d))
    pe, pr = res["exact"][0], res["schur"][0]
    worst = 0.0
    # a vector probe's components are compared relative to the largest of its three (a
    # component that is zero up to round-off, e.g. the vertical drift of a resting block, 7e-13 m,
    # has no relative accuracy of its own)
    group = lambda c: c[:-2] if c[-2:] in ("_x", "_y", "_z") else c
    gmax = {}
    for col in pe:
        gmax[group(col)] = max(gmax.get(group(col), 0.0), max(abs(v) for v in pe[col]))
    for col in pe:
        if col in ("step", "time"):
            continue
        scale = max(gmax[group(col)], 1e-300)
        diff = max(abs(a - b) for a, b in zip(pe[col], pr[col]))
        worst = max(worst, diff / scale)
    we = sum(res["exact"][1]["w_time"])
    ws = sum(res["schur"][1]["w_time"])
    ok = all(c == 1 for c in res["schur"][1]["converged"])
    figure("compliance schur vs exact, %s: max probe difference %.2e (relative to the probe's max), W time %.3f s vs %.3f s (exact), every step converged: %s" % (name, worst, ws, we, ok))
    check(ok and worst <= 1e-8, "%s: the Schur-complement step equals the full-DoF step (1e-8)" % name)
