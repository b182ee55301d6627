// SPDX-License-Identifier: GPL-2.0
#include "json.h"
#include "text.h"

void json_init(struct json *j, FILE *out, bool pretty)
{
	j->out = out;
	j->pretty = pretty;
	j->depth = 0;
	j->need_comma = false;
	j->after_key = false;
}

static void json_indent(struct json *j)
{
	int i;

	if (!j->pretty)
		return;
	fputc('\n', j->out);
	for (i = 0; i < j->depth; i++)
		fputs("    ", j->out);
}

/* Before a value or a key: the comma and indentation it needs. */
static void json_sep(struct json *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (j->need_comma)
		fputc(',', j->out);
	if (j->depth)
		json_indent(j);
}

static void json_open(struct json *j, char c)
{
	json_sep(j);
	fputc(c, j->out);
	j->depth++;
	j->need_comma = false;
}

static void json_close(struct json *j, char c)
{
	bool empty = !j->need_comma;

	j->depth--;
	if (!empty)
		json_indent(j);
	fputc(c, j->out);
	j->need_comma = true;
}

void json_obj_start(struct json *j) { json_open(j, '{'); }
void json_obj_end(struct json *j) { json_close(j, '}'); }
void json_arr_start(struct json *j) { json_open(j, '['); }
void json_arr_end(struct json *j) { json_close(j, ']'); }

/*
 * A string as JSON, valid whatever its bytes (names from traced processes
 * and scanned images are anyone's): a byte that is not part of valid UTF-8
 * is written \udcXX, XX its value, the lone surrogate of PEP 383's
 * surrogateescape (Python's json.load reads it, and
 * .encode("utf-8", "surrogateescape") gives the byte back; jq and
 * JavaScript read U+FFFD). Control characters (C0, DEL, C1) and the
 * bidirectional marks and overrides are escaped too, so that the JSON shown
 * on a terminal drives nothing: the decoded string is the same.
 */
#define JSON_ESC	(ESC_BAD_DC | ESC_CTRL_JSON | ESC_HIDDEN | ESC_BSLASH | \
			 ESC_DQUOTE | ESC_LOWER)

static void json_raw_str(struct json *j, const char *s)
{
	fputc('"', j->out);
	text_fputs(j->out, s, JSON_ESC);
	fputc('"', j->out);
}

void json_key(struct json *j, const char *key)
{
	json_sep(j);
	json_raw_str(j, key);
	fputs(j->pretty ? ": " : ":", j->out);
	j->after_key = true;
	j->need_comma = true;
}

void json_str(struct json *j, const char *s)
{
	json_sep(j);
	if (s)
		json_raw_str(j, s);
	else
		fputs("null", j->out);
	j->need_comma = true;
}

void json_int(struct json *j, long long v)
{
	json_sep(j);
	fprintf(j->out, "%lld", v);
	j->need_comma = true;
}

void json_bool(struct json *j, bool v)
{
	json_sep(j);
	fputs(v ? "true" : "false", j->out);
	j->need_comma = true;
}

void json_null(struct json *j)
{
	json_str(j, NULL);
}

void json_kstr(struct json *j, const char *key, const char *s)
{
	json_key(j, key);
	json_str(j, s);
}

void json_kint(struct json *j, const char *key, long long v)
{
	json_key(j, key);
	json_int(j, v);
}

void json_kbool(struct json *j, const char *key, bool v)
{
	json_key(j, key);
	json_bool(j, v);
}

void json_end(struct json *j)
{
	fputc('\n', j->out);
}

void json_kstrs(struct json *j, const char *key, char *const *v, int n)
{
	int i;

	json_key(j, key);
	json_arr_start(j);
	for (i = 0; i < n; i++)
		json_str(j, v[i]);
	json_arr_end(j);
}
