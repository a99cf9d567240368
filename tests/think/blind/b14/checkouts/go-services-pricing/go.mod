module github.com/acme/pricing

go 1.23

require github.com/shopspring/decimal v1.4.0
