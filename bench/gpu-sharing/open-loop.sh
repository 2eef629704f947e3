#!/bin/bash
# Measures the open-loop rows the sharing model predicts (the "big" workload, Poisson arrivals at
# 60 requests/s per tenant, 1, 2 and 4 tenants) under time-slicing and, where its daemon starts, MPS.
# Same tenant and summary as the closed-loop calibration runs; nothing on the card is changed
# (the MPS control daemon is started for the MPS rows and stopped after).
set -u
cd "$(dirname "$0")"
OUTD=${RESULTS_DIR:-results}; mkdir -p "$OUTD"
nvidia-smi --query-gpu=name,memory.total,mig.mode.current,compute_mode,driver_version,clocks.max.sm --format=csv | tee "$OUTD/gpu.csv"
run() { # label n args...
  local label=$1 n=$2; shift 2
  local start; start=$(python3 -c 'import time;print(time.time()+25)')
  local pids=()
  for i in $(seq 1 "$n"); do
    python3 tenant.py --start "$start" --seed "$i" "$@" > "$OUTD/$label.n$n.t$i.json" 2>>"$OUTD/err.log" & pids+=($!)
  done
  wait "${pids[@]}"
  python3 summarize.py "$label" "$n" "$OUTD/$label.n$n".t*.json | tee -a "$OUTD/summary.txt"
}
for n in 1 2 4; do run timeslice-big-open "$n" --dim 8192 --layers 24 --tokens 4 --rate 60 --seconds 8; done
export CUDA_MPS_PIPE_DIRECTORY=/tmp/mps-pipe CUDA_MPS_LOG_DIRECTORY=/tmp/mps-log
mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
if command -v nvidia-cuda-mps-control >/dev/null && nvidia-cuda-mps-control -d; then
  for n in 1 2 4; do run mps-big-open "$n" --dim 8192 --layers 24 --tokens 4 --rate 60 --seconds 8; done
  echo quit | nvidia-cuda-mps-control
else
  echo "MPS control daemon not available here; MPS rows not measured" | tee -a "$OUTD/summary.txt"
fi
