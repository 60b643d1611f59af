"""A click-through test of the Trellis harness written with the Python standard library only.

Starts `trellis harness` (the bundled example widgets), loads a dashboard, sets the state, reads a widget,
finds an action by its text, clicks it with form values and checks the HTML. Run from the repository root:

    python3 test/e2e/python/harness_flow.py
"""
import json
import os
import signal
import subprocess
import sys
import unittest
import urllib.error
import urllib.request

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
EXAMPLE = os.path.join(ROOT, "packages", "harness", "examples")


def api(base, method, path, body=None):
    """Sends JSON (when body is given) and returns (status, parsed JSON or None)."""
    data = None if body is None else json.dumps(body).encode("utf-8")
    request = urllib.request.Request(base + path, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            text = response.read().decode("utf-8")
            return response.status, (json.loads(text) if text else None)
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read().decode("utf-8"))


class HarnessFlow(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.process = subprocess.Popen(
            [os.environ.get("NODE", "node"), "--import", "tsx", "packages/harness/src/cli/main.ts", "harness", "--port", "0",
             "--functions", os.path.join(EXAMPLE, "functions.json")],
            cwd=ROOT, stdout=subprocess.PIPE, text=True,
        )
        first = cls.process.stdout.readline().strip()
        prefix = "Trellis harness listening on "
        if not first.startswith(prefix):
            cls.process.kill()
            raise RuntimeError("unexpected first line: %r" % first)
        cls.base = first[len(prefix):]

    @classmethod
    def tearDownClass(cls):
        cls.process.send_signal(signal.SIGTERM)
        cls.process.wait(timeout=20)
        cls.process.stdout.close()

    def load_example(self):
        with open(os.path.join(EXAMPLE, "dashboard.json"), encoding="utf-8") as f:
            text = f.read()
        # the body is a JSON string holding the dashboard JSON text
        status, created = api(self.base, "POST", "/api/dashboards?name=python", text)
        self.assertEqual(status, 201)
        self.assertEqual(created["name"], "python")
        return created

    def test_click_through(self):
        created = self.load_example()
        dashboard = "/api/dashboards/" + created["id"]
        greeter = next(w for w in created["widgets"] if w["title"] == "Greeter")

        status, update = api(self.base, "PUT", dashboard + "/state",
                             {"theme": "dark", "timeRange": {"relative": "-P7D"}})
        self.assertEqual(status, 200)
        self.assertEqual(update["state"]["theme"], "dark")

        status, context = api(self.base, "GET", dashboard + "/widgets/widget-3")
        self.assertEqual(status, 200)
        self.assertIn('class="theme">dark<', context["html"])
        self.assertIn("last 10080 min", context["html"])
        self.assertEqual(context["findings"], [])

        wid = dashboard + "/widgets/" + greeter["widgetId"]
        status, widget = api(self.base, "GET", wid)
        self.assertIn("Nobody greeted yet.", widget["html"])

        status, actions = api(self.base, "GET", wid + "/actions")
        greet = next(a for a in actions if a["text"] == "Greet")
        status, result = api(self.base, "POST", "%s/actions/%d" % (wid, greet["index"]),
                             {"forms": {"visitor": "<Ada> & co"}})
        self.assertEqual(status, 200)
        self.assertEqual(result["display"], "widget")
        self.assertIn("Hello, &lt;Ada&gt; &amp; co", result["html"])

        clear = next(a for a in actions if a["text"] == "Clear")
        status, cancelled = api(self.base, "POST", "%s/actions/%d" % (wid, clear["index"]), {"confirm": False})
        self.assertEqual(cancelled, {"cancelled": True, "confirmation": "Clear the greeting?"})

    def test_errors_are_problem_details(self):
        created = self.load_example()
        status, problem = api(self.base, "POST", "/api/dashboards/%s/widgets/2/actions/abc" % created["id"], {})
        self.assertEqual(status, 404)
        self.assertEqual(problem["status"], 404)
        status, problem = api(self.base, "POST", "/api/dashboards/%s/widgets/2/actions/0" % created["id"],
                              {"forms": {"nickname": "x"}})
        self.assertEqual(status, 422)
        self.assertIn("visitor", problem["detail"])
        status, problem = api(self.base, "POST", "/api/dashboards", {"widgets": []})
        self.assertEqual(status, 400)


if __name__ == "__main__":
    unittest.main()
