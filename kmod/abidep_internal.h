/* SPDX-License-Identifier: GPL-2.0 */
/*
 * abidep internals, shared by the module's files and its KUnit tests.
 */
#ifndef _ABIDEP_INTERNAL_H
#define _ABIDEP_INTERNAL_H

#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/string_helpers.h>
#include <linux/time64.h>
#include <linux/workqueue.h>

#include "abidep.h"
#include "compat.h"
#include "when.h"

/* Distinct users remembered per entry; the least recently seen is evicted. */
#define ABIDEP_MAX_USERS	16
/* Executable paths longer than this keep their tail, marked by a leading "...". */
#define ABIDEP_EXE_LEN		128

void abidep_date_from_time(time64_t t, struct abidep_date *d);

/*
 * Who made an access: what identifies a user (its executable's inode number
 * and device, and its comm: compared, never hashed, so that a known user
 * costs a few loads), and what the log line and state file show.
 */
struct abidep_who {
	u64 key;		/* the executable's inode number; 0: none */
	u32 dev;		/* the executable's device */
	pid_t tgid;
	u32 uid;
	char comm[TASK_COMM_LEN] __aligned(8);
	const char *exe;	/* NULL until resolved, see abidep_users_note() */
};

struct abidep_user {
	u64 key;		/* as struct abidep_who's */
	u32 dev;
	pid_t tgid;
	u32 uid;
	char comm[TASK_COMM_LEN] __aligned(8);
	char exe[ABIDEP_EXE_LEN];
	u64 reads;
	u64 writes;
	time64_t first_seen;
	time64_t last_seen;
	unsigned long last_logged;	/* jiffies */
};

struct abidep_users {
	spinlock_t lock;	/* protects everything below */
	unsigned int nr;
	u64 evicted;
	struct abidep_user slot[ABIDEP_MAX_USERS];
};

enum abidep_note {
	ABIDEP_NOTE_QUIET,	/* known user, logged within the interval */
	ABIDEP_NOTE_LOG,	/* log this access */
	ABIDEP_NOTE_MISS,	/* new user but who->exe is NULL: resolve, call again */
};

/*
 * The log lines' budget: ABIDEP_LOG_BURST per window, ABIDEP_LOG_UID_BURST
 * of them for one uid (abidep_budget_take()).
 */
#define ABIDEP_LOG_BURST	10
#define ABIDEP_LOG_UID_BURST	(ABIDEP_LOG_BURST / 2)

struct abidep_budget {
	spinlock_t lock;	/* protects everything below */
	unsigned long interval;	/* jiffies: a window's length */
	unsigned long begin;	/* jiffies: the window's start */
	bool started;		/* begin is set */
	unsigned int lines;	/* printed in the window */
	unsigned int nuids;
	struct {
		u32 uid;
		unsigned int lines;
	} uid[ABIDEP_LOG_BURST];	/* the uids with lines in the window */
};

#define ABIDEP_BUDGET_INIT(name, jiffies) {				\
	.lock = __SPIN_LOCK_UNLOCKED(name.lock),			\
	.interval = (jiffies),						\
}

bool abidep_budget_take(struct abidep_budget *b, u32 uid, unsigned long now);

void abidep_users_init(struct abidep_users *u);
enum abidep_note abidep_users_note(struct abidep_users *u,
				   const struct abidep_who *who, bool write,
				   unsigned long now, time64_t wall,
				   unsigned long interval);

/*
 * What a program names itself (its comm, its executable's path) is escaped
 * wherever it is printed: printable ASCII passes, any other byte and those
 * given become \ooo, so that a newline in a name cannot forge a line of
 * the log, nor a control sequence reach a terminal.
 */
#define ABIDEP_NAME_ESCAPE	(ESCAPE_OCTAL | ESCAPE_NAP | ESCAPE_APPEND)
/* The buffer of a log line: the alias's path, the exe's, the rest. */
#define ABIDEP_LOG_LINE_MAX	(PATH_MAX + 256)

size_t abidep_log_line(char *buf, size_t size, const char *path,
		       const struct abidep_entry *e,
		       const struct abidep_who *who, bool write);

enum abidep_brownout_mode {
	ABIDEP_BROWNOUT_OFF,
	ABIDEP_BROWNOUT_FAIL,	/* reads and writes of the aliases fail */
	ABIDEP_BROWNOUT_HIDE,	/* the alias files are removed */
};

/* A rehearsal of the entry's removal for a while: see brownout.c. */
struct abidep_brownout {
	struct mutex lock;		/* protects all below but failed */
	enum abidep_brownout_mode mode;	/* aliases read it without the lock */
	unsigned long end;		/* jiffies */
	time64_t until;			/* the same, in seconds since the epoch */
	struct list_head aliases;	/* struct abidep_alias, by bo_node */
	struct delayed_work work;	/* ends the window */
	atomic64_t failed;		/* accesses failed, this or the last window */
};

/* What abidep keeps for a registered entry. */
struct abidep_state {
	struct list_head node;		/* in abidep_registry, under abidep_lock */
	struct abidep_entry *entry;
	struct module *owner;
	struct abidep_date deprecated;
	struct abidep_when remove_after;
	atomic_t aliases;
	atomic64_t reads;
	atomic64_t writes;
	atomic64_t errors;
	struct abidep_users users;
	struct abidep_brownout bo;
};

/* One old-name file on one kobject. */
struct abidep_alias {
	struct list_head node;		/* owner's list (class binding) */
	struct abidep_state *st;
	struct kobject *kobj;
	struct attribute *target;	/* the new attribute, as sysfs_ops take it */
	struct device_attribute shim;	/* what sysfs sees under the old name */
	char *path;			/* "/sys/.../old_name", for log lines */
	struct list_head bo_node;	/* in st->bo.aliases, under st->bo.lock */
	bool hidden;			/* file removed by a brownout */
};

extern struct mutex abidep_lock;
extern struct list_head abidep_registry;
extern unsigned int abidep_log_interval;
extern atomic64_t abidep_log_suppressed;

int abidep_entry_check(const struct abidep_entry *e, struct abidep_state *st);
struct device_attribute *abidep_find_dev_attr(struct device *dev,
					      const char *name);
void abidep_note_access(struct abidep_alias *a, bool write, ssize_t ret);
int abidep_alias_create_file(struct abidep_alias *a);

/*
 * A table of class entries (the compiled-in one, or a test's): abidep adds
 * each entry's alias to every device of the entry's class, now and later.
 */
struct abidep_table {
	struct abidep_entry *entries;
	unsigned int nr;
	struct list_head node;		/* in abidep_tables */
	struct list_head bindings;	/* struct abidep_binding */
};

int abidep_table_load(struct abidep_table *t);
void abidep_table_unload(struct abidep_table *t);
void abidep_class_scan(void);
void abidep_class_flush(void);
unsigned int abidep_table_alias_count(struct abidep_table *t);
int abidep_class_init(void);
void abidep_class_exit(void);

extern struct abidep_table abidep_builtin_table;

struct seq_file;
void abidep_brownout_init(struct abidep_state *st);
void abidep_brownout_exit(struct abidep_state *st);
int abidep_brownout_alias_add(struct abidep_alias *a);
void abidep_brownout_alias_remove(struct abidep_alias *a);
bool abidep_brownout_fails(struct abidep_state *st);
ssize_t abidep_brownout_write(const char *buf, size_t count);
void abidep_brownout_show(struct seq_file *m, struct abidep_state *st);
int abidep_brownout_parse(char *s, char **name, unsigned int *seconds,
			  enum abidep_brownout_mode *mode);

int abidep_state_init(void);
void abidep_state_exit(void);
int abidep_control_init(void);
void abidep_control_exit(void);

#endif /* _ABIDEP_INTERNAL_H */
