#!/usr/bin/env bash
# The ladder of every game on a 16-core machine, the four games at once (each on all cores;
# the timing of moves is per thread, so the overlap does not change it). Run by hand with a
# cp312 wheel in .whl/ (benches/README.md, "Levels"):
#   bash benches/ladder_device.sh OUT_DIR [GAMES_ST GAMES_CARAVAN GAMES_DOG DEALS_THE_GAME]
# Each game writes OUT_DIR/ladder_GAME.json and its log; a game cut off by its time limit
# leaves its log (every pair's result as it finishes).
set -uo pipefail
out=${1:?OUT_DIR}
st=${2:-80}; caravan=${3:-80}; dog=${4:-16}; deals=${5:-80}
limit=${LADDER_LIMIT_S:-470}
export PYTHONUNBUFFERED=1
run() {
    local game=$1; shift
    timeout "$limit" python3 -m spielwerk ladder --game "$game" --threads 16 --positions 40 \
        --write "$out/ladder_$game.json" "$@" > "$out/log_$game.txt" 2>&1
    echo "$game exit $?" >> "$out/log_$game.txt"
}
run schotten_totten --games "$st" &
run caravan --games "$caravan" &
run dog --games "$dog" &
run the_game --games "$deals" --players 1,2,3 &
wait
