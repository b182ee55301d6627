// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * abidep usage tracer: who opens, reads and writes deprecated sysfs files.
 *
 * fentry on kernfs's open, fexit on its write and on sysfs's show and read
 * functions. The file's inode number (the kernfs node id) picks a slot of a
 * direct-mapped index, which says whether the file is watched (or, when
 * watched files share the slot, the watched hash does), so an unwatched
 * access costs an array load. Accesses are aggregated here, per
 * (file, op, uid, cgroup, executable); userspace hears of a key only when it
 * is new (a live tracer only). The first user's details are kept in the map, so nothing is lost
 * when no daemon runs (pinned mode).
 *
 * fentry on kernfs's readdir too, for sweeps (bpf/abidep.h): a listing of a
 * watched file's directory makes the opens in it that follow, for a few
 * seconds, count toward telling a sweep from a reader by name.
 *
 * Two sets of programs, one loaded (tools/tracer/trace_load.c chooses): fexit, and
 * kprobe/kretprobe pairs doing the same for kernels where fexit cannot
 * attach (no BPF trampolines, or no BTF for the functions).
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "abidep.h"

#define EEXIST 17

/*
 * kernfs numbers its nodes per root, and cgroupfs files go through the same
 * kernfs operations as sysfs's: a file is sysfs's by its superblock's magic.
 * Every sysfs mount counts (a container's, of its network namespace, is a
 * superblock of its own on the same root, with the same node ids).
 */
#define SYSFS_MAGIC 0x62656572
/* cgroup v1's (cgroup2's is another): its files go through kernfs too. */
#define CGROUP_SUPER_MAGIC 0x27e0eb

/*
 * Tunables, set through the skeleton before load (tools/tracer/trace_load.c) and
 * read-only after: in .rodata, which the kernel freezes, so the verifier
 * takes them as constants (a pinned tracer keeps the values it was loaded
 * with; no process after it reads or writes them). volatile (libbpf's
 * "const volatile") keeps the compiler from folding in the value written
 * here; checkpatch's "volatile is usually wrong" is about data shared
 * between threads, which this is not, hence the __volatile__ spelling.
 */

/*
 * Whether a new key is sent to userspace. Only a live tracer reads the ring
 * buffer (a pinned one has no reader): in a pinned one the verifier drops
 * the send.
 */
const __volatile__ __u32 events_on;

/* The new keys a uid but root may add per sync (bpf/abidep.h); 0: no bound. */
const __volatile__ __u32 uid_quota = ABIDEP_UID_QUOTA;

/* The slots map's size less one (abidep trace --slots): a constant mask. */
const __volatile__ __u32 slot_mask = ABIDEP_SLOTS - 1;

/*
 * The deprecated files outside sysfs (bpf/abidep.h): special_id[k] is the
 * file id of special k plus one, 0 when it is not watched; memcg1_on, that
 * one of the cgroup v1 memory files is. With none, the verifier drops the
 * kernfs programs' cgroupfs branch.
 */
const __volatile__ __u32 special_id[ABIDEP_NR_SPECIALS];
const __volatile__ __u32 memcg1_on;

/*
 * ABIDEP_SWEEP_WINDOW_NS in jiffies of the running kernel, rounded up: the
 * loader counts them from its tick (HZ is 250 on Debian's kernels, up to
 * 1000 elsewhere). The default, a jiffy per millisecond, is HZ=1000's.
 */
const __volatile__ __u32 sweep_jiffies = ABIDEP_SWEEP_WINDOW_NS / 1000000;

/*
 * The clock as last read, and the jiffies it was read at (see now_ns()). In
 * a section (a map) of their own, written once a tick: no other data shares
 * their cache line.
 */
SEC(".data.clock") __u64 clock_jiffies;
SEC(".data.clock") __u64 clock_ns;

/*
 * Until when (jiffies) a listing may be fresh: 0 when no watched directory
 * was ever listed. An unwatched open looks for listings only before it, so
 * that otherwise its cost is this load. Set sweep_jiffies (at least
 * ABIDEP_SWEEP_WINDOW_NS) past the last listing or open that kept a
 * listing's mark fresh (sweep_arm()); each mark's own time says whether it
 * is fresh.
 */
SEC(".data.sweep") __u64 sweep_until;

/* See bpf/abidep.h; userspace writes it through a mapping. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, ABIDEP_SLOTS);
	__type(key, __u32);
	__type(value, struct abidep_slot);
} slots SEC(".maps");

/*
 * The hash maps userspace alone fills allocate on use: memory follows the
 * files there are. Those the programs insert into (usage, pending) are
 * preallocated: an insertion from a program into a map that allocates on
 * use fails with ENOMEM whenever the BPF allocator's per-CPU cache is empty
 * (it is refilled later, from irq_work), and that access would be lost.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, ABIDEP_MAX_WATCHED);
	__type(key, __u64);
	__type(value, struct abidep_watch);
} watched SEC(".maps");

/*
 * The usage counts go to the one map usage holds, which a sync replaces
 * with an empty one and then empties into the DB (tools/tracer/trace_sync.c): so
 * the map holds what happened since the last sync, and its size bounds
 * the distinct users of one sync interval, not of a boot. Replacing it
 * waits for the programs running (the kernel's synchronize_rcu() on an
 * update of a map of maps): none writes to the old map after that.
 * usage_keys is the first such map, and the shape of every other.
 */
struct usage_inner {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, ABIDEP_MAX_USAGE);
	__type(key, struct abidep_usage_key);
	__type(value, struct abidep_usage);
} usage_keys SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 1);
	__type(key, __u32);
	__array(values, struct usage_inner);
} usage SEC(".maps") = {
	.values = { [0] = &usage_keys },
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, ABIDEP_MAX_WATCHED);
	__type(key, __u32);
	__type(value, struct abidep_file);
} files SEC(".maps");

/*
 * Sweeps (bpf/abidep.h): the watched files' directories, each with the
 * number of distinct files a sweep of it opens; and listings.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, ABIDEP_MAX_DIRS);
	__type(key, __u64);
	__type(value, __u32);
} dirs SEC(".maps");

/* The regular files of those directories: their places in each order. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, ABIDEP_MAX_RANKED);
	__type(key, __u64);
	__type(value, struct abidep_rank);
} ranks SEC(".maps");

/* LRU: a listing is of use for seconds; the oldest make room. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, ABIDEP_MAX_LISTINGS);
	__type(key, struct abidep_listing_key);
	__type(value, struct abidep_listing);
} listings SEC(".maps");

/* LRU: a uid forgotten starts again at 0, as after a sync. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, ABIDEP_MAX_QUOTA_UIDS);
	__type(key, __u32);
	__type(value, struct abidep_quota);
} quotas SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, ABIDEP_NR_STATS);
	__type(key, __u32);
	__type(value, __u64);
} stats SEC(".maps");

/* A new listing starts empty. */
static const struct abidep_listing empty_listing;

/* A usage value is too large for the BPF stack: build it here. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct abidep_usage);
} scratch SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 64 * 1024);
} events SEC(".maps");

/*
 * kprobe mode only: a watched file's call in progress, by thread, from the
 * kprobe to the kretprobe (which sees the return value but not the
 * arguments). The tracer shrinks it to one entry in fexit mode.
 */
struct abidep_pending {
	__u32 file_id;
	__u32 op;
	__u64 dir;		/* the file's directory's inode number, as record()'s */
	__u64 ino;		/* the file's, as record()'s */
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u64);
	__type(value, struct abidep_pending);
} pending SEC(".maps");

static __always_inline void stat_inc(__u32 which)
{
	__u64 *v = bpf_map_lookup_elem(&stats, &which);

	if (v)
		*v += 1;
}

/*
 * The executable's path, leaf first, crossing mounts up to the root. Only
 * for a new key, so probe reads (container_of() on a BTF pointer is not a
 * load the verifier allows).
 */
static __always_inline void exe_path(struct file *exe, struct abidep_usage *u)
{
	struct vfsmount *vmnt = BPF_CORE_READ(exe, f_path.mnt);
	struct dentry *d = BPF_CORE_READ(exe, f_path.dentry);
	struct mount *mnt = container_of(vmnt, struct mount, mnt);
	__u32 n = 0;
	int i;

	for (i = 0; i < 2 * ABIDEP_EXE_DEPTH; i++) {
		struct dentry *parent = BPF_CORE_READ(d, d_parent);
		struct dentry *root = BPF_CORE_READ(vmnt, mnt_root);

		if (d == root) {
			struct mount *up = BPF_CORE_READ(mnt, mnt_parent);

			if (up == mnt)
				return;
			d = BPF_CORE_READ(mnt, mnt_mountpoint);
			mnt = up;
			vmnt = &up->mnt;
			continue;
		}
		if (d == parent)
			return;
		if (n >= ABIDEP_EXE_DEPTH) {
			u->exe_truncated = 1;
			return;
		}
		bpf_probe_read_kernel_str(u->exe[n], ABIDEP_EXE_COMP,
					  BPF_CORE_READ(d, d_name.name));
		n++;
		d = parent;
	}
}

/*
 * CLOCK_BOOTTIME, read at most once per jiffy (per tick): the store keeps
 * access times to the second, and where the clocksource is slow to read (an
 * emulated HPET in the QEMU guest) the read was a fifth of the cost of a
 * watched access. The time is stored before the jiffies it belongs to, and
 * read after them (x86 keeps stores, and loads, in order): a program that
 * sees the new jiffies sees the new time.
 */
static __always_inline __u64 now_ns(void)
{
	__u64 j = bpf_jiffies64(), t;

	if (j == clock_jiffies) {
		barrier();
		return clock_ns;
	}
	t = bpf_ktime_get_boot_ns();
	clock_ns = t;
	barrier();
	clock_jiffies = j;
	return t;
}

static __always_inline void count(struct abidep_usage *u, long ret, __u64 now)
{
	__sync_fetch_and_add(&u->count, 1);
	if (ret < 0)
		__sync_fetch_and_add(&u->errors, 1);
	u->last_ns = now;
}

/*
 * Sweeps (bpf/abidep.h). Whether a listing may be fresh: the cheap test
 * that every open of an unwatched file makes (bpf_jiffies64() is inlined).
 */
static __always_inline bool sweep_armed(void)
{
	return sweep_until && bpf_jiffies64() <= sweep_until;
}

/*
 * A listing, or an open that keeps a listing's mark fresh: the marks that
 * may be fresh now may be for a window more.
 */
static __always_inline void sweep_arm(void)
{
	sweep_until = bpf_jiffies64() + sweep_jiffies;
}

/* The directory a sysfs file is in: its inode number (kernfs node id). */
static __always_inline __u64 file_dir(const struct file *file)
{
	return file->f_path.dentry->d_parent->d_inode->i_ino;
}

static __always_inline __u64 kp_file_dir(const struct file *file)
{
	return BPF_CORE_READ(file, f_path.dentry, d_parent, d_inode, i_ino);
}

static __always_inline bool listing_stale(const struct abidep_listing *l, __u64 now)
{
	/* Signed: another CPU may have stored a time a little after ours. */
	return (__s64)(now - l->last_ns) > (__s64)ABIDEP_SWEEP_WINDOW_NS;
}

/* @task's process group: the pipeline or job it runs in (init's pid numbers). */
static __always_inline __u32 task_pgid(struct task_struct *task)
{
	return task->signal->pids[PIDTYPE_PGID]->numbers[0].nr;
}

/*
 * The fresh mark of a listing of @dir on @task's side: its process group's,
 * or its parent's group's (an interactive shell expands a glob, then runs
 * cat in a job of its own); NULL if none. *@side is the group it is of.
 */
static __always_inline struct abidep_listing *
listing_mark(struct task_struct *task, __u64 dir, __u64 now, __u32 *side)
{
	struct abidep_listing_key k = { .side = task_pgid(task), .dir = dir };
	struct abidep_listing *m;

	m = bpf_map_lookup_elem(&listings, &k);
	if (!m || listing_stale(m, now)) {
		k.side = task_pgid(task->real_parent);
		m = bpf_map_lookup_elem(&listings, &k);
	}
	if (!m || listing_stale(m, now))
		return NULL;
	*side = k.side;
	return m;
}

/*
 * The fresh listing of @dir that an access by @task, running executable
 * (@exe_dev, @exe_ino), falls under: the opens of files in @dir by that
 * program on the lister's side since the side's last listing of it
 * (bpf/abidep.h), or NULL. @open: the access is an open (or a walk of the
 * directory's tree), which starts the program's tally if it has none (or
 * a stale one, or one of an earlier listing) and keeps the side's mark
 * fresh.
 */
static __always_inline struct abidep_listing *
listing_of(struct task_struct *task, __u64 dir, __u32 exe_dev, __u64 exe_ino,
	   __u64 now, bool open)
{
	struct abidep_listing_key k = {
		.exe_dev = exe_dev, .exe_ino = exe_ino, .dir = dir,
	};
	struct abidep_listing *m, *l;

	/* A kernel thread runs no program: by-name. */
	if (!exe_ino)
		return NULL;
	m = listing_mark(task, dir, now, &k.side);
	if (!m)
		return NULL;
	l = bpf_map_lookup_elem(&listings, &k);
	if (l && !listing_stale(l, now) && l->gen == m->gen)
		goto fresh;
	if (!open)
		return NULL;
	bpf_map_update_elem(&listings, &k, &empty_listing, BPF_ANY);
	l = bpf_map_lookup_elem(&listings, &k);
	if (!l)
		return NULL;
	l->last_ns = now;
	l->need = m->need;
	l->gen = m->gen;
	l->orders = (1 << ABIDEP_SWEEP_ORDERS) - 1;
fresh:
	if (open) {
		m->last_ns = now;
		sweep_arm();
	}
	return l;
}

/* @task's executable, as the usage key has it: device and inode, or 0s. */
static __always_inline void task_exe(struct task_struct *task, __u32 *dev, __u64 *ino)
{
	struct mm_struct *mm = task->mm;
	struct file *exe = mm ? mm->exe_file : NULL;

	*dev = exe ? exe->f_inode->i_sb->s_dev : 0;
	*ino = exe ? exe->f_inode->i_ino : 0;
}

static __always_inline void *usage_now(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&usage, &zero);
}

/*
 * A file's bit in a tally's bitmaps: its place in readdir order, which is
 * one per file (a directory of more than ABIDEP_SWEEP_BITS files has
 * files sharing a bit, which only makes more of them read by name).
 */
static __always_inline __u32 rank_bit(const struct abidep_rank *r)
{
	return (r->rank[ABIDEP_ORDER_READDIR] - 1) & (ABIDEP_SWEEP_BITS - 1);
}

static __always_inline bool bit_in(const __u64 *map, __u32 bit)
{
	return map[(bit >> 6) & (ABIDEP_SWEEP_BITS / 64 - 1)] & (1ULL << (bit & 63));
}

static __always_inline void bit_set(__u64 *map, __u32 bit)
{
	map[(bit >> 6) & (ABIDEP_SWEEP_BITS / 64 - 1)] |= 1ULL << (bit & 63);
}

/*
 * A tally became a sweep: the watched accesses it held count as swept,
 * but those of a file opened by name since. Listings are not locked
 * (tracing programs may not take a BPF spin lock): two CPUs crossing the
 * threshold at once could both add; the tracer keeps swept no larger than
 * count when it reads. A held access whose key a sync has since moved to
 * the DB is left by-name there: no user is hidden by it.
 */
static __always_inline void sweep_resolve(struct abidep_listing *l)
{
	__u32 i, n = l->npending;
	struct abidep_usage *u;
	void *map = usage_now();

	l->npending = 0;
	if (!map)
		return;
	for (i = 0; i < ABIDEP_SWEEP_PENDING; i++) {
		if (i >= n)
			break;
		if (bit_in(l->byname, l->pending_bit[i]))
			continue;
		u = bpf_map_lookup_elem(map, &l->pending[i]);
		if (u)
			__sync_fetch_and_add(&u->swept, l->pending_count[i]);
	}
}

/* The orders the tally's files were all in that @r's file comes later in. */
static __always_inline __u32 orders_after(const struct abidep_listing *l,
					  const struct abidep_rank *r)
{
	__u32 o, alive = 0;

	for (o = 0; o < ABIDEP_SWEEP_ORDERS; o++)
		if ((l->orders & (1 << o)) && r->rank[o] > l->last[o])
			alive |= 1 << o;
	return alive;
}

/*
 * An open by the tally's program in its directory: a file more, maybe the
 * one that makes a sweep, or a file opened by name. Not locked (see
 * sweep_resolve()): two CPUs opening files at once may both count.
 */
static __always_inline void sweep_note_open(struct abidep_listing *l, __u64 ino, __u64 now)
{
	const struct abidep_rank *r = bpf_map_lookup_elem(&ranks, &ino);
	__u32 bit, alive, o;

	l->last_ns = now;
	/* Not ranked: read by name (sweep_count()), and no file more. */
	if (!r)
		return;
	bit = rank_bit(r);
	/* A sweep opens each file once. */
	if (bit_in(l->seen, bit)) {
		bit_set(l->byname, bit);
		return;
	}
	bit_set(l->seen, bit);
	alive = orders_after(l, r);
	if (!alive && !(l->flags & ABIDEP_TALLY_WALKED)) {
		/* In an order of its own: picked. Before a sweep, no sweep. */
		bit_set(l->byname, bit);
		if (!(l->flags & ABIDEP_TALLY_SWEEP))
			l->orders = 0;
		return;
	}
	l->orders = alive;
	for (o = 0; o < ABIDEP_SWEEP_ORDERS; o++)
		l->last[o] = r->rank[o];
	l->nseen++;
	if (!(l->flags & ABIDEP_TALLY_SWEEP) && l->nseen >= l->need) {
		l->flags |= ABIDEP_TALLY_SWEEP;
		sweep_resolve(l);
	}
}

/*
 * Every open of a sysfs file while a listing may be fresh. A global
 * function, as sweep_count() is: the verifier checks it once for each
 * program that calls it, not along every path of the program to the call.
 */
__noinline int sweep_open(__u64 ino, __u64 dir)
{
	struct task_struct *task = bpf_get_current_task_btf();
	__u64 now = now_ns(), exe_ino;
	struct abidep_listing *l;
	__u32 exe_dev;

	task_exe(task, &exe_dev, &exe_ino);
	l = listing_of(task, dir, exe_dev, exe_ino, now, true);
	if (l)
		sweep_note_open(l, ino, now);
	return 0;
}

static __always_inline bool key_eq(const struct abidep_usage_key *a,
				   const struct abidep_usage_key *b)
{
	return a->file_id == b->file_id && a->op == b->op && a->uid == b->uid &&
	       a->exe_dev == b->exe_dev && a->exe_ino == b->exe_ino &&
	       a->cgroup_id == b->cgroup_id;
}

/*
 * A watched access under a tally not yet a sweep, of file @bit: held
 * until it is one. Full, it stays by-name, which never hides a user.
 */
static __always_inline void sweep_hold(struct abidep_listing *l,
				       const struct abidep_usage_key *key, __u32 bit)
{
	__u32 i, n = l->npending;

	for (i = 0; i < ABIDEP_SWEEP_PENDING; i++) {
		if (i >= n)
			break;
		if (key_eq(&l->pending[i], key)) {
			l->pending_count[i]++;
			return;
		}
	}
	if (n >= ABIDEP_SWEEP_PENDING)
		return;
	/*
	 * n is below the size (a power of two), but the compiler drops a
	 * mask it can prove useless, and the verifier loses the bound: hide
	 * n from the compiler, then mask.
	 */
	barrier_var(n);
	n &= ABIDEP_SWEEP_PENDING - 1;
	l->pending[n] = *key;
	l->pending_count[n] = 1;
	l->pending_bit[n] = bit;
	l->npending = n + 1;
}

/*
 * A watched access of file @ino in directory @dir, which a listing may be
 * fresh for, counted under *@key: swept (the key's swept grows) when the
 * program's tally there is a sweep and the file is one it opened under
 * it, not by name; held when the tally is not a sweep yet; else by name.
 */
__noinline int sweep_count(const struct abidep_usage_key *key, __u64 ino, __u64 dir)
{
	struct task_struct *task = bpf_get_current_task_btf();
	const struct abidep_rank *r;
	struct abidep_usage_key k;
	struct abidep_listing *l;
	struct abidep_usage *u;
	void *map;
	__u32 bit;

	if (!key)
		return 0;
	k = *key;
	l = listing_of(task, dir, k.exe_dev, k.exe_ino, now_ns(), false);
	if (!l)
		return 0;
	r = bpf_map_lookup_elem(&ranks, &ino);
	if (!r)
		return 0;
	bit = rank_bit(r);
	if (!bit_in(l->seen, bit) || bit_in(l->byname, bit))
		return 0;
	if (!(l->flags & ABIDEP_TALLY_SWEEP)) {
		sweep_hold(l, &k, bit);
		return 0;
	}
	map = usage_now();
	u = map ? bpf_map_lookup_elem(map, &k) : NULL;
	if (u)
		__sync_fetch_and_add(&u->swept, 1);
	return 1;
}

/*
 * A readdir of a subdirectory of @dir, a watched file's directory, by the
 * current program: it walks the directory's tree (udevadm info -a, grep
 * -r, tar), whatever order it opens the files in.
 */
static __always_inline void sweep_walked(__u64 dir)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct abidep_listing *l;
	__u64 exe_ino;
	__u32 exe_dev;

	task_exe(task, &exe_dev, &exe_ino);
	l = listing_of(task, dir, exe_dev, exe_ino, now_ns(), true);
	if (l)
		l->flags |= ABIDEP_TALLY_WALKED;
}

/*
 * A readdir of a sysfs directory @dir, in @parent, from offset @pos: a
 * listing, if a watched file is in it (from offset 0, a new one); else a
 * walk, if a watched file is in its parent.
 */
static __always_inline void listed(__u64 dir, __u64 parent, __s64 pos)
{
	struct abidep_listing_key k = {
		.side = task_pgid(bpf_get_current_task_btf()), .dir = dir,
	};
	struct abidep_listing *l;
	__u32 *need = bpf_map_lookup_elem(&dirs, &dir);
	__u64 now;

	if (!need) {
		if (bpf_map_lookup_elem(&dirs, &parent))
			sweep_walked(parent);
		return;
	}
	now = now_ns();
	l = bpf_map_lookup_elem(&listings, &k);
	if (!l || listing_stale(l, now)) {
		bpf_map_update_elem(&listings, &k, &empty_listing, BPF_ANY);
		l = bpf_map_lookup_elem(&listings, &k);
		if (!l)
			return;
		/* At least ABIDEP_SWEEP_FILES, whatever userspace wrote. */
		l->need = *need > ABIDEP_SWEEP_FILES ? *need : ABIDEP_SWEEP_FILES;
	}
	if (!pos)
		l->gen++;
	l->last_ns = now;
	sweep_arm();
}

/*
 * The quota of new keys of @uid in @map, the hash in place (bpf/abidep.h):
 * NULL when it may add one (root, no bound, or no room to count it, which
 * only spares a user the bound), else the quota, spent. Not locked: CPUs
 * adding keys for one uid at once may each pass the bound by one.
 */
static __always_inline struct abidep_quota *quota_spent(__u32 uid, void *map)
{
	struct abidep_quota fresh = { .gen = (__u64)map }, *q;

	if (!uid || !uid_quota)
		return NULL;
	q = bpf_map_lookup_elem(&quotas, &uid);
	if (!q || q->gen != (__u64)map) {
		bpf_map_update_elem(&quotas, &uid, &fresh, BPF_ANY);
		return NULL;
	}
	return q->keys >= uid_quota ? q : NULL;
}

/* A key of @uid added to @map: one of its quota. */
static __always_inline void quota_take(__u32 uid, void *map)
{
	struct abidep_quota *q;

	if (!uid || !uid_quota)
		return;
	q = bpf_map_lookup_elem(&quotas, &uid);
	if (q && q->gen == (__u64)map)
		__sync_fetch_and_add(&q->keys, 1);
}

/*
 * A new key in @map: its first user's details, then tell userspace. True
 * if the access was counted (by this key, or by the same one another CPU
 * added meanwhile).
 */
static __always_inline bool key_add(void *map, struct abidep_usage_key *key,
				    long ret, __u64 now, struct task_struct *task,
				    struct file *exe)
{
	struct abidep_usage *u;
	__u32 zero = 0;
	int err;

	if (quota_spent(key->uid, map)) {
		stat_inc(ABIDEP_STAT_QUOTA);
		return false;
	}
	u = bpf_map_lookup_elem(&scratch, &zero);
	if (!u)
		return false;
	__builtin_memset(u, 0, sizeof(*u));
	u->count = 1;
	u->errors = ret < 0;
	u->first_ns = now;
	u->last_ns = now;
	u->pid = task->tgid;
	u->ppid = task->real_parent->tgid;
	bpf_get_current_comm(u->comm, sizeof(u->comm));
	if (exe)
		exe_path(exe, u);
	err = bpf_map_update_elem(map, key, u, BPF_NOEXIST);
	if (err == -EEXIST) {
		u = bpf_map_lookup_elem(map, key);
		if (u)
			count(u, ret, now);
		return !!u;
	}
	if (err) {
		stat_inc(ABIDEP_STAT_DROPPED);
		return false;
	}
	quota_take(key->uid, map);
	if (events_on && bpf_ringbuf_output(&events, key, sizeof(*key), 0))
		stat_inc(ABIDEP_STAT_EVENTS_LOST);
	return true;
}

/*
 * A watched file was accessed: count it under the current task's key.
 * @dir: the file's directory, or 0 when no listing can be fresh
 * (sweep_armed()); @ino: the file's inode number, when @dir is not 0.
 */
static __always_inline void record(__u32 file_id, __u32 op, long ret, __u64 dir, __u64 ino)
{
	struct abidep_usage_key key = {};
	struct abidep_usage *u;
	struct task_struct *task;
	struct mm_struct *mm;
	struct file *exe;
	void *map;
	__u64 now;

	task = bpf_get_current_task_btf();
	mm = task->mm;
	exe = mm ? mm->exe_file : NULL;
	key.file_id = file_id;
	key.op = op;
	/*
	 * Loads rather than bpf_get_current_uid_gid() and
	 * bpf_get_current_cgroup_id(): the same values (the uid as the initial
	 * user namespace sees it, the cgroup v2 id), in fewer instructions.
	 */
	key.uid = task->cred->uid.val;
	key.cgroup_id = task->cgroups->dfl_cgrp->kn->id;
	if (exe) {
		key.exe_dev = exe->f_inode->i_sb->s_dev;
		key.exe_ino = exe->f_inode->i_ino;
	}
	now = now_ns();
	map = usage_now();
	if (!map)
		return;
	u = bpf_map_lookup_elem(map, &key);
	if (u)
		count(u, ret, now);
	else if (!key_add(map, &key, ret, now, task, exe))
		return;
	/* Counted: swept, held or by name. */
	if (dir)
		sweep_count(&key, ino, dir);
}

/*
 * The hot path: every sysfs (and cgroupfs) open and write passes here, and
 * every sysfs read. The superblock, then the inode number's slot: an array
 * lookup the verifier inlines (a bounds check and an address). An unwatched
 * file ends there unless its slot has "more"; then the watched hash says.
 * An open also loads sweep_until, and only while a watched directory's
 * listing may be fresh looks for it.
 *
 * Userspace empties a slot (ino 0) before it changes file_id, and sets ino
 * last: the second load of ino (x86, where the JIT puts these loads, does
 * not reorder loads) proves that file_id belongs to it. A slot being
 * changed sends lookups to the hash.
 */
static __always_inline bool watched_ino(__u64 ino, __u32 *file_id)
{
	__u32 i = ino & slot_mask;
	struct abidep_slot *s = bpf_map_lookup_elem(&slots, &i);
	struct abidep_watch *w;

	if (!s)
		return false;
	/* The barriers make the compiler load each field where it stands. */
	if (s->ino == ino) {
		barrier();
		*file_id = s->file_id;
		barrier();
		if (s->ino == ino)
			return true;
	}
	barrier();
	if (!s->more)
		return false;
	w = bpf_map_lookup_elem(&watched, &ino);
	if (!w)
		return false;
	*file_id = w->file_id;
	return true;
}

/*
 * Specials (bpf/abidep.h): the deprecated files outside sysfs. Each is told
 * by a handler that serves it alone, or by its name, read only once a
 * cheaper test (a handler, a superblock, a name's length) has passed.
 */

/* Special @k's file id plus one, or 0 when it is not watched. */
static __always_inline __u32 special(__u32 k)
{
	return k < ABIDEP_NR_SPECIALS ? special_id[k] : 0;
}

/* A name read into @buf equals @lit, its terminating NUL included. */
#define NAME_IS(buf, lit) name_is(buf, lit, sizeof(lit))
static __always_inline bool name_is(const char *buf, const char *lit, int n)
{
	int i;

#pragma unroll
	for (i = 0; i < 32; i++)
		if (i < n && buf[i] != lit[i])
			return false;
	return true;
}

/* A dentry's name, up to 31 bytes (probe read: it is a char pointer). */
static __always_inline void dentry_name(const struct dentry *d, char buf[32])
{
	bpf_probe_read_kernel_str(buf, 32, BPF_CORE_READ(d, d_name.name));
}

/* The special a cgroup v1 file is, by its name, plus one; else 0. */
static __always_inline __u32 memcg1_special(const struct dentry *d)
{
	__u32 len = BPF_CORE_READ(d, d_name.len);
	char name[32];

	/* The names' lengths: 18, 21, 26 (two), 30 and 31 bytes. */
	if (len != 18 && len != 21 && len != 26 && len != 30 && len != 31)
		return 0;
	dentry_name(d, name);
	if (NAME_IS(name, "memory.kmem.limit_in_bytes"))
		return special(ABIDEP_SP_MEMCG1_KMEM_LIMIT);
	if (NAME_IS(name, "memory.kmem.tcp.limit_in_bytes"))
		return special(ABIDEP_SP_MEMCG1_KMEM_TCP_LIMIT);
	if (NAME_IS(name, "memory.soft_limit_in_bytes"))
		return special(ABIDEP_SP_MEMCG1_SOFT_LIMIT);
	if (NAME_IS(name, "memory.oom_control"))
		return special(ABIDEP_SP_MEMCG1_OOM_CONTROL);
	if (NAME_IS(name, "memory.pressure_level"))
		return special(ABIDEP_SP_MEMCG1_PRESSURE_LEVEL);
	if (NAME_IS(name, "memory.move_charge_at_immigrate"))
		return special(ABIDEP_SP_MEMCG1_MOVE_CHARGE);
	return 0;
}

/*
 * A kernfs file not sysfs's (superblock magic @magic) was opened or written:
 * count it if it is a watched cgroup v1 file.
 */
static __always_inline void memcg1_access(unsigned long magic,
					  const struct dentry *d, __u32 op, long ret)
{
	__u32 id;

	if (!memcg1_on || magic != CGROUP_SUPER_MAGIC)
		return;
	id = memcg1_special(d);
	if (id)
		record(id - 1, op, ret, 0, 0);
}

/* An ipv6 neighbour sysctl's special plus one, by its ctl_table's name. */
static __always_inline __u32 neigh6_special(const char *procname)
{
	char name[32];

	bpf_probe_read_kernel_str(name, sizeof(name), procname);
	if (NAME_IS(name, "retrans_time"))
		return special(ABIDEP_SP_NEIGH6_RETRANS_TIME);
	if (NAME_IS(name, "base_reachable_time"))
		return special(ABIDEP_SP_NEIGH6_BASE_REACHABLE_TIME);
	return 0;
}

/*
 * The same for a /proc/sys file being opened, by its dentry: the name, then
 * its grandparent's and great-grandparent's, net/ipv6/neigh/<dev>/<name>
 * (ipv4's neigh files have the same names and are not deprecated).
 */
static __always_inline __u32 neigh6_open_special(const struct dentry *d)
{
	__u32 len = BPF_CORE_READ(d, d_name.len), id;
	const struct dentry *neigh;
	char name[32];

	if (len != 12 && len != 19)
		return 0;
	dentry_name(d, name);
	if (NAME_IS(name, "retrans_time"))
		id = special(ABIDEP_SP_NEIGH6_RETRANS_TIME);
	else if (NAME_IS(name, "base_reachable_time"))
		id = special(ABIDEP_SP_NEIGH6_BASE_REACHABLE_TIME);
	else
		return 0;
	neigh = BPF_CORE_READ(d, d_parent, d_parent);
	dentry_name(neigh, name);
	if (!NAME_IS(name, "neigh"))
		return 0;
	dentry_name(BPF_CORE_READ(neigh, d_parent), name);
	return NAME_IS(name, "ipv6") ? id : 0;
}

/*
 * The reads of a sysctl handler: proc_sys_call_handler() calls it at every
 * read(2), the one at the end of the file with nothing left (*lenp 0).
 */
static __always_inline void sysctl_done(__u32 id, int write, size_t *lenp, long ret)
{
	size_t len = 0;

	if (write) {
		record(id - 1, ABIDEP_OP_WRITE, ret, 0, 0);
		return;
	}
	bpf_probe_read_kernel(&len, sizeof(len), lenp);
	if (ret || len)
		record(id - 1, ABIDEP_OP_READ, ret, 0, 0);
}

/*
 * Opens are counted on the way in (fentry, the cheaper trampoline): the
 * permission checks are behind, and what kernfs_fop_open() can still refuse
 * (a file removed meanwhile, a read-only attribute opened for writing by
 * root) is counted as an open, not as an error.
 */
SEC("fentry/kernfs_fop_open")
int BPF_PROG(abidep_open, struct inode *inode, struct file *file)
{
	bool armed;
	__u32 id;

	if (!inode)
		return 0;
	if (inode->i_sb->s_magic != SYSFS_MAGIC) {
		memcg1_access(inode->i_sb->s_magic, file->f_path.dentry, ABIDEP_OP_OPEN, 0);
		return 0;
	}
	/* Every open, watched or not, may be one of a sweep's. */
	armed = sweep_armed();
	if (armed)
		sweep_open(inode->i_ino, file_dir(file));
	if (watched_ino(inode->i_ino, &id))
		record(id, ABIDEP_OP_OPEN, 0, armed ? file_dir(file) : 0, inode->i_ino);
	return 0;
}

/* A listing of a directory: at every getdents(2) of it, from where it is. */
SEC("fentry/kernfs_fop_readdir")
int BPF_PROG(abidep_readdir, struct file *file, struct dir_context *dctx)
{
	struct inode *inode = file->f_inode;

	if (inode->i_sb->s_magic == SYSFS_MAGIC)
		listed(inode->i_ino, file_dir(file), dctx->pos);
	return 0;
}

/*
 * Reads are counted where sysfs makes the value, not at read(2): an
 * attribute's show() runs once per read of its value, however the reader
 * splits it into read(2) calls, and not for the read that finds the end of
 * the file. So the read(2) returning 0 that ends every cat costs no program
 * at all, and cgroupfs reads never come here. These functions are sysfs's
 * own: no superblock check.
 *
 * sysfs_kf_seq_show(): every attribute but the two kinds below.
 */
static __always_inline void seq_show_done(struct seq_file *sf, int ret)
{
	__u64 ino = sf->file->f_inode->i_ino;
	__u32 id;

	if (watched_ino(ino, &id))
		record(id, ABIDEP_OP_READ, ret, sweep_armed() ? file_dir(sf->file) : 0, ino);
}

SEC("fexit/sysfs_kf_seq_show")
int BPF_PROG(abidep_read, struct seq_file *sf, void *v, int ret)
{
	seq_show_done(sf, ret);
	return 0;
}

/*
 * A deprecated alias of the in-tree series (patches/linux-6.12/) has a
 * seq_show of its own, which calls the new attribute's show(): its reads
 * come here, not to sysfs_kf_seq_show(). Loaded only where the kernel has
 * the function (tools/tracer/trace_load.c).
 */
SEC("fexit/sysfs_kf_alias_seq_show")
int BPF_PROG(abidep_read_alias, struct seq_file *sf, void *v, int ret)
{
	seq_show_done(sf, ret);
	return 0;
}

/*
 * Preallocated attributes (sysfs_kf_read()) and binary ones
 * (sysfs_kf_bin_read()) are called at every read(2), the last one returning
 * 0: the value was not read then.
 */
static __always_inline void read_called(struct kernfs_open_file *of, long ret)
{
	__u64 ino = of->file->f_inode->i_ino;
	__u32 id;

	if (ret && watched_ino(ino, &id))
		record(id, ABIDEP_OP_READ, ret, sweep_armed() ? file_dir(of->file) : 0, ino);
}

SEC("fexit/sysfs_kf_read")
int BPF_PROG(abidep_read_pre, struct kernfs_open_file *of, char *buf,
	     size_t count, loff_t pos, long ret)
{
	read_called(of, ret);
	return 0;
}

SEC("fexit/sysfs_kf_bin_read")
int BPF_PROG(abidep_read_bin, struct kernfs_open_file *of, char *buf,
	     size_t count, loff_t pos, long ret)
{
	read_called(of, ret);
	return 0;
}

SEC("fexit/kernfs_fop_write_iter")
int BPF_PROG(abidep_write, struct kiocb *iocb, struct iov_iter *iter, long ret)
{
	struct file *file = iocb->ki_filp;
	struct inode *inode = file->f_inode;
	__u32 id;

	if (!inode)
		return 0;
	if (inode->i_sb->s_magic != SYSFS_MAGIC)
		memcg1_access(inode->i_sb->s_magic, file->f_path.dentry, ABIDEP_OP_WRITE, ret);
	else if (watched_ino(inode->i_ino, &id))
		record(id, ABIDEP_OP_WRITE, ret, sweep_armed() ? file_dir(file) : 0,
		       inode->i_ino);
	return 0;
}

/*
 * fexit on a handler that serves one special alone, or a few told apart by
 * name. They are attached only when a special of theirs is watched
 * (tools/tracer/trace_special.c), so they cost nothing otherwise, and nothing to
 * sysfs ever.
 */
SEC("fexit/ndisc_ifinfo_sysctl_change")
int BPF_PROG(abidep_neigh6, struct ctl_table *ctl, int write, void *buffer,
	     size_t *lenp, loff_t *ppos, int ret)
{
	__u32 id = neigh6_special(ctl->procname);

	if (id)
		sysctl_done(id, write, lenp, ret);
	return 0;
}

/* Every open of a /proc/sys file: the handler does not run at open. */
SEC("fentry/proc_sys_open")
int BPF_PROG(abidep_sysctl_open, struct inode *inode, struct file *filp)
{
	__u32 id = neigh6_open_special(filp->f_path.dentry);

	if (id)
		record(id - 1, ABIDEP_OP_OPEN, 0, 0, 0);
	return 0;
}

/*
 * /proc/<pid>/oom_adj has no open of its own (only every file's), so its
 * opens are not counted; its reads and writes are, as sysfs's (a read
 * returning 0, at the end of the file, does not count).
 */
SEC("fexit/oom_adj_read")
int BPF_PROG(abidep_oom_adj_read, struct file *file, char *buf, size_t count,
	     loff_t *ppos, long ret)
{
	__u32 id = special(ABIDEP_SP_OOM_ADJ);

	if (id && ret)
		record(id - 1, ABIDEP_OP_READ, ret, 0, 0);
	return 0;
}

SEC("fexit/oom_adj_write")
int BPF_PROG(abidep_oom_adj_write, struct file *file, const char *buf,
	     size_t count, loff_t *ppos, long ret)
{
	__u32 id = special(ABIDEP_SP_OOM_ADJ);

	if (id)
		record(id - 1, ABIDEP_OP_WRITE, ret, 0, 0);
	return 0;
}

/*
 * A cgroup file's value is made by cgroup_seqfile_show(), once per read of
 * it (not at the end of the file), for cgroup v1 and v2 alike.
 */
SEC("fexit/cgroup_seqfile_show")
int BPF_PROG(abidep_memcg1_read, struct seq_file *m, void *arg, int ret)
{
	const struct file *file = m->file;
	__u32 id;

	if (file->f_inode->i_sb->s_magic != CGROUP_SUPER_MAGIC)
		return 0;
	id = memcg1_special(file->f_path.dentry);
	if (id)
		record(id - 1, ABIDEP_OP_READ, ret, 0, 0);
	return 0;
}

/*
 * kprobe mode. The arguments are plain numbers to the verifier: read
 * through them with BPF_CORE_READ. The kprobe notes a watched call by
 * thread; its kretprobe counts it with the return value.
 */
static __always_inline void kp_pend(__u32 file_id, __u32 op, __u64 dir, __u64 ino)
{
	struct abidep_pending p = { .file_id = file_id, .op = op, .dir = dir, .ino = ino };
	__u64 tid = bpf_get_current_pid_tgid();

	bpf_map_update_elem(&pending, &tid, &p, BPF_ANY);
}

static __always_inline void kp_note(const struct file *file, __u64 ino, __u32 op)
{
	__u32 id;

	if (watched_ino(ino, &id))
		kp_pend(id, op, sweep_armed() ? kp_file_dir(file) : 0, ino);
}

/* The inode's number if it is a sysfs file's, else 0. */
static __always_inline __u64 kp_sysfs_ino(struct inode *inode)
{
	if (!inode || BPF_CORE_READ(inode, i_sb, s_magic) != SYSFS_MAGIC)
		return 0;
	return BPF_CORE_READ(inode, i_ino);
}

/* The call this thread noted, taken out of pending; false if none. */
static __always_inline bool kp_take(struct abidep_pending *out)
{
	__u64 tid = bpf_get_current_pid_tgid();
	struct abidep_pending *p;

	p = bpf_map_lookup_elem(&pending, &tid);
	if (!p)
		return false;
	*out = *p;
	bpf_map_delete_elem(&pending, &tid);
	return true;
}

/* A call on a cgroup v1 file, noted if the file is a watched special. */
static __always_inline void kp_memcg1_note(const struct file *file, __u32 op)
{
	__u32 id;

	if (BPF_CORE_READ(file, f_inode, i_sb, s_magic) != CGROUP_SUPER_MAGIC)
		return;
	id = memcg1_special(BPF_CORE_READ(file, f_path.dentry));
	if (id)
		kp_pend(id - 1, op, 0, 0);
}

/* @ret_zero: whether a return of 0 counts (not for a read, see above). */
static __always_inline void kp_exit(__u32 op, long ret, bool ret_zero)
{
	struct abidep_pending p;

	/* Not this call's (its return was missed): drop it. */
	if (!kp_take(&p) || p.op != op)
		return;
	if (ret || ret_zero)
		record(p.file_id, op, ret, p.dir, p.ino);
}

/* Opens on the way in, as with fentry: no kretprobe. */
SEC("kprobe/kernfs_fop_open")
int BPF_KPROBE(abidep_kp_open, struct inode *inode, struct file *file)
{
	__u64 ino = kp_sysfs_ino(inode);
	bool armed;
	__u32 id;

	if (!ino) {
		if (memcg1_on && inode)
			memcg1_access(BPF_CORE_READ(inode, i_sb, s_magic),
				      BPF_CORE_READ(file, f_path.dentry), ABIDEP_OP_OPEN, 0);
		return 0;
	}
	armed = sweep_armed();
	if (armed)
		sweep_open(ino, kp_file_dir(file));
	if (watched_ino(ino, &id))
		record(id, ABIDEP_OP_OPEN, 0, armed ? kp_file_dir(file) : 0, ino);
	return 0;
}

SEC("kprobe/kernfs_fop_readdir")
int BPF_KPROBE(abidep_kp_readdir, struct file *file, struct dir_context *dctx)
{
	__u64 ino = kp_sysfs_ino(BPF_CORE_READ(file, f_inode));

	if (ino)
		listed(ino, kp_file_dir(file), BPF_CORE_READ(dctx, pos));
	return 0;
}

static __always_inline void kp_seq_show(const struct seq_file *sf)
{
	const struct file *file = BPF_CORE_READ(sf, file);

	kp_note(file, BPF_CORE_READ(file, f_inode, i_ino), ABIDEP_OP_READ);
}

SEC("kprobe/sysfs_kf_seq_show")
int BPF_KPROBE(abidep_kp_read, struct seq_file *sf)
{
	kp_seq_show(sf);
	return 0;
}

SEC("kretprobe/sysfs_kf_seq_show")
int BPF_KRETPROBE(abidep_kr_read, int ret)
{
	kp_exit(ABIDEP_OP_READ, ret, true);
	return 0;
}

SEC("kprobe/sysfs_kf_alias_seq_show")
int BPF_KPROBE(abidep_kp_read_alias, struct seq_file *sf)
{
	kp_seq_show(sf);
	return 0;
}

SEC("kretprobe/sysfs_kf_alias_seq_show")
int BPF_KRETPROBE(abidep_kr_read_alias, int ret)
{
	kp_exit(ABIDEP_OP_READ, ret, true);
	return 0;
}

SEC("kprobe/sysfs_kf_read")
int BPF_KPROBE(abidep_kp_read_pre, struct kernfs_open_file *of)
{
	const struct file *file = BPF_CORE_READ(of, file);

	kp_note(file, BPF_CORE_READ(file, f_inode, i_ino), ABIDEP_OP_READ);
	return 0;
}

SEC("kretprobe/sysfs_kf_read")
int BPF_KRETPROBE(abidep_kr_read_pre, long ret)
{
	kp_exit(ABIDEP_OP_READ, ret, false);
	return 0;
}

SEC("kprobe/sysfs_kf_bin_read")
int BPF_KPROBE(abidep_kp_read_bin, struct kernfs_open_file *of)
{
	const struct file *file = BPF_CORE_READ(of, file);

	kp_note(file, BPF_CORE_READ(file, f_inode, i_ino), ABIDEP_OP_READ);
	return 0;
}

SEC("kretprobe/sysfs_kf_bin_read")
int BPF_KRETPROBE(abidep_kr_read_bin, long ret)
{
	kp_exit(ABIDEP_OP_READ, ret, false);
	return 0;
}

SEC("kprobe/kernfs_fop_write_iter")
int BPF_KPROBE(abidep_kp_write, struct kiocb *iocb)
{
	struct file *file = BPF_CORE_READ(iocb, ki_filp);
	struct inode *inode = BPF_CORE_READ(file, f_inode);
	__u64 ino = kp_sysfs_ino(inode);

	if (ino)
		kp_note(file, ino, ABIDEP_OP_WRITE);
	else if (memcg1_on && inode)
		kp_memcg1_note(file, ABIDEP_OP_WRITE);
	return 0;
}

SEC("kretprobe/kernfs_fop_write_iter")
int BPF_KRETPROBE(abidep_kr_write, long ret)
{
	kp_exit(ABIDEP_OP_WRITE, ret, true);
	return 0;
}

/* Specials in kprobe mode: as above, the kprobe noting, the kretprobe counting. */
SEC("kprobe/ndisc_ifinfo_sysctl_change")
int BPF_KPROBE(abidep_kp_neigh6, struct ctl_table *ctl, int write, void *buffer,
	       size_t *lenp)
{
	__u32 id = neigh6_special(BPF_CORE_READ(ctl, procname));

	/* lenp, for the return, where sysfs files keep their directory. */
	if (id)
		kp_pend(id - 1, write ? ABIDEP_OP_WRITE : ABIDEP_OP_READ, (__u64)lenp, 0);
	return 0;
}

SEC("kretprobe/ndisc_ifinfo_sysctl_change")
int BPF_KRETPROBE(abidep_kr_neigh6, int ret)
{
	struct abidep_pending p;

	if (kp_take(&p))
		sysctl_done(p.file_id + 1, p.op == ABIDEP_OP_WRITE, (size_t *)p.dir, ret);
	return 0;
}

SEC("kprobe/proc_sys_open")
int BPF_KPROBE(abidep_kp_sysctl_open, struct inode *inode, struct file *filp)
{
	__u32 id = neigh6_open_special(BPF_CORE_READ(filp, f_path.dentry));

	if (id)
		record(id - 1, ABIDEP_OP_OPEN, 0, 0, 0);
	return 0;
}

SEC("kretprobe/oom_adj_read")
int BPF_KRETPROBE(abidep_kr_oom_adj_read, long ret)
{
	__u32 id = special(ABIDEP_SP_OOM_ADJ);

	if (id && ret)
		record(id - 1, ABIDEP_OP_READ, ret, 0, 0);
	return 0;
}

SEC("kretprobe/oom_adj_write")
int BPF_KRETPROBE(abidep_kr_oom_adj_write, long ret)
{
	__u32 id = special(ABIDEP_SP_OOM_ADJ);

	if (id)
		record(id - 1, ABIDEP_OP_WRITE, ret, 0, 0);
	return 0;
}

SEC("kprobe/cgroup_seqfile_show")
int BPF_KPROBE(abidep_kp_memcg1_read, struct seq_file *m)
{
	kp_memcg1_note(BPF_CORE_READ(m, file), ABIDEP_OP_READ);
	return 0;
}

SEC("kretprobe/cgroup_seqfile_show")
int BPF_KRETPROBE(abidep_kr_memcg1_read, int ret)
{
	kp_exit(ABIDEP_OP_READ, ret, true);
	return 0;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
