/* tracepoints.c - the one place where the tracepoints are defined.
 *
 * Each DEFINE_TRACE follows its own event header: it must see the same
 * TRACE_CONFIG decision as the DECLARE_TRACE it defines, and tracepoint.h
 * checks this at compile time.  In a compiled-out subsystem DEFINE_TRACE
 * emits nothing. */
#include <events/kmem.h>
DEFINE_TRACE(kmalloc);
DEFINE_TRACE(kfree);

#include <events/ext4.h>
DEFINE_TRACE(ext4_write_begin);
DEFINE_TRACE(ext4_sync_file);

#include <events/jbd2.h>
DEFINE_TRACE(jbd2_start_commit);
DEFINE_TRACE(jbd2_end_commit);

#include <events/lock.h>
DEFINE_TRACE(lock_acquire);
DEFINE_TRACE(lock_release);

#include <events/module.h>
DEFINE_TRACE(module_load);
DEFINE_TRACE(module_free);

#include <events/timer.h>
DEFINE_TRACE(timer_start);
DEFINE_TRACE(timer_expire_entry);

#include <events/power.h>
DEFINE_TRACE(power_start);
DEFINE_TRACE(power_end);
DEFINE_TRACE(power_frequency);

#include <events/irq.h>
DEFINE_TRACE(irq_handler_entry);
DEFINE_TRACE(irq_handler_exit);

#include <events/syscalls.h>
DEFINE_TRACE(sys_enter);
DEFINE_TRACE(sys_exit);

#include <events/i915.h>
DEFINE_TRACE(i915_gem_object_create);
DEFINE_TRACE(i915_gem_request_submit);
DEFINE_TRACE(i915_gem_request_complete);

/* Unconverted (no TRACE_CONFIG): always compiled in, wherever it comes. */
#include <events/sched.h>
DEFINE_TRACE(sched_wakeup);
DEFINE_TRACE(sched_switch);
