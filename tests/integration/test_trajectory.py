"""`fcsim trajectory check` (src/io/trajectory.c, doc/trajectory.md):

1. The synthetic stylus log in its four formats (cases/trajectories/) resampled at 1 kHz by the
   command: the same positions to 1e-9 m (issue 16's figure) and the same orientations to 1e-12;
   the summary counts the repeated ROS publishes (8) and the ignored velocity columns.
2. A dropout is reported as a warning line; the resampled file is a valid fcsim log (read back).
3. Every bad log of tests/bad/trajectory/MANIFEST (and the command-line errors): exit 2, ONE
   stderr line naming the file and the line, PETSc's -malloc_dump clean; with FC_MEMCHECK=1 also
   under valgrind (no memory error, no definite leak).
"""
import concurrent.futures
import os
import shutil
import subprocess
import tempfile
from fctest import ROOT, FCSIM, figure, check, fail

TRAJ = os.path.join("cases", "trajectories")
tmp = tempfile.mkdtemp(prefix="fcsim-traj-")


def fcsim(args):
    return subprocess.run([FCSIM] + args, cwd=ROOT, capture_output=True, text=True, timeout=120)


def rows(text):
    """The data rows of an fcsim log (lists of floats) and its '#' lines."""
    data, meta = [], []
    lines = text.splitlines()
    header = None
    for l in lines:
        if l.startswith("#"):
            meta.append(l)
        elif header is None:
            header = l.split(",")
        elif l.strip():
            data.append([float(x) for x in l.split(",")])
    return header, data, meta


# 1. four formats, one motion
logs = [("stylus_press_slide.csv", ["--format", "fcsim"]),
        ("stylus_press_slide_openhaptics.csv", ["--format", "openhaptics"]),
        ("stylus_press_slide_ros_pose.csv", ["--format", "ros_pose"]),
        ("stylus_press_slide_ros_joint.csv", ["--format", "ros_jointstate", "--units", "mm"])]
res = {}
for name, args in logs:
    p = fcsim(["trajectory", "check", os.path.join(TRAJ, name)] + args + ["--rate", "1000", "-malloc_debug", "-malloc_dump"])
    if p.returncode != 0 or p.stderr.strip():
        fail("%s: exit %d, stderr %r" % (name, p.returncode, p.stderr[-2000:]))
    res[name] = rows(p.stdout)
ref = res["stylus_press_slide.csv"][1]
check(len(ref) == 3001, "fcsim log at 1 kHz: 3001 samples over 3 s (%d)" % len(ref))
dp = dq = 0.0
for name, _ in logs[1:]:
    data = res[name][1]
    if len(data) != len(ref):
        fail("%s: %d resampled samples, the fcsim log gives %d" % (name, len(data), len(ref)))
    for a, b in zip(ref, data):
        if a[0] != b[0]:
            fail("%s: resampled time %r != %r" % (name, b[0], a[0]))
        dp = max(dp, max(abs(a[k] - b[k]) for k in (1, 2, 3)))
        if len(b) >= 8:
            dq = max(dq, max(abs(a[k] - b[k]) for k in (4, 5, 6, 7)))
figure("trajectory check: 4 formats at 1 kHz: max position difference %.3g m (bound 1e-9), max quaternion difference %.3g (bound 1e-12)" % (dp, dq))
check(dp <= 1e-9, "positions agree to 1e-9 m")
check(dq <= 1e-12, "orientations agree to 1e-12")
meta = "\n".join(res["stylus_press_slide_ros_pose.csv"][2])
check("8 repeated samples dropped" in meta, "ros_pose: the 8 repeated publishes are dropped and counted")
meta = "\n".join(res["stylus_press_slide_openhaptics.csv"][2])
check("3 columns ignored" in meta, "openhaptics: the 3 garbage velocity columns are ignored")

# 2. a dropout: 100 Hz with 0.2 s missing -> one warning line; the output reads back as an fcsim log
gap = os.path.join(tmp, "gap.csv")
with open(gap, "w") as f:
    f.write("# units: m\nt,px,py,pz\n")
    for k in range(101):
        if not 40 < k < 60:
            f.write("%r,%r,0,0\n" % (k / 100, k / 1000))
p = fcsim(["trajectory", "check", gap, "--format", "fcsim", "--rate", "200"])
check(p.returncode == 0 and "# warning: 1 dropouts" in p.stdout, "a 0.2 s gap in a 100 Hz log is reported as one dropout")
back = os.path.join(tmp, "back.csv")
with open(back, "w") as f:
    f.write(p.stdout)
h, data, _ = rows(p.stdout)
mid = [r for r in data if abs(r[0] - 0.5) < 1e-12][0]
check(abs(mid[1] - 0.05) <= 1e-15, "bridged linearly: x(0.5 s) = 50 mm, the mean of the gap ends 40 and 60 mm (%.17g)" % mid[1])
p = fcsim(["trajectory", "check", back, "--format", "fcsim"])
check(p.returncode == 0 and "201 samples" in p.stdout, "the resampled output reads back as an fcsim log (201 samples)")

# 2b. issue 31 item 7: a quaternion of 1e300 components is a rotation (its squares overflow: it is
# scaled before it is normalized), never NaN printed as -nan
big = os.path.join(tmp, "quat_1e300.csv")
with open(big, "w") as f:
    f.write("# units: m\nt,px,py,pz,qw,qx,qy,qz\n0,0,0,0,1,0,0,0\n0.01,0,0,0.001,1e300,1e300,0,0\n0.02,0,0,0.002,1,0,0,0\n")
p = fcsim(["trajectory", "check", big, "--format", "fcsim", "--rate", "100"])
h, data, _ = rows(p.stdout)
mid = [r for r in data if abs(r[0] - 0.01) < 1e-12]
body = [l for l in p.stdout.splitlines() if not l.startswith("#")]  # the header names the file, whose random folder may hold "nan"
check(p.returncode == 0 and not any("nan" in l for l in body) and len(mid) == 1 and abs(mid[0][4] - 0.5 ** 0.5) <= 1e-15 and abs(mid[0][5] - 0.5 ** 0.5) <= 1e-15,
      "quaternion (1e300, 1e300, 0, 0): normalized to (0.7071, 0.7071, 0, 0) to 1e-15, no nan (exit %d, %s)" % (p.returncode, mid))
# --rate 1e9 over the 3 s log: 3e9 samples, past fcsim's index range, and the line says so
p = fcsim(["trajectory", "check", os.path.join(TRAJ, "stylus_press_slide.csv"), "--format", "fcsim", "--rate", "1e9"])
check(p.returncode == 2 and p.stderr == "command line: --rate: 1e+09 Hz over the log's 3 s is 3e+09 samples (216 GB), more than fcsim's index range: lower the rate\n",
      "--rate 1e9: exit 2, one line with the true reason (3e9 samples past the index range): %r" % p.stderr)

# 3. bad logs and command lines
cases = []
for line in open(os.path.join(ROOT, "tests", "bad", "trajectory", "MANIFEST")):
    line = line.strip()
    if not line or line.startswith("#"):
        continue
    fname, args, sub = line.split("|", 2)
    rel = os.path.join("tests", "bad", "trajectory", fname)
    cases.append(("%s %s" % (fname, args), ["trajectory", "check", rel] + args.split(), [rel + ": ", sub]))
good = os.path.join(TRAJ, "stylus_press_slide.csv")
cases += [
    ("no subcommand", ["trajectory", good], ["command line", "trajectory check"]),
    ("no --format", ["trajectory", "check", good], ["command line", "--format"]),
    ("--rate 0", ["trajectory", "check", good, "--format", "fcsim", "--rate", "0"], ["command line", "--rate"]),
    ("--window reversed", ["trajectory", "check", good, "--format", "fcsim", "--window", "2,1"], ["command line", "--window"]),
    ("--units km", ["trajectory", "check", good, "--format", "fcsim", "--units", "km"], [good, "unknown units 'km'"]),
    ("--units mm on an SI format", ["trajectory", "check", good, "--format", "fcsim", "--units", "mm"], [good, "units mm given"]),
    ("-o", ["trajectory", "check", good, "--format", "fcsim", "-o", os.path.join(tmp, "o")], ["command line", "-o"]),
    ("missing log", ["trajectory", "check", os.path.join(TRAJ, "nosuch.csv"), "--format", "fcsim"], [os.path.join(TRAJ, "nosuch.csv"), "cannot open"]),
]


def command(argv):
    return [FCSIM] + argv + ["-malloc_debug", "-malloc_dump"]


with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
    done = list(pool.map(lambda c: subprocess.run(command(c[1]), cwd=ROOT, capture_output=True, text=True, timeout=120), cases))
for (label, argv, subs), p in zip(cases, done):
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    if p.returncode != 2 or len(lines) != 1 or any(s not in lines[0] for s in subs) or p.stdout.strip():
        print("command:", " ".join(command(argv)))
        print("stderr:", p.stderr[-2000:])
        fail("%s: exit %d, %d stderr lines, expected exit 2 and one line with %r" % (label, p.returncode, len(lines), subs))
    print("ok   %-45s %s" % (label, lines[0]))

nvg = 0
vg = shutil.which("valgrind") if os.environ.get("FC_MEMCHECK") else None
if vg:
    supp = os.path.join(ROOT, "tests", "valgrind.supp")

    def under_valgrind(c):
        cmd = [vg, "-q", "--error-exitcode=9", "--leak-check=full", "--errors-for-leak-kinds=definite",
               "--suppressions=" + supp, "--num-callers=60", FCSIM] + c[1]
        return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        vdone = list(pool.map(under_valgrind, cases))
    for (label, argv, subs), p in zip(cases, vdone):
        if p.returncode != 2:
            print(p.stderr[-4000:])
            fail("valgrind on %s: exit %d" % (label, p.returncode))
        nvg += 1
figure("trajectory bad input: %d bad logs and command lines exit 2 with one line naming file and line%s" % (len(cases), "; %d clean under valgrind" % nvg if vg else ""))
shutil.rmtree(tmp)
