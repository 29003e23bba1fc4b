/* Reading the static-key jump table and the code it points at, for
 * test_patching.c and test_patching_denied.c (include after tracepoint.h). */
#ifndef PATCH_COMMON_H
#define PATCH_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#if TRACEPOINT_STATIC_KEYS
enum site_state { SITE_IDLE, SITE_JUMP, SITE_OTHER };
#if defined(__x86_64__)
#define SITE_BYTES 5
#else
#define SITE_BYTES 4
#endif

static inline const unsigned char *site_addr(const struct tp__jump_entry *e)
{
	return (const unsigned char *)&e->site + e->site;
}

static inline const unsigned char *target_addr(const struct tp__jump_entry *e)
{
	return (const unsigned char *)&e->target + e->target;
}

/* Where a direct jump at p goes (x86-64 e9 rel32 or eb rel8, aarch64 b),
 * or NULL if p holds no such jump. */
static inline const unsigned char *jump_dest(const unsigned char *p)
{
#if defined(__x86_64__)
	int32_t rel;
	if (p[0] == 0xeb)
		return p + 2 + (signed char)p[1];
	if (p[0] != 0xe9)
		return NULL;
	memcpy(&rel, (const void *)(p + 1), 4);
	return p + 5 + rel;
#else
	uint32_t insn;
	memcpy(&insn, (const void *)p, 4);
	if ((insn & 0xfc000000u) != 0x14000000u)
		return NULL;
	return p + (int64_t)((int32_t)(insn << 6) >> 6) * 4;
#endif
}

/* Idle (x86-64 0xa9 test, aarch64 nop), a jump to the entry's own target
 * or to where a jump at that target goes (x86-64 0xe9 rel32, aarch64 b),
 * or anything else. */
static inline enum site_state site_state(const struct tp__jump_entry *e)
{
	const unsigned char *s = site_addr(e);
	const unsigned char *t = target_addr(e), *via = jump_dest(t);
#if defined(__x86_64__)
	int32_t rel;
	unsigned char op = s[0];
	memcpy(&rel, (const void *)(s + 1), 4);
	/* only the opcode flips; the displacement is the target's, or (set
	 * by the first enable, kept while idle) where the target jumps to */
	if (s + 5 + rel != t && s + 5 + rel != via)
		return SITE_OTHER;
	return op == 0xa9 ? SITE_IDLE : op == 0xe9 ? SITE_JUMP : SITE_OTHER;
#else
	uint32_t insn;
	memcpy(&insn, (const void *)s, 4);
	if (insn == 0xd503201fu)
		return SITE_IDLE;
	if (jump_dest(s) == t || (via && jump_dest(s) == via))
		return SITE_JUMP;
	return SITE_OTHER;
#endif
}

/* Counts the sites of key in this module's table, by state. */
struct site_count {
	int idle, jump, other;
};

static inline struct site_count count_sites(const struct tracepoint *key)
{
	struct site_count c = { 0, 0, 0 };
	for (const struct tp__jump_entry *e = __start_tp__jump; e < __stop_tp__jump; e++) {
		if (tp__jump_key(e) != key)
			continue;
		switch (site_state(e)) {
		case SITE_IDLE:
			c.idle++;
			break;
		case SITE_JUMP:
			c.jump++;
			break;
		default:
			c.other++;
			break;
		}
	}
	return c;
}
#endif /* TRACEPOINT_STATIC_KEYS */

/* The permissions ("r-xp") of the mapping holding addr, from /proc/self/maps. */
static inline int mapping_perms(const void *addr, char perms[5])
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	int found = 0;
	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;
		char p[5];
		if (sscanf(line, "%lx-%lx %4s", &lo, &hi, p) != 3)
			continue;
		if ((uintptr_t)addr >= lo && (uintptr_t)addr < hi) {
			memcpy(perms, p, 5);
			found = 1;
		}
	}
	fclose(f);
	return found;
}

#endif /* PATCH_COMMON_H */
