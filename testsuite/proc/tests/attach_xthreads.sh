# shellcheck shell=bash disable=SC1091
# -x with -p on a program whose 4 threads call its own function xlen
# the whole time, with a CPU hog on every CPU (one more thread waits in
# read()), attached and detached (SIGINT) in cycles: every call traced
# shows its thread's tag and result; with --fast the entry is patched
# with the threads stopped (-D says so).  After each detach the program
# runs on untraced, its maps and read-only bytes as before (the patch
# undone, no thread left in its entry cell); at the end every call it
# made was right.  Reduced: 8 cycles; stress (STRESS=1): 100.
. "$PROC/lib.sh"

if [ "$STRESS" = 1 ]; then cycles=100; else cycles=8; fi
hogs_start
rm -f a.ready a.stop
"$BIN/xthreads" 4 0 a.ready a.stop >a.out 2>&1 &
p=$!
cleanup_pids+=("$p")
wait_file a.ready || fail "the program never became ready"
snapshot "$p" >snap
dbg=()
[ "$MODE" = --fast ] && dbg=(-D 1)
bad=0 calls=0 start=$(date +%s%N)
for ((c = 0; c < cycles; c++)); do
	rm -f trace err
	lt_bg "${dbg[@]}" -f -L -x xlen -o trace -p "$p" 2>err
	t=$!
	tracer_pid "$t"
	why=
	for ((i = 0; i < 3000; i++)); do
		n=$(grep -E '^[0-9]+ xlen\("t[0-9]*"\) += [0-9]+$' trace 2>/dev/null |
			cut -d' ' -f1 | sort -u | wc -l)
		[ "$n" -ge 4 ] && break
		sleep 0.01
	done
	[ "$n" -ge 4 ] || why+="calls of only $n threads traced; "
	kill -INT "$tpid"
	wait_tracer "$t"
	[ "$tst" = 124 ] && why+="tracer timed out; "
	calls=$((calls + $(grep -c 'xlen(' trace)))
	if [ "$MODE" = --fast ]; then
		grep -q ': --fast: [0-9]* other threads stopped for xlen$' err ||
			why+="xlen not patched: $(grep xlen err | head -3); "
	fi
	# A call in progress at the detach stays unfinished (its line cut
	# at the end of the trace, or "<unfinished ...>"): one per thread.
	res=$(canon trace | awk '$2 ~ /^xlen\("t[0-9]*"\)$/ && $3 == "=" {
			if ($4 != length($2) - 8) print "wrong return: " $0; next }
		$2 ~ /^xlen\("t[0-9]*"$/ && (NF == 2 || $3 == "<unfinished") &&
			!u[$1]++ { next }
		/xlen/ { print "unexpected: " $0 }' | head -5)
	[ -z "$res" ] || why+="$res; "
	# check_released ends the test on failure: run it in a subshell.
	out=$(check_released "$p" snap 2>&1) || why+="$out"
	if [ -n "$why" ]; then
		bad=$((bad + 1))
		echo "cycle $c: $why"
		snapshot "$p" >snap
	fi
	[ -d "/proc/$p" ] && [ "$(pstate "$p")" != Z ] || fail "cycle $c: the program died"
done
end=$(date +%s%N)
touch a.stop
wait "$p"
st=$?
[ "$st" = 0 ] && [ "$(cat a.out)" = ok ] ||
	fail "the program ended badly: status $st, output: $(cat a.out)"
echo "STAT attach_xthreads: $cycles cycles, $calls calls, $bad failed, $(( (end - start) / 1000000 )) ms"
[ "$bad" = 0 ]
