#!/usr/bin/env bash
# status.sh - what -status costs a walk: gfind TREE against gfind TREE -status, interleaved,
# with standard error a real terminal (a tmux window), so that the line is drawn.
#
#   bench/status.sh [-n RUNS] [-t TREES_DIR] [-e EXPR] [tree]
#
#   -n RUNS   timed rounds (default 11), after one untimed warm-up round
#   -t DIR    where the trees live (default $BENCH_TREES, else /tmp/gfind-trees); a missing
#             tree is generated there with bench/mktree
#   -e EXPR   the expression, one shell word list (default: -name '*.nosuch', which prints nothing)
#   tree      src (default), wide or deep
#
# Prints the median wall and CPU time of each, and their ratios; stdout goes to /dev/null.
# Needs tmux and cc. GFIND=path times that binary instead of building ./cmd/gfind.
set -euo pipefail
export LC_ALL=C
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
modroot=$(cd "$here/.." && pwd)
RUNS=11 TREES=${BENCH_TREES:-/tmp/gfind-trees} EXPR="-name '*.nosuch'"
while getopts ":n:t:e:h" o; do
  case $o in
    n) RUNS=$OPTARG ;;
    t) TREES=$OPTARG ;;
    e) EXPR=$OPTARG ;;
    *) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
tree=${1:-src}
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || { echo "status.sh: -n wants a positive number" >&2; exit 2; }
command -v tmux >/dev/null || { echo "status.sh: needs tmux (Debian package tmux)" >&2; exit 1; }
GO=${GO:-$(command -v go || echo /usr/local/go/bin/go)}
BIN=$here/out/bin
mkdir -p "$BIN" "$TREES"
cc -O2 -o "$BIN/timeit" "$here/timeit.c"
if [[ -z ${GFIND:-} ]]; then
  (cd "$modroot" && CGO_ENABLED=0 "$GO" build -o "$BIN/gfind" ./cmd/gfind)
  GFIND=$BIN/gfind
fi
if [[ ! -f $TREES/$tree.counts ]]; then
  (cd "$modroot" && "$GO" build -o "$BIN/mktree" ./bench/mktree)
  f=()
  [[ ! -e $TREES/$tree ]] || f=(-f) # a tree without its .counts file is a partial one
  "$BIN/mktree" "${f[@]}" "$TREES" "$tree"
fi

work=$(mktemp -d)
sock=gfind-status-bench-$$
trap 'tmux -L "$sock" kill-server 2>/dev/null || true; rm -rf "$work"' EXIT
# The rounds run inside the window: timeit's -e gives the command the window's terminal as
# stderr. The order alternates, so that neither always runs first in a round.
cat >"$work/rounds.sh" <<ROUNDS
set -eu
tty=\$(tty)
cd "$TREES"
one() { "$BIN/timeit" -e "\$tty" -- "$GFIND" $tree "\$@" $EXPR; }
one >/dev/null; one -status >/dev/null # warm-up
for i in \$(seq $RUNS); do
  if ((i % 2)); then
    echo "plain \$(one)"; echo "status \$(one -status)"
  else
    echo "status \$(one -status)"; echo "plain \$(one)"
  fi
done >"$work/times"
touch "$work/done"
ROUNDS
tmux -L "$sock" -f /dev/null new-session -d -x 120 -y 10 "bash $work/rounds.sh 2>$work/err || touch $work/done"
while [[ ! -e $work/done ]]; do sleep 0.2; done
[[ ! -s $work/err ]] || { cat "$work/err" >&2; exit 1; }
median() { sort -n | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
col() { awk -v k="$1" -v c="$2" '$1==k {print $c}' "$work/times" | median; }
pw=$(col plain 2) sw=$(col status 2) pc=$(col plain 3) sc=$(col status 3)
awk -v t="$tree" -v e="$EXPR" -v n="$RUNS" -v pw="$pw" -v sw="$sw" -v pc="$pc" -v sc="$sc" 'BEGIN {
  printf "gfind %s %s, %d rounds, stderr a 120-column terminal (medians)\n", t, e, n
  printf "  %-8s wall %8.1f ms   cpu %8.1f ms\n", "plain", pw / 1000, pc / 1000
  printf "  %-8s wall %8.1f ms   cpu %8.1f ms\n", "-status", sw / 1000, sc / 1000
  printf "  ratio    wall %8.3f      cpu %8.3f\n", sw / pw, sc / pc
}'
