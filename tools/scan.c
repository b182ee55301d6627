// SPDX-License-Identifier: GPL-2.0
/* abidep scan: placeholder while it is being written (replace this file). */
#include <stdio.h>
#include "abidep.h"

int cmd_scan(int argc, char **argv)
{
	fprintf(stderr, "abidep scan: not built yet\n");
	return 2;
}
