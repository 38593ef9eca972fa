# shellcheck shell=bash disable=SC1091
# --fast's ring copied while the program writes its first lap: under
# -A 9999999 -s 9999999 each writev of bench/reverse.c is a 24 KiB
# record, in a 4 MiB ring whose pages are written for the first time.
# The tracer's copy pinned 16 pages at once; a page pinned before its
# first write was the zero page, and the record committed meanwhile was
# copied with zeros from there on: writev's strings shown as addresses,
# "N reads of traced memory were not in the fetch plans' copies" on
# stderr, 1 run in 5 to 30.  Sixteen runs, each the same as ptrace mode's
# once addresses are masked, and silent.  Variant fork: progs/forklap.c,
# whose ring is shared copy-on-write with a child every 10th writev (a
# stale page there holds an older lap's bytes: no miss is counted, the
# trace differs).
# variants: reverse fork
. "$PROC/lib.sh"

conf=$PROC/../../bench/bench.conf
opts=(-A 9999999 -s 9999999 -F "$conf")
if [ "$1" = fork ]; then
	prog=("$BIN/forklap")
	opts+=(-e writev)
else
	cc -O2 -fno-builtin -o reverse "$PROC/../../bench/reverse.c" ||
		fail "cannot build bench/reverse.c"
	seq 1 300000 >in.txt
	prog=(./reverse in.txt)
fi
MODE='' lt "${opts[@]}" -o a.txt "${prog[@]}" >a.out ||
	fail "ptrace mode failed"
sed 's/0x[0-9a-f]*/X/g' a.txt >a.m
for run in $(seq 1 16); do
	lt --fast "${opts[@]}" -o b.txt "${prog[@]}" >b.out 2>b.err ||
		fail "--fast run $run failed"
	cmp -s a.out b.out || fail "run $run: program output differs"
	[ -s b.err ] && fail "run $run: --fast said:" "$(cat b.err)"
	sed 's/0x[0-9a-f]*/X/g' b.txt >b.m
	cmp -s a.m b.m || fail "run $run: traces differ:" \
		"$(diff a.m b.m | cut -c1-200 | head -4)"
done
echo "STAT 16 runs of $(wc -l <a.txt) lines, the same as ptrace mode's"
exit 0
