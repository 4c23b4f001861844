#!/bin/sh
# A working engine for the match tests: speaks the `mancala engine` line
# protocol and plays the lowest legal move, which it learns by running
# `mancala replay` (the program given as $1) on the position and moves.
# Its `info` line carries two bytes that are not UTF-8: a runner must read
# past them.
mancala="$1"
pos=""
moves=""
while read -r line; do
    set -- $line
    case "$1" in
        isready) echo readyok ;;
        quit) exit 0 ;;
        position)
            shift
            pos="$1 $2 $3 $4"
            shift 4
            [ "$1" = moves ] && shift
            moves="$*"
            ;;
        go)
            legal=$("$mancala" replay "$pos" $moves --json | tail -n 1 |
                sed 's/.*"legal":\[\([0-9,]*\)\].*/\1/')
            printf 'info string \377\376\n'
            echo "info depth 1 score 0 pv ${legal%%,*}"
            echo "bestmove ${legal%%,*}"
            ;;
    esac
done
