#!/usr/bin/env bash
# The rolling-origin cells a CPU takes hours for (PatchTST: 13 to 61 CPU minutes per 10 %-label cell on ETTm1,
# Weather and VIX), run on one CUDA machine in under ten minutes: one process per dataset and
# half of the seeds, side by side on the GPU, each starting no new cell after MINUTES minutes.
#
#     bash benchmarks/experiments/rolling_gpu.sh OUT [MINUTES] [METHOD] [DATASET ...]
#
# OUT gets one results file per process (rolling_<dataset>_<seeds>.jsonl) and its log; append
# the records to benchmarks/event_results.jsonl and regenerate the report. Cells that did not
# start are listed as missing in the report's rolling-origin section; rerun for them.
set -euo pipefail
out=${1:?usage: rolling_gpu.sh OUT [MINUTES] [METHOD] [DATASET ...]}
minutes=${2:-7}
method=${3:-patchtst}
shift $(( $# < 3 ? $# : 3 ))
datasets=("$@")
[ ${#datasets[@]} -gt 0 ] || datasets=(ETTm1 Weather VIX Beijing MBA)
mkdir -p "$out"
export OMP_NUM_THREADS=1
for dataset in "${datasets[@]}"; do
  for seeds in "1 2" "3 4"; do
    name="rolling_${dataset}_${seeds// /}"
    # shellcheck disable=SC2086  # the seeds are two words
    hepa-bench run --split rolling --datasets "$dataset" --seeds $seeds --label-fractions 1.0 0.1 \
      --methods "$method" --device cuda --threads 1 --max-minutes "$minutes" \
      --results "$out/$name.jsonl" > "$out/$name.log" 2>&1 &
  done
done
wait
tail -n 2 "$out"/rolling_*.log
