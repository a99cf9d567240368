module github.com/tallyho/quota-svc

go 1.22
