# shellcheck shell=bash disable=SC1091
# A program makes the --fast recorder hand each record over on its
# stack (its shadow stack says a writer is interrupted), while a second
# thread rewrites each call record between its own bytes and a size,
# used bytes and first chunk that reach a megabyte past it.  The tracer
# reads such a record once and checks that copy: every strlen line shows
# the program's string (or, for a record whose chunk the tracer
# refused, its address), or is counted ("--- N calls not recorded
# ---"); the program behaves as untraced.  Before, the tracer took the
# size of its first read for the bytes of its second: it showed its own
# memory as the string, or crashed (3 runs in 4).  In ptrace mode there
# is no recorder: the same checks hold.
# needs: recorder
. "$PROC/lib.sh"

n=2000
"$BIN/fast_flip" $n >out.plain || fail "untraced run failed: $?"
lt -o trace "$BIN/fast_flip" $n >out.traced 2>err
st=$?
[ "$st" = 0 ] || fail "tracer exit status $st" "$(cat err)"
cmp -s out.plain out.traced ||
	fail "output differs:" "$(diff out.plain out.traced)" "$(cat err)"
shown=$(grep -c 'strlen(' trace)
lost=$(sed -n 's/^--- \([0-9]*\) calls* not recorded ---$/\1/p' trace |
	awk '{ s += $1 } END { print s + 0 }')
addr=$(grep -c 'strlen(0x[0-9a-f]*) *= 5$' trace)
echo "STAT $shown calls shown ($addr as an address), $lost not recorded"
odd=$(grep 'strlen(' trace | grep -vE '^strlen\(("hello"|"warm"|0x[0-9a-f]+)\) += [45]$')
[ -z "$odd" ] || fail "calls shown with bytes not the program's:" \
	"$(echo "$odd" | head -5)"
[ $((shown + lost)) -ge $((n + 5)) ] ||
	fail "$shown calls shown and $lost said not recorded, of $((n + 5))"
exit 0
