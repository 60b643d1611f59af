# pytest: starts `trellis harness --port 0`, reads the URL from its first line, then uses HTTP
# (the standard library only).
import json
import subprocess
import urllib.request
from pathlib import Path

import pytest


@pytest.fixture(scope="module")
def harness():
    process = subprocess.Popen(
        ["node_modules/.bin/trellis", "harness", "--functions", "functions.json", "--port", "0"],
        stdout=subprocess.PIPE,
        text=True,
    )
    first_line = process.stdout.readline()
    assert first_line.startswith("Trellis harness listening on "), first_line
    yield first_line.split()[-1]
    process.terminate()
    process.wait(timeout=10)


def api(url, method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url + path, data=data, method=method, headers={"content-type": "application/json"})
    with urllib.request.urlopen(request) as response:
        return json.load(response)


@pytest.fixture(scope="module")
def dashboard(harness):
    created = api(harness, "POST", "/api/dashboards?name=greeting", Path("dashboard.json").read_text())
    return f"/api/dashboards/{created['id']}"


def test_greets_the_name_in_its_params(harness, dashboard):
    widget = api(harness, "GET", f"{dashboard}/widgets/0")
    assert widget["error"] is None
    assert "Hello, Ada!" in widget["html"]


def test_greet_sends_the_typed_name(harness, dashboard):
    actions = api(harness, "GET", f"{dashboard}/widgets/0/actions")
    greet = next(a for a in actions if a["text"] == "Greet")
    result = api(harness, "POST", f"{dashboard}/widgets/0/actions/{greet['index']}", {"forms": {"visitor": "Grace"}})
    assert "Hello, Grace!" in result["html"]
