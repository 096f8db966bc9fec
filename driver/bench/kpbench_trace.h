/* SPDX-License-Identifier: GPL-2.0 */
/* The static tracepoint the benchmark compares probe hits against. */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM kpbench

#if !defined(_KPBENCH_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _KPBENCH_TRACE_H

#include <linux/tracepoint.h>

TRACE_EVENT(kpbench_hit,
	TP_PROTO(long a),
	TP_ARGS(a),
	TP_STRUCT__entry(__field(long, a)),
	TP_fast_assign(__entry->a = a;),
	TP_printk("a=%ld", __entry->a)
);

#endif /* _KPBENCH_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE kpbench_trace
#include <trace/define_trace.h>
