// SPDX-License-Identifier: GPL-2.0
/*
 * Prometheus text exposition format (version 0.0.4), as node_exporter's
 * textfile collector reads it:
 *
 *	# HELP abidep_deprecated_access_total Uses of ...
 *	# TYPE abidep_deprecated_access_total counter
 *	abidep_deprecated_access_total{entry="...",exe="..."} 5
 *
 * One HELP and TYPE per family, its samples together after them: the
 * collector rejects a file with a family split in two. Label values escape
 * backslash, double quote and newline, and must be UTF-8: the collector
 * drops the whole file otherwise, so an executable named in some other
 * encoding must not cost the fleet its metrics; invalid bytes become
 * U+FFFD. C1 controls and bidirectional overrides are written \uNNNN, as
 * every output writes them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "prom.h"
#include "text.h"
#include "util.h"

struct family {
	char *name, *type, *help;
	char **lines;		/* "{labels} value", sorted on writing */
	size_t n, cap;
};

struct prom {
	struct family *fam;
	size_t n, cap;
	struct family *cur;
};

struct prom *prom_new(void)
{
	return xcalloc(1, sizeof(struct prom));
}

void prom_free(struct prom *p)
{
	size_t i, k;

	if (!p)
		return;
	for (i = 0; i < p->n; i++) {
		for (k = 0; k < p->fam[i].n; k++)
			free(p->fam[i].lines[k]);
		free(p->fam[i].lines);
		free(p->fam[i].name);
		free(p->fam[i].type);
		free(p->fam[i].help);
	}
	free(p->fam);
	free(p);
}

void prom_family(struct prom *p, const char *name, const char *type,
		 const char *help)
{
	struct family *f;
	size_t i;

	for (i = 0; i < p->n; i++)
		if (!strcmp(p->fam[i].name, name)) {
			p->cur = &p->fam[i];
			return;
		}
	f = GROW(p->fam, p->n, p->cap);
	memset(f, 0, sizeof(*f));
	f->name = xstrdup(name);
	f->type = xstrdup(type);
	f->help = xstrdup(help);
	p->cur = f;
}

/*
 * Backslash, double quote and newline escaped; bytes that are not UTF-8 as
 * U+FFFD (the collector would drop the file); C1 controls and the
 * bidirectional overrides as \uNNNN, so that a dashboard does not show a
 * name backwards.
 */
#define PROM_LABEL_ESC	(ESC_BAD_FFFD | ESC_LF | ESC_HIDDEN | ESC_BSLASH | ESC_DQUOTE)

char *prom_escape_label(const char *s)
{
	return text_escaped(s, PROM_LABEL_ESC);
}

void prom_sample(struct prom *p, const char *const *names,
		 const char *const *values, int n, const char *value)
{
	char *line = xstrdup("{"), *v, *next;
	int i;

	for (i = 0; i < n; i++) {
		v = prom_escape_label(values[i]);
		next = xasprintf("%s%s%s=\"%s\"", line, i ? "," : "", names[i], v);
		free(v);
		free(line);
		line = next;
	}
	next = xasprintf("%s} %s", line, value);
	free(line);
	*GROW(p->cur->lines, p->cur->n, p->cur->cap) = next;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int cmp_family(const void *a, const void *b)
{
	return strcmp(((const struct family *)a)->name, ((const struct family *)b)->name);
}

/* HELP text escapes backslash and newline (not quotes). */
static void put_help(FILE *out, const char *s)
{
	text_fputs(out, s, ESC_BSLASH | ESC_LF);
}

int prom_write(const struct prom *p, FILE *out)
{
	struct family *fam = xmalloc(p->n * sizeof(*fam) + 1);
	size_t i, k;

	/* Families sorted in a copy; each family's lines sorted in place. */
	memcpy(fam, p->fam, p->n * sizeof(*fam));
	qsort(fam, p->n, sizeof(*fam), cmp_family);
	for (i = 0; i < p->n; i++) {
		if (fam[i].n > 1)	/* lines is NULL when there are none */
			qsort(fam[i].lines, fam[i].n, sizeof(char *), cmp_str);
		fprintf(out, "# HELP %s ", fam[i].name);
		put_help(out, fam[i].help);
		fprintf(out, "\n# TYPE %s %s\n", fam[i].name, fam[i].type);
		for (k = 0; k < fam[i].n; k++)
			fprintf(out, "%s%s\n", fam[i].name, fam[i].lines[k]);
	}
	free(fam);
	return fflush(out) || ferror(out) ? -1 : 0;
}

int prom_write_file(const struct prom *p, const char *path, char *err, size_t errlen)
{
	struct output o;

	if (output_open(&o, path, err, errlen))
		return -1;
	prom_write(p, o.f);	/* a write error is output_close()'s to report */
	return output_close(&o, err, errlen);
}
