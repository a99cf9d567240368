import requests
from dagster import RunRequest, SensorEvaluationContext, SkipReason, sensor

FEED_URL = "https://feeds.example-port.org/vessels/latest"


@sensor(job_name="ingest_vessel_calls", minimum_interval_seconds=300)
def vessel_feed_sensor(context: SensorEvaluationContext):
    resp = requests.get(FEED_URL, timeout=10)
    resp.raise_for_status()
    etag = resp.headers.get("ETag")
    if etag == context.cursor:
        return SkipReason("feed unchanged")
    context.update_cursor(etag)
    yield RunRequest(run_key=etag)
