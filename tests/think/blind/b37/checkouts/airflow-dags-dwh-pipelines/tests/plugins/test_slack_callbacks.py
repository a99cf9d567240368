from plugins.callbacks.slack import task_failure_alert


def test_failure_alert_mentions_task(mocker):
    notifier = mocker.patch("plugins.callbacks.slack.SlackWebhookNotifier")
    ti = mocker.Mock(task_id="load", dag_id="etl", log_url="http://x")
    task_failure_alert({"ti": ti})
    assert "load" in notifier.call_args.kwargs["text"]
