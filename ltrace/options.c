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
#include "error.h"
#include "xmalloc.h"

#define DEFAULT_ALIGN 50
#define DEFAULT_STRLEN 32
#define DEFAULT_ARRAYLEN 4
/* Bounds that keep a typo from asking for absurd amounts of memory. */
#define MAX_LEN (1UL << 30)

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
"  -f                  trace children (fork() and clone()).\n"
"  -F, --config=FILE   load alternate configuration file (may be repeated,\n"
"                      a colon-separated list of files and directories).\n"
"  -h, --help          display this help and exit.\n"
"  -o, --output=FILE   write the trace output to file with given name.\n"
"  -p PID              attach to the process with the process ID pid.\n"
"  -s STRSIZE          specify the maximum string size to print.\n"
"  -u USERNAME         run command with the userid, groupid of username.\n"
"  -V, --version       output version information and exit.\n"
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

static void add_conf(struct options *o, const char *arg)
{
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

/* What getopt found wrong, worded as ltrace words it; exits 1. */
static noreturn void bad_option(char **argv)
{
	if (optopt && strchr("aAFopsu", optopt))
		error_msg("option requires an argument -- '%c'", optopt);
	else if (optopt)
		error_msg("invalid option -- '%c'", optopt);
	else
		error_msg("unrecognized option '%s'", argv[optind - 1]);
	fprintf(stderr, "Try `ltrace --help' for more information.\n");
	exit(1);
}

static const struct option longopts[] = {
	{ "align", required_argument, NULL, 'a' },
	{ "config", required_argument, NULL, 'F' },
	{ "help", no_argument, NULL, 'h' },
	{ "no-signals", no_argument, NULL, 'b' },
	{ "output", required_argument, NULL, 'o' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

/* Act on option C (as getopt_long returned it, argument in optarg). */
static void take_option(struct options *o, int c, char **argv)
{
	switch (c) {
	case 'a':
		o->align = parse_count(optarg, 'a', INT_MAX);
		break;
	case 'A':
		o->arraylen = parse_count(optarg, 'A', MAX_LEN);
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
		o->strlen = parse_count(optarg, 's', MAX_LEN);
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
	while ((c = getopt_long(argc, argv, "+:a:A:bfF:ho:p:s:u:V", longopts,
				NULL)) != -1)
		take_option(o, c, argv);
	if (o->align < 0)
		o->align = guess_align();
	if (optind >= argc && !o->npids)
		error_msg_and_die("too few arguments\n"
				  "Try `ltrace --help' for more information.");
	o->argv = optind < argc ? argv + optind : NULL;
}

void options_destroy(struct options *o)
{
	for (size_t i = 0; i < o->nconfs; i++)
		free(o->confs[i]);
	free(o->confs);
	free(o->pids);
	o->confs = NULL;
	o->pids = NULL;
	o->nconfs = 0;
}
