# shellcheck shell=bash disable=SC1091
# -f follows a forked child: its lines carry its pid ("N " with -o,
# "[pid N] " on stderr without), it starts with "<... fork resumed> ) = 0",
# and both processes behave as untraced.  Compared per process (bypid),
# since the two processes' lines interleave nondeterministically.
# variants: o stderr
. "$PROC/lib.sh"

"$BIN/forker" >out.plain 2>&1
st_plain=$?
if [ "$1" = o ]; then
	lt -f -o trace "$BIN/forker" >out.traced 2>err.traced
	st=$?
	grep -vqE '^[0-9]+ ' trace && fail "lines without a \"N \" prefix:" "$(grep -vE '^[0-9]+ ' trace)"
else
	lt -f "$BIN/forker" >out.traced 2>trace
	st=$?
	grep -vqE '^\[pid [0-9]+\] ' trace && fail "lines without a [pid N] prefix:" "$(grep -vE '^\[pid [0-9]+\] ' trace)"
fi
[ "$st" = "$st_plain" ] || fail "tracer exit $st, untraced $st_plain"
cmp -s out.plain out.traced || fail "output differs:" "$(diff out.plain out.traced)"
canon trace >canon
cat >exp <<'X'
P1 sigemptyset(<>) = 0
P1 sigaddset(<16>, SIGCHLD) = 0
P1 sigprocmask(SIG_BLOCK, <16>, nil) = 0
P1 fork() = P2
P1 waitpid(P2, 768, 0) = P2
P1 printf("parent %d\n", 3) = 9
P1 __cxa_finalize({addr}) = <void>
P1 +++ exited (status 0) +++
P2 <... fork resumed> ) = 0
P2 strlen("child") = 5
P2 printf("child %zu\n", 5) = 8
P2 fflush({addr}) = 0
P2 exit(3 <unfinished ...>
P2 __cxa_finalize({addr}) = <void>
P2 +++ exited (status 3) +++
X
match exp canon || fail "(trace: $(cat trace))"
