// SPDX-License-Identifier: GPL-2.0
/* abidep survey: placeholder while it is being written (replace this file). */
#include <stdio.h>
#include "abidep.h"

int cmd_survey(int argc, char **argv)
{
	fprintf(stderr, "abidep survey: not built yet\n");
	return 2;
}
