/* Unit test of what an object's image says about its code built without
 * a PLT (ltrace/elfscan.h): the stub-less function slots elf_image_read
 * keeps, and the call sites elf_sites_read finds through them.
 *
 * Programs are compiled here with and without -fno-plt.  Each site is
 * checked against the file's own bytes, decoded by hand: the
 * instruction at its address is `call/jmp *disp32(%rip)` (FF 15 / FF 25)
 * whose slot is the site's.
 *
 * Exit 0 on success, 1 with one stderr line per failed check, 77 when
 * cc is missing. */
#include "elfscan.h"
#include "../check.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/test_elfsites.XXXXXX";

static const char src[] =
	"#include <stdio.h>\n"
	"#include <stdlib.h>\n"
	"#include <string.h>\n"
	"void (*volatile hook)(void *);\n"
	"__attribute__((noinline)) int tail(const char *s)\n"
	"{ return puts(s); }\n"
	"int main(void)\n"
	"{\n"
	"	char *p = malloc(16);\n"
	"	hook = abort; /* its slot is read, never called */\n"
	"	strcpy(p, \"hi\");\n"
	"	tail(p);\n"
	"	free(p);\n"
	"	return 0;\n"
	"}\n";

static bool build(const char *out, const char *flags)
{
	char cmd[8192];
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && cc -fno-builtin -D_FORTIFY_SOURCE=0 %s -o %s "
		 "prog.c >/dev/null 2>&1",
		 tmpdir, flags, out);
	return system(cmd) == 0;
}

/* The slot of IMG named NAME, or NULL. */
static const struct elf_slot *slot_named(const struct elf_image *img,
					 const char *name)
{
	for (size_t i = 0; i < img->nslots; i++)
		if (!strcmp(img->slots[i].name, name))
			return &img->slots[i];
	return NULL;
}

/* Copy LEN bytes of the file's contents at link-time address ADDR from
 * the section holding them; false if no section does. */
static bool read_at(Elf *elf, uint64_t addr, uint8_t *buf, size_t len)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    addr < sh.sh_addr || addr - sh.sh_addr + len > sh.sh_size)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		if (!d || addr - sh.sh_addr + len > d->d_size)
			return false;
		memcpy(buf, (uint8_t *)d->d_buf + (addr - sh.sh_addr), len);
		return true;
	}
	return false;
}

/* The site S of IMG is, in the file ELF, the instruction it says. */
static void check_site(Elf *elf, const struct elf_image *img,
		       const struct elf_site *s)
{
	uint8_t b[16];
	CHECK(s->len >= 6 && s->len <= sizeof(b) && s->slot < img->nslots,
	      "site %#lx: len %u slot %zu", (unsigned long)s->addr, s->len,
	      s->slot);
	if (s->len < 6 || s->len > sizeof(b) || s->slot >= img->nslots ||
	    !read_at(elf, s->addr, b, s->len)) {
		FAIL("site %#lx: cannot read it", (unsigned long)s->addr);
		return;
	}
	const uint8_t *op = b + s->len - 6; /* after the prefixes */
	int32_t disp;
	memcpy(&disp, op + 2, sizeof(disp));
	CHECK(op[0] == 0xff && op[1] == (s->jump ? 0x25 : 0x15),
	      "site %#lx: bytes %02x %02x", (unsigned long)s->addr, op[0],
	      op[1]);
	CHECK(s->addr + s->len + (uint64_t)(int64_t)disp ==
		      img->slots[s->slot].got,
	      "site %#lx reads %#lx, not %s's slot", (unsigned long)s->addr,
	      (unsigned long)(s->addr + s->len + (uint64_t)(int64_t)disp),
	      img->slots[s->slot].name);
}

/* Whether SITES has a site (a jump if JUMP) through NAME's slot. */
static bool has_site(const struct elf_image *img, const struct elf_sites *s,
		     const char *name, bool jump)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(img->slots[s->v[i].slot].name, name) &&
		    s->v[i].jump == jump)
			return true;
	return false;
}

static void check_sites(const char *path, const struct elf_image *img,
			const struct elf_sites *s)
{
	int fd = open(path, O_RDONLY);
	Elf *elf = fd < 0 ? NULL : elf_begin(fd, ELF_C_READ, NULL);
	CHECK(elf != NULL, "%s: cannot open", path);
	for (size_t i = 0; elf && i < s->n; i++) {
		check_site(elf, img, &s->v[i]);
		CHECK(i == 0 || s->v[i - 1].addr < s->v[i].addr,
		      "%s: sites out of order", path);
	}
	elf_end(elf);
	if (fd >= 0)
		close(fd);
}

/* -fno-plt: a slot and a site for each function called; abort's slot
 * (address taken) but no site; none for __libc_start_main. */
static void test_noplt(const char *out, const char *flags)
{
	char path[4200];
	char err[256];
	struct elf_image img;
	struct elf_sites s;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, out);
	if (!build(out, flags) ||
	    elf_image_read(&img, path, err, sizeof(err))) {
		FAIL("%s: cannot build or read", out);
		return;
	}
	CHECK(elf_sites_read(&s, path, &img) == 0, "%s", out);
	static const char *const called[] = { "malloc", "strcpy", "free" };
	for (size_t i = 0; i < 3; i++)
		CHECK(slot_named(&img, called[i]) &&
			      has_site(&img, &s, called[i], false),
		      "%s: no call site of %s", out, called[i]);
	CHECK(has_site(&img, &s, "puts", true), "%s: no tail call", out);
	CHECK(slot_named(&img, "abort"), "%s: no slot for abort", out);
	CHECK(!has_site(&img, &s, "abort", false), "%s: abort called", out);
	CHECK(!slot_named(&img, "__libc_start_main"), "%s", out);
	check_sites(path, &img, &s);
	elf_sites_destroy(&s);
	/* The file is gone: an error, and no sites. */
	CHECK(elf_sites_read(&s, "/nonexistent/prog", &img) == -ENOENT);
	CHECK(s.n == 0 && s.v == NULL);
	elf_sites_destroy(&s);
	elf_image_destroy(&img);
}

/* With a PLT: no slot is called without a stub, and no site is found. */
static void test_plt(void)
{
	char path[4200];
	char err[256];
	struct elf_image img;
	struct elf_sites s;

	snprintf(path, sizeof(path), "%s/plt", tmpdir);
	if (!build("plt", "-O2") ||
	    elf_image_read(&img, path, err, sizeof(err))) {
		FAIL("plt: cannot build or read");
		return;
	}
	CHECK(!slot_named(&img, "malloc") && !slot_named(&img, "puts"));
	CHECK(!slot_named(&img, "__libc_start_main"));
	CHECK(slot_named(&img, "abort"), "plt: address taken, no slot");
	CHECK(elf_sites_read(&s, path, &img) == 0 && s.n == 0, "plt: %zu sites",
	      s.n);
	elf_sites_destroy(&s);
	/* No slot at all: the file is not even opened. */
	size_t nslots = img.nslots;
	img.nslots = 0;
	CHECK(elf_sites_read(&s, "/nonexistent/prog", &img) == 0 && !s.n);
	img.nslots = nslots;
	elf_image_destroy(&img);
}

int main(void)
{
	if (system("cc --version >/dev/null 2>&1") != 0) {
		fprintf(stderr, "test_elfsites: skip: cc not found\n");
		return CHECK_SKIP;
	}
	if (!mkdtemp(tmpdir)) {
		perror("test_elfsites: mkdtemp");
		return 1;
	}
	char path[4200];
	snprintf(path, sizeof(path), "%s/prog.c", tmpdir);
	FILE *f = fopen(path, "w");
	if (!f || fputs(src, f) < 0 || fclose(f) != 0)
		FAIL("%s: cannot write", path);
	elf_version(EV_CURRENT);
	test_noplt("pie", "-O2 -fno-plt");
	test_noplt("nopie", "-O2 -fno-plt -no-pie");
	test_noplt("cet", "-O2 -fno-plt -fcf-protection=full");
	test_plt();
	char cmd[4200];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		fprintf(stderr, "test_elfsites: could not remove %s\n", tmpdir);
	return check_exit();
}
