import json
import sys


def render_enums(schema):
    out = []
    for name, values in schema.get("enums", {}).items():
        out.append(f"pub enum {name} {{")
        for v in values:
            out.append(f"    {v},")
        out.append("}")
    return "\n".join(out)


def main(argv):
    schema = json.load(open(argv[1]))
    print(render_enums(schema))


if __name__ == "__main__":
    main(sys.argv)
