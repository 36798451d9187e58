#!/bin/sh
# Run on a machine with Debian's package lists (not on the GPU machine,
# which reaches no network): downloads the Khronos validation layer and the
# Vulkan loader with what NVIDIA's driver needs, into debs/ beside this
# script.  run_gpu.sh unpacks them.
set -eu
cd "$(dirname "$0")"
mkdir -p debs
cd debs
apt-get download vulkan-validationlayers libvulkan1 libglvnd0 libegl1
ls -l
