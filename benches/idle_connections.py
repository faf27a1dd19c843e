"""Idle and half-open connections against the release server (issue 11): N raw TCP connections that send
nothing ("silent") or half the HTTP/2 preface ("half"); prints the server's RSS and open descriptors with them
open, whether cheap calls are still answered meanwhile, and both again after the handshake timeout (10 s).

    cargo build --release && python3 benches/idle_connections.py 5000 silent   # or: 5000 half
    MANCALA_BIN=/path/to/other/mancala python3 benches/idle_connections.py 5000 half
"""
import socket, subprocess, time, os, sys, json, resource
resource.setrlimit(resource.RLIMIT_NOFILE, (20000, 20000))
B=os.environ.get("MANCALA_BIN", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "target", "release", "mancala"))
env=dict(os.environ, MANCALA__MATCHES__STORE="memory", MANCALA__LOG__FILTER="warn", MANCALA__LOG__FORMAT="json")
p=subprocess.Popen(["bash","-c","ulimit -n 20000; exec "+B+" serve --listen 127.0.0.1:50070"],env=env,stdout=subprocess.DEVNULL,stderr=subprocess.DEVNULL)
time.sleep(1.5)
def rss(): 
    for l in open(f"/proc/{p.pid}/status"):
        if l.startswith("VmRSS"): return l.split()[1]+" kB"
def fds(): return len(os.listdir(f"/proc/{p.pid}/fd"))
def cpu():
    f=open(f"/proc/{p.pid}/stat").read().split(); return (int(f[13])+int(f[14]))/os.sysconf('SC_CLK_TCK')
def cheap():
    r=subprocess.run([B,"loadtest","--target","http://127.0.0.1:50070","--connections","1","--concurrency","4","--requests","2000","--warmup","0s","--mix","validate=100","--no-progress","--json"],capture_output=True,text=True)
    try:
        j=json.loads(r.stdout); rep=j["rules"]; return rep["rpcs"][0]["outcomes"] if "rpcs" in rep else str(rep)[:200]
    except Exception as e: return r.stderr[-300:]
print("idle server: rss", rss(), "fds", fds(), "cpu", cpu())
socks=[]
N=int(sys.argv[1]); mode=sys.argv[2]
for i in range(N):
    s=socket.create_connection(("127.0.0.1",50070))
    if mode=="half": s.sendall(b"PRI * HTTP/2.0\r\n")
    socks.append(s)
time.sleep(1)
print(f"{N} {mode} connections: rss", rss(), "fds", fds(), "cpu", round(cpu(),2))
print("cheap calls meanwhile:", cheap())
time.sleep(11)
print(f"after 12 s: rss", rss(), "fds", fds(), "(the server's open descriptors: 10 when every connection was closed)", "cpu", round(cpu(),2))
p.kill()
