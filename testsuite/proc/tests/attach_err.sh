# shellcheck shell=bash disable=SC1091
# -p errors: one line, a non-zero exit, nothing left half-started.
#   nopid: a pid that does not exist.
#   strace / ltrace: a process already traced by another tracer; the
#   message names it (TracerPid), and the first tracer keeps it.
#   cmd: with a command too: the command must not be left running.
# variants: nopid strace ltrace cmd
. "$PROC/lib.sh"

case $1 in
nopid)
	# A pid that surely does not exist: above pid_max.
	bad=$(( $(cat /proc/sys/kernel/pid_max) + 1 ))
	lt -p "$bad" >out 2>err
	st=$?
	;;
strace|ltrace|cmd)
	start_loop a
	p=$lpid
	if [ "$1" = strace ]; then
		command -v strace >/dev/null || skip "no strace"
		timeout -k 5 60 strace -q -o strace.out -p "$p" &
	else
		lt_bg -o trace1 -p "$p"
	fi
	first=$!
	cleanup_pids+=("$first")
	for ((i = 0; i < 3000; i++)); do
		tp=$(tracer_of "$p")
		[ -n "$tp" ] && [ "$tp" != 0 ] && break
		sleep 0.01
	done
	[ "$tp" != 0 ] || fail "the first tracer never attached"
	if [ "$1" = cmd ]; then
		lt -o trace2 -p "$p" "$BIN/loop" b.ready b.stop >out 2>err
	else
		lt -o trace2 -p "$p" >out 2>err
	fi
	st=$?
	[ "$(tracer_of "$p")" = "$tp" ] || fail "the first tracer lost the process"
	grep -q "$tp" err || fail "the message does not name the tracer $tp: $(cat err)"
	if [ "$1" = cmd ] && [ -s b.ready ]; then
		b=$(cat b.ready)
		cleanup_pids+=("$b")
		[ -d "/proc/$b" ] && [ "$(pstate "$b")" != Z ] &&
			fail "the command was left running (pid $b, state $(pstate "$b"))"
	fi
	kill -INT "$(tracer_of "$p")"
	wait "$first"
	stop_loop a "$p"
	;;
esac
echo "exit $st: $(cat err)"
[ "$st" -ge 1 ] && [ "$st" -lt 124 ] || fail "exit status $st"
[ -s out ] && fail "stdout: $(cat out)"
[ "$(wc -l <err)" = 1 ] || fail "not one line on stderr"
[ "$1" = nopid ] && { grep -q "$bad" err || fail "the message does not name the pid"; }
exit 0
