"""Redaction by category (issue 25 item 7): secret formats no test and no rule lists, fresh every run.

Each run draws a new seed (``SBCORE_REDACT_SEED`` replays one; a failure prints it). From it, at least 30
formats are made up that the project has never listed: a service name nobody wrote down, a word that says
the value is secret (key, token, secret, password, auth, credential, session, cookie) spelt any way code
spells it, in any syntax (env line, YAML, JSON, a CLI flag, an INI line, a header), holding a random value
(mixed alphanumerics, base64 key material, hex, URL-safe base64); beside them the containers the issue
names (``client-key-data``, ``.pgpass``, PuTTY private lines, cookies, ``curl --user``, docker and npm
``auth``). None may leak, through ``redact`` or through the projection every store is written from; the
must-survive negatives built the same way stay as they were.
"""

from __future__ import annotations

import base64
import json
import os
import random
import string
from collections.abc import Callable

from sbcore.observe.project import Projector
from sbcore.observe.redact import redact

SEED = int(os.environ.get("SBCORE_REDACT_SEED") or random.SystemRandom().randrange(1 << 30))
ALNUM = string.ascii_letters + string.digits
B64 = ALNUM + "+/"
SYLLABLES = [
    "kor",
    "vani",
    "tel",
    "qua",
    "zen",
    "mira",
    "dox",
    "lum",
    "pra",
    "sil",
    "ob",
    "rix",
    "tav",
    "nel",
]
WORDS = [
    ("api", "key"),
    ("secret", "key"),
    ("access", "token"),
    ("auth", "token"),
    ("client", "secret"),
    ("secret",),
    ("token",),
    ("password",),
    ("passwd",),
    ("auth",),
    ("credential",),
    ("credentials",),
    ("signing", "key"),
    ("private", "key"),
    ("master", "key"),
    ("session", "token"),
    ("bearer", "token"),
    ("webhook", "secret"),
    ("service", "key"),
    ("deploy", "key"),
    ("license", "key"),
    ("refresh", "token"),
]


def body(rng: random.Random, alphabet: str, size: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(size))


def secret_value(rng: random.Random) -> str:
    """A value that reads random: mixed alphanumerics, base64 (with padding), hex or URL-safe base64."""
    kind = rng.randrange(4)
    if kind == 0:
        value = body(rng, ALNUM, rng.randint(20, 48))
        return value[:-1] + rng.choice(string.digits)  # never letters only by chance
    if kind == 1:
        return base64.b64encode(rng.randbytes(rng.randint(18, 48))).decode()
    if kind == 2:
        return body(rng, "0123456789abcdef", rng.choice((32, 40, 64)))
    return base64.urlsafe_b64encode(rng.randbytes(rng.randint(18, 40))).decode().rstrip("=")


def service(rng: random.Random) -> str:
    return "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 3)))


def spell(words: tuple[str, ...], rng: random.Random) -> str:
    style = rng.choice(("snake", "kebab", "camel", "upper", "dot"))
    if style == "camel":
        return words[0] + "".join(w.capitalize() for w in words[1:])
    if style == "upper":
        return "_".join(words).upper()
    return {"snake": "_", "kebab": "-", "dot": "."}[style].join(words)


Syntax = Callable[[str, str], str]
SYNTAXES: list[Syntax] = [
    lambda k, v: f"export {k.upper().replace('-', '_').replace('.', '_')}={v}",
    lambda k, v: f"{k}: {v}",
    lambda k, v: f'  {k}: "{v}"',
    lambda k, v: json.dumps({k: v}),
    lambda k, v: f"--{k.lower().replace('_', '-').replace('.', '-')}={v}",
    lambda k, v: f"{k} = {v}",
    lambda k, v: f"{k}='{v}'",
    lambda k, v: f"X-{k.title().replace('_', '-')}: {v}",
    # make's and Go's assignments
    lambda k, v: f"{k.upper().replace('-', '_')} ?= {v}",
    lambda k, v: f'{k.upper().replace("-", "_")} ::= "{v}"',
    lambda k, v: f"{k} := {v}",
]


def named_formats(rng: random.Random, count: int) -> list[tuple[str, str, str]]:
    """``count`` formats no rule lists: (what it is, the text, the secret)."""
    made = []
    for _ in range(count):
        name = spell((service(rng), *rng.choice(WORDS)), rng)
        value = secret_value(rng)
        syntax = rng.choice(SYNTAXES)
        made.append((f"named:{name}", syntax(name, value), value))
    return made


def containers(rng: random.Random) -> list[tuple[str, str, str]]:
    """The categories the issue names, with fresh values."""
    user, host = service(rng), f"{service(rng)}.internal"
    password = body(rng, ALNUM, 18) + "7"
    key_data = base64.b64encode(b"-----BEGIN RSA PRIVATE KEY-----\n" + rng.randbytes(48)).decode()
    session = body(rng, ALNUM, 32) + "9"
    putty = body(rng, B64, 64)
    auth = base64.b64encode(f"{user}:{password}".encode()).decode()
    return [
        ("client-key-data", f"    client-key-data: {key_data}", key_data),
        ("pgpass", f"{host}:5432:{service(rng)}:{user}:{password}", password),
        (
            "putty",
            f"PuTTY-User-Key-File-3: ssh-rsa\nPrivate-Lines: 1\n{putty}\nPrivate-MAC: {'ab' * 16}",
            putty,
        ),
        ("cookie", f"Cookie: {service(rng)}_session={session}; theme=dark", session),
        ("set-cookie", f"Set-Cookie: sid={session}; Path=/; HttpOnly", session),
        ("curl-user", f"curl --user {user}:{password} https://{host}/api", password),
        ("docker-auth", json.dumps({"auths": {host: {"auth": auth}}}), auth),
        ("npm-auth", f"//{host}/:_auth={auth}", auth),
        ("key-flag", f"{service(rng)} deploy --key={session}", session),
        ("curl-quoted-password", f"curl -s -u {user}:'{password}' https://{host}/api", password),
        ("curl-empty-user", f'curl -u ":{password}" https://{host}/', password),
        ("curl-key-as-user", f'curl -u "{session}:" https://{host}/v1/charges', session),
        (
            "registry-host-env",
            f"export BUNDLE_{service(rng).upper()}__{service(rng).upper()}__COM={user}:{password}",
            password,
        ),
    ]


def leaked(secret: str, text: str, width: int = 8) -> list[str]:
    return [secret[i : i + width] for i in range(len(secret) - width + 1) if secret[i : i + width] in text]


def cases() -> list[tuple[str, str, str]]:
    rng = random.Random(SEED)
    return named_formats(rng, 30) + containers(rng)


def test_thirty_fresh_formats_and_every_container_leak_nothing() -> None:
    made = cases()
    assert len({form for form, _, _ in made}) >= 30
    leaks = [(form, text, redact(text)) for form, text, secret in made if leaked(secret, redact(text))]
    assert leaks == [], f"seed {SEED} (replay: SBCORE_REDACT_SEED={SEED})"


def test_through_the_projection_every_store_is_written_from() -> None:
    """Each text in a heredoc written by Bash, in a file written by Write, and in the agent's prose."""
    records: list[dict[str, object]] = []
    for index, (_, text, _) in enumerate(cases()):
        heredoc = f"cat > /srv/app/conf{index} <<'EOF'\n{text}\nEOF"
        calls = [
            {"type": "tool_use", "id": f"b{index}", "name": "Bash", "input": {"command": heredoc}},
            {
                "type": "tool_use",
                "id": f"w{index}",
                "name": "Write",
                "input": {"file_path": "/srv/app/.env", "content": text},
            },
            {"type": "text", "text": f"I set it up:\n\n{text}\n"},
        ]
        for number, block in enumerate(calls):
            message = {"id": f"m{index}-{number}", "role": "assistant", "content": [block]}
            records.append({"type": "assistant", "uuid": f"u{index}-{number}", "message": message})
    observations = Projector().feed(records)
    everything = "\n".join(o.text + json.dumps(o.args or {}) for o in observations)
    leaks = [form for form, _, secret in cases() if leaked(secret, everything)]
    assert leaks == [], f"seed {SEED} (replay: SBCORE_REDACT_SEED={SEED})"


def test_look_alikes_built_the_same_way_survive() -> None:
    rng = random.Random(SEED)
    survivors = [
        f"cache_key: setup-uv-1-x86_64-{body(rng, '0123456789abcdef', 64)}",
        f"No cache found for key: {service(rng)}-{body(rng, '0123456789abcdef', 40)}",
        f"{spell((service(rng), 'key', 'id'), rng)}: {body(rng, string.ascii_uppercase + string.digits, 20)}",
        f"public_key: ssh-ed25519 {body(rng, B64, 68)}",
        f"{spell((service(rng), 'token'), rng)}_count: {rng.randint(10**12, 10**13)}",
        f"{spell((service(rng), 'secret'), rng)}_name: {service(rng)}-{service(rng)}-credentials",
        f"session_id={'-'.join(body(rng, '0123456789abcdef', n) for n in (8, 4, 4, 4, 12))}",
        f"src/{service(rng)}.c:{rng.randint(1, 99)}:{rng.randint(1, 9)}: error: boom",
        f"msg_{body(rng, ALNUM, 24)}",
        f"{service(rng)}_key=user_profile_settings",
        f"{service(rng).upper()}__HOST={service(rng)}:5432",
        f"Kestrel__Endpoints__Http__Url=http://localhost:{rng.randint(1024, 9999)}",
        f"git push -u origin main:{service(rng)}",
    ]
    changed = [(text, redact(text)) for text in survivors if redact(text) != text]
    assert changed == [], f"seed {SEED} (replay: SBCORE_REDACT_SEED={SEED})"


def test_a_value_opening_with_a_slash_is_a_path_only_when_its_pieces_read_as_words() -> None:
    """Base64 opens with ``/`` one time in sixty-four: a seed drew such a webhook secret and it leaked,
    read as a path. A path's pieces are words, versions and one-case hashes; key material's are not."""
    secret = "/AZ5P65w6YCqcbVAADPcFEyftzgMWfwOn/OcLGePdd4ab3KLpAhthgh9"
    assert secret not in redact(f"--quarix-webhook-secret={secret}")
    assert secret not in redact(f"QUARIX_WEBHOOK_SECRET={secret}")
    for path in (
        "--ssh-key=/home/me/.ssh/id_ed25519",
        "SECRET_KEY=/nix/store/0c3x9vq8m7yk1a2b3c4d5e6f7g8h9j0k-secrets/key",
        "--token=/tmp/tmp.AbC123xyz/tok",
    ):
        assert redact(path) == path
