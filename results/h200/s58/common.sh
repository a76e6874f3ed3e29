# Shared by this session's calls: the GPU's state, and a tune's best per problem.
set -uo pipefail
source .gpu-kit/activate.sh
mkdir -p $d
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv | tee $d/gpu.txt
summary() { python3 -c "
import json,sys
d=json.load(open(sys.argv[1]))
for p in d['problems']:
    b=p.get('best') or {}
    print(p['problem'], p['layout'], 'evaluated', p['evaluated'], 'failed', p['failed'], 'best', b.get('name'), b.get('median_us'), 'us', round((b.get('gflops') or 0)/1000, 1), 'TFLOP/s', 'error', b.get('error'), 'bound', b.get('bound'))
" "$1"; }
