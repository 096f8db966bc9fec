/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The event probe layer's own parse errors, one EPEV_ERROR(CODE, message)
 * line each.  No include guard: the includer defines EPEV_ERROR to make
 * the enum of codes (trace_eprobe_internal.h) or the error_log message
 * table (trace_eprobe_parse.c) from the same lines.  In error_log's
 * table (under "event_probe") these come first, then the argument
 * library's probe_arg_errors.h.  NO_GROUP_NAME to BAD_EVENT_NAME are in
 * the order of enum probe_ev_name_err.
 */
EPEV_ERROR(BAD_CMD,		"Expected e[:[GROUP/][EVENT]]")
EPEV_ERROR(NO_GROUP_NAME,	"Group name is empty")
EPEV_ERROR(GROUP_TOO_LONG,	"Group name is too long")
EPEV_ERROR(BAD_GROUP_NAME,	"Group name must be a C identifier")
EPEV_ERROR(NO_EVENT_NAME,	"Event name is empty")
EPEV_ERROR(EVENT_TOO_LONG,	"Event name is too long")
EPEV_ERROR(BAD_EVENT_NAME,	"Event name must be a C identifier")
EPEV_ERROR(NO_EVENT_INFO,	"Expected the attached event as SYSTEM.EVENT")
EPEV_ERROR(BAD_ATTACH_EVENT,	"No such event to attach to (or not one an eprobe can use)")
EPEV_ERROR(NO_EP_FILTER,		"Expected a filter after 'if'")
EPEV_ERROR(EVENT_EXIST,		"Another event already has this group/name")
EPEV_ERROR(NO_SYMBOL,		"No such kernel symbol")
