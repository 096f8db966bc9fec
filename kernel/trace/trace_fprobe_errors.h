/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fprobe event layer's own parse errors (f: and t: definitions), one
 * FPEV_ERROR(CODE, message) line each.  No include guard: the includer
 * defines FPEV_ERROR to build the enum of codes (trace_fprobe_internal.h)
 * or error_log's message table (trace_fprobe_parse.c) from these lines.
 * error_log's table is this list followed by the argument library's
 * probe_arg_errors.h.
 */
FPEV_ERROR(BAD_MAXACT,		"No maxactive count for fprobes: only f or t before ':'")
FPEV_ERROR(BAD_ADDR_SUFFIX,	"Unknown suffix (only %return, and only for f)")
FPEV_ERROR(BAD_TP_NAME,		"Tracepoint names are letters, digits and '_'")
FPEV_ERROR(NO_TRACEPOINT,		"No such tracepoint")
FPEV_ERROR(NO_GROUP_NAME,		"Group name is empty")
FPEV_ERROR(GROUP_TOO_LONG,	"Group name is too long")
FPEV_ERROR(BAD_GROUP_NAME,	"Group name must be a C identifier")
FPEV_ERROR(NO_EVENT_NAME,		"Event name is empty")
FPEV_ERROR(EVENT_TOO_LONG,	"Event name is too long")
FPEV_ERROR(BAD_EVENT_NAME,	"Event name must be a C identifier")
FPEV_ERROR(EVENT_EXIST,		"Another event already has this group/name")
FPEV_ERROR(BAD_INSN_BNDRY,	"Not on an instruction boundary")
FPEV_ERROR(BAD_PROBE_ADDR,	"No such symbol")
FPEV_ERROR(FAIL_REG_PROBE,	"No function ftrace can probe matches, or probing is refused")
FPEV_ERROR(DIFF_PROBE_TYPE,	"The event's probes are of another kind (f/t, entry/exit)")
FPEV_ERROR(DIFF_ARG_TYPE,		"Argument name or type differs from the event's")
FPEV_ERROR(SAME_PROBE,		"The event already has this exact probe")
