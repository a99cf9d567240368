module github.com/dev/recipebox

go 1.23

require github.com/a-h/templ v0.3.819
