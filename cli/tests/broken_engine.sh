#!/bin/sh
# A deliberately broken engine for the match tests. It answers `isready`
# like a real one, then misbehaves on `go` as its argument says:
#   garbage  sends a move that is not a move ("bestmove banana")
#   illegal  sends a move that is not legal ("bestmove 99")
#   crash    exits with status 3
#   hang     never answers
#   dead     exits before answering `isready`
mode="$1"
[ "$mode" = dead ] && exit 1
while read -r line; do
    case "$line" in
        isready) echo readyok ;;
        quit) exit 0 ;;
        go*)
            case "$mode" in
                garbage) echo "info depth 1 score 0"; echo "bestmove banana" ;;
                illegal) echo "bestmove 99" ;;
                crash) exit 3 ;;
                hang) ;;
            esac
            ;;
    esac
done
