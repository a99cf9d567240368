extensions = ["reqtrace"]
