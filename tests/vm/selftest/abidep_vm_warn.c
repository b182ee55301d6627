// SPDX-License-Identifier: GPL-2.0
/*
 * Self-test helper for tests/vm/run: loading this module triggers one
 * deliberate kernel WARNING (harmless: the module then refuses to load), so
 * the runner's kernel-log check can be tested. Guest only, never on the host.
 */
#include <linux/bug.h>
#include <linux/errno.h>
#include <linux/module.h>

static int __init abidep_vm_warn_init(void)
{
	WARN(1, "abidep_vm_warn: deliberate warning for the tests/vm/run self-test\n");
	return -ECANCELED;
}
module_init(abidep_vm_warn_init);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("abidep tests/vm/run self-test: trigger a kernel WARNING");
