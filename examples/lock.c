/* lock.c - a spinlock.  Fires lock:lock_acquire and lock:lock_release. */
#include <sched.h>
#include "toy.h"
#include <events/lock.h>

void spin_lock(struct spinlock *lock)
{
	trace_lock_acquire(lock, lock->name, 0);
	while (__atomic_exchange_n(&lock->locked, 1, __ATOMIC_ACQUIRE))
		sched_yield();
}

int spin_trylock(struct spinlock *lock)
{
	trace_lock_acquire(lock, lock->name, 1);
	return !__atomic_exchange_n(&lock->locked, 1, __ATOMIC_ACQUIRE);
}

void spin_unlock(struct spinlock *lock)
{
	trace_lock_release(lock, lock->name);
	__atomic_store_n(&lock->locked, 0, __ATOMIC_RELEASE);
}
