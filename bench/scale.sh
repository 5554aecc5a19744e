#!/bin/sh
# bench/scale.sh: does gfind scale to 10,000,000 entries? Not run by CI.
#
#	bench/scale.sh [COPIES]        (default 10: 10,000,000 entries)
#
# Builds the 1,000,000-entry src tree with bench/mktree (or reuses the one
# in $BENCH_TREES, default /tmp/gfind-trees), makes COPIES copies of it
# with `cp -al` under $BENCH_TREES/scale (hard links: the files cost no
# inodes, only the 70,000 directories of each copy do), then walks one
# copy (1,000,000 entries) and all of them (COPIES million) with
# `/usr/bin/time -f '%e %M'`, output to /dev/null, serially (-j1) and in
# parallel, each twice (the second, warm, run counts). It prints the
# seconds, the peak RSS and the time per entry, and fails when the peak
# RSS reaches 128 MiB or the time per entry of the big walk is more than
# 10% above the small one's. The copies are removed at the end.
#
# Hard-linked copies share their files' inodes, so the big walk's inode
# cache is as warm as the small one's: this measures gfind (memory, work
# per entry), not the disk.
#
# GFIND and GO override the binaries, as in bench/run.sh.
set -eu

cd "$(dirname "$0")/.."
copies=${1:-10}
trees=${BENCH_TREES:-/tmp/gfind-trees}
scale=$trees/scale
bin=bench/out/bin
go=${GO:-go}

mkdir -p "$bin" "$trees"
"$go" build -o "$bin/mktree" ./bench/mktree
gfind=${GFIND:-}
if [ -z "$gfind" ]; then
	"$go" build -o "$bin/gfind" ./cmd/gfind
	gfind=$bin/gfind
fi

# Room: a new src tree takes 1,000,000 inodes and about 700 MB; each
# copy 70,000 inodes and about 650 MB of directory blocks.
need_inodes=$((copies * 75000))
need_kb=$((copies * 700 * 1024))
if [ ! -f "$trees/src.counts" ]; then
	need_inodes=$((need_inodes + 1000000))
	need_kb=$((need_kb + 700 * 1024))
fi
have_inodes=$(df --output=iavail "$trees" | tail -1 | tr -d ' ')
have_kb=$(df --output=avail "$trees" | tail -1 | tr -d ' ')
if [ "$have_inodes" -lt $((need_inodes * 2)) ] || [ "$have_kb" -lt $((need_kb * 2)) ]; then
	echo "scale.sh: $trees has $have_inodes inodes and $have_kb KiB free;" \
		"want twice $need_inodes inodes and $need_kb KiB: skipped" >&2
	exit 0
fi

[ -f "$trees/src.counts" ] || "$bin/mktree" "$trees" src
rm -rf "$scale"
trap 'rm -rf "$scale"' EXIT
trap 'exit 1' INT TERM # through the EXIT trap
mkdir -p "$scale"
i=0
while [ $i -lt "$copies" ]; do
	cp -al "$trees/src" "$scale/c$i"
	i=$((i + 1))
done

# small=$(gfind over one copy) and big=$(over all), as "seconds KiB".
walk() { # dir args...
	dir=$1
	shift
	"$gfind" "$@" "$dir" >/dev/null # warm-up
	/usr/bin/time -f '%e %M' "$gfind" "$@" "$dir" 2>&1 >/dev/null | tail -1
}
n_small=$("$gfind" "$scale/c0" -printf . | wc -c)
n_big=$("$gfind" "$scale" -printf . | wc -c)
echo "entries: $n_small in one copy, $n_big in all"

status=0
for mode in -j1 ""; do
	small=$(walk "$scale/c0" $mode)
	big=$(walk "$scale" $mode)
	echo "$small $big" | awk -v mode="${mode:-parallel}" -v ns="$n_small" -v nb="$n_big" '{
		ps = $1 / ns * 1e9; pb = $3 / nb * 1e9
		slow = (pb / ps - 1) * 100
		printf "%-8s 1M: %6.2f s %7d KiB %6.0f ns/entry | %dM: %7.2f s %7d KiB %6.0f ns/entry | slowdown %+.1f%%\n",
			mode, $1, $2, ps, nb / 1e6, $3, $4, pb, slow
		bad = 0
		if ($4 >= 128 * 1024) { print "FAIL: peak RSS " $4 " KiB >= 128 MiB"; bad = 1 }
		if (slow > 10) { print "FAIL: per-entry time grew by more than 10%"; bad = 1 }
		exit bad
	}' || status=1
done
exit $status
