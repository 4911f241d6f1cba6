/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irqcore - softirqs, ksoftirqd, tasklets and bottom halves (private).
 */
#ifndef IC_SOFTIRQ_H
#define IC_SOFTIRQ_H

#include <linux/types.h>

struct seq_file;

bool ic_softirq_pending(void);
int ic_softirq_init(void);
int ic_softirq_start(void);
void ic_softirq_stop(void);
void ic_softirq_exit(void);
int ic_softirq_cpu_up(unsigned int cpu);
void ic_softirq_cpu_down(unsigned int cpu);
void ic_softirq_cpu_dead(unsigned int cpu);
void ic_softirq_seq_show(struct seq_file *m);
bool ic_in_ksoftirqd(void);
bool ic_softirq_thread_parked(unsigned int cpu);
bool ic_bh_lock_is_locked(void);
void ic_bh_action_for_test(unsigned int nr);

#endif /* IC_SOFTIRQ_H */
