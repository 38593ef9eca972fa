/* Processes and tasks (ltrace/proc.c): the task table, whose lookup
 * keeps the task it found last, which must never outlive the task or
 * shadow a new one of the same tid; a task's frames and their index
 * (ltrace/frames.c). */
#include "check.h"
#include "proc.h"

/* Lookups find each task while it lives, and nothing once it is gone,
 * even right after finding it. */
static void test_lookup(void)
{
	struct process *p = process_new(100);
	struct task *a = task_new(100, p);
	struct task *b = task_new(101, p);

	CHECK(task_lookup(100) == a);
	CHECK(task_lookup(100) == a);
	CHECK(task_lookup(101) == b);
	CHECK(task_lookup(102) == NULL);
	CHECK(task_lookup(101) == b);
	task_free(b);
	CHECK(task_lookup(101) == NULL);
	CHECK(task_lookup(100) == a);
	task_drop(a);
	CHECK(task_lookup(100) == NULL);
	CHECK(task_count() == 0);
}

/* A tid the kernel gives again (a thread gone, a new one) finds the new
 * task, not the one found last under it. */
static void test_reused_tid(void)
{
	struct process *p = process_new(200);
	struct task *leader = task_new(200, p);
	struct task *old = task_new(201, p);

	CHECK(task_lookup(201) == old);
	task_free(old);
	struct task *young = task_new(201, p);
	CHECK(task_lookup(201) == young);
	CHECK(task_lookup(201)->proc == p);
	task_free(young);
	task_drop(leader);
	CHECK(task_count() == 0);
}

/* The index finds the innermost frame of a key (tail calls share one)
 * through pushes that grow the stack, pops, and the oldest dropped. */
static void test_frames(void)
{
	struct process *p = process_new(300);
	struct task *t = task_new(300, p);
	CHECK(task_find_frame(t, 1, 2) == -1);
	for (uint64_t i = 0; i < 1000; i++)
		(void)task_push_frame(t, 0x1000 + i % 7, 0x8000 - 16 * i);
	(void)task_push_frame(t, 0x1000 + 999 % 7, 0x8000 - 16 * 999);
	CHECK(task_find_frame(t, 0x1000 + 999 % 7, 0x8000 - 16 * 999) == 1000);
	CHECK(task_find_frame(t, 0x1000 + 5 % 7, 0x8000 - 16 * 5) == 5);
	CHECK(task_find_frame(t, 0x1000 + 5 % 7, 0x8000 - 16 * 6) == -1);
	task_pop_frames(t, 1000);
	CHECK(task_find_frame(t, 0x1000 + 999 % 7, 0x8000 - 16 * 999) == 999);
	task_pop_frames(t, 999);
	CHECK(task_find_frame(t, 0x1000 + 999 % 7, 0x8000 - 16 * 999) == -1);
	task_drop_oldest(t, 500);
	CHECK(t->nframes == 499);
	CHECK(task_find_frame(t, 0x1000 + 5 % 7, 0x8000 - 16 * 5) == -1);
	CHECK(task_find_frame(t, 0x1000 + 600 % 7, 0x8000 - 16 * 600) == 100);
	CHECK(task_push_frame(t, 0x1000 + 600 % 7, 0x8000 - 16 * 600) ==
	      &t->frames[499]);
	CHECK(task_find_frame(t, 0x1000 + 600 % 7, 0x8000 - 16 * 600) == 499);
	task_drop(t);
}

int main(void)
{
	test_lookup();
	test_reused_tid();
	test_frames();
	return check_exit();
}
