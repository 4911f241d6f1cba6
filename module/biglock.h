/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irqcore - the 2.5.27 big IRQ lock and its context record (private).
 *
 * Under regime=biglock the context questions (in_interrupt() and friends)
 * are answered from per-CPU local_irq_count and local_bh_count, as 2.5.27
 * did, not from the folded counter. counter.c keeps the folded counter in
 * both regimes, so that the self-tests can compare the two records.
 */
#ifndef IC_BIGLOCK_H
#define IC_BIGLOCK_H

#include <linux/jump_label.h>
#include <linux/types.h>

/* No CPU holds the global lock (2.5.27's NO_PROC_ID). */
#define IC_NO_PROC_ID	(-1)

/*
 * Enabled only by regime=biglock, so that the nolock hot paths (bh
 * enable/disable and the context predicates) pay a patched-out branch and
 * nothing else for the regime they do not use.
 */
DECLARE_STATIC_KEY_FALSE(ic_biglock_key);

static inline bool ic_biglock_active(void)
{
	return static_branch_unlikely(&ic_biglock_key);
}

void ic_biglock_init(void);
void ic_biglock_exit(void);

void ic_biglock_irq_enter(void);
void ic_biglock_irq_exit(void);
void ic_biglock_bh_enter(void);
unsigned int ic_biglock_bh_exit(void);

bool ic_biglock_in_interrupt(void);
bool ic_biglock_in_irq(void);
bool ic_biglock_in_softirq(void);
bool ic_biglock_idle_tick_is_system(void);

void ic_biglock_cli(unsigned long ip);
void ic_biglock_sti(void);
unsigned long ic_biglock_save_flags(void);
bool ic_biglock_hardirq_trylock(void);
void ic_biglock_synchronize_irq(unsigned int irq, unsigned long ip);
bool ic_biglock_disable_irq_may_wait(void);
int ic_biglock_holder(void);

#endif /* IC_BIGLOCK_H */
