/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * TRex methods about the server and its ports: the API handshake,
 * version and system information, port status and attributes,
 * ownership. Captures: trex_capture.c; service mode, port addressing and
 * the RX features: trex_service.c.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_bus.h>
#include <rte_cycles.h>
#include <rte_dev.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_random.h>

#include "trex.h"

const char *
trex_state_name(enum trex_port_state s)
{
	switch (s) {
	case TREX_PORT_STREAMS:
		return "STREAMS";
	case TREX_PORT_TX:
		return "TX";
	case TREX_PORT_PAUSE:
		return "PAUSE";
	default:
		return "IDLE";
	}
}

/*
 * The client's API in @p o: "name" and "major"."minor" (api_sync_v2), or
 * with @p core, "type" "core" for ours (api_sync). Returns 0 when it is
 * ours, -EPROTONOSUPPORT when not, -EINVAL for a bad parameter.
 */
static int
trex_api_verify(json_t *o, bool core, char *err, size_t err_len)
{
	const char *name = trex_param_str(o, core ? "type" : "name", NULL, err, err_len);
	int64_t major, minor;

	if (name == NULL || trex_param_int(o, "major", 0, 0, &major, err, err_len) != 0 ||
	    trex_param_int(o, "minor", 0, 0, &minor, err, err_len) != 0)
		return -EINVAL;
	if (core && strcmp(name, "core") != 0)
		return pvp_fail(err, err_len, -EINVAL, "'type' must be 'core', got '%s'", name);
	if (!core && strcmp(name, TREX_API_NAME) != 0)
		return pvp_fail(err, err_len, -EPROTONOSUPPORT,
				"RPC configuration mismatch - server RPC configuration: '%s', "
				"client RPC configuration: '%s'",
				TREX_API_NAME, name);
	if (major < TREX_API_MAJOR)
		return pvp_fail(err, err_len, -EPROTONOSUPPORT,
				"RPC version mismatch: a newer client version is required "
				"(API type '%s': server %d.%d, client %" PRId64 ".%" PRId64 ")",
				TREX_API_NAME, TREX_API_MAJOR, TREX_API_MINOR, major, minor);
	if (major > TREX_API_MAJOR || minor > TREX_API_MINOR)
		return pvp_fail(err, err_len, -EPROTONOSUPPORT,
				"Version mismatch: your client version is too new to be "
				"supported by the server (API type '%s': server %d.%d, client "
				"%" PRId64 ".%" PRId64 ")",
				TREX_API_NAME, TREX_API_MAJOR, TREX_API_MINOR, major, minor);
	return 0;
}

int
trex_m_api_sync_v2(json_t *p, json_t **res, char *err, size_t err_len)
{
	int ret = trex_api_verify(p, false, err, err_len);

	if (ret != 0)
		return ret;
	*res = json_pack("{s:s}", "api_h", trex.api_h);
	return 0;
}

/* The first handshake (GUI clients): {"api_vers": [{"type": "core", "major", "minor"}]}. */
int
trex_m_api_sync(json_t *p, json_t **res, char *err, size_t err_len)
{
	json_t *vers = trex_param_array(p, "api_vers", err, err_len);
	int ret;

	if (vers == NULL)
		return -EINVAL;
	if (json_array_size(vers) != 1 || !json_is_object(json_array_get(vers, 0)))
		return pvp_fail(err, err_len, -EINVAL, "'api_vers' should be a list of size 1");
	ret = trex_api_verify(json_array_get(vers, 0), true, err, err_len);
	if (ret != 0)
		return ret;
	*res = json_pack("{s:[{s:s,s:s}]}", "api_vers", "type", "core", "api_h", trex.api_h);
	return 0;
}

int
trex_m_get_version(json_t *p, json_t **res, char *err, size_t err_len)
{
	*res = json_pack("{s:s,s:s,s:s,s:s,s:s}", "version", "pvpkit-gen " PVP_VERSION,
			 "build_date", __DATE__, "build_time", __TIME__, "built_by", "pvpkit",
			 "mode", TREX_API_NAME);
	return 0;
}

int
trex_m_ping(json_t *p, json_t **res, char *err, size_t err_len)
{
	*res = json_pack("{s:f}", "ts", pvp_realtime_s());
	return 0;
}

/* A vdev (net_ring, net_pcap, virtio-user, ...) rather than a device on a bus. */
static bool
trex_port_virtual(const struct rte_eth_dev_info *info)
{
	const struct rte_bus *bus = info->device != NULL ? rte_dev_bus(info->device) : NULL;

	return bus == NULL || strcmp(rte_bus_name(bus), "vdev") == 0;
}

int
trex_m_get_system_info(json_t *p, json_t **res, char *err, size_t err_len)
{
	struct gen_ctx *g = trex.g;
	char host[256] = "", cpu[128];
	json_t *ports = json_array();
	uint16_t i, t;

	gethostname(host, sizeof(host) - 1);
	pvp_cpu_model(cpu, sizeof(cpu));
	for (i = 0; i < g->nb_ports; i++) {
		const struct gen_port *gp = &g->port[i];
		struct rte_eth_dev_info info;
		char mac[RTE_ETHER_ADDR_FMT_SIZE];
		json_t *cores = json_array();

		memset(&info, 0, sizeof(info));
		rte_eth_dev_info_get(gp->eth_port, &info);
		rte_ether_format_addr(mac, sizeof(mac), &gp->mac);
		for (t = 0; t < g->nb_tx; t++)
			if (g->tx[t]->port == i)
				json_array_append_new(cores, json_integer(g->tx[t]->lcore));
		json_array_append_new(
			ports,
			json_pack("{s:i,s:s,s:s,s:i,s:s,s:s,s:s,s:{s:[sss],s:i},s:b,s:b,s:b,s:b,"
				  "s:b,s:b,s:b,s:[],s:o}",
				  "index", i, "driver",
				  info.driver_name != NULL ? info.driver_name : "unknown",
				  "pci_addr", gp->name, "numa", rte_eth_dev_socket_id(gp->eth_port),
				  "hw_mac", mac, "stack", "legacy", "description", gp->name, "rx",
				  "caps", "flow_stats", "latency", "rx_bytes", "counters",
				  GEN_MAX_STREAMS, "is_fc_supported", 0, "is_led_supported", 0,
				  "is_link_supported", 0, "is_prom_supported", 1,
				  "is_vxlan_supported", 0, "is_ieee1588_supported", 0, "is_virtual",
				  trex_port_virtual(&info), "supp_speeds", "cores", cores));
	}
	*res = json_pack("{s:s,s:I,s:i,s:i,s:s,s:b,s:b,s:i,s:o}", "hostname", host, "uptime",
			 (json_int_t)((rte_rdtsc() - trex.boot_tsc) / g->hz), "dp_core_count",
			 g->nb_tx, "dp_core_count_per_port", g->opt.tx_cores, "core_type",
			 cpu[0] != '\0' ? cpu : "unknown", "is_multiqueue_mode",
			 g->opt.tx_cores > 1, "advanced_per_stream_stats", 1, "port_count",
			 g->nb_ports, "ports", ports);
	return 0;
}

/* TRex's port attributes: link, speed, filters, layer config, VLANs. */
static json_t *
trex_port_attr(uint16_t port)
{
	const struct gen_port *gp = &trex.g->port[port];
	struct rte_eth_link link;
	bool filtered;
	json_t *attr;

	memset(&link, 0, sizeof(link));
	rte_eth_link_get_nowait(gp->eth_port, &link);
	attr = json_pack("{s:{s:b},s:{s:b},s:{s:b},s:f,s:s,s:[],s:{s:i}}", "promiscuous", "enabled",
			 trex.port[port].promisc, "multicast", "enabled", trex.port[port].allmulti,
			 "link", "up", link.link_status != 0, "speed", (double)gp->link_bps / 1e9,
			 "rx_filter_mode",
			 trex_service_on(port, &filtered) || filtered ? "all" : "hw", "vxlan_fs",
			 "fc", "mode", 0);
	trex_service_attr(port, attr);
	return attr;
}

int
trex_m_get_port_status(uint16_t port, json_t *p, json_t **res, char *err, size_t err_len)
{
	struct trex_port *tp = &trex.port[port];
	const char *state;
	uint32_t max_id = 0, i;
	bool service, filtered;

	/* A pushing port is TRex's PCAP_TX, which its client shows as such. */
	state = trex_push_active(port) ? "PCAP_TX" : trex_state_name(tp->state);
	for (i = 0; i < tp->nb_streams; i++)
		max_id = RTE_MAX(max_id, tp->streams[i]->id);
	service = trex_service_on(port, &filtered);
	*res = json_pack("{s:s,s:s,s:{s:s},s:b,s:b,s:i,s:I,s:o,s:{s:{s:b},s:o,s:{s:b},"
			 "s:{s:b},s:o,s:{s:b}}}",
			 "owner", tp->owned ? tp->owner : "", "state", state, "state_profile", "_",
			 state, "service", service, "service_filtered", filtered, "profile_count",
			 tp->nb_streams != 0, "max_stream_id", (json_int_t)max_id, "attr",
			 trex_port_attr(port), "rx_info", "latency", "is_active", 0, "queue",
			 trex_service_rx_queue(port), "stack", "is_active", 0, "grat_arp",
			 "is_active", 0, "capture_port", trex_capport_json(port), "capwap_proxy",
			 "is_active", 0);
	return 0;
}

int
trex_m_get_owner(uint16_t port, json_t *p, json_t **res, char *err, size_t err_len)
{
	*res = json_pack("{s:s}", "owner",
			 trex.port[port].owned ? trex.port[port].owner : "<FREE>");
	return 0;
}

int
trex_m_acquire(uint16_t port, json_t *p, json_t **res, char *err, size_t err_len)
{
	static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
	struct trex_port *tp;
	const char *user;
	uint64_t sid;
	bool force, used_force;
	uint16_t i;

	if ((user = trex_param_str(p, "user", NULL, err, err_len)) == NULL ||
	    trex_param_bool(p, "force", -1, &force, err, err_len) != 0 ||
	    trex_param_uint(p, "session_id", UINT32_MAX, -1, &sid, err, err_len) != 0)
		return -EINVAL;
	if (strlen(user) >= sizeof(tp->owner))
		return pvp_fail(err, err_len, -EINVAL, "'user' is longer than %zu characters",
				sizeof(tp->owner) - 1);
	tp = &trex.port[port];
	used_force = tp->owned && force;
	if (tp->owned && !force) {
		if (strcmp(tp->owner, user) != 0)
			return pvp_fail(err, err_len, -EPERM, "port is already taken by '%s'",
					tp->owner);
		if (tp->session_id != (uint32_t)sid)
			return pvp_fail(err, err_len, -EPERM,
					"port is already owned by another session of '%s'", user);
	} else {
		snprintf(tp->owner, sizeof(tp->owner), "%s", user);
		tp->session_id = (uint32_t)sid;
		for (i = 0; i < 8; i++)
			tp->handler[i] = abc[rte_rand_max(sizeof(abc) - 1)];
		tp->handler[8] = '\0';
		tp->owned = true;
	}
	/* The client's session is an owner's now (TRex's add_session_id). */
	trex_session_add((uint32_t)sid, false);
	trex_event(TREX_EV_PORT_ACQUIRED,
		   json_pack("{s:i,s:s,s:I,s:b}", "port_id", port, "who", user, "session_id",
			     (json_int_t)sid, "force", used_force));
	*res = json_string(tp->handler);
	return 0;
}

int
trex_m_release(uint16_t port, json_t *p, json_t **res, char *err, size_t err_len)
{
	struct trex_port *tp = &trex.port[port];
	json_t *ev;

	if (tp->state == TREX_PORT_TX || tp->state == TREX_PORT_PAUSE)
		return pvp_fail(err, err_len, -EBUSY,
				"cannot release a port that is active: stop traffic first");
	ev = json_pack("{s:i,s:s,s:I}", "port_id", port, "who", tp->owner, "session_id",
		       (json_int_t)tp->session_id);
	tp->owned = false;
	trex_event(TREX_EV_PORT_RELEASED, ev);
	return trex_ok(res);
}

/* Promiscuous or all-multicast on a port; virtual ports that filter nothing need none. */
static int
trex_port_filter(uint16_t port, bool allmulti, bool on, char *err, size_t err_len)
{
	static int (*const set[2][2])(uint16_t) = {
		{rte_eth_promiscuous_disable, rte_eth_promiscuous_enable},
		{rte_eth_allmulticast_disable, rte_eth_allmulticast_enable},
	};
	int ret = set[allmulti][on](trex.g->port[port].eth_port);

	/*
	 * vdevs such as net_ring, net_pcap and virtio-user over vhost-user
	 * have no MAC filter to switch: they already take every frame.
	 */
	if (ret == -ENOTSUP || ret == -ENOSYS)
		ret = 0;
	if (ret != 0)
		return pvp_fail(err, err_len, -EPERM,
				"Error applying %s attribute, return value: %d",
				allmulti ? "multicast" : "promiscuous", ret);
	*(allmulti ? &trex.port[port].allmulti : &trex.port[port].promisc) = on;
	return 0;
}

int
trex_m_set_port_attr(uint16_t port, json_t *p, json_t **res, char *err, size_t err_len)
{
	json_t *attr, *v;
	const char *name;
	bool on;
	int ret;

	attr = trex_param_obj(p, "attr", err, err_len);
	if (attr == NULL)
		return -EINVAL;
	/* All checked first: an error changes nothing. */
	json_object_foreach(attr, name, v) {
		if (strcmp(name, "promiscuous") != 0 && strcmp(name, "multicast") != 0)
			return pvp_fail(err, err_len, -EOPNOTSUPP,
					"attribute '%s' is not supported by pvpkit-gen (only "
					"promiscuous and multicast)",
					name);
		/* TRex's own words replace the parameter's: no message from it. */
		if (!json_is_object(v) || trex_param_bool(v, "enabled", -1, &on, NULL, 0) != 0)
			return pvp_fail(err, err_len, -EINVAL, "'%s' needs {\"enabled\": bool}",
					name);
	}
	json_object_foreach(attr, name, v) {
		trex_param_bool(v, "enabled", -1, &on, NULL, 0);
		ret = trex_port_filter(port, strcmp(name, "multicast") == 0, on, err, err_len);
		if (ret != 0)
			return ret;
	}
	return trex_ok(res);
}

/* pvpkit-gen counts its signature on every RX packet all the time: no filter to remove. */
int
trex_m_remove_rx_filters(uint16_t port, json_t *p, json_t **res, char *err, size_t err_len)
{
	return trex_ok(res);
}
