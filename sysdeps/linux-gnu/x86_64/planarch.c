/* Where the System V AMD64 calling convention puts each argument, for
 * the fetch plan compiler (ltrace/plan.h).  Rather than classify types a
 * second time, this asks the fetch code itself (fetch.c), so that a plan
 * copies exactly the words fetch_arg reads: registers hold tagged values
 * (GP_TAG | word, SSE_TAG | xmm), and a fake memory logs the stack words
 * read. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/user.h>

#include "callsite.h"
#include "fetch.h"
#include "memsrc.h"
#include "fetchplan.h"
#include "type.h"
#include "xmalloc.h"

#define GP_TAG 0x6a6a6a00ULL
#define SSE_TAG 0x5e5e5e00ULL
/* The stack pointer at entry: 16n + 8, as after a call. */
#define PROBE_RSP 0x7f0000000008ULL

struct probe {
	struct memsrc mem;
	uint64_t addr, len; /* the last stack read */
	unsigned nreads;
	struct user_fpregs_struct fp;
};

static size_t probe_read(struct memsrc *m, uint64_t addr, void *buf, size_t len)
{
	struct probe *p = (struct probe *)m;

	p->addr = addr;
	p->len = len;
	p->nreads++;
	memset(buf, 0, len);
	return len;
}

static const void *probe_fpregs(struct callsite *cs)
{
	return &((struct probe *)cs->mem)->fp;
}

/* The registers of eightbyte W of a fetched value: false when untagged. */
static bool reg_of(uint64_t w, struct plan_argloc *l)
{
	unsigned i = l->nregs;

	if (w >> 32 == GP_TAG || w >> 32 == SSE_TAG) {
		l->reg[i].sse = w >> 32 == SSE_TAG;
		l->reg[i].idx = (unsigned)(w & 0xff);
		l->nregs++;
		return true;
	}
	return false;
}

/* Fetch T and tell where it came from. */
static int locate_one(struct fetch_ctx *f, struct callsite *cs,
		      struct probe *pr, const struct type *t,
		      struct plan_argloc *l)
{
	unsigned char *buf = xmalloc(fetch_bufsize(t));
	uint64_t w[2];

	memset(l, 0, sizeof(*l));
	pr->nreads = 0;
	fetch_arg(f, cs, t, buf);
	memcpy(w, buf, sizeof(w));
	free(buf);
	if (pr->nreads == 1 && pr->addr >= PROBE_RSP + 8) {
		l->stack = true;
		l->word = (pr->addr - PROBE_RSP - 8) / 8;
		l->nwords = (pr->len + 7) / 8;
		return 0;
	}
	if (pr->nreads || !reg_of(w[0], l))
		return -1;
	if (type_sizeof(t) > 8 && t->kind != TYPE_ARRAY)
		reg_of(w[1], l);
	return 0;
}

long planarch_locate(const struct prototype *p, struct plan_argloc *locs)
{
	struct probe pr = { .mem.read = probe_read };
	struct user_regs_struct regs = { .rsp = PROBE_RSP };
	unsigned long long *gp[] = { &regs.rdi, &regs.rsi, &regs.rdx,
				     &regs.rcx, &regs.r8,  &regs.r9 };
	struct callsite cs = { &pr.mem, &regs, probe_fpregs, true, 0, 0, 0 };

	for (unsigned i = 0; i < 6; i++)
		*gp[i] = GP_TAG << 32 | i;
	for (unsigned i = 0; i < 8; i++) {
		uint64_t w = SSE_TAG << 32 | i;
		memcpy(&pr.fp.xmm_space[4 * i], &w, 8);
	}
	struct fetch_ctx *f = fetch_begin(&cs, p->ret, true);
	long n = 0;
	for (size_t i = 0; i < p->nparams; i++) {
		if (locate_one(f, &cs, &pr, p->params[i], &locs[n]) < 0) {
			n = -1;
			break;
		}
		n++;
		if (p->params[i]->kind == TYPE_PACK)
			break;
	}
	fetch_free(f);
	return n;
}

/* The record holds rax, rdx, xmm0 and xmm1: a struct over 16 bytes is
 * MEMORY class (its copy is at rax) and a long double is in st0. */
bool planarch_ret_in_regs(const struct type *t)
{
	return t->kind != TYPE_LDOUBLE &&
	       (t->kind != TYPE_STRUCT || type_sizeof(t) <= 16);
}
