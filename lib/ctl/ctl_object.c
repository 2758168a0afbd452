/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The server object without its sockets or its requests: creating and
 * freeing it from its configuration, the method table (built-ins first)
 * and what the application registers, and the log, rate limited where
 * a client could flood it.
 */

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "ctl_private.h"

/* Built-ins, in the order "info" lists them. */
static const char *const ctl_builtins[] = {"auth", "info", "ping"};

void
ctl_log(const struct pvp_ctl_server *srv, int level, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (srv == NULL || srv->log_cb == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	srv->log_cb(level, msg, srv->log_arg);
}

void
ctl_log_limited(struct pvp_ctl_server *srv, int level, const char *fmt, ...)
{
	uint64_t now = pvp_now_ms();
	char msg[448];
	va_list ap;

	if (srv == NULL || srv->log_cb == NULL)
		return;
	/* An attack must not turn into a flood of log lines. */
	if (srv->warn_ms != 0 && now - srv->warn_ms < 1000) {
		srv->warn_quiet++;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (srv->warn_quiet > 0)
		ctl_log(srv, level, "%s (and %u more like it in the last second)", msg,
			srv->warn_quiet);
	else
		ctl_log(srv, level, "%s", msg);
	srv->warn_ms = now;
	srv->warn_quiet = 0;
}

const struct ctl_method *
ctl_find_method(const struct pvp_ctl_server *srv, const char *name)
{
	size_t i;

	for (i = 0; i < srv->n_methods; i++)
		if (strcmp(srv->methods[i].name, name) == 0)
			return &srv->methods[i];
	return NULL;
}

static int
ctl_add_method(struct pvp_ctl_server *srv, const char *name, pvp_ctl_method_cb cb, void *arg)
{
	struct ctl_method *m;
	char *copy;

	if (ctl_find_method(srv, name) != NULL)
		return -EEXIST;
	copy = strdup(name);
	if (copy == NULL)
		return -ENOMEM;
	m = realloc(srv->methods, (srv->n_methods + 1) * sizeof(*m));
	if (m == NULL) {
		free(copy);
		return -ENOMEM;
	}
	srv->methods = m;
	m[srv->n_methods++] = (struct ctl_method){copy, cb, arg};
	return 0;
}

struct pvp_ctl_server *
ctl_server_alloc(const struct pvp_ctl_server_conf *conf, char *err, size_t err_len)
{
	struct pvp_ctl_server *srv;
	size_t i;
	int ret;

	if (conf == NULL || conf->listen == NULL) {
		pvp_err(err, err_len, "no control address given");
		errno = EINVAL;
		return NULL;
	}
	srv = calloc(1, sizeof(*srv));
	if (srv == NULL) {
		pvp_err(err, err_len, "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	srv->lfd = srv->wake[0] = srv->wake[1] = -1;
	ret = ctl_addr_parse(conf->listen, &srv->addr, err, err_len);
	if (ret < 0)
		goto fail;
#define CTL_OR(v, d) ((v) != 0 ? (v) : (d))
	srv->max_request = CTL_OR(conf->max_request, CTL_DEFAULT_MAX_REQUEST);
	srv->max_clients = CTL_OR(conf->max_clients, CTL_DEFAULT_MAX_CLIENTS);
	srv->idle_timeout_s = CTL_OR(conf->idle_timeout_s, CTL_DEFAULT_IDLE_S);
	srv->auth_timeout_ms = CTL_OR(conf->auth_timeout_ms, CTL_DEFAULT_AUTH_MS);
	srv->line_timeout_ms = CTL_OR(conf->line_timeout_ms, CTL_DEFAULT_LINE_MS);
	srv->write_timeout_ms = CTL_OR(conf->write_timeout_ms, CTL_DEFAULT_WRITE_MS);
	srv->max_per_peer = CTL_OR(conf->max_per_peer, CTL_DEFAULT_MAX_PER_PEER);
	srv->max_batch = CTL_OR(conf->max_batch, CTL_DEFAULT_MAX_BATCH);
	srv->max_queued = CTL_OR(conf->max_queued, CTL_DEFAULT_MAX_QUEUED);
#undef CTL_OR
	if (conf->files_dir != NULL) {
		struct stat st;

		srv->files_dir = realpath(conf->files_dir, NULL);
		if (srv->files_dir == NULL || stat(srv->files_dir, &st) < 0 ||
		    !S_ISDIR(st.st_mode)) {
			ret = srv->files_dir == NULL ? -errno : -ENOTDIR;
			pvp_err(err, err_len, "files directory %s: %s", conf->files_dir,
				strerror(-ret));
			goto fail;
		}
	}
	srv->app_name = strdup(conf->app_name != NULL ? conf->app_name : "pvpkit");
	if (srv->app_name == NULL) {
		ret = pvp_fail(err, err_len, -ENOMEM, "out of memory");
		goto fail;
	}
	if (conf->token_file != NULL) {
		ret = pvp_secret_read(conf->token_file, srv->token, sizeof(srv->token), err,
				      err_len);
		if (ret < 0)
			goto fail;
		srv->token_len = strlen(srv->token);
		srv->need_token = true;
	}
	for (i = 0; i < sizeof(ctl_builtins) / sizeof(ctl_builtins[0]); i++) {
		ret = ctl_add_method(srv, ctl_builtins[i], NULL, NULL);
		if (ret < 0) {
			pvp_err(err, err_len, "out of memory");
			goto fail;
		}
	}
	return srv;

fail:
	ctl_server_free(srv);
	errno = -ret;
	return NULL;
}

void
ctl_server_free(struct pvp_ctl_server *srv)
{
	size_t i;

	if (srv == NULL)
		return;
	for (i = 0; i < srv->n_conns; i++) {
		ctl_conn_release(srv->conns[i]);
		free(srv->conns[i]);
	}
	free(srv->conns);
	for (i = 0; i < srv->n_methods; i++)
		free(srv->methods[i].name);
	free(srv->methods);
	free(srv->app_name);
	free(srv->files_dir);
	explicit_bzero(srv->token, sizeof(srv->token));
	free(srv);
}

int
pvp_ctl_server_register(struct pvp_ctl_server *srv, const char *method, pvp_ctl_method_cb cb,
			void *arg)
{
	if (srv == NULL || method == NULL || method[0] == '\0' || cb == NULL)
		return -EINVAL;
	/* The method table is read by the control thread without a lock. */
	if (srv->started)
		return -EBUSY;
	return ctl_add_method(srv, method, cb, arg);
}

void
pvp_ctl_server_set_info(struct pvp_ctl_server *srv, pvp_ctl_info_cb cb, void *arg)
{
	if (srv == NULL)
		return;
	srv->info_cb = cb;
	srv->info_arg = arg;
}

void
pvp_ctl_server_set_log(struct pvp_ctl_server *srv, pvp_ctl_log_cb cb, void *arg)
{
	if (srv == NULL)
		return;
	srv->log_cb = cb;
	srv->log_arg = arg;
}
