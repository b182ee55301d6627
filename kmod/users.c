// SPDX-License-Identifier: GPL-2.0
/*
 * Who uses an old name: a small, fixed-size table of distinct users per entry
 * (an executable and comm pair), each logged at most once per interval.
 *
 * The table is bounded (ABIDEP_MAX_USERS slots of fixed size), so a process
 * that forks with ever-new names costs evictions, not memory; and eviction
 * is fair across uids, so such a process evicts its own uid's users, not
 * another's. The log lines of all entries share one budget, fair across
 * uids too (struct abidep_budget). This code decides and formats the log
 * line; it does not print or look at current, so KUnit can drive it with
 * made-up users and clocks.
 */
#include <linux/jiffies.h>
#include <linux/string.h>

#include "abidep_internal.h"

void abidep_users_init(struct abidep_users *u)
{
	memset(u, 0, sizeof(*u));
	spin_lock_init(&u->lock);
}

/* Every access of a known user looks for it here: equal, not hashed. */
static struct abidep_user *abidep_users_find(struct abidep_users *u,
					     const struct abidep_who *who)
{
	struct abidep_user *usr;

	for (usr = u->slot; usr < u->slot + u->nr; usr++)
		if (usr->key == who->key && usr->dev == who->dev &&
		    !memcmp(usr->comm, who->comm, sizeof(usr->comm)))
			return usr;
	return NULL;
}

/* How many slots users of @uid hold. */
static unsigned int abidep_users_of(const struct abidep_users *u, u32 uid)
{
	unsigned int i, n = 0;

	for (i = 0; i < u->nr; i++)
		n += u->slot[i].uid == uid;
	return n;
}

/*
 * A free slot for a new user of @uid, or a victim's: the least recently
 * seen user of the uid holding the most slots, @uid's own when it holds as
 * many as any. So a uid that keeps changing names (PR_SET_NAME, new
 * executables) evicts only its own users once it holds its share, never
 * those of a uid holding fewer slots.
 */
static struct abidep_user *abidep_users_victim(struct abidep_users *u, u32 uid)
{
	unsigned int i, n, most = abidep_users_of(u, uid);
	struct abidep_user *v = NULL;
	u32 heavy = uid;

	if (u->nr < ABIDEP_MAX_USERS)
		return &u->slot[u->nr++];
	for (i = 0; i < u->nr; i++) {
		n = abidep_users_of(u, u->slot[i].uid);
		if (n > most) {
			most = n;
			heavy = u->slot[i].uid;
		}
	}
	for (i = 0; i < u->nr; i++)
		if (u->slot[i].uid == heavy &&
		    (!v || u->slot[i].last_seen < v->last_seen))
			v = &u->slot[i];
	u->evicted++;
	return v;
}

/* Keep the tail of a long path: it names the program. */
static void abidep_copy_exe(char *dst, const char *exe)
{
	size_t len = strlen(exe);

	if (len < ABIDEP_EXE_LEN) {
		memcpy(dst, exe, len + 1);
		return;
	}
	memcpy(dst, "...", 3);
	memcpy(dst + 3, exe + len - (ABIDEP_EXE_LEN - 4), ABIDEP_EXE_LEN - 3);
}

/**
 * abidep_users_note() - count an access and decide whether to log it
 * @u: the entry's user table
 * @who: the accessing process; @who->exe may be NULL on a first try
 * @write: a write (else a read)
 * @now: the time in jiffies, for the log interval
 * @wall: the time in seconds since the epoch, for first and last seen
 * @interval: jiffies between two log lines for the same user
 *
 * A known user is counted; a new user is added only when @who->exe is set,
 * so the caller resolves the executable's path (which may sleep) only for
 * users it has not seen: on ABIDEP_NOTE_MISS it does so and calls again.
 *
 * Return: ABIDEP_NOTE_LOG if this access should be logged, ABIDEP_NOTE_QUIET
 * if not, ABIDEP_NOTE_MISS if @who is new and @who->exe is NULL (nothing
 * counted).
 */
enum abidep_note abidep_users_note(struct abidep_users *u,
				   const struct abidep_who *who, bool write,
				   unsigned long now, time64_t wall,
				   unsigned long interval)
{
	enum abidep_note ret = ABIDEP_NOTE_QUIET;
	struct abidep_user *usr;

	spin_lock(&u->lock);
	usr = abidep_users_find(u, who);
	if (!usr) {
		if (!who->exe) {
			spin_unlock(&u->lock);
			return ABIDEP_NOTE_MISS;
		}
		usr = abidep_users_victim(u, who->uid);
		memset(usr, 0, sizeof(*usr));
		usr->key = who->key;
		usr->dev = who->dev;
		memcpy(usr->comm, who->comm, sizeof(usr->comm));
		abidep_copy_exe(usr->exe, who->exe);
		usr->first_seen = wall;
		usr->last_logged = now;
		ret = ABIDEP_NOTE_LOG;
	} else if (time_after_eq(now, usr->last_logged + interval)) {
		usr->last_logged = now;
		ret = ABIDEP_NOTE_LOG;
	}
	usr->tgid = who->tgid;
	usr->uid = who->uid;
	usr->last_seen = wall;
	if (write)
		usr->writes++;
	else
		usr->reads++;
	spin_unlock(&u->lock);
	return ret;
}

/**
 * abidep_budget_take() - may a log line be printed now?
 * @b: the budget, shared by all entries
 * @uid: the user the line names
 * @now: the time in jiffies
 *
 * At most ABIDEP_LOG_BURST lines per window of @b->interval jiffies, and
 * of those at most ABIDEP_LOG_UID_BURST naming users of one uid: a uid that
 * makes new users as fast as it can (see abidep_users_victim()) spends its
 * share, not the others'.
 *
 * Return: true if the line may be printed (it is then counted).
 */
bool abidep_budget_take(struct abidep_budget *b, u32 uid, unsigned long now)
{
	unsigned int i;
	bool ok = false;

	spin_lock(&b->lock);
	if (!b->started || time_after_eq(now, b->begin + b->interval)) {
		b->started = true;
		b->begin = now;
		b->lines = 0;
		b->nuids = 0;
	}
	if (b->lines >= ABIDEP_LOG_BURST)
		goto out;
	for (i = 0; i < b->nuids && b->uid[i].uid != uid; i++)
		;
	if (i == b->nuids) {
		/* Each uid here has a line: as many uids as lines, at most. */
		b->uid[i].uid = uid;
		b->uid[i].lines = 0;
		b->nuids++;
	}
	if (b->uid[i].lines >= ABIDEP_LOG_UID_BURST)
		goto out;
	b->uid[i].lines++;
	b->lines++;
	ok = true;
out:
	spin_unlock(&b->lock);
	return ok;
}

/* @src escaped into @dst (@size bytes, cut if need be): its length. */
static size_t abidep_escape_name(char *dst, size_t size, const char *src)
{
	size_t len;

	if (!size)
		return 0;
	len = string_escape_str(src, dst, size - 1, ABIDEP_NAME_ESCAPE, "\\");
	len = min(len, size - 1);
	dst[len] = '\0';
	return len;
}

/**
 * abidep_log_line() - the kernel log line naming a user of an alias
 * @buf: where it goes
 * @size: the size of @buf
 * @path: the alias's path, "/sys/..."
 * @e: the alias's entry
 * @who: the user, its executable resolved
 * @write: a write (else a read)
 *
 * The comm and the executable's path are escaped (ABIDEP_NAME_ESCAPE); a
 * line longer than @buf is cut.
 *
 * Return: the length of the line in @buf, as scnprintf().
 */
size_t abidep_log_line(char *buf, size_t size, const char *path,
		       const struct abidep_entry *e,
		       const struct abidep_who *who, bool write)
{
	size_t len;

	len = scnprintf(buf, size,
			"%s is deprecated since %s, removal after %s, use %s: %s by pid %d (",
			path, e->deprecated, e->remove_after, e->new_name,
			write ? "written" : "read", who->tgid);
	len += abidep_escape_name(buf + len, size - len, who->comm);
	len += scnprintf(buf + len, size - len, ") ");
	len += abidep_escape_name(buf + len, size - len, who->exe);
	return len;
}
