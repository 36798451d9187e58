#!/bin/sh
# On the GPU machine, from anywhere: runs printf_plain, printf_divergent and
# printf_callbacks through vkrun with the Khronos validation layer's
# DebugPrintf, and compares the lines the GPU printed with what coopvm
# prints (expected_*.txt, the message texts of `coopvm run --printf`, made
# by ../printf_model.py --text), up to order.  Needs debs/ (fetch_debs.sh).
# Writes gpu_*.txt (vkrun's whole stdout) and prints one line per shader.
set -u
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
root=$here/root
mkdir -p "$root"
for d in debs/*.deb; do dpkg -x "$d" "$root"; done
lib=$root/usr/lib/x86_64-linux-gnu
export LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export VK_LAYER_PATH=$root/usr/share/vulkan/explicit_layer.d
export VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation
# the layer of Debian 12 (1.3.239): the settings file, and its own variables
export VK_LAYER_SETTINGS_PATH=$here/vk_layer_settings.txt
export VK_LAYER_ENABLES=VK_VALIDATION_FEATURE_ENABLE_DEBUG_PRINTF_EXT
export DEBUG_PRINTF_TO_STDOUT=1
# newer layers (1.3.275 on) read these instead
export VK_LAYER_PRINTF_ENABLE=1 VK_LAYER_PRINTF_TO_STDOUT=1 VK_LAYER_PRINTF_BUFFER_SIZE=1048576
if [ -z "${VK_DRIVER_FILES:-}" ]; then
  icd=$(find /usr/share/vulkan /etc/vulkan /usr/local/nvidia /usr/lib /opt -name 'nvidia_icd*.json' 2>/dev/null | head -n 1)
  [ -n "$icd" ] && export VK_DRIVER_FILES=$icd
fi
vkrun=${VKRUN:-}
for c in "$here/../../../../shared/tools/vkrun/vkrun" "$here/../../../shared/tools/vkrun/vkrun" \
         "$here/../../../../../shared/tools/vkrun/vkrun"; do
  [ -z "$vkrun" ] && [ -x "$c" ] && vkrun=$c
done
[ -n "$vkrun" ] || { echo "no vkrun: set VKRUN=/path/to/shared/tools/vkrun/vkrun"; exit 2; }
echo "layer: $(ls "$VK_LAYER_PATH") driver files: ${VK_DRIVER_FILES:-default} vkrun: $vkrun"
status=0
for s in ${SHADERS:-printf_plain printf_divergent printf_callbacks}; do
  # unbuffered: newer layers abort at exit (see README), which would drop
  # whatever stdio still held
  stdbuf -o0 -e0 "$vkrun" $s.run > gpu_$s.txt 2> gpu_$s.err
  rc=$?
  # vkrun's own lines (info..., ok, median) and the layer's reports are not messages
  # (a layer report spans several lines: "VUID-... Validation Error: ...", "    Objects: 1",
  # "        [0] 0, type: 3, name: NULL")
  grep -v -e '^info ' -e '^ok' -e '^median' -e '^first_run' -e 'Validation' -e '^VUID' \
       -e 'UNASSIGNED' -e '^ *Objects: [0-9]' -e '^ *\[[0-9]*\] .*type: [0-9]*, name: ' \
       -e '^ *\[[0-9]*\] Vk' -e '^vk[A-Z][A-Za-z]*(): ' -e '^The Vulkan spec states' \
       -e '^INVALID_EMPTY(): ' -e '^$' \
       gpu_$s.txt | LC_ALL=C sort > gpu_$s.sorted
  LC_ALL=C sort expected_$s.txt > expected_$s.sorted
  # the 1.4.309 layer prints every message, then aborts in its exit
  # handlers ("Resource deadlock avoided"): a crash after the output is not
  # the shader's failure, so it is reported beside the comparison
  crashed=""
  if [ $rc -ne 0 ] && grep -q 'Resource deadlock avoided' gpu_$s.err; then
    crashed=" (the layer aborted at exit: $rc)"; rc=0
  fi
  if [ $rc -ne 0 ]; then
    echo "$s: vkrun failed ($rc): $(tail -n 3 gpu_$s.err | tr '\n' ' ')"; status=1
  elif [ ! -s gpu_$s.sorted ]; then
    echo "$s: the GPU printed no message (was the shader instrumented? see gpu_$s.txt, gpu_$s.err)"; status=1
  elif cmp -s gpu_$s.sorted expected_$s.sorted; then
    echo "$s: SAME $(wc -l < expected_$s.sorted) lines as coopvm, up to order$crashed"
  else
    echo "$s: DIFFERENT$crashed: $(diff expected_$s.sorted gpu_$s.sorted | grep -c '^<') of coopvm's $(wc -l < expected_$s.sorted) lines missing, $(diff expected_$s.sorted gpu_$s.sorted | grep -c '^>') GPU lines extra"
    diff expected_$s.sorted gpu_$s.sorted | head -n 20
    status=1
  fi
done
exit $status
