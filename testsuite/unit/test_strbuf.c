/* Unit test of strbuf's numbers without printf (ltrace/strbuf.c):
 * strbuf_add_udec, _udec_w (space and zero padding, widths 0 to 25),
 * _dec, _hex and _oct against snprintf, on the extremes, every power of
 * ten and two and its neighbours, and random values of every bit width. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "strbuf.h"

static struct strbuf got;

/* A random 64-bit value of a random bit width (small values as often as
 * large ones). */
static uint64_t random_value(void)
{
	uint64_t u = 0;

	for (int i = 0; i < 4; i++)
		u = u << 16 ^ (uint64_t)(rand() & 0xffff);
	int bits = rand() % 65;
	return bits == 64 ? u : u & ((1ULL << bits) - 1);
}

/* Every conversion of U after a prefix (appending, not writing at the
 * buffer's start), against snprintf. */
static void check_value(uint64_t u)
{
	char want[96];
	unsigned w = (unsigned)(rand() % 26);

	strbuf_reset(&got);
	strbuf_addch(&got, '<');
	strbuf_add_udec(&got, u);
	snprintf(want, sizeof(want), "<%" PRIu64, u);
	CHECK_STR(got.s, want);

	strbuf_reset(&got);
	strbuf_add_udec_w(&got, u, w, ' ');
	snprintf(want, sizeof(want), "%*" PRIu64, (int)w, u);
	CHECK_STR(got.s, want);

	strbuf_reset(&got);
	strbuf_add_udec_w(&got, u, w, '0');
	snprintf(want, sizeof(want), "%0*" PRIu64, (int)w, u);
	CHECK_STR(got.s, want);

	strbuf_reset(&got);
	strbuf_add_dec(&got, (int64_t)u);
	snprintf(want, sizeof(want), "%" PRId64, (int64_t)u);
	CHECK_STR(got.s, want);

	strbuf_reset(&got);
	strbuf_add_dec(&got, -(int64_t)(u >> 1));
	snprintf(want, sizeof(want), "%" PRId64, -(int64_t)(u >> 1));
	CHECK_STR(got.s, want);

	strbuf_reset(&got);
	strbuf_add_hex(&got, u);
	snprintf(want, sizeof(want), "%" PRIx64, u);
	CHECK_STR(got.s, want);

	strbuf_reset(&got);
	strbuf_add_oct(&got, u);
	snprintf(want, sizeof(want), "%" PRIo64, u);
	CHECK_STR(got.s, want);
}

int main(void)
{
	static const uint64_t edges[] = { 0,
					  1,
					  (uint64_t)INT64_MAX,
					  (uint64_t)INT64_MIN,
					  UINT64_MAX,
					  UINT32_MAX,
					  (uint64_t)INT32_MIN };

	strbuf_init(&got);
	srand(28);
	for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++)
		check_value(edges[i]);
	for (uint64_t p = 1, i = 0; i < 20; i++, p *= 10) {
		check_value(p - 1);
		check_value(p);
		check_value(p + 1);
	}
	for (int b = 0; b < 64; b++) {
		check_value((1ULL << b) - 1);
		check_value(1ULL << b);
	}
	for (int i = 0; i < 200000; i++)
		check_value(random_value());
	strbuf_destroy(&got);
	return check_exit();
}
