"""Writes cases/trajectories/cube_instrument_push.csv, the SYNTHETIC instrument log of
cases/cube_instrument.json (courtecuisse Fig. 4; no device recorded it): the tip of a spherical
instrument (radius RS = 0.3 m) that comes down on the top face of the unit cube hinged on its
bottom edge x = 1, z = 0, and pushes the face down, turning about the hinge by THETA_MAX = 75
degrees, the pushing device's path:

  t in [0, 0.3] s    the tip comes down from 2 cm above the face (x = 0.25, y = 0.5) to touching it
  t in [0.3, 2.7] s  it turns about the hinge (axis -y through (1, y, 0)) from 0 to 75 degrees,
                     3 tau^2 - 2 tau^3 in time (zero velocity at both ends: peak 0.82 rad/s)
  t in [2.7, 3.0] s  it holds

The centre is the face's point (0.25, 0.5, 1) lifted by RS (+ the clearance) along the face's
normal, turned rigidly with the face by theta: a cube that followed the instrument exactly would
just touch it, so the cube's lag behind the instrument (its inertia and damping) is the
indentation. The orientation turns with it (the sphere's does not matter for the contact; a
device records it). Sampled at 200 Hz like a logged Phantom session resampled, fcsim format
(doc/trajectory.md: s, m, quaternion w first). Run: /usr/bin/python3 cases/trajectories/cube_instrument_generate.py
"""
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))
RATE, T_END = 200, 3.0
RS, X0, Y0, GAP0 = 0.3, 0.25, 0.5, 0.02
HINGE_X, HINGE_Z = 1.0, 0.0
THETA_MAX = math.radians(75)
T_DOWN, T_TURN = 0.3, 2.7


def smooth(tau):
    """3 tau^2 - 2 tau^3 on [0, 1]: zero velocity at both ends."""
    tau = min(max(tau, 0.0), 1.0)
    return tau * tau * (3 - 2 * tau)


def pose(t):
    gap = GAP0 * (1 - smooth(t / T_DOWN))
    theta = THETA_MAX * smooth((t - T_DOWN) / (T_TURN - T_DOWN))
    px, pz = X0 - HINGE_X, 1.0 + RS + gap  # relative to the hinge, before the turn
    c, s = math.cos(theta), math.sin(theta)
    x = HINGE_X + c * px - s * pz
    z = HINGE_Z + s * px + c * pz
    # the turn x' = c x - s z, z' = s x + c z is a rotation by -theta about y
    q = [math.cos(theta / 2), 0.0, 0.0 - math.sin(theta / 2) + 0.0, 0.0]
    return [x, Y0, z], q


def main():
    path = os.path.join(HERE, "cube_instrument_push.csv")
    with open(path, "w") as f:
        f.write("# fcsim trajectory\n# SYNTHETIC (cases/trajectories/cube_instrument_generate.py): instrument tip pushing the hinged cube 75 degrees\n")
        f.write("# device: synthetic instrument\n# units: m\n# frame: device\n")
        f.write("t,px,py,pz,qw,qx,qy,qz,buttons\n")
        n = int(round(T_END * RATE)) + 1
        for k in range(n):
            t = k / RATE
            p, q = pose(t)
            f.write(",".join(["%.6g" % t] + ["%.9f" % v for v in p] + ["%.12f" % v for v in q] + ["1"]) + "\n")


if __name__ == "__main__":
    main()
