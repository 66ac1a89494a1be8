#!/bin/sh
# Install the Debian packages the fuzzing build needs when any is missing (fuzz/Makefile), the
# way scripts/deps.sh does for fcsim itself: clang, and libclang-rt-14-dev, which holds
# libFuzzer (libclang_rt.fuzzer*.a) and the sanitizer runtimes on Debian 12. fcsim's own
# packages come from scripts/deps.sh. Prints nothing when all is present.
set -eu
PKGS="clang libclang-rt-14-dev"
missing=""
for p in $PKGS; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $p"
  fi
done
[ -z "$missing" ] && exit 0
echo "fuzz deps: installing$missing" >&2
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q >&2
# shellcheck disable=SC2086
$SUDO apt-get install -y -q --no-install-recommends $missing >&2
