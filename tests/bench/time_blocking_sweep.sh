#!/usr/bin/env bash
# tests/bench/time_blocking_sweep.sh — builds tests/bench/time_blocking_sweep.cu
# for each setting (steps, tile, z chunk) in parallel and runs them one by one.
set -u
cd "$(dirname "$0")/../.." || exit 2
out=${OUT_DIR:-build/tb-sweep}
mkdir -p "$out"
arch=${ARCH:-sm_90}
settings=${SETTINGS:-"4,32,32,64,1,0 4,32,32,64,2,0 4,32,32,64,2,1 4,32,64,64,4,1 3,32,64,64,4,1 5,32,64,64,4,1 4,32,64,32,4,1 4,32,48,64,3,1 4,32,128,64,8,1 4,32,64,128,4,1"}
for s in $settings; do
    IFS=, read -r st tx ty zc rows shfl fring minb <<<"$s"
    echo "nvcc -O3 -arch=$arch -Ikernels -DSTEPS=$st -DTILE_X=$tx -DTILE_Y=$ty -DIN_TILE_DIM=$tx -DZ_CHUNK=$zc -DROWS=$rows -DX_FROM_SHUFFLE=$shfl -DF_RING=${fring:-1} -DMIN_BLOCKS=${minb:-1} tests/bench/time_blocking_sweep.cu -o $out/s$st-$tx-$ty-$zc-$rows-$shfl-${fring:-1}-${minb:-1}"
done | xargs -P 8 -I{} sh -c '{}' || exit 2
for s in $settings; do
    IFS=, read -r st tx ty zc rows shfl fring minb <<<"$s"
    echo "rows $rows, x from shuffles $shfl, f ring ${fring:-1}, blocks an SM at least ${minb:-1}:"
    "$out/s$st-$tx-$ty-$zc-$rows-$shfl-${fring:-1}-${minb:-1}"
done
