/* SPDX-License-Identifier: GPL-2.0 */
/* irqcore - CPU hotplug (private). */
#ifndef IC_HOTPLUG_H
#define IC_HOTPLUG_H

int ic_hotplug_init(void);
void ic_hotplug_exit(void);

#endif /* IC_HOTPLUG_H */
