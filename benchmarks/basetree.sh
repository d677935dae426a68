# Sourced by compare.sh and identical.sh: cd to the repository's top, make
# $work (a temp folder removed on exit) and check out BASE in $work/base
# (a detached worktree, removed on exit).
#   . "$(dirname "$0")/basetree.sh" BASE
root=$(git rev-parse --show-toplevel)
cd "$root"
work=$(mktemp -d)
cleanup() { git worktree remove --force "$work/base" >/dev/null 2>&1 || true; rm -rf "$work"; }
trap cleanup EXIT
git worktree add -q --detach "$work/base" "$1"
