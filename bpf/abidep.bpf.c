// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * abidep usage tracer: who opens, reads and writes deprecated sysfs files.
 *
 * fexit on the kernfs file operations; a hash lookup of the file's inode
 * number (the kernfs node id) decides whether the file is watched, so an
 * unwatched access costs one lookup. Accesses are aggregated here, per
 * (file, op, uid, cgroup, executable); userspace hears of a key only when it
 * is new. The first user's details are kept in the map, so nothing is lost
 * when no daemon runs (pinned mode).
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "abidep.h"

#define EEXIST 17

/*
 * sysfs's superblock (kernel dev_t encoding), set by the tracer before load:
 * kernfs numbers its nodes per root, and cgroupfs files go through the same
 * kernfs operations.
 */
__u32 sysfs_dev;

/* Hash maps allocate on use: memory follows the files and users there are. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, ABIDEP_MAX_WATCHED);
	__type(key, __u64);
	__type(value, struct abidep_watch);
} watched SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, ABIDEP_MAX_USAGE);
	__type(key, struct abidep_usage_key);
	__type(value, struct abidep_usage);
} usage SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, ABIDEP_MAX_WATCHED);
	__type(key, __u32);
	__type(value, struct abidep_file);
} files SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, ABIDEP_NR_STATS);
	__type(key, __u32);
	__type(value, __u64);
} stats SEC(".maps");

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

static __always_inline void count(struct abidep_usage *u, long ret, __u64 now)
{
	__sync_fetch_and_add(&u->count, 1);
	if (ret < 0)
		__sync_fetch_and_add(&u->errors, 1);
	u->last_ns = now;
}

static __always_inline void record(struct inode *inode, __u32 op, long ret)
{
	struct abidep_usage_key key = {};
	struct abidep_usage *u;
	struct abidep_watch *w;
	struct task_struct *task;
	struct file *exe;
	__u64 ino, now;
	__u32 zero = 0;
	int err;

	/* The hot path: every sysfs (and cgroupfs) open and read passes here. */
	if (!inode || inode->i_sb->s_dev != sysfs_dev)
		return;
	ino = inode->i_ino;
	w = bpf_map_lookup_elem(&watched, &ino);
	if (!w)
		return;
	stat_inc(ABIDEP_STAT_HITS);

	task = bpf_get_current_task_btf();
	exe = task->mm ? task->mm->exe_file : NULL;
	key.file_id = w->file_id;
	key.op = op;
	key.uid = (__u32)bpf_get_current_uid_gid();
	key.cgroup_id = bpf_get_current_cgroup_id();
	if (exe) {
		key.exe_dev = exe->f_inode->i_sb->s_dev;
		key.exe_ino = exe->f_inode->i_ino;
	}
	now = bpf_ktime_get_boot_ns();

	u = bpf_map_lookup_elem(&usage, &key);
	if (u) {
		count(u, ret, now);
		return;
	}

	/* A new key: its first user's details, then tell userspace. */
	u = bpf_map_lookup_elem(&scratch, &zero);
	if (!u)
		return;
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
	err = bpf_map_update_elem(&usage, &key, u, BPF_NOEXIST);
	if (err == -EEXIST) {
		/* Another CPU added it meanwhile. */
		u = bpf_map_lookup_elem(&usage, &key);
		if (u)
			count(u, ret, now);
		return;
	}
	if (err) {
		stat_inc(ABIDEP_STAT_DROPPED);
		return;
	}
	if (bpf_ringbuf_output(&events, &key, sizeof(key), 0))
		stat_inc(ABIDEP_STAT_EVENTS_LOST);
}

SEC("fexit/kernfs_fop_open")
int BPF_PROG(abidep_open, struct inode *inode, struct file *file, int ret)
{
	record(inode, ABIDEP_OP_OPEN, ret);
	return 0;
}

/* A read that returns 0 is the end of the file, not a use of its value. */
SEC("fexit/kernfs_fop_read_iter")
int BPF_PROG(abidep_read, struct kiocb *iocb, struct iov_iter *iter, long ret)
{
	if (ret)
		record(iocb->ki_filp->f_inode, ABIDEP_OP_READ, ret);
	return 0;
}

SEC("fexit/kernfs_fop_write_iter")
int BPF_PROG(abidep_write, struct kiocb *iocb, struct iov_iter *iter, long ret)
{
	record(iocb->ki_filp->f_inode, ABIDEP_OP_WRITE, ret);
	return 0;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
