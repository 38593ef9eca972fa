# shellcheck shell=bash disable=SC1091
# A program started by the tracer dies with it when the tracer is killed
# with SIGKILL (PTRACE_O_EXITKILL), rather than running on with its
# breakpoints in place.
. "$PROC/lib.sh"

lt_bg -o trace "$BIN/loop" a.ready a.stop
t=$!
tracer_pid "$t"
wait_file a.ready || fail "program never ready"
p=$(cat a.ready)
cleanup_pids+=("$p")
wait_grep '^atol\(' trace || fail "no calls traced"
kill -KILL "$tpid"
wait_gone "$p" 10 || fail "the program (pid $p) outlived the killed tracer: state $(pstate "$p")"
wait "$t" 2>/dev/null
exit 0
