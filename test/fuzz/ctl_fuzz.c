/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Fuzz target for the control channel: the bytes a client may send go
 * through the same line splitter, size limit, auth check and JSON-RPC
 * dispatcher the server thread runs, minus the sockets. Every answer must
 * be one line of valid JSON-RPC 2.0; anything else aborts.
 *
 * Built two ways: with libFuzzer (clang -fsanitize=fuzzer) as ctl_fuzz,
 * and with ctl_replay.c as a deterministic test over test/fuzz/corpus
 * plus generated nasty inputs, with any compiler.
 */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "ctl_private.h"
#include "ctl_fuzz.h"

static int
f_echo(json_t *params, void *arg, json_t **result, char *err, size_t err_len)
{
	*result = params != NULL ? json_incref(params) : json_null();
	return 0;
}

static int
f_add(json_t *params, void *arg, json_t **result, char *err, size_t err_len)
{
	json_int_t a, b;

	if (json_unpack(params, "[II]", &a, &b) != 0) {
		pvp_err(err, err_len, "add: want [int, int]");
		return -EINVAL;
	}
	/* Wrap like the CPU would, without signed overflow. */
	*result = json_integer((json_int_t)((uint64_t)a + (uint64_t)b));
	return 0;
}

static int
f_fail(json_t *params, void *arg, json_t **result, char *err, size_t err_len)
{
	/* "Success" without a result: the server must still answer. */
	return 0;
}

static int
f_code(json_t *params, void *arg, json_t **result, char *err, size_t err_len)
{
	json_int_t code = 0;

	json_unpack(params, "[I]", &code);
	pvp_err(err, err_len, "code %lld", (long long)code);
	/* Any -errno (and anything else) must come out as one of the table's codes. */
	return code < 0 && code >= INT32_MIN ? (int)code : -EIO;
}

static int
f_info(json_t *info, void *arg)
{
	return json_object_set_new(info, "fuzz", json_true());
}

/* Configurations every input runs under: token or not, limit small or not. */
#define N_CONF 4
static struct pvp_ctl_server *servers[N_CONF];

static struct pvp_ctl_server *
fuzz_server(int i)
{
	struct pvp_ctl_server_conf conf = {
		.listen = "unix:/nonexistent/ctl-fuzz.sock", /* never bound */
		.app_name = "ctl-fuzz",
		.max_request = (i & 2) ? 64 : 0,
	};
	struct pvp_ctl_server *srv;

	if (servers[i] != NULL)
		return servers[i];
	srv = ctl_server_alloc(&conf, NULL, 0);
	if (srv == NULL)
		abort();
	if (i & 1) {
		/* What a token file would give, without a file. */
		strcpy(srv->token, CTL_FUZZ_TOKEN);
		srv->token_len = strlen(CTL_FUZZ_TOKEN);
		srv->need_token = true;
	}
	if (pvp_ctl_server_register(srv, "echo", f_echo, NULL) != 0 ||
	    pvp_ctl_server_register(srv, "add", f_add, NULL) != 0 ||
	    pvp_ctl_server_register(srv, "fail", f_fail, NULL) != 0 ||
	    pvp_ctl_server_register(srv, "code", f_code, NULL) != 0)
		abort();
	pvp_ctl_server_set_info(srv, f_info, NULL);
	servers[i] = srv;
	return srv;
}

static void
check_response(const json_t *r)
{
	const json_t *ver = json_object_get(r, "jsonrpc");
	const json_t *id = json_object_get(r, "id");
	const json_t *e = json_object_get(r, "error");

	if (!json_is_object(r) || !json_is_string(ver) ||
	    strcmp(json_string_value(ver), "2.0") != 0)
		abort();
	if (id == NULL || !(json_is_null(id) || json_is_string(id) || json_is_number(id)))
		abort();
	if ((e != NULL) == (json_object_get(r, "result") != NULL))
		abort();
	if (e != NULL && (!json_is_integer(json_object_get(e, "code")) ||
			  !json_is_string(json_object_get(e, "message"))))
		abort();
}

/* Every line written must be a response or a non-empty batch of them. */
static void
check_output(const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len, *nl;
	json_error_t jerr;
	json_t *j;
	size_t i;

	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			abort(); /* answers always end with a newline */
		j = json_loadb(p, (size_t)(nl - p), 0, &jerr);
		if (j == NULL) {
			fprintf(stderr, "invalid answer: %.*s\n", (int)(nl - p), p);
			abort();
		}
		if (json_is_array(j)) {
			if (json_array_size(j) == 0)
				abort();
			for (i = 0; i < json_array_size(j); i++)
				check_response(json_array_get(j, i));
		} else {
			check_response(j);
		}
		json_decref(j);
		p = nl + 1;
	}
}

static void
run_one(struct pvp_ctl_server *srv, const uint8_t *data, size_t size, size_t split)
{
	struct ctl_conn c;
	size_t fed = 0, part;
	int rounds;

	ctl_conn_init(srv, &c, -1);
	/* Two writes, split where the input says: partial lines on the way. */
	while (fed < size && !c.closing) {
		part = fed == 0 && split > 0 && split < size ? split : size - fed;
		if (ctl_conn_received(&c, data + fed, part) != 0)
			abort();
		fed += part;
		/* As the server does: answer, let the client read, answer more. */
		for (rounds = 0; rounds < 1000; rounds++) {
			size_t before = c.rlen;

			if (ctl_conn_process(srv, &c) != 0)
				abort();
			if (c.wlen > c.woff)
				check_output(c.wbuf + c.woff, c.wlen - c.woff);
			c.woff = c.wlen = 0;
			if (c.closing || c.rlen == before)
				break;
		}
	}
	ctl_conn_release(&c);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t split = size > 0 ? data[0] % (size + 1) : 0;
	int i;

	for (i = 0; i < N_CONF; i++)
		run_one(fuzz_server(i), data, size, split);
	return 0;
}

void
ctl_fuzz_cleanup(void)
{
	int i;

	for (i = 0; i < N_CONF; i++) {
		ctl_server_free(servers[i]);
		servers[i] = NULL;
	}
}
