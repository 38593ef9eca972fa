/* The --fast recorder (issue 12; DESIGN.md, "The recorder"): the C half
 * of the blob the tracer maps into the traced process.  Freestanding
 * (no libc), position-independent and relocation-free: every symbol is
 * hidden, so each reference is RIP-relative, and the RW part (struct
 * rec_shared, at the linker script's rec_rw) is found the same way.
 *
 * rec_enter records a call and picks its target; rec_leave records a
 * return and gives the original return address.  Both run on the
 * program's stack, in any thread, and may be interrupted anywhere by a
 * signal handler of the same thread that makes traced calls: the ring
 * is shared through compare-and-swap, and the thread's shadow stack
 * through a state word that any push or pop changes (ring.h). */
#pragma GCC visibility push(hidden)

#include <stddef.h>
#include <stdint.h>

#include "recarch.h"
#include "recorder/plan.h"
#include "recorder/planrun.h"
#include "recorder/ring.h"
#include "recorder/recshadow.h"

extern struct rec_shared rec_rw;
extern char rec_return[];
void rec_trap_full(void);
void rec_trap_sync(struct rec_hdr *h);
uint64_t rec_enter(struct rec_frame *f);
uint64_t rec_leave(struct rec_rframe *f);
uint64_t rec_copy(void *dst, const void *src, uint64_t n);
void *memcpy(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);

typedef uint64_t __attribute__((may_alias)) rec_word;

/* The compiler may call these for copies and clears of structs (a
 * shadow entry is 80 bytes: word by word, when aligned).  The barriers
 * keep GCC from turning the loops into calls of memcpy itself. */
void *memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	if (!(((uintptr_t)d | (uintptr_t)s | n) & 7)) {
		rec_word *dw = dst;
		const rec_word *sw = src;
		for (size_t i = 0; i < n / 8; i++) {
			dw[i] = sw[i];
			__asm__ volatile("" ::: "memory");
		}
		return dst;
	}
	while (n--) {
		*d++ = *s++;
		__asm__ volatile("" ::: "memory");
	}
	return dst;
}

void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;
	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}

static void *ring_at(const struct rec_shared *s, uint64_t pos)
{
	return (char *)s->data + (pos & (s->size - 1));
}

static void publish(struct rec_shared *s, uint64_t pos, struct rec_hdr *h)
{
	if (h->type != REC_PAD)
		__atomic_fetch_add(&s->records, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&h->commit, rec_commit_word(pos), __ATOMIC_RELEASE);
}

/* The smallest page size: a word written every REC_PAGE_MIN bytes
 * writes every page, whatever the kernel's page size. */
#define REC_PAGE_MIN 4096

/* A pad of LEN bytes at POS.  Every page of it is written, as a
 * record's are: the tracer copies the pages that committed records
 * covered in bulk, which is safe only for pages written since the ring
 * was mapped (fastdrain.c, copy_ring). */
static void put_pad(struct rec_shared *s, uint64_t pos, uint64_t len)
{
	struct rec_hdr *h = ring_at(s, pos);
	for (uint64_t o = REC_PAGE_MIN - (pos & (REC_PAGE_MIN - 1)); o < len;
	     o += REC_PAGE_MIN)
		*(volatile rec_word *)((char *)h + o) = 0;
	h->size = (uint32_t)len;
	h->type = REC_PAD;
	h->flags = 0;
	publish(s, pos, h);
}

/* The thread's writers between reservation and commit, in its shadow stack SH
 * (one instruction: atomic against the thread's own handlers). */
static void pending_add(struct rec_shadow *sh, long n)
{
	if (sh)
		__asm__ volatile("addq %1, %0" : "+m"(sh->pending) : "er"(n));
}

/* LEN bytes of the ring (a multiple of REC_ALIGN, at most size / 2):
 * their position.  A record that would straddle the end takes the rest
 * of the lap as a pad before it.  A full ring traps to the tracer.  SH
 * is the thread's shadow stack, whose PENDING the caller counted itself in. */

static uint64_t reserve(struct rec_shared *s, struct rec_shadow *sh,
			uint64_t len)
{
	uint64_t size = s->size;
	for (;;) {
		/* TAIL first: a later HEAD is never below it. */
		uint64_t t = __atomic_load_n(&s->tail, __ATOMIC_ACQUIRE);
		uint64_t h = __atomic_load_n(&s->head, __ATOMIC_RELAXED);
		uint64_t off = h & (size - 1);
		uint64_t pad = off + len > size ? size - off : 0;
		if (h + pad + len - t > size) {
			__atomic_fetch_add(&s->full_traps, 1, __ATOMIC_RELAXED);
			/* A signal is often delivered as the tracer resumes
			 * the thread: its handler need not take the slow
			 * way, as nothing is reserved yet. */
			pending_add(sh, -1);
			rec_trap_full();
			pending_add(sh, 1);
			continue;
		}
		if (__atomic_compare_exchange_n(&s->head, &h, h + pad + len, 0,
						__ATOMIC_ACQ_REL,
						__ATOMIC_RELAXED)) {
			if (pad)
				put_pad(s, h, pad);
			return h + pad;
		}
	}
}

/* The record at POS reserved LEN bytes and uses USED (both multiples of
 * REC_ALIGN): give the rest back, by moving HEAD back if nobody
 * reserved after it, else as a pad. */
static void give_back(struct rec_shared *s, uint64_t pos, uint64_t len,
		      uint64_t used)
{
	uint64_t end = pos + len;
	if (used == len ||
	    __atomic_compare_exchange_n(&s->head, &end, pos + used, 0,
					__ATOMIC_RELAXED, __ATOMIC_RELAXED))
		return;
	put_pad(s, pos + used, len - used);
}

/* A copy by system call: the recorder reads its own process's memory
 * with process_vm_readv, so a bad address fails with EFAULT instead of
 * faulting.  The pid is the tracer's word (a fork's child gets its own
 * from the tracer before it runs). */
static uint64_t copy_sys(const struct rec_shared *s, uint64_t addr, void *dst,
			 uint64_t len)
{
	long pid = (long)s->pid;
	if (!pid)
		pid = rec_syscall6(REC_SYS_GETPID, 0, 0, 0, 0, 0, 0);
	uint64_t local[2] = { (uint64_t)dst, len };
	uint64_t remote[2] = { addr, len };
	long n = rec_syscall6(REC_SYS_VM_READV, pid, (long)local, 1,
			      (long)remote, 1, 0);
	return n > 0 ? (uint64_t)n : 0;
}

/* The bytes at ADDR, at most LEN, that one range of the readable ranges'
 * table holds (ring.h); 0 when none does, or while the tracer writes the
 * table.  A lookup that raced with a write is thrown away by the
 * sequence word; the search itself stays within the table's bounds
 * whatever it reads. */
static uint64_t direct_room(const struct rec_shared *s, uint64_t addr,
			    uint64_t len)
{
	uint64_t seq = __atomic_load_n(&s->range_seq, __ATOMIC_ACQUIRE);
	uint64_t n = __atomic_load_n(&s->nrange, __ATOMIC_RELAXED);
	if ((seq & 1) || n > s->nrange_max)
		return 0;
	const struct rec_range *r = (const struct rec_range *)s->ranges;
	uint64_t lo = 0, hi = n;
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		if (r[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return 0;
	uint64_t a = r[lo - 1].lo, b = r[lo - 1].hi;
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	if (__atomic_load_n(&s->range_seq, __ATOMIC_RELAXED) != seq ||
	    addr < a || addr >= b)
		return 0;
	return plan_min(len, b - addr);
}

/* The plan's copy primitive: directly where the table says the memory
 * can be read (a fault there all the same is the tracer's to fix, and
 * makes the copy short), else, and past the range's end, by system
 * call.  A system call that could read what the table left out tells
 * the tracer its table misses a mapping. */
static uint64_t copy_mem(void *ctx, uint64_t addr, void *dst, uint64_t len)
{
	struct rec_shared *s = ctx;
	uint64_t n = direct_room(s, addr, len);
	uint64_t got = n ? rec_copy(dst, (const void *)addr, n) : 0;
	if (got < n || got == len)
		return got;
	uint64_t more = copy_sys(s, addr + got, (char *)dst + got, len - got);
	if (more)
		__atomic_fetch_add(&s->range_misses, 1, __ATOMIC_RELAXED);
	return got + more;
}

/* A record being written: in the ring at POS (LEN bytes reserved), or
 * on the writer's stack (SYNC). */
struct rec_res {
	uint64_t pos;
	uint64_t len;
	int sync;
	struct rec_shadow *sh;
};

/* A synchronous record's room: on the stack of rec_enter or rec_leave. */
union rec_sync_buf {
	struct rec_call call;
	struct rec_return ret;
	unsigned char bytes[sizeof(struct rec_call) + REC_SYNC_ROOM];
} __attribute__((aligned(REC_ALIGN)));

/* Where to write a record of LEN bytes: in the ring, or in BUF if the
 * thread interrupted a writer of its own.  Such a writer must not wait
 * for room (the record in the way may be the one it interrupted), and
 * its records must not come after that one either: the tracer reads
 * them at once, the ring's up to the interrupted record first, so each
 * thread's records reach it in order, whatever the interrupted writer
 * reserved after them. */
static void *begin(struct rec_shared *s, struct rec_res *res, uint64_t len,
		   union rec_sync_buf *buf)
{
	/* Counted before the reservation: a handler that comes in between
	 * takes the slow way for nothing, never the waiting one. */
	pending_add(res->sh, 1);
	res->sync = res->sh && res->sh->pending > 1;
	if (!res->sync) {
		res->len = len;
		res->pos = reserve(s, res->sh, len);
		return ring_at(s, res->pos);
	}
	res->pos = REC_SYNC_BIT |
		   __atomic_add_fetch(&s->sync_seq, 1, __ATOMIC_RELAXED);
	return buf;
}

/* Publish the record H that uses USED bytes.  Slack of REC_SLACK_KEEP
 * bytes at most stays in the record (its size says so; the chunks end at
 * the record's USED): a call with a small plan saves the locked
 * compare-and-swap of giving it back, a third of its ring work. */
static void end(struct rec_shared *s, struct rec_res *res, struct rec_hdr *h,
		uint64_t used)
{
	if (!res->sync && res->len - used <= REC_SLACK_KEEP)
		used = res->len;
	h->size = (uint32_t)used;
	if (res->sync) {
		h->commit = rec_commit_word(res->pos);
		__atomic_fetch_add(&s->syncs, 1, __ATOMIC_RELAXED);
		rec_trap_sync(h);
	} else {
		give_back(s, res->pos, res->len, used);
		publish(s, res->pos, h);
	}
	pending_add(res->sh, -1);
}

/* The chunks of F's plan into R, within ROOM bytes: whether they were
 * cut there. */
static int run_plan(struct rec_shared *s, const struct rec_func *fn,
		    struct rec_frame *f, struct rec_call *r, uint64_t room)
{
	uint64_t args[8]; /* not "= { 0 }": a rep stos, 5% of a call */
	int cut = 0;
	for (int i = 0; i < 6; i++)
		args[i] = f->gpr[i];
	args[6] = args[7] = 0;
	r->used = (uint32_t)plan_run_cut((const struct plan_op *)fn->plan, args,
					 rec_frame_sp(f), f->fpr, r + 1, room,
					 copy_mem, s, &cut);
	if (room < fn->bound)
		r->h.flags |= REC_CALL_CUT;
	return cut;
}

/* A record whose copies did not fit (its bytes are more than a record
 * holds, DESIGN.md "Fetch plans"): RES's room in the ring given back
 * and the record's head, HEAD bytes at H, moved into BUF, which the
 * tracer reads at rec_blob_trap_sync while the thread waits there, the
 * memory as the plan found it: the tracer reads it then, not from
 * chunks.  Its position is a synchronous record's. */
static struct rec_hdr *go_live(struct rec_shared *s, struct rec_res *res,
			       struct rec_hdr *h, uint64_t head,
			       union rec_sync_buf *buf)
{
	if (res->sync)
		return h;
	memcpy(buf, h, head);
	give_back(s, res->pos, res->len, 0);
	res->sync = 1;
	res->pos = REC_SYNC_BIT |
		   __atomic_add_fetch(&s->sync_seq, 1, __ATOMIC_RELAXED);
	return &buf->call.h;
}

/* R, a call whose copies did not fit, made live (go_live): with only
 * its floating point registers' chunk (F's), which the tracer cannot
 * read at the trap. */
static struct rec_call *call_live(struct rec_shared *s, struct rec_res *res,
				  struct rec_call *r, union rec_sync_buf *buf,
				  struct rec_frame *f)
{
	struct plan_op ops[2];
	uint64_t args[8] = { 0 };
	r = (struct rec_call *)go_live(s, res, &r->h, sizeof(*r), buf);
	memset(ops, 0, sizeof(ops));
	ops[0].op = PLAN_FPR;
	r->h.flags |= REC_CALL_LIVE;
	r->used = (uint32_t)plan_run(ops, args, 0, f->fpr, r + 1, REC_SYNC_ROOM,
				     copy_mem, s);
	return r;
}

/* The time stamp, when the tracer wants one (rdtsc alone takes about
 * 20 ns on this virtual machine; within a recorded call it overlaps the
 * rest, and saves 0 to 10 ns). */
static uint64_t stamp(const struct rec_shared *s)
{
	return s->options & REC_OPT_TSC ? rec_tsc() : 0;
}

static void fill_call(const struct rec_shared *s, struct rec_call *r,
		      const struct rec_frame *f, uint64_t idx, uint64_t site)
{
	r->h.type = REC_CALL;
	r->h.flags = 0;
	r->thread = rec_thread();
	r->tsc = stamp(s);
	r->func = (uint32_t)idx;
	r->used = 0;
	r->site = site;
	r->sp = rec_frame_sp(f);
	for (int i = 0; i < REC_NREGS; i++)
		r->regs[i] = f->gpr[i];
}

/* The original site of a tail call from a hooked function: its shadow
 * entry's, on top of the thread's stack with the same stack pointer. */
static struct rec_shadow_entry *top_at(struct rec_shadow *sh, uint64_t sp)
{
	uint64_t d = sh ? sh->state & 0xffff : 0;
	return d && sh->e[d - 1].sp == sp ? &sh->e[d - 1] : 0;
}

static uint64_t tail_site(struct rec_shadow *sh, uint64_t sp)
{
	const struct rec_shadow_entry *e = top_at(sh, sp);
	return e ? e->ret : 0;
}

/* A shadow entry for the call recorded at POS into R, its errno at the
 * entry ERR (or REC_ERRNO_NONE), if SH can hold it. */
static int push_call(const struct rec_shared *s, struct rec_shadow *sh,
		     struct rec_call *r, uint64_t pos, int32_t err)
{
	struct rec_shadow_entry e; /* every member set: no rep stos */
	e.ret = r->site;
	e.sp = r->sp;
	e.call = pos;
	e.func = r->func;
	e.err_entry = err;
	for (int i = 0; i < 6; i++)
		e.args[i] = r->regs[i];
	if (!sh || !shadow_push(s, sh, &e))
		return 0;
	r->h.flags |= REC_CALL_HOOKED;
	return 1;
}

/* Hook the return of the call recorded at POS into R, if a shadow entry
 * can hold it. */
static int hook(struct rec_shared *s, struct rec_shadow *sh, struct rec_call *r,
		uint64_t pos, int32_t err)
{
	if (push_call(s, sh, r, pos, err))
		return 1;
	r->h.flags |= REC_CALL_NOSHADOW;
	__atomic_fetch_add(&s->unhooked, 1, __ATOMIC_RELAXED);
	return 0;
}

/* The bytes plans of BOUND bytes at most (0: no plan) may add to a
 * record of HEAD bytes, within the record's limit. */
static uint64_t plan_room(const struct rec_shared *s, uint64_t bound,
			  uint64_t head)
{
	uint64_t room = s->max_record - head;
	return bound < room ? bound : room;
}

/* The thread's errno, for a function FN whose prototype asks for it
 * at the entry (FLAG REC_FN_ERRNO_ENTRY) or the return, once the
 * tracer knows where it is; else REC_ERRNO_NONE.  A flag test for the
 * others. */
static int32_t errno_for(const struct rec_shared *s, const struct rec_func *fn,
			 uint32_t flag)
{
	if (!(fn->flags & flag) || !(s->options & REC_OPT_ERRNO))
		return REC_ERRNO_NONE;
	return rec_errno(s->errno_off);
}

/* Called by rec_entry with the call's registers: record it, hook its
 * return if wanted, and return where the call goes. */
uint64_t rec_enter(struct rec_frame *f)
{
	struct rec_shared *s = &rec_rw;
	uint64_t idx = f->gpr[REC_G_R11];
	const struct rec_func *fn = (const struct rec_func *)s->ftab + idx;
	uint64_t sp = rec_frame_sp(f);
	uint64_t *ret_word = (uint64_t *)sp;
	int tail = *ret_word == (uint64_t)rec_return;
	int want = !tail && (fn->flags & REC_FN_RETURNS);
	int32_t err = errno_for(s, fn, REC_FN_ERRNO_ENTRY);
	struct rec_res res = { .sh = shadow_of(s, rec_thread(), 1) };
	if (res.sh && (want || tail))
		shadow_resync(s, res.sh, sp, !tail);
	uint64_t room =
		plan_room(s, fn->plan ? fn->bound : 0, sizeof(struct rec_call));
	union rec_sync_buf buf;
	struct rec_call *r =
		begin(s, &res, rec_align(sizeof(struct rec_call) + room), &buf);
	if (res.sync && room > REC_SYNC_ROOM)
		room = REC_SYNC_ROOM;
	fill_call(s, r, f, idx, tail ? tail_site(res.sh, sp) : *ret_word);
	if (tail)
		r->h.flags |= REC_CALL_TAIL;
	if (fn->plan && run_plan(s, fn, f, r, room))
		r = call_live(s, &res, r, &buf, f);
	int hooked = want && hook(s, res.sh, r, res.pos, err);
	/* A tail call from the hooked call on top (same stack pointer)
	 * returns with it, in one record; with a return plan, it gets an
	 * entry of its own on top of that call's, which the record runs
	 * too, with this call's arguments. */
	if (tail && fn->rplan && top_at(res.sh, sp))
		(void)push_call(s, res.sh, r, res.pos, err);
	end(s, &res, &r->h, rec_align(sizeof(*r) + r->used));
	if (hooked)
		*ret_word = (uint64_t)rec_return;
	/* A return no shadow entry could hold (a recursion deeper than the
	 * shadow stack, a thread without one): the tracer, at this trap,
	 * puts a return breakpoint under it instead. */
	if (want && !hooked)
		rec_trap_full();
	if (fn->flags & REC_FN_DRAIN) {
		__atomic_fetch_add(&s->drains, 1, __ATOMIC_RELAXED);
		rec_trap_full();
	}
	return fn->target;
}

/* R's errno at the return ERR and at the entry, E's, where read. */
static void fill_errno(struct rec_return *r, const struct rec_shadow_entry *e,
		       int32_t err)
{
	r->err = err == REC_ERRNO_NONE ? 0 : err;
	r->err_entry = e->err_entry == REC_ERRNO_NONE ? 0 : e->err_entry;
	r->reserved = 0;
	if (err != REC_ERRNO_NONE)
		r->h.flags |= REC_RETURN_ERRNO;
	if (e->err_entry != REC_ERRNO_NONE)
		r->h.flags |= REC_RETURN_ERRNO_ENTRY;
}

static void fill_return(const struct rec_shared *s, struct rec_return *r,
			const struct rec_rframe *f,
			const struct rec_shadow_entry *e, uint64_t sp,
			int32_t err)
{
	r->h.type = REC_RETURN;
	r->h.flags = 0;
	r->thread = rec_thread();
	r->tsc = stamp(s);
	r->func = (uint32_t)e->func;
	r->used = 0;
	r->call = e->call;
	r->ret[0] = f->ret[0];
	r->ret[1] = f->ret[1];
	memcpy(r->fret, f->fret, sizeof(r->fret));
	r->sp = sp + 8;
	r->site = e->ret;
	fill_errno(r, e, err);
}

/* The chunks of the return plan of E's function after R's, within ROOM
 * bytes in all: with the argument registers of the entry E and the
 * return value's. */
static int run_rplan(struct rec_shared *s, const struct rec_shadow_entry *e,
		     const struct rec_rframe *f, struct rec_return *r,
		     uint64_t room)
{
	const struct rec_func *fn = (const struct rec_func *)s->ftab + e->func;
	uint64_t args[8];
	int cut = 0;
	if (!fn->rplan)
		return 0;
	for (int i = 0; i < 6; i++)
		args[i] = e->args[i];
	args[6] = f->ret[0];
	args[7] = f->ret[1];
	room -= r->used;
	r->used += (uint32_t)plan_run_cut((const struct plan_op *)fn->rplan,
					  args, e->sp, 0,
					  (char *)(r + 1) + r->used, room,
					  copy_mem, s, &cut);
	if (room < fn->rbound)
		r->h.flags |= REC_RETURN_CUT;
	return cut;
}

/* The bytes the return plans of E and of the entries under it on SH's
 * top with its stack pointer (the tail calls it ended) may take. */
static uint64_t chain_bound(const struct rec_shared *s,
			    const struct rec_shadow *sh,
			    const struct rec_shadow_entry *e)
{
	const struct rec_func *ft = (const struct rec_func *)s->ftab;
	uint64_t d = __atomic_load_n(&sh->state, __ATOMIC_RELAXED) & 0xffff;
	uint64_t b = ft[e->func].rplan ? ft[e->func].rbound : 0;
	for (; d && sh->e[d - 1].sp == e->sp; d--)
		if (ft[sh->e[d - 1].func].rplan)
			b += ft[sh->e[d - 1].func].rbound;
	return b;
}

/* The bytes of a return record's struct rec_stack and its copy of the
 * stack (0 without REC_OPT_STACK), within the record's limit after HEAD
 * bytes. */
static uint64_t stack_room(const struct rec_shared *s, uint64_t head)
{
	if (!(s->options & REC_OPT_STACK) ||
	    head + sizeof(struct rec_stack) > s->max_record)
		return 0;
	uint64_t room = s->max_record - head - sizeof(struct rec_stack);
	return sizeof(struct rec_stack) + plan_min(s->stack_copy, room);
}

/* Put back in the copy K the return addresses that the hooked calls
 * still pending on SH replaced by rec_return's. */
static void stack_unhook(struct rec_shadow *sh, struct rec_stack *k)
{
	uint64_t d = __atomic_load_n(&sh->state, __ATOMIC_RELAXED) & 0xffff;
	rec_word *w = (rec_word *)(k + 1);
	for (uint64_t i = 0; i < d; i++) {
		uint64_t at = sh->e[i].sp - k->sp;
		if (sh->e[i].sp >= k->sp && at + 8 <= k->len && !(at & 7) &&
		    w[at / 8] == (uint64_t)rec_return)
			w[at / 8] = sh->e[i].ret;
	}
}

/* The caller's stack at the return into the record at R + OFF (ROOM
 * bytes there, from stack_room): its kept registers from F, and the
 * stack from SP, copied directly within the readable range that holds
 * it only (never the system call's cost for the unmapped end of a
 * stack), else by system call; none in a synchronous record.  The
 * record's bytes in all. */
static uint64_t stack_copy(struct rec_shared *s, struct rec_res *res,
			   const struct rec_rframe *f, struct rec_return *r,
			   uint64_t sp, uint64_t room)
{
	uint64_t off = rec_align(sizeof(*r) + r->used);
	struct rec_stack *k = (struct rec_stack *)((char *)r + off);
	for (int i = 0; i < REC_NKEPT; i++)
		k->kept[i] = f->kept[i];
	k->sp = sp;
	k->wanted = (uint32_t)(room - sizeof(*k));
	uint64_t n = res->sync ? 0 : direct_room(s, sp, k->wanted);
	if (n)
		n = rec_copy(k + 1, (const void *)sp, n);
	else if (!res->sync)
		n = copy_sys(s, sp, k + 1, k->wanted);
	k->len = (uint32_t)n;
	if (res->sh)
		stack_unhook(res->sh, k);
	r->h.flags |= REC_RETURN_STACK;
	return off + sizeof(*k) + n;
}

/* Called by rec_return with the return's registers: record it and give
 * the original return address; 0 when the thread has no shadow entry
 * for it. */
uint64_t rec_leave(struct rec_rframe *f)
{
	struct rec_shared *s = &rec_rw;
	uint64_t sp = rec_rframe_sp(f);
	struct rec_res res = { .sh = shadow_of(s, rec_thread(), 0) };
	struct rec_shadow_entry e;
	if (!res.sh || !shadow_pop(s, res.sh, sp, &e, 0))
		return 0; /* rec_return traps at rec_trap_lost */
	const struct rec_func *fn = (const struct rec_func *)s->ftab + e.func;
	int32_t err = errno_for(s, fn, REC_FN_ERRNO);
	uint64_t bound = chain_bound(s, res.sh, &e);
	/* With -w, the plans leave room for the registers at least. */
	uint64_t khead = s->options & REC_OPT_STACK ? sizeof(struct rec_stack) :
						      0;
	uint64_t room = plan_room(s, bound, sizeof(struct rec_return) + khead);
	uint64_t kroom =
		stack_room(s, rec_align(sizeof(struct rec_return) + room));
	union rec_sync_buf buf;
	struct rec_return *r =
		begin(s, &res, rec_align(sizeof(*r) + room) + kroom, &buf);
	if (res.sync)
		room = plan_min(room,
				REC_SYNC_ROOM -
					(kroom ? sizeof(struct rec_stack) : 0));
	fill_return(s, r, f, &e, sp, err);
	int cut = run_rplan(s, &e, f, r, room);
	/* The calls that tail-called it return too: innermost first. */
	while (shadow_pop(s, res.sh, sp, &e, 1))
		cut |= run_rplan(s, &e, f, r, room);
	if (cut) {
		r = (struct rec_return *)go_live(s, &res, &r->h, sizeof(*r),
						 &buf);
		r->h.flags |= REC_RETURN_LIVE;
		r->used = 0;
	}
	uint64_t used = sizeof(*r) + r->used;
	if (kroom)
		used = stack_copy(s, &res, f, r, sp + 8, kroom);
	end(s, &res, &r->h, rec_align(used));
	return e.ret;
}
