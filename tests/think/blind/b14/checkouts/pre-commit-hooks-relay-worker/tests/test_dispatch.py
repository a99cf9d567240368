import httpx
import respx

from relay_worker.dispatch import dispatch


@respx.mock
async def test_dispatch_posts_payload():
    route = respx.post("https://hooks.example.test/in").mock(return_value=httpx.Response(202))
    await dispatch("https://hooks.example.test/in", {"id": 1})
    assert route.called
