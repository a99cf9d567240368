import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc


def test_health_serving(grpc_server_addr):
    with grpc.insecure_channel(grpc_server_addr) as ch:
        stub = health_pb2_grpc.HealthStub(ch)
        resp = stub.Check(health_pb2.HealthCheckRequest(service=""))
    assert resp.status == health_pb2.HealthCheckResponse.SERVING
