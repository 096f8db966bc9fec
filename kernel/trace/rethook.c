// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: rethook: return hooking on a per-task shadow stack
 *
 * Design (see include/linux/rethook.h and Documentation/trace/kprobes.rst)::
 *
 *   - Each task has a singly linked list of the returns hooked in it,
 *     task_struct::rethooks, newest first.  Only the task itself pushes and
 *     pops (from function entry and from the return trampoline, both with
 *     preemption disabled), so the list needs no lock.  Another task may
 *     only read it while the owner is not running (stack traces of sleeping
 *     tasks), and rethook_flush_task() empties it after the task is dead.
 *
 *   - Several hooks may be planted on the same call (a kretprobe and an
 *     fprobe on one function).  Their nodes carry the same @frame and sit
 *     next to each other on the list; only the oldest holds the real return
 *     address, the newer ones hold the trampoline address.
 *
 *   - Nodes come from the owner's objpool and go back to it after the
 *     handler ran.  rethook_free() clears the handler and drops the pool;
 *     nodes still in flight are then freed one by one after an RCU grace
 *     period, and the last one frees the pool and the struct rethook.
 *
 * Invariant on return: the trampoline writes the real return address back
 * into the frame before any handler runs and unlinks the nodes of the
 * frame, so a handler sees a normal stack (what the ORC unwinder needs).
 */

#define pr_fmt(fmt) "rethook: " fmt

#include <linux/bug.h>
#include <linux/kprobes.h>
#include <linux/preempt.h>
#include <linux/rethook.h>
#include <linux/sched.h>
#include <linux/slab.h>

static inline struct rethook_node *rh_node(struct llist_node *ln)
{
	return container_of(ln, struct rethook_node, llist);
}

static nokprobe_inline rethook_handler_t rh_handler(struct rethook *rh)
{
	return (rethook_handler_t)rcu_dereference_check(rh->handler,
							rcu_read_lock_any_held());
}

/* objpool callbacks: each node learns its rethook, which goes with the pool */
static int rh_init_node(void *obj, void *context)
{
	((struct rethook_node *)obj)->rethook = context;
	return 0;
}

static int rh_release(struct objpool_head *head, void *context)
{
	kfree(context);		/* the pool and all its nodes are gone */
	return 0;
}

/**
 * rethook_alloc() - create a rethook and its pool of nodes
 * @data: cookie given to @handler
 * @handler: the return callback; must not be NULL
 * @size: size of one node, struct rethook_node included
 * @num: number of nodes, i.e. of hooked returns that may be pending at once
 *
 * Return: the new rethook, or an ERR_PTR().
 */
struct rethook *rethook_alloc(void *data, rethook_handler_t handler,
			      int size, int num)
{
	struct rethook *rh;

	if (!handler || num <= 0 || size < (int)sizeof(struct rethook_node))
		return ERR_PTR(-EINVAL);

	rh = kzalloc(sizeof(*rh), GFP_KERNEL);
	if (rh && objpool_init(&rh->pool, num, size, GFP_KERNEL, rh,
			       rh_init_node, rh_release)) {
		kfree(rh);
		rh = NULL;
	}
	if (!rh)
		return ERR_PTR(-ENOMEM);
	/* from here on the pool owns @rh: rh_release() frees it */
	rh->data = data;
	rcu_assign_pointer(rh->handler, handler);
	return rh;
}

/**
 * rethook_stop() - stop calling the handler of @rh
 * @rh: the rethook
 *
 * Handlers already running may still finish: wait for an RCU grace period
 * after this before freeing what the handler uses.
 */
void rethook_stop(struct rethook *rh)
{
	rcu_assign_pointer(rh->handler, NULL);
}

static void rh_free_pool_rcu(struct rcu_head *head)
{
	struct rethook *rh = container_of(head, struct rethook, rcu);

	objpool_fini(&rh->pool);
}

/**
 * rethook_free() - give up @rh
 * @rh: the rethook; the caller must not touch it afterwards
 *
 * Stops the handler and frees the rethook once every node in flight came
 * back (possibly much later: a hooked function may sleep for a long time).
 */
void rethook_free(struct rethook *rh)
{
	rethook_stop(rh);
	call_rcu(&rh->rcu, rh_free_pool_rcu);
}

static void rh_drop_node_rcu(struct rcu_head *head)
{
	struct rethook_node *node = container_of(head, struct rethook_node, rcu);

	objpool_drop(node, &node->rethook->pool);
}

/**
 * rethook_recycle() - give a node back
 * @node: a node taken with rethook_try_get()
 *
 * Goes back to the pool, or is freed if its rethook was freed meanwhile.
 * Call with preemption disabled.
 */
void rethook_recycle(struct rethook_node *node)
{
	if (likely(rh_handler(node->rethook)))
		objpool_push(node, &node->rethook->pool);
	else
		call_rcu(&node->rcu, rh_drop_node_rcu);
}
NOKPROBE_SYMBOL(rethook_recycle);

/**
 * rethook_try_get() - take a free node of @rh
 * @rh: the rethook
 *
 * Context: preemption disabled.
 * Return: a node, or NULL when the pool is empty or @rh is being freed.
 */
struct rethook_node *rethook_try_get(struct rethook *rh)
{
	if (unlikely(!rh_handler(rh)))
		return NULL;
	/*
	 * The node is given back from the trampoline with call_rcu() when
	 * the rethook is gone meanwhile, so RCU must be watching here.
	 */
	if ((IS_ENABLED(CONFIG_FTRACE_VALIDATE_RCU_IS_WATCHING) ||
	     IS_ENABLED(CONFIG_KPROBE_EVENTS_ON_NOTRACE)) && !rcu_is_watching())
		return NULL;

	return objpool_pop(&rh->pool);
}
NOKPROBE_SYMBOL(rethook_try_get);

/**
 * rethook_hook() - hook the return of the function being entered
 * @node: a node taken with rethook_try_get()
 * @regs: the registers at the function entry
 * @mcount: true when called from an ftrace (fentry) callback
 */
void rethook_hook(struct rethook_node *node, struct pt_regs *regs, bool mcount)
{
	arch_rethook_prepare(node, regs, mcount);
	__llist_add(&node->llist, &current->rethooks);
}
NOKPROBE_SYMBOL(rethook_hook);

/**
 * rethook_flush_task() - give back the nodes of a dead task
 * @tk: the task, which will never run again
 *
 * Its hooked functions will never return: recycle their nodes.
 */
void rethook_flush_task(struct task_struct *tk)
{
	struct llist_node *ln = __llist_del_all(&tk->rethooks);

	while (ln) {
		struct rethook_node *node = rh_node(ln);

		ln = ln->next;
		preempt_disable();
		rethook_recycle(node);
		preempt_enable();
	}
}

/**
 * rethook_find_ret_addr() - the real return address of a hooked frame
 * @tsk: current, or a task that is not running
 * @frame: the stack slot where the trampoline address was found
 * @cur: cursor, *@cur NULL at the first call of an unwind; the search
 *	goes on after the node of the previous match
 *
 * Return: the return address that the trampoline replaced in @frame, or 0.
 */
unsigned long rethook_find_ret_addr(struct task_struct *tsk, unsigned long frame,
				    struct llist_node **cur)
{
	unsigned long tramp = (unsigned long)arch_rethook_trampoline;
	struct llist_node *ln;

	if (WARN_ON_ONCE(!cur))
		return 0;
	if (tsk != current && task_is_running(tsk))
		return 0;

	ln = *cur ? (*cur)->next : tsk->rethooks.first;
	for (; ln; ln = ln->next) {
		struct rethook_node *node = rh_node(ln);

		if (node->frame == frame && node->ret_addr != tramp) {
			*cur = ln;
			return node->ret_addr;
		}
	}
	return 0;
}
NOKPROBE_SYMBOL(rethook_find_ret_addr);

void __weak arch_rethook_fixup_return(struct pt_regs *regs,
				      unsigned long correct_ret_addr)
{
}

/*
 * The nodes of @frame are the run [*@first, last] of the current task's
 * list; the last, the oldest, holds the real return address, which is
 * returned.  Returns 0 when the frame has no node.
 */
static nokprobe_inline unsigned long
rh_find_frame(unsigned long frame, struct llist_node **first,
	      struct llist_node **last)
{
	struct llist_node *ln = current->rethooks.first;

	while (ln && rh_node(ln)->frame != frame)
		ln = ln->next;
	if (!ln)
		return 0;

	*first = ln;
	while (ln->next && rh_node(ln->next)->frame == frame)
		ln = ln->next;
	*last = ln;
	return rh_node(ln)->ret_addr;
}

/*
 * Unlink the run [@first, @last] from the current task's list.  Nodes
 * above it belong to frames that were left without a return (the task
 * unwound abnormally): they are recycled without calling their handler.
 */
static nokprobe_inline void rh_unlink_frame(struct llist_node *first,
					    struct llist_node *last)
{
	struct llist_node *top = current->rethooks.first;

	current->rethooks.first = last->next;
	last->next = NULL;
	while (top != first) {
		struct rethook_node *stale = rh_node(top);

		top = top->next;
		rethook_recycle(stale);
	}
}

/**
 * rethook_trampoline_handler() - the generic part of the return trampoline
 * @regs: registers at the return; regs->ip is set to the real return address
 * @frame: the stack slot that held the return address
 *
 * Runs the handlers of the nodes of @frame, newest first, and recycles them.
 * Return: the real return address.
 */
unsigned long rethook_trampoline_handler(struct pt_regs *regs,
					 unsigned long frame)
{
	struct llist_node *ln, *last;
	unsigned long ret_addr;

	preempt_disable_notrace();

	ret_addr = rh_find_frame(frame, &ln, &last);
	/* Without a node, there is no address to return to. */
	BUG_ON(!ret_addr || ret_addr == (unsigned long)arch_rethook_trampoline);

	/* Fix the frame first: an unwinder may look at it at any time. */
	instruction_pointer_set(regs, ret_addr);
	arch_rethook_fixup_return(regs, ret_addr);
	rh_unlink_frame(ln, last);

	while (ln) {
		struct rethook_node *node = rh_node(ln);
		struct rethook *rh = node->rethook;
		rethook_handler_t handler = rh_handler(rh);

		ln = ln->next;
		if (handler)
			handler(node, rh->data, ret_addr, regs);
		rethook_recycle(node);
	}

	preempt_enable_notrace();
	return ret_addr;
}
NOKPROBE_SYMBOL(rethook_trampoline_handler);
