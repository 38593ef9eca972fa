# shellcheck shell=bash disable=SC1091
# -S with library calls: each system call a traced library call makes
# nests inside it ("open(... <unfinished ...>", "openat@SYS(...) = -2
# ENOENT (...)", "<... open resumed> ) = -1"), in the order they happen.
# The trace is compared from main's first call on: what the dynamic
# linker does before varies with the system.
. "$PROC/lib.sh"

cat >lib.c <<'X'
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
int main(void)
{
	int fd = open("/nonexistent/x", O_RDONLY);
	write(1, "hi\n", 3);
	close(fd);
	exit(3);
}
X
${CC:-cc} -O0 -fno-builtin -D_FORTIFY_SOURCE=0 -U_FORTIFY_SOURCE -w \
	-o lib lib.c 2>build.log || fail "cannot build:" "$(cat build.log)"
[ -n "$BUILD_ONLY" ] && exit 0
lt -S -o trace ./lib >out.traced
st=$?
[ "$st" = 3 ] || fail "tracer exit $st, expected 3"
[ "$(cat out.traced)" = hi ] || fail "output: $(cat out.traced)"
grep -q '^mmap@SYS(' trace || fail "no start-up system call:" "$(cat trace)"
sed -n '/^open(/,$p' trace >main
cat >exp <<'X'
open("/nonexistent/x", 0, {int} <unfinished ...>
openat@SYS(AT_FDCWD, "/nonexistent/x", 0)        = -2 ENOENT (No such file or directory)
<... open resumed> )                             = -1 ENOENT (No such file or directory)
write(1, "hi\n", 3 <unfinished ...>
write@SYS(1, "hi\n", 3)                          = 3
<... write resumed> )                            = 3
close(-1 <unfinished ...>
close@SYS(-1)                                    = -9 EBADF (Bad file descriptor)
<... close resumed> )                            = -1 EBADF (Bad file descriptor)
exit(3 <unfinished ...>
__cxa_finalize({addr})                           = <void>
exit_group@SYS(3 <unfinished ...>
+++ exited (status 3) +++
X
match exp main || fail "(trace: $(cat trace))"
