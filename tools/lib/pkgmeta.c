// SPDX-License-Identifier: GPL-2.0
/*
 * Reading what a package says of itself: deb822 stanzas (a .deb's control
 * file, dpkg's status file) and rpm's SOURCERPM. One reader for every
 * place that names a package's maintainer or source.
 */
#include <stdbool.h>
#include <string.h>
#include <strings.h>

#include "pkgmeta.h"
#include "util.h"

/* @line starts with field @name and its colon: its value, else NULL. */
static char *field_value(char *line, const char *name)
{
	size_t n = strlen(name);

	if (strncasecmp(line, name, n) || line[n] != ':')
		return NULL;
	line += n + 1;
	while (*line == ' ' || *line == '\t')
		line++;
	return line;
}

/* Cut trailing blanks of @v; NULL for an empty value. */
static const char *trimmed(char *v)
{
	size_t n = strlen(v);

	while (n && (v[n - 1] == ' ' || v[n - 1] == '\t' || v[n - 1] == '\r'))
		v[--n] = '\0';
	return n ? v : NULL;
}

char *pkg_meta_deb822(char *s, struct pkg_meta *m)
{
	char *p = s, *nl, *v;

	memset(m, 0, sizeof(*m));
	while (*p == '\n' || (*p == '\r' && p[1] == '\n'))
		p += *p == '\r' ? 2 : 1;	/* blank lines before it */
	for (; *p; p = nl) {
		nl = strchrnul(p, '\n');
		if (*nl)
			*nl++ = '\0';
		if (!*p || (*p == '\r' && !p[1])) {
			p = nl;			/* past the blank line ending it */
			break;
		}
		if (*p == ' ' || *p == '\t')
			continue;		/* a continuation line */
		if ((v = field_value(p, "Package")))
			m->name = trimmed(v);
		else if ((v = field_value(p, "Version")))
			m->version = trimmed(v);
		else if ((v = field_value(p, "Architecture")))
			m->arch = trimmed(v);
		else if ((v = field_value(p, "Maintainer")))
			m->maintainer = trimmed(v);
		else if ((v = field_value(p, "Source")))
			m->source = trimmed(v);
	}
	/* "Source: v4l-utils (1.22.1-5)": the name only. */
	if (m->source) {
		char *sp = strpbrk((char *)m->source, " \t");

		if (sp)
			*sp = '\0';
	}
	if (!m->source)
		m->source = m->name;
	return p;
}

char *pkg_source_of_srpm(const char *srpm)
{
	const char *end, *dash;
	int i;

	if (!srpm)
		return NULL;
	end = srpm + strlen(srpm);
	if (end - srpm > 8 && !strcmp(end - 8, ".src.rpm"))
		end -= 8;
	else if (end - srpm > 10 && !strcmp(end - 10, ".nosrc.rpm"))
		end -= 10;
	else
		return NULL;
	/* NAME-VERSION-RELEASE: the name is before the last two dashes. */
	for (i = 0; i < 2; i++) {
		for (dash = end - 1; dash > srpm && *dash != '-'; dash--)
			;
		if (dash <= srpm)
			return NULL;
		end = dash;
	}
	return xstrndup(srpm, end - srpm);
}
