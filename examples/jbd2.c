/* jbd2.c - a journal: blocks dirtied by the filesystem are grouped into a
 * transaction that commit writes out as a whole.  Fires jbd2:jbd2_start_commit
 * and jbd2:jbd2_end_commit. */
#include "toy.h"
#include <events/jbd2.h>

void jbd2_journal_dirty_block(struct journal *j)
{
	spin_lock(&j->lock);
	j->dirty++;
	spin_unlock(&j->lock);
}

int jbd2_journal_commit(struct journal *j)
{
	unsigned int tid, blocks;

	spin_lock(&j->lock);
	tid = j->tid++;
	blocks = j->dirty;
	j->dirty = 0;
	spin_unlock(&j->lock);

	trace_jbd2_start_commit(j->dev, tid);
	/* A real journal writes the descriptor, the blocks and a commit record. */
	trace_jbd2_end_commit(j->dev, tid, blocks);
	return 0;
}
