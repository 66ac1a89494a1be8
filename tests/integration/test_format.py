#!/usr/bin/python3
"""The house format (issue 26's habit): every C file of the tree is as clang-format 14 writes it
with the project's .clang-format, so that a change shows only what it changes.

Checks, each one a number: the count of files clang-format would change (0), that the check can
fail (a misformatted copy of a real source file is reported), and the lines still over the 160
columns of the format (comments and string literals, which the format never breaks) as a figure.
`--apply` formats the files in place (make format)."""
import os, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = 'clang-format-14'  # the format is clang-format 14's (Debian 12); scripts/deps.sh installs it
COLUMNS = 160


def files():
    try:
        out = subprocess.run(['git', 'ls-files', '*.c', '*.h'], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):  # not a git checkout (a tarball): the same folders
        out = []
        for top in ('src', 'tests', 'bench', 'fuzz'):
            for d, _, names in os.walk(os.path.join(ROOT, top)):
                out += [os.path.relpath(os.path.join(d, n), ROOT) for n in names if n.endswith(('.c', '.h'))]
    return sorted(f for f in out if os.path.isfile(os.path.join(ROOT, f)))


def differs(path):
    """True when clang-format would change the file (its output differs from the file)."""
    text = open(path, 'rb').read()
    out = subprocess.run([TOOL, '--style=file:' + os.path.join(ROOT, '.clang-format'), '--assume-filename=' + path, path],
                         cwd=ROOT, capture_output=True, check=True).stdout
    return out != text


def main():
    fs = files()
    if '--apply' in sys.argv:
        subprocess.run([TOOL, '-i', '--style=file:' + os.path.join(ROOT, '.clang-format')] + fs, cwd=ROOT, check=True)
        print(f'make format: {len(fs)} files formatted with {TOOL}')
        return 0
    bad = [f for f in fs if differs(os.path.join(ROOT, f))]
    long_lines = sum(1 for f in fs for line in open(os.path.join(ROOT, f), encoding='utf-8') if len(line.rstrip('\n')) > COLUMNS)
    # the check can fail: a real file with one declaration's alignment broken is reported
    src = os.path.join(ROOT, 'src', 'core', 'mat3.c')
    text = open(src, encoding='utf-8').read()
    with tempfile.TemporaryDirectory() as d:
        broken = os.path.join(d, 'mat3.c')
        open(broken, 'w', encoding='utf-8').write(text.replace('{\n', '{\n  int    unaligned_ = 0; (void)unaligned_;\n', 1))
        caught = differs(broken)
    print(f'    FIGURE format: {len(fs)} C files, {len(bad)} not in the house format ({TOOL}, .clang-format), '
          f'a misformatted copy caught: {caught}; lines over {COLUMNS} columns (comments, strings): {long_lines}')
    for f in bad[:20]:
        print(f'not formatted: {f} (make format rewrites it)')
    return 0 if not bad and caught else 1


if __name__ == '__main__':
    sys.exit(main())
