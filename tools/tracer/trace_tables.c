// SPDX-License-Identifier: GPL-2.0
/*
 * abidep trace: the tables a pinned tracer watches, remembered for the
 * syncs after it. --pin writes their paths (absolute, one a line; none
 * for the default tables) to PIN_TABLES, which lives as long as the pins
 * (both go at reboot); --sync and --stop resolve the watched set from
 * them whatever -t they are given, so that the timer's sync with the
 * default tables cannot narrow a pin made with a distribution's own; --stop
 * removes it. A tracer pinned by an abidep from before has none: -t is
 * used, as then.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exit.h"
#include "trace.h"
#include "util.h"

#define PIN_TABLES	RUN_DIR "/pinned-tables"
/* More would be a file not written by --pin. */
#define PIN_TABLES_MAX	256

int run_file_save(const char *path, const char *text, const char *what)
{
	char tmp[PATH_MAX];
	FILE *f = NULL;
	int fd = -1;

	snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path);
	if (mkdir(RUN_DIR, 0755) && errno != EEXIST)
		goto fail;
	fd = mkstemp(tmp);
	if (fd < 0 || !(f = fdopen(fd, "w")))
		goto fail;
	fputs(text, f);
	if (fclose(f) || rename(tmp, path)) {
		f = NULL;
		fd = -1;
		goto fail;
	}
	return 0;
fail:
	fprintf(stderr, "abidep: cannot record %s in %s: %s\n", what, path, strerror(errno));
	if (f)
		fclose(f);
	else if (fd >= 0)
		close(fd);
	if (fd >= 0 || f)
		unlink(tmp);
	return -1;
}

int pin_tables_save(char *const *paths, int n)
{
	char real[PATH_MAX], *text = xstrdup(""), *more;
	int i, ret;

	for (i = 0; i < n; i++) {
		if (!realpath(paths[i], real)) {
			fprintf(stderr, "abidep: cannot record the pinned tables: %s: %s\n",
				paths[i], strerror(errno));
			free(text);
			return -1;
		}
		more = xasprintf("%s%s\n", text, real);
		free(text);
		text = more;
	}
	ret = run_file_save(PIN_TABLES, text, "the pinned tables");
	free(text);
	return ret;
}

int pin_tables_load(struct pin_tables *pt)
{
	char line[PATH_MAX + 2];
	FILE *f = fopen(PIN_TABLES, "r");
	size_t len;

	memset(pt, 0, sizeof(*pt));
	if (!f)
		return errno == ENOENT ? 1 : -1;
	while (fgets(line, sizeof(line), f)) {
		len = strlen(line);
		if (!len || line[len - 1] != '\n' || line[0] != '/' || pt->n >= PIN_TABLES_MAX) {
			fclose(f);
			pin_tables_free(pt);
			fprintf(stderr, "abidep: %s is not a list of tables as --pin writes it; using -t\n",
				PIN_TABLES);
			return -1;
		}
		line[len - 1] = '\0';
		pt->paths = xrealloc(pt->paths, (pt->n + 1) * sizeof(char *));
		pt->paths[pt->n++] = xstrdup(line);
	}
	fclose(f);
	return 0;
}

/* Does -t (@paths) name the same tables as @pt, in any order? */
bool pin_tables_same(const struct pin_tables *pt, char *const *paths, int n)
{
	char real[PATH_MAX];
	int i, k;

	if (n != pt->n)
		return false;
	for (i = 0; i < n; i++) {
		if (!realpath(paths[i], real))
			return false;
		for (k = 0; k < pt->n && strcmp(pt->paths[k], real); k++)
			;
		if (k == pt->n)
			return false;
	}
	return true;
}

void pin_tables_free(struct pin_tables *pt)
{
	int i;

	for (i = 0; i < pt->n; i++)
		free(pt->paths[i]);
	free(pt->paths);
	memset(pt, 0, sizeof(*pt));
}

void pin_tables_forget(void)
{
	if (unlink(PIN_TABLES) && errno != ENOENT)
		fprintf(stderr, "abidep: cannot remove %s: %s\n", PIN_TABLES, strerror(errno));
}
