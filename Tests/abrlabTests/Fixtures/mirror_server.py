#!/usr/bin/env python3
"""A dataset mirror on 127.0.0.1 for the offline fetch tests: serves ROOT with Range requests
(206), logs each GET as `PATH RANGE` to LOG, and sends the first response for a path ending in
SLOW (if given) in 8 KiB pieces 20 ms apart, so a test can kill a fetch half way. With
--no-ranges it answers every request with the whole file (200), as servers without range
support do. Prints the port it listens on, then serves until killed or for at most 120 s.

--fault MODE:NAME makes every answer for a path ending in NAME misbehave, as a broken or hostile
mirror does:
  endless   200 with no Content-Length: the file, then zeros (64 MiB, a bound for a client
            that never stops, so a test of one cannot fill the disk)
  long      200 with a Content-Length of 10 GB, then the file
  longrange to a ranged request, 206 with the true Content-Range but a Content-Length 1000 too
            long, then the rest of the file
  trickle   200 with the true Content-Length, then one byte a second
  redirect  302 to file:///etc/passwd
  folder    301 to the path with a `/` added, as Python's http.server answers for a folder
  refuse    416 to every request, ranged or not

  mirror_server.py ROOT LOG [SLOW] [--no-ranges] [--fault MODE:NAME]...
"""
import http.server
import os
import sys
import threading
import time

NO_RANGES = "--no-ranges" in sys.argv
FAULTS = []
ARGUMENTS = []
_rest = iter(sys.argv[1:])
for _argument in _rest:
    if _argument == "--fault":
        mode, _, name = next(_rest).partition(":")
        FAULTS.append((mode, name))
    elif _argument != "--no-ranges":
        ARGUMENTS.append(_argument)
ROOT, LOG = ARGUMENTS[0], ARGUMENTS[1]
SLOW = ARGUMENTS[2] if len(ARGUMENTS) > 2 else None
slowed = set()
lock = threading.Lock()


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        path = os.path.normpath(os.path.join(ROOT, self.path.lstrip("/")))
        header = self.headers.get("Range", "-")
        with lock, open(LOG, "a") as log:
            log.write(f"{self.path} {header}\n")
        if not path.startswith(os.path.abspath(ROOT)) or not os.path.isfile(path):
            self.send_error(404)
            return
        data = open(path, "rb").read()
        fault = next((mode for mode, name in FAULTS if self.path.endswith(name)), None)
        try:
            if fault:
                self.misbehave(fault, data)
                return
            self.serve(header, data)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def misbehave(self, fault, data):
        if fault == "redirect":
            self.send_response(302)
            self.send_header("Location", "file:///etc/passwd")
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif fault == "folder":
            self.send_response(301)
            self.send_header("Location", self.path + "/")
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif fault == "refuse":
            self.send_response(416)
            self.send_header("Content-Range", f"bytes */{len(data)}")
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif fault == "long":
            self.send_response(200)
            self.send_header("Content-Length", str(10 * 1000 ** 3))
            self.end_headers()
            self.wfile.write(data)
            self.wfile.flush()
            time.sleep(5)
        elif fault == "longrange":
            start = int(self.headers.get("Range", "bytes=0-")[len("bytes="):].split("-")[0])
            self.send_response(206)
            self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
            self.send_header("Content-Length", str(len(data) - start + 1000))
            self.end_headers()
            self.wfile.write(data[start:])
            self.wfile.flush()
            time.sleep(5)
        elif fault == "endless":
            self.send_response(200)
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(data)
            for _ in range(1024):
                self.wfile.write(bytes(65536))
        elif fault == "trickle":
            self.send_response(200)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            for offset in range(min(len(data), 30)):
                self.wfile.write(data[offset:offset + 1])
                self.wfile.flush()
                time.sleep(1)
        self.close_connection = True

    def serve(self, header, data):
        start = 0
        if header.startswith("bytes=") and not NO_RANGES:
            start = int(header[len("bytes="):].split("-")[0])
            if start >= len(data):
                self.send_response(416)
                self.send_header("Content-Range", f"bytes */{len(data)}")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            self.send_response(206)
            self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
        else:
            self.send_response(200)
        body = data[start:]
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        slow = False
        with lock:
            if SLOW and self.path.endswith(SLOW) and self.path not in slowed:
                slowed.add(self.path)
                slow = True
        if slow:
            for offset in range(0, len(body), 8192):
                self.wfile.write(body[offset:offset + 8192])
                self.wfile.flush()
                time.sleep(0.02)
        else:
            self.wfile.write(body)


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
threading.Timer(120, server.shutdown).start()
server.serve_forever()
