# shellcheck shell=bash disable=SC1091
# Stress: attach to one running 2-thread program, trace briefly (until a
# call shows), signal the tracer (INT, TERM, HUP, QUIT, PIPE in turn),
# check it is released cleanly (untraced, running, maps, read-only bytes
# and its GOT as before); repeat.  Full form (STRESS=1) 100 cycles, reduced 10.
# At the end the program must still have got every result right.
# Cycles, failures and time are printed.
. "$PROC/lib.sh"

if [ "$STRESS" = 1 ]; then cycles=100; else cycles=10; fi
sigs=(INT TERM HUP QUIT PIPE)
start_loop a 2
p=$lpid
# Its GOT slots are bound at its first calls, right after it is ready.
sleep 0.2
export SNAP_GOT=1
snapshot "$p" >snap
grep -q '^\.got' snap || fail "no GOT in the snapshot: $(tail -n 3 snap)"
bad=0 start=$(date +%s%N)
for ((c = 0; c < cycles; c++)); do
	sig=${sigs[c % 5]}
	rm -f trace
	lt_bg -o trace -p "$p"
	t=$!
	tracer_pid "$t"
	why=
	wait_grep '^atol\(' trace || why+="no calls traced; "
	kill -"$sig" "$tpid"
	wait_tracer "$t"
	[ "$tst" = 124 ] && why+="tracer timed out; "
	# check_released ends the test on failure: run it in a subshell to count.
	out=$(check_released "$p" snap 2>&1) || why+="$out"
	if [ -n "$why" ]; then
		bad=$((bad + 1))
		echo "cycle $c (SIG$sig): $why"
		snapshot "$p" >snap # go on from the new state
	fi
	[ -d "/proc/$p" ] && [ "$(pstate "$p")" != Z ] || fail "cycle $c (SIG$sig): the program died"
done
end=$(date +%s%N)
stop_loop a "$p"
echo "STAT attach_cycles: $cycles cycles, $bad failed, $(( (end - start) / 1000000 )) ms"
[ "$bad" = 0 ]
