"""The redaction rules as data: vendor formats, the keys whose value is a secret, and what a key's name says.

:mod:`sbcore.observe.redact` compiles these tables into its patterns; adding a vendor format or a key is an
edit of this file alone. Each table says what its rows mean. Standard library only: a hook imports it.
"""

from __future__ import annotations

NEXT_TOKEN = r"[A-Za-z][A-Za-z0-9]{1,7}[_.-][A-Za-z0-9]"
"""What a vendor token's opening looks like: a short word, then ``_``, ``-`` or ``.`` (``ghp_``,
``glpat-``, ``xoxb-``, ``sk_live_``, ``hvs.``). A shape rather than the list of prefixes: the list,
inlined in each of the nine bounded rules, added about 20 ms to the patterns a hook recording one prompt
compiles (a seventh of its redaction)."""


def ends(more: str) -> str:
    """The end of a fixed-length body: not followed by more of its characters (``more``, a character
    class), so a longer word is not taken for a secret; or followed by what opens like a vendor token,
    so an id with a token glued after it (``AKIA…ghp_…``) still ends there, and the token goes in its
    marker (see ``redact._glued_end``)."""
    return f"(?:(?![{more}])|(?={NEXT_TOKEN}))"


# -- format rules: (kind, literal prefix, body regex) -------------------------------------------------
# The prefix is a literal; the body is what follows it. A rule matches only when the prefix is not
# preceded by a letter or digit. Bodies are greedy and unbounded above where the vendor's length may
# grow, so a long or truncated secret is still redacted to its end, and token characters glued to the
# end go with it (see ``redact._glued_end``).
FORMATS: tuple[tuple[str, str, str], ...] = (
    # Cloud providers
    *(("aws-access-key-id", p, "[A-Z2-7]{16}" + ends("A-Za-z0-9")) for p in ("AKIA", "ASIA", "ABIA", "ACCA")),
    ("aws-bedrock-api-key", "ABSK", r"[A-Za-z0-9+/]{100,}={0,2}"),
    ("gcp-api-key", "AIza", r"[\w-]{35,}"),
    ("gcp-oauth-client-secret", "GOCSPX-", r"[\w-]{24,}"),
    ("google-oauth-access-token", "ya29.", r"[\w-]{30,}"),
    *(("digitalocean-token", p, r"[a-f0-9]{64}") for p in ("dop_v1_", "doo_v1_", "dor_v1_")),
    ("heroku-api-key", "HRKU-AA", r"[\w-]{50,}"),
    ("alibaba-access-key-id", "LTAI", r"[A-Za-z0-9]{12,30}" + ends("A-Za-z0-9")),
    ("cloudflare-origin-ca-key", "v1.0-", r"[a-f0-9]{24}-[a-f0-9]{100,}"),
    # Source hosting, registries, CI
    ("github-pat", "ghp_", r"[A-Za-z0-9]{36,}"),
    ("github-oauth-token", "gho_", r"[A-Za-z0-9]{36,}"),
    ("github-app-token", "ghu_", r"[A-Za-z0-9]{36,}"),
    ("github-app-token", "ghs_", r"[A-Za-z0-9]{36,}"),
    ("github-refresh-token", "ghr_", r"[A-Za-z0-9]{36,}"),
    ("github-fine-grained-pat", "github_pat_", r"\w{70,}"),
    ("gitlab-pat", "glpat-", r"[\w-]{20,}"),
    ("gitlab-deploy-token", "gldt-", r"[\w-]{20,}"),
    ("gitlab-runner-token", "glrt-", r"[\w-]{20,}"),
    *(
        ("gitlab-token", p, r"[\w-]{20,}")
        for p in ("glptt-", "glcbt-", "glft-", "glimt-", "glagent-", "gloas-", "glsoat-", "glffct-")
    ),
    ("bitbucket-app-password", "ATBB", r"[A-Za-z0-9]{28,}"),
    ("npm-access-token", "npm_", r"[A-Za-z0-9]{36,}"),
    ("pypi-token", "pypi-AgE", r"[\w-]{50,}"),
    ("dockerhub-token", "dckr_pat_", r"[\w-]{20,}"),
    ("dockerhub-token", "dckr_oat_", r"[\w-]{20,}"),
    ("circleci-token", "CCIPAT_", r"\w{30,}"),
    ("circleci-token", "CCIPRJ_", r"\w{30,}"),
    ("rubygems-api-key", "rubygems_", r"[a-f0-9]{48}"),
    # Infrastructure and secret managers
    ("pulumi-access-token", "pul-", r"[a-f0-9]{40}"),
    *(("vault-token", p, r"[\w-]{24,}") for p in ("hvs.", "hvb.", "hvr.")),
    *(
        ("doppler-token", f"dp.{scope}.", r"[A-Za-z0-9]{40,}")
        for scope in ("pt", "st", "ct", "sa", "scim", "audit")
    ),
    ("1password-service-account-token", "ops_eyJ", r"[A-Za-z0-9+/]{100,}={0,3}"),
    (
        "1password-secret-key",
        "A3-",
        r"[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}",
    ),
    ("age-secret-key", "AGE-SECRET-KEY-1", r"[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}"),
    *(("planetscale-token", p, r"[\w.=-]{32,}") for p in ("pscale_tkn_", "pscale_pw_", "pscale_oauth_")),
    ("supabase-token", "sbp_", r"[a-f0-9]{40}"),
    ("supabase-token", "sb_secret_", r"[\w-]{20,}"),
    *(("fly-io-token", p, r"[\w-]{40,}") for p in ("fo1_",)),
    *(("fly-io-token", p, r"[A-Za-z0-9+/]{100,}={0,3}") for p in ("fm2_", "fm1r_", "fm1a_")),
    # Observability, productivity
    ("grafana-token", "glc_", r"[A-Za-z0-9+/]{32,}={0,3}"),
    ("grafana-token", "glsa_", r"[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}"),
    ("sentry-token", "sntryu_", r"[a-f0-9]{64}"),
    ("sentry-token", "sntrys_", r"[A-Za-z0-9+/=_]{60,}"),
    ("new-relic-key", "NRAK-", r"[A-Z0-9]{27}"),
    ("new-relic-key", "NRII-", r"[\w-]{32}"),
    ("new-relic-key", "NRJS-", r"[a-f0-9]{19}"),
    ("linear-api-key", "lin_api_", r"[A-Za-z0-9]{40,}"),
    ("linear-api-key", "lin_oauth_", r"[a-f0-9]{64}"),
    ("notion-token", "ntn_", r"[A-Za-z0-9]{40,}"),
    ("notion-token", "secret_", r"[A-Za-z0-9]{43}" + ends("A-Za-z0-9")),
    ("atlassian-api-token", "ATATT3", r"[\w=-]{100,}"),
    ("prefect-api-key", "pnu_", r"[A-Za-z0-9]{36}"),
    ("posthog-personal-api-key", "phx_", r"[A-Za-z0-9]{40,}"),
    ("postman-api-key", "PMAK-", r"[a-f0-9]{24}-[a-f0-9]{34}"),
    ("shopify-token", "shpat_", r"[a-fA-F0-9]{32}"),
    ("shopify-token", "shpca_", r"[a-fA-F0-9]{32}"),
    ("shopify-token", "shppa_", r"[a-fA-F0-9]{32}"),
    ("shopify-token", "shpss_", r"[a-fA-F0-9]{32}"),
    ("figma-token", "figd_", r"[\w-]{40,}"),
    ("contentful-token", "CFPAT-", r"[\w-]{43}"),
    ("sourcegraph-token", "sgp_", r"(?:[a-fA-F0-9]{16}_|local_)?[a-fA-F0-9]{40}"),
    ("intra42-client-secret", "s-s4t2", r"(?:ud|af)-[a-f0-9]{64}"),
    ("mapbox-secret-token", "sk.eyJ", r"[\w-]{50,}\.[\w-]{20,}"),
    ("dynatrace-token", "dt0c01.", r"[A-Z0-9]{24}\.[A-Z0-9]{64}"),
    ("mailersend-api-key", "mlsn.", r"[a-f0-9]{64}"),
    ("resend-api-key", "re_", r"[A-Za-z0-9]{8}_[A-Za-z0-9]{24}" + ends("A-Za-z0-9")),
    *(
        (
            "plaid-access-token",
            f"access-{env}-",
            r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
        )
        for env in ("sandbox", "development", "production")
    ),
    # Build, deploy, code quality
    *(("sonarqube-token", p, r"[A-Za-z0-9]{40}") for p in ("squ_", "sqp_", "sqa_")),
    ("netlify-token", "nfp_", r"[A-Za-z0-9]{36,}"),
    ("buildkite-token", "bkua_", r"[a-f0-9]{40}"),
    *(("deno-deploy-token", p, r"[A-Za-z0-9]{36}") for p in ("ddp_", "ddw_")),
    ("jfrog-token", "AKCp", r"[A-Za-z0-9]{60,}"),
    # Chat and mail
    ("slack-bot-token", "xoxb-", r"\d{6,}-[\w-]{10,}"),
    ("slack-user-token", "xoxp-", r"\d{6,}-[\w-]{10,}"),
    ("slack-app-token", "xapp-", r"\d-[A-Z0-9]{6,}-\d{6,}-[a-z0-9]{20,}"),
    *(("slack-token", p, r"[\w-]{10,}") for p in ("xoxa-", "xoxr-", "xoxs-", "xoxo-", "xoxc-", "xoxd-")),
    ("slack-token", "xoxe.xox", r"[bp]-\d-[A-Za-z0-9]{100,}"),
    ("slack-token", "xoxe-", r"(?:\d-[A-Za-z0-9]{100,}|\d{6,}-[\w-]{10,})"),
    ("sendgrid-api-key", "SG.", r"[\w-]{22}\.[\w-]{43}"),
    ("mailgun-api-key", "key-", r"[0-9a-f]{32}" + ends("0-9a-f")),
    ("brevo-api-key", "xkeysib-", r"[a-f0-9]{64}-[A-Za-z0-9]{16}"),
    # Payments
    *(("stripe-secret-key", p, r"[A-Za-z0-9]{20,}") for p in ("sk_live_", "sk_test_", "sk_prod_")),
    *(("stripe-restricted-key", p, r"[A-Za-z0-9]{20,}") for p in ("rk_live_", "rk_test_", "rk_prod_")),
    ("stripe-webhook-secret", "whsec_", r"[A-Za-z0-9+/=]{24,}"),
    ("square-token", "sq0atp-", r"[\w-]{22,}"),
    ("square-token", "sq0csp-", r"[\w-]{40,}"),
    ("square-token", "EAAA", r"[\w-]{56,}"),
    ("facebook-access-token", "EAA", r"[MC][A-Za-z0-9]{100,}"),
    *(
        ("braintree-access-token", f"access_token${env}$", r"[0-9a-z]{16}\$[0-9a-f]{32}")
        for env in ("production", "sandbox")
    ),
    # Model providers (the more specific "sk-" prefixes first: the first matching rule wins)
    ("anthropic-api-key", "sk-ant-", r"[a-z]{2,8}\d\d-[\w-]{32,}"),
    ("openrouter-api-key", "sk-or-v1-", r"[a-f0-9]{64}"),
    ("langfuse-secret-key", "sk-lf-", r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"),
    *(("openai-api-key", p, r"[\w-]{40,}") for p in ("sk-proj-", "sk-svcacct-", "sk-admin-")),
    ("openai-api-key", "sk-", r"[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}"),
    ("sk-api-key", "sk-", r"[A-Za-z0-9]{32,}" + ends(r"\w-")),
    ("huggingface-token", "hf_", r"[A-Za-z0-9]{30,}"),
    ("huggingface-token", "api_org_", r"[A-Za-z0-9]{30,}"),
    ("groq-api-key", "gsk_", r"[A-Za-z0-9]{48,}"),
    ("replicate-api-token", "r8_", r"[A-Za-z0-9]{37,}"),
    ("perplexity-api-key", "pplx-", r"[A-Za-z0-9]{40,}"),
    ("xai-api-key", "xai-", r"[A-Za-z0-9]{70,}"),
    ("tavily-api-key", "tvly-", r"(?:dev-|prod-)?[A-Za-z0-9]{32,}"),
    *(("langsmith-api-key", p, r"[a-f0-9]{32}_[a-f0-9]{10}") for p in ("lsv2_pt_", "lsv2_sk_")),
    ("pinecone-api-key", "pcsk_", r"[A-Za-z0-9_]{50,}"),
    # Feature flags
    ("launchdarkly-sdk-key", "sdk-", r"[a-f0-9]{8}(?:-[a-f0-9]{4}){3}-[a-f0-9]{12}" + ends(r"\w-")),
)

# A URL's signature: whoever holds the URL may fetch what it signs until it expires. (kind, what ends just
# before the "=", four characters each; the pattern of the value after it, as group ``v``.)
URL_SIGNATURES: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("azure-sas-signature", ("?sig", "&sig", ";sig"), r"(?<=[?&;]sig=)(?P<v>[\w%+/=-]{20,})"),
    (  # S3's and Cloud Storage's presigned URLs, CloudFront's signed ones
        "url-signature",
        ("ture",),
        r"(?:(?<=[?&]X-Amz-Signature=)|(?<=[?&]X-Goog-Signature=)|(?<=[?&]Signature=))(?P<v>[\w%+/=~-]{20,})",
    ),
)

# -- context rules -----------------------------------------------------------------------------------
# Keys whose value is a secret, as word tuples: a key counts when it ends with any spelling of one
# (``db_password``, ``clientSecret``, ``X-Api-Key``, ``AWS_SECRET_ACCESS_KEY``). "pass" counts when
# compound ("DB_PASS", not "bypass"), or as a whole word before "=" only (Go tests print "PASS: name");
# so does "pwd" ("Uid=sa;Pwd=…" in a connection string): the shell's PWD holds a path, which the
# placeholder rules leave alone.
KEYS: tuple[tuple[str, ...], ...] = (
    ("password",),
    ("passwd",),
    ("passphrase",),
    ("_pass",),
    ("-pass",),
    ("_pwd",),
    ("secret",),
    ("token",),
    ("private", "key", "id"),
    ("access", "id"),  # the half of a key pair some vendors name so (Sumo Logic's accessId)
    ("sonar", "login"),  # SonarQube takes its token as sonar.login
    ("mnemonic",),  # a wallet's recovery words (WALLET_MNEMONIC, seedPhrase): every key it derives
    ("seed", "phrase"),
    *(
        (*stem, "key")
        for stem in (
            ("api",),
            ("secret",),
            ("access",),
            ("private",),
            ("signing",),
            ("encryption",),
            ("master",),
            ("license",),
            ("account",),
            ("shared", "access"),
            ("app",),
            ("auth",),
        )
    ),
)
WHOLE_WORD_KEYS: tuple[tuple[str, ...], ...] = (("pass",), ("pwd",), ("psk",))  # psk: a Wi-Fi pre-shared key
CLI_FLAGS = (
    "password",
    "passwd",
    "pass",
    "token",
    "auth-token",
    "access-token",
    "api-key",
    "secret",
    "oauth2-bearer",  # curl's
    "auth",  # netlify's token, HTTPie's user:password
)
# Commands (ending in "_" and a word, which ``redact`` finds after its "_" anchor) whose second argument
# is a password: ``wpa_passphrase SSID PASSPHRASE``, ``rabbitmqctl add_user USER PASSWORD``.
SECOND_ARGUMENT_PASSWORD = (
    "wpa_passphrase",
    "rabbitmqctl add_user",
    "rabbitmqctl change_password",
    "rabbitmqctl authenticate_user",
)

# The first pattern found in the lower-cased key names the kind; the generic kinds come last.
KEY_KINDS: tuple[tuple[str, str], ...] = (
    (r"secret_?access_?key", "aws-secret-access-key"),
    (r"aws.*session|^session_?token$", "aws-session-token"),
    (r"_authtoken$", "npmrc-auth-token"),
    (r"private_?key_?id$", "gcp-service-account-key-id"),
    (r"^accountkey$|account_?key$", "azure-storage-account-key"),
    (r"shared_?access_?key$", "azure-shared-access-key"),
    (r"datadog|^dd_", "datadog-api-key"),
    (r"new_?relic|^nr_", "new-relic-key"),
    (r"twilio", "twilio-auth-token"),
    (r"okta", "okta-api-token"),
    (r"travis", "travis-ci-token"),
    (r"circle", "circleci-token"),
    (r"heroku", "heroku-api-key"),
    (r"mailgun", "mailgun-api-key"),
    (r"sentry", "sentry-token"),
    (r"cloudflare|^cf_", "cloudflare-api-token"),
    (r"databricks", "databricks-token"),
    (r"cohere|^co_api_key$", "cohere-api-key"),
    (r"mistral", "mistral-api-key"),
    (r"discord", "discord-bot-token"),
    (r"telegram", "telegram-bot-token"),
    (r"openai", "openai-api-key"),
    (r"anthropic", "anthropic-api-key"),
    (r"pass|pwd|^psk$", "password"),
    (r"mnemonic$|seed_?phrase$", "wallet-seed-phrase"),
    (r"access_?id$", "access-id"),
    (r"sonar", "sonarqube-token"),
    (r"api[ _-]?key$", "api-key"),
    (r"private[_-]?key$", "private-key"),
    (r"token$|bearer$", "token"),
    (r"secret$", "secret"),
    (r"key$", "secret-key"),
)
# A reference to where a secret is kept, not the secret (`vault:secret/data/db#password`, 1Password's `op://…`,
# an AWS Secrets Manager ARN): what a deployment resolves at run time.
SECRET_STORES = ("vault:", "ref+", "op://", "arn:aws:secretsmanager:", "arn:aws:ssm:", "sm://", "awssm://")
PLACEHOLDER_WORDS = frozenset(
    {
        *("changeme", "change_me", "change-me", "changeit", "example", "placeholder", "dummy", "todo", "tbd"),
        *("password", "passwd", "pass", "pwd", "secret", "token", "apikey", "api_key"),
        *("none", "null", "nil", "true", "false", "undefined", "empty", "redacted", "hidden", "masked"),
    }
)
# A digit-free value one of whose parts is such a word is a fixture, not a secret: "xoxb-token",
# "test-api-key". (Real keys carry digits, and a long value may contain "_test_" by chance.)
PLACEHOLDER_PARTS = frozenset(
    {"token", "secret", "password", "passwd", "key", "test", "fake", "dummy", "example", "sample", "mock"}
)
