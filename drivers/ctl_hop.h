/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/**
 * @file
 * Shared part of the hop drivers that talk to a pvpkit app (pvpkit-gen,
 * pvpkit-fwd) over its control channel: connection, stats.get mapped to
 * topology ports, stats.clear. Private to drivers/.
 */

#ifndef CTL_HOP_H
#define CTL_HOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "coord_driver.h"
#include "pvp_util.h"

/**
 * One item of a hop's "l3": the addresses one of the app's ports has on
 * a routed path, as its --addr gave them (doc/hop-members.rst).
 */
struct ctl_hop_l3 {
	char port[64];	   /**< the port, as in the hop's "ports" */
	uint32_t ip;	   /**< IPv4 address, host order */
	bool has_ip;	   /**< ip is given */
	uint32_t gw;	   /**< IPv4 gateway, host order */
	bool has_gw;	   /**< gw is given */
	char ip6[46];	   /**< IPv6 address, or "" */
	char gw6[46];	   /**< IPv6 gateway, or "" */
	unsigned int vlan; /**< 802.1Q VLAN id, 0: untagged */
};

/** State of one hop reached over lib/ctl (hop->priv). */
struct ctl_hop {
	char addr[256];		       /**< "ctl": "unix:/x.sock", "tcp:h:p" */
	char token_file[4096];	       /**< "token_file", or "" */
	char token[PVP_SECRET_SIZE];   /**< token, when token_file given */
	int has_token;		       /**< token[] is set */
	uint32_t timeout_ms;	       /**< per call */
	struct pvp_ctl_client *client; /**< NULL until connected */
	/**
	 * Connections made so far. A new one may reach a restarted app, so a
	 * driver that remembers what the app holds (gen: the loaded profile)
	 * compares this with the value it had then.
	 */
	unsigned int connects;
	unsigned int nb_l3;		       /**< items of "l3" */
	struct ctl_hop_l3 l3[COORD_MAX_PORTS]; /**< "l3": the ports' addresses */
	/** The driver's own state (malloc'd, freed by close), or NULL. */
	void *app;
};

/** The members of a hop reached over lib/ctl, for coord_driver::conf. */
#define CTL_HOP_MEMBERS                                                                            \
	{PVP_SCHEMA_NAMED("ctl", struct ctl_hop, addr, PVP_SCHEMA_STRING, 1, 255,                  \
			  "the app's control address: unix:PATH or tcp:HOST:PORT"),                \
	 .required = true},                                                                        \
		COORD_HOP_TIMEOUT_MEMBER(struct ctl_hop, timeout_ms),                              \
		{PVP_SCHEMA_MEMBER(struct ctl_hop, token_file, PVP_SCHEMA_STRING, 1, 4095,         \
				   "a private file holding the app's token")},                     \
		COORD_HOP_PORTS_MEMBER(0, "the app's ports: \"pN\" (its port N) or a port's name")

/** The item of CTL_HOP_L3_MEMBER. */
extern const struct pvp_schema_member ctl_hop_l3_item;

/** "l3": the addresses of the app's ports on a routed path (pvpkit-gen, pvpkit-fwd). */
#define CTL_HOP_L3_MEMBER                                                                          \
	{                                                                                          \
		.name = "l3", .type = PVP_SCHEMA_ARRAY, .max = COORD_MAX_PORTS,                    \
		.members = &ctl_hop_l3_item, PVP_SCHEMA_AT(struct ctl_hop, l3),                    \
		.count_offset = offsetof(struct ctl_hop, nb_l3),                                   \
		.help = "per port, the addresses the app was started with (--addr); gen "          \
			"checks them before traffic"                                               \
	}

/**
 * The app's index of port @p name: "pN" is its port N, another name of
 * the hop's ports its position there.
 * @return the index, or -1 for a name the hop does not have.
 */
int ctl_hop_app_port(const struct coord_hop *hop, const char *name);

/**
 * Check that the app has the addresses of the hop's "l3" and, where a
 * gateway is named, has resolved it: its stats.get answer @p stats, member
 * "neigh" (doc/control.rst).
 * @return 0, or -EINVAL with one line naming the hop, the port and what
 *   differs.
 */
int ctl_hop_check_l3(struct coord_hop *hop, const json_t *stats, char *err, size_t err_len);

/**
 * Decode the hop's topology object through @p members (the driver's
 * table: CTL_HOP_MEMBERS and what the driver adds) and connect.
 * Sets hop->priv.
 * @return 0 or -errno with @p err set.
 */
int ctl_hop_open(struct coord_hop *hop, const json_t *conf, const struct pvp_schema_member *members,
		 char *err, size_t err_len);

/** Close the connection and free hop->priv. */
void ctl_hop_close(struct coord_hop *hop);

/**
 * Call @p method; on a transport error reconnect once and retry, so an
 * app restarted between trials is found again. A hop that still does
 * not answer gives "hop NAME unreachable: ..." and an unreachable code
 * (coord_err_unreachable()).
 * @return 0 (with *result a new reference) or -errno with @p err set.
 */
int ctl_hop_call(struct coord_hop *hop, const char *method, json_t *params, json_t **result,
		 int timeout_ms, char *err, size_t err_len);

/**
 * Map a stats.get result onto the topology's ports: "pN" is the app's
 * port index N; any other name matches the app's port display name.
 * @return 0 or -errno with @p err set.
 */
int ctl_hop_map_stats(struct coord_hop *hop, const json_t *stats, struct coord_snap *snap,
		      char *err, size_t err_len);

/** coord_driver::snapshot for pvpkit apps. */
int ctl_hop_snapshot(struct coord_hop *hop, struct coord_snap *snap, char *err, size_t err_len);

/** coord_driver::clear for pvpkit apps (stats.clear). */
int ctl_hop_clear(struct coord_hop *hop, char *err, size_t err_len);

/** coord_driver::call for pvpkit apps: ctl_hop_call() with the hop's timeout. */
int ctl_hop_method(struct coord_hop *hop, const char *method, json_t *params, json_t **result,
		   char *err, size_t err_len);

/** coord_driver::context for pvpkit apps: the "info" answer. */
json_t *ctl_hop_context(struct coord_hop *hop);

#endif /* CTL_HOP_H */
