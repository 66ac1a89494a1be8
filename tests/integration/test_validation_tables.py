"""doc/validation.md's tables of fcsim's numbers are the files `make figures` wrote (issue 30
item 2). It does not run the figures (hours of runs): it compares what is committed.

a) Every table between <!-- table:NAME --> and <!-- /table:NAME --> in doc/validation.md is
   doc/figures/NAME.md, character for character (scripts/figures_defs.py update_validation_doc
   copies it there; a typed or edited number fails here), and every NAME that doc/validation.md
   must carry (one per benchmark table below) is marked.
b) Each doc/figures/NAME.md table has the rows of doc/figures/NAME.csv, cell for cell (both are
   written from the same rows by write_table: a hand edit of one fails here).
c) Every image doc/validation.md shows (doc/figures/X.png) is committed, with its PDF.
d) scripts/figures.py: an unknown figure name (--only) is one line on stderr naming it, exit 2,
   and nothing is written; --list names every figure."""
import csv
import os
import re
import subprocess

from fctest import ROOT, check, figure

DOC = os.path.join(ROOT, "doc", "validation.md")
FIG = os.path.join(ROOT, "doc", "figures")
REQUIRED = ["cylinder_press", "cylinder_press_points", "cylinder_hertz", "arch_constants", "arch_geometry", "arch",
            "table_delta", "table_cpu", "table_delassus", "table_rigid", "hapco", "cube_materials", "cube_instrument"]
MARK = re.compile(r"<!-- table:([a-z0-9_]+) -->\n(.*?)<!-- /table:\1 -->", re.S)

with open(DOC) as f:
    text = f.read()
marked = MARK.findall(text)
names = [n for n, _ in marked]
figure("validation tables: %d marked tables in doc/validation.md" % len(marked))
check(len(names) == len(set(names)), "each table is marked once (%s)" % sorted(n for n in names if names.count(n) > 1))
missing = [n for n in REQUIRED if n not in names]
check(not missing, "doc/validation.md marks every benchmark table (missing: %s)" % missing)
opened = re.findall(r"<!-- table:([a-z0-9_]+) -->", text)
check(sorted(opened) == sorted(names), "every opening marker has its closing one (unclosed: %s)" % sorted(set(opened) - set(names)))

for name, body in marked:
    p = os.path.join(FIG, name + ".md")
    check(os.path.exists(p), "doc/figures/%s.md exists" % name)
    with open(p) as f:
        want = f.read()
    if body != want:
        a, b = body.splitlines(), want.splitlines()
        k = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
        check(False, "table %s in doc/validation.md is doc/figures/%s.md (first difference at its line %d: %r against %r)"
              % (name, name, k + 1, a[k] if k < len(a) else "<end>", b[k] if k < len(b) else "<end>"))
    check(True, "table %s in doc/validation.md is doc/figures/%s.md" % (name, name))
    md_rows = [[c.strip() for c in ln.strip().strip("|").split("|")] for ln in want.splitlines() if ln.startswith("|") and not ln.startswith("|---")]
    with open(os.path.join(FIG, name + ".csv"), newline="") as f:
        csv_rows = [[c.strip() for c in r] for r in csv.reader(f)]
    check(md_rows == csv_rows, "doc/figures/%s.md has the rows of %s.csv (%d rows)" % (name, name, len(csv_rows) - 1))

images = sorted(set(re.findall(r"\]\(figures/([A-Za-z0-9_]+)\.png\)", text)))  # the Markdown images
check(len(images) >= 8, "doc/validation.md shows the figures (%d images: %s)" % (len(images), ", ".join(images)))
for im in images:
    check(all(os.path.getsize(os.path.join(FIG, im + e)) > 1000 for e in (".png", ".pdf") if os.path.exists(os.path.join(FIG, im + e)))
          and os.path.exists(os.path.join(FIG, im + ".png")) and os.path.exists(os.path.join(FIG, im + ".pdf")), "doc/figures/%s.png and .pdf are committed" % im)

# d) the command line of scripts/figures.py
before = sorted(os.listdir(FIG))
p = subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "scripts", "figures.py"), "--only", "arch,no_such_figure"], capture_output=True, text=True, cwd=ROOT)
lines = p.stderr.strip().splitlines()
check(p.returncode == 2 and len(lines) == 1 and "no_such_figure" in lines[0] and not p.stdout.strip(),
      "figures.py --only arch,no_such_figure: exit 2, one line naming it (%d: %s)" % (p.returncode, p.stderr.strip()))
check(sorted(os.listdir(FIG)) == before, "figures.py with an unknown name writes nothing")
p = subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "scripts", "figures.py"), "--list"], capture_output=True, text=True, cwd=ROOT)
listed = [ln.split()[0] for ln in p.stdout.splitlines() if ln.strip()]
check(p.returncode == 0 and all(n in listed for n in ["cylinder_press", "arch", "hapco", "haptic", "fclib_real", "cylinder_hertz"]),
      "figures.py --list names every figure (%s)" % ", ".join(listed))
