#!/usr/bin/env python3
"""A stand-in OTLP/HTTP logs endpoint for the collector's forwarding tests.

usage: otlp_receiver.py PORT_FILE BODIES_FILE HEADERS_FILE

Listens on 127.0.0.1 at a port the system picks and writes it to PORT_FILE. Every POST is
answered 200 with `{}`; its body is appended to BODIES_FILE (one request a line) and its
Authorization header to HEADERS_FILE.
"""
import http.server
import sys

port_file, bodies_file, headers_file = sys.argv[1:4]


class Endpoint(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        with open(bodies_file, "ab") as bodies:
            bodies.write(body + b"\n")
        with open(headers_file, "a", encoding="utf-8") as headers:
            headers.write((self.headers.get("Authorization") or "") + "\n")
        answer = b"{}"
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *arguments):
        pass


server = http.server.HTTPServer(("127.0.0.1", 0), Endpoint)
with open(port_file + ".partial", "w", encoding="utf-8") as port:
    port.write(str(server.server_address[1]))
import os

os.rename(port_file + ".partial", port_file)
server.serve_forever()
