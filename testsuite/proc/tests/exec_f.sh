# shellcheck shell=bash disable=SC1091
# -f with fork and exec: the child shows "--- Called exec() ---" and the
# new image's calls, its breakpoints found afresh; the exit statuses and
# output are as untraced.
. "$PROC/lib.sh"

"$BIN/forker" exec "$BIN/hello" abc >out.plain 2>&1
st_plain=$?
lt -f -o trace "$BIN/forker" exec "$BIN/hello" abc >out.traced 2>err.traced
st=$?
[ "$st" = "$st_plain" ] || fail "tracer exit $st, untraced $st_plain"
cmp -s out.plain out.traced || fail "output differs:" "$(diff out.plain out.traced)"
canon trace >canon
cat >exp <<'X'
P1 sigemptyset(<>) = 0
P1 sigaddset(<16>, SIGCHLD) = 0
P1 sigprocmask(SIG_BLOCK, <16>, nil) = 0
P1 fork() = P2
P1 waitpid(P2, 1280, 0) = P2
P1 printf("parent %d\n", 5) = 9
P1 __cxa_finalize({addr}) = <void>
P1 +++ exited (status 0) +++
P2 <... fork resumed> ) = 0
P2 strlen("child") = 5
P2 printf("child %zu\n", 5) = 8
P2 fflush({addr}) = 0
P2 strcmp("exec", "exec") = 0
P2 execl({any} <unfinished ...>
P2 --- Called exec() ---
P2 strlen("abc") = 3
P2 printf("hello %zu\n", 3) = 8
P2 __cxa_finalize({addr}) = <void>
P2 +++ exited (status 5) +++
X
match exp canon || fail "(trace: $(cat trace))"
