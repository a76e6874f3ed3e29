#!/usr/bin/env bash
# Fuzzes the input readers with libFuzzer, ASan and UBSan (clang):
#   scripts/fuzz.sh SECONDS [TARGET...]     targets: shape table space journal (default: all), SECONDS each
# Builds into build-fuzz/ (GEMMTUNE_FUZZ_BUILD_DIR overrides). Seeds: tests/data/fuzz/TARGET and the bad-input
# corpus; inputs found new are kept in build-fuzz/corpus/TARGET across runs. A crash, leak, sanitizer report or
# broken invariant stops with exit 1 and names the input (build-fuzz/crashes/); once fixed, copy that input into
# tests/data/fuzz/TARGET/ so the corpus replay in ctest keeps it fixed.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${GEMMTUNE_FUZZ_BUILD_DIR:-$root/build-fuzz}
usage() { echo "usage: scripts/fuzz.sh SECONDS [shape|table|space|journal ...]" >&2; exit 2; }
[ $# -ge 1 ] || usage
seconds=$1; shift
[[ "$seconds" =~ ^[1-9][0-9]*$ ]] || { echo "fuzz.sh: SECONDS: '$seconds': expected a positive whole number" >&2; exit 2; }
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(shape table space journal)
for t in "${targets[@]}"; do
  case "$t" in shape|table|space|journal) ;; *) echo "fuzz.sh: target '$t': expected shape, table, space or journal" >&2; exit 2 ;; esac
done

"$root/scripts/install-deps.sh"
command -v clang++ >/dev/null || { echo "fuzz.sh: clang++ not found (Debian packages clang, libclang-rt-dev)" >&2; exit 3; }
flags="-fsanitize=address,undefined,fuzzer-no-link -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
    -DGEMMTUNE_FUZZ=ON -DGEMMTUNE_TESTS=OFF -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" >&2
fi
cmake --build "$build" -j"$(nproc)" --target $(printf 'fuzz_%s ' "${targets[@]}") >&2

# The shape corpus is one line per input; libFuzzer wants one file per input, with the parser-selector byte first.
seeds=$build/seeds
rm -rf "$seeds" && mkdir -p "$seeds/shape"
python3 - "$root/tests/data/bad/shapes.txt" "$seeds/shape" <<'PY'
import sys
for i, line in enumerate(open(sys.argv[1], 'rb').read().split(b'\n')):
    for selector in range(4):
        open(f'{sys.argv[2]}/line{i}-{selector}', 'wb').write(bytes([selector]) + line)
PY
declare -A extra=(
  [shape]="$seeds/shape"
  [table]="$root/tests/data/bad/tables $root/results/baselines"
  [space]="$root/tests/data/bad/spaces $root/configs/spaces"
  [journal]=""
)

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
mkdir -p "$build/crashes"
status=0
for t in "${targets[@]}"; do
  corpus=$build/corpus/$t
  mkdir -p "$corpus"
  echo "fuzz.sh: $t for ${seconds} s" >&2
  # shellcheck disable=SC2086
  if ! "$build/tests/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
       -print_final_stats=1 -artifact_prefix="$build/crashes/$t-" "$corpus" "$root/tests/data/fuzz/$t" ${extra[$t]} \
       >"$build/$t.log" 2>&1; then
    echo "fuzz.sh: $t FAILED (log $build/$t.log, inputs in $build/crashes/):" >&2
    grep -E "ERROR|invariant|SUMMARY|Test unit written" "$build/$t.log" | head -5 >&2 || true
    status=1
  else
    runs=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$build/$t.log" | grep -Eo '[0-9]+$' || echo "?")
    echo "fuzz.sh: $t clean: $runs inputs in ${seconds} s, corpus $(ls "$corpus" | wc -l) files" >&2
  fi
done
exit $status
