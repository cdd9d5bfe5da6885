#!/bin/bash
# usage: cpusample.sh <cmd...>; prints cpu seconds per command name (max over samples per pid)
"$@" > /tmp/cpusample.out 2>&1 &
P=$!
declare -A T
while kill -0 $P 2>/dev/null; do
  while read pid comm t; do T["$pid $comm"]=$t; done < <(ps -eo pid=,comm=,times=)
  sleep 1
done
for k in "${!T[@]}"; do echo "$k ${T[$k]}"; done | awk '{s[$2]+=$3} END {for (c in s) if (s[c]>0) print s[c], c}' | sort -rn | head
