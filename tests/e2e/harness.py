"""End-to-end harness: one real stack (private MariaDB, placard.fcgi, lighttpd or Apache) per run,
real HTTP on 127.0.0.1, helpers for SQL, tokens, fixtures and assertions.

A facade: the parts live in their own modules, and `import harness as H` gives every name of them.

- stack_driver.py  the stack through scripts/stack.sh (Stack, free_port), the run's current stack
- http_client.py   one HTTP request (http_request), the traffic log, wait_until
- catalog.py       the one fixture catalog of the suites (rows and their SQL)
- fixtures.py      the stack a test class stands on (ensure_stack, Borrowed, StackTestCase) and
                   the catalog loaded into it (load_fixtures)
- calls.py         calls on the current stack: http, db, queries, events, tokens, settings
- assertions.py    E2ETestCase and its assertions (JSON answers, the error envelope, no leaks)

`run.py` starts one stack per server and stops it at the end. A test module run on its own
(`python3 -m unittest tests.e2e.test_offers`) starts one lazily and stops it at exit.

The run's state (`_current`, `run_options`, `BASE_PATH`) lives in stack_driver; reading or
setting it here (H.run_options = args) reaches it there.
"""

import os
import sys
import types

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import stack_driver  # noqa: E402
from assertions import ANY_FIELD, LEAK_PATTERNS, NO_FIELD, E2ETestCase  # noqa: E402,F401
from calls import (  # noqa: E402,F401
    CLICK, IMPRESSION, MISSING, b64u, b64u_decode, bump, config, db, decode_token, fetch_config,
    get_json, http, impression, mint_token, post_json, query, query_body, query_offers,
    rows_for_nonce, set_setting, token_from_click_url, token_keys, var_path, wait_config)
from catalog import (  # noqa: E402,F401
    BASE_QUERY, CAT_ID, CATEGORIES, CONFIG_PLACEMENTS, COUNTRIES, DEFAULT_SETTINGS, ELECTRONICS_DE,
    FASHION_NAME, NOW, OFFER, OFFERS, PLACEMENTS, SELECTED_COUNTRIES, fixture_sql, offer,
    offer_insert_sql, sql_str)
from fixtures import (  # noqa: E402,F401
    Borrowed, StackTestCase, current, ensure_stack, fixtures_visible, load_fixtures, stop_spare)
from http_client import (  # noqa: E402,F401
    BROWSER_ACCEPT, HTTP_TIMEOUT, JSON_CT, header_tokens, http_request, settle, wait_until)
from stack_driver import (  # noqa: E402,F401
    ROOT, SANITIZER_PATTERNS, STACK_ENV, TEST_CONF, Stack, StackError, _bindable, _db_port,
    free_port, keep_sanitizer_report, log, placard_tokens, prefixed, sanitizer_env, set_stack,
    with_timeout_handler)

_RUN_STATE = ("_current", "run_options", "BASE_PATH")


class _Facade(types.ModuleType):
    """The run's state is read and set where it lives (stack_driver): `H.run_options = args` in
    run.py and `H._current` in a test see the same value as the stack driver."""

    def __getattr__(self, name):
        if name in _RUN_STATE:
            return getattr(stack_driver, name)
        raise AttributeError("module 'harness' has no attribute %r" % name)

    def __setattr__(self, name, value):
        if name in _RUN_STATE:
            setattr(stack_driver, name, value)
        else:
            super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Facade
