# shellcheck shell=bash disable=SC1091
# -S with -f: the forked child's system calls carry its pid, the fork's
# return in the child shows nothing (ltrace 0.7.3 neither: the child
# never entered it), and the parent's wait4, left unfinished by the
# child's lines, resumes; its SIGCHLD comes before or after wait4's
# return.  The program has no libc (testsuite/e2e's
# syscall_basic.c), so the trace is its system calls only.  Compared per
# process (bypid), since the processes' lines interleave
# nondeterministically.
# variants: o stderr
. "$PROC/lib.sh"

${CC:-cc} -O0 -fno-builtin -fno-stack-protector -w -nostdlib -static \
	-o sys "$PROC/../e2e/tests/syscall_basic.c" 2>build.log ||
	fail "cannot build:" "$(cat build.log)"
[ -n "$BUILD_ONLY" ] && exit 0
./sys fork >out.plain 2>&1
st_plain=$?
if [ "$1" = o ]; then
	lt -S -f -o trace ./sys fork >out.traced 2>&1
else
	lt -S -f ./sys fork >out.traced 2>trace
fi
st=$?
[ "$st" = "$st_plain" ] || fail "tracer exit $st, untraced $st_plain"
cmp -s out.plain out.traced || fail "output differs:" "$(diff out.plain out.traced)"
canon trace >canon
# aarch64 has no fork system call: the program makes clone's.
fork='fork@SYS()'
[ "$ARCH" = aarch64 ] && fork='clone@SYS(0x11, nil, nil, nil, 0)'
cat >exp <<X
P1 $fork = P2
P1 wait4@SYS(P2, nil, 0, nil) = P2
P1 --- SIGCHLD (Child exited) ---
P1 exit_group@SYS(3 <unfinished ...>
P1 +++ exited (status 3) +++
P2 write@SYS(1, "child\n", 6) = 6
P2 exit_group@SYS(4 <unfinished ...>
P2 +++ exited (status 4) +++
X
# The child may exit before the parent enters wait4 (SIGCHLD first) or
# while it waits there (wait4 returns first): both are right.
sed -e '2{h;d}' -e '3{G}' exp >exp2
match exp canon >/dev/null 2>&1 || match exp2 canon || fail "(trace: $(cat trace))"
