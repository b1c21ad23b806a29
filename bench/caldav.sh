#!/usr/bin/env bash
# caldav.sh: the same CalDAV workload against tend and Radicale (issue 36 §4).
#
#   bench/caldav.sh [-r ROUNDS] [-t TASKS] [-n REQUESTS] [-i INITIAL] [-o FILE]
#
# Builds tend from this checkout (cgo-free, as bench/ab.sh does) and the
# load generator bench/davload, then, ROUNDS times, each server in turn
# (tend first in odd rounds, Radicale first in even ones): a fresh tend
# database with TASKS tasks in one project seeded through the API, and a
# fresh Radicale 3.1 file storage (Debian's radicale; no authentication)
# with the same TASKS tasks written as its collection's files, its item
# cache then warmed by one untimed query. davload times INITIAL initial
# syncs (calendar-query of every VTODO with its data), REQUESTS empty and
# one-change sync-collection deltas, REQUESTS PUTs of one changed task and,
# on tend, as many API PATCHes of the same change, alternated with the PUTs.
# Prints p50/p99 per server, Radicale/tend ratios round by round, and the
# issue's targets. Exits non-zero if a build fails, a server does not start
# or any answer is not the expected one. Cleans up servers and temporary
# files on exit and on Ctrl-C.
set -euo pipefail

usage() {
	cat >&2 <<'USAGE'
usage: bench/caldav.sh [-r ROUNDS] [-t TASKS] [-n REQUESTS] [-i INITIAL] [-o FILE]
  -r ROUNDS    rounds, each server once a round, alternating which goes first (default 3)
  -t TASKS     tasks in the collection (default 10000)
  -n REQUESTS  requests per delta, PUT and PATCH load (default 200)
  -i INITIAL   initial syncs timed (default 5)
  -o FILE      also keep the raw measurements (JSON lines) in FILE
USAGE
	exit 2
}

rounds=3 tasks=10000 requests=200 initial=5 keep=""
while getopts 'r:t:n:i:o:h' opt; do
	case $opt in
	r) rounds=$OPTARG ;;
	t) tasks=$OPTARG ;;
	n) requests=$OPTARG ;;
	i) initial=$OPTARG ;;
	o) keep=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || usage
for v in "$rounds" "$tasks" "$requests" "$initial"; do
	[[ $v =~ ^[1-9][0-9]*$ ]] || { echo "caldav.sh: $v is not a positive whole number" >&2; usage; }
done

die() {
	echo "caldav.sh: $*" >&2
	exit 1
}

# tend runs with its defaults, whatever this shell's TEND_* variables say.
while read -r name; do
	unset "$name"
done < <(compgen -e | grep '^TEND_' || true)

command -v radicale >/dev/null || die "radicale is not installed (apt-get install -y radicale)"
command -v curl >/dev/null || die "curl is not installed"

repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
work=$(mktemp -d "${TMPDIR:-/tmp}/tend-caldav.XXXXXX")
server=""
cleanup() {
	stop_server
	if [ -n "$keep" ] && [ -s "$work/results.jsonl" ]; then
		cp "$work/results.jsonl" "$keep"
	fi
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

echo "building tend and bench/davload from $repo ($(git -C "$repo" rev-parse --short HEAD))" >&2
(cd "$repo" && CGO_ENABLED=0 go build -trimpath -o "$work/tend" . && CGO_ENABLED=0 go build -o "$work/davload" ./bench/davload) ||
	die "building failed"
results="$work/results.jsonl"
: >"$results"

# stop_server ends the running server: Radicale finishes the request it is
# in before it heeds SIGTERM, which after an interrupted 10,000-object
# report can take a minute, so it gets ten seconds, then SIGKILL.
stop_server() {
	[ -n "$server" ] || return 0
	kill "$server" 2>/dev/null || true
	for _ in $(seq 1 100); do
		kill -0 "$server" 2>/dev/null || break
		sleep 0.1
	done
	kill -KILL "$server" 2>/dev/null || true
	wait "$server" 2>/dev/null || true
	server=""
}

# drive NAME ROUND URL COLLECTION USER [ARGS...]: davload's timed workload.
drive() {
	local name=$1 round=$2 url=$3 col=$4 user=$5
	shift 5
	local status=0
	"$work/davload" run -server "$name" -round "$round" -url "$url" -col "$col" -user "$user" \
		-n "$requests" -initial "$initial" -out "$results" "$@" || status=$?
	stop_server
	[ "$status" -eq 130 ] && exit 130
	[ "$status" -eq 0 ] || die "the workload failed on $name in round $round"
}

run_tend() {
	local round=$1 dir="$work/tend-$1" addr="" token user
	mkdir -p "$dir"
	echo "round $round, tend (load$(uptime | sed "s/.*load average//"))" >&2
	"$work/tend" serve --db "$dir/tend.db" --addr 127.0.0.1:0 --timezone UTC >"$dir/stdout" 2>"$dir/stderr" &
	server=$!
	for _ in $(seq 1 300); do
		addr=$(sed -n 's/.*msg=serving addr=\([^ ]*\).*/\1/p' "$dir/stderr" 2>/dev/null | head -n 1) || true
		[ -n "$addr" ] && break
		kill -0 "$server" 2>/dev/null || break
		sleep 0.1
	done
	[ -n "$addr" ] || { cat "$dir/stderr" >&2; die "tend did not start"; }
	token=$(awk '/^API token for/ { found = 1; next } found && NF { print $1; exit }' "$dir/stdout")
	[ -n "$token" ] || die "tend printed no token"
	user=$(curl -fsS -H "Authorization: Bearer $token" "http://$addr/v1/me" | sed -n 's/.*"username":"\([^"]*\)".*/\1/p')
	[ -n "$user" ] || die "no user name from tend's /v1/me"
	TEND_AB_TOKEN=$token "$work/davload" seed-tend -url "http://$addr" -tasks "$tasks" || die "seeding tend failed"
	TEND_AB_TOKEN=$token drive tend "$round" "http://$addr" /dav/calendars/default.home/ "$user" -patch
}

run_radicale() {
	local round=$1 dir="$work/radicale-$1" port
	mkdir -p "$dir"
	echo "round $round, radicale $(radicale --version) (load$(uptime | sed "s/.*load average//"))" >&2
	"$work/davload" seed-files -dir "$dir/collections/collection-root/bench/home" -tasks "$tasks" || die "seeding Radicale failed"
	# Radicale takes no port 0: ask the kernel for a free one.
	port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	cat >"$dir/config" <<CONF
[server]
hosts = 127.0.0.1:$port
[auth]
type = none
[rights]
type = owner_only
[storage]
filesystem_folder = $dir/collections
[web]
type = none
[logging]
level = warning
CONF
	radicale --config "$dir/config" >"$dir/log" 2>&1 &
	server=$!
	local up=""
	for _ in $(seq 1 300); do
		if curl -fsS -o /dev/null -X OPTIONS "http://127.0.0.1:$port/" 2>/dev/null; then
			up=1
			break
		fi
		kill -0 "$server" 2>/dev/null || break
		sleep 0.1
	done
	[ -n "$up" ] || { cat "$dir/log" >&2; die "radicale did not start"; }
	TEND_AB_TOKEN=x drive radicale "$round" "http://127.0.0.1:$port" /bench/home/ bench
}

for round in $(seq 1 "$rounds"); do
	if [ $((round % 2)) -eq 1 ]; then
		run_tend "$round"
		run_radicale "$round"
	else
		run_radicale "$round"
		run_tend "$round"
	fi
done

echo >&2
echo "go: $(go version | cut -d' ' -f3-), $(radicale --version | sed 's/^/radicale /'), $(nproc) CPUs, $(date -u '+%Y-%m-%d %H:%M UTC'), load$(uptime | sed "s/.*load average//")"
"$work/davload" report "$results"
