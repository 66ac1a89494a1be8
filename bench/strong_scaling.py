#!/usr/bin/python3
"""Strong scaling of one body over MPI ranks (issue 29's benchmark; doc/mpi.md "Strong scaling").

Runs the same case on 1, 2, ... ranks (`mpiexec -n N fcsim run`), each with -log_view and
-memory_view, and reports per rank count: wall time of the run, the time split from PETSc's log
(fcsim's events FcAssembly, FcFactor, FcSolve, FcOutput: the maximum over ranks, which is what the
run waits for), the contact phases from stats.csv (W, contact solve; rank 0's, zero without
contact), the peak memory per rank, the speed-up and the parallel efficiency. From the split it
fits, per phase, Amdahl's t(N) = s + p/N to the measured points and projects the efficiency at
8-64 ranks; the projection is a model, printed as one, never a measurement.

    /usr/bin/python3 bench/strong_scaling.py                     # bench/scaling_beam.json, 1 and 2 ranks
    /usr/bin/python3 bench/strong_scaling.py --ranks 1,2,4,8 --case CASE.json --mpiexec "srun"  # a cluster

Writes bench/out/strong_scaling/scaling.md and scaling.csv."""
import argparse, csv, os, re, shlex, shutil, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FCSIM = os.path.join(ROOT, 'bin', 'fcsim')
EVENTS = ('FcAssembly', 'FcFactor', 'FcSolve', 'FcOutput')


def log_times(path):
    """Max-over-ranks time of each fcsim event in a -log_view file (its 4th column)."""
    t = {e: 0.0 for e in EVENTS}
    for line in open(path):
        f = line.split()
        if f and f[0] in t and len(f) > 3:
            t[f[0]] += float(f[3])  # an event may appear in several stages
    return t


def log_memory(text):
    """Peak process memory per rank from -memory_view (printed on stdout): (max, min) over ranks, bytes."""
    for line in text.splitlines():
        m = re.search(r'Maximum \(over computational time\) process memory:\s+total\s+(\S+)\s+max\s+(\S+)\s+min\s+(\S+)', line)
        if m: return float(m.group(2)), float(m.group(3))
    return float('nan'), float('nan')


def stats_sums(path, cols=('w_time', 'contact_solve_time')):
    s = {c: 0.0 for c in cols}
    with open(path) as f:
        for row in csv.DictReader(f):
            for c in cols:
                if row.get(c) not in (None, '', 'nan'): s[c] += float(row[c])
    return s


def run(case, n, launcher, work, extra):
    out, log = os.path.join(work, f'n{n}'), os.path.join(work, f'n{n}.log')
    pre = [] if n == 1 else shlex.split(launcher) + ['-n', str(n)] + (['--oversubscribe'] if n > os.cpu_count() else [])
    cmd = pre + [FCSIM, 'run', '-q', case, '-o', out, '-log_view', ':' + log, '-memory_view'] + extra
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT='1', OMPI_ALLOW_RUN_AS_ROOT_CONFIRM='1', OPENBLAS_NUM_THREADS='1')
    t0 = time.time()
    p = subprocess.run(cmd, env=env, capture_output=True, text=True)
    wall = time.time() - t0
    if p.returncode != 0:
        sys.exit(f'strong_scaling: {" ".join(cmd)} exited {p.returncode}: {(p.stderr or p.stdout).strip()[-300:]}')
    r = dict(ranks=n, wall=wall, **log_times(log), **stats_sums(os.path.join(out, 'stats.csv')))
    r['mem_max'], r['mem_min'] = log_memory(p.stdout)
    with open(os.path.join(out, 'probes.csv')) as f:
        r['probes'] = [float(x) for x in f.read().splitlines()[-1].split(',')]
    return r


def amdahl(ts, ns):
    """Least-squares s, p of t = s + p/N (s, p >= 0) through the measured (N, t)."""
    if len(ns) == 1: return 0.0, ts[0]
    xs = [1.0 / n for n in ns]
    mx, mt = sum(xs) / len(xs), sum(ts) / len(ts)
    sxx = sum((x - mx) ** 2 for x in xs)
    p = max(0.0, sum((x - mx) * (t - mt) for x, t in zip(xs, ts)) / sxx)
    s = max(0.0, mt - p * mx)
    return s, p


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--case', default=os.path.join(ROOT, 'bench', 'scaling_beam.json'))
    ap.add_argument('--ranks', default='1,2')
    ap.add_argument('--mpiexec', default='mpiexec -q', help='the launcher, without -n (e.g. "srun" on a cluster)')
    ap.add_argument('--project', default='8,16,32,64')
    ap.add_argument('-o', default=os.path.join(ROOT, 'bench', 'out', 'strong_scaling'))
    ap.add_argument('--set', action='append', default=[], help='passed to fcsim run --set')
    a = ap.parse_args()
    ranks = [int(x) for x in a.ranks.split(',')]
    os.makedirs(a.o, exist_ok=True)
    work = tempfile.mkdtemp(prefix='fcsim_scaling_')
    extra = sum((['--set', s] for s in a.set), [])
    try:
        rows = [run(a.case, n, a.mpiexec, work, extra) for n in ranks]
    finally:
        shutil.rmtree(work, ignore_errors=True)
    base = rows[0]
    phases = list(EVENTS) + ['w_time', 'contact_solve_time']
    lines = [f'# Strong scaling: {os.path.relpath(a.case, ROOT)} ({time.strftime("%Y-%m-%d %H:%M")}, {os.cpu_count()} cores)', '',
             '| ranks | wall [s] | assembly | factorization | solve | output | W | contact solve | speed-up | efficiency | peak memory per rank [MB] |',
             '|---|---|---|---|---|---|---|---|---|---|---|']
    for r in rows:
        sp = base['wall'] / r['wall']
        lines.append(f"| {r['ranks']} | {r['wall']:.2f} | " + ' | '.join(f'{r[k]:.3g}' for k in phases) +
                     f" | {sp:.2f} | {sp / r['ranks'] * base['ranks']:.2f} | {r['mem_max'] / 1e6:.0f} (min {r['mem_min'] / 1e6:.0f}) |")
    # the distributed run sums in another order: probes agree to the direct solve's round-off,
    # cond(A) eps ~ 1e-10 relative (doc/mpi.md "Accuracy"), judged against the row's largest value
    scale = max(abs(x) for x in base['probes'])
    dev = max(abs(x - y) for r in rows for x, y in zip(r['probes'], base['probes'])) / scale
    same = dev <= 1e-9
    lines += ['', f'Last probes row against 1 rank: largest difference {dev:.2e} of the largest value (tolerance 1e-9: cond(A) eps)', '',
              'Projection (a model, not a measurement): per phase, t(N) = s + p/N fitted to the points above; '
              'the rest of the wall time (start-up, meshing — rank 0 meshes the body and sends the others their parts —, partition, set-up) fitted the same way.', '',
              '| ranks | projected wall [s] | efficiency | serial share |', '|---|---|---|---|']
    ns = [r['ranks'] for r in rows]
    fits = {k: amdahl([r[k] for r in rows], ns) for k in phases}
    fits['rest'] = amdahl([r['wall'] - sum(r[k] for k in phases) for r in rows], ns)
    t1 = sum(s + p for s, p in fits.values())
    for n in [int(x) for x in a.project.split(',')]:
        tn = sum(s + p / n for s, p in fits.values())
        ser = sum(s for s, _ in fits.values()) / tn
        lines.append(f'| {n} | {tn:.2f} | {t1 / tn / n:.2f} | {ser:.2f} |')
    lines += ['', 'Fitted serial part s and parallel part p per phase [s]: ' +
              ', '.join(f'{k} s={s:.3g} p={p:.3g}' for k, (s, p) in fits.items())]
    text = '\n'.join(lines) + '\n'
    open(os.path.join(a.o, 'scaling.md'), 'w').write(text)
    with open(os.path.join(a.o, 'scaling.csv'), 'w', newline='') as f:
        w = csv.writer(f)
        w.writerow(['ranks', 'wall'] + phases + ['mem_max', 'mem_min'])
        for r in rows: w.writerow([r['ranks'], r['wall']] + [r[k] for k in phases] + [r['mem_max'], r['mem_min']])
    print(text, end='')
    return 0 if same else 1


if __name__ == '__main__':
    sys.exit(main())
