/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a package says of itself, wherever it is read from: a .deb's
 * control file or a dpkg status stanza (both deb822, read by
 * pkg_meta_deb822()), an rpm's header (a package file's, or the rpm
 * database's). The scan names hits by it, check and report the owners of
 * executables, tables export --users the users of an entry.
 */
#ifndef ABIDEP_PKGMETA_H
#define ABIDEP_PKGMETA_H

#include <stddef.h>

struct pkg_meta {
	const char *name;		/* Package; rpm NAME */
	const char *version;		/* Version; rpm [EPOCH:]VERSION-RELEASE */
	const char *arch;		/* Architecture; rpm ARCH ("noarch") */
	const char *source;		/* the source package's name (below) */
	const char *maintainer;		/* Maintainer; rpm PACKAGER */
};

/*
 * Fill @m from one deb822 stanza @s (a control file, a stanza of dpkg's
 * status file; blank lines before it are skipped): NUL-terminated, cut in
 * place (each field's value ends at its line's end). Field names are
 * matched without case, as deb822 says; continuation lines are skipped;
 * LF or CRLF line ends. source is Source's name (without its "(version)")
 * or, with no Source, Package. Fields absent or empty are NULL; the values
 * point into @s. Returns the end of the stanza (past its blank line), for
 * the next one: a stanza's end, or the end of @s.
 */
char *pkg_meta_deb822(char *s, struct pkg_meta *m);

/*
 * The source package's name from rpm's SOURCERPM ("bash-5.2.26-3.fc40.src.rpm"
 * gives "bash"), malloc'd; NULL if @srpm is NULL or not of that form.
 */
char *pkg_source_of_srpm(const char *srpm);

#endif
