# shellcheck shell=bash disable=SC1091
# -ttt under --fast: each recorded call's time comes from its time stamp
# counter, mapped onto the clocks; the times never go back and lie
# within the run.  They went back at nearly every line: each record's
# wall clock was worked out from the previous one's, the errors adding
# up.
. "$PROC/lib.sh"

t0=$(date +%s.%N)
lt --fast -ttt -o t.txt "$BIN/calls" 20000 || fail "tracer exit $?"
t1=$(date +%s.%N)
n=$(grep -c ' strlen("a string") *= 8$' t.txt)
[ "$n" = 20000 ] || fail "$n strlen lines:" "$(head -3 t.txt)"
awk -v t0="$t0" -v t1="$t1" '
	$1 !~ /^[0-9]+\.[0-9][0-9][0-9][0-9][0-9][0-9]$/ { print "line " NR ": " $0; bad = 1; exit }
	$1 < t0 - 0.001 || $1 > t1 + 0.001 {
		print "line " NR " at " $1 ", outside " t0 " .. " t1; bad = 1; exit
	}
	NR > 1 && $1 < prev {
		print "line " NR " at " $1 ", before " prev; bad = 1; exit
	}
	{ prev = $1 }
	END { exit bad }' t.txt || fail "times:" "$(awk 'NR < 4' t.txt)"
exit 0
