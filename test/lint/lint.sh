#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Lint step of the test suite: licence lines, the root .clang-format on C
# sources, and no machine-specific paths in what is committed.
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
else
    echo "lint: clang-format not installed, format check not run"
fi

# Paths of a developer's machine never belong in the tree.
if git grep -nE '(/work/main|/root/|/home/[a-z])' -- . ':!test/lint/lint.sh'; then
    echo "lint: machine paths above"
    bad=1
fi
[ $bad = 0 ] && echo "lint: clean"
exit $bad
