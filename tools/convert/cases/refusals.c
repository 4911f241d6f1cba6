// SPDX-License-Identifier: GPL-2.0
/*
 * expect: rule a (the checker). The converter's refusals: each section
 * here but the last is left as it was and reported, never guessed.
 * convert-left: refuse_early refuse_open refuse_close refuse_nested
 * convert-done: convert_plain
 */
static int state;

/* The flags in flight on the early return. */
static int refuse_early(int x)
{
	unsigned long flags;

	save_flags(flags);
	cli();
	if (x)
		return -1;
	state = x;
	restore_flags(flags);
	return 0;
}

/* A cli() whose sti() is in another function. */
static void refuse_open(void)
{
	cli();
	state = 1;
}

static void refuse_close(void)
{
	state = 2;
	sti();
}

/* Nested cli(). */
static void refuse_nested(void)
{
	cli();
	cli();
	state = 3;
	sti();
	sti();
}

/* One that converts. */
static void convert_plain(void)
{
	unsigned long flags;

	save_flags(flags);
	cli();
	state = 4;
	restore_flags(flags);
}
