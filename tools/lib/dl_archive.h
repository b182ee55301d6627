/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libarchive's functions abidep calls (scan_pkg.c: scan --packages),
 * through dynlib.h: sym_NAME, valid after dynlib_load(&dl_archive).
 */
#ifndef ABIDEP_DL_ARCHIVE_H
#define ABIDEP_DL_ARCHIVE_H

#include <archive.h>
#include <archive_entry.h>

#include "dynlib.h"

#define DL_ARCHIVE_FUNCS(X)						\
	X(archive_entry_filetype) X(archive_entry_hardlink)		\
	X(archive_entry_pathname) X(archive_entry_size)			\
	X(archive_error_string) X(archive_read_data) X(archive_read_free)	\
	X(archive_read_new) X(archive_read_next_header) X(archive_read_open)	\
	X(archive_read_support_filter_bzip2) X(archive_read_support_filter_gzip)	\
	X(archive_read_support_filter_lzma) X(archive_read_support_filter_none)	\
	X(archive_read_support_filter_rpm) X(archive_read_support_filter_xz)	\
	X(archive_read_support_filter_zstd) X(archive_read_support_format_ar)	\
	X(archive_read_support_format_cpio) X(archive_read_support_format_tar)	\
	X(archive_set_error)

DL_ARCHIVE_FUNCS(DYNLIB_DECLARE_SYM)
extern struct dynlib dl_archive;

#endif
