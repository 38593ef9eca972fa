# shellcheck shell=bash disable=SC1091
# --fast shows what ptrace mode shows, on bench/reverse.c (pread64 of a
# file in 64 KiB chunks, writev of up to 1024 lines) over 300000 lines,
# with -s 9999999 and with the defaults: the traces are the same once
# addresses are masked.  With -s 9999999 a plan for writev would bound
# each iovec's string by 9999999 bytes, far more than a record holds: its
# copies were cut (later strings showed as addresses) until fast_take
# kept such a function in ptrace mode.
. "$PROC/lib.sh"

cc -O2 -fno-builtin -o reverse "$PROC/../../bench/reverse.c" ||
	fail "cannot build bench/reverse.c"
seq 1 300000 >in.txt
conf=$PROC/../../bench/bench.conf
for opts in "" "-s 9999999"; do
	# shellcheck disable=SC2086
	lt $opts -F "$conf" -o a.txt ./reverse in.txt >a.out ||
		fail "ptrace mode ($opts) failed"
	# shellcheck disable=SC2086
	lt --fast $opts -F "$conf" -o b.txt ./reverse in.txt >b.out 2>b.err ||
		fail "--fast ($opts) failed"
	cmp -s a.out b.out || fail "program output differs ($opts)"
	[ -s b.err ] && fail "--fast ($opts) said:" "$(cat b.err)"
	sed 's/0x[0-9a-f]*/X/g' a.txt >a.m
	sed 's/0x[0-9a-f]*/X/g' b.txt >b.m
	cmp -s a.m b.m || fail "traces differ ($opts):" "$(diff a.m b.m | cut -c1-200 | head -6)"
	echo "STAT ($opts) $(wc -l <a.txt) lines, the same"
done
exit 0
