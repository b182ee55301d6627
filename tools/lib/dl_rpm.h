/* SPDX-License-Identifier: GPL-2.0 */
/*
 * librpm's functions abidep calls (rpmdb.c: a root's rpm database;
 * scan_pkg.c: an .rpm's header), through dynlib.h: sym_NAME, valid after
 * dynlib_load(&dl_rpm).
 */
#ifndef ABIDEP_DL_RPM_H
#define ABIDEP_DL_RPM_H

#include <rpm/header.h>
#include <rpm/rpmdb.h>
#include <rpm/rpmlib.h>
#include <rpm/rpmlog.h>
#include <rpm/rpmmacro.h>
#include <rpm/rpmtd.h>
#include <rpm/rpmts.h>

#include "dynlib.h"

#define DL_RPM_FUNCS(X)							\
	X(headerFree) X(headerGet) X(headerGetAsString) X(headerGetString)	\
	X(headerImport) X(rpmtdFreeData) X(rpmtdNextString)		\
	X(rpmFreeMacros) X(rpmFreeRpmrc) X(rpmPopMacro) X(rpmPushMacro)	\
	X(rpmReadConfigFiles) X(rpmdbFreeIterator) X(rpmdbNextIterator)	\
	X(rpmlogRecMessage) X(rpmlogRecPriority) X(rpmlogSetCallback)	\
	X(rpmtsCreate) X(rpmtsFree) X(rpmtsInitIterator) X(rpmtsOpenDB)	\
	X(rpmtsSetRootDir) X(rpmtsSetVSFlags) X(rpmtsVSFlags)

DL_RPM_FUNCS(DYNLIB_DECLARE_SYM)
extern struct dynlib dl_rpm;

#endif
