/* Declarations of the tracer's structures, so headers need not include
 * headers. */
#ifndef LTRACE_FORWARD_H
#define LTRACE_FORWARD_H

struct options;
struct process;
struct task;
struct breakpoint;
struct bpt_table;
struct memsrc;
struct strbuf;
struct type;
struct prototype;
struct protolib;
struct protoset;
struct calltext;
struct lens_limits;
struct callsite;
struct plt_entry;
struct elf_image;
struct library;
struct displaced;
struct filter;
struct select_obj;
struct fastrec;

#endif
