import os

from gh_tools.constants import TOKEN_ENV_VAR


def main() -> int:
    token = os.environ.get(TOKEN_ENV_VAR)
    if not token:
        print(f"set {TOKEN_ENV_VAR}")
        return 2
    return 0
