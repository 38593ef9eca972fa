# Sourced by the .opts whose check_binary looks at the calls a program
# makes, the same way on x86_64 and aarch64: calls FILE [FUNC] prints
# the calls and jumps of FILE's code (of its function FUNC alone when
# given), one a line, in their order:
#   call NAME@plt, jump NAME@plt   through a stub (call/jmp; bl/b)
#   call NAME, jump NAME           straight to a function (a tail call)
#   call *NAME, jump *NAME         through the GOT slot that FILE's
#                                  relocations bind to NAME (-fno-plt:
#                                  "call *SLOT(%rip)"; adrp, ldr, blr/br)
# Jumps inside a function (to NAME+0x...) are left out.
calls() {
	{
		readelf -rW "$1" | awk '$3 ~ /_(GLOB_DAT|JUMP_SLOT)$/ {
			sub(/@.*/, "", $5); print "R", $1, $5 }'
		objdump -d --no-show-raw-insn "$1"
	} | awk -v only="${2:-}" "$calls_awk"
}

# The awk program of calls: R lines (the relocations) first, then the
# disassembly.  On aarch64 it follows each register from the adrp that
# loads a page into it, through the ldr of a slot of that page, to the
# blr or br that calls through it.
calls_awk='
function hex(s,  i, n) {
	n = 0
	sub(/^0x/, "", s)
	for (i = 1; i <= length(s); i++)
		n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
	return n
}
function reg(s) { gsub(/[][,]/, "", s); return s }
function out(kind, target) {
	if (target !~ /\+0x/ && target != "*") print kind, target
}
$1 == "R" { slot[hex($2)] = $3; next }
/^[0-9a-f]+ <.*>:$/ {
	fn = $2; gsub(/[<>:]/, "", fn)
	split("", page); split("", got)
	next
}
only != "" && fn != only { next }
$2 == "bnd" || $2 == "notrack" { $2 = ""; $0 = $0 }
$2 ~ /^(call|jmp|bl|b)$/ {
	kind = ($2 == "call" || $2 == "bl") ? "call" : "jump"
	if ($3 ~ /^\*0x[0-9a-f]+\(%rip\)$/ && $4 == "#")
		out(kind, "*" slot[hex($5)])
	else if ($4 ~ /^<.*>$/)
		out(kind, substr($4, 2, length($4) - 2))
	next
}
$2 == "adrp" { r = reg($3); delete got[r]; page[r] = hex($4); next }
$2 == "ldr" && $4 ~ /^\[x[0-9]+/ && (reg($4) in page) {
	off = ($5 ~ /^#/) ? $5 : "#0"
	gsub(/[#\]]/, "", off)
	r = reg($3)
	got[r] = page[reg($4)] + off
	delete page[r]
	next
}
($2 == "blr" || $2 == "br") && (reg($3) in got) {
	out($2 == "blr" ? "call" : "jump", "*" slot[got[reg($3)]])
	next
}
{ r = reg($3); delete page[r]; delete got[r] }'
