"""Secrets that sit under names which do not say secret, found by what carries them (secret_carriers).

The values are drawn at random every run (``SBCORE_REDACT_SEED`` replays one) under header and parameter
names made up from syllables, so no vendor's name is what finds them; beside them, the near misses a
careless rule would mangle (request ids, trace headers, hashes in a query, a login endpoint, a time).
"""

from __future__ import annotations

import os
import random
import string

import pytest

from sbcore.observe.project import Projector
from sbcore.observe.redact import redact

SEED = int(os.environ.get("SBCORE_REDACT_SEED") or random.SystemRandom().randrange(1 << 30))
ALNUM = string.ascii_letters + string.digits


def _rng(salt: str) -> random.Random:
    return random.Random(f"{SEED}-{salt}")


def _token(rng: random.Random, size: int) -> str:
    while True:
        value = "".join(rng.choice(ALNUM) for _ in range(size))
        if (
            any(c.isupper() for c in value)
            and any(c.islower() for c in value)
            and any(c.isdigit() for c in value)
        ):
            return value


def _name(rng: random.Random) -> str:
    return "".join(rng.choice(["vel", "oro", "quin", "sab", "tiv", "mok", "ral", "dex"]) for _ in range(2))


def _gone(secret: str, text: str) -> None:
    assert secret not in redact(text), f"seed {SEED}: {text!r}"
    use = {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": text}}
    observations = Projector().feed([{"type": "assistant", "message": {"content": [use]}}])
    assert all(secret not in observation.text for observation in observations), f"seed {SEED}"


@pytest.mark.parametrize("index", range(6))
def test_a_custom_headers_random_value_is_redacted_whatever_the_header_is_called(index: int) -> None:
    rng = _rng(f"header{index}")
    secret = _token(rng, rng.randint(18, 48))
    header = f"X-{_name(rng).title()}-{rng.choice(['Team', 'Client', 'Account', 'Project', 'Access'])}"
    form = rng.choice(
        ['curl -s https://api.example.net/v1 -H "{h}: {v}"', "{h}: {v}", "http GET :8080/x '{h}:{v}'"]
    )
    _gone(secret, form.format(h=header, v=secret))


@pytest.mark.parametrize("index", range(6))
def test_a_query_parameters_random_value_is_redacted_whatever_the_parameter_is_called(index: int) -> None:
    rng = _rng(f"query{index}")
    secret = _token(rng, rng.randint(28, 48))
    url = f"https://api.example.org/data/2.5/weather?q=Oslo&{_name(rng)}={secret}&units=metric"
    _gone(secret, f"wget -qO- '{url}'")


@pytest.mark.parametrize(
    "form",
    [
        "For reference, the staging login is {u} / {p} — I used it to check the flag.",
        "The test credentials are {u}:{p}, from the onboarding doc.",
        "creds: {u} / {p}",
        "The admin login is `{u}` / `{p}` on the panel.",
    ],
)
def test_a_login_written_out_in_prose_loses_its_password(form: str) -> None:
    rng = _rng(form)
    password = "".join(rng.choice(ALNUM + "%*!#") for _ in range(14))
    text = form.format(u=rng.choice(["admin", "deploy", "ops@example.com"]), p=password)
    _gone(password, text)


@pytest.mark.parametrize("shape", ["dashed", "digits", "listed"])
def test_a_list_of_recovery_codes_is_redacted(shape: str) -> None:
    rng = _rng(shape)
    alphabet = string.ascii_lowercase + string.digits
    if shape == "dashed":
        codes = [
            "".join(rng.choice(alphabet) for _ in range(5))
            + "-"
            + "".join(rng.choice(alphabet) for _ in range(5))
            for _ in range(8)
        ]
        text = "Save these backup codes somewhere safe: " + " ".join(codes)
    elif shape == "digits":
        codes = ["".join(rng.choice(string.digits) for _ in range(8)) for _ in range(10)]
        text = "Your 2FA recovery codes:\n" + "\n".join(codes)
    else:
        codes = ["a" + "".join(rng.choice(string.digits) for _ in range(7)) for _ in range(5)]
        text = "MFA recovery codes (store them offline):\n" + "\n".join(f"- {code}" for code in codes)
    out = redact(text)
    assert not any(code in out for code in codes), f"seed {SEED}: {out!r}"


@pytest.mark.parametrize(
    "text",
    [
        'curl -H "X-Request-Id: 3f9a2b7c4d1e8f6a9b0c2d4e6f8a1b3c" https://example.com',
        "X-GitHub-Delivery: 72d3162e-cc78-11e3-81ab-4c9367dc0958",
        "X-Amz-Content-Sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        "X-Cloud-Trace-Context: 105445aa7843bc8bf206b12000100000/1;o=1",
        "X-Frame-Options: SAMEORIGIN",
        "X-Correlation-ID: Req8f2KqLm41ZxT7bPw9Ns3",
        "git fetch 'https://example.com/repo/compare?sha=4b825dc642cb6eb9a060e54bf8d69288fbee4904'",
        "open https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42",
        "see https://example.com/login?next=https%3A%2F%2Fexample.com%2FdashboardPage2024Q3",
        "The login is handled by the session middleware.",
        "login: POST /api/auth/login with the form body",
        "The login form's credentials are username/password fields.",
        "Last login: 10:30:45 from 10.0.0.7",
        "Check the exit codes: 0 means success, 1 means failure, 2 means misuse.",
        "credentials are stored in ~/.aws/credentials and read by boto3",
    ],
)
def test_near_misses_come_through_as_they_are(text: str) -> None:
    assert redact(text) == text


def _password(rng: random.Random, size: int = 16) -> str:
    return (
        "".join(rng.choice(ALNUM + "%!#*@^") for _ in range(size - 2))
        + rng.choice("%!#")
        + rng.choice("0123456789")
    )


@pytest.mark.parametrize(
    "form",
    [
        'db_password          = "{}"',  # aligned as `terraform fmt` aligns
        'psk="{}"',
        "nmcli device wifi connect HomeNet password '{}' ifname wlan0",
        "CREATE USER 'app'@'10.0.%' IDENTIFIED BY '{}';",
        "echo '{}' | sudo openconnect --user=jdoe --passwd-on-stdin vpn.example.com",
        'server.login("ops@example.com", "{}")',
    ],
)
def test_a_password_in_a_form_a_name_does_not_lead_to_is_redacted(form: str) -> None:
    password = _password(_rng(form))
    _gone(password, form.format(password))


def test_a_secret_handed_to_a_call_named_for_it_or_a_variables_default_is_redacted() -> None:
    rng = _rng("calls")
    key = _token(rng, 40)
    _gone(key, f'client.{_name(rng)}_bearer_auth("{key}")')
    _gone(key, f'variable "{_name(rng)}_token" {{\n  type      = string\n  default   = "{key}"\n}}')
    _gone(key, f"[remote]\ntype = b2\nkey = {key}\n")  # a bare key on a line of its own, random
    _gone(key, f'proxy_set_header Authorization "Basic {key}";')
    _gone(key, f"const r = await request(app).set('Cookie', 'sid={key}');")
    hex_key = "".join(rng.choice("0123456789abcdef") for _ in range(32))
    _gone(hex_key, f"curl 'https://api.example.org/v2/forecast?lat=52.5&{_name(rng)}={hex_key}'")


def test_a_key_file_written_whole_is_redacted_from_the_projection() -> None:
    rng = _rng("keyfile")
    key = "".join(rng.choice("0123456789abcdef") for _ in range(32))
    for path in ("/app/config/master.key", "/home/me/.vault-token", "/srv/secrets/api-token"):
        use = {
            "type": "tool_use",
            "id": "t1",
            "name": "Write",
            "input": {"file_path": path, "content": key + "\n"},
        }
        observations = Projector().feed([{"type": "assistant", "message": {"content": [use]}}])
        assert observations and all(key not in o.text and key not in str(o.args) for o in observations)
    use = {
        "type": "tool_use",
        "id": "t1",
        "name": "Write",
        "input": {"file_path": "/app/VERSION", "content": key},
    }
    observations = Projector().feed([{"type": "assistant", "message": {"content": [use]}}])
    assert key in observations[0].text  # a file named for nothing secret keeps its word


@pytest.mark.parametrize(
    "text",
    [
        'value: "vault:secret/data/payments/db#password"',
        'DB_PASSWORD: "op://Engineering/db/password"',
        "No cache found for key: build-917d6eb17fe6f9797165c9ec6584af93a9c24bba",
        'key = "sessions:active:by_user"',
        "has_sessions_header = '<h2>Sessions</h2>' in html",
        'api_token   = "${var.token}"',
        'login("admin", "password")',
        'variable "region" {\n  default = "eu-west-1-abcdef"\n}',
        "git log 'https://example.com/compare?sha=4b825dc642cb6eb9a060e54bf8d69288'",
        "proxy_set_header Authorization $http_authorization;",
    ],
)
def test_references_and_look_alikes_of_those_forms_come_through(text: str) -> None:
    assert redact(text) == text
