# Sourced by the .opts of tests whose prototypes come from libc's DWARF:
# need_libc_debug, run in setup(), skips the test (status 77) when the
# program's libc has no separate debug file (libc6-dbg) by build-id.
need_libc_debug() {
	local libc id
	libc=$(ldd ./prog | awk '$1 == "libc.so.6" { print $3 }')
	id=$(readelf -n "$libc" | awk '/Build ID:/ { print $3 }')
	[ -n "$id" ] &&
		[ -e "/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug" ] ||
		{
			echo "no debug information for $libc (libc6-dbg)"
			return 77
		}
}
