/* mm.c - a toy slab allocator: every request is rounded up to a power-of-two
 * size class, as kmalloc() does.  Fires kmem:kmalloc and kmem:kfree. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "toy.h"
#include <events/kmem.h>

/* The caller's address, as the kernel's _RET_IP_. */
#define RET_IP ((unsigned long)__builtin_return_address(0))

static size_t kmalloc_size_class(size_t size)
{
	size_t class = 8;
	while (class < size)
		class <<= 1;
	return class;
}

void *kmalloc(size_t size)
{
	size_t alloc = kmalloc_size_class(size);
	void *ptr = malloc(alloc);

	/* Poison new objects, as SLUB debugging does.  This also keeps gcc 12
	 * (-O2 -Wall) from reporting "ptr may be used uninitialized" when fresh
	 * memory is passed to a tracepoint taking const void *. */
	if (ptr)
		memset(ptr, 0x5a, alloc);
	trace_kmalloc(RET_IP, ptr, size, ptr ? alloc : 0);
	return ptr;
}

void kfree(const void *ptr)
{
	if (!ptr)
		return;
	trace_kfree(RET_IP, ptr);
	free((void *)(uintptr_t)ptr);
}
