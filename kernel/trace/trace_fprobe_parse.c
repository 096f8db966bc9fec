// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: fprobe and tracepoint probe events: parsing a definition
 *
 * trace_fprobe_parse.c - the grammar of f: and t: definitions, up to
 * their argument words (the argument library parses those), and error_log.
 * The grammar::
 *
 *   word 0  head   f[:NAME]   function entry or exit probe
 *                  t[:NAME]   tracepoint probe
 *           anything else after f or t is a bad maxactive: the fprobe
 *           core keeps an exit probe's entry data on the function graph
 *           tracer's shadow stack, and has no instance count to set
 *           NAME   [GROUP/|GROUP.][EVENT], C identifiers shorter than
 *                  64 bytes; an empty EVENT after the separator, or no
 *                  NAME, asks for a made-up name:
 *                    f  SYM__entry / SYM__exit    t  TRACEPOINT
 *   word 1  place  f  SYM[%return], SYM an ftrace filter glob
 *                  t  TRACEPOINT (letters, digits, '_')
 *   word 2+ args   handed to parg_set_parse(); an f: probe that reads
 *                  $retval in any of them is an exit probe even without
 *                  %return, a t: probe must not read it
 *
 * The checks run in that order, so that when a line has several faults
 * error_log names the same one every time, with the caret at the same
 * byte: the ftrace selftests compare both.  Subsystem
 * "trace_fprobe" for both kinds.
 *
 * Context: process, under dyn_event_ops_mutex.  May sleep.
 */
#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "trace_fprobe_internal.h"

/* error_log's messages, by code (tracing_log_err() takes them non-const) */
#define FPEV_ERROR(code, msg)	msg,
#define PARG_ERROR(code, msg)	msg,
static const char *fpev_err_text[] = {
#include "trace_fprobe_errors.h"
#include "probe_arg_errors.h"
};

#undef PARG_ERROR
#undef FPEV_ERROR

PROBE_EV_NAME_CODES(FPEV_ERR_NO_GROUP_NAME, FPEV_ERR_BAD_EVENT_NAME);

const struct probe_ev_errors fpev_errors = {
	.subsys = "trace_fprobe",
	.texts = fpev_err_text,	.n = ARRAY_SIZE(fpev_err_text),
	.exist = FPEV_ERR_EVENT_EXIST,	.join = FPEV_ERR_DIFF_PROBE_TYPE,
	.parg = FPEV_ERR_PARG_FIRST,
	.no_addr = FPEV_ERR_BAD_PROBE_ADDR,	.insn = FPEV_ERR_BAD_INSN_BNDRY,
	.refused = FPEV_ERR_FAIL_REG_PROBE,
};

void fpev_parse_error(const struct probe_ev_words *p, int word, int pos,
		    enum fpev_err_code code)
{
	probe_ev_words_error(p, word, pos, code);
}

/* --------------------------------------------------------------- place */

/* Word 1: "SYM[%return]" or "TRACEPOINT", into @def->symbol. */
static int fpev_parse_place(const struct probe_ev_words *p, struct fpev_def *def)
{
	const char *place = p->argv[1];
	const char *pct = strchr(place, '%');
	size_t len = pct ? pct - place : strlen(place);
	size_t i;

	if (pct && (def->is_tprobe || strcmp(pct, "%return"))) {
		fpev_parse_error(p, 1, len, FPEV_ERR_BAD_ADDR_SUFFIX);
		return -EINVAL;
	}
	if (pct)
		def->is_return = true;
	for (i = 0; def->is_tprobe && i < len; i++) {
		if (!isalnum(place[i]) && place[i] != '_') {
			fpev_parse_error(p, 1, i, FPEV_ERR_BAD_TP_NAME);
			return -EINVAL;
		}
	}
	if (!len || len >= sizeof(def->symbol)) {
		fpev_parse_error(p, 1, 0, def->is_tprobe ? FPEV_ERR_NO_TRACEPOINT :
						       FPEV_ERR_BAD_PROBE_ADDR);
		return -EINVAL;
	}
	memcpy(def->symbol, place, len);
	def->symbol[len] = '\0';
	return 0;
}

/* Byte of the first "$retval" in @word that is a whole name, or -1. */
static int fpev_find_retval(const char *word)
{
	const char *s = word;

	while ((s = strstr(s, "$retval"))) {
		char next = s[strlen("$retval")];

		if (!isalnum(next) && next != '_')
			return s - word;
		s++;
	}
	return -1;
}

/*
 * $retval in an argument: an f: entry probe becomes an exit probe; a
 * tracepoint has no return value.
 */
static int fpev_scan_retval(const struct probe_ev_words *p, struct fpev_def *def)
{
	int i, pos;

	for (i = 2; !def->is_return && i < p->argc; i++) {
		pos = fpev_find_retval(p->argv[i]);
		if (pos < 0)
			continue;
		if (def->is_tprobe) {
			fpev_parse_error(p, i, pos,
				       probe_ev_err_code(FPEV_ERR_PARG_FIRST,
						    PARG_ERR_RETVAL_ON_PROBE));
			return -EINVAL;
		}
		def->is_return = true;
	}
	return 0;
}

/* "SYM__entry", "SYM__exit" or "TRACEPOINT", with ':', '.', '*' as '_'. */
static void fpev_make_name(struct fpev_def *def)
{
	if (def->is_tprobe)
		snprintf(def->event_buf, FPEV_NAME_LEN, "%s%s",
			 isdigit(def->symbol[0]) ? "_" : "", def->symbol);
	else
		snprintf(def->event_buf, FPEV_NAME_LEN, "%s__%s", def->symbol,
			 def->is_return ? "exit" : "entry");
	sanitize_event_name(def->event_buf);
	def->event = def->event_buf;
}

int fpev_parse_def(const struct probe_ev_words *p, struct fpev_def *def)
{
	const char *head = p->argv[0];
	const char *colon = strchr(head, ':');
	int ret;

	if ((head[0] != 'f' && head[0] != 't') || p->argc < 2)
		return -ECANCELED;
	def->is_tprobe = head[0] == 't';
	def->group = def->is_tprobe ? FPEV_TPROBE_GROUP : FPEV_FPROBE_GROUP;
	if (head[1] && head[1] != ':') {
		fpev_parse_error(p, 0, 1, FPEV_ERR_BAD_MAXACT);
		return -EINVAL;
	}
	ret = fpev_parse_place(p, def);
	if (!ret)
		ret = fpev_scan_retval(p, def);
	if (ret)
		return ret;
	if (colon) {
		ret = probe_ev_words_name(p, 0, colon - head + 1,
					  FPEV_ERR_NO_GROUP_NAME, def->group_buf,
					  def->event_buf, &def->group, &def->event);
		if (ret)
			return ret;
	}
	if (!def->event)
		fpev_make_name(def);
	def->nargs = p->argc - 2;
	def->args = p->argv + 2;
	return 0;
}
