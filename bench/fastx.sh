# bench/fastx.sh, sourced by bench/run: --fast beyond PLT calls (issue 28).
#
#   fastx  per-call cost of -x on a program's own function (strlen_loop own) in
#          --fast against a --fast PLT call (strlen_loop) and ptrace mode;
#          -w 8 per call in both modes; sort -r of 100000 shuffled lines
#          with -f; the formatter's output rate on reverse-lines -A -s.
#
# Per-call figures are marginal: (traced - untraced) / calls, medians of
# N.  Each variant is first run on 50 calls and its trace must show 50
# lines, and with --fast, -D1 must not say the function stayed in ptrace
# mode; a variant that fell back is marked "(pt)".
# Uses run's OURS, FASTOPT, HAVE_FAST, N, TMO, PINS, work, trun, median,
# raw, note, fmt_s, RESULTS, CC, WCFLAGS, benchdir, rev_input, REV_LINES.
# shellcheck shell=bash disable=SC2086,SC2154,SC2206

FX_CALLS=${BENCH_FASTX_CALLS:-200000}      # --fast variants
FX_PT_CALLS=${BENCH_FASTX_PT_CALLS:-20000} # ptrace variants
FX_SORT_LINES=${BENCH_SORT_LINES:-100000}
FX_SORT_PTRACE=${BENCH_SORT_PTRACE:-0}     # 1: also sort in ptrace mode (minutes)

fx_setup() {
	echo 'ulong own_len(string);' >"$work/own.conf"
	seq 1 "$FX_SORT_LINES" | shuf --random-source=<(yes) >"$work/sort.in"
}

# fx_cmd VARIANT CALLS: sets CMD (and FXMODE: fast or ptrace).
fx_cmd() {
	local own=($FXDBG -F "$work/own.conf" -x own_len -e '!*' "$work/strlen_loop" "$2" 11 own)
	local sl=($FXDBG -e strlen "$work/strlen_loop" "$2" 11)
	case $1 in
	x-fast) CMD=("$OURS" $FASTOPT -o "$work/fx.trace" "${own[@]}") ;;
	x-pt) CMD=("$OURS" -o "$work/fx.trace" "${own[@]}") ;;
	plt-fast) CMD=("$OURS" $FASTOPT -o "$work/fx.trace" "${sl[@]}") ;;
	plt-pt) CMD=("$OURS" -o "$work/fx.trace" "${sl[@]}") ;;
	w8-fast) CMD=("$OURS" $FASTOPT -w 8 -o "$work/fx.trace" "${sl[@]}") ;;
	w8-pt) CMD=("$OURS" -w 8 -o "$work/fx.trace" "${sl[@]}") ;;
	x-none) CMD=("$work/strlen_loop" "$2" 11 own) ;;
	plt-none) CMD=("$work/strlen_loop" "$2" 11) ;;
	esac
}

# fx_check VARIANT: 50 calls traced as 50 lines; with --fast, recorded.
# Sets FXPT[VARIANT] to " (pt)" when the variant fell back.
declare -A FXPT FXM
FXDBG=
fx_check() {
	local n fn=own_len
	[[ $1 == x-* ]] || fn=strlen
	FXDBG=-D1 fx_cmd "$1" 50
	timeout -k 5 "$TMO" "${CMD[@]}" >/dev/null 2>"$work/fx.err" ||
		die "fastx: $1 failed: $(tail -3 "$work/fx.err")"
	n=$(grep -c "^\([[:alnum:]_]*->\)\?$fn(" "$work/fx.trace")
	[[ $n == 50 ]] || die "fastx: $1 traced $n calls of 50"
	FXPT[$1]=""
	if [[ $1 == *-fast ]] && grep -q -e "$fn stays in ptrace mode" \
		-e 'tracing in ptrace mode' "$work/fx.err"; then
		FXPT[$1]=" (pt)"
		note "fastx: $1 falls back: $(grep -m1 -e 'ptrace mode' "$work/fx.err")"
	fi
}

# fx_time PIN: medians into FXM[PIN:VARIANT] (us).
fx_time() {
	local v r c vs="x-none plt-none x-pt plt-pt w8-pt"
	local -A s=()
	((HAVE_FAST)) && vs+=" x-fast plt-fast w8-fast"
	for ((r = 1; r <= N; r++)); do
		for v in $vs; do
			c=$FX_CALLS
			[[ $v == *-pt ]] && c=$FX_PT_CALLS
			fx_cmd "$v" "$c"
			trun "$TMO" "$1" "${CMD[@]}"
			raw "fastx-sample pin=$1 who=$v calls=$c rep=$r us=$US st=$ST"
			[[ $ST == ok ]] && s[$v]+="$US "
			if [[ $v == *-none ]]; then # untraced at both sizes
				fx_cmd "$v" "$FX_PT_CALLS"
				trun "$TMO" "$1" "${CMD[@]}"
				[[ $ST == ok ]] && s[$v-small]+="$US "
			fi
		done
	done
	for v in ${!s[*]}; do
		FXM[$1:$v]=$(median ${s[$v]})
	done
}

# fx_per PIN VARIANT: marginal us per call.
fx_per() {
	local base calls=$FX_CALLS t=${FXM[$1:$2]:-}
	[[ $2 == x-* ]] && base=x-none || base=plt-none
	[[ $2 == *-pt ]] && { calls=$FX_PT_CALLS; base+=-small; }
	local b=${FXM[$1:$base]:-}
	[[ -n $t && -n $b ]] || { echo "-"; return; }
	awk -v a="$t" -v b="$b" -v n="$calls" 'BEGIN { printf "%.3f", (a - b) / n }'
}

# fx_sort PIN: sort -r with -f, untraced and --fast (and ptrace mode),
# one run each; the call count from the --fast trace.
fx_sort() {
	local m
	FXM[$1:sort-calls]=-
	for m in none fast pt; do
		[[ $m == pt && $FX_SORT_PTRACE != 1 ]] && continue
		[[ $m == fast ]] && ! ((HAVE_FAST)) && continue
		case $m in
		none) CMD=(sort -r "$work/sort.in") ;;
		fast) CMD=("$OURS" $FASTOPT -f -o "$work/sort.trace" sort -r "$work/sort.in") ;;
		pt) CMD=("$OURS" -f -o "$work/sort.trace" sort -r "$work/sort.in") ;;
		esac
		LC_ALL=C.UTF-8 trun 600 "$1" "${CMD[@]}"
		raw "fastx-sort pin=$1 who=$m us=$US st=$ST"
		[[ $ST == ok ]] && FXM[$1:sort-$m]=$US || FXM[$1:sort-$m]=""
		[[ $m == fast && $ST == ok ]] &&
			FXM[$1:sort-calls]=$(grep -c '(' "$work/sort.trace")
	done
}

# fx_fmt PIN: reverse-lines -A -s to a file: MB of trace per second of
# wall time and of the tracer's CPU, in ptrace mode and --fast.
fx_fmt() {
	local m in
	in=$(rev_input "$REV_LINES")
	for m in pt fast; do
		[[ $m == fast ]] && ! ((HAVE_FAST)) && continue
		CMD=("$OURS" -A 9999999 -s 9999999 -o "$work/fmt.trace" -F "$conf" "$work/reverse" "$in")
		[[ $m == fast ]] && CMD=("${CMD[0]}" $FASTOPT "${CMD[@]:1}")
		trun "$TMO" "$1" "${CMD[@]}"
		raw "fastx-fmt pin=$1 who=$m us=$US st=$ST cpu=$CPU_U+$CPU_S bytes=$(stat -c %s "$work/fmt.trace")"
		if [[ $ST == ok ]]; then
			FXM[$1:fmt-$m]=$(awk -v b="$(stat -c %s "$work/fmt.trace")" -v us="$US" \
				-v c="$(awk -v u="$CPU_U" -v s="$CPU_S" 'BEGIN { print u + s }')" \
				'BEGIN { printf "%.0f / %.0f", b / us, (c > 0 ? b / 1e6 / c : 0) }')
		fi
	done
}

fastx_bench() {
	local pin k
	fx_setup
	for k in x-pt plt-pt w8-pt; do fx_check "$k"; done
	if ((HAVE_FAST)); then
		for k in x-fast plt-fast w8-fast; do fx_check "$k"; done
	fi
	for pin in $PINS; do
		note "timing --fast for -x and -w, $FX_CALLS calls ($FX_PT_CALLS in ptrace mode), $pin ..."
		fx_time "$pin"
		note "timing sort -r of $FX_SORT_LINES lines with -f, $pin ..."
		fx_sort "$pin"
		note "timing the formatter on reverse-lines -A -s, $pin ..."
		fx_fmt "$pin"
	done
	{
		echo "--fast beyond PLT calls: marginal us per call ((traced - untraced) / calls," \
			"medians of $N; (pt) = fell back to ptrace mode)"
		printf '  %-8s %9s %9s %9s %11s %8s %8s %8s\n' pin "x fast" "plt fast" \
			"x/plt" "x ptrace" "w8 fast" "w8 pt" "w8 f/pt"
		for pin in $PINS; do
			local xf pf wf wp
			xf=$(fx_per "$pin" x-fast) pf=$(fx_per "$pin" plt-fast)
			wf=$(fx_per "$pin" w8-fast) wp=$(fx_per "$pin" w8-pt)
			printf '  %-8s %9s %9s %9s %11s %8s %8s %8s\n' "$pin" \
				"$xf${FXPT[x-fast]:-}" "$pf${FXPT[plt-fast]:-}" \
				"$(awk -v a="$xf" -v b="$pf" 'BEGIN { if (b + 0 > 0) printf "%.2f", a / b; else print "-" }')" \
				"$(fx_per "$pin" x-pt)" "$wf${FXPT[w8-fast]:-}" "$wp" \
				"$(awk -v a="$wf" -v b="$wp" 'BEGIN { if (b + 0 > 0) printf "%.3f", a / b; else print "-" }')"
		done
		echo "sort -r, $FX_SORT_LINES shuffled lines, -f, LC_ALL=C.UTF-8 (seconds, one run;" \
			"ptrace: BENCH_SORT_PTRACE=1)"
		printf '  %-8s %9s %9s %9s %10s\n' pin untraced fast ptrace "calls"
		for pin in $PINS; do
			printf '  %-8s %9s %9s %9s %10s\n' "$pin" "$(fmt_s "${FXM[$pin:sort-none]:-}")" \
				"$(fmt_s "${FXM[$pin:sort-fast]:-}")" "$(fmt_s "${FXM[$pin:sort-pt]:-}")" \
				"${FXM[$pin:sort-calls]:-}"
		done
		echo "formatter: reverse-lines -A 9999999 -s 9999999 -o FILE, MB of trace per" \
			"second of wall time / of CPU time (tracer and program), one run"
		printf '  %-8s %16s %16s\n' pin ptrace fast
		for pin in $PINS; do
			printf '  %-8s %16s %16s\n' "$pin" "${FXM[$pin:fmt-pt]:--}" "${FXM[$pin:fmt-fast]:--}"
		done
		echo
	} | tee -a "$RESULTS"
}
