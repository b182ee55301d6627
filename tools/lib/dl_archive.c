// SPDX-License-Identifier: GPL-2.0
/* libarchive, loaded when scan --packages reads package files (dl_archive.h). */
#include "dl_archive.h"

DYNLIB_DEFINE(dl_archive, DL_ARCHIVE_FUNCS, ARCHIVE_SONAME, "libarchive" ARCHIVE_SOVERSION);
