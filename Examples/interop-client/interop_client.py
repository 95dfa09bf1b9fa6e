#!/usr/bin/env python3
"""A drawing app that knows nothing of Inkwell: it speaks only the JSON stroke protocol
(interop-protocol.md: ADD, APPEND, DELETE) on a WebSocket, one message per text frame.

    python3 interop_client.py ws://127.0.0.1:8080/interop/ROOM?cap=CAPABILITY \
        --draw 2 --erase-own 0:1:2 --erase-theirs 0 --expect-adds 3

It draws --draw strokes (an ADD, then an APPEND of the rest of the points), erases what it is told to,
waits until it has heard --expect-adds strokes from others, and prints every message it received, one
JSON object a line. It exits 1 if the server sends an ERROR or the wait times out.
"""

import argparse
import json
import sys
import time

import websocket  # websocket-client, which Selenium brings along


def stroke(index):
    """Four points along a line, one stroke per row: start, then three more."""
    y = 40 + 30 * index
    return [[10, y], [60, y], [110, y], [160, y]]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("--draw", type=int, default=0)
    parser.add_argument("--erase-own", action="append", default=[], help="STROKE:START:END, parameters of a stroke it drew")
    parser.add_argument("--erase-theirs", action="append", type=int, default=[], help="a stroke heard from others, by the order heard, wholly")
    parser.add_argument("--expect-adds", type=int, default=0)
    parser.add_argument("--send-raw", action="append", default=[], help="a text frame sent as it is")
    parser.add_argument("--timeout", type=float, default=30)
    arguments = parser.parse_args()

    socket = websocket.create_connection(arguments.url, timeout=arguments.timeout)
    received = []
    errors = []

    def send(message):
        socket.send(json.dumps(message))

    for raw in arguments.send_raw:
        socket.send(raw)
    for index in range(arguments.draw):
        points = stroke(index)
        identifier = f"py_{index}"
        send({"type": "ADD", "identifier": identifier, "weight": 2, "colour": [200, 30, 30], "start": points[0]})
        send({"type": "APPEND", "identifier": identifier, "points": points[1:]})
    for erase in arguments.erase_own:
        index, start, end = erase.split(":")
        send({"type": "DELETE", "identifier": f"py_{index}", "start_offset": float(start), "end_offset": float(end)})

    # Strokes heard from others, in order, with their point counts.
    heard = []
    points = {}
    deadline = time.monotonic() + arguments.timeout
    erased = False
    settle_until = None
    while True:
        now = time.monotonic()
        if now > deadline:
            print(f"timed out: heard {len(heard)} strokes of {arguments.expect_adds}", file=sys.stderr)
            sys.exit(1)
        if len(heard) >= arguments.expect_adds and not erased:
            for position in arguments.erase_theirs:
                identifier = heard[position]
                send({"type": "DELETE", "identifier": identifier, "start_offset": 0, "end_offset": points[identifier] - 1})
            erased = True
            # A moment for the last messages, and for the server to take the erasures.
            settle_until = now + 1.0
        if settle_until is not None and now > settle_until:
            break
        socket.settimeout(0.2)
        try:
            text = socket.recv()
        except websocket.WebSocketTimeoutException:
            continue
        except websocket.WebSocketConnectionClosedException:
            break
        if not text:
            break
        message = json.loads(text)
        received.append(message)
        if message.get("type") == "ERROR":
            errors.append(message)
        elif message.get("type") == "ADD":
            heard.append(message["identifier"])
            points[message["identifier"]] = 1
        elif message.get("type") == "APPEND":
            points[message["identifier"]] = points.get(message["identifier"], 0) + len(message["points"])
    socket.close()
    for message in received:
        print(json.dumps(message, sort_keys=True))
    sys.exit(1 if errors and not arguments.send_raw else 0)


if __name__ == "__main__":
    main()
