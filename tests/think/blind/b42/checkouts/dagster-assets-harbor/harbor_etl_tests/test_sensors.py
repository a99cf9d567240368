from unittest import mock

from dagster import build_sensor_context

from harbor_etl.sensors import vessel_feed_sensor


def test_sensor_skips_when_etag_unchanged():
    resp = mock.Mock(headers={"ETag": "abc"}, status_code=200)
    with mock.patch("harbor_etl.sensors.requests.get", return_value=resp):
        ctx = build_sensor_context(cursor="abc")
        result = vessel_feed_sensor(ctx)
    assert result.skip_message == "feed unchanged"
