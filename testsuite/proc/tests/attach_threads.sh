# shellcheck shell=bash disable=SC1091
# Attach to a 4-thread program and detach on SIGINT: every thread is
# attached (with -f each thread's calls appear under its own tid; without,
# only the main thread's), and every thread is released cleanly.
# variants: f nof
. "$PROC/lib.sh"

f=()
[ "$1" = f ] && f=(-f)
attach_loop 4 "${f[@]}" -o trace
if [ "$1" = f ]; then
	for ((i = 0; i < 3000; i++)); do
		n=$(grep -E '^[0-9]+ atol\(' trace 2>/dev/null | cut -d' ' -f1 | sort -u | wc -l)
		[ "$n" -ge 4 ] && break
		sleep 0.01
	done
	[ "$n" -ge 4 ] || fail "calls of only $n threads traced"
else
	wait_grep '^atol\("[0-9]+"\) += [0-9]+$' trace || fail "no calls traced: $(head trace)"
	grep -qE '^[0-9]+ |^\[pid' trace && fail "thread lines shown without -f: $(grep -E '^[0-9]+ |^\[pid' trace | head -3)"
fi
for task in /proc/"$p"/task/*; do
	[ "$(awk '/^TracerPid:/ { print $2 }' "$task/status")" = "$tpid" ] ||
		fail "thread ${task##*/} not attached"
done
detach_loop
