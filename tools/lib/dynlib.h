/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Libraries that only some commands need (librpm, libcurl, libarchive,
 * libsystemd), loaded with dlopen() by the first caller that does: a
 * command such as 'tables validate' then starts without mapping and
 * relocating them and their dozens of dependencies (libcurl alone brings
 * TLS, Kerberos, LDAP and ICU). Each library's functions are pointers,
 * sym_NAME, typed from its own header (dl_rpm.h, dl_curl.h, ...), valid
 * once dynlib_load() succeeded.
 *
 * dpkg-shlibdeps does not see these libraries: debian/control names them.
 */
#ifndef ABIDEP_DYNLIB_H
#define ABIDEP_DYNLIB_H

#include <stddef.h>

struct dynlib {
	const char *soname;		/* "librpm.so.9" */
	const char *package;		/* Debian's package shipping it: "librpm9" */
	const char *const *names;	/* its functions... */
	void *const *ptrs;		/* ...and where each goes (void **) */
	size_t n;
	int state;			/* 0 not tried, 1 loaded, -1 failed */
	char why[256];			/* dlerror() of the failure */
};

/*
 * Load @l and all its functions, once (not thread-safe: call it before
 * starting threads): 0, or -1 when the library or one of its functions is
 * missing (then every later call fails the same way, and nothing of the
 * library is used).
 */
int dynlib_load(struct dynlib *l);

/*
 * Why @l could not be loaded, for a message: "@for_what needs SONAME, which
 * cannot be loaded (WHY): install Debian's PACKAGE package (or your
 * distribution's)". Into @buf of @len.
 */
void dynlib_error(const struct dynlib *l, const char *for_what, char *buf, size_t len);

/* The table of @lib's functions, from its NAMES(X) list (see dl_rpm.c). */
#define DYNLIB_DEFINE_SYM(f) __typeof__(f) *sym_##f;
#define DYNLIB_NAME(f) #f,
#define DYNLIB_PTR(f) (void *)&sym_##f,
#define DYNLIB_DEFINE(var, list, soname, package)			\
	list(DYNLIB_DEFINE_SYM)						\
	static const char *const var##_names[] = { list(DYNLIB_NAME) };	\
	static void *const var##_ptrs[] = { list(DYNLIB_PTR) };		\
	struct dynlib var = {						\
		soname, package, var##_names, var##_ptrs,		\
		sizeof(var##_names) / sizeof(var##_names[0]), 0, "",	\
	}
#define DYNLIB_DECLARE_SYM(f) extern __typeof__(f) *sym_##f;

#endif
