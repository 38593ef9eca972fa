/* --format's events (ltrace/jsonout.c): the version line, JSON strings
 * escaped (quotes, backslashes, control characters, bytes of no UTF-8
 * character), the arguments (JSON values already) split at their spans,
 * an empty one null, a backtrace in the call's object, chrome's array
 * opened and closed. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "jsonout.h"
#include "output.h"
#include "strbuf.h"

static const size_t spans[] = { 0, 10, 11, 12, 12, 12 };

static const struct jsonout_call call = {
	.pid = 10,
	.tid = 11,
	.start = 1000000 + 2500,
	.end = 1000000 + 4000,
	.caller = "p\xffg",
	.library = NULL,
	.function = "f",
	.args = "\"a\\u0009b\",7",
	.spans = spans,
	.nargs = 3,
	.ret = "{\"symbol\":\"A\",\"value\":1}",
};

static void test_json(void)
{
	struct strbuf sb;
	strbuf_init(&sb);
	jsonout_begin(&sb, FORMAT_JSON, 1000000, 5000000000);
	jsonout_call(&sb, &call, false);
	jsonout_event(&sb, &(struct jsonout_event){ .pid = 10,
						    .tid = 11,
						    .when = 1003000,
						    .event = "exit",
						    .has_status = true,
						    .status = 3 });
	jsonout_end(&sb);
	CHECK_STR(sb.s, "{\"event\":\"trace\",\"version\":2,"
			"\"timestamp\":5000000}\n"
			"{\"event\":\"call\",\"pid\":10,\"tid\":11,"
			"\"timestamp\":5000002,\"duration\":1.500,"
			"\"caller\":\"p\\udcffg\",\"library\":null,"
			"\"function\":\"f\","
			"\"args\":[\"a\\u0009b\",7,null],"
			"\"return\":{\"symbol\":\"A\",\"value\":1}}\n"
			"{\"event\":\"exit\",\"pid\":10,\"tid\":11,"
			"\"timestamp\":5000003,\"status\":3}\n");
	strbuf_destroy(&sb);
}

static void test_chrome(void)
{
	struct strbuf sb;
	strbuf_init(&sb);
	jsonout_begin(&sb, FORMAT_CHROME, 1000000, 5000000000);
	struct jsonout_call noret = call;
	noret.ret = NULL;
	noret.caller = "prog";
	jsonout_call(&sb, &noret, false);
	jsonout_event(&sb, &(struct jsonout_event){ .pid = 10,
						    .tid = 11,
						    .when = 1003000,
						    .event = "signal",
						    .key = "signal",
						    .value = "SIGUSR1" });
	jsonout_end(&sb);
	CHECK_STR(
		sb.s,
		"{\"displayTimeUnit\":\"ns\",\"otherData\":{\"version\":2},"
		"\"traceEvents\":[\n"
		"{\"cat\":\"noreturn\",\"pid\":10,\"tid\":11,\"name\":\"f\","
		"\"ph\":\"X\",\"ts\":2.500,\"dur\":1.500,"
		"\"args\":{\"returned\":false,\"caller\":\"prog\","
		"\"library\":null,\"args\":[\"a\\u0009b\",7,null]}},\n"
		"{\"cat\":\"signal\",\"pid\":10,\"tid\":11,"
		"\"name\":\"SIGUSR1\",\"ph\":\"i\",\"s\":\"t\",\"ts\":3.000}\n"
		"]}\n");
	strbuf_destroy(&sb);
}

/* -w: the frames go into the call's object, which jsonout_frames_end
 * (or the next event) closes; in chrome, into its "args". */
static void test_frames(enum output_format f, const char *want)
{
	struct strbuf sb;
	strbuf_init(&sb);
	jsonout_begin(&sb, f, 1000000, 5000000000);
	strbuf_reset(&sb);
	struct jsonout_call c = call;
	c.nargs = 0;
	c.caller = "prog";
	jsonout_call(&sb, &c, true);
	jsonout_frame(&sb, &(struct output_frame){ .object = "prog",
						   .symbol = "main",
						   .offset = 16,
						   .pc = 0x1010,
						   .file = "m.c",
						   .line = 3,
						   .col = 7 });
	jsonout_frame(&sb, &(struct output_frame){ .object = "unmapped_area",
						   .pc = 0x10 });
	jsonout_frames_end(&sb);
	jsonout_call(&sb, &c, true); /* no frames: closed by the next */
	jsonout_event(&sb, &(struct jsonout_event){ .pid = 10,
						    .tid = 11,
						    .when = 1003000,
						    .event = "exec" });
	const char *args = strstr(sb.s, "\"args\":[]");
	CHECK_STR(args ? args : sb.s, want);
	jsonout_end(&sb);
	strbuf_destroy(&sb);
}

#define FRAMES                                                        \
	"\"backtrace\":[{\"address\":\"0x1010\",\"object\":\"prog\"," \
	"\"function\":\"main\",\"offset\":16,\"file\":\"m.c\","       \
	"\"line\":3,\"column\":7},{\"address\":\"0x10\","             \
	"\"object\":\"unmapped_area\",\"function\":null,\"offset\":null}]"

int main(void)
{
	test_json();
	test_chrome();
	test_frames(
		FORMAT_JSON,
		"\"args\":[],\"return\":{\"symbol\":\"A\",\"value\":1}," FRAMES
		"}\n"
		"{\"event\":\"call\",\"pid\":10,\"tid\":11,"
		"\"timestamp\":5000002,\"duration\":1.500,"
		"\"caller\":\"prog\",\"library\":null,"
		"\"function\":\"f\",\"args\":[],"
		"\"return\":{\"symbol\":\"A\",\"value\":1}}\n"
		"{\"event\":\"exec\",\"pid\":10,\"tid\":11,"
		"\"timestamp\":5000003}\n");
	test_frames(
		FORMAT_CHROME,
		"\"args\":[],\"return\":{\"symbol\":\"A\",\"value\":1}," FRAMES
		"}},\n"
		"{\"cat\":\"call\",\"pid\":10,\"tid\":11,\"name\":\"f\","
		"\"ph\":\"X\",\"ts\":2.500,\"dur\":1.500,"
		"\"args\":{\"returned\":true,\"caller\":\"prog\","
		"\"library\":null,\"args\":[],"
		"\"return\":{\"symbol\":\"A\",\"value\":1}}},\n"
		"{\"cat\":\"exec\",\"pid\":10,\"tid\":11,\"name\":\"exec\","
		"\"ph\":\"i\",\"s\":\"t\",\"ts\":3.000}");
	return check_exit();
}
