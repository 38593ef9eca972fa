# shellcheck shell=bash disable=SC1091
# -S -p on a running 4-thread program: threads caught in the middle of a
# system call start with a clean line (an exit without its entry shows
# nothing, so there is no "<... resumed>" of a call never shown), each
# thread's system calls pair up, and on SIGINT every thread is released
# from its syscall-stops cleanly, the program unchanged and correct.
# variants: f nof
. "$PROC/lib.sh"

f=()
[ "$1" = f ] && f=(-f)
attach_loop 4 -S "${f[@]}" -o trace
# access() of the stop file, once per iteration of each thread.
wait_grep 'access@SYS\("a\.stop", F_OK\) += -2 ENOENT \(No such file or directory\)$' trace ||
	fail "no system call traced: $(head trace)"
detach_loop
# Per thread (-f: lines carry the tid): no "<... X@SYS resumed>" but
# right after "X@SYS(... <unfinished ...>" (bypid joins those pairs),
# i.e. none without its entry.
[ "$1" = f ] || exit 0
canon trace >canon
grep -E '<\.\.\. [a-z0-9_]+@SYS resumed>' canon &&
	fail "a system call resumed without its entry:" "$(head -20 canon)"
re='^P[0-9]+ ([a-z0-9_]+(@SYS)?\(|<\.\.\. [a-z0-9_]+ resumed>|--- |\+\+\+ )'
grep -vqE "$re" canon && fail "unexpected lines:" "$(grep -vE "$re" canon | head)"
exit 0
