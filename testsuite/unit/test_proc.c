/* Processes and tasks (ltrace/proc.c): the task table, whose lookup
 * keeps the task it found last, which must never outlive the task or
 * shadow a new one of the same tid. */
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

int main(void)
{
	test_lookup();
	test_reused_tid();
	return check_exit();
}
