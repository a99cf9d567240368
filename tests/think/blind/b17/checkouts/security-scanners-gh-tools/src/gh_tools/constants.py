"""Names of environment variables read by the CLI."""

TOKEN_ENV_VAR = "GH_TOOLS_TOKEN"
API_URL_ENV_VAR = "GH_TOOLS_API_URL"
