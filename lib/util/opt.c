/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The command-line skeleton pvpkit-gen, pvpkit-fwd and pvpkit share: the
 * split between the EAL's options and the app's, whole-number options
 * from one table each (parsed, range checked, stored), and the words for
 * what getopt_long() refused, so the same mistake reads alike in all
 * three.
 */

#include <errno.h>
#include <stdbool.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pvp_util.h"
#include "util_private.h"

/* The long option of @p longopts whose val is @p id, or NULL. */
static const struct option *
opt_find(const struct option *longopts, int id)
{
	for (; id != 0 && longopts != NULL && longopts->name != NULL; longopts++)
		if (longopts->flag == NULL && longopts->val == id)
			return longopts;
	return NULL;
}

void
pvp_opt_error(const struct option *longopts, int optopt_, const char *word, char *err,
	      size_t errlen)
{
	const struct option *o = opt_find(longopts, optopt_);
	char q[UTIL_QUOTE_LEN];

	/* A long option whose value is missing, or that got one it takes
	 * not: getopt_long() sets optopt to its val. */
	if (o != NULL) {
		/* "--quiet=1": a value for an option that takes none. */
		util_seterr(err, errlen, -EINVAL,
			    o->has_arg == no_argument ? "--%s takes no value"
						      : "--%s needs a value",
			    o->name);
		return;
	}
	if (optopt_ > 0 && optopt_ < 256 && optopt_ != '?') {
		util_seterr(err, errlen, -EINVAL, "unknown option '-%c'", optopt_);
		return;
	}
	for (o = longopts;
	     word != NULL && strncmp(word, "--", 2) == 0 && o != NULL && o->name != NULL; o++) {
		/* "--duration" for "--duration-sum": getopt_long() would
		 * take it; pvp_getopt() does not (see there). */
		if (word[2] == '\0' || strncmp(o->name, word + 2, strcspn(word + 2, "=")) != 0)
			continue;
		util_seterr(err, errlen, -EINVAL,
			    "unknown option '%s' (options are not abbreviated: --%s?)",
			    util_quote(word, q, sizeof(q)), o->name);
		return;
	}
	util_seterr(err, errlen, -EINVAL, "unknown option '%s'",
		    util_quote(word != NULL ? word : "", q, sizeof(q)));
}

int
pvp_getopt(int argc, char **argv, const struct option *longopts, int *longindex)
{
	bool apart;
	int c, li = -1;
	const char *word;

	c = getopt_long(argc, argv, "", longopts, &li);
	if (longindex != NULL)
		*longindex = li;
	if (c == -1 || c == '?' || li < 0)
		return c;
	/* The word the option came in: "--opt V" or "--opt=V". */
	apart = optarg != NULL && optarg == argv[optind - 1];
	word = argv[optind - (apart ? 2 : 1)];
	if (strlen(longopts[li].name) == strcspn(word + 2, "="))
		return c;
	/*
	 * An abbreviation. A measurement script that says "--duration"
	 * where the command has only "--duration-sum" would run with a
	 * setting it did not ask for, and one that works today would mean
	 * something else once an option is added. Point optind back at the
	 * word, so that argv[optind - 1] is what the caller names.
	 */
	if (apart)
		optind--;
	optopt = 0;
	return '?';
}

int
pvp_num_opt_parse(const struct pvp_num_opt *table, size_t n, const struct option *longopts, int id,
		  const char *arg, void *conf, char *err, size_t errlen)
{
	const struct pvp_num_opt *t = NULL;
	const struct option *o = opt_find(longopts, id);
	char name[64];
	uint64_t v;
	size_t i;
	int ret;

	for (i = 0; i < n && t == NULL; i++)
		if (table[i].id == id)
			t = &table[i];
	if (t == NULL)
		return 0;
	snprintf(name, sizeof(name), "--%s", o != NULL ? o->name : "?");
	ret = pvp_parse_u64(name, arg, t->min, t->max, &v, err, errlen);
	if (ret < 0)
		return ret;
	util_put_uint((uint8_t *)conf + t->off, t->size, v);
	return 1;
}

int
pvp_args_split(int argc, char **argv, int *app_argc, char ***app_argv, bool *help)
{
	int i, eal_argc = argc;

	*help = false;
	*app_argv = calloc((size_t)argc + 1, sizeof(**app_argv));
	if (*app_argv == NULL)
		return -ENOMEM;
	(*app_argv)[0] = argv[0];
	*app_argc = 1;
	for (i = 1; i < argc; i++) {
		/* "prog --help": the app's usage, not the EAL's. */
		if (i == 1 && strcmp(argv[i], "--help") == 0) {
			*help = true;
			return 1;
		}
		if (strcmp(argv[i], "--") == 0) {
			eal_argc = i;
			for (i = i + 1; i < argc; i++)
				(*app_argv)[(*app_argc)++] = argv[i];
			break;
		}
	}
	return eal_argc;
}
