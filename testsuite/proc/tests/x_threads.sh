# shellcheck shell=bash disable=SC1091
# -x on the program's own function, called by 8 threads at once (they
# start together) with a CPU hog on every CPU, while one more thread
# waits in read(): each thread's calls appear under its own tid, exactly
# as many as it made, each with its result, and read() is not failed by
# the tracer's stops.  With --fast the function's entry is patched with
# the other threads stopped (-D says so), not left on its breakpoint.
# Reduced: 3 runs of 8 x 5000; stress (STRESS=1): 20 runs of 8 x 50000.
. "$PROC/lib.sh"

if [ "$STRESS" = 1 ]; then nt=8 nc=50000 runs=20 TMO=1800
else nt=8 nc=5000 runs=3
fi
"$BIN/xthreads" $nt $nc >out.plain 2>&1 || fail "untraced run failed: $(cat out.plain)"
hogs_start
dbg=()
[ "$MODE" = --fast ] && dbg=(-D 1)
bad=0 start=$(date +%s%N)
for ((r = 1; r <= runs; r++)); do
	lt "${dbg[@]}" -f -x xlen -o trace "$BIN/xthreads" $nt $nc >out.traced 2>err.traced
	st=$?
	why=
	[ "$st" = 0 ] || why+="tracer exit $st; "
	cmp -s out.plain out.traced || why+="output differs: $(cat out.traced); "
	if [ "$MODE" = --fast ]; then
		grep -q ': --fast: [0-9]* other threads stopped for xlen$' err.traced ||
			why+="xlen not patched: $(grep xlen err.traced | head -3); "
	fi
	grep -v '^ltrace: debug: ' err.traced >err.other
	[ -s err.other ] && why+="stderr: $(head -3 err.other); "
	res=$(canon trace | awk -v nt=$nt -v nc=$nc '
		{ p = $1 }
		$2 ~ /^xlen\("t[0-9]*"\)$/ && $3 == "=" {
			tag = $2; n[p]++; if (!(p in t)) t[p] = tag
			else if (t[p] != tag) { print "thread " p " called with two tags"; bad = 1 }
			if ($4 != length(tag) - 8) { print "wrong return: " $0; bad = 1 }
			next
		}
		/xlen/ { print "unexpected: " $0; bad = 1 }
		END {
			for (p in n) { threads++; if (n[p] != nc) { print "thread " p " " t[p] ": " n[p] " calls, expected " nc; bad = 1 } }
			if (threads != nt) { print threads " threads with calls, expected " nt; bad = 1 }
			if (!bad) print "ok"
		}' | head -20)
	[ "$res" = ok ] || why+="trace: $res"
	if [ -n "$why" ]; then
		bad=$((bad + 1))
		echo "run $r: $why"
		cp trace "trace.fail.$r"
	fi
done
end=$(date +%s%N)
echo "STAT x_threads: $runs runs of $nt threads x $nc calls, $bad failed, $(( (end - start) / 1000000 )) ms"
[ "$bad" = 0 ]
