# pytest: the widget drawn by the harness (GET .../image), compared with its golden image byte for byte
# (the same machine draws the same bytes; `trellis snapshot --compare` compares with a tolerance).
import json
import os
import subprocess
import urllib.error
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


def call(url, method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url + path, data=data, method=method, headers={"content-type": "application/json"})
    with urllib.request.urlopen(request) as response:
        return response.read()


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_greeting_looks_as_it_did(harness, theme):
    created = json.loads(call(harness, "POST", "/api/dashboards?name=greeting", Path("dashboard.json").read_text()))
    dashboard = f"/api/dashboards/{created['id']}"
    call(harness, "PUT", f"{dashboard}/state", {"theme": theme})
    try:
        png = call(harness, "GET", f"{dashboard}/widgets/0/image")
    except urllib.error.HTTPError as error:
        if error.code == 503:  # no browser where the harness runs: the detail says what to install
            pytest.skip(json.load(error)["detail"])
        raise
    golden = Path(f"screenshots/pytest/greeting-{theme}.png")
    # The first run writes the golden image; UPDATE_SCREENSHOTS=1 writes it again.
    if os.environ.get("UPDATE_SCREENSHOTS") == "1" or not golden.exists():
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_bytes(png)
    assert png == golden.read_bytes(), f"the image differs from {golden}"
