/* libFuzzer target: --fast's drain path (sysdeps/linux-gnu/fastdrain.c:
 * fastdrain_drain, fastdrain_sync, the record decoder recread.c, the
 * records' chunks recmem.c, and the fetch code and lenses that format
 * them as calls and returns) on a fake traced process whose recorder
 * region is the input, with a second writer that changes it between the
 * tracer's reads (drain-mem.h).
 *
 * The process has two threads known by their TLS pointer (and a third
 * whose task is gone), and a function table of stubs with breakpoints
 * whose prototypes take strings, arrays, structs, floats, a format and
 * out-parameters, so that the records' chunks are read as the lenses
 * read them.  The input:
 *
 *	struct head	the ring's size, the script's length, the tail
 *			and the head
 *	struct op[n]	the script: drains, synchronous records, the
 *			writer's writes
 *	the rest	the ring's bytes, then the stack's (a synchronous
 *			record's place), as the tracer first finds them
 *
 * The trace goes to /dev/null (to stderr with DRAIN_TRACE=1): the target
 * looks for crashes, sanitizer reports, leaks and hangs.  The seeds are made by drain-seeds.py. */
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bpt.h"
#include "calls.h"
#include "conf.h"
#include "drain-mem.h"
#include "fastrec.h"
#include "options.h"
#include "output.h"
#include "proc.h"
#include "protolib.h"
#include "recorder/ring.h"
#include "xmalloc.h"

/* Where the region is, and what the fake process is called: a pid no
 * kernel gives (over PID_MAX_LIMIT), so that /proc/PID is never found. */
#define REGION 0x7f5500000000ull
#define PID 0x3ffff000
/* struct rec_shared, then the ring's data, then the stack. */
#define DATA_AT 512
#define STACK_BYTES 4096
#define RING_MIN 512u
#define MAX_OPS 48

/* The TLS pointers the records name: the leader's, the second
 * thread's, and one whose thread has no task. */
static const uint64_t tcb[3] = { 0x7f5510000700ull, 0x7f5511000700ull,
				 0x7f5512000700ull };

struct head {
	uint8_t ring;	   /* RING_MIN << (ring % 7) bytes */
	uint8_t nops;	   /* ops that follow (at most MAX_OPS) */
	uint16_t reserved; /* 0 */
	uint32_t filled;   /* the head, that many bytes past the tail */
	uint64_t tail;
};

enum op_kind {
	OP_DRAIN, /* fastdrain_drain */
	/* fastdrain_sync of the record at WHERE * 16 bytes into the ring's
	 * data (the stack follows it), or at VALUE when WHEN is odd */
	OP_SYNC,
	/* the writer stores VALUE at byte WHERE * 4 of the region after
	 * WHEN more spans read (drain-mem.h) */
	OP_WRITE,
	/* the writer stores the shared tail + WHERE * 16 as the head,
	 * after WHEN more spans read: records appended, or a corrupt head */
	OP_HEAD,
};

struct op {
	uint8_t kind; /* enum op_kind, modulo 4 */
	uint8_t when;
	uint16_t where;
	uint32_t pad;
	uint64_t value;
};

/* The functions of the table, by index; one more has no prototype. */
static const char *const names[] = {
	"puts",	     "memcpy", "pipe2",	 "atan2", "printf", "strtol",
	"nanosleep", "execve", "writev", "sum8",  "fmaxf",
};
#define NPROTO (sizeof(names) / sizeof(names[0]))

static const char protos_text[] =
	"typedef tv = struct(long, long);\n"
	"typedef iovec = struct(string(array(char, elt2)*), ulong);\n"
	"int puts(string);\n"
	"addr memcpy(addr, string(array(char, arg3)*), ulong);\n"
	"int pipe2(+array(int, 2)*, hex(int)) errno(-1);\n"
	"double atan2(double, double);\n"
	"int printf(format);\n"
	"long strtol(string, +string*, int) errno(changed);\n"
	"int nanosleep(tv*, +tv*);\n"
	"int execve(string, array(string, zero)*, array(string, zero(3))*);\n"
	"long writev(int, array(iovec, arg3)*, int);\n"
	"long sum8(int, char, short, long, uint, ulong, long, string);\n"
	"float fmaxf(float, float);\n";

static struct protolib *protos;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	protos = protolib_new();
	conf_load_string(protos, "drain", protos_text);
	static struct options o = { .strlen = 32, .arraylen = 4, .indent = 2 };
	calls_init(&o);
	/* DRAIN_TRACE=1: the trace on stderr, to see what an input shows. */
	const char *show = getenv("DRAIN_TRACE");
	int fd = show && *show == '1' ? 2 :
					open("/dev/null", O_WRONLY | O_CLOEXEC);
	output_init(fd, 40, false, false);
	output_set_pid_prefix(true);
	output_set_options(&o);
	(void)fastdrain_init(false, false);
	return 0;
}

/* The stub of function I, and what its GOT slot held. */
static uint64_t stub_of(size_t i)
{
	return 0x401020 + 16 * i;
}

/* Function I's stub breakpoint, with its prototype (none past NPROTO). */
static void add_stub(struct process *p, size_t i)
{
	struct breakpoint *b = bpt_add(&p->bpts, stub_of(i), BPT_STUB);
	const char *name = i < NPROTO ? names[i] : "noproto";
	b->call.name = xstrdup(name);
	b->call.label = xstrdup(name);
	b->call.proto = i < NPROTO ? protolib_lookup(protos, name) : NULL;
	b->call.proto_done = true;
	b->stub.fast = true;
}

/* The process, its two threads, and its recorder F mapped at REGION
 * with a ring of RING bytes whose tail is TAIL. */
static struct process *make_process(uint64_t ring, uint64_t tail,
				    struct task *t[2])
{
	struct process *p = process_new(PID);
	t[0] = task_new(PID, p);
	t[1] = task_new(PID + 1, p);
	struct fastrec *f = fastrec_of(p);
	f->base = REGION;
	f->l.rw = 0;
	f->l.data = DATA_AT;
	f->l.ring = ring;
	f->l.size = DATA_AT + ring + STACK_BYTES;
	f->tail = tail;
	f->nfunc = NPROTO + 1;
	for (size_t i = 0; i < f->nfunc; i++) {
		add_stub(p, i);
		f->stub[i] = stub_of(i);
		f->got[i] = 0x404018 + 8 * i;
		f->target[i] = 0x7f5520001000ull + 0x40 * i;
	}
	for (size_t i = 0; i < 3; i++)
		f->threads[i] = (struct fastrec_thread){ tcb[i], PID + (int)i };
	f->nthreads = 3;
	return p;
}

/* The region as the tracer first finds it: the shared part's head and
 * tail, then DATA from the ring's data on. */
static void fill_region(const struct head *h, uint64_t ring,
			const uint8_t *data, size_t len)
{
	fakemem_init(REGION, DATA_AT + ring + STACK_BYTES);
	uint8_t *m = fakemem_bytes();
	if (!m)
		return;
	uint64_t head = h->tail + h->filled;
	memcpy(m + offsetof(struct rec_shared, head), &head, sizeof(head));
	memcpy(m + offsetof(struct rec_shared, tail), &h->tail,
	       sizeof(h->tail));
	size_t room = ring + STACK_BYTES;
	memcpy(m + DATA_AT, data, len < room ? len : room);
}

/* Where OP_SYNC's record is: in the ring's data or the stack after it,
 * or anywhere. */
static uint64_t sync_addr(const struct op *o, uint64_t ring)
{
	if (o->when & 1)
		return o->value;
	return REGION + DATA_AT +
	       (uint64_t)o->where * 16 % (ring + STACK_BYTES);
}

static void run_op(struct process *p, const struct op *o, uint64_t ring)
{
	uint64_t tail_word = fakemem_word(offsetof(struct rec_shared, tail));
	switch (o->kind % 4) {
	case OP_DRAIN:
		(void)fastdrain_drain(p);
		break;
	case OP_SYNC:
		fastdrain_sync(p, p->fast, sync_addr(o, ring), NULL);
		break;
	case OP_WRITE:
		fakemem_schedule(o->when, (uint64_t)o->where * 4, o->value);
		break;
	case OP_HEAD:
		fakemem_schedule(o->when, offsetof(struct rec_shared, head),
				 tail_word + (uint64_t)o->where * 16);
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct head h;
	if (!protos)
		LLVMFuzzerInitialize(NULL, NULL);
	if (size < sizeof(h))
		return 0;
	memcpy(&h, data, sizeof(h));
	size_t nops = h.nops < MAX_OPS ? h.nops : MAX_OPS;
	size_t at = sizeof(h) + nops * sizeof(struct op);
	if (size < at)
		return 0;
	uint64_t ring = (uint64_t)RING_MIN << (h.ring % 7);
	fill_region(&h, ring, data + at, size - at);
	if (!fakemem_bytes())
		return 0;
	struct task *t[2];
	struct process *p = make_process(ring, h.tail, t);
	for (size_t i = 0; i < nops; i++) {
		struct op o;
		memcpy(&o, data + sizeof(h) + i * sizeof(o), sizeof(o));
		run_op(p, &o, ring);
	}
	(void)fastdrain_drain(p); /* as at the trace's end */
	output_flush();
	task_drop(t[1]);
	task_drop(t[0]);
	fakemem_destroy();
	return 0;
}
