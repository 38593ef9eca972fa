# shellcheck shell=bash disable=SC1091
# Strings on thread stacks under load (-f, a CPU hog on every CPU): each
# thread's strlen of the string it just formatted on its stack shows that
# string, never its address, as many times as it was called.  In --fast
# the stacks are mapped after the recorder's readable ranges were read:
# the copies go by system call until the tracer reads them in.
# Stress form (STRESS=1): 8 threads x 50000, 20 runs; reduced: 8 x 1000,
# 2 runs.
. "$PROC/lib.sh"

if [ "$STRESS" = 1 ]; then nt=8 nc=50000 runs=20 TMO=1800
else nt=8 nc=1000 runs=2
fi
"$BIN/strstack" $nt $nc >out.plain 2>&1
st_plain=$?
[ "$st_plain" = 0 ] || fail "untraced run failed ($st_plain): $(cat out.plain)"
hogs_start
bad=0 start=$(date +%s%N)
for ((r = 1; r <= runs; r++)); do
	lt -f -o trace "$BIN/strstack" $nt $nc >out.traced 2>err.traced
	st=$?
	why=
	[ "$st" = "$st_plain" ] || why+="tracer exit $st, untraced $st_plain; "
	cmp -s out.plain out.traced || why+="output differs: $(cat out.traced); "
	[ -s err.traced ] && why+="stderr: $(head -3 err.traced); "
	res=$(canon trace | awk -v nt=$nt -v nc=$nc '
		{ p = $1 }
		$2 ~ /^strlen\(/ {
			if ($2 !~ /^strlen\("t[0-9]-[0-9]"\)$/ || $4 != 4) {
				print "strlen shown wrong: " $0; bad = 1
			}
			n[p]++; next
		}
		$2 ~ /^snprintf\("t[0-9]-[0-9]",$/ { s[p]++; next }
		/unfinished|resumed/ { print "unpaired: " $0; bad = 1 }
		END {
			for (p in n) {
				threads++
				if (n[p] != nc || s[p] != nc) {
					print "thread " p ": " n[p] " strlen, " s[p] " snprintf, expected " nc; bad = 1
				}
			}
			if (threads != nt) { print threads " threads with calls, expected " nt; bad = 1 }
			if (!bad) print "ok"
		}' | head -20)
	[ "$res" = ok ] || why+="trace: $res"
	if [ -n "$why" ]; then
		bad=$((bad + 1))
		echo "run $r: $why"
		cp trace "trace.fail.$r"
	fi
done
end=$(date +%s%N)
echo "STAT strings_load: $runs runs of $nt threads x $nc calls, $bad failed, $(( (end - start) / 1000000 )) ms"
[ "$bad" = 0 ]
