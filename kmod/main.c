// SPDX-License-Identifier: GPL-2.0
/*
 * abidep: deprecation and migration of sysfs attribute names.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>

#include "abidep_internal.h"

unsigned int abidep_log_interval = 3600;
module_param_named(log_interval, abidep_log_interval, uint, 0644);
MODULE_PARM_DESC(log_interval,
		 "Seconds between two log lines for the same user of an entry (default 3600)");

static int __init abidep_init(void)
{
	int ret;

	ret = abidep_control_init();
	if (ret)
		return ret;
	abidep_state_init();
	ret = abidep_class_init();
	if (ret)
		goto err_state;
	ret = abidep_table_load(&abidep_builtin_table);
	if (ret)
		goto err_class;
	return 0;

err_class:
	abidep_class_exit();
err_state:
	abidep_state_exit();
	abidep_control_exit();
	return ret;
}

static void __exit abidep_exit(void)
{
	abidep_class_exit();
	abidep_table_unload(&abidep_builtin_table);
	abidep_state_exit();
	abidep_control_exit();
}

module_init(abidep_init);
module_exit(abidep_exit);

MODULE_DESCRIPTION("Deprecated sysfs attribute names as aliases, with their users logged");
MODULE_AUTHOR("The abidep developers");
MODULE_LICENSE("GPL");
