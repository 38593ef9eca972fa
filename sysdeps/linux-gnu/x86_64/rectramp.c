#include "rectramp.h"

#include <errno.h>
#include <string.h>

static const uint8_t endbr64[] = { 0xf3, 0x0f, 0x1e, 0xfa };

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

int rec_tramp_write(uint8_t out[REC_TRAMP_SIZE], uint64_t at, uint32_t index,
		    uint64_t entry)
{
	int64_t rel = (int64_t)(entry - (at + 15));
	if (rel != (int32_t)rel)
		return -ERANGE;
	memcpy(out, endbr64, sizeof(endbr64));
	out[4] = 0x41;
	out[5] = 0xbb;
	put32(out + 6, index);
	out[10] = 0xe9;
	put32(out + 11, (uint32_t)rel);
	out[15] = 0xcc;
	return 0;
}

int rec_tramp_forward(uint8_t out[REC_TRAMP_SIZE], uint64_t at, uint64_t slot)
{
	int64_t rel = (int64_t)(slot - (at + 10));
	if (rel != (int32_t)rel)
		return -ERANGE;
	memcpy(out, endbr64, sizeof(endbr64));
	out[4] = 0xff;
	out[5] = 0x25;
	put32(out + 6, (uint32_t)rel);
	memset(out + 10, 0xcc, REC_TRAMP_SIZE - 10);
	return 0;
}
