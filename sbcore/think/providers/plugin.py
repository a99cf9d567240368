"""The built-in providers, registered through the same hook a third-party pack uses.

Declared as the ``builtin-providers`` entry point in the ``sbcore`` group, so
the core has no private path: a pack that registers ``bedrock`` or ``vertex``
is found exactly the way ``anthropic`` is.
"""

from __future__ import annotations

from sbcore.packs.hookspecs import RegisterProvider, hookimpl
from sbcore.think.providers.anthropic import AnthropicProvider
from sbcore.think.providers.claude_code import ClaudeCodeProvider
from sbcore.think.providers.offline import OfflineProvider
from sbcore.think.providers.openai import OpenAIProvider


@hookimpl
def register_providers(register: RegisterProvider) -> None:
    for provider in (AnthropicProvider, OpenAIProvider, OfflineProvider, ClaudeCodeProvider):
        register(provider.name, provider.from_settings)
