#!/usr/bin/env python3
"""Writes a Perfetto trace without its padding packets (a TracePacket
holding only rtg's padding field, 2047) to stdout, and their count to
stderr: what rtg-convert writes to a file is what it writes to a pipe,
plus the padding that fills the room before the events.

    strip_padding.py TRACE.pftrace > STRIPPED.pftrace"""
import sys

PADDING = 2047


def varint(b, i):
    v = s = 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7F) << s
        s += 7
        if c < 0x80:
            return v, i


def main():
    b = open(sys.argv[1], "rb").read()
    out = bytearray()
    i = pads = 0
    while i < len(b):
        _, j = varint(b, i)
        n, k = varint(b, j)
        tag, t = varint(b, k) if n else (0, k)
        if n and tag >> 3 == PADDING:
            length, f = varint(b, t)
            if f + length != k + n:
                sys.exit("strip_padding: a padding packet with other fields")
            pads += 1
        else:
            out += b[i : k + n]
        i = k + n
    sys.stdout.buffer.write(out)
    print("padding packets: %d" % pads, file=sys.stderr)


main()
