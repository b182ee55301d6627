// SPDX-License-Identifier: GPL-2.0
/* libcurl, loaded when check --prometheus asks a server (dl_curl.h). */
#include "dl_curl.h"

DYNLIB_DEFINE(dl_curl, DL_CURL_FUNCS, CURL_SONAME, "libcurl" CURL_SOVERSION);
