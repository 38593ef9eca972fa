# shellcheck shell=bash disable=SC1091
# A program reserves a record of the --fast ring and never commits it
# (one atomic add on the ring's head), then makes 5000 calls of strlen
# (more than the ring holds), with a 1 ms timer signal in "timer".  The
# tracer waits on that record a bounded time only, then gives the ring
# up: said once on stderr, the process goes on in ptrace mode, and the
# calls are shown, or counted ("--- N calls not recorded ---").  Once
# the calls are made, the tracer's peak RSS is under 256 MiB; "plain"
# then lets the program end, "timer" sends the tracer SIGTERM, which
# must end it within 1 s (1.5 s here: a loaded machine), and the
# program goes on untraced.  Before, the writers trapped on the full
# ring for ever, the calls were lost without a word, and SIGTERM went
# unheeded.  In ptrace mode there is no ring: the same checks hold.
# "x": the calls are of the program's own_len, traced with -x (its entry
# patched into the recorder, then, the ring given up, the bytes put back
# and the breakpoint armed again).
# needs: recorder
# variants: plain timer x
. "$PROC/lib.sh"

n=5000
"$BIN/fast_stuck" $n "$1" >out.plain || fail "untraced run failed: $?"
fn=strlen opts=()
[ "$1" = x ] && fn=own_len opts=(-x own_len)
TMO=60 lt_bg "${opts[@]}" -o trace "$BIN/fast_stuck" $n "$1" a.ready a.stop \
	>out.traced 2>err
t=$!
tracer_pid "$t"
cleanup_pids+=("$t" "$tpid")
# The program waits for a.stop: let it end whatever the test's end.
trap 'touch a.stop; on_exit' EXIT
wait_file a.ready 20 || fail "the program never made its calls" \
	"$(tail -3 trace 2>/dev/null)" "$(cat err)"
hwm=$(peak_rss "$tpid")
if [ "$1" = timer ]; then
	t0=$(date +%s%N)
	kill -TERM "$tpid"
	wait_tracer "$t" 10
	ms=$((($(date +%s%N) - t0) / 1000000))
	echo "STAT SIGTERM to exit: ${ms} ms; peak RSS ${hwm} KiB"
	[ "$ms" -lt 1500 ] || fail "the tracer took ${ms} ms to end at SIGTERM"
	touch a.stop
	wait_grep '^total' out.traced 10 || fail "the program did not end"
else
	touch a.stop
	wait_tracer "$t" 30
	echo "STAT tracer exited $tst after $tsecs; peak RSS ${hwm} KiB"
	[ "$tst" = 0 ] || fail "tracer exit status $tst" "$(cat err)"
fi
cmp -s out.plain out.traced ||
	fail "output differs:" "$(diff out.plain out.traced)" "$(cat err)"
[ "$hwm" -lt $((256 * 1024)) ] || fail "tracer peak RSS ${hwm} KiB"
shown=$(grep -c "^$fn(\"recorded\"" trace)
lost=$(sed -n 's/^--- \([0-9]*\) calls* not recorded ---$/\1/p' trace |
	awk '{ s += $1 } END { print s + 0 }')
echo "STAT $shown calls shown, $lost not recorded"
[ $((shown + lost)) -ge $n ] ||
	fail "$shown calls shown and $lost said not recorded, of $n" "$(cat err)"
if [ -n "$MODE" ]; then
	[ "$(grep -c 'never committed' err)" = 1 ] ||
		fail "not said once that the ring was given up:" "$(cat err)"
fi
exit 0
