#!/bin/sh
# A deliberately broken engine for the match tests. It answers `isready`
# like a real one, then misbehaves on `go` as its argument says:
#   garbage  sends a move that is not a move ("bestmove banana")
#   illegal  sends a move that is not legal ("bestmove 99")
#   crash    exits with status 3
#   hang     never answers
#   dead     exits before answering `isready`
#   flood    answers with `info` lines without end
#   longline answers with one line that never ends
#   orphan   starts a child of its own (its pid written to the file $2),
#            then never answers
mode="$1"
[ "$mode" = dead ] && exit 1
if [ "$mode" = orphan ]; then
    sleep 300 &
    echo $! > "$2"
fi
while read -r line; do
    case "$line" in
        isready) echo readyok ;;
        quit) exit 0 ;;
        go*)
            case "$mode" in
                garbage) echo "info depth 1 score 0"; echo "bestmove banana" ;;
                illegal) echo "bestmove 99" ;;
                crash) exit 3 ;;
                hang | orphan) ;;
                flood) while :; do echo "info depth 1 score 0 nodes 1"; done ;;
                longline) while :; do printf 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'; done ;;
            esac
            ;;
    esac
done
