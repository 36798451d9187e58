#!/bin/sh
# Rebuilds the glslang modules of the validator's suite (glslangValidator;
# the .spv files are committed) and checks them with spirv-val.
set -e
cd "$(dirname "$0")"
for s in nv1_int_convert nv1_ops; do
  glslangValidator -V --target-env vulkan1.1 -o $s.spv $s.comp >/dev/null
  spirv-val --target-env vulkan1.1 $s.spv
done
