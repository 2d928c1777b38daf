"""The prepare/commit design the runtime teaches lints clean: the preview step is read-only, and a commit that
needs the preview's single-use confirmation token is not repeated by a retry (X005, X002)."""

from toolclause import lint

PREVIEW = {"name": "create_order_preview",
           "description": "Checks the cart and the address and returns the total with a confirmation token; "
                          "places nothing.",
           "inputSchema": {"type": "object", "additionalProperties": False, "required": ["restaurant_id"],
                           "properties": {"restaurant_id": {"type": "string", "description": "The restaurant."}}},
           "annotations": {"readOnlyHint": True}}
COMMIT = {"name": "place_order",
          "description": "Places the order the user confirmed, with the token from create_order_preview; returns "
                         "the order id.",
          "inputSchema": {"type": "object", "additionalProperties": False, "required": ["confirmation_token"],
                          "properties": {"confirmation_token": {"type": "string",
                                                                "description": "The preview's token."}}}}


def codes(tools: list[dict]) -> list[tuple[str, str]]:
    return [(d.tool, d.code) for d in lint(tools, select=["X002", "X005"])]


def test_a_preview_and_a_token_commit_are_clean():
    assert codes([PREVIEW, COMMIT]) == []


def test_the_same_tools_without_the_design_are_still_reported():
    create = {**PREVIEW, "name": "create_order", "description": "Creates the order and returns its id."}
    keyless = {**COMMIT, "inputSchema": {**PREVIEW["inputSchema"]}, "description": "Places the order; returns its id."}
    assert codes([create, keyless]) == [("create_order", "X005"), ("place_order", "X002")]
