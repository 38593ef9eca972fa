#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "config.h"
#include "debug.h"
#include "error.h"
#include "fdpath.h"
#include "filter.h"
#include "xmalloc.h"

#define DEFAULT_ALIGN 50
#define DEFAULT_STRLEN 32
#define DEFAULT_ARRAYLEN 4
/* -s and -A above this mean "unlimited": 2^30 characters or elements
 * are more than a traced call holds (an array type over 2^30 bytes is
 * capped anyway: type_check), and the per-call text budget that grows
 * with them (lens_budget) stays a size_t. */
#define MAX_LEN (1UL << 30)
/* -w: deeper than any stack the unwinder would walk. */
#define MAX_FRAMES 65536

/* The help text is kept as it prints. */
/* clang-format off */
static void usage(FILE *f)
{
	fprintf(f,
"Usage: ltrace [option ...] [command [arg ...]]\n"
"Trace library calls of a given program.\n"
"\n"
"  -a, --align=COLUMN  align return values in a separate column.\n"
"  -A MAXELTS          maximum number of array elements to print.\n"
"  -b, --no-signals    don't print signals.\n"
"  -c                  count time and calls, and report a summary on exit.\n"
"  -C, --demangle      decode low-level symbol names into user-level names.\n"
"  -D, --debug=MASK    enable debugging (see -Dh or --debug=help).\n"
"  -e FILTER           modify which library calls to trace (may be repeated).\n"
"  -f                  trace children (fork() and clone()).\n"
"  --fast              record calls inside the traced process: no stop per\n"
"                      call once a function has been called (ltrace(1)).\n"
"  -F, --config=FILE   load alternate configuration file (may be repeated,\n"
"                      a colon-separated list of files and directories).\n"
"  --format=FORMAT     text (the default), json (JSON Lines) or chrome\n"
"                      (Trace Event Format, for Perfetto or chrome://tracing).\n"
"  -h, --help          display this help and exit.\n"
"  -i                  print instruction pointer at time of library call.\n"
"  -l, --library=LIBRARY_PATTERN\n"
"                      trace calls into matching libraries (may be repeated).\n"
"  -L                  don't trace the main program's library calls by\n"
"                      default (no implicit -e @MAIN).\n"
"  -n, --indent=NR     indent output by NR spaces for each call level nesting.\n"
"  -o, --output=FILE   write the trace output to file with given name.\n"
"  -p PID              attach to the process with the process ID pid.\n"
"  -r                  print relative timestamps.\n"
"  -s STRSIZE          specify the maximum string size to print.\n"
"  -S                  trace system calls.\n"
"  -t, -tt, -ttt       print absolute timestamps.\n"
"  -T                  show the time spent inside each call.\n"
"  -u USERNAME         run command with the userid, groupid of username.\n"
"  -V, --version       output version information and exit.\n"
"  -w, --where=NR      print backtrace showing NR stack frames at most.\n"
"  -x FILTER           modify which functions to trace at their entry\n"
"                      (may be repeated).\n"
"  -y, --decode-fds    print paths associated with file descriptor arguments.\n"
"  -yy, --decode-fds=all\n"
"                      print protocol specific information associated with\n"
"                      socket file descriptors, and device numbers.\n"
"  --decode-fds=SET    what to print of descriptors: a comma-separated list\n"
"                      of path, socket, dev, all and none.\n"
"\n"
"FILTER is [!]RULE{(+|-)RULE}, RULE is [SYMBOL][@LIBRARY], each a glob or a\n"
"/regex/; see ltrace(1), FILTER EXPRESSIONS.\n"
"\n"
"Report bugs to the project's issue tracker.\n");
}
/* clang-format on */

/* strtol-style parse (base 0, as ltrace: 0x10 and 010 work) of a
 * non-negative integer no larger than MAX. */
static size_t parse_count(const char *arg, char opt, unsigned long max)
{
	char *end;
	errno = 0;
	long v = strtol(arg, &end, 0);
	if (errno || end == arg || *end || v < 0 || (unsigned long)v > max)
		error_msg_and_die("invalid argument to -%c: '%s'.  "
				  "Use an integer 0..%lu.",
				  opt, arg, max);
	return v;
}

/* -s and -A: any non-negative integer (base 0, as parse_count), however
 * large; past MAX it means unlimited, which is MAX. */
static size_t parse_limit(const char *arg, char opt, unsigned long max)
{
	const char *p = arg;
	while (*p == ' ' || *p == '\t')
		p++;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(p, &end, 0);
	if (*p == '-' || end == p || *end || (errno && errno != ERANGE))
		error_msg_and_die("invalid argument to -%c: '%s'.  "
				  "Use a non-negative integer.",
				  opt, arg);
	return errno == ERANGE || v > max ? max : v;
}

/* ltrace's default: 5/8 of the terminal width, else 50. */
static int guess_align(void)
{
	const char *c = getenv("COLUMNS");
	if (c && atoi(c) > 0)
		return atoi(c) * 5 / 8;
	struct winsize ws;
	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col * 5 / 8;
	return DEFAULT_ALIGN;
}

/* -F: a colon-separated list; one that names nothing ("", ":") is a
 * mistake rather than a request for no file. */
static void add_conf(struct options *o, const char *arg)
{
	if (!arg[strspn(arg, ":")])
		error_msg_and_die("-F '%s': empty path list", arg);
	char *copy = xstrdup(arg), *save = NULL;
	for (char *p = strtok_r(copy, ":", &save); p;
	     p = strtok_r(NULL, ":", &save)) {
		o->confs = xreallocarray(o->confs, o->nconfs + 1,
					 sizeof(*o->confs));
		o->confs[o->nconfs++] = xstrdup(p);
	}
	free(copy);
}

static void add_pid(struct options *o, const char *arg)
{
	o->pids = xreallocarray(o->pids, o->npids + 1, sizeof(*o->pids));
	o->pids[o->npids++] = parse_count(arg, 'p', INT_MAX);
	if (o->pids[o->npids - 1] <= 0)
		error_msg_and_die("invalid argument to -p: '%s'", arg);
}

/* -e, -l, -x: compile ARG, append it to the list V of N filters. */
static void add_filter(struct filter ***v, size_t *n, char opt, const char *arg,
		       enum filter_syntax syntax)
{
	char *err = NULL;
	struct filter *f = filter_compile(arg, syntax, &err);
	if (!f)
		error_msg_and_die("-%c '%s': %s", opt, arg, err);
	*v = xreallocarray(*v, *n + 1, sizeof(**v));
	(*v)[(*n)++] = f;
}

/* What getopt found wrong, worded as ltrace words it; exits 1. */
static noreturn void bad_option(char **argv)
{
	if (optopt && strchr("aADeFlnopsuwx", optopt))
		error_msg("option requires an argument -- '%c'", optopt);
	else if (optopt)
		error_msg("invalid option -- '%c'", optopt);
	else
		error_msg("unrecognized option '%s'", argv[optind - 1]);
	fprintf(stderr, "Try `ltrace --help' for more information.\n");
	exit(1);
}

/* Long options without a short form. */
enum { OPT_FORMAT = 256, OPT_FAST, OPT_DECODE_FDS };

static const struct option longopts[] = {
	{ "align", required_argument, NULL, 'a' },
	{ "config", required_argument, NULL, 'F' },
	{ "debug", required_argument, NULL, 'D' },
	{ "decode-fds", optional_argument, NULL, OPT_DECODE_FDS },
	{ "demangle", no_argument, NULL, 'C' },
	{ "fast", no_argument, NULL, OPT_FAST },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "help", no_argument, NULL, 'h' },
	{ "indent", required_argument, NULL, 'n' },
	{ "library", required_argument, NULL, 'l' },
	{ "no-signals", no_argument, NULL, 'b' },
	{ "output", required_argument, NULL, 'o' },
	{ "version", no_argument, NULL, 'V' },
	{ "where", required_argument, NULL, 'w' },
	{ NULL, 0, NULL, 0 },
};

/* Act on C if it chooses what to trace (select.h); false if it does
 * not. */
static bool take_select_option(struct options *o, int c)
{
	switch (c) {
	case 'C':
		o->demangle = true;
		return true;
	case 'e':
		add_filter(&o->exprs, &o->nexprs, 'e', optarg, FILTER_EXPR);
		return true;
	case 'l':
		add_filter(&o->libs, &o->nlibs, 'l', optarg, FILTER_LIBRARY);
		return true;
	case 'L':
		o->no_main = true;
		return true;
	case 'x':
		add_filter(&o->entries, &o->nentries, 'x', optarg, FILTER_EXPR);
		return true;
	}
	return false;
}

/* --format=NAME */
static enum output_format parse_format(const char *arg)
{
	static const char *const names[] = {
		[FORMAT_TEXT] = "text",
		[FORMAT_JSON] = "json",
		[FORMAT_CHROME] = "chrome",
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(arg, names[i]))
			return (enum output_format)i;
	error_msg_and_die("--format '%s': expected text, json or chrome", arg);
}

/* --decode-fds=SET: strace's names, comma-separated; without SET, path
 * (-y). */
static unsigned parse_decode_fds(const char *arg)
{
	static const struct {
		const char *name;
		unsigned bits;
	} sets[] = {
		{ "none", 0 },
		{ "path", FDPATH_PATH },
		{ "socket", FDPATH_SOCKET },
		{ "dev", FDPATH_DEV },
		{ "all", FDPATH_ALL },
	};
	unsigned bits = 0;
	size_t n;

	if (!arg)
		return FDPATH_PATH;
	for (const char *p = arg;; p += n + 1) {
		size_t i = 0;
		n = strcspn(p, ",");
		while (i < sizeof(sets) / sizeof(sets[0]) &&
		       (strlen(sets[i].name) != n ||
			strncmp(p, sets[i].name, n)))
			i++;
		if (i == sizeof(sets) / sizeof(sets[0]))
			error_msg_and_die("--decode-fds '%s': expected a "
					  "list of path, socket, dev, all "
					  "or none",
					  arg);
		bits |= sets[i].bits;
		if (!p[n])
			return bits;
	}
}

/* -D MASK: octal, as ltrace; -Dh lists the bits. */
static unsigned parse_debug(const char *arg)
{
	if (arg[0] == 'h') {
		debug_usage(stdout);
		exit(0);
	}
	char *end;
	errno = 0;
	unsigned long v = strtoul(arg, &end, 8);
	if (errno || end == arg || *end || v > DEBUG_ALL)
		error_msg_and_die(
			"invalid argument to -D: '%s'.  "
			"Use an octal mask 0..%o (-Dh lists the bits).",
			arg, DEBUG_ALL);
	return v;
}

/* Act on C if it chooses how the trace looks (timing, prefixes, the
 * format); false if it does not. */
static bool take_output_option(struct options *o, int c)
{
	switch (c) {
	case 'c':
		o->summary = true;
		return true;
	case 'D':
		o->debug = parse_debug(optarg);
		return true;
	case 'i':
		o->show_ip = true;
		return true;
	case 'n':
		o->indent = parse_count(optarg, 'n', 20);
		return true;
	case 'r':
		o->relative = true;
		return true;
	case 't':
		o->time_mode += o->time_mode < 3;
		return true;
	case 'T':
		o->time_spent = true;
		return true;
	case OPT_FORMAT:
		o->format = parse_format(optarg);
		return true;
	case OPT_FAST:
		o->fast = true;
		return true;
	case 'y': /* -y paths, -yy everything, as strace */
		o->decode_fds = o->decode_fds ? FDPATH_ALL : FDPATH_PATH;
		return true;
	case OPT_DECODE_FDS:
		o->decode_fds = parse_decode_fds(optarg);
		return true;
	}
	return false;
}

/* Act on option C (as getopt_long returned it, argument in optarg). */
static void take_option(struct options *o, int c, char **argv)
{
	switch (c) {
	case 'a':
		o->align = parse_count(optarg, 'a', INT_MAX);
		break;
	case 'A':
		o->arraylen = parse_limit(optarg, 'A', MAX_LEN);
		break;
	case 'b':
		o->no_signals = true;
		break;
	case 'f':
		o->follow = true;
		break;
	case 'F':
		add_conf(o, optarg);
		break;
	case 'h':
		usage(stdout);
		exit(0);
	case 'o':
		o->output = optarg;
		break;
	case 'p':
		add_pid(o, optarg);
		break;
	case 'u':
		o->user = optarg;
		break;
	case 's':
		o->strlen = parse_limit(optarg, 's', MAX_LEN);
		break;
	case 'w':
		o->where = parse_count(optarg, 'w', MAX_FRAMES);
		break;
	case 'S':
		o->syscalls = true;
		break;
	case 'V':
		printf("ltrace version " PACKAGE_VERSION ".\n");
		exit(0);
	default: /* ':' or '?' */
		bad_option(argv);
	}
}

void options_parse(struct options *o, int argc, char **argv)
{
	memset(o, 0, sizeof(*o));
	o->strlen = DEFAULT_STRLEN;
	o->arraylen = DEFAULT_ARRAYLEN;
	o->align = -1;
	int c;
	opterr = 0;
	while ((c = getopt_long(argc, argv,
				"+:a:A:bcCD:e:fF:hil:Ln:o:p:rs:StTu:Vw:x:y",
				longopts, NULL)) != -1)
		if (!take_select_option(o, c) && !take_output_option(o, c))
			take_option(o, c, argv);
	if (o->relative && o->time_mode)
		error_msg_and_die("Options -r and -t can't be used together\n"
				  "Try `ltrace --help' for more information.");
	/* ltrace 0.7.3 says so, and checks only -e: -L -l is -l. */
	if (o->no_main && o->nexprs)
		error_msg_and_die("Option -L can't be used with -e or -l.\n"
				  "Try `ltrace --help' for more information.");
	if (o->align < 0)
		o->align = guess_align();
	if (optind >= argc && !o->npids)
		error_msg_and_die("too few arguments\n"
				  "Try `ltrace --help' for more information.");
	o->argv = optind < argc ? argv + optind : NULL;
}

static void free_filters(struct filter ***v, size_t *n)
{
	for (size_t i = 0; i < *n; i++)
		filter_free((*v)[i]);
	free(*v);
	*v = NULL;
	*n = 0;
}

void options_destroy(struct options *o)
{
	free_filters(&o->exprs, &o->nexprs);
	free_filters(&o->libs, &o->nlibs);
	free_filters(&o->entries, &o->nentries);
	for (size_t i = 0; i < o->nconfs; i++)
		free(o->confs[i]);
	free(o->confs);
	free(o->pids);
	o->confs = NULL;
	o->pids = NULL;
	o->nconfs = 0;
}
