"""The command line as a table of commands (src/cli, issue 26 knot 5).

1. `fcsim --help` lists every command of the table once, in its order, and every common option.
2. Each command's own `--help` (anywhere after the command: `fcsim fclib solve --help`,
   `fcsim run CASE --help`) prints its usage and description and the common options it takes,
   not the others', on stdout with exit 0; `fcsim fclib --help` prints the group.
3. An option of a sibling command is refused by name (exit 2, one line); an option the command's
   flags exclude is refused with the message it had before the table (`-o` for info).
4. Issue 31 item 7: a `fclib solve` that does not converge exits 1 with its result line on stdout
   and one line on stderr saying so (common error against tol, iterations).
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from fctest import FCSIM, ROOT, check, figure  # noqa: E402

os.chdir(ROOT)
USAGES = ["fcsim run ", "fcsim info ", "fcsim fclib solve ", "fcsim fclib compare ", "fcsim study compare ",
          "fcsim study refine ", "fcsim trajectory check "]


def fc(args):
    return subprocess.run([FCSIM] + args, capture_output=True, text=True, timeout=60)


# 1. the whole usage
p = fc(["--help"])
pos = [p.stdout.find(u) for u in USAGES]
check(p.returncode == 0 and p.stderr == "" and all(x >= 0 for x in pos) and pos == sorted(pos)
      and all(p.stdout.count(u) == 1 for u in USAGES), "fcsim --help: every command once, in the table's order")
check(all(o in p.stdout for o in ["--set PATH=VALUE", "-o OUTDIR", "--accept-regularized", "--force", "-fc_mesh_timeout", "exit status:"]),
      "fcsim --help: every common option")

# 2. each command's own help: (argv, must hold, must not hold)
helps = [
    (["fclib", "solve", "--help"], ["usage: fcsim fclib solve FILE.hdf5", "--accept-regularized", "-o OUTDIR", "exit status:"],
     ["fclib compare", "study", "--set PATH", "--force", "-fc_mesh_timeout"]),
    (["fclib", "compare", "x.hdf5", "--help"], ["usage: fcsim fclib compare FILE.hdf5...", "--accept-regularized"], ["-o OUTDIR", "fclib solve"]),
    (["run", "cases/cantilever.json", "--help"], ["usage: fcsim run  CASE.json", "--set PATH=VALUE", "-o OUTDIR", "--force", "-fc_mesh_timeout"],
     ["fclib", "--accept-regularized"]),
    (["info", "--help"], ["usage: fcsim info CASE.json", "--set PATH=VALUE", "--force"], ["-o OUTDIR", "fcsim run"]),
    (["study", "refine", "--help"], ["usage: fcsim study refine CASE.json --levels", "Richardson", "-o OUTDIR"], ["study compare", "fclib"]),
    (["trajectory", "check", "--help"], ["usage: fcsim trajectory check LOG --format", "--window"], ["--set PATH", "-o OUTDIR", "--force"]),
    (["fclib", "--help"], ["usage: fcsim fclib solve", "       fcsim fclib compare", "--accept-regularized"], ["study", "--set PATH"]),
]
for argv, yes, no in helps:
    p = fc(argv)
    check(p.returncode == 0 and p.stderr == "" and all(y in p.stdout for y in yes) and not any(n in p.stdout for n in no),
          "fcsim %s: exit %d, its own usage and options only (%s)" % (" ".join(argv), p.returncode, p.stderr.strip()))

# 3. refusals, one line each, exit 2
F = os.path.join("tests", "bad", "fclib", "baseline_local.hdf5")
refusals = [
    (["fclib", "compare", F, "--solver", "nsgs"], "fcsim: command line: --solver belongs to fclib solve"),
    (["fclib", "compare", F, "--form", "global"], "fcsim: command line: --form belongs to fclib solve"),
    (["study", "compare", "cases/block_on_floor.json", "--over", "dt"], "fcsim: command line: --over belongs to study refine"),
    (["study", "refine", "cases/block_on_floor.json", "--levels"], "fcsim: command line: --levels needs a value"),
    (["info", "cases/cantilever.json", "-o", "x"], "fcsim: command line: -o: fcsim info writes no output"),
    (["fclib", "solve", F, "--set", "a=1"], "fcsim: command line: unknown option '--set' (see fcsim --help)"),
    (["trajectory", "check", "x.csv", "--format", "fcsim", "-o", "x"], "fcsim: command line: trajectory check takes no --set, -o or --overwrite (it prints to stdout)"),
    (["fclib"], "fcsim: command line: fclib needs a subcommand: fclib solve FILE.hdf5 | fclib compare FILE..."),
    (["frob"], "fcsim: command line: unknown command 'frob' (expected run, info, fclib, study, trajectory, --help, --version)"),
]
for argv, line in refusals:
    p = fc(argv)
    check(p.returncode == 2 and p.stderr == line + "\n" and p.stdout == "",
          "fcsim %s: exit 2 and the one line %r (exit %d, %r)" % (" ".join(argv), line, p.returncode, p.stderr))
# 4. a non-converged fclib solve: lemke's 8-sided pyramid stops at a common error of about 1e-2
p = fc(["fclib", "solve", F, "--solver", "lemke", "--tol", "1e-14"])
lines = p.stderr.splitlines()
check(p.returncode == 1 and len(lines) == 1 and lines[0].startswith("fcsim: fclib solve: %s: lemke did not converge: common error " % F)
      and "tol 1e-14, after " in lines[0] and "DIVERGED" in p.stdout,
      "fclib solve that does not converge: exit 1 and one stderr line (exit %d, %r)" % (p.returncode, p.stderr))
figure("fclib solve not converged: %s" % (lines[0] if lines else "no line"))
figure("command line: %d commands in the table, %d own --help pages and %d refusals checked" % (len(USAGES), len(helps), len(refusals)))
