"""Secret redaction: a realistic fake for every kind, what must survive, embeddings, caps, fuzzing.

Every fake is built at import from a seeded generator in the vendor's real shape, so no literal token
sits in this file for a push-protection scanner to flag, and none of them is a real credential.
"""

from __future__ import annotations

import base64
import json
import random
import re
import string
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sbcore.observe.redact import KINDS, MAX_SECRET_SPAN, redact

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT / ".." / "shared"

UPPER, LOWER, DIGITS = string.ascii_uppercase, string.ascii_lowercase, string.digits
LETTERS, ALNUM, HEX = string.ascii_letters, string.ascii_letters + DIGITS, "0123456789abcdef"
B64URL, B64 = ALNUM + "-_", ALNUM + "+/"


def fake(alphabet: str, length: int, seed: str) -> str:
    """Deterministic random characters: the same fake on every run."""
    rng = random.Random(seed)
    return "".join(rng.choice(alphabet) for _ in range(length))


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def uuid(seed: str) -> str:
    h = fake(HEX, 32, seed)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"


def pem(label: str, lines: int, seed: str, end: bool = True) -> str:
    body = "\n".join(fake(B64, 64, f"{seed}{i}") for i in range(lines))
    block = f"-----BEGIN {label}-----\nMIIE{body}\n"
    return block + (f"-----END {label}-----" if end else "")


JWT = ".".join(
    (
        b64url(json.dumps({"alg": "HS256", "typ": "JWT"}).encode()),
        b64url(
            json.dumps({"sub": "user-1842", "name": "Ada", "iat": 1767225600, "exp": 1767229200}).encode()
        ),
        fake(B64URL, 43, "jwt-signature"),
    )
)
DISCORD_BOT = f"{b64url(b'318274610293847561')}.{fake(B64URL, 6, 'dc-ts')}.{fake(B64URL, 38, 'dc-hmac')}"
SLACK_BOT = f"xoxb-{fake(DIGITS, 12, 'sb1')}-{fake(DIGITS, 13, 'sb2')}-{fake(ALNUM, 24, 'sb3')}"

# kind -> fakes that are secrets from the first character to the last (format rules).
FORMATS: dict[str, list[str]] = {
    "aws-access-key-id": [p + fake(UPPER + "234567", 16, p) for p in ("AKIA", "ASIA", "ABIA", "ACCA")],
    "gcp-api-key": ["AIza" + fake(B64URL, 35, "gcp")],
    "gcp-oauth-client-secret": ["GOCSPX-" + fake(B64URL, 28, "gocspx")],
    "google-oauth-access-token": ["ya29.a0" + fake(B64URL, 150, "ya29")],
    "digitalocean-token": [p + fake(HEX, 64, p) for p in ("dop_v1_", "doo_v1_", "dor_v1_")],
    "heroku-api-key": ["HRKU-AA" + fake(B64URL, 58, "heroku")],
    "alibaba-access-key-id": ["LTAI" + fake(ALNUM, 20, "alibaba")],
    "cloudflare-origin-ca-key": [f"v1.0-{fake(HEX, 24, 'cf1')}-{fake(HEX, 146, 'cf2')}"],
    "github-pat": ["ghp_" + fake(ALNUM, 36, "ghp")],
    "github-oauth-token": ["gho_" + fake(ALNUM, 36, "gho")],
    "github-app-token": ["ghu_" + fake(ALNUM, 36, "ghu"), "ghs_" + fake(ALNUM, 36, "ghs")],
    "github-refresh-token": ["ghr_" + fake(ALNUM, 36, "ghr")],
    "github-fine-grained-pat": [f"github_pat_11{fake(UPPER + DIGITS, 20, 'gfg1')}_{fake(ALNUM, 59, 'gfg2')}"],
    "gitlab-pat": ["glpat-" + fake(B64URL, 20, "glpat")],
    "gitlab-deploy-token": ["gldt-" + fake(B64URL, 20, "gldt")],
    "gitlab-runner-token": ["glrt-" + fake(B64URL, 20, "glrt")],
    "gitlab-token": [
        "glptt-" + fake(HEX, 40, "glptt"),
        "glcbt-" + fake(B64URL, 25, "glcbt"),
        "glft-" + fake(B64URL, 20, "glft"),
        "glimt-" + fake(B64URL, 25, "glimt"),
        "glagent-" + fake(B64URL, 50, "glagent"),
        "gloas-" + fake(B64URL, 64, "gloas"),
        "glsoat-" + fake(B64URL, 20, "glsoat"),
        "glffct-" + fake(B64URL, 20, "glffct"),
    ],
    "bitbucket-app-password": ["ATBB" + fake(ALNUM, 32, "atbb")],
    "npm-access-token": ["npm_" + fake(ALNUM, 36, "npm")],
    "pypi-token": ["pypi-AgEIcHlwaS5vcmc" + fake(B64URL, 70, "pypi")],
    "dockerhub-token": ["dckr_pat_" + fake(B64URL, 27, "dckr"), "dckr_oat_" + fake(B64URL, 32, "dckro")],
    "circleci-token": [
        f"CCIPAT_{fake(ALNUM, 22, 'cci1')}_{fake(HEX, 40, 'cci2')}",
        f"CCIPRJ_{fake(ALNUM, 22, 'ccp1')}_{fake(HEX, 40, 'ccp2')}",
    ],
    "rubygems-api-key": ["rubygems_" + fake(HEX, 48, "gems")],
    "pulumi-access-token": ["pul-" + fake(HEX, 40, "pulumi")],
    "vault-token": [
        "hvs." + fake(B64URL, 90, "hvs"),
        "hvb." + fake(B64URL, 140, "hvb"),
        "hvr." + fake(B64URL, 24, "hvr"),
    ],
    "doppler-token": [f"dp.{s}." + fake(ALNUM, 43, s) for s in ("pt", "st", "ct", "sa", "scim", "audit")],
    "1password-service-account-token": ["ops_eyJ" + fake(B64, 300, "ops")],
    "1password-secret-key": [
        "A3-" + "-".join(fake(UPPER + DIGITS, n, f"a3{i}") for i, n in enumerate((6, 11, 5, 5, 5)))
    ],
    "age-secret-key": ["AGE-SECRET-KEY-1" + fake("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58, "age")],
    "planetscale-token": [p + fake(B64URL, 43, p) for p in ("pscale_tkn_", "pscale_pw_", "pscale_oauth_")],
    "supabase-token": ["sbp_" + fake(HEX, 40, "sbp"), "sb_secret_" + fake(B64URL, 31, "sbs")],
    "fly-io-token": ["fo1_" + fake(B64URL, 43, "fo1"), "fm2_" + fake(B64, 300, "fm2")],
    "grafana-token": ["glc_" + fake(B64, 80, "glc"), f"glsa_{fake(ALNUM, 32, 'gs1')}_{fake(HEX, 8, 'gs2')}"],
    "sentry-token": [
        "sntryu_" + fake(HEX, 64, "sntryu"),
        f"sntrys_eyJpYXQiOjE3{fake(B64, 120, 'st1')}_{fake(B64, 43, 'st2')}",
    ],
    "new-relic-key": [
        "NRAK-" + fake(UPPER + DIGITS, 27, "nrak"),
        "NRII-" + fake(B64URL, 32, "nrii"),
        "NRJS-" + fake(HEX, 19, "nrjs"),
    ],
    "linear-api-key": ["lin_api_" + fake(ALNUM, 40, "lin"), "lin_oauth_" + fake(HEX, 64, "lino")],
    "notion-token": [
        "ntn_" + fake(DIGITS, 11, "ntn1") + fake(ALNUM, 35, "ntn2"),
        "secret_" + fake(ALNUM, 43, "nsec"),
    ],
    "atlassian-api-token": ["ATATT3xFfGF0" + fake(B64URL, 170, "atatt") + "=" + fake(HEX, 8, "atatt2")],
    "prefect-api-key": ["pnu_" + fake(ALNUM, 36, "pnu")],
    "posthog-personal-api-key": ["phx_" + fake(ALNUM, 43, "phx")],
    "postman-api-key": [f"PMAK-{fake(HEX, 24, 'pm1')}-{fake(HEX, 34, 'pm2')}"],
    "shopify-token": [p + fake(HEX, 32, p) for p in ("shpat_", "shpca_", "shppa_", "shpss_")],
    "slack-bot-token": [SLACK_BOT],
    "slack-user-token": [
        "xoxp-"
        + "-".join(fake(DIGITS, n, f"su{n}{i}") for i, n in enumerate((12, 12, 13)))
        + "-"
        + fake(HEX, 32, "su4")
    ],
    "slack-app-token": [
        f"xapp-1-A{fake(UPPER + DIGITS, 10, 'sa1')}-{fake(DIGITS, 13, 'sa2')}-{fake(HEX, 64, 'sa3')}"
    ],
    "slack-token": [
        f"xoxa-2-{fake(DIGITS, 12, 'xa')}-{fake(ALNUM, 32, 'xa2')}",
        f"xoxr-{fake(DIGITS, 12, 'xr')}-{fake(ALNUM, 32, 'xr2')}",
        f"xoxs-{fake(DIGITS, 12, 'xs')}-{fake(HEX, 40, 'xs2')}",
        "xoxe.xoxp-1-" + fake(ALNUM, 160, "xoxe1"),
        "xoxe-1-" + fake(ALNUM, 146, "xoxe2"),
        f"xoxc-{fake(DIGITS, 12, 'xc1')}-{fake(DIGITS, 12, 'xc2')}-{fake(HEX, 64, 'xc3')}",
    ],
    "sendgrid-api-key": [f"SG.{fake(B64URL, 22, 'sg1')}.{fake(B64URL, 43, 'sg2')}"],
    "mailgun-api-key": ["key-" + fake(HEX, 32, "mailgun")],
    "mailchimp-api-key": [fake(HEX, 32, "mailchimp") + "-us14"],
    "brevo-api-key": [f"xkeysib-{fake(HEX, 64, 'br1')}-{fake(ALNUM, 16, 'br2')}"],
    "stripe-secret-key": ["sk_live_" + fake(ALNUM, 99, "skl"), "sk_test_" + fake(ALNUM, 24, "skt")],
    "stripe-restricted-key": ["rk_live_" + fake(ALNUM, 99, "rkl"), "rk_test_" + fake(ALNUM, 24, "rkt")],
    "stripe-webhook-secret": ["whsec_" + fake(ALNUM, 32, "whsec")],
    "square-token": [
        "sq0atp-" + fake(B64URL, 22, "sq1"),
        "sq0csp-" + fake(B64URL, 43, "sq2"),
        "EAAA" + fake(B64URL, 60, "sq3"),
    ],
    "braintree-access-token": [
        f"access_token${env}${fake(LOWER + DIGITS, 16, env)}${fake(HEX, 32, env + '2')}"
        for env in ("production", "sandbox")
    ],
    "anthropic-api-key": [
        f"sk-ant-api03-{fake(B64URL, 93, 'ant')}AA",
        f"sk-ant-admin01-{fake(B64URL, 93, 'anta')}AA",
        f"sk-ant-oat01-{fake(B64URL, 93, 'anto')}AA",
    ],
    "openrouter-api-key": ["sk-or-v1-" + fake(HEX, 64, "openrouter")],
    "openai-api-key": [
        "sk-proj-" + fake(B64URL, 156, "proj"),
        "sk-svcacct-" + fake(B64URL, 156, "svc"),
        "sk-admin-" + fake(B64URL, 156, "adm"),
        f"sk-{fake(ALNUM, 20, 'oa1')}T3BlbkFJ{fake(ALNUM, 20, 'oa2')}",
    ],
    "sk-api-key": ["sk-" + fake(HEX, 32, "deepseek")],
    "huggingface-token": ["hf_" + fake(LETTERS, 34, "hf"), "api_org_" + fake(LETTERS, 34, "hforg")],
    "groq-api-key": ["gsk_" + fake(ALNUM, 52, "groq")],
    "replicate-api-token": ["r8_" + fake(ALNUM, 37, "r8")],
    "perplexity-api-key": ["pplx-" + fake(ALNUM, 48, "pplx")],
    "xai-api-key": ["xai-" + fake(ALNUM, 80, "xai")],
    "tavily-api-key": ["tvly-" + fake(ALNUM, 32, "tvly"), "tvly-dev-" + fake(ALNUM, 32, "tvlyd")],
    "databricks-token": ["dapi" + fake(HEX, 32, "dapi-format"), "dapi" + fake(HEX, 32, "dapi2") + "-2"],
    "twilio-api-key": ["SK" + fake(HEX, 32, "twilio-sk")],
    "nuget-api-key": ["oy2" + fake(LOWER + DIGITS, 43, "nuget")],
    "airtable-token": [f"pat{fake(ALNUM, 14, 'at1')}.{fake(HEX, 64, 'at2')}"],
    "azure-ad-client-secret": [f"{fake(ALNUM, 3, 'az1')}8Q~{fake(B64URL + '~.', 34, 'az2')}"],
    "figma-token": ["figd_" + fake(B64URL, 40, "figd")],
    "contentful-token": ["CFPAT-" + fake(B64URL, 43, "cfpat")],
    "mapbox-secret-token": [f"sk.eyJ1Ijoi{fake(B64URL, 60, 'mb1')}.{fake(B64URL, 22, 'mb2')}"],
    "dynatrace-token": [f"dt0c01.{fake(UPPER + DIGITS, 24, 'dt1')}.{fake(UPPER + DIGITS, 64, 'dt2')}"],
    "mailersend-api-key": ["mlsn." + fake(HEX, 64, "mlsn")],
    "resend-api-key": [f"re_{fake(ALNUM, 8, 're1')}_{fake(ALNUM, 24, 're2')}"],
    "plaid-access-token": [f"access-sandbox-{uuid('plaid')}", f"access-production-{uuid('plaid2')}"],
    "sonarqube-token": [p + fake(HEX, 40, p) for p in ("squ_", "sqp_", "sqa_")],
    "sourcegraph-token": [
        "sgp_" + fake(HEX + "ABCDEF", 40, "sgp"),
        "sgp_local_" + fake(HEX, 40, "sgpl"),
        f"sgp_{fake(HEX, 16, 'sgpi')}_{fake(HEX, 40, 'sgpt')}",
    ],
    "intra42-client-secret": [f"s-s4t2{env}-" + fake(HEX, 64, env) for env in ("ud", "af")],
    "aws-bedrock-api-key": ["ABSK" + fake(B64, 132, "bedrock") + "="],
    "facebook-access-token": ["EAA" + c + fake(ALNUM, 180, "fb" + c) for c in "MC"],
    "netlify-token": ["nfp_" + fake(ALNUM, 36, "nfp")],
    "buildkite-token": ["bkua_" + fake(HEX, 40, "bkua")],
    "deno-deploy-token": ["ddp_" + fake(ALNUM, 36, "ddp"), "ddw_" + fake(ALNUM, 36, "ddw")],
    "jfrog-token": ["AKCp" + fake(ALNUM, 69, "jfrog")],
    "langfuse-secret-key": [f"sk-lf-{uuid('langfuse')}"],
    "langsmith-api-key": [f"lsv2_pt_{fake(HEX, 32, 'ls1')}_{fake(HEX, 10, 'ls2')}"],
    "pinecone-api-key": [f"pcsk_{fake(ALNUM, 6, 'pc1')}_{fake(ALNUM, 64, 'pc2')}"],
    "launchdarkly-sdk-key": ["sdk-" + uuid("launchdarkly")],
    "jwt": [JWT],
    "private-key": [
        pem("RSA PRIVATE KEY", 6, "rsa"),
        pem("EC PRIVATE KEY", 2, "ec"),
        pem("OPENSSH PRIVATE KEY", 5, "ssh"),
        pem("ENCRYPTED PRIVATE KEY", 4, "enc"),
        pem("PRIVATE KEY", 4, "pk8"),
        pem("PGP PRIVATE KEY BLOCK", 6, "pgp"),
    ],
    "discord-bot-token": [DISCORD_BOT],
    "telegram-bot-token": [f"{fake(DIGITS, 9, 'tg1')}:AA{fake(B64URL, 33, 'tg2')}"],
    "terraform-cloud-token": [f"{fake(ALNUM, 14, 'tf1')}.atlasv1.{fake(B64URL, 67, 'tf2')}"],
}


@dataclass(frozen=True)
class Context:
    """A secret value in context: the text, the secret, and exactly what redaction must leave."""

    kind: str
    text: str
    secret: str
    expected: str


def ctx(kind: str, template: str, secret: str) -> Context:
    """``template`` has one ``{}`` where the secret goes, and where the marker must end up."""
    return Context(kind, template.format(secret), secret, template.format(f"[REDACTED:{kind}]"))


PW = "Tr0ub4dor&3-" + fake(ALNUM, 6, "pw")
CONTEXTS: list[Context] = [
    ctx("url-credentials", "postgres://app:{}@db.internal:5432/app", PW),
    ctx(
        "url-credentials",
        "git clone https://deploy:{}@git.example.com/team/repo.git",
        fake(ALNUM, 20, "gitpw"),
    ),
    ctx("url-credentials", "redis://:{}@cache:6379/0", fake(ALNUM, 16, "redis")),
    ctx("sentry-dsn", "SENTRY_DSN=https://{}@o4506.ingest.sentry.io/4507", fake(HEX, 32, "dsn")),
    ctx(
        "slack-webhook",
        "https://hooks.slack.com/services/{}",
        f"T{fake(UPPER, 8, 'w1')}/B{fake(UPPER, 10, 'w2')}/" + fake(ALNUM, 24, "w3"),
    ),
    ctx(
        "discord-webhook", "https://discord.com/api/webhooks/1187411832946180123/{}", fake(B64URL, 68, "dwh")
    ),
    ctx(
        "teams-webhook",
        "https://contoso.webhook.office.com/webhookb2/{}",
        f"{uuid('t1')}@{uuid('t2')}/IncomingWebhook/{fake(HEX, 32, 't3')}/{uuid('t4')}",
    ),
    ctx(
        "telegram-bot-token",
        "https://api.telegram.org/bot{}/sendMessage",
        f"7012345678:AA{fake(B64URL, 33, 'tgu')}",
    ),
    ctx("password", "password={}", PW),
    ctx("password", "DB_PASSWORD: {}", PW),
    ctx("password", 'userPassword = "{}"', "correct horse battery staple"),
    ctx("password", "mysql -u root --password {} -e 'select 1'", PW),
    ctx("password", "sshpass -p '{}' ssh deploy@host", PW),
    ctx("password", "export PGPASSWORD={} && psql", PW),
    ctx("password", "SMTP_PASS={}", PW),
    ctx("password", "Server=db;Database=shop;Uid=sa;Pwd={};", "Xq9-h2Lp0w"),
    ctx("secret", "client_secret = '{}'", fake(ALNUM, 40, "cs")),
    ctx("secret", '{{"clientSecret": "{}"}}', fake(B64URL, 40, "cs2")),
    ctx("token", "export API_TOKEN={}", fake(ALNUM, 40, "apitok")),
    ctx("token", "deploy --token {} --env prod", fake(HEX, 40, "flagtok")),
    ctx("token", "  access_token: {}", fake(B64URL, 48, "yamltok")),
    ctx("api-key", '"api_key": "{}"', fake(ALNUM, 32, "apikey")),
    ctx("api-key", "curl -H 'X-Api-Key: {}' https://api.example.com", fake(HEX, 40, "xapikey")),
    ctx("api-key", 'ApiKey := "{}"', fake(ALNUM, 32, "goapikey")),
    ctx("secret-key", "SIGNING_KEY={}", fake(B64, 44, "signing")),
    ctx("private-key", "private_key = '{}'", fake(B64, 64, "pkassign")),
    ctx("aws-secret-access-key", "aws_secret_access_key = {}", fake(B64, 40, "awssecret")),
    ctx("aws-secret-access-key", '{{"SecretAccessKey": "{}"}}', fake(B64, 40, "awssecret2")),
    ctx("aws-session-token", "aws_session_token = {}", "IQoJb3JpZ2luX2VjE" + fake(B64, 300, "awssess")),
    ctx("npmrc-auth-token", "//registry.npmjs.org/:_authToken={}", uuid("npmrc")),
    ctx("gcp-service-account-key-id", '"private_key_id": "{}",', fake(HEX, 40, "gcpkid")),
    ctx(
        "azure-storage-account-key",
        "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey={};EndpointSuffix=core.windows.net",
        fake(B64, 86, "azkey") + "==",
    ),
    ctx(
        "azure-shared-access-key",
        "Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey={}",
        fake(B64, 43, "azsas") + "=",
    ),
    ctx(
        "azure-sas-signature",
        "https://acct.blob.core.windows.net/c/b.txt?sv=2022-11-02&ss=b&sp=r&sig={}",
        fake(ALNUM, 40, "sig") + "%3D",
    ),
    ctx("datadog-api-key", "DD_API_KEY={}", fake(HEX, 32, "dd")),
    ctx("new-relic-key", "NEW_RELIC_LICENSE_KEY={}", fake(HEX, 40, "nr")),
    ctx("twilio-auth-token", "TWILIO_AUTH_TOKEN={}", fake(HEX, 32, "twilio")),
    ctx("okta-api-token", "OKTA_API_TOKEN={}", "00" + fake(B64URL, 40, "okta")),
    ctx("access-id", 'vendor.accessId = "{}"', "su" + fake(ALNUM, 12, "access-id")),
    ctx("sonarqube-token", "SONAR_LOGIN := {}", fake(HEX, 40, "sonar-login")),
    ctx("travis-ci-token", "TRAVIS_TOKEN={}", fake(ALNUM, 22, "travis")),
    ctx("circleci-token", "CIRCLE_TOKEN={}", fake(HEX, 40, "circle")),
    ctx("heroku-api-key", "HEROKU_API_KEY={}", uuid("heroku")),
    ctx(
        "mailgun-api-key",
        "MAILGUN_API_KEY={}",
        f"{fake(HEX, 32, 'mg1')}-{fake(HEX, 8, 'mg2')}-{fake(HEX, 8, 'mg3')}",
    ),
    ctx("sentry-token", "SENTRY_AUTH_TOKEN={}", fake(HEX, 64, "sentrytok")),
    ctx("cloudflare-api-token", "CLOUDFLARE_API_TOKEN={}", fake(B64URL, 40, "cf")),
    ctx("databricks-token", "DATABRICKS_TOKEN={}", "dapi" + fake(HEX, 32, "dapi")),
    ctx("cohere-api-key", "COHERE_API_KEY={}", fake(ALNUM, 40, "cohere")),
    ctx("mistral-api-key", "MISTRAL_API_KEY={}", fake(ALNUM, 32, "mistral")),
    ctx("discord-bot-token", "DISCORD_BOT_TOKEN={}", fake(B64URL, 30, "discordenv")),
    ctx("telegram-bot-token", "TELEGRAM_TOKEN={}", fake(B64URL, 30, "tgenv")),
    ctx("openai-api-key", "OPENAI_API_KEY={}", fake(ALNUM, 30, "oaienv")),
    ctx("anthropic-api-key", "ANTHROPIC_API_KEY={}", fake(ALNUM, 30, "antenv")),
    ctx(
        "authorization-bearer",
        "curl -H 'Authorization: Bearer {}' https://api.example.com",
        fake(B64URL, 40, "opq"),
    ),
    ctx("authorization-bearer", '{{"authorization": "token {}"}}', fake(HEX, 40, "ghtok")),
    ctx(
        "authorization",
        "curl -H 'Authorization: SSWS {}' https://dev.okta.com",
        "00" + fake(B64URL, 40, "ssws"),
    ),
    ctx("authorization", '{{"Authorization": "{}"}}', fake(ALNUM, 40, "noscheme")),
    ctx("authorization-basic", "Authorization: Basic {}", base64.b64encode(f"admin:{PW}".encode()).decode()),
    ctx("basic-auth", "curl -u deploy:{} https://ci.example.com/api", PW),
    ctx("basic-auth", "curl --user 'deploy:{}' https://ci.example.com/api", PW),
    ctx(
        "gcp-service-account-key",
        '{{"type": "service_account", "private_key": "{}", "client_email": "x@p.iam.gserviceaccount.com"}}',
        pem("PRIVATE KEY", 4, "gcp").replace("\n", "\\n"),
    ),
]

FORMAT_CASES = [(kind, token) for kind, tokens in FORMATS.items() for token in tokens]

# A secret known by where it sits, in the syntaxes the operator rules cannot see.
PW2 = fake(ALNUM, 18, "pw2")
CONTEXTS += [
    # the categories and carriers: a name that says secret, a cookie, what carries a secret unnamed
    ctx(
        "session-cookie",
        "curl -H 'Cookie: sid={}; theme=dark' https://app.example.com",
        fake(ALNUM, 32, "sid"),
    ),
    ctx("credentials", "ACME_CREDENTIALS={}", fake(ALNUM, 36, "creds")),
    ctx(
        "recovery-codes",
        "Keep these backup codes offline: {}",
        " ".join(
            f"{fake(LOWER + DIGITS, 5, f'rc{i}')}-{fake(LOWER + DIGITS, 5, f'rd{i}')}" for i in range(6)
        ),
    ),
    ctx("aws-secret-access-key", "aws configure set aws_secret_access_key {}", fake(B64, 40, "awscfg")),
    ctx("password", "machine api.example.com login bob password {}", PW2),
    ctx("password", "machine api.example.com\n  login bob\n  password {}\n", PW2),
    ctx("password", "mysql -u root -p{} shop", PW2),
    ctx("password", "mysqldump -uroot -p'{}' shop > dump.sql", PW2),
    ctx("password", "7z a -p{} backup.7z data/", PW2),
    ctx("password", "unzip -P {} archive.zip", PW2),
    ctx("password", "sshpass -p{} ssh deploy@host", PW2),
    ctx("password", "docker login -u ci -p {} registry.example.com", PW2),
    ctx("password", "redis-cli -h cache -a {} ping", PW2),
    ctx("password", "ssh-keygen -t ed25519 -f deploy_key -N '{}'", PW2),
    ctx("password", "printf '%s\\n' '{}' | sudo -S true", PW2),
    ctx("password", "ldapsearch -x -D cn=admin -w {} -b dc=example", PW2),
    ctx("password", "openssl pkcs12 -export -passout pass:{} -out k.p12", PW2),
    ctx("password", "echo '{}' | sudo -S apt-get update", PW2),
    ctx("password", "echo {} | docker login -u ci --password-stdin", PW2),
    ctx("password", "sudo -S whoami <<< '{}'", PW2),
    ctx("password", "htpasswd -b -c /etc/nginx/.htpasswd admin {}", PW2),
    ctx("password", "htpasswd -nbB admin {}", PW2),
    ctx("api-key", "apikey={}", fake(LETTERS, 32, "letters-only")),
    ctx("api-key", "The API key is {} for the staging tenant.", fake(ALNUM, 32, "prose")),
    ctx("secret", "--client-secret {} --tenant t", fake(B64URL, 34, "flagsecret")),
    ctx("token", "set -x GITLAB_TOKEN {}", fake(ALNUM, 26, "fish")),
    ctx("password", "<server><id>nexus</id><password>{}</password></server>", PW2),
    ctx("password", "env:\n  - name: DB_PASSWORD\n    value: {}\n  - name: MODE\n    value: prod", PW2),
    ctx("token", '[{{"name": "API_TOKEN", "value": "{}"}}, {{"name": "MODE", "value": "prod"}}]', PW2),
    ctx("api-key", '<add key="ApiKey" value="{}"/>', PW2),
    ctx("secret", "gh secret set DEPLOY_KEY --body '{}'", PW2),
    ctx("secret", "kubectl create secret generic db --from-literal=user=app --from-literal=pw={}", PW2),
    ctx("secret", "fly secrets set MODE=prod STRIPE={}", PW2),
    # Commands taking a password as an argument, found through their flag and a look back for the command.
    ctx("password", "SSHPASS={} sshpass -e ssh deploy@host", PW2),
    ctx("password", "export PGPASS={}", PW2),
    ctx("password", "openssl enc -d -aes-256-cbc -k {} -in secrets.enc", PW2),
    ctx("secret-key", "openssl enc -aes-256-cbc -K {} -iv 00ff -in f", fake(HEX, 64, "openssl-K")),
    ctx("password", "keytool -importkeystore -srcstorepass {} -destkeystore k.jks", PW2),
    ctx("password", "keytool -genkey -keystore k.jks -storepass changeit -keypass {}", PW2),
    ctx("password", "./configure --with-db-pass {} --prefix=/usr", PW2),
    ctx("password", "smbclient //fs/share -U alice%{}", PW2),
    ctx("password", "rpcclient -U 'CORP\\alice%{}' dc01", PW2),
    ctx("password", "smbclient //fs/share --user=alice%{}", PW2),
    ctx("password", "sqlcmd -S db -U sa -P {} -Q 'select 1'", PW2),
    ctx("password", "bcp shop.dbo.orders out o.dat -S db -U sa -P {} -c", PW2),
    ctx("password", "mosquitto_pub -h broker -t t -u bob -P {} -m hi", PW2),
    ctx("password", "ipmitool -I lanplus -H bmc -U admin -P {} power status", PW2),
    ctx("password", "p4 -u bob -P {} sync", PW2),
    ctx("password", "twine upload -u bob -p {} dist/*", PW2),
    ctx("password", "ncftpput -u bob -p {} ftp.example.com /up f", PW2),
    ctx("token", "curl --oauth2-bearer {} https://api.example.com", PW2),
    ctx("password", "xfreerdp /u:admin /p:{} /v:host", PW2),
    ctx("password", "sqlplus scott/{}@orcl @report.sql", PW2),
    ctx("password", "sqlplus -s scott/{}", PW2),
    ctx("password", "rman target sys/{}@prod", PW2),
    ctx("password", "lftp -u bob,{} sftp://files.example.com", PW2),
    ctx("vault-token", "vault login {}", "s." + fake(ALNUM, 24, "vault-s")),
    ctx("password", "snmpwalk -v3 -l authPriv -u mon -a SHA -A {} -x AES -X x host", PW2),
    ctx("password", "snmpget -v3 -u mon -l authPriv -X {} host sysName.0", PW2),
    ctx("password", "echo {} | kinit bob@EXAMPLE.COM", PW2),
    # a here-string into a command that reads a password from its input
    ctx("password", "kinit alice@EXAMPLE.COM <<< '{}'", PW2),
    ctx("password", 'docker login -u ci --password-stdin <<< "{}" registry.example.com', PW2),
    ctx("password", "passwd --stdin deploy <<< {}", PW2),
    ctx("password", "openssl rsa -in k.pem -passin stdin <<< '{}'", PW2),
    ctx("password", "chpasswd <<< 'deploy:{}'", PW2),
    # forms of code, SQL and command lines where something other than an operator follows the name
    ctx("password", "define('DB_PASSWORD', '{}');", PW2),
    ctx("secret-key", "app.config['SECRET_KEY'] = '{}'", PW2),
    ctx("api-key", 'os.environ["API_KEY"] = "{}"', PW2),
    ctx("password", "$cfg['Servers'][$i]['password'] = '{}';", PW2),
    ctx("password", "CREATE USER app IDENTIFIED BY '{}';", PW2),
    ctx("password", "ALTER USER app IDENTIFIED BY {};", PW2),
    ctx("password", "SET PASSWORD FOR 'app'@'%' = '{}';", PW2),
    ctx("password", "requests.get(url, auth=('admin', '{}'))", PW2),
    ctx("password", "HTTPBasicAuth('admin', '{}')", PW2),
    ctx("password", "$p = ConvertTo-SecureString '{}' -AsPlainText -Force", PW2),
    ctx("password", "cmdkey /add:srv /user:alice /pass:{}", PW2),
    ctx("password", "net user deploy {} /add", PW2),
    ctx("password", "psexec \\\\srv -u admin -p {} cmd", PW2),
    ctx("password", "echo '{}' | sudo chpasswd", PW2),  # the whole "user:password" goes
    ctx("password", "gh auth login --with-token <<< {}", PW2),
    ctx("token", "cargo login {}", fake(ALNUM, 32, "cargo")),
    ctx("url-credentials", "git clone https://{}@dev.azure.com/org/p/_git/r", fake(ALNUM, 52, "ado-pat")),
    # Windows' net use: the first plain word after the share, before or after /user:
    ctx("password", "net use Z: \\\\fs01\\share {} /user:CORP\\alice /persistent:no", PW2),
    ctx("password", "NET USE \\\\fs01\\share /user:CORP\\alice {}", PW2),
    ctx("password", "rabbitmqctl add_user bob {}", PW2),
    ctx("password", "sudo rabbitmqctl change_password bob '{}'", PW2),
    ctx("password", "wpa_passphrase HomeNet {} > /etc/wpa.conf", PW2),
    ctx("token", "influx query 'from(bucket:\"b\")' -t {}", fake(B64URL, 86, "influx") + "=="),
    # the CLIs whose -t is their access token, and --auth
    ctx("token", "doctl auth init -t {}", fake(HEX, 64, "doctl")),
    ctx("token", "vercel deploy --prod -t {} --yes", fake(ALNUM, 24, "vercel")),
    ctx("token", "flyctl deploy -t {}", fake(B64URL, 43, "flyctl")),
    ctx("token", "glab auth login -t {} --hostname gitlab.example.com", fake(B64URL, 20, "glab")),
    ctx("token", "codecov -t {} -f coverage.xml", uuid("codecov")),
    ctx("secret", "netlify deploy --prod --auth {} --dir dist", fake(B64URL, 43, "netlify")),
    ctx("password", "java -jar jenkins-cli.jar -s http://ci:8080/ -auth admin:{} build app", PW2),
    # a command's positional secret, after its subcommand
    ctx("token", "snyk auth {}", uuid("snyk")),
    ctx("token", "vault login {}", uuid("vault-uuid")),
    ctx("token", "consul acl set-agent-token agent {}", uuid("consul")),
    ctx("password", "bw unlock {} --raw", PW2),
    ctx("password", "bw login ops@example.com '{}'", PW2),
    ctx("secret-key", "mc alias set s3 https://s3.example.com AKIAEXAMPLEID {} --api S3v4", PW2),
    ctx("password", "poetry config http-basic.private ci {}", PW2),
    ctx("password", "poetry config pypi-token.pypi {}", "pypi-" + fake(B64URL, 60, "pypi-poetry")),
    ctx("token", "composer config --global github-oauth.github.com {}", fake(ALNUM, 40, "composer")),
    ctx("token", "composer config http-basic.repo.example.com ci {}", PW2),
    ctx("password", "bundle config set --global rubygems.pkg.github.com ci:{}", PW2),
    ctx("password", "redis-cli CONFIG SET requirepass '{}'", PW2),
    ctx("password", "bind 127.0.0.1\nrequirepass {}\nmaxmemory 256mb", PW2),
    ctx("password", "replicaof 10.0.0.5 6379\nmasterauth {}\n", PW2),
    # a secret store fed its value on stdin
    ctx("password", "wrangler secret put STRIPE_KEY <<< '{}'", PW2),
    ctx("password", "echo -n {} | gh secret set DEPLOY_TOKEN --repo org/app", PW2),
    # what the secret is for, in prose: a loose context, so the value must read as random
    ctx("password", "The password for the staging db is {} if you need it.", fake(ALNUM, 20, "prose-for")),
    ctx("api-key", "Here is the API key for prod: {}", fake(ALNUM, 32, "prose-for-colon")),
    # a value back-quoted in prose, as the agent shows code
    ctx("secret", "I created the key with secret `{}`; it is shown once.", fake(B64, 64, "prose-backtick")),
    # a signed URL's signature
    ctx(
        "url-signature",
        "curl 'https://b.s3.amazonaws.com/r.csv?X-Amz-Expires=600&X-Amz-SignedHeaders=host&X-Amz-Signature={}'",
        fake(HEX, 64, "amz-sig"),
    ),
    ctx(
        "url-signature",
        "wget 'https://storage.googleapis.com/b/m.bin?X-Goog-Signature={}'",
        fake(HEX, 128, "goog"),
    ),
    ctx(
        "url-signature",
        "https://d1.cloudfront.net/v.mp4?Expires=1700000000&Signature={}&Key-Pair-Id=K2",
        fake(B64URL, 40, "cf"),
    ),
    # a wallet's recovery words
    ctx(
        "wallet-seed-phrase",
        'export WALLET_MNEMONIC="{}" && node deploy.js',
        "rescue kidney orbit plunge saddle cactus",
    ),
    # a secret-named variable's default, and a value written into a file named for a secret
    ctx("password", 'password: <%= ENV.fetch("DB_PASSWORD") {{ "{}" }} %>', fake(ALNUM, 16, "erb-default")),
    ctx("secret-key", 'key = os.getenv("SECRET_KEY") or "{}"', fake(ALNUM, 24, "getenv-or")),
    ctx("token", "$t = getenv('API_TOKEN') ?: '{}';", fake(ALNUM, 24, "getenv-elvis")),
    ctx("secret", "echo {} > config/master.key && bin/rails credentials:edit", fake(HEX, 32, "master-key")),
    ctx("secret", "printf '{}' > ~/.vault-token", fake(B64URL, 28, "vault-token-file")),
    # an Ethereum account's private key in a network's accounts
    ctx("private-key", '  accounts: ["{}"],', "0x" + fake(HEX.lower(), 64, "eth")),
]

AKIA = "AKIA" + fake(UPPER + "234567", 16, "partner-id")
LTAI = "LTAI" + fake(ALNUM, 20, "partner-ali")
TWILIO_KEY = "SK" + fake(HEX, 32, "partner-sk")
# (kind, text with "{}" where the secret goes, secret): a key id's partner, wherever it is written.
PARTNERS = [
    (
        "aws-secret-access-key",
        f"Created {AKIA} with secret {{}} — store both in the vault.",
        fake(B64, 40, "partner-secret"),
    ),
    ("alibaba-access-key-secret", f"AccessKeyId {LTAI}\nAccessKeySecret {{}}", fake(ALNUM, 30, "ali-secret")),
    ("twilio-api-key-secret", f"API key {TWILIO_KEY}, its secret: {{}}", fake(ALNUM, 32, "twilio-partner")),
    # Short and holding no secret-ish word: the pair alone is the context.
    ("aws-secret-access-key", f"use {AKIA} then {{}}", fake(B64, 40, "partner-bare")),
    ("alibaba-access-key-secret", f"{LTAI} / {{}}", fake(ALNUM, 30, "ali-bare")),
]


@pytest.mark.parametrize(("kind", "template", "secret"), PARTNERS)
def test_a_random_token_beside_a_key_id_is_its_secret(kind: str, template: str, secret: str) -> None:
    out = redact(template.format(secret))
    assert f"[REDACTED:{kind}]" in out
    assert not leaked(secret, out)


def test_a_hex_digest_beside_a_key_id_is_not_its_secret() -> None:
    sha = fake(HEX, 40, "nearsha")
    assert redact(f"commit {sha} rotated {AKIA}") == f"commit {sha} rotated [REDACTED:aws-access-key-id]"


MARKER = re.compile(r"\[REDACTED:[a-z0-9-]+\]")


def leaked(secret: str, text: str, width: int = 8) -> list[str]:
    """Fragments of ``secret`` (``width`` characters) that survive in ``text``, markers aside."""
    text = MARKER.sub(" ", text)
    return [secret[i : i + width] for i in range(len(secret) - width + 1) if secret[i : i + width] in text]


def test_there_are_at_least_forty_kinds_and_every_kind_has_a_fake() -> None:
    assert len(KINDS) >= 40
    covered = set(FORMATS) | {case.kind for case in CONTEXTS} | {kind for kind, _, _ in PARTNERS}
    assert covered == KINDS, f"without a fake: {sorted(KINDS - covered)}; unknown: {sorted(covered - KINDS)}"


@pytest.mark.parametrize(
    ("kind", "token"), FORMAT_CASES, ids=[f"{k}-{i}" for i, (k, _) in enumerate(FORMAT_CASES)]
)
def test_a_format_secret_becomes_exactly_one_marker(kind: str, token: str) -> None:
    assert redact(token) == f"[REDACTED:{kind}]"
    assert redact(f"before {token} after") == f"before [REDACTED:{kind}] after"
    assert redact(f'"{token}",') == f'"[REDACTED:{kind}]",'


@pytest.mark.parametrize("case", CONTEXTS, ids=[f"{c.kind}-{i}" for i, c in enumerate(CONTEXTS)])
def test_a_context_secret_keeps_its_key_and_loses_its_value(case: Context) -> None:
    out = redact(case.text)
    assert out == case.expected
    assert not leaked(case.secret, out, width=min(8, len(case.secret)))


NEGATIVES = [
    # hashes, ids, hex
    "commit 9fceb02d0ae598e95dc970b74767f19372d61af8 (HEAD -> main)",
    "git show 9fceb02 && git revert 3f2a1b9",
    "image@sha256:" + fake(HEX, 64, "sha256"),
    "run " + uuid("run") + " finished",
    "md5 d41d8cd98f00b204e9800998ecf8427e  empty.txt",
    "mov rax, 0xdeadbeefcafebabe",
    'ETag: W/"' + fake(HEX, 40, "etag") + '"',
    # base64 of ordinary data, npm integrity hashes
    base64.b64encode(b"The quick brown fox jumps over the lazy dog, twice over.").decode(),
    '"integrity": "sha512-' + base64.b64encode(random.Random(5).randbytes(64)).decode() + '"',
    # paths and identifiers
    "/home/user/project/src/token_store.py:42: def rotate_secret_key(self) -> None:",
    r"C:\Users\dev\secrets\readme.txt",
    "tokenizer = AutoTokenizer.from_pretrained(name)",
    "token_count=5",
    "max_tokens: 4096",
    '{"input_tokens": 1234, "cache_read_input_tokens": 0, "output_tokens": 87}',
    "access_token_expires_at = now() + ttl",
    "class AuthTokenProvider(TokenSource): ...",
    "passwordHash = bcrypt(password)",
    # code, not literals
    "password = getpass()",
    'token = os.environ["GITHUB_TOKEN"]',
    "api_key = os.getenv('API_KEY')",
    "secret = settings.SECRET_KEY",
    "self.token = token",
    "def login(user: str, password: str = None) -> Session:",
    "token: string;",
    "const apiKey = process.env.API_KEY;",
    "password = None",
    # variables and templates
    "password=$PASSWORD",
    "export GITHUB_TOKEN=${GITHUB_TOKEN}",
    "token: ${{ secrets.NPM_TOKEN }}",
    "password: '{{ vault_db_password }}'",
    "set PASSWORD=%DB_PASSWORD%",
    "curl -H 'Authorization: Bearer $TOKEN' https://api.example.com",
    'headers = {"Authorization": f"Bearer {token}"}',
    "mysql -u root --password $MYSQL_ROOT_PASSWORD",
    # placeholders
    "password=<your-password>",
    "api_key: your_api_key_here",
    "secret: ***",
    "TOKEN=xxxxxxxxxxxx",
    'export GH_TOKEN="github_pat_xxxx"',
    "password: changeme",
    'SLACK_BOT_TOKEN="xoxb-token"',
    'password = ""',
    '"password": null',
    "OPENAI_API_KEY=sk-...abcd",
    # look-alikes
    "--- PASS: TestExtractUserPrompts/real_format (0.00s)",
    "echo 'Missing Secret::ERK_PAT secret is not configured'",
    "docker login --password-stdin < token.txt",
    "PWD=/home/user/project",
    "OLDPWD=~/src && PWD=$(pwd)",
    "cat /etc/passwd: No such file or directory",
    "**Password:** stored in the team vault",
    "See https://example.com:8443/docs and ssh://git@github.com:22/org/repo.git",
    "git@github.com:org/repo.git and alice@example.com",
    "2026-02-16T18:47:50.736Z key-value store, task-1234567890abcdef0123",
    "cache-key-" + fake(HEX, 64, "cachekey"),
    "-----BEGIN CERTIFICATE-----\nMIIB" + fake(B64, 64, "cert") + "\n-----END CERTIFICATE-----",
    # prose and code around the words the context rules follow
    "the password field is validated before submit",
    "reset your password from the account page",
    'password = request.form["password"]',
    "token = get_token()",
    "password: str",
    "if not token:",
    "for token in tokens: count += 1",
    "the token limit is 4096 tokens",
    "Password Manager settings are synced",
    "see the API key section of the docs",
    "api key rotation happens weekly",
    "the secret sauce is caching",
    "<password>",
    "$PASSWORD",
    "${TOKEN}",
    "apikey=getApiKeyFromEnvironment",
    "mysql -u root -p shop",
    "mkdir -p build/out && docker run -p 8080:80 app",
    "echo $DB_PASSWORD | sudo -S true",
    "gh auth login -p https",
    "cat password > out.txt",
    "authorization: {type: oauth2}",
    'Authorization: Digest username="bob", realm="api", nonce="dcd98b7102dd2f0e", uri="/"',
    "the token expires in 3600 seconds",
    "<token>${TOKEN}</token>",
    "- name: DB_PASSWORD\n  valueFrom:\n    secretKeyRef: {name: db, key: password}",
    # hex and base64 near key ids and in commands
    "sha256sum: " + fake(HEX, 64, "sha-neg") + "  dist/app.tar.gz",
    "echo " + base64.b64encode(b"hello, this is ordinary text").decode() + " | base64 -d",
    # near misses of the command rules: the same flags in other commands, other syntaxes
    "ssh -p 2222 deploy@host && scp -P 2222 f deploy@host:",
    "pytest -p no:cacheprovider && python -m pytest -p xdist",
    "docker run -p 127.0.0.1:5432:5432 postgres && xargs -P 4 gzip",
    r"grep -P '\d+x' f && mkdir -p dir && git log -p && patch -p1 < x",
    "kubectl -n ns logs -p pod-abc12 && cp -P a b && make -j4 && pip install -p",
    "git log -p 9fceb02d0ae598e95dc970b74767f19372d61af8",
    "msbuild app.sln /p:Configuration=Release && dotnet build /p:Version=1.2.3",
    "sqlcmd -S db -U sa -P $SA_PASSWORD && sqlplus / as sysdba && sqlplus /nolog",
    "sqlplus scott/$ORACLE_PW@orcl",
    "export PWD=/srv/app OLDPWD=/srv && BYPASS=true make",
    "export SSHPASS=$DEPLOY_PW && sshpass -e ssh host",
    "curl -s https://example.com | grep -A 3 error && git push -u origin main",
    "curl --user alice%40example.com:$PW https://x && smbclient -L fs -N",
    "lftp -u bob sftp://files.example.com",
    "openssl enc -d -aes-256-cbc -in f -k $KEY && curl -k https://x",
    "openssl enc -pass pass:$PW -in f && ssh-keygen -t ed25519 -N ''",
    "snmpwalk -v2c -c public host && grep -A 12 -X 'x' f",
    "echo hi | kinit bob",
    'kinit alice@EXAMPLE.COM <<< "$KRB_PASSWORD" && cat <<< "hello world" && grep -c x <<< "$line"',
    "kinit -kt /etc/krb5.keytab svc@EXAMPLE.COM && docker login --password-stdin < token.txt",
    "net use Z: \\\\fs01\\share /user:CORP\\alice * && net use Z: /delete && net use",
    "net use Z: \\\\fs01\\share %SHARE_PW% /user:alice /persistent:yes",
    "fields = ['password', 'email'] and define('DB_PASSWORD', getenv('DB_PASSWORD'))",
    "config['SECRET_KEY'] = 'changeme'; os.environ['API_KEY'] = os.getenv('X'); auth=('admin', password)",
    "CREATE USER u IDENTIFIED BY :pw; SET PASSWORD = PASSWORD(@x); net user alice /domain",
    "git clone ssh://git@github.com/org/repo && curl https://username@example.com/x && cargo login",
    "vault login -method=userpass username=bob",
    "rabbitmqctl add_user bob $RABBIT_PW && wpa_passphrase HomeNet",
    "influx query -t $INFLUX_TOKEN && ssh -t host top",
    "keytool -list -keystore k.jks -storepass changeit && openssl pkcs12 -pass env:P12_PW",
    "git commit --bypass foo && ls -la /tmp",
    # near misses of the command rules added with the token flags and positional secrets
    "fly -t ci set-pipeline -p app -c pipeline.yml && docker run -t alpine && tar -t -f a.tar",
    "mongod --auth --port 27017 && http --auth-type=bearer GET api.example.com",
    "java -jar jenkins-cli.jar -auth @/home/ci/.jenkins-creds build app && jenkins-cli -auth $JENKINS_AUTH",
    "snyk auth && snyk test --all-projects && vault login -method=userpass username=bob",
    "vault login token=$VAULT_TOKEN && consul acl set-agent-token agent $CONSUL_TOKEN",
    "bw unlock --passwordenv BW_PASSWORD && bw login --apikey && bw unlock $BW_PASSWORD",
    "mc alias set s3 https://s3.example.com $ACCESS_KEY $SECRET_KEY && mc ls s3",
    "poetry config virtualenvs.in-project true && poetry config http-basic.private ci $PW",
    "composer config --global process-timeout 600 && composer config repositories.foo vcs https://x",
    "bundle config set --local path vendor/bundle && bundle config set frozen true",
    "the requirepass option sets the password; requirepass is off by default\n# requirepass foobared",
    "CONFIG GET requirepass && masterauth is set on the replica && masterauth <password>",
    "gh secret set DEPLOY_TOKEN < token.txt && wrangler secret put STRIPE_KEY && echo done | gh secret list",
    "The password for the staging db is in 1Password. The API key for prod: ask the on-call engineer.",
    "a token for the CI user is required; the key to success is practice",
    # near misses of the forms added with the blind probe
    "STRIPE_SECRET_KEY=sk_test_xxxxxxxxxxxxxxxxxxxxxxxx and ghp_000000000000000000000000000000000000",
    "echo 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIbQ9 deploy@acme' >> ~/.ssh/authorized_keys",
    "echo $TOKEN > .token && echo done > keys.log && echo AAAAC3NzaC1lZDI1NTE5AAAAIbQ9xZ > id_key.pub",
    'host = os.getenv("DB_PASSWORD") or "postgres"; t = ENV.fetch("API_TOKEN") { nil }',
    'const tx = "0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060"; accounts: []',
    "the secret `GITHUB_TOKEN` is set by Actions; see X-Amz-Signature=<signature> in the docs",
]


@pytest.mark.parametrize("text", NEGATIVES)
def test_what_is_not_a_secret_survives_unchanged(text: str) -> None:
    assert redact(text) == text


def test_a_secret_inside_a_json_string_goes_and_the_json_stays_valid() -> None:
    token, key = FORMATS["github-pat"][0], FORMATS["openai-api-key"][0]
    record = {"command": f"export GITHUB_TOKEN={token} && gh pr list", "env": {"OPENAI_API_KEY": key}}
    out = redact(json.dumps(record))
    assert json.loads(out) == {
        "command": "export GITHUB_TOKEN=[REDACTED:github-pat] && gh pr list",
        "env": {"OPENAI_API_KEY": "[REDACTED:openai-api-key]"},
    }


def test_a_secret_in_doubly_encoded_json_goes() -> None:
    inner = json.dumps({"password": PW, "user": "bob"})
    out = redact(json.dumps({"input": inner}))
    assert not leaked(PW, out)
    assert json.loads(json.loads(out)["input"]) == {"password": "[REDACTED:password]", "user": "bob"}


def test_secrets_in_a_shell_command_go_and_the_command_stays_readable() -> None:
    jwt, key = FORMATS["jwt"][0], FORMATS["gcp-api-key"][0]
    command = (
        f"curl -s -H 'Authorization: Bearer {jwt}' 'https://maps.example.com/v1?key={key}&q=paris' | jq ."
    )
    assert redact(command) == (
        "curl -s -H 'Authorization: Bearer [REDACTED:jwt]' "
        "'https://maps.example.com/v1?key=[REDACTED:gcp-api-key]&q=paris' | jq ."
    )


def test_every_secret_of_a_multi_line_text_goes_and_the_lines_stay() -> None:
    secrets = [tokens[0] for kind, tokens in FORMATS.items() if kind != "private-key"]
    text = "\n".join(f"line {i}: value {secret} end" for i, secret in enumerate(secrets))
    out = redact(text)
    assert out.count("\n") == text.count("\n")
    assert all(not leaked(secret, out) for secret in secrets)
    assert out.count("[REDACTED:") == len(secrets)


def test_a_pem_block_in_the_middle_of_text_goes_whole() -> None:
    block = FORMATS["private-key"][0]
    assert redact(f"key file:\n{block}\nnext step") == "key file:\n[REDACTED:private-key]\nnext step"


def test_a_pem_begin_without_end_is_redacted_to_the_end_of_the_text() -> None:
    block = pem("RSA PRIVATE KEY", 20, "cut", end=False)
    out = redact(f"cat id_rsa\n{block}")
    assert out == "cat id_rsa\n[REDACTED:private-key]"


def test_redacting_the_head_slice_before_the_cap_leaves_no_prefix_of_a_straddling_secret() -> None:
    """The projector's contract: redact ``text[: cap + MAX_SECRET_SPAN]``, then cap. For every cap that
    falls inside a secret this equals redacting the whole text first, which leaks nothing."""
    for token in (FORMATS["github-pat"][0], FORMATS["anthropic-api-key"][0], FORMATS["jwt"][0], PW):
        text = "x" * 99 + " " + (f"password={token}" if token == PW else token) + " and then more text"
        whole = redact(text)
        assert not leaked(token, whole, width=4)
        start = text.index(token)
        for cap in range(start + 1, start + len(token)):
            assert redact(text[: cap + MAX_SECRET_SPAN])[:cap] == whole[:cap], (token, cap)


def test_capping_first_would_leak_a_prefix() -> None:
    """Why the order matters: a secret cut short before redaction is no longer recognisable."""
    token = FORMATS["github-pat"][0]
    assert redact(token[:12]) == token[:12]


def test_a_secret_longer_than_the_head_slice_is_redacted_to_the_slice_end() -> None:
    block = pem("RSA PRIVATE KEY", 60, "long")
    payload = b64url(json.dumps({"claims": fake(ALNUM, 3000, "claims")}).encode())
    long_jwt = f"{JWT.split('.')[0]}.{payload}.{fake(B64URL, 43, 'sig')}"
    for secret in (block, long_jwt):
        assert len(secret) > 2 * MAX_SECRET_SPAN
        text = "prefix " + secret
        out = redact(text[: 7 + MAX_SECRET_SPAN])
        assert out.startswith("prefix [REDACTED:")
        assert out.endswith("]")
        assert not leaked(secret, out)


def test_adjacent_secrets_each_get_a_marker() -> None:
    a, b = FORMATS["github-pat"][0], FORMATS["npm-access-token"][0]
    assert redact(f"{a} {b},{a}") == "[REDACTED:github-pat] [REDACTED:npm-access-token],[REDACTED:github-pat]"


def test_a_format_secret_inside_a_context_is_named_by_its_format() -> None:
    token = FORMATS["gitlab-pat"][0]
    assert redact(f"GITLAB_TOKEN={token}") == "GITLAB_TOKEN=[REDACTED:gitlab-pat]"
    assert (
        redact(f"https://oauth2:{token}@gitlab.com/g/p.git")
        == "https://oauth2:[REDACTED:gitlab-pat]@gitlab.com/g/p.git"
    )


@pytest.mark.timeout(60)
def test_long_repetitive_lines_take_linear_time() -> None:
    """A rejected value must not be re-read from every later operator, nor an accepted one be
    re-extended: either made these megabyte lines take many minutes (the linear code needs about a
    second); the timeout is only a guard against that regression, not a speed claim."""
    assert redact("token=$a" * 125_000) == "token=$a" * 125_000
    assert redact("api_key=" * 125_000) == "api_key=[REDACTED:api-key]"


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    "unit",
    [
        "token ",  # a name read back to its line's start from every occurrence was quadratic
        "password x\n",
        "a/" * 98 + " -p ",  # a command looked for before every flag, through a path, was quadratic
        "-P ",  # ... and along a line of flags, each the value of the one before it
        "sqlcmd -P x ",
        '"API_TOKEN", "value": ',
        "htpasswd -b ",
        "echo x | sudo -S ",
        "gh secret set x ",
        "AKIA" + "ABCDEFGHIJKLMNOP" + " " + "aB3/" * 10 + " ",
    ],
)
def test_the_context_rules_take_linear_time_on_repetitive_text(unit: str) -> None:
    """A quarter of a megabyte of one context, repeated: the linear code needs well under a second;
    the timeout only guards against a quadratic regression (minutes), it is not a speed claim."""
    out = redact(unit * (250_000 // len(unit)))
    assert redact(out) == out


FORMAT_TOKENS = [token for _, token in FORMAT_CASES]
# Fragments that make neighbours interact: keys, operators, quotes, URL pieces, an open PEM header.
GLUE = ["password=", "PASSword=", "token: ", "Authorization: Bearer ", "-----BEGIN RSA PRIVATE KEY-----"]
GLUE += ["://", "https://u:", "@h", "=", ":", "-", "_", ".", '"', "'", '\\"']


@pytest.mark.parametrize(
    "text",
    [
        # each found by the property test below: a second pass must change nothing
        "SENTRY_DSN=https://" + fake(HEX, 32, "dsn") + "@o4506.ingest.sentry.io/4507",
        FORMATS["cloudflare-origin-ca-key"][0] + FORMATS["aws-access-key-id"][0],
        "SharedAccessKey="
        + fake(B64, 43, "k")
        + "="
        + FORMATS["stripe-secret-key"][1]
        + "DD_API_KEY="
        + fake(HEX, 32, "d"),
        'PASSword=" ' + FORMATS["private-key"][0],
    ],
)
def test_redacting_twice_changes_nothing_more(text: str) -> None:
    once = redact(text)
    assert once != text
    assert redact(once) == once


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_redact_never_raises_and_is_idempotent_on_any_text(text: str) -> None:
    once = redact(text)
    assert redact(once) == once


@settings(max_examples=500, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from(FORMAT_TOKENS),
            st.sampled_from([case.text for case in CONTEXTS]),
            st.sampled_from(NEGATIVES),
            st.sampled_from(GLUE),
            st.text(max_size=24),
        ),
        max_size=10,
    ),
    st.lists(st.sampled_from([" ", "\n", "\t", ", ", "", '"', "="]), min_size=10, max_size=10),
)
def test_redaction_of_mixed_text_is_idempotent(parts: list[str], separators: list[str]) -> None:
    text = "".join(part + separator for part, separator in zip(parts, separators, strict=False))
    once = redact(text)
    assert redact(once) == once


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(st.sampled_from(FORMAT_TOKENS), st.sampled_from(NEGATIVES), st.text(max_size=24)),
        max_size=8,
    ),
    st.lists(st.sampled_from([" ", "\n", "\t", ", ", "; ", " | "]), min_size=8, max_size=8),
)
def test_a_format_secret_set_apart_by_whitespace_never_survives(
    parts: list[str], separators: list[str]
) -> None:
    text = " " + "".join(part + separator for part, separator in zip(parts, separators, strict=False))
    out = redact(text)
    others = "".join(
        part + separator
        for part, separator in zip(parts, separators, strict=False)
        if part not in FORMAT_TOKENS
    )
    for part in parts:
        if part in FORMAT_TOKENS:
            # fragments shared with the other parts (PEM scaffolding, say) are not the secret's own
            assert [piece for piece in leaked(part, out) if piece not in others] == [], part


@pytest.mark.corpus
def test_the_real_corpus_contains_no_false_positive() -> None:
    """The shared corpus was checked free of credentials: nothing in it may be redacted."""
    transcripts = sorted((SHARED / "corpus" / "transcripts").glob("*.jsonl"))
    if not transcripts:
        pytest.skip("the shared corpus is absent")

    def strings(node: object) -> list[str]:
        if isinstance(node, str):
            return [node]
        if isinstance(node, dict):
            return [s for value in node.values() for s in strings(value)]
        if isinstance(node, list):
            return [s for value in node for s in strings(value)]
        return []

    every = [
        s
        for path in transcripts
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip()
        for s in strings(json.loads(line))
    ]
    assert len(every) > 100_000
    assert [s for s in every if redact(s) != s] == []


def test_only_strings_found_clean_are_remembered_and_a_remembered_one_reads_the_same() -> None:
    from sbcore.observe import redact as module

    module.forget_clean()
    clean, secret = "git commit -m 'fix the parser'", f"export GITHUB_TOKEN={FORMATS['github-pat'][0]}"
    assert redact(clean) == clean and redact(secret) != secret
    assert clean in module._CLEAN and secret not in module._CLEAN  # a secret is never held by the memo
    assert redact(clean) == clean and redact(secret) == redact(secret)
    module.forget_clean()
    assert not module._CLEAN


def test_the_clean_memo_is_bounded() -> None:
    from sbcore.observe import redact as module

    module.forget_clean()
    for index in range(module._CLEAN_KEPT + 10):
        redact(f"ordinary line number {index}")
    assert len(module._CLEAN) <= module._CLEAN_KEPT
    long_text = "word " * 200
    redact(long_text)
    assert long_text not in module._CLEAN  # long strings rarely recur: they are not remembered


def test_a_secret_glued_to_the_start_of_another_is_found_once_that_one_is_a_marker() -> None:
    """A fixed-length format must end at a boundary, so ``sk-…`` glued before a PEM block is missed while
    the block's dashes follow it: the text is read again, and the block's marker is that boundary."""
    key, block = FORMATS["sk-api-key"][0], FORMATS["private-key"][0]
    out = redact(f"x {key}{block} y")
    assert out == "x [REDACTED:sk-api-key][REDACTED:private-key] y"
    assert redact(out) == out


def test_what_a_long_glued_chain_leaves_on_a_marker_goes_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """Readings are bounded (a hostile text could glue thousands of secrets end to end); past the bound,
    the run of token characters still glued to a marker, on either side, is redacted whole."""
    from sbcore.observe import redact as module

    monkeypatch.setattr(module, "_MORE_READINGS", 0)
    key, block = FORMATS["sk-api-key"][0], FORMATS["private-key"][0]
    assert redact(f"x {key}{block} y") == "x [REDACTED:secret][REDACTED:private-key] y"


def test_a_rule_that_matches_its_own_marker_is_read_twice_not_until_the_bound() -> None:
    """A webhook URL's path rule also matches the marker that replaced its path: a reading that changes
    nothing ends the readings, so the URL keeps its host and path instead of going whole."""
    from sbcore.observe import redact as module

    url = f"https://contoso.webhook.office.com/webhookb2/{uuid('t1')}@{uuid('t2')}/IncomingWebhook/x"
    readings = 0
    once = module._redact_once

    def counted(text: str, *given: Any) -> str:
        nonlocal readings
        readings += 1
        return once(text, *given)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(module, "_redact_once", counted)
        out = redact(url)
    assert out == "https://contoso.webhook.office.com/webhookb2/[REDACTED:teams-webhook]"
    assert readings == 2


def _vendor_formats() -> tuple[list[str], list[str]]:
    """The vendor formats with samples: those whose rule has no end of its own to find, and those that
    must end at a boundary (not followed by more of their characters) to be told from a longer word."""
    from sbcore.observe.secret_rules import FORMATS as _FORMATS

    bounded = {kind for kind, _, body in _FORMATS if "(?!" in body} & set(FORMATS)
    return sorted({kind for kind, _, _ in _FORMATS} - bounded & set(FORMATS)), sorted(bounded)


def _shows(out: str, secret: str) -> bool:
    """Whether twelve characters in a row of ``secret``'s letters and digits can be read in ``out``."""
    body = re.sub(r"[^A-Za-z0-9]", "", secret)
    plain = re.sub(r"[^A-Za-z0-9]", "", re.sub(r"\[REDACTED:[a-z0-9-]+\]", " ", out))
    return any(body[i : i + 12] in plain for i in range(max(1, len(body) - 11)))


def _glued_leaks(firsts: list[str], seconds: list[str]) -> list[tuple[str, str]]:
    return [
        (first, second)
        for first in firsts
        for second in seconds
        if _shows(out := redact(f"x {FORMATS[first][0]}{FORMATS[second][0]} y"), FORMATS[first][0])
        or _shows(out, FORMATS[second][0])
    ]


def test_a_secret_glued_to_the_end_of_a_vendor_token_goes_with_it() -> None:
    """Two secrets written end to end: the second's rule cannot see it (its guard refuses a match after a
    letter or digit), and a greedy body may run into its prefix (``ghp_…ghp``, leaving ``_…`` bare). So
    token characters glued to a vendor token go in its marker, and a PEM block has its own anchor (a body
    of dashes and letters would swallow its BEGIN). Every open-ended format, then every sample after it."""
    open_ended, _ = _vendor_formats()
    assert len(open_ended) >= 60
    assert _glued_leaks(open_ended, list(FORMATS)) == []


def test_a_fixed_length_token_ends_where_another_vendor_token_begins() -> None:
    """A fixed-length id must not run on into more of its characters (``AKIA`` and 16 more is an AWS key
    id only if it ends there), but what opens like a vendor token glued after it (a short word, then
    ``_``, ``-`` or ``.``: ``ghp_``, ``xoxb-``, ``hvs.``) is an end too: the id is found, and the token
    goes in its marker."""
    from sbcore.observe.secret_rules import NEXT_TOKEN as _NEXT_TOKEN

    _, bounded = _vendor_formats()
    assert {"aws-access-key-id", "mailgun-api-key", "sk-api-key"} <= set(bounded)
    opening = re.compile(_NEXT_TOKEN)
    shaped = [kind for kind, samples in FORMATS.items() if opening.match(samples[0])]
    assert len(shaped) >= 40
    assert _glued_leaks(bounded, shaped) == []
    aws, github = FORMATS["aws-access-key-id"][0], FORMATS["github-pat"][0]
    assert redact(f"x {aws}{github} y") == "x [REDACTED:aws-access-key-id] y"
    longer = f"x {aws}B7QXZ2KD y"  # more of its own kind: a longer word, not an AWS key id
    assert redact(longer) == longer


def test_a_flags_command_is_found_along_its_line_whatever_was_redacted_between() -> None:
    """Found by the property above: a command far back on a long line came into reach only once the
    secrets between it and its flag were replaced by shorter markers, so a second pass redacted more."""
    glued = (
        "mysql -u root --password Tr0ub4dor&3-O0E75H -e 'select 1' "
        + "CIRCLE_TOKEN=6c84faa9742116fd9fe9ac891f9e0f47f5baf454 " * 6
        + '[{"name": "API_TOKEN", "value": "fADUk1sPkp4NSHLWIu"}]zz -u root -pfADUk1sPkp4NSHLWIu shop'
    )
    once = redact(glued)
    assert "fADUk1sPkp4NSHLWIu" not in once and redact(once) == once
    assert redact('{"mode": "prod"}]mysql -u root -pW1ldC4rd9x shop') == (
        '{"mode": "prod"}]mysql -u root -p[REDACTED:password] shop'
    )
    marked = "[REDACTED:token]mysql -u root -pW1ldC4rd9x shop"  # a neighbour's marker: a longer word
    assert redact(marked) == marked
