# shellcheck shell=bash disable=SC1091
# vfork + exec.  With -f the child is followed through the exec (the new
# image's calls traced).  Without -f, the vfork child (sharing its parent's
# memory) stays traced silently until it execs, then runs untraced: no
# child line, and the parent's trace is whole.
# variants: f nof
. "$PROC/lib.sh"

"$BIN/vforker" "$BIN/hello" abcd >out.plain 2>&1
st_plain=$?
if [ "$1" = f ]; then
	lt -f -o trace "$BIN/vforker" "$BIN/hello" abcd >out.traced 2>err.traced
else
	lt -o trace "$BIN/vforker" "$BIN/hello" abcd >out.traced 2>err.traced
fi
st=$?
[ "$st" = "$st_plain" ] || fail "tracer exit $st, untraced $st_plain"
cmp -s out.plain out.traced || fail "output differs:" "$(diff out.plain out.traced)"
if [ "$1" = f ]; then
	canon trace >canon
	cat >exp <<'X'
P1 sigemptyset(<>) = 0
P1 sigaddset(<16>, SIGCHLD) = 0
P1 sigprocmask(SIG_BLOCK, <16>, nil) = 0
P1 vfork() = P2
P1 waitpid(P2, 1280, 0) = P2
P1 strlen("done") = 4
P1 printf("parent %d %zu\n", 5, 4) = 11
P1 __cxa_finalize({addr}) = <void>
P1 +++ exited (status 0) +++
P2 <... vfork resumed> ) = 0
P2 execl({any} <unfinished ...>
P2 --- Called exec() ---
P2 strlen("abcd") = 4
P2 printf("hello %zu\n", 4) = 8
P2 __cxa_finalize({addr}) = <void>
P2 +++ exited (status 5) +++
X
	match exp canon || fail "(trace: $(cat trace))"
else
	cat >exp <<'X'
sigemptyset(<>)                                  = 0
sigaddset(<16>, SIGCHLD)                         = 0
sigprocmask(SIG_BLOCK, <16>, nil)                = 0
vfork()                                          = {int}
waitpid({int}, 1280, 0)                          = {int}
strlen("done")                                   = 4
printf("parent %d %zu\n", 5, 4)                  = 11
__cxa_finalize({addr})                           = <void>
+++ exited (status 0) +++
X
	"$PROC/../match" exp trace || fail "(trace: $(cat trace))"
fi
