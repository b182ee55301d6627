// SPDX-License-Identifier: GPL-2.0
/*
 * abidep tables export: strict Documentation/ABI text (our fields folded into
 * the description, so the dates reach upstream in one form), and the C table
 * the kernel module compiles in.
 */
#include <libgen.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "output.h"
#include "pattern.h"
#include "text.h"
#include "util.h"

/* Field: value, continuation lines kept as they were written. */
static void put_field(FILE *f, const char *name, const char *val)
{
	int pad = (int)strlen(name) + 1;

	if (!val)
		return;
	fprintf(f, "%s:%s%s\n", name, pad < 8 ? "\t\t" : "\t", val);
}

/* Our fields as one sentence, for upstream: dates in one form. */
static void put_dates(FILE *f, const struct abi_entry *e)
{
	const char *dep = e->field[ABI_DEPRECATED];
	int i;

	fputs("\n\t\t", f);
	if (e->status == ABI_ST_REMOVED) {
		if (dep)
			fprintf(f, "Deprecated since %s; removed", dep);
		else
			fputs("Removed", f);
		if (e->field[ABI_REMOVED])
			fprintf(f, " in %s", e->field[ABI_REMOVED]);
	} else {
		fprintf(f, "Deprecated since %s", dep ? dep : "an unknown date");
		if (e->field[ABI_REMOVE_AFTER])
			fprintf(f, ", to be removed after %s", e->field[ABI_REMOVE_AFTER]);
	}
	for (i = 0; i < e->nreplaced; i++)
		fprintf(f, "%s%s", i ? ", " : "; use ", e->replaced_by[i]);
	fputs(".\n", f);
}

void export_entry_text(FILE *f, const struct abi_entry *e, bool ours, const char *users)
{
	int i;

	for (i = 0; i < e->nwhat; i++)
		put_field(f, "What", e->what[i]);
	put_field(f, "Date", e->field[ABI_DATE]);
	put_field(f, "KernelVersion", e->field[ABI_KERNELVERSION]);
	put_field(f, "Contact", e->field[ABI_CONTACT]);
	if (ours) {
		for (i = ABI_FIRST_OURS; i < ABI_NFIELDS; i++)
			put_field(f, abi_field_names[i], e->field[i]);
	}
	if (e->field[ABI_DESCRIPTION]) {
		const char *d = e->field[ABI_DESCRIPTION];

		/* Text that started on the Description: line stays there. */
		fprintf(f, "Description:%s%s\n",
			*d == '\t' || *d == ' ' ? "\n" : "\t", d);
	}
	if (!ours && abi_is_migration(e))
		put_dates(f, e);
	put_field(f, "Users", users ? users : e->field[ABI_USERS]);
}

static void export_file(FILE *f, const struct abi_set *set, char *const *users,
			const struct abi_file *af, bool intro)
{
	int k;

	if (intro && af->intro)
		fprintf(f, "%s\n\n", af->intro);
	for (k = 0; k < af->nentries; k++) {
		if (k)
			fputc('\n', f);
		export_entry_text(f, &set->entries[af->first + k], false,
				  users ? users[af->first + k] : NULL);
	}
}

void export_abi(FILE *f, const struct abi_set *set, char *const *users)
{
	int i;

	/* One stream: entries only (a file's intro would read as a field's). */
	for (i = 0; i < set->nfiles; i++) {
		if (i && set->files[i].nentries)
			fputc('\n', f);
		export_file(f, set, users, &set->files[i], set->nfiles == 1);
	}
}

int export_abi_dir(const char *dir, const struct abi_set *set, char *const *users,
		   char *err, size_t errlen)
{
	struct output o;
	int i, ret = 0;

	for (i = 0; i < set->nfiles && !ret; i++) {
		char *copy = xstrdup(set->files[i].path);
		char *path = path_join(dir, basename(copy));

		ret = output_open(&o, path, err, errlen);
		if (!ret) {
			export_file(o.f, set, users, &set->files[i], true);
			ret = output_close(&o, err, errlen);
		}
		free(path);
		free(copy);
	}
	return ret;
}

/* "/sys/class/CLASS/<dev>/NAME" -> CLASS and NAME (pointers into @path). */
static bool class_form(const char *path, char *cls, size_t clen,
		       char *dir, size_t dlen, const char **name)
{
	const char *p = path, *c, *d, *n, *m;

	if (strncmp(p, "/sys/class/", 11) || abi_path_len(path) != strlen(path))
		return false;
	c = p + 11;
	d = strchr(c, '/');
	if (!d || (size_t)(d - c) >= clen || !d[1])
		return false;
	m = strpbrk(c, "<>*?[]{}");
	if (m && m < d)		/* the class is a name, not a pattern */
		return false;
	n = strchr(d + 1, '/');
	if (!n || strchr(n + 1, '/') || !n[1] || strpbrk(n + 1, "<>*?[]{}") ||
	    (size_t)(n - path) >= dlen)
		return false;
	memcpy(cls, c, d - c);
	cls[d - c] = '\0';
	memcpy(dir, path, n - path);
	dir[n - path] = '\0';
	*name = n + 1;
	return true;
}

static void c_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/*
 * Whether What @k of @e has the form of an alias abidep.ko makes: a
 * deprecated /sys/class/CLASS/<device>/OLD replaced by one file NEW in the
 * same directory. @cls, @old, @new get the names when so.
 */
static bool alias_form(const struct abi_entry *e, int k, char *cls, size_t clen,
		       const char **old, const char **new)
{
	char dir[512], ncls[64], ndir[512];

	/* Only what validation accepts: the input may not have been. */
	if (e->status != ABI_ST_DEPRECATED || e->nreplaced != 1 || !e->field[ABI_DEPRECATED])
		return false;
	return class_form(e->what[k], cls, clen, dir, sizeof(dir), old) &&
	       class_form(e->replaced_by[0], ncls, sizeof(ncls), ndir, sizeof(ndir), new) &&
	       !strcmp(dir, ndir) && strcmp(*old, *new);
}

/* A Remove-after: the module can hold: a date or a kernel version, or both. */
static bool has_removal(const struct abi_entry *e)
{
	return e->field[ABI_REMOVE_AFTER] &&
	       (e->remove_after.when.has_date || e->remove_after.when.has_kver);
}

/*
 * Whether abidep.ko makes What @k of @e itself, as an alias: the alias
 * form, with a removal date or kernel (what export_c() exports).
 */
static bool module_alias(const struct abi_entry *e, int k, char *cls, size_t clen,
			 const char **old, const char **new)
{
	return has_removal(e) && alias_form(e, k, cls, clen, old, new);
}

bool export_module_alias(const struct abi_entry *e, int k)
{
	const char *old, *new;
	char cls[64];

	return module_alias(e, k, cls, sizeof(cls), &old, &new);
}

int export_c_unexpressible(FILE *f, const struct abi_set *set)
{
	int i, k, n = 0;

	for (i = 0; i < set->nentries; i++) {
		const struct abi_entry *e = &set->entries[i];

		for (k = 0; k < e->nwhat; k++) {
			const char *old, *new;
			char cls[64];

			if (has_removal(e) || !alias_form(e, k, cls, sizeof(cls), &old, &new))
				continue;
			fputs("abidep: export --c: ", f);
			text_fputs(f, e->file, TEXT_TERMINAL);
			fprintf(f, ":%d: ", e->what_line[k]);
			text_fputs(f, e->what[k], TEXT_TERMINAL);
			fputs(" is an alias the module would make, but has no Remove-after:"
			      " add one (a date, a kernel version, or both)\n", f);
			n++;
		}
	}
	return n;
}

int export_c(FILE *f, const struct abi_set *set)
{
	int i, k, n = 0;

	fprintf(f,
		"/* SPDX-License-Identifier: GPL-2.0 */\n"
		"/*\n"
		" * Generated by `abidep tables export --c` from migration-tables/:\n"
		" * do not edit; run `make tables`. The entries the module can alias\n"
		" * itself: deprecated /sys/class/CLASS/<device>/OLD files replaced by\n"
		" * one file in the same directory.\n"
		" */\n"
		"static struct abidep_entry abidep_builtin_entries[] = {\n");
	for (i = 0; i < set->nentries; i++) {
		const struct abi_entry *e = &set->entries[i];
		/* As written: the module parses it as validate did (when.c). */
		const char *when = e->field[ABI_REMOVE_AFTER];

		for (k = 0; k < e->nwhat; k++) {
			const char *old, *new;
			char cls[64], *base;

			if (!module_alias(e, k, cls, sizeof(cls), &old, &new))
				continue;
			base = xstrdup(e->file);
			fprintf(f, "\t{\n\t\t/* %s:%d */\n", basename(base), e->what_line[k]);
			fprintf(f, "\t\t.class_name = ");
			c_string(f, cls);
			fprintf(f, ",\n\t\t.old_name = ");
			c_string(f, old);
			fprintf(f, ",\n\t\t.new_name = ");
			c_string(f, new);
			fprintf(f, ",\n\t\t.deprecated = ");
			c_string(f, e->field[ABI_DEPRECATED]);
			fprintf(f, ",\n\t\t.remove_after = ");
			c_string(f, when);
			fprintf(f, ",\n\t\t.hint = \"see migration-tables/%s\",\n\t},\n",
				basename(base));
			free(base);
			n++;
		}
	}
	fprintf(f, "};\n");
	return n;
}
