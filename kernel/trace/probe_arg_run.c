// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: probe arguments: fetching on a hit
 *
 * probe_arg_run.c - run a compiled argument set on a probe hit.
 *
 * This is the hit path: it runs in whatever context the probe fires in
 * (IRQs off, NMI, any task), so it allocates nothing, takes no lock, never
 * sleeps, and is itself off limits to kprobes (NOKPROBE_SYMBOL).
 *
 * One pass.  The arguments are fetched once, in order, straight into the
 * record: scalars into the fixed block, strings appended after it while
 * the room lasts.  A string that does not fit is cut short and still
 * NUL-terminated, so the record is never dropped for its strings; the
 * caller learns the record's length from the return value.
 *
 * Faults.  A string whose address or text faults gets a data_loc of length
 * 0, which prints "(fault)".  A scalar that reads
 * memory (parg_arg_can_fault()) has a bit in the fault map after the
 * fields: a fault zeroes the field and sets the bit, and the printer says
 * "(fault)" instead of a value.  Sets with no such argument have no map.
 *
 * Kernel strings are read a word at a time with aligned nofault loads: an
 * aligned word never straddles a page, so a string that ends just before
 * an unmapped page is read without touching that page.  User strings go
 * through strncpy_from_user(), which is word-wise already, with page
 * faults off (the set's run turns them off), as in
 * strncpy_from_user_nofault().
 *
 * Stack.  Handlers may run on a small exception or NMI stack, so nothing
 * here keeps a large buffer on it: a :symstr text that the record has no
 * room left for whole is made in a per-CPU buffer and cut from there.
 *
 * A caller that may sleep can learn which user reads faulted
 * (parg_set_fetch_user()), page them in and fetch again: reads stay
 * non-faulting here, so the run is the same whoever calls it.
 *
 * See Documentation/trace/kprobetrace.rst for the language.
 */
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/unaligned.h>
#include <asm/word-at-a-time.h>
#include <kunit/visibility.h>

#include "probe_arg_impl.h"

/* Where the record being filled stands. */
struct parg_run {
	u8 *ent;		/* start of the record: data_loc offsets count from here */
	u8 *fmap;		/* fault map, or NULL */
	unsigned int dyn;	/* offset of the next string byte */
	unsigned int room;	/* the record ends before ent + room */
	bool faulted;		/* some fetch of this record faulted */
	struct parg_ufaults *uf;	/* user reads that faulted, or NULL */
};

/* ---------------------------------------------------------- memory */

/*
 * Where user and kernel addresses cannot be confused (x86), the ABI
 * reads a "kernel" address below TASK_SIZE as user memory: +0(%si):string
 * works on a user pointer.  Elsewhere kernel reads stay kernel reads.
 * TASK_SIZE_MAX, a constant, stands for TASK_SIZE: above a compat task's
 * TASK_SIZE nothing is mapped for it, so both reads fault alike.
 */
static __always_inline bool parg_is_user_addr(unsigned long addr)
{
	return IS_ENABLED(CONFIG_ARCH_HAS_NON_OVERLAPPING_ADDRESS_SPACE) &&
	       addr < TASK_SIZE_MAX;
}

/*
 * A read of @len bytes at @addr faulted; if it was of user memory (@user,
 * or an address parg_is_user_addr() reads as user) and the caller asked,
 * say where.  Only the first PARG_UFAULT_MAX are kept; all are counted.
 */
static noinline void parg_note_fault(struct parg_run *r, unsigned long addr,
				     unsigned int len, bool user, bool str)
{
	struct parg_ufaults *uf = r->uf;

	if (!uf || !(user || parg_is_user_addr(addr)))
		return;
	if (uf->nr < PARG_UFAULT_MAX) {
		uf->at[uf->nr].addr = addr;
		uf->at[uf->nr].len = len;
		uf->at[uf->nr].str = str;
	}
	uf->nr++;
}
NOKPROBE_SYMBOL(parg_note_fault);

static __always_inline bool parg_uread(u64 *val, unsigned long addr,
				       unsigned int size)
{
	*val = 0;
	return !copy_from_user_nofault(val, (const void __user *)addr, size);
}

/*
 * Load @size bytes of kernel memory at @addr; false if it faults.  Like
 * every read below, it runs with page faults disabled by parg_set_fetch().
 *
 * Why not copy_from_kernel_nofault(): it checks the same
 * copy_from_kernel_nofault_allowed(), which is called here too, but then
 * turns page faults off and on again (the run has them off already) and
 * copies through a cascade of u64, u32, u16 and u8 loops sized at run
 * time, each tested even when the first did all the work.  Counted on
 * the x86_64 build (-Os), a u64 load from the address to the value:
 * inline here 45 instructions, 23 of them the call of the _allowed()
 * check; through copy_from_kernel_nofault() about 101 (11 at the call
 * site, 90 in the function: the same 23, 8 for pagefault_disable() and
 * _enable(), 20 of frame and result, 39 of copy, 22 of which test the
 * u32, u16 and u8 loops after the one u64 load has done the work).  The
 * kernel's could come closer: one __get_kernel_nofault() for an aligned
 * size of 1, 2, 4 or 8, before the loops, would save those 22 on every
 * small read, get_kernel_nofault() included; the call, the frame and the
 * page-fault toggle would remain.
 */
static __always_inline bool parg_kread(u64 *val, unsigned long addr,
				       unsigned int size)
{
	const void *src = (const void *)addr;

	if (parg_is_user_addr(addr))
		return parg_uread(val, addr, size);
	if (!copy_from_kernel_nofault_allowed(src, size))
		return false;
	if (!IS_ENABLED(CONFIG_HAVE_EFFICIENT_UNALIGNED_ACCESS) &&
	    (addr & (size - 1)))
		goto slow;
	switch (size) {
	case 1: {
		u8 v;

		__get_kernel_nofault(&v, src, u8, fault);
		*val = v;
		break;
	}
	case 2: {
		u16 v;

		__get_kernel_nofault(&v, src, u16, fault);
		*val = v;
		break;
	}
	case 4: {
		u32 v;

		__get_kernel_nofault(&v, src, u32, fault);
		*val = v;
		break;
	}
	default:
		__get_kernel_nofault(val, src, u64, fault);
		break;
	}
	return true;
fault:
	return false;
slow:
	*val = 0;
	return !copy_from_kernel_nofault(val, src, size);
}

/* A pointer-sized load for a dereference. */
static __always_inline bool parg_read_ptr(unsigned long *val,
					  unsigned long addr, bool user)
{
	u64 v;
	bool ok;

	if (user)
		ok = parg_uread(&v, addr, sizeof(long));
	else
		ok = parg_kread(&v, addr, sizeof(long));
	*val = v;
	return ok;
}

static __always_inline void parg_put(u8 *dst, u64 val, unsigned int size)
{
	switch (size) {
	case 1:
		*dst = val;
		break;
	case 2:
		put_unaligned((u16)val, (u16 *)dst);
		break;
	case 4:
		put_unaligned((u32)val, (u32 *)dst);
		break;
	default:
		put_unaligned(val, (u64 *)dst);
		break;
	}
}

static __always_inline u64 parg_get(const u8 *src, unsigned int size)
{
	switch (size) {
	case 1:
		return *src;
	case 2:
		return get_unaligned((const u16 *)src);
	case 4:
		return get_unaligned((const u32 *)src);
	default:
		return get_unaligned((const u64 *)src);
	}
}

static __always_inline u64 parg_bitfield(const struct parg_arg *a, u64 v)
{
	return (v << a->lshift) >> a->rshift;
}

/* -------------------------------------------------------- strings */

/* Copy @len bytes of a string that cannot fault, cut to @max with its NUL. */
static int parg_copy_str(char *dst, const char *src, unsigned int len,
			 unsigned int max)
{
	if (len >= max)
		len = max - 1;
	memcpy(dst, src, len);
	dst[len] = '\0';
	return len + 1;
}
NOKPROBE_SYMBOL(parg_copy_str);

/*
 * Copy the kernel string at @addr, at most @max bytes with the NUL, one
 * aligned word at a time.  Returns the bytes stored, or -EFAULT.
 *
 * Why not strncpy_from_kernel_nofault(), which returns the same lengths:
 * it loads one byte at a time, 13 instructions a byte on x86_64 (-Os),
 * against about 31 a word here.  For a 16-character string, from entry to
 * return: 158 instructions here, 275 there (45 of entry, the _allowed()
 * check and pagefault_disable(); 219 of byte loop; 11 of exit); the gap
 * grows with the length.  It also refuses a user address (-ERANGE) where
 * this one reads it as user memory (parg_is_user_addr()).  The kernel's
 * could read a word at a time, as strncpy_from_user() does, with aligned
 * loads: an aligned word never reaches into the next page, so it faults
 * only where the byte loop would.
 */
static int parg_kstr(char *dst, unsigned long addr, unsigned int max)
{
	const struct word_at_a_time zc = WORD_AT_A_TIME_CONSTANTS;
	unsigned int skip = addr & (sizeof(long) - 1);
	const unsigned long *p = (const unsigned long *)(addr - skip);
	unsigned int avail = sizeof(long) - skip, n = 0;
	unsigned long w, bits;
	bool end = false;

	if (parg_is_user_addr(addr))
		return strncpy_from_user_nofault(dst, (const void __user *)addr,
						 max);
	if (!copy_from_kernel_nofault_allowed((const void *)addr, 1))
		return -EFAULT;
	__get_kernel_nofault(&w, p, unsigned long, fault);
	/* drop the bytes before @addr: the string now starts at byte 0 */
	if (IS_ENABLED(CONFIG_CPU_BIG_ENDIAN))
		w <<= skip * BITS_PER_BYTE;
	else
		w >>= skip * BITS_PER_BYTE;
	for (;;) {
		if (has_zero(w, &bits, &zc)) {
			bits = create_zero_mask(prep_zero_mask(w, bits, &zc));
			if (find_zero(bits) < avail) {
				avail = find_zero(bits) + 1;
				end = true;
			}
		}
		if (avail >= max - n)
			break;
		if (max - n >= sizeof(long))
			put_unaligned(w, (unsigned long *)(dst + n));
		else
			memcpy(dst + n, &w, avail);
		n += avail;
		if (end)
			goto out;
		p++;
		if (!((unsigned long)p & ~PAGE_MASK) &&
		    !copy_from_kernel_nofault_allowed(p, 1))
			goto fault;
		__get_kernel_nofault(&w, p, unsigned long, fault);
		avail = sizeof(long);
	}
	/* the last word reaches @max: keep what fits, then the NUL */
	memcpy(dst + n, &w, max - n - 1);
	n = max;
	dst[n - 1] = '\0';
out:
	return n;
fault:
	return -EFAULT;
}
NOKPROBE_SYMBOL(parg_kstr);

/*
 * sprint_symbol() writes up to KSYM_SYMBOL_LEN bytes (the name alone is
 * looked up into KSYM_NAME_LEN of them).  Where the record has less room
 * left, the text is made in one of these and cut: not on the stack, which
 * for a handler may be a small exception or NMI stack.  One per CPU and
 * per context that can interrupt another (task, softirq, hardirq, NMI:
 * interrupt_context_level()), so that a hit from an interrupt mostly
 * finds its own.  Not always: an x86 int3 enters as an NMI does, so a
 * kprobe hit counts at the NMI level whatever it interrupted, and a real
 * NMI's hit may find that buffer in use; so may a hit from inside
 * sprint_symbol() itself (an fprobe on a kallsyms function, say).  @busy
 * turns those away (use nests last in, first out on a CPU), and their
 * text is a fault.
 */
#define PARG_SYM_LEVELS		4

struct parg_symbuf {
	char text[KSYM_SYMBOL_LEN];
	bool busy;
};

static struct parg_symbuf __percpu *parg_symbufs;
static DEFINE_MUTEX(parg_symbufs_lock);

int parg_symbufs_reserve(void)
{
	struct parg_symbuf __percpu *bufs;

	if (smp_load_acquire(&parg_symbufs))
		return 0;
	guard(mutex)(&parg_symbufs_lock);
	if (parg_symbufs)
		return 0;
	bufs = __alloc_percpu(sizeof(*bufs) * PARG_SYM_LEVELS,
			      __alignof__(*bufs));
	if (!bufs)
		return -ENOMEM;
	smp_store_release(&parg_symbufs, bufs);
	return 0;
}

/* The symbol text does not fit in the room left: cut it. */
static noinline int parg_symstr_cut(char *dst, unsigned long addr,
				    unsigned int max)
{
	struct parg_symbuf __percpu *bufs = smp_load_acquire(&parg_symbufs);
	struct parg_symbuf *buf;
	int len = -EBUSY;

	if (unlikely(!bufs))	/* a set with a symstr reserved them */
		return -EFAULT;
	preempt_disable_notrace();
	buf = this_cpu_ptr(bufs) + interrupt_context_level();
	if (likely(!buf->busy)) {
		buf->busy = true;
		barrier();
		len = sprint_symbol(buf->text, addr);
		len = parg_copy_str(dst, buf->text, len, max);
		barrier();
		buf->busy = false;
	}
	preempt_enable_notrace();
	return len;
}
NOKPROBE_SYMBOL(parg_symstr_cut);

static int parg_symstr(char *dst, unsigned long addr, unsigned int max)
{
	if (max < KSYM_SYMBOL_LEN)
		return parg_symstr_cut(dst, addr, max);
	return sprint_symbol(dst, addr) + 1;
}
NOKPROBE_SYMBOL(parg_symstr);

/*
 * A user string at r->dyn, its own inline op (OFFS(%reg):ustring) and
 * parg_string()'s ustring case.  The set's run has page faults off already,
 * which is all strncpy_from_user_nofault() would add, and the length
 * follows its rule (the NUL counted; "" stores 0 bytes).
 */
static __always_inline int parg_ustr(struct parg_run *r, unsigned long addr)
{
	unsigned int max = min(r->room - r->dyn, PARG_MAX_STRING);
	char *dst = (char *)r->ent + r->dyn;
	long len;

	if (unlikely(!max))
		return 0;
	len = strncpy_from_user(dst, (const char __user *)addr, max);
	if (unlikely(len < 0)) {
		parg_note_fault(r, addr, max, true, true);
		return len;
	}
	if (unlikely(len >= max)) {
		len = max;
		dst[len - 1] = '\0';
	} else if (len) {
		len++;
	}
	return len;
}

/* Append one string at r->dyn; returns its length or < 0 on a fault. */
static int parg_string(const struct parg_arg *a, struct parg_run *r,
		       enum parg_store store, unsigned long addr)
{
	unsigned int max = min(r->room - r->dyn, PARG_MAX_STRING);
	char *dst = (char *)r->ent + r->dyn;
	int len;

	if (!max)
		return 0;
	switch (store) {
	case PARG_ST_USTR:
		return parg_ustr(r, addr);
	case PARG_ST_STR:
		len = parg_kstr(dst, addr, max);
		if (len < 0)
			parg_note_fault(r, addr, max, false, true);
		return len;
	case PARG_ST_SYMSTR:
		return parg_symstr(dst, addr, max);
	case PARG_ST_COMM:
		return parg_copy_str(dst, current->comm,
				     strnlen(current->comm, TASK_COMM_LEN - 1),
				     max);
	default:
		return parg_copy_str(dst, a->data, a->data_len, max);
	}
}
NOKPROBE_SYMBOL(parg_string);

/*
 * Point the data_loc at @dst to the @len bytes just stored; a fault
 * (@len < 0) stores length 0, which prints "(fault)", and marks the record.
 */
static __always_inline void parg_put_loc(u8 *dst, int len, struct parg_run *r)
{
	if (unlikely(len < 0)) {
		len = 0;
		r->faulted = true;
	}
	put_unaligned((u32)len << 16 | r->dyn, (u32 *)dst);
	r->dyn += len;
}

/* TYPE[N] of strings: N pointers from @addr on, each to a string. */
static void parg_strings(const struct parg_arg *a, struct parg_run *r,
			 u8 *dst, unsigned long addr)
{
	enum parg_store store = a->ustr ? PARG_ST_USTR : PARG_ST_STR;
	unsigned long p;
	int i, len;

	for (i = 0; i < a->count; i++, dst += sizeof(u32)) {
		unsigned long at = addr + i * sizeof(long);

		len = -EFAULT;
		if (parg_read_ptr(&p, at, a->ustr_ptrs))
			len = parg_string(a, r, store, p);
		else
			parg_note_fault(r, at, sizeof(long), a->ustr_ptrs, false);
		parg_put_loc(dst, len, r);
	}
}
NOKPROBE_SYMBOL(parg_strings);

/* ------------------------------------------------------ the program */

/* Scalars from memory: @count elements of @size bytes at @addr. */
static __always_inline bool parg_mem(const struct parg_arg *a, u8 *dst,
				     unsigned long addr)
{
	unsigned int i, len = a->size * a->count;
	u64 v;

	if (a->count == 1) {
		if (!(a->store == PARG_ST_MEM ? parg_kread(&v, addr, a->size) :
					       parg_uread(&v, addr, a->size)))
			return false;
		parg_put(dst, parg_bitfield(a, v), a->size);
		return true;
	}
	if (a->store == PARG_ST_MEM && !parg_is_user_addr(addr) ?
	    copy_from_kernel_nofault(dst, (const void *)addr, len) :
	    copy_from_user_nofault(dst, (const void __user *)addr, len))
		return false;
	if (a->rshift)
		for (i = 0; i < len; i += a->size)
			parg_put(dst + i, parg_bitfield(a, parg_get(dst + i, a->size)),
				 a->size);
	return true;
}

/*
 * $stackN: the N-th word above the stack pointer, 0 outside the stack.
 * Every architecture with the regs-and-stack access API has this one.
 */
static __always_inline unsigned long parg_stack_slot(struct pt_regs *regs,
						     unsigned long n)
{
	return regs_get_kernel_stack_nth(regs, n);
}

/* $FIELD: the field of the record @rec that @param describes. */
static __always_inline unsigned long parg_field(const void *rec,
						unsigned long param)
{
	const u8 *p = rec + (param >> PARG_FIELD_KIND_BITS);

	switch (param & (BIT(PARG_FIELD_KIND_BITS) - 1)) {
	case PARG_FIELD_U8:
		return *p;
	case PARG_FIELD_S8:
		return (long)*(const s8 *)p;
	case PARG_FIELD_U16:
		return get_unaligned((const u16 *)p);
	case PARG_FIELD_S16:
		return (long)(s16)get_unaligned((const u16 *)p);
	case PARG_FIELD_U32:
		return get_unaligned((const u32 *)p);
	case PARG_FIELD_S32:
		return (long)(s32)get_unaligned((const u32 *)p);
	case PARG_FIELD_TEXT:
		return (unsigned long)p;
	case PARG_FIELD_DATA_LOC:
		return (unsigned long)rec + (get_unaligned((const u32 *)p) & 0xffff);
	case PARG_FIELD_REL_LOC:
		return (unsigned long)p + sizeof(u32) +
		       (get_unaligned((const u32 *)p) & 0xffff);
	}
	return get_unaligned((const unsigned long *)p);
}

static __always_inline unsigned long parg_source(const struct parg_arg *a,
						 struct pt_regs *regs,
						 const void *edata)
{
	switch (a->src) {
	case PARG_SRC_REG:
		return parg_reg(regs, a->param);
	case PARG_SRC_STACK:
		return parg_stack_slot(regs, a->param);
	case PARG_SRC_STACKP:
		return kernel_stack_pointer(regs);
	case PARG_SRC_RETVAL:
		return regs_return_value(regs);
	case PARG_SRC_ARG:
		return parg_kernel_arg(regs, a->param);
	case PARG_SRC_EDATA:
		return edata ? *(const unsigned long *)(edata + a->param) : 0;
	case PARG_SRC_COMM:
		return (unsigned long)current->comm;
	case PARG_SRC_CURRENT:
		return (unsigned long)current;
	case PARG_SRC_FILE:	/* @edata: where the user probe hit */
		return edata ? *(const unsigned long *)edata + a->param : 0;
	case PARG_SRC_FIELD:	/* @edata: the record the event probe fired on */
		return parg_field(edata, a->param);
	default:	/* IMM and DATA */
		return READ_ONCE(a->param);
	}
}

/* The value could not be read: leave a trace of it in the record. */
static void parg_fault(const struct parg_arg *a, struct parg_run *r, u8 *dst)
{
	int i;

	r->faulted = true;
	if (parg_arg_is_string(a)) {
		for (i = 0; i < a->count; i++)
			parg_put_loc(dst + i * sizeof(u32), 0, r);
		return;
	}
	memset(dst, 0, a->size * a->count);
	if (parg_arg_can_fault(a))
		r->fmap[a->fault_bit / 8] |= BIT(a->fault_bit % 8);
}
NOKPROBE_SYMBOL(parg_fault);

/* Any argument: source, dereferences, store. */
static noinline void parg_run_any(const struct parg_arg *a,
				  struct pt_regs *regs, const void *edata,
				  struct parg_run *r, u8 *dst)
{
	unsigned long v = parg_source(a, regs, edata), at;
	int i;

	for (i = 0; i < a->nderef; i++) {
		at = v + a->deref[i];
		/* probe handlers run with preemption off: the CPU stays */
		if (unlikely(a->cpu_derefs & BIT(i))) {
			v = (unsigned long)raw_cpu_ptr((void __percpu __force *)at);
			continue;
		}
		if (!parg_read_ptr(&v, at, a->user_derefs & BIT(i))) {
			parg_note_fault(r, at, sizeof(long), a->user_derefs & BIT(i), false);
			goto fault;
		}
	}

	switch (a->store) {
	case PARG_ST_RAW:
		parg_put(dst, parg_bitfield(a, v), a->size);
		return;
	case PARG_ST_MEM:
	case PARG_ST_UMEM:
		if (!parg_mem(a, dst, v + a->off)) {
			parg_note_fault(r, v + a->off, a->size * a->count,
					a->store == PARG_ST_UMEM, false);
			goto fault;
		}
		return;
	case PARG_ST_STRV:
		parg_strings(a, r, dst, v + a->off);
		return;
	default:
		parg_put_loc(dst, parg_string(a, r, a->store, v + a->off), r);
		return;
	}
fault:
	parg_fault(a, r, dst);
}
NOKPROBE_SYMBOL(parg_run_any);

/* One kernel scalar at @at, for the inline ops. */
static __always_inline void parg_load(const struct parg_arg *a,
				      struct parg_run *r, u8 *dst,
				      unsigned long at)
{
	u64 v __uninitialized;	/* written by parg_kread() before use */

	if (parg_kread(&v, at, a->size)) {
		parg_put(dst, v, a->size);
	} else {
		parg_note_fault(r, at, a->size, false, false);
		parg_fault(a, r, dst);
	}
}

/*
 * The common shapes run inline (see enum parg_op); everything else takes
 * the general path.
 */
static __always_inline void parg_run_arg(const struct parg_arg *a,
					 struct pt_regs *regs,
					 const void *edata,
					 struct parg_run *r, u8 *dst)
{
	if (likely(a->op == PARG_OP_REG)) {
		put_unaligned(parg_reg(regs, a->param), (unsigned long *)dst);
	} else if (a->op == PARG_OP_REG_MEM) {
		parg_load(a, r, dst, parg_reg(regs, a->param) + a->off);
	} else if (a->op == PARG_OP_FIELD_MEM) {
		parg_load(a, r, dst, get_unaligned((const unsigned long *)
			  (edata + (a->param >> PARG_FIELD_KIND_BITS))) + a->off);
	} else if (a->op == PARG_OP_REG_USTR) {
		parg_put_loc(dst, parg_ustr(r, parg_reg(regs, a->param) + a->off), r);
	} else if (a->op == PARG_OP_REG_STR) {
		parg_put_loc(dst, parg_string(a, r, a->store,
					      parg_reg(regs, a->param) + a->off), r);
	} else if (a->op == PARG_OP_RETVAL) {
		put_unaligned(regs_return_value(regs), (unsigned long *)dst);
	} else {
		parg_run_any(a, regs, edata, r, dst);
	}
}

/* The general run of a set: @uf collects user reads that faulted, or NULL. */
static __always_inline unsigned int parg_set_run(const struct parg_set *set,
						 struct pt_regs *regs,
						 void *edata, void *ent,
						 unsigned int args_off,
						 unsigned int room,
						 struct parg_ufaults *uf)
{
	u8 *blk = (u8 *)ent + args_off;
	const struct parg_arg *a, *end = set->args + set->nargs;
	struct parg_run r = {
		.ent = ent,
		.fmap = blk + set->fixed,
		.dyn = args_off + set->size,
		.room = max(room, args_off + set->size),
		.uf = uf,
	};

	if (set->fault_bytes)
		memset(r.fmap, 0, set->fault_bytes);
	if (set->reads_mem)
		pagefault_disable();
	for (a = set->args; a < end; a++)
		parg_run_arg(a, regs, edata, &r, blk + a->dst);
	if (set->reads_mem)
		pagefault_enable();
	if (unlikely(r.faulted)) {
		if (uf)
			uf->faulted = true;	/* the caller counts it */
		else if (set->faults)
			raw_cpu_inc(*set->faults);
	}
	return r.dyn;
}

static noinline unsigned int parg_set_fetch_any(const struct parg_set *set,
						struct pt_regs *regs,
						void *edata, void *ent,
						unsigned int args_off,
						unsigned int room)
{
	return parg_set_run(set, regs, edata, ent, args_off, room, NULL);
}
NOKPROBE_SYMBOL(parg_set_fetch_any);

unsigned long parg_set_faults(const struct parg_set *set)
{
	unsigned long n = 0;
	int cpu;

	if (set->faults)
		for_each_possible_cpu(cpu)
			n += *per_cpu_ptr(set->faults, cpu);
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(parg_set_faults);

/*
 * A set of whole registers and $retval (the usual return probe) cannot
 * fault and has no strings: it skips the set-up of the general run.
 */
unsigned int parg_set_fetch(const struct parg_set *set, struct pt_regs *regs,
			    void *edata, void *ent, unsigned int args_off,
			    unsigned int room)
{
	const struct parg_arg *a, *end = set->args + set->nargs;
	u8 *blk = (u8 *)ent + args_off;

	if (!set->words_only)
		return parg_set_fetch_any(set, regs, edata, ent, args_off, room);
	for (a = set->args; a < end; a++)
		put_unaligned(a->op == PARG_OP_REG ? parg_reg(regs, a->param) :
			      regs_return_value(regs),
			      (unsigned long *)(blk + a->dst));
	return args_off + set->size;
}
EXPORT_SYMBOL_IF_KUNIT(parg_set_fetch);
NOKPROBE_SYMBOL(parg_set_fetch);

unsigned int parg_set_fetch_user(const struct parg_set *set,
				 struct pt_regs *regs, void *edata, void *ent,
				 unsigned int args_off, unsigned int room,
				 struct parg_ufaults *uf)
{
	uf->nr = 0;
	uf->faulted = false;
	if (set->words_only)	/* nothing to fault on */
		return parg_set_fetch(set, regs, edata, ent, args_off, room);
	return parg_set_run(set, regs, edata, ent, args_off, room, uf);
}
EXPORT_SYMBOL_IF_KUNIT(parg_set_fetch_user);
NOKPROBE_SYMBOL(parg_set_fetch_user);

void parg_set_count_fault(const struct parg_set *set)
{
	if (set->faults)
		raw_cpu_inc(*set->faults);
}
EXPORT_SYMBOL_IF_KUNIT(parg_set_count_fault);

void parg_set_save_entry(const struct parg_set *set, struct pt_regs *regs,
			 void *edata)
{
	unsigned long *slot = edata;
	int i;

	for (i = 0; i < set->nentry; i++)
		slot[i] = parg_kernel_arg(regs, set->entry[i]);
}
EXPORT_SYMBOL_IF_KUNIT(parg_set_save_entry);
NOKPROBE_SYMBOL(parg_set_save_entry);
