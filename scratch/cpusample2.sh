#!/bin/bash
"$@" > /tmp/cpusample.out 2>&1 &
P=$!
: > /tmp/samples
while kill -0 $P 2>/dev/null; do ps -eo pid=,times=,args= >> /tmp/samples; sleep 1; done
python3 - <<'PY'
import re,collections
last={}
for line in open('/tmp/samples'):
    parts=line.split(None,2)
    if len(parts)<3: continue
    pid,t,args=parts
    exe=args.split()[0]
    m=re.search(r'--type=([a-z-]+)',args); s=re.search(r'--utility-sub-type=([\w.]+)',args)
    key=exe.split('/')[-1]+(':'+m.group(1) if m else '')+(':'+s.group(1) if s else '')
    if 'node' in key and 'tsx' in args: key+=' '+args.split()[-1][-40:]
    last[(pid,key)]=int(t)
agg=collections.Counter()
for (pid,key),t in last.items(): agg[key]+=t
for k,v in agg.most_common(15):
    if v: print(v,k)
PY
