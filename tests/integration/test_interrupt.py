"""An interrupted run (SIGINT) exits with status 130 and leaves nothing that looks complete:
no run directory at the requested path and no temporary directory either."""
import os
import signal
import subprocess
import time
from fctest import ROOT, FCSIM, outdir, check, figure

d = outdir("interrupt/run")
os.makedirs(os.path.dirname(d), exist_ok=True)
cmd = [FCSIM, "run", "cases/bar_dynamic.json", "-o", d, "--set", "time.t_end=100", "--set", "output.every=1"]
p = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
# Wait until the time loop is running (the first progress line), then interrupt.
first = p.stderr.readline()
time.sleep(0.5)
p.send_signal(signal.SIGINT)
out, err = p.communicate(timeout=120)
figure("SIGINT after '%s': exit %d" % (first.strip()[:40], p.returncode))
check(p.returncode == 130, "exit status 130 after SIGINT")
check(not os.path.exists(d), "no run directory at %s" % d)
left = [x for x in os.listdir(os.path.dirname(d)) if x.startswith("run")]
check(not left, "no temporary directory left (%s)" % left)
