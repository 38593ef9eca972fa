/* Opening one ELF file for the readers (elffile.h).  The checks are
 * those every reader needs before it trusts libelf's view: a regular
 * file (not a FIFO or a device that would block or never end), the ELF
 * magic, and this architecture's machine and class (plt_arch.h), so
 * that the readers may take its layout for granted. */
#include "elffile.h"
#include "plt_arch.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int fail(char *errbuf, size_t errlen, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(char *errbuf, size_t errlen, int err, const char *fmt, ...)
{
	if (errbuf && errlen) {
		va_list ap;

		va_start(ap, fmt);
		vsnprintf(errbuf, errlen, fmt, ap);
		va_end(ap);
	}
	return -err;
}

static const struct {
	unsigned int machine;
	const char *name;
} machines[] = {
	{ EM_386, "i386" },
	{ EM_X86_64, "x86-64" },
	{ EM_AARCH64, "AArch64" },
	{ EM_ARM, "ARM" },
	{ EM_PPC, "PowerPC" },
	{ EM_PPC64, "PowerPC64" },
	{ EM_S390, "IBM S/390" },
	{ EM_MIPS, "MIPS" },
	{ EM_RISCV, "RISC-V" },
	{ EM_SPARC, "SPARC" },
	{ EM_SPARCV9, "SPARC v9" },
	{ EM_IA_64, "IA-64" },
	{ EM_ALPHA, "Alpha" },
	{ EM_SH, "SuperH" },
	{ EM_68K, "m68k" },
	{ EM_PARISC, "PA-RISC" },
#ifdef EM_LOONGARCH
	{ EM_LOONGARCH, "LoongArch" },
#endif
	{ EM_BPF, "BPF" },
};

static const char *machine_name(unsigned int machine)
{
	for (size_t i = 0; i < sizeof(machines) / sizeof(machines[0]); i++)
		if (machines[i].machine == machine)
			return machines[i].name;
	return NULL;
}

/* 0 if FD is a regular file starting with the ELF magic, else a
 * negative errno with the reason in ERRBUF. */
static int check_file(int fd, char *errbuf, size_t errlen)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return fail(errbuf, errlen, errno, "%s", strerror(errno));
	if (S_ISDIR(st.st_mode))
		return fail(errbuf, errlen, EISDIR, "%s", strerror(EISDIR));
	unsigned char magic[SELFMAG];
	if (!S_ISREG(st.st_mode) || pread(fd, magic, SELFMAG, 0) != SELFMAG ||
	    memcmp(magic, ELFMAG, SELFMAG) != 0)
		return fail(errbuf, errlen, ENOEXEC, "not an ELF file");
	return 0;
}

/* Check kind, class and machine. */
static int check_header(Elf *elf, char *errbuf, size_t errlen)
{
	GElf_Ehdr eh;

	if (elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh))
		return fail(errbuf, errlen, ENOEXEC, "not an ELF file");
	int cls = gelf_getclass(elf);
	if (eh.e_machine == plt_arch_machine && cls == plt_arch_class)
		return 0;
	const char *name = machine_name(eh.e_machine);
	const char *bits = cls == ELFCLASS32 ? ", 32-bit" : "";
	if (name)
		return fail(errbuf, errlen, ENOEXEC,
			    "ELF for another architecture (%s%s)", name, bits);
	return fail(errbuf, errlen, ENOEXEC,
		    "ELF for another architecture (machine %u%s)", eh.e_machine,
		    bits);
}

/* libelf's view of F's open fd, checked. */
static int begin(struct elf_file *f, char *errbuf, size_t errlen)
{
	elf_version(EV_CURRENT);
	f->elf = elf_begin(f->fd, ELF_C_READ_MMAP, NULL);
	if (!f->elf)
		return fail(errbuf, errlen, ENOEXEC, "malformed ELF file: %s",
			    elf_errmsg(-1));
	int ret = check_header(f->elf, errbuf, errlen);
	if (ret)
		return ret;
	const char *raw = elf_rawfile(f->elf, &f->size);
	f->raw = (const uint8_t *)raw;
	if (!raw)
		f->size = 0;
	return 0;
}

int elf_file_open(struct elf_file *f, const char *path, char *errbuf,
		  size_t errlen)
{
	memset(f, 0, sizeof(*f));
	f->fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (f->fd < 0)
		return fail(errbuf, errlen, errno, "%s", strerror(errno));
	int ret = check_file(f->fd, errbuf, errlen);
	if (ret == 0)
		ret = begin(f, errbuf, errlen);
	if (ret)
		elf_file_close(f);
	return ret;
}

void elf_file_close(struct elf_file *f)
{
	if (f->elf)
		elf_end(f->elf);
	if (f->fd >= 0)
		close(f->fd);
	memset(f, 0, sizeof(*f));
	f->fd = -1;
}
