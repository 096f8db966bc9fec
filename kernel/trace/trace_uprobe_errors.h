/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The uprobe event layer's own parse errors, one UPEV_ERROR(CODE, message)
 * line each.  No include guard: the includer defines UPEV_ERROR to make
 * the enum of codes or the error_log message table from the same lines.
 * In error_log's table these come first, then the argument library's
 * probe_arg_errors.h.
 */
UPEV_ERROR(FILE_NOT_FOUND,	"No such file")
UPEV_ERROR(NO_REGULAR_FILE,	"Not a regular file")
UPEV_ERROR(BAD_REFCNT,		"Bad reference counter offset")
UPEV_ERROR(REFCNT_OPEN_BRACE,	"Reference counter parenthesis is not closed")
UPEV_ERROR(BAD_REFCNT_SUFFIX,	"Unexpected text after the reference counter")
UPEV_ERROR(REFCNT_MISMATCH,	"Another probe on this place has another reference counter")
UPEV_ERROR(BAD_ADDR_SUFFIX,	"Unknown suffix (only %return is known)")
UPEV_ERROR(BAD_UPROBE_OFFS,	"Bad file offset of the probe")
UPEV_ERROR(NO_GROUP_NAME,		"Group name is empty")
UPEV_ERROR(GROUP_TOO_LONG,	"Group name is too long")
UPEV_ERROR(BAD_GROUP_NAME,	"Group name must be a C identifier")
UPEV_ERROR(NO_EVENT_NAME,		"Event name is empty")
UPEV_ERROR(EVENT_TOO_LONG,	"Event name is too long")
UPEV_ERROR(BAD_EVENT_NAME,	"Event name must be a C identifier")
UPEV_ERROR(EVENT_EXIST,		"Another event already has this group/name")
UPEV_ERROR(DIFF_PROBE_TYPE,	"The event's probes are of the other kind (entry/return)")
UPEV_ERROR(DIFF_ARG_TYPE,		"Argument name or type differs from the event's")
UPEV_ERROR(SAME_PROBE,		"The event already has this exact probe")
UPEV_ERROR(ARM_REFUSED,		"The uprobes core refused this place (past the file's end, or a misaligned counter)")
