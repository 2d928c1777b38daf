"""A live server's hostile error text: printed on one line, without control characters, capped."""

from __future__ import annotations

import os
import shlex
import signal
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from toolclause.cli.main import cli

# a stdio JSON-RPC server without the SDK (it must be able to say anything): it answers
# initialize, then every other request with what ANSWER(msg) returns (a result or an error)
SERVE = r'''
import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg:
        continue
    if msg["method"] == "initialize":
        reply = {"result": {"protocolVersion": msg["params"]["protocolVersion"], "capabilities": {"tools": {}},
                            "serverInfo": {"name": "test", "version": "1"}}}
    else:
        reply = ANSWER(msg)
    print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], **reply}), flush=True)
'''

# tools/list fails with an error that clears the screen, moves the cursor and forges a line of the report
HOSTILE = r'''
def ANSWER(msg):
    text = "\x1b[2J\x1b[H\r\x07no problems found\n0 errors, 0 warnings\u202e" + "x" * 100_000
    return {"error": {"code": -32603, "message": text}}
''' + SERVE


def test_a_servers_error_text_is_printed_without_control_characters_and_capped(tmp_path: Path):
    script = tmp_path / "hostile.py"
    script.write_text(HOSTILE)
    result = CliRunner().invoke(cli, ["lint", "--server", shlex.join([sys.executable, str(script)]),
                                      "--timeout", "20"])
    assert result.exit_code == 2
    lines = result.output.splitlines()
    assert len(lines) == 1 and lines[0].startswith("toolclause: error: "), result.output
    assert "answered tools/list with an error" in lines[0]
    assert not any(ord(ch) < 32 or 0x7F <= ord(ch) < 0xA0 or ch == "\u202e" for ch in lines[0])
    assert len(lines[0]) < 1000


# a server that leaves a grandchild behind: it calls setsid() (so no process group of the
# server's reaches it) and ignores SIGTERM, then the server answers with no tools
LEAVES_A_GRANDCHILD = r'''
import os, signal, sys, time
if os.fork() == 0:
    os.setsid()
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    with open(sys.argv[1], "w") as handle:
        handle.write(str(os.getpid()))
    os.closerange(0, 3)
    while True:
        time.sleep(1)

def ANSWER(msg):
    return {"result": {"tools": []}}
''' + SERVE


def test_a_grandchild_that_left_the_process_group_and_ignores_sigterm_is_killed(tmp_path: Path):
    script, pidfile = tmp_path / "leaves.py", tmp_path / "grandchild.pid"
    script.write_text(LEAVES_A_GRANDCHILD)
    result = CliRunner().invoke(cli, ["lint", "--server", shlex.join([sys.executable, str(script), str(pidfile)]),
                                      "--timeout", "20"])
    assert result.exit_code == 0, result.output
    for _ in range(100):  # the grandchild writes its pid as it starts
        if pidfile.exists() and pidfile.read_text():
            break
        time.sleep(0.05)
    pid = int(pidfile.read_text())
    try:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
    finally:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
