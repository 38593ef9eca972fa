#include "image.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "arch.h"
#include "bpt.h"
#include "elfscan.h"
#include "error.h"
#include "mem.h"
#include "proc.h"
#include "procfs.h"
#include "scratch.h"
#include "tracee.h"
#include "xmalloc.h"

/* Write int3 over every stub at once: read the span of the stubs, patch
 * it, write it back in one pwrite (at exec time only one thread runs). */
static void insert_plt_breakpoints(struct process *p)
{
	struct elf_image *img = &p->image;
	uint64_t lo = img->plt[0].addr + p->bias;
	uint64_t hi = img->plt[img->nplt - 1].addr + p->bias + 1;
	uint8_t *buf = xmalloc(hi - lo);
	if (pread(p->memfd, buf, hi - lo, lo) != (ssize_t)(hi - lo)) {
		perror_msg("reading the call stubs of pid %d", (int)p->pid);
		free(buf);
		return;
	}
	for (size_t i = 0; i < img->nplt; i++) {
		uint64_t a = img->plt[i].addr + p->bias;
		if (bpt_lookup(&p->bpts, a))
			continue;
		struct breakpoint *b = bpt_add(&p->bpts, a, BPT_PLT);
		b->name = xstrdup(img->plt[i].name);
		b->got = img->plt[i].got + p->bias;
		b->orig = buf[a - lo];
		b->inserted = true;
		buf[a - lo] = ARCH_BREAKPOINT;
	}
	if (mem_write(p->memfd, lo, buf, hi - lo))
		perror_msg("inserting breakpoints in pid %d", (int)p->pid);
	free(buf);
}

/* Map the first scratch region now, while one thread runs: the system
 * calls injected later run from it, not from bytes borrowed at an IP. */
static void map_scratch(struct task *t, uint64_t near)
{
	struct arch_regs regs;
	if (tracee_get_regs(t->tid, &regs))
		return;
	scratch_slot(t, &regs, near);
	/* Reported if unexpected; nothing else to do. */
	(void)tracee_set_regs(t->tid, &regs);
}

void image_setup(struct task *t)
{
	struct process *p = t->proc;
	p->memfd = tracee_open_memfd(p->pid);
	if (p->memfd < 0) {
		perror_msg("opening /proc/%d/mem", (int)p->pid);
		return;
	}
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/exe", (int)p->pid);
	char err[256];
	if (elf_image_read(&p->image, path, err, sizeof(err)) < 0) {
		error_msg("%s: %s", path, err);
		return;
	}
	p->bias = p->image.is_dyn ? procfs_entry(p->pid) - p->image.entry : 0;
	if (!p->image.nplt)
		return;
	map_scratch(t, p->image.plt[0].addr + p->bias);
	insert_plt_breakpoints(p);
}

static void restore_byte(struct breakpoint *b, void *data)
{
	int fd = *(int *)data;
	/* Fails only if the process is gone. */
	if (b->inserted)
		(void)mem_write(fd, b->addr, &b->orig, 1);
}

void image_restore_bytes(const struct bpt_table *bpts, int memfd)
{
	bpt_foreach(bpts, restore_byte, &memfd);
}
