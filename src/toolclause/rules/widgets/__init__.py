"""Family W: ChatGPT Apps and MCP Apps widgets — templates the server declares, served and secured as hosts expect."""

from __future__ import annotations

from .w001_template_not_found import TemplateNotFound
from .w002_widget_mime_type import WidgetMimeType
from .w003_widget_csp import WidgetCsp
from .w004_invocation_text_too_long import InvocationTextTooLong
from .w005_widget_metadata import WidgetMetadata

RULES: tuple = (
    TemplateNotFound,
    WidgetMimeType,
    WidgetCsp,
    InvocationTextTooLong,
    WidgetMetadata,
)
