/* Where an object's initial-exec TLS variable lies from the thread
 * pointer: libc's errno, which the loader tells every thread's code
 * through a GOT slot (elfdyn.h, elf_dyn_tls_slot).  Nothing but the
 * dynamic section is read: the section headers are not trusted. */
#include "elfdyn.h"

#include <string.h>

#include "plt_arch.h"

/* The index and st_value of the STT_TLS symbol NAME this object
 * defines; false if it has none. */
static bool find_tls_symbol(const struct elf_dyn *d, const char *name,
			    uint64_t *ndx, uint64_t *value)
{
	uint64_t n = elf_dyn_nsyms(d);
	Elf64_Sym s;
	/* N comes from the hash table, which a hostile file makes huge:
	 * the symbols are one table, so the first one past the file's
	 * bytes ends the walk (the file's size bounds it) */
	for (uint64_t i = 1; i < n && elf_dyn_sym(d, i, &s); i++) {
		if (ELF64_ST_TYPE(s.st_info) != STT_TLS ||
		    s.st_shndx == SHN_UNDEF)
			continue;
		const char *sn = elf_dyn_string(d, s.st_name);
		if (sn && !strcmp(sn, name)) {
			*ndx = i;
			*value = s.st_value;
			return true;
		}
	}
	return false;
}

uint64_t elf_dyn_tls_slot(const struct elf_dyn *d, const char *name)
{
	uint64_t ndx, value, n;
	if (!d->rela || !find_tls_symbol(d, name, &ndx, &value))
		return 0;
	const uint8_t *p = elf_dyn_table(d, d->rela, d->relasz, d->relaent,
					 sizeof(Elf64_Rela), &n);
	for (uint64_t i = 0; p && i < n; i++) {
		Elf64_Rela r;
		memcpy(&r, p + i * sizeof(r), sizeof(r));
		if (plt_arch_reloc_kind(ELF64_R_TYPE(r.r_info)) !=
		    PLT_RELOC_TPOFF)
			continue;
		uint64_t sym = ELF64_R_SYM(r.r_info);
		if ((sym == ndx && r.r_addend == 0) ||
		    (sym == 0 && (uint64_t)r.r_addend == value))
			return r.r_offset;
	}
	return 0;
}
