#!/usr/bin/python3
"""Print an HDF5 file as an FCLIB fuzz-target description (fuzz/fclib_spec.h), e.g. to turn an
FCLIB file into a text seed of fuzz/corpus/fclib/:

    /usr/bin/python3 fuzz/hdf5_to_spec.py tests/bad/fclib/baseline_local.hdf5 > seed.txt

Groups, numeric datasets (int32/int64/uint8/float32/float64, any shape) and strings are
written; anything else is skipped with a comment line."""
import sys
import h5py
import numpy as np


def fmt(v, integer):
    if integer:
        return str(int(v))
    return repr(float(v))


def shape_token(shape, n):
    if shape == ():
        return "@"
    if len(shape) == 1 and shape[0] == n:
        return ""  # 1-D of the values given
    return "@" + "x".join(str(d) for d in shape)


def main(path):
    out = []

    def visit(name, obj):
        p = "/" + name
        if isinstance(obj, h5py.Group):
            out.append("g " + p)
            return
        dt = obj.dtype
        if dt.kind in "SO" or h5py.check_string_dtype(dt) is not None:
            info = h5py.check_string_dtype(dt)
            v = obj[()]
            if isinstance(v, np.ndarray):
                v = v.flat[0] if v.size else b""
            if isinstance(v, bytes):
                v = v.rstrip(b"\0").decode("ascii", "replace")
            op = "v" if info is not None and info.length is None else "s"
            out.append("%s %s %s" % (op, p, v))
            return
        codes = {("i", 4): "i", ("i", 8): "l", ("u", 1): "u", ("f", 8): "d", ("f", 4): "f"}
        op = codes.get((dt.kind, dt.itemsize))
        if op is None:
            out.append("# %s: type %s skipped" % (p, dt))
            return
        if dt.byteorder == ">":
            op = {"i": "I", "d": "D"}.get(op, op)
        data = np.asarray(obj[()]).ravel()
        tok = shape_token(obj.shape, data.size)
        vals = " ".join(fmt(v, dt.kind in "iu") for v in data)
        out.append(" ".join(t for t in (op, p, tok, vals) if t))

    with h5py.File(path, "r") as f:
        f.visititems(visit)
    print("# " + path)
    print("\n".join(out))


if __name__ == "__main__":
    main(sys.argv[1])
