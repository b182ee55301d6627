// SPDX-License-Identifier: GPL-2.0
/* librpm, loaded when a command reads an rpm database or package (dl_rpm.h). */
#include "dl_rpm.h"

DYNLIB_DEFINE(dl_rpm, DL_RPM_FUNCS, RPM_SONAME, "librpm" RPM_SOVERSION);
