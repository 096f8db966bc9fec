/* SPDX-License-Identifier: GPL-2.0 */
/**
 * DOC: rethook: the return hook API
 *
 * rethook: run a callback when a hooked function returns.
 *
 * A user (kretprobes, fprobe) owns one struct rethook and a pool of
 * preallocated nodes.  At a function entry it takes a node, and
 * rethook_hook() swaps the return address on the stack for the arch
 * trampoline, keeping the real one in the node.  The node is pushed on the
 * task's own list (task_struct::rethooks, newest first), which works as a
 * shadow stack.  When the function returns into the trampoline, the nodes
 * of that stack frame are taken off the list, their handler runs, and the
 * task goes on at the real return address.
 *
 * See Documentation/trace/kprobes.rst ("Return probes") for the picture.
 */
#ifndef _LINUX_RETHOOK_H
#define _LINUX_RETHOOK_H

#include <linux/compiler.h>
#include <linux/objpool.h>
#include <linux/kallsyms.h>
#include <linux/llist.h>
#include <linux/rcupdate.h>

struct rethook_node;
struct pt_regs;
struct task_struct;

/*
 * Called when the hooked function returns, with preemption disabled, in the
 * context of the returning task.  @data is rethook::data, @ret_addr the
 * real return address, @regs the registers at the return.
 */
typedef void rethook_fn_t(struct rethook_node *node, void *data,
			  unsigned long ret_addr, struct pt_regs *regs);
typedef rethook_fn_t *rethook_handler_t;

/**
 * struct rethook - one user of return hooking, with its pool of nodes
 * @data: the user's cookie, passed to @handler; constant after allocation.
 * @handler: the return callback, or NULL once rethook_stop() was called.
 *	Read under RCU (sched) by the trampoline; written by the owner.
 *	A rethook_handler_t, marked __rcu.
 * @pool: the free nodes.  A node belongs either to the pool or to exactly
 *	one task's list.
 * @rcu: frees the pool after the last reader is gone.
 *
 * Allocated by rethook_alloc() only: the structure frees itself once
 * rethook_free() was called and every node in flight has come back.
 */
struct rethook {
	void			*data;
	rethook_fn_t __rcu	*handler;
	struct objpool_head	pool;
	struct rcu_head		rcu;
};

/**
 * struct rethook_node - one hooked return, an entry of a task's shadow stack
 * @llist: link in task_struct::rethooks; only the owning task touches it
 *	(or its last put_task_struct(), see rethook_flush_task()).
 * @rethook: the owner; set when the pool is created, never changed.
 * @ret_addr: the real return address that rethook_hook() took off the stack.
 * @frame: the address of that stack slot, which identifies the frame.
 * @rcu: used to free the node when its rethook is already gone.
 *
 * Users embed it at the start of a larger node of their own (the size given
 * to rethook_alloc()) to keep per-call data.
 */
struct rethook_node {
	unsigned long		ret_addr;
	unsigned long		frame;
	struct llist_node	llist;
	struct rethook		*rethook;
	struct rcu_head		rcu;
};

/* Life of a rethook: alloc, then stop (no handler call from now on), free. */
struct rethook *rethook_alloc(void *data, rethook_handler_t handler, int size, int num);
void rethook_stop(struct rethook *rh);
void rethook_free(struct rethook *rh);

/* Has rethook_stop() (or rethook_free()) been called on @rh? */
static inline bool rethook_stopped(struct rethook *rh)
{
	return !rcu_access_pointer(rh->handler);
}

/* On a function entry: take a node, then hook the return or give it back. */
struct rethook_node *rethook_try_get(struct rethook *rh);
void rethook_hook(struct rethook_node *node, struct pt_regs *regs, bool mcount);
void rethook_recycle(struct rethook_node *node);

/* Unwinders: the real return address behind a trampoline address. */
unsigned long rethook_find_ret_addr(struct task_struct *tsk, unsigned long frame,
				    struct llist_node **cur);

/*
 * The architecture provides the trampoline and these hooks:
 * arch_rethook_prepare() records the return address and the frame of a
 * function entry in @node and plants the trampoline address instead;
 * arch_rethook_fixup_return() writes the real return address back in the
 * frame before the handlers run, so that stack traces taken in a handler
 * see the real caller.
 */
void arch_rethook_prepare(struct rethook_node *node, struct pt_regs *regs, bool mcount);
void arch_rethook_trampoline(void);
void arch_rethook_fixup_return(struct pt_regs *regs, unsigned long correct_ret_addr);

/**
 * is_rethook_trampoline() - is @addr the return trampoline?
 * @addr: an address found where a return address is expected
 *
 * Return: true if it is: the real return address is in a rethook node.
 */
static inline bool is_rethook_trampoline(unsigned long addr)
{
	return addr == (unsigned long)dereference_symbol_descriptor(arch_rethook_trampoline);
}

/* Called by the arch trampoline; returns the real return address. */
unsigned long rethook_trampoline_handler(struct pt_regs *regs, unsigned long frame);

#ifdef CONFIG_RETHOOK
void rethook_flush_task(struct task_struct *tk);
#else
#define rethook_flush_task(tsk)	do { } while (0)
#endif

#endif /* _LINUX_RETHOOK_H */
