import json


def load_schema(path: str) -> dict:
    with open(path) as f:
        data = json.load(f)
    if "version" not in data:
        raise ValueError(f"{path}: missing 'version'")
    return data
