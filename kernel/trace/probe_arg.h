/* SPDX-License-Identifier: GPL-2.0 */
/**
 * DOC: probe arguments: the library's interface
 *
 * probe_arg.h - the arguments of probe events: parse, compile, run, print.
 *
 * One library for every probe kind: kprobe and kretprobe events
 * (trace_kprobe*), uprobe events (trace_uprobe*), event probes
 * (trace_eprobe.c), fprobe and tracepoint probe events (trace_fprobe*).
 * Its symbols begin with ``parg_`` (``PARG_`` for constants); the front ends'
 * with ``kpev_``, ``upev_``, ``epev_`` and ``fpev_``.
 *
 * The library turns the argument words of a probe definition, such as::
 *
 *   dfd=%di  name=+0(%si):ustring  $arg*
 *
 * into a compiled argument set, and runs that set on every probe hit to
 * fill the argument block of a trace record.  It knows nothing of who calls it:
 * the front end says what the probe site allows in a const struct
 * parg_caps.  See Documentation/trace/kprobetrace.rst for the language
 * (uprobetracer.rst, eprobetrace.rst and fprobetrace.rst for what each
 * kind adds to it or leaves out).
 *
 * Record layout produced by parg_set_fetch(), after the caller's head::
 *
 *   ent                     ent + args_off            ent + args_off + size
 *   | caller's head        | fixed argument block    | dynamic data ...     |
 *                            scalars, arrays, u32      strings the fixed
 *                            data_loc words            block points to
 *
 * A data_loc word is (length << 16 | offset from ent), as for __string
 * fields of static events.  Length 0 means the fetch faulted.
 *
 * The fixed block is the fields, packed as the ABI packs them, then a
 * fault map of parg_set_size() minus the fields' bytes: one bit for each
 * argument that stores memory as a scalar (a dereference or a symbol's
 * value with a scalar type, arrays...).
 * A fault zeroes such a field and sets its bit; parg_set_print() then
 * prints "(fault)".  No field describes the map, so the format file shows
 * only the fields; a set without such arguments has no map at all.
 *
 * Lifetime and locking: a set is built and freed in process context
 * (it may sleep) under the front end's own locking; once published it
 * is read-only, so the hit path reads it with no lock at all.  The run
 * functions are safe in any context a probe handler runs in (IRQs off,
 * NMI), allocate nothing and never sleep.
 */
#ifndef _KERNEL_TRACE_PARG_H
#define _KERNEL_TRACE_PARG_H

#include <linux/types.h>

struct pt_regs;
struct seq_file;
struct trace_seq;
struct trace_event_call;
struct parg_set;

/* Limits of the language (part of the ABI). */
#define PARG_MAX_ARGS		128	/* arguments per probe */
#define PARG_MAX_NAME_LEN	32	/* argument name, with its NUL */
#define PARG_MAX_TEXT_LEN	255	/* argument expression, as on 7.3 */
#define PARG_MAX_ARRAY_LEN	64	/* elements of a TYPE[N] array */
#define PARG_MAX_STRING		4096	/* bytes of one fetched string */

/*
 * What the probe site allows.  The front end fills this from the probe's
 * place; the library checks every argument against it.
 */
struct parg_caps {
	bool is_return;		/* fires on function return: $retval */
	bool on_func_entry;	/* placed on a function entry: $argN, BTF */
	const char *func;	/* probed function (BTF lookup), or NULL */
	/*
	 * Module of @func: its BTF is looked up in that module's alone.  NULL:
	 * in the kernel's, then in each module's.
	 */
	const char *module;
	/*
	 * A probe in user code (uprobes): %REG, $stack and $retval are the
	 * task's; $stackN, +OFFS(), @ADDR and strings read user memory;
	 * @+OFFS reads at OFFS in the probed file, which the probe has at
	 * @file_offset; no $argN, BTF names, @SYM, symbol or symstr.
	 */
	bool user;
	unsigned long file_offset;
	/* Not every register is saved at this site (fprobe, tprobe): no %REG. */
	bool no_regs;
	/*
	 * $argN is parameter N + @arg_shift of @func: a tracepoint probe sits
	 * on a stub whose first parameter is the tracepoint's data pointer.
	 */
	unsigned int arg_shift;
	/*
	 * An event probe (eprobes): it fires on a record of @event, which the
	 * front end passes as @edata.  $NAME reads the record's field NAME;
	 * there are no registers, stack, $retval, $argN or BTF names.  The
	 * front end holds a reference on @event while a set parsed for it
	 * lives: the set keeps the fields' offsets and sizes.
	 */
	struct trace_event_call *event;
};

/*
 * Parse errors: one list (probe_arg_errors.h) gives both the codes and the
 * messages users read in error_log.  Codes start at 1; 0 is "no error".
 */
#define PARG_ERROR(code, msg)	PARG_ERR_##code,
enum parg_err_code {
	PARG_OK = 0,
#include "probe_arg_errors.h"
	PARG_ERR_COUNT
};

#undef PARG_ERROR

/* Where parsing failed: argument word @word, byte @pos inside it. */
struct parg_err {
	enum parg_err_code code;
	int word;
	int pos;
};

/* message of a code, for error_log */
const char *parg_err_msg(enum parg_err_code code);

/*
 * Build a set from the argument words @argv[0..@argc-1] of a definition
 * (each "NAME=FETCH[:TYPE]" or "FETCH[:TYPE]" or "$arg*").  Returns the
 * set, or an ERR_PTR with @err filled in for -EINVAL.  May sleep.
 */
struct parg_set *parg_set_parse(const struct parg_caps *caps, int argc,
				const char *const *argv, struct parg_err *err);
void parg_set_free(struct parg_set *set);	/* NULL is fine */

/*
 * Resolve what depends on the running kernel: @SYMBOL addresses, which may
 * live in a module that loads later.  Call before arming the probe and
 * again after the module loads.  Returns 0 or -ENOENT.
 */
int parg_set_resolve(struct parg_set *set);

/*
 * Shape of the fixed argument block (fields and fault map), whether
 * strings follow it, and the number of arguments after $arg* expansion.
 */
unsigned int parg_set_size(const struct parg_set *set);
bool parg_set_is_dynamic(const struct parg_set *set);
int parg_set_count(const struct parg_set *set);

/*
 * The pt_regs words the set reads, as a mask: bit n is the word at
 * n * sizeof(long).  That is every %REG, and $argN, $retval and $stack
 * where the architecture keeps them in a register; $stackN, and an
 * argument passed on the stack, read the stack pointer.  Sealed sets only.
 */
u64 parg_set_regs(const struct parg_set *set);

/*
 * Multiprobe: two sets may feed one event if they write records of one
 * layout: every argument has the same name and type, and reads memory in
 * both sets or in neither (which decides the fault map).  Returns -1 when
 * they match, else the index of the first argument of @b that differs (or
 * @b's count if it has fewer arguments).
 */
int parg_set_mismatch(const struct parg_set *a, const struct parg_set *b);

/*
 * Whether two sets of one definition, compiled for two functions (BTF
 * names may resolve differently), would fetch the same: -1 if so, else
 * the index of the first argument that differs.
 */
int parg_set_differs(const struct parg_set *a, const struct parg_set *b);

/* Same argument texts, one by one: an exact duplicate probe. */
bool parg_set_same_text(const struct parg_set *a, const struct parg_set *b);

/*
 * Whether @argv[0..@argc-1] ("NAME=TEXT" words, as listed) are the first
 * @argc arguments of @set: "-:EVENT ARGS" removes only matching probes.
 */
bool parg_set_match_words(const struct parg_set *set, int argc,
			  const char *const *argv);

/* " NAME=TEXT" for each argument, as kprobe_events lists it. */
void parg_set_show(const struct parg_set *set, struct seq_file *m);

/*
 * What each argument compiled to, one comment line "#  NAME: ..." each:
 * the source, the steps and the store, with raw values.  Front ends list
 * it after a definition's line in dynamic_events (and their own files)
 * only with CONFIG_PROBE_EVENTS_DUMP_FETCHARG, a debugging aid: the lines
 * show addresses.
 */
void parg_set_dump(const struct parg_set *set, struct seq_file *m);

static inline void parg_set_show_dump(const struct parg_set *set,
				      struct seq_file *m)
{
	if (IS_ENABLED(CONFIG_PROBE_EVENTS_DUMP_FETCHARG))
		parg_set_dump(set, m);
}

/* ---------------------------------------------------------- the event */

/*
 * trace_define_field() for every argument, the block at @args_off.  The
 * fields keep pointers to names and types inside @set: keep @set (or a
 * set with the same names, see parg_set_mismatch()) alive until the
 * event's fields are freed.
 */
int parg_set_define_fields(const struct parg_set *set,
			   struct trace_event_call *call, unsigned int args_off);

/*
 * The argument part of an event's print_fmt: appends " NAME=FMT..." to
 * @fmt and ", REC->NAME..." to @args (each a seq_buf-like bounded string).
 * Returns 0 or -ENOSPC.
 */
int parg_set_print_fmt(const struct parg_set *set, char *fmt, size_t fmt_len,
		       char *args, size_t args_len);

/*
 * The bytes parg_set_print_fmt() appends to @fmt and to @args, without
 * the NULs, to size the buffers.
 */
void parg_set_print_fmt_len(const struct parg_set *set, size_t *fmt_len,
			    size_t *args_len);

/* " NAME=VALUE" for every argument of a record, in trace output. */
void parg_set_print(const struct parg_set *set, struct trace_seq *s,
		    const void *ent, unsigned int args_off);

/* ------------------------------------------------------ the hit path */

/*
 * Return probes read $argN and entry values at function entry: the front
 * end keeps parg_set_entry_size() bytes per instance and calls
 * parg_set_save_entry() from the entry handler.  Size 0: nothing to save.
 */
unsigned int parg_set_entry_size(const struct parg_set *set);
void parg_set_save_entry(const struct parg_set *set, struct pt_regs *regs,
			 void *edata);

/*
 * Fill one record, in one pass over the arguments: the fixed block at
 * @ent + @args_off and, for dynamic sets, the strings after it, never
 * past @ent + @room.  @edata is the saved entry data of a return probe,
 * for a user probe (caps.user) a pointer to the user address where it
 * hit, for an event probe (caps.event) the event's record, or NULL.
 * @regs may be NULL for an event probe.  Returns the record's total size
 * (head included), which for a set that is not dynamic is always
 * @args_off + parg_set_size().
 *
 * A fetch that faults leaves its field marked, and it prints "(fault)".
 * A string that does not fit in @room is cut short, never dropped (with
 * no room at all it gets length 0 and prints "(fault)"), so @room should
 * be at most what one record may take; strings never exceed
 * PARG_MAX_STRING bytes each.  @room below @args_off + parg_set_size()
 * is taken as exactly that.  Safe in any context; NOKPROBE.
 *
 * Every byte of [@ent + @args_off, @ent + returned size) is written on
 * every call, whatever was in the buffer before: the fields (packed, no
 * padding between them), the whole fault map, and the strings, which
 * follow one another with no gap.  A reused buffer (perf's per-CPU one)
 * can thus be copied out up to the returned size with nothing stale in
 * it.  Bytes from the returned size up to @room may be scribbled on (the
 * last word of a string, a string that faulted part way): copy nothing
 * from there.
 */
unsigned int parg_set_fetch(const struct parg_set *set, struct pt_regs *regs,
			    void *edata, void *ent, unsigned int args_off,
			    unsigned int room);

/* How many of the records parg_set_fetch() filled had a fetch that faulted. */
unsigned long parg_set_faults(const struct parg_set *set);

/*
 * User memory that parg_set_fetch_user() could not read: @nr reads of
 * user memory faulted, the first PARG_UFAULT_MAX of them at @at (@len
 * bytes from @addr; a string's @len is the most it could have taken).
 * @faulted: some fetch of the record faulted, user memory or not.
 */
#define PARG_UFAULT_MAX	4

struct parg_ufaults {
	unsigned int nr;
	bool faulted;
	struct {
		unsigned long addr;
		unsigned int len;	/* bytes read; for a string, its most */
		bool str;		/* a string: it ends at its NUL */
	} at[PARG_UFAULT_MAX];
};

/*
 * parg_set_fetch(), for a caller that may page user memory in: it also
 * fills @uf, so that the caller can fault those pages in where it may
 * sleep (fault_in_readable()) and fetch again.  The reads themselves
 * never fault, as in parg_set_fetch().  A record with a fault is not
 * counted in parg_set_faults(): the caller knows which try is its last,
 * and counts that one with parg_set_count_fault() if @uf->faulted.
 */
unsigned int parg_set_fetch_user(const struct parg_set *set,
				 struct pt_regs *regs, void *edata, void *ent,
				 unsigned int args_off, unsigned int room,
				 struct parg_ufaults *uf);
void parg_set_count_fault(const struct parg_set *set);

#endif /* _KERNEL_TRACE_PARG_H */
