/* --format's events (ltrace/jsonout.c): JSON strings escaped (quotes,
 * backslashes, control characters, bytes of no UTF-8 character), the
 * arguments split at their spans, chrome's array opened and closed. */
#include <stdlib.h>

#include "check.h"
#include "jsonout.h"
#include "strbuf.h"

static const size_t spans[] = { 0, 5, 7, 8 };

static const struct jsonout_call call = {
	.pid = 10,
	.tid = 11,
	.start = 1000000 + 2500,
	.end = 1000000 + 4000,
	.caller = "prog",
	.library = NULL,
	.function = "f",
	.args = "\"a\tb\", 7",
	.spans = spans,
	.nargs = 2,
	.ret = "\"\\\xff\xc3\xa9\"",
};

static void test_json(void)
{
	struct strbuf sb;
	strbuf_init(&sb);
	jsonout_begin(&sb, FORMAT_JSON, 1000000, 5000000000);
	jsonout_call(&sb, &call);
	jsonout_event(&sb, &(struct jsonout_event){ .pid = 10,
						    .tid = 11,
						    .when = 1003000,
						    .event = "exit",
						    .has_status = true,
						    .status = 3 });
	jsonout_end(&sb);
	CHECK_STR(sb.s,
		  "{\"event\":\"call\",\"pid\":10,\"tid\":11,"
		  "\"timestamp\":5000002,\"duration\":1.500,"
		  "\"caller\":\"prog\",\"library\":null,\"function\":\"f\","
		  "\"args\":[\"\\\"a\\u0009b\\\"\",\"7\"],"
		  "\"return\":\"\\\"\\\\\\u00ff\xc3\xa9\\\"\"}\n"
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
	jsonout_call(&sb, &noret);
	jsonout_event(&sb, &(struct jsonout_event){ .pid = 10,
						    .tid = 11,
						    .when = 1003000,
						    .event = "signal",
						    .key = "signal",
						    .value = "SIGUSR1" });
	jsonout_end(&sb);
	CHECK_STR(
		sb.s,
		"{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n"
		"{\"cat\":\"noreturn\",\"pid\":10,\"tid\":11,\"name\":\"f\","
		"\"ph\":\"X\",\"ts\":2.500,\"dur\":1.500,"
		"\"args\":{\"returned\":false,\"caller\":\"prog\","
		"\"library\":null,\"args\":[\"\\\"a\\u0009b\\\"\",\"7\"]}},\n"
		"{\"cat\":\"signal\",\"pid\":10,\"tid\":11,"
		"\"name\":\"SIGUSR1\",\"ph\":\"i\",\"s\":\"t\",\"ts\":3.000}\n"
		"]}\n");
	strbuf_destroy(&sb);
}

int main(void)
{
	test_json();
	test_chrome();
	return check_exit();
}
