from airflow.providers.slack.notifications.slack_webhook import SlackWebhookNotifier


def task_failure_alert(context):
    ti = context["ti"]
    SlackWebhookNotifier(slack_webhook_conn_id="slack_alerts", text=f":red_circle: {ti.dag_id}.{ti.task_id} failed <{ti.log_url}|logs>").notify(context)
