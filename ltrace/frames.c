/* A task's stack of pending frames (proc.h) and its index.  A return is
 * matched to the innermost frame with its return address and stack
 * pointer: a scan of the stack took time in proportion to its depth at
 * every return, and a program that never returns makes it as deep as it
 * likes.  The index hashes (return address, stack pointer) into one
 * bucket per frame; each bucket chains its frames innermost first
 * (struct frame's BELOW), so that pushing and popping the top, and
 * finding the innermost frame of a key, take a few steps whatever the
 * depth.  The hash is keyed by a random seed: the keys are the traced
 * program's to choose, and should not all fall into one bucket. */
#include "proc.h"

#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "calltext.h"
#include "xmalloc.h"

static uint64_t seed;

static void seed_init(void)
{
	if (getrandom(&seed, sizeof(seed), GRND_NONBLOCK) != sizeof(seed))
		seed = (uint64_t)(uintptr_t)&seed * 0x9e3779b97f4a7c15ULL;
	seed |= 1;
}

/* The bucket of the frames that return to RET with the stack pointer at
 * RET_SP (a multiply-xorshift mix of both words and the seed). */
static size_t bucket_of(const struct task *t, uint64_t ret, uint64_t ret_sp)
{
	uint64_t h = (ret ^ seed) * 0x9e3779b97f4a7c15ULL;
	h = (h ^ (h >> 29) ^ ret_sp) * 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 31;
	return (size_t)(h & (t->nbucket - 1));
}

/* Frame I becomes the innermost of its bucket: it must be above every
 * frame linked already. */
static void link_frame(struct task *t, size_t i)
{
	struct frame *f = &t->frames[i];
	uint32_t *b = &t->bucket[bucket_of(t, f->ret, f->ret_sp)];
	f->below = *b;
	*b = (uint32_t)(i + 1);
}

void task_reindex(struct task *t)
{
	if (!t->nbucket)
		return;
	memset(t->bucket, 0, t->nbucket * sizeof(*t->bucket));
	for (size_t i = 0; i < t->nframes; i++)
		link_frame(t, i);
}

/* Room for twice the frames, and as many buckets (a power of two). */
static void grow(struct task *t)
{
	if (!seed)
		seed_init();
	t->capframes = t->capframes ? 2 * t->capframes : 16;
	t->frames = xreallocarray(t->frames, t->capframes, sizeof(*t->frames));
	free(t->bucket);
	t->nbucket = t->capframes;
	t->bucket = xcalloc(t->nbucket, sizeof(*t->bucket));
	task_reindex(t);
}

struct frame *task_push_frame(struct task *t, uint64_t ret, uint64_t ret_sp)
{
	if (t->nframes == t->capframes)
		grow(t);
	struct frame *f = &t->frames[t->nframes];
	memset(f, 0, sizeof(*f));
	f->ret = ret;
	f->ret_sp = ret_sp;
	link_frame(t, t->nframes++);
	return f;
}

/* The innermost frame is the innermost of its bucket too. */
static void pop_top(struct task *t)
{
	struct frame *f = &t->frames[--t->nframes];
	t->bucket[bucket_of(t, f->ret, f->ret_sp)] = f->below;
	if (f->ct)
		calltext_free(f->ct);
}

void task_pop_frames(struct task *t, size_t i)
{
	while (t->nframes > i)
		pop_top(t);
}

long task_find_frame(const struct task *t, uint64_t ret, uint64_t ret_sp)
{
	if (!t->nframes)
		return -1;
	/* Most returns are the innermost call's: no hashing for them. */
	const struct frame *top = &t->frames[t->nframes - 1];
	if (top->ret == ret && top->ret_sp == ret_sp)
		return (long)t->nframes - 1;
	uint32_t k = t->bucket[bucket_of(t, ret, ret_sp)];
	for (; k; k = t->frames[k - 1].below)
		if (t->frames[k - 1].ret == ret &&
		    t->frames[k - 1].ret_sp == ret_sp)
			return (long)k - 1;
	return -1;
}

void task_drop_oldest(struct task *t, size_t n)
{
	if (n > t->nframes)
		n = t->nframes;
	for (size_t i = 0; i < n; i++)
		if (t->frames[i].ct)
			calltext_free(t->frames[i].ct);
	memmove(t->frames, t->frames + n,
		(t->nframes - n) * sizeof(*t->frames));
	t->nframes -= n;
	task_reindex(t);
}

void task_free_frames(struct task *t)
{
	task_pop_frames(t, 0);
	free(t->frames);
	free(t->bucket);
	t->frames = NULL;
	t->bucket = NULL;
	t->capframes = t->nbucket = 0;
}
