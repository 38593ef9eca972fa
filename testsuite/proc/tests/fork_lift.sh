# shellcheck shell=bash disable=SC1091
# A fork that copies an int3 the tracer lifts before it sees the fork:
# in --fast every first call of a function hands it to the recorder and
# puts back the byte under its breakpoint, while another thread forks
# children back to back.  A child copied before a lift and reported
# after it must still get the original byte: untraced (without -f) it
# would die of SIGTRAP at the stub, traced (-f) the tracer would send it
# back onto that int3 for ever.  Every child must exit 0, as untraced.
# Three runs per variant: the race is tight.  Variant: nof, f (-f).
# variants: nof f
. "$PROC/lib.sh"

opts=()
[ "$1" = f ] && opts+=(-f)
want=$("$BIN/forklift")
case $want in "ok "*) ;; *) fail "untraced: $want" ;; esac
total=0
for run in 1 2 3; do
	TMO=30 lt "${opts[@]}" -o trace "$BIN/forklift" >out
	st=$?
	got=$(cat out)
	case $st:$got in
	"0:ok "*) total=$((total + ${got#ok })) ;;
	*) fail "traced, run $run: status $st, output: $got" \
		"$(tail -n 3 trace | cut -c1-200)" ;;
	esac
done
echo "STAT $total children"
exit 0
