# shellcheck shell=bash disable=SC1091
# A signal a thread stops with while the tracer detaches is not dropped:
# the program (bin/traploop) raises SIGTRAP and runs trap instructions in a loop,
# checking that its handler ran once for each, when the tracer is made
# to detach (SIGINT to the tracer alone) at a random point; a detach
# that took the program's SIGTRAP for one of ours (and dropped it), or
# left one of ours to it, shows as "lost" or "extra".  Variant: the
# number of runs.
# variants: 20
. "$PROC/lib.sh"

n=$1
[ "$STRESS" = 1 ] && n=200
cleanup() { touch stop; }
trap cleanup EXIT
for ((c = 0; c < n; c++)); do
	rm -f r out stop trace
	lt_bg -f -o trace "$BIN/traploop" r out stop
	t=$!
	tracer_pid "$t"
	wait_file r || fail "run $c: program never ready"
	p=$(cat r)
	wait_grep 'raise' trace || fail "run $c: no traced call"
	sleep "0.0$((RANDOM % 5))"
	kill -INT "$tpid"
	wait "$t"
	[ -s out ] && fail "run $c: program wrote '$(cat out)'"
	[ -d "/proc/$p" ] && [ "$(pstate "$p")" != Z ] ||
		fail "run $c: the program is gone" "$(tail -3 trace)"
	touch stop
	wait_gone "$p" 10 || fail "run $c: program did not end"
	[ "$(cat out 2>/dev/null)" = "ok 1" ] ||
		fail "run $c: program wrote '$(cat out 2>/dev/null)'"
done
exit 0
