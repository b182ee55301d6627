/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libsystemd's functions abidep calls (hostid.c: the host key), through
 * dynlib.h: sym_NAME, valid after dynlib_load(&dl_systemd).
 */
#ifndef ABIDEP_DL_SYSTEMD_H
#define ABIDEP_DL_SYSTEMD_H

#include <systemd/sd-id128.h>

#include "dynlib.h"

#define DL_SYSTEMD_FUNCS(X)						\
	X(sd_id128_get_boot_app_specific) X(sd_id128_get_machine_app_specific)	\
	X(sd_id128_to_string)

DL_SYSTEMD_FUNCS(DYNLIB_DECLARE_SYM)
extern struct dynlib dl_systemd;

#endif
