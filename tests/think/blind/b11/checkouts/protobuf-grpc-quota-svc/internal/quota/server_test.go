package quota

import (
	"context"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	quotav1 "github.com/tallyho/quota-svc/gen/quota/v1"
)

func TestCheckQuota_Exhausted(t *testing.T) {
	srv := NewServer(newFakeLimiter(1))
	ctx := context.Background()
	if _, err := srv.CheckQuota(ctx, &quotav1.CheckQuotaRequest{Key: "k", Cost: 1}); err != nil {
		t.Fatal(err)
	}
	_, err := srv.CheckQuota(ctx, &quotav1.CheckQuotaRequest{Key: "k", Cost: 1})
	if status.Code(err) != codes.ResourceExhausted {
		t.Fatalf("want ResourceExhausted, got %v", err)
	}
}
