#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# The multi-host path on one box: testbed up --netns puts the tester and
# the guest each in a network namespace of its own, controlled over TCP
# (non-loopback addresses, so a token is required) with token files; OVSDB
# over TCP; ovs-ofctl/ovs-appctl through ssh to an sshd on localhost with
# a generated host key and client key. A trial and a short search run
# through that topology; a client without the token is refused; hostile
# topology values (host, user, port names with spaces, ';', $(...),
# quotes, a leading '-') are refused before anything runs, and a key
# path full of them is passed as data.
. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/e2e/testbed/tb_lib.sh"

tb_need_layout
need_cmd ip
need_cmd ssh-keygen
[ -x /usr/sbin/sshd ] || skip "needs /usr/sbin/sshd (apt-get install openssh-server)"
ip netns list >/dev/null 2>&1 || skip "no network namespaces here"
tb_down_on_exit

D=$PVP_TMP/ssh
mkdir -p "$D" "$PVP_TMP/bin" /run/sshd
ssh-keygen -q -t ed25519 -N '' -f "$D/host_key" || fail "ssh-keygen (host)"
ssh-keygen -q -t ed25519 -N '' -f "$D/id_ed25519" || fail "ssh-keygen (client)"
cp "$D/id_ed25519.pub" "$D/authorized_keys"
port=0
for p in $(seq $((22200 + $$ % 500)) $((22299 + $$ % 500))); do
	ss -ltn "sport = :$p" | grep -q LISTEN || { port=$p; break; }
done
[ "$port" != 0 ] || skip "no free TCP port for sshd"
cat >"$D/sshd_config" <<EOC
Port $port
ListenAddress 127.0.0.1
HostKey $D/host_key
PidFile $D/sshd.pid
AuthorizedKeysFile $D/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
EOC
/usr/sbin/sshd -D -e -f "$D/sshd_config" 2>"$D/sshd.log" &
pvp_track $!
echo "[127.0.0.1]:$port $(cut -d' ' -f1,2 "$D/host_key.pub")" >"$D/known_hosts"
cat >"$D/ssh_config" <<EOC
Host *
  UserKnownHostsFile $D/known_hosts
  GlobalKnownHostsFile /dev/null
  StrictHostKeyChecking yes
EOC
# The coordinator runs "ssh" from PATH: this one logs each call and uses
# the test's known_hosts (ssh reads ~/.ssh of the passwd entry, not $HOME).
cat >"$PVP_TMP/bin/ssh" <<EOC
#!/bin/sh
echo "\$*" >>"$D/calls.log"
exec /usr/bin/ssh -F "$D/ssh_config" "\$@"
EOC
chmod +x "$PVP_TMP/bin/ssh"
export PATH=$PVP_TMP/bin:$PATH
for _ in $(seq 50); do
	ssh -o BatchMode=yes -p "$port" -i "$D/id_ed25519" root@127.0.0.1 -- true 2>/dev/null && break
	sleep 0.2
done
ssh -o BatchMode=yes -p "$port" -i "$D/id_ed25519" root@127.0.0.1 -- true ||
	{ cat "$D/sshd.log"; skip "sshd on 127.0.0.1:$port does not let the test key in"; }

# The range the run dir's checksum proposes is taken, as another
# testbed's veth would take it (an address in a namespace of its own):
# up must choose another and record it, and status must reach the apps
# there.
sum=$(printf '%s' "$TB_DIR" | cksum | cut -d' ' -f1)
taken=$((sum % 200 + 20))
occ=pvpocc$$
ip netns add "$occ" || fail "ip netns add $occ"
trap '"$TB_SCRIPT" down -q --dir "$TB_DIR" >/dev/null 2>&1; ip netns del "$occ"; pvp_cleanup' EXIT
ip -n "$occ" link add occ0 type veth peer name occ1 &&
	ip -n "$occ" addr add "10.$taken.0.1/24" dev occ0 || fail "an address in $occ"

tb_up --netns
grep -qx "NS_NET=[0-9]*" "$TB_DIR/testbed.env" && ! grep -qx "NS_NET=$taken" "$TB_DIR/testbed.env" ||
	{ cat "$TB_DIR/testbed.env"; fail "up --netns took 10.$taken.0.0/16, in use in $occ"; }
tb status >"$PVP_TMP/status" || { cat "$PVP_TMP/status"; fail "status after up --netns"; }
grep -q "^gen: running (pid [0-9]*), control answers$" "$PVP_TMP/status" ||
	{ cat "$PVP_TMP/status"; fail "status: the tester's TCP control does not answer"; }
topo=$(cat "$TB_DIR/topology.json")
tb_check "$topo" 'j["hops"][0]["ctl"].startswith("tcp:10.") and j["hops"][0]["token_file"].endswith("/gen.token")' \
	"tester over TCP with a token"
tb_check "$topo" 'not j["hops"][0]["ctl"].startswith("tcp:10.'"$taken"'.")' "tester not in the range in use"
tb_check "$topo" 'j["hops"][2]["ctl"].startswith("tcp:10.") and j["hops"][2]["token_file"].endswith("/fwd.token")' \
	"guest over TCP with a token"
tb_check "$topo" 'j["hops"][1]["db"].startswith("tcp:127.0.0.1:")' "OVSDB over TCP"
gen_ctl=$("$PVP_PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["hops"][0]["ctl"][4:])' "$TB_DIR/topology.json")

info "the tester refuses a client without the token"
"$PVP_PY" - "$gen_ctl" <<'PY' || fail "a request without the token was answered"
import json, socket, sys
host, port = sys.argv[1].rsplit(":", 1)
s = socket.create_connection((host, int(port)), timeout=3)
s.sendall(b'{"jsonrpc": "2.0", "id": 1, "method": "stats.get"}\n')
r = json.loads(s.makefile().readline())
print("# without a token:", r.get("error"))
sys.exit(0 if r.get("error", {}).get("code") == -32001 else 1)
PY

info "the remote topology: ovs over ssh (key path full of shell syntax), gen and fwd over TCP"
key="$D/k ey;\$(touch pwned) 'q' \"d\""
cp "$D/id_ed25519" "$key"
chmod 600 "$key"
"$PVP_PY" - "$TB_DIR/topology.json" "$PVP_TMP/topo-remote.json" "$port" "$key" <<'PY' || fail "cannot write topo-remote.json"
import json, sys
t = json.load(open(sys.argv[1]))
t["name"] = "pvp-remote-local"
t["hops"][1]["ssh"] = {"host": "127.0.0.1", "user": "root", "key": sys.argv[4], "port": int(sys.argv[3])}
json.dump(t, open(sys.argv[2], "w"), indent=1)
PY
TB_TOPO=$PVP_TMP/topo-remote.json
tb_trial remote --size 64 --flows 4 --rate 5kpps --duration 2
tb_trial_assert remote 'ch[0][0]["packets"] >= 9000 and lost(ch[0]) == 0 and t["reconciled"]' \
	"loss through the remote topology at 5 kpps"
[ -s "$D/calls.log" ] || fail "the ovs driver never went through ssh"
info "ssh calls for one trial: $(wc -l <"$D/calls.log")"
[ ! -e "$D/pwned" ] && [ ! -e pwned ] && [ ! -e "$HOME/pwned" ] ||
	fail "the key path was run by a shell"

info "hostile values are refused before anything runs"
: >"$D/calls.log"
while IFS='|' read -r expr want; do
	"$PVP_PY" - "$PVP_TMP/topo-remote.json" "$PVP_TMP/hostile.json" "$expr" "$D/pwned" <<'PY' || fail "cannot write hostile.json"
import json, sys
t = json.load(open(sys.argv[1]))
pwned = sys.argv[4]
def port(new):
    # Rename the vswitch's phy0 everywhere, so that only the driver's own
    # check can refuse it.
    t["hops"][1]["ports"][0] = new
    for c in t["chains"]:
        for p in c:
            if p["hop"] == "vswitch" and p["port"] == "phy0":
                p["port"] = new
exec(sys.argv[3])
# The vswitch opened first: its refusal cannot hide behind another hop's.
t["hops"].insert(0, t["hops"].pop(1))
json.dump(t, open(sys.argv[2], "w"))
PY
	out=$("$PVP_COORD" trial --topology "$PVP_TMP/hostile.json" --rate 1kpps --duration 0.2 2>&1 </dev/null)
	rc=$?
	# 2 when the whole file is checked first, 1 when the hop's own
	# check refuses it at open: either way before any command runs.
	[ "$rc" = 1 ] || [ "$rc" = 2 ] || fail "$expr: exit $rc: $out"
	[ "$(echo "$out" | wc -l)" = 1 ] || fail "$expr: not one line: $out"
	echo "$out" | grep -qF -- "$want" || fail "$expr: '$out' does not say '$want'"
	[ ! -e "$D/pwned" ] || fail "$expr: a shell ran it"
done <<'EOC'
t["hops"][1]["ssh"]["host"] = "127.0.0.1;touch " + pwned|"ssh" needs a "host"
t["hops"][1]["ssh"]["host"] = "$(touch " + pwned + ")"|"ssh" needs a "host"
t["hops"][1]["ssh"]["host"] = "-oProxyCommand=touch " + pwned|"ssh" needs a "host"
t["hops"][1]["ssh"]["user"] = "$(touch " + pwned + ")"|bad "user"
t["hops"][1]["ssh"]["user"] = "-oProxyCommand"|bad "user"
t["hops"][1]["ssh"]["user"] = "ro'ot"|bad "user"
t["hops"][1]["ssh"]["key"] = "-oProxyCommand=touch " + pwned|bad "key"
t["hops"][1]["bridge"] = "br-pvp; touch " + pwned|not a bridge name
port("phy0 vhost0")|not an Interface name
port("$(touch " + pwned + ")")|not an Interface name
port("-phy0")|not an Interface name
port("phy0\"'")|not an Interface name
EOC
[ ! -s "$D/calls.log" ] || fail "ssh ran for a refused topology: $(cat "$D/calls.log")"

info "NDR search through the remote topology"
tb_search 20kpps 8
tb down -q
info "ok"
