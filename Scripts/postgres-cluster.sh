#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for CI and local runs: initdb into FOLDER, postgres listening only
# on a Unix socket in FOLDER (no TCP), a database named DATABASE. FOLDER must be reachable by
# the 'postgres' user when run as root: make it directly under /tmp (mktemp -d /tmp/pg-XXXXXX). As root, initdb and postgres run
# as the 'postgres' user (made by Debian's package), which refuses root.
#
#     Scripts/postgres-cluster.sh start FOLDER DATABASE   # prints the journal's URL
#     Scripts/postgres-cluster.sh check FOLDER DATABASE   # pg_amcheck: every table and index
#     Scripts/postgres-cluster.sh stop FOLDER
#     Scripts/postgres-cluster.sh bin                     # prints the folder of the server's binaries
#
# Faults, for testing that clients ride them out (each returns once the server accepts again):
#
#     Scripts/postgres-cluster.sh restart FOLDER                       # pg_ctl restart -m fast
#     Scripts/postgres-cluster.sh terminate-backends FOLDER DATABASE   # pg_terminate_backend of each; prints how many
#     Scripts/postgres-cluster.sh outage FOLDER SECONDS                # stopped (-m fast) for SECONDS, then started
#     Scripts/postgres-cluster.sh fault FOLDER DATABASE restart|terminate   # the two above, as fleet --restart-database runs them
set -euo pipefail
command=${1:?start, check, stop, restart, terminate-backends, outage, fault or bin}
if command -v initdb >/dev/null 2>&1; then
    bin=$(dirname "$(readlink -f "$(command -v initdb)")")
else
    bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
fi
[ -x "$bin/initdb" ] || { echo "postgres-cluster: no initdb found (install postgresql)" >&2; exit 1; }
if [ "$command" = bin ]; then
    echo "$bin"
    exit 0
fi
folder=${2:?the folder of the cluster}
as_owner=()
if [ "$(id -u)" = 0 ]; then as_owner=(runuser -u postgres --); fi

# The server's options: its socket in FOLDER, no TCP.
options="-k $folder -c listen_addresses='' -c max_connections=200"

case "$command" in
start)
    database=${3:?the name of the database}
    mkdir -p "$folder"
    [ "$(id -u)" = 0 ] && chown postgres "$folder"
    "${as_owner[@]}" "$bin/initdb" -D "$folder/data" -U postgres --auth=trust -E UTF8 >"$folder/initdb.log"
    "${as_owner[@]}" "$bin/pg_ctl" -D "$folder/data" -l "$folder/server.log" -w -o "$options" start >/dev/null
    "${as_owner[@]}" "$bin/createdb" -h "$folder" -U postgres "$database"
    echo "postgres://postgres@localhost/$database?host=$folder"
    ;;
check)
    database=${3:?the name of the database}
    "${as_owner[@]}" "$bin/pg_amcheck" -h "$folder" -U postgres -d "$database" --install-missing \
        --heapallindexed --rootdescend
    echo "pg_amcheck: $database is sound"
    ;;
fault)
    database=${3:?the name of the database}
    case "${4:?restart or terminate}" in
    restart) "$0" restart "$folder" >/dev/null ;;
    terminate) "$0" terminate-backends "$folder" "$database" >/dev/null ;;
    *)
        echo "usage: $0 fault FOLDER DATABASE restart|terminate" >&2
        exit 64
        ;;
    esac
    ;;
restart)
    "${as_owner[@]}" "$bin/pg_ctl" -D "$folder/data" -l "$folder/server.log" -m fast -w restart >/dev/null
    echo "restarted"
    ;;
terminate-backends)
    database=${3:?the name of the database}
    "${as_owner[@]}" "$bin/psql" -h "$folder" -U postgres -d postgres -XAtq -v ON_ERROR_STOP=1 -c \
        "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = '$database' AND pid <> pg_backend_pid()"
    ;;
outage)
    seconds=${3:?how many seconds the server stays stopped}
    "${as_owner[@]}" "$bin/pg_ctl" -D "$folder/data" -m fast -w stop >/dev/null
    sleep "$seconds"
    "${as_owner[@]}" "$bin/pg_ctl" -D "$folder/data" -l "$folder/server.log" -w -o "$options" start >/dev/null
    echo "back after a ${seconds} s outage"
    ;;
stop)
    "${as_owner[@]}" "$bin/pg_ctl" -D "$folder/data" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$folder"
    ;;
*)
    echo "usage: $0 start FOLDER DATABASE | check FOLDER DATABASE | stop FOLDER | restart FOLDER" \
        "| terminate-backends FOLDER DATABASE | outage FOLDER SECONDS | fault FOLDER DATABASE restart|terminate" >&2
    exit 64
    ;;
esac
