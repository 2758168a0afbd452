/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * A lib/ctl server with a few toy methods, for doc/control.rst and for
 * the interoperability test with a client that is not ours (python).
 *
 * Usage: ctl_demo_server --listen ADDR [--token-file FILE]
 *                        [--max-request BYTES] [--seconds N]
 * Prints "listening on ADDR" once ready; stops on SIGINT/SIGTERM or
 * after N seconds (default 60).
 */

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "pvp_ctl.h"
#include "pvp_util.h"

static volatile sig_atomic_t quit;

static void
on_signal(int sig)
{
	quit = sig;
}

static int
m_echo(json_t *params, void *arg, json_t **result, char *err, size_t err_len)
{
	*result = params != NULL ? json_incref(params) : json_null();
	return 0;
}

static int
m_add(json_t *params, void *arg, json_t **result, char *err, size_t err_len)
{
	json_int_t a, b;

	if (json_unpack(params, "{s:I, s:I}", "a", &a, "b", &b) != 0) {
		pvp_err(err, err_len, "add: params must be {\"a\": integer, \"b\": integer}");
		return -EINVAL;
	}
	*result = json_integer(a + b);
	return 0;
}

static int
m_sleep(json_t *params, void *arg, json_t **result, char *err, size_t err_len)
{
	json_int_t ms;

	if (json_unpack(params, "{s:I}", "ms", &ms) != 0 || ms < 0 || ms > 10000) {
		pvp_err(err, err_len, "sleep: params must be {\"ms\": 0..10000}");
		return -EINVAL;
	}
	usleep((useconds_t)ms * 1000);
	*result = json_object();
	return 0;
}

static int
demo_info(json_t *info, void *arg)
{
	return json_object_set_new(info, "demo", json_true());
}

static void
demo_log(int level, const char *msg, void *arg)
{
	fprintf(stderr, "[%d] %s\n", level, msg);
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{"listen", required_argument, NULL, 'l'},
		{"token-file", required_argument, NULL, 't'},
		{"max-request", required_argument, NULL, 'm'},
		{"seconds", required_argument, NULL, 's'},
		{NULL, 0, NULL, 0},
	};
	struct pvp_ctl_server_conf conf = {.app_name = "ctl-demo"};
	struct pvp_ctl_server *srv;
	char err[PVP_CTL_ERR_LEN] = "";
	int opt, seconds = 60, i;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'l':
			conf.listen = optarg;
			break;
		case 't':
			conf.token_file = optarg;
			break;
		case 'm':
			conf.max_request = strtoul(optarg, NULL, 0);
			break;
		case 's':
			seconds = atoi(optarg);
			break;
		default:
			fprintf(stderr,
				"usage: %s --listen ADDR [--token-file FILE] "
				"[--max-request BYTES] [--seconds N]\n",
				argv[0]);
			return 2;
		}
	}
	srv = pvp_ctl_server_create(&conf, err, sizeof(err));
	if (srv == NULL) {
		fprintf(stderr, "ctl_demo_server: %s\n", err);
		return 1;
	}
	pvp_ctl_server_set_log(srv, demo_log, NULL);
	pvp_ctl_server_set_info(srv, demo_info, NULL);
	if (pvp_ctl_server_register(srv, "echo", m_echo, NULL) != 0 ||
	    pvp_ctl_server_register(srv, "add", m_add, NULL) != 0 ||
	    pvp_ctl_server_register(srv, "sleep", m_sleep, NULL) != 0 ||
	    pvp_ctl_server_start(srv) != 0) {
		fprintf(stderr, "ctl_demo_server: cannot start\n");
		pvp_ctl_server_destroy(srv);
		return 1;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	printf("listening on %s\n", pvp_ctl_server_address(srv));
	fflush(stdout);
	for (i = 0; i < seconds * 10 && !quit; i++)
		usleep(100000);
	pvp_ctl_server_destroy(srv);
	return 0;
}
