#!/usr/bin/env bash
# The order service's crash check. Builds the example (debug), runs its tests, starts it on 127.0.0.1 with a data
# folder, places orders over HTTP, kills it with SIGKILL in the middle of a checkout, restarts it,
# and checks over HTTP that the checkout — one durable workflow per order — was settled,
# consistently in the order's lifecycle (a durable machine), the journal and the partners, and
# that GET /metrics counts it:
#
#   phase 1  killed while the checkout waits for the payment confirmation: the restarted process
#            finishes the run from its last finished step (each step once): charged once, shipped,
#            the reminder sent; the same order sent again answers the same order;
#   phase 1b killed inside the charge step, which holds the run: another worker takes it up once
#            the lease expired and runs the step again, which charges once (the provider's key);
#   phase 2  the payment confirmation delivered twice (a retried webhook): consumed once;
#   phase 3  SIGTERM while a checkout whose shipping fails waits for its payment: the process
#            exits 0, and the restarted one finishes the run, which fails at its last step and
#            rolls back (refund with the payment id the journal kept, stock released, cancelled);
#   phase 4  killed before an unpaid order's payment deadline: at the deadline the restarted
#            process's worker takes the run up, its wait for the payment ends empty, and the run
#            compensates: refunded, stock released, cancelled;
#   phase 5  two processes on one database (PostgreSQL when Scripts/postgres-cluster.sh can start
#            one, else SQLite files in one folder), each SIGKILLed in the middle of checkouts, both
#            restarted: every order settles, the same in both, the lifecycle, the journal and the
#            partners agreeing.
#
# The kill lands mid-checkout because the payment provider confirms a payment PAYMENT_LATENCY
# seconds after it charged (a webhook every process simulates): the script waits until the order
# shows the stock reserved, the payment taken and the run waiting for the confirmation, then kills.
# A run that waits is in the journal, held by no process: the confirmation (or the deadline) makes
# it due, and whichever worker claims first goes on with it. A run killed while a worker held it
# is taken up once that worker's lease (LEASE seconds) expired.
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

step "tests (the checkout workflow on the in-memory journal, time on a manual clock)"
if ! swift test "${scratch[@]}" >"$work/tests.txt" 2>&1; then
    tail -40 "$work/tests.txt" >&2
    fail "the example's tests failed"
fi
if grep -E "Tests/OrderServiceTests/.*warning:" "$work/tests.txt" >&2; then fail "the tests' build printed warnings"; fi
grep -E "Test run with .* passed" "$work/tests.txt" || fail "the example's tests did not report passing"

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

# waiting ORDER: waits until ORDER's checkout reserved the stock, charged, and waits for the
# payment's confirmation (the provider has not sent it yet); prints the order.
waiting() {
    wait_until 30 "/orders/$1" '.state == "paying" and .checkout.state == "waiting for a message"
        and ([.checkout.steps[] | select(.kind == "step" and .status == "done")] | length) == 2
        and (.payments | length) == 1' "checkout of $1 waiting for its payment"
}

# kill_mid_checkout ORDER: waits until ORDER's checkout waits for its payment, then kills the
# server with SIGKILL.
kill_mid_checkout() {
    local mid
    mid=$(waiting "$1")
    killed_owner=$(get /health | jq -r .owner)
    kill_server
    echo "killed with SIGKILL mid-checkout: state paying, stock reserved, payment $(jq -r '.payments[0].id' <<<"$mid") taken and not yet confirmed, the run waiting in the journal"
    local listing="../../.build/debug/behaviorkit"
    if [ -x "$listing" ]; then
        "$listing" journal "$data/journal.sqlite" | grep -E " checkout-$1 " | tee "$work/listing.txt"
        grep -q " pending " "$work/listing.txt" || fail "the journal does not show the checkout of $1 pending"
    fi
}

# settled ORDER: waits until ORDER's checkout settled after the restart, finished by the
# restarted process; prints the order.
settled() {
    local order
    order=$(wait_until "$SETTLE_TIMEOUT" "/orders/$1" '.checkout.status != "pending"' "settled checkout of $1")
    expect "$order" ".checkout.attempts >= 2 and .checkout.owner != \"$killed_owner\"" \
        "the checkout of $1 was not finished by the restarted process"
    echo "$order"
}

# names ORDER-JSON: the run's positions, as `name:status`, compensated ones marked.
names() { jq -c '[.checkout.steps[] | "\(.name):\(.status)\(if .compensated then ":compensated" else "" end)"]' <<<"$1"; }

mug_stock() { get /products/mug | jq .stock; }
tee_stock() { get /products/tee | jq .stock; }

mkdir -p "$data"
phase_started=$SECONDS

step "phase 1: killed while the checkout waits for its payment; the restarted process finishes it"
start_server
json=(-X POST -H 'Content-Type: application/json')
expect_status 422 "an unknown product" /orders "${json[@]}" -d '{"items": [{"sku": "nope", "quantity": 1}], "country": "DE"}'
expect_status 422 "a quantity of 0" /orders "${json[@]}" -d '{"items": [{"sku": "mug", "quantity": 0}], "country": "DE"}'
expect_status 422 "a country that is no code" /orders "${json[@]}" -d '{"items": [{"sku": "mug", "quantity": 1}], "country": "Germany"}'
expect_status 400 "a body that is no order" /orders "${json[@]}" -d '{"items": 3}'
expect_status 404 "an unknown order" /orders/nope
expect_status 404 "an unknown product" /products/nope
expect_status 404 "a payment for an unknown order" /orders/nope/payment "${json[@]}" -d '{"payment": "pay-1"}'
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
start_server
one=$(settled crash-1)
expect "$one" '.checkout.status == "done" and .state == "shipped"' \
    "crash-1: the journal and the lifecycle do not both say done and shipped"
expect "$one" '[.checkout.steps[] | "\(.name):\(.status)"] == ["reserve:done", "charge:done", "payment:done", "confirm:done", "ship:done"]' \
    "crash-1: the run's positions are not reserve, charge, payment, confirm, ship, each once and done: $(names "$one")"
expect "$one" '(.payments | length) == 1 and (.payments[0].refunded | not) and .paymentID == .payments[0].id' \
    "crash-1: not charged exactly once, or the lifecycle names another payment"
expect "$one" '.shipment.invoice == .paymentID and .tracking == .shipment.tracking' \
    "crash-1: the parcel does not carry the payment the charge step returned"
[ "$(mug_stock)" = "$((mugs - 2))" ] || fail "crash-1: the stock of mugs is $(mug_stock), expected $((mugs - 2)) (reserved once)"
wait_until 30 /orders/crash-1 '.reminders == 1' "reminder for crash-1 (a delayed command on the durable queue)" >/dev/null
expect_metric 'checkouts_total{outcome="completed"}' 1
expect_metric 'orders{state="shipped"}' 1
expect_status 200 "the same order sent again after the restart" /orders "${json[@]}" -H 'Idempotency-Key: crash-1' \
    -d '{"items": [{"sku": "mug", "quantity": 2}], "country": "DE"}'
expect "$(cat "$work/answer.json")" '.id == "crash-1" and .state == "shipped"' "crash-1 sent again: not the same order"
expect_status 409 "another order under the same key" /orders "${json[@]}" -H 'Idempotency-Key: crash-1' \
    -d '{"items": [{"sku": "mug", "quantity": 3}], "country": "DE"}'
[ "$(get /orders | jq length)" = 1 ] || fail "a retried request placed another order"
[ "$(mug_stock)" = "$((mugs - 2))" ] || fail "crash-1: the retried request reserved again"
echo "crash-1 finished by $(jq -r .checkout.owner <<<"$one") after the restart, each step once: charged once ($(jq -r .paymentID <<<"$one")), shipped $(jq -r .tracking <<<"$one"), reminder sent; sent again, it answers the same order; /metrics counts it"
phase1=$((SECONDS - phase_started))

phase_started=$SECONDS
step "phase 1b: killed inside the charge step, holding the run: taken up after its lease, charged once"
stop_server
start_server --charge-latency 4
tees=$(tee_stock)
place step-1b '{"items": [{"sku": "tee", "quantity": 2}], "country": "DE"}'
mid=$(wait_until 30 /orders/step-1b '.state == "paying" and .checkout.state == "running" and (.payments | length) == 1
    and [.checkout.steps[] | "\(.name):\(.status)"] == ["reserve:done"]' "checkout of step-1b inside its charge step")
killed_owner=$(get /health | jq -r .owner)
kill_server
echo "killed with SIGKILL inside the charge step: payment $(jq -r '.payments[0].id' <<<"$mid") taken, the provider not yet answered, the run held by $killed_owner"
start_server
one_b=$(settled step-1b)
expect "$one_b" '.checkout.status == "done" and .state == "shipped"' \
    "step-1b: the journal and the lifecycle do not both say done and shipped"
expect "$one_b" '[.checkout.steps[] | "\(.name):\(.status)"] == ["reserve:done", "charge:done", "payment:done", "confirm:done", "ship:done"]' \
    "step-1b: the run's positions are not reserve, charge, payment, confirm, ship, each once and done: $(names "$one_b")"
expect "$one_b" "(.payments | length) == 1 and (.payments[0].refunded | not) and .paymentID == \"$(jq -r '.payments[0].id' <<<"$mid")\"" \
    "step-1b: the charge run again charged again, or the lifecycle names another payment"
[ "$(tee_stock)" = "$((tees - 2))" ] || fail "step-1b: the stock of tees is $(tee_stock), expected $((tees - 2)) (reserved once)"
echo "step-1b taken up by $(jq -r .checkout.owner <<<"$one_b") after the ${LEASE} s lease: the charge step ran again and the provider answered the payment it made under the step's key ($(jq -r .paymentID <<<"$one_b")); shipped"
phase1b=$((SECONDS - phase_started))

phase_started=$SECONDS
step "phase 2: the payment confirmation delivered twice is consumed once"
tees=$(tee_stock)
place twice-2 '{"items": [{"sku": "tee", "quantity": 1}], "country": "FR"}'
payment=$(waiting twice-2 | jq -r '.payments[0].id')
for attempt in 1 2; do
    expect_status 202 "the confirmation of $payment (delivery $attempt)" /orders/twice-2/payment "${json[@]}" \
        -d "{\"payment\": \"$payment\"}"
done
two=$(wait_until "$SETTLE_TIMEOUT" /orders/twice-2 '.checkout.status != "pending"' "settled checkout of twice-2")
expect "$two" '.checkout.status == "done" and .state == "shipped" and .paymentID == .payments[0].id' \
    "twice-2: not done and shipped with its payment"
expect "$two" '[.checkout.steps[] | select(.kind == "receive")] | length == 1' "twice-2: the run received more than once"
expect "$two" '[.history[] | select(contains("confirmPayment"))] | length == 1' \
    "twice-2: the lifecycle took the confirmation more than once"
[ "$(tee_stock)" = "$((tees - 1))" ] || fail "twice-2: the stock of tees is $(tee_stock), expected $((tees - 1))"
expect_metric 'checkouts_total{outcome="completed"}' 2
echo "twice-2: the confirmation of $payment sent twice (and by the provider's webhook after): received once, paid once, shipped"
phase2=$((SECONDS - phase_started))

phase_started=$SECONDS
step "phase 3: SIGTERM while a checkout whose shipping fails waits; the restarted process rolls it back"
mugs=$(mug_stock)
place rollback-3 '{"items": [{"sku": "mug", "quantity": 1}], "country": "AQ"}'
waiting rollback-3 >/dev/null
stop_server
start_server
three=$(wait_until "$SETTLE_TIMEOUT" /orders/rollback-3 '.checkout.status != "pending"' "settled checkout of rollback-3")
expect "$three" '.checkout.status == "compensated" and .state == "cancelled"' \
    "rollback-3: the journal and the lifecycle do not both say compensated and cancelled"
expect "$three" '[.checkout.steps[] | "\(.name):\(.status)\(if .compensated then ":compensated" else "" end)"]
    == ["reserve:done:compensated", "charge:done:compensated", "payment:done", "confirm:done", "ship:failed"]' \
    "rollback-3: not reserved and charged, then compensated after the failed shipping: $(names "$three")"
expect "$three" '(.checkout.steps[4].failureReason | contains("AQ")) and (.checkout.rollbackCause | contains("AQ"))' \
    "rollback-3: the journal does not name the failed shipping"
expect "$three" '(.payments | length) == 1 and .payments[0].refunded and .shipment == null' \
    "rollback-3: the payment was not refunded, or a parcel left"
[ "$(mug_stock)" = "$mugs" ] || fail "rollback-3: the stock of mugs is $(mug_stock), not $mugs again"
grep -q 'from=journal order=rollback-3' "$log" || fail "rollback-3: the refund did not get the payment id from the journal"
expect_metric 'checkouts_total{outcome="compensated"}' 1
echo "rollback-3: stopped gracefully while it waited; then $(jq -r '.checkout.steps[4].failureReason' <<<"$three"); payment $(jq -r '.payments[0].id' <<<"$three") refunded with the id the journal kept, stock released, order cancelled"
stop_server
phase3=$((SECONDS - phase_started))

phase_started=$SECONDS
step "phase 4: killed before an unpaid order's payment deadline: the run's wait ends empty and it rolls back"
DEADLINE=5
start_server --payment-deadline "$DEADLINE" --payment-latency 60
mugs=$(mug_stock)
place deadline-4 '{"items": [{"sku": "mug", "quantity": 1}], "country": "DE"}'
placed_at=$SECONDS
kill_mid_checkout deadline-4
start_server --payment-deadline "$DEADLINE" --payment-latency 60
four=$(settled deadline-4)
[ $((SECONDS - placed_at)) -ge $((DEADLINE - 1)) ] || fail "deadline-4 settled $((SECONDS - placed_at)) s after it was placed, before its ${DEADLINE} s deadline"
expect "$four" '.checkout.status == "compensated" and .state == "cancelled"' \
    "deadline-4: the checkout was not compensated at its deadline"
expect "$four" '.checkout.rollbackCause | contains("no payment confirmation")' \
    "deadline-4: the rollback does not name the missing confirmation"
expect "$four" '[.checkout.steps[] | "\(.name):\(.status)\(if .compensated then ":compensated" else "" end)"]
    == ["reserve:done:compensated", "charge:done:compensated", "payment:done"]' \
    "deadline-4: not reserved, charged, waited and compensated: $(names "$four")"
expect "$four" '(.payments | length) == 1 and .payments[0].refunded and .shipment == null' \
    "deadline-4: the payment was not refunded, or a parcel left"
[ "$(mug_stock)" = "$mugs" ] || fail "deadline-4: the stock of mugs is $(mug_stock), not $mugs again"
echo "deadline-4: no confirmation within ${DEADLINE} s; the restarted process's worker took the run up at the deadline and rolled it back: payment $(jq -r '.payments[0].id' <<<"$four") refunded, stock released, cancelled"
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
declare -A member_pid member_port

# start_member NAME: starts process NAME (a or b) on the shared data folder and database.
start_member() {
    launch "$work/$1.log" "$shared/$1.port" --data "$shared" "${database[@]}" --payment-latency 2
    member_pid[$1]=$launched_pid
    member_port[$1]=$launched_port
    echo "started $1: process $launched_pid on 127.0.0.1:$launched_port"
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
# unsettled: the orders whose checkout has not settled (asked of the process `use` chose).
unsettled() {
    local key
    for key in "${shared_orders[@]}"; do get "/orders/$key"; done |
        jq -rs '[.[] | select(.checkout.status == "pending") | .id] | join(" ")'
}
use a
wait_until 30 /orders/shared-1 '.state == "paying" and (.payments | length) == 1' "checkout of shared-1 mid-charge" >/dev/null
kill_server
use b
echo "killed a with SIGKILL while the checkouts of $(unsettled) were unsettled; b goes on with them (those a held, once their ${LEASE} s leases expire)"
sleep $((LEASE + 2))
place_on b 2
wait_until 30 /orders/shared-10 '.state == "paying" and (.payments | length) == 1' "checkout of shared-10 mid-charge" >/dev/null
held=$(unsettled)
kill_server
echo "killed b with SIGKILL while the checkouts of $held were unsettled (shared-9 and shared-10 placed just before)"
start_member a
start_member b
declare -A member_owner
for name in a b; do
    use "$name"
    member_owner[$name]=$(get /health | jq -r .owner)
done
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
jq -r '.[] | "  \((.id + "  ")[:10]) \((.state + "  ")[:9])  checkout \(.checkout.status), settled by \(.checkout.owner)"' <<<"$from_a"
settled_summary=$(jq -r --arg a "${member_owner[a]}" --arg b "${member_owner[b]}" '"\([.[] | select(.state == "shipped")] | length) shipped, \([.[] | select(.state == "cancelled")] | length) cancelled, \([.[] | select(.checkout.owner == $a or .checkout.owner == $b)] | length) finished by the restarted processes"' <<<"$from_a")
echo "every order settled, the same in a and b: $settled_summary; payments, parcels and stock agree"
use a
stop_server
use b
stop_server
phase5=$((SECONDS - phase_started))

cat <<SUMMARY

crash-check passed in $((SECONDS - started)) s (build ${build_seconds} s; phases ${phase1} s, ${phase1b} s, ${phase2} s, ${phase3} s, ${phase4} s, ${phase5} s)
  crash-1     SIGKILL while its checkout waited for the payment, restarted: the run went on from its
              last step, each step once: charged once, shipped, reminder sent; sent again, the same order
  step-1b     SIGKILL inside the charge step: taken up after the ${LEASE} s lease, the step run again
              charged once (the provider's idempotency key), shipped
  twice-2     the payment confirmation delivered twice: received once, paid once, shipped
  rollback-3  SIGTERM while it waited (exit 0); restarted, the run's shipping to AQ failed:
              compensated, refunded with the payment id from the journal, stock released, cancelled
  deadline-4  SIGKILL before its ${DEADLINE} s payment deadline: at the deadline the restarted
              process's worker ended the wait empty and rolled back: refunded, stock released, cancelled
  shared-*    two processes on $store, both SIGKILLed mid-checkout and restarted:
              $settled_summary; lifecycle, journal and partners agree
  /metrics counted each settlement in the process that settled it
SUMMARY
