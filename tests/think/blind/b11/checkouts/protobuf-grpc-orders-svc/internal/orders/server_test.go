package orders

import (
	"context"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	ordersv1 "github.com/harbor/orders-svc/gen/orders/v1"
)

func TestGetOrder_NotFound(t *testing.T) {
	srv := newTestServer(t)
	_, err := srv.GetOrder(context.Background(), &ordersv1.GetOrderRequest{OrderId: "nope"})
	if status.Code(err) != codes.NotFound {
		t.Fatalf("want NotFound, got %v", err)
	}
}

func TestListOrders_Tenant(t *testing.T) {
	srv := newTestServer(t, seedOrders("t1", 3), seedOrders("t2", 2))
	resp, err := srv.ListOrders(context.Background(), &ordersv1.ListOrdersRequest{TenantId: "t1"})
	if err != nil {
		t.Fatal(err)
	}
	if got := len(resp.GetOrders()); got != 3 {
		t.Fatalf("want 3 orders, got %d", got)
	}
}
