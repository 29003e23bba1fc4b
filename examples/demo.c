/* demo.c - attach a printing probe to every tracepoint that is compiled in,
 * run a small workload on the toy subsystems, and print each event as it
 * fires, one line each:   system:event field=value ...
 *
 * Which subsystems are compiled in is decided at build time, per subsystem:
 *   cc -Iinclude -Iexamples -DCONFIG_KMEMTRACE examples/[a-z]*.c -ldl
 * traces only the allocator; -DCONFIG_TRACEPOINTS_ALL traces everything.
 * register_trace_<name>() returns -ENOSYS for a compiled-out tracepoint. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "toy.h"

#include <events/kmem.h>
#include <events/ext4.h>
#include <events/jbd2.h>
#include <events/lock.h>
#include <events/module.h>
#include <events/timer.h>
#include <events/power.h>
#include <events/irq.h>
#include <events/syscalls.h>
#include <events/i915.h>
#include <events/sched.h>

/* ---- Probes: one per tracepoint, typed like it, plus the data pointer. ---- */

static void on_kmalloc(unsigned long call_site, const void *ptr, size_t bytes_req,
		       size_t bytes_alloc, void *data)
{
	(void)data;
	printf("kmem:kmalloc call_site=%#lx ptr=%p bytes_req=%zu bytes_alloc=%zu\n", call_site, ptr,
	       bytes_req, bytes_alloc);
}

static void on_kfree(unsigned long call_site, const void *ptr, void *data)
{
	(void)data;
	printf("kmem:kfree call_site=%#lx ptr=%p\n", call_site, ptr);
}

static void on_ext4_write_begin(unsigned long ino, long long pos, unsigned int len, void *data)
{
	(void)data;
	printf("ext4:ext4_write_begin ino=%lu pos=%lld len=%u\n", ino, pos, len);
}

static void on_ext4_sync_file(unsigned long ino, int datasync, void *data)
{
	(void)data;
	printf("ext4:ext4_sync_file ino=%lu datasync=%d\n", ino, datasync);
}

static void on_jbd2_start_commit(const char *dev, unsigned int tid, void *data)
{
	(void)data;
	printf("jbd2:jbd2_start_commit dev=%s tid=%u\n", dev, tid);
}

static void on_jbd2_end_commit(const char *dev, unsigned int tid, unsigned int blocks, void *data)
{
	(void)data;
	printf("jbd2:jbd2_end_commit dev=%s tid=%u blocks=%u\n", dev, tid, blocks);
}

static void on_lock_acquire(const void *lock, const char *name, int trylock, void *data)
{
	(void)data;
	(void)lock;
	printf("lock:lock_acquire name=%s trylock=%d\n", name, trylock);
}

static void on_lock_release(const void *lock, const char *name, void *data)
{
	(void)data;
	(void)lock;
	printf("lock:lock_release name=%s\n", name);
}

static void on_module_load(const char *name, unsigned int taints, void *data)
{
	(void)data;
	printf("module:module_load name=%s taints=%u\n", name, taints);
}

static void on_module_free(const char *name, void *data)
{
	(void)data;
	printf("module:module_free name=%s\n", name);
}

static void on_timer_start(const void *timer, unsigned long expires, unsigned long now, void *data)
{
	(void)data;
	printf("timer:timer_start timer=%p expires=%lu now=%lu\n", timer, expires, now);
}

static void on_timer_expire_entry(const void *timer, unsigned long now, void *data)
{
	(void)data;
	printf("timer:timer_expire_entry timer=%p now=%lu\n", timer, now);
}

static void on_power_start(unsigned int type, unsigned int state, void *data)
{
	(void)data;
	printf("power:power_start type=%u state=%u\n", type, state);
}

static void on_power_end(void *data)
{
	(void)data;
	printf("power:power_end\n");
}

static void on_power_frequency(unsigned int type, unsigned int state, void *data)
{
	(void)data;
	printf("power:power_frequency type=%u state=%u\n", type, state);
}

static void on_irq_handler_entry(int irq, const char *name, void *data)
{
	(void)data;
	printf("irq:irq_handler_entry irq=%d name=%s\n", irq, name);
}

static void on_irq_handler_exit(int irq, int ret, void *data)
{
	(void)data;
	printf("irq:irq_handler_exit irq=%d ret=%s\n", irq, ret ? "handled" : "unhandled");
}

static void on_sys_enter(long id, long arg0, long arg1, long arg2, void *data)
{
	(void)data;
	printf("syscalls:sys_enter NR %ld (%lx, %lx, %lx)\n", id, arg0, arg1, arg2);
}

static void on_sys_exit(long id, long ret, void *data)
{
	(void)data;
	printf("syscalls:sys_exit NR %ld = %ld\n", id, ret);
}

static void on_i915_gem_object_create(const void *obj, size_t size, void *data)
{
	(void)data;
	printf("i915:i915_gem_object_create obj=%p size=%zu\n", obj, size);
}

static void on_i915_gem_request_submit(unsigned int seqno, void *data)
{
	(void)data;
	printf("i915:i915_gem_request_submit seqno=%u\n", seqno);
}

static void on_i915_gem_request_complete(unsigned int seqno, void *data)
{
	(void)data;
	printf("i915:i915_gem_request_complete seqno=%u\n", seqno);
}

static void on_sched_wakeup(const char *comm, int pid, void *data)
{
	(void)data;
	printf("sched:sched_wakeup comm=%s pid=%d\n", comm, pid);
}

static void on_sched_switch(const char *prev_comm, int prev_pid, const char *next_comm,
			    int next_pid, void *data)
{
	(void)data;
	printf("sched:sched_switch prev_comm=%s prev_pid=%d ==> next_comm=%s next_pid=%d\n",
	       prev_comm, prev_pid, next_comm, next_pid);
}

/* Checks one registration.  -ENOSYS: the subsystem is compiled out (said once
 * per subsystem: the calls below come grouped by subsystem). */
static void attached(const char *system, int ret)
{
	static const char *reported;

	if (ret == -ENOSYS) {
		if (!reported || strcmp(reported, system) != 0)
			printf("%s: compiled out\n", system);
		reported = system;
	} else if (ret != 0) {
		fprintf(stderr, "%s: cannot attach probe: %s\n", system, strerror(-ret));
		exit(1);
	}
}

static void attach_probes(void)
{
	attached("sched", register_trace_sched_wakeup(on_sched_wakeup, NULL));
	attached("sched", register_trace_sched_switch(on_sched_switch, NULL));
	attached("kmem", register_trace_kmalloc(on_kmalloc, NULL));
	attached("kmem", register_trace_kfree(on_kfree, NULL));
	attached("ext4", register_trace_ext4_write_begin(on_ext4_write_begin, NULL));
	attached("ext4", register_trace_ext4_sync_file(on_ext4_sync_file, NULL));
	attached("jbd2", register_trace_jbd2_start_commit(on_jbd2_start_commit, NULL));
	attached("jbd2", register_trace_jbd2_end_commit(on_jbd2_end_commit, NULL));
	attached("lock", register_trace_lock_acquire(on_lock_acquire, NULL));
	attached("lock", register_trace_lock_release(on_lock_release, NULL));
	attached("module", register_trace_module_load(on_module_load, NULL));
	attached("module", register_trace_module_free(on_module_free, NULL));
	attached("timer", register_trace_timer_start(on_timer_start, NULL));
	attached("timer", register_trace_timer_expire_entry(on_timer_expire_entry, NULL));
	attached("power", register_trace_power_start(on_power_start, NULL));
	attached("power", register_trace_power_end(on_power_end, NULL));
	attached("power", register_trace_power_frequency(on_power_frequency, NULL));
	attached("irq", register_trace_irq_handler_entry(on_irq_handler_entry, NULL));
	attached("irq", register_trace_irq_handler_exit(on_irq_handler_exit, NULL));
	attached("syscalls", register_trace_sys_enter(on_sys_enter, NULL));
	attached("syscalls", register_trace_sys_exit(on_sys_exit, NULL));
	attached("i915", register_trace_i915_gem_object_create(on_i915_gem_object_create, NULL));
	attached("i915", register_trace_i915_gem_request_submit(on_i915_gem_request_submit, NULL));
	attached("i915",
		 register_trace_i915_gem_request_complete(on_i915_gem_request_complete, NULL));
}

/* ---- The workload: a few ticks in the life of the toy kernel. ---- */

static void writeback(struct timer_list *t)
{
	(void)t;
	do_syscall(NR_fsync, 3, 0, 0);
}

static void workload(void)
{
	static const char msg[] = "hello, journal";
	struct timer_list wb = { 0, writeback, NULL };
	void *batch;

	wake_up_process(1);
	schedule(); /* swapper -> init */
	load_module("i915");
	add_timer(&wb, jiffies + 2);
	do_syscall(NR_write, 3, (long)msg, (long)sizeof(msg));

	batch = i915_gem_create(4096);
	i915_gem_submit(batch);
	generic_handle_irq(16); /* the GPU says: done */
	kfree(batch);

	cpufreq_set(2400000);
	while (jiffies < 2) {
		run_timers(); /* the second tick syncs the file */
		cpu_idle(1);
	}
	delete_module("i915");
}

int main(void)
{
	attach_probes();
	workload();
	/* Detaching is symmetric (unregister_trace_<name>); a program that
	 * frees its probe data afterwards calls tracepoint_synchronize_unregister()
	 * first.  This one just exits. */
	return 0;
}
