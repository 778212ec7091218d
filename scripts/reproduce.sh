#!/usr/bin/env bash
# Reruns every dissertation figure this project covers, at a reduced scale that finishes in under an hour on 2 cores
# (numbers are rough on a shared or small machine: compare the lines of one chart, not absolute txn/s):
#
#   scripts/reproduce.sh                     # everything below
#   scripts/reproduce.sh fig4-7 fig4-8       # only these figures (ids as listed by --list)
#   scripts/reproduce.sh --list              # what would run, and which experiment files are missing
#
#   fig4-7  TPC-C throughput vs clients per CC tree (Fig 4.7; trees of Fig 4.6 and 5.2):
#           config/experiments/tpcc-fig4-7.yaml with clients [50, 200, 800], warm-up 3 s, 10 s measured, 10 warehouses
#   fig4-8  SEATS throughput vs clients per tree (Fig 4.8): config/experiments/seats-{2pl,ssi-2pl,manual,initial}.yaml
#           run as one sweep over the files, clients [50, 200, 800], warm-up 3 s, 10 s measured
#   micro   the microbenchmarks, warm-up 2 s, 5 s measured: Fig 4.10 as the two sweeps micro-fig4-10-{ww,rw}.yaml
#           (one chart each: throughput against shared rows, one line per cross-group CC), Fig 4.11 (two vs three
#           layers: micro-layers-*.yaml as one sweep, fig4-11/) and the layer-overhead runs (micro-overhead-*.yaml
#           as one sweep, layer-overhead/)
#   table4-1  Table 4.1's throughput cost of adding a 2PL, SSI or RP layer over RP, estimated from the JMH
#           benchmark CcPathBenchmark (7 updates per transaction, no network, one core; median time per
#           transaction): table4-1/table4-1.txt, about 3 minutes
#   validate  the simulated model of this machine against real embedded runs (docs/simulation.md): TPC-C 2pl,
#           3-layer and initial at 50 and 200 clients, SEATS manual and micro points, 3 real runs each:
#           validate-*/validation.md, about 30 minutes (not part of the default list)
#   cluster the dissertation's cluster in virtual time (20 x 20 cores; 10 x 20 for the microbenchmark):
#           config/experiments/cluster/*.yaml, one sweep per figure over the files and their client counts
#           (cluster-tpcc-fig4-7, cluster-seats, cluster-hot-item, cluster-micro-fig4-11), then cluster-predictions/
#           (scripts/tebaldi paper-chart: each experiment's best point beside the dissertation's number); hours of
#           wall time at the files' settings (not part of the default list; REPRODUCE_EXTRA shortens it)
#   tuning  Chapter 5's tuning results on this machine (docs/autoconf.md, "Chapter 5 reproduced"): three
#           independent `scripts/tebaldi tune` runs of tpcc-autotune.yaml (Fig 5.11) and of seats-autotune.yaml
#           (Fig 5.14), then each run's final tree against the manual tree (tebaldi-3layer.yaml, seats-manual.yaml)
#           in three alternating pairs of 5 s + 15 s runs: tuning/<workload>-<n>/ (the tune output),
#           tuning/compare-<workload>-<n>/, tuning/pairs.csv (txn/s of every comparison run) and
#           tuning/summary.csv (per tuning run: its three tuned/manual ratios); about 90 minutes (not part of the
#           default list)
#   dst     DST (docs/mechanisms.md "DST"), warm-up 3 s, 10 s measured, about 3 minutes (not part of the
#           default list): TPC-C at 200 clients under timestamps: gts vs dst (dst-timestamps/), and the read-heavy
#           mix with DST snapshots vs read committed (dst-read-heavy/), config/experiments/dst/*.yaml
#   coco    COCO's experiments (Lu et al. VLDB 2021; docs/mechanisms.md, "Group durability"), warm-up 3 s, 10 s measured,
#           about 15 minutes (not part of the default list): the commit matrix on YCSB and TPC-C (new_order +
#           payment with remote shares) as one sweep over config/experiments/coco/*-matrix.yaml (coco-matrix/),
#           the commit x replication matrix (coco/*-matrix-{norep3,2pc-sync,epoch-async}.yaml, their own 20 s
#           warm-up: coco-replication/),
#           Fig 11 — throughput against the injected durable-write latency 1 us .. 2 ms, 2PC against epoch-based
#           commit — per workload (coco/{ycsb,tpcc}-latency.yaml: coco-fig11-ycsb/, coco-fig11-tpcc/), and the
#           share of multi-partition YCSB transactions (coco/ycsb-distributed.yaml: coco-distributed/)
#   sundial Sundial's YCSB experiments (Yu et al. VLDB 2018), warm-up 3 s, 10 s measured (not part of the default
#           list): the theta sweep [0.6, 0.8, 0.9, 0.99] over 2PL wait-die, OCC, TicToc, Sundial and Sundial with
#           its cache as one sweep (config/experiments/sundial/ycsb-theta09-*.yaml and ycsb-occ.yaml:
#           sundial-theta/), and the read-mostly caching pair (sundial/ycsb-readmostly-*.yaml: sundial-cache/)
#   chiller Chiller's comparison on the skewed NewOrder workload (docs/mechanisms.md "Chiller"): scripts/tebaldi
#           partition profiles config/experiments/chiller/neworder-chiller.yaml for 10 s and rewrites
#           config/experiments/chiller/placement.json, then one sweep over chiller/neworder-{hash-2pl,placement-2pl,
#           chiller}.yaml with clients [25, 50, 100], warm-up 3 s, 10 s measured: chiller/ (about 4 minutes; not part
#           of the default list)
#   diss-fig5-11  Fig 5.11 at the dissertation's scale in virtual time (docs/simulation.md, "The dissertation's
#           setup"): config/experiments/dissertation/fig5-11-{2pl,initial,3layer}.yaml as one sweep under the
#           dissertation profile (diss-fig5-11-dissertation/), then with today's defaults (--set profile=none --set
#           clients=800: diss-fig5-11-default/); the files' 2 s + 10 s (hours of wall time; not part of the default
#           list; REPRODUCE_EXTRA="--set warmup=1s --set duration=3s" is how the documented numbers ran)
#   diss-fig5-11-toggles  Fig 5.11's decomposition: 2PL and the three-layer tree with today's defaults and ONE of
#           the profile's differences at a time — per-operation round trips, 2PL dead-locks by time-out, no
#           back-off but SSI's 5 ms, 2,000 clients, durability on: diss-fig5-11-toggles-<difference>/ (not part of
#           the default list)
#   diss-fig4-7 diss-fig4-9 diss-fig4-10 diss-fig4-11  Chapter 4's figures at the dissertation's scale:
#           config/experiments/dissertation/fig4-7.yaml (TPC-C trees), fig4-9-hot-item.yaml (hot_item 3 vs 4
#           layers), fig4-10-{ww,rw}.yaml, fig4-11.yaml (two vs three layers), each under the dissertation profile
#           (<id>-dissertation/) and with today's defaults (--set profile=none --set workload.execution=procedures:
#           <id>-default/), at the files' client counts (not part of the default list)
#
# Missing experiment files are skipped with a message (e.g. in a checkout that deletes some). Writes
# results/reproduce-<time>/<id>/ (results.csv, charts, one directory per point: scripts/tebaldi
# run's sweep output) and copies the key charts to results/reproduce-<time>/<id>-*.png; index.txt lists what ran,
# how long it took and how it ended; report.html compares every finished run (scripts/tebaldi report). Exit code: 0 when every run passed its checks, 1 if a check failed, 2 for bad
# input, 3 if a run failed (the other figures still run). REPRODUCE_EXTRA adds arguments to every run, after the
# ones above (a smoke test: REPRODUCE_EXTRA="--set clients=[4] --set warmup=0s --set duration=1s").
set -uo pipefail

dir_of() { case "$1" in */*) echo "${1%/*}" ;; *) echo . ;; esac; }
src="${BASH_SOURCE[0]}"
while [ -L "$src" ]; do
  link="$(readlink "$src")"
  [[ "$link" == /* ]] && src="$link" || src="$(dir_of "$src")/$link"
done
ROOT="$(cd -P "$(dir_of "$src")/.." && pwd)"
TEBALDI="$ROOT/scripts/tebaldi"
EXP="config/experiments"
ALL=(fig4-7 fig4-8 micro table4-1)

usage() {
  sed -n '2,74p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

# The experiment files of a figure, relative to ROOT (none if missing).
files_of() {
  case "$1" in
    fig4-7) [ -f "$ROOT/$EXP/tpcc-fig4-7.yaml" ] && echo "$EXP/tpcc-fig4-7.yaml" ;;
    fig4-8) (cd "$ROOT" && ls $EXP/seats-{2pl,ssi-2pl,manual,initial}.yaml 2>/dev/null) ;;
    micro) (cd "$ROOT" && ls $EXP/micro-{fig4-10-*,layers-*,overhead-*}.yaml 2>/dev/null) ;;
    table4-1) [ -x "$ROOT/scripts/jmh.sh" ] && echo "scripts/jmh.sh CcPathBenchmark" ;;
    validate) (cd "$ROOT" && ls $EXP/tpcc-{2pl,tebaldi-3layer,initial}.yaml $EXP/seats-manual.yaml \
                $EXP/micro-{ww-5-rp,ww-5-2pl,rw-5-ssi,rw-5-rp}.yaml 2>/dev/null) ;;
    cluster) (cd "$ROOT" && ls $EXP/cluster/*.yaml 2>/dev/null) ;;
    tuning) (cd "$ROOT" && ls $EXP/{tpcc,seats}-autotune.yaml 2>/dev/null) ;;
    # coco/*-matrix.yaml: 2PC against epoch on 2 data servers (coco-matrix); coco/*-matrix-*.yaml: the commit x
    # replication matrix on 3 data servers (coco-replication: no replication, 2PC(sync), Epoch(async)).
    coco) (cd "$ROOT" && ls $EXP/coco/*-matrix*.yaml $EXP/coco/{ycsb,tpcc}-latency.yaml \
             $EXP/coco/ycsb-distributed.yaml 2>/dev/null) ;;
    dst) (cd "$ROOT" && ls $EXP/dst/tpcc-{gts,dst,read-heavy-dst,read-heavy-rc}.yaml 2>/dev/null) ;;
    sundial) (cd "$ROOT" && ls $EXP/sundial/ycsb-theta09-{2pl,tictoc,sundial,sundial-cache}.yaml \
                $EXP/sundial/ycsb-readmostly-sundial{,-cache}.yaml 2>/dev/null) ;;
    chiller) (cd "$ROOT" && ls $EXP/chiller/neworder-{hash-2pl,placement-2pl,chiller}.yaml 2>/dev/null) ;;
    diss-fig5-11) (cd "$ROOT" && ls $EXP/dissertation/fig5-11-{2pl,initial,3layer}.yaml 2>/dev/null) ;;
    diss-fig5-11-toggles) (cd "$ROOT" && ls $EXP/dissertation/fig5-11-{2pl,3layer}.yaml 2>/dev/null) ;;
    diss-fig4-7) (cd "$ROOT" && ls $EXP/dissertation/fig4-7.yaml 2>/dev/null) ;;
    diss-fig4-9) (cd "$ROOT" && ls $EXP/dissertation/fig4-9-hot-item.yaml 2>/dev/null) ;;
    diss-fig4-10) (cd "$ROOT" && ls $EXP/dissertation/fig4-10-{ww,rw}.yaml 2>/dev/null) ;;
    diss-fig4-11) (cd "$ROOT" && ls $EXP/dissertation/fig4-11.yaml 2>/dev/null) ;;
  esac
  return 0
}

wanted=()
list=false
for a in "$@"; do
  case "$a" in
    -h|--help) usage; exit 0 ;;
    --list) list=true ;;
    fig4-7|fig4-8|micro|table4-1|validate|cluster|tuning|coco|sundial|chiller|dst) wanted+=("$a") ;;
    diss-fig5-11|diss-fig5-11-toggles|diss-fig4-7|diss-fig4-9|diss-fig4-10|diss-fig4-11) wanted+=("$a") ;;
    *) echo "reproduce: unknown figure '$a'. Fix: use one of ${ALL[*]} validate cluster tuning coco sundial chiller dst" \
         "diss-fig5-11 diss-fig5-11-toggles diss-fig4-7 diss-fig4-9 diss-fig4-10 diss-fig4-11," \
         "--list or --help" >&2
       exit 2 ;;
  esac
done
[ ${#wanted[@]} -eq 0 ] && wanted=("${ALL[@]}")

if $list; then
  for id in "${wanted[@]}"; do
    f="$(files_of "$id" | tr '\n' ' ')"
    echo "$id: ${f:-(missing: skipped)}"
  done
  exit 0
fi

OUT="$ROOT/results/reproduce-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$OUT" || { echo "reproduce: cannot create $OUT" >&2; exit 3; }
INDEX="$OUT/index.txt"
echo "# scripts/reproduce.sh ${*:-} on $(hostname) ($(nproc 2>/dev/null || echo '?') cores), $(date -u +%FT%TZ)" > "$INDEX"
worst=0
RUN_DIRS=()  # run directories that finished (checks passed or not): report.html at the end compares them
note() { echo "reproduce: $*"; echo "$*" >> "$INDEX"; }

# Runs one tebaldi command into DIR; records how it ended.
run() {
  local id="$1" dir="$2"; shift 2
  local t0=$SECONDS code
  echo
  echo "reproduce: [$id] scripts/tebaldi run $* ${REPRODUCE_EXTRA:-} --out ${dir#"$ROOT"/}"
  # shellcheck disable=SC2086 # REPRODUCE_EXTRA is a list of arguments
  (cd "$ROOT" && "$TEBALDI" run "$@" ${REPRODUCE_EXTRA:-} --out "$dir")
  code=$?
  local took=$((SECONDS - t0))
  if [ "$code" -le 1 ] && [ -d "$dir" ]; then RUN_DIRS+=("$dir"); fi
  case $code in
    0) note "$id: ok in ${took}s -> ${dir#"$OUT"/}/" ;;
    1) note "$id: a check FAILED (exit 1) in ${took}s -> ${dir#"$OUT"/}/" ;;
    2) note "$id: bad input (exit 2): nothing run" ;;
    *) note "$id: run FAILED (exit $code) after ${took}s -> ${dir#"$OUT"/}/" ;;
  esac
  # worst outcome wins: run failed (3) > bad input (2) > check failed (1) > ok
  if [ "$code" -ne 0 ]; then
    [ "$code" -gt 3 ] && code=3
    [ "$code" -gt "$worst" ] && worst=$code
  fi
}

# Table 4.1 from JMH: median µs per 7-update transaction through RP alone and with a layer added over it.
table41() {
  local dir="$OUT/table4-1" t0=$SECONDS code
  mkdir -p "$dir"
  echo
  echo "reproduce: [table4-1] scripts/jmh.sh CcPathBenchmark (rp-1, 2pl/rp, ssi/rp, rp/rp; 7 updates) ..."
  "$ROOT/scripts/jmh.sh" CcPathBenchmark -p path=rp-1,2pl/rp,ssi/rp,rp/rp -p ops=7 -bm sample -tu us \
    -wi 3 -w 2s -i 5 -r 2s -f 2 -rf csv -rff "$dir/jmh.csv" > "$dir/jmh.txt" 2>&1
  code=$?
  if [ $code -ne 0 ] || [ ! -s "$dir/jmh.csv" ]; then
    note "table4-1: JMH FAILED (exit $code) after $((SECONDS - t0))s; see table4-1/jmh.txt"
    worst=3
    return
  fi
  awk -F, 'NR > 1 {
      sub(/\r$/, ""); gsub(/"/, ""); path = $9
      if ($1 ~ /:p0\.50$/) p50[path] = $5; else if ($1 ~ /transaction$/) mean[path] = $5
    }
    END {
      split("rp-1 2pl/rp ssi/rp rp/rp", order, " ")
      name["rp-1"] = "stand-alone RP"; name["2pl/rp"] = "2PL - RP"; name["ssi/rp"] = "SSI - RP"; name["rp/rp"] = "RP - RP"
      diss["2pl/rp"] = "21%"; diss["ssi/rp"] = "25%"; diss["rp/rp"] = "40%"
      goal["2pl/rp"] = "<= 10%"; goal["ssi/rp"] = "<= 12%"; goal["rp/rp"] = "<= 25%"
      print "Table 4.1 estimated from JMH CcPathBenchmark (7 updates per transaction, no network, one core)"
      print "throughput per core = 1e6 / median us per transaction; loss = 1 - (RP alone) / (with the layer)"
      printf "%-15s %12s %12s %14s %8s %12s %8s\n", "setting", "median us", "mean us", "txn/s per core", "loss", "dissertation", "target"
      base = p50["rp-1"]
      for (i = 1; i <= 4; i++) {
        p = order[i]
        v = (p50[p] > 0) ? 100 * (1 - base / p50[p]) : 0
        if (v > -0.5 && v < 0.5) v = 0
        loss = (p == "rp-1" || base == "" || p50[p] == "") ? "-" : sprintf("%.0f%%", v)
        perCore = (p50[p] > 0) ? 1e6 / p50[p] : 0
        d = (p in diss) ? diss[p] : "-"
        g = (p in goal) ? goal[p] : "-"
        printf "%-15s %12.2f %12.2f %14.0f %8s %12s %8s\n", name[p], p50[p], mean[p], perCore, loss, d, g
      }
      print "(the mean includes GC and time the shared machine took the core away; the median is the CPU cost)"
    }' "$dir/jmh.csv" > "$dir/table4-1.txt" || { note "table4-1: cannot read $dir/jmh.csv"; worst=3; return; }
  cat "$dir/table4-1.txt"
  cp "$dir/table4-1.txt" "$OUT/table4-1.txt"
  note "table4-1: ok in $((SECONDS - t0))s -> table4-1/table4-1.txt"
}

# scripts/tebaldi validate into OUT/ID (3 real runs per point, 3 s warm-up, 8 s measured; exit 1: a row out of bounds).
validate_run() {
  local id="$1" t0=$SECONDS code; shift
  echo
  echo "reproduce: [$id] scripts/tebaldi validate $* --repeat 3 --set warmup=3s --set duration=8s"
  (cd "$ROOT" && "$TEBALDI" validate "$@" --repeat 3 --set warmup=3s --set duration=8s --out "$OUT/$id")
  code=$?
  case $code in
    0) note "$id: every row within the bounds in $((SECONDS - t0))s -> $id/validation.md" ;;
    1) note "$id: a row OUT OF BOUNDS (exit 1) in $((SECONDS - t0))s -> $id/validation.md" ;;
    *) note "$id: FAILED (exit $code) after $((SECONDS - t0))s" ;;
  esac
  [ "$code" -gt 3 ] && code=3
  [ "$code" -gt "$worst" ] && worst=$code
  return 0
}

# Chapter 5: three tune runs of FILE, then each final tree against MANUAL (a tree file) in three alternating pairs.
tuning_run() {
  local file="$1" manual="$2" wl t0 code n p side tree tput final
  wl="$(basename "$file" -autotune.yaml)"
  for n in 1 2 3; do
    t0=$SECONDS
    echo
    echo "reproduce: [tuning] scripts/tebaldi tune $file ${REPRODUCE_EXTRA:-} --out tuning/$wl-$n"
    # shellcheck disable=SC2086 # REPRODUCE_EXTRA is a list of arguments
    (cd "$ROOT" && "$TEBALDI" tune "$file" ${REPRODUCE_EXTRA:-} --out "$OUT/tuning/$wl-$n")
    code=$?
    if [ "$code" -le 1 ] && [ -f "$OUT/tuning/$wl-$n/summary.json" ]; then RUN_DIRS+=("$OUT/tuning/$wl-$n"); fi
    final="$(ls "$OUT/tuning/$wl-$n"/trees/iteration-*.yaml 2>/dev/null | sort -t- -k2 -n | tail -1)"
    [ -z "$final" ] && final="$OUT/tuning/$wl-$n/trees/start.yaml"
    if [ "$code" -ne 0 ] || [ ! -f "$final" ]; then
      note "tuning: $wl run $n FAILED (exit $code) after $((SECONDS - t0))s"
      worst=3
      continue
    fi
    note "tuning: $wl run $n ok in $((SECONDS - t0))s; final tree $(head -1 "$final" | sed 's/^# //')"
    for p in 1 2 3; do
      for side in manual tuned; do
        tree="$manual"; [ "$side" = tuned ] && tree="$final"
        run "tuning" "$OUT/tuning/compare-$wl-$n/$side-$p" "$file" --set "tree=$tree" --set warmup=5s \
          --set duration=15s
        tput="$(sed -n 's/^  "throughput" *: *\([0-9.]*\).*/\1/p' \
          "$OUT/tuning/compare-$wl-$n/$side-$p/summary.json" 2>/dev/null | head -1)"
        echo "$wl,$n,$p,$side,${tput:-}" >> "$OUT/tuning/pairs.csv"
      done
    done
  done
}

# Copies DIR's sweep charts to OUT/<prefix>-<chart>.png.
copy_charts() {
  local dir="$1" prefix="$2" png
  for png in throughput.png abort-rate.png timeline.png; do
    [ -f "$dir/$png" ] && cp "$dir/$png" "$OUT/$prefix-$png"
  done
  return 0
}

start=$SECONDS
for id in "${wanted[@]}"; do
  mapfile -t files < <(files_of "$id")
  if [ ${#files[@]} -eq 0 ]; then
    case "$id" in
      fig4-7) note "$id: skipped: $EXP/tpcc-fig4-7.yaml is missing" ;;
      fig4-8) note "$id: skipped: no $EXP/seats-*.yaml" ;;
      micro) note "$id: skipped: no $EXP/micro-*.yaml" ;;
      table4-1) note "$id: skipped: scripts/jmh.sh is missing" ;;
      validate|cluster|tuning|coco|chiller|dst|diss-*) note "$id: skipped: its experiment files are missing" ;;
      sundial) note "$id: skipped: no $EXP/sundial/*.yaml (they arrive with the tictoc/sundial merge)" ;;
    esac
    continue
  fi
  case "$id" in
    fig4-7)
      run "$id" "$OUT/$id" "${files[@]}" --set 'clients=[50,200,800]' --set warmup=3s --set duration=10s \
        --set workload.warehouses=10
      copy_charts "$OUT/$id" "$id" ;;
    fig4-8)
      run "$id" "$OUT/$id" "${files[@]}" --set 'clients=[50,200,800]' --set warmup=3s --set duration=10s
      copy_charts "$OUT/$id" "$id" ;;
    micro)
      # Fig 4.10's files are sweeps of their own; Fig 4.11's and the layer-overhead files each run as one sweep
      # over the files, so each figure gets one chart with a bar (point) per tree.
      layers=() overhead=()
      for f in "${files[@]}"; do
        name="$(basename "$f" .yaml)"
        case "$name" in
          micro-layers-*) layers+=("$f") ;;
          micro-overhead-*) overhead+=("$f") ;;
          *) run "$name" "$OUT/$name" "$f" --set warmup=2s --set duration=5s
             copy_charts "$OUT/$name" "$name" ;;
        esac
      done
      if [ ${#layers[@]} -gt 0 ]; then
        run fig4-11 "$OUT/fig4-11" "${layers[@]}" --set warmup=2s --set duration=5s
        copy_charts "$OUT/fig4-11" fig4-11
      fi
      if [ ${#overhead[@]} -gt 0 ]; then
        run layer-overhead "$OUT/layer-overhead" "${overhead[@]}" --set warmup=2s --set duration=5s
        copy_charts "$OUT/layer-overhead" layer-overhead
      fi ;;
    table4-1)
      table41 ;;
    validate)
      # TPC-C at both client counts; the others at their files' 50 clients
      tpcc=() other=()
      for f in "${files[@]}"; do
        case "$f" in */tpcc-*) tpcc+=("$f") ;; *) other+=("$f") ;; esac
      done
      validate_run validate-tpcc "${tpcc[@]}" --set 'clients=[50,200]'
      validate_run validate-other "${other[@]}" ;;
    cluster)
      for group in tpcc-fig4-7 seats hot-item micro-fig4-11; do
        mapfile -t gf < <(printf '%s\n' "${files[@]}" | grep "/cluster/$group-")
        [ ${#gf[@]} -eq 0 ] && continue
        run "cluster-$group" "$OUT/cluster-$group" "${gf[@]}"
        copy_charts "$OUT/cluster-$group" "cluster-$group"
      done
      # the best point of each experiment beside the dissertation's number, one chart per figure
      (cd "$ROOT" && "$TEBALDI" paper-chart "$OUT"/cluster-* --out "$OUT/cluster-predictions") \
        && note "cluster: predictions beside the paper -> cluster-predictions/ (predictions.csv, cluster-*.png)" \
        || note "cluster: paper-chart FAILED" ;;
    coco)
      matrix=() replicated=()
      for f in "${files[@]}"; do
        case "$f" in
          */*-matrix-*.yaml) replicated+=("$f") ;;
          */*-matrix.yaml) matrix+=("$f") ;;
        esac
      done
      for f in ycsb-matrix tpcc-matrix ycsb-latency tpcc-latency ycsb-distributed; do
        [ -f "$ROOT/$EXP/coco/$f.yaml" ] || note "coco: $EXP/coco/$f.yaml is missing: skipped"
      done
      if [ ${#matrix[@]} -gt 0 ]; then
        run coco-matrix "$OUT/coco-matrix" "${matrix[@]}" --set warmup=3s --set duration=10s
        copy_charts "$OUT/coco-matrix" coco-matrix
      fi
      if [ ${#replicated[@]} -gt 0 ]; then # the files' own 20 s warm-up: the backups first take the initial load
        run coco-replication "$OUT/coco-replication" "${replicated[@]}" --set duration=10s
        copy_charts "$OUT/coco-replication" coco-replication
      fi
      for w in ycsb tpcc; do
        if [ -f "$ROOT/$EXP/coco/$w-latency.yaml" ]; then
          run "coco-fig11-$w" "$OUT/coco-fig11-$w" "$EXP/coco/$w-latency.yaml" --set warmup=3s --set duration=10s
          copy_charts "$OUT/coco-fig11-$w" "coco-fig11-$w"
        fi
      done
      if [ -f "$ROOT/$EXP/coco/ycsb-distributed.yaml" ]; then
        run coco-distributed "$OUT/coco-distributed" "$EXP/coco/ycsb-distributed.yaml" --set warmup=3s \
          --set duration=10s
        copy_charts "$OUT/coco-distributed" coco-distributed
      fi ;;
    dst)
      # DST: the timestamp schemes side by side (gts vs dst, TPC-C standard mix, 200 clients), then DST's
      # read-only snapshots against the read-committed baseline on the read-heavy mix (79% read-only, stock_level
      # over 20 districts); one sweep (one chart) each
      run dst-timestamps "$OUT/dst-timestamps" "$EXP/dst/tpcc-gts.yaml" "$EXP/dst/tpcc-dst.yaml" --set warmup=3s \
        --set duration=10s
      copy_charts "$OUT/dst-timestamps" dst-timestamps
      run dst-read-heavy "$OUT/dst-read-heavy" "$EXP/dst/tpcc-read-heavy-dst.yaml" \
        "$EXP/dst/tpcc-read-heavy-rc.yaml" --set warmup=3s --set duration=10s
      copy_charts "$OUT/dst-read-heavy" dst-read-heavy ;;
    sundial)
      theta=() cache=()
      for f in 2pl tictoc sundial sundial-cache; do
        if [ -f "$ROOT/$EXP/sundial/ycsb-theta09-$f.yaml" ]; then
          theta+=("$EXP/sundial/ycsb-theta09-$f.yaml")
        else
          note "sundial: $EXP/sundial/ycsb-theta09-$f.yaml is missing: skipped"
        fi
      done
      # Silo-style OCC, Sundial's OCC baseline, is on main
      [ -f "$ROOT/$EXP/ycsb-occ.yaml" ] && theta+=("$EXP/ycsb-occ.yaml")
      for f in sundial sundial-cache; do
        if [ -f "$ROOT/$EXP/sundial/ycsb-readmostly-$f.yaml" ]; then
          cache+=("$EXP/sundial/ycsb-readmostly-$f.yaml")
        else
          note "sundial: $EXP/sundial/ycsb-readmostly-$f.yaml is missing: skipped"
        fi
      done
      run sundial-theta "$OUT/sundial-theta" "${theta[@]}" --set 'workload.theta=[0.6,0.8,0.9,0.99]' \
        --set warmup=3s --set duration=10s
      copy_charts "$OUT/sundial-theta" sundial-theta
      if [ ${#cache[@]} -gt 0 ]; then
        run sundial-cache "$OUT/sundial-cache" "${cache[@]}" --set warmup=3s --set duration=10s
        copy_charts "$OUT/sundial-cache" sundial-cache
      fi ;;
    tuning)
      mkdir -p "$OUT/tuning" && echo "workload,run,pair,tree,txnPerSec" > "$OUT/tuning/pairs.csv"
      for f in "${files[@]}"; do
        case "$f" in
          */tpcc-*) tuning_run "$f" "$ROOT/config/trees/tebaldi-3layer.yaml" ;;
          */seats-*) tuning_run "$f" "$ROOT/config/trees/seats-manual.yaml" ;;
        esac
      done
      # per tuning run: the median of its three tuned/manual ratios
      echo "workload,run,ratio1,ratio2,ratio3" > "$OUT/tuning/summary.csv"
      awk -F, 'NR > 1 && $5 != "" { v[$1 "," $2 "," $3 "," $4] = $5; k[$1 "," $2] = 1 }
        END {
          for (r in k) {
            line = r
            for (p = 1; p <= 3; p++) {
              m = v[r "," p ",manual"]; t = v[r "," p ",tuned"]
              line = line "," ((m > 0 && t != "") ? sprintf("%.3f", t / m) : "")
            }
            print line
          }
        }' "$OUT/tuning/pairs.csv" | sort >> "$OUT/tuning/summary.csv"
      cat "$OUT/tuning/summary.csv"
      note "tuning: tuned/manual ratios per pair -> tuning/summary.csv" ;;
    diss-fig5-11)
      run "$id" "$OUT/$id-dissertation" "${files[@]}"
      run "$id" "$OUT/$id-default" "${files[@]}" --set profile=none --set clients=800 ;;
    diss-fig5-11-toggles)
      # today's defaults (profile none, 800 clients) with one of the dissertation profile's keys at a time
      run "$id" "$OUT/$id-none" "${files[@]}" --set profile=none --set clients=800
      run "$id" "$OUT/$id-round-trips" "${files[@]}" --set profile=none --set clients=800 \
        --set workload.roundTrips=per-operation
      run "$id" "$OUT/$id-deadlock-timeout" "${files[@]}" --set profile=none --set clients=800 \
        --set 'treeOptions.2pl={deadlock: timeout, lockTimeout: 100ms}'
      run "$id" "$OUT/$id-backoff" "${files[@]}" --set profile=none --set clients=800 --set retry.backoff=0us \
        --set retry.maxBackoff=0us --set 'retry.byMechanism={ssi: 5ms}'
      run "$id" "$OUT/$id-clients" "${files[@]}" --set profile=none --set clients=2000
      run "$id" "$OUT/$id-durability" "${files[@]}" --set profile=none --set clients=800 \
        --set durability.enabled=true ;;
    diss-fig4-7|diss-fig4-9|diss-fig4-10|diss-fig4-11)
      run "$id" "$OUT/$id-dissertation" "${files[@]}"
      copy_charts "$OUT/$id-dissertation" "$id-dissertation"
      run "$id" "$OUT/$id-default" "${files[@]}" --set profile=none --set workload.execution=procedures
      copy_charts "$OUT/$id-default" "$id-default" ;;
    chiller)
      echo "reproduce: [chiller] scripts/tebaldi partition $EXP/chiller/neworder-chiller.yaml --out $EXP/chiller/placement.json"
      if (cd "$ROOT" && "$TEBALDI" partition "$EXP/chiller/neworder-chiller.yaml" --profile 10s \
            --stats-out "$OUT/chiller-stats.json" --out "$EXP/chiller/placement.json"); then
        note "chiller: placement written to $EXP/chiller/placement.json (statistics: chiller-stats.json)"
        run "chiller" "$OUT/chiller" "${files[@]}" --set "clients=[25,50,100]" --set warmup=3s --set duration=10s
        copy_charts "$OUT/chiller" chiller
      else
        note "chiller: partition FAILED"
        worst=3
      fi ;;
  esac
done

if [ "${#RUN_DIRS[@]}" -gt 0 ]; then
  echo
  echo "reproduce: scripts/tebaldi report (${#RUN_DIRS[@]} run directories) --out report.html"
  if (cd "$ROOT" && "$TEBALDI" report "${RUN_DIRS[@]}" --out "$OUT/report.html"); then
    note "report: report.html compares every run above (configurations, charts, trees, checks)"
  else
    note "report: report.html FAILED"
  fi
fi

echo
note "done in $(( (SECONDS - start) / 60 ))m$(( (SECONDS - start) % 60 ))s; charts: $(cd "$OUT" && ls -- *.png 2>/dev/null | tr '\n' ' ')"
echo "reproduce: everything is in $OUT (index.txt lists the runs)"
exit $worst
