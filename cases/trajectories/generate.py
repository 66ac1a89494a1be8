"""Writes the SYNTHETIC sample logs of cases/trajectories/ (no device recorded them): a stylus tip
that moves down 5 mm, slides 20 mm along x while tilting 30 degrees about y, and lifts 5 mm,
sampled at 100 Hz for 3 s, in four formats (doc/trajectory.md):

  stylus_press_slide.csv             fcsim format (s, m, quaternion w first, buttons)
  stylus_press_slide_openhaptics.csv OpenHaptics style (s, mm, HD_CURRENT_TRANSFORM column-major, buttons)
  stylus_press_slide_ros_pose.csv    rostopic echo -p of geometry_msgs/PoseStamped (ns, m, x,y,z,w)
  stylus_press_slide_ros_joint.csv   rostopic echo -p of a sensor_msgs/JointState with joints x,y,z (mm)

The device logs carry the imperfections of real ones: the ROS logs repeat every 40th message (a
driver publishing faster than the device updates: same header.stamp, new %time), the OpenHaptics
and JointState logs carry velocity columns holding garbage (uninitialised: huge numbers, nan),
which fcsim never reads. Positions are rounded to 1e-6 mm, so that every format holds the same
numbers. Run: /usr/bin/python3 cases/trajectories/generate.py
"""
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))
RATE, T_END = 100, 3.0
N = int(round(T_END * RATE)) + 1


def smooth(tau):
    """3 tau^2 - 2 tau^3 on [0, 1]: zero velocity at both ends."""
    tau = min(max(tau, 0.0), 1.0)
    return tau * tau * (3 - 2 * tau)


def pose(k):
    """Position in mm (rounded to 1e-6 mm), tilt angle about y (rad), buttons."""
    t = k / RATE
    z = 10 - 5 * smooth(t / 0.5) + 5 * smooth((t - 2.5) / 0.5)
    x = 20 * smooth((t - 0.5) / 2.0)
    y = 0.0
    theta = math.radians(30) * smooth((t - 0.5) / 2.0)
    buttons = 1 if 0.5 <= t < 2.5 else 0
    return [round(x, 6), round(y, 6), round(z, 6)], theta, buttons


def quat(theta):
    return [math.cos(theta / 2), 0.0, math.sin(theta / 2), 0.0]  # w, x, y, z


def matrix_colmajor(theta, p):
    """HD_CURRENT_TRANSFORM: 4x4 column-major, element (i, j) at 4 j + i; translation in mm."""
    c, s = math.cos(theta), math.sin(theta)
    R = [[c, 0, s], [0, 1, 0], [-s, 0, c]]
    m = [0.0] * 16
    for j in range(3):
        for i in range(3):
            m[4 * j + i] = R[i][j]
    m[12], m[13], m[14], m[15] = p[0], p[1], p[2], 1.0
    return m


def r(x):
    return repr(float(x))


def main():
    with open(os.path.join(HERE, "stylus_press_slide.csv"), "w") as f:
        f.write("# fcsim trajectory\n# SYNTHETIC (cases/trajectories/generate.py): stylus tip down 5 mm, slide 20 mm, lift\n")
        f.write("# device: synthetic stylus\n# units: m\n# frame: device\n")
        f.write("t,px,py,pz,qw,qx,qy,qz,buttons\n")
        for k in range(N):
            p, th, b = pose(k)
            f.write(",".join([r(k / RATE)] + [r(v / 1000) for v in p] + [r(v) for v in quat(th)] + [str(b)]) + "\n")
    with open(os.path.join(HERE, "stylus_press_slide_openhaptics.csv"), "w") as f:
        f.write("# SYNTHETIC OpenHaptics-style log (cases/trajectories/generate.py): hdGetSchedulerTimeStamp-like time (s),\n")
        f.write("# HD_CURRENT_POSITION (mm), HD_CURRENT_TRANSFORM (column-major, mm), HD_CURRENT_BUTTONS; vel_* hold garbage\n")
        f.write("time,pos_x,pos_y,pos_z,vel_x,vel_y,vel_z," + ",".join("T%d" % i for i in range(16)) + ",buttons\n")
        for k in range(N):
            p, th, b = pose(k)
            vel = ["6.9533558078350043e-310", "-1.2e+300", "nan"] if k % 7 == 3 else ["0", "0", "0"]
            f.write(",".join([r(12.5 + k / RATE)] + [r(v) for v in p] + vel + [r(v) for v in matrix_colmajor(th, p)] + [str(b)]) + "\n")
    stamp0 = 1700000000 * 10**9
    with open(os.path.join(HERE, "stylus_press_slide_ros_pose.csv"), "w") as f:
        f.write("%time,field.header.seq,field.header.stamp,field.header.frame_id,field.pose.position.x,field.pose.position.y,"
                "field.pose.position.z,field.pose.orientation.x,field.pose.orientation.y,field.pose.orientation.z,field.pose.orientation.w\n")
        seq = 0
        for k in range(N):
            p, th, b = pose(k)
            q = quat(th)
            stamp = stamp0 + k * 10**7
            for rep in range(2 if k % 40 == 20 else 1):
                recv = stamp + 350000 + rep * 1000000
                f.write(",".join([str(recv), str(seq), str(stamp), "stylus"] + [r(v / 1000) for v in p] + [r(q[1]), r(q[2]), r(q[3]), r(q[0])]) + "\n")
                seq += 1
    with open(os.path.join(HERE, "stylus_press_slide_ros_joint.csv"), "w") as f:
        f.write("%time,field.header.seq,field.header.stamp,field.header.frame_id,field.name0,field.name1,field.name2,"
                "field.position0,field.position1,field.position2,field.velocity0,field.velocity1,field.velocity2,"
                "field.effort0,field.effort1,field.effort2\n")
        seq = 0
        for k in range(N):
            p, th, b = pose(k)
            stamp = stamp0 + k * 10**7
            for rep in range(2 if k % 40 == 20 else 1):
                recv = stamp + 350000 + rep * 1000000
                vel = ["nan", "4.6e-310", "-3.1e+299"] if k % 5 == 1 else ["0.0", "0.0", "0.0"]
                f.write(",".join([str(recv), str(seq), str(stamp), "", "x", "y", "z"] + [r(v) for v in p] + vel + ["0.0"] * 3) + "\n")
                seq += 1


if __name__ == "__main__":
    main()
