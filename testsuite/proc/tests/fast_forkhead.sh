# shellcheck shell=bash disable=SC1091
# -f, a fork child moves the --fast ring's head three laps past its tail,
# then makes 2000 calls of strlen; the parent waits for it, then makes
# its own.  The tracer gives the child's ring up (said once), the child
# goes on in ptrace mode, and every call of both is shown or counted
# ("--- N calls not recorded ---"); both behave as untraced, and the
# tracer's peak RSS stays under 256 MiB.  Before, the tracer never gave
# the room back: the child's writers trapped on the full ring for ever,
# the tracer busy.  In ptrace mode there is no ring: the same checks.
# needs: recorder
. "$PROC/lib.sh"

n=2000
"$BIN/fast_forkhead" $n >out.plain || fail "untraced run failed: $?"
TMO=30 lt_bg -f -o trace "$BIN/fast_forkhead" $n >out.traced 2>err
t=$!
tracer_pid "$t"
cleanup_pids+=("$t" "$tpid")
hwm=0
for ((i = 0; i < 2000; i++)); do
	h=$(peak_rss "$tpid")
	[ -n "$h" ] || break
	hwm=$h
	[ "$(pstate "$tpid")" = Z ] && break
	sleep 0.01
done
wait_tracer "$t" 30
echo "STAT tracer exited $tst after $tsecs; peak RSS ${hwm} KiB"
[ "$tst" = 0 ] || fail "tracer exit status $tst" "$(cat err)"
cmp -s out.plain out.traced ||
	fail "output differs:" "$(diff out.plain out.traced)" "$(cat err)"
[ "$hwm" -lt $((256 * 1024)) ] || fail "tracer peak RSS ${hwm} KiB"
child=$(grep -c 'strlen("child"' trace)
parent=$(grep -c 'strlen("parent"' trace)
lost=$(sed -n 's/^[0-9]* --- \([0-9]*\) calls* not recorded ---$/\1/p' trace |
	awk '{ s += $1 } END { print s + 0 }')
echo "STAT child: $child calls shown, $lost not recorded; parent: $parent"
[ $((child + lost)) -ge $n ] && [ "$parent" = $n ] ||
	fail "child: $child shown, $lost not recorded; parent: $parent (of $n)"
if [ -n "$MODE" ]; then
	[ "$(grep -c "head is corrupt" err)" = 1 ] ||
		fail "not said once that the ring was given up:" "$(cat err)"
fi
exit 0
