#!/usr/bin/env bash
# Installs gemmtune's dependencies from Debian 12 / Ubuntu 24.04 packages: what the tool needs to build and run
# (`install-deps.sh --tool`, used by scripts/run), or that and what the tests need (no argument: scripts/test).
# Idempotent and non-interactive; works as root or through sudo. Does nothing when everything is present.
set -euo pipefail

packages=(
  cmake g++ make pkg-config
  libvulkan-dev libvulkan-volk-dev glslang-tools
  libcli11-dev nlohmann-json3-dev libspdlog-dev libfmt-dev libeigen3-dev
  mesa-vulkan-drivers
  python3
)
if [ "${1:-}" != "--tool" ]; then
  # The tests: GoogleTest, the validation layer, the table schema's checker, the sanitizer and fuzzing builds
  # (clang), the HTML report rendered headless (chromium), clean clones (git).
  packages+=(git libgtest-dev vulkan-validationlayers python3-jsonschema clang libclang-rt-dev chromium)
fi

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
  [ "$status" = "installed" ] || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}" >&2
sudo=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: not root and no sudo; install: ${missing[*]}" >&2; exit 1; }
  sudo=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -q
"${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
