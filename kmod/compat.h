/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one place where abidep meets the differences between the kernels it
 * supports (scripts/kernels lists them; Documentation/admin-guide/kernels.rst says how
 * to add one). Everything else in kmod/ is written once for all of them.
 */
#ifndef _ABIDEP_COMPAT_H
#define _ABIDEP_COMPAT_H

#include <linux/fs.h>
#include <linux/mm_types.h>
#include <linux/rcupdate.h>
#include <linux/version.h>

/* The kernel built against is @major.@minor or later. */
#define ABIDEP_KERNEL_AT_LEAST(major, minor) \
	(KERNEL_VERSION(LINUX_VERSION_MAJOR, LINUX_VERSION_PATCHLEVEL, 0) >= \
	 KERNEL_VERSION(major, minor, 0))

#if !ABIDEP_KERNEL_AT_LEAST(6, 1) || ABIDEP_KERNEL_AT_LEAST(6, 13)
#error "abidep supports Linux 6.1 to 6.12; see Documentation/admin-guide/kernels.rst"
#else

/*
 * 6.10 made __assign_str() take the field only: it copies the source given
 * to __string(), so @src is only evaluated, for nothing, from then on.
 */
#if ABIDEP_KERNEL_AT_LEAST(6, 10)
#define abidep_assign_str(field, src)	\
	do { __assign_str(field); (void)(src); } while (0)
#else
#define abidep_assign_str(field, src)	__assign_str(field, src)
#endif

/*
 * 6.7 made struct file SLAB_TYPESAFE_BY_RCU: a file seen under RCU may be
 * freed and reused, so get_file_rcu() takes the pointer's address and
 * checks, after taking its reference, that it still points there.
 */
static inline struct file *abidep_exe_file_get_rcu(struct mm_struct *mm)
{
#if ABIDEP_KERNEL_AT_LEAST(6, 7)
	return get_file_rcu(&mm->exe_file);
#else
	struct file *exe = rcu_dereference(mm->exe_file);

	return exe && get_file_rcu(exe) ? exe : NULL;
#endif
}

/*
 * 6.4 dropped the class_interface argument of add_dev() and remove_dev();
 * class.c finds its binding from the device's class on every kernel, so the
 * callbacks differ only in their parameter lists.
 */
#if ABIDEP_KERNEL_AT_LEAST(6, 4)
#define ABIDEP_CLASS_INTF_PARAMS	struct device *dev
#else
#define ABIDEP_CLASS_INTF_PARAMS	struct device *dev, \
					struct class_interface *intf
#endif

#endif /* supported kernel */
#endif /* _ABIDEP_COMPAT_H */
