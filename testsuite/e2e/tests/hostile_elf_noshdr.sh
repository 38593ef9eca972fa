# Sourced by the hostile_elf_noshdr_* tests after noplt.sh: setup (run
# after the build) edits the section header table of the program and
# of libnoplt.so with hostile_elf.py's command $HOSTILE (sstrip: no
# table and the file cut after its last PT_LOAD segment; garbage: the
# table over the code), which the loader ignores: the trace must be the
# untouched build's (the twin named in each .opts).
setup() {
	local f size
	for f in prog libnoplt.so; do
		size=$(stat -c %s $f)
		python3 "$here/tests/hostile_elf.py" "$HOSTILE" $f || return 1
		case $HOSTILE in
		sstrip)
			readelf -h $f | grep -q 'Number of section headers: *0$' &&
				[ "$(stat -c %s $f)" -lt "$size" ] || return 1 ;;
		garbage)
			! readelf -SW $f 2>/dev/null | grep -q ' \.dynsym ' ||
				return 1 ;;
		esac
	done
}
