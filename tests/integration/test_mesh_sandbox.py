"""A .geo script never runs a command nor writes a file, whatever its text (issue 24; doc/mesh.md,
"The sandbox" and "What a .geo may do").

A .geo is meshed in a child process under a seccomp filter and Landlock. Each hostile script
below tries to run `touch CANARY`, or to write CANARY, where CANARY is a file in the test's
temporary folder (outside the case's tree) or inside the case's tree; the test asserts that no
canary appears, that fcsim exits with status 2 and prints exactly one stderr line naming the
mesh file, and, where the command is `run -o OUT`, that nothing was written at OUT.

To show that the sandbox, not the text check, is what stops them, most scripts run twice: as
they are (the text check refuses them first, naming the line) and with the test hook
-fc_mesh_skip_script_check (the check is skipped and the sandbox alone stops them). The positive
control runs one script with the hook and -fc_mesh_geo_unsandboxed, and the canary then appears:
the canary test can fail. The disagreements between the check's lexer and Gmsh 4.8's (strings of
1021-1025 characters, both quotes, NUL and other control bytes, CR line ends, strings and
comments inside skipped If blocks) each get a script that is harmless to one lexer and runs
a command for the other.

Also: Exit, a loop that never ends (-fc_mesh_timeout), a memory bomb (the child dies, fcsim
reports), an interrupt while meshing (exit 130, the child gone), a machine without seccomp
(simulated with a filter on fcsim itself: the .geo is refused, unless the user opts in),
FIFOs and devices as mesh paths, a 50 MB script (the check streams its tokens), and
-fc_mesh_timeout's values.

Every check runs and reports; the test fails at the end if any did."""
import ctypes
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from fctest import ROOT, FCSIM, figure

tmp = tempfile.mkdtemp(prefix="fcsim-mesh-sandbox-")
tree = os.path.join(tmp, "project")  # the case's folder tree
meshes = os.path.join(tree, "meshes")
os.makedirs(os.path.join(meshes, "parts"))
shutil.copy(os.path.join(ROOT, "meshes", "cube.geo"), os.path.join(meshes, "parts", "cube.geo"))
failures = []
nchecks = 0
SKIP = ["-fc_mesh_skip_script_check"]
nhostile = 0  # scripts that try to run a command or write a file


def check(cond, msg):
    global nchecks
    nchecks += 1
    print(("ok   " if cond else "FAIL ") + msg)
    sys.stdout.flush()
    if not cond:
        failures.append(msg)


def canaries():
    """Every canary file, in the temporary folder and in the case's tree."""
    found = []
    for d, _, files in os.walk(tmp):
        found += [os.path.join(d, f) for f in files if "CANARY" in f]
        found += [d] if "CANARY" in os.path.basename(d) else []
    return found


def write(path, data):
    with open(path, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())
    return path


def geo(name, body):
    """A mesh script in the tree's meshes/ folder; the cube's geometry comes first, so that the
    script meshes when what follows is harmless."""
    return write(os.path.join(meshes, name + ".geo"), b'Include "parts/cube.geo";\n' + body)


def case(name, mesh):
    path = os.path.join(tree, name + ".json")
    with open(path, "w") as f:
        json.dump({"name": name, "time": {"dt": 1, "steps": 1},
                   "bodies": [{"name": "block", "mesh": {"file": os.path.relpath(mesh, tree)},
                               "material": {"model": "linear", "E": 1e6, "nu": 0.3, "density": 1000},
                               "boundary": [{"group": "zmin", "fix": [True, True, True]}]}]}, f)
    return path


def limit_memory():
    # a memory bomb ends in the child, not on this machine's other processes
    resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))


def fcsim(args, timeout=120, preexec=limit_memory):
    try:
        p = subprocess.run([FCSIM] + args, cwd=ROOT, capture_output=True, text=True, timeout=timeout, preexec_fn=preexec)
        return p.returncode, [l for l in p.stderr.splitlines() if l.strip()], p.stdout
    except subprocess.TimeoutExpired:
        return None, ["(timed out after %d s)" % timeout], ""


def one_line(label, args, subs, timeout=120, preexec=limit_memory, outdir=None):
    """Exit 2, one stderr line holding every substring, no canary, nothing written at outdir."""
    global nhostile
    nhostile += 1
    rc, lines, _ = fcsim(args, timeout, preexec)
    line = lines[0] if lines else ""
    check(rc == 2 and len(lines) == 1 and all(s in line for s in subs),
          "%s: exit 2 and one line with %s (got exit %s, %d lines: %s)" % (label, subs, rc, len(lines), " | ".join(lines)[:400]))
    c = canaries()
    check(not c, "%s: no canary (%s)" % (label, c))
    for x in c:
        os.remove(x) if os.path.isfile(x) else shutil.rmtree(x)
    if outdir:
        d = os.path.dirname(outdir)
        left = [x for x in os.listdir(d) if x.startswith(os.path.basename(outdir))]
        check(not left, "%s: nothing written at %s (%s)" % (label, outdir, left))
    return line


def meshes_ok(label, args):
    rc, lines, stdout = fcsim(args)
    check(rc == 0 and "100 elements" in stdout and not canaries(),
          "%s: the harmless script meshes (the cube's 100 tetrahedra), no canary (exit %s, %s)" % (label, rc, " | ".join(lines)[:300]))


CANARY_OUT = os.path.join(tmp, "CANARY")            # outside the case's tree
CANARY_IN = os.path.join(meshes, "parts", "CANARY")  # inside it, next to the scripts
STOPPED = "the mesh sandbox stopped it"

# 1. Every way the language runs a program or writes a file: refused by the text check (first
# run), stopped by the sandbox when the check is skipped (second run).
hostile = [
    ("SystemCall", 'SystemCall "touch %s";\n' % CANARY_OUT, "SystemCall is refused", STOPPED),
    ("SystemCall in single quotes", "SystemCall 'touch %s';\n" % CANARY_IN, "SystemCall is refused", STOPPED),
    ("System", 'System "touch %s";\n' % CANARY_OUT, "System is refused", STOPPED),
    ("NonBlockingSystemCall", 'NonBlockingSystemCall "touch %s";\n' % CANARY_OUT, "NonBlockingSystemCall is refused", STOPPED),
    ("S2N-built SystemCall", 'S2N[StrCat("System", "Call")] "touch %s";\n' % CANARY_OUT, "S2N is refused", STOPPED),
    ("OnelabRun", 'OnelabRun("client", "touch %s");\n' % CANARY_OUT, "OnelabRun is refused", "tried to open a socket"),
    ("Printf > absolute path", 'Printf("x") > "%s";\n' % CANARY_OUT, "Printf(...) > FILE is refused", "tried to open a file for writing"),
    ("Printf >> path in the tree", 'Printf("x") >> "%s";\n' % CANARY_IN, "Printf(...) > FILE is refused", "tried to open a file for writing"),
    ("Save to an absolute path", 'Mesh 3; Save "%s.msh";\n' % CANARY_OUT, "Save is refused", "tried to open a file for writing"),
    ("Save next to the script", 'Mesh 3; Save "CANARY.msh";\n', "Save is refused", "tried to open a file for writing"),
    ("CreateDir", 'CreateDir "%s_dir";\n' % CANARY_OUT, "CreateDir is refused", "tried to create a folder"),
]
for label, body, by_check, by_sandbox in hostile:
    name = label.replace(" ", "_").replace(">", "gt").replace("-", "_")
    g = geo(name, body.encode())
    c = case(name, g)
    one_line(label + " (text check)", ["info", c], [g + ": line 2: " + by_check])
    out = os.path.join(tmp, "out_" + name)
    one_line(label + " (sandbox alone)", ["run", c, "-o", out, "-q"] + SKIP, [g + ": ", by_sandbox], outdir=out)

# Include and Merge chains: the command is two files away.
write(os.path.join(meshes, "parts", "chain2.geo"), 'SystemCall "touch %s";\n' % CANARY_OUT)
write(os.path.join(meshes, "parts", "chain1.geo"), 'Include "chain2.geo";\n')
write(os.path.join(meshes, "parts", "script.msh"), 'Printf("x") > "%s";\n' % CANARY_OUT)  # not MSH: Gmsh runs it
g = geo("chain", b'Include "parts/chain1.geo";\nMerge "parts/script.msh";\n')
one_line("Include chain (text check)", ["info", case("chain", g)], [g + ": ", "chain2.geo, line 1: SystemCall is refused"])
one_line("Include chain (sandbox alone)", ["info", case("chain", g)] + SKIP, [g + ": ", "the script tried to"])
g = geo("merge", b'Merge "parts/script.msh";\n')
one_line("Merge of a script (sandbox alone)", ["info", case("merge", g)] + SKIP, [g + ": ", "tried to open a file for writing"])

# Exit: fcsim would have stopped with status 0 and no output.
g = geo("exit", b"Exit;\n")
one_line("Exit (text check)", ["info", case("exit", g)], [g + ": line 2: Exit is refused"])
one_line("Exit (sandbox alone)", ["info", case("exit", g)] + SKIP, [g + ": the script ended Gmsh (Exit) before the mesh was made"])

# Reading outside the mesh's folder: the check refuses it; Landlock, where the kernel has it,
# makes the file unreadable for Gmsh.
landlock = ctypes.CDLL(None, use_errno=True).syscall(444, None, 0, 1) > 0  # landlock_create_ruleset(.., VERSION)
g = geo("read_outside", b'Include "/etc/hostname";\n')
one_line("Include /etc/hostname (text check)", ["info", case("read_outside", g)], [g + ": line 2: Include is refused"])
if landlock:
    one_line("Include /etc/hostname (sandbox alone, Landlock)", ["info", case("read_outside", g)] + SKIP, [g + ": gmsh: Unable to open file '/etc/hostname'"])

# 2. The positive control: without the sandbox and the check, the same script does run its
# command (so a missing canary above means something).
g = geo("control", b'SystemCall "touch %s";\n' % CANARY_OUT.encode())
rc, lines, _ = fcsim(["info", case("control", g), "-fc_mesh_geo_unsandboxed"] + SKIP)
check(os.path.exists(CANARY_OUT), "positive control: unsandboxed and unchecked, SystemCall ran (exit %s, canary %s)" % (rc, os.path.exists(CANARY_OUT)))
if os.path.exists(CANARY_OUT):
    os.remove(CANARY_OUT)
meshes_ok("-fc_mesh_geo_unsandboxed on a harmless script", ["info", case("cube_unsandboxed", os.path.join(meshes, "parts", "cube.geo")), "-fc_mesh_geo_unsandboxed"])

# 3. Where the check's lexer and Gmsh's disagreed (issue 24): text one lexer reads as a string
# or a comment and the other as commands. With the check they are refused or harmless; without
# it the sandbox stops what runs.
cmd_sq = b"SystemCall 'touch " + CANARY_OUT.encode() + b"';"
cmd_dq = b'SystemCall "touch ' + CANARY_OUT.encode() + b'";'
for n in (1021, 1022, 1023, 1024, 1025):
    for q, other, cmd in ((b'"', "double", cmd_sq), (b"'", "single", cmd_dq)):
        # content: n letters, then the command, then the closing quote: a string of n + len(cmd)
        # characters for the check; for Gmsh the string is cut after 1023 and the command runs
        # when n >= 1024
        body = b"x = " + q + b"A" * n + b"; " + cmd + b" y = " + q + b";\n"
        name = "long_%d_%s" % (n, other)
        g = geo(name, body)
        one_line("string of %d+ characters in %s quotes (text check)" % (n, other), ["info", case(name, g)], [g + ": line 2: A string of more than 1023 characters is refused"])
        if n >= 1024:
            one_line("string of %d+ characters in %s quotes (sandbox alone)" % (n, other), ["info", case(name, g)] + SKIP, [g + ": ", "the script tried to"])
        # a string of exactly n characters (n <= 1023 is one string for both lexers): harmless
        if n <= 1023:
            name = "fits_%d_%s" % (n, other)
            g = geo(name, b"x = " + q + cmd + b" " + b"A" * (n - len(cmd) - 1) + q + b";\n")
            meshes_ok("string of exactly %d characters in %s quotes holding a command" % (n, other), ["info", case(name, g)] + SKIP)
nul_cases = [
    ("NUL in a string", b'Printf("a\x00); ' + cmd_sq + b' Printf(");\n'),
    ("NUL in a single-quoted string", b"Printf('a\x00); " + cmd_dq + b" Printf(');\n"),
    ("NUL in a // comment", b"// hi \x00 " + cmd_dq + b"\n"),
    ("NUL in a /* */ comment", b"/* hi \x00 " + cmd_dq + b" */\n"),
]
for label, body in nul_cases:
    name = label.replace(" ", "_").replace("/", "").replace("*", "")
    g = geo(name, body)
    one_line(label + " (text check)", ["info", case(name, g)], [g + ": line 2: A NUL byte is refused"])
    one_line(label + " (sandbox alone)", ["info", case(name, g)] + SKIP, [g + ": ", "the script tried to"])
skipped = [
    ("EndIf in a string of a skipped If", b"If (0)\n  Printf(\"EndIf " + cmd_sq + b" If (0) \");\nEndIf\n", "line 3: A string is refused: it holds the word EndIf"),
    ("EndIf in a comment of a skipped If", b"If (0)\nE/* EndIf " + cmd_dq + b" */\nEndIf\n", "line 3: A comment is refused: it holds the word EndIf"),
    ("Else in a string of a skipped If", b"If (0)\n  Printf(\"Else " + cmd_sq + b" If (0) \");\nEndIf\n", "line 3: A string is refused: it holds the word Else"),
]
for label, body, by_check in skipped:
    name = label.replace(" ", "_")
    g = geo(name, body)
    one_line(label + " (text check)", ["info", case(name, g)], [g + ": " + by_check])
    one_line(label + " (sandbox alone)", ["info", case(name, g)] + SKIP, [g + ": ", "the script tried to"])
# Control bytes and CR line ends are the same for both lexers: the text in a comment stays a
# comment, the script meshes.
harmless = [
    ("control bytes in a string", b'Printf("\x01\x07\x1b[31m\x7f ' + cmd_sq + b'");\n'),
    ("CR inside a // comment", b"// comment\r " + cmd_dq + b"\r\n"),
    ("CR line ends", b"x = 1;\ry = 2;\r// " + cmd_dq + b"\r\n"),
    ("vertical tab and form feed", b"x\x0c= 1;\n// \x0b " + cmd_dq + b"\n"),
]
for label, body in harmless:
    name = label.replace(" ", "_").replace("/", "")
    g = geo(name, body)
    meshes_ok(label + " (text check)", ["info", case(name, g)])
    meshes_ok(label + " (sandbox alone)", ["info", case(name, g)] + SKIP)

# 4. A loop that never ends, an interrupt, a memory bomb: one line, and no process left.
g = geo("loop", b"For i In {1:1e12}\n  x = i;\nEndFor\n")
c = case("loop", g)
out = os.path.join(tmp, "out_loop")
one_line("endless loop, -fc_mesh_timeout 2", ["run", c, "-o", out, "-q", "-fc_mesh_timeout", "2"], [g + ": meshing the script took longer than the limit of 2 s"], outdir=out)
p = subprocess.Popen([FCSIM, "info", c], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, preexec_fn=limit_memory)


def exe(pid):
    try:
        return os.readlink("/proc/%d/exe" % pid)
    except OSError:
        return None


# the meshing child is fcsim itself (fork without exec); Open MPI's singleton may start a helper.
# Wait until it exists (a fixed sleep raced with a loaded machine's slow start: the signal could
# reach fcsim before it forked), then 0.5 s more so that the child is inside the endless loop.
kids = []
for _ in range(600):
    kids = [int(x) for x in open("/proc/%d/task/%d/children" % (p.pid, p.pid)).read().split()]
    kids = [k for k in kids if exe(k) == os.path.realpath(FCSIM)]
    if kids or p.poll() is not None:
        break
    time.sleep(0.1)
time.sleep(0.5)
p.send_signal(signal.SIGINT)
_, err = p.communicate(timeout=30)
lines = [l for l in err.splitlines() if l.strip()]
check(p.returncode == 130 and len(lines) == 1 and "interrupted" in lines[0], "SIGINT while meshing: exit 130, one line (got %s: %s)" % (p.returncode, " | ".join(lines)[:300]))
for _ in range(50):
    if not any(exe(k) for k in kids):
        break
    time.sleep(0.1)
check(len(kids) == 1 and not exe(kids[0]), "SIGINT while meshing: the meshing child %s is gone" % kids)
g = geo("bomb", b"x = {1:2e9};\n")  # 16 GB of doubles, under a 3 GB address-space limit
one_line("memory bomb", ["info", case("bomb", g)], [g + ": Gmsh stopped on signal"])

# 5. No seccomp on this machine (simulated: a filter on fcsim itself makes seccomp(2) and
# prctl(PR_SET_SECCOMP) fail, and hides Landlock): the .geo is refused, a .msh still loads, and
# -fc_mesh_geo_unsandboxed is the explicit opt-in.
libc = ctypes.CDLL(None, use_errno=True)


def no_seccomp():
    limit_memory()

    class Insn(ctypes.Structure):
        _fields_ = [("code", ctypes.c_ushort), ("jt", ctypes.c_ubyte), ("jf", ctypes.c_ubyte), ("k", ctypes.c_uint)]

    class Prog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(Insn))]
    ld_nr, ld_a0, jeq, ret = 0x20, 0x20, 0x15, 0x06
    allow, enosys = 0x7fff0000, 0x00050000 | 38
    code = [(ld_nr, 0, 0, 0),               # A = syscall number
            (jeq, 5, 0, 317),               # seccomp -> ENOSYS
            (jeq, 4, 0, 444),               # landlock_create_ruleset -> ENOSYS
            (jeq, 0, 2, 157),               # prctl: look at option
            (ld_a0, 0, 0, 16),              # A = args[0]
            (jeq, 1, 0, 22),                # PR_SET_SECCOMP -> ENOSYS
            (ret, 0, 0, allow),
            (ret, 0, 0, enosys)]
    arr = (Insn * len(code))(*[Insn(*i) for i in code])
    prog = Prog(len(code), arr)
    libc.prctl(38, 1, 0, 0, 0)  # PR_SET_NO_NEW_PRIVS
    if libc.prctl(22, 2, ctypes.byref(prog), 0, 0):  # PR_SET_SECCOMP, SECCOMP_MODE_FILTER
        raise OSError(ctypes.get_errno(), "cannot install the test's filter")


cube = os.path.join(meshes, "parts", "cube.geo")
one_line("no seccomp: the .geo is refused", ["info", case("noseccomp", cube)],
         [cube + ": cannot mesh the .geo script in a sandbox on this machine", "-fc_mesh_geo_unsandboxed"], preexec=no_seccomp)
rc, lines, stdout = fcsim(["info", case("noseccomp", cube), "-fc_mesh_geo_unsandboxed"], preexec=no_seccomp)
check(rc == 0 and "100 elements" in stdout, "no seccomp, -fc_mesh_geo_unsandboxed: the .geo meshes (exit %s, %s)" % (rc, " | ".join(lines)[:300]))
msh = shutil.copy(os.path.join(ROOT, "tests", "data", "cube_v41.msh"), os.path.join(meshes, "parts", "cube_v41.msh"))
rc, lines, stdout = fcsim(["info", case("noseccomp_msh", msh)], preexec=no_seccomp)
check(rc == 0 and "100 elements" in stdout, "no seccomp: a .msh still loads (exit %s, %s)" % (rc, " | ".join(lines)[:300]))

# 6. A mesh path that is not a regular file would be read forever.
fifo = os.path.join(meshes, "fifo.msh")
os.mkfifo(fifo)
one_line("a FIFO named .msh", ["info", case("fifo", fifo)], [fifo + ": not a regular file", "FIFO"], timeout=30)
fifo_geo = os.path.join(meshes, "fifo.geo")
os.mkfifo(fifo_geo)
one_line("a FIFO named .geo", ["info", case("fifo_geo", fifo_geo)], [fifo_geo + ": not a regular file", "FIFO"], timeout=30)
for dev in ("/dev/zero", "/dev/urandom"):
    link = os.path.join(meshes, os.path.basename(dev) + ".msh")
    os.symlink(dev, link)
    one_line("%s behind a .msh name" % dev, ["info", case(os.path.basename(dev), link)], [link + ": not a regular file", "device"], timeout=30)
folder = os.path.join(meshes, "folder.geo")
os.mkdir(folder)
one_line("a folder named .geo", ["info", case("folder", folder)], [folder + ": not a regular file", "folder"], timeout=30)
g = geo("include_fifo", b'Include "fifo.geo";\n')
one_line("Include of a FIFO", ["info", case("include_fifo", g)], [g + ": line 2: Include is refused", "not a regular file"], timeout=30)

# 7. A 50 MB script of punctuation: the check streams its tokens (it kept 32 bytes per token:
# 2.9 GB), so it passes under the 3 GB address-space limit, and the child meshes it.
big = os.path.join(meshes, "big.geo")
with open(big, "w") as f:
    f.write('Include "parts/cube.geo";\nx = {')
    f.write("1," * 25000000)
    f.write("1};\n")
meshes_ok("a 50 MB script", ["info", case("big", big)])
os.remove(big)

# 8. -fc_mesh_timeout's values.
for v in ("0", "-1", "abc", "1e8", "nan"):
    rc, lines, _ = fcsim(["info", case("cube", cube), "-fc_mesh_timeout", v])
    check(rc == 2 and len(lines) == 1 and ("-fc_mesh_timeout " + v) in lines[0], "-fc_mesh_timeout %s: exit 2, one line (got %s: %s)" % (v, rc, " | ".join(lines)[:200]))
rc, lines, _ = fcsim(["info", case("cube", cube), "-fc_mesh_timeout"])
check(rc == 2 and len(lines) == 1 and "needs a number of seconds" in lines[0], "-fc_mesh_timeout without a value: exit 2 (got %s: %s)" % (rc, " | ".join(lines)[:200]))
meshes_ok("-fc_mesh_timeout 60 on a harmless script", ["info", case("cube", cube), "-fc_mesh_timeout", "60"])

# 9. `make memcheck` (FC_MEMCHECK=1): the sandbox's paths under valgrind (the child is forked,
# so valgrind follows it without --trace-children): a mesh rebuilt from the child, a trapped
# SystemCall, a write, Exit, the time limit. No memory error, no definite leak, same exit.
vg = shutil.which("valgrind") if os.environ.get("FC_MEMCHECK") else None
if vg:
    supp = os.path.join(ROOT, "tests", "valgrind.supp")
    runs = [("harmless .geo", ["info", case("cube", cube)], 0),
            ("SystemCall", ["info", case("SystemCall", os.path.join(meshes, "SystemCall.geo"))] + SKIP, 2),
            ("Printf > file", ["info", case("Printf_gt_absolute_path", os.path.join(meshes, "Printf_gt_absolute_path.geo"))] + SKIP, 2),
            ("Exit", ["info", case("exit", os.path.join(meshes, "exit.geo"))] + SKIP, 2),
            ("endless loop", ["info", case("loop", os.path.join(meshes, "loop.geo")), "-fc_mesh_timeout", "20"], 2)]
    for label, args, want in runs:
        cmd = [vg, "-q", "--error-exitcode=9", "--leak-check=full", "--errors-for-leak-kinds=definite",
               "--suppressions=" + supp, "--num-callers=60", FCSIM] + args
        p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)
        check(p.returncode == want and not canaries(), "valgrind, %s: exit %d (got %d; %s)" % (label, want, p.returncode, p.stderr[-1500:] if p.returncode != want else ""))

if failures:
    print("FAIL: %d of %d checks failed" % (len(failures), nchecks))
    sys.exit(1)
figure("mesh sandbox: %d checks; %d hostile scripts ran no command and wrote no file, with the text check and with the sandbox alone; endless loop, interrupt, memory bomb, no seccomp, FIFO: one line each" % (nchecks, nhostile))
shutil.rmtree(tmp)
