/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The words for a command line getopt_long() refused, the same in every
 * binary: an unknown option and a missing value read alike in
 * pvpkit-gen, pvpkit-fwd and pvpkit.
 */

#include <getopt.h>
#include <stdio.h>

#include "pvp_util.h"
#include "util_private.h"

void
pvp_opt_error(const struct option *longopts, int optopt_, const char *word, char *err,
	      size_t errlen)
{
	char q[UTIL_QUOTE_LEN];
	const struct option *o;

	/* A long option whose value is missing, or that got one it takes
	 * not: getopt_long() sets optopt to its val. */
	for (o = longopts; optopt_ != 0 && o != NULL && o->name != NULL; o++) {
		if (o->flag != NULL || o->val != optopt_)
			continue;
		/* "--quiet=1": a value for an option that takes none. */
		util_seterr(err, errlen,
			    o->has_arg == no_argument ? "--%s takes no value"
						      : "--%s needs a value",
			    o->name);
		return;
	}
	if (optopt_ > 0 && optopt_ < 256 && optopt_ != '?') {
		util_seterr(err, errlen, "unknown option '-%c'", optopt_);
		return;
	}
	util_seterr(err, errlen, "unknown option '%s'",
		    util_quote(word != NULL ? word : "", q, sizeof(q)));
}
