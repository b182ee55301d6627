// SPDX-License-Identifier: GPL-2.0
/* abidep brownout: placeholder while it is being written (replace this file). */
#include <stdio.h>
#include "abidep.h"

int cmd_brownout(int argc, char **argv)
{
	fprintf(stderr, "abidep brownout: not built yet\n");
	return 2;
}
