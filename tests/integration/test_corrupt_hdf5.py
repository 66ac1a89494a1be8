"""Damaged FCLIB files (issue 17, item 8): byte-flipped copies of the valid problems
tests/bad/fclib/baseline_local.hdf5 and baseline_global.hdf5 are read by `fcsim fclib solve`
(nsgs, and sap, whose global form also goes through libfclib), and `fcsim fclib compare`.

The flips are deterministic (seeded) and cover every part of an HDF5 file: the superblock, the
object header of every group and dataset, the raw data of every dataset, and the rest (B-trees,
local heaps, free space). For every flipped file and command:
  - no crash (exit status < 128), no hang;
  - exit 2 with exactly ONE stderr line, naming the file; or exit 0 when the flip hit bytes the
    problem does not depend on or changed a value into another valid one, and then the solve is
    sane (2 contacts, converged, finite error); sap may also report that it did not converge
    (exit 1, its result line on stdout, nothing on stderr);
  - never HDF5's own diagnostics ("HDF5-DIAG", "H5...c line"), libfclib's "ERROR: HDF5 call
    failed" (it called exit(1)), or "HDF5: infinite loop closing library";
  - every allocation freed (-malloc_debug -malloc_dump)."""
import concurrent.futures
import math
import os
import random
import re
import shutil
import subprocess
import tempfile
import h5py
from fctest import ROOT, FCSIM, figure, check, fail

SRC = os.path.join(ROOT, "tests", "bad", "fclib")
tmp = tempfile.mkdtemp(prefix="fcsim-corrupt-")
rng = random.Random(20240617)


def regions(path):
    """name -> (start, end) byte ranges of the file's parts (h5py object addresses and data)."""
    size = os.path.getsize(path)
    with h5py.File(path, "r") as f:
        objs = [f]
        f.visititems(lambda name, obj: objs.append(obj))
        heads = sorted((h5py.h5o.get_info(o.id).addr, o.name) for o in objs)
        data = [(o.id.get_offset(), o.id.get_storage_size(), o.name) for o in objs if isinstance(o, h5py.Dataset)]
    r = {"superblock": (0, min(heads[0][0], 96))}
    starts = sorted([a for a, _ in heads] + [d[0] for d in data if d[0] is not None] + [size])
    for a, name in heads:
        nxt = min(s for s in starts if s > a)
        r["object header " + name] = (a, min(nxt, a + 256))
    for off, n, name in data:
        if off is not None and n:
            r["data " + name] = (off, off + n)
    return r, size


def flips(path):
    """[(label, offset, bit)]: 2 in each object header, 1 in each dataset's data, 4 in the
    superblock, 12 in the bytes no region covers (B-trees, heaps, free space)."""
    r, size = regions(path)
    out = []
    for name in sorted(r):
        a, b = r[name]
        k = 4 if name == "superblock" else 1 if name.startswith("data") else 2
        for _ in range(k):
            out.append((name, rng.randrange(a, b), rng.randrange(8)))
    covered = set()
    for a, b in r.values():
        covered.update(range(a, b))
    rest = [o for o in range(size) if o not in covered]
    for o in sorted(rng.sample(rest, min(12, len(rest)))):
        out.append(("other (B-tree, heap, free space)", o, rng.randrange(8)))
    return out


jobs = []  # (label, file, argv)
for base in ("baseline_local.hdf5", "baseline_global.hdf5"):
    data = open(os.path.join(SRC, base), "rb").read()
    for n, (where, off, bit) in enumerate(flips(os.path.join(SRC, base))):
        b = bytearray(data)
        b[off] ^= 1 << bit
        name = "%s_%04d_%d.hdf5" % (base[:-5], off, bit)
        path = os.path.join(tmp, name)
        with open(path, "wb") as f:
            f.write(b)
        label = "%s byte %d bit %d (%s)" % (base, off, bit, where)
        jobs.append((label, path, ["fclib", "solve", path, "-malloc_debug", "-malloc_dump"]))
        # the other readers on a sample (every 3rd flip): compare after a good file, sap's global form
        if n % 3 == 0:
            jobs.append((label + " compare", path, ["fclib", "compare", os.path.join(SRC, base), path, "--solvers", "nsgs,lemke"]))
        if n % 3 == 1 and "global" in base:
            jobs.append((label + " sap", path, ["fclib", "solve", path, "--solver", "sap"]))

DIAG = re.compile(r"HDF5-DIAG|H5[A-Za-z]*\.c line|HDF5 call failed|infinite loop|major:|minor:")
RESULT = re.compile(r": contacts (\d+) iterations \d+ error (\S+)")


def execute(job):
    label, path, argv = job
    try:
        return subprocess.run([FCSIM] + argv, cwd=ROOT, capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return None


with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
    done = list(pool.map(execute, jobs))

counts = {}
for (label, path, argv), p in zip(jobs, done):
    if p is None:
        fail("%s: hung (no exit in 120 s)" % label)
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    # sap warns when it symmetrizes M (src/contact/solvers/sap/global.c) before it may fail: counted
    warned = [l for l in lines if ": warning: " in l] if "sap" in argv else []
    lines = [l for l in lines if l not in warned]
    if warned:
        counts["sap warning lines"] = counts.get("sap warning lines", 0) + len(warned)
    err = None
    if p.returncode >= 128 or p.returncode < 0:
        err = "crashed (exit %d)" % p.returncode
    elif DIAG.search(p.stderr) or DIAG.search(p.stdout):
        err = "HDF5 or libfclib diagnostics"
    elif "Total space" in p.stdout:
        err = "PETSc reports unfreed memory"
    elif p.returncode == 2:
        if len(lines) != 1:
            err = "%d stderr lines (expected 1)" % len(lines)
        elif os.path.basename(path) not in lines[0]:
            err = "the message does not name the file"
    elif p.returncode in (0, 1):
        res = [m for m in (RESULT.search(l) for l in p.stdout.splitlines()) if m]
        sap_no = p.returncode == 1 and "sap" in argv and len(lines) == 1 and "did not converge" in lines[0]
        # fclib compare exits 1 when a solve did not converge (lemke's pyramid on the baseline
        # already does not reach the tolerance), with its whole table and one line saying so
        compare_no = p.returncode == 1 and "compare" in argv and len(lines) == 1 and "did not converge" in lines[0]
        if p.returncode == 1 and not sap_no and not compare_no:
            err = "exit 1"
        elif "compare" in argv:
            if (p.returncode and not compare_no) or (not p.returncode and lines) or "delta%" not in p.stdout:
                err = "compare: exit %d with %d stderr lines" % (p.returncode, len(lines))
        elif lines and not sap_no:
            err = "stderr not empty on success"
        elif len(res) != 1 or res[0].group(1) != "2" or not math.isfinite(float(res[0].group(2))):
            err = "no sane result line (2 contacts, finite error)"
    else:
        err = "exit %d" % p.returncode
    if err:
        print("FAIL %s: %s\n   cmd: %s\n   stderr: %s\n   stdout: %s" % (label, err, " ".join([FCSIM] + argv), p.stderr.strip()[:1500], p.stdout.strip()[:500]))
        fail("%s: %s" % (label, err))
    key = "%s exit %d" % (argv[1] if "sap" not in argv else "solve sap", p.returncode)
    counts[key] = counts.get(key, 0) + 1

nfiles = len({j[1] for j in jobs})
summary = ", ".join("%s: %d" % kv for kv in sorted(counts.items()))
check(True, "%d byte-flipped files, %d runs: no crash, no HDF5 diagnostics, one line per error (%s)" % (nfiles, len(jobs), summary))
figure("corrupt FCLIB files: %d flipped copies of the local and global baselines, %d runs (%s)" % (nfiles, len(jobs), summary))
shutil.rmtree(tmp)
