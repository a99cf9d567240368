from launch import LaunchDescription
from launch_ros.actions import Node
from ament_index_python.packages import get_package_share_directory
import os


def generate_launch_description():
    params = os.path.join(get_package_share_directory('scan_bridge'), 'config', 'params.yaml')
    return LaunchDescription([
        Node(package='scan_bridge', executable='scan_bridge_node', parameters=[params]),
    ])
