#!/usr/bin/python3
"""Every paper figure of fcsim in one command (`make figures`; issue 30).

usage: figures.py [--list] [--only NAME,...] [--force] [--fcsim BIN] [--cache DIR] [--out DIR]

Each figure names the runs it needs (fcsim commands or the study scripts of scripts/) and how
it is drawn. A run's results are kept in the cache (results/figures/<name>-<key>/) under a key
that hashes what decides them: fcsim's version (`fcsim --version`), the command line, the
content of every file the command reads that is named in the figure (cases, meshes, the study
scripts themselves; a .csv without its '#' comment lines) and, for a case file, the resolved case (`fcsim info`'s first line). A run
whose key is in the cache is not run again (--force runs it anyway).

Writes doc/figures/<name>.png and .pdf (one consistent style: scripts/figstyle.py), and for the
figures with numbers a table doc/figures/<name>.md (Markdown) and .csv. doc/validation.md shows
those tables between the markers <!-- table:NAME --> and <!-- /table:NAME -->: this script
writes them there, and tests/integration/test_validation_tables.py checks that the document and
the files agree. A progress line per figure, the total time at the end; exit 1 when a figure
could not be made (the others are still made), 2 for an unknown figure name (one line)."""
import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import figstyle  # noqa: E402

PY = "/usr/bin/python3"


class Context:
    def __init__(self, fcsim, cache, out, force):
        self.fcsim, self.cache, self.out, self.force = fcsim, cache, out, force
        self.version = subprocess.run([fcsim, "--version"], capture_output=True, text=True, check=True).stdout.strip()

    def key(self, argv, files, cases):
        h = hashlib.sha256()
        h.update(self.version.encode())
        h.update(json.dumps(argv).encode())
        for f in sorted(files):
            with open(os.path.join(ROOT, f), "rb") as fh:
                data = fh.read()
            if f.endswith(".csv"):
                # a reference table's '#' lines are its source, which fcsim skips: citing it better
                # does not make the runs stale
                data = b"".join(ln for ln in data.splitlines(True) if not ln.startswith(b"#"))
            h.update(f.encode() + b"\0" + data)
        for c in cases:
            # the resolved case (every default filled in, every --set applied): fcsim info's first line
            p = subprocess.run([self.fcsim, "info", os.path.join(ROOT, c[0])] + list(c[1:]), capture_output=True, text=True, cwd=ROOT)
            if p.returncode:
                raise RuntimeError("fcsim info %s: %s" % (c[0], p.stderr.strip()))
            h.update(p.stdout.splitlines()[0].encode())
        return h.hexdigest()[:16]

    def run(self, name, argv, files=(), cases=()):
        """Run argv (a list; '{out}' stands for the result folder, '{fcsim}' for the binary) unless
        the cache holds its result; return the result folder."""
        argv = [a.replace("{fcsim}", self.fcsim) for a in argv]
        key = self.key(argv, files, cases)
        out = os.path.join(self.cache, "%s-%s" % (name, key))
        stamp = os.path.join(out, ".figures-done")
        if os.path.exists(stamp) and not self.force:
            return out, False
        if os.path.exists(out):
            shutil.rmtree(out)
        # a study writes its own folder (they refuse one that is not theirs): give it a fresh path
        cmd = [a.replace("{out}", out) for a in argv]
        log = out + ".log"
        os.makedirs(self.cache, exist_ok=True)
        with open(log, "w") as f:
            f.write("# " + " ".join(cmd) + "\n")
            f.flush()
            p = subprocess.run(cmd, cwd=ROOT, stdout=f, stderr=subprocess.STDOUT)
        if p.returncode not in (0,) or not os.path.isdir(out):
            raise RuntimeError("%s exited %d (log: %s)" % (os.path.basename(cmd[0]) if cmd[0] != PY else cmd[1], p.returncode, os.path.relpath(log, ROOT)))
        with open(stamp, "w") as f:
            f.write(" ".join(cmd) + "\n")
        return out, True


# ---- the figures -------------------------------------------------------------------------------
# Each is (name, title, function(ctx) -> list of written files). Added as the cases land.
import figures_defs  # noqa: E402

FIGURES = figures_defs.FIGURES


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--only", default="")
    ap.add_argument("--force", action="store_true")
    ap.add_argument("--fcsim", default=os.path.join(ROOT, "bin", "fcsim"))
    ap.add_argument("--cache", default=os.path.join(ROOT, "results", "figures"))
    ap.add_argument("--out", default=os.path.join(ROOT, "doc", "figures"))
    a = ap.parse_args()
    names = [f[0] for f in FIGURES]
    if a.list:
        for n, title, _ in FIGURES:
            print("%-22s %s" % (n, title))
        return 0
    only = [x for x in a.only.split(",") if x]
    for n in only:
        if n not in names:
            print("figures.py: --only: no figure '%s' (figures: %s)" % (n, ", ".join(names)), file=sys.stderr)
            return 2
    ctx = Context(os.path.abspath(a.fcsim), os.path.abspath(a.cache), os.path.abspath(a.out), a.force)
    os.makedirs(ctx.out, exist_ok=True)
    t_all, failed = time.time(), []
    todo = [f for f in FIGURES if not only or f[0] in only]
    for i, (n, title, make) in enumerate(todo):
        t0 = time.time()
        try:
            written = make(ctx)
            print("figures: [%d/%d] %s: %s (%.0f s)" % (i + 1, len(todo), n, ", ".join(os.path.relpath(w, ROOT) for w in written), time.time() - t0), flush=True)
        except Exception as e:  # one line per failed figure; the others are still made
            failed.append(n)
            print("figures: [%d/%d] %s: FAILED: %s" % (i + 1, len(todo), n, str(e).splitlines()[0] if str(e) else type(e).__name__), flush=True)
    if not failed:
        figures_defs.update_validation_doc(ctx.out)
    print("figures: %d of %d made in %.0f s%s" % (len(todo) - len(failed), len(todo), time.time() - t_all, (" (failed: %s)" % ", ".join(failed)) if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
