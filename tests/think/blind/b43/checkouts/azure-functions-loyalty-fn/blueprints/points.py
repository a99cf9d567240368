import json
import logging

import azure.functions as func

from loyalty.ledger import award_points

bp = func.Blueprint()


@bp.queue_trigger(arg_name="msg", queue_name="order-completed", connection="AzureWebJobsStorage")
def award_on_order(msg: func.QueueMessage) -> None:
    event = json.loads(msg.get_body())
    award_points(event["customerId"], event["total"])
    logging.info("awarded points for order %s", event["orderId"])
