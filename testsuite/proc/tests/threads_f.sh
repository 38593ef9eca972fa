# shellcheck shell=bash disable=SC1091
# Threads with -f: each thread's calls appear under its own tid, exactly
# as many as it made, and the program's output and status are as untraced.
# Stress form (STRESS=1): 8 threads x 100000 calls, 20 runs; reduced: 8 x
# 5000, 3 runs.  Each thread ends with its own "+++ exited" line.  Run count, failures and time are printed.
. "$PROC/lib.sh"

# PROC_SMALL (testsuite/aarch64, under emulation): 8 x 300, 1 run.
if [ "$STRESS" = 1 ]; then nt=8 nc=100000 runs=20 TMO=1800
elif [ -n "${PROC_SMALL:-}" ]; then nt=8 nc=300 runs=1
else nt=8 nc=5000 runs=3
fi
"$BIN/threads" $nt $nc >out.plain 2>&1
st_plain=$?
[ "$st_plain" = 0 ] || fail "untraced run failed ($st_plain): $(cat out.plain)"
bad=0 start=$(date +%s%N)
for ((r = 1; r <= runs; r++)); do
	lt -f -o trace "$BIN/threads" $nt $nc >out.traced 2>err.traced
	st=$?
	why=
	[ "$st" = "$st_plain" ] || why+="tracer exit $st, untraced $st_plain; "
	cmp -s out.plain out.traced || why+="output differs: $(cat out.traced); "
	[ -s err.traced ] && why+="stderr: $(head -3 err.traced); "
	# Per thread: one tag, nc calls of strlen(tag) each returning its length.
	res=$(canon trace | awk -v nt=$nt -v nc=$nc '
		{ p = $1 }
		$2 ~ /^strlen\("t[0-9]*"\)$/ && $3 == "=" {
			tag = $2; n[p]++; if (!(p in t)) t[p] = tag
			else if (t[p] != tag) { print "thread " p " called with two tags"; bad = 1 }
			if ($4 != length(tag) - 10) { print "wrong return: " $0; bad = 1 }
			next
		}
		/unfinished|resumed/ { print "unpaired: " $0; bad = 1 }
		/^P1 pthread_create/ { created++ }
		/^P1 pthread_join/ { joined++ }
		/^P1 printf\("total %ld\\n", / { total++ }
		/\+\+\+ exited \(status 0\) \+\+\+/ { exits++ }
		END {
			for (p in n) { threads++; if (n[p] != nc) { print "thread " p " " t[p] ": " n[p] " calls, expected " nc; bad = 1 } }
			if (threads != nt) { print threads " threads with calls, expected " nt; bad = 1 }
			if (created != nt || joined != nt || total != 1) { print "main thread: " created " creates, " joined " joins, " total " printf"; bad = 1 }
			if (exits != nt + 1) { print exits " exit lines, expected " nt + 1; bad = 1 }
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
echo "STAT threads_f: $runs runs of $nt threads x $nc calls, $bad failed, $(( (end - start) / 1000000 )) ms"
[ "$bad" = 0 ]
