// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit tests of the kprobes API as a module uses it, on any architecture:
 *
 *  - a probe whose registration failed can be registered again, by
 *    another symbol, with the same struct;
 *  - a pre handler that redirects the CPU skips the other probes of the
 *    address, and each skipped probe counts a miss;
 *  - a batch arms nothing before its end, nested batches end with the
 *    outer one, and register_kprobes() takes back all it registered when
 *    one probe fails;
 *  - a registration whose arming fails lets a hit already walking the
 *    site's probes leave the failed probe before resetting it;
 *  - a kprobe event enabled in a batch whose arming fails at its end is
 *    left disabled, and the error reaches the writer;
 *  - unregistering under fire: every CPU calls one function in a loop
 *    while kprobes and kretprobes come and go on it, alone, sharing the
 *    site, through the calls that take many, and in a task's batch, for
 *    kpa_race_secs seconds (60 by default).  A
 *    timer interrupt stretched on purpose lands in the middle of the hit
 *    path now and then, where a handler that is being unregistered may
 *    already have been found.  No handler may run once its unregister
 *    returned, and no hit may crash.
 */
#include <kunit/static_stub.h>
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/jiffies.h>
#include <linux/kprobes.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/ptrace.h>
#include <linux/trace.h>
#include <linux/trace_events.h>

#include "internal.h"

static unsigned int kpa_race_secs = 60;
module_param(kpa_race_secs, uint, 0444);
MODULE_PARM_DESC(kpa_race_secs, "seconds of the unregister race test");

static u64 kpa_cell;

static noinline __noclone int kpa_target(int x)
{
	WRITE_ONCE(kpa_cell, READ_ONCE(kpa_cell) + x);
	return x + 1;
}

/* Where the redirecting handler sends the CPU: same arguments, same return. */
static noinline __noclone int kpa_alt(int x)
{
	WRITE_ONCE(kpa_cell, READ_ONCE(kpa_cell) ^ x);
	return x + 100;
}

static noinline __noclone int kpa_nokprobe(int x)
{
	return x * 2;
}
NOKPROBE_SYMBOL(kpa_nokprobe);

/* Call @fn(@x) so that the compiler can neither inline nor clone it. */
static int kpa_call(int (*fn)(int), int x)
{
	OPTIMIZER_HIDE_VAR(fn);
	return fn(x);
}

/* ------------------------------------------------------------------ */

static void kpa_test_retry(struct kunit *test)
{
	struct kprobe kp = { .symbol_name = "kpa_nokprobe" };

	KUNIT_EXPECT_EQ(test, -EINVAL, register_kprobe(&kp));
	/* the same struct, now on a function that may be probed */
	kp.symbol_name = "kpa_target";
	KUNIT_ASSERT_EQ(test, 0, register_kprobe(&kp));
	unregister_kprobe(&kp);
	/* and once more after an unregister */
	kp.addr = NULL;
	KUNIT_ASSERT_EQ(test, 0, register_kprobe(&kp));
	unregister_kprobe(&kp);
}

static int kpa_redirect_hits, kpa_other_hits;

static int kpa_redirect_pre(struct kprobe *p, struct pt_regs *regs)
{
	kpa_redirect_hits++;
	instruction_pointer_set(regs, (unsigned long)kpa_alt);
	return 1;
}

static int kpa_other_pre(struct kprobe *p, struct pt_regs *regs)
{
	kpa_other_hits++;
	return 0;
}

static void kpa_test_redirect_skips(struct kunit *test)
{
	struct kprobe first = { .symbol_name = "kpa_target",
				.pre_handler = kpa_redirect_pre };
	struct kprobe second = { .symbol_name = "kpa_target",
				 .pre_handler = kpa_other_pre };

	kpa_redirect_hits = kpa_other_hits = 0;
	KUNIT_ASSERT_EQ(test, 0, register_kprobe(&first));
	KUNIT_ASSERT_EQ(test, 0, register_kprobe(&second));
	KUNIT_EXPECT_EQ(test, kpa_call(kpa_target, 1), 101);
	unregister_kprobe(&second);
	unregister_kprobe(&first);

	KUNIT_EXPECT_EQ(test, kpa_redirect_hits, 1);
	KUNIT_EXPECT_EQ(test, kpa_other_hits, 0);
	KUNIT_EXPECT_EQ(test, second.nmissed, 1UL);
	KUNIT_EXPECT_EQ(test, first.nmissed, 0UL);
}

/* ------------------------------------------------------------------ */
/* A registration that fails on a site in use                         */

/*
 * A hit on another CPU is inside the first probe's handler when the second
 * probe is added; it walks on to the second one while its registration
 * fails.  Each side waits for the other (with a timeout, since the fixed
 * core waits for the hit to leave before it returns).
 */
static struct kpa_attach {
	struct kprobe first, second;
	struct list_head *second_next;	/* its link when the hit reached it */
	struct completion hit_done;
	bool in_first, on_list, reached, failed, looped;
	int second_calls;
} kpa_attach;

/* Wait up to @ms milliseconds for @flag; the caller may not sleep. */
static void kpa_wait_for(bool *flag, unsigned int ms)
{
	unsigned int i;

	for (i = 0; i < ms && !READ_ONCE(*flag); i++)
		mdelay(1);
}

static int kpa_attach_first_pre(struct kprobe *p, struct pt_regs *regs)
{
	WRITE_ONCE(kpa_attach.in_first, true);
	kpa_wait_for(&kpa_attach.on_list, 10000);
	return 0;
}

static int kpa_attach_second_pre(struct kprobe *p, struct pt_regs *regs)
{
	struct kpa_attach *a = &kpa_attach;

	if (a->second_calls++) {
		/* the walk came back to this probe: send it to the list's end */
		a->looped = true;
		WRITE_ONCE(a->second.list.next, a->second_next);
		return 0;
	}
	a->second_next = READ_ONCE(a->second.list.next);
	WRITE_ONCE(a->reached, true);
	/*
	 * A core that resets the probe at once sets @failed quickly; the
	 * fixed one waits for this handler first, so this wait runs out.
	 */
	kpa_wait_for(&a->failed, 1000);
	return 0;
}

/* Stands in for kprobe_site_sync() in the registering task: arming fails. */
static int kpa_attach_sync_fails(struct kprobe_site *s)
{
	WRITE_ONCE(kpa_attach.on_list, true);
	kpa_wait_for(&kpa_attach.reached, 10000);
	return -EIO;
}

static int kpa_attach_hitter(void *data)
{
	kpa_call(kpa_target, 1);
	complete(&kpa_attach.hit_done);
	return 0;
}

static void kpa_test_attach_fails_live(struct kunit *test)
{
	struct kpa_attach *a = &kpa_attach;
	struct task_struct *t;
	int cpu, i;

	memset(a, 0, sizeof(*a));
	init_completion(&a->hit_done);
	a->first.symbol_name = a->second.symbol_name = "kpa_target";
	a->first.pre_handler = kpa_attach_first_pre;
	a->second.pre_handler = kpa_attach_second_pre;
	t = kthread_create(kpa_attach_hitter, NULL, "kpa_attach");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	/* this task stays off the CPU where the hit spins */
	migrate_disable();
	cpu = cpumask_any_but(cpu_online_mask, raw_smp_processor_id());
	if (cpu >= nr_cpu_ids) {
		migrate_enable();
		kthread_stop(t);
		kunit_skip(test, "needs two CPUs");
	}
	kthread_bind(t, cpu);
	if (register_kprobe(&a->first)) {
		migrate_enable();
		kthread_stop(t);
		KUNIT_FAIL(test, "cannot probe kpa_target");
		return;
	}
	wake_up_process(t);
	for (i = 0; i < 5000 && !READ_ONCE(a->in_first); i++)
		usleep_range(1000, 2000);
	kunit_activate_static_stub(test, kprobe_site_sync, kpa_attach_sync_fails);
	KUNIT_EXPECT_EQ(test, -EIO, register_kprobe(&a->second));
	kunit_deactivate_static_stub(test, kprobe_site_sync);
	WRITE_ONCE(a->failed, true);
	migrate_enable();
	wait_for_completion(&a->hit_done);
	unregister_kprobe(&a->first);

	KUNIT_EXPECT_TRUE(test, a->in_first);
	KUNIT_EXPECT_EQ(test, a->second_calls, 1);
	KUNIT_EXPECT_FALSE(test, a->looped);
	KUNIT_EXPECT_TRUE(test, list_empty(&a->second.list));
}

/* ------------------------------------------------------------------ */
/* Batches                                                            */

static int kpa_batch_hits[2];

static int kpa_batch_pre(struct kprobe *p, struct pt_regs *regs)
{
	kpa_batch_hits[p->symbol_name[4] == 'a']++;	/* kpa_alt: [1] */
	return 0;
}

/* Call both targets once; return how many handler calls that made. */
static int kpa_batch_calls(void)
{
	int before = kpa_batch_hits[0] + kpa_batch_hits[1];

	kpa_call(kpa_target, 1);
	kpa_call(kpa_alt, 1);
	return kpa_batch_hits[0] + kpa_batch_hits[1] - before;
}

/* Another task's batch: begun and ended from a kthread, then reported. */
static DECLARE_COMPLETION(kpa_batch_done);

static int kpa_batch_other(void *unused)
{
	kprobe_batch_begin();
	kprobe_batch_end();
	complete(&kpa_batch_done);
	return 0;
}

/*
 * One task at a time has a batch open, from its outermost begin to its
 * outermost end; an inner end lets no other task in.
 */
static void kpa_test_batch_exclusive(struct kunit *test)
{
	struct task_struct *t;
	bool early;

	reinit_completion(&kpa_batch_done);
	kprobe_batch_begin();
	kprobe_batch_begin();
	t = kthread_run(kpa_batch_other, NULL, "kpa_batch");
	if (IS_ERR(t)) {
		kprobe_batch_end();
		kprobe_batch_end();
		KUNIT_FAIL(test, "kthread_run: %ld", PTR_ERR(t));
		return;
	}
	KUNIT_EXPECT_EQ(test, 0, kprobe_batch_end());
	early = wait_for_completion_timeout(&kpa_batch_done,
						    msecs_to_jiffies(200));
	KUNIT_EXPECT_EQ(test, 0, kprobe_batch_end());
	KUNIT_EXPECT_FALSE_MSG(test, early, "another task began a batch inside ours");
	KUNIT_EXPECT_TRUE(test, early ||
			  wait_for_completion_timeout(&kpa_batch_done, 10 * HZ));
}

/*
 * No KUNIT_ASSERT between a begin and its end: an assertion ends the test
 * at once, which would leave the batch open and the probes registered.
 */
static void kpa_test_batch_defers(struct kunit *test)
{
	struct kprobe a = { .symbol_name = "kpa_target", .pre_handler = kpa_batch_pre };
	struct kprobe b = { .symbol_name = "kpa_alt", .pre_handler = kpa_batch_pre };
	int ra, rb;

	kpa_batch_hits[0] = kpa_batch_hits[1] = 0;
	kprobe_batch_begin();
	ra = register_kprobe(&a);
	kprobe_batch_begin();
	rb = register_kprobe(&b);
	KUNIT_EXPECT_EQ(test, 0, kprobe_batch_end());
	/* the inner end armed nothing: the outer batch is still open */
	KUNIT_EXPECT_EQ(test, 0, kpa_batch_calls());
	KUNIT_EXPECT_EQ(test, 0, kprobe_batch_end());
	if (ra || rb) {
		KUNIT_FAIL(test, "register: %d, %d", ra, rb);
		goto out_unregister;
	}
	KUNIT_EXPECT_EQ(test, 2, kpa_batch_calls());

	/* disabling takes effect at once, enabling at the end */
	kprobe_batch_begin();
	KUNIT_EXPECT_EQ(test, 0, disable_kprobe(&a));
	KUNIT_EXPECT_EQ(test, 0, disable_kprobe(&b));
	KUNIT_EXPECT_EQ(test, 0, kpa_batch_calls());
	KUNIT_EXPECT_EQ(test, 0, enable_kprobe(&a));
	KUNIT_EXPECT_EQ(test, 0, kprobe_batch_end());
	KUNIT_EXPECT_EQ(test, 1, kpa_batch_calls());
	KUNIT_EXPECT_EQ(test, 1, kpa_batch_hits[1]);	/* b stayed off */

	/* unregistering in a batch is complete when the call returns */
	kprobe_batch_begin();
	unregister_kprobe(&a);
	unregister_kprobe(&b);
	KUNIT_EXPECT_EQ(test, 0, kpa_batch_calls());
	KUNIT_EXPECT_EQ(test, 0, kprobe_batch_end());
	KUNIT_EXPECT_EQ(test, 0, kpa_batch_calls());
	return;

out_unregister:
	unregister_kprobe(&a);		/* harmless if it was not registered */
	unregister_kprobe(&b);
}

static void kpa_test_batch_all_or_nothing(struct kunit *test)
{
	struct kprobe a = { .symbol_name = "kpa_target", .pre_handler = kpa_batch_pre };
	struct kprobe bad = { .symbol_name = "kpa_nokprobe", .pre_handler = kpa_batch_pre };
	struct kprobe b = { .symbol_name = "kpa_alt", .pre_handler = kpa_batch_pre };
	struct kprobe *kps[] = { &a, &bad, &b };

	kpa_batch_hits[0] = kpa_batch_hits[1] = 0;
	KUNIT_EXPECT_EQ(test, -EINVAL, register_kprobes(kps, 3));
	KUNIT_EXPECT_EQ(test, 0, kpa_batch_calls());
	/* none of them is left registered: all three can go again */
	bad.symbol_name = "kpa_hot";
	a.addr = bad.addr = b.addr = NULL;
	KUNIT_ASSERT_EQ(test, 0, register_kprobes(kps, 3));
	KUNIT_EXPECT_EQ(test, 2, kpa_batch_calls());
	unregister_kprobes(kps, 3);
	KUNIT_EXPECT_EQ(test, 0, kpa_batch_calls());
}

/* Is @addr at @func's entry (a breakpoint on it, or its fentry call)? */
static bool kpa_at_entry(const void *addr, const void *func)
{
	return (unsigned long)addr - (unsigned long)func < 16;
}

typedef int (*kpa_sites_stub_t)(struct kprobe_site **sites, unsigned int n,
				bool arm);

/* The real arming of @sites, with the stand-in @stub stepped aside. */
static int kpa_sites_set_armed_real(struct kprobe_site **sites, unsigned int n,
				    bool arm, kpa_sites_stub_t stub)
{
	struct kunit *test = kunit_get_current_test();
	int ret;

	kunit_deactivate_static_stub(test, kprobe_sites_set_armed);
	ret = kprobe_sites_set_armed(sites, n, arm);
	/* @stub's type is checked by the parameter's */
	__kunit_activate_static_stub(test, kprobe_sites_set_armed, stub);
	return ret;
}

/*
 * Stands in for the arming of sites in this task: kpa_target's site
 * refuses, as when ftrace has no memory for its filter; the others are
 * switched for real, with the stand-in stepped aside meanwhile.
 */
static int kpa_sites_refuse_target(struct kprobe_site **sites,
				   unsigned int n, bool arm)
{
	unsigned int i;

	for (i = 0; arm && i < n; i++)
		if (kpa_at_entry(sites[i]->addr, kpa_target))
			return -ENOMEM;
	return kpa_sites_set_armed_real(sites, n, arm, kpa_sites_refuse_target);
}

/*
 * Stands in for the arming of sites in this task, and notes the first
 * probe on kpa_alt's site (kprobe_mutex is held) in kpa_alt_probe.
 */
static struct kprobe *kpa_alt_probe;

static int kpa_sites_note_alt(struct kprobe_site **sites, unsigned int n,
			      bool arm)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (kpa_at_entry(sites[i]->addr, kpa_alt))
			kpa_alt_probe = list_first_entry_or_null(&sites[i]->probes,
								 struct kprobe, list);
	return kpa_sites_set_armed_real(sites, n, arm, kpa_sites_note_alt);
}

/* Events of the "kprobes" group, enabled in an instance of their own. */
#define KPA_EV_INSTANCE	"kpa_batch"
#define KPA_EV_GROUP	"kprobes"
#define KPA_EV_BAD	"kpa_batch_bad"		/* on kpa_target */
#define KPA_EV_OK	"kpa_batch_ok"		/* on kpa_alt */

static bool kpa_file_enabled(struct trace_event_file *file)
{
	return test_bit(EVENT_FILE_FL_ENABLED_BIT, &file->flags);
}

/*
 * The kprobe event @name on @func of this suite, by the command API: in
 * the module's text when the suite is a module, by its bare name when it
 * is built in (a MOD: place would wait for a module that never loads).
 */
static int kpa_event_create(struct kunit *test, const char *name,
			    const char *func)
{
	char *text = kunit_kzalloc(test, MAX_DYNEVENT_CMD_LEN, GFP_KERNEL);
	char place[64];
	struct dynevent_cmd cmd;

	if (!text)
		return -ENOMEM;
	if (IS_MODULE(CONFIG_KPROBES_CORE_KUNIT_TEST))
		snprintf(place, sizeof(place), "%s:%s", KBUILD_MODNAME, func);
	else
		strscpy(place, func);
	kprobe_event_cmd_init(&cmd, text, MAX_DYNEVENT_CMD_LEN);
	return kprobe_event_gen_cmd_start(&cmd, name, place) ?:
	       kprobe_event_gen_cmd_end(&cmd);
}

static struct trace_event_file *kpa_event_file(struct kunit *test,
					       const char *name)
{
	struct trace_event_file *file;

	file = trace_get_event_file(KPA_EV_INSTANCE, KPA_EV_GROUP, name);
	if (IS_ERR(file)) {
		KUNIT_FAIL(test, "no event file %s: %ld", name, PTR_ERR(file));
		return NULL;
	}
	return file;
}

/*
 * A write to set_event or to a group's enable file arms the probes of
 * its events in one batch, when the batch ends.  When a site refuses to
 * be armed there, the writer gets the error and each event on that site
 * is left off, its enable flag clear, not enabled with nothing armed;
 * the other events of the write stay on.  The event that was refused
 * can then be enabled, disabled and deleted as usual.
 */
static void kpa_batch_event_refused(struct kunit *test,
				    struct trace_array *tr)
{
	struct trace_event_file *bad, *ok;

	bad = kpa_event_file(test, KPA_EV_BAD);
	ok = kpa_event_file(test, KPA_EV_OK);
	if (!bad || !ok)
		goto out_put;
	kunit_activate_static_stub(test, kprobe_sites_set_armed,
				   kpa_sites_refuse_target);
	KUNIT_EXPECT_EQ(test, -ENOMEM,
			trace_array_set_clr_event(tr, KPA_EV_GROUP, NULL, true));
	kunit_deactivate_static_stub(test, kprobe_sites_set_armed);
	KUNIT_EXPECT_FALSE_MSG(test, kpa_file_enabled(bad),
			       "enabled, with its probe not armed");
	KUNIT_EXPECT_TRUE(test, kpa_file_enabled(ok));

	KUNIT_EXPECT_EQ(test, 0,
			trace_array_set_clr_event(tr, KPA_EV_GROUP, KPA_EV_BAD, true));
	KUNIT_EXPECT_TRUE(test, kpa_file_enabled(bad));
	KUNIT_EXPECT_EQ(test, 0,
			trace_array_set_clr_event(tr, KPA_EV_GROUP, NULL, false));
	KUNIT_EXPECT_FALSE(test, kpa_file_enabled(bad));
	KUNIT_EXPECT_FALSE(test, kpa_file_enabled(ok));
out_put:
	if (ok)
		trace_put_event_file(ok);
	if (bad)
		trace_put_event_file(bad);
}

/*
 * An event that was on before a failed batch stays on, even with a probe
 * disabled for a reason of its own (a place that failed to arm when its
 * module came back): the batch turns off only what it turned on.
 */
static void kpa_batch_keeps_earlier(struct kunit *test,
				    struct trace_array *tr)
{
	struct trace_event_file *bad, *ok;
	struct kprobe *p;

	bad = kpa_event_file(test, KPA_EV_BAD);
	ok = kpa_event_file(test, KPA_EV_OK);
	if (!bad || !ok)
		goto out_put;
	kpa_alt_probe = NULL;
	kunit_activate_static_stub(test, kprobe_sites_set_armed,
				   kpa_sites_note_alt);
	KUNIT_ASSERT_EQ(test, 0,
			trace_array_set_clr_event(tr, KPA_EV_GROUP, KPA_EV_OK, true));
	kunit_deactivate_static_stub(test, kprobe_sites_set_armed);
	p = kpa_alt_probe;
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_EQ(test, 0, disable_kprobe(p));
	kunit_activate_static_stub(test, kprobe_sites_set_armed,
				   kpa_sites_refuse_target);
	KUNIT_EXPECT_EQ(test, -ENOMEM,
			trace_array_set_clr_event(tr, KPA_EV_GROUP, KPA_EV_BAD, true));
	kunit_deactivate_static_stub(test, kprobe_sites_set_armed);
	KUNIT_EXPECT_FALSE(test, kpa_file_enabled(bad));
	KUNIT_EXPECT_TRUE_MSG(test, kpa_file_enabled(ok),
			      "turned off by a write that did not turn it on");
	KUNIT_EXPECT_EQ(test, 0, enable_kprobe(p));
	KUNIT_EXPECT_EQ(test, 0,
			trace_array_set_clr_event(tr, KPA_EV_GROUP, NULL, false));
out_put:
	if (ok)
		trace_put_event_file(ok);
	if (bad)
		trace_put_event_file(bad);
}

static void kpa_test_batch_event_refused(struct kunit *test)
{
	struct trace_array *tr;

	if (!IS_ENABLED(CONFIG_KPROBE_EVENTS))
		kunit_skip(test, "needs kprobe events");
	KUNIT_ASSERT_EQ(test, 0, kpa_event_create(test, KPA_EV_BAD, "kpa_target"));
	KUNIT_EXPECT_EQ(test, 0, kpa_event_create(test, KPA_EV_OK, "kpa_alt"));
	tr = trace_array_get_by_name(KPA_EV_INSTANCE, NULL);
	if (tr) {
		kpa_batch_event_refused(test, tr);
		kpa_batch_keeps_earlier(test, tr);
		trace_array_put(tr);
		KUNIT_EXPECT_EQ(test, 0, trace_array_destroy(tr));
	} else {
		KUNIT_FAIL(test, "no trace instance");
	}
	KUNIT_EXPECT_EQ(test, 0, kprobe_event_delete(KPA_EV_OK));
	KUNIT_EXPECT_EQ(test, 0, kprobe_event_delete(KPA_EV_BAD));
}

/* ------------------------------------------------------------------ */
/* Unregistering under fire                                            */

/* __used: on one CPU the race test is dead code, but the batch test names it */
static noinline __noclone __used int kpa_hot(int x)
{
	WRITE_ONCE(kpa_cell, READ_ONCE(kpa_cell) + 1);
	return x ^ 1;
}

/* One of the probes that come and go, and what its handlers saw. */
struct kpa_racer {
	struct kretprobe rp;	/* rp.kp alone for a plain kprobe */
	bool is_ret;
	bool live;		/* registered; false once unregister returned */
	atomic_t hits;
	atomic_t late;		/* handler calls after unregister returned */
};

static struct kpa_racer *kpa_racer_of(struct kprobe *kp)
{
	return container_of(kp, struct kpa_racer, rp.kp);
}

static void kpa_racer_saw(struct kpa_racer *r)
{
	atomic_inc(&r->hits);
	if (!READ_ONCE(r->live))
		atomic_inc(&r->late);
}

static int kpa_race_pre(struct kprobe *kp, struct pt_regs *regs)
{
	kpa_racer_saw(kpa_racer_of(kp));
	return 0;
}

static int kpa_race_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	kpa_racer_saw(container_of(get_kretprobe(ri), struct kpa_racer, rp));
	return 0;
}

static int kpa_race_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	kpa_racer_saw(container_of(get_kretprobe(ri), struct kpa_racer, rp));
	return 0;
}

#define KPA_RACERS	4

struct kpa_race {
	struct kpa_racer racers[KPA_RACERS];
	struct task_struct *callers[NR_CPUS];
	bool stop;
	unsigned long rounds;
};

/*
 * Per CPU: a timer whose interrupt holds the CPU for a while, so that the
 * hit path it interrupts is stretched (on the ftrace path handlers run
 * with interrupts on).
 */
static DEFINE_PER_CPU(struct hrtimer, kpa_stretch);

static enum hrtimer_restart kpa_stretch_fn(struct hrtimer *t)
{
	udelay(20);
	hrtimer_forward_now(t, ns_to_ktime(70 * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

static int kpa_caller(void *data)
{
	struct kpa_race *race = data;
	struct hrtimer *t = this_cpu_ptr(&kpa_stretch);
	unsigned long n = 0;

	hrtimer_setup(t, kpa_stretch_fn, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED);
	hrtimer_start(t, ns_to_ktime(70 * NSEC_PER_USEC), HRTIMER_MODE_REL_PINNED);
	while (!READ_ONCE(race->stop)) {
		kpa_call(kpa_hot, (int)n);
		if (!(++n & 1023))
			cond_resched();
	}
	hrtimer_cancel(t);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

static void kpa_racer_init(struct kpa_racer *r, bool is_ret)
{
	memset(r, 0, sizeof(*r));
	r->is_ret = is_ret;
	r->rp.kp.symbol_name = "kpa_hot";
	if (is_ret) {
		r->rp.entry_handler = kpa_race_entry;
		r->rp.handler = kpa_race_ret;
		r->rp.maxactive = 4 * num_possible_cpus();
	} else {
		r->rp.kp.pre_handler = kpa_race_pre;
	}
}

static int kpa_racer_register(struct kpa_racer *r)
{
	int ret;

	r->rp.kp.addr = NULL;
	r->rp.kp.flags = 0;
	WRITE_ONCE(r->live, true);
	ret = r->is_ret ? register_kretprobe(&r->rp) : register_kprobe(&r->rp.kp);
	if (ret)
		WRITE_ONCE(r->live, false);
	return ret;
}

static void kpa_racer_unregister(struct kpa_racer *r)
{
	if (r->is_ret)
		unregister_kretprobe(&r->rp);
	else
		unregister_kprobe(&r->rp.kp);
	WRITE_ONCE(r->live, false);
}

/*
 * All four in a task's batch: registered, switched off and on, and
 * unregistered, each step a batch of its own.
 */
static int kpa_race_task_batch(struct kpa_race *race)
{
	struct kpa_racer *r = race->racers;
	int i, err, ret = 0;

	kprobe_batch_begin();
	for (i = 0; i < KPA_RACERS && !ret; i++)
		ret = kpa_racer_register(&r[i]);
	err = kprobe_batch_end();
	ret = ret ?: err;
	usleep_range(200, 400);
	kprobe_batch_begin();
	for (i = 0; i < KPA_RACERS; i++)
		disable_kprobe(&r[i].rp.kp);
	for (i = 0; i < KPA_RACERS; i += 2)
		enable_kprobe(&r[i].rp.kp);
	err = kprobe_batch_end();
	ret = ret ?: err;
	usleep_range(100, 200);
	kprobe_batch_begin();
	for (i = 0; i < KPA_RACERS; i++)
		if (READ_ONCE(r[i].live))
			kpa_racer_unregister(&r[i]);
	err = kprobe_batch_end();
	return ret ?: err;
}

/*
 * One round, by its number: a kretprobe and a kprobe sharing the site,
 * taken away in either order (the site stays armed for the other one);
 * all four registered and unregistered through the calls that take many;
 * or all four in a task's batch.
 */
static int kpa_race_round(struct kpa_race *race, unsigned long round)
{
	struct kpa_racer *r = race->racers;
	struct kretprobe *rps[2] = { &r[0].rp, &r[2].rp };
	struct kprobe *kps[2] = { &r[1].rp.kp, &r[3].rp.kp };
	int ret, i;

	if (round % 4 == 3)
		return kpa_race_task_batch(race);
	if (round % 4 < 2) {
		ret = kpa_racer_register(&r[0]);
		if (!ret)
			ret = kpa_racer_register(&r[1]);
		usleep_range(200, 400);
		kpa_racer_unregister(&r[round % 2 ? 0 : 1]);
		usleep_range(100, 200);
		kpa_racer_unregister(&r[round % 2 ? 1 : 0]);
		return ret;
	}
	for (i = 0; i < KPA_RACERS; i++) {
		r[i].rp.kp.addr = NULL;
		r[i].rp.kp.flags = 0;
		WRITE_ONCE(r[i].live, true);
	}
	ret = register_kretprobes(rps, 2);
	if (!ret)
		ret = register_kprobes(kps, 2);
	usleep_range(200, 400);
	unregister_kretprobes(rps, 2);
	WRITE_ONCE(r[0].live, false);
	WRITE_ONCE(r[2].live, false);
	unregister_kprobes(kps, 2);
	WRITE_ONCE(r[1].live, false);
	WRITE_ONCE(r[3].live, false);
	return ret;
}

static void kpa_test_unregister_race(struct kunit *test)
{
	struct kpa_race *race;
	unsigned long end;
	int cpu, i, ret = 0, hits = 0;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two CPUs or more");
	race = kunit_kzalloc(test, sizeof(*race), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, race);
	for (i = 0; i < KPA_RACERS; i++)
		kpa_racer_init(&race->racers[i], !(i & 1));

	for_each_online_cpu(cpu) {
		struct task_struct *t;

		t = kthread_create_on_cpu(kpa_caller, race, cpu, "kpa_caller/%u");
		if (IS_ERR(t)) {
			ret = PTR_ERR(t);
			break;
		}
		race->callers[cpu] = t;
		wake_up_process(t);
	}

	end = jiffies + kpa_race_secs * HZ;
	while (!ret && time_before(jiffies, end))
		ret = kpa_race_round(race, race->rounds++);

	/* the callers read @race: stop them all before it is freed */
	WRITE_ONCE(race->stop, true);
	for_each_online_cpu(cpu)
		if (race->callers[cpu])
			kthread_stop(race->callers[cpu]);

	KUNIT_EXPECT_EQ(test, ret, 0);
	for (i = 0; i < KPA_RACERS; i++) {
		KUNIT_EXPECT_EQ(test, atomic_read(&race->racers[i].late), 0);
		hits += atomic_read(&race->racers[i].hits);
	}
	kunit_info(test, "%lu rounds, %d handler calls\n", race->rounds, hits);
	KUNIT_EXPECT_GT(test, race->rounds, 10UL);
	KUNIT_EXPECT_GT(test, hits, 0);
}

/* ------------------------------------------------------------------ */
/* Cost sampling                                                      */

static int kpa_ret_nop(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	return 0;
}

static void kpa_cost_zero(struct kprobe_cost __percpu *cost)
{
	int cpu;

	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(cost, cpu), 0, sizeof(struct kprobe_cost));
}

static void kpa_cost_sum(struct kprobe_cost __percpu *cost, struct kprobe_cost *sum)
{
	int cpu;

	memset(sum, 0, sizeof(*sum));
	for_each_possible_cpu(cpu) {
		sum->ns += per_cpu_ptr(cost, cpu)->ns;
		sum->n += per_cpu_ptr(cost, cpu)->n;
		sum->ret_ns += per_cpu_ptr(cost, cpu)->ret_ns;
		sum->ret_n += per_cpu_ptr(cost, cpu)->ret_n;
	}
}

/*
 * Every hit timed (N = 1): call kpa_target @calls times on one CPU, after
 * enough calls to run out the countdown in course, with @a and @b zeroed.
 */
static void kpa_cost_calls(struct kprobe_cost __percpu *a,
			   struct kprobe_cost __percpu *b, int calls)
{
	int i;

	migrate_disable();
	for (i = 0; i < 2 * KPROBE_COST_EVERY; i++)
		kpa_call(kpa_target, i);
	kpa_cost_zero(a);
	kpa_cost_zero(b);
	for (i = 0; i < calls; i++)
		kpa_call(kpa_target, i);
	migrate_enable();
}

/*
 * With every hit timed, each enabled probe that has a slot is charged
 * each hit of its address, a kretprobe each return apart, and the mean
 * of a kretprobe adds both.  A probe without a slot beside them changes
 * nothing; a disabled one is charged nothing while the others are hit;
 * a probe whose handler a redirect skipped is charged nothing either.
 */
static void kpa_test_cost(struct kunit *test)
{
	struct kprobe_cost __percpu *a = alloc_percpu(struct kprobe_cost);
	struct kprobe_cost __percpu *b = alloc_percpu(struct kprobe_cost);
	struct kprobe pa = { .symbol_name = "kpa_target", .cost = a,
			     .pre_handler = kpa_other_pre };
	struct kprobe bare = { .symbol_name = "kpa_target",
			       .pre_handler = kpa_other_pre };
	struct kretprobe rp = { .kp.symbol_name = "kpa_target", .kp.cost = b,
				.handler = kpa_ret_nop };
	int every = kprobe_cost_set_every(1), calls = 100;
	struct kprobe_cost sa, sb;
	u64 mean_a, mean_b, n;

	if (!a || !b || register_kprobe(&pa) || register_kprobe(&bare) ||
	    register_kretprobe(&rp)) {
		KUNIT_FAIL(test, "allocation or registration failed");
		goto out;
	}
	kpa_cost_calls(a, b, calls);
	kpa_cost_sum(a, &sa);
	kpa_cost_sum(b, &sb);
	KUNIT_EXPECT_EQ(test, sa.n, calls);
	KUNIT_EXPECT_EQ(test, sb.n, calls);
	KUNIT_EXPECT_EQ(test, sb.ret_n, calls);
	mean_a = kprobe_cost_per_hit(a, &n);
	KUNIT_EXPECT_EQ(test, n, calls);
	KUNIT_EXPECT_GT(test, mean_a, 0);
	mean_b = kprobe_cost_per_hit(b, &n);
	if (sb.n && sb.ret_n)	/* else failed above: no division by 0 */
		KUNIT_EXPECT_EQ(test, mean_b, div64_u64(sb.ns, sb.n) +
					      div64_u64(sb.ret_ns, sb.ret_n));
	kunit_info(test, "entry %llu ns, kretprobe %llu ns (entry and return)\n",
		   mean_a, mean_b);

	/* disabled: the others' hits go on, none is charged to it */
	KUNIT_EXPECT_EQ(test, 0, disable_kprobe(&pa));
	kpa_cost_calls(a, b, calls);
	kpa_cost_sum(a, &sa);
	kpa_cost_sum(b, &sb);
	KUNIT_EXPECT_EQ(test, sa.n, 0);
	KUNIT_EXPECT_EQ(test, sb.n, calls);
	KUNIT_EXPECT_EQ(test, 0, enable_kprobe(&pa));

	/* a redirect by the first probe: the two after it are skipped */
	unregister_kretprobe(&rp);
	unregister_kprobe(&bare);
	unregister_kprobe(&pa);
	bare.addr = pa.addr = rp.kp.addr = NULL;
	bare.pre_handler = kpa_redirect_pre;
	if (register_kprobe(&bare) || register_kprobe(&pa) ||
	    register_kretprobe(&rp)) {
		KUNIT_FAIL(test, "registration failed");
		goto out;
	}
	kpa_cost_calls(a, b, calls);
	kpa_cost_sum(a, &sa);
	kpa_cost_sum(b, &sb);
	KUNIT_EXPECT_EQ(test, sa.n, 0);
	KUNIT_EXPECT_EQ(test, sb.n, 0);
	KUNIT_EXPECT_GE(test, pa.nmissed_skipped, calls);
out:
	unregister_kretprobe(&rp);
	unregister_kprobe(&bare);
	unregister_kprobe(&pa);
	kprobe_cost_set_every(every);
	free_percpu(b);
	free_percpu(a);
}

/*
 * The default N: one hit in KPROBE_COST_EVERY on average, the gaps N/2 to
 * 3N/2 hits, so 32 N hits give 21 to 64 samples.  Two probes with a slot
 * each; on arm64 the one that reads every register gets a BRK of its
 * own, beside the other on the ftrace call: two sites hit in turn, which
 * a fixed gap of even N would alias so that one got every sample and the
 * other none.  On x86 both share one site, and each sample.
 */
static void kpa_test_cost_default(struct kunit *test)
{
	struct kprobe_cost __percpu *a = alloc_percpu(struct kprobe_cost);
	struct kprobe_cost __percpu *b = alloc_percpu(struct kprobe_cost);
	struct kprobe pa = { .symbol_name = "kpa_target", .cost = a,
			     .pre_handler = kpa_other_pre,
			     .flags = KPROBE_FLAG_ALL_REGS };
	struct kprobe pb = { .symbol_name = "kpa_target", .cost = b,
			     .pre_handler = kpa_other_pre };
	int every = kprobe_cost_set_every(KPROBE_COST_EVERY), i;
	struct kprobe_cost sa, sb;
	u64 total;

	if (!a || !b || register_kprobe(&pa) || register_kprobe(&pb)) {
		KUNIT_FAIL(test, "allocation or registration failed");
		goto out;
	}
	kpa_cost_zero(a);
	kpa_cost_zero(b);
	migrate_disable();
	for (i = 0; i < 32 * KPROBE_COST_EVERY; i++)
		kpa_call(kpa_target, i);
	migrate_enable();
	kpa_cost_sum(a, &sa);
	kpa_cost_sum(b, &sb);
	kunit_info(test, "%llu and %llu samples of %d calls\n", sa.n, sb.n,
		   32 * KPROBE_COST_EVERY);
	KUNIT_EXPECT_GT(test, sa.ns, 0);
	KUNIT_EXPECT_GT(test, sb.ns, 0);
	if (pa.addr == pb.addr) {	/* one site: 32 N hits */
		KUNIT_EXPECT_EQ(test, sa.n, sb.n);
		KUNIT_EXPECT_GE(test, sa.n, 21);
		KUNIT_EXPECT_LE(test, sa.n, 65);
	} else {			/* two sites: 64 N hits, shared */
		total = sa.n + sb.n;
		KUNIT_EXPECT_GE(test, total, 42);
		KUNIT_EXPECT_LE(test, total, 129);
		KUNIT_EXPECT_GE(test, 4 * sa.n, total);
		KUNIT_EXPECT_GE(test, 4 * sb.n, total);
	}
out:
	unregister_kprobe(&pb);
	unregister_kprobe(&pa);
	kprobe_cost_set_every(every);
	free_percpu(b);
	free_percpu(a);
}

static struct kunit_case kprobes_api_cases[] = {
	KUNIT_CASE(kpa_test_retry),
	KUNIT_CASE(kpa_test_redirect_skips),
	KUNIT_CASE(kpa_test_attach_fails_live),
	KUNIT_CASE(kpa_test_batch_exclusive),
	KUNIT_CASE(kpa_test_batch_defers),
	KUNIT_CASE(kpa_test_batch_all_or_nothing),
	KUNIT_CASE(kpa_test_batch_event_refused),
	KUNIT_CASE(kpa_test_cost),
	KUNIT_CASE(kpa_test_cost_default),
	KUNIT_CASE_SLOW(kpa_test_unregister_race),
	{}
};

static struct kunit_suite kprobes_api_suite = {
	.name = "kprobes_api",
	.test_cases = kprobes_api_cases,
};
kunit_test_suite(kprobes_api_suite);

MODULE_DESCRIPTION("KUnit tests of the kprobes API: registration life and unregister races");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");
