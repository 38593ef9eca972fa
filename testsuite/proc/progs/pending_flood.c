/* Pending calls that never return, for the tracer to keep.  First N
 * calls of bsearch whose callback longjmps out (__builtin_longjmp: no
 * traced call), each from the same site with the same stack pointer:
 * the tracer keeps every one as a tail call of the one before.  Then,
 * under --fast (the recorder's ring found in this process), M call
 * records written straight into the ring, each deeper on the stack
 * than the last, none ever returning, 16 MiB below its own stack
 * (where no call of its own says they have returned).  With READY and STOP, it then
 * waits until the tracer has read the ring, writes its pid to READY and
 * waits for STOP to exist; last it prints what it did.
 * Usage: pending_flood N M [READY STOP] */
#include <sched.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../../../sysdeps/linux-gnu/recorder/ring.h"

static void *jb[5];
static const int one = 1;

static int leave(const void *key, const void *elt)
{
	(void)key;
	(void)elt;
	__builtin_longjmp(jb, 1);
}

static void __attribute__((noinline)) enter(void)
{
	long key = 1;
	bsearch(&key, &one, 1, sizeof(one), leave);
}

/* The recorder's shared struct (ring.h) in this process: the writable
 * private mapping that starts with its magic; NULL without one (ptrace
 * mode). */
static struct rec_shared *ring_find(void)
{
	FILE *maps = fopen("/proc/self/maps", "r");
	char line[512];
	struct rec_shared *s = NULL;
	unsigned long lo, hi;
	char perm[8];
	while (maps && !s && fgets(line, sizeof(line), maps))
		if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perm) == 3 &&
		    !strcmp(perm, "rw-p") && hi - lo >= sizeof(*s) &&
		    *(volatile uint64_t *)lo == REC_MAGIC)
			s = (struct rec_shared *)lo;
	if (maps)
		fclose(maps);
	return s;
}

/* Reserve LEN bytes of the ring as the recorder does (a pad first if
 * they would cross the end of the lap, written here): their position,
 * or -1 if the tracer gave no room back for 30 s. */
static int64_t reserve(struct rec_shared *s, uint64_t len, time_t start)
{
	for (;;) {
		uint64_t t = __atomic_load_n(&s->tail, __ATOMIC_ACQUIRE);
		uint64_t h = __atomic_load_n(&s->head, __ATOMIC_RELAXED);
		uint64_t off = h & (s->size - 1);
		uint64_t pad = off + len > s->size ? s->size - off : 0;
		if (h + pad + len - t > s->size) {
			if (time(NULL) - start > 30)
				return -1;
			sched_yield();
			continue;
		}
		if (!__atomic_compare_exchange_n(&s->head, &h, h + pad + len,
						 0, __ATOMIC_ACQ_REL,
						 __ATOMIC_RELAXED))
			continue;
		if (pad) {
			struct rec_hdr *p = (void *)(s->data + off);
			p->size = (uint32_t)pad;
			p->type = REC_PAD;
			p->flags = 0;
			__atomic_store_n(&p->commit, rec_commit_word(h),
					 __ATOMIC_RELEASE);
		}
		return (int64_t)(h + pad);
	}
}

/* A call record of function 0 at stack pointer SP, as the recorder
 * writes one, its return hooked: the tracer waits for its return
 * record, which never comes. */
static int append(struct rec_shared *s, uint64_t tcb, uint64_t sp,
		  time_t start)
{
	uint64_t len = rec_align(sizeof(struct rec_call));
	int64_t pos = reserve(s, len, start);
	if (pos < 0)
		return 0;
	struct rec_call *r = (void *)(s->data + ((uint64_t)pos & (s->size - 1)));
	for (size_t i = 0; i < sizeof(*r) / sizeof(uint64_t); i++)
		((volatile uint64_t *)r)[i] = 0; /* no traced memset */
	r->h.size = (uint32_t)len;
	r->h.type = REC_CALL;
	r->h.flags = REC_CALL_HOOKED;
	r->thread = tcb;
	r->site = (uint64_t)(uintptr_t)&enter;
	r->sp = sp;
	__atomic_store_n(&r->h.commit, rec_commit_word(pos), __ATOMIC_RELEASE);
	return 1;
}

static long flood(long m)
{
	struct rec_shared *s = ring_find();
	if (!s || !s->nfunc)
		return 0;
	uint64_t tcb;
	__asm__ volatile("mov %%fs:0, %0" : "=r"(tcb));
	/* 16 MiB below: beyond the 8 MiB within which the tracer takes a
	 * call higher on the stack (sched_yield, here) as returned from
	 * those below it. */
	uint64_t sp = (uint64_t)(uintptr_t)&tcb - (16 << 20);
	time_t start = time(NULL);
	long k = 0;
	for (; k < m && append(s, tcb, sp - 16 * (uint64_t)k, start); k++)
		;
	while (__atomic_load_n(&s->tail, __ATOMIC_ACQUIRE) !=
		       __atomic_load_n(&s->head, __ATOMIC_RELAXED) &&
	       time(NULL) - start < 60)
		usleep(1000);
	return k;
}

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	long n = atol(argv[1]), m = atol(argv[2]);
	volatile long left = 0;
	for (long i = 0; i < n; i++) {
		if (!__builtin_setjmp(jb))
			enter();
		left++;
	}
	(void)flood(m);
	if (argc > 4) {
		FILE *f = fopen(argv[3], "w");
		fprintf(f, "%d\n", (int)getpid());
		fclose(f);
		while (access(argv[4], F_OK))
			usleep(10000);
	}
	printf("left %ld calls\n", (long)left);
	return 0;
}
