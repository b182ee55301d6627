// SPDX-License-Identifier: GPL-2.0
/* Output formats, -o FILE and the text width (output.h). */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exit.h"
#include "output.h"
#include "safedir.h"
#include "util.h"

/* The narrowest width text is fitted to: below it nothing is readable. */
#define MIN_WIDTH	40

static const char *const format_names[FMT_COUNT] = {
	[FMT_TEXT] = "text",
	[FMT_JSON] = "json",
	[FMT_CSV] = "csv",
	[FMT_MARKDOWN] = "markdown",
	[FMT_PROMETHEUS] = "prometheus",
	[FMT_HTML] = "html",
	[FMT_DDLIST] = "dd-list",
};

const char *format_name(enum out_format f)
{
	return f < FMT_COUNT ? format_names[f] : "?";
}

int format_parse(const char *arg, unsigned int allowed, enum out_format *f)
{
	int i, n = 0, k = 0;

	for (i = 0; i < FMT_COUNT; i++)
		if (allowed & FMTB(i)) {
			n++;
			if (!strcmp(arg, format_names[i])) {
				*f = i;
				return EXIT_OK;
			}
		}
	/* "text, json, csv or markdown" */
	fprintf(stderr, "abidep: --format takes ");
	for (i = 0; i < FMT_COUNT; i++)
		if (allowed & FMTB(i))
			fprintf(stderr, "%s%s", k++ ? (k == n ? " or " : ", ") : "", format_names[i]);
	fprintf(stderr, ", not '%s'\n", arg);
	return EXIT_USAGE;
}

int output_open(struct output *o, const char *path, char *err, size_t errlen)
{
	char *d, *dir;
	int fd;

	memset(o, 0, sizeof(*o));
	o->f = stdout;
	o->dirfd = -1;
	if (!path)
		return 0;
	o->path = path;
	/* Its directory as safedir.h's rule has it: no symlink another could place. */
	o->dirfd = safe_parent_open(path, NULL, 0, 0, &o->base, NULL, err, errlen);
	if (o->dirfd == SAFE_REFUSED)
		return -1;
	d = xstrdup(path);
	dir = dirname(d);
	fd = o->dirfd < 0 ? -1 : safe_tmpfile(o->dirfd, o->base, "", &o->tmp);
	if (fd < 0) {
		snprintf(err, errlen, "cannot create a temporary file in %s for %s: %s; check the directory, or name another file with -o",
			 dir, path, strerror(errno));
		free(d);
		output_abort(o);
		return -1;
	}
	free(d);
	/*
	 * It is made 0600; its readers (node_exporter, a web server) usually
	 * run as another user: the mode of a file created the ordinary way.
	 */
	fchmod(fd, safe_umasked(0666));
	o->f = fdopen(fd, "w");
	if (!o->f) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		close(fd);
		output_abort(o);
		return -1;
	}
	return 0;
}

/* The temporary file removed, what output_open() holds freed. */
static void output_end(struct output *o)
{
	if (o->tmp)
		unlinkat(o->dirfd, o->tmp, 0);
	if (o->dirfd >= 0)
		close(o->dirfd);
	free(o->tmp);
	free(o->base);
	o->tmp = o->base = NULL;
	o->dirfd = -1;
}

void output_abort(struct output *o)
{
	if (o->f && o->f != stdout)
		fclose(o->f);
	o->f = NULL;
	output_end(o);
}

int output_close(struct output *o, char *err, size_t errlen)
{
	int ret = -1;

	if (!o->tmp) {
		if (!fflush(stdout) && !ferror(stdout))
			return 0;
		snprintf(err, errlen, "cannot write the output: %s", strerror(errno));
		return -1;
	}
	if (fflush(o->f) || ferror(o->f) || fsync(fileno(o->f))) {
		snprintf(err, errlen, "cannot write %s (for %s): %s; make room on its file system, or name another file with -o",
			 o->tmp, o->path, strerror(errno ? errno : EIO));
		output_abort(o);
		return -1;
	}
	/* In the directory the walk holds: renameat() replaces a symlink at the name. */
	if (fclose(o->f) || renameat(o->dirfd, o->tmp, o->dirfd, o->base))
		snprintf(err, errlen, "cannot replace %s with its temporary file %s: %s; check %s, or name another file with -o",
			 o->path, o->tmp, strerror(errno), o->path);
	else
		ret = 0;
	o->f = NULL;
	if (!ret) {
		free(o->tmp);
		o->tmp = NULL;
	}
	output_end(o);
	return ret;
}

int output_width(const struct output *o, bool wide)
{
	const char *cols = getenv("COLUMNS");
	struct winsize ws;
	char *end;
	long w = 0;

	if (wide || o->path)
		return 0;
	if (cols && *cols) {
		errno = 0;
		w = strtol(cols, &end, 10);
		if (errno || *end || w <= 0)
			w = 0;
	}
	if (!w && isatty(STDOUT_FILENO) && !ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws))
		w = ws.ws_col;
	if (!w)
		return 0;
	return w < MIN_WIDTH ? MIN_WIDTH : w > 100000 ? 100000 : (int)w;
}
