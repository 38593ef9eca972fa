/* The recorder's shadow stacks (DESIGN.md, "The recorder"): a thread's,
 * found or claimed by its TCB, and its entries pushed, popped and
 * dropped when the stack pointer says their frames are gone.  Part of
 * the blob: included by recorder.c only, freestanding. */
#ifndef LTRACE_RECSHADOW_H
#define LTRACE_RECSHADOW_H

#include <stdint.h>

#include "recarch.h"
#include "recorder/ring.h"

/* The first shadow stack to look at for THREAD, of N (a power of two). */
static uint64_t hash_thread(uint64_t thread, uint32_t n)
{
	return ((thread >> 4) * 0x9e3779b97f4a7c15ull >> 32) & (n - 1);
}

static struct rec_shadow *shadow_at(const struct rec_shared *s, uint64_t i)
{
	return (struct rec_shadow *)(s->shadow + i * rec_shadow_size(s->depth));
}

/* THREAD's shadow stack, or NULL.  Only THREAD claims one for itself (a
 * handler of it may interrupt the claim), so looking along the probe
 * sequence up to the first never-used one finds its own if it has
 * one; only then is one claimed, the first never-used or freed (whose
 * state and pending words the tracer left 0: a handler may use the shadow stack
 * as soon as the claim is made). */
static struct rec_shadow *shadow_of(struct rec_shared *s, uint64_t thread,
				    int claim)
{
	uint32_t n = s->nshadow;
	if (!n || thread <= REC_SHADOW_FREE)
		return NULL;
	uint64_t first = hash_thread(thread, n);
	for (uint64_t k = 0, i = first; k < n; k++, i = (i + 1) & (n - 1)) {
		struct rec_shadow *sh = shadow_at(s, i);
		uint64_t o = __atomic_load_n(&sh->owner, __ATOMIC_ACQUIRE);
		if (o == thread)
			return sh;
		if (!o)
			break;
	}
	for (uint64_t k = 0, i = first; claim && k < n;
	     k++, i = (i + 1) & (n - 1)) {
		struct rec_shadow *sh = shadow_at(s, i);
		uint64_t o = __atomic_load_n(&sh->owner, __ATOMIC_ACQUIRE);
		if ((o == 0 || o == REC_SHADOW_FREE) &&
		    __atomic_compare_exchange_n(&sh->owner, &o, thread, 0,
						__ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE))
			return sh;
		if (o == thread)
			return sh;
	}
	return NULL;
}

static uint64_t state_next(uint64_t w, uint64_t depth)
{
	return ((w >> 16) + 1) << 16 | depth;
}

/* Whether the entry at SP is of a frame gone below a stack pointer of
 * HERE (a longjmp or an exception left it, or a TCB was reused): at or
 * below HERE (below only, if not INCLUSIVE), on the same stack. */
static int gone(const struct rec_shared *s, uint64_t sp, uint64_t here,
		int inclusive)
{
	if (sp > here || (sp == here && !inclusive))
		return 0;
	return here - sp <= s->stack_span;
}

/* Drop the entries on top of SH that the stack pointer HERE says are
 * gone. */
static void shadow_resync(struct rec_shared *s, struct rec_shadow *sh,
			  uint64_t here, int inclusive)
{
	for (;;) {
		uint64_t w = __atomic_load_n(&sh->state, __ATOMIC_RELAXED);
		uint64_t d = w & 0xffff, n = d;
		while (n && gone(s, sh->e[n - 1].sp, here, inclusive))
			n--;
		if (n == d)
			return;
		if (rec_local_cas(&sh->state, w, state_next(w, n))) {
			__atomic_fetch_add(&s->unwound, d - n,
					   __ATOMIC_RELAXED);
			return;
		}
	}
}

/* Push E; a handler that pushed or popped between the write and the
 * state's change makes it write again. */
static int shadow_push(const struct rec_shared *s, struct rec_shadow *sh,
		       const struct rec_shadow_entry *e)
{
	for (;;) {
		uint64_t w = __atomic_load_n(&sh->state, __ATOMIC_RELAXED);
		uint64_t d = w & 0xffff;
		if (d >= s->depth)
			return 0;
		sh->e[d] = *e;
		__asm__ volatile("" ::: "memory");
		if (rec_local_cas(&sh->state, w, state_next(w, d + 1)))
			return 1;
	}
}

/* Pop the entry whose stack pointer is SP and every one above it into
 * E (only if it is on top, with TOP); 0 if there is none. */
static int shadow_pop(struct rec_shared *s, struct rec_shadow *sh, uint64_t sp,
		      struct rec_shadow_entry *e, int top)
{
	for (;;) {
		uint64_t w = __atomic_load_n(&sh->state, __ATOMIC_RELAXED);
		uint64_t d = w & 0xffff, n = d;
		while (n && sh->e[n - 1].sp != sp && !top)
			n--;
		if (!n || sh->e[n - 1].sp != sp)
			return 0;
		*e = sh->e[n - 1];
		__asm__ volatile("" ::: "memory");
		if (rec_local_cas(&sh->state, w, state_next(w, n - 1))) {
			if (d > n)
				__atomic_fetch_add(&s->unwound, d - n,
						   __ATOMIC_RELAXED);
			return 1;
		}
	}
}

#endif
