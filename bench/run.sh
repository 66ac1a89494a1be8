#!/bin/sh
# make bench: performance figures as ratios measured in one run (never timed assertions).
set -eu
cd "$(dirname "$0")/.."
mkdir -p bench/out
/usr/bin/python3 bench/step_breakdown.py
/usr/bin/python3 bench/contact_breakdown.py
/usr/bin/python3 bench/sap_schur.py
# issue 27: compliance lagged (sync, async) against exact and schur, time per step and force error
/usr/bin/python3 bench/lagged_step.py --refines 1,2
# issue 27, courtecuisse Fig. 5: CHOLMOD factorization time and the delay in steps against cube size (about 3 min)
/usr/bin/python3 bench/lagged_fig5.py
# issue 27 item 4: the same on courtecuisse Fig. 4's cube (cases/cube_instrument.json, 75 degree turn), refine 1
# and 2, and the 1 kHz haptic tick on the lagged W (about 5 min)
/usr/bin/python3 bench/cube_instrument_bench.py --refines 1,2
# han2023 Table I: the force-controlled cylinder press at dt = 0.01 s, real-time rate beside Drake's 0.06 (about 2.5 min)
/usr/bin/python3 bench/cylinder_press_rate.py
OPENBLAS_NUM_THREADS=1 ./build/bench/schur_bench -refine 1 -runs 3
# issue 16: wall time per haptic tick on the frozen contact problem (median, p99, fraction within 1 ms)
# for nsgs on cases/haptic_sphere.json (10 contacts) and on the refined block with ~300 contacts
/usr/bin/python3 bench/haptic_tick.py --solvers nsgs --budgets 1,5,20
# The fixed cost of a small contact solve beside its sweeps (issue 12 goal: < 10 µs for 1-10 contacts;
# issue 25: newton's within 10x of nsgs's)
./build/bench/solve_overhead
./build/bench/solve_overhead -type newton
./build/bench/solve_overhead -type auto
# issue 28: the recursive-corrective-motion paper's Table 1 (18k-36k DoFs, ~340-480 contacts, 5
# linearizations x 30 nsgs sweeps), recursive against fast per phase with compliance exact and schur,
# the paper's numbers beside (recursive exact's 10 W of 3m solves per size dominate: 37 min for the four
# sizes on the shared 2-core machine at load average 11-21; --sizes 1 for the smallest only)
/usr/bin/python3 bench/linearization_table.py
# Peer: Siconos fc3d NSGS (default and projection local solver) vs fcsim nsgs on the FCLIB
# problems fcsim's cases write (plus any files given as arguments: sh bench/run.sh FILE.hdf5 ...)
./bin/fcsim run cases/block_on_floor.json -q -o bench/out/block_on_floor --set output.fclib=true --set output.vtk=false --set time.t_end=0.2
./build/bench/siconos_peer -tol 1e-8 -runs 7 bench/out/block_on_floor/fclib/step_*.hdf5 bench/out/contact_hertz/fclib/step_*.hdf5 "$@"
# Peer on generated multi-body problems (walls and pyramids of rigid boxes, 100 to 10,000 contacts;
# fcsim's W block-sparse as its FCLIB reader stores it, Siconos with its sparse block W): per size
# class median ratios, log-log slopes. Sizes up to 3000: 3 runs each (about 10 min on a loaded
# 2-core machine); the 10,000 class: 1 run (the 10,000-contact wall needs about 26,000 sweeps per
# solve, 16 min for fcsim alone under load: an hour or more with Siconos, doc/performance.md)
/usr/bin/python3 bench/multibody_peer.py --sizes 100,300,1000,3000,10000 --runs 3 --large-runs 1
# issue 25: the real FCLIB set (../shared/fclib-real) and generated sets of 10 to 3000 contacts,
# fcsim nsgs, newton and auto against the same Siconos NSGS/NSGS_PROJ runs: median ratio per size
# class and the problems fcsim solves and Siconos does not (Siconos' budget 20,000 sweeps; the
# 10,000 class is the run above, nsgs only: about an hour per type with Siconos)
/usr/bin/python3 bench/multibody_peer.py --sizes 10,30,100,300,1000,3000 --runs 3 --types nsgs,newton,auto --real --siconos-max-it 20000 --out bench/out/peer25
# issue 25: auto against the faster of nsgs and newton alone, on the real set and a generated hard set
# (stacks, walls, pyramids, rock piles; goal <= 1.2x on each)
/usr/bin/python3 bench/auto_hard.py --runs 3
# issue 25: every solver on every real FCLIB problem (the table of doc/contact.md)
/usr/bin/python3 scripts/fclib_real_table.py
# newton where Gauss-Seidel stalls: generated stacks, walls and pyramids, 40 to 2000 contacts, nsgs
# capped at 1e4 sweeps beside newton to 1e-10, W stored by the fill rule (doc/performance.md; about 15 min)
/usr/bin/python3 bench/newton_hard.py --sizes 50,200,500,1000,2000 --cap 10000
# Dense against block-sparse W by fill: time per nsgs sweep, sap and newton solves; where sparse wins
./build/bench/fill_rule -m 30,100,300,1000 -runs 5
# sap with W dense and block-sparse (dense or sparse Cholesky of I + L^T W L) on generated walls; the
# dense one is skipped at 3000 contacts (about 45 min: 9000^3/3 flops per iteration); about 20 min
for n in 300 1000 3000; do /usr/bin/python3 bench/fclib_multibody.py --layout wall --contacts $n --mu 0.3,1.0 -o bench/out/sap_wall_$n.hdf5; done
./build/bench/fill_rule -mode sap -dense_skip_m 2000 bench/out/sap_wall_300.hdf5 bench/out/sap_wall_1000.hdf5 bench/out/sap_wall_3000.hdf5
# The table (issue 14, duriez2006 Fig. 7-8): randomized nsgs / lemke k = 4..32 study (delta% eq. 26,
# 20 loads) and contact-solve time against contacts as the feet are refined (16 to 144 contacts,
# log-log slopes); CSV + Markdown + PNG in bench/out/table_* (about 3 min)
/usr/bin/python3 scripts/table_study.py --n 20 --seed 1 -o bench/out/table_study
/usr/bin/python3 scripts/table_cpu.py --levels 1,2,3,4,5 --k 16 --reps 3 -o bench/out/table_cpu
# issues 13 and 25 item 7: the masonry arch's real-time rate (simulated time / wall time of the time
# steps) per run, mu = 1.0 (stands) and 0.2 (collapses, the run stops there), newton (the case's
# default, the exact cone), sap and nsgs in one study per mu, and the cost split per step (detection,
# W, contact solve, rest) and contact iterations per step from stats.csv; goals >= 10 at mu = 1.0 on the
# exact cone, >= 5 through the collapse (han2023: 6.29 and 7.26); one run at a time (-j 1) for timings
# that compare; bench/out/arch_rate/arch_study.md (doc/performance.md)
rm -rf bench/out/arch_rate
/usr/bin/python3 scripts/arch_study.py --mus 1.0,0.2 --sweep '' --t-end 7 -j 1 --solvers newton,sap,nsgs -o bench/out/arch_rate
# issue 29: strong scaling of a 216,843-DoF body on 1 and 2 ranks (time split, memory per rank, and the
# projection to 8-64 ranks as a model; doc/mpi.md "Strong scaling"; about 4 min)
/usr/bin/python3 bench/strong_scaling.py --ranks 1,2
# issues 13 and 29: set-up of many bodies (one body per volume of one mesh, every pair in contact):
# CPU and peak memory of `fcsim info` on walls of 500 to 5000 blocks, and the log-log slope
# (doc/performance.md)
/usr/bin/python3 bench/setup_scaling.py --sizes 500,1000,2000,5000
# issue 29: the first two steps of a wall of 2,000 blocks (bond wall with open head joints; nsgs with a
# tolerance of 1 % of one block's weight on the whole wall's residual): contacts, iterations, the solver's
# error, time per step, CPU and peak memory (doc/performance.md "Thousands of bodies")
/usr/bin/python3 bench/wall_steps.py --blocks 2000 --steps 2
