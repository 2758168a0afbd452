/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * pvpkit-opts-doc: the COMMON OPTIONS rows of doc/man/pvpkit.1 from the
 * shared options' table (coord_opts.c). The test opts-doc fails when the
 * man page says otherwise.
 */

#include <stdio.h>

#include "coord_opts.h"

int
main(void)
{
	coord_opts_doc(stdout);
	return fflush(stdout) == 0 ? 0 : 1;
}
