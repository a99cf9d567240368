module github.com/acme/payments

go 1.22

require (
	github.com/stretchr/testify v1.9.0
	go.temporal.io/sdk v1.26.1
)
