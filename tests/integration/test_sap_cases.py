"""The SAP contact solver (doc/sap.md) in the time stepper, against nsgs on the same cases.

SAP solves the convex approximation of Coulomb friction with a regularization (near-rigid
R_n = beta^2/(4 pi^2) w, R_t = sigma w, beta = 1, sigma = 1e-3 by default), so its answers
differ from nsgs's by the regularization, not by round-off:
1. normal contact force within 0.5 % of nsgs's (the issue's bound; block on floor under gravity,
   backward Euler, mu = 0.5 but at rest, and frictionless Hertz level 0, quasi-static);
2. stiction: a block on an incline with tan(theta) = 0.4 < mu = 0.6 stays put: after the elastic
   settling its bottom face moves less than 1e-6 m per second along the slope (eps_r = 1e-6,
   sigma = 1e-5: SAP's regularized stiction creeps at v_t = R_t gamma_t, see below);
3. sliding: tan(theta) = 0.5 > mu = 0.2 slides at g (sin theta - mu cos theta) within 2 %, fitted
   on t >= 0.4 s as in test_contact_cases (the convex approximation adds a normal separation
   velocity mu |v_t| at sliding contacts, which does not change the tangential balance). That
   separation is a common error of 6-12 % (the convex model's sliding plateau, doc/sap.md §3):
   with the case default (contact_solver.accept_regularized true: up to 1e-2) the steps fail, so
   the run accepts it explicitly (0.2), and the default is checked to refuse it (issue 25)."""
import math
import numpy as np
from fctest import run, outdir, probes, stats, figure, check


def resultant(case, solver, extra):
    d = outdir("sap_cases/%s_%s" % (case, solver))
    run(["run", "cases/%s.json" % case, "-o", d, "--set", "contact_solver.type=%s" % solver, "--set", "output.vtk=false"] + extra, timeout=600)
    p, s = probes(d), stats(d)
    check(all(c == 1 for c in s["converged"]), "%s with %s: every step converged" % (case, solver))
    return p


for case, col, extra in (("block_on_floor", "contact_z", []), ("hertz", "contact_z", [])):
    fn = resultant(case, "nsgs", extra)[col][-1]
    fs = resultant(case, "sap", extra)[col][-1]
    rel = abs(fs - fn) / abs(fn)
    figure("sap vs nsgs, %s: normal contact force %.6g N vs %.6g N, difference %.3f %%" % (case, fs, fn, 100 * rel))
    check(rel <= 5e-3, "%s: SAP's contact force within 0.5 %% of nsgs's" % case)


def incline(name, theta, mu, opts=()):
    d = outdir("sap_cases/incline_" + name)
    g = (9.81 * math.sin(theta), -9.81 * math.cos(theta))
    run(["run", "cases/incline.json", "-o", d, "--set", "contacts[0].mu=%g" % mu, "--set", "gravity=[%.12g,0,%.12g]" % g,
         "--set", "contact_solver.type=sap", "--set", "output.vtk=false", "--set", "output.hdf5=false"] + list(opts))
    return probes(d), stats(d)


def creep(p):
    """Motion along the slope per second after the elastic settling: 2 (x(1 s) - x(0.5 s)). The
    settling itself (the bottom face spreading under the normal load, 6.8e-5 m, the same with
    nsgs's exact Coulomb law) is not drift."""
    t, x = p["time"], p["block_x"]
    i = min(range(len(t)), key=lambda k: abs(t[k] - 0.5))
    return 2 * abs(x[-1] - x[i])


# SAP's regularized stiction: R_t = sigma w lets a stuck contact creep at v_t = R_t gamma_t. The
# issue's bound (drift < 1e-6 m over 1 s) needs sigma = 1e-5 (measured default sigma = 1e-3:
# 1.3e-5 m/s, a hundred times too much; sigma = 1e-6: 1.3e-8 m/s).
p, s = incline("stick_default", math.atan(0.4), 0.6)
figure("sap incline tan 0.4, mu 0.6, default sigma = 1e-3: creep %.3e m/s" % creep(p))
p, s = incline("stick", math.atan(0.4), 0.6, ["-fc_contact_solver_sap_sigma", "1e-5"])
figure("sap incline tan 0.4, mu 0.6, sigma = 1e-5, eps_r = 1e-6: creep %.3e m/s (all steps converged: %s)" % (creep(p), all(c == 1 for c in s["converged"])))
check(creep(p) < 1e-6 and all(c == 1 for c in s["converged"]), "SAP (sigma = 1e-5) keeps the block stuck: drift over 1 s below 1e-6 m")

theta, mu = math.atan(0.5), 0.2
d = outdir("sap_cases/incline_slide_default")
g = (9.81 * math.sin(theta), -9.81 * math.cos(theta))
pr = run(["run", "cases/incline.json", "-o", d, "--set", "contacts[0].mu=%g" % mu, "--set", "gravity=[%.12g,0,%.12g]" % g, "--set", "time.t_end=0.15",
          "--set", "contact_solver.type=sap", "--set", "output.vtk=false", "--set", "output.hdf5=false"], expect=1)
check("did not converge" in pr.stderr, "sliding with sap at the case default (accept up to 1e-2): the steps fail, the 6-12 %% sliding error is not hidden (exit 1)")
p, s = incline("slide", theta, mu, ["--set", "contact_solver.accept_regularized=0.2"])
figure("sap incline slide, common error per step %.3g .. %.3g (accepted explicitly up to 0.2)" % (min(s["contact_error"]), max(s["contact_error"])))
t, x = np.array(p["time"]), np.array(p["block_x"])
m = t >= 0.4
a = 2 * np.polyfit(t[m], x[m], 2)[0]
a0 = 9.81 * (math.sin(theta) - mu * math.cos(theta))
figure("sap incline tan 0.5, mu 0.2: sliding acceleration %.6f m/s^2 vs g(sin - mu cos) = %.6f (error %.3f %%)" % (a, a0, 100 * abs(a - a0) / a0))
check(abs(a - a0) <= 0.02 * a0, "SAP sliding acceleration within 2 %")
