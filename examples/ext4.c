/* ext4.c - a filesystem of in-memory files whose writes are journalled.
 * Fires ext4:ext4_write_begin and ext4:ext4_sync_file. */
#include <string.h>
#include "toy.h"
#include <events/ext4.h>

#define EXT4_BLOCK_SIZE 1024

static struct journal ext4_journal = { "sda1", 1, 0, SPINLOCK_INIT("journal") };
struct ext4_file ext4_root_file = { 2, NULL, 0 };

long ext4_file_write(struct ext4_file *f, const void *buf, size_t len, long long pos)
{
	size_t end = (size_t)pos + len;
	unsigned long block;

	trace_ext4_write_begin(f->ino, pos, (unsigned int)len);
	if (end > f->size) {
		char *data = kmalloc(end);
		if (!data)
			return -1;
		if (f->data)
			memcpy(data, f->data, f->size);
		kfree(f->data);
		f->data = data;
		f->size = end;
	}
	memcpy(f->data + pos, buf, len);
	for (block = (unsigned long)pos / EXT4_BLOCK_SIZE; block * EXT4_BLOCK_SIZE < end; block++)
		jbd2_journal_dirty_block(&ext4_journal);
	return (long)len;
}

int ext4_sync_file(struct ext4_file *f, int datasync)
{
	trace_ext4_sync_file(f->ino, datasync);
	return jbd2_journal_commit(&ext4_journal);
}
