# bench/errno.sh, sourced by bench/run: the cost of decoding errno
# (errno(...) clauses, ltrace.conf(5)) against the same calls declared
# without a clause, in ptrace mode and with --fast.
#
#   err  fail_loop N: N open()s that fail (errno(-1): errno read at the
#        return), then N strtol()s that succeed (errno(changed): read at
#        the entry and at the return)
#
# The variants "-noerr" load a conf that declares open and strtol with
# no clause (-F is asked before libc.so.conf: its prototypes win).
# Uses run's OURS, FASTOPT, HAVE_FAST, N, TMO, PINS, work, trun, median,
# raw, note, fmt_s, RESULTS.
# shellcheck shell=bash disable=SC2086,SC2154,SC2206

ERR_CALLS=${BENCH_ERR_CALLS:-20000}

err_setup() {
	"$CC" -O2 -o "$work/fail_loop" "$benchdir/fail_loop.c" 2>>"$work/stderr.log" ||
		die "building fail_loop.c failed"
	printf '%s\n' 'int open(string, int, int);' \
		'long strtol(string, addr, int);' >"$work/noerr.conf"
}

# err_time PIN: medians of N interleaved runs of each variant, into
# ERRM[PIN:VARIANT] (us).
declare -A ERRM
err_time() {
	local v r
	local -A s=()
	local vs="untraced ours ours-noerr"
	local e=(-e open+strtol)
	((HAVE_FAST)) && vs+=" fast fast-noerr"
	for ((r = 1; r <= N; r++)); do
		for v in $vs; do
			case $v in
			untraced) CMD=() ;;
			ours) CMD=("$OURS" "${e[@]}" -o /dev/null) ;;
			ours-noerr) CMD=("$OURS" -F "$work/noerr.conf" "${e[@]}" -o /dev/null) ;;
			fast) CMD=("$OURS" $FASTOPT "${e[@]}" -o /dev/null) ;;
			fast-noerr) CMD=("$OURS" $FASTOPT -F "$work/noerr.conf" "${e[@]}" -o /dev/null) ;;
			esac
			trun "$TMO" "$1" "${CMD[@]}" "$work/fail_loop" "$ERR_CALLS"
			raw "errno-sample pin=$1 who=$v rep=$r us=$US st=$ST"
			[[ $ST == ok ]] && s[$v]+="$US "
		done
	done
	for v in $vs; do
		ERRM[$1:$v]=$(median ${s[$v]:-})
	done
}

# us per call: (with clauses - without) / calls.
err_per() {
	[[ -n $1 && -n $2 ]] || { echo "-"; return; }
	awk -v a="$1" -v b="$2" -v n="$3" 'BEGIN { printf "%.3f", (a - b) / n }'
}

# err_check: the decoded trace shows ENOENT for every open and nothing
# for strtol, in each mode (a bench of a feature that is off is no bench).
err_check() {
	local m n modes=(ptrace)
	((HAVE_FAST)) && modes+=("$FASTOPT")
	for m in "${modes[@]}"; do
		[[ $m == ptrace ]] && m=""
		n=$("$OURS" $m -e open+strtol "$work/fail_loop" 10 2>&1 >/dev/null |
			grep -c ' = -1 ENOENT (No such file or directory)$')
		[[ $n == 10 ]] || die "errno bench: ${m:-ptrace} mode shows $n ENOENT of 10"
	done
}

errno_bench() {
	local pin k calls=$((2 * ERR_CALLS))
	err_setup
	err_check
	for pin in $PINS; do
		note "timing errno decoding, $ERR_CALLS failing open + $ERR_CALLS strtol, $pin ..."
		err_time "$pin"
	done
	{
		echo "The cost of errno decoding: $ERR_CALLS failing open() and $ERR_CALLS strtol() (seconds, medians of $N)"
		printf '  %-8s %7s %9s %9s %10s %9s %10s %10s %12s\n' pin calls untraced ours \
			ours-noerr fast fast-noerr "us/call pt" "us/call fast"
		for pin in $PINS; do
			k=$pin
			printf '  %-8s %7s %9s %9s %10s %9s %10s %10s %12s\n' "$pin" "$calls" \
				"$(fmt_s "${ERRM[$k:untraced]}")" "$(fmt_s "${ERRM[$k:ours]}")" \
				"$(fmt_s "${ERRM[$k:ours-noerr]}")" "$(fmt_s "${ERRM[$k:fast]:-}")" \
				"$(fmt_s "${ERRM[$k:fast-noerr]:-}")" \
				"$(err_per "${ERRM[$k:ours]}" "${ERRM[$k:ours-noerr]}" "$calls")" \
				"$(err_per "${ERRM[$k:fast]:-}" "${ERRM[$k:fast-noerr]:-}" "$calls")"
		done
		echo
	} | tee -a "$RESULTS"
}
