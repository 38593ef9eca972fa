/* A program that makes every call the --fast recorder records build its
 * record on the stack and hand it over by a trap (its shadow stack's
 * count of writers pending set to 1, as if a signal handler had
 * interrupted one), while a second thread rewrites each such call
 * record, once committed, between its own bytes and a header whose size,
 * used bytes and first chunk reach a megabyte past it: a tracer that
 * reads the record twice may take the size of one read for the bytes of
 * the other.  N calls of strlen("hello"); untraced, or in ptrace mode,
 * there is no recorder: the calls are made all the same.  Each call is
 * made on a stack of its own, never used again: the second thread may
 * write a record's old place after the call went on.
 * Usage: fast_flip N */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>

#include "recfind.h"
#include "../../../sysdeps/linux-gnu/recorder/plan.h"

static struct rec_shared *s;
static volatile int done;
static char *volatile stack_hi;
static ucontext_t back, one;
static long total;

#define STACK (16 << 10)

/* Whether C is the committed synchronous call record number SEQ. */
static int is_call(const struct rec_call *c, uint64_t seq)
{
	return __atomic_load_n(&c->h.commit, __ATOMIC_ACQUIRE) ==
		       rec_commit_word(REC_SYNC_BIT | seq) &&
	       c->h.type == REC_CALL;
}

/* The committed synchronous call record number SEQ in [lo, hi), or NULL;
 * where the last one was looked at first. */
static struct rec_call *find(uint64_t seq, char *lo, char *hi)
{
	static struct rec_call *last;
	if (last && is_call(last, seq))
		return last;
	lo = (char *)((uintptr_t)lo & ~(uintptr_t)15);
	for (char *at = lo; at + sizeof(struct rec_call) <= hi; at += 16)
		if (is_call((struct rec_call *)at, seq))
			return last = (struct rec_call *)at;
	return NULL;
}

static struct rec_shadow *own;

/* The words of a call record the flips change: its size (with type and
 * flags), its used bytes (with func), its first chunk's address and
 * length; by their index in the record's 64-bit words. */
static const int words[] = { 1, 4, 14, 15 };
#define NWORDS (int)(sizeof(words) / sizeof(words[0]))
_Static_assert(sizeof(struct rec_call) == 14 * 8, "a call record's words");

/* Swap the words of W, at C, from FROM to TO, each by a compare and
 * swap, in order; at the first that holds something else (the writer
 * went on and its stack is live again), those done are swapped back.
 * A plain store there would write over the program's own frames:
 * it crashed, 1 run in 30 under load. */
static int swap(uint64_t *w, const uint64_t *from, const uint64_t *to)
{
	for (int i = 0; i < NWORDS; i++) {
		uint64_t want = from[i];
		if (__atomic_compare_exchange_n(&w[words[i]], &want, to[i], 0,
						__ATOMIC_SEQ_CST,
						__ATOMIC_SEQ_CST))
			continue;
		while (i-- > 0) {
			want = to[i];
			(void)__atomic_compare_exchange_n(
				&w[words[i]], &want, from[i], 0,
				__ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
		}
		return 0;
	}
	return 1;
}

/* Rewrite C, record SEQ, between its bytes and the bad header while
 * its writer is inside it (stopped at its trap). */
static void flip(struct rec_call *c, uint64_t seq)
{
	struct rec_call bad = *c;
	struct plan_chunk ch0 = *(struct plan_chunk *)(c + 1);
	struct plan_chunk badch = ch0;
	badch.addr = ch0.addr - (1u << 20);
	badch.len = (1u << 20) + 64;
	bad.h.size = 2u << 20;
	bad.used = (2u << 20) - sizeof(*c);
	uint64_t *w = (uint64_t *)c, good_w[NWORDS], bad_w[NWORDS];
	uint64_t img[16];
	memcpy(img, c, sizeof(*c));
	memcpy(img + 14, &ch0, sizeof(ch0));
	for (int i = 0; i < NWORDS; i++)
		good_w[i] = img[words[i]];
	memcpy(img, &bad, sizeof(bad));
	memcpy(img + 14, &badch, sizeof(badch));
	for (int i = 0; i < NWORDS; i++)
		bad_w[i] = img[words[i]];
	while (!done && own->pending > 1 && is_call(c, seq) &&
	       swap(w, good_w, bad_w) && swap(w, bad_w, good_w))
		;
}

static void *flipper(void *arg)
{
	(void)arg;
	while (!done) {
		uint64_t seq = __atomic_load_n(&s->sync_seq, __ATOMIC_ACQUIRE);
		char *hi = stack_hi;
		struct rec_call *c = hi ? find(seq, hi - STACK, hi) : NULL;
		if (c)
			flip(c, seq);
	}
	return NULL;
}

/* This thread's shadow stack, or NULL. */
static struct rec_shadow *own_shadow(void)
{
	uint64_t tcb;
	__asm__("mov %%fs:0, %0" : "=r"(tcb));
	uint64_t size = rec_shadow_size(s->depth);
	for (uint32_t i = 0; i < s->nshadow; i++) {
		struct rec_shadow *sh =
			(struct rec_shadow *)(s->shadow + i * size);
		if (sh->owner == tcb)
			return sh;
	}
	return NULL;
}

static void one_call(void)
{
	total += (long)strlen("hello");
}

/* A call of strlen on a stack of its own. */
static int call_apart(void)
{
	char *st = mmap(NULL, STACK, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (st == MAP_FAILED || getcontext(&one))
		return -1;
	one.uc_stack.ss_sp = st;
	one.uc_stack.ss_size = STACK;
	one.uc_link = &back;
	makecontext(&one, one_call, 0);
	stack_hi = st + STACK;
	return swapcontext(&back, &one);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 200;
	for (int i = 0; i < 5; i++)
		total += (long)strlen("warm");
	s = rec_find();
	struct rec_shadow *sh = s ? own_shadow() : NULL;
	pthread_t th;
	if (sh) {
		own = sh;
		sh->pending = 1;
		pthread_create(&th, NULL, flipper, NULL);
	}
	for (long i = 0; i < n; i++)
		if (call_apart())
			return 1;
	done = 1;
	if (sh) {
		pthread_join(th, NULL);
		sh->pending = 0;
	}
	printf("total %ld%s\n", total, s && !sh ? " (no shadow stack)" : "");
	return 0;
}
