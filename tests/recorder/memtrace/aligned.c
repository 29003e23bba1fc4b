/* For tests/recorder/t_memtrace.sh: each aligned and array allocator once,
 * with a size of its own (memtrace records them as mem:malloc and
 * mem:realloc), then a posix_memalign that the C library refuses (an
 * alignment that is not a power of two: EINVAL, nothing recorded).  Prints
 * what each returned. */
#define _GNU_SOURCE
#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
	void *p = NULL, *q;
	int r = posix_memalign(&p, 64, 1001);
	printf("posix_memalign %d %d\n", r, p && (unsigned long)p % 64 == 0);
	free(p);
	p = aligned_alloc(64, 1088);
	printf("aligned_alloc %d\n", p && (unsigned long)p % 64 == 0);
	free(p);
	p = memalign(32, 1003);
	printf("memalign %d\n", p && (unsigned long)p % 32 == 0);
	free(p);
	p = valloc(1004);
	printf("valloc %d\n", p != NULL);
	free(p);
	p = pvalloc(1005);
	printf("pvalloc %d\n", p != NULL);
	free(p);
	p = malloc(16);
	q = reallocarray(p, 3, 337);
	printf("reallocarray %d\n", q != NULL);
	free(q ? q : p);
	p = NULL;
	r = posix_memalign(&p, 24, 1006);
	printf("posix_memalign(24) %s\n", r == EINVAL ? "EINVAL" : "not EINVAL");
	return 0;
}
