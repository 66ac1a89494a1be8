#!/bin/sh
# Install the Debian packages fcsim needs when any is missing (used by `make deps`).
# Runs apt-get as root, or through sudo when not root. Prints nothing when all is present.
set -eu
PKGS="petsc-dev libhdf5-openmpi-dev hdf5-tools libcjson-dev libgmsh-dev gmsh libfclib-dev \
libseccomp-dev libcmocka-dev libsuitesparse-dev libopenblas0 pkg-config python3-numpy python3-scipy python3-h5py python3-matplotlib valgrind clang-format-14"
# `deps.sh bench`: also the benchmark-only peer (Siconos numerics, never linked into fcsim)
[ "${1:-}" = bench ] && PKGS="$PKGS libsiconos-numerics-dev"
# `deps.sh fuzz`: also clang and its runtimes (libFuzzer, the sanitizers) for make fuzz
[ "${1:-}" = fuzz ] && PKGS="$PKGS clang libclang-rt-14-dev"
# `deps.sh paraview`: also ParaView's pvpython for make check-paraview (about 140 MB to fetch,
# 800 MB installed: not for make check; doc/mpi.md "Outputs")
[ "${1:-}" = paraview ] && PKGS="$PKGS paraview python3-paraview"
missing=""
for p in $PKGS; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $p"
  fi
done
[ -z "$missing" ] && exit 0
echo "deps: installing$missing" >&2
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q >&2
# shellcheck disable=SC2086
$SUDO apt-get install -y -q --no-install-recommends $missing >&2
