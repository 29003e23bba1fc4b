/* SPDX-License-Identifier: MIT */
/*
 * tools/dump/symbols.c - tracepoint-dump's %ps/%pS: the name of a traced
 * program's address, read from the symbol table of the file it was mapped
 * from; and the kernel's %s of a `const char *` field: the string at the
 * address, read from the file's read-only segments.  The recorder lists
 * the process's executable file mappings in the metadata (the "objects:"
 * comment, docs/trace-format.md); the reader
 * keeps them (reader.c) and this file maps an address to its file, its
 * link-time address and the symbol (.symtab, else .dynsym) that holds it.
 * A file read once per trace; one that is gone or changed since gives no
 * name, and the address is printed as the kernel prints one outside any
 * symbol ("0x...").
 *
 * Part of tracepoint-dump (dump.h has the map of its parts).
 */
#include "dump.h"
#include <elf.h>

/* The objects comment of a metadata text, into tr->obj. */
void objects_parse(struct trace *tr, const char *text, size_t len)
{
	static const char mark[] = "/* objects:\n";
	const char *p = NULL, *e = text + len, *q;
	size_t i, ml = sizeof(mark) - 1;
	for (i = 0; i + ml <= len; i++)
		if (text[i] == '/' && !memcmp(text + i, mark, ml)) {
			p = text + i + ml;
			break;
		}
	if (!p)
		return;
	while (p < e && *p == '\t') {
		unsigned long long lo, hi, off;
		int at = 0;
		char line[4200];
		size_t n;
		q = (const char *)memchr(p, '\n', (size_t)(e - p));
		if (!q)
			break;
		n = (size_t)(q - p);
		if (n < sizeof(line)) {
			memcpy(line, p, n);
			line[n] = '\0';
			if (sscanf(line, "\t%llx %llx %llx %n", &lo, &hi, &off, &at) == 3 && at &&
			    line[at] == '/') {
				struct object *o;
				GROW(tr->obj, tr->nobj, tr->capobj);
				o = &tr->obj[tr->nobj++];
				memset(o, 0, sizeof(*o));
				o->lo = lo;
				o->hi = hi;
				o->off = off;
				o->path = xstrdup(line + at);
			}
		}
		p = q + 1;
	}
}

void objects_free(struct trace *tr)
{
	size_t i;
	for (i = 0; i < tr->nobj; i++) {
		if (tr->obj[i].map)
			munmap(tr->obj[i].map, tr->obj[i].size);
		free(tr->obj[i].path);
	}
	free(tr->obj);
	tr->obj = NULL;
	tr->nobj = tr->capobj = 0;
}

/* Maps o's file and finds its symbol table (if any) and the bias of the
 * mapping: 0, or -1 (o->bad set).  The file is a trace's word: no FIFO may block
 * (O_NONBLOCK), no link is followed, every offset is checked, and what
 * is read of it is copied out (its offsets need not be aligned). */
static int object_load(struct object *o)
{
	int fd;
	struct stat sb;
	Elf64_Ehdr eh;
	unsigned i;
	o->loaded = 1;
	o->bad = 1;
	fd = open(o->path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0 || fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) ||
	    sb.st_size < (off_t)sizeof(Elf64_Ehdr)) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	o->size = (size_t)sb.st_size;
	o->map = (u8 *)mmap(NULL, o->size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (o->map == MAP_FAILED) {
		o->map = NULL;
		return -1;
	}
	memcpy(&eh, o->map, sizeof(eh));
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != (host_be() ? ELFDATA2MSB : ELFDATA2LSB) ||
	    eh.e_phoff > o->size || eh.e_phnum > (o->size - eh.e_phoff) / sizeof(Elf64_Phdr) ||
	    eh.e_shoff > o->size || eh.e_shnum > (o->size - eh.e_shoff) / sizeof(Elf64_Shdr))
		return -1;
	o->phoff = eh.e_phoff;
	o->phnum = eh.e_phnum;
	/* the segment the mapping's file offset is in: its link-time address */
	for (i = 0; i < eh.e_phnum; i++) {
		Elf64_Phdr ph;
		memcpy(&ph, o->map + eh.e_phoff + (size_t)i * sizeof(ph), sizeof(ph));
		if (ph.p_type == PT_LOAD && o->off >= (ph.p_offset & ~(uint64_t)0xfff) &&
		    o->off < ph.p_offset + ph.p_filesz) {
			o->bias = o->lo - (ph.p_vaddr - (ph.p_offset - o->off));
			o->have_bias = 1;
			break;
		}
	}
	for (i = 0; i < eh.e_shnum && o->have_bias; i++) {
		Elf64_Shdr sh, st;
		memcpy(&sh, o->map + eh.e_shoff + (size_t)i * sizeof(sh), sizeof(sh));
		if (!(sh.sh_type == SHT_SYMTAB || (sh.sh_type == SHT_DYNSYM && !o->sym)) ||
		    sh.sh_link >= eh.e_shnum)
			continue;
		memcpy(&st, o->map + eh.e_shoff + (size_t)sh.sh_link * sizeof(st), sizeof(st));
		if (sh.sh_offset > o->size || sh.sh_size > o->size - sh.sh_offset ||
		    st.sh_offset > o->size || st.sh_size > o->size - st.sh_offset)
			continue;
		o->sym = o->map + sh.sh_offset;
		o->nsym = (size_t)(sh.sh_size / sizeof(Elf64_Sym));
		o->str = (const char *)o->map + st.sh_offset;
		o->strsize = (size_t)st.sh_size;
	}
	if (!o->have_bias)
		return -1;
	o->bad = 0;
	return 0;
}

/* The symbol of addr as the kernel's %ps ("name") or %pS
 * ("name+0xoff/0xsize") prints it, into buf; 0 if no symbol is known. */
int symbol_of(struct trace *tr, uint64_t addr, int with_offset, char *buf, size_t len)
{
	size_t i, k;
	for (i = 0; i < tr->nobj; i++) {
		struct object *o = &tr->obj[i];
		Elf64_Sym best;
		int found = 0;
		uint64_t v;
		if (addr < o->lo || addr >= o->hi)
			continue;
		if (!o->loaded)
			object_load(o);
		if (o->bad)
			return 0;
		v = addr - o->bias;
		for (k = 0; k < o->nsym && !found; k++) {
			unsigned type;
			memcpy(&best, o->sym + k * sizeof(best), sizeof(best));
			type = ELF64_ST_TYPE(best.st_info);
			found = (type == STT_FUNC || type == STT_OBJECT) &&
				best.st_shndx != SHN_UNDEF && best.st_name < o->strsize &&
				v >= best.st_value &&
				v - best.st_value < (best.st_size ? best.st_size : 1);
		}
		if (!found || !memchr(o->str + best.st_name, 0, o->strsize - best.st_name))
			return 0;
		if (with_offset)
			snprintf(buf, len, "%s+0x%llx/0x%llx", o->str + best.st_name,
				 (unsigned long long)(v - best.st_value),
				 (unsigned long long)best.st_size);
		else
			snprintf(buf, len, "%s", o->str + best.st_name);
		return 1;
	}
	return 0;
}

/* The string at addr in a file of the traced program, as the kernel's %s
 * of a `const char *` field prints it (a string of the kernel's read-only
 * data, __tracepoint_string): its bytes up to the NUL, *n of them, if
 * addr is in a segment of a listed file that is loaded and not writable
 * (what a writable one holds at run time is not in the file); else NULL. */
const char *string_at(struct trace *tr, uint64_t addr, size_t *n)
{
	size_t i;
	unsigned k;
	for (i = 0; i < tr->nobj; i++) {
		struct object *o = &tr->obj[i];
		uint64_t v;
		if (!o->loaded)
			object_load(o);
		if (o->bad)
			continue;
		v = addr - o->bias;
		for (k = 0; k < o->phnum; k++) {
			Elf64_Phdr ph;
			const u8 *p, *z;
			uint64_t room;
			memcpy(&ph, o->map + o->phoff + (size_t)k * sizeof(ph), sizeof(ph));
			if (ph.p_type != PT_LOAD || (ph.p_flags & PF_W) || v < ph.p_vaddr ||
			    v - ph.p_vaddr >= ph.p_filesz || ph.p_offset > o->size ||
			    ph.p_filesz > o->size - ph.p_offset)
				continue;
			p = o->map + ph.p_offset + (v - ph.p_vaddr);
			room = ph.p_filesz - (v - ph.p_vaddr);
			z = (const u8 *)memchr(p, 0, (size_t)room);
			if (!z)
				return NULL;
			*n = (size_t)(z - p);
			return (const char *)p;
		}
	}
	return NULL;
}
