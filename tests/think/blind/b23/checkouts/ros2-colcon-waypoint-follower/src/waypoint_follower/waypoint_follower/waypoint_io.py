"""Read waypoint files."""
import math

import yaml


def yaw_to_quaternion(yaw):
    """Return (z, w) of a planar rotation."""
    return math.sin(yaw / 2.0), math.cos(yaw / 2.0)


def load_waypoints(path):
    """Load a list of (x, y, yaw) tuples from a YAML file."""
    with open(path) as f:
        data = yaml.safe_load(f)
    return [(float(w['x']), float(w['y']), float(w.get('yaw', 0.0)))
            for w in data['waypoints']]
