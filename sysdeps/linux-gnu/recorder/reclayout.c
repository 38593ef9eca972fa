#include "recorder/reclayout.h"

#include <errno.h>
#include <string.h>

#include "recorder/recblob.h"
#include "rectramp.h"

#define PAGE 4096ull
#define RECORD_MAX (1ull << 20)
#define STACK_SPAN (8ull << 20)

uint64_t rec_max_record(const struct rec_layout *l)
{
	return l->ring / 4 < RECORD_MAX ? l->ring / 4 : RECORD_MAX;
}

static uint64_t page_up(uint64_t n)
{
	return (n + PAGE - 1) & ~(PAGE - 1);
}

static int pow2(uint64_t n)
{
	return n && !(n & (n - 1));
}

int rec_layout_init(struct rec_layout *l, uint32_t nfunc, uint64_t plan_bytes,
		    uint32_t nshadow, uint32_t depth, uint64_t ring)
{
	if (!pow2(nshadow) || depth >= 65536 || !pow2(ring) || ring < 4 * PAGE)
		return -EINVAL;
	l->nfunc = nfunc;
	l->nshadow = nshadow;
	l->depth = depth;
	l->ring = ring;
	l->tramp = 0;
	l->blob = page_up((uint64_t)nfunc * REC_TRAMP_SIZE);
	l->rw = l->blob + rec_blob_rw;
	l->ftab = l->rw + page_up(sizeof(struct rec_shared));
	l->plans = l->ftab + page_up((uint64_t)nfunc * sizeof(struct rec_func));
	l->shadow = l->plans + page_up(plan_bytes);
	l->ranges =
		l->shadow + page_up((uint64_t)nshadow * rec_shadow_size(depth));
	l->data = l->ranges + page_up(REC_NRANGE * sizeof(struct rec_range));
	l->size = l->data + ring;
	return 0;
}

void rec_shared_init(struct rec_shared *s, const struct rec_layout *l,
		     uint64_t base, uint64_t pid)
{
	memset(s, 0, sizeof(*s));
	s->magic = REC_MAGIC;
	s->version = REC_VERSION;
	s->nfunc = l->nfunc;
	s->pid = pid;
	s->ftab = base + l->ftab;
	s->shadow = base + l->shadow;
	s->nshadow = l->nshadow;
	s->depth = l->depth;
	s->data = base + l->data;
	s->size = l->ring;
	s->max_record = rec_max_record(l);
	s->stack_span = STACK_SPAN;
	s->options = REC_OPT_TSC;
	s->ranges = base + l->ranges;
	s->nrange_max = REC_NRANGE;
}
