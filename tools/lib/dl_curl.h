/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libcurl's functions abidep calls (prom_api.c: check --prometheus),
 * through dynlib.h: sym_NAME, valid after dynlib_load(&dl_curl).
 */
#ifndef ABIDEP_DL_CURL_H
#define ABIDEP_DL_CURL_H

/* curl.h's checking macro would stand in front of sym_curl_easy_setopt. */
#define CURL_DISABLE_TYPECHECK
#include <curl/curl.h>

#include "dynlib.h"

#define DL_CURL_FUNCS(X)						\
	X(curl_easy_cleanup) X(curl_easy_escape) X(curl_easy_getinfo)	\
	X(curl_easy_init) X(curl_easy_perform) X(curl_easy_reset)	\
	X(curl_easy_setopt) X(curl_easy_strerror) X(curl_free)		\
	X(curl_global_init) X(curl_url) X(curl_url_cleanup)		\
	X(curl_url_get) X(curl_url_set)

DL_CURL_FUNCS(DYNLIB_DECLARE_SYM)
extern struct dynlib dl_curl;

#endif
