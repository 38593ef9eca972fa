/* One of three libraries built from this file, -O2 -fPIC, with
 * -DSELF=tl_top -DNEXT=tl_mid (libtltop.so), -DSELF=tl_mid
 * -DNEXT=tl_leaf (libtlmid.so), -DSELF=tl_leaf (libtlleaf.so): each
 * writes its name into its buffer and, but the last, ends in a tail call
 * of the next library's function (`jmp NEXT@plt`) with the buffer's
 * second half, 8 bytes on.  noipa: no inlining, no clones. */
#define STR(x) #x
#define NAME(x) STR(x)

__attribute__((noipa)) static void put(char *to, const char *s)
{
	while ((*to++ = *s++))
		__asm__ volatile("");
}

#ifdef NEXT
int NEXT(char *buf);
#endif

int SELF(char *buf)
{
	put(buf, NAME(SELF));
#ifdef NEXT
	return NEXT(buf + 8);
#else
	return 3;
#endif
}
