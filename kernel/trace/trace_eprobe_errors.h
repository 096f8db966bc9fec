/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The event probe layer's own parse errors, one TEP_ERROR(CODE, message)
 * line each.  No include guard: the includer defines TEP_ERROR to make
 * the enum of codes (trace_eprobe_internal.h) or the error_log message
 * table (trace_eprobe_parse.c) from the same lines.  In error_log's
 * table (under "event_probe") these come first, then the argument
 * library's probe_arg_errors.h.  NO_GROUP_NAME to BAD_EVENT_NAME are in
 * the order of enum pev_name_err.
 */
TEP_ERROR(BAD_CMD,		"Expected e[:[GROUP/][EVENT]]")
TEP_ERROR(NO_GROUP_NAME,	"Group name is empty")
TEP_ERROR(GROUP_TOO_LONG,	"Group name is too long")
TEP_ERROR(BAD_GROUP_NAME,	"Group name must be a C identifier")
TEP_ERROR(NO_EVENT_NAME,	"Event name is empty")
TEP_ERROR(EVENT_TOO_LONG,	"Event name is too long")
TEP_ERROR(BAD_EVENT_NAME,	"Event name must be a C identifier")
TEP_ERROR(NO_EVENT_INFO,	"Expected the attached event as SYSTEM.EVENT")
TEP_ERROR(BAD_ATTACH_EVENT,	"No such event to attach to (or not one an eprobe can use)")
TEP_ERROR(NO_EP_FILTER,		"Expected a filter after 'if'")
TEP_ERROR(EVENT_EXIST,		"Another event already has this group/name")
TEP_ERROR(NO_SYMBOL,		"No such kernel symbol")
