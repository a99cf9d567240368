"""Redaction on generated secrets: fresh bodies, key names and syntaxes the rules never saw as samples.

A seeded generator builds each case from parts: a vendor format with a random body, or a secret-ish
key name (random stem, prefix, case, separator) with a random value (mixed alphabets, letters only,
base64, hex, punctuation), written in a random syntax (``k=v``, ``k: v``, JSON, YAML, env, flags,
URL query, headers, .netrc, command arguments) and placed in a random position (a Bash command, a
file written or edited, assistant prose, a JSON tool input). Every seed must leak nothing; the
negatives built the same way must survive unchanged.
"""

from __future__ import annotations

import base64
import json
import random
import string
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from sbcore.observe.project import Projector
from sbcore.observe.redact import redact

UPPER, LOWER, DIGITS = string.ascii_uppercase, string.ascii_lowercase, string.digits
LETTERS, ALNUM, HEX = string.ascii_letters, string.ascii_letters + DIGITS, "0123456789abcdef"
B64URL, B64 = ALNUM + "-_", ALNUM + "+/"
PUNCT = ALNUM + "!#%*+-.:=?@^_~"


def body(rng: random.Random, alphabet: str, length: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(length))


# Vendor formats: name -> maker of a fresh token (prefix as the vendor writes it, random body).
Maker = Callable[[random.Random], str]
FORMATS: dict[str, Maker] = {
    "aws-access-key-id": lambda r: r.choice(("AKIA", "ASIA")) + body(r, UPPER + "234567", 16),
    "gcp-api-key": lambda r: "AIza" + body(r, B64URL, 35),
    "github-pat": lambda r: "ghp_" + body(r, ALNUM, 36),
    "github-oauth": lambda r: "gho_" + body(r, ALNUM, 36),
    "github-fine-grained": lambda r: "github_pat_11" + body(r, UPPER + DIGITS, 20) + "_" + body(r, ALNUM, 59),
    "gitlab-pat": lambda r: "glpat-" + body(r, B64URL, 20),
    "npm": lambda r: "npm_" + body(r, ALNUM, 36),
    "pypi": lambda r: "pypi-AgEIcHlwaS5vcmc" + body(r, B64URL, 70),
    "dockerhub": lambda r: "dckr_pat_" + body(r, B64URL, 27),
    "slack-bot": lambda r: f"xoxb-{body(r, DIGITS, 12)}-{body(r, DIGITS, 13)}-{body(r, ALNUM, 24)}",
    "stripe-live": lambda r: "sk_live_" + body(r, ALNUM, 40),
    "stripe-webhook": lambda r: "whsec_" + body(r, ALNUM, 32),
    "anthropic": lambda r: "sk-ant-api03-" + body(r, B64URL, 93) + "AA",
    "openai-project": lambda r: "sk-proj-" + body(r, B64URL, 120),
    "openrouter": lambda r: "sk-or-v1-" + body(r, HEX, 64),
    "huggingface": lambda r: "hf_" + body(r, LETTERS, 34),
    "groq": lambda r: "gsk_" + body(r, ALNUM, 52),
    "replicate": lambda r: "r8_" + body(r, ALNUM, 37),
    "sendgrid": lambda r: f"SG.{body(r, B64URL, 22)}.{body(r, B64URL, 43)}",
    "mailgun": lambda r: "key-" + body(r, HEX, 32),
    "digitalocean": lambda r: "dop_v1_" + body(r, HEX, 64),
    "vault": lambda r: "hvs." + body(r, B64URL, 90),
    "doppler": lambda r: "dp.st." + body(r, ALNUM, 43),
    "linear": lambda r: "lin_api_" + body(r, ALNUM, 40),
    "shopify": lambda r: "shpat_" + body(r, HEX, 32),
    "sentry-user": lambda r: "sntryu_" + body(r, HEX, 64),
    "grafana-sa": lambda r: f"glsa_{body(r, ALNUM, 32)}_{body(r, HEX, 8)}",
    "new-relic": lambda r: "NRAK-" + body(r, UPPER + DIGITS, 27),
    "databricks": lambda r: "dapi" + body(r, HEX, 32),
    "twilio-api-key": lambda r: "SK" + body(r, HEX, 32),
    "nuget": lambda r: "oy2" + body(r, LOWER + DIGITS, 43),
    "airtable": lambda r: f"pat{body(r, ALNUM, 14)}.{body(r, HEX, 64)}",
    "azure-ad-secret": lambda r: f"{body(r, ALNUM, 3)}{r.choice(DIGITS)}Q~{body(r, B64URL + '~.', 34)}",
    "langsmith": lambda r: f"lsv2_sk_{body(r, HEX, 32)}_{body(r, HEX, 10)}",
    "figma": lambda r: "figd_" + body(r, B64URL, 40),
    "sonarqube": lambda r: "squ_" + body(r, HEX, 40),
    "plaid": lambda r: "access-production-{}-{}-{}-{}-{}".format(
        *(body(r, HEX, n) for n in (8, 4, 4, 4, 12))
    ),
    "jfrog": lambda r: "AKCp" + body(r, ALNUM, 69),
    "age": lambda r: "AGE-SECRET-KEY-1" + body(r, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58),
    "jwt": lambda r: (
        "eyJhbGciOiJIUzI1NiJ9."
        + base64.urlsafe_b64encode(json.dumps({"sub": body(r, ALNUM, 12)}).encode()).decode().rstrip("=")
        + "."
        + body(r, B64URL, 43)
    ),
    "private-key": lambda r: (
        "-----BEGIN RSA PRIVATE KEY-----\nMIIE"
        + "\n".join(body(r, B64, 64) for _ in range(4))
        + "\n-----END RSA PRIVATE KEY-----"
    ),
}

# Context secrets: a secret-ish name, spelt any way code spells it, and a value that reads random.
STEMS = [
    ("password",),
    ("passwd",),
    ("passphrase",),
    ("secret",),
    ("token",),
    ("api", "key"),
    ("apikey",),
    ("access", "token"),
    ("auth", "token"),
    ("client", "secret"),
    ("secret", "key"),
    ("private", "key"),
    ("aws", "secret", "access", "key"),
    ("signing", "key"),
]
PREFIXES = [(), ("db",), ("app",), ("service",), ("prod", "db"), ("stripe",), ("smtp",), ("redis",)]


def spell(words: tuple[str, ...], rng: random.Random) -> str:
    """A key in one of the ways code writes it: snake, kebab, dotted, camel, UPPER, Title."""
    style = rng.choice(("snake", "kebab", "dot", "camel", "upper", "title", "joined"))
    if style == "camel":
        return words[0] + "".join(w.capitalize() for w in words[1:])
    if style == "upper":
        return "_".join(words).upper()
    if style == "title":
        return "-".join(w.capitalize() for w in words)
    sep = {"snake": "_", "kebab": "-", "dot": ".", "joined": ""}[style]
    return sep.join(words)


def value(rng: random.Random) -> str:
    kind = rng.choice(("alnum", "letters", "b64", "hex", "punct"))
    length = rng.randint(24, 48)
    alphabet = {"alnum": ALNUM, "letters": LETTERS, "b64": B64, "hex": HEX, "punct": PUNCT}[kind]
    while True:  # a random draw may by chance hold a run the reader takes for a template or a path
        drawn = body(rng, alphabet, length)
        if drawn[0].isalnum() and "$" not in drawn and "://" not in drawn and "..." not in drawn:
            return drawn


def quoted(v: str, rng: random.Random) -> str:
    return rng.choice(("{}", '"{}"', "'{}'")).format(v)


# Syntaxes: (key, value, rng) -> text.
Syntax = Callable[[str, str, random.Random], str]
SYNTAXES: dict[str, Syntax] = {
    "assign": lambda k, v, r: f"{k}{r.choice(('=', ' = ', ' := '))}{quoted(v, r)}",
    "yaml": lambda k, v, r: f"{r.choice(('', '  ', '    '))}{k}: {quoted(v, r)}",
    "json": lambda k, v, r: json.dumps({"name": "svc", k: v}),
    "env": lambda k, v, r: (
        f"{r.choice(('export ', '', 'ENV '))}{k.upper().replace('-', '_').replace('.', '_')}={v}"
    ),
    "flag": lambda k, v, r: (
        f"deploy --{k.lower().replace('_', '-').replace('.', '-')}{r.choice((' ', '='))}{v} --yes"
    ),
    "query": lambda k, v, r: f"https://api.example.com/v2/items?page=2&{k}={v}&sort=asc",
    "header": lambda k, v, r: (
        f"curl -H 'X-{k.replace('_', '-').replace('.', '-')}: {v}' https://api.example.com"
    ),
    "spaced": lambda k, v, r: f"{k} {v}",
    "toml": lambda k, v, r: f'[database]\n{k} = "{v}"\n',
    "xml": lambda k, v, r: f"<settings><{k}>{v}</{k}></settings>",
    "k8s-env": lambda k, v, r: f"env:\n  - name: {k.upper().replace('.', '_')}\n    value: {quoted(v, r)}\n",
    "json-pair": lambda k, v, r: json.dumps([{"name": k, "value": v}]),
}
# Syntaxes of their own: (text with "{}" for the value).
FIXED: dict[str, str] = {
    "netrc": "machine git.example.com login ci password {}",
    "netrc-lines": "machine git.example.com\n  login ci\n  password {}\n",
    "mysql": "mysql -h db -u app -p{} shop",
    "sshpass": "sshpass -p '{}' ssh deploy@host uptime",
    "sudo-pipe": "echo '{}' | sudo -S systemctl restart app",
    "docker-stdin": "echo {} | docker login -u ci --password-stdin ghcr.io",
    "docker-p": "docker login -u ci -p {} registry.example.com",
    "htpasswd": "htpasswd -bc /etc/nginx/.htpasswd admin {}",
    "aws-configure": "aws configure set aws_secret_access_key {}",
    "authorization-ssws": "curl -H 'Authorization: SSWS {}' https://dev.okta.com/api/v1/users",
    "authorization-bearer": 'fetch(url, {{headers: {{"Authorization": "Bearer {}"}}}})',
    "url-credentials": "git clone https://deploy:{}@git.example.com/team/repo.git",
    "prose-api-key": "Sure, the API key is {} and it expires in May.",
    "redis-cli": "redis-cli -h cache -a {} info",
    "gh-secret": "gh secret set DEPLOY_KEY --repo team/app --body '{}'",
    "kubectl-secret": "kubectl create secret generic db --from-literal=user=app --from-literal=password={}",
    "fly-secrets": "fly secrets set MODE=prod STRIPE_KEY={}",
    "zip": "zip -P {} backup.zip notes.txt",
    "ldap": "ldapsearch -x -H ldap://dc -D cn=admin,dc=corp -w {} -b dc=corp",
}

# Positions: where a projected string carries the text.
Position = Callable[[str], str]
POSITIONS: dict[str, Position] = {
    "bash": lambda t: f"cd /srv/app && {t} && echo done",
    "write": lambda t: json.dumps(
        {"file_path": "/srv/app/.env.local", "content": f"# local settings\n{t}\n"}
    ),
    "edit": lambda t: json.dumps(
        {"file_path": "config.py", "old_string": "x = 1", "new_string": f"x = 1\n{t}"}
    ),
    "prose": lambda t: f"I updated the configuration:\n\n```\n{t}\n```\n\nThen restarted the service.",
    "yaml-file": lambda t: f"services:\n  api:\n    image: api:latest\n    env:\n      {t}\n",
    "plain": lambda t: t,
}


@dataclass(frozen=True)
class Case:
    form: str  # the format or syntax the secret is written in
    text: str
    secret: str


def random_part(make: Maker, token: str) -> str:
    """What is secret in a vendor token: its random body, without the prefix every token shares.

    The prefix (``AGE-SECRET-KEY-1``, ``sk-ant-api03-``) and a PEM block's armour are scaffolding
    that may well occur elsewhere in a text; they are not what must not leak.
    """
    if token.startswith("-----BEGIN"):
        return token.split("\n", 1)[1].rsplit("\n", 1)[0]
    other = make(random.Random(token))
    shared = next((i for i, (a, b) in enumerate(zip(token, other, strict=False)) if a != b), len(token))
    return token[shared:]


def generate(seed: int) -> list[Case]:
    """One seed's cases: every vendor format once, every context syntax twice, each in a random position."""
    rng = random.Random(seed)
    cases: list[Case] = []
    for name, make in FORMATS.items():
        token = make(rng)
        text = rng.choice(list(POSITIONS.values()))(f"{rng.choice(('KEY', 'value', 'use'))}={token}")
        cases.append(Case(name, text, random_part(make, token)))
    for name, syntax in SYNTAXES.items():
        for _ in range(2):
            key = spell(rng.choice(PREFIXES) + rng.choice(STEMS), rng)
            secret = value(rng)
            text = rng.choice(list(POSITIONS.values()))(syntax(key, secret, rng))
            cases.append(Case(f"{name}:{key}", text, secret))
    for name, template in FIXED.items():
        secret = value(rng)
        if name == "url-credentials":  # a URL's password is percent-encoded, as a client writes it
            secret = urllib.parse.quote(secret, safe="")
        cases.append(Case(name, rng.choice(list(POSITIONS.values()))(template.format(secret)), secret))
    return cases


def leaked(secret: str, text: str, width: int = 8) -> list[str]:
    """Fragments of ``secret`` that survive in ``text``: none may."""
    return [secret[i : i + width] for i in range(len(secret) - width + 1) if secret[i : i + width] in text]


SEEDS = range(12)


def test_the_generated_set_is_large_and_varied() -> None:
    cases = [case for seed in SEEDS for case in generate(seed)]
    assert len(cases) >= 60
    assert len(FORMATS) + len(SYNTAXES) + len(FIXED) >= 40


@pytest.mark.parametrize("seed", SEEDS)
def test_no_generated_secret_leaks(seed: int) -> None:
    leaks = [
        (case.form, case.text, redact(case.text))
        for case in generate(seed)
        if leaked(case.secret, redact(case.text))
    ]
    assert leaks == []


def negatives(seed: int) -> list[str]:
    """Text that looks technical and must survive: digests, ids, base64 of prose, code, placeholders."""
    rng = random.Random(seed)
    sentence = rng.choice(("the quick brown fox", "hello world, again", "ordinary configuration text"))
    words = rng.choice(("password", "token", "secret", "API key"))
    return [
        f"commit {body(rng, HEX, 40)} (HEAD -> main)",
        f"sha256:{body(rng, HEX, 64)}",
        "{}-{}-4{}-a{}-{}".format(*(body(rng, HEX, n) for n in (8, 4, 3, 3, 12))),
        base64.b64encode(f"{sentence} {rng.randint(0, 999)}".encode()).decode(),
        f"the {words} field is validated on submit",
        f"Please reset your {words} before Friday.",
        f'{spell(rng.choice(STEMS), rng)} = request.form["{words}"]',
        f"{spell(rng.choice(STEMS), rng)} = get_{rng.choice(('token', 'secret', 'password'))}()",
        f"def login(user: str, {rng.choice(('password', 'token'))}: str) -> None:",
        f"if not {rng.choice(('token', 'password', 'api_key'))}:",
        spell(rng.choice(STEMS), rng)
        + "="
        + rng.choice(("$PASSWORD", "${TOKEN}", "<password>", "***", "changeme")),
        f"/home/dev/project/src/{rng.choice(('token_store', 'secret_rotation', 'password_reset'))}.py",
    ]


@pytest.mark.parametrize("seed", SEEDS)
def test_generated_negatives_survive(seed: int) -> None:
    changed = [(text, redact(text)) for text in negatives(seed) if redact(text) != text]
    assert changed == []


def transcript(cases: list[Case], rng: random.Random) -> list[dict[str, object]]:
    """A session carrying each case's text in one of the places the projection keeps text from."""
    records: list[dict[str, object]] = []

    def add(kind: str, content: object) -> None:
        index = len(records)
        records.append(
            {
                "type": kind,
                "uuid": f"u{index}",
                "timestamp": "2026-03-01T10:00:00.000Z",
                "sessionId": "generated",
                "cwd": "/srv/app",
                "message": {"role": kind, "content": content},
            }
        )

    for index, case in enumerate(cases):
        where = rng.choice(("prompt", "text", "bash", "write", "edit", "failure"))
        call = {"type": "tool_use", "id": f"toolu_{index}"}
        if where == "prompt":
            add("user", case.text)
        elif where == "text":
            add("assistant", [{"type": "text", "text": case.text}])
        elif where == "bash":
            add("assistant", [{**call, "name": "Bash", "input": {"command": case.text}}])
        elif where == "write":
            add(
                "assistant",
                [{**call, "name": "Write", "input": {"file_path": "/srv/app/.env", "content": case.text}}],
            )
        elif where == "edit":
            edit = {
                "file_path": "/srv/app/settings.py",
                "old_string": "DEBUG = True",
                "new_string": case.text,
            }
            add("assistant", [{**call, "name": "Edit", "input": edit}])
        else:
            add("assistant", [{**call, "name": "Bash", "input": {"command": "./deploy.sh"}}])
            result = {
                "type": "tool_result",
                "tool_use_id": f"toolu_{index}",
                "is_error": True,
                "content": case.text,
            }
            add("user", [result])
    return records


@pytest.mark.parametrize("seed", SEEDS)
def test_no_generated_secret_leaks_through_the_projection(seed: int) -> None:
    """The same cases as prompts, assistant text, Bash commands, Write and Edit arguments, error output."""
    cases = generate(seed)
    observations = Projector().feed(transcript(cases, random.Random(seed)))
    projected = "\n".join(json.dumps(observation.to_json()) for observation in observations)
    assert len(observations) >= len(cases)
    leaks = [case.form for case in cases if leaked(json.dumps(case.secret)[1:-1], projected)]
    assert leaks == []
