#!/usr/bin/env python3
"""Writes fuzz/seeds/appdecode/: streams for fuzz_appdecode (its input format is in
fuzz/fuzz_appdecode.c), one per situation the decoder must follow: a basic and an extended
client answering a resize, a negative counter, fences, a child window painted by the server.
Run it again after changing the format: python3 fuzz/appdecode_seeds.py"""
import os
import struct

ROOT, TOP, CHILD = 0x1ff, 0x00800001, 0x00800002
C1, C2, F1 = 0x00800003, 0x00800004, 0x00800005
A = {"WM_PROTOCOLS": 300, "_NET_WM_SYNC_REQUEST": 301, "_NET_WM_SYNC_REQUEST_COUNTER": 302,
     "_NET_WM_SYNC_FENCES": 303, "_NET_WM_SYNC_DRAWN": 304, "_NET_WM_FRAME_DRAWN": 305}
SYNC = 130


def el(who, data):
    return bytes([who]) + struct.pack("<H", len(data)) + data


def req(op, minor, body):
    data = bytes([op, minor]) + struct.pack("<H", (4 + len(body) + 3) // 4) + body
    return data + b"\0" * (-len(data) % 4)


def create_window(w, parent, width=200, height=150):
    return req(1, 0, struct.pack("<IIhhHHHHII", w, parent, 0, 0, width, height, 0, 1, 0, 0))


def change_property(w, prop, values):
    return req(18, 0, struct.pack("<IIIB3xI", w, prop, 6, 32, len(values)) + b"".join(struct.pack("<I", v) for v in values))


def int64(v):
    return struct.pack("<iI", v >> 32, v & 0xffffffff)


def create_counter(c, v):
    return req(SYNC, 2, struct.pack("<I", c) + int64(v))


def set_counter(c, v):
    return req(SYNC, 3, struct.pack("<I", c) + int64(v))


def create_fence(f):
    return req(SYNC, 14, struct.pack("<IIB3x", ROOT, f, 0))


def trigger_fence(f):
    return req(SYNC, 15, struct.pack("<I", f))


def map_window(w):
    return req(8, 0, struct.pack("<I", w))


def configure_window(w, width, height):
    return req(12, 0, struct.pack("<IHH", w, 0x0c, 0) + struct.pack("<II", width, height))


def sync_request(w, v, extended):
    ev = struct.pack("<BBHII", 33, 32, 0, w, A["WM_PROTOCOLS"]) + struct.pack(
        "<5I", A["_NET_WM_SYNC_REQUEST"], 0, v & 0xffffffff, (v >> 32) & 0xffffffff, extended)
    return req(25, 0, struct.pack("<II", w, 0) + ev)   # SendEvent: destination, mask, the event


def configure_notify(w, width, height):
    return struct.pack("<BBHIIIhhHHHB5x", 22, 0, 0, w, w, 0, 0, 0, width, height, 0, 0)


def damage(w, x, y, width, height, gw, gh):
    return struct.pack("<BBHIIIhhHHhhHH", 91, 0, 0, w, 0, 0, x, y, width, height, 0, 0, gw, gh)


def client(extended, start=0, fences=False, child=False):
    s = el(0, create_window(TOP, ROOT))
    s += el(0, change_property(TOP, A["WM_PROTOCOLS"], [A["_NET_WM_SYNC_REQUEST"]]))
    s += el(0, create_counter(C1, 0))
    if extended:
        s += el(0, create_counter(C2, start))
    s += el(0, change_property(TOP, A["_NET_WM_SYNC_REQUEST_COUNTER"], [C1, C2] if extended else [C1]))
    if fences:
        s += el(0, create_fence(F1)) + el(0, change_property(TOP, A["_NET_WM_SYNC_FENCES"], [F1]))
    if child:
        s += el(0, create_window(CHILD, TOP, 1, 1)) + el(0, map_window(CHILD))
    s += el(0, map_window(TOP))
    s += el(3, damage(TOP, 0, 0, 200, 150, 200, 150))
    s += el(1, sync_request(TOP, start + 10, 1 if extended else 0))
    s += el(1, configure_window(TOP, 480, 360))
    s += el(2, configure_notify(TOP, 480, 360))
    if child:   # the server paints the child: not the application's drawing
        s += el(0, configure_window(CHILD, 480, 360)) + el(3, damage(TOP, 0, 0, 480, 360, 480, 360))
    else:
        s += el(0, req(70, 0, struct.pack("<II", TOP, 1))) + el(3, damage(TOP, 0, 0, 480, 360, 480, 360))
    if fences:
        s += el(0, trigger_fence(F1))
    s += el(0, set_counter(C1, start + 10))
    if extended:
        s += el(0, set_counter(C2, start + 10))
    return s


def main():
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "seeds", "appdecode")
    os.makedirs(out, exist_ok=True)
    seeds = {"basic-answer": client(False), "extended-answer": client(True), "negative-counter": client(True, -1000),
             "fences": client(True, fences=True), "child-server-paint": client(True, child=True),
             "empty": b"", "truncated": client(True)[:57]}
    for name, data in seeds.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
