#!/usr/bin/env bash
# ab.sh: measure two revisions of tend side by side (issue 25).
#
#   bench/ab.sh [-r ROUNDS] [-t TASKS] [-n REQUESTS] [-o FILE] OLD_REV NEW_REV
#
# Builds both revisions (git archive, CGO_ENABLED=0 go build), then, ROUNDS
# times, old then new: starts the build on a fresh database on loopback,
# seeds TASKS tasks into one project through the API and runs every load of
# bench/load (REQUESTS requests each) over a keep-alive client, then stops
# it. Prints the table of req/s, p50/p99, the server's CPU a request (from
# /proc, where there is one) and new/old ratios, then each server's
# resident set once its loads ran (VmRSS, where there is /proc). The load
# generator is built from this checkout, so both sides are driven alike.
# Exits non-zero if a build fails, a server does not start, or any answer
# was not a 2xx (the table is printed first). Cleans up servers and
# temporary files on exit and on Ctrl-C.
set -euo pipefail

usage() {
	cat >&2 <<'EOF'
usage: bench/ab.sh [-r ROUNDS] [-t TASKS] [-n REQUESTS] [-o FILE] OLD_REV NEW_REV
  -r ROUNDS    rounds of old-then-new runs (default 2, at least 1)
  -t TASKS     tasks seeded into the large project on each fresh database (default 5000)
  -n REQUESTS  requests per load (default 2000)
  -o FILE      also keep the raw measurements (JSON lines) in FILE
EOF
	exit 2
}

rounds=2 tasks=5000 requests=2000 keep=""
while getopts 'r:t:n:o:h' opt; do
	case $opt in
	r) rounds=$OPTARG ;;
	t) tasks=$OPTARG ;;
	n) requests=$OPTARG ;;
	o) keep=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || usage
for v in "$rounds" "$tasks" "$requests"; do
	[[ $v =~ ^[1-9][0-9]*$ ]] || { echo "ab.sh: $v is not a positive whole number" >&2; usage; }
done

# Both sides run with their defaults: a TEND_* variable from this shell
# (log level or format, synchronous, ...) would change one side's work or
# hide the line that says where it listens.
while read -r name; do
	unset "$name"
done < <(compgen -e | grep '^TEND_' || true)

die() {
	echo "ab.sh: $*" >&2
	exit 1
}

repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
old=$(git -C "$repo" rev-parse --verify --quiet "$1^{commit}") || die "no such revision: $1"
new=$(git -C "$repo" rev-parse --verify --quiet "$2^{commit}") || die "no such revision: $2"

work=$(mktemp -d "${TMPDIR:-/tmp}/tend-ab.XXXXXX")
server=""
cleanup() {
	if [ -n "$server" ] && kill -0 "$server" 2>/dev/null; then
		kill "$server" 2>/dev/null || true
		wait "$server" 2>/dev/null || true
	fi
	if [ -n "$keep" ] && [ -s "$work/results.jsonl" ]; then
		cp "$work/results.jsonl" "$keep"
	fi
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# build REV OUT: the revision's tree, exactly as committed, built cgo-free.
build() {
	local rev=$1 out=$2 src="$work/src-$1"
	echo "building ${rev:0:10}" >&2
	mkdir -p "$src"
	git -C "$repo" archive "$rev" | tar -x -C "$src"
	if ! (cd "$src" && CGO_ENABLED=0 go build -trimpath -o "$out" .) >"$work/build.log" 2>&1; then
		cat "$work/build.log" >&2
		die "building ${rev:0:10} failed"
	fi
	rm -rf "$src"
}

build "$old" "$work/tend-old"
if [ "$new" = "$old" ]; then
	cp "$work/tend-old" "$work/tend-new"
else
	build "$new" "$work/tend-new"
fi
echo "building the load generator (bench/load in $repo)" >&2
(cd "$repo" && CGO_ENABLED=0 go build -o "$work/load" ./bench/load) || die "building bench/load failed"

results="$work/results.jsonl"
: >"$results"

# measure SIDE ROUND: one fresh server of that side's build, seeded and loaded.
measure() {
	local side=$1 round=$2 rev dir addr="" token
	[ "$side" = old ] && rev=$old || rev=$new
	dir="$work/$side-$round"
	[ -x "$work/tend-$side" ] || die "$work lost its files: something else removed them (set TMPDIR to a directory of your own)"
	mkdir -p "$dir"
	echo "round $round, $side (${rev:0:10})" >&2
	"$work/tend-$side" serve --db "$dir/tend.db" --addr 127.0.0.1:0 --timezone UTC >"$dir/stdout" 2>"$dir/stderr" &
	server=$!
	for _ in $(seq 1 300); do
		addr=$(sed -n 's/.*msg=serving addr=\([^ ]*\).*/\1/p' "$dir/stderr" 2>/dev/null | head -n 1) || true
		[ -n "$addr" ] && break
		kill -0 "$server" 2>/dev/null || break
		sleep 0.1
	done
	if [ -z "$addr" ]; then
		cat "$dir/stderr" >&2
		die "the $side server did not start"
	fi
	# The first start prints the administrator's token once on stdout; a
	# revision that does not is asked for one on the database file.
	token=$(awk '/^API token for/ { found = 1; next } found && NF { print $1; exit }' "$dir/stdout")
	if [ -z "$token" ]; then
		token=$("$work/tend-$side" --db "$dir/tend.db" token issue) || die "no token from the $side server"
	fi
	local status=0
	TEND_AB_TOKEN=$token "$work/load" run -url "http://$addr" -label "$side" -rev "${rev:0:10}" -round "$round" \
		-tasks "$tasks" -requests "$requests" -pid "$server" -out "$results" || status=$?
	# The server's resident set once every load ran (issue 39 §3), where
	# the system has /proc.
	if [ -r "/proc/$server/status" ]; then
		awk -v side="$side" -v round="$round" '/^(VmRSS|RssAnon|RssFile):/ { kb[$1] = $2 }
			END { printf "%s round %s: %.1f MB (anonymous %.1f, file %.1f)\n", side, round, kb["VmRSS:"] / 1024, kb["RssAnon:"] / 1024, kb["RssFile:"] / 1024 }' \
			"/proc/$server/status" >>"$work/rss.txt" || true
	fi
	kill "$server" 2>/dev/null || true
	wait "$server" || true
	server=""
	[ "$status" -eq 130 ] && exit 130
	if [ "$status" -ne 0 ]; then
		"$work/load" report "$results" || true
		grep -E 'level=(ERROR|WARN)' "$dir/stderr" | tail -n 5 >&2 || true
		die "a load failed on the $side build (${rev:0:10}); the table above shows what was measured"
	fi
}

for round in $(seq 1 "$rounds"); do
	measure old "$round"
	measure new "$round"
done

echo >&2
echo "go: $(go version | cut -d' ' -f3-), $(nproc) CPUs, $(date -u '+%Y-%m-%d %H:%M UTC')"
reported=0
"$work/load" report "$results" || reported=$?
if [ -s "$work/rss.txt" ]; then
	echo
	echo "server RSS after the loads:"
	cat "$work/rss.txt"
fi
exit "$reported"
