import sys
from pathlib import Path

from pytest_ansible.host_manager import get_host_manager  # noqa: F401  (fixtures for integration-style tests)

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
