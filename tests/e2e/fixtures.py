"""What an e2e test class stands on: the run's stack (started lazily when a module runs on its
own), a fresh one borrowed for a class (Borrowed, StackTestCase), and the catalog
(catalog.fixture_sql) loaded into it and waited for through the API."""

import atexit
import json
import os
import signal
import sys
import threading
import unittest

import stack_driver as SD
from catalog import BASE_QUERY, CONFIG_PLACEMENTS, ELECTRONICS_DE, SELECTED_COUNTRIES, fixture_sql
from http_client import settle, wait_until
from stack_driver import TEST_CONF, Stack, log

_owned = False  # started lazily by ensure_stack (stop at exit)


def ensure_stack():
    """The stack of this run; starts one (and its fixtures) if the tests run without run.py."""
    global _owned
    with SD.current_lock:
        if SD.current_stack() is None:
            st = Stack(os.environ.get("SERVER", "lighttpd"))
            SD.set_stack(st)
            _owned = True
            atexit.register(_stop_owned)
            if threading.current_thread() is threading.main_thread():
                # SIGTERM: exit normally so that atexit stops the stack.
                signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
            st.start()
            load_fixtures(st)
        return SD.current_stack()


def current():
    return ensure_stack()


def _stop_owned():
    st = SD.current_stack()
    if _owned and st is not None:
        st.stop()
        st.cleanup()


def fixtures_visible(stack=None):
    """The catalog answers through the API: the configuration and one query."""
    stack = stack or current()
    st, _, b = stack.http("GET", "/api/v1/config")
    c = json.loads(b) if st == 200 else None
    if not c or c.get("placements") != CONFIG_PLACEMENTS or c.get("countries") != SELECTED_COUNTRIES:
        return False
    st, _, b = stack.http("POST", "/api/v1/offers/query", json.dumps(dict(BASE_QUERY, category="electronics")),
                          {"Content-Type": "application/json"})
    return st == 200 and [o["id"] for o in json.loads(b)["offers"]] == ELECTRONICS_DE


def load_fixtures(stack=None):
    st = stack or current()
    st.db(fixture_sql())
    st.fixtures_loaded = True
    if not wait_until(lambda: fixtures_visible(st), timeout=15, interval=0.1):
        # Not fatal here: tests will fail with their own messages.
        log("fixtures not visible through the API after 15 s")
        return False
    settle()
    return True


# a fresh stack (stopped at exit, or by stop_spare()).
_spare = None
_spares_stopped_at_exit = []


class Borrowed:
    """A fresh stack for a test class: the stack that runs already (the run's, or a spare one)
    reset to a fresh database on its MariaDB (Stack.reset), or a new one when none runs. give_back()
    returns the run's stack to what it was (server, TLS, a fresh database with the fixtures when it
    had them) or keeps a new one as the spare."""

    def __init__(self, server="lighttpd", tls=False, conf=None):
        global _spare
        self.host = None
        self.was = None  # (server, TLS, fixtures) of the run's stack, to give it back as it was
        for st in (_spare, SD.current_stack()):
            if st is not None and st.started and not st._stopped:
                self.host = st
                break
        if self.host is None:
            self.stack = Stack(server, tls=tls, conf=conf)
            try:
                self.stack.start()
            except BaseException:
                self.stack.stop()
                self.stack.cleanup()
                raise
            return
        if self.host is _spare:
            _spare = None
        else:
            self.was = (self.host.server, self.host.tls, self.host.fixtures_loaded,
                        {k: v for k, v in self.host.conf.items() if TEST_CONF.get(k) != v})
        self.stack = self.host
        self.stack.reset(server, tls, conf or {})

    def give_back(self):
        global _spare
        if self.was is None:
            if self.stack.started and not self.stack._stopped:
                if not _spares_stopped_at_exit:
                    atexit.register(stop_spare)
                    _spares_stopped_at_exit.append(True)
                _spare = self.stack
            return
        server, tls, fixtures, conf = self.was
        self.stack.reset(server, tls, conf)
        if fixtures:
            load_fixtures(self.stack)


def stop_spare():
    """Stops the spare stack; returns its sanitizer reports."""
    global _spare
    st, _spare = _spare, None
    if st is None:
        return []
    st.stop()
    st.cleanup()
    return st.sanitizer_reports


class StackTestCase(unittest.TestCase):
    """A test class with a fresh stack (Borrowed: the running stack reset to a fresh database, or a
    new one): SERVER picks the web server, FIXTURES whether the suite's fixtures are loaded, and
    prepare_stack() may change the stack before that. The run's current stack is restored when
    the class is done (or its set-up failed)."""

    SERVER = "lighttpd"
    FIXTURES = True
    TLS = False
    CONF = None  # placard.conf keys of this stack (added to TEST_CONF)

    @classmethod
    def setUpClass(cls):
        cls.previous = SD.current_stack()
        try:
            cls.borrowed = Borrowed(cls.SERVER, tls=cls.TLS, conf=cls.CONF)
            cls.stack = cls.borrowed.stack
            SD.set_stack(cls.stack)
            cls.prepare_stack()
            if cls.FIXTURES:
                load_fixtures(cls.stack)
        except BaseException:
            SD.set_stack(cls.previous)
            raise

    @classmethod
    def prepare_stack(cls):
        pass

    @classmethod
    def tearDownClass(cls):
        try:
            cls.borrowed.give_back()
        finally:
            SD.set_stack(cls.previous)
