import math

from waypoint_follower.waypoint_io import load_waypoints, yaw_to_quaternion


def test_yaw_to_quaternion_identity():
    z, w = yaw_to_quaternion(0.0)
    assert z == 0.0 and w == 1.0


def test_load_waypoints(tmp_path):
    p = tmp_path / 'wp.yaml'
    p.write_text('waypoints:\n  - {x: 1, y: 2, yaw: 1.5708}\n  - {x: 3, y: 4}\n')
    wps = load_waypoints(str(p))
    assert wps[0] == (1.0, 2.0, 1.5708)
    assert wps[1][2] == 0.0
    assert math.isclose(yaw_to_quaternion(wps[0][2])[1], math.cos(0.7854), rel_tol=1e-4)
