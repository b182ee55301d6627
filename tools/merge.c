// SPDX-License-Identifier: GPL-2.0
/* abidep merge: placeholder while it is being written (replace this file). */
#include <stdio.h>
#include "abidep.h"

int cmd_merge(int argc, char **argv)
{
	fprintf(stderr, "abidep merge: not built yet\n");
	return 2;
}
