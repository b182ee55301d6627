/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What abidep survey decides about one value: its word count (as `wc -w`
 * counts in the C locale), the class of a multi-word value, the name its
 * attribute is grouped under, and whether its name lacks a unit.
 */
#ifndef ABIDEP_SURVEY_CLASS_H
#define ABIDEP_SURVEY_CLASS_H

#include <stdbool.h>
#include <stddef.h>

enum vclass {
	VC_ENUM,	/* one line, one or more [bracketed] choices */
	VC_LIST,	/* one line of numbers or of lower-case words; one item a line */
	VC_KV,		/* key=value or key: value, on every line or token */
	VC_TABLE,	/* several lines with the same number of columns */
	VC_HEXDUMP,	/* lines of two-digit hex bytes */
	VC_TEXT,	/* one line of text with spaces ("Dell Inc.") */
	VC_BINARY,	/* NUL, control bytes or bad UTF-8: not text */
	VC_OTHER,	/* several lines in no regular shape */
	VC_COUNT
};

extern const char *const vclass_names[VC_COUNT];

/* Classes whose files hold several values: the migration candidates. */
bool vclass_multi_value(enum vclass c);

/*
 * Words in @buf as GNU wc -w (coreutils 9.1) counts them with LC_ALL=C: a
 * word starts at a printable character (0x21-0x7e) and ends at one of
 * " \t\n\v\f\r"; other bytes (NUL, controls, 0x7f-0xff) neither start nor
 * end one.
 */
size_t count_words(const char *buf, size_t len);

/* The class of a value of two words or more. */
enum vclass classify(const char *buf, size_t len);

/*
 * The name files are grouped under: the base name with each index written
 * N: a run of decimal digits that ends the name or is followed by one of
 * "_-.:" (temp1_input), and a run of upper-case hex digits that ends the
 * name after a lower-case letter (gpe1F). l2cap stays l2cap. Returns
 * malloc'ed memory.
 */
char *attr_group_name(const char *base);

/*
 * For a one-word value: "time" or "size" when @base names a duration or
 * an amount of storage without a unit and @value is a decimal number;
 * NULL otherwise. See Documentation/admin-guide/survey.rst for the word lists.
 */
const char *unitless_kind(const char *base, const char *value, size_t len);

#endif
