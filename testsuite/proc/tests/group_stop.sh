# shellcheck shell=bash disable=SC1091
# Group-stop: the traced program stops itself with SIGSTOP and really stays
# stopped (the tracer must not resume it) until a SIGCONT from outside;
# then it continues and exits normally.  SIGCONT is re-sent (bounded poll)
# until the program has continued, since one sent while the tracer still
# holds the SIGSTOP would be overtaken by it, traced or not.
. "$PROC/lib.sh"

"$BIN/gstop" ready.plain >out.plain 2>&1 &
p=$!
cleanup_pids+=("$p")
wait_file ready.plain || fail "untraced program never ready"
for ((i = 0; i < 3000; i++)); do
	[ "$(pstate "$p")" = T ] && break
	sleep 0.01
done
kill -CONT "$p"
wait "$p"
st_plain=$?

lt -o trace "$BIN/gstop" ready >out.traced 2>err.traced &
t=$!
cleanup_pids+=("$t")
wait_file ready || fail "traced program never ready"
p=$(cat ready)
# Stopped inside raise's tgkill (syscall 234), in a ptrace stop.
for ((i = 0; i < 3000; i++)); do
	s=$(pstate "$p")
	if [ "$s" = t ] || [ "$s" = T ]; then
		read -r nr _ <"/proc/$p/syscall" && [ "$nr" = 234 ] && break
	fi
	sleep 0.01
done
[ "$i" -lt 3000 ] || fail "program never stopped: state $(pstate "$p")"
# It must stay stopped: a tracer that resumes it would let it print.
for ((i = 0; i < 20; i++)); do
	sleep 0.01
	[ -s out.traced ] && fail "the program ran on after SIGSTOP: $(cat out.traced)"
	s=$(pstate "$p")
	[ "$s" = t ] || [ "$s" = T ] || fail "the program left the stop (state $s) without SIGCONT"
done
for ((i = 0; i < 3000; i++)); do
	kill -CONT "$p" 2>/dev/null
	[ -s out.traced ] && break
	sleep 0.01
done
wait "$t"
st=$?
[ "$st" = "$st_plain" ] || fail "tracer exit $st, untraced $st_plain"
cmp -s out.plain out.traced || fail "output differs:" "$(diff out.plain out.traced)"
# The relevant lines in order; SIGCONT lines may repeat.
got=$(grep -vE '^(fopen|snprintf|fprintf|getpid|fclose|rename)\(' trace |
	sed 's/ \{2,\}= / = /' | uniq)
want='raise(SIGSTOP <unfinished ...>
--- SIGSTOP (Stopped (signal)) ---
--- SIGCONT (Continued) ---
<... raise resumed> ) = 0
strlen("after") = 5
printf("resumed %zu\n", 5) = 10'
case $got in
"$want"*) ;;
*) fail "trace:" "$(cat trace)" ;;
esac
grep -q '^+++ exited (status 0) +++$' trace || fail "no exit line:" "$(cat trace)"
