import schemathesis

from app.main import app

schema = schemathesis.from_asgi("/openapi.json", app)


@schema.parametrize()
def test_api_conforms(case):
    case.call_and_validate()
