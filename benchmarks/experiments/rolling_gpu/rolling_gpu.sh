#!/usr/bin/env bash
# The rolling-origin cells a CPU takes hours for (PatchTST: 13 to 61 CPU minutes per 10 %-label cell on ETTm1,
# Weather and VIX), run on one CUDA machine in under ten minutes: one process per dataset and
# half of the seeds, side by side on the GPU, each starting no new cell after MINUTES minutes.
#
#     bash benchmarks/experiments/rolling_gpu/rolling_gpu.sh OUT [MINUTES] [METHOD] [DATASET ...]
#
# Each process's results file in OUT (rolling_<dataset>_<seeds>.jsonl, beside its log) starts with
# the cells benchmarks/records/event_results.jsonl already holds for it, which the runner then skips; the
# records of the cells run here are collected in OUT/new_records.jsonl at the end. Append that
# file to benchmarks/records/event_results.jsonl and regenerate the report. Cells that did not start are
# listed as missing in the report's rolling-origin section; rerun for them.
set -euo pipefail
out=${1:?usage: rolling_gpu.sh OUT [MINUTES] [METHOD] [DATASET ...]}
minutes=${2:-7}
method=${3:-patchtst}
shift $(( $# < 3 ? $# : 3 ))
datasets=("$@")
[ ${#datasets[@]} -gt 0 ] || datasets=(ETTm1 Weather VIX Beijing MBA)
records=benchmarks/records/event_results.jsonl
mkdir -p "$out"
export OMP_NUM_THREADS=1
names=()
for dataset in "${datasets[@]}"; do
  for seeds in "1 2" "3 4"; do
    name="rolling_${dataset}_${seeds// /}"
    names+=("$name")
    # the cells already recorded for this process, so that it runs only the missing ones
    python - "$records" "$dataset" "$method" $seeds > "$out/$name.jsonl" <<'EOF'
import json, sys
path, dataset, method, *seeds = sys.argv[1:]
wanted = {(dataset, method, "rolling", seed) for seed in seeds}
with open(path) as lines:
    for line in lines:
        record = json.loads(line)
        if (record["dataset"], record["method"], record.get("split"), str(record["seed"])) in wanted:
            print(line, end="")
EOF
    wc -l < "$out/$name.jsonl" > "$out/$name.recorded"
    # shellcheck disable=SC2086  # the seeds are two words
    hepa-bench run --split rolling --datasets "$dataset" --seeds $seeds --label-fractions 1.0 0.1 \
      --methods "$method" --device cuda --threads 1 --max-minutes "$minutes" \
      --results "$out/$name.jsonl" > "$out/$name.log" 2>&1 &
  done
done
wait
: > "$out/new_records.jsonl"
for name in "${names[@]}"; do
  tail -n +"$(( $(cat "$out/$name.recorded") + 1 ))" "$out/$name.jsonl" >> "$out/new_records.jsonl"
done
tail -n 2 "$out"/rolling_*.log
echo "$(wc -l < "$out/new_records.jsonl") new records in $out/new_records.jsonl"
