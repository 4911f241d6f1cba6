/* SPDX-License-Identifier: GPL-2.0 */
/* irqcore_bench - the timeline scenario of `make trace` (private). */
#ifndef ICB_SCENARIO_H
#define ICB_SCENARIO_H

int icb_scenario_init(void);
void icb_scenario_exit(void);

#endif /* ICB_SCENARIO_H */
