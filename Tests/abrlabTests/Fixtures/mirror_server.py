#!/usr/bin/env python3
"""A dataset mirror on 127.0.0.1 for the offline fetch tests: serves ROOT with Range requests
(206), logs each GET as `PATH RANGE` to LOG, and sends the first response for a path ending in
SLOW (if given) in 8 KiB pieces 20 ms apart, so a test can kill a fetch half way. With
--no-ranges it answers every request with the whole file (200), as servers without range
support do. Prints the port it listens on, then serves until killed or for at most 120 s.

  mirror_server.py ROOT LOG [SLOW] [--no-ranges]
"""
import http.server
import os
import sys
import threading
import time

NO_RANGES = "--no-ranges" in sys.argv
ARGUMENTS = [argument for argument in sys.argv[1:] if argument != "--no-ranges"]
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
        try:
            if slow:
                for offset in range(0, len(body), 8192):
                    self.wfile.write(body[offset:offset + 8192])
                    self.wfile.flush()
                    time.sleep(0.02)
            else:
                self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
threading.Timer(120, server.shutdown).start()
server.serve_forever()
