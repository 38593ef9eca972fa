# shellcheck shell=bash disable=SC1091
# The trace goes to stderr, a pipe the program shares, and the program
# makes it O_NONBLOCK (a flag of the open file description, so the
# tracer's writes become non-blocking too) while the reader is slow: the
# tracer must wait for room rather than drop the rest of the trace at
# the first EAGAIN.
. "$PROC/lib.sh"

n=3000
mkfifo errpipe
(exec 3<errpipe; sleep 1; cat <&3 >err) &
r=$!
cleanup_pids+=("$r")
lt "$BIN/hostile_tracee_nonblock" $n 2>errpipe
st=$?
wait "$r"
[ "$st" = 0 ] || fail "tracer exit status $st" "$(tail -3 err)"
got=$(grep -c '^strlen("a string that makes the trace li"\.\.\.) *= 40$' err)
[ "$got" = $n ] || fail "$got of $n calls in the trace" "$(tail -3 err)"
tail -1 err | grep -qx '+++ exited (status 0) +++' ||
	fail "the trace does not end with the exit: $(tail -1 err)"
exit 0
