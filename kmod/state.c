// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/abidep/state: every entry, one a line, root only.
 *
 * A seq_file, so the file has no page-size limit. Format (see
 * Documentation/ABI/state-file.rst): a "#" header line, then per entry
 * space-separated key=value fields; "user=" repeats, once per known user,
 * as comma-separated tgid,uid,comm,exe,reads,writes,first_seen,last_seen.
 * Values escape space, tab, newline, backslash, comma and "=" as \ooo; a
 * user's comm and exe, named by the program itself, also every other byte
 * but printable ASCII (ABIDEP_NAME_ESCAPE).
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/timekeeping.h>
#include <linux/utsname.h>

#include "abidep_internal.h"

#define ABIDEP_ESC " \t\n\\,="

static struct dentry *abidep_debugfs;

static void *abidep_state_start(struct seq_file *m, loff_t *pos)
{
	mutex_lock(&abidep_lock);
	if (!*pos)
		seq_printf(m, "# abidep state v1 log_interval=%u log_suppressed=%lld\n",
			   abidep_log_interval,
			   atomic64_read(&abidep_log_suppressed));
	return seq_list_start(&abidep_registry, *pos);
}

static void *abidep_state_next(struct seq_file *m, void *v, loff_t *pos)
{
	return seq_list_next(v, &abidep_registry, pos);
}

static void abidep_state_stop(struct seq_file *m, void *v)
{
	mutex_unlock(&abidep_lock);
}

static void abidep_field(struct seq_file *m, const char *key, const char *val)
{
	seq_printf(m, "%s%s=", strcmp(key, "old") ? " " : "", key);
	seq_escape(m, val && *val ? val : "-", ABIDEP_ESC);
}

/* Due as abidep check decides it: abidep_when_due(), on today's date. */
static bool abidep_overdue(const struct abidep_state *st)
{
	struct abidep_date today;
	struct abidep_kver kernel;
	bool known;

	abidep_date_from_time(ktime_get_real_seconds(), &today);
	known = !abidep_parse_uname(init_utsname()->release, &kernel);
	return abidep_when_due(&st->remove_after, &today, known ? &kernel : NULL);
}

static void abidep_state_users(struct seq_file *m, struct abidep_users *u)
{
	struct abidep_user usr;
	unsigned int i, nr;
	u64 evicted;

	spin_lock(&u->lock);
	nr = u->nr;
	evicted = u->evicted;
	spin_unlock(&u->lock);
	seq_printf(m, " users=%u users_evicted=%llu", nr, evicted);

	/* One slot at a time: no seq_file output (it may fault) under the lock. */
	for (i = 0; i < nr; i++) {
		spin_lock(&u->lock);
		usr = u->slot[i];
		spin_unlock(&u->lock);
		seq_printf(m, " user=%d,%u,", usr.tgid, usr.uid);
		seq_escape_str(m, usr.comm, ABIDEP_NAME_ESCAPE, ABIDEP_ESC);
		seq_putc(m, ',');
		seq_escape_str(m, usr.exe, ABIDEP_NAME_ESCAPE, ABIDEP_ESC);
		seq_printf(m, ",%llu,%llu,%lld,%lld", usr.reads, usr.writes,
			   usr.first_seen, usr.last_seen);
	}
}

static int abidep_state_show(struct seq_file *m, void *v)
{
	struct abidep_state *st = list_entry(v, struct abidep_state, node);
	const struct abidep_entry *e = st->entry;

	abidep_field(m, "old", e->old_name);
	abidep_field(m, "new", e->new_name);
	abidep_field(m, "class", e->class_name);
	abidep_field(m, "owner", st->owner ? module_name(st->owner) : "kernel");
	abidep_field(m, "deprecated", e->deprecated);
	abidep_field(m, "remove_after", e->remove_after);
	seq_printf(m, " overdue=%d aliases=%d reads=%lld writes=%lld errors=%lld",
		   abidep_overdue(st), atomic_read(&st->aliases),
		   atomic64_read(&st->reads), atomic64_read(&st->writes),
		   atomic64_read(&st->errors));
	abidep_brownout_show(m, st);
	abidep_field(m, "hint", e->hint);
	abidep_state_users(m, &st->users);
	seq_putc(m, '\n');
	return 0;
}

static const struct seq_operations abidep_state_sops = {
	.start = abidep_state_start,
	.next = abidep_state_next,
	.stop = abidep_state_stop,
	.show = abidep_state_show,
};
DEFINE_SEQ_ATTRIBUTE(abidep_state);

int abidep_state_init(void)
{
	abidep_debugfs = debugfs_create_dir("abidep", NULL);
	debugfs_create_file("state", 0400, abidep_debugfs, NULL,
			    &abidep_state_fops);
	return 0;
}

void abidep_state_exit(void)
{
	debugfs_remove(abidep_debugfs);
}
