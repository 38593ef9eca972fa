# bench/fds.sh, sourced by bench/run: the cost of -y (descriptors named
# from /proc/TID/fd) against the same run without it, in ptrace mode and
# with --fast, on programs that use many descriptors.  No -F: the shipped
# libc.so.conf declares the descriptors (bench.conf would hide them).
#
#   ls-y   ls -l /usr/bin                 (BENCH_LS_DIR)
#   tar-y  tar cf OUT.tar /usr/include/linux  (BENCH_TAR_DIR; a file, since
#          GNU tar reads nothing when the archive is /dev/null)
#
# Uses run's OURS, FASTOPT, HAVE_FAST, N, TMO, PINS, work, trun, median,
# raw, note.
# shellcheck shell=bash disable=SC2086,SC2154

FD_LS_DIR=${BENCH_LS_DIR:-/usr/bin}
FD_TAR_DIR=${BENCH_TAR_DIR:-/usr/include/linux}
declare -A FDNAME=([ls-y]="ls -l $FD_LS_DIR" [tar-y]="tar cf $FD_TAR_DIR")

# fd_prog ID: sets PROG.
fd_prog() {
	case $1 in
	ls-y) PROG=(ls -l "$FD_LS_DIR") ;;
	tar-y) PROG=(tar cf "$work/fds.tar" "$FD_TAR_DIR") ;;
	esac
}

# fd_counts ID: sets FDCALLS (traced calls) and FDVALS (descriptors shown
# with a path: one readlink each) from one -y trace.
fd_counts() {
	fd_prog "$1"
	rm -f "$work/fds.trace"
	timeout -k 5 "$TMO" "$OURS" -y -o "$work/fds.trace" "${PROG[@]}" \
		>/dev/null 2>>"$work/stderr.log"
	FDCALLS=$(awk '/^[[:alnum:]_@.]+(->[[:alnum:]_@.]+)?\(/ { n++ } END { print n + 0 }' \
		"$work/fds.trace" 2>/dev/null)
	FDVALS=$(grep -o '[0-9T]<[^>]' "$work/fds.trace" 2>/dev/null | wc -l)
}

# fd_time ID PIN: medians of N interleaved runs of each variant, into
# FDM[ID:PIN:VARIANT] (us).
declare -A FDM
fd_time() {
	local v r
	local -A s=()
	local vs="untraced ours ours-y"
	((HAVE_FAST)) && vs+=" fast fast-y"
	for ((r = 1; r <= N; r++)); do
		for v in $vs; do
			fd_prog "$1"
			case $v in
			untraced) CMD=("${PROG[@]}") ;;
			ours) CMD=("$OURS" -o /dev/null "${PROG[@]}") ;;
			ours-y) CMD=("$OURS" -y -o /dev/null "${PROG[@]}") ;;
			fast) CMD=("$OURS" $FASTOPT -o /dev/null "${PROG[@]}") ;;
			fast-y) CMD=("$OURS" $FASTOPT -y -o /dev/null "${PROG[@]}") ;;
			esac
			trun "$TMO" "$2" "${CMD[@]}"
			raw "fds-sample id=$1 pin=$2 who=$v rep=$r us=$US st=$ST"
			[[ $ST == ok ]] && s[$v]+="$US "
		done
	done
	for v in $vs; do
		FDM[$1:$2:$v]=$(median ${s[$v]:-})
	done
}

# us per descriptor shown: (with -y - without) / FDVALS.
fd_per() {
	[[ -n $1 && -n $2 && $3 -gt 0 ]] || { echo "-"; return; }
	awk -v a="$1" -v b="$2" -v n="$3" 'BEGIN { printf "%.2f", (a - b) / n }'
}

fds_bench() { # IDs...
	local id pin f rows=""
	for id in "$@"; do
		fd_counts "$id"
		raw "fds-calls id=$id calls=$FDCALLS fds=$FDVALS"
		for pin in $PINS; do
			note "timing ${FDNAME[$id]}, -y against none, $pin ..."
			fd_time "$id" "$pin"
		done
		rows+="$id:$FDCALLS:$FDVALS "
	done
	{
		echo "The cost of -y: one readlink per descriptor shown (seconds, medians of $N)"
		printf '  %-28s %-8s %7s %7s %7s %7s %7s %7s %7s %9s %9s\n' workload pin calls fds \
			untraced ours ours-y fast fast-y "us/fd pt" "us/fd fast"
		for f in $rows; do
			IFS=: read -r id FDCALLS FDVALS <<<"$f"
			for pin in $PINS; do
				local k=$id:$pin
				printf '  %-28s %-8s %7s %7s %7s %7s %7s %7s %7s %9s %9s\n' \
					"${FDNAME[$id]}" "$pin" "$FDCALLS" "$FDVALS" \
					"$(fmt_s "${FDM[$k:untraced]}")" "$(fmt_s "${FDM[$k:ours]}")" \
					"$(fmt_s "${FDM[$k:ours-y]}")" "$(fmt_s "${FDM[$k:fast]:-}")" \
					"$(fmt_s "${FDM[$k:fast-y]:-}")" \
					"$(fd_per "${FDM[$k:ours-y]}" "${FDM[$k:ours]}" "$FDVALS")" \
					"$(fd_per "${FDM[$k:fast-y]:-}" "${FDM[$k:fast]:-}" "$FDVALS")"
			done
		done
		echo
	} | tee -a "$RESULTS"
}
