#!/bin/sh
# The Debian packages make fuzz needs besides fcsim's own: clang and libclang-rt-14-dev (which
# holds libFuzzer and the sanitizer runtimes); scripts/deps.sh installs what is missing.
exec sh "$(dirname "$0")/../scripts/deps.sh" fuzz
