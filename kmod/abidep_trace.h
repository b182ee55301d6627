/* SPDX-License-Identifier: GPL-2.0 */
/*
 * abidep:abidep_access, fired on every read or write of an alias, for perf
 * and bpftrace:
 *	bpftrace -e 'tracepoint:abidep:abidep_access { @[comm, str(args->path)] = count(); }'
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM abidep

#if !defined(_ABIDEP_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _ABIDEP_TRACE_H

#include <linux/tracepoint.h>

#include "compat.h"

TRACE_EVENT(abidep_access,
	    TP_PROTO(const char *path, const char *old_name,
		     const char *new_name, bool write, long ret),
	    TP_ARGS(path, old_name, new_name, write, ret),
	    TP_STRUCT__entry(__string(path, path)
			     __string(old_name, old_name)
			     __string(new_name, new_name)
			     __field(bool, write)
			     __field(long, ret)),
	    TP_fast_assign(abidep_assign_str(path, path);
			   abidep_assign_str(old_name, old_name);
			   abidep_assign_str(new_name, new_name);
			   __entry->write = write;
			   __entry->ret = ret;),
	    TP_printk("path=%s old=%s new=%s op=%s ret=%ld",
		      __get_str(path), __get_str(old_name), __get_str(new_name),
		      __entry->write ? "write" : "read", __entry->ret)
);

#endif /* _ABIDEP_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE abidep_trace
#include <trace/define_trace.h>
