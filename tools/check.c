// SPDX-License-Identifier: GPL-2.0
/* abidep check: placeholder while it is being written (replace this file). */
#include <stdio.h>
#include "abidep.h"

int cmd_check(int argc, char **argv)
{
	fprintf(stderr, "abidep check: not built yet\n");
	return 2;
}
