// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <linux/rvvstat.h>
#include <rvvstat/hist.h>

#include "format.h"

static bool bit(const uint8_t *mask, size_t cpu)
{
	return mask[cpu / 8] & (1U << (cpu % 8));
}

int rvv_format_cpulist(const uint8_t *mask, size_t bytes, char *buf,
		       size_t size)
{
	size_t cpu, last, used = 0;
	int n;

	if (!size)
		return -ENOSPC;
	buf[0] = '\0';
	for (cpu = 0; cpu < bytes * 8; cpu = last + 1) {
		if (!bit(mask, cpu)) {
			last = cpu;
			continue;
		}
		for (last = cpu; last + 1 < bytes * 8 && bit(mask, last + 1); last++)
			;
		n = last == cpu ?
		    snprintf(buf + used, size - used, "%s%zu", used ? "," : "", cpu) :
		    snprintf(buf + used, size - used, "%s%zu-%zu", used ? "," : "", cpu, last);
		if (n < 0 || (size_t)n >= size - used)
			return -ENOSPC;
		used += (size_t)n;
	}
	return 0;
}

/* Nanoseconds in the largest unit that holds them whole. */
static const char *duration(uint64_t ns, char *buf, size_t size)
{
	if (ns && !(ns % 1000000000))
		snprintf(buf, size, "%" PRIu64 "s", ns / 1000000000);
	else if (ns && !(ns % 1000000))
		snprintf(buf, size, "%" PRIu64 "ms", ns / 1000000);
	else if (ns && !(ns % 1000))
		snprintf(buf, size, "%" PRIu64 "us", ns / 1000);
	else
		snprintf(buf, size, "%" PRIu64 "ns", ns);
	return buf;
}

int rvv_format_policy(const struct rvv_policy *p, char *buf, size_t size)
{
	const struct rvv_policy_syntax *syntax = rvv_policy_syntax(p->policy);
	char runtime[24], deadline[24], period[24];
	int n;

	if (!syntax)
		n = snprintf(buf, size, "policy-%" PRIu32, p->policy);
	else if (syntax->arg == RVV_POLICY_NICE)
		n = snprintf(buf, size, "%s:%" PRId32, syntax->name, p->nice);
	else if (syntax->arg == RVV_POLICY_PRIORITY)
		n = snprintf(buf, size, "%s:%" PRIu32, syntax->name, p->rt_priority);
	else if (syntax->arg == RVV_POLICY_DEADLINE)
		n = snprintf(buf, size, "%s:%s/%s/%s", syntax->name,
			     duration(p->runtime_ns, runtime, sizeof(runtime)),
			     duration(p->deadline_ns, deadline, sizeof(deadline)),
			     duration(p->period_ns, period, sizeof(period)));
	else
		n = snprintf(buf, size, "%s", syntax->name);
	return n < 0 || (size_t)n >= size ? -ENOSPC : 0;
}

const char *rvv_format_task_hint(uint32_t hint)
{
	static const char *const names[] = RVVSTAT_TASK_HINT_NAMES;

	return hint < sizeof(names) / sizeof(*names) ? names[hint] : "unknown";
}

/* @v to three significant digits with an SI prefix and @unit: 524k, 1.05M. */
static void sig3(char *buf, size_t size, uint64_t v, const char *const prefixes[4],
		 const char *unit)
{
	double x = (double)v;
	int p = 0;

	while (p < 3 && x >= 999.5) {
		x /= 1000;
		p++;
	}
	if (!p)
		snprintf(buf, size, "%" PRIu64 "%s%s", v, prefixes[0], unit);
	else
		snprintf(buf, size, x < 9.995 ? "%.2f%s%s" : x < 99.95 ? "%.1f%s%s" : "%.0f%s%s",
			 x, prefixes[p], unit);
}

/* rvv_format_task_p99() (@bound false) and rvv_format_task_p99_bound(). */
static const char *task_p99_text(uint64_t ns, bool bound, char *buf, size_t size)
{
	static const char *const si[4] = { "", "k", "M", "G" };
	static const char *const time[4] = { "n", "u", "m", "" };
	const char *const *prefixes = bound ? time : si;
	const char *unit = bound ? "s" : "";
	unsigned int b = rvvstat_hist_bucket(ns, RVVSTAT_TASK_HIST_SUB_BITS,
					     RVVSTAT_TASK_HIST_BUCKETS);
	uint64_t lower = rvvstat_hist_lower(b, RVVSTAT_TASK_HIST_SUB_BITS);
	uint64_t upper = rvvstat_hist_upper(b, RVVSTAT_TASK_HIST_SUB_BITS,
					    RVVSTAT_TASK_HIST_BUCKETS);
	char lo[16], hi[16];

	if (!ns) {
		snprintf(buf, size, "-");
		return buf;
	}
	sig3(lo, sizeof(lo), lower, prefixes, unit);
	if (b + 1 == RVVSTAT_TASK_HIST_BUCKETS) {	/* the last, open bucket */
		snprintf(buf, size, "%s%s", bound ? ">" : ">=", lo);
	} else if (bound) {
		sig3(hi, sizeof(hi), upper + 1, prefixes, unit);
		snprintf(buf, size, "<%s", hi);
	} else if (lower == upper) {
		snprintf(buf, size, "%s", lo);
	} else {
		sig3(hi, sizeof(hi), upper, prefixes, unit);
		snprintf(buf, size, "%s-%s", lo, hi);
	}
	return buf;
}

const char *rvv_format_task_p99(uint64_t ns, char *buf, size_t size)
{
	return task_p99_text(ns, false, buf, size);
}

const char *rvv_format_task_p99_bound(uint64_t ns, char *buf, size_t size)
{
	return task_p99_text(ns, true, buf, size);
}

static const char *backend_word(const char *const *words, size_t n, uint32_t backend)
{
	return backend < n && words[backend] ? words[backend] : "unknown";
}

const char *rvv_format_backend_name(uint32_t backend)
{
	static const char *const names[] = RVVSTAT_BACKEND_NAMES;

	return backend_word(names, sizeof(names) / sizeof(*names), backend);
}

const char *rvv_format_backend_title(uint32_t backend)
{
	static const char *const titles[] = RVVSTAT_BACKEND_TITLES;

	return backend_word(titles, sizeof(titles) / sizeof(*titles), backend);
}

/*
 * The length of the valid UTF-8 sequence at @s (1 to 4 bytes, ASCII
 * included; the string's NUL ends any sequence), or 0 if the byte at @s
 * does not begin one: a stray continuation byte, a truncated sequence, an
 * overlong form, a surrogate, or a code point above U+10FFFF.
 */
static size_t utf8_sequence(const unsigned char *s)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	if (s[0] == 0xe0)
		lo = 0xa0;	/* overlong below U+0800 */
	else if (s[0] == 0xed)
		hi = 0x9f;	/* surrogates */
	else if (s[0] == 0xf0)
		lo = 0x90;	/* overlong below U+10000 */
	else if (s[0] == 0xf4)
		hi = 0x8f;	/* above U+10FFFF */
	for (i = 1; i < n; i++, lo = 0x80, hi = 0xbf)
		if (s[i] < lo || s[i] > hi)
			return 0;
	return n;
}

/* Whether the text form shows the valid sequence @s (@n bytes) escaped. */
static bool text_escapes(const unsigned char *s, size_t n)
{
	if (n == 1)
		return s[0] < 0x20 || s[0] == 0x7f;
	return n == 2 && s[0] == 0xc2 && s[1] <= 0x9f;	/* C1 controls */
}

size_t rvv_format_untrusted(const char *text, enum rvv_untrusted_form form, char *buf,
			    size_t size)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t used = 0;

	if (!size)
		return 0;
	while (*s) {
		size_t n = utf8_sequence(s), i, len;
		char unit[16];

		if (n && form == RVV_UNTRUSTED_TEXT && text_escapes(s, n)) {
			for (i = 0, len = 0; i < n; i++)
				len += (size_t)sprintf(unit + len, "\\x%02x", s[i]);
		} else if (n && form == RVV_UNTRUSTED_TEXT && *s == '\\') {
			len = (size_t)sprintf(unit, "\\\\");
		} else if (n) {
			memcpy(unit, s, n);
			len = n;
		} else if (form == RVV_UNTRUSTED_TEXT) {
			len = (size_t)sprintf(unit, "\\x%02x", *s);
			n = 1;
		} else {
			len = (size_t)sprintf(unit, "\xef\xbf\xbd");	/* U+FFFD */
			n = 1;
		}
		if (used + len >= size)
			break;
		memcpy(buf + used, unit, len);
		used += len;
		s += n;
	}
	buf[used] = '\0';
	return used;
}

size_t rvv_format_wrap(const char *text, size_t width, const char **next)
{
	size_t len = strlen(text), cut;

	if (len <= width) {
		cut = len;
	} else {
		for (cut = width; cut > 0 && text[cut] != ' '; cut--)
			;
		if (!cut)	/* one word longer than the line */
			cut = width;
	}
	*next = text + cut + strspn(text + cut, " ");
	while (cut > 0 && text[cut - 1] == ' ')
		cut--;
	return cut;
}
