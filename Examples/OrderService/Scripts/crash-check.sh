#!/usr/bin/env bash
# The order service's crash check. Builds the example (debug), starts it on 127.0.0.1 with a data
# folder, places orders over HTTP, kills it with SIGKILL in the middle of a checkout, restarts it,
# and checks over HTTP that the checkout was settled, consistently in the order's lifecycle (a
# durable machine), the journal and the partners, and that GET /metrics counts it:
#
#   phase 1  a checkout killed while the payment provider answers is rolled back after the
#            restart (the order's recovery is `compensate`): refunded, stock released, cancelled;
#   phase 2  the same crash with `complete`: charged once, shipped, and the reminder sent;
#   phase 3  SIGTERM in the middle of a checkout whose last step fails: the graceful shutdown
#            waits until it rolled back (refund with the payment id the journal kept), and the
#            process exits 0;
#   phase 4  killed before an unpaid order's payment deadline: the restarted process's durable
#            timer cancels it, and the checkout, taken over later, rolls back;
#   phase 5  two processes on one database (PostgreSQL when Scripts/postgres-cluster.sh can start
#            one, else SQLite files in one folder), each SIGKILLed in the middle of checkouts, both
#            restarted: every order settles, the same in both, the lifecycle, the journal and the
#            partners agreeing.
#
# The kill lands mid-checkout because the payment provider answers PAYMENT_LATENCY seconds after
# it has charged: the script waits until the order shows the stock reserved and the payment
# taken, then kills. The restarted process takes the checkout over once the killed one's lease
# (LEASE seconds) expired: the lease, rather than `recover(takingOverFrom:)` with the dead
# process's owner id, because the checkout is queued work, which only a QueueWorker claims, and
# the lease is what keeps a live process's work safe without knowing who else runs.
#
#   Examples/OrderService/Scripts/crash-check.sh       # KEEP=1 keeps the data folders and the logs;
#                                                      # POSTGRES=0 runs phase 5 on SQLite files
#                                                      # SCRATCH_PATH=DIR builds in DIR (see "build")
set -euo pipefail
shopt -s inherit_errexit  # a failure inside $(…) stops the script too
cd "$(dirname "$0")/.."

LEASE=${LEASE:-2}
PAYMENT_LATENCY=${PAYMENT_LATENCY:-4}
SETTLE_TIMEOUT=60

started=$SECONDS
work=$(mktemp -d)
data="$work/data"
log="$work/server.log"
pid=""
port=""
pids=()     # every process started, killed at exit
pg_dir=""   # the PostgreSQL cluster of phase 5, if any

cleanup() {
    local started_pid
    for started_pid in "${pids[@]}"; do
        if kill -0 "$started_pid" 2>/dev/null; then kill -KILL "$started_pid" 2>/dev/null || true; fi
    done
    if [ -n "$pg_dir" ]; then ../../Scripts/postgres-cluster.sh stop "$pg_dir" || true; fi
    if [ "${KEEP:-}" = 1 ]; then echo "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

fail() {
    echo "crash-check: FAILED: $*" >&2
    local file
    for file in "$work"/*.log; do
        [ -s "$file" ] || continue
        echo "--- $(basename "$file"), last 30 lines ---" >&2
        tail -30 "$file" >&2
    done
    exit 1
}

step() { printf '\n-- %s\n' "$*"; }

for tool in curl jq; do
    if ! command -v "$tool" >/dev/null; then
        (apt-get update -qq && apt-get install -y -qq "$tool") >/dev/null 2>&1 || fail "$tool is needed"
    fi
done

step "build (debug)"
# SCRATCH_PATH=DIR builds in DIR: CI passes the repository's .build, where the package's own
# build already compiled the dependencies both share (SwiftNIO, PostgresNIO, BoringSSL, GRDB,
# Hummingbird), so that only BehaviorKit's modules (other traits) and the service compile again.
scratch=()
[ -n "${SCRATCH_PATH:-}" ] && scratch=(--scratch-path "$SCRATCH_PATH")
if ! swift build "${scratch[@]}" --product OrderService >"$work/build.txt" 2>&1; then
    tail -40 "$work/build.txt" >&2
    fail "the build failed"
fi
if grep -E "Sources/OrderService/.*warning:" "$work/build.txt" >&2; then fail "the build printed warnings"; fi
build_seconds=$((SECONDS - started))
binary="$(swift build "${scratch[@]}" --show-bin-path)/OrderService"
echo "built in ${build_seconds} s"

# launch LOG PORT-FILE OPTION…: starts a service process on a free port, logging to LOG, and
# waits until it answers; sets launched_pid and launched_port.
launch() {
    local process_log=$1 port_file=$2
    shift 2
    rm -f "$port_file"
    "$binary" --port 0 --port-file "$port_file" --lease "$LEASE" --payment-latency "$PAYMENT_LATENCY" \
        --reminder-delay 1 "$@" >>"$process_log" 2>&1 &
    launched_pid=$!
    pids+=("$launched_pid")
    local deadline=$((SECONDS + 30))
    while [ $SECONDS -lt $deadline ]; do
        kill -0 "$launched_pid" 2>/dev/null || fail "the server exited at start ($process_log)"
        if [ -s "$port_file" ]; then
            launched_port=$(cat "$port_file")
            if curl -sf --max-time 5 "http://127.0.0.1:$launched_port/health" >/dev/null; then return 0; fi
        fi
        sleep 0.1
    done
    fail "the server did not answer within 30 s ($process_log)"
}

# start_server OPTION…: starts the service on the data folder; it becomes the one `api` asks.
start_server() {
    launch "$log" "$data/server.port" --data "$data" "$@"
    pid=$launched_pid
    port=$launched_port
    echo "started process $pid on 127.0.0.1:$port${*:+ ($*)}"
}

kill_server() {
    kill -KILL "$pid"
    wait "$pid" 2>/dev/null || true
    pid=""
}

# stop_server: SIGTERM, then the server must exit 0 within 30 s and log its graceful stop.
stop_server() {
    local stopping=$SECONDS status=0 stops
    stops=$(grep -c "stopped gracefully" "$log" || true)
    kill -TERM "$pid"
    while kill -0 "$pid" 2>/dev/null; do
        [ $((SECONDS - stopping)) -lt 30 ] || fail "the server did not stop within 30 s of SIGTERM"
        sleep 0.1
    done
    wait "$pid" || status=$?
    pid=""
    [ "$status" = 0 ] || fail "the server exited with $status after SIGTERM"
    [ "$(grep -c "stopped gracefully" "$log")" -gt "$stops" ] || fail "the server did not log its graceful stop"
    echo "stopped gracefully (SIGTERM) in $((SECONDS - stopping)) s"
}

api() { curl -sS --max-time 10 "http://127.0.0.1:$port$1" "${@:2}"; }

get() { api "$1" --fail-with-body || fail "GET $1"; }

# place KEY BODY: POST /orders with an idempotency key; expects 202.
place() {
    local code
    code=$(api /orders -X POST -H 'Content-Type: application/json' -H "Idempotency-Key: $1" -d "$2" \
        -o "$work/placed.json" -w '%{http_code}') || fail "POST /orders"
    [ "$code" = 202 ] || fail "POST /orders answered $code: $(cat "$work/placed.json")"
    echo "placed order $1: $2"
}

# expect_status CODE WHAT CURL-ARGUMENT…: the request answers CODE.
expect_status() {
    local code
    code=$(api "${@:3}" -o "$work/answer.json" -w '%{http_code}') || fail "$2: no answer"
    [ "$code" = "$1" ] || fail "$2: answered $code, expected $1: $(cat "$work/answer.json")"
}

# wait_until SECONDS PATH CONDITION WHAT: polls GET PATH until the jq CONDITION holds; prints it.
wait_until() {
    local deadline=$((SECONDS + $1)) answer="" code="" body=""
    while [ $SECONDS -lt $deadline ]; do
        [ -z "$pid" ] || kill -0 "$pid" 2>/dev/null || fail "the server died while waiting for $4"
        answer=$(api "$2" -w '\n%{http_code}' 2>/dev/null || true)
        code=${answer##*$'\n'}
        body=${answer%$'\n'*}
        if [ "$code" = 200 ] && jq -e "$3" <<<"$body" >/dev/null 2>&1; then
            echo "$body"
            return 0
        fi
        sleep 0.1
    done
    fail "no $4 within $1 s; last answer ($code): $body"
}

# expect JSON CONDITION WHAT: fails with WHAT unless the jq CONDITION holds.
expect() {
    jq -e "$2" <<<"$1" >/dev/null || fail "$3: $(jq -c . <<<"$1")"
}

# expect_metric NAME{LABELS} VALUE: the value GET /metrics shows (0 when absent).
expect_metric() {
    local value
    value=$(get /metrics | awk -v name="$1" '$1 == name { value = $2 + 0; found = 1 } END { print found ? value : 0 }')
    [ "$value" = "$2" ] || fail "GET /metrics: $1 is $value, expected $2"
}

# kill_mid_checkout ORDER: waits until ORDER's checkout reserved the stock and the payment was
# taken (the provider has not answered yet), then kills the server with SIGKILL.
kill_mid_checkout() {
    local mid
    mid=$(wait_until 30 "/orders/$1" '.state == "paying" and .checkout.status == "pending"
        and ([.checkout.steps[] | select(.status == "done")] | length) == 1 and (.payments | length) == 1' \
        "checkout of $1 in the middle of its charge")
    killed_owner=$(jq -r .checkout.owner <<<"$mid")
    kill_server
    echo "killed with SIGKILL mid-checkout: state paying, stock reserved, payment $(jq -r '.payments[0].id' <<<"$mid") taken and not yet answered, checkout pending under $killed_owner"
    local listing="../../.build/debug/behaviorkit"
    if [ -x "$listing" ]; then
        "$listing" journal "$data/journal.sqlite" | grep -E " checkout-$1 " | tee "$work/listing.txt"
        grep -q " pending " "$work/listing.txt" || fail "the journal does not show the checkout of $1 pending"
    fi
}

# settled ORDER: waits until ORDER's checkout settled after the restart, taken over from the
# killed process; prints the order.
settled() {
    local order
    order=$(wait_until "$SETTLE_TIMEOUT" "/orders/$1" '.checkout.status != "pending"' "settled checkout of $1")
    expect "$order" ".checkout.attempts >= 2 and .checkout.owner != \"$killed_owner\"" \
        "the checkout of $1 was not taken over by the restarted process"
    echo "$order"
}

mug_stock() { get /products/mug | jq .stock; }
tee_stock() { get /products/tee | jq .stock; }

mkdir -p "$data"
phase_started=$SECONDS

step "phase 1: killed mid-checkout, recovery compensates"
start_server --checkout-recovery compensate
json=(-X POST -H 'Content-Type: application/json')
expect_status 422 "an unknown product" /orders "${json[@]}" -d '{"items": [{"sku": "nope", "quantity": 1}], "country": "DE"}'
expect_status 422 "a quantity of 0" /orders "${json[@]}" -d '{"items": [{"sku": "mug", "quantity": 0}], "country": "DE"}'
expect_status 422 "a country that is no code" /orders "${json[@]}" -d '{"items": [{"sku": "mug", "quantity": 1}], "country": "Germany"}'
expect_status 400 "a body that is no order" /orders "${json[@]}" -d '{"items": 3}'
expect_status 404 "an unknown order" /orders/nope
expect_status 404 "an unknown product" /products/nope
get /products/cap >/dev/null
[ "$(api /products/cap -D - -o /dev/null | tr -d '\r' | awk -F': ' 'tolower($1) == "x-lookup-tier" { print $2 }')" = memory ] ||
    fail "the product lookup did not answer from memory the second time"
[ "$(get /orders | jq length)" = 0 ] || fail "a refused request placed an order"
expect_metric 'product_lookups_total{tier="catalog"}' 1
expect_metric 'product_lookups_total{tier="memory"}' 1
echo "refused requests answer 400, 404 or 422 and place nothing; a product read twice comes from memory"
mugs=$(mug_stock)
place crash-1 '{"items": [{"sku": "mug", "quantity": 2}], "country": "DE"}'
expect_metric orders_placed_total 1
kill_mid_checkout crash-1
start_server --checkout-recovery complete  # crash-1's checkout keeps the recovery it was enqueued with
one=$(settled crash-1)
expect "$one" '.checkout.status == "compensated" and .state == "cancelled"' \
    "crash-1: the journal and the lifecycle do not both say compensated and cancelled"
expect "$one" '[.checkout.steps[] | .status] == ["compensated", "compensated"] and .shipment == null' \
    "crash-1: the reserve and the charge were not both undone, or a parcel left"
expect "$one" '(.payments | length) == 1 and .payments[0].refunded' "crash-1: the payment was not refunded"
[ "$(mug_stock)" = "$mugs" ] || fail "crash-1: the stock of mugs is $(mug_stock), not $mugs again"
expect_metric 'checkouts_total{outcome="compensated"}' 1
expect_metric 'order_transitions_total{to="cancelled"}' 1
expect_metric 'checkout_queue_records{outcome="taken_over"}' 1
expect_status 200 "the same order sent again after the restart" /orders "${json[@]}" -H 'Idempotency-Key: crash-1' \
    -d '{"items": [{"sku": "mug", "quantity": 2}], "country": "DE"}'
expect_status 409 "another order under the same key" /orders "${json[@]}" -H 'Idempotency-Key: crash-1' \
    -d '{"items": [{"sku": "mug", "quantity": 3}], "country": "DE"}'
[ "$(get /orders | jq length)" = 1 ] || fail "a retried request placed another order"
expect_metric 'orders{state="cancelled"}' 1
echo "crash-1 compensated by $(jq -r .checkout.owner <<<"$one"): payment $(jq -r '.payments[0].id' <<<"$one") refunded, stock released, order cancelled; /metrics counts it"
phase1=$((SECONDS - phase_started))

phase_started=$SECONDS
step "phase 2: killed mid-checkout, recovery completes"
tees=$(tee_stock)
place crash-2 '{"items": [{"sku": "tee", "quantity": 1}], "country": "FR"}'
kill_mid_checkout crash-2
start_server --checkout-recovery complete
two=$(settled crash-2)
expect "$two" '.checkout.status == "done" and .state == "shipped"' \
    "crash-2: the journal and the lifecycle do not both say done and shipped"
expect "$two" '(.payments | length) == 1 and (.payments[0].refunded | not) and .paymentID == .payments[0].id' \
    "crash-2: not charged exactly once, or the lifecycle names another payment"
expect "$two" '.shipment.invoice == .paymentID and .tracking == .shipment.tracking' \
    "crash-2: the parcel does not carry the payment the charge step returned"
[ "$(tee_stock)" = "$((tees - 1))" ] || fail "crash-2: the stock of tees is $(tee_stock), expected $((tees - 1))"
wait_until 30 /orders/crash-2 '.reminders == 1' "reminder for crash-2 (a delayed command on the durable queue)" >/dev/null
expect_metric 'checkouts_total{outcome="completed"}' 1
expect_metric 'orders{state="shipped"}' 1
expect_metric 'orders{state="cancelled"}' 1  # crash-1, in the store since phase 1
echo "crash-2 completed by $(jq -r .checkout.owner <<<"$two"): charged once ($(jq -r .paymentID <<<"$two")), shipped $(jq -r .tracking <<<"$two"), reminder sent; /metrics counts it"
phase2=$((SECONDS - phase_started))

phase_started=$SECONDS
step "phase 3: SIGTERM mid-checkout: the checkout settles before the process exits"
place rollback-3 '{"items": [{"sku": "mug", "quantity": 1}], "country": "AQ"}'
wait_until 30 /orders/rollback-3 '.state == "paying" and (.payments | length) == 1' \
    "checkout of rollback-3 in the middle of its charge" >/dev/null
stop_server
start_server --checkout-recovery complete
three=$(get /orders/rollback-3)
expect "$three" '.checkout.status == "compensated" and .checkout.attempts == 1 and .state == "cancelled"' \
    "rollback-3: not compensated by the process that was stopped, or the lifecycle missed it"
expect "$three" '.checkout.steps[2].status == "failed" and (.checkout.steps[2].failureReason | contains("AQ"))' \
    "rollback-3: the journal does not name the failed shipping"
expect "$three" '(.payments | length) == 1 and .payments[0].refunded' "rollback-3: the payment was not refunded"
grep -q 'from=journal order=rollback-3' "$log" || fail "rollback-3: the refund did not get the payment id from the journal"
echo "rollback-3 settled during the graceful shutdown: $(jq -r '.checkout.steps[2].failureReason' <<<"$three"); payment $(jq -r '.payments[0].id' <<<"$three") refunded with the id the journal kept, order cancelled"
stop_server
phase3=$((SECONDS - phase_started))

phase_started=$SECONDS
step "phase 4: killed before an unpaid order's payment deadline: the restarted process's durable timer cancels it"
DEADLINE=5
DEADLINE_LEASE=12  # longer than the deadline: the timer fires while the killed process still holds the checkout
start_server --lease "$DEADLINE_LEASE" --payment-deadline "$DEADLINE"
mugs=$(mug_stock)
place deadline-4 '{"items": [{"sku": "mug", "quantity": 1}], "country": "DE"}'
kill_mid_checkout deadline-4
start_server
four=$(wait_until 20 /orders/deadline-4 '.state == "cancelled"' "cancellation of deadline-4 at its payment deadline")
expect "$four" '.history[-1] | startswith("timer ")' "deadline-4: not cancelled by its payment deadline's timer"
expect "$four" ".checkout.status == \"pending\" and .checkout.owner == \"$killed_owner\"" \
    "deadline-4: cancelled only after its checkout was taken over"
expect_metric 'behaviorkit_machine_steps_total{machine="order",trigger="timer",outcome="transitioned"}' 1
echo "deadline-4 cancelled at its ${DEADLINE} s deadline by the restarted process's timer ($(jq -r '.history[-1]' <<<"$four")), its checkout still held by the killed process"
four=$(settled deadline-4)
expect "$four" '.checkout.status == "compensated" and .state == "cancelled"' \
    "deadline-4: the checkout taken over after the deadline was not compensated"
expect "$four" '(.payments | length) == 1 and .payments[0].refunded and .shipment == null' \
    "deadline-4: the payment was not refunded, or a parcel left"
[ "$(mug_stock)" = "$mugs" ] || fail "deadline-4: the stock of mugs is $(mug_stock), not $mugs again"
echo "deadline-4's checkout taken over after the ${DEADLINE_LEASE} s lease and rolled back: payment $(jq -r '.payments[0].id' <<<"$four") refunded, stock released"
stop_server
phase4=$((SECONDS - phase_started))

phase_started=$SECONDS
shared="$work/shared"
mkdir -p "$shared"
database=()
store="SQLite files in one folder"
pg_candidate=$(mktemp -d /tmp/pg-XXXXXX)
if [ "${POSTGRES:-1}" != 0 ] &&
    url=$(../../Scripts/postgres-cluster.sh start "$pg_candidate" orderservice 2>"$work/postgres.txt"); then
    pg_dir=$pg_candidate
    database=(--database "$url")
    store="PostgreSQL"
else
    rm -rf "$pg_candidate"
    echo "(no PostgreSQL cluster: $(tail -1 "$work/postgres.txt" 2>/dev/null || echo POSTGRES=0); the two processes share SQLite files)"
fi
step "phase 5: two processes on $store, each SIGKILLed mid-checkout, both restarted"
declare -A member_pid member_port member_recovery=([a]=compensate [b]=complete)

# start_member NAME: starts process NAME (a or b) on the shared data folder and database.
start_member() {
    launch "$work/$1.log" "$shared/$1.port" --data "$shared" "${database[@]}" --payment-latency 2 \
        --checkout-recovery "${member_recovery[$1]}"
    member_pid[$1]=$launched_pid
    member_port[$1]=$launched_port
    echo "started $1: process $launched_pid on 127.0.0.1:$launched_port (recovery ${member_recovery[$1]})"
}

# use NAME: the helpers above (api, wait_until, kill_server, stop_server) act on process NAME.
use() {
    pid=${member_pid[$1]}
    port=${member_port[$1]}
    log="$work/$1.log"
}

start_member a
start_member b
use a
skus=(mug tee cap sticker)
declare -A stock_before
for sku in "${skus[@]}"; do stock_before[$sku]=$(get "/products/$sku" | jq .stock); done
shared_orders=()
# place_on NAME COUNT: places COUNT orders through process NAME.
place_on() {
    local i key
    use "$1"
    for ((i = 0; i < $2; i++)); do
        key="shared-$((${#shared_orders[@]} + 1))"
        country=DE
        [ ${#shared_orders[@]} = 3 ] && country=AQ
        place "$key" "{\"items\": [{\"sku\": \"${skus[$((${#shared_orders[@]} % 4))]}\", \"quantity\": $((${#shared_orders[@]} % 3 + 1))}], \"country\": \"$country\"}" >/dev/null
        shared_orders+=("$key")
    done
}
place_on a 4
place_on b 4
echo "placed ${shared_orders[*]} (4 through each process, shared-4 to AQ)"
# held_by OWNER: the orders whose checkout OWNER holds, unsettled (asked of the process `use` chose).
held_by() {
    local key
    for key in "${shared_orders[@]}"; do get "/orders/$key"; done |
        jq -rs --arg owner "$1" '[.[] | select(.checkout.status == "pending" and .checkout.owner == $owner) | .id] | join(" ")'
}
use a
owner_a=$(get /health | jq -r .owner)
wait_until 30 /orders/shared-1 '.state == "paying" and (.payments | length) == 1' "checkout of shared-1 mid-charge" >/dev/null
kill_server
use b
echo "killed a with SIGKILL while it held the checkouts of $(held_by "$owner_a"); b goes on, and takes them over once their ${LEASE} s leases expire"
sleep $((LEASE + 2))
place_on b 2
owner_b=$(get /health | jq -r .owner)
wait_until 30 /orders/shared-10 '.state == "paying" and (.payments | length) == 1' "checkout of shared-10 mid-charge" >/dev/null
held=$(held_by "$owner_b")
kill_server
echo "killed b with SIGKILL while it held the checkouts of $held (shared-9 and shared-10 placed just before)"
start_member a
start_member b
use a
for key in "${shared_orders[@]}"; do
    wait_until "$SETTLE_TIMEOUT" "/orders/$key" '.checkout.status != "pending" and (.state == "shipped" or .state == "cancelled")' \
        "settled checkout of $key" >/dev/null
done
from_a=$(for key in "${shared_orders[@]}"; do get "/orders/$key"; done | jq -s .)
use b
from_b=$(for key in "${shared_orders[@]}"; do get "/orders/$key"; done | jq -s .)
view='[.[] | {id, state, checkout: .checkout.status, paymentID, tracking}]'
[ "$(jq -c "$view" <<<"$from_a")" = "$(jq -c "$view" <<<"$from_b")" ] ||
    fail "a and b do not answer the same orders: $(jq -c "$view" <<<"$from_a") and $(jq -c "$view" <<<"$from_b")"
consistent='(.state == "shipped" and .checkout.status == "done" and (.payments | length) == 1
    and (.payments[0].refunded | not) and .paymentID == .payments[0].id and .shipment.invoice == .paymentID
    and (.shipment.recalled | not) and .tracking == .shipment.tracking)
  or (.state == "cancelled" and .checkout.status == "compensated" and all(.payments[]; .refunded)
    and (.shipment == null or .shipment.recalled))'
jq -e "all(.[]; $consistent)" <<<"$from_a" >/dev/null ||
    fail "orders the lifecycle, the journal and the partners disagree on: $(jq -c ".[] | select(($consistent) | not)
        | {id, state, checkout: .checkout.status, paymentID, payments, shipment}" <<<"$from_a")"
expect "$from_a" '.[3].state == "cancelled"' "shared-4, shipped to AQ, is not cancelled"
use a
for sku in "${skus[@]}"; do
    shipped=$(jq --arg sku "$sku" '[.[] | select(.state == "shipped") | .lines[] | select(.sku == $sku) | .quantity] | add // 0' <<<"$from_a")
    [ "$(get "/products/$sku" | jq .stock)" = "$((stock_before[$sku] - shipped))" ] ||
        fail "the stock of $sku is $(get "/products/$sku" | jq .stock), expected ${stock_before[$sku]} - $shipped shipped"
done
jq -r '.[] | "  \((.id + "  ")[:10]) \((.state + "  ")[:9])  checkout \(.checkout.status) after \(.checkout.attempts) attempt(s)"
    + "\(if .checkout.attempts > 1 then ", taken over by \(.checkout.owner)" else "" end)"' <<<"$from_a"
settled_summary=$(jq -r '"\([.[] | select(.state == "shipped")] | length) shipped, \([.[] | select(.state == "cancelled")] | length) cancelled, \([.[] | select(.checkout.attempts > 1)] | length) checkouts taken over"' <<<"$from_a")
echo "every order settled, the same in a and b: $settled_summary; payments, parcels and stock agree"
use a
stop_server
use b
stop_server
phase5=$((SECONDS - phase_started))

cat <<SUMMARY

crash-check passed in $((SECONDS - started)) s (build ${build_seconds} s; phases ${phase1} s, ${phase2} s, ${phase3} s, ${phase4} s, ${phase5} s)
  crash-1     SIGKILL mid-charge, restarted, taken over after the ${LEASE} s lease: compensated, refunded, cancelled
  crash-2     SIGKILL mid-charge, restarted, taken over: completed, charged once, shipped, reminder sent
  rollback-3  SIGTERM mid-charge: the shutdown waited for the checkout, whose shipping to AQ failed:
              compensated, refunded with the payment id from the journal, cancelled
  deadline-4  SIGKILL before its ${DEADLINE} s payment deadline: the restarted process's durable timer
              cancelled it; the checkout, taken over later, refunded and released the stock
  shared-*    two processes on $store, both SIGKILLed mid-checkout and restarted:
              $settled_summary; lifecycle, journal and partners agree
  /metrics counted each settlement in the process that settled it
SUMMARY
