/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * pvpkit-opts-doc: the COMMON OPTIONS rows of doc/man/pvpkit.1 from the
 * shared options' table (cli_opts.c). The test opts-doc fails when the
 * man page says otherwise.
 */

#include <stdio.h>

#include "cli_opts.h"

int
main(void)
{
	cli_opts_doc(stdout);
	return fflush(stdout) == 0 ? 0 : 1;
}
