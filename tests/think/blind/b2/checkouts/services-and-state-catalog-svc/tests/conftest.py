import os

os.environ.setdefault("REDIS_URL", "redis://localhost:6379/15")
