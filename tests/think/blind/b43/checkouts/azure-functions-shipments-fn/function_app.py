import json
import logging

import azure.functions as func

from shipments.parse import parse_shipment

app = func.FunctionApp()


@app.queue_trigger(arg_name="msg", queue_name="shipments", connection="AzureWebJobsStorage")
def process_shipment(msg: func.QueueMessage) -> None:
    shipment = parse_shipment(json.loads(msg.get_body()))
    logging.info("shipment %s for order %s", shipment.id, shipment.order_id)
