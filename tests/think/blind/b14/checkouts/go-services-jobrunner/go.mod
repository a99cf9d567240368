module github.com/acme/jobrunner

go 1.23
