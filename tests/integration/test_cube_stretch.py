"""courtecuisse Fig. 3 (§V): elongation (+0.5) and compression (-0.3) of a unit cube clamped at its
base, for the four materials with the paper's parameters (the small-strain equivalents of E = 1,
nu = 0.45; cases/cube_stretch.json, scripts/fig3_cube.py). The paper shows: the corotational
force linear in the displacement; in elongation StVK stiffer, neo-Hookean and Mooney-Rivlin
softer than it; the converse in compression. Asserted on the forces at the end of each test:
  elongation   F_stvk > F_corot > max(F_nh, F_mr)
  compression  min(|F_nh|, |F_mr|) > |F_corot| > |F_stvk|
the corotational force linear within 10 % (F(end) / F(half) = 2; StVK's is 3.4, NH's 1.7, so 10 %
separates linear from not), and at the first step (5 % elongation, 3 % compression) the four
within 15 % of the corotational force: equivalent parameters, as the paper chose them (their
difference grows with the strain: over 50 % at the end)."""
import csv
import os
import subprocess
from fctest import ROOT, FCSIM, outdir, figure, check

d = outdir("cube_stretch")
p = subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "scripts", "fig3_cube.py"), "-o", d, "--no-plot", "--fcsim", FCSIM], capture_output=True, text=True, timeout=900)
print(p.stdout, p.stderr)
check(p.returncode == 0, "scripts/fig3_cube.py ran the eight tests")
rows = list(csv.DictReader(open(os.path.join(d, "fig3_cube.csv"))))
curve = {}
for r in rows:
    curve.setdefault((r["material"], r["test"]), []).append((float(r["displacement"]), float(r["force"])))
end = {k: abs(v[-1][1]) for k, v in curve.items()}
first = {k: abs(v[1][1]) for k, v in curve.items()}
half = {k: abs(v[len(v) // 2][1]) for k, v in curve.items()}
for t in ("elongation", "compression"):
    figure("Fig. 3 %s to %+.1f: force (E = 1) corotational %.4f, StVK %.4f, neo-Hookean %.4f, Mooney-Rivlin %.4f; F(end)/F(half): %s"
           % (t, curve[("corotational", t)][-1][0], end[("corotational", t)], end[("stvk", t)], end[("neohookean", t)], end[("mooney_rivlin", t)],
              ", ".join("%s %.2f" % (m, end[(m, t)] / half[(m, t)]) for m in ("corotational", "stvk", "neohookean", "mooney_rivlin"))))
e = lambda m: end[(m, "elongation")]
c = lambda m: end[(m, "compression")]
check(e("stvk") > e("corotational") > max(e("neohookean"), e("mooney_rivlin")), "elongation: StVK stiffer, neo-Hookean and Mooney-Rivlin softer than corotational")
check(min(c("neohookean"), c("mooney_rivlin")) > c("corotational") > c("stvk"), "compression: the converse (neo-Hookean and Mooney-Rivlin stiffer, StVK softer)")
for t in ("elongation", "compression"):
    r = end[("corotational", t)] / half[("corotational", t)]
    check(abs(r - 2.0) <= 0.2, "%s: the corotational force is linear in the displacement within 10 %% (F(end)/F(half) = %.3f)" % (t, r))
    spread = max(abs(first[(m, t)] / first[("corotational", t)] - 1) for m in ("stvk", "neohookean", "mooney_rivlin"))
    check(spread <= 0.15, "%s: at the first step the four materials agree within 15 %% (%.1f %%)" % (t, 100 * spread))
