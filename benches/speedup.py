# Time to equal depth, 1 vs 2 threads, over the Bohnenspiel bench positions.
# Usage (from the workspace root, after cargo build --release): python3 benches/speedup.py DEPTH
import subprocess, time, json, statistics, sys
D=int(sys.argv[1])
pos=[l.strip() for l in open("positions/bench.txt") if l.strip() and not l.startswith("#") and l.startswith("bohnenspiel ")]
ratios=[]
for p in pos:
    t={}
    for th in (1,2):
        s=time.time(); r=subprocess.run(["./target/release/mancala","analyze",p,"--depth",str(D),"--threads",str(th),"--json"],capture_output=True,text=True); t[th]=time.time()-s
        j=json.loads(r.stdout.splitlines()[-1])
    ratios.append(t[1]/t[2]); print(p, "1t %.2fs 2t %.2fs speedup %.2f"%(t[1],t[2],t[1]/t[2]), flush=True)
print("median speedup", statistics.median(ratios))
