/* SPDX-License-Identifier: GPL-2.0 */
/* A small JSON writer, used like bpftool's: -j compact, -p pretty. */
#ifndef ABIDEP_JSON_H
#define ABIDEP_JSON_H

#include <stdbool.h>
#include <stdio.h>

struct json {
	FILE *out;
	bool pretty;
	int depth;
	bool need_comma;
	bool after_key;
};

void json_init(struct json *j, FILE *out, bool pretty);
void json_obj_start(struct json *j);
void json_obj_end(struct json *j);
void json_arr_start(struct json *j);
void json_arr_end(struct json *j);
void json_key(struct json *j, const char *key);
void json_str(struct json *j, const char *s);	/* NULL -> null */
void json_int(struct json *j, long long v);
void json_null(struct json *j);
/* key and value in one go */
void json_kstr(struct json *j, const char *key, const char *s);
void json_kint(struct json *j, const char *key, long long v);
/* key and an array of the @n strings @v */
void json_kstrs(struct json *j, const char *key, char *const *v, int n);
void json_bool(struct json *j, bool v);
void json_kbool(struct json *j, const char *key, bool v);
void json_end(struct json *j);	/* final newline */

#endif
