/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The deprecated files outside sysfs the tracer knows by what they are
 * (tools/trace_special.c): which one a table's What names.
 */
#ifndef ABIDEP_SPECIAL_H
#define ABIDEP_SPECIAL_H

/* The special (enum abidep_special) @what names exactly, or -1. */
int special_of(const char *what);

#endif
