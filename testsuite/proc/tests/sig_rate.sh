# shellcheck shell=bash disable=SC1091
# Signals at a high rate (issue 25): bin/sigrate, three threads of
# strlen calls and a SIGALRM every USEC us whose handler calls strlen,
# with a CPU hog on every CPU.  Each signal costs the tracer one stop, so
# none keeps up with a 50 us timer, but the program must go on and the
# cost per signal stay that of a stop: --fast waited at each stop for a
# record of a writer the signal had stopped (up to 10 ms, and a full
# ring up to 2000 sleeps: 5 s at 200 us untraced 0.05 s, 50 us never
# done, SIGTERM ignored).  The trace must show every call and every
# signal, and the program print what it prints untraced.
#   200: 3 x 30000 calls at 200 us, within 5 s (0.3 s on an idle machine;
#        ptrace mode: 3 x 1000 calls, within 30 s).
#   50: 3 x 30000 calls at 50 us, within 40 s (about 1 s on an idle
#       machine).  A thread run out of the recorder met a SIGALRM at each
#       resume and never got out: the tracer hung for good, SIGTERM
#       ignored.  --fast only: ptrace mode stops three times a signal (its
#       delivery, the handler's call and return), and under load the next
#       one is pending at every resume, as with any ptrace tracer.
#   term: SIGTERM at 50 us, 1 s into a long run: the tracer exits within
#        2 s (1 s on an idle machine; 0.5 s at most measured under load).
# variants: 200 50 term
. "$PROC/lib.sh"

# check USEC ITERS: the trace and output of a finished run.
check() {
	local n sig h all split resumed
	n=$(sed -n 's/^deliveries \([0-9]*\) sum \([0-9]*\)$/\1/p' out)
	[ "$(sed -n 's/^deliveries [0-9]* sum //p' out)" = $((23 * $2 / 2)) ] ||
		fail "program output: $(cat out)"
	sig=$(grep -c -- '--- SIGALRM' trace)
	h=$(grep -c 'strlen("alarm-handler"' trace)
	all=$(grep -c 'strlen("' trace)
	split=$(grep -c 'strlen(".*<unfinished' trace)
	resumed=$(grep -c '<\.\.\. strlen resumed>' trace)
	echo "STAT $1 us: $n deliveries, $all calls, $secs"
	[ "$sig" = "$n" ] && [ "$h" = "$n" ] && [ "$all" = $((3 * $2 + n)) ] &&
		[ "$split" = "$resumed" ] ||
		fail "$n deliveries and $((3 * $2)) calls, but $sig signal lines," \
			"$h handler calls, $all calls ($split split, $resumed resumed)"
}

# run USEC ITERS BUDGET: a traced run to its end within BUDGET seconds.
run() {
	local t0 t1 st ms
	t0=$(date +%s%N)
	TMO=$(($3 + 20)) lt -f -o trace "$BIN/sigrate" "$1" "$2" >out
	st=$?
	t1=$(date +%s%N)
	ms=$(((t1 - t0) / 1000000))
	secs="${ms} ms"
	[ "$st" = 0 ] || fail "traced: status $st after $secs" "$(tail -n 3 trace)"
	[ "$ms" -le $(($3 * 1000)) ] ||
		fail "$1 us: $secs, over the budget of $3 s" "$(cat out)"
	check "$1" "$2"
}

hogs_start
case $1 in
200)
	if [ -n "$MODE" ]; then run 200 30000 5; else run 200 1000 30; fi
	;;
50)
	[ -n "$MODE" ] || skip "ptrace mode cannot keep up with 50 us (term checks SIGTERM)"
	run 50 30000 40
	;;
term)
	lt_bg -f -o trace "$BIN/sigrate" 50 10000000 >out
	t=$!
	tracer_pid "$t"
	cleanup_pids+=("$t")
	wait_grep 'strlen\("' trace 20 || fail "no call traced in 20 s"
	sleep 1
	read -ra p <"/proc/$tpid/task/$tpid/children"
	cleanup_pids+=("${p[@]}")
	kill -TERM "$tpid"
	wait_tracer "$t" 2
	echo "STAT SIGTERM: tracer exited $tst after $tsecs"
	[ "$tst" = 143 ] || fail "tracer exit status $tst, not 143"
	;;
esac
exit 0
