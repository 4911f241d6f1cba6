// SPDX-License-Identifier: GPL-2.0
/*
 * expect: rule c. driven.c with the timer raising another line than the
 * handler's: something else raises the handler's, which is not driven.
 */
static struct {
	unsigned long pending, served;
	struct hrtimer timer;
} st;

static enum hrtimer_restart dr_raiser(struct hrtimer *t)
{
	st.pending++;
	ic_raise(6);
	return HRTIMER_RESTART;
}

static void dr_handler(unsigned int irq, void *dev)
{
	st.served += st.pending;
	st.pending = 0;
}

static void dr_arm(void *unused)
{
	hrtimer_start(&st.timer, 1000, HRTIMER_MODE_REL_PINNED_HARD);
}

static void dr_figure(int cpu)
{
	st.pending = 0;
	st.served = 0;
	smp_call_function_single(cpu, dr_arm, NULL, 1);
	msleep(20);
	hrtimer_cancel(&st.timer);
	ic_synchronize_irq(5);
}

static int dr_run(int cpu)
{
	int err;

	hrtimer_init(&st.timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	st.timer.function = dr_raiser;
	err = ic_request_irq(5, dr_handler, 0, "t", &st);
	if (err)
		return err;
	dr_figure(cpu);
	dr_figure(cpu);
	ic_free_irq(5, &st);
	return 0;
}
