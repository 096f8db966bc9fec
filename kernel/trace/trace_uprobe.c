// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: uprobe events: definitions and their lifetime
 *
 * trace_uprobe.c - uprobe events: definitions, their lifetime, and the
 * tracefs files uprobe_events, uprobe_profile and uprobe_misses.
 *
 * A definition is a line cut into words at blanks::
 *
 *   word 0  head   p[:NAME]  entry probe
 *                  r[:NAME]  return probe
 *           NAME   [GROUP/|GROUP.][EVENT]; no NAME, or an empty EVENT
 *                  after GROUP/, makes "p_BASE_0xOFFS" up, BASE being the
 *                  file's name cut at its first '.', '-' or '_' (always
 *                  'p', also for return probes); GROUP is "uprobes"
 *   word 1  place  PATH:OFFS[%return][(REFCTR)]
 *                  PATH has a '/'; OFFS and REFCTR are numbers in any C
 *                  base; %return makes a return probe; REFCTR is the file
 *                  offset of the semaphore (USDT) the core counts up while
 *                  the probe is armed, and must agree with every other
 *                  probe on the same place
 *   word 2+ args   handed to parg_set_parse() with caps.user set
 *
 * A line whose head is not 'p'/'r', or whose place has no '/', or no digit
 * after its last ':', is not ours: -ECANCELED (dynamic_events then offers
 * it to no one else; uprobe_events turns it into -EINVAL).  Every other
 * refusal writes one error_log entry under "trace_uprobe", the caret under
 * the bad byte as the ftrace selftests expect.
 *
 * Nothing touches the probed file when a probe is defined: the event's
 * probes are registered with the uprobes core when it is first enabled,
 * and unregistered when it is last disabled (trace_uprobe_event.c).
 * A probe added to an enabled event is registered at once.
 *
 * Context: process, may sleep.  Creation and deletion take event_mutex;
 * the parser keeps its state in its parse context only.
 */
#define pr_fmt(fmt)	"trace_uprobe: " fmt

#include <linux/bpf.h>
#include <linux/ctype.h>
#include <linux/namei.h>
#include <linux/perf_event.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "trace_uprobe_internal.h"

#define UPEV_ERROR(code, msg)	UPEV_ERR_##code,
enum upev_err_code {
#include "trace_uprobe_errors.h"
	UPEV_ERR_PARG_FIRST	/* PARG code c is UPEV_ERR_PARG_FIRST + c - 1 */
};
#undef UPEV_ERROR

/* error_log's messages, by code */
#define UPEV_ERROR(code, msg)	msg,
#define PARG_ERROR(code, msg)	msg,
static const char *upev_err_text[] = {
#include "trace_uprobe_errors.h"
#include "probe_arg_errors.h"
};
#undef PARG_ERROR
#undef UPEV_ERROR

PROBE_EV_NAME_CODES(UPEV_ERR_NO_GROUP_NAME, UPEV_ERR_BAD_EVENT_NAME);

static const struct probe_ev_errors upev_errors = {
	.subsys = "trace_uprobe",
	.texts = upev_err_text,	.n = ARRAY_SIZE(upev_err_text),
	.exist = UPEV_ERR_EVENT_EXIST,	.join = UPEV_ERR_DIFF_PROBE_TYPE,
	.parg = UPEV_ERR_PARG_FIRST,
};

static struct dyn_event_operations upev_dyn_ops;

/* ---------------------------------------------------------- error_log */

/* Log @code with the words joined, the caret at byte @pos of @word. */
static void upev_error(const struct probe_ev_words *p, int word, int pos,
		     enum upev_err_code code)
{
	probe_ev_words_error(p, word, pos, code);
}

/* ----------------------------------------------------------- probes */

/* Every probe on the dyn_event list (the body may free @tp); event_mutex. */
#define for_each_tu_probe(tp, next)					\
	probe_ev_for_each_probe(tp, next, &upev_dyn_ops, devent)

static struct upev_probe *upev_probe_of(struct dyn_event *dev)
{
	return dev->ops == &upev_dyn_ops ?
	       container_of(dev, struct upev_probe, devent) : NULL;
}

/*
 * A new probe on @path (held: the probe takes the reference) at @offset.
 * It owns @set from now on, also when this fails.
 */
struct upev_probe *upev_probe_new(const char *filename, struct path *path,
			      unsigned long offset, unsigned long ref_ctr,
			      bool is_return, struct parg_set *set)
{
	struct upev_probe *tp;

	tp = kzalloc(sizeof(*tp), GFP_KERNEL);
	if (!tp)
		goto out_free_set;
	tp->filename = kstrdup(filename, GFP_KERNEL);
	tp->counts = alloc_percpu(struct upev_counts);
	if (!tp->filename || !tp->counts)
		goto out_free_probe;
	tp->args = set;
	tp->has_args = parg_set_count(set) > 0;
	tp->is_return = is_return;
	tp->offset = offset;
	tp->ref_ctr_offset = ref_ctr;
	tp->rec_size = parg_set_size(set) +
		       (is_return ? sizeof(struct upev_return_head) :
				    sizeof(struct upev_entry_head));
	tp->consumer.handler = upev_handler;
	if (is_return)
		tp->consumer.ret_handler = upev_ret_handler;
	INIT_LIST_HEAD(&tp->sibling);
	dyn_event_init(&tp->devent, &upev_dyn_ops);
	tp->path = *path;
	path->dentry = NULL;
	path->mnt = NULL;
	return tp;

out_free_probe:
	free_percpu(tp->counts);
	kfree(tp->filename);
	kfree(tp);
out_free_set:
	parg_set_free(set);
	return NULL;
}

/* Free a probe that is on no event (or whose set went with its event). */
void upev_probe_free(struct upev_probe *tp)
{
	if (!tp)
		return;
	WARN_ON_ONCE(tp->uprobe);
	parg_set_free(tp->args);
	path_put(&tp->path);
	free_percpu(tp->counts);
	kfree(tp->filename);
	kfree(tp);
}

static unsigned long upev_probe_count(const struct upev_probe *tp, bool dropped)
{
	return probe_ev_count_sum(tp->counts, dropped ?
			     offsetof(struct upev_counts, dropped) :
			     offsetof(struct upev_counts, hits));
}

/* ----------------------------------------------------------- the place */

/* A definition, parsed up to its argument words. */
struct upev_def {
	bool is_return;
	const char *group;
	const char *event;
	char *filename;			/* PATH, kmalloc'ed */
	struct path path;
	unsigned long offset;
	unsigned long ref_ctr;
	char group_buf[UPEV_NAME_LEN];
	char event_buf[UPEV_NAME_LEN];
};

static void upev_def_release(struct upev_def *def)
{
	path_put(&def->path);
	kfree(def->filename);
}

/*
 * The probed file, symlinks followed.  Returns 0 with @path held for a
 * regular file, 1 (nothing held) for anything else, or the lookup error.
 */
static int upev_find_file(const char *name, struct path *path)
{
	int ret = kern_path(name, LOOKUP_FOLLOW, path);

	if (ret || d_is_reg(path->dentry))
		return ret;
	path_put(path);
	*path = (struct path){};
	return 1;
}

/* Is word 1 a place of ours: a '/' and a digit after the last ':'? */
static bool upev_place_is_ours(const char *word)
{
	const char *colon = strrchr(word, ':');

	return strchr(word, '/') && colon && isdigit(colon[1]);
}

/* "(REFCTR)" at @brace in word 1, which it ends; cut off at @brace. */
static int upev_parse_refctr(const struct probe_ev_words *p, struct upev_def *def,
			   char *word, char *brace)
{
	char *close = strchr(brace, ')');

	if (!close) {
		upev_error(p, 1, strlen(p->argv[1]), UPEV_ERR_REFCNT_OPEN_BRACE);
		return -EINVAL;
	}
	if (close[1]) {
		upev_error(p, 1, close + 1 - word, UPEV_ERR_BAD_REFCNT_SUFFIX);
		return -EINVAL;
	}
	*close = '\0';
	if (kstrtoul(brace + 1, 0, &def->ref_ctr)) {
		upev_error(p, 1, brace + 1 - word, UPEV_ERR_BAD_REFCNT);
		return -EINVAL;
	}
	*brace = '\0';
	return 0;
}

/* "OFFS[%return]" at @offs in word 1 (a copy, @word). */
static int upev_parse_offset(const struct probe_ev_words *p, struct upev_def *def,
			   char *word, char *offs)
{
	char *pct = strchr(offs, '%');

	if (pct) {
		if (strcmp(pct, "%return")) {
			upev_error(p, 1, pct - word, UPEV_ERR_BAD_ADDR_SUFFIX);
			return -EINVAL;
		}
		def->is_return = true;
		*pct = '\0';
	}
	if (kstrtoul(offs, 0, &def->offset)) {
		upev_error(p, 1, offs - word, UPEV_ERR_BAD_UPROBE_OFFS);
		return -EINVAL;
	}
	return 0;
}

/* Word 1: the file (which must exist and be regular), offset, ref-ctr. */
static int upev_parse_place(const struct probe_ev_words *p, struct upev_def *def)
{
	char *word, *colon, *brace;
	int ret;

	word = kstrdup(p->argv[1], GFP_KERNEL);
	if (!word)
		return -ENOMEM;
	colon = strrchr(word, ':');
	*colon = '\0';
	def->filename = kstrdup(word, GFP_KERNEL);
	ret = -ENOMEM;
	if (!def->filename)
		goto out_free;

	ret = upev_find_file(def->filename, &def->path);
	if (ret) {
		upev_error(p, 1, 0, ret < 0 ? UPEV_ERR_FILE_NOT_FOUND :
					    UPEV_ERR_NO_REGULAR_FILE);
		ret = ret < 0 ? ret : -EINVAL;
		goto out_free;
	}
	brace = strchr(colon + 1, '(');
	if (brace) {
		ret = upev_parse_refctr(p, def, word, brace);
		if (ret)
			goto out_free;
	}
	ret = upev_parse_offset(p, def, word, colon + 1);
out_free:
	kfree(word);
	return ret;
}

/* "p_BASE_0xOFFS": BASE is the file name up to its first '.', '-', '_'. */
static void upev_default_name(struct upev_def *def)
{
	const char *base = strrchr(def->filename, '/');

	base = base ? base + 1 : def->filename;
	snprintf(def->event_buf, UPEV_NAME_LEN, "p_%.*s_0x%lx",
		 (int)strcspn(base, ".-_"), base, def->offset);
	def->event = def->event_buf;
}

/* Words 0 and 1.  -ECANCELED, with nothing logged, when not ours. */
static int upev_parse_def(const struct probe_ev_words *p, struct upev_def *def)
{
	const char *head = p->argv[0];
	int ret;

	if ((head[0] != 'p' && head[0] != 'r') || p->argc < 2 ||
	    !upev_place_is_ours(p->argv[1]))
		return -ECANCELED;
	if (p->argc - 2 > PARG_MAX_ARGS) {
		upev_error(p, 2 + PARG_MAX_ARGS, 0,
			 probe_ev_err_code(UPEV_ERR_PARG_FIRST, PARG_ERR_TOO_MANY_ARGS));
		return -E2BIG;
	}
	def->is_return = head[0] == 'r';
	ret = upev_parse_place(p, def);
	if (ret)
		return ret;
	if (head[1] == ':') {
		ret = probe_ev_words_name(p, 0, 2, UPEV_ERR_NO_GROUP_NAME,
					  def->group_buf, def->event_buf,
					  &def->group, &def->event);
		if (ret)
			return ret;
	}
	if (!def->group)
		def->group = UPEV_DEFAULT_GROUP;
	if (!def->event)
		upev_default_name(def);
	return 0;
}

/* ---------------------------------------------------------- creating */

/*
 * The uprobes core keeps one reference counter per place: every probe on
 * one inode and offset must name the same one.
 */
static bool upev_ref_ctr_conflicts(const struct upev_probe *new)
{
	struct inode *inode = upev_probe_inode(new);
	struct upev_probe *tp, *next;

	for_each_tu_probe(tp, next) {
		if (upev_probe_inode(tp) == inode && tp->offset == new->offset &&
		    tp->ref_ctr_offset != new->ref_ctr_offset) {
			pr_warn("Reference counter offset mismatch.\n");
			return true;
		}
	}
	return false;
}

/* A new probe of an enabled event is armed at once. */
static int upev_arm_newcomer(const struct probe_ev_newcomer *nc)
{
	struct upev_probe *tp = container_of(nc->node, struct upev_probe, sibling);
	unsigned int flags = tp->event->pev.flags;
	int ret;

	if (!flags)
		return 0;
	ret = upev_probe_arm(tp, flags & PROBE_EV_EV_PERF);
	if (ret)
		upev_error(nc->w, 1, 0, UPEV_ERR_ARM_REFUSED);
	return ret;
}

/* Add @tp, described by @nc, to the existing event @ev. */
static int upev_join_event(const struct probe_ev_newcomer *nc,
			 struct upev_event *ev, struct upev_probe *tp)
{
	int ret;

	if (probe_ev_join_check(&ev->pev, ev->pev.is_return != tp->is_return, nc))
		return -EEXIST;
	tp->event = ev;
	ret = probe_ev_event_add(&ev->pev, nc);
	if (ret)
		tp->event = NULL;
	return ret;
}

/* Make @tp the first probe of a new event named by @def, and publish it. */
static int upev_start_event(const struct probe_ev_newcomer *nc,
			  const struct upev_def *def, struct upev_probe *tp)
{
	struct upev_event *ev = upev_event_new(def->group, def->event, tp);
	int ret = ev ? probe_ev_event_start(&ev->pev, nc) : -ENOMEM;

	if (ret)
		tp->event = NULL;	/* @ev is gone */
	return ret;
}

/* Compile the arguments and build the probe of a parsed definition. */
static struct upev_probe *upev_build_probe(const struct probe_ev_words *p,
				       struct upev_def *def)
{
	struct parg_caps caps = {
		.user = true,
		.file_offset = def->offset,
		.is_return = def->is_return,
	};
	struct parg_err err = {};
	struct parg_set *set;
	struct upev_probe *tp;
	int ret;

	set = parg_set_parse(&caps, p->argc - 2, p->argv + 2, &err);
	ret = probe_ev_args_check(p, set, &err, false);
	if (ret)
		return ERR_PTR(ret);
	tp = upev_probe_new(def->filename, &def->path, def->offset,
			  def->ref_ctr, def->is_return, set);
	return tp ?: ERR_PTR(-ENOMEM);
}

/* Create one probe from the words of a definition. */
static int upev_create_words(const struct probe_ev_words *p, void *unused)
{
	struct probe_ev_newcomer nc;
	struct upev_def def = {};
	struct upev_event *ev;
	struct upev_probe *tp;
	int ret;

	if (!p->argc)
		return 0;
	ret = upev_parse_def(p, &def);
	if (ret)
		goto out_release;
	tp = upev_build_probe(p, &def);
	if (IS_ERR(tp)) {
		ret = PTR_ERR(tp);
		goto out_release;
	}

	mutex_lock(&event_mutex);
	if (upev_ref_ctr_conflicts(tp)) {
		upev_error(p, 1, 0, UPEV_ERR_REFCNT_MISMATCH);
		ret = -EINVAL;
	} else {
		nc = PROBE_EV_NEWCOMER(p, tp, upev_arm_newcomer);
		ev = upev_find_event(def.group, def.event);
		ret = ev ? upev_join_event(&nc, ev, tp) :
			   upev_start_event(&nc, &def, tp);
	}
	mutex_unlock(&event_mutex);
	if (ret)
		upev_probe_free(tp);
out_release:
	upev_def_release(&def);
	return ret;
}

/* A definition line; -ECANCELED when it is not a uprobe's. */
static int upev_create(const char *raw)
{
	return probe_ev_words_run(raw, &upev_errors, upev_create_words, NULL);
}

/* ---------------------------------------------------------- deleting */

/*
 * Delete one probe.  Its event goes with its last probe, unless in use
 * (enabled, or held open by perf or a trace file).
 */
static int upev_probe_remove(struct upev_probe *tp)
{
	struct upev_event *ev = tp->event;
	int ret;

	lockdep_assert_held(&event_mutex);
	if (list_is_singular(&ev->pev.probes)) {
		ret = probe_ev_event_withdraw(&ev->pev);
		if (ret)
			return ret;
	} else if (upev_probe_unhook(tp)) {
		/* a sibling of an enabled event: its hits stop first */
		uprobe_unregister_sync();
	}
	dyn_event_remove(&tp->devent);
	probe_ev_event_leave(&ev->pev, &tp->sibling, &tp->args);
	tp->event = NULL;
	upev_probe_free(tp);
	return 0;
}

/* Delete every uprobe event; nothing at all if one is in use. */
static int upev_remove_all(void)
{
	struct upev_probe *tp, *next;
	int ret = 0;

	mutex_lock(&event_mutex);
	if (probe_ev_any_busy(&upev_dyn_ops)) {
		ret = -EBUSY;
		goto out_unlock;
	}
	for_each_tu_probe(tp, next) {
		ret = upev_probe_remove(tp);
		if (ret)
			break;
	}
	tracing_reset_all_online_cpus();
out_unlock:
	mutex_unlock(&event_mutex);
	return ret;
}

/* The place as listed: "PATH:0x%016lx" (with "(0x%lx)" for a ref-ctr). */
static int upev_place_text(const struct upev_probe *tp, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s:0x%0*lx", tp->filename,
			 (int)(2 * sizeof(void *)), tp->offset);

	if (tp->ref_ctr_offset && n < len)
		n += snprintf(buf + n, len - n, "(0x%lx)", tp->ref_ctr_offset);
	return n;
}

/* Does @word name the place of @tp exactly as uprobe_events lists it? */
static bool upev_place_matches(const struct upev_probe *tp, const char *word)
{
	size_t len = strlen(tp->filename) + 64;
	bool same;
	char *buf;

	buf = kmalloc(len, GFP_KERNEL);
	if (!buf)
		return false;
	upev_place_text(tp, buf, len);
	same = !strcmp(buf, word);
	kfree(buf);
	return same;
}

/* ---------------------------------------------------------- dyn_event */

/*
 * "-:[GROUP/]EVENT [PLACE [ARG...]]": an empty @event matches the whole
 * @system; the words after the name, if any, repeat the listing.
 */
static bool upev_dyn_match(const char *system, const char *event,
			 int argc, const char **argv, struct dyn_event *dev)
{
	struct upev_probe *tp = upev_probe_of(dev);

	/* dyn_event_release() refuses an empty @event with a NULL @system */
	return probe_ev_dyn_match(&tp->event->pev, system, event, argc, argv,
				  tp->args) &&
	       (!argc || upev_place_matches(tp, argv[0]));
}

static bool upev_dyn_is_busy(struct dyn_event *dev)
{
	return probe_ev_event_busy(&upev_probe_of(dev)->event->pev);
}

static int upev_dyn_free(struct dyn_event *dev)
{
	return upev_probe_remove(upev_probe_of(dev));
}

static int upev_dyn_show(struct seq_file *m, struct dyn_event *dev)
{
	struct upev_probe *tp = upev_probe_of(dev);

	probe_ev_show_head(m, tp->is_return ? 'r' : 'p', 0, &tp->event->pev);
	seq_printf(m, "%s:0x%0*lx", tp->filename, (int)(2 * sizeof(void *)),
		   tp->offset);
	if (tp->ref_ctr_offset)
		seq_printf(m, "(0x%lx)", tp->ref_ctr_offset);
	probe_ev_show_args(m, tp->args);
	return 0;
}

/* All methods but .create run under event_mutex. */
static struct dyn_event_operations upev_dyn_ops = {
	.create = upev_create,		.match = upev_dyn_match,
	.show = upev_dyn_show,		.free = upev_dyn_free,
	.is_busy = upev_dyn_is_busy,
};

/* ------------------------------------------------------------ tracefs */

/* One line written to uprobe_events: a definition or a "-:" delete. */
static int upev_run_command(const char *raw)
{
	int ret;

	if (raw[0] == '-')
		return dyn_event_release(raw, &upev_dyn_ops);
	ret = upev_create(raw);
	return ret == -ECANCELED ? -EINVAL : ret;
}

/* uprobe_profile: "  PATH EVENT HITS", one line per probe. */
static int upev_profile_show(struct seq_file *m, struct dyn_event *dev)
{
	struct upev_probe *tp = upev_probe_of(dev);

	seq_printf(m, "  %s %-44s %15lu\n", tp->filename,
		   trace_event_name(&tp->event->pev.call),
		   upev_probe_count(tp, false));
	return 0;
}

/*
 * uprobe_misses: per probe, in uprobe_profile's order, the hits that
 * made no record because a ring buffer or perf refused it, and the
 * records that hold a (fault).
 */
static int upev_misses_show(struct seq_file *m, struct dyn_event *dev)
{
	struct upev_probe *tp;

	if (!dev) {
		seq_printf(m, "#%-45s %11s %11s\n", "event", "dropped",
			   "faults");
		return 0;
	}
	tp = upev_probe_of(dev);
	probe_ev_seq_event_name(m, &tp->event->pev.call);
	seq_printf(m, " %11lu %11lu\n", upev_probe_count(tp, true),
		   parg_set_faults(tp->args ?: tp->event->pev.layout));
	return 0;
}

/* The files in the tracing directory. */
static const struct probe_ev_file upev_files[] = {
	{ .name = "uprobe_events", .dyn_ops = &upev_dyn_ops,
	  .show = upev_dyn_show, .remove_all = upev_remove_all,
	  .run_command = upev_run_command },
	{ .name = "uprobe_profile", .dyn_ops = &upev_dyn_ops,
	  .show = upev_profile_show },
	{ .name = "uprobe_misses", .dyn_ops = &upev_dyn_ops,
	  .show = upev_misses_show, .header = true },
};

/* ------------------------------------------------------------- local */

/*
 * perf's uprobe PMU: a private event "uprobes/DUMMY_EVENT" with one probe
 * and no arguments, on no list and in no tracefs directory.
 */
struct trace_event_call *create_local_trace_uprobe(char *name,
						   unsigned long offs,
						   unsigned long ref_ctr_offset,
						   bool is_return)
{
	struct parg_caps caps = { .user = true, .is_return = is_return };
	struct parg_err err = {};
	struct parg_set *set;
	struct upev_probe *tp;
	struct upev_event *ev;
	struct path path;
	int ret;

	ret = upev_find_file(name, &path);
	if (ret)
		return ERR_PTR(ret > 0 ? -EINVAL : ret);
	set = parg_set_parse(&caps, 0, NULL, &err);
	if (IS_ERR(set)) {
		path_put(&path);
		return ERR_CAST(set);
	}
	tp = upev_probe_new(name, &path, offs, ref_ctr_offset, is_return, set);
	path_put(&path);	/* NULL when the probe took it */
	if (!tp)
		return ERR_PTR(-ENOMEM);
	ev = upev_event_new(UPEV_DEFAULT_GROUP, "DUMMY_EVENT", tp);
	if (!ev) {
		upev_probe_free(tp);
		return ERR_PTR(-ENOMEM);
	}
	return &ev->pev.call;
}

void destroy_local_trace_uprobe(struct trace_event_call *event_call)
{
	struct upev_event *ev = upev_event_of(event_call);
	struct upev_probe *tp = upev_event_primary(ev);

	if (WARN_ON_ONCE(!tp))
		return;
	probe_ev_event_leave(&ev->pev, &tp->sibling, &tp->args);
	tp->event = NULL;
	upev_probe_free(tp);
}

/* ------------------------------------------------------------- BPF */

int bpf_get_uprobe_info(const struct perf_event *event, u32 *fd_type,
			const char **filename, u64 *probe_offset,
			u64 *probe_addr, bool perf_type_tracepoint)
{
	struct upev_event *ev = upev_event_of(event->tp_event);

	*fd_type = ev->pev.is_return ? BPF_FD_TYPE_URETPROBE : BPF_FD_TYPE_UPROBE;
	*filename = ev->bpf_filename;
	*probe_offset = ev->bpf_offset;
	*probe_addr = ev->bpf_ref_ctr_offset;	/* the USDT semaphore, or 0 */
	return 0;
}

/* ------------------------------------------------------------- init */

static __init int upev_init(void)
{
	int ret = dyn_event_register(&upev_dyn_ops);

	if (!ret)
		probe_ev_create_files(upev_files, ARRAY_SIZE(upev_files));
	return ret;
}
fs_initcall(upev_init);
