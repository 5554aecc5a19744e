#!/usr/bin/env bash
# run.sh - end-to-end benchmark of gfind against GNU find, bfs, fd and the C floor.
#
#   bench/run.sh [-n RUNS] [-t TREES_DIR] [-s] [-k] [-l LATENCY] [workload ...]
#
#   -n RUNS   timed rounds per workload (default 7); one untimed warm-up round comes first
#   -t DIR    where the trees live (default $BENCH_TREES, else /tmp/gfind-trees);
#             missing trees are generated there (about 10 s)
#   -s        also count syscalls of one run per tool (strace -c -f; slow)
#   -k        keep going when gfind's output differs from GNU find's (gfind is then
#             left out of that workload's timing; the exit status is still 1)
#   -l LAT    latfs's delay per lookup, getattr and readdir in lat-print (default 200us)
#   workloads: src-print src-name src-size src-stat src-quit src-j1 wide-print
#              wide-size deep-print (the default: all of these), and src-mtime src-color
#              src-sort src-sort-size wide-sort, and the slow ones on src: cold-print
#              cold-size (root: caches dropped before every run), fuse-print fuse-size
#              (a bindfs -o ro mount), lat-print (a latfs mount, bench/latfs), and
#              src-status (what -status costs: bench/status.sh, run last, with stderr a
#              tmux window; its own table)
#
# Environment: GFIND=path uses that binary instead of building ./cmd/gfind (GFIND=/usr/bin/find
# proves the harness while gfind does not build yet); GFIND_BASE=path adds that gfind binary,
# with the same arguments, as the "baseline" row timed in the same rounds (a before/after
# comparison; with unsorted-baseline beside it in the *-sort workloads); FIND, BFS, FD override the other tools;
# GO picks the go command; COLD_LOCK=file holds flock(1)'s lock on it around every run of a cold-*
# workload (its drop_caches included), so that two cold benchmarks on one machine never overlap.
# Results: a table per workload on stdout, and the same tables as Markdown in bench/out/results-DATE.md. See bench/README.md for how to read them.
set -euo pipefail
export LC_ALL=C
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
modroot=$(cd "$here/.." && pwd)

all_workloads=(src-print src-name src-size src-stat src-quit src-j1 wide-print wide-size deep-print)
extra_workloads=(src-mtime src-color src-sort src-sort-size wide-sort cold-print cold-size fuse-print fuse-size lat-print)
# A file name that occurs exactly once in the src tree (checked below), at depth 9. Where it
# falls in a walk depends on readdir order, i.e. on the filesystem's hash seed.
QUIT_NAME=api_211.c

RUNS=7 TREES=${BENCH_TREES:-/tmp/gfind-trees} STRACE=0 KEEP=0 LATENCY=200us
usage() { sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }
while getopts ":n:t:skl:h" o; do
  case $o in
    n) RUNS=$OPTARG ;;
    t) TREES=$OPTARG ;;
    s) STRACE=1 ;;
    k) KEEP=1 ;;
    l) LATENCY=$OPTARG ;;
    h) usage 0 ;;
    *) echo "run.sh: bad option -$OPTARG" >&2; usage 2 ;;
  esac
done
shift $((OPTIND - 1))
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: -n wants a positive number" >&2; exit 2; }
workloads=("$@")
[[ ${#workloads[@]} -gt 0 ]] || workloads=("${all_workloads[@]}")
for w in "${workloads[@]}"; do
  [[ " ${all_workloads[*]} ${extra_workloads[*]} src-status " == *" $w "* ]] || { echo "run.sh: unknown workload $w" >&2; usage 2; }
done
# src-status needs stderr to be a terminal, which none of the others has:
# bench/status.sh times it (gfind against gfind -status, in a tmux window)
# after the rest, with the same rounds, trees and binary.
run_status=0
if [[ " ${workloads[*]} " == *" src-status "* ]]; then
  run_status=1
  rest=()
  for w in "${workloads[@]}"; do [[ $w == src-status ]] || rest+=("$w"); done
  if ((${#rest[@]} == 0)); then
    exec "$(dirname "${BASH_SOURCE[0]}")/status.sh" -n "$RUNS" -t "$TREES" src
  fi
  workloads=("${rest[@]}")
fi
# src-color: every tool colors with dircolors' database (gfind's default when LS_COLORS is unset).
[[ " ${workloads[*]} " != *" src-color "* ]] || ! command -v dircolors >/dev/null ||
  export LS_COLORS="$(TERM=xterm dircolors -b | sed -n "s/^LS_COLORS='\(.*\)';\$/\1/p")"
mkdir -p "$TREES"
TREES=$(cd "$TREES" && pwd)

say() { printf '%s\n' "$*" >&2; }
die() { say "run.sh: $*"; exit 1; }

# ---------- tools ----------
apt_updated=0
apt_install() { # PACKAGE...: install with apt-get, after one apt-get update
  command -v apt-get >/dev/null || { say "run.sh: no apt-get; install $* by hand"; return 1; }
  local sudo=()
  [[ $EUID -eq 0 ]] || sudo=(sudo)
  if ((!apt_updated)); then
    say "== apt-get update"
    "${sudo[@]}" apt-get update -qq >&2 || say "run.sh: apt-get update had errors; trying the install anyway"
    apt_updated=1
  fi
  say "== apt-get install $*"
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >&2
}
need=()
command -v cc >/dev/null || need+=(gcc)
command -v "${BFS:-bfs}" >/dev/null || need+=(bfs)
command -v "${FD:-fdfind}" >/dev/null || need+=(fd-find)
((!STRACE)) || command -v strace >/dev/null || need+=(strace)
((${#need[@]} == 0)) || apt_install "${need[@]}" || say "run.sh: some packages did not install; their tools are left out"
command -v cc >/dev/null || die "no C compiler (cc)"
((!STRACE)) || command -v strace >/dev/null || die "-s needs strace"

GO=${GO:-$(command -v go || echo /usr/local/go/bin/go)}
OUT=$here/out
BIN=$OUT/bin
mkdir -p "$BIN"

say "== building the tree generator and the floor into $BIN"
(cd "$modroot" && "$GO" build -o "$BIN/mktree" ./bench/mktree)
cc -O2 -pthread -o "$BIN/limit" "$here/limit.c"
cc -O2 -o "$BIN/timeit" "$here/timeit.c"
LIMIT=$BIN/limit TIMEIT=$BIN/timeit
if [[ -n ${GFIND:-} ]]; then
  GFIND=$(command -v "$GFIND") || die "GFIND=$GFIND is not a command"
  gfind_src="$GFIND (from GFIND)"
else
  say "== building gfind"
  # CGO_ENABLED=0: the static build. The cgo build links libc for the
  # name service, which costs start-up time and RSS on every workload
  # (bench/NOTES.md, "Start-up and the builds"); GFIND_BASE binaries are
  # to be built the same way.
  (cd "$modroot" && CGO_ENABLED=0 "$GO" build -o "$BIN/gfind" ./cmd/gfind) ||
    die "go build ./cmd/gfind failed; to test the harness alone, run with GFIND=/usr/bin/find"
  GFIND=$BIN/gfind
  gfind_src="./cmd/gfind at $(git -C "$modroot" describe --always --dirty 2>/dev/null || echo '?')"
fi
GFIND_IS_GNU=0
if "$GFIND" --version 2>/dev/null | grep -q 'GNU findutils'; then
  GFIND_IS_GNU=1
  gfind_src+=", GNU find standing in for gfind"
fi
FIND=$(command -v "${FIND:-find}") || die "no GNU find"
"$FIND" --version 2>/dev/null | grep -q 'GNU findutils' || die "$FIND is not GNU find"
BFS=$(command -v "${BFS:-bfs}" || true)
FD=$(command -v "${FD:-fdfind}" || true)
BFS_HAS_J=0
[[ -z $BFS ]] || ! "$BFS" -j1 / -maxdepth 0 >/dev/null 2>&1 || BFS_HAS_J=1

# The slow workloads walk src with caches dropped (cold-*), through bindfs (fuse-*) or
# through latfs (lat-*). Why one cannot run here, if it cannot.
is_slow() { [[ $1 == cold-* || $1 == fuse-* || $1 == lat-* ]]; }
declare -A unavailable=()
any_slow=0
for w in "${workloads[@]}"; do
  ! is_slow "$w" || any_slow=1
  case $w in
    cold-*) [[ -w /proc/sys/vm/drop_caches ]] || unavailable[$w]="needs root, to drop the caches (/proc/sys/vm/drop_caches)" ;;
    fuse-* | lat-*) [[ -c /dev/fuse ]] || unavailable[$w]="no /dev/fuse" ;;
  esac
  [[ -n ${unavailable[$w]:-} || $w != fuse-* ]] || command -v bindfs >/dev/null ||
    unavailable[$w]="no bindfs (Debian packages bindfs and fuse3)"
done
if [[ " ${workloads[*]} " == *" lat-"* && -z ${unavailable[lat-print]:-} ]]; then
  say "== building latfs (bench/latfs, its own module)"
  (cd "$here/latfs" && "$GO" build -o "$BIN/latfs" .) || unavailable[lat-print]="bench/latfs did not build"
fi

# plain: gfind without -s, timed beside gfind -s in the *-sort* workloads only (the cost of sorting)
if [[ -n ${GFIND_BASE:-} ]]; then
  GFIND_BASE=$(command -v "$GFIND_BASE") || die "GFIND_BASE=$GFIND_BASE is not a command"
fi
# gfindj, bfsj and floorN: rows of the slow workloads only.
tools=(find gfind gfindj bfs bfsj fd floor floor2 floor8 floor16 floor32 plain base baseplain)
declare -A label=([find]="GNU find" [gfind]=gfind [gfindj]="gfind -j32" [bfs]=bfs [bfsj]="bfs -j32" [fd]=fd [floor]=floor
  [floor2]="floor -j 2" [floor8]="floor -j 8" [floor16]="floor -j 16" [floor32]="floor -j 32"
  [plain]=unsorted [base]=baseline [baseplain]="baseline unsorted")
version() {
  case $1 in
    find) "$FIND" --version | sed -n 1p ;;
    gfind) printf '%s' "$gfind_src" ;;
    bfs) [[ -n $BFS ]] && "$BFS" --version | sed -n 1p || echo "not installed" ;;
    fd) [[ -n $FD ]] && "$FD" --version | sed -n 1p || echo "not installed" ;;
    floor) echo "bench/limit.c (cc -O2 -pthread), $(nproc) threads unless -j 1" ;;
    gfindj | bfsj | floor2) ((any_slow)) || return 1 ;;&
    gfindj | bfsj) echo "the ${label[${1%j}]} above with -j32, in the slow workloads only" ;;
    floor2) echo "the floor with -j 2, 8, 16, 32 in the slow workloads (8 and 16 on FUSE only)" ;;
    floor8 | floor16 | floor32) return 1 ;;
    plain) echo "the gfind above without -s, in src-sort, src-sort-size and wide-sort only" ;;
    base) [[ -n ${GFIND_BASE:-} ]] && echo "$GFIND_BASE (from GFIND_BASE), with gfind's arguments" || echo "not set (GFIND_BASE)" ;;
    baseplain) echo "the baseline without -s, in the *-sort workloads only" ;;
  esac
}

# ---------- trees ----------
declare -A tree_needed=()
tree_of() { if is_slow "$1"; then echo src; else echo "${1%%-*}"; fi; }
for w in "${workloads[@]}"; do tree_needed[$(tree_of "$w")]=1; done
for t in wide src deep; do
  [[ -n ${tree_needed[$t]:-} ]] || continue
  [[ -f $TREES/$t.counts ]] && continue
  f=()
  [[ ! -e $TREES/$t ]] || f=(-f) # a tree without its .counts file is a partial one
  say "== generating $TREES/$t"
  "$BIN/mktree" "${f[@]}" "$TREES" "$t"
done
count_of() { sed -n "s/^$2=//p" "$TREES/$1.counts"; } # TREE KEY
root_of() { # WORKLOAD: the directory its tools walk
  case $1 in
    fuse-*) echo "$MNT_BIND" ;;
    lat-*) echo "$MNT_LAT" ;;
    *) echo "$TREES/$(tree_of "$1")" ;;
  esac
}

# ---------- workloads ----------
describe() {
  case $1 in
    src-print) echo "print every path of src (1,000,000 entries): readdir and output" ;;
    src-name) echo "-name '*.log' on src: name matching, no stat needed" ;;
    src-size) echo "-type f -size +0 on src: one stat per regular file" ;;
    src-stat) echo "-size +1k on src: one stat per entry of every type; prints the directories (4 KiB)" ;;
    src-mtime) echo "-mtime -1 on src: one stat per entry; prints everything while the tree is < 24 h old" ;;
    src-sort) echo "print every path of src in sorted depth-first order (gfind -s, bfs -s; unsorted is the same gfind without -s); GNU find prints in readdir order" ;;
    src-sort-size) echo "-type f -size +0 on src in sorted depth-first order (gfind -s, bfs -s; unsorted is the same gfind without -s): a stat per regular file; GNU find in readdir order" ;;
    wide-sort) echo "print every path of wide (one directory, 100,000 files) sorted (gfind -s, bfs -s; unsorted is the same gfind without -s): one big listing to sort and to visit in order; GNU find prints in readdir order" ;;
    src-color) echo "print every path of src colored from LS_COLORS (gfind --color=always, bfs -color): a stat per file and directory for ex, su, tw...; GNU find prints plain" ;;
    src-quit) echo "-name $QUIT_NAME -print -quit on src: stop at the first (only) match" ;;
    src-j1) echo "print every path of src with one thread (gfind -j1, floor -j 1)" ;;
    wide-print) echo "print every path of wide (one directory, 100,000 files)" ;;
    wide-size) echo "-type f -size +0 on wide: 100,000 stats in one directory, no output" ;;
    deep-print) echo "print every path of deep (2,000 levels, paths up to ~22 KB, past PATH_MAX)" ;;
    cold-print) echo "print every path of src, cold: page, dentry and inode caches dropped before every run" ;;
    cold-size) echo "-type f -size +0 on src, cold: caches dropped before every run, so every stat reads an inode from the disk" ;;
    fuse-print) echo "print every path of src through a bindfs -o ro mount: every call goes through a user-space daemon" ;;
    fuse-size) echo "-type f -size +0 on src through a bindfs -o ro mount" ;;
    lat-print) echo "print every path of src through latfs: $LATENCY more per lookup, getattr and readdir, a model of NFS" ;;
  esac
}
expected() { # WORKLOAD: the path count the tree's .counts file promises, if it says
  case $1 in
    src-print | src-j1 | src-color | src-sort | wide-print | wide-sort | deep-print) count_of "${1%%-*}" entries ;;
    cold-print | fuse-print | lat-print) count_of src entries ;;
    cold-size | fuse-size) count_of src nonempty_files ;;
    src-name) count_of src name_log ;;
    src-size | wide-size | src-sort-size) count_of "${1%%-*}" nonempty_files ;;
    src-quit) echo 1 ;;
  esac
}

# tool_cmd TOOL WORKLOAD: sets CMD to the tool's command line, or SKIP to why it has none.
tool_cmd() {
  local tool=$1 w=$2 T
  T=$(root_of "$w")
  CMD=() SKIP=
  case $tool in
    floor | gfindj | bfsj | floor*)
      if [[ $tool == floor ]]; then
        ! is_slow "$w" || return 1 # no note: the slow workloads have floors of fixed threads
      else
        is_slow "$w" || return 1 # no note: these rows exist for the slow workloads only
      fi
      ;;
  esac
  case $tool in
    floor?*)
      local j=${tool#floor}
      [[ $w != cold-* || $j == 2 || $j == 32 ]] || return 1 # no note: cold runs are long; 2 and 32 bound them
      CMD=("$LIMIT" -j "$j")
      [[ $w != *-size ]] || CMD+=(-s)
      CMD+=("$T")
      return 0
      ;;
    gfindj | bfsj)
      if [[ $tool == gfindj ]] && ((GFIND_IS_GNU)); then SKIP="GNU find, standing in for gfind, has no -j"; return 1; fi
      if [[ $tool == bfsj ]] && [[ -n $BFS ]] && ((!BFS_HAS_J)); then SKIP="$("$BFS" --version | sed -n 1p) has no -j"; return 1; fi
      tool_cmd "${tool%j}" "$w" || return 1
      CMD=("${CMD[0]}" -j32 "${CMD[@]:1}")
      return 0
      ;;
    fd)
      if is_slow "$w" && [[ $w != *-print ]]; then SKIP="the slow workloads time fd on print only"; return 1; fi
      ;;
  esac
  if [[ $tool == base || $tool == baseplain ]]; then
    [[ -n ${GFIND_BASE:-} ]] || return 1 # no note: it exists only for a before/after run
    local as=gfind
    [[ $tool == base ]] || as=plain
    GFIND=$GFIND_BASE tool_cmd "$as" "$w"
    return
  fi
  if [[ $tool == plain ]]; then
    [[ $w == *-sort* ]] || return 1 # no note: it exists only to measure -s
    CMD=("$GFIND" "$T")
    [[ $w != src-sort-size ]] || CMD+=(-type f -size +0)
    return 0
  fi
  case $tool in
    find | gfind | bfs)
      case $tool in
        find) CMD=("$FIND") ;;
        gfind) CMD=("$GFIND") ;;
        bfs) [[ -n $BFS ]] || { SKIP="not installed"; return 1; }; CMD=("$BFS") ;;
      esac
      if [[ $w == src-j1 ]]; then
        case $tool in
          gfind) ((GFIND_IS_GNU)) || CMD+=(-j1) ;; # GNU find has one thread and no -j
          bfs) ((!BFS_HAS_J)) || CMD+=(-j1) ;;     # bfs before 3.0 has one thread and no -j
        esac
      fi
      [[ $w != src-color || $tool != gfind ]] || ((GFIND_IS_GNU)) || CMD+=(--color=always)
      [[ $w != *-sort* || $tool == find ]] || ((GFIND_IS_GNU && $tool == gfind)) || CMD+=(-s)
      CMD+=("$T")
      case $w in
        *-print | src-j1 | *-sort) ;;
        src-color) [[ $tool != bfs ]] || CMD+=(-color) ;;
        src-name) CMD+=(-name '*.log') ;;
        *-size) CMD+=(-type f -size +0) ;;
        src-stat) CMD+=(-size +1k) ;;
        src-mtime) CMD+=(-mtime -1) ;;
        src-quit) CMD+=(-name "$QUIT_NAME" -print -quit) ;;
      esac
      ;;
    fd)
      [[ -n $FD ]] || { SKIP="not installed"; return 1; }
      # -H -I: hidden entries and no ignore files, like find (-u is the same in fd 8.6).
      # -s: case-sensitive patterns (fd's default is smart case). fd never prints the root.
      CMD=("$FD" -H -I)
      case $w in
        *-sort*) SKIP="no equivalent: fd cannot sort its output as it walks"; return 1 ;;
        *-print) ;;
        src-j1) CMD+=(-j 1) ;;
        src-name) CMD+=(-s -g '*.log') ;;
        *-size) CMD+=(-t f -S +1b) ;; # size >= 1 byte, i.e. find's -size +0 (rounded up to 512-byte blocks)
        src-quit) CMD+=(-s -g "$QUIT_NAME" --max-results 1) ;;
        src-mtime) CMD+=(--changed-within 1d) ;;
        src-color) CMD+=(--color=always) ;;

        src-stat)
          SKIP="no equivalent: fd's --size only ever matches regular files; -size +1k also matches directories"
          return 1
          ;;
      esac
      CMD+=(--search-path "$T")
      ;;
    floor)
      CMD=("$LIMIT")
      case $w in
        *-sort*) SKIP="no equivalent: the floor does not sort"; return 1 ;;
        *-print) ;;
        src-j1) CMD+=(-j 1) ;;
        src-name) CMD+=(-n '*.log') ;;
        *-size) CMD+=(-s) ;; # -s is exactly -type f -size +0
        src-quit) SKIP="no equivalent: the floor has no early exit"; return 1 ;;
        src-stat | src-mtime) SKIP="no equivalent: the floor's only stat mode is -s (-type f -size +0)"; return 1 ;;
        src-color) SKIP="no equivalent: the floor has no colors"; return 1 ;;

      esac
      CMD+=("$T")
      ;;
  esac
}

# ---------- helpers ----------
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gfind-bench.XXXXXX")
# The FUSE mount points live outside $tmp, which is removed with rm -rf: a mount that
# failed to go must never be recursed into.
mnts=() latfs_pid=
cleanup() {
  local m
  for m in "${mnts[@]}"; do
    ! mountpoint -q "$m" || fusermount3 -u "$m" 2>/dev/null || umount "$m" 2>/dev/null || umount -l "$m" ||
      say "run.sh: could not unmount $m"
  done
  if [[ -n $latfs_pid ]]; then
    kill "$latfs_pid" 2>/dev/null || true
    wait "$latfs_pid" 2>/dev/null || true
  fi
  for m in "${mnts[@]}"; do mountpoint -q "$m" || rmdir "$m" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Cold runs: each one, its drop_caches included, under COLD_LOCK's lock if set.
lockfd=
cold_lock() { [[ -z ${COLD_LOCK:-} ]] || { exec {lockfd}>>"$COLD_LOCK" && flock "$lockfd"; }; }
cold_unlock() { [[ -z $lockfd ]] || { exec {lockfd}>&- && lockfd=; }; }
drop_caches() { sync && echo 3 >/proc/sys/vm/drop_caches; }

median() { sort -n | awk '{a[NR]=$1} END {if (!NR) print "nan"; else if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
minimum() { sort -n | sed -n 1p; }
ms() { awk -v u="$1" 'BEGIN {if (u == "nan" || u == "") print "-"; else printf "%.1f ms", u/1000}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (a == "" || b == "" || a == "nan" || b == "nan" || b == 0) print "-"; else printf "%.2f", a/b}'; }
mib() { awk -v k="$1" 'BEGIN {if (k == "nan" || k == "") print "-"; else printf "%.1f MiB", k/1024}'; }
shown() { local s= a; for a in "$@"; do s+="${s:+ }$(printf '%q' "$a")"; done; s=${s//$TREES/\$TREES}; printf '%s' "${s//$modroot\//}"; }

# mount_fuse WORKLOAD DIR COMMAND...: mounts src on DIR with COMMAND (run in the background
# for latfs, which serves in the foreground), waiting until the mount is there.
mount_fuse() {
  local w=$1 m=$2
  shift 2
  mkdir "$m" && mnts+=("$m")
  say "== mounting $m for $w: $(shown "$@")"
  if [[ $w == lat-* ]]; then
    "$@" 2>"$tmp/latfs.err" &
    latfs_pid=$!
  elif ! "$@" 2>"$tmp/mount.err"; then
    unavailable[$w]="the mount failed: $(head -c 200 "$tmp/mount.err")"
    return
  fi
  local i
  for ((i = 0; i < 100; i++)); do
    ! mountpoint -q "$m" || return 0
    [[ -z $latfs_pid ]] || kill -0 "$latfs_pid" 2>/dev/null || break
    sleep 0.1
  done
  unavailable[$w]="the mount did not come up: $(head -c 200 "$tmp/latfs.err" 2>/dev/null)"
}
MNT_BIND=$tmp.bindfs MNT_LAT=$tmp.latfs
for w in "${workloads[@]}"; do
  [[ -z ${unavailable[$w]:-} ]] || continue
  case $w in
    fuse-*)
      if [[ -z ${bind_tried:-} ]]; then
        bind_tried=$w
        mount_fuse "$w" "$MNT_BIND" bindfs -o ro "$TREES/src" "$MNT_BIND"
      else
        [[ -z ${unavailable[$bind_tried]:-} ]] || unavailable[$w]=${unavailable[$bind_tried]}
      fi
      ;;
    lat-print) mount_fuse "$w" "$MNT_LAT" "$BIN/latfs" -latency "$LATENCY" "$TREES/src" "$MNT_LAT" ;;
  esac
done

# run_timed IDX [RECORD]: one run of tool IDX through timeit, output to /dev/null; unless
# RECORD is 0 it appends the wall time (µs), CPU time (µs) and peak RSS (KiB) to its files.
run_timed() {
  local -n c=CMD_$1
  local wall cpu rss rc
  if [[ $w == cold-* ]]; then cold_lock && drop_caches; fi
  read -r wall cpu rss rc < <("$TIMEIT" -e "$tmp/stderr" -- "${c[@]}") || true
  [[ $w != cold-* ]] || cold_unlock
  [[ -n ${rc:-} ]] || die "timeit failed on $(shown "${c[@]}")"
  ((rc == 0)) || runerr[$1]="exit $rc: $(head -c 200 "$tmp/stderr")"
  ((${2:-1})) || return 0
  echo "$wall" >>"$tmp/wall.$1"
  echo "$cpu" >>"$tmp/cpu.$1"
  echo "$rss" >>"$tmp/rss.$1"
}

# The launch cost every measurement carries (posix_spawn, exec, wait4), from /bin/true.
CMD_overhead=(/bin/true)
declare -A runerr=()
w=
for ((r = 0; r < 2 * RUNS + 1; r++)); do run_timed overhead 1; done
overhead_us=$(median <"$tmp/wall.overhead")

stamp=$(date +%Y%m%d-%H%M%S)
md=$OUT/results-$stamp.md
status=0
{
  echo "# gfind end-to-end benchmark, $(date '+%Y-%m-%d %H:%M:%S %Z')"
  echo
  echo "- machine: $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | sed -n 1p), Linux $(uname -r), load average at start $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "- trees: \`$TREES\` ($(df -PT "$TREES" | awk 'NR==2 {print $2}'))"
  echo "- warm cache, output to /dev/null, $RUNS interleaved rounds after one warm-up round; times are medians (min also shown)"
  if ((any_slow)); then
    echo "- except in the slow workloads (cold-*, fuse-*, lat-*): no warm-up round (the output check before the timing warms the FUSE ones); in cold-* every run starts with \`sync; echo 3 > /proc/sys/vm/drop_caches\`$([[ -z ${COLD_LOCK:-} ]] || echo ", under flock on $COLD_LOCK"); their \"x floor\" is over the 32-thread floor in cold-*, over the fastest floor row on FUSE"
  fi
  [[ " ${workloads[*]} " != *" lat-"* ]] || echo "- latfs: bench/latfs (go-fuse v2.12.1), -latency $LATENCY per lookup, getattr, readdir and readdirplus"
  echo "- launch overhead included in every time (posix_spawn of /bin/true, exec, wait4): $(ms "$overhead_us")"
  for t in "${tools[@]}"; do v=$(version "$t") && echo "- ${label[$t]}: $v"; done
  echo "- ratios: tool median / GNU find median, and tool median / floor median (lower is faster)"
  load=$(cut -d' ' -f1 /proc/loadavg)
  if awk -v l="$load" -v n="$(nproc)" 'BEGIN {exit !(l > n / 2)}'; then
    echo "- **warning: load average $load on $(nproc) CPUs at the start: other work competes for the CPUs, so times are noisy; trust ratios less, and min more than median**"
  fi
  if ((GFIND_IS_GNU)); then
    echo "- GNU find stands in for gfind, so the gfind row is an A/A control: its distance from 1.00 is this run's noise"
  fi
} >"$md"
cat "$md"

# ---------- per workload ----------
for w in "${workloads[@]}"; do
  T=$(root_of "$w")
  echo
  echo "=== $w: $(describe "$w")"
  if [[ -n ${unavailable[$w]:-} ]]; then
    echo "(skipped: ${unavailable[$w]})"
    printf '\n### %s: %s\n\nskipped: %s\n' "$w" "$(describe "$w")" "${unavailable[$w]}" >>"$md"
    continue
  fi
  active=() notes=()
  unset "${!CMD_@}" 2>/dev/null || true
  i=0
  for t in "${tools[@]}"; do
    if tool_cmd "$t" "$w"; then
      declare -ga "CMD_$i"
      declare -n dst=CMD_$i
      dst=("${CMD[@]}")
      unset -n dst
      active+=("$i:$t")
    else
      [[ -z $SKIP ]] || notes+=("${label[$t]}: left out, $SKIP")
    fi
    i=$((i + 1))
  done

  # 1. same set of paths as GNU find?
  say "-- checking outputs"
  ref_ok=0
  keep=()
  for a in "${active[@]}"; do
    i=${a%%:*} t=${a#*:}
    declare -n c=CMD_$i
    rc=0
    [[ $w != cold-* ]] || cold_lock # a warm run, but its reads would disturb another's cold one
    "${c[@]}" >"$tmp/raw" 2>"$tmp/err" || rc=$?
    [[ $w != cold-* ]] || cold_unlock
    unset -n c
    if [[ $w == src-color ]]; then sed -i $'s/\x1b\\[[0-9;]*m//g' "$tmp/raw"; fi # compare names, not colors
    if [[ $t == fd ]]; then sed 's:/$::' "$tmp/raw"; else cat "$tmp/raw"; fi | sort >"$tmp/sorted.$t"
    rm -f "$tmp/raw"
    if [[ $t == find ]]; then
      ((rc == 0)) || { say "run.sh: GNU find failed (exit $rc): $(head -c 300 "$tmp/err")"; break; }
      ref_ok=1
      n=$(wc -l <"$tmp/sorted.find")
      exp=$(expected "$w")
      [[ -z $exp || $exp == "$n" ]] || notes+=("warning: GNU find printed $n paths, the tree's .counts promise $exp (was the tree changed?)")
      # fd never prints the root itself, so it is compared with the rest
      grep -vxF -- "$T" "$tmp/sorted.find" >"$tmp/sorted.find-noroot" || true
      keep+=("$a")
      continue
    fi
    ref=$tmp/sorted.find
    [[ $t != fd ]] || ref=$tmp/sorted.find-noroot
    why=
    if ((rc != 0)); then
      why="exit status $rc ($(head -1 "$tmp/err" | head -c 150))"
    elif ! cmp -s "$ref" "$tmp/sorted.$t"; then
      miss=$(comm -23 "$ref" "$tmp/sorted.$t" | wc -l)
      extra=$(comm -13 "$ref" "$tmp/sorted.$t" | wc -l)
      ex=$(comm -3 "$ref" "$tmp/sorted.$t" | sed -n '1{s/^\t//;p;}' | cut -c1-120)
      why="output differs from GNU find's: $miss paths missing, $extra extra (first difference: $ex)"
    fi
    rm -f "$tmp/sorted.$t"
    if [[ -n $why ]]; then
      if [[ $t == gfind ]]; then
        say ""
        say "!!!!!! FAIL: gfind on $w: $why"
        say "!!!!!! command: $(shown "${CMD_1[@]}")"
        status=1
        ((KEEP)) || { say "run.sh: stopping (use -k to keep going)"; exit 1; }
      fi
      notes+=("${label[$t]}: left out, $why")
      say "   ${label[$t]}: $why"
    else
      keep+=("$a")
    fi
  done
  rm -f "$tmp"/sorted.*
  ((ref_ok)) || { status=1; echo "(GNU find failed; $w skipped)"; continue; }
  say "   ${#keep[@]} tools agree on $n paths"
  active=("${keep[@]}")

  # 2. interleaved timing: round 0 is the warm-up
  rm -f "$tmp"/wall.[0-9]* "$tmp"/cpu.[0-9]* "$tmp"/rss.[0-9]*
  runerr=()
  first=0
  ! is_slow "$w" || first=1
  say "-- timing ${#active[@]} tools, $((1 - first)) warm-up + $RUNS rounds"
  for ((r = first; r <= RUNS; r++)); do
    for a in "${active[@]}"; do run_timed "${a%%:*}" $((r > 0)); done
    printf '.' >&2
  done
  printf '\n' >&2

  # 3. syscalls (one run under strace -f -c each)
  declare -A sc_total=() sc_stat=()
  if ((STRACE)); then
    say "-- counting syscalls"
    for a in "${active[@]}"; do
      i=${a%%:*} t=${a#*:}
      declare -n c=CMD_$i
      if strace -f -c -U name,calls -o "$tmp/strace" "${c[@]}" >/dev/null 2>&1; then
        read -r sc_total[$t] sc_stat[$t] < <(awk '$1 == "total" {t = $2}
          $1 ~ /^(newfstatat|fstatat64|statx|fstat|fstat64|lstat|lstat64|stat|stat64)$/ {s += $2}
          END {print t + 0, s + 0}' "$tmp/strace")
      fi
      unset -n c
    done
  fi

  # 4. the table
  declare -A med=() mn=() cpu=() rss=()
  fl=
  for a in "${active[@]}"; do
    i=${a%%:*} t=${a#*:}
    med[$t]=$(median <"$tmp/wall.$i")
    mn[$t]=$(minimum <"$tmp/wall.$i")
    cpu[$t]=$(median <"$tmp/cpu.$i")
    rss[$t]=$(median <"$tmp/rss.$i")
    [[ -z ${runerr[$i]:-} ]] || notes+=("${label[$t]}: a timed run failed: ${runerr[$i]}")
  done
  fl=${med[floor]:-}
  case $w in
    cold-*) fl=${med[floor32]:-} ;;
    fuse-* | lat-*) fl=$(for t in floor2 floor8 floor16 floor32; do [[ -z ${med[$t]:-} ]] || echo "${med[$t]}"; done | minimum) ;;
  esac
  hdr=(tool median min "x find" "x floor" "CPU u+s" "peak RSS")
  ((!STRACE)) || hdr+=(syscalls "stat calls")
  {
    echo
    echo "### $w: $(describe "$w")"
    echo
    printf '|'; printf ' %s |' "${hdr[@]}"; echo
    printf '|---'; printf '|--:%.0s' "${hdr[@]:1}"; echo '|'
  } >>"$md"
  printf '%-17s %11s %11s %7s %8s %10s %10s' "${hdr[@]:0:7}"
  ((!STRACE)) || printf ' %9s %10s' "${hdr[@]:7}"
  echo
  for a in "${active[@]}"; do
    t=${a#*:}
    row=("${label[$t]}" "$(ms "${med[$t]}")" "$(ms "${mn[$t]}")" "$(ratio "${med[$t]}" "${med[find]}")"
      "$(ratio "${med[$t]}" "$fl")" "$(ms "${cpu[$t]}")" "$(mib "${rss[$t]}")")
    ((!STRACE)) || row+=("${sc_total[$t]:--}" "${sc_stat[$t]:--}")
    printf '%-17s %11s %11s %7s %8s %10s %10s' "${row[@]:0:7}"
    ((!STRACE)) || printf ' %9s %10s' "${row[@]:7}"
    echo
    { printf '|'; printf ' %s |' "${row[@]}"; echo; } >>"$md"
  done
  {
    echo
    for a in "${active[@]}"; do
      i=${a%%:*} t=${a#*:}
      declare -n c=CMD_$i
      echo "- ${label[$t]}: \`$(shown "${c[@]}")\`"
      unset -n c
    done
    for note in "${notes[@]}"; do echo "- $note"; done
  } >>"$md"
  for note in "${notes[@]}"; do echo "  note: $note"; done
  unset med mn cpu rss sc_total sc_stat
done

printf '\n- load average at the end: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)" >>"$md"
echo
echo "Markdown: $md"
if ((run_status)); then
  echo
  GFIND=$GFIND "$here/status.sh" -n "$RUNS" -t "$TREES" src || status=1
fi
exit "$status"
