/* toy.h - the interfaces of the toy "kernel" subsystems in this directory.
 *
 * Each subsystem is a few lines of ordinary code that fires its tracepoints
 * (trace_<name>(...)); demo.c runs them and prints every event. */
#ifndef TOY_H
#define TOY_H

#include <stddef.h>

/* mm.c: a slab allocator with power-of-two size classes. */
void *kmalloc(size_t size);
void kfree(const void *ptr);

/* lock.c: a spinlock that knows its name. */
struct spinlock {
	const char *name;
	int locked;
};
#define SPINLOCK_INIT(n) { n, 0 }
void spin_lock(struct spinlock *lock);
int spin_trylock(struct spinlock *lock);
void spin_unlock(struct spinlock *lock);

/* jbd2.c: a journal that commits dirty blocks in transactions. */
struct journal {
	const char *dev;
	unsigned int tid;   /* transaction being built */
	unsigned int dirty; /* blocks dirtied in it */
	struct spinlock lock;
};
void jbd2_journal_dirty_block(struct journal *j);
int jbd2_journal_commit(struct journal *j);

/* ext4.c: in-memory files whose writes go through the journal. */
struct ext4_file {
	unsigned long ino;
	char *data;
	size_t size;
};
long ext4_file_write(struct ext4_file *f, const void *buf, size_t len, long long pos);
int ext4_sync_file(struct ext4_file *f, int datasync);
extern struct ext4_file ext4_root_file;

/* timer.c: a timer wheel driven by jiffies. */
struct timer_list {
	unsigned long expires;
	void (*function)(struct timer_list *t);
	struct timer_list *next;
};
extern unsigned long jiffies;
void add_timer(struct timer_list *t, unsigned long expires);
void run_timers(void); /* one tick: advances jiffies, runs what expired */

/* irq.c: interrupt lines and their handlers. */
typedef int (*irq_handler_t)(int irq, void *dev);
int request_irq(int irq, irq_handler_t handler, const char *name, void *dev);
void free_irq(int irq);
void generic_handle_irq(int irq);

/* module.c: a loader for the built-in modules. */
int load_module(const char *name);
int delete_module(const char *name);

/* power.c: CPU idle and frequency states. */
enum { POWER_CSTATE = 1, POWER_PSTATE = 2 };
void cpu_idle(unsigned int cstate);
void cpufreq_set(unsigned int khz);

/* syscall.c: the system call entry. */
enum { NR_write = 1, NR_getpid = 39, NR_fsync = 74 };
long do_syscall(long nr, long arg0, long arg1, long arg2);

/* i915.c: a graphics driver: buffer objects and GPU requests. */
int i915_init(void);
void i915_exit(void);
void *i915_gem_create(size_t size);
unsigned int i915_gem_submit(void *obj);

/* sched.c: a round-robin scheduler over three tasks. */
void wake_up_process(int pid);
void schedule(void);

#endif /* TOY_H */
