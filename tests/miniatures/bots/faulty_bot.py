"""A bot program with one planted fault (spec/bot-protocol.md, "Forfeits"), for the tests
that show the table and `dekal bots check` catch it: `python faulty_bot.py MODE`.

Modes: `fine` (plays the first legal action, no fault), `illegal` (a move of another seat),
`late` (sleeps past any budget at its third decision), `crash` (exits at its third decision),
`garbage` (prints a line that is not JSON), `refuse` (refuses to think), `old` (speaks
protocol 0), `noisy` (a fine bot that starts a child which would outlive it),
`random_unseeded` (a legal but random choice, not from the game's seed).
Plain Python, no dekal import: a start costs a few milliseconds.
"""

import json
import random
import subprocess
import sys
import time

mode = sys.argv[1]
decisions = 0
playing = False
for line in sys.stdin:
    request = json.loads(line)
    command = request["cmd"]
    reply = {"id": request["id"], "ok": True}
    if command == "hello":
        reply.update(name=f"faulty-{mode}", version="1", protocol=0 if mode == "old" else 1)
        if mode == "noisy":
            subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    elif command == "new_game":
        playing = True
    elif command == "think" and playing:
        decisions += 1
        legal = request["legal"]
        reply["action"] = legal[0]
        if mode == "illegal":
            reply["action"] = legal[0].replace(legal[0].split()[1], "9", 1)
        elif mode == "late" and decisions == 3:
            time.sleep(30)
        elif mode == "crash" and decisions == 3:
            sys.exit(1)
        elif mode == "garbage":
            print("thinking...", flush=True)
            continue
        elif mode == "refuse":
            error = {"kind": "bad_request", "message": "no"}
            reply = {"id": request["id"], "ok": False, "error": error}
        elif mode == "random_unseeded":
            reply["action"] = random.choice(legal)
    elif command not in ("game_over", "quit"):  # an unknown command, think before new_game
        error = {"kind": "bad_request", "message": f"cannot {command} now"}
        reply = {"id": request["id"], "ok": False, "error": error}
    print(json.dumps(reply), flush=True)
    if command == "quit":
        break
