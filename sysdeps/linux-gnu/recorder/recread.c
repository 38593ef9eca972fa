#include "recorder/recread.h"

#include <errno.h>

/* The least size of a record of TYPE; 0 for an unknown type. */
static uint32_t min_size(uint16_t type)
{
	switch (type) {
	case REC_PAD:
		return sizeof(struct rec_hdr);
	case REC_CALL:
		return sizeof(struct rec_call);
	case REC_RETURN:
		return sizeof(struct rec_return);
	}
	return 0;
}

int rec_record_at(const void *data, uint64_t size, uint64_t pos, uint64_t avail,
		  const struct rec_hdr **out)
{
	/* Every record's position is a multiple of REC_ALIGN: another one
	 * (a tail taken from a head the program wrote) would have its
	 * header read misaligned, and at a lap's end past the copy. */
	if (pos % REC_ALIGN)
		return -EBADMSG;
	uint64_t off = pos & (size - 1);
	const struct rec_hdr *h =
		(const struct rec_hdr *)((const char *)data + off);
	if (avail < sizeof(*h) ||
	    __atomic_load_n(&h->commit, __ATOMIC_ACQUIRE) !=
		    rec_commit_word(pos))
		return 0;
	uint32_t least = min_size(h->type);
	if (!least || h->size < least || h->size % REC_ALIGN ||
	    off + h->size > size)
		return -EBADMSG;
	if (h->size > avail)
		return 0;
	if (h->type == REC_CALL &&
	    sizeof(struct rec_call) + ((const struct rec_call *)h)->used >
		    h->size)
		return -EBADMSG;
	*out = h;
	return 1;
}
