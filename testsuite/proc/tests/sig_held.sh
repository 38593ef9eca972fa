# shellcheck shell=bash disable=SC1091
# A signal whose handler is still running when the tracer detaches: the
# handler's frame holds the IP the signal interrupted, and the handler
# returns there untraced.  That IP must be the program's own code, never
# the tracer's (a displaced instruction, the --fast recorder's code),
# which is gone or no longer serves the thread.  ROUNDS times: attach
# to bin/sighold (looping over strlen of a 500-byte string: under
# --fast the signal often comes while the recorder copies it), send
# SIGUSR1 (its handler blocks reading a FIFO), detach, let the handler
# return; the program must run on and at last end cleanly, having run
# every handler.
. "$PROC/lib.sh"

rounds=20
[ "$STRESS" = 1 ] && rounds=200
mkfifo go
"$BIN/sighold" ready go 500 >out 2>&1 &
p=$!
cleanup_pids+=("$p")
wait_file ready || fail "the program never became ready"
for ((k = 1; k <= rounds; k++)); do
	rm -f trace
	lt_bg -s 500 -o trace -p "$p"
	t=$!
	tracer_pid "$t"
	cleanup_pids+=("$t")
	wait_grep '^strlen\(' trace || fail "round $k: no calls traced: $(head -3 trace)"
	kill -USR1 "$p"
	# The handler blocks in read: the thread sleeps (S) there, and only
	# there, the loop making no system call.
	for ((i = 0; i < 1000; i++)); do
		[ "$(pstate "$p")" = S ] && break
		sleep 0.01
	done
	[ "$i" = 1000 ] && fail "round $k: the handler never ran: state $(pstate "$p")"
	kill -INT "$tpid"
	wait_tracer "$t"
	[ "$(tracer_of "$p")" = 0 ] || fail "round $k: still traced after the detach"
	printf x >go
	sleep 0.05
	[ -d "/proc/$p" ] && [ "$(pstate "$p")" != Z ] ||
		fail "round $k: the program died after its handler returned:" \
			"$(dmesg 2>/dev/null | grep "sighold\[$p\]" | tail -n 2)"
done
kill -TERM "$p"
wait "$p"
st=$?
[ "$st" = 0 ] && [ "$(cat out)" = "ok $rounds" ] ||
	fail "the program ended badly: status $st, output: $(cat out)"
exit 0
