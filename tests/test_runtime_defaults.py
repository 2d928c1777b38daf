"""Runtime defaults a new user meets: what an undeclared error tells the model, and a quiet library."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from toolclause import Toolbox, ToolError


@pytest.mark.parametrize(("code", "action"), [
    ("ORDER_NOT_FOUND", "fix_arguments"), ("INVALID_COUPON", "fix_arguments"), ("RATE_LIMITED", "retry_later"),
    ("SESSION_EXPIRED", "reconnect"), ("CARD_DECLINED", "contact_support"),
])
def test_an_undeclared_code_gets_the_user_action_its_words_say(code, action):
    box = Toolbox()

    @box.tool()
    def get_order(order_id: str) -> dict:
        """Get one order by its id.

        Args:
            order_id: The order's id.
        """
        raise ToolError(code, "It failed.")

    result = box.call("get_order", {"order_id": "A1"})
    assert not result.ok and result.error.user_action == action


def test_a_failed_call_in_a_plain_script_prints_nothing():
    script = textwrap.dedent('''
        from toolclause import Toolbox

        box = Toolbox()

        @box.tool()
        def boom(x: int) -> dict:
            """Fail on purpose.

            Args:
                x: Anything.
            """
            raise RuntimeError("secret internal detail")

        print(box.call("boom", {"x": 1}).error.code)
    ''')
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert run.stdout.strip() == "INTERNAL_ERROR"
    assert run.stderr == ""  # no traceback through logging's last-resort handler
