#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Lint step of the test suite: licence lines, the root .clang-format on C
# sources, no machine-specific paths, no citation of documents that are
# not in the repository (doc/design.rst is its architecture guide), and
# reStructuredText that docutils renders without a warning.
# Exit 0 clean, 1 a finding, 77 (skipped) when a tool it needs is missing:
# without clang-format the other checks still run, but a clean tree is
# reported as skipped, not passed, because its format was not checked.
set -u
cd "${PVP_SOURCE_DIR:?run through meson test}" || exit 1
command -v git >/dev/null || { echo "SKIP: needs git"; exit 77; }
git rev-parse --git-dir >/dev/null 2>&1 || { echo "SKIP: not a git checkout"; exit 77; }

bad=0
while IFS= read -r f; do
    head -n 3 "$f" | grep -q 'SPDX-License-Identifier' || {
        echo "lint: $f: no SPDX-License-Identifier in its first lines"
        bad=1
    }
done < <(git ls-files '*.c' '*.h' '*.sh' '*.py' 'meson.build' '*/meson.build')

if command -v clang-format >/dev/null; then
    while IFS= read -r f; do
        clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || {
            echo "lint: $f: not formatted (clang-format -i $f)"
            bad=1
        }
    done < <(git ls-files '*.c' '*.h')
fi

# Paths of a developer's machine never belong in the tree.
if git grep -nE '(/work/main|/root/|/home/[a-z])' -- . ':!test/lint/lint.sh'; then
    echo "lint: machine paths above"
    bad=1
fi
# The repository stands on its own: no design notes, issue numbers or
# shared lock files of the machine it was written on.
if git grep -nE '(DESIGN|STYLE)\.md|notes/|rpc\.md|[Ii]ssue #?[0-9]|pvpkit-heavy\.lock' \
    -- . ':!test/lint/lint.sh'; then
    echo "lint: references to documents outside the repository above (see doc/design.rst)"
    bad=1
fi
# The docs render: a table that overflows its column or a literal block
# that runs into its paragraph is an error for docutils, and a page
# readers get mangled.
if /usr/bin/python3 -c 'import docutils' 2>/dev/null; then
    while IFS= read -r f; do
        out=$(/usr/bin/python3 -m docutils --halt=warning --report=warning "$f" /dev/null 2>&1) || {
            echo "lint: $f does not render: $(printf '%s' "$out" | head -n 1)"
            bad=1
        }
    done < <(git ls-files '*.rst')
else
    echo "lint: python3-docutils not installed, the docs' markup not checked"
    docs_unchecked=1
fi
[ $bad = 0 ] || exit 1
if ! command -v clang-format >/dev/null; then
    echo "SKIP: clang-format not installed, format of the C files not checked"
    exit 77
fi
[ -z "${docs_unchecked:-}" ] || { echo "SKIP: python3-docutils not installed"; exit 77; }
echo "lint: clean"
