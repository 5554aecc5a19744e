#!/usr/bin/env bash
# startup.sh - what a run on an empty directory costs, as scripts that
# call find in a loop pay it: the release build against GNU find, with
# the cgo build and a Go program that only writes one line beside them.
#
#   bench/startup.sh [-n RUNS]
#
#   -n RUNS   timed rounds (default 31), after one untimed warm-up round
#
# Each round runs every program once, in an order that rotates from round
# to round, through timeit (posix_spawn + wait4, output to /dev/null).
# Two command lines: PROG DIR, and PROG -name x in DIR (no starting
# point: the expression first). Prints each program's median wall time
# for each and its ratio to GNU find's,
# whether it links the C library, and how many threads it starts before
# the openat of the starting point (strace -f; skipped without strace).
# The locale is the caller's. FIND overrides GNU find (default
# /usr/bin/find); GO the go command.
set -euo pipefail
# Not LC_ALL=C: GNU find loads the locale it is given (about 120 µs for
# C.UTF-8 here), as it does in a user's shell; LC_ALL=C bench/startup.sh
# times its fastest start.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
modroot=$(cd "$here/.." && pwd)
RUNS=31
while getopts ":n:h" o; do
  case $o in
    n) RUNS=$OPTARG ;;
    *) sed -n "2,18p" "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
  esac
done
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || { echo "startup.sh: -n wants a positive number" >&2; exit 2; }
GO=${GO:-go}
FIND=${FIND:-/usr/bin/find}
BIN=$here/out/bin
mkdir -p "$BIN"
cc -O2 -o "$BIN/timeit" "$here/timeit.c"
# The builds the Makefile makes: the release's (static) and the cgo one.
make -s -C "$modroot" build GO="$GO" BIN="$BIN/gfind-release"
make -s -C "$modroot" build GO="$GO" BIN="$BIN/gfind-cgo" CGO_ENABLED=1
hello=$(mktemp -d)
empty=$(mktemp -d)
trap 'rm -rf "$hello" "$empty"' EXIT
printf 'package main\n\nimport "os"\n\nfunc main() { os.Stdout.WriteString(os.Args[1] + "\\n") }\n' >"$hello/main.go"
(cd "$hello" && CGO_ENABLED=0 GOFLAGS= "$GO" build -o "$BIN/hello" main.go)

names=("GNU find" "gfind (release: static)" "gfind (cgo)" "Go, one line")
progs=("$FIND" "$BIN/gfind-release" "$BIN/gfind-cgo" "$BIN/hello")
n=${#progs[@]}
# Two command lines a loop runs: a starting point, and an expression
# with none (run in the empty directory). The Go program writes its
# argument either way.
forms=("DIR" "-name x")
declare -A times
cd "$empty"
for ((k = 0; k < n; k++)); do "${progs[$k]}" "$empty" >/dev/null; done
for ((r = 0; r < RUNS; r++)); do
  for ((i = 0; i < 2 * n; i++)); do
    j=$(((i + r) % (2 * n)))
    k=$((j / 2)) f=$((j % 2))
    if [ $f = 0 ]; then args=("$empty"); else args=(-name x); fi
    read -r wall _ <<<"$("$BIN/timeit" -- "${progs[$k]}" "${args[@]}")"
    times[$k,$f]+="$wall "
  done
done

median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
# threads PROG: the threads PROG starts before it opens the starting point.
threads() {
  command -v strace >/dev/null || { echo "-"; return; }
  strace -f -qq -e trace=clone,clone3,openat -o "$empty.trace" "$1" "$empty" >/dev/null
  awk -v d="\"$empty\"" '/openat\(/ && index($0, d) { print n + 0; f = 1; exit } /clone3?\(/ { n++ } END { if (!f) print "-" }' "$empty.trace"
  rm -f "$empty.trace"
}
libc() { if ldd "$1" >/dev/null 2>&1; then echo yes; else echo no; fi; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2fx", a / b}'; }

base0=$(echo "${times[0,0]}" | median) base1=$(echo "${times[0,1]}" | median)
echo "An empty directory, $RUNS rounds, $(nproc) CPUs, LC_CTYPE $(locale 2>/dev/null | sed -n 's/^LC_CTYPE=//p'), $(date -u +%Y-%m-%dT%H:%MZ); median µs (ratio to GNU find):"
printf '%-26s %18s %18s %6s %8s\n' program "PROG DIR" "PROG -name x" libc threads
for ((k = 0; k < n; k++)); do
  m0=$(echo "${times[$k,0]}" | median) m1=$(echo "${times[$k,1]}" | median)
  printf '%-26s %18s %18s %6s %8s\n' "${names[$k]}" "$m0 ($(ratio "$m0" "$base0"))" "$m1 ($(ratio "$m1" "$base1"))" \
    "$(libc "${progs[$k]}")" "$(threads "${progs[$k]}")"
done
