#!/usr/bin/env python3
"""tests/html_check.py — opens HTML reports in a real headless browser and
says, page by page, whether each loads as a reader would see it: the load
event fires, every <img> decoded (naturalWidth > 0) and at least MIN of them,
no resource outside the page was requested (each is a data: URI), every
link (<a href>) reaches a file by a path relative to the page (a class page's
reports, a report's handout), with the anchor it names, and no
console error, uncaught exception or browser log error (a blocked resource,
a Content-Security-Policy violation) was reported.

It drives Chromium through the DevTools protocol over a pipe
(--remote-debugging-pipe: file descriptors 3 and 4, NUL-terminated JSON), so
it needs only the standard library and a Chromium build (chromium-headless-shell,
chromium, chromium-browser or google-chrome).

usage: tests/html_check.py BROWSER PAGE=MIN [PAGE=MIN ...]
Prints one line per page, "PAGE<TAB>ok ..." or "PAGE<TAB>problem: ...";
exits 0 if every page is ok, 1 if one is not, 2 if the browser could not be driven.
"""
import json
import os
import select
import subprocess
import sys
import tempfile
import time

TIMEOUT_S = 30  # the whole run: start, every page, close

# What the page holds once loaded, read in the page itself.
PROBE = """JSON.stringify({
  images: Array.from(document.images).map(i => ({alt: i.alt, complete: i.complete, width: i.naturalWidth})),
  external: Array.from(document.querySelectorAll('[src],[href]:not(a)'))
      .map(e => e.getAttribute('src') || e.getAttribute('href'))
      .filter(u => !u.startsWith('data:') && !u.startsWith('#')),
  links: Array.from(document.querySelectorAll('a[href]')).map(e => e.getAttribute('href'))
      .filter(u => !u.startsWith('#')),
  resources: performance.getEntriesByType('resource').map(r => r.name).filter(u => !u.startsWith('data:')),
  title: document.title,
  tables: document.querySelectorAll('table').length
})"""


class Browser:
    """One headless browser, driven over the DevTools pipe."""

    def __init__(self, program):
        to_browser, self.write_fd = os.pipe()
        self.read_fd, from_browser = os.pipe()
        os.dup2(to_browser, 10)   # the browser reads commands on fd 3 and answers on fd 4:
        os.dup2(from_browser, 11)  # park both ends above 4 so the child's dup2 cannot clobber them
        os.close(to_browser)
        os.close(from_browser)
        self.profile = tempfile.mkdtemp(prefix="html-check-")
        args = [program, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--no-default-browser-check", "--user-data-dir=" + self.profile,
                "--remote-debugging-pipe", "about:blank"]
        self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, close_fds=False,
                                     preexec_fn=lambda: (os.dup2(10, 3), os.dup2(11, 4)))
        os.close(10)
        os.close(11)
        self.next_id = 0
        self.buffer = b""
        self.events = []
        self.deadline = time.monotonic() + TIMEOUT_S

    def _read_message(self):
        while b"\0" not in self.buffer:
            left = self.deadline - time.monotonic()
            if left <= 0 or not select.select([self.read_fd], [], [], left)[0]:
                raise TimeoutError("the browser did not answer within %d s" % TIMEOUT_S)
            chunk = os.read(self.read_fd, 1 << 16)
            if not chunk:
                raise EOFError("the browser closed its pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, params=None, session=None):
        """Sends one command; returns its result, keeping the events that arrive meanwhile."""
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.write_fd, json.dumps(message).encode() + b"\0")
        while True:
            reply = self._read_message()
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError("%s: %s" % (method, reply["error"].get("message")))
                return reply.get("result", {})
            self.events.append(reply)

    def wait_event(self, method, session):
        """Waits for an event of method on session; returns it."""
        for i, e in enumerate(self.events):
            if e.get("method") == method and e.get("sessionId") == session:
                return self.events.pop(i)
        while True:
            e = self._read_message()
            if e.get("method") == method and e.get("sessionId") == session:
                return e
            self.events.append(e)

    def close(self):
        try:
            self.call("Browser.close")
        except (OSError, RuntimeError, TimeoutError, EOFError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        subprocess.run(["rm", "-rf", self.profile], check=False)


def problems_of(events, session):
    """The errors a page reported: console errors, uncaught exceptions, log errors."""
    found = []
    for e in events:
        if e.get("sessionId") != session:
            continue
        p = e.get("params", {})
        if e.get("method") == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
            found.append("console error: " + " ".join(str(a.get("value", a.get("description", ""))) for a in p.get("args", [])))
        elif e.get("method") == "Runtime.exceptionThrown":
            found.append("exception: " + p.get("exceptionDetails", {}).get("text", "?"))
        elif e.get("method") == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
            found.append("log error: " + p["entry"].get("text", "?"))
    return found


def check_page(browser, path, min_images):
    """Loads path in a fresh tab; returns a list of problems (empty: ok) and a summary."""
    target = browser.call("Target.createTarget", {"url": "about:blank"})["targetId"]
    session = browser.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    for domain in ("Page", "Runtime", "Log"):
        browser.call(domain + ".enable", session=session)
    browser.call("Page.navigate", {"url": "file://" + os.path.abspath(path)}, session=session)
    browser.wait_event("Page.loadEventFired", session)
    value = browser.call("Runtime.evaluate", {"expression": PROBE, "returnByValue": True}, session=session)
    page = json.loads(value["result"]["value"])
    problems = problems_of(browser.events, session)
    for img in page["images"]:
        if not img["complete"] or img["width"] <= 0:
            problems.append("image %r did not decode (naturalWidth %d)" % (img["alt"], img["width"]))
    if len(page["images"]) < min_images:
        problems.append("%d images, expected at least %d" % (len(page["images"]), min_images))
    for url in page["external"] + page["resources"]:
        problems.append("refers to a resource outside the page: " + url[:120])
    for url in page["links"]:  # a link is not fetched, but it must reach a file (and its anchor) from the page's folder
        file, _, anchor = url.partition("#")
        target = os.path.join(os.path.dirname(os.path.abspath(path)), file)
        if "://" in url or url.startswith("/") or not os.path.isfile(target):
            problems.append("links to what is not a file (a path relative to the page): " + url[:120])
        elif anchor and ('id="%s"' % anchor) not in open(target, encoding="utf-8", errors="replace").read():
            problems.append("links to an anchor its page lacks: " + url[:120])
    if not page["title"] or page["tables"] == 0:
        problems.append("no title or no table: not the report")
    try:  # a page with links may have had its target replaced by the browser meanwhile: nothing left to close
        browser.call("Target.closeTarget", {"targetId": target})
    except RuntimeError:
        pass
    widths = ",".join(str(i["width"]) for i in page["images"])
    return problems, "%d images (widths %s), %d tables" % (len(page["images"]), widths or "-", page["tables"])


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip().splitlines()[-3], file=sys.stderr)
        return 2
    try:
        browser = Browser(argv[1])
    except OSError as e:
        print("cannot start %s: %s" % (argv[1], e))
        return 2
    status = 0
    try:
        for spec in argv[2:]:
            path, _, minimum = spec.rpartition("=")
            problems, summary = check_page(browser, path, int(minimum))
            print("%s\t%s" % (path, "problem: " + "; ".join(problems) if problems else "ok: " + summary))
            status |= 1 if problems else 0
    except (OSError, RuntimeError, TimeoutError, EOFError, KeyError, ValueError) as e:
        print("the browser could not be driven: %s" % e)
        status = 2
    finally:
        browser.close()
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
