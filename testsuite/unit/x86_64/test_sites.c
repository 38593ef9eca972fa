/* Unit test of the x86_64 call site scanner (plt_arch_scan_sites,
 * sysdeps/linux-gnu/plt_arch.h) and of the callee's registers at a
 * site's breakpoint (arch_site_callee, x86_64/arch.h).
 *
 * Hand-assembled bytes check each form that is a site and each that
 * must not be.  Then programs compiled here with -fno-plt (and one with
 * a PLT) are scanned and checked against facts found without the
 * scanner: the GOT relocations, read with libelf, and objdump's
 * disassembly when objdump is installed.
 *
 * Exit 0 on success, 1 with one stderr line per failed check, 77 when
 * cc is missing. */
#include "plt_arch.h"
#include "arch.h"
#include "../check.h"

#include <ctype.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/test_sites.XXXXXX";

/* ---- what the scanner reports, against a sorted set of slots ---- */

struct site_log {
	struct plt_site *site;
	size_t n, cap;
	const uint64_t *slots; /* sorted */
	size_t nslots;
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static bool log_is_slot(void *ctx, uint64_t got)
{
	const struct site_log *l = ctx;

	return bsearch(&got, l->slots, l->nslots, sizeof(got), cmp_u64);
}

static void log_site(void *ctx, const struct plt_site *s)
{
	struct site_log *l = ctx;

	CHECK(l->n == 0 || l->site[l->n - 1].addr < s->addr,
	      "site %#" PRIx64 " out of order", s->addr);
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 64;
		l->site = realloc(l->site, l->cap * sizeof(*l->site));
		if (!l->site)
			abort();
	}
	l->site[l->n++] = *s;
}

static const struct plt_site *log_find(const struct site_log *l, uint64_t addr)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->site[i].addr == addr)
			return &l->site[i];
	return NULL;
}

/* ---- hand-assembled code ---- */

struct code {
	uint8_t b[512];
	size_t n;
	uint64_t base;
	struct plt_site want[32]; /* the sites, in order */
	size_t nwant;
};

/* Append the bytes HEX spells ("ff 15"). */
static void put(struct code *c, const char *hex)
{
	char *end;

	for (const char *p = hex;; p = end) {
		unsigned long v = strtoul(p, &end, 16);
		if (end == p)
			return;
		c->b[c->n++] = (uint8_t)v;
	}
}

/* Append HEX, then the disp32 that makes [RIP + disp32] TARGET (RIP
 * being the address after it), then TAIL.  Returns the first byte's
 * address. */
static uint64_t put_rip(struct code *c, const char *hex, uint64_t target,
			const char *tail)
{
	uint64_t at = c->base + c->n;

	put(c, hex);
	int32_t disp = (int32_t)(target - (c->base + c->n + 4));
	memcpy(c->b + c->n, &disp, sizeof(disp));
	c->n += sizeof(disp);
	put(c, tail);
	return at;
}

/* Append a site: HEX then the disp32 to TARGET. */
static void put_site(struct code *c, const char *hex, uint64_t target,
		     enum plt_site_kind kind)
{
	uint64_t at = put_rip(c, hex, target, "");

	c->want[c->nwant++] = (struct plt_site){
		.addr = at,
		.got = target,
		.len = (unsigned)(c->base + c->n - at),
		.kind = kind,
	};
}

enum { S0 = 0x3000, S1 = 0x3008, S2 = 0x3010, S_LOW = 0x800, NS = 0x3100 };
static const uint64_t hand_slots[] = { S_LOW, S0, S1, S2 };

/* Every form that is a site, each followed by look-alikes that are
 * not: other ModRMs and opcodes, prefixes that change the operand,
 * a site's bytes inside an immediate, garbage, a cut site at the end. */
static void assemble(struct code *c)
{
	c->base = 0x1000;
	put(c, "55 48 89 e5");			 /* push %rbp; mov %rsp,%rbp */
	put_site(c, "ff 15", S0, PLT_SITE_CALL); /* call *S0(%rip) */
	put_site(c, "ff 25", S1, PLT_SITE_JUMP); /* jmp *S1(%rip) */
	put_site(c, "f2 ff 25", S2, PLT_SITE_JUMP);    /* bnd jmp */
	put_site(c, "3e ff 15", S0, PLT_SITE_CALL);    /* notrack call */
	put_site(c, "3e f2 ff 15", S1, PLT_SITE_CALL); /* notrack bnd */
	put_site(c, "41 ff 15", S2, PLT_SITE_CALL);    /* REX.B: still RIP */
	put_site(c, "48 ff 25", S0, PLT_SITE_JUMP);    /* rex.W jmp */
	put_site(c, "2e 2e ff 15", S1, PLT_SITE_CALL); /* CS padding */
	put_site(c, "ff 15", S_LOW, PLT_SITE_CALL);    /* negative disp */
	put_rip(c, "ff 15", NS, "");		       /* not a slot */
	put(c, "ff d0 ff 10 41 ff d3");		       /* call *%rax, *(%rax) */
	put(c, "ff 14 25 00 30 00 00");		       /* call *0x3000 (abs) */
	put_rip(c, "ff 1d", S0, "");		       /* lcall */
	put_rip(c, "ff 2d", S0, "");		       /* ljmp */
	put_rip(c, "ff 35", S0, "");		       /* push */
	put_rip(c, "ff 95", S0, "");		       /* call *d(%rbp) */
	put_rip(c, "48 8b 15", S0, "");		       /* mov S0(%rip),%rdx */
	put_rip(c, "66 ff 15", S0, "");		       /* 16-bit on AMD */
	put_rip(c, "67 ff 15", S0, "");		       /* EIP-relative */
	put_rip(c, "64 ff 15", S0, "");		       /* FS: */
	put_rip(c, "f3 ff 15", S0, "");		       /* rep */
	put_rip(c, "48 b8 ff 15", S0, "00 00");	       /* movabs, imm */
	put(c, "06 07 27");			       /* invalid in 64-bit */
	put_site(c, "ff 25", S2, PLT_SITE_JUMP);       /* found after them */
	put(c, "0f 1f 44 00 00 c3");		       /* nopl; ret */
	put_rip(c, "ff 25", NS, "");		       /* after the last site */
	put(c, "ff 15 00 30");			       /* cut */
}

/* Scan the first SIZE bytes of C from an exact-size copy, so that a
 * read past them is caught by the sanitizers. */
static void scan_code(const struct code *c, size_t size, struct site_log *l)
{
	uint8_t *copy = malloc(size ? size : 1);

	if (!copy)
		abort();
	memcpy(copy, c->b, size);
	l->n = 0;
	plt_arch_scan_sites(copy, size, c->base, log_is_slot, log_site, l);
	free(copy);
}

static bool same_site(const struct plt_site *a, const struct plt_site *b)
{
	return a->addr == b->addr && a->got == b->got && a->len == b->len &&
	       a->kind == b->kind;
}

static void check_wanted(const struct code *c, const struct site_log *l,
			 size_t nwant, const char *what)
{
	CHECK(l->n == nwant, "%s: %zu sites, want %zu", what, l->n, nwant);
	for (size_t i = 0; i < l->n && i < nwant; i++)
		CHECK(same_site(&l->site[i], &c->want[i]),
		      "%s: site %zu is %#" PRIx64 "+%u->%#" PRIx64
		      " kind %d, want %#" PRIx64 "+%u->%#" PRIx64 " kind %d",
		      what, i, l->site[i].addr, l->site[i].len, l->site[i].got,
		      l->site[i].kind, c->want[i].addr, c->want[i].len,
		      c->want[i].got, c->want[i].kind);
}

static void test_forms(void)
{
	struct code c = { .n = 0, .nwant = 0 };
	struct site_log l = { .slots = hand_slots, .nslots = 4 };

	assemble(&c);
	scan_code(&c, c.n, &l);
	check_wanted(&c, &l, c.nwant, "forms");
	/* Cut inside the last site: the others remain. */
	const struct plt_site *last = &c.want[c.nwant - 1];
	scan_code(&c, last->addr - c.base + last->len - 1, &l);
	check_wanted(&c, &l, c.nwant - 1, "cut in the last site");
	/* The first site ends at byte 10: none before. */
	for (size_t size = 0; size <= 10; size++) {
		scan_code(&c, size, &l);
		CHECK(l.n == (size == 10), "first %zu bytes: %zu sites", size,
		      l.n);
	}
	/* No slot at all: nothing, whatever the bytes. */
	l.nslots = 0;
	scan_code(&c, c.n, &l);
	CHECK(l.n == 0, "no slots: %zu sites", l.n);
	free(l.site);
}

/* ---- the callee's registers at the site's breakpoint ---- */

/* Registers as the int3 on a site at 0x401000 leaves them. */
static void site_regs(struct arch_regs *r)
{
	memset(r, 0x5a, sizeof(*r));
	r->r.rsp = 0x7ffd1000;
	r->r.rip = 0x401001;
}

/* Where arch_return_addr says the return address is: a memory word on
 * x86_64. */
static uint64_t ret_slot(const struct arch_regs *r)
{
	uint64_t ret = 0, slot = 0;
	CHECK(!arch_return_addr(r, &ret, &slot), "not in a register");
	return slot;
}

/* A call: the return address counts as pushed, nothing else changes;
 * the stack arguments are at the callee's [rsp + 8], the caller's
 * [rsp]. */
static void test_callee_call(void)
{
	struct arch_regs r, want;

	site_regs(&r);
	want = r;
	want.r.rsp = 0x7ffd0ff8;
	arch_site_callee(&r, false, 0x401006);
	CHECK(!memcmp(&r, &want, sizeof(r)), "call: registers differ");
	CHECK(ret_slot(&r) == 0x7ffd0ff8);
	CHECK(arch_sp_after_return(&r) == 0x7ffd1000);
}

/* A jump: the callee sees the caller's return address where it is. */
static void test_callee_jump(void)
{
	struct arch_regs r, want;

	site_regs(&r);
	want = r;
	arch_site_callee(&r, true, 0x401006);
	CHECK(!memcmp(&r, &want, sizeof(r)), "jump: registers differ");
	CHECK(ret_slot(&r) == 0x7ffd1000);
	CHECK(arch_sp_after_return(&r) == 0x7ffd1008);
}

/* ---- facts about a compiled file, read with libelf ---- */

struct slot_name {
	uint64_t got;
	char name[128];
};

struct facts {
	int fd;
	Elf *elf;
	size_t shstrndx;
	struct slot_name *slot; /* GLOB_DAT and JUMP_SLOT, sorted */
	uint64_t *got;		/* the same addresses, for log_is_slot */
	size_t nslot;
};

static int cmp_slot(const void *a, const void *b)
{
	return cmp_u64(&((const struct slot_name *)a)->got,
		       &((const struct slot_name *)b)->got);
}

static void facts_add(struct facts *f, uint64_t got, const char *name)
{
	f->slot = realloc(f->slot, (f->nslot + 1) * sizeof(*f->slot));
	if (!f->slot)
		abort();
	f->slot[f->nslot].got = got;
	snprintf(f->slot[f->nslot].name, sizeof(f->slot->name), "%s",
		 name ? name : "");
	f->nslot++;
}

static void facts_rela(struct facts *f, Elf_Scn *scn, const GElf_Shdr *sh)
{
	Elf_Scn *sym = elf_getscn(f->elf, sh->sh_link);
	GElf_Shdr ssh;

	if (!sym || !gelf_getshdr(sym, &ssh) || ssh.sh_type != SHT_DYNSYM)
		return;
	Elf_Data *d = elf_getdata(scn, NULL);
	Elf_Data *sd = elf_getdata(sym, NULL);
	GElf_Rela r;
	for (int i = 0; d && gelf_getrela(d, i, &r); i++) {
		uint32_t type = GELF_R_TYPE(r.r_info);
		GElf_Sym s;
		if (type != R_X86_64_GLOB_DAT && type != R_X86_64_JUMP_SLOT)
			continue;
		const char *nm = NULL;
		if (gelf_getsym(sd, GELF_R_SYM(r.r_info), &s))
			nm = elf_strptr(f->elf, ssh.sh_link, s.st_name);
		facts_add(f, r.r_offset, nm);
	}
}

static bool facts_open(struct facts *f, const char *path)
{
	memset(f, 0, sizeof(*f));
	elf_version(EV_CURRENT);
	f->fd = open(path, O_RDONLY);
	f->elf = f->fd >= 0 ? elf_begin(f->fd, ELF_C_READ, NULL) : NULL;
	if (!f->elf || elf_getshdrstrndx(f->elf, &f->shstrndx) < 0) {
		FAIL("%s: libelf cannot read it", path);
		return false;
	}
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	while ((scn = elf_nextscn(f->elf, scn)) != NULL)
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_RELA)
			facts_rela(f, scn, &sh);
	qsort(f->slot, f->nslot, sizeof(*f->slot), cmp_slot);
	f->got = calloc(f->nslot + 1, sizeof(*f->got));
	if (!f->got)
		abort();
	for (size_t i = 0; i < f->nslot; i++)
		f->got[i] = f->slot[i].got;
	return true;
}

static void facts_close(struct facts *f)
{
	free(f->slot);
	free(f->got);
	if (f->elf)
		elf_end(f->elf);
	if (f->fd >= 0)
		close(f->fd);
}

static const char *slot_name(const struct facts *f, uint64_t got)
{
	struct slot_name key = { .got = got };
	const struct slot_name *s =
		bsearch(&key, f->slot, f->nslot, sizeof(key), cmp_slot);

	return s ? s->name : NULL;
}

static bool is_plt_section(const char *name)
{
	for (size_t i = 0; plt_arch_sections[i]; i++)
		if (!strcmp(name, plt_arch_sections[i]))
			return true;
	return false;
}

/* Scan every code section but the stubs' into L; returns the bytes
 * scanned and adds the time taken to *SECS. */
static size_t scan_file(const struct facts *f, struct site_log *l, double *secs)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t bytes = 0;

	l->n = 0;
	l->slots = f->got;
	l->nslots = f->nslot;
	while ((scn = elf_nextscn(f->elf, scn)) != NULL) {
		const char *name;
		Elf_Data *d;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_EXECINSTR) ||
		    !(name = elf_strptr(f->elf, f->shstrndx, sh.sh_name)) ||
		    is_plt_section(name) || !(d = elf_getdata(scn, NULL)))
			continue;
		struct timespec t0, t1;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		plt_arch_scan_sites(d->d_buf, d->d_size, sh.sh_addr,
				    log_is_slot, log_site, l);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		*secs += (t1.tv_sec - t0.tv_sec) +
			 (t1.tv_nsec - t0.tv_nsec) / 1e9;
		bytes += d->d_size;
	}
	return bytes;
}

/* ---- objdump's opinion ---- */

/* The bytes of one instruction in objdump's hex column, [P, END). */
static unsigned hex_bytes(const char *p, const char *end)
{
	unsigned n = 0;

	for (; p < end; p++)
		if (p + 1 < end && isxdigit((unsigned char)p[0]) &&
		    isxdigit((unsigned char)p[1])) {
			n++;
			p++;
		}
	return n;
}

/* The word before a `*` operand: "call" / "jmp" (or callq / jmpq). */
static bool objdump_kind(const char *text, const char *star,
			 enum plt_site_kind *kind)
{
	const char *end = star, *word;

	while (end > text && end[-1] == ' ')
		end--;
	for (word = end; word > text && word[-1] != ' ' && word[-1] != '\t';)
		word--;
	size_t n = (size_t)(end - word);
	if ((n == 4 || n == 5) && !strncmp(word, "callq", n))
		*kind = PLT_SITE_CALL;
	else if ((n == 3 || n == 4) && !strncmp(word, "jmpq", n))
		*kind = PLT_SITE_JUMP;
	else
		return false;
	return true;
}

/* A line of `objdump -d --insn-width=16` that is `call/jmp
 * *DISP(%rip)  # GOT`, into S. */
static bool objdump_site(const char *line, struct plt_site *s)
{
	unsigned long long addr, got;
	const char *bytes = strchr(line, '\t');
	const char *text = bytes ? strchr(bytes + 1, '\t') : NULL;

	if (!text || sscanf(line, " %llx:", &addr) != 1)
		return false;
	const char *star = strchr(text, '*');
	const char *hash = strstr(text, "# ");
	if (!star || (star[1] != '0' && star[1] != '-') || !hash ||
	    !strstr(star, "(%rip)") || sscanf(hash + 2, "%llx", &got) != 1 ||
	    !objdump_kind(text, star, &s->kind))
		return false;
	s->addr = addr;
	s->got = got;
	s->len = hex_bytes(bytes + 1, text);
	return true;
}

static void check_one(const char *path, const struct site_log *l,
		      const struct plt_site *od)
{
	const struct plt_site *s = log_find(l, od->addr);

	CHECK(s && same_site(s, od),
	      "%s: objdump has %s *%#" PRIx64 " (%u bytes) at %#" PRIx64
	      ", scanner %s",
	      path, od->kind == PLT_SITE_CALL ? "call" : "jmp", od->got,
	      od->len, od->addr, s ? "differs" : "has nothing");
}

/* Every objdump line through a slot outside the stubs' sections is a
 * site of L, and there are as many as L has.  False without objdump. */
static bool check_objdump(const char *path, const struct facts *f,
			  const struct site_log *l)
{
	static const char header[] = "Disassembly of section %255[^:]:";
	char cmd[4200], line[1024], section[256] = "";
	size_t n = 0;

	snprintf(cmd, sizeof(cmd),
		 "objdump -d --insn-width=16 '%s' 2>/dev/null", path);
	FILE *p = popen(cmd, "r");
	if (!p)
		return false;
	while (fgets(line, sizeof(line), p)) {
		struct plt_site od;
		if (sscanf(line, header, section) == 1)
			continue;
		if (is_plt_section(section) || !objdump_site(line, &od) ||
		    !slot_name(f, od.got))
			continue;
		check_one(path, l, &od);
		n++;
	}
	bool ran = pclose(p) == 0;
	CHECK(!ran || n == l->n, "%s: objdump has %zu sites, scanner %zu", path,
	      n, l->n);
	return ran;
}

/* ---- programs compiled here ---- */

static const char prog_src[] =
	"#include <stdio.h>\n"
	"#include <stdlib.h>\n"
	"#include <string.h>\n"
	"void (*volatile hook)(void *);\n"
	"__attribute__((noinline)) int tail(const char *s)\n"
	"{ return puts(s); }\n"
	"__attribute__((noinline)) void release(void *p) { free(p); }\n"
	"int main(int argc, char **argv)\n"
	"{\n"
	"	char *p = malloc(16);\n"
	"	hook = free; /* reads free's slot, calls nothing */\n"
	"	strcpy(p, argc > 5 ? argv[0] : \"hi\");\n"
	"	tail(p);\n"
	"	printf(\"%zu\\n\", strlen(p));\n"
	"	release(p);\n"
	"	return 0;\n"
	"}\n";

static const char lib_src[] =
	"#include <stdio.h>\n"
	"#include <stdlib.h>\n"
	"#include <string.h>\n"
	"size_t lib_len(const char *s) { return strlen(s); }\n"
	"int lib_say(const char *s) { return puts(s); }\n"
	"char *lib_dup(const char *s)\n"
	"{\n"
	"	char *p = malloc(lib_len(s) + 1);\n"
	"	return p ? strcpy(p, s) : p;\n"
	"}\n";

static bool write_src(const char *name, const char *text)
{
	char path[4200];

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	FILE *f = fopen(path, "w");
	bool ok = f && fputs(text, f) >= 0;
	if (f && fclose(f) != 0)
		ok = false;
	return ok;
}

static bool build(const char *out, const char *src, const char *flags)
{
	char cmd[8192];

	snprintf(cmd, sizeof(cmd),
		 "cc -fno-builtin -D_FORTIFY_SOURCE=0 %s -o '%s/%s' '%s/%s' "
		 ">/dev/null 2>&1",
		 flags, tmpdir, out, tmpdir, src);
	return system(cmd) == 0;
}

/* Whether L has a site through NAME's slot, of KIND unless KIND < 0. */
static bool has_site(const struct facts *f, const struct site_log *l,
		     const char *name, int kind)
{
	for (size_t i = 0; i < l->n; i++) {
		const char *nm = slot_name(f, l->site[i].got);
		if (nm && !strcmp(nm, name) &&
		    (kind < 0 || l->site[i].kind == (enum plt_site_kind)kind))
			return true;
	}
	return false;
}

struct variant {
	const char *out, *src, *flags;
	const char *const *names;  /* each called through a site */
	const char *called, *tail; /* a CALL site, a JUMP site, or NULL */
	size_t exact;		   /* if not 0: the number of sites */
};

static const char *const prog_names[] = {
	"malloc", "strcpy", "strlen", "printf", "puts", "free", NULL,
};
static const char *const lib_names[] = {
	"strlen", "puts", "malloc", "strcpy", "lib_len", NULL,
};
static const char *const start_names[] = { "__libc_start_main", NULL };

static const struct variant variants[] = {
	{ "pie", "prog.c", "-O2 -fno-plt", prog_names, "malloc", "puts", 0 },
	{ "cf", "prog.c", "-O2 -fno-plt -fcf-protection=full", prog_names,
	  "malloc", "puts", 0 },
	{ "nopie", "prog.c", "-O2 -fno-plt -no-pie", prog_names, "malloc",
	  "puts", 0 },
	{ "O0", "prog.c", "-O0 -fno-plt", prog_names, "puts", NULL, 0 },
	{ "lib.so", "lib.c", "-O2 -fno-plt -shared -fPIC", lib_names, "malloc",
	  "puts", 0 },
	/* With a PLT, crt1's call of __libc_start_main is the only site. */
	{ "plt", "prog.c", "-O2", start_names, "__libc_start_main", NULL, 1 },
};

static void check_variant(const struct variant *v, const char *path,
			  const struct facts *f, const struct site_log *l)
{
	for (size_t i = 0; v->names[i]; i++)
		CHECK(has_site(f, l, v->names[i], -1), "%s: no site for %s",
		      path, v->names[i]);
	CHECK(!v->called || has_site(f, l, v->called, PLT_SITE_CALL),
	      "%s: no call site for %s", path, v->called);
	CHECK(!v->tail || has_site(f, l, v->tail, PLT_SITE_JUMP),
	      "%s: no tail call site for %s", path, v->tail);
	CHECK(!v->exact || l->n == v->exact, "%s: %zu sites, want %zu", path,
	      l->n, v->exact);
}

static void test_variant(const struct variant *v)
{
	char path[4200];
	struct facts f;
	struct site_log l = { .n = 0 };
	double secs = 0;

	if (!build(v->out, v->src, v->flags)) {
		FAIL("%s: cc %s failed", v->out, v->flags);
		return;
	}
	snprintf(path, sizeof(path), "%s/%s", tmpdir, v->out);
	if (facts_open(&f, path)) {
		scan_file(&f, &l, &secs);
		check_variant(v, path, &f, &l);
		check_objdump(path, &f, &l);
		printf("%s: %zu sites\n", v->out, l.n);
	}
	facts_close(&f);
	free(l.site);
}

/* ---- installed files: objdump agrees; the cost ---- */

static void test_system(const char *path)
{
	struct facts f;
	struct site_log l = { .n = 0 };
	double secs = 0;

	if (access(path, R_OK) != 0) {
		fprintf(stderr, "test_sites: skip: %s missing\n", path);
		return;
	}
	if (facts_open(&f, path)) {
		size_t bytes = scan_file(&f, &l, &secs);
		bool od = check_objdump(path, &f, &l);
		printf("%s: %zu sites in %.2f MB of code, %.1f ms%s\n", path,
		       l.n, bytes / 1e6, secs * 1e3,
		       od ? ", as objdump says" : "");
	}
	facts_close(&f);
	free(l.site);
}

int main(void)
{
	test_forms();
	test_callee_call();
	test_callee_jump();
	if (system("cc --version >/dev/null 2>&1") != 0) {
		fprintf(stderr, "test_sites: skip: cc not found\n");
		return check_failures ? check_exit() : CHECK_SKIP;
	}
	if (!mkdtemp(tmpdir)) {
		perror("test_sites: mkdtemp");
		return 1;
	}
	if (!write_src("prog.c", prog_src) || !write_src("lib.c", lib_src))
		FAIL("%s: cannot write the sources", tmpdir);
	for (size_t i = 0; i < sizeof(variants) / sizeof(variants[0]); i++)
		test_variant(&variants[i]);
	test_system("/usr/bin/python3");
	test_system("/lib/x86_64-linux-gnu/libc.so.6");
	test_system("/lib/x86_64-linux-gnu/libcrypt.so.1");
	test_system("/usr/lib/x86_64-linux-gnu/librsvg-2.so.2");
	char cmd[4200];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		fprintf(stderr, "test_sites: could not remove %s\n", tmpdir);
	return check_exit();
}
