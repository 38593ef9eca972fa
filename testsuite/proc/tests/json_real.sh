# shellcheck shell=bash disable=SC1091
# --format=json of real programs (sort of a fixed file, ls -l of a fixed
# directory): every call's typed values, parsed with Python's json,
# against the text trace of the same program on the same input
# (json_real.py).  The tracer writes one format a run, so these are
# three runs of a deterministic program: two text runs tell which values
# vary between runs (times, bytes of addresses), and addresses are left
# out of the comparison.
# variants: sort ls
. "$PROC/lib.sh"

printf 'pear\nApple\n\377byte\nzeta, alpha\n\303\251t\303\251\n\t"q"\\\n' >in.txt
mkdir d && printf 'x' >d/a && : >'d/b c' && touch -d 2020-01-02 d/a 'd/b c'
case $1 in
sort) prog=(sort in.txt) ;;
ls) prog=(ls -l d) ;;
esac
export TZ=UTC
for f in t1.txt t2.txt; do
	lt -o "$f" "${prog[@]}" >/dev/null || fail "text run failed: $(tail -3 "$f")"
done
lt --format=json -o t.jsonl "${prog[@]}" >out ||
	fail "json run failed: $(tail -3 t.jsonl)"
"${prog[@]}" | cmp -s - out || fail "the traced program's output differs"
python3 "$PROC/tests/json_real.py" t.jsonl t1.txt t2.txt 2>&1 ||
	fail "JSON and text traces differ"
exit 0
