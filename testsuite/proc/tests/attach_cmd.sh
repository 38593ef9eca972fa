# shellcheck shell=bash disable=SC1091
# -p combined with a command, and -p given twice: every process is traced
# (lines prefixed by pid), the command runs to its end and the tracer
# carries on with the attached ones; SIGINT then detaches them all cleanly.
# variants: cmd two
. "$PROC/lib.sh"

start_loop a
pa=$lpid
snapshot "$pa" >snap.a
if [ "$1" = cmd ]; then
	lt_bg -o trace -p "$pa" "$BIN/hello" abc >hello.out 2>&1
	t=$!
	tracer_pid "$t"
	cleanup_pids+=("$t")
	wait_grep '^[0-9]+ \+\+\+ exited \(status 5\) \+\+\+$' trace ||
		fail "the command's end not traced:" "$(grep -v "^$pa " trace | head)"
	canon trace | grep -qE '^P[0-9]+ printf\("hello %zu\\n", 3\) = 8$' ||
		fail "the command's calls not traced:" "$(grep -v "^$pa " trace | head)"
	[ "$(cat hello.out)" = "hello 3" ] || fail "command output: $(cat hello.out)"
	wait_grep "^$pa atol\\(" trace || fail "the attached process's calls not traced"
	kill -0 "$t" 2>/dev/null || fail "the tracer ended with the command"
else
	start_loop b
	pb=$lpid
	snapshot "$pb" >snap.b
	lt_bg -o trace -p "$pa" -p "$pb"
	t=$!
	tracer_pid "$t"
	cleanup_pids+=("$t")
	wait_grep "^$pa atol\\(" trace || fail "no calls of $pa traced"
	wait_grep "^$pb atol\\(" trace || fail "no calls of $pb traced"
fi
kill -INT "$tpid"
wait_tracer "$t"
echo "tracer exited $tst after $tsecs"
check_released "$pa" snap.a
stop_loop a "$pa"
if [ "$1" = two ]; then
	check_released "$pb" snap.b
	stop_loop b "$pb"
fi
