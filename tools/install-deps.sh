#!/usr/bin/env bash
# Installs what adacloth needs to build and test, from Debian's packages. Idempotent, and silent when everything is
# already there. Run as root (or with sudo) on Debian 12. libopenblas0-serial is the BLAS under CHOLMOD's supernodal
# factorization (the direct solve): several times faster than the reference BLAS, and single-threaded, so a shot's
# bytes do not depend on how many threads the BLAS would use.
#   tools/install-deps.sh            build and test dependencies
#   tools/install-deps.sh --extras   also ffmpeg and gnuplot, for tools/make_movie.sh and tools/plot_stats.sh
set -euo pipefail

# python3 runs tools/stress.py (the ctest label `stress`); clang, its libFuzzer runtime (libclang-rt-14-dev) and its
# OpenMP (libomp-dev) build the fuzz targets of tools/fuzz.sh.
packages=(cmake make g++ libeigen3-dev nlohmann-json3-dev libpng-dev catch2 libtinyobjloader-dev libspectra-dev
          libbenchmark-dev libsuitesparse-dev libopenblas0-serial liblbfgspp-dev python3 clang libclang-rt-14-dev
          libomp-dev)
packages+=(blender)  # the Blender client tests (ctest -L client, tools/blender/)
packages+=(slurmctld slurmd slurm-client munge)  # the local Slurm cluster of the farm test (ctest label farm)
# PyTorch (CPU) trains the patch-MLP upsampler (tools/train_patch_mlp.py) and checks adacloth's inference against it
# (ctest label mlp); adacloth itself never needs it.
packages+=(python3-torch python3-numpy)
if [[ "${1:-}" == "--extras" ]]; then packages+=(ffmpeg gnuplot-nox); fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then missing+=("$p"); fi
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

if [[ $(id -u) -ne 0 ]]; then
  if command -v sudo >/dev/null; then SUDO=sudo; else
    echo "install-deps: missing packages: ${missing[*]}; run this script as root" >&2
    exit 1
  fi
fi
echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
${SUDO:-} apt-get update -qq
${SUDO:-} apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
