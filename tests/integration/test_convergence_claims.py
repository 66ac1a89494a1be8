"""Convergence claims are checked (issue 11; doc/contact.md §4, doc/case-format.md "contact_solver").

1. max_error: sap converges by its own optimality test; its answer, above tol, is accepted in a
   case up to contact_solver.accept_regularized (default 1e-2, issue 25). contact_solver.max_error
   (and -fc_contact_solver_max_error) bounds any converged answer: block_on_floor with sap reaches
   a common error of about 4e-4; with max_error 1e-6 every contact solve is DIVERGED_MAX_ERROR, the
   steps do not converge and the run exits 1; with time.newton.allow_failure it exits 0 and
   stats.csv shows converged = contact_converged = 0. A loose bound (1) changes nothing. Bad
   values are one input-error line (exit 2).
2. fclib compare prints its whole table and exits 1 when a requested solver failed on a problem
   (--max-it 1, or -fc_contact_solver_max_error), 0 when all converged; fclib solve reports
   DIVERGED_MAX_ERROR with exit 1.
3. Options a solver ignores print one warning line, once per run (not per step, not per problem),
   only when the user gave them: contact_solver.tol with sap, contact_solver.warm_start true with
   lemke, time.newton.inertia_correction true with compliance schur or -pc_type lu,
   contact_solver.accept_regularized with a solver that is not regularized. tol is used by every
   solver (sap's answer is judged against it too): no warning for it.

`test_convergence_claims.py [max_error|compare|warnings]` runs one part (default: all)."""
import glob
import os
import shutil
import sys
from fctest import run, outdir, stats, figure, check

PARTS = sys.argv[1:] or ["max_error", "compare", "warnings"]
CASE = "cases/block_on_floor.json"
SHORT = ["--set", "time.t_end=0.03", "--set", "output.vtk=false", "--set", "output.hdf5=false"]  # 3 steps


def fcrun(name, sets, expect, extra=()):
    d = outdir("convergence_claims/" + name)
    args = ["run", CASE, "-o", d] + SHORT
    for s in sets:
        args += ["--set", s]
    p = run(args + list(extra), expect=expect)
    return d, p


def failed_dir(d):
    kept = glob.glob(d + ".failed-*")
    check(len(kept) == 1, "the failed run's outputs are kept in %s.failed-PID" % os.path.basename(d))
    return kept[0]


def warnings(text, key):
    return [l for l in text.splitlines() if l.startswith("fcsim: warning:") and key in l]


if "max_error" in PARTS:
    for old in glob.glob(os.path.join(os.path.dirname(outdir("convergence_claims/x")), "*.failed-*")):
        shutil.rmtree(old)  # earlier runs' kept outputs
    d, p = fcrun("sap_loose", ["contact_solver.type=sap", "contact_solver.max_error=1"], 0)
    s = stats(d)
    figure("sap on block_on_floor: common error %.3e .. %.3e (max_error 1: all %d steps converge)" % (min(s["contact_error"]), max(s["contact_error"]), len(s["converged"])))
    check(all(c == 1 for c in s["converged"]) and all(c == 1 for c in s["contact_converged"]), "max_error above the common error: every step converges")
    check(all(1e-6 < e < 1 for e in s["contact_error"]), "sap's common error lies between 1e-6 and 1")

    d, p = fcrun("sap_tight", ["contact_solver.type=sap", "contact_solver.max_error=1e-6"], 1)
    check("did not converge" in p.stderr, "max_error 1e-6: the run fails (exit 1), saying steps did not converge")
    s = stats(failed_dir(d))
    check(all(c == 0 for c in s["converged"]) and all(c == 0 for c in s["contact_converged"]), "max_error 1e-6: every step and contact solve is recorded as not converged")

    d, p = fcrun("sap_tight_allowed", ["contact_solver.type=sap", "contact_solver.max_error=1e-6", "time.newton.allow_failure=true"], 0)
    s = stats(d)
    figure("sap, max_error 1e-6, allow_failure: stats.csv converged %s contact_converged %s contact_error %s" % (s["converged"], s["contact_converged"], ["%.2e" % e for e in s["contact_error"]]))
    check(len(s["converged"]) == 3 and all(c == 0 for c in s["converged"]) and all(c == 0 for c in s["contact_converged"]),
          "with time.newton.allow_failure: exit 0, stats.csv shows converged = contact_converged = 0 on all 3 steps")

    d, p = fcrun("sap_option", ["contact_solver.type=sap"], 1, ["-fc_contact_solver_max_error", "1e-6"])
    check("did not converge" in p.stderr, "-fc_contact_solver_max_error 1e-6 on the command line: the run fails too")

    for bad in ("0", "-1"):
        d, p = fcrun("bad", ["contact_solver.max_error=" + bad], 2)
        lines = p.stderr.strip().splitlines()
        check(len(lines) == 1 and "contact_solver.max_error" in lines[0], "contact_solver.max_error=%s: one input-error line (%s)" % (bad, lines[-1] if lines else ""))
    d, p = fcrun("bad_opt", [], 2, ["-fc_contact_solver_max_error", "0"])
    lines = p.stderr.strip().splitlines()
    check(len(lines) == 1 and "-fc_contact_solver_max_error" in lines[0], "-fc_contact_solver_max_error 0: one input-error line (%s)" % (lines[-1] if lines else ""))

if "compare" in PARTS:
    d, p = fcrun("fclib", ["output.fclib=true"], 0)
    files = sorted(glob.glob(os.path.join(d, "fclib", "step_*.hdf5")))
    check(len(files) == 3, "3 FCLIB problems written")

    p = run(["fclib", "compare"] + files + ["--solvers", "nsgs,sap", "--format", "csv", "--accept-regularized"], expect=0)
    rows = p.stdout.strip().splitlines()[1:]
    check(len(rows) == 6 and all(r.split(",")[6] == "1" for r in rows), "fclib compare nsgs,sap --accept-regularized: every solve converged, exit 0")
    p = run(["fclib", "compare"] + files + ["--solvers", "nsgs,sap", "--format", "csv"], expect=1)
    rows = [r.split(",") for r in p.stdout.strip().splitlines()[1:]]
    check(all(r[6] == ("1" if r[1] == "nsgs" else "0") for r in rows) and all(r[9] == "DIVERGED_REGULARIZED" for r in rows if r[1] == "sap"),
          "fclib compare nsgs,sap without --accept-regularized: sap's answers (error ~4e-4 > tol 1e-10) DIVERGED_REGULARIZED, exit 1")

    p = run(["fclib", "compare"] + files + ["--solvers", "nsgs,sap,lemke", "--max-it", "1", "--format", "csv"], expect=1)
    rows = p.stdout.strip().splitlines()[1:]
    nfail = sum(r.split(",")[6] != "1" for r in rows)
    figure("fclib compare --max-it 1: %d of %d solves not converged; stderr: %s" % (nfail, len(rows), p.stderr.strip()))
    check(len(rows) == 9 and nfail > 0, "fclib compare --max-it 1: exit 1 and the whole table printed (9 rows, %d failed)" % nfail)
    check(p.stderr.strip().splitlines()[-1] == "fcsim: fclib compare: %d of 9 solves did not converge (column converged)" % nfail, "one line on stderr counts the failed solves")
    p = run(["fclib", "compare"] + files + ["--solvers", "nsgs,sap,lemke", "--max-it", "1"], expect=1)
    check(len(p.stdout.strip().splitlines()) == 10, "the table format too: header and 9 rows, exit 1")

    p = run(["fclib", "compare"] + files + ["--solvers", "nsgs,sap", "--format", "csv", "--accept-regularized", "-fc_contact_solver_max_error", "1e-6"], expect=1)
    rows = [r.split(",") for r in p.stdout.strip().splitlines()[1:]]
    check(all(r[6] == ("1" if r[1] == "nsgs" else "0") for r in rows) and len(rows) == 6,
          "fclib compare -fc_contact_solver_max_error 1e-6: nsgs (error <= 1e-10) converged, sap not; exit 1")

    p = run(["fclib", "solve", files[1], "--solver", "sap", "--accept-regularized", "-fc_contact_solver_max_error", "1e-6"], expect=1)
    check("DIVERGED_MAX_ERROR" in p.stdout, "fclib solve --solver sap --accept-regularized with max_error 1e-6: DIVERGED_MAX_ERROR, exit 1 (%s)" % p.stdout.strip())
    p = run(["fclib", "solve", files[1], "--solver", "sap", "--accept-regularized", "-fc_contact_solver_max_error", "1"], expect=0)
    check("CONVERGED_REGULARIZED" in p.stdout, "with max_error 1: CONVERGED_REGULARIZED, exit 0")

if "warnings" in PARTS:
    # (sets, extra options, text of the warning, expected count); a default is never reported
    cases = [
        ("sap_tol", ["contact_solver.type=sap", "contact_solver.tol=1e-8"], [], "ignored", 0),
        ("sap_default_tol", ["contact_solver.type=sap"], [], "ignored", 0),
        ("sap_tol_option", ["contact_solver.type=sap"], ["-fc_contact_solver_tol", "1e-8"], "ignored", 0),
        ("nsgs_accept", ["contact_solver.accept_regularized=0.1"], [], "contact_solver.accept_regularized: ignored by nsgs", 1),
        ("nsgs_accept_option", [], ["-fc_contact_solver_accept_regularized", "0.1"], "-fc_contact_solver_accept_regularized: ignored by nsgs", 1),
        ("sap_accept", ["contact_solver.type=sap", "contact_solver.accept_regularized=0.1"], [], "ignored", 0),
        ("nsgs_tol", ["contact_solver.tol=1e-8"], [], "ignored", 0),
        ("lemke_warm", ["contact_solver.type=lemke", "contact_solver.warm_start=true", "contacts[0].mu=0"], [], "contact_solver.warm_start: ignored by lemke", 1),
        ("lemke_cold", ["contact_solver.type=lemke", "contact_solver.warm_start=false", "contacts[0].mu=0"], [], "ignored", 0),
        ("schur_inertia", ["compliance.type=schur", "time.newton.inertia_correction=true"], [], "time.newton.inertia_correction: ignored with compliance \"schur\"", 1),
        ("schur_default", ["compliance.type=schur"], [], "ignored", 0),
        ("lu_inertia", ["time.newton.inertia_correction=true"], ["-pc_type", "lu"], "time.newton.inertia_correction: ignored with -pc_type lu", 1),
        ("lu_inertia_case", ["time.newton.inertia_correction=true", "petsc.pc_type=\"lu\""], [], "time.newton.inertia_correction: ignored with -pc_type lu", 1),
        ("cholesky_inertia", ["time.newton.inertia_correction=true"], ["-pc_type", "cholesky"], "ignored", 0),
    ]
    for name, sets, extra, text, n in cases:
        d, p = fcrun("warn_" + name, sets, 0, extra)
        got = warnings(p.stderr, text)
        figure("%s: %d warning line(s)%s" % (name, len(got), (": " + got[0]) if got else ""))
        check(len(got) == n, "%s: '%s' printed %d time(s) over 3 steps, expected %d" % (name, text, len(got), n))
        if n:
            check(got[0].startswith("fcsim: warning: " + CASE + ": ") or got[0].startswith("fcsim: warning: options: "), "%s: the line names where the option came from" % name)

    d, p = fcrun("fclib_w", ["output.fclib=true"], 0)
    files = sorted(glob.glob(os.path.join(d, "fclib", "step_*.hdf5")))
    p = run(["fclib", "compare"] + files + ["--solvers", "nsgs,sap,sap:sigma=1e-4", "--tol", "1e-12", "--accept-regularized"], expect=0)
    check(not warnings(p.stderr, "ignored"), "fclib compare --tol with sap: no warning (sap's answer is judged against --tol)")
    p = run(["fclib", "compare"] + files + ["--solvers", "nsgs,lemke", "--tol", "1e-12"], expect=None)
    check(not warnings(p.stderr, "ignored"), "fclib compare --tol with solvers that use it: no warning")
    p = run(["fclib", "solve", files[0], "--solver", "sap", "--tol", "1e-12"], expect=1)
    check(not warnings(p.stderr, "ignored") and "DIVERGED_REGULARIZED (tol 1e-12 not met" in p.stdout, "fclib solve --solver sap --tol 1e-12: no warning, DIVERGED_REGULARIZED and why, exit 1")
