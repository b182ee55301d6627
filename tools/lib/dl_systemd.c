// SPDX-License-Identifier: GPL-2.0
/* libsystemd, loaded when a command needs this host's key (dl_systemd.h). */
#include "dl_systemd.h"

DYNLIB_DEFINE(dl_systemd, DL_SYSTEMD_FUNCS, SYSTEMD_SONAME, "libsystemd" SYSTEMD_SOVERSION);
