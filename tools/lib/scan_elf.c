// SPDX-License-Identifier: GPL-2.0
/*
 * abidep scan: which bytes of an ELF file can hold a string a program uses,
 * read with libelf. See Documentation/admin-guide/scan.rst.
 */
#include <stdlib.h>
#include <string.h>

#include <gelf.h>
#include <libelf.h>

#include "scan_int.h"
#include "util.h"

static int range_cmp(const void *x, const void *y)
{
	const struct scan_range *p = x, *q = y;

	return p->a < q->a ? -1 : p->a > q->a;
}

/*
 * Can an ELF section hold a string a program uses? Not code, relocations,
 * symbol and hash tables, unwind tables, debug information (identifiers,
 * not string literals), or GPU code (CUDA fat binaries): those are most of
 * a library's bytes. String literals are in .rodata and .data (and their
 * kin), names in .dynstr and .strtab: all other sections are read.
 */
static bool elf_section_wanted(const GElf_Shdr *sh, const char *name)
{
	static const char *const skip[] = {
		".eh_frame", ".eh_frame_hdr", ".gcc_except_table", ".got", ".got.plt",
		".nv_fatbin", "__nv_relfatbin",
	};
	size_t i;

	if (sh->sh_flags & SHF_EXECINSTR)
		return false;
	switch (sh->sh_type) {
	case SHT_NULL: case SHT_NOBITS: case SHT_REL: case SHT_RELA: case 19 /* RELR */:
	case SHT_SYMTAB: case SHT_DYNSYM: case SHT_HASH: case SHT_GNU_HASH:
	case SHT_GNU_versym: case SHT_GNU_verdef: case SHT_GNU_verneed:
	case SHT_DYNAMIC: case SHT_INIT_ARRAY: case SHT_FINI_ARRAY:
	case SHT_PREINIT_ARRAY: case SHT_GROUP: case SHT_SYMTAB_SHNDX:
	case 0x70000001 /* SHT_X86_64_UNWIND */:
		return false;
	}
	if (!name)
		return true;
	if (!strncmp(name, ".debug_", 7) || !strncmp(name, ".zdebug_", 8))
		return false;
	for (i = 0; i < sizeof(skip) / sizeof(skip[0]); i++)
		if (!strcmp(name, skip[i]))
			return false;
	return true;
}

/*
 * The byte ranges of an ELF file worth reading, sorted and merged, in
 * *@out; how many, or -1 if libelf cannot make sense of the file. With
 * none (a broken section table, or sections only of code), the caller
 * reads the file whole, like any file.
 */
static int ranges_of(Elf *e, unsigned long long size, struct scan_range **out,
		     size_t *cap)
{
	size_t shstrndx, n = 0, i, m;
	Elf_Scn *scn = NULL;

	if (!e)
		return -1;
	if (elf_kind(e) != ELF_K_ELF || elf_getshdrstrndx(e, &shstrndx)) {
		elf_end(e);
		return -1;
	}
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh)) {
			elf_end(e);
			return -1;
		}
		name = elf_strptr(e, shstrndx, sh.sh_name);
		if (!elf_section_wanted(&sh, name) || sh.sh_offset >= size || !sh.sh_size)
			continue;
		struct scan_range *r = GROW(*out, n, *cap);

		r->a = sh.sh_offset;
		r->b = sh.sh_size > size - sh.sh_offset ? size : sh.sh_offset + sh.sh_size;
	}
	elf_end(e);
	if (!n)
		return 0;
	qsort(*out, n, sizeof(**out), range_cmp);
	for (i = 1, m = 0; i < n; i++) {
		if ((*out)[i].a <= (*out)[m].b) {
			if ((*out)[i].b > (*out)[m].b)
				(*out)[m].b = (*out)[i].b;
		} else {
			(*out)[++m] = (*out)[i];
		}
	}
	return m + 1;
}

int scan_elf_ranges(int fd, unsigned long long size, struct scan_range **out,
		    size_t *cap)
{
	return ranges_of(elf_begin(fd, ELF_C_READ, NULL), size, out, cap);
}

int scan_elf_ranges_mem(const void *buf, size_t size, struct scan_range **out,
			size_t *cap)
{
	/* elf_memory() takes a writable image, but ELF_C_READ never writes it. */
	return ranges_of(elf_memory((char *)buf, size), size, out, cap);
}
