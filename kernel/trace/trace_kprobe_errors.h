/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kprobe event layer's own parse errors, one TK_ERROR(CODE, message)
 * line each.  No include guard: the includer defines TK_ERROR to make
 * the enum of codes (trace_kprobe_internal.h) or the error_log message
 * table (trace_kprobe_parse.c) from the same lines.  In error_log's
 * table these come first, then the argument library's probe_arg_errors.h.
 */
TK_ERROR(BAD_CMD,		"Unknown command (expected p, r or -)")
TK_ERROR(NO_PLACE,		"Probe point is missing")
TK_ERROR(BAD_DELETE,		"Expected -:[GROUP/]EVENT")
TK_ERROR(NO_SUCH_EVENT,		"No kprobe event matches")
TK_ERROR(EVENT_BUSY,		"Event is in use (enabled, open or held by perf)")
TK_ERROR(BAD_HEAD,		"Expected ':' or a maxactive count after the kind")
TK_ERROR(BAD_MAXACT_TYPE,	"Only a return probe takes a maxactive count")
TK_ERROR(BAD_MAXACT,		"Bad maxactive count")
TK_ERROR(MAXACT_TOO_BIG,	"Maxactive count is too big (at most 4096)")
TK_ERROR(BAD_PROBE_ADDR,	"No such symbol, or a bad address or offset")
TK_ERROR(NON_UNIQ_SYMBOL,	"Several symbols have this name; probe by address")
TK_ERROR(BAD_RETPROBE,		"A return probe must be on a function entry")
TK_ERROR(BAD_ADDR_SUFFIX,	"Unknown suffix (only %return is known)")
TK_ERROR(BAD_MODULE_NAME,	"Bad module name (letters, digits and '_', at most 55)")
TK_ERROR(NO_GROUP_NAME,		"Group name is empty")
TK_ERROR(GROUP_TOO_LONG,	"Group name is too long")
TK_ERROR(BAD_GROUP_NAME,	"Group name must be a C identifier")
TK_ERROR(NO_EVENT_NAME,		"Event name is empty")
TK_ERROR(EVENT_TOO_LONG,	"Event name is too long")
TK_ERROR(BAD_EVENT_NAME,	"Event name must be a C identifier")
TK_ERROR(EVENT_EXIST,		"Another event already has this group/name")
TK_ERROR(BAD_INSN_BNDRY,	"Address is not on an instruction boundary")
TK_ERROR(FAIL_REG_PROBE,	"The kprobes core refused this probe")
TK_ERROR(DIFF_PROBE_TYPE,	"The event's probes are of the other kind (entry/return)")
TK_ERROR(DIFF_ARG_TYPE,		"Argument name or type differs from the event's")
TK_ERROR(SAME_PROBE,		"The event already has this exact probe")
TK_ERROR(BAD_PATTERN,		"Empty item in the list of functions")
TK_ERROR(NO_MATCH,		"No function that can be probed matches")
TK_ERROR(TOO_MANY_PLACES,	"Too many functions match (at most 20000)")
TK_ERROR(PATTERN_OFFSET,	"A place over many functions takes no offset")
TK_ERROR(TOO_MANY_ITEMS,	"Too many items in the list of functions (at most 64)")
